//! The records stored and read: games, turns, mails in and out, events, and
//! the [`Commit`] that writes what one message causes.

use super::*;

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The tag.
    pub tag: String,
    /// The definition, as JSON.
    pub definition: String,
    /// When the game was first stored: its first player's clock starts.
    pub created_at: DateTime<Utc>,
}

/// A turn of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRow {
    /// 1-based turn number.
    pub n: u64,
    /// Who played it.
    pub player: String,
    /// The canonical play line.
    pub play: String,
    /// The message that carried it.
    pub message_id: String,
    /// When the server received it.
    pub submitted_at: DateTime<Utc>,
}

pub use crate::envelope::{NewMail, Origin, OutMail};

/// A processed message, as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Processed {
    /// Its Message-ID (without angle brackets).
    pub message_id: String,
    /// Where it came from.
    pub origin: Origin,
    /// The game it concerned, if any.
    pub game: Option<String>,
    /// What it was (`turn`, `buzz`, `command`, `chatter`, ...).
    pub kind: String,
    /// What came of it, in a few words.
    pub summary: String,
}

/// Everything one message causes, committed atomically.
#[derive(Clone, Debug, Default)]
pub struct Commit {
    /// The message, where it came from and what it was.
    pub processed: Option<Processed>,
    /// When it was received.
    pub received_at: Option<DateTime<Utc>>,
    /// Turns to remove first: `(game, keep)` keeps turns `1..=keep`.
    pub truncate: Vec<(String, u64)>,
    /// Turns to append: `(game, turn)`.
    pub turns: Vec<(String, TurnRow)>,
    /// Replies to queue.
    pub outbox: Vec<NewMail>,
    /// Pictures the queued replies are owed: `(Message-ID, owed JSON)`
    /// (see [`OutMail::owed`]).
    pub pictures: Vec<(String, String)>,
    /// Speaker events: `(game, kind, data JSON)`.
    pub events: Vec<(String, String, String)>,
    /// Speaker acts done: `(game, kind, key)` (a reminder for a turn...),
    /// so that none is done twice.
    pub timers: Vec<(String, String, String)>,
    /// Message-IDs of our own replies seen coming back (through the list,
    /// or a private mail's blind copy in mornbot's own mailbox, RULINGS
    /// OD16): delivered, whatever the outbox recorded, if their delivery
    /// had begun.
    pub echoed: Vec<String>,
    /// Games' snapshots to write (replacing their last).
    pub snapshots: Vec<SnapshotRow>,
    /// Dice drawn (RULINGS S14); one already recorded is kept as it was.
    pub draws: Vec<DrawRow>,
    /// Games whose dice commitment this commit publishes.
    pub dice_published: Vec<String>,
    /// Games whose dice seed this commit reveals.
    pub dice_revealed: Vec<String>,
    /// Gambits declared (Rule 1.18.2).
    pub gambits: Vec<super::GambitRow>,
    /// Stalemate agreements and games' ends (Rules 1.1.9, 1.1.11).
    pub ending: Vec<super::EndingOp>,
    /// Lobby changes (games created, joined, started by mail).
    pub lobby: Vec<super::LobbyOp>,
}

/// A recorded draw of the bot's dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawRow {
    /// The game's tag.
    pub game: String,
    /// The turn it belongs to.
    pub turn: u64,
    /// The draw's name.
    pub name: String,
    /// The die's faces.
    pub sides: u32,
    /// The face drawn.
    pub value: u32,
}

/// A game's dice as stored: the seed (secret until revealed), its
/// commitment, and when each was published.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceRow {
    /// The game's tag.
    pub game: String,
    /// The seed, 64 hex digits.
    pub seed: String,
    /// The commitment, hex SHA-256 of the seed.
    pub commitment: String,
    /// When the commitment was published.
    pub published_at: Option<DateTime<Utc>>,
    /// When the seed was revealed.
    pub revealed_at: Option<DateTime<Utc>>,
}

/// A game's state after its last committed change, so that loading it
/// replays nothing (issue 20); derived, and rebuilt whenever it does not
/// match the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotRow {
    /// The game's tag.
    pub game: String,
    /// The encoding's version.
    pub version: String,
    /// The Speaker settings `due_at` was computed under.
    pub due_key: String,
    /// When the Speaker next owes the game something, if ever.
    pub due_at: Option<DateTime<Utc>>,
    /// The encoded state.
    pub state: String,
}

/// A stored snapshot, with the log's position it folds: the store sets
/// that position in the commit that writes it, so it cannot disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The row as written.
    pub row: SnapshotRow,
    /// The turns folded into it (the log's last turn number then).
    pub turns: u64,
    /// The game's last event id then (0 for none).
    pub last_event: i64,
}

/// What start-up reads of a game: its row and its snapshot's header (not
/// its state), and what the log holds, to tell a stale snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexRow {
    /// The game.
    pub game: GameRow,
    /// Its snapshot's header, if it has one (its `state` left empty).
    pub snapshot: Option<Snapshot>,
    /// The log's last turn number (0 for none).
    pub turns: u64,
    /// The game's last event id (0 for none).
    pub last_event: i64,
}

/// A stored Speaker event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// Row id, increasing.
    pub id: i64,
    /// When.
    pub at: DateTime<Utc>,
    /// What kind.
    pub kind: String,
    /// Its data, JSON.
    pub data: String,
}

pub(super) fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

pub(super) fn from_ms(v: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(v).single().unwrap_or_default()
}
