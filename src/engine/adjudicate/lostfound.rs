//! Lost & Found (Rule 1.7.53): `[Finding]`'s die looked up in the table,
//! the Lost Property Office's variant at Paddington, and the Lost & Found
//! Box, a queue whose first item a roll over 92 finds (RULINGS E90).

use super::*;
use crate::dice;
use crate::gsd::{Good, Possession};

/// The rule.
const RULE: &str = "1.7.53";

/// What a row of the table finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    /// Nothing.
    Nothing,
    /// "Sent to the Tower" (Rule 1.4.47): the Piece to Tower Hill and a
    /// Prison Clamp.
    Tower,
    /// A Suspect Package, dropped at the Finder's Station (E128).
    Package,
    /// A Velocity Bomb, Dormant or Primed (E128).
    VelocityBomb,
    /// A Possession of a plain kind; `starred`: the table's `*`, nothing is
    /// found if the player already has one.
    Good(Good, bool),
    /// A Zone Pass of zone 2 or 3 (starred).
    ZonePass(u8),
    /// A Hat (starred).
    Hat(Hat),
    /// A Newspaper, yesterday's (`false`) or today's (`true`).
    Paper(bool),
    /// Tokens.
    Tokens(u32, Colour),
    /// The first item in the Lost & Found Box.
    FirstInBox,
}

/// The table of Rule 1.7.53, restored (RULINGS E90): (from, to, found).
const TABLE: &[(u32, u32, Found)] = {
    use Found::*;
    &[
        (1, 44, Nothing),
        (45, 52, Tower),
        (53, 54, Package),
        (55, 55, VelocityBomb),
        (56, 56, Good(crate::gsd::Good::Zone1Pass, true)),
        (57, 57, ZonePass(2)),
        (58, 58, ZonePass(3)),
        (59, 60, Good(crate::gsd::Good::Spectacles, false)),
        (61, 62, Good(crate::gsd::Good::Scarf, false)),
        (63, 63, Good(crate::gsd::Good::GloveRight, false)),
        (64, 65, Good(crate::gsd::Good::GloveLeft, false)),
        (66, 66, Good(crate::gsd::Good::Gloves, false)),
        (67, 67, Good(crate::gsd::Good::MoneyBelt, true)),
        (68, 68, Good(crate::gsd::Good::Casiotone, false)),
        (69, 69, Good(crate::gsd::Good::Drum, false)),
        (70, 70, Good(crate::gsd::Good::Guitar, false)),
        (71, 71, Good(crate::gsd::Good::Harmonica, false)),
        (72, 72, Good(crate::gsd::Good::Saxophone, false)),
        (73, 73, Good(crate::gsd::Good::Violin, false)),
        (74, 74, Good(crate::gsd::Good::Piano, false)),
        (75, 75, Hat(crate::gsd::Hat::AToZ)),
        (76, 76, Hat(crate::gsd::Hat::BritishRail)),
        (77, 77, Hat(crate::gsd::Hat::Compass)),
        (78, 78, Hat(crate::gsd::Hat::Terminus)),
        (79, 79, Hat(crate::gsd::Hat::Verdant)),
        (80, 80, Hat(crate::gsd::Hat::Hard)),
        (81, 81, Hat(crate::gsd::Hat::Silly)),
        (82, 82, Good(crate::gsd::Good::Book, false)),
        (83, 84, Paper(false)),
        (85, 85, Paper(true)),
        (86, 86, Tokens(2, Colour::Black)),
        (87, 87, Tokens(2, Colour::Blue)),
        (88, 88, Tokens(2, Colour::Red)),
        (89, 89, Tokens(2, Colour::Green)),
        (90, 90, Tokens(1, Colour::Bronze)),
        (91, 91, Tokens(1, Colour::Silver)),
        (92, 92, Tokens(1, Colour::Gold)),
        (93, 100, FirstInBox),
    ]
};

/// The row the number `n` (1 to 100) finds.
fn look_up(n: u32) -> Found {
    TABLE
        .iter()
        .find(|(from, to, _)| (*from..=*to).contains(&n))
        .map_or(Found::Nothing, |(_, _, f)| *f)
}

impl Turn<'_> {
    /// `[Finding]` (Rule 1.7.53): its die, `{rolled finding N}` (a d100; a
    /// d20 at the Lost Property Office, Paddington, 0930 to 1400 Monday to
    /// Friday, plus the number `{specifies N}` names, 0 to 80, unless the
    /// die shows four or less) looked up in the table; the 2 Bronze paid.
    pub(super) fn finding(&mut self, a: &Action) -> Charge {
        let office = crate::engine::dice::finding_at_paddington(self.map, &self.s, self.play);
        let sides = if office { 20 } else { 100 };
        let Some(v) = self.named_roll(dice::FINDING) else {
            self.ruling(
                RULE,
                format!(
                    "[Finding] rolls a d{sides}, and \"finding\" is not in the Play: in a game with \
                     dice mornbot rolls it; in one without, the player writes {{rolled finding N}} \
                     (RULINGS E85)"
                ),
            );
            return Charge::Free;
        };
        if !(1..=sides).contains(&v) {
            self.illegal(
                RULE,
                format!("a {sides}-sided die rolls 1 to {sides}, not {v}"),
            );
            return Charge::Free;
        }
        let n = if office {
            let k = self.directive(|d| match d {
                Directive::Specifies(k) => Some(*k),
                _ => None,
            });
            match k {
                Some(k) if k <= 80 => {
                    if v <= 4 {
                        v
                    } else {
                        v + k
                    }
                }
                _ => {
                    self.illegal(
                        RULE,
                        "at the Lost Property Office the Finder specifies a number between zero and eighty in the comments: {specifies N}",
                    );
                    return Charge::Free;
                }
            }
        } else {
            v
        };
        let cost = self.with_bocks(a, Self::table_cost(a).unwrap_or_default());
        self.pay(&a.render(), RULE, &cost);
        self.find(n);
        Charge::Paid
    }

    /// What the number `n` finds, added to the Finder's Luggage Rack or
    /// Token Table.
    fn find(&mut self, n: u32) {
        let me = self.me;
        let found = look_up(n);
        let item = match found {
            Found::Nothing => None,
            Found::Tower => {
                self.sent_to_the_tower(n);
                return;
            }
            Found::Package => {
                self.found_package(n);
                return;
            }
            Found::VelocityBomb => {
                // Found with an LV over four, it is Primed at once (Rule 1.4.38).
                let good = if self.s.players[me].lv > 4 {
                    Good::VelocityBombPrimed
                } else {
                    Good::VelocityBombDormant
                };
                self.s.players[me]
                    .possessions
                    .push(crate::gsd::Possession::of(good));
                self.change(format!(
                    "[Finding] found {n}: a {} (Rules 1.7.53, 1.4.38; RULINGS E128)",
                    good.spec().name
                ));
                return;
            }
            Found::Tokens(k, c) => {
                self.gain(&[(k, c)]);
                self.change(format!(
                    "[Finding] found {n}: {k} {} (Rule 1.7.53)",
                    c.name()
                ));
                return;
            }
            Found::Good(g, starred) => Some((
                Item::Good {
                    good: g,
                    stars: 0,
                    on: false,
                    n: None,
                },
                starred,
            )),
            Found::ZonePass(z) => Some((Item::ZonePass(z), true)),
            Found::Hat(h) => Some((Item::Hats(vec![h]), true)),
            Found::Paper(today) => {
                let day = self.now().day;
                Some((Item::Paper(if today { day } else { day.pred() }), false))
            }
            Found::FirstInBox => {
                if self.s.lost_found.is_empty() {
                    None
                } else {
                    Some((self.s.lost_found.remove(0), false))
                }
            }
        };
        let Some((item, starred)) = item else {
            self.change(format!("[Finding] found {n}: nothing (Rule 1.7.53)"));
            return;
        };
        if starred && self.already_has(&item) {
            self.change(format!(
                "[Finding] found {n}, which the Finder already has: nothing (Rule 1.7.53)"
            ));
            return;
        }
        let text = crate::gsd::render::item_text(&item);
        self.add_found(me, item);
        self.change(format!("[Finding] found {n}: {text} (Rule 1.7.53)"));
    }

    /// "Sent to the Tower" (Rule 1.4.47): "eir Piece is moved to Tower Hill
    /// and e gains a Prison Clamp Possession", whose age starts at zero
    /// (RULINGS E65, E129). A Bifurcated Finder's Piece is the one the
    /// Action was judged with (E104); one sent onto the other destroys it.
    fn sent_to_the_tower(&mut self, n: u32) {
        let tower = self.map.landmark(Landmark::TowerHill);
        let name = self.my_name();
        let p = &mut self.s.players[self.me];
        p.ghost = None;
        p.at = Some(Position {
            station: tower,
            line: None,
        });
        p.possessions.push(Possession::of(Good::PrisonClamp));
        self.s.prisons.push(crate::engine::Prison {
            player: name.clone(),
            turns: 0,
        });
        self.change(format!(
            "[Finding] found {n}: {name} is Sent to the Tower: eir Piece is moved to Tower Hill and e gains a Prison Clamp (Rules 1.7.53, 1.4.47)"
        ));
    }

    /// A found Suspect Package, "dropped": at the Finder's Station, placed
    /// by the Finder; while three are in play none more is created, and
    /// nothing is found (Rules 1.7.53, 1.4.7; RULINGS E128).
    fn found_package(&mut self, n: u32) {
        let Some(here) = self.here() else {
            self.ruling(
                RULE,
                format!("[Finding] found {n}: a Suspect Package, dropped off the Map (at a Ghost Station)"),
            );
            return;
        };
        if self.s.packages.len() >= crate::engine::MAX_PACKAGES {
            self.change(format!(
                "[Finding] found {n}: a Suspect Package, but three are in play already: nothing (Rules 1.7.53, 1.4.7)"
            ));
            return;
        }
        self.s.packages.push(crate::engine::Package {
            at: here,
            by: Some(self.my_name()),
        });
        self.change(format!(
            "[Finding] found {n}: a Suspect Package, dropped at {} (Rules 1.7.53, 1.4.7)",
            self.name(here)
        ));
    }

    /// Whether the Finder already possesses `item` (a Hat: that Hat).
    fn already_has(&self, item: &Item) -> bool {
        self.s.players[self.me]
            .possessions
            .iter()
            .any(|p| match (&p.item, item) {
                (Item::Hats(have), Item::Hats(found)) => found.iter().all(|h| have.contains(h)),
                (have, found) => have == found,
            })
    }

    /// Adds a found item to player `i`'s Luggage Rack: a Hat joins eir Hats.
    fn add_found(&mut self, i: usize, item: Item) {
        let possessions = &mut self.s.players[i].possessions;
        if let Item::Hats(found) = &item {
            let group = possessions
                .iter_mut()
                .find(|p| !p.worn && !p.nantucket && matches!(p.item, Item::Hats(_)));
            if let Some(Possession {
                item: Item::Hats(hs),
                ..
            }) = group
            {
                hs.extend(found.iter().copied());
                hs.sort();
                hs.dedup();
                return;
            }
        }
        possessions.push(Possession {
            item,
            worn: false,
            nantucket: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_one_to_a_hundred_once() {
        let mut next = 1;
        for (from, to, _) in TABLE {
            assert_eq!(*from, next, "a gap or overlap before {from}");
            assert!(to >= from);
            next = to + 1;
        }
        assert_eq!(next, 101);
        assert_eq!(look_up(44), Found::Nothing);
        assert_eq!(look_up(92), Found::Tokens(1, Colour::Gold));
        assert_eq!(look_up(100), Found::FirstInBox);
    }
}
