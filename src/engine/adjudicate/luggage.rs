//! The Luggage Rack (Rule 1.4.12): finding what a Play names, Garments
//! (1.4.30), Discarding (1.4.22), Eating (1.4.16), Electrical Possessions
//! (1.4.33) and sizes (1.4.31).

use super::*;
use crate::gsd::{Good, Possession, Quality, Size};

impl Turn<'_> {
    /// The index of the carried Possession a Play names (any state).
    pub(super) fn find_possession(&self, named: &Item) -> Option<usize> {
        self.s.players[self.me]
            .possessions
            .iter()
            .position(|p| !p.nantucket && emporium::names(named, p))
    }

    /// The carried Possession an Action names, or Illegal under `rule`:
    /// one in a Nantucket is "not considered to be carried" and "may not be
    /// manipulated in any way" (Rule 1.4.15).
    pub(super) fn carried(&mut self, rule: &str, named: &Item) -> Option<usize> {
        let found = self.find_possession(named);
        if found.is_none() {
            let text = crate::gsd::render::item_name(named);
            let packed = self.s.players[self.me]
                .possessions
                .iter()
                .any(|p| p.nantucket && emporium::names(named, p));
            if packed {
                self.illegal(
                    "1.4.15",
                    format!("the {text} is in a Nantucket: not carried, and not to be manipulated"),
                );
            }
            self.illegal(rule, format!("{} carries no {text}", self.my_name()));
        }
        found
    }

    /// Removes the named Possession at `i`: from a group of Hats only the
    /// Hats named.
    pub(super) fn take_one(&mut self, i: usize, named: &Item) {
        let p = &mut self.s.players[self.me].possessions;
        if let (Item::Hats(want), Item::Hats(hs)) = (named, &mut p[i].item) {
            hs.retain(|h| !want.contains(h));
            if !hs.is_empty() {
                return;
            }
        }
        p.remove(i);
    }

    /// `[Wearing <Possession>]` and `[Removing <Possession>]` (Rule 1.4.30):
    /// a Garment, one of a type Worn; the Hyde Mask is never Removed, only
    /// Discarded (Rule 1.7.38).
    pub(super) fn wear(&mut self, a: &Action, named: &Item, wear: bool) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        let text = crate::gsd::render::item_name(named);
        if !wear && named.good() == Good::HydeMask {
            self.illegal("1.7.38", "the Hyde Mask may not be removed, only discarded");
            return Charge::Free;
        }
        let Some(i) = self.carried(rule, named) else {
            return Charge::Free;
        };
        let p = self.s.players[me].possessions[i].clone();
        if !p.is(Quality::Garment) {
            self.illegal(rule, format!("{text} is not a Garment"));
            return Charge::Free;
        }
        if wear == p.worn {
            let how = if wear { "already" } else { "not" };
            self.illegal(rule, format!("{text} is {how} Worn"));
            return Charge::Free;
        }
        if wear {
            let ty = emporium::garment_type(p.good());
            let same = self.s.players[me]
                .possessions
                .iter()
                .any(|q| q.worn && emporium::garment_type(q.good()) == ty);
            if same {
                self.illegal(
                    rule,
                    format!(
                        "a {} is Worn already: one Garment of a type",
                        ty.spec().name
                    ),
                );
                return Charge::Free;
            }
        }
        self.s.players[me].possessions[i].worn = wear;
        let how = if wear { "Worn" } else { "Removed" };
        self.change(format!("{text} is {how} (Rule 1.4.30)"));
        Charge::Table
    }

    /// `[Discarding <Possession>]` (Rule 1.4.22): not Worn or in a
    /// Nantucket (the Hyde Mask excepted, Rule 1.7.38), not Cursed.
    pub(super) fn discard(&mut self, a: &Action, named: &Item) -> Charge {
        let rule = a.spec().rule;
        let me = self.me;
        let text = crate::gsd::render::item_name(named);
        let Some(i) = self.carried(rule, named) else {
            return Charge::Free;
        };
        let p = &self.s.players[me].possessions[i];
        let mask = p.good() == Good::HydeMask;
        if (p.worn && !mask) || p.nantucket {
            self.illegal(
                rule,
                format!("{text} is Worn or in a Nantucket and cannot be Discarded"),
            );
            return Charge::Free;
        }
        if p.is(Quality::Cursed) {
            self.illegal(rule, format!("{text} is Cursed and cannot be Discarded"));
            return Charge::Free;
        }
        self.take_one(i, named);
        self.change(format!("{text} is Discarded (Rule 1.4.22)"));
        Charge::Table
    }

    /// `[Eating <Possession>]` (Rule 1.4.16): an Edible Possession carried,
    /// at the start of the Turn; its price is added to the LV; the
    /// Marmalade Sandwich also permits a Special Move to Paddington, and
    /// British Rail Coffee halves the rest of the Turn's Actions
    /// (RULINGS.md E47).
    pub(super) fn eat(&mut self, a: &Action, named: &Item) -> Charge {
        let me = self.me;
        let good = named.good();
        let text = good.spec().name;
        let first = self
            .play
            .before
            .iter()
            .find(|i| !matches!(i, crate::gsd::PlayItem::Comment(_)));
        let at_start = matches!(first, Some(crate::gsd::PlayItem::Action(x)) if std::ptr::eq(x, a));
        if !good.is(Quality::Edible) {
            self.illegal("1.4.16", format!("{text} is not Edible"));
            return Charge::Free;
        }
        let Some(i) = self.carried("1.4.16", named) else {
            return Charge::Free;
        };
        if !at_start {
            self.illegal("1.4.16", "Eating is done at the start of the Turn");
            return Charge::Free;
        }
        self.s.players[me].possessions.remove(i);
        // Every Victual gives its price as LV; the Sandwich's Special Move
        // is one of the "special effects" besides, taken only by a Move to
        // Paddington (RULINGS.md E28).
        let price = good.spec().price.unwrap_or(0);
        self.s.players[me].lv = self.s.players[me].lv.saturating_add(price);
        let to_paddington = matches!(&self.play.mv, Move::To { dest, .. }
            if dest.place.station().is_some_and(|s| self.map.is(s, Landmark::Paddington)));
        if good == Good::MarmaladeSandwich && to_paddington {
            self.mv.special = Some(Special::Paddington);
        }
        self.change(format!("{text} is eaten (Rule 1.4.16)"));
        if good == Good::BritishRailCoffee {
            // The rest of the Turn's Actions take half as long, not the
            // Eating itself (RULINGS.md E47).
            self.clock.coffee_next = true;
            self.change("British Rail Coffee: the rest of the Turn's Actions take half their durations (Rule 1.4.16)");
        }
        Charge::Table
    }

    /// `[<Possession> On]` / `[<Possession> Off]` (Rule 1.4.33): an
    /// Electrical Possession carried is switched; nothing is switched On on
    /// an Electrified line.
    pub(super) fn switch(&mut self, named: &Item, on: bool) -> Charge {
        let me = self.me;
        let good = named.good();
        let text = good.spec().name;
        if !good.is(Quality::Electrical) {
            self.illegal("1.4.33", format!("{text} is not Electrical"));
            return Charge::Free;
        }
        let Some(i) = self.s.players[me]
            .possessions
            .iter()
            .position(|p| p.good() == good)
        else {
            self.illegal("1.4.33", format!("{} carries no {text}", self.my_name()));
            return Charge::Free;
        };
        let word = if on { "On" } else { "Off" };
        let Item::Good { on: now_on, .. } = &self.s.players[me].possessions[i].item else {
            return Charge::Free;
        };
        if *now_on == on {
            self.illegal("1.4.33", format!("{text} is already {word}"));
            return Charge::Free;
        }
        if on && self.on_electrified(me) {
            self.illegal(
                "1.4.33",
                "the Piece is on an Electrified line: its Electrical Possessions are Off",
            );
            return Charge::Free;
        }
        if let Item::Good { on: state, .. } = &mut self.s.players[me].possessions[i].item {
            *state = on;
        }
        self.change(format!("{text} ({word}) (Rule 1.4.33)"));
        Charge::Table
    }

    /// Size limits (Rule 1.4.31): a player whose count of Big or Huge
    /// Possessions (at most two) or of Huge ones (at most one) rose this
    /// Turn beyond the limit, however e came by them.
    pub(super) fn check_sizes(&mut self) {
        for (i, p) in self.s.players.iter().enumerate() {
            let (big, huge) = sizes(p);
            let (big0, huge0) = self.initial.sizes.get(i).copied().unwrap_or((0, 0));
            if (big > 2 && big > big0) || (huge > 1 && huge > huge0) {
                self.out.violations.push(Violation::new(
                    "1.4.31",
                    format!(
                        "{} would carry {big} Big or Huge Possessions ({huge} Huge): a player carries at most two, at most one of them Huge",
                        p.name
                    ),
                ));
            }
        }
    }
}

/// Whether a possession is Huge, and whether it is Big or Huge (Rule
/// 1.4.31, RULINGS.md E45: "Large" counts as Big).
pub(super) fn size_of(p: &Possession) -> (bool, bool) {
    let size = p.good().spec().size;
    (size == Size::Huge, size >= Size::Big)
}

/// A player's (Big or Huge, Huge) Possession counts (Rule 1.4.31).
pub(super) fn sizes(p: &crate::engine::PlayerState) -> (u32, u32) {
    p.possessions.iter().fold((0, 0), |(b, h), x| {
        let (huge, big) = size_of(x);
        (b + big as u32, h + huge as u32)
    })
}
