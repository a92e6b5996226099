//! Mail edges: reading lounge messages, classifying them, writing replies.
//!
//! [`inbound`] turns raw RFC 5322 bytes into an [`inbound::Inbound`] (text
//! body, threading headers, loop and auto-reply markers, the trusted
//! `Authentication-Results` verdict); [`classify`] says what a message is
//! (a turn, a Buzz, a command, chatter...) and which game it concerns,
//! as the [`request::Request`] the referee acts on;
//! [`digest`] reads the posts of a MIME digest as messages of their own.
//! They are pure; each module's docs list the judgment calls it makes. Mail the
//! bot must never answer ([`inbound::AutoKind`]) classifies as chatter. The
//! IMAP, Maildir and SMTP transports live beside them.

pub mod absence;
pub mod address;
pub mod attach;
pub mod auth;
pub mod classify;
pub mod commands;
pub mod digest;
pub mod identity;
pub mod imap;
pub mod inbound;
pub mod inbox;
pub mod lobby;
pub mod maildir;
pub mod outbound;
pub mod render;
pub mod request;
pub mod send;
pub mod wrap;
