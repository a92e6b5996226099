//! The Podume of Infinite Darkness (Rule 1.4.24): placed on and collected
//! from a Station, Forged, destroyed at a Holy Station, no Move through or
//! to its carrier, the two Tokens blackened at the end of each of its
//! carrier's Turns; resting on the Map, every Player acts as its carrier
//! and the top Token of every Stack is blackened at each Turn's start
//! (destroyed at Mornington Crescent, RULINGS.md E100). Its die at
//! Mornington Crescent and its Shunts are `poid_mc.rs`'s.

use super::*;
use crate::gsd::Good;

/// Tokens blackened at the end of each of a carrier's Turns (Rule 1.4.24).
const BLACKENED: u32 = 2;

impl Turn<'_> {
    /// Whether a Station is Holy now: a Holy Station not Defamed (Rules
    /// 1.11.7, 1.17.x).
    pub(super) fn holy(&self, at: StationId) -> bool {
        self.map.station(at).categories.contains(Category::Holy)
            && !self.s.has_mark(at, StationMark::Defamed)
    }

    /// Whether the player rests at `id` when an Action is performed, or
    /// (after the Move) eir Move passed through it (Rules 1.4.7, 1.4.24,
    /// RULINGS.md E96).
    pub(super) fn reached(&self, id: StationId, when: When) -> bool {
        self.at(when) == Some(id) || (when == When::After && self.mv.through.contains(&id))
    }

    /// Whether player `i` carries the PoID (not in a Nantucket, Rule
    /// 1.4.15) or acts as if e did: while it rests on the Map, "all
    /// Players act as if they were carrying it" (Rule 1.4.24).
    fn acts_as_carrier(&self, i: usize) -> bool {
        self.s.poid.is_some() || self.s.players[i].carries(Good::PodumeOfInfiniteDarkness)
    }

    /// Whether the PoID rests at Mornington Crescent: its effects destroy
    /// Tokens rather than blacken them (Rule 1.4.24).
    fn poid_at_mc(&self) -> bool {
        self.s
            .poid
            .is_some_and(|at| self.map.is(at, Landmark::MorningtonCrescent))
    }

    /// At the start of each Player's Turn while the PoID rests on the Map,
    /// the top Token of every Token Stack is replaced with a Black one, or
    /// destroyed while it rests at Mornington Crescent, after the explosion
    /// its die named at the end of the last Turn (Rule 1.4.24).
    pub(super) fn poid_turn_start(&mut self) {
        self.poid_die_blast();
        let Some(at) = self.s.poid else {
            return;
        };
        let mc = self.poid_at_mc();
        for (_, stack) in self.s.stacks.iter_mut() {
            if mc {
                stack.pop();
            } else if let Some(top) = stack.last_mut() {
                *top = Colour::Black;
            }
        }
        self.s.stacks.retain(|(_, t)| !t.is_empty());
        self.change(format!(
            "the PoID rests at {}: the top Token of every Token Stack is {} (Rule 1.4.24)",
            self.name(at),
            if mc {
                "destroyed"
            } else {
                "replaced with a Black Token"
            }
        ));
    }

    /// Whether the PoID is in play: resting on the Map or in anyone's
    /// Possession (a Nantucket's too).
    fn poid_in_play(&self) -> bool {
        self.s.poid.is_some()
            || self.s.players.iter().any(|p| {
                p.possessions
                    .iter()
                    .any(|x| x.good() == Good::PodumeOfInfiniteDarkness)
            })
    }

    /// Takes the PoID from the player's Possessions.
    fn lose_poid(&mut self) {
        let me = self.me;
        if let Some(i) = self.s.players[me]
            .possessions
            .iter()
            .position(|x| !x.nantucket && x.good() == Good::PodumeOfInfiniteDarkness)
        {
            self.s.players[me].possessions.remove(i);
        }
    }

    /// `[PoID on <Station>]` (Rule 1.4.24): its carrier places it at a
    /// Station e rests at or passed through this Turn; at a Holy Station it
    /// is instantly destroyed.
    pub(super) fn poid_on(&mut self, a: &Action, target: &Target, when: When) -> Charge {
        let rule = a.spec().rule;
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if !self.i_carry(Good::PodumeOfInfiniteDarkness) {
            self.illegal(rule, format!("{} does not carry the PoID", self.my_name()));
            return Charge::Free;
        }
        if !self.reached(id, when) {
            self.illegal(
                rule,
                format!(
                    "{} neither rests at {} nor has passed through it this Turn",
                    self.my_name(),
                    target.station
                ),
            );
            return Charge::Free;
        }
        self.lose_poid();
        if self.holy(id) {
            self.change(format!(
                "the PoID rests at {}, a Holy Station: it is instantly destroyed (Rule 1.4.24)",
                self.name(id)
            ));
        } else {
            self.s.poid = Some(id);
            self.s.poid_placer = Some(self.my_name());
            self.change(format!(
                "{} places the PoID on {} (Rule 1.4.24)",
                self.my_name(),
                self.name(id)
            ));
        }
        Charge::Table
    }

    /// `[Collecting PoID]` (Rule 1.4.24): from the Station it rests at, by
    /// a player who rests there or passed through it this Turn.
    pub(super) fn collect_poid(&mut self, a: &Action, when: When) -> Charge {
        let rule = a.spec().rule;
        let Some(at) = self.s.poid else {
            self.illegal(rule, "the PoID rests at no Station");
            return Charge::Free;
        };
        if !self.reached(at, when) {
            self.illegal(
                rule,
                format!(
                    "the PoID rests at {}, where {} neither rests nor has passed through this Turn",
                    self.name(at),
                    self.my_name()
                ),
            );
            return Charge::Free;
        }
        self.s.poid = None;
        self.s.poid_placer = None;
        let me = self.me;
        self.s.players[me]
            .possessions
            .push(crate::gsd::Possession::of(Good::PodumeOfInfiniteDarkness));
        self.change(format!(
            "{} collects the PoID from {} (Rule 1.4.24)",
            self.my_name(),
            self.name(at)
        ));
        Charge::Table
    }

    /// `[Forging PoID]` (Rule 1.4.24): no PoID in play, the player not at
    /// a Holy Station, Game Time outside Peak Hours; the table's Cost,
    /// halved at midnight (Game Time 0000 when the Action is performed,
    /// RULINGS.md E99).
    pub(super) fn forge_poid(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        if self.poid_in_play() {
            self.illegal(
                rule,
                "the PoID is in play already: it is Forged only when there is none",
            );
            return Charge::Free;
        }
        let Some(here) = self.here() else {
            self.illegal(rule, "a Piece off the Map Forges no PoID");
            return Charge::Free;
        };
        if self.holy(here) {
            self.illegal(
                rule,
                format!(
                    "{} is a Holy Station: the PoID is not Forged there",
                    self.name(here)
                ),
            );
            return Charge::Free;
        }
        let now = self.now();
        if crate::engine::time::is_peak(now, self.opening_day() == Weekday::Sun) {
            self.illegal(
                rule,
                format!("{now} is in Peak Hours: the PoID is Forged outside them"),
            );
            return Charge::Free;
        }
        let charge = if now.minutes == 0 {
            let cost: Vec<(u32, Colour)> = Self::table_cost(a)
                .unwrap_or_default()
                .into_iter()
                .map(|(n, c)| (n / 2, c))
                .collect();
            let cost = self.bock_surcharge(cost);
            self.pay(
                &format!("{} at midnight (half its Cost)", a.render()),
                rule,
                &cost,
            );
            Charge::Paid
        } else {
            Charge::Table
        };
        let me = self.me;
        self.s.players[me]
            .possessions
            .push(crate::gsd::Possession::of(Good::PodumeOfInfiniteDarkness));
        self.change(format!("{} Forges the PoID (Rule 1.4.24)", self.my_name()));
        charge
    }

    /// Whether another Player who carries the PoID, or acts as if e did,
    /// is at a Station: no Move may pass through or go to it (Rule 1.4.24).
    pub(super) fn poid_protects(&self, at: StationId) -> bool {
        self.s
            .players
            .iter()
            .enumerate()
            .any(|(i, p)| i != self.me && p.station() == Some(at) && self.acts_as_carrier(i))
    }

    /// As the Turn ends (Rule 1.4.24): a carrier (or, while the PoID
    /// rests, any Player) who passed through or rests at a Holy Station
    /// destroys it; one who still carries it, or acts as if e did, replaces
    /// two of eir Tokens with Black ones, non-Black ones first, in the Token
    /// Table's order (RULINGS.md E99), or loses them while it rests at
    /// Mornington Crescent (E100).
    pub(super) fn poid_end_of_turn(&mut self) {
        if !self.acts_as_carrier(self.me) {
            return;
        }
        let holy = self
            .here()
            .into_iter()
            .chain(self.mv.through.iter().copied())
            .chain(self.s.poid)
            .find(|s| self.holy(*s));
        if let Some(h) = holy {
            self.lose_poid();
            self.s.poid = None;
            self.s.poid_placer = None;
            self.change(format!(
                "the PoID is at or was carried through {}, a Holy Station: it is instantly destroyed (Rule 1.4.24)",
                self.name(h)
            ));
            return;
        }
        let destroy = self.poid_at_mc();
        let me = self.me;
        let mut left = BLACKENED;
        let mut turned = Vec::new();
        let order = Colour::ALL.into_iter().filter(|c| *c != Colour::Black);
        // At Mornington Crescent Black Tokens are destroyed too, last.
        let order: Vec<Colour> = if destroy {
            order.chain([Colour::Black]).collect()
        } else {
            order.collect()
        };
        for c in order {
            while left > 0 && self.s.players[me].tokens.get(c) > 0 {
                let t = &mut self.s.players[me].tokens;
                t.set(c, t.get(c) - 1);
                if !destroy {
                    t.set(Colour::Black, t.get(Colour::Black) + 1);
                }
                turned.push(c);
                left -= 1;
            }
        }
        if !turned.is_empty() {
            self.change(format!(
                "the PoID's price: {}'s {} {} (Rule 1.4.24)",
                self.my_name(),
                fmt_colours(&turned),
                if destroy {
                    "destroyed"
                } else {
                    "replaced with Black"
                }
            ));
        }
    }
}
