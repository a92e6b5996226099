//! The game archive as static web pages (issue 18, item 3): `mornbot
//! archive build DIR` writes, from the database, a small site any static
//! web server can serve.
//!
//! ```text
//! DIR/index.html            every game: status, players, winner, turns, last activity
//! DIR/style.css             the one style sheet (no JavaScript anywhere)
//! DIR/network.svg           the network, drawn once, under every picture
//! DIR/<tag>/index.html      a game: players, status, the picture as it stands, its turns
//! DIR/<tag>/current.svg     the game as it stands, over the network
//! DIR/<tag>/gsd.html        the game's whole GSD as it stands (the one page with every Play)
//! DIR/<tag>/turn-NNN.html   a turn: play, verdict, picture, the GSD's tables; linked back and forth
//! DIR/<tag>/turn-NNN.svg    the game after turn NNN, over the network
//! ```
//!
//! A Volume 1 game is read as the daemon reads it (a [`record::Source`]:
//! its definition, the fold of its turn log, its events; the daemon gives
//! the one `mornbot archive` uses), a game of another kind through its kind
//! (`crate::kinds`); each turn comes from the game's own fold: the
//! verdict is the engine's adjudication of the play against the state
//! before it (what changed), or the Judgment that made it Legal, with the
//! attempts the bot refused first, from the events.
//!
//! Layers: [`model`] (the records), [`record`] (a stored game as records,
//! pure), [`html`] (records as pages, pure), and the edge that reads the
//! store and writes files ([`build`]): incremental (a file whose bytes are
//! unchanged is not rewritten; each written file is renamed into place),
//! games rendered on every core, and deterministic (the same database
//! gives the same bytes).

mod hosted;
pub mod html;
pub mod model;
pub mod record;
#[allow(clippy::disallowed_methods, clippy::disallowed_types)]
mod site;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

pub use site::{build, Report};

/// Why the archive could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// A stored Volume 1 game does not read or fold.
    #[error("game {tag}: {detail}")]
    Game {
        /// The game.
        tag: String,
        /// Why.
        detail: String,
    },
    /// A game's log no longer replays.
    #[error("game {tag}: turn {turn} no longer replays as legal")]
    Replay {
        /// The game.
        tag: String,
        /// The first turn that does not.
        turn: usize,
    },
    /// A game of another kind does not fold from its log.
    #[error("game {tag}: {detail}")]
    Hosted {
        /// The game.
        tag: String,
        /// Why.
        detail: String,
    },
    /// A game's picture cannot be drawn.
    #[error("game {tag}: {source}")]
    Picture {
        /// The game.
        tag: String,
        /// Why.
        source: crate::picture::PictureError,
    },
    /// A file or directory cannot be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
