//! Block and Unblock (Rule 6; RULINGS MX4, MX9).

use super::Judging;
use crate::kinds::mcxml::actions::tokens;
use crate::kinds::mcxml::state::Closure;
use crate::kinds::mcxml::turn::StationRef;

impl Judging<'_> {
    /// A line written after the station must be one of its lines (MX16).
    fn line_claim(&mut self, station: StationRef) {
        if let Some(l) = station.line {
            let on = self.facts.map().station(station.id).lines;
            if !on.contains(l) {
                let name = self.station(station.id);
                self.violate(
                    "6",
                    Some("MX16"),
                    format!("{name} is not on the {} line written after it", l.code()),
                );
            }
        }
    }

    /// `<Block station="s" strength="x"/>`: from a station adjacent to the
    /// target, never Mornington Crescent, never a closed station; x tokens
    /// (at least 1: MX4) and 10 x minutes.
    pub(super) fn block(&mut self, station: StationRef, strength: u32) {
        let name = self.name();
        let (at, s) = (self.train().at, station.id);
        let target = self.station(s);
        self.line_claim(station);
        let mut applies = true;
        if strength == 0 {
            self.violate(
                "6",
                Some("MX4"),
                "strength=\"0\": a block costs its strength, at least 1 token".into(),
            );
            applies = false;
        }
        if s == self.facts.mornington() {
            self.violate("6", None, "Mornington Crescent may not be blocked".into());
            applies = false;
        } else if let Some(x) = self.state.block(s) {
            self.violate(
                "6",
                Some("MX9"),
                format!("{target} is closed already (strength {x})"),
            );
            applies = false;
        }
        if !self.facts.adjacent(at, s) {
            self.violate(
                "6",
                Some("MX9"),
                format!(
                    "{name} is at {}, which is not adjacent to {target}: the blocking player must be at an adjacent station",
                    self.station(at)
                ),
            );
        }
        self.pay(self.kind.cost(0, strength, 0), "the block");
        if applies {
            self.state.closed.push(Closure {
                station: s,
                strength,
            });
        }
        self.changes.push(format!(
            "{name} blocked {target} with strength {strength} ({}, {} min)",
            tokens(strength),
            self.kind.minutes(0, strength)
        ));
    }

    /// `<Unblock station="s"/>`: never Mornington Crescent; twice the
    /// block's strength; anywhere, or adjacent under `unblock_adjacent`.
    pub(super) fn unblock(&mut self, station: StationRef) {
        let name = self.name();
        let (at, s) = (self.train().at, station.id);
        let target = self.station(s);
        self.line_claim(station);
        if s == self.facts.mornington() {
            self.violate("6", None, "Mornington Crescent may not be unblocked".into());
            return;
        }
        let Some(strength) = self.state.block(s) else {
            self.violate("6", Some("MX9"), format!("{target} is not closed"));
            return;
        };
        if self.state.rulings.unblock_adjacent && !self.facts.adjacent(at, s) {
            self.violate(
                "6",
                Some("MX9"),
                format!(
                    "{name} is at {}, which is not adjacent to {target} (this game's ruling unblock_adjacent)",
                    self.station(at)
                ),
            );
        }
        let cost = self.kind.cost(0, strength, 0);
        self.pay(cost, "the unblock");
        self.state.closed.retain(|c| c.station != s);
        self.changes.push(format!(
            "{name} unblocked {target} ({}, {} min)",
            tokens(cost),
            self.kind.minutes(0, strength)
        ));
    }
}
