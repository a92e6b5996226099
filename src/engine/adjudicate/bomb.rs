//! Explosions (Rule 1.7.30): a detonated Suspect Package and the Primed
//! Velocity Bomb's explosion (Rule 1.4.38) alike, Blasted Stations, chained
//! detonations, and the Pass a Blasted player owes (RULINGS.md E69).

use super::*;
use crate::gsd::Good;

/// "Less than three stops away" (Rule 1.7.30).
const BLAST_STOPS: u32 = 3;

impl Turn<'_> {
    /// At the end of its carrier's Turn, a Primed Velocity Bomb explodes if
    /// the LV is below five: its Station becomes Heavily Damaged, and every
    /// Station less than three stops away is Blasted (Rule 1.7.30).
    pub(super) fn velocity_bomb(&mut self) {
        let me = self.me;
        let p = &self.s.players[me];
        if !(p.carries(Good::VelocityBombPrimed) && p.lv < 5) {
            return;
        }
        let Some(at) = self.here() else {
            self.ruling(
                "1.4.38",
                "the Primed Velocity Bomb explodes off the Map (at a Ghost Station): not judged by mornbot",
            );
            return;
        };
        // The Bomb goes with the explosion ("the Package is removed from play").
        if let Some(i) = self.s.players[me]
            .possessions
            .iter()
            .position(|x| x.good() == Good::VelocityBombPrimed)
        {
            self.s.players[me].possessions.remove(i);
        }
        let cause = format!(
            "the Primed Velocity Bomb explodes at {} with an LV below five (Rule 1.4.38)",
            self.name(at)
        );
        self.explode(at, cause);
    }

    /// A detonation at `at` (Rule 1.7.30), its Package (or Bomb) already
    /// removed from play: the Station becomes Heavily Damaged and every
    /// Station less than three stops away is Blasted; a Suspect Package
    /// resting at a Blasted Station detonates in turn (each once).
    pub(super) fn explode(&mut self, at: StationId, cause: String) {
        let mut pending = vec![(at, cause)];
        let mut blasted: Vec<StationId> = Vec::new();
        while let Some((at, cause)) = pending.pop() {
            self.s.disruptions.retain(|d| {
                !matches!(d, Disruption::Station { at: a, mark: StationMark::Damage } if *a == at)
            });
            if !self.s.has_mark(at, StationMark::HeavyDamage) {
                self.s.disruptions.push(Disruption::Station {
                    at,
                    mark: StationMark::HeavyDamage,
                });
            }
            self.change(format!(
                "{cause}: {} is Heavily Damaged (Rule 1.7.30)",
                self.name(at)
            ));
            for s in self.within_stops(at, BLAST_STOPS) {
                if !blasted.contains(&s) {
                    blasted.push(s);
                    self.blast(s);
                }
                while let Some(i) = self.s.packages.iter().position(|p| p.at == s) {
                    self.s.packages.remove(i);
                    let cause =
                        format!("the Suspect Package at Blasted {} detonates", self.name(s));
                    pending.push((s, cause));
                }
            }
        }
    }

    /// Every Station fewer than `stops` stops from `at` along the map's
    /// lines (any lines, changing freely), `at` included: the blast's "less
    /// than three stops away" and the detonator's "fewer than five stations
    /// away" (Rule 1.7.30, RULINGS.md E69, E98).
    pub(super) fn within_stops(&self, at: StationId, stops: u32) -> Vec<StationId> {
        let mut seen = vec![at];
        let mut edge = vec![at];
        for _ in 1..stops {
            let mut next = Vec::new();
            for &x in &edge {
                for l in LineCode::ALL {
                    for &y in self.map.neighbours(x, l) {
                        if !seen.contains(&y) {
                            seen.push(y);
                            next.push(y);
                        }
                    }
                }
            }
            edge = next;
        }
        seen
    }

    /// A Blasted Station: its Token Stack is destroyed; each Player there
    /// loses all eir Possessions and must play Pass with no Actions as eir
    /// next Turn (Rule 1.7.30).
    fn blast(&mut self, at: StationId) {
        let name = self.name(at).to_string();
        if let Some(i) = self.s.stacks.iter().position(|(s, _)| *s == at) {
            self.s.stacks.remove(i);
            self.change(format!(
                "{name} is Blasted: its Token Stack is destroyed (Rule 1.7.30)"
            ));
        }
        let hit: Vec<usize> = (0..self.s.players.len())
            .filter(|&i| self.s.players[i].station() == Some(at))
            .collect();
        for i in hit {
            let who = self.s.players[i].name.clone();
            self.s.players[i].possessions.clear();
            // What the fold kept of eir Clamps goes with them.
            self.s
                .toffs
                .retain(|t| !t.player.eq_ignore_ascii_case(&who));
            self.s
                .prisons
                .retain(|t| !t.player.eq_ignore_ascii_case(&who));
            if !self.s.blasted.iter().any(|b| b.eq_ignore_ascii_case(&who)) {
                self.s.blasted.push(who.clone());
            }
            self.change(format!(
                "{who} is at Blasted {name}: e loses all eir Possessions and must play Pass with no Actions as eir next Turn (Rule 1.7.30)"
            ));
        }
    }

    /// A Blasted player's next Turn is a Move of Pass with no Actions (Rule
    /// 1.7.30); a Timeout, which plays neither, discharges it too.
    pub(super) fn blasted_pass(&mut self) {
        let name = self.my_name();
        let Some(i) = self
            .s
            .blasted
            .iter()
            .position(|b| b.eq_ignore_ascii_case(&name))
        else {
            return;
        };
        self.s.blasted.remove(i);
        let mv = &self.play.mv;
        let passes = matches!(mv, Move::Pass(_) | Move::Timeout);
        if !passes || self.play.actions().next().is_some() {
            self.illegal(
                "1.7.30",
                format!(
                    "{name} was at a Blasted Station: e must play a Move of Pass with no Actions as this Turn"
                ),
            );
        }
    }
}
