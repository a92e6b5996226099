//! Pigeons and Rats caught and released (Rules 1.4.25, 1.4.35), and the
//! Token Generator they power (Rule 1.7.54); their limits, escapes and
//! appetites at the end of a Turn, and the Generator's weight, are
//! `restraints.rs`.

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

    /// `[Releasing Rat]`: one Rat carried is removed from the Luggage (Rule
    /// 1.4.35); with `{Rat to <Player>}` (the k-th with the k-th release)
    /// it goes into the Luggage of that Player, who shares the Station and
    /// carries an Edible or Papery Possession (RULINGS E70).
    pub(super) fn release_rat(&mut self) -> Charge {
        let me = self.me;
        let k = self.tally.rats_released;
        self.tally.rats_released += 1;
        let to = self
            .play
            .directives()
            .filter_map(|d| match d {
                Directive::RatTo(p) => Some(p.clone()),
                _ => None,
            })
            .nth(k);
        let p = &self.s.players[me].possessions;
        let Some(i) = p.iter().position(|x| !x.nantucket && x.good() == Good::Rat) else {
            self.illegal("1.4.35", "the player carries no Rat to release");
            return Charge::Table;
        };
        let Some(to) = to else {
            self.s.players[me].possessions.remove(i);
            self.change("a Rat is set free (Rule 1.4.35)");
            return Charge::Table;
        };
        let Some(v) = self.rat_host(&to) else {
            return Charge::Table;
        };
        let rat = self.s.players[me].possessions.remove(i);
        self.s.players[v].possessions.push(rat);
        let name = self.s.players[v].name.clone();
        self.change(format!(
            "a Rat is released into {name}'s Luggage (Rule 1.4.35)"
        ));
        Charge::Table
    }

    /// The Player whose Luggage a released Rat may go into: another Player
    /// sharing the Station, carrying an Edible or Papery Possession.
    fn rat_host(&mut self, to: &str) -> Option<usize> {
        let me = self.me;
        let Some(v) = self.s.player_index(to).filter(|&v| v != me) else {
            self.illegal("1.4.35", format!("{to} is not another player of this game"));
            return None;
        };
        let here = self.here();
        let p = &self.s.players[v];
        if here.is_none() || p.station() != here {
            self.illegal(
                "1.4.35",
                format!("{to} does not share the Actioning Player's Station: the Rat cannot go into eir Luggage"),
            );
            return None;
        }
        let food = p.possessions.iter().any(|x| {
            !x.nantucket && (x.is(crate::gsd::Quality::Edible) || x.is(crate::gsd::Quality::Papery))
        });
        if !food {
            self.illegal(
                "1.4.35",
                format!("{to} carries no Edible or Papery Possession: the Rat cannot go into eir Luggage"),
            );
            return None;
        }
        Some(v)
    }

    /// `[Constructing Generator]`: the player gains a Token Generator
    /// (Rule 1.7.54); the table's Cost is paid.
    pub(super) fn construct_generator(&mut self) -> Charge {
        let me = self.me;
        self.s.players[me]
            .possessions
            .push(Possession::of(Good::TokenGenerator));
        self.change("a Token Generator is constructed (Rule 1.7.54)");
        Charge::Table
    }

    /// `[Generating Token]`: with a Token Generator and a Pigeon or Rat
    /// carried (none inside a Nantucket Overcoat, Rule 1.4.15) and a Charge
    /// above zero, the table's Cost buys one Token of the colour the play
    /// names, `{generates Gold}` (Rule 1.7.54, RULINGS E66).
    pub(super) fn generate_token(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        let mut wrong = Vec::new();
        if !self.i_have(Good::TokenGenerator) {
            wrong.push("the player carries no Token Generator".to_string());
        }
        if !(self.i_have(Good::Pigeon) || self.i_have(Good::Rat)) {
            wrong.push(
                "a Token Generator is powered by a Pigeon or Rat: the player carries neither"
                    .to_string(),
            );
        }
        let charge = self.s.players[self.me].charge;
        if charge <= 0 {
            wrong.push(format!(
                "a Token Generator needs a Charge greater than zero (the Charge is {charge})"
            ));
        }
        let colour = self.directive(|d| match d {
            Directive::Generates(c) => Some(*c),
            _ => None,
        });
        if colour.is_none() {
            // "a Token of any colour which Tokens can possibly be": seven
            // choices, never one (RULINGS E134).
            let options: Vec<String> = Colour::ALL
                .iter()
                .map(|c| format!("{{generates {}}}", c.name()))
                .collect();
            wrong.push(format!(
                "[Generating Token] needs a choice: {}",
                super::choice::either(&options)
            ));
        }
        if !wrong.is_empty() {
            for w in wrong {
                self.illegal(rule, w);
            }
            return Charge::Free;
        }
        let colour = colour.expect("checked above");
        let paid = self.pay_table(a);
        self.gain(&[(1, colour)]);
        self.change(format!(
            "the Token Generator makes a {} Token (Rule 1.7.54)",
            colour.name()
        ));
        paid
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
