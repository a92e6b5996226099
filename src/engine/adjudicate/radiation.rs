//! Radiation (Rule 1.4.46): numbered Remote Controls, `[Radiating
//! <Player>]` giving the Radio Clamp of the same number, the Controller's
//! `[Radio Clamp <N> LV+X]`, `[Radio Clamp <N> LV-X]` and `[Radio Clamp <N>
//! to <Station>]` while the Remote Control is On, the order judged at the
//! Controllee's next Move, `[De-Radiating]` and the explosion, and a Radio
//! Clamp destroyed with its Remote Control (RULINGS.md E71 - E74).
//!
//! The Controller of Remote Control `n` is whoever carries it, the
//! Controllee whoever carries Radio Clamp `n`: both are read from the
//! Luggage Racks, so only the orders need the plays.

use super::*;
use crate::engine::state::RadioOrder;
use crate::gsd::{Good, Possession};

const RULE: &str = "1.4.46";

/// Where the numbered Possession `n` of kind `good` is: its carrier and
/// its index in eir Luggage Rack (not in a Nantucket).
fn find(s: &GameState, good: Good, n: u32) -> Option<(usize, usize)> {
    s.players.iter().enumerate().find_map(|(p, pl)| {
        pl.possessions
            .iter()
            .position(|x| !x.nantucket && x.good() == good && x.item.number() == Some(n))
            .map(|i| (p, i))
    })
}

/// Whether a Possession of kind `good` numbered `n` is anywhere in play
/// (a Nantucket included).
fn in_play(s: &GameState, good: Good, n: u32) -> bool {
    s.players.iter().any(|p| {
        p.possessions
            .iter()
            .any(|x| x.good() == good && x.item.number() == Some(n))
    })
}

impl GameState {
    /// The orders of `[Radio Clamp <N> to <Station>]` in a GSD's plays that
    /// the possessor of the Clamp has not yet had a Turn to obey (Rule
    /// 1.4.46): a play by the possessor of Clamp `n` ends the orders given
    /// before it.
    pub(crate) fn recover_radio_orders(&mut self, plays: &[crate::gsd::Play]) {
        let mut orders: Vec<RadioOrder> = Vec::new();
        for play in plays {
            let me = self.player_index(&play.player);
            orders.retain(|o| find(self, Good::RadioClamp, o.n).map(|(p, _)| p) != me);
            for a in play.actions() {
                if let Action::RadioClampTo { n, station } = a {
                    let (Ok(n), Some(to)) = (u32::try_from(*n), station.place.station()) else {
                        continue;
                    };
                    orders.retain(|o| o.n != n);
                    orders.push(RadioOrder { n, to });
                }
            }
        }
        self.radio_orders = orders;
    }
}

impl Turn<'_> {
    /// `[Purchasing Remote Control <N>]`: "Each Radio Control has a unique
    /// number, assigned to it by the purchasing Player at the time of the
    /// Purchase" (RULINGS.md E71): the play writes it, and no Remote
    /// Control or Radio Clamp in play has it.
    pub(super) fn remote_numbered(&mut self, item: &Item) -> bool {
        if item.good() != Good::RemoteControl {
            return true;
        }
        let Some(n) = item.number() else {
            self.illegal(
                RULE,
                "each Remote Control has a number assigned by its purchaser at the time of the Purchase: write it, [Purchasing Remote Control 2] (RULINGS.md E71)",
            );
            return false;
        };
        if in_play(&self.s, Good::RemoteControl, n) || in_play(&self.s, Good::RadioClamp, n) {
            self.illegal(
                RULE,
                format!("each Remote Control has a unique number: {n} is already in play"),
            );
            return false;
        }
        true
    }

    /// `[Radiating <Player>]`: the Actioning Player possesses a Remote
    /// Control; the target shares eir Station and Line and gains the Radio
    /// Clamp of the lowest-numbered Remote Control e carries that has no
    /// Radio Clamp in play yet (RULINGS.md E72).
    pub(super) fn radiating(&mut self, a: &Action, player: &str) -> Charge {
        let me = self.me;
        let remotes: Vec<Option<u32>> = self.s.players[me]
            .possessions
            .iter()
            .filter(|x| !x.nantucket && x.good() == Good::RemoteControl)
            .map(|x| x.item.number())
            .collect();
        if remotes.is_empty() {
            self.illegal(
                RULE,
                format!(
                    "only a Player possessing a Remote Control may Radiate: {} carries none",
                    self.my_name()
                ),
            );
            return Charge::Free;
        }
        let Some(v) = self.sharing(a, player) else {
            return Charge::Table;
        };
        let free = remotes
            .iter()
            .flatten()
            .copied()
            .filter(|n| !in_play(&self.s, Good::RadioClamp, *n))
            .min();
        let Some(n) = free else {
            if remotes.contains(&None) {
                self.ruling(
                    RULE,
                    "the Remote Control carried has no number, so its Radio Clamp's number is not known",
                );
            } else {
                self.illegal(
                    RULE,
                    "each Remote Control has one corresponding Radio Clamp, and every Remote Control carried has its Radio Clamp in play (RULINGS.md E72)",
                );
            }
            return Charge::Free;
        };
        let mut clamp = Possession::of(Good::RadioClamp);
        clamp.item = Item::Good {
            good: Good::RadioClamp,
            stars: 0,
            on: false,
            n: Some(n),
        };
        self.s.players[v].possessions.push(clamp);
        self.change(format!(
            "{} is Radiated: e gains Radio Clamp {n}, controlled by {}'s Remote Control {n} (Rule 1.4.46)",
            self.s.players[v].name,
            self.my_name()
        ));
        Charge::Table
    }

    /// The Controllee of `[Radio Clamp <N> ...]`: the Actioning Player
    /// carries Remote Control `n`, which is On; the possessor of Radio Clamp
    /// `n` is another player who may be targeted.
    fn controllee(&mut self, a: &Action, n: i64) -> Option<usize> {
        let me = self.me;
        let found = u32::try_from(n)
            .ok()
            .and_then(|n| find(&self.s, Good::RemoteControl, n));
        let Some((c, i)) = found else {
            self.illegal(RULE, format!("no Remote Control {n} is in play"));
            return None;
        };
        // A Remote Control was found by it: a valid number.
        let n = n as u32;
        if c != me {
            self.illegal(
                RULE,
                format!(
                    "only the Controller of Remote Control {n} may play {}: {} carries it",
                    a.render(),
                    self.s.players[c].name
                ),
            );
            return None;
        }
        if !self.s.players[me].possessions[i].item.is_on() {
            // Off by Rule 1.4.33 on an Electrified line, whatever was written.
            let why = if self.on_electrified(me) {
                ": it is Off, the Controller's Piece being on an Electrified line (Rule 1.4.33)"
            } else {
                ""
            };
            self.illegal(
                RULE,
                format!(
                    "the Controller may play {} only if Remote Control {n} is On{why}",
                    a.render()
                ),
            );
            return None;
        }
        let Some((v, _)) = find(&self.s, Good::RadioClamp, n).filter(|(v, _)| *v != me) else {
            self.illegal(RULE, format!("no other player possesses Radio Clamp {n}"));
            return None;
        };
        let name = self.s.players[v].name.clone();
        if crate::engine::time::in_small_hours(self.now()) {
            self.illegal(
                "1.13.1",
                "Actions that target other Players cannot be played between 0000 and 0500",
            );
        }
        if self.s.players[v].carries(Good::PrisonClamp) {
            self.illegal(
                "1.4.47",
                format!("{name} carries a Prison Clamp and may not be targetted by Actions"),
            );
        }
        Some(v)
    }

    /// `[Radio Clamp <N> LV+X]` and `[Radio Clamp <N> LV-X]`: X, at most 3,
    /// is added to or deducted from the Controllee's LV (not below zero;
    /// a Spoon Clamp still holds it at four, a Dormant Velocity Bomb is
    /// Primed above four).
    pub(super) fn radio_lv(&mut self, a: &Action, n: i64, x: i64) -> Charge {
        if !(1..=3).contains(&x) {
            self.illegal(
                RULE,
                format!("{}: X may be no larger than 3 (and at least 1)", a.render()),
            );
            return Charge::Free;
        }
        let Some(v) = self.controllee(a, n) else {
            return Charge::Free;
        };
        let up = matches!(a, Action::RadioClampLvPlus { .. });
        let p = &mut self.s.players[v];
        let lv = i64::from(p.lv) + if up { x } else { -x };
        p.lv = lv.clamp(0, i64::from(crate::gsd::parse::MAX_LV)) as u32;
        if p.lv > 4 {
            for item in p.possessions.iter_mut() {
                if item.good() == Good::VelocityBombDormant {
                    item.item = Possession::of(Good::VelocityBombPrimed).item;
                }
            }
            if p.carries(Good::SpoonClamp) {
                p.lv = 4;
            }
        }
        Charge::Table
    }

    /// `[Radio Clamp <N> to <Station>]`: the Station must be within the
    /// Controllee's LV, by route distance R from eir Piece, and not where
    /// it stands (RULINGS.md E73); the order waits for eir next Turn.
    pub(super) fn radio_to(&mut self, a: &Action, n: i64, station: &Target) -> Charge {
        let Some(to) = self.station_of(station, a) else {
            return Charge::Free;
        };
        let Some(v) = self.controllee(a, n) else {
            return Charge::Free;
        };
        let name = self.s.players[v].name.clone();
        let Some(from) = self.s.players[v].station() else {
            self.illegal(RULE, format!("{name}'s Piece is not on the Map"));
            return Charge::Free;
        };
        let lv = self.s.players[v].lv;
        match self.map.route_distance(from, to) {
            Some(d) if (1..=lv).contains(&d) => {}
            d => {
                let how = d.map_or("no route".to_string(), |d| format!("{d} stations"));
                self.illegal(
                    RULE,
                    format!(
                        "the Station must be within the LV of the Controllee: {} is {how} from {name}'s Piece at {}, eir LV is {lv} (RULINGS.md E73)",
                        self.name(to),
                        self.name(from)
                    ),
                );
                return Charge::Free;
            }
        }
        let n = n as u32;
        self.s.radio_orders.retain(|o| o.n != n);
        self.s.radio_orders.push(RadioOrder { n, to });
        self.change(format!(
            "{name} is ordered to Move to {} on eir next Turn (Rule 1.4.46)",
            self.name(to)
        ));
        Charge::Table
    }

    /// After the Move of a Turn: each order for a Radio Clamp the player
    /// carries is carried out or not; if not, and its Remote Control is On,
    /// e loses a Metal Token, the least valuable e has (RULINGS.md E74).
    /// A Pass or Timeout that leaves the Piece elsewhere disobeys too.
    pub(super) fn radio_orders_obeyed(&mut self) {
        let me = self.me;
        let here = self.here();
        let mine: Vec<RadioOrder> = self
            .s
            .radio_orders
            .iter()
            .filter(|o| find(&self.s, Good::RadioClamp, o.n).map(|(p, _)| p) == Some(me))
            .cloned()
            .collect();
        self.s.radio_orders.retain(|o| !mine.contains(o));
        for o in mine {
            if here == Some(o.to) {
                self.change(format!(
                    "the Radio Clamp {} order to Move to {} is obeyed (Rule 1.4.46)",
                    o.n,
                    self.name(o.to)
                ));
                continue;
            }
            let on = find(&self.s, Good::RemoteControl, o.n)
                .is_some_and(|(c, i)| self.s.players[c].possessions[i].item.is_on());
            if !on {
                continue;
            }
            let t = &mut self.s.players[me].tokens;
            let lost = [Colour::Bronze, Colour::Silver, Colour::Gold]
                .into_iter()
                .find(|c| t.get(*c) > 0);
            if let Some(c) = lost {
                t.set(c, t.get(c) - 1);
                self.change(format!(
                    "{} was ordered by Radio Clamp {} to Move to {} and did not: e loses 1 {} (Rules 1.4.46, RULINGS.md E74)",
                    self.my_name(),
                    o.n,
                    self.name(o.to),
                    c.name()
                ));
            }
        }
    }

    /// `[De-Radiating]`: the Controllee shares a Station and Line with the
    /// Controller of one of eir Radio Clamps (the lowest-numbered such):
    /// the Clamp is removed and the Remote Control explodes, Lightly
    /// Damaging the Controller's Station and destroying one Token of each
    /// colour of the Controller's.
    pub(super) fn de_radiating(&mut self) -> Charge {
        let me = self.me;
        let clamps: Vec<Option<u32>> = self.s.players[me]
            .possessions
            .iter()
            .filter(|x| !x.nantucket && x.good() == Good::RadioClamp)
            .map(|x| x.item.number())
            .collect();
        if clamps.is_empty() {
            self.illegal(RULE, format!("{} carries no Radio Clamp", self.my_name()));
            return Charge::Free;
        }
        let mine = self.s.players[me].at;
        let sharing = |c: usize| match (mine, self.s.players[c].at) {
            (Some(m), Some(t)) => {
                m.station == t.station && (m.line.is_none() || t.line.is_none() || m.line == t.line)
            }
            _ => false,
        };
        let mut numbers: Vec<u32> = clamps.iter().flatten().copied().collect();
        numbers.sort_unstable();
        let found = numbers.into_iter().find_map(|n| {
            find(&self.s, Good::RemoteControl, n)
                .filter(|(c, _)| *c != me && sharing(*c))
                .map(|(c, i)| (n, c, i))
        });
        let Some((n, c, i)) = found else {
            if clamps.contains(&None) {
                self.ruling(
                    RULE,
                    "a Radio Clamp carried has no number, so its Controller is not known",
                );
            } else {
                self.illegal(
                    RULE,
                    "a Controllee De-Radiates while sharing a Station and Line with eir Controller: no Controller of eir Radio Clamps does",
                );
            }
            return Charge::Free;
        };
        let (_, k) = find(&self.s, Good::RadioClamp, n).expect("a carried Clamp");
        self.s.players[me].possessions.remove(k);
        self.s.players[c].possessions.remove(i);
        self.s.radio_orders.retain(|o| o.n != n);
        let controller = self.s.players[c].name.clone();
        let at = self.s.players[c].station().expect("shares a Station");
        let damaged = self.s.has_mark(at, StationMark::Damage)
            || self.s.has_mark(at, StationMark::HeavyDamage);
        if !damaged {
            self.s.disruptions.push(Disruption::Station {
                at,
                mark: StationMark::Damage,
            });
        }
        let t = &mut self.s.players[c].tokens;
        let mut lost = Vec::new();
        for col in Colour::ALL {
            if t.get(col) > 0 {
                t.set(col, t.get(col) - 1);
                lost.push(col);
            }
        }
        self.change(format!(
            "Radio Clamp {n} is removed; {controller}'s Remote Control {n} explodes: {} is Lightly Damaged and {controller} loses {} (Rule 1.4.46)",
            self.name(at),
            fmt_colours(&lost)
        ));
        Charge::Table
    }

    /// "If a Remote Control is destroyed, except by De-Radiating, the
    /// corresponding Radio Clamp is destroyed, too": a numbered Radio Clamp
    /// whose Remote Control has left every Luggage Rack goes (RULINGS.md
    /// E75). Not judged while an unnumbered Remote Control is in play.
    pub(super) fn radio_clamps_follow(&mut self) {
        let unnumbered = self.s.players.iter().any(|p| {
            p.possessions
                .iter()
                .any(|x| x.good() == Good::RemoteControl && x.item.number().is_none())
        });
        if unnumbered {
            return;
        }
        let mut gone = Vec::new();
        for p in 0..self.s.players.len() {
            let orphans: Vec<u32> = self.s.players[p]
                .possessions
                .iter()
                .filter(|x| x.good() == Good::RadioClamp)
                .filter_map(|x| x.item.number())
                .filter(|n| !in_play(&self.s, Good::RemoteControl, *n))
                .collect();
            if orphans.is_empty() {
                continue;
            }
            self.s.players[p].possessions.retain(|x| {
                !(x.good() == Good::RadioClamp
                    && x.item.number().is_some_and(|n| orphans.contains(&n)))
            });
            gone.extend(orphans.iter().map(|n| (self.s.players[p].name.clone(), *n)));
        }
        for (name, n) in gone {
            self.s.radio_orders.retain(|o| o.n != n);
            self.change(format!(
                "Remote Control {n} is destroyed: {name}'s Radio Clamp {n} is destroyed too (Rule 1.4.46)"
            ));
        }
    }
}
