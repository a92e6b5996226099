//! What the archive shows, as plain data: a game's summary for the site's
//! index, and each turn with its play, its verdict, the GSD after it and
//! the picture's overlay. Built from a stored game by [`super::record`],
//! rendered to HTML by [`super::html`].

use chrono::{DateTime, Utc};

use crate::kinds::vol1::Violation;

/// Where a game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Play goes on.
    Running,
    /// A turn won the game (Rule 1.1.1), and the game ends once every other
    /// player has said "No buzz" or the win window has passed.
    Won {
        /// The winner.
        winner: String,
    },
    /// The game has ended (the store records the end): a win stood, or
    /// the last player left won by a resignation.
    Ended {
        /// The winner.
        winner: Option<String>,
    },
}

impl Status {
    /// The winner, if any.
    pub fn winner(&self) -> Option<&str> {
        match self {
            Status::Running => None,
            Status::Won { winner } => Some(winner),
            Status::Ended { winner } => winner.as_deref(),
        }
    }

    /// One word for the index: `running`, `won` or `ended`.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Won { .. } => "won",
            Status::Ended { .. } => "ended",
        }
    }
}

/// A game as the site's index lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Its tag, e.g. `MN1`.
    pub tag: String,
    /// The directory of its pages: the tag when it is a safe file name
    /// (letters, digits, `-`, `_`), else `game-N`.
    pub slug: String,
    /// Its players' names in order of play (never their addresses).
    pub players: Vec<String>,
    /// Where it stands.
    pub status: Status,
    /// Who is to play, while it runs.
    pub to_play: Option<String>,
    /// How many turns the log holds.
    pub turns: usize,
    /// When it was first stored.
    pub started: DateTime<Utc>,
    /// The latest turn or Speaker event (or the start).
    pub last_activity: DateTime<Utc>,
    /// Resignations: `(n, player)`, the player left after turn `n`.
    pub resigned: Vec<(usize, String)>,
}

/// A turn of the log, as its page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    /// 1-based turn number.
    pub n: usize,
    /// Who played it.
    pub player: String,
    /// The play line as logged (canonical).
    pub play: String,
    /// When the server received it.
    pub submitted_at: DateTime<Utc>,
    /// The verdict it was logged on.
    pub verdict: Verdict,
    /// Who is to play after it (none once the game is won).
    pub next: Option<String>,
    /// The Game Time after it.
    pub time: String,
    /// The canonical GSD's tables after it (Rule 1.2.0 layout), without
    /// the Plays: those are the game page's, and the whole GSD is the
    /// game's `gsd.html`.
    pub gsd: String,
}

/// The verdict of a logged turn: the engine's adjudication of the play
/// against the state before it (the fold of the log, as the daemon judged
/// it), or the Judgment that made it Legal; and the attempts at the same
/// turn the bot refused first, from the Speaker's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Legal by Judgment (the Speaker's or a Referee's; RULINGS S11), not
    /// by the engine.
    pub judged: bool,
    /// What the play changed, in the engine's words.
    pub changes: Vec<String>,
    /// The winner, when this turn won the game (Rule 1.1.1).
    pub winner: Option<String>,
    /// Earlier attempts at this turn that the bot buzzed or sent to a
    /// human ruling.
    pub refused: Vec<Refusal>,
}

/// A play the bot did not pass, as the events record it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The play, canonical.
    pub play: String,
    /// Whether it needed a human ruling (else the engine found it Illegal
    /// and the bot buzzed it).
    pub ruling: bool,
    /// The rules broken, or the rules needing a ruling.
    pub rules: Vec<Violation>,
}
