//! Game kinds (issue 41): a lounge hosts more than Volume 1. A closed
//! [`Kind`] names each game kind mornbot hosts and dispatches to it
//! exhaustively; the daemon reaches a hosted game's rules only through
//! [`Kind`] and [`Position`], never through a kind's module.
//!
//! Each kind is a pure core (no IO, no clock, no randomness): it reads an
//! order from a mail body, judges it against a position, says who must act
//! next, what a Timeout plays, renders the position for a viewer, and
//! writes the order's canonical log line, from which the position is folded
//! again on a restart (rollback is a replay).
//!
//! - [`kind`](mod@kind): the interface: [`Kind`], [`Position`], [`Order`].
//! - [`outcome`]: what it answers: [`Judged`], [`Breach`], [`Next`],
//!   [`Viewer`].
//! - [`mcxml`]: XML Mornington Crescent.
//! - [`moneyrun`]: Money Run (issue 42), not yet a [`Kind`].
//! - [`oneday`]: One Day in London (issue 43): its deck and journey
//!   validator, not yet a [`Kind`].
//! - [`vol1`]: Mornington Nomic, Volume 1, as a [`Position`]: its Plays
//!   read, judged by `crate::engine` and rendered as the GSD, and its
//!   definition (start Game Time, house rulings, the Drone's name).
//!
//! The referee runs Volume 1's own workflows (buzzes, Judgments, Points,
//! Game Time: issue 41 keeps them Volume 1's) through [`vol1`]'s
//! `workflow`; no edge names the engine or the GSD module
//! (`tests/layering.rs`).
//!
//! Random draws come in as values: a kind that draws inside a turn asks a
//! [`Draws`] by name, and the daemon answers from the game's committed seed
//! ([`draws`]).

mod day;
pub mod draws;
pub mod kind;
pub mod mcxml;
mod money;
pub mod moneyrun;
pub mod oneday;
pub mod outcome;
pub mod position;
pub mod vol1;
mod words;

pub use draws::{Draws, NoDraws, Recorded};
pub use kind::{Kind, KindError, Order, Position};
pub use outcome::{Breach, Judged, Next, Viewer};
