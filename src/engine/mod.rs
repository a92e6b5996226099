//! The adjudicator: a pure function of (map, state, play) -> outcome.
//!
//! No IO, no clock, no randomness: dice come in with the play when a rule
//! needs them. The game state is a fold over the log of legal turns
//! ([`replay`]). An outcome is Legal with the new state and what changed,
//! Illegal with every violation found (each citing its rule, saying what was
//! wrong and what would have been legal), or NeedsRuling when the play uses
//! an Action or meets a state whose rule the engine does not yet
//! adjudicate: it never passes such a play as legal.

mod adjudicate;
pub mod case;
mod convert;
pub mod coverage;
pub mod dice;
mod disruption;
mod emporium;
pub mod gambit;
pub mod game;
mod hazards;
mod route;
pub mod rulings;
mod state;
pub mod time;

pub use adjudicate::{adjudicate, adjudicate_judged};
pub use convert::{resignations, StateError};
pub use dice::{dice_needed, DieNeed};
pub use disruption::Disruption;
pub use game::{BadLog, Game, Step};
pub use hazards::{Package, MAX_PACKAGES};
pub use route::{search, Found, Rules};
pub use rulings::Rulings;
pub use state::{
    is_drone, Began, Block, CourierStations, GameState, LastMove, PlayerState, Position, Prison,
    Timed, Tithed, Toff, Visit,
};

use serde::Serialize;

/// One thing wrong with a play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Violation {
    /// The rule broken, e.g. `"1.6.2"`.
    pub rule: String,
    /// What was wrong and what would have been legal, in plain words.
    pub message: String,
}

impl Violation {
    pub(crate) fn new(rule: &str, message: impl Into<String>) -> Violation {
        Violation {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
}

/// The verdict on a play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The play is legal; the new state follows.
    Legal,
    /// The play breaks at least one rule.
    Illegal,
    /// The play needs a human ruling: the engine does not adjudicate a rule
    /// it depends on.
    NeedsRuling,
}

/// The outcome of adjudicating one play.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Legal, Illegal or NeedsRuling.
    pub verdict: Verdict,
    /// Every violation found (Illegal).
    pub violations: Vec<Violation>,
    /// The rules a human must rule on (NeedsRuling).
    pub rulings: Vec<Violation>,
    /// What the play changed, in words (Legal).
    pub changes: Vec<String>,
    /// Gambits the play declared (Rule 1.18.1), for the registry that
    /// outlives the game (Rule 1.18.2): the daemon keeps them (Legal only).
    #[serde(default)]
    pub declared: Vec<gambit::Gambit>,
    /// The state after the play (Legal only).
    #[serde(skip)]
    pub state: Option<GameState>,
}

/// Folds plays over a starting state, stopping at the first play that is
/// not Legal: returns the state after the legal prefix and, if one stopped
/// the fold, its index and outcome.
pub fn replay(
    map: &crate::map::Map,
    start: GameState,
    plays: &[crate::gsd::Play],
) -> (GameState, Option<(usize, Outcome)>) {
    let mut state = start;
    for (i, play) in plays.iter().enumerate() {
        let out = adjudicate(map, &state, play);
        match (&out.verdict, &out.state) {
            (Verdict::Legal, Some(next)) => state = next.clone(),
            _ => return (state, Some((i, out))),
        }
    }
    (state, None)
}
