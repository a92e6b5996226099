//! What the daemon does with one message: judge it, and commit its effects
//! with the replies in one transaction.
//!
//! The referee knows every game's definition; a game's state, a [`Game`]
//! (start state plus the log of legal plays), is loaded when a message or
//! the Speaker needs it and kept in a bounded cache (issue 20). The store
//! holds the log, and with each change the game's snapshot. A message is
//! handled on a copy of the game it concerns, the copy's effects are
//! committed (its snapshot with them), and only then does the copy replace
//! the game: a failed commit leaves both untouched.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::config::{GameConfig, LimitsConfig, SpeakerConfig};
use crate::kinds::vol1::{parse_play, render_play, Game, Verdict};
use crate::mail::outbound::{self, Identity, Reply};
use crate::mail::render::render as tpl;
use crate::mail::wrap::verbatim;
use crate::map::Map;
use crate::store::{Commit, Store, StoreError, TurnRow};

mod absence;
mod agenda;
mod backscatter;
mod budget;
mod buzz;
mod commands;
mod definition;
mod dice;
mod ending;
mod ending_answers;
mod event;
mod games;
mod handle;
mod hosted;
mod hosted_clock;
mod hosted_players;
mod hosted_private;
mod late;
mod lobby;
mod lobby_cancel;
mod lobby_kind;
mod lobby_limits;
mod lobby_start;
mod picture;
mod replay;
mod settle;
pub mod snapshot;
mod speaker;
mod status;
mod stored;
mod turn;

pub use budget::{monotonic, Stopwatch};
pub use definition::{start_state, Definition, GameConfigDef};
pub use event::{Event, Judged, Paused, Refused};

pub use dice::COMMITMENTS_PER_NOTICE;
pub use games::DEFAULT_CACHED;
pub use hosted::Hosted;
pub use late::Late;
pub use picture::{OwedPicture, PaintError, Painter};
pub use speaker::Pending;
pub use stored::{rebuild, Stored};
mod notice;
mod out;

use out::Out;

use notice::Thread;

/// A failure that stops the daemon (storage); everything about a message
/// itself is answered by mail, never an error.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game cannot be rebuilt.
    #[error("game {tag}: {detail}")]
    Game {
        /// The game.
        tag: String,
        /// What is wrong.
        detail: String,
    },
}

/// What a message turned out to be, for logs and the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handled {
    /// Its Message-ID.
    pub message_id: String,
    /// The game concerned.
    pub game: Option<String>,
    /// `turn`, `command`, `buzz`, `chatter`, `auto`, `duplicate`, `error`...
    pub kind: String,
    /// The outcome in a few words (`legal`, `illegal`, `stale`, ...).
    pub summary: String,
    /// Replies queued.
    pub replies: usize,
}

pub use crate::mail::request::{Command, LooksLike, Request, Workflow};

/// The message as the referee sees it (already parsed and classified).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Letter {
    /// Message-ID.
    pub message_id: String,
    /// Lowercased sender address.
    pub from: String,
    /// Subject.
    pub subject: String,
    /// References plus In-Reply-To, for threading replies.
    pub references: Vec<String>,
    /// The game the message is about: `Ok(tag)`, or `Err(candidates)` when
    /// it cannot be told (empty: none named, several: ambiguous).
    pub game: Result<String, Vec<String>>,
    /// What it asks.
    pub request: Request,
    /// The body, for quoting error lines.
    pub body: String,
    /// The Date header, when the mail had a readable one: when its author
    /// wrote it, which tells a replayed old play from a new one (RULINGS
    /// L9). Absent in rows written before it was kept.
    #[serde(default)]
    pub date: Option<DateTime<Utc>>,
    /// When the lounge received it, for a post the bot read in the
    /// lounge's digest (see [`crate::mail::digest::Post::arrived`]): the
    /// turn was played then, not when the digest came.
    #[serde(default)]
    pub posted: Option<DateTime<Utc>>,
    /// Whether the sender's authentication was required (a trusted
    /// authserv-id is configured) and not passed: such a letter changes
    /// nothing and is never answered (RULINGS L7).
    pub auth_failed: bool,
    /// Whether the message must never be answered (auto-reply, bounce,
    /// list notice, our own).
    pub no_reply: Option<String>,
    /// A sentence for every reply when the body was not what it said it
    /// was (bytes that are not UTF-8, read as Windows-1252; issue 39).
    #[serde(default)]
    pub read_as: Option<String>,
}

/// What handling a message did to its game: the referee works on a copy
/// of the game and keeps it only when it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Disposition {
    /// The game changed (a turn logged or rolled back, a workflow step or
    /// a Speaker's act recorded): the copy replaces the game once the
    /// commit succeeds. The summary says what happened.
    Changed(String),
    /// Refused, or only answered: the game is as it was.
    Unchanged(String),
}

impl Disposition {
    /// `Changed` or `Unchanged` by `changed`.
    pub(crate) fn new(changed: bool, summary: impl Into<String>) -> Disposition {
        if changed {
            Disposition::Changed(summary.into())
        } else {
            Disposition::Unchanged(summary.into())
        }
    }

    /// Whether the game changed.
    pub(crate) fn changed(&self) -> bool {
        matches!(self, Disposition::Changed(_))
    }

    /// What happened, in a few words (for logs and the processed table).
    pub(crate) fn summary(&self) -> &str {
        match self {
            Disposition::Changed(s) | Disposition::Unchanged(s) => s,
        }
    }
}

/// One game in memory.
#[derive(Clone, Debug)]
pub struct Live {
    /// Its definition.
    pub def: GameConfigDef,
    /// The game.
    pub game: Game,
    /// The turn log as stored (who, when, which message).
    pub turns: Vec<TurnRow>,
    /// When the game was first stored: the first player's clock starts.
    pub created_at: DateTime<Utc>,
    /// The Questionable Turn, if any (Rule 1.16.1): play is held.
    pub questionable: Option<crate::speaker::buzz::Questionable>,
    /// Mistimed turns held until it is settled, in arrival order.
    pub held: Vec<(DateTime<Utc>, Letter)>,
    /// When play last resumed after a Questionable Turn was settled: the
    /// awaited player's clock starts no earlier (RULINGS S12).
    pub resumed_at: Option<DateTime<Utc>>,
    /// Players who acknowledged not buzzing the winning turn.
    pub acks: Vec<String>,
    /// Whether the game has ended (a win acknowledged or unbuzzed).
    pub ended: bool,
    /// The turn whose reminder was sent (the timers table holds them all;
    /// this spares the Speaker a query on every wake-up).
    pub reminded_for: Option<u64>,
    /// A turn awaiting a Judgment (refused by the engine, or needing a
    /// ruling), which the Speaker may settle.
    pub pending: Option<Pending>,
    /// Whether the Speaker paused the game: no turn is due meanwhile.
    pub paused: bool,
    /// The seed of the game's dice (RULINGS S14), from the database; none
    /// for a game recorded before the bot rolled dice, until the daemon
    /// gives it one.
    pub dice: Option<crate::dice::Seed>,
    /// The players' absences (RULINGS S27), as set and cut.
    pub absences: Vec<crate::speaker::absence::Absence>,
    /// Who is late: when its buzz workflow last moved, its Stalemate
    /// agreements, the waiting notices sent (`late.rs`).
    pub late: Late,
}

impl Live {
    fn player_of(&self, address: &str) -> Option<&str> {
        self.def.player_at(address)
    }

    /// A player's registered address; the Drone's is that of the Active
    /// player carrying the Drone Stick, who submits its Turns (Rule 1.15.1).
    fn address_of(&self, player: &str) -> Option<&str> {
        let player = if crate::kinds::vol1::is_reserved(player) {
            self.game.state.drone_handler()?.name.as_str()
        } else {
            player
        };
        self.def.address_of(player)
    }

    /// When the awaited turn's clock started: the last turn's submission,
    /// or the game's start.
    pub fn clock_started(&self) -> DateTime<Utc> {
        let last = self
            .turns
            .last()
            .map_or(self.created_at, |t| t.submitted_at);
        self.resumed_at.map_or(last, |r| r.max(last))
    }

    /// When the next turn is due (Rule 1.3.5): 36 weekday hours after the
    /// last turn was received (or the game started), the awaited player's
    /// absences not counted (RULINGS S27); none once won.
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        if self.game.state.winner.is_some() || self.ended {
            return None;
        }
        // The game's policy: for Volume 1, always Rule 1.3.5's.
        Some(
            self.def
                .policy()
                .due(self.clock_started(), &self.away_of(self.game.to_play())),
        )
    }

    /// When `player` is away (RULINGS S27); the Drone's are its carrier's,
    /// who submits its Turns (Rule 1.15.1).
    pub fn away_of(&self, player: &str) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
        let player = if crate::kinds::vol1::is_reserved(player) {
            match self.game.state.drone_handler() {
                Some(h) => h.name.as_str(),
                None => return Vec::new(),
            }
        } else {
            player
        };
        self.absences
            .iter()
            .filter(|a| a.player.eq_ignore_ascii_case(player))
            .map(|a| a.span())
            .collect()
    }

    /// Who is due to be Resigned for two calendar months without a move
    /// (Rule 1.1.10), and when: the earliest such player. Timeouts
    /// submitted for a player are not eir moves (RULINGS S7).
    pub fn resignation(&self) -> Option<(String, DateTime<Utc>)> {
        if self.game.state.winner.is_some() || self.paused || self.ended {
            return None;
        }
        self.game
            .state
            .players
            .iter()
            .filter(|p| p.active && !crate::kinds::vol1::is_reserved(&p.name))
            .map(|p| {
                let last = self
                    .turns
                    .iter()
                    .rev()
                    .find(|t| {
                        t.player.eq_ignore_ascii_case(&p.name)
                            && !t.message_id.starts_with("timeout-")
                    })
                    .map_or(self.created_at, |t| t.submitted_at);
                (p.name.clone(), crate::speaker::resignation_due(last))
            })
            .min_by_key(|(_, t)| *t)
    }

    /// The Speaker's view of the awaited turn.
    pub fn turn_clock(&self) -> crate::speaker::machine::TurnClock {
        let turn = self.game.plays.len() as u64 + 1;
        crate::speaker::machine::TurnClock {
            started: self.clock_started(),
            turn,
            player: self.game.to_play().to_string(),
            reminded: self.reminded_for == Some(turn),
            held: self.game.state.winner.is_some()
                || self.questionable.is_some()
                || self.paused
                || self.ended,
            away: self.away_of(self.game.to_play()),
        }
    }
}

/// The referee: the games, the map, who the bot is.
pub struct Referee {
    map: &'static Map,
    me: Identity,
    /// Every game's definition; the live states of those recently used.
    games: games::Games,
    speaker: SpeakerConfig,
    /// The Speaker settings due times are computed under (snapshots).
    due_key: String,
    /// The Speaker's agenda: each game's next due time, ordered (issue
    /// 20): a wake-up touches only the games that are due.
    agenda: std::collections::BTreeSet<(DateTime<Utc>, String)>,
    /// Each game's entry in the agenda.
    due: std::collections::HashMap<String, DateTime<Utc>>,
    /// The most work one mail may cause (`[limits]`).
    limits: LimitsConfig,
    /// Times the judging of each mail against `[limits]`
    /// work_ms_per_mail.
    stopwatch: Stopwatch,
    /// The lobby (games by mail), once opened.
    lobby: Option<lobby::Desk>,
    /// How long players may be away (`[absence]`).
    absence: crate::config::AbsenceConfig,
    /// Where the rules are, for HELP (`[bot] rules_url`).
    rules_url: Option<String>,
    /// The replies strangers drew in the last hour, while a mail is
    /// handled: every reply queued is counted against it (issue 40,
    /// finding 2; see `backscatter.rs`).
    quota: std::cell::RefCell<Option<backscatter::Quota>>,
}

fn fmt_time(t: DateTime<Utc>) -> String {
    t.format("%a %d %b %Y %H:%M GMT").to_string()
}

impl Referee {
    /// The text of a refusal: the reason, and that nothing changed.
    fn refusal(&self, reason: String) -> String {
        tpl(
            "refused",
            minijinja::context! { reason, bot => self.me.address },
        )
    }

    /// The text of a notice from the Speaker (something did change),
    /// wrapped; its signature is added with the mail.
    fn notice(&self, reason: String) -> String {
        crate::mail::wrap::wrap(&reason)
    }

    /// Sets the most work one mail may cause (`[limits]`; the defaults
    /// until then).
    pub fn set_limits(&mut self, limits: LimitsConfig) {
        self.limits = limits;
    }

    /// Sets what times the judging of a mail (the daemon's monotonic clock
    /// by default; tests give a fake).
    pub fn set_stopwatch(&mut self, stopwatch: Stopwatch) {
        self.stopwatch = stopwatch;
    }

    /// Queues a reply in the commit; one that cannot be built (a malformed
    /// address) is dropped with a warning, never retried.
    fn queue(&self, commit: &mut Commit, r: &Reply) {
        for r in self.admit(commit, r) {
            match outbound::build_limited(&self.me, &r, self.limits.reply_bytes) {
                Ok(m) => commit.outbox.push(m),
                Err(e) => tracing::warn!(id = %r.message_id, "{e}"),
            }
        }
    }

    /// Whether `address` is a registered player's in any game.
    pub fn is_registered(&self, address: &str) -> bool {
        self.games.is_registered(address)
    }

    /// The games as classification needs them (built once).
    pub fn roster(&self) -> std::sync::Arc<crate::mail::classify::Roster> {
        self.games.roster.clone()
    }

    /// Resolves the game of a turn, asking the sender when it cannot.
    fn which_game(&self, letter: &Letter, out: &mut Out) -> Option<String> {
        match &letter.game {
            Ok(tag) => {
                let tag = tag.to_uppercase();
                if self.has_game(&tag) {
                    return Some(tag);
                }
                out.refuse(format!(
                    "There is no game {tag} in this lounge. The games are: {}.",
                    listed(self.tags())
                ));
                None
            }
            Err(c) if c.is_empty() && self.games.defs.len() == 1 => self.tags().next().cloned(),
            Err(c) => {
                let list = if c.is_empty() {
                    self.tags().take(LISTED + 1).cloned().collect::<Vec<_>>()
                } else {
                    c.clone()
                };
                out.refuse(format!(
                    "Which game is this turn for? Put the game's tag in the subject, \
                             e.g. \"[{}]\". The games are: {}.",
                    list.first().cloned().unwrap_or_default(),
                    listed(list.iter())
                ));
                None
            }
        }
    }
}

/// How many tags a message lists before "and N more".
const LISTED: usize = 20;

/// The tags, comma-separated: the first [`LISTED`], then how many more (a
/// lounge may host thousands of games).
fn listed<'a>(tags: impl Iterator<Item = &'a String>) -> String {
    let tags: Vec<&String> = tags.collect();
    let shown: Vec<&str> = tags.iter().take(LISTED).map(|t| t.as_str()).collect();
    match tags.len().saturating_sub(LISTED) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}
