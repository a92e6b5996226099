//! Mail edges: reading lounge messages, classifying them, writing replies.
//!
//! [`inbound`] turns raw RFC 5322 bytes into an [`inbound::Inbound`] (text
//! body, threading headers, loop and auto-reply markers); [`classify`] says
//! what a message is (a turn, a Buzz, a command, chatter...). Both are pure;
//! the IMAP, Maildir and SMTP transports live beside them.

pub mod classify;
pub mod inbound;
