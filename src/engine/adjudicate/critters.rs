//! Pigeons and Rats caught and released (Rules 1.4.25, 1.4.35); their
//! limits, escapes and appetites at the end of a Turn are `restraints.rs`.

use super::*;
use crate::gsd::{Good, Possession};

impl Turn<'_> {
    /// `[Catching Pigeon]` at Charing Cross: one Pigeon, two with an
    /// Overpriced Baguette (Rule 1.4.25).
    pub(super) fn catch_pigeon(&mut self) -> Charge {
        let here = self.here();
        if !here.is_some_and(|h| self.map.is(h, Landmark::CharingCross)) {
            self.illegal("1.4.25", "Pigeons are caught at Charing Cross");
            return Charge::Free;
        }
        let n = if self.i_have(Good::OverpricedBaguette) {
            2
        } else {
            1
        };
        self.add_critters(Good::Pigeon, n, "1.4.25");
        Charge::Table
    }

    /// `[Catching Rat]` at a Closed Station or a Ghost Station (no line of
    /// the 1999 map is Under Construction, RULINGS.md M18): one Rat, three
    /// with a Lukewarm Burger (Rule 1.4.35).
    pub(super) fn catch_rat(&mut self) -> Charge {
        let me = self.me;
        let at_ghost = self.s.players[me].ghost.is_some();
        let closed = self.s.players[me]
            .at
            .is_some_and(|p| !self.open(p.station, p.line));
        if !(at_ghost || closed) {
            self.illegal(
                "1.4.35",
                "Rats are caught at a Closed Station, a Ghost Station or one solely on a Line Under Construction",
            );
            return Charge::Free;
        }
        let n = if self.i_have(Good::LukewarmBurger) {
            3
        } else {
            1
        };
        self.add_critters(Good::Rat, n, "1.4.35");
        Charge::Table
    }

    /// `[Releasing Pigeons]` at a Park Station in Zones 3 to 7: every
    /// Pigeon carried goes, one Gold Token for each (Rule 1.4.25).
    pub(super) fn release_pigeons(&mut self) -> Charge {
        let me = self.me;
        let park = self.here().is_some_and(|h| {
            let st = self.map.station(h);
            st.categories.contains(Category::Park) && st.zones.iter().any(|z| (3..=7).contains(z))
        });
        if !park {
            self.illegal(
                "1.4.25",
                "Pigeons are released at a Park Station in Zone 3, 4, 5, 6 or 7",
            );
            return Charge::Free;
        }
        let p = &mut self.s.players[me].possessions;
        let before = p.len();
        p.retain(|x| x.nantucket || x.good() != Good::Pigeon);
        let n = (before - p.len()) as u32;
        if n == 0 {
            self.illegal("1.4.25", "the player carries no Pigeon to release");
            return Charge::Free;
        }
        self.gain(&[(n, Colour::Gold)]);
        self.change(format!("{n} Pigeon(s) released for {n} Gold (Rule 1.4.25)"));
        Charge::Paid
    }

    /// `[Releasing Rat]`: one Rat carried goes free (Rule 1.4.35). Placing
    /// it in another player's Luggage instead needs a human ruling.
    pub(super) fn release_rat(&mut self) -> Charge {
        let me = self.me;
        let p = &mut self.s.players[me].possessions;
        match p.iter().position(|x| !x.nantucket && x.good() == Good::Rat) {
            Some(i) => {
                p.remove(i);
                self.change("a Rat is set free (Rule 1.4.35)");
            }
            None => self.illegal("1.4.35", "the player carries no Rat to release"),
        }
        Charge::Table
    }

    fn i_have(&self, good: Good) -> bool {
        self.s.players[self.me]
            .possessions
            .iter()
            .any(|p| !p.nantucket && p.good() == good)
    }

    fn add_critters(&mut self, good: Good, n: usize, rule: &str) {
        let me = self.me;
        for _ in 0..n {
            self.s.players[me].possessions.push(Possession::of(good));
        }
        self.change(format!("{n} {}(s) caught (Rule {rule})", good.spec().name));
    }

    /// A Shunted player loses every Pigeon the Shunter did not claim (Rule
    /// 1.4.25); called as the Turn ends, after the claims.
    pub(super) fn shunted_lose_pigeons(&mut self) {
        let mut shunted = self.shunts.players.clone();
        shunted.sort_unstable();
        shunted.dedup();
        for v in shunted {
            let p = &mut self.s.players[v].possessions;
            let before = p.len();
            p.retain(|x| x.nantucket || x.good() != Good::Pigeon);
            let lost = before - p.len();
            if lost > 0 {
                let name = self.s.players[v].name.clone();
                self.change(format!(
                    "{name} is Shunted and loses {lost} Pigeon(s) (Rule 1.4.25)"
                ));
            }
        }
    }
}
