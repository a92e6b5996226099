//! Game-wide States (Rule 1.8): Bridges (1.8.3), Knip (1.8.4),
//! Gapminding (1.8.7), Bocks (1.8.8), Sgronk (1.8.10), Charge Spirals
//! (1.8.11), Speed Crazes (1.8.13). Parks and Greens, Venbacker Ladders
//! and the Dollis Hill Loop are in `bounds.rs`; Token Cascades need a
//! human ruling (see `dispatch.rs`).

use super::*;
use crate::gsd::Spiral;

impl Turn<'_> {
    /// `[Bridges Up]`, `[Bridges Down]` (Rule 1.8.3).
    pub(super) fn bridges(&mut self, a: &Action) -> Charge {
        let up = matches!(a, Action::BridgesUp);
        self.s.set(Disruption::BridgesUp, up);
        self.change(format!(
            "Bridges are {} (Rule 1.8.3)",
            if up { "Up" } else { "Down" }
        ));
        Charge::Table
    }

    /// Bridges Up: a Piece Move from one bank of the Thames to the other
    /// is Invalid (Rule 1.8.3), Standard or Special (RULINGS.md E50).
    pub(super) fn bridges_forbid(&mut self, from: StationId, to: StationId) -> bool {
        let across = self.map.station(from).thames != self.map.station(to).thames;
        if across && self.s.has(&Disruption::BridgesUp) {
            self.illegal(
                "1.8.3",
                format!(
                    "Bridges are Up: {} and {} are on opposite banks of the Thames",
                    self.name(from),
                    self.name(to)
                ),
            );
            return true;
        }
        false
    }

    /// `[Into Knip]`, `[Out of Knip]` (Rule 1.8.4): paid before the State
    /// changes, so entering Knip is not spending in it.
    pub(super) fn knip(&mut self, a: &Action) -> Charge {
        let into = matches!(a, Action::IntoKnip);
        let charge = self.pay_table(a);
        self.s.set(Disruption::Knip, into);
        self.change(format!(
            "the game is {} Knip (Rule 1.8.4)",
            if into { "in" } else { "out of" }
        ));
        charge
    }

    /// `[Mind the Gap]`, `[Ignore the Gap]` (Rule 1.8.7).
    pub(super) fn gapminding(&mut self, a: &Action) -> Charge {
        let on = matches!(a, Action::MindTheGap);
        self.s.set(Disruption::Gapminding, on);
        self.change(format!(
            "the game is {}Gapminding (Rule 1.8.7)",
            if on { "" } else { "no longer " }
        ));
        Charge::Table
    }

    /// `[Sgronk!]` (Rule 1.8.10).
    pub(super) fn sgronk(&mut self) -> Charge {
        if !self.s.has(&Disruption::Sgronk) {
            self.s.disruptions.push(Disruption::Sgronk);
        }
        self.change("the game is in Sgronk (Rule 1.8.10)");
        Charge::Table
    }

    /// `[Speed Craze]` (Rule 1.8.13).
    pub(super) fn speed_craze(&mut self) -> Charge {
        if !self.s.has(&Disruption::SpeedCraze) {
            self.s.disruptions.push(Disruption::SpeedCraze);
        }
        self.change("a Speed Craze is in effect (Rule 1.8.13)");
        Charge::Table
    }

    /// `[Terminating Craze]` (Rule 1.8.13): from a High or Hill Station
    /// with LV 10.
    pub(super) fn terminating_craze(&mut self) -> Charge {
        let c = self.here().map(|h| self.map.station(h).categories);
        let high_or_hill =
            c.is_some_and(|c| c.contains(Category::High) || c.contains(Category::Hill));
        if !self.s.has(&Disruption::SpeedCraze) {
            self.illegal("1.8.13", "there is no Speed Craze to end");
        } else if !high_or_hill || self.s.players[self.me].lv != 10 {
            self.illegal(
                "1.8.13",
                "a Speed Craze ends only from a High or Hill Station with LV 10",
            );
        } else {
            self.s.disruptions.retain(|d| *d != Disruption::SpeedCraze);
            self.change("the Speed Craze ends (Rule 1.8.13)");
        }
        Charge::Table
    }

    /// `[<Colour> Bock]` (Rule 1.8.8): paid before the game is in the Bock.
    pub(super) fn bock(&mut self, colour: Colour) -> Charge {
        let charge = self.pay_table(&Action::Bock { colour });
        if !self.s.has(&Disruption::Bock(colour)) {
            self.s.disruptions.push(Disruption::Bock(colour));
        }
        self.change(format!(
            "the game is in {} Bock (Rule 1.8.8)",
            colour.name()
        ));
        charge
    }

    /// `[Un-Bock <Colour>]` and `[Un-Bock]` (Rule 1.8.8).
    pub(super) fn un_bock(&mut self, colour: Option<Colour>) -> Charge {
        match colour {
            Some(c) if !self.s.has(&Disruption::Bock(c)) => {
                self.illegal("1.8.8", format!("the game is not in {} Bock", c.name()));
                Charge::Free
            }
            Some(c) => {
                self.s.disruptions.retain(|d| *d != Disruption::Bock(c));
                self.change(format!("{} Bock ends (Rule 1.8.8)", c.name()));
                Charge::Table
            }
            None => {
                self.s
                    .disruptions
                    .retain(|d| !matches!(d, Disruption::Bock(_)));
                self.change("every Bock ends (Rule 1.8.8)");
                Charge::Table
            }
        }
    }

    /// `[Charge Spiral Inwards]`, `[Charge Spiral Outwards]` (Rule 1.8.11):
    /// the Spiral is in effect, replacing one of the other direction
    /// (RULINGS.md E51).
    pub(super) fn charge_spiral(&mut self, way: Spiral) -> Charge {
        self.s
            .disruptions
            .retain(|d| !matches!(d, Disruption::ChargeSpiral(_)));
        self.s.disruptions.push(Disruption::ChargeSpiral(way));
        self.change(format!(
            "a Charge Spiral {} is in effect (Rule 1.8.11)",
            match way {
                Spiral::Inwards => "Inwards",
                Spiral::Outwards => "Outwards",
            }
        ));
        Charge::Table
    }

    /// Under a Charge Spiral Inwards no Move may increase the Moving
    /// Piece's Charge, under one Outwards none may decrease it (Rule
    /// 1.8.11); `before` is the Charge as the Move began.
    pub(super) fn spiral_allows(&mut self, before: i32) {
        let after = self.s.players[self.me].charge;
        let spiral = self.s.disruptions.iter().find_map(|d| match d {
            Disruption::ChargeSpiral(s) => Some(*s),
            _ => None,
        });
        let broken = match spiral {
            Some(Spiral::Inwards) => after > before,
            Some(Spiral::Outwards) => after < before,
            None => false,
        };
        if broken {
            let (way, what) = match spiral {
                Some(Spiral::Inwards) => ("Inwards", "increases"),
                _ => ("Outwards", "decreases"),
            };
            self.illegal(
                "1.8.11",
                format!("a Charge Spiral {way} is in effect: the Move {what} the Piece's Charge ({before:+}% to {after:+}%)"),
            );
        }
    }

    /// A Charge Spiral Inwards ends when a Piece rests at Tottenham Court
    /// Road at the end of a Turn; one Outwards when a Piece rests at a
    /// Terminal Station with a Current of 70 or more (Rule 1.8.11).
    pub(super) fn end_charge_spiral(&mut self) {
        let map = self.map;
        let at: Vec<StationId> = self.s.players.iter().filter_map(|p| p.station()).collect();
        let ends = |s: &Spiral| match s {
            Spiral::Inwards => at.iter().any(|&x| map.is(x, Landmark::TottenhamCourtRoad)),
            Spiral::Outwards => at.iter().any(|&x| {
                let st = map.station(x);
                st.categories.contains(Category::Terminus) && st.current >= 70
            }),
        };
        let before = self.s.disruptions.len();
        self.s
            .disruptions
            .retain(|d| !matches!(d, Disruption::ChargeSpiral(s) if ends(s)));
        if self.s.disruptions.len() != before {
            self.change("the Charge Spiral ends (Rule 1.8.11)");
        }
    }
}
