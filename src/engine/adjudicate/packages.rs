//! Suspect Packages (Rule 1.4.7): dropping one, Moves that would pass
//! through one, Shunting one as though it were a Player; Detonating and
//! Defusing them (Rule 1.7.30). The explosion itself is `bomb.rs`'s.

use super::*;
use crate::engine::{Package, MAX_PACKAGES};

/// "Any Player who is fewer than five stations away from a Suspect
/// Package" may detonate it (Rule 1.7.30, RULINGS.md E98).
const DETONATE_STOPS: u32 = 5;

impl Turn<'_> {
    /// `[Dropping Package at <Station>]` (Rule 1.4.7): fewer than three
    /// Packages in play; the Station is the Actioning Player's current
    /// location or one eir Move passed through so far this Turn (RULINGS.md
    /// E96).
    pub(super) fn drop_package(&mut self, a: &Action, target: &Target, when: When) -> Charge {
        let rule = a.spec().rule;
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let Some(here) = self.at(when) else {
            self.illegal(rule, "a Piece off the Map drops no Suspect Package");
            return Charge::Free;
        };
        let passed = when == When::After && self.mv.through.contains(&id);
        if id != here && !passed {
            let so_far = if when == When::After && !self.mv.through.is_empty() {
                let names: Vec<&str> = self.mv.through.iter().map(|s| self.name(*s)).collect();
                format!(
                    ", or a Station the Move passed through ({})",
                    names.join(", ")
                )
            } else {
                String::new()
            };
            let msg = format!(
                "{} is neither where {} is ({}) nor a Station e has passed through so far this Turn: a Package is dropped at {}{so_far}",
                target.station,
                self.my_name(),
                self.name(here),
                self.name(here),
            );
            self.illegal(rule, msg);
            return Charge::Free;
        }
        if self.s.packages.len() >= MAX_PACKAGES {
            self.illegal(
                rule,
                format!("{MAX_PACKAGES} Suspect Packages are in play already: no more may be created while there are three"),
            );
            return Charge::Free;
        }
        self.s.packages.push(Package {
            at: id,
            by: Some(self.my_name()),
        });
        self.change(format!(
            "{} drops a Suspect Package at {} (Rule 1.4.7)",
            self.my_name(),
            self.name(id)
        ));
        Charge::Table
    }

    /// Under `package_stops_arrival` (RULINGS.md E96, contested), a Move
    /// may not end at a Suspect Package's Station either.
    pub(super) fn package_arrival(&mut self) {
        let Some(here) = self.here() else {
            return;
        };
        if self.s.rulings.package_stops_arrival
            && self.mv.started_at != Some(here)
            && self.s.has_package(here)
        {
            let msg = format!(
                "a Suspect Package rests at {}: in this game no Move ends there (RULINGS.md E96, package_stops_arrival)",
                self.name(here)
            );
            self.illegal("1.4.7", msg);
        }
    }

    /// A Shunt of a Suspect Package "as though it were a Player with the
    /// name Suspect Package" (Rule 1.4.7): it rests at the shunter's
    /// Station, and is sent as a Player would be; it carries no Tokens or
    /// Possessions, so no claim, and a Dead-End Shunt only moves it.
    pub(super) fn shunt_package(&mut self, a: &Action, rule: &str, target: &Target) {
        let Some((here, dest, line)) = self.shunt_resting(
            a,
            rule,
            target,
            "a Suspect Package",
            "no Suspect Package rests at",
            "1.4.7",
            |s, at| s.packages.iter().any(|p| p.at == at),
        ) else {
            return;
        };
        let Some(i) = self.s.packages.iter().position(|p| p.at == here) else {
            return;
        };
        self.s.packages[i].at = dest;
        self.shunts.packages.push(i);
        self.change(format!(
            "the Suspect Package at {} is Shunted to {} ({line}) (Rules 1.4.7, {rule})",
            self.name(here),
            target.station
        ));
        if self.claim_of("Suspect Package").is_some() {
            self.illegal(
                "1.4.7",
                "a Suspect Package carries no Tokens or Possessions: nothing is claimed from it",
            );
        }
    }

    /// A Double Shunt of a Suspect Package at `occupied`, where the
    /// previous Shunt sent its target (Rules 1.4.7, 1.10.2): none is
    /// Shunted twice by one Move, and nothing is claimed from it.
    pub(super) fn double_shunt_package(
        &mut self,
        rule: &str,
        target: &Target,
        n: u32,
        occupied: StationId,
        dest: StationId,
    ) {
        let moved = &self.shunts.packages;
        let i = (0..self.s.packages.len())
            .find(|&i| self.s.packages[i].at == occupied && !moved.contains(&i));
        let Some(line) = self.double_shunt_resting(
            rule,
            target,
            n,
            occupied,
            dest,
            i.is_some(),
            "Suspect Package",
        ) else {
            return;
        };
        let Some(i) = i else {
            return;
        };
        self.s.packages[i].at = dest;
        self.shunts.packages.push(i);
        self.change(format!(
            "the Suspect Package at {} is Double-Shunted to {} ({line}) (Rules 1.4.7, 1.10.2)",
            self.name(occupied),
            target.station
        ));
        if self.claim_of("Suspect Package").is_some() {
            self.illegal(
                "1.4.7",
                "a Suspect Package carries no Tokens or Possessions: nothing is claimed from it",
            );
        }
    }

    /// `[Detonating <Station> Package]` (Rule 1.7.30; also written
    /// `[Detonating Package at <Station>]`): a Package rests there, and the
    /// Actioning Player is fewer than five stations from it (counted as the
    /// blast counts stops, RULINGS.md E98); it detonates.
    pub(super) fn detonate(&mut self, a: &Action, target: &Target) -> Charge {
        let rule = a.spec().rule;
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if !self.s.packages.iter().any(|p| p.at == id) {
            self.illegal(
                rule,
                format!("no Suspect Package rests at {}", target.station),
            );
            return Charge::Free;
        }
        let Some(here) = self.here() else {
            self.illegal(rule, "a Piece off the Map is not near any Suspect Package");
            return Charge::Free;
        };
        let near = self.within_stops(id, DETONATE_STOPS).contains(&here);
        if !near && !self.magnified_station(a, id) {
            self.illegal(
                rule,
                format!(
                    "{} is not fewer than five stations from the Suspect Package at {}",
                    self.name(here),
                    target.station
                ),
            );
            return Charge::Free;
        }
        self.detonate_at(id);
        Charge::Table
    }

    /// `[Detonating Package]`, Rule 1.7.30's own text with its `<Station>`
    /// lost: the one Station with a Package fewer than five stations away;
    /// with several the play needs a choice (RULINGS.md E95, E134).
    pub(super) fn detonate_bare(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        let Some(here) = self.here() else {
            self.illegal(rule, "a Piece off the Map is not near any Suspect Package");
            return Charge::Free;
        };
        // Fewer than five stations by the map; a Package only a Magnifier
        // brings within reach (E79) is named, [Detonating <Station> Package].
        let mut near: Vec<StationId> = Vec::new();
        for p in &self.s.packages {
            if !near.contains(&p.at) && self.within_stops(p.at, DETONATE_STOPS).contains(&here) {
                near.push(p.at);
            }
        }
        let options: Vec<(StationId, String)> = near
            .iter()
            .map(|&s| (s, format!("[Detonating {} Package]", self.name(s))))
            .collect();
        let Some(id) = self.only_choice(rule, &a.render(), &options) else {
            if options.is_empty() {
                self.illegal(
                    rule,
                    format!(
                        "no Suspect Package rests fewer than five stations from {}",
                        self.name(here)
                    ),
                );
            }
            return Charge::Free;
        };
        self.detonate_at(id);
        Charge::Table
    }

    /// A Package at `id` detonates.
    fn detonate_at(&mut self, id: StationId) {
        if let Some(i) = self.s.packages.iter().position(|p| p.at == id) {
            self.s.packages.remove(i);
        }
        let cause = format!(
            "{} detonates the Suspect Package at {}",
            self.my_name(),
            self.name(id)
        );
        self.explode(id, cause);
    }

    /// `[Defusing Package]` (Rule 1.7.30): at the Station of a Package the
    /// Actioning Player did not place emself; it is removed from play and
    /// e gains a Silver Token (the table's Gain). A Package whose placer is
    /// not known (a GSD read from its tables) needs a human ruling.
    pub(super) fn defuse(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        let Some(here) = self.here() else {
            self.illegal(rule, "a Piece off the Map is at no Suspect Package");
            return Charge::Free;
        };
        let me = self.my_name();
        let at_here: Vec<(usize, Option<String>)> = self
            .s
            .packages
            .iter()
            .enumerate()
            .filter(|(_, p)| p.at == here)
            .map(|(i, p)| (i, p.by.clone()))
            .collect();
        if at_here.is_empty() {
            self.illegal(
                rule,
                format!("no Suspect Package rests at {}", self.name(here)),
            );
            return Charge::Free;
        }
        let theirs = at_here
            .iter()
            .find(|(_, by)| by.as_deref().is_some_and(|b| !b.eq_ignore_ascii_case(&me)));
        let Some((i, by)) = theirs.cloned() else {
            if at_here.iter().any(|(_, by)| by.is_none()) {
                self.ruling(
                    rule,
                    format!(
                        "who placed the Suspect Package at {} is not known to mornbot (a GSD's tables do not show it, RULINGS.md E97): a human rules whether {me} may Defuse it",
                        self.name(here)
                    ),
                );
            } else {
                self.illegal(
                    rule,
                    format!(
                        "{me} placed the Suspect Package at {} emself: a Player may not Defuse eir own Package",
                        self.name(here)
                    ),
                );
            }
            return Charge::Free;
        };
        self.s.packages.remove(i);
        self.change(format!(
            "{me} Defuses the Suspect Package {} placed at {}: it is removed from play (Rule 1.7.30)",
            by.unwrap_or_default(),
            self.name(here)
        ));
        Charge::Table
    }
}
