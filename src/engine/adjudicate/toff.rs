//! The Toff Clamp (Rule 1.4.44): `[Toffing <Player>]` gives it, pointing at
//! the Station where the target began the Turn before being Toffed; its
//! carrier's Standard Moves must end closer to that Station, by route
//! distance R (RULINGS.md E64); "[De-Toffing]" there removes it.

use super::*;
use crate::engine::state::Toff;
use crate::gsd::{Good, Possession};

impl Turn<'_> {
    /// `[Toffing <Player>]`: the target shares the Actioning Player's
    /// Station and Line and gains a Toff Clamp pointing at the Station
    /// where e began eir latest Turn. Where that was is known when mornbot
    /// saw that Turn; otherwise a human rules.
    pub(super) fn toffing(&mut self, a: &Action, player: &str) -> Charge {
        let Some(v) = self.sharing(a, player) else {
            return Charge::Table;
        };
        let name = self.s.players[v].name.clone();
        let began = self
            .s
            .began
            .iter()
            .find(|b| b.player.eq_ignore_ascii_case(&name))
            .map(|b| b.at);
        let Some(toward) = began else {
            self.ruling(
                "1.4.44",
                format!("where {name} began eir previous Turn is not in the plays mornbot has folded, so the Toff Clamp's Station is not known"),
            );
            return Charge::Table;
        };
        // Its Station written on it (`Toff Clamp (Euston)`): the GSD
        // carries it on.
        let item = Item::Toff {
            name: self.name(toward).to_string(),
            at: toward,
        };
        self.s.players[v].possessions.push(Possession {
            item,
            worn: false,
            nantucket: false,
        });
        self.s.toffs.push(Toff {
            player: name.clone(),
            toward,
        });
        self.change(format!(
            "{name} gains a Toff Clamp: eir Standard Moves must end closer to {} (Rule 1.4.44)",
            self.name(toward)
        ));
        Charge::Table
    }

    /// The Stations of the Toff Clamps player `p` carries (not
    /// Nantucketed): written on a Clamp (`Toff Clamp (Euston)`), else
    /// recorded by the fold at its Toffing; `None` when a plain `Toff
    /// Clamp` has no record (a GSD read from its tables).
    fn toff_stations(&self, p: usize) -> Option<Vec<StationId>> {
        let player = &self.s.players[p];
        let mut records: Vec<StationId> = self
            .s
            .toffs
            .iter()
            .filter(|t| t.player.eq_ignore_ascii_case(&player.name))
            .map(|t| t.toward)
            .collect();
        let mut stations = Vec::new();
        let mut plain = 0;
        for x in player.possessions.iter().filter(|x| !x.nantucket) {
            match &x.item {
                Item::Toff { at, .. } => {
                    // Its record, if the fold made one, is this Clamp's.
                    if let Some(i) = records.iter().position(|r| r == at) {
                        records.remove(i);
                    }
                    stations.push(*at);
                }
                i if i.good() == Good::ToffClamp => plain += 1,
                _ => {}
            }
        }
        if records.len() < plain {
            return None;
        }
        stations.extend(records.into_iter().take(plain));
        Some(stations)
    }

    /// After a Standard Move (not Pass, Timeout or a Special Move, which
    /// are not Standard Moves): each Toff Clamp's Station must be strictly
    /// nearer, by route distance R, at the Move's end than at its start.
    pub(super) fn toff_restraint(&mut self, mv: &Move) {
        let me = self.me;
        let carries = self.s.players[me]
            .possessions
            .iter()
            .any(|x| !x.nantucket && x.good() == Good::ToffClamp);
        let standard = matches!(mv, Move::To { .. }) && self.mv.special.is_none();
        let (Some(from), Some(to)) = (self.mv.started_at, self.here()) else {
            return;
        };
        // A Move already refused did not take the Piece anywhere to judge.
        if !carries || !standard || !self.out.violations.is_empty() {
            return;
        }
        let Some(stations) = self.toff_stations(me) else {
            self.ruling(
                "1.4.44",
                format!(
                    "{} carries a Toff Clamp whose Station (where e began the Turn before being Toffed) is not in the plays mornbot has folded",
                    self.my_name()
                ),
            );
            return;
        };
        for t in stations {
            let (before, after) = (
                self.map.route_distance(from, t),
                self.map.route_distance(to, t),
            );
            let (Some(before), Some(after)) = (before, after) else {
                self.ruling(
                    "1.4.44",
                    format!(
                        "no route joins the Move to {}, so 'closer' is not defined",
                        self.name(t)
                    ),
                );
                continue;
            };
            if after >= before {
                self.illegal(
                    "1.4.44",
                    format!(
                        "a Toff Clamp's carrier must end each Standard Move closer to {}: {} is {after} stations from it by route, {} was {before}",
                        self.name(t),
                        self.name(to),
                        self.name(from)
                    ),
                );
            }
        }
    }

    /// `[De-Toffing]`: removes a Toff Clamp whose Station is where the
    /// Piece stands.
    pub(super) fn de_toffing(&mut self, a: &Action) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        let Some(at) = self.here() else {
            self.illegal(rule, "the Piece must be on the Map");
            return Charge::Free;
        };
        let Some(stations) = self.toff_stations(me) else {
            self.ruling(
                rule,
                "the Station of a Toff Clamp carried is not in the plays mornbot has folded",
            );
            return Charge::Free;
        };
        if stations.is_empty() {
            self.illegal(rule, format!("{} carries no Toff Clamp", self.my_name()));
            return Charge::Free;
        }
        if !stations.contains(&at) {
            let names: Vec<&str> = stations.iter().map(|s| self.name(*s)).collect();
            self.illegal(
                rule,
                format!(
                    "[De-Toffing] is played at the Station where the player began the Turn before being Toffed ({}), not at {}",
                    names.join(" or "),
                    self.name(at)
                ),
            );
            return Charge::Free;
        }
        let name = self.my_name();
        if let Some(k) = self
            .s
            .toffs
            .iter()
            .position(|t| t.player.eq_ignore_ascii_case(&name) && t.toward == at)
        {
            self.s.toffs.remove(k);
        }
        // The Clamp pointing here: written so, else a plain one.
        let p = &mut self.s.players[me].possessions;
        let i = p
            .iter()
            .position(|x| !x.nantucket && matches!(&x.item, Item::Toff { at: s, .. } if *s == at))
            .or_else(|| {
                p.iter()
                    .position(|x| !x.nantucket && x.good() == Good::ToffClamp)
            })
            .expect("toff_stations counted one");
        p.remove(i);
        self.change(format!("the Toff Clamp is removed (Rule {rule})"));
        Charge::Table
    }
}
