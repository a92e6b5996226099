//! Games' snapshots (issue 20): a game's state after its last committed
//! change, written with that change, so that loading a game parses its
//! plays but replays none, and start-up schedules every game from the
//! snapshot's due time without loading it at all.
//!
//! A snapshot is derived data, never the record: the turn log and the
//! events are. One that is of another [`VERSION`], that does not decode,
//! or that folds another position of the log than the log's own is
//! rebuilt by replay, and logged.

use crate::config::SpeakerConfig;
use crate::kinds::vol1::GameState;
use crate::store::SnapshotRow;

use super::{Live, Referee};

/// The encoding's version: the state's JSON as this build writes it. The
/// crate version is part of it, so a new release never trusts an older
/// one's encoding; change the number when the state's shape changes
/// between releases (2: the state folds where the last Move went, Rule 1.8.9;
/// 3: the Courier's stations, the Gold Rush's lodes and the Lost & Found
/// Box, Rules 1.11.2, 1.7.47, 1.7.53; 4: the Suspect Packages and who placed
/// each, and the PoID, Rules 1.4.7, 1.7.30, 1.4.24; 5: the Gambits, each
/// player's recent positions and pending Denials, Rules 1.18.1 - 1.18.4,
/// the PoID's placer and pending blast, the Token Cascade, a Bifurcated
/// player's Piece B, Rules 1.4.24, 1.7.36, 1.7.42).
pub const VERSION: &str = concat!("6/", env!("CARGO_PKG_VERSION"));

/// The Speaker settings a game's due time depends on: a snapshot's due
/// time computed under others is recomputed at start.
pub(super) fn due_key(s: &SpeakerConfig) -> String {
    format!(
        "reminder={} timeouts={} win_window={} waiting={}",
        s.reminder_hours, s.timeouts, s.win_window_hours, s.waiting_notice_hours
    )
}

/// The state encoded (JSON of [`GameState`]).
pub fn encode(state: &GameState) -> String {
    serde_json::to_string(state).expect("a game state serialises")
}

/// The state decoded.
///
/// # Errors
///
/// When `text` is not a state this version encodes.
pub fn decode(text: &str) -> Result<GameState, serde_json::Error> {
    serde_json::from_str(text)
}

impl Referee {
    /// The snapshot of `live` as it now stands, to commit with the change
    /// that made it.
    pub(super) fn snapshot_row(&self, live: &Live) -> SnapshotRow {
        SnapshotRow {
            game: live.game.tag.clone(),
            version: VERSION.to_string(),
            due_key: self.due_key.clone(),
            due_at: self.due_of(live),
            state: encode(&live.game.state),
        }
    }
}
