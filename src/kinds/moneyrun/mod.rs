//! Money Run (`shared/seeds/gamestopica-feed-money-run.xml`, issue 42): a
//! race of pawns across a 9x9 board on stacks of coins drawn from a bag.
//! The pure core: the pieces, the order reader, the judge, the state
//! document and the case runner. RULINGS.md, section Money Run, says how
//! each gap of the seed is read (MR1 - MR16); the start squares and goals
//! (MR2) are a house ruling reconstructing the seed's lost image.
//!
//! Draws are values coming in: every function that draws takes an
//! [`Oracle`] and returns what it drew as [`DrawRecord`]s.
//!
//! - [`board`]: coins, squares, stacks.
//! - [`rulings`]: the contested readings a game may choose.
//! - [`state`]: pawns, board, table, bag, whose turn and step, the end.
//! - [`order`]: what one mail says, and its canonical text.
//! - [`mod@read`]: orders from a mail body.
//! - [`mod@judge`]: a mail against a state: Legal (maybe open), Illegal
//!   (every violation) or Won.
//! - [`render`]: the state document.
//! - [`case`]: the rule cases of `fixtures/cases-moneyrun/`.
//! - [`coverage`]: every rule sentence of the seed and its status.

pub mod board;
pub mod case;
pub mod coverage;
pub mod judge;
pub mod order;
pub mod read;
pub mod render;
pub mod rulings;
pub mod state;

pub use board::{Coin, Square, Stack, TOTAL_COINS};
pub use judge::{has_legal_action, judge, legal_actions, timeout, Verdict, Violation};
pub use order::{canonical, Action, Close, Orders};
pub use read::{read, ReadError, ReadErrorKind};
pub use render::document;
pub use rulings::{Rulings, RulingsError};
pub use state::{
    DrawRecord, Ending, Gave, Goal, Next, OpenTurn, Oracle, Pawn, StartError, State, Step,
};

/// Replays one canonical line (from the game log) by `player` against
/// `state`, drawing from `oracle` (the recorded draws): the state after
/// it, or why it no longer stands.
pub fn replay(
    state: &State,
    line: &str,
    player: &str,
    oracle: &mut Oracle<'_>,
) -> Result<State, String> {
    let orders = read(line).map_err(|e| format!("{line:?} does not read: {e}"))?;
    match judge(state, &orders, player, oracle) {
        Verdict::Legal { state, .. } | Verdict::Won { state, .. } => Ok(state),
        Verdict::Illegal(v) => Err(format!(
            "{line:?} no longer stands: {}",
            v.first().map(ToString::to_string).unwrap_or_default()
        )),
    }
}
