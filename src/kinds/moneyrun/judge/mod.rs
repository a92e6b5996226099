//! Judging one mail of a turn: a pure function of (state, orders, sender,
//! draws) to a [`Verdict`].
//!
//! The actions are judged in order, each against the state the previous
//! one left (a placement's refill included). A violating pawn move is
//! applied as written (the pawn goes where the path says), so later steps
//! are judged where the player meant the pawn to be; a violating placement
//! or coin move is not applied. A mail with any violation is refused whole, with every violation,
//! and nothing of it stands. A step onto the goal line wins at once and
//! the rest of the mail is void (RULINGS MR11).
//!
//! The families: `coins.rs` (placing and moving coins), `pawn.rs` (the
//! pawn's path), `close.rs` (closing a turn, the tie-break, and whether a
//! player has any legal action).

mod close;
mod coins;
mod pawn;

use std::fmt;

use serde::Serialize;

use super::board::Coin;
use super::order::{Action, Close, Orders};
use super::state::{same_player, DrawRecord, Ending, OpenTurn, Oracle, State};

pub use close::{has_legal_action, legal_actions};
pub use coins::table_words;

/// One way a mail breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The seed's rule whose words the mail breaks (RULINGS.md, Money
    /// Run, says how they are numbered: "H2", "C3", "M1", "E1").
    pub rule: &'static str,
    /// The ruling of RULINGS.md that reads those words, if one does
    /// ("MR8").
    pub ruling: Option<&'static str>,
    /// What is wrong, for the player.
    pub text: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ruling {
            Some(r) => write!(f, "Rule {} ({r}): {}", self.rule, self.text),
            None => write!(f, "Rule {}: {}", self.rule, self.text),
        }
    }
}

/// What a mail comes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// It stands.
    Legal {
        /// The state after it.
        state: State,
        /// What changed, one line each.
        changes: Vec<String>,
        /// The draws made (refills), to store.
        draws: Vec<DrawRecord>,
        /// Whether the turn is left open for a second action
        /// (RULINGS MR14).
        open: bool,
    },
    /// Refused whole: every violation.
    Illegal(Vec<Violation>),
    /// It stands and the game is over: a goal line reached, or the
    /// tie-break of EFAQ 3 (`state.ending`, `state.winners`).
    Won {
        /// The final state.
        state: State,
        /// What changed.
        changes: Vec<String>,
        /// The draws made.
        draws: Vec<DrawRecord>,
    },
}

impl Verdict {
    /// The state after a mail that stands.
    pub fn state(&self) -> Option<&State> {
        match self {
            Verdict::Legal { state, .. } | Verdict::Won { state, .. } => Some(state),
            Verdict::Illegal(_) => None,
        }
    }
}

/// The working state of one mail being judged.
struct Judging<'o, 'a> {
    state: State,
    actor: usize,
    oracle: &'o mut Oracle<'a>,
    /// Coins the refills of this mail put on the table: the player has
    /// not seen them (RULINGS MR15).
    fresh: Vec<Coin>,
    /// Whether the last action was a placement whose refill drew.
    drew_last: bool,
    violations: Vec<Violation>,
    changes: Vec<String>,
    draws: Vec<DrawRecord>,
    won: bool,
}

impl Judging<'_, '_> {
    fn violate(&mut self, rule: &'static str, ruling: Option<&'static str>, text: String) {
        self.violations.push(Violation { rule, ruling, text });
    }

    fn name(&self) -> String {
        self.state.pawns[self.actor].name.clone()
    }
}

/// Judges one mail of orders from `sender` against `state`, drawing from
/// `oracle` for each refill (`bag-<k>` at the turn's number).
pub fn judge(state: &State, orders: &Orders, sender: &str, oracle: &mut Oracle<'_>) -> Verdict {
    if let Some(v) = refuse_sender(state, sender) {
        return Verdict::Illegal(vec![v]);
    }
    let taken = state.open.map_or(0, |o| usize::from(o.actions));
    let mut j = Judging {
        state: state.clone(),
        actor: state.to_play,
        oracle,
        fresh: Vec::new(),
        drew_last: false,
        violations: Vec::new(),
        changes: Vec::new(),
        draws: Vec::new(),
        won: false,
    };
    if orders.close == Some(Close::Pass) && !orders.actions.is_empty() {
        j.violate(
            "H1",
            Some("MR5"),
            "pass is a turn with no action: to end the turn after actions, write end".into(),
        );
    }
    if taken + orders.actions.len() > 2 {
        j.violate(
            "H1",
            Some("MR5"),
            format!(
                "a turn is at most two actions: this one would have {}",
                taken + orders.actions.len()
            ),
        );
    }
    for (k, action) in orders.actions.iter().enumerate() {
        j.drew_last = false;
        match action {
            Action::Place { coin, to } => coins::place(&mut j, *coin, *to),
            Action::Coin { from, to } => coins::move_coin(&mut j, *from, *to),
            Action::Pawn { path } => pawn::walk(&mut j, path),
        }
        if j.won {
            let void = orders.actions.len() - k - 1;
            if void > 0 || orders.close.is_some() {
                j.changes.push(format!(
                    "The rest of the turn is void (MR11): {} action{} not taken.",
                    void,
                    if void == 1 { "" } else { "s" }
                ));
            }
            break;
        }
    }
    if !j.violations.is_empty() {
        return Verdict::Illegal(j.violations);
    }
    let total = taken + orders.actions.len();
    if j.won {
        j.state.open = None;
        j.state.turns += 1;
        j.state.ending = Some(Ending::Goal);
        j.state.winners = vec![j.actor];
        return Verdict::Won {
            state: j.state,
            changes: j.changes,
            draws: j.draws,
        };
    }
    // RULINGS MR14: left open only after a refill that drew, with an
    // action to spare and no closing word.
    if orders.close.is_none() && total < 2 && j.drew_last {
        j.state.open = Some(OpenTurn {
            actions: total as u8,
        });
        let name = j.name();
        j.changes.push(format!(
            "{name}'s turn stays open (MR14): {name} may send a second action or end."
        ));
        return Verdict::Legal {
            state: j.state,
            changes: j.changes,
            draws: j.draws,
            open: true,
        };
    }
    close::close_turn(&mut j, total == 0, orders.close);
    if j.state.is_over() {
        Verdict::Won {
            state: j.state,
            changes: j.changes,
            draws: j.draws,
        }
    } else {
        Verdict::Legal {
            state: j.state,
            changes: j.changes,
            draws: j.draws,
            open: false,
        }
    }
}

/// The violation refusing a mail from `sender` before its orders are
/// read: the game is over, no such player, or not eir turn.
fn refuse_sender(state: &State, sender: &str) -> Option<Violation> {
    let v = |rule, ruling, text| Some(Violation { rule, ruling, text });
    if state.is_over() {
        return v("H6", None, "the game is over".into());
    }
    if state.player(sender).is_none() {
        return v(
            "H5",
            Some("MR4"),
            format!("{sender} is not a player of this game"),
        );
    }
    if !same_player(&state.current().name, sender) {
        let step = if state.open.is_some() {
            "second action"
        } else {
            "turn"
        };
        return v(
            "H5",
            Some("MR4"),
            format!("it is {}'s {step}, not {sender}'s", state.current().name),
        );
    }
    None
}

/// What a Timeout plays (RULINGS MR13): `end` for an open turn, `pass`
/// for a fresh one; the orders and their verdict. No draw is made.
pub fn timeout(state: &State) -> (Orders, Verdict) {
    let orders = Orders::closing(if state.open.is_some() {
        Close::End
    } else {
        Close::Pass
    });
    let name = state.current().name.clone();
    let mut none = |_: u64, _: &str, _: u32| 0;
    let v = judge(state, &orders, &name, &mut none);
    (orders, v)
}

#[cfg(test)]
mod tests;
