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
//! - [`kind`](mod@kind): the interface: [`Kind`], [`Position`], [`Order`],
//!   [`Judged`], [`Next`], [`Viewer`].
//! - [`mcxml`]: XML Mornington Crescent.
//!
//! Volume 1 (`mn-vol1`) is a [`Kind`] for what the lobby, HELP and the
//! deadline need to know; its turns are still judged by the referee's own
//! Volume 1 path (`crate::engine`, `crate::gsd`), not through [`Position`].

pub mod kind;
pub mod mcxml;

pub use kind::{Breach, Judged, Kind, KindError, Next, Order, Position, Viewer};
