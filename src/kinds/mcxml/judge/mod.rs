//! Judging a turn (Rules 1 - 6): a pure function of (facts, state, turn,
//! sender) to a [`Verdict`].
//!
//! RULINGS MX8: the actions are judged in document order, each against the
//! state the previous one left. A violating action is still applied as
//! written wherever its effect is defined (a Move goes where it says, a
//! Buy gives the part), so every later action is judged where the player
//! meant the train to be; a payment the player cannot afford is not taken
//! (tokens never go below 0, Rule 4), and an action whose target does not
//! exist (a player not in the game) has no effect. A turn with any
//! violation is refused whole, with every violation listed, and nothing of
//! it is applied.
//!
//! The families: `movement.rs` (Move, Shunt), `closures.rs` (Block,
//! Unblock), `economy.rs` (Steal, Work, Slave, Buy, Build).

mod closures;
mod economy;
mod movement;

use std::fmt;

use serde::Serialize;

use super::actions::{tokens, ActionKind, TURN_MINUTES};
use super::facts::Facts;
use super::state::{same_player, State, Train};
use super::turn::{Action, Turn, COMMENT_LIMIT};
use crate::map::StationId;

/// One way a turn breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The rule of the seed whose words the turn breaks ("1" - "7").
    pub rule: &'static str,
    /// The ruling of RULINGS.md that reads those words, if one does ("MX6").
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

/// What a turn comes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// The turn stands: the state after it and what changed, in prose.
    Legal {
        /// The state after the turn (the next player to play).
        state: State,
        /// What changed, one line each.
        changes: Vec<String>,
    },
    /// The turn is refused whole: every violation.
    Illegal(Vec<Violation>),
    /// A legal Build: the game is over (Rule 6).
    Won {
        /// The final state, with its winner.
        state: State,
        /// What changed.
        changes: Vec<String>,
    },
}

impl Verdict {
    /// The state after a Legal or winning turn.
    pub fn state(&self) -> Option<&State> {
        match self {
            Verdict::Legal { state, .. } | Verdict::Won { state, .. } => Some(state),
            Verdict::Illegal(_) => None,
        }
    }
}

/// The working state of one turn being judged.
struct Judging<'a> {
    facts: &'a Facts,
    state: State,
    /// The index of the train the turn moves.
    actor: usize,
    minutes: u32,
    /// Every station the train occupied this turn, the start included
    /// (RULINGS MX6).
    visited: Vec<StationId>,
    /// Whether a Buy has been played (RULINGS MX11).
    bought: bool,
    /// Whether a legal Build was played.
    built: bool,
    /// The action being judged: its number (1-based) and kind, and whether
    /// it is the last.
    index: usize,
    kind: ActionKind,
    last: bool,
    violations: Vec<Violation>,
    changes: Vec<String>,
}

impl Judging<'_> {
    /// The player a Shunt or a Steal (`noun`; `verb` a player does to
    /// another: "shunt", "steal from") names, when it is another
    /// player; a violation for one at another station (the action is still
    /// judged on), `None` after a violation for no such player or oneself.
    pub(super) fn other_here(&mut self, player: &str, verb: &str, noun: &str) -> Option<usize> {
        let Some(target) = self.state.player(player) else {
            self.violate("6", None, format!("no player is named {player}"));
            return None;
        };
        let name = self.name();
        let victim = self.state.trains[target].name.clone();
        if target == self.actor {
            self.violate(
                "6",
                None,
                format!("{name} may {verb} another player, not emself"),
            );
            return None;
        }
        let (here, there) = (self.train().at, self.state.trains[target].at);
        if here != there {
            self.violate(
                "6",
                None,
                format!(
                    "{victim} is at {}, not at {} with {name}: a {noun} needs both trains at the same station",
                    self.station(there),
                    self.station(here)
                ),
            );
        }
        Some(target)
    }

    fn train(&self) -> &Train {
        &self.state.trains[self.actor]
    }

    fn train_mut(&mut self) -> &mut Train {
        &mut self.state.trains[self.actor]
    }

    fn name(&self) -> String {
        self.train().name.clone()
    }

    fn station(&self, s: StationId) -> &'static str {
        self.facts.name(s)
    }

    /// Records a violation of the action being judged.
    fn violate(&mut self, rule: &'static str, ruling: Option<&'static str>, text: String) {
        let text = if self.index == 0 {
            text
        } else {
            format!("action {} ({}): {text}", self.index, self.kind.name())
        };
        self.violations.push(Violation { rule, ruling, text });
    }

    /// Takes `cost` tokens if the train holds them (Rule 4, RULINGS MX19);
    /// otherwise records the violation and takes nothing.
    fn pay(&mut self, cost: u32, what: &str) -> bool {
        let held = self.train().tokens;
        if held < cost {
            self.violate(
                "4",
                Some("MX19"),
                format!(
                    "{what} costs {}, and {} holds {} at this point of the turn",
                    tokens(cost),
                    self.name(),
                    tokens(held)
                ),
            );
            return false;
        }
        self.train_mut().tokens -= cost;
        true
    }

    fn action(&mut self, a: &Action) {
        match a {
            Action::Move { steps } => self.move_train(steps),
            Action::Shunt {
                player,
                steps,
                force,
            } => self.shunt(player, steps, *force),
            Action::Block { station, strength } => self.block(*station, *strength),
            Action::Unblock { station } => self.unblock(*station),
            Action::Steal { player, item } => self.steal(player, *item),
            Action::Work | Action::Slave => self.earn(),
            Action::Buy { item } => self.buy(*item),
            Action::Build => self.build(),
        }
    }

    /// Who plays the turn: the sender's train (so a player who posts out
    /// of turn hears what else is wrong), or the train whose turn it is.
    fn who(&mut self, turn: &Turn, sender: &str) {
        if let Some(w) = self.state.winner {
            let winner = self.state.trains[w].name.clone();
            self.violate(
                "6",
                Some("MX12"),
                format!("the game has ended: {winner} built Mornington Crescent"),
            );
        }
        let current = self.state.current().name.clone();
        match self.state.player(sender) {
            Some(i) if i == self.state.to_play => {}
            Some(i) => {
                self.actor = i;
                let name = self.state.trains[i].name.clone();
                self.violate(
                    "1",
                    None,
                    format!(
                        "it is {current}'s turn, not {name}'s: turns are taken in strict rotation"
                    ),
                );
            }
            None => self.violate(
                "2",
                Some("MX18"),
                format!("{sender} plays no train in this game"),
            ),
        }
        for f in &turn.foreign {
            self.violate(
                "2",
                Some("MX17"),
                format!(
                    "line {}: {} is not part of this ruleset: nothing may be added to a turn except inside comment elements",
                    f.line, f.what
                ),
            );
        }
        if turn.player.is_empty() {
            self.violate(
                "2",
                Some("MX18"),
                "the Turn has no player attribute: it must name the player making the turn".into(),
            );
        } else if !same_player(&turn.player, sender) {
            self.violate(
                "2",
                Some("MX18"),
                format!(
                    "player=\"{}\", but the turn comes from {sender}: the player attribute must name the player making the turn",
                    turn.player
                ),
            );
        }
        let bytes = turn.comment_bytes();
        if bytes >= COMMENT_LIMIT {
            self.violate(
                "2",
                Some("MX17"),
                format!("the comments take {bytes} bytes as XML; a turn's must take less than 5k ({COMMENT_LIMIT} bytes)"),
            );
        }
    }
}

/// Judges `turn`, sent by the player named `sender` (the daemon's, from
/// the mail's author), against `state`.
pub fn judge(facts: &Facts, state: &State, turn: &Turn, sender: &str) -> Verdict {
    let actor = state.to_play;
    let mut j = Judging {
        facts,
        state: state.clone(),
        actor,
        minutes: 0,
        visited: Vec::new(),
        bought: false,
        built: false,
        index: 0,
        kind: ActionKind::Work,
        last: false,
        violations: Vec::new(),
        changes: Vec::new(),
    };
    j.who(turn, sender);
    j.visited = vec![j.train().at];
    let mut over: Option<(usize, ActionKind)> = None;
    for (i, a) in turn.actions.iter().enumerate() {
        j.index = i + 1;
        j.kind = a.kind();
        j.last = i + 1 == turn.actions.len();
        j.action(a);
        j.minutes = j.minutes.saturating_add(minutes(a));
        if j.minutes > TURN_MINUTES && over.is_none() {
            over = Some((i + 1, a.kind()));
        }
    }
    j.index = 0;
    if let Some((n, kind)) = over {
        j.violate(
            "2",
            None,
            format!(
                "the actions last {} minutes, over the {TURN_MINUTES} a turn may last (from action {n}, {})",
                j.minutes,
                kind.name()
            ),
        );
    }
    if !j.violations.is_empty() {
        return Verdict::Illegal(j.violations);
    }
    finish(j)
}

/// The minutes an action lasts, from the table.
fn minutes(a: &Action) -> u32 {
    match a {
        Action::Move { steps } | Action::Shunt { steps, .. } => a.kind().minutes(steps.len(), 0),
        Action::Block { strength, .. } => a.kind().minutes(0, *strength),
        _ => a.kind().minutes(0, 0),
    }
}

fn finish(mut j: Judging) -> Verdict {
    let name = j.name();
    if j.changes.is_empty() {
        j.changes.push(format!("{name} played no action"));
    }
    j.state.turns = j.state.turns.saturating_add(1);
    if j.built {
        j.changes.push(format!(
            "{} of {TURN_MINUTES} minutes; {name} wins and the game ends",
            j.minutes
        ));
        return Verdict::Won {
            state: j.state,
            changes: j.changes,
        };
    }
    j.state.to_play = j.state.next_after(j.actor);
    let next = j.state.current().name.clone();
    j.changes.push(format!(
        "{} of {TURN_MINUTES} minutes; {next} plays next",
        j.minutes
    ));
    Verdict::Legal {
        state: j.state,
        changes: j.changes,
    }
}

/// A Timeout (RULINGS MX5): the player whose turn it is plays an empty
/// turn.
pub fn timeout(facts: &Facts, state: &State) -> Verdict {
    let name = state.current().name.clone();
    judge(facts, state, &Turn::empty(&name), &name)
}

#[cfg(test)]
mod tests;
