//! Rule 1.7's other Actions: British Rail travel (1.7.9), the Hyde Mask
//! (1.7.38), Freewheeling (1.7.45) and Streaking (1.7.60).

use super::*;

impl Turn<'_> {
    /// `[Visiting <Place>]` (Rule 1.7.9): at a British Rail Station after a
    /// Move of Pass; the table's Gain is the Gold the rule gives.
    pub(super) fn visit(&mut self, a: &Action, place: &str) -> Charge {
        let rule = a.spec().rule;
        let at_br = self
            .here()
            .is_some_and(|h| self.map.station(h).british_rail);
        if !matches!(self.play.mv, Move::Pass(_)) {
            self.illegal(rule, "[Visiting] follows a Move of Pass");
            return Charge::Free;
        }
        if !at_br {
            self.illegal(rule, "[Visiting] is played at a British Rail Station");
            return Charge::Free;
        }
        self.s.visits.push(Visit {
            player: self.my_name(),
            place: place.to_string(),
            late: false,
        });
        self.change(format!(
            "a visit to {place} earns a Gold Token (Rule 1.7.9)"
        ));
        Charge::Table
    }

    /// `[Late Arrival from <Place>]` (Rule 1.7.9): any British Rail Station
    /// in Great Britain; the map knows only London's, so any Place is
    /// accepted (RULINGS.md E48).
    pub(super) fn late_arrival_from(&mut self, place: &str) -> Charge {
        let by = self.my_name();
        let late = self.s.late_arrival(&by, place);
        if !late.is_empty() {
            self.change(format!(
                "a Late Arrival from {place}: {} must Pass with no Actions next Turn (Rule 1.7.9)",
                late.join(", ")
            ));
        }
        Charge::Table
    }

    /// `[Freewheeling]` (Rule 1.7.45): +1 LV at a High or Hill Station.
    pub(super) fn freewheeling(&mut self, a: &Action) -> Charge {
        let high = self.mv.started_at.is_some_and(|s| {
            let c = self.map.station(s).categories;
            c.contains(Category::High) || c.contains(Category::Hill)
        });
        if !high {
            self.illegal(
                a.spec().rule,
                "[Freewheeling] is played at a High or Hill Station",
            );
            return Charge::Free;
        }
        self.s.players[self.me].lv += 1;
        Charge::Table
    }

    /// Whether the player wears the Hyde Mask (Rule 1.7.38).
    pub(super) fn hyde(&self) -> bool {
        self.s.players[self.me].wears(crate::gsd::Good::HydeMask)
    }

    /// A Holy Station, which the Hyde Mask forbids (Rule 1.7.38).
    pub(super) fn hyde_forbids(&self, id: StationId) -> bool {
        self.hyde() && self.map.station(id).categories.contains(Category::Holy)
    }

    /// `[Hyde Transformation]` (Rule 1.7.38): at Hyde Park Corner, paid in
    /// full; the Mask is a Unique Garment, put on by the Transformation,
    /// and a second one is destroyed at once (Rule 1.4.23, RULINGS.md E34).
    pub(super) fn hyde_transformation(&mut self, a: &Action) -> Charge {
        let here = self.here();
        if !here.is_some_and(|h| self.map.is(h, Landmark::HydeParkCorner)) {
            self.illegal(
                a.spec().rule,
                "[Hyde Transformation] is played at Hyde Park Corner",
            );
            return Charge::Free;
        }
        let taken = self
            .s
            .players
            .iter()
            .any(|p| p.holds(crate::gsd::Good::HydeMask));
        let charge = self.pay_table(a);
        if taken {
            self.change("the Hyde Mask is Unique and already in play: the new one is destroyed (Rule 1.4.23)");
        } else {
            self.s.players[self.me]
                .possessions
                .push(crate::gsd::Possession {
                    worn: true,
                    ..crate::gsd::Possession::of(crate::gsd::Good::HydeMask)
                });
            self.change("the Hyde Mask is worn (Rule 1.7.38)");
        }
        charge
    }

    /// `[Streaking]` (Rule 1.7.60): by a player who carries no Possessions;
    /// players at stations the Move passed through lose their loose ones;
    /// caught at Arsenal, Wembley Park or Wimbledon, the Streaker pays one
    /// Bronze more, gains an Overcoat and is sent to Tower Hill (RULINGS.md
    /// E35).
    pub(super) fn streak(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        let me = self.me;
        if !self.s.players[me].possessions.is_empty() {
            self.illegal(
                rule,
                "[Streaking] is played by a player who carries no Possessions",
            );
            return Charge::Free;
        }
        let here = self.here();
        let caught = here.is_some_and(|h| {
            [
                Landmark::Arsenal,
                Landmark::WembleyPark,
                Landmark::Wimbledon,
            ]
            .into_iter()
            .any(|l| self.map.is(h, l))
        });
        let mut cost = Self::table_cost(a).unwrap_or_default();
        if caught {
            cost.push((1, Colour::Bronze));
        }
        let cost = self.with_bocks(a, cost);
        self.pay(&a.render(), rule, &cost);
        let through = self.mv.through.clone();
        let mut lost = Vec::new();
        for (i, p) in self.s.players.iter_mut().enumerate() {
            if i == me || !p.station().is_some_and(|s| through.contains(&s)) {
                continue;
            }
            let before = p.possessions.len();
            p.possessions
                .retain(|x| x.worn || x.nantucket || x.is(crate::gsd::Quality::Cursed));
            if p.possessions.len() != before {
                lost.push((p.name.clone(), before - p.possessions.len()));
            }
        }
        for (name, n) in lost {
            self.change(format!(
                "{name} is Streaked past and loses {n} Possession(s) (Rule 1.7.60)"
            ));
        }
        if let (true, Some(h)) = (caught, here) {
            let tower = self.map.landmark(Landmark::TowerHill);
            let p = &mut self.s.players[me];
            p.possessions
                .push(crate::gsd::Possession::of(crate::gsd::Good::Overcoat));
            p.at = Some(Position {
                station: tower,
                line: None,
            });
            self.change(format!(
                "caught Streaking at {}: an Overcoat, and transported to Tower Hill (Rule 1.7.60)",
                self.name(h)
            ));
        }
        Charge::Paid
    }
}
