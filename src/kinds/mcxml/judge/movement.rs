//! Move (Rules 1, 3, 6) and Shunt (Rule 6).

use super::Judging;
use crate::kinds::mcxml::actions::tokens;
use crate::kinds::mcxml::rulings::BuildAt;
use crate::kinds::mcxml::turn::StationRef;
use crate::map::{LineSet, StationId};

/// Why a step may not be taken, if it may not.
enum StepFault {
    NotAdjacent,
    /// Adjacent, but not on the line written after the station.
    WrongLine(LineSet),
}

impl Judging<'_> {
    fn step_fault(&self, from: StationId, to: &StationRef) -> Option<StepFault> {
        if !self.facts.adjacent(from, to.id) {
            return Some(StepFault::NotAdjacent);
        }
        let line = to.line?;
        let lines = self.facts.segment_lines(from, to.id);
        (!lines.contains(line)).then_some(StepFault::WrongLine(lines))
    }

    /// Records a step's fault, citing `rule`.
    fn step_violation(&mut self, rule: &'static str, from: StationId, to: &StationRef) {
        let (a, b) = (self.station(from), self.station(to.id));
        match self.step_fault(from, to) {
            None => {}
            Some(StepFault::NotAdjacent) => self.violate(
                rule,
                None,
                format!("{b} is not adjacent to {a}: each step must be between adjacent stations"),
            ),
            Some(StepFault::WrongLine(lines)) => {
                let codes: Vec<&str> = lines.iter().map(|l| l.code()).collect();
                let line = to.line.map_or("", |l| l.code());
                self.violate(
                    rule,
                    Some("MX16"),
                    format!(
                        "{a} and {b} are joined by the {} line, not the {line} written",
                        codes.join(", ")
                    ),
                );
            }
        }
    }

    /// `<Move steps="..."/>`: each step adjacent, to no closed station,
    /// to no station occupied before this turn (Rules 1, 3, 6; MX3, MX6).
    pub(super) fn move_train(&mut self, steps: &[StationRef]) {
        let name = self.name();
        let mut path = vec![self.station(self.train().at)];
        for (k, s) in steps.iter().enumerate() {
            let from = self.train().at;
            self.step_violation("3", from, s);
            let to = self.station(s.id);
            if let Some(strength) = self.state.block(s.id) {
                self.violate(
                    "3",
                    None,
                    format!("{to} is closed (blocked, strength {strength}): a train may not step to a closed station"),
                );
            } else if self.state.rebuilding && s.id == self.facts.mornington() {
                let ends_here = k + 1 == steps.len();
                match self.state.rulings.build_at {
                    BuildAt::On if ends_here => {}
                    BuildAt::On => self.violate(
                        "3",
                        Some("MX3"),
                        format!("{to} is closed for rebuilding: a Move may end on it, not pass through it"),
                    ),
                    BuildAt::Adjacent => self.violate(
                        "3",
                        Some("MX3"),
                        format!("{to} is closed for rebuilding: Build is played from an adjacent station"),
                    ),
                }
            }
            if self.visited.contains(&s.id) {
                self.violate(
                    "3",
                    Some("MX6"),
                    format!("{to} was already stepped to or from this turn"),
                );
            }
            self.visited.push(s.id);
            self.train_mut().at = s.id;
            path.push(to);
        }
        self.changes.push(format!(
            "{name} moved {} ({} min)",
            path.join(" -> "),
            self.kind.minutes(steps.len(), 0)
        ));
    }

    /// `<Shunt player="..." steps="..." force="..."/>`: both trains at one
    /// station; the shunted train's route is any walk avoiding closed
    /// stations (revisits allowed, RULINGS MX6); one token a step (MX4).
    pub(super) fn shunt(&mut self, player: &str, steps: &[StationRef], force: Option<u32>) {
        let Some(target) = self.other_here(player, "shunt", "shunt") else {
            return;
        };
        let name = self.name();
        let victim = self.state.trains[target].name.clone();
        let there = self.state.trains[target].at;
        if let Some(f) = force.filter(|&f| f as usize != steps.len()) {
            self.violate(
                "6",
                Some("MX4"),
                format!(
                    "force=\"{f}\", but the shunted train takes {} steps: the force is the number of steps",
                    steps.len()
                ),
            );
        }
        let mut path = vec![self.station(there)];
        let mut at = there;
        for s in steps {
            self.step_violation("6", at, s);
            if self.state.is_closed(self.facts, s.id) {
                self.violate(
                    "6",
                    None,
                    format!(
                        "{} is closed: the shunted train may not move through or to a closed station",
                        self.station(s.id)
                    ),
                );
            }
            at = s.id;
            path.push(self.station(at));
        }
        let cost = self.kind.cost(steps.len(), 0, 0);
        self.pay(cost, "the shunt");
        self.state.trains[target].at = at;
        self.changes.push(format!(
            "{name} shunted {victim} {} ({})",
            path.join(" -> "),
            tokens(cost)
        ));
    }
}
