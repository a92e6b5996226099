//! What carried Possessions forbid or do by themselves: Clamps (Rules
//! 1.4.39 - 1.4.47), the Velocity Bomb (1.4.38), the Podume (1.4.24),
//! Pigeons and Rats (1.4.25, 1.4.35) and the Parcel (1.11.2). An effect
//! mornbot does not model needs a human ruling, never passes as Legal.

use super::*;
use crate::gsd::{Good, Quality};

impl Turn<'_> {
    pub(super) fn i_carry(&self, good: Good) -> bool {
        self.s.players[self.me].carries(good)
    }

    /// Before the Move: a Prison Clamp allows only Pass (Rule 1.4.47). The
    /// Narg Clamp (Rule 1.4.40) is judged by the route search (only
    /// Standard Moves pass along sections of line), the Toff Clamp (Rule
    /// 1.4.44) once the Move has ended.
    pub(super) fn restraints_on_move(&mut self, mv: &Move) {
        let stays = |m: &Move| matches!(m, Move::Pass(_) | Move::Timeout | Move::Farkle(_));
        // A Bifurcated Player's two Passes move no Piece (Rule 1.7.42).
        let moves = match mv {
            Move::Bifurcated(a, b) => !stays(a) || !stays(b),
            m => !stays(m),
        };
        // A Clamp of unknown age may have expired: prison_expiry asked for a ruling.
        if moves && self.imprisoned() == Some(true) {
            self.illegal(
                "1.4.47",
                "a Player carrying a Prison Clamp may not play a Move other than Pass",
            );
        }
    }

    /// Before an Action: a Prison Clamp's carrier "may not be targetted by
    /// Actions" (Rule 1.4.47); a Knid Clamp forbids [Opening MC] (Rule
    /// 1.4.43), a Freem Clamp Shunts and Straddles (Rule 1.4.42), a
    /// Magno-Clamp Dropping or Hoarding Metallic Tokens (Rule 1.4.45), a
    /// Pigeon Eating (Rule 1.4.25).
    pub(super) fn restraints_on_action(&mut self, a: &Action) {
        if let Some(t) = a.target_player() {
            let prisoner = self
                .s
                .players
                .iter()
                .any(|p| p.name.eq_ignore_ascii_case(t) && p.carries(Good::PrisonClamp));
            if prisoner {
                self.illegal(
                    "1.4.47",
                    format!("{t} carries a Prison Clamp and may not be targetted by Actions"),
                );
            }
        }
        let forbidden = match a {
            Action::OpeningMc if self.i_carry(Good::KnidClamp) => {
                Some(("1.4.43", "a Knid Clamp's carrier may not play [Opening MC]"))
            }
            Action::Shunting { .. }
            | Action::DeadEndShunting { .. }
            | Action::PowerShunting { .. }
            | Action::StationaryShunting { .. }
            | Action::DoubleShunting { .. }
            | Action::Straddling { .. }
                if self.i_carry(Good::FreemClamp) =>
            {
                Some((
                    "1.4.42",
                    "a Freem Clamp's carrier may not Shunt or Straddle",
                ))
            }
            Action::Hoarding { tokens }
                if self.i_carry(Good::MagnoClamp)
                    && tokens.0.iter().any(|(n, c)| *n > 0 && !c.is_plastic()) =>
            {
                Some((
                    "1.4.45",
                    "a Magno-Clamp's carrier may not Drop or Hoard Metallic Tokens",
                ))
            }
            Action::TokenOn { colour, .. }
                if self.i_carry(Good::MagnoClamp) && !colour.is_plastic() =>
            {
                Some((
                    "1.4.45",
                    "a Magno-Clamp's carrier may not Drop or Hoard Metallic Tokens",
                ))
            }
            Action::Eating { .. }
            | Action::EatingOverpricedBaguette
            | Action::EatingMarmaladeSandwich
            | Action::EatingBritishRailCoffee
                if self.i_carry(Good::Pigeon) =>
            {
                Some((
                    "1.4.25",
                    "a Player carrying a Pigeon may not perform an Eating Action",
                ))
            }
            Action::CompassWormhole { .. }
            | Action::Straddling { .. }
            | Action::ChargeTunneling { .. }
            | Action::DollisEscape
            | Action::Bifurcating { .. }
                if self.i_carry(Good::Parcel) =>
            {
                Some((
                    "1.11.2",
                    "while carrying a Parcel a Player may not perform Actions which would alter eir Piece position",
                ))
            }
            _ => None,
        };
        if let Some((rule, msg)) = forbidden {
            self.illegal(rule, msg);
        }
    }

    /// Tokens a Clamp forbids spending: Blue, Red, Silver and Gold under a
    /// Spoon Clamp (Rule 1.4.39), Metallic ones under a Magno-Clamp (Rule
    /// 1.4.45).
    pub(super) fn restraints_on_spending(&mut self, what: &str, cost: &[(u32, Colour)]) {
        let spends = |cs: &[Colour]| cost.iter().any(|(n, c)| *n > 0 && cs.contains(c));
        use Colour::{Blue, Bronze, Gold, Red, Silver};
        if self.i_carry(Good::SpoonClamp) && spends(&[Blue, Red, Silver, Gold]) {
            self.illegal(
                "1.4.39",
                format!("{what} spends Blue, Red, Silver or Gold Tokens, which a Spoon Clamp's carrier may not"),
            );
        }
        if self.i_carry(Good::MagnoClamp) && spends(&[Gold, Silver, Bronze]) {
            self.illegal(
                "1.4.45",
                format!("{what} spends Metallic Tokens, which a Magno-Clamp's carrier may not"),
            );
        }
    }

    /// After the Move: no Special Move under a Knid Clamp (Rule 1.4.43) or
    /// with a Parcel (Rule 1.11.2); no Interchange of more than two Lines
    /// passed under a Freem Clamp (Rule 1.4.42); no Move to a Station where
    /// a Player carries the Podume (Rule 1.4.24); a Standard Move ends
    /// closer to each Toff Clamp's Station (Rule 1.4.44).
    pub(super) fn restraints_after_move(&mut self, mv: &Move) {
        self.toff_restraint(mv);
        self.radio_orders_obeyed();
        // Walking "is specifically exempt from any and all Rules which place
        // restrictions on Special Moves" (Rule 1.7.10).
        if self.mv.special.is_some_and(|s| s != Special::Walking) {
            if self.i_carry(Good::KnidClamp) {
                self.illegal(
                    "1.4.43",
                    "a Knid Clamp's carrier may not make Special Moves",
                );
            }
            if self.i_carry(Good::Parcel) {
                self.illegal(
                    "1.11.2",
                    "while carrying a Parcel a Player may not make Special Moves",
                );
            }
        }
        if self.i_carry(Good::FreemClamp) {
            let busy = self
                .mv
                .through
                .iter()
                .find(|s| self.map.station(**s).lines.len() > 2)
                .copied();
            if let Some(s) = busy {
                let msg = format!(
                    "a Freem Clamp's carrier may not move through {}, an Interchange of more than two Lines",
                    self.name(s)
                );
                self.illegal("1.4.42", msg);
            }
        }
        if self.i_carry(Good::MagnoClamp) {
            self.magnets_apart();
        }
        let moved = matches!(mv, Move::To { .. });
        if moved {
            self.package_arrival();
        }
        if let (true, Some(here)) = (moved, self.here()) {
            if self.poid_protects(here) {
                let msg = format!(
                    "{} holds a Player carrying the Podume of Infinite Darkness (or acting as if e were, while it rests on the Map): no Move may go there",
                    self.name(here)
                );
                self.illegal("1.4.24", msg);
            }
        }
    }

    /// Whenever an LV changes, any player's (eir own Action, a Huff, a
    /// Shadow, a Clamp given): above four a carried Dormant Velocity Bomb is
    /// Primed (Rule 1.4.38); a Spoon Clamp's carrier "if eir LV is ever
    /// above four, it becomes four" (Rule 1.4.39); a Token Generator's
    /// above five, five (Rule 1.7.54).
    pub(super) fn watch_lv(&mut self) {
        let mut notes = Vec::new();
        for p in self.s.players.iter_mut() {
            if p.lv > 4 {
                let mut primed = false;
                for item in p.possessions.iter_mut() {
                    if !item.nantucket && item.good() == Good::VelocityBombDormant {
                        item.item = crate::gsd::Possession::of(Good::VelocityBombPrimed).item;
                        primed = true;
                    }
                }
                if primed {
                    notes.push(format!(
                        "{}'s LV is above four: the Velocity Bomb is Primed (Rule 1.4.38)",
                        p.name
                    ));
                }
            }
            if p.lv > 4 && p.carries(Good::SpoonClamp) {
                p.lv = 4;
                notes.push(format!(
                    "{}'s Spoon Clamp holds the LV at four (Rule 1.4.39)",
                    p.name
                ));
            }
            // "if a Player carrying one ever has an LV greater than five".
            if p.lv > 5 && p.carries(Good::TokenGenerator) {
                p.lv = 5;
                notes.push(format!(
                    "{}'s Token Generator is rather heavy: the LV is reduced to five (Rule 1.7.54)",
                    p.name
                ));
            }
        }
        for note in notes {
            self.change(note);
        }
    }

    /// As the Turn ends: a Green Clamp's carrier must have Recycled (Rule
    /// 1.4.41); Rats eat Edible and Papery Possessions (Rule 1.4.35); at
    /// most four Pigeons and four Rats, one escaping from more than two
    /// when none was caught (Rules 1.4.25, 1.4.35); a Primed Bomb below LV
    /// five explodes (Rule 1.4.38, `bomb.rs`).
    pub(super) fn restraints_at_end(&mut self) {
        // "Performed": a [Recycling] that failed does not count; a Timeout
        // is no Turn the player played and takes no Actions (RULINGS E76).
        let timeout = matches!(self.play.mv, Move::Timeout);
        if self.i_carry(Good::GreenClamp) && !self.tally.recycled_ok && !timeout {
            self.illegal(
                "1.4.41",
                "a Green Clamp's carrier must perform [Recycling] in each of eir Turns",
            );
        }
        self.shuffles_without_reshuffling();
        self.stray_magnet_choices();
        self.stray_magnifies();
        self.velocity_bomb();
        self.rats_eat();
        let caught_pigeon = self
            .play
            .actions()
            .any(|a| matches!(a, Action::CatchingPigeon));
        let caught_rat = self
            .play
            .actions()
            .any(|a| matches!(a, Action::CatchingRat));
        self.vermin(Good::Pigeon, caught_pigeon, "1.4.25");
        self.vermin(Good::Rat, caught_rat, "1.4.35");
    }

    /// "If, at the end of any Turn, a Player carries one or more Rats and
    /// any number of Edible or Papery Possessions, all of eir Edible and
    /// Papery Possessions are destroyed" (Rule 1.4.35): any player, so a
    /// Rat placed in another's Luggage eats at once. A Rat, or food, inside
    /// a Nantucket Overcoat is not carried (Rule 1.4.15, RULINGS E70).
    fn rats_eat(&mut self) {
        let mut lines = Vec::new();
        for p in self.s.players.iter_mut() {
            let rats = p
                .possessions
                .iter()
                .any(|x| !x.nantucket && x.good() == Good::Rat);
            if !rats {
                continue;
            }
            let before = p.possessions.len();
            p.possessions
                .retain(|x| x.nantucket || !(x.is(Quality::Edible) || x.is(Quality::Papery)));
            let eaten = before - p.possessions.len();
            if eaten > 0 {
                lines.push(format!(
                    "the Rats destroy {eaten} of {}'s Edible or Papery Possession(s) (Rule 1.4.35)",
                    p.name
                ));
            }
        }
        self.out.changes.extend(lines);
    }

    /// At most four of a kind at the end of the Turn, and one fewer from
    /// more than two if none was caught.
    fn vermin(&mut self, good: Good, caught: bool, rule: &str) {
        let me = self.me;
        let held = self.s.players[me]
            .possessions
            .iter()
            .filter(|p| p.good() == good)
            .count();
        let mut keep = held.min(4);
        if !caught && keep > 2 {
            keep -= 1;
        }
        if keep == held {
            return;
        }
        let mut drop = held - keep;
        let p = &mut self.s.players[me].possessions;
        while drop > 0 {
            match p.iter().rposition(|x| x.good() == good) {
                Some(i) => {
                    p.remove(i);
                    drop -= 1;
                }
                None => break,
            }
        }
        let name = good.spec().name;
        self.change(format!(
            "{} {name}(s) escape: {keep} remain (Rule {rule})",
            held - keep
        ));
    }

    /// A Magno-Clamp carrier's Move may not pass through or leave a Station
    /// occupied by another Magno-Clamp carrier (Rule 1.4.45).
    fn magnets_apart(&mut self) {
        let me = self.me;
        let stations: Vec<StationId> = self
            .mv
            .started_at
            .into_iter()
            .chain(self.mv.through.iter().copied())
            .collect();
        let other = stations.into_iter().find(|s| {
            self.s
                .players
                .iter()
                .enumerate()
                .any(|(i, p)| i != me && p.station() == Some(*s) && p.carries(Good::MagnoClamp))
        });
        if let (Some(s), Some(_)) = (
            other,
            self.here().filter(|h| Some(*h) != self.mv.started_at),
        ) {
            let msg = format!(
                "a Magno-Clamp carrier's Move may not pass through or leave {}, where another carrier stands",
                self.name(s)
            );
            self.illegal("1.4.45", msg);
        }
    }
}
