//! Stations Blocked and barred (Rule 1.9): Blocks (1.9.1), Fires (1.9.2),
//! Bulkheads (1.9.3), Maelbergs (1.9.5), Kafka Sinkholes (1.9.6); and the
//! tests every Move and Action makes of them.

use super::*;

impl Turn<'_> {
    /// `[Blocking <Station>]` (Rule 1.9.1): an unoccupied station adjacent
    /// to the Piece, Blocked for one Round; the nth Block of a Turn costs n
    /// times the table's Cost, nothing at a station whose Stub the player
    /// owns (Rule 1.7.33).
    pub(super) fn block(&mut self, a: &Action, target: &Target, when: When) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let name = &target.station;
        if when == When::Before {
            // The phase check reports it (Rule 1.7.1).
            return Charge::Free;
        }
        let Some(at) = self.here() else {
            self.illegal("1.9.1", "a Piece off the Map cannot Block");
            return Charge::Free;
        };
        if !self.adjacent(at, id) && !self.magnified_station(a, id) {
            let near: Vec<String> = LineCode::ALL
                .iter()
                .flat_map(|&l| {
                    self.map
                        .neighbours(at, l)
                        .iter()
                        .map(|&n| self.name(n).to_string())
                })
                .collect();
            self.illegal(
                "1.9.1",
                format!(
                    "{name} is not adjacent to {}; adjacent stations: {}",
                    self.name(at),
                    near.join(", ")
                ),
            );
        }
        if self.s.players.iter().any(|p| p.station() == Some(id)) {
            self.illegal(
                "1.9.1",
                format!("{name} is occupied: only an unoccupied station can be Blocked"),
            );
        }
        self.tally.blocks += 1;
        let n = self.tally.blocks;
        let charge = if self.s.players[self.me].has_stub(id) {
            Charge::Free
        } else {
            let cost: Vec<(u32, Colour)> = Self::table_cost(a)
                .unwrap_or_default()
                .into_iter()
                .map(|(k, c)| (k * n, c))
                .collect();
            // The Hyde Mask's Red off too (Rule 1.7.38), and the Bocks.
            let cost = self.with_bocks(a, cost);
            self.pay(
                &format!("Block number {n} of the Turn ({})", a.render()),
                "1.9.1",
                &cost,
            );
            Charge::Paid
        };
        self.s.blocks.push(Block {
            station: id,
            by: self.my_name(),
        });
        self.change(format!("{name} is Blocked for one Round (Rule 1.9.1)"));
        charge
    }

    /// `[Bulkheading <Station>]` (Rule 1.9.3): a station adjacent to the Piece.
    pub(super) fn bulkhead(&mut self, a: &Action, target: &Target, when: When) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if !self.at(when).is_some_and(|f| self.adjacent(f, id)) && !self.magnified_station(a, id) {
            self.illegal(
                "1.9.3",
                format!(
                    "{} is not adjacent to the Piece (Fosdyke S1)",
                    target.station
                ),
            );
        } else {
            self.mark(id, StationMark::Bulkhead, "Bulkheaded", "1.9.3");
        }
        Charge::Table
    }

    /// `[Removing Bulkhead at <Station>]` (Rule 1.9.3).
    pub(super) fn remove_bulkhead(&mut self, a: &Action, target: &Target) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let name = &target.station;
        let before = self.s.disruptions.len();
        self.s.disruptions.retain(
            |d| !matches!(d, Disruption::Station { at, mark: StationMark::Bulkhead } if *at == id),
        );
        if self.s.disruptions.len() == before {
            self.illegal(a.spec().rule, format!("{name} is not Bulkheaded"));
        } else {
            self.change(format!("the Bulkhead at {name} is removed (Rule 1.9.3)"));
        }
        Charge::Table
    }

    /// `[Maelberging <Station>]` (Rule 1.9.5): a station the Piece passed
    /// through this Turn.
    pub(super) fn maelberg(&mut self, a: &Action, target: &Target) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if !self.mv.through.contains(&id) {
            self.illegal(
                "1.9.5",
                format!(
                    "{} is not a station the Piece passed through this Turn",
                    target.station
                ),
            );
        } else {
            self.mark(id, StationMark::Maelberg, "Maelberged", "1.9.5");
        }
        Charge::Table
    }

    /// `[Un-Maelberging]` (Rule 1.9.5): at a Maelberged station; the
    /// Maelberging player's Blue comes back to the Actioning player
    /// (RULINGS.md E26).
    pub(super) fn un_maelberg(&mut self, a: &Action) -> Charge {
        let here = self.here();
        let i = here.and_then(|h| {
            self.s.disruptions.iter().position(|d| {
                matches!(d, Disruption::Station { at, mark: StationMark::Maelberg } if *at == h)
            })
        });
        let (Some(i), Some(h)) = (i, here) else {
            self.illegal(a.spec().rule, "the Piece is not at a Maelberged station");
            return Charge::Free;
        };
        self.s.disruptions.remove(i);
        // The table's Gain is the Maelberger's Blue (RULINGS.md E26).
        self.change(format!("{} is un-Maelberged (Rule 1.9.5)", self.name(h)));
        Charge::Table
    }

    /// `[Fire at <Station>]` (Rule 1.9.2): an unoccupied station passed
    /// through or adjacent; Blocked for one Round and Lightly Damaged; a
    /// Fire ends a Bulkhead (1.9.3). At an Interchange: 4 Red and 10
    /// minutes per line, or as the game chooses (RULINGS.md E42).
    pub(super) fn fire(&mut self, a: &Action, target: &Target) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let name = &target.station;
        let near =
            self.mv.through.contains(&id) || self.here().is_some_and(|h| self.adjacent(h, id));
        if !near {
            self.illegal(
                "1.9.2",
                format!("{name} is neither passed through this Turn nor adjacent to the Piece"),
            );
        } else if self.s.players.iter().any(|p| p.station() == Some(id)) {
            self.illegal(
                "1.9.2",
                format!("{name} is occupied: a Fire is spotted at an unoccupied station"),
            );
        } else {
            self.s.blocks.push(Block {
                station: id,
                by: self.my_name(),
            });
            self.tally.blocks += 1;
            self.s.disruptions.retain(|d| {
                !matches!(d, Disruption::Station { at, mark: StationMark::Bulkhead } if *at == id)
            });
            self.s.disruptions.push(Disruption::Station {
                at: id,
                mark: StationMark::Damage,
            });
            self.change(format!(
                "Fire at {name}: Blocked for one Round and Lightly Damaged (Rule 1.9.2)"
            ));
        }
        if !matches!(a, Action::FireAtInterchange { .. }) {
            return Charge::Table;
        }
        let lines = self.map.station(id).lines.len() as u32;
        let red = Self::table_cost(a).unwrap_or_default();
        let (cost, minutes) = match self.s.rulings.interchange_fire {
            InterchangeFire::MinutesPerLine => (red, 10 * lines),
            InterchangeFire::RedPerLine => {
                (red.into_iter().map(|(n, c)| (n * lines, c)).collect(), 10)
            }
        };
        let cost = self.with_bocks(a, cost);
        self.pay(&a.render(), a.spec().rule, &cost);
        self.action_minutes(minutes);
        Charge::Paid
    }

    /// Records a station mark in Disruptions (Rules 1.9.3, 1.9.5, 1.11.4, 1.11.7).
    pub(super) fn mark(&mut self, at: StationId, mark: StationMark, what: &str, rule: &str) {
        self.s.disruptions.push(Disruption::Station { at, mark });
        self.change(format!("{} is {what} (Rule {rule})", self.name(at)));
    }

    /// Blocked for this player now (Rules 1.9.1, 1.9.3, 1.11.3, 1.12.3,
    /// 1.20.3), unless e owns the station's Stub (Rule 1.7.33).
    pub(super) fn blocked(&self, id: StationId) -> bool {
        let me = &self.s.players[self.me];
        // An Electrified line Blocks its stations for a Piece carrying
        // Metallic Tokens when its Move began (Rule 1.20.3).
        let st = self.map.station(id);
        if self.mv.metallic
            && self.s.disruptions.iter().any(|d| matches!(d, Disruption::Line { line, state: LineState::Electrified } if st.lines.contains(*line)))
        {
            return true;
        }
        if me.has_stub(id) {
            return false;
        }
        self.s.blocks.iter().any(|b| b.station == id)
            || self.s.has_mark(id, StationMark::Bulkhead)
            || self.s.has_mark(id, StationMark::HeavyDamage)
            || (self.s.players.iter().enumerate().any(|(i, p)| {
                i != self.me && p.home == Some(id) && !p.carries(crate::gsd::Good::KnidClamp)
            }) && !self.opened.tolled.iter().any(|(h, _)| *h == id))
    }

    /// Whether a Move may start at `at`: not if the station is Blocked for
    /// this player ("any Moves which start ... at that Station are
    /// Invalid", Rule 1.9.1; the rule that Blocks it cited beside), nor, for
    /// a Special Move, Closed ("a Move which starts ... at that Station is
    /// Invalid", Rule 1.13.4: a Standard Move's Closed start is found by its
    /// route search). Special Moves are Moves (Rule 1.5.0; RULINGS E123).
    pub(super) fn may_start(&mut self, at: Position, special: bool) -> bool {
        let name = self.name(at.station).to_string();
        let mut ok = true;
        if self.blocked(at.station) {
            let (rule, why) = self.why_blocked(at.station);
            if rule != "1.9.1" {
                self.illegal(rule, why);
            }
            self.illegal(
                "1.9.1",
                format!("{name} is Blocked: no Move may start there"),
            );
            ok = false;
        }
        if special && !self.open(at.station, at.line) {
            let when = self.now();
            self.illegal(
                "1.13.4",
                format!("{name} is Closed at {when}: no Move starts there"),
            );
            ok = false;
        }
        ok
    }

    /// Whether a Piece may pass through the station: not Maelberged (Rule
    /// 1.9.5), no Suspect Package (1.4.7), no Player carrying the PoID
    /// (1.4.24), not a Kafka Sinkhole (1.9.6), no Stack under Sgronk
    /// (1.8.10).
    pub(super) fn passable(&self, id: StationId) -> bool {
        // "a Move which passes through that Station is Invalid" (Rule 1.4.7).
        // "if a Player's Move involves passing through ... a Station which
        // contains a Player who carries the Podume, that Move is Illegal"
        // (Rule 1.4.24).
        if self.s.has_mark(id, StationMark::Maelberg)
            || self.s.has_package(id)
            || self.poid_protects(id)
        {
            return false;
        }
        let stack = self.s.stack(id);
        if stack.is_some_and(|t| t.len() >= 4 && t.iter().all(|c| *c == Colour::Black)) {
            return false;
        }
        // The game leaves Sgronk as soon as no Stack holds two or more Tokens.
        let sgronk =
            self.s.has(&Disruption::Sgronk) && self.s.stacks.iter().any(|(_, t)| t.len() >= 2);
        !(sgronk && stack.is_some_and(|t| !t.is_empty()))
    }
}
