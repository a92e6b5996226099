//! Game-wide States (Rule 1.8): Bridges (1.8.3), Knip (1.8.4),
//! Gapminding (1.8.7), Bocks (1.8.8), Sgronk (1.8.10), Speed Crazes (1.8.13).
//! Parks and Greens, Venbacker Ladders, the Dollis Hill Loop, Token
//! Cascades and Charge Spirals need a human ruling (see `dispatch.rs`).

use super::*;

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
}
