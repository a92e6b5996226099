//! What a message asks: the one vocabulary [`crate::mail::classify`]
//! returns and the referee acts on (no second enum mapped by hand between
//! them). Held turns are stored with their request, so the shapes here are
//! serialised: change them only with a new event version
//! (`crate::daemon::referee::Event`).

use serde::{Deserialize, Serialize};

/// The request a message makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// A turn (Rule 1.3.1): a whole GSD or a Play line (with its
    /// continuation lines), and where it starts in the body (for error
    /// positions).
    Turn {
        /// The GSD text, or the Play line.
        text: String,
        /// Whether `text` is a whole GSD.
        gsd: bool,
        /// 1-based line of the body where `text` starts.
        line: usize,
        /// 1-based column (in characters) of that line where `text` starts.
        column: usize,
    },
    /// An order for a game of a kind other than Volume 1 (issue 41): the
    /// mail body, which the game's kind reads.
    Order {
        /// The body.
        text: String,
    },
    /// Commands to answer privately, in order.
    Commands(Vec<Command>),
    /// Take back the sender's last turn (Rule 1.3.3), maybe with a
    /// replacement turn (a [`Request::Turn`]).
    TakeBack(Option<Box<Request>>),
    /// A step of the buzz workflow (Rules 1.16.x).
    Workflow(Workflow),
    /// A message that cannot be read (too large, no headers): answered
    /// with this reason.
    Refuse(String),
    /// Meant for the bot, but not understood: mail sent to its address
    /// that is none of the above, or a failed attempt at a command or a
    /// Play. Answered privately with what the bot made of it (RULINGS L5).
    NotUnderstood {
        /// The line read (its first content line, or the attempt), at
        /// most [`crate::mail::classify::MAX_QUOTED_CHARS`] characters.
        line: String,
        /// What it looked like.
        looks_like: LooksLike,
    },
    /// Nothing to do, never answered.
    Chatter,
}

impl Request {
    /// A turn cut out of the body at `line`, `column`.
    pub fn turn(text: String, gsd: bool, line: usize, column: usize) -> Request {
        Request::Turn {
            text,
            gsd,
            line,
            column,
        }
    }

    /// The request's kind in a word, for logs and tests: `turn`,
    /// `commands`, `take-back`, `buzz`, `withdraw`, `concede`, `contest`,
    /// `judgment`, `decline`, `no-buzz`, `refuse`, `not-understood`,
    /// `chatter`.
    pub fn name(&self) -> &'static str {
        match self {
            Request::Turn { .. } => "turn",
            Request::Order { .. } => "order",
            Request::Commands(_) => "commands",
            Request::TakeBack(_) => "take-back",
            Request::Workflow(w) => match w {
                Workflow::Buzz { .. } => "buzz",
                Workflow::Withdraw => "withdraw",
                Workflow::Concede => "concede",
                Workflow::Contest { .. } => "contest",
                Workflow::Judgment { .. } => "judgment",
                Workflow::Decline => "decline",
                Workflow::NoBuzz => "no-buzz",
            },
            Request::Refuse(_) => "refuse",
            Request::NotUnderstood { .. } => "not-understood",
            Request::Chatter => "chatter",
        }
    }
}

/// A player's step in the buzz workflow (Rules 1.16.2 - 1.16.4), or the
/// acknowledgement of a winning turn (Rule 1.1.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Workflow {
    /// Buzz a turn: of `player`, number `turn`, when named.
    Buzz {
        /// The player whose turn is buzzed.
        player: Option<String>,
        /// The turn number.
        turn: Option<u64>,
        /// The illegality spotted (may be empty).
        reason: String,
    },
    /// The buzzer withdraws eir Buzz.
    Withdraw,
    /// Concede (the Buzz, or the defence).
    Concede,
    /// Contest (the Buzz, or the defence), with the argument given.
    Contest {
        /// The defence, or why the buzzer contests it.
        text: String,
    },
    /// The Referee's (or the Speaker's) Judgment.
    Judgment {
        /// Legal or Illegal.
        legal: bool,
    },
    /// The Referee declines.
    Decline,
    /// A player acknowledges not buzzing the winning turn (Rule 1.1.1):
    /// `No buzz`, `Well played`...
    NoBuzz,
}

/// A command to the bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// `HELP`: what the bot understands.
    Help,
    /// `STATUS [game]`: whose turn it is, deadlines, pending buzzes.
    Status(Option<String>),
    /// `GSD [game]`: the canonical GSD.
    Gsd(Option<String>),
    /// `HISTORY [game]`: the turn log.
    History(Option<String>),
    /// `RULES` or `RULES coverage`: what the bot adjudicates.
    Rules,
    /// A Speaker's command line (`RESIGN Cryer MN1`, `VOID`, `PAUSE`,
    /// `RESUME`); only the Speaker's addresses may use them.
    Speaker(String),
    /// A command-shaped line the bot does not know (answered with HELP).
    Unknown(String),
    /// A step towards a Stalemate (Rule 1.1.11), with its game when named:
    /// `STALEMATE [game]`, `WITHDRAW STALEMATE [game]`, and the Speaker's
    /// `CONFIRM STALEMATE <game>` and `REFUSE STALEMATE <game>`.
    Stalemate(StalemateStep, Option<String>),
    /// `POINTS`: the Points table (Rule 1.1.9).
    Points,
    /// `ARCHIVE [game]`: the ended games, or one ended game's record
    /// (Rule 1.1.5).
    Archive(Option<String>),
    /// A lobby command (`NEW GAME`, `JOIN`, `LEAVE`, `CONFIRM`, `START`;
    /// issue 17, RULINGS S16).
    Lobby(crate::mail::lobby::Lobby),
    /// An absence command (`ABSENCE`, `CANCEL ABSENCE`, the Speaker's
    /// `REFUSE ABSENCE`; issue 17, RULINGS S27).
    Absence(crate::mail::absence::AbsenceCmd),
}

/// A step towards a Stalemate (Rule 1.1.11; RULINGS S22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StalemateStep {
    /// `STALEMATE`: an Active non-Drone player proposes or agrees.
    Agree,
    /// `WITHDRAW STALEMATE`: the player takes eir agreement back.
    Withdraw,
    /// `CONFIRM STALEMATE`: the Speaker declares the game over.
    Confirm,
    /// `REFUSE STALEMATE`: the Speaker does not; the agreements are void.
    Refuse,
}

/// What a message the bot did not understand looked like.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LooksLike {
    /// Mail to the bot's address: meant for it, whatever it says.
    Letter,
    /// A command word (given in capitals, e.g. `STATUS`) with words the
    /// command does not take.
    Command(String),
    /// A Play line, under a name that is no player of the game (`Some`), or
    /// without a name (`None`).
    Play(Option<String>),
    /// A command with its verb misspelt (`STRAT MN28`): what it may have
    /// meant (`START MN28`, or the nearest command's form), from
    /// [`crate::mail::commands::did_you_mean`].
    Misspelt(String),
}
