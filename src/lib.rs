//! mornbot: the referee of Mornington Nomic, played by email.
//!
//! # Module map
//!
//! Pure modules (no IO, no async, no clock, no randomness):
//! - [`map`]: the 1999 Underground as data, with distances and categories.
//! - [`gsd`]: the Game State Document and play grammar, parser and renderer.
//!
//! - [`engine`]: the adjudicator, (state, play) -> outcome.
//! - [`speaker`]: deadlines and the referee draw, clock injected.
//! - [`dice`]: the bot's own dice, drawn from a committed seed (the seed
//!   comes in as a value).
//! - [`picture`]: a game drawn on the network, as SVG and PNG.
//! - [`kinds`]: the game kinds beside Volume 1 (mc-xml: XML Mornington
//!   Crescent), each a pure core.
//! - [`text`]: text as people's machines write it (encodings, invisible
//!   characters, box drawing) made what a reader sees.
//!
//! Edges (IO, async, configuration):
//! - [`mail`]: parsing and classifying mail (pure), and the IMAP, Maildir
//!   and SMTP transports.
//! - [`store`], the SQLite database.
//! - [`daemon`]: the referee and the daemon loop.
//! - [`archive`]: the game archive as static web pages (its records and
//!   pages pure, its edge reading the store and writing files).
//! - [`cli`]: the `mornbot` command line.
//! - [`config`]: the one TOML configuration file.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// The edges may do IO; clippy.toml denies it everywhere else, so the
// compiler keeps it out of map, gsd, engine and speaker.
pub mod archive;
#[allow(clippy::disallowed_methods, clippy::disallowed_types)]
pub mod cli;
#[allow(clippy::disallowed_methods, clippy::disallowed_types)]
pub mod config;
#[allow(clippy::disallowed_methods, clippy::disallowed_types)]
pub mod daemon;
pub mod dice;
pub mod engine;
pub mod envelope;
pub mod gsd;
pub mod kinds;
#[allow(clippy::disallowed_methods, clippy::disallowed_types)]
pub mod mail;
pub mod map;
pub mod picture;
pub mod speaker;
#[allow(clippy::disallowed_methods, clippy::disallowed_types)]
pub mod store;
pub mod text;

/// A caught panic's message (its `&str` or `String` payload), for the
/// places that turn a panic into a reported problem (a quarantined mail,
/// a failed start-up check).
pub(crate) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}
