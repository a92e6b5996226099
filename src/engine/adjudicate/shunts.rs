//! Shunts (Rules 1.10.1 - 1.10.3, 1.10.17, 1.10.18) of Players and of
//! Token Stacks "as though they were Players" (RULINGS.md E46), Double and
//! greater Shunts (1.10.2), and the skid on a Soaped line (1.20.6).

use super::*;
use crate::gsd::{Claim, Good};

impl Turn<'_> {
    /// Every Shunt but a Double one (Rules 1.10.1, 1.10.3, 1.10.17,
    /// 1.10.18); a Spanger makes it free and keeps the shunter's LV (Rule
    /// 1.4.29).
    pub(super) fn shunt_action(&mut self, a: &Action, player: &str, station: &Target) -> Charge {
        let rule = a.spec().rule;
        let spanger = self.s.players[self.me].carries(Good::Spanger);
        let lv = self.s.players[self.me].lv;
        self.shunt(a, rule, player, station);
        if spanger {
            self.s.players[self.me].lv = lv;
            self.change("the Spanger makes the Shunt free and keeps the LV (Rule 1.4.29)");
            return Charge::Free;
        }
        Charge::Table
    }

    /// Shunts (Rules 1.10.0 - 1.10.3, 1.10.17, 1.10.18): the target shares
    /// the Piece's Station and Line; it is sent along one of its lines to a
    /// station LV stations away (or a nearer Terminus), never Mornington
    /// Crescent; both LVs become zero (not the shunter's in a Power Shunt),
    /// both Charges their mean.
    fn shunt(&mut self, a: &Action, rule: &str, player: &str, target: &Target) {
        let me = self.me;
        if is_token_stack(player) {
            self.shunt_stack(a, rule, target);
            return;
        }
        if player.eq_ignore_ascii_case("Suspect Package") {
            self.shunt_package(a, rule, target);
            return;
        }
        if player.eq_ignore_ascii_case("PoID") {
            self.shunt_poid(a, rule, target);
            return;
        }
        let Some((v, theirs)) = self.target_of(a, player) else {
            return;
        };
        if self.loop_trap(theirs.station) {
            return;
        }
        let Some(n) = self.shunt_lv(a) else {
            return;
        };
        let Some(dest) = self.shunt_destination(a, target) else {
            return;
        };
        let dead_end = matches!(a, Action::DeadEndShunting { .. });
        // A Magnifier on the Shunted player or the Terminus: one station
        // further (Rule 1.4.48, RULINGS E79).
        let n = if dead_end
            && self
                .shunt_line(theirs.station, dest, target.line, n, true)
                .is_none()
            && self.magnified_lv(a, &[magnify::Lens::Player(v), magnify::Lens::Station(dest)])
        {
            n + 1
        } else {
            n
        };
        let Some(line) = self.shunt_route(theirs.station, dest, target, n, dead_end, false, rule)
        else {
            return;
        };
        self.send_shunted(v, dest, line);
        if !matches!(a, Action::PowerShunting { .. }) {
            self.s.players[me].lv = 0;
        }
        self.change(format!(
            "{} is Shunted to {} ({line}) (Rule {rule})",
            self.s.players[v].name, target.station
        ));
        self.shunts.made = Some((n, dest));
        if dead_end {
            // The Shunted player loses one Token of each colour (Rule 1.10.3).
            for c in Colour::ALL {
                let have = self.s.players[v].tokens.get(c);
                if have > 0 {
                    self.s.players[v].tokens.set(c, have - 1);
                }
            }
        }
        if matches!(a, Action::Shunting { .. }) {
            self.shunt_claim(v);
        } else {
            self.no_claim(rule, v);
        }
    }

    /// Dead-End, Power and Stationary Shunts give no claim (Rules 1.10.3,
    /// 1.10.17, 1.10.18): a `{claims ...}` written for one is Illegal, not
    /// dropped.
    fn no_claim(&mut self, rule: &str, v: usize) {
        let name = self.s.players[v].name.clone();
        if let Some(what) = self.claim_of(&name) {
            let what = match what {
                Claim::Token(c) => format!("a {} Token", c.name()),
                Claim::Possession(item) => crate::gsd::render::item_text(&item),
            };
            self.illegal(
                rule,
                format!(
                    "this Shunt lets the Actioning Player claim nothing from {name}, not {what}"
                ),
            );
        }
    }

    /// A Loop Trap Station (Dollis Hill, Rule 1.8.1) is never Shunted from
    /// (Rule 1.10.1).
    pub(super) fn loop_trap(&mut self, at: StationId) -> bool {
        let trapped = self.map.is(at, Landmark::DollisHill);
        if trapped {
            self.illegal(
                "1.10.1",
                "Dollis Hill is a Loop Trap Station: no Shunt from it (Rule 1.8.1)",
            );
        }
        trapped
    }

    /// The distance a Shunt uses: the LV, which must be above zero, or 1
    /// for a Stationary Shunt, which must be played at LV zero (Rules
    /// 1.10.1, 1.10.17).
    pub(super) fn shunt_lv(&mut self, a: &Action) -> Option<u32> {
        let lv = self.s.players[self.me].lv;
        let stationary = matches!(a, Action::StationaryShunting { .. });
        if stationary && lv != 0 {
            self.illegal("1.10.17", "a Stationary Shunt is played only at LV zero");
            return None;
        }
        if !stationary && lv == 0 {
            self.illegal(
                "1.10.1",
                "no Shunt at LV zero (after a Pass or a Special Move)",
            );
            return None;
        }
        Some(if stationary { 1 } else { lv })
    }

    /// Whether the Stack at `at` may be Shunted: it exists, holds at most
    /// six Tokens (Rule 1.10.1) and is not Pegged (Rule 1.11.4).
    pub(super) fn stack_movable(&mut self, at: StationId) -> bool {
        let name = self.name(at).to_string();
        match self.s.stack(at).map_or(0, |s| s.len()) {
            0 => {
                self.illegal("1.10.1", format!("there is no Token Stack at {name}"));
                false
            }
            n if n > 6 => {
                self.illegal(
                    "1.10.1",
                    format!("the Token Stack at {name} holds {n} Tokens: a Stack of more than 6 cannot be Shunted"),
                );
                false
            }
            _ if self.pegged(at) => {
                self.illegal(
                    "1.11.4",
                    format!("{name} is Pegged: its Stack cannot be taken from it"),
                );
                false
            }
            _ => true,
        }
    }

    /// A Shunt of the Token Stack at the Piece's Station (Rule 1.10.1,
    /// "as though they were Players"; RULINGS.md E46): the same
    /// conditions as for a Player, the Stack landing on top of any Stack at
    /// the destination; a Dead-End Shunt destroys it (Rule 1.10.3).
    fn shunt_stack(&mut self, a: &Action, rule: &str, target: &Target) {
        let me = self.me;
        self.targeting(a);
        let Some(here) = self.here() else {
            self.illegal(rule, "the Piece must be on the Map to Shunt a Token Stack");
            return;
        };
        if self.sanctuary(here) {
            return;
        }
        if !self.stack_movable(here) || self.loop_trap(here) {
            return;
        }
        let Some((n, dest, line, dead_end)) = self.shunt_leg(a, here, target, rule) else {
            return;
        };
        let Some(moved) = self.send_stack(here, dest, line, dead_end, rule) else {
            return;
        };
        if !matches!(a, Action::PowerShunting { .. }) {
            self.s.players[me].lv = 0;
        }
        self.shunts.made = Some((n, dest));
        if dead_end {
            self.change(format!(
                "the Token Stack at {} is Dead-End Shunted and destroyed (Rule 1.10.3)",
                self.name(here)
            ));
            return;
        }
        self.change(format!(
            "the Token Stack at {} is Shunted to {} ({line}) (Rule {rule})",
            self.name(here),
            target.station
        ));
        if matches!(a, Action::Shunting { .. }) {
            self.stack_claim(dest, moved);
        }
    }

    /// Moves the Stack at `from` onto the top of any Stack at `dest` (or
    /// destroys it), at most six Tokens there unless the Stack is unlimited
    /// (Rule 1.14.3), never onto a Pegged Station (Rule 1.11.4); the
    /// shunter skids along a Soaped line (Rule 1.20.6). Returns how many
    /// Tokens moved.
    pub(super) fn send_stack(
        &mut self,
        from: StationId,
        dest: StationId,
        line: LineCode,
        destroy: bool,
        rule: &str,
    ) -> Option<usize> {
        let moving = self.s.stack(from).cloned().unwrap_or_default();
        if !destroy {
            if self.pegged(dest) {
                self.illegal(
                    "1.11.4",
                    format!(
                        "{} is Pegged: no Token may be placed there",
                        self.name(dest)
                    ),
                );
                return None;
            }
            let there = self.s.stack(dest).map_or(0, |s| s.len());
            if there + moving.len() > 6 && !self.unlimited_stack(dest) {
                self.illegal(
                    rule,
                    format!(
                        "{} already holds a Stack of {there}: with the {} Shunted onto it, more than 6 Tokens",
                        self.name(dest),
                        moving.len()
                    ),
                );
                return None;
            }
        }
        self.s.stacks.retain(|(s, _)| *s != from);
        if !destroy {
            let i = self.stack_index(dest);
            self.s.stacks[i].1.extend(moving.iter().copied());
            self.shunts.stacks.push(dest);
        }
        self.skid(dest, line);
        Some(moving.len())
    }

    /// Where a Shunt sends its target: a station of the map, never
    /// Mornington Crescent (Rule 1.10.1).
    pub(super) fn shunt_destination(&mut self, a: &Action, target: &Target) -> Option<StationId> {
        let dest = self.station_of(target, a)?;
        if self.map.is(dest, Landmark::MorningtonCrescent) {
            self.illegal("1.10.1", "no Shunt to Mornington Crescent");
            return None;
        }
        Some(dest)
    }

    /// The leg of a single Shunt of what rests at `here` (a Token Stack,
    /// a Suspect Package): its LV, destination, the Line it goes along,
    /// and whether it is a Dead-End Shunt; `None` once a refusal is said.
    pub(super) fn shunt_leg(
        &mut self,
        a: &Action,
        here: StationId,
        target: &Target,
        rule: &str,
    ) -> Option<(u32, StationId, LineCode, bool)> {
        let n = self.shunt_lv(a)?;
        let dest = self.shunt_destination(a, target)?;
        let dead_end = matches!(a, Action::DeadEndShunting { .. });
        let line = self.shunt_route(here, dest, target, n, dead_end, false, rule)?;
        Some((n, dest, line, dead_end))
    }

    /// [`Self::shunt_line`], reporting when there is none: `multiple` for a
    /// Double (or greater) Shunt, at the first Shunt's LV.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shunt_route(
        &mut self,
        from: StationId,
        dest: StationId,
        target: &Target,
        n: u32,
        dead_end: bool,
        multiple: bool,
        rule: &str,
    ) -> Option<LineCode> {
        let line = self.shunt_line(from, dest, target.line, n, dead_end);
        if line.is_none() {
            let msg = if multiple {
                format!(
                    "{} is not {n} stations (the first Shunt's LV) from {}, or a nearer Terminus, along one line",
                    target.station,
                    self.name(from)
                )
            } else {
                let what = if dead_end {
                    format!("a Terminus fewer than {n} stations away")
                } else {
                    format!("{n} stations away (or a nearer Terminus)")
                };
                format!(
                    "{} is not {what} along a line serving {}",
                    target.station,
                    self.name(from)
                )
            };
            self.illegal(rule, msg);
        }
        line
    }

    /// The line along which a Piece at `from` can be Shunted to `dest` (on
    /// `line` when the play names it): exactly `n` stations, or a nearer
    /// Terminus; for a Dead-End Shunt, a Terminus fewer than `n` away.
    fn shunt_line(
        &self,
        from: StationId,
        dest: StationId,
        line: Option<LineCode>,
        n: u32,
        dead_end: bool,
    ) -> Option<LineCode> {
        let lines: Vec<LineCode> = match line {
            Some(l) => vec![l],
            None => self.map.station(dest).lines.iter().collect(),
        };
        lines.into_iter().find(|&l| {
            if !self.map.station(from).lines.contains(l)
                || !self.map.station(dest).lines.contains(l)
            {
                return false;
            }
            let Some(d) = line_distance(self.map, l, from, dest) else {
                return false;
            };
            let terminus = self.map.is_terminus(dest, l);
            if dead_end {
                terminus && d < n
            } else {
                d == n || (d < n && terminus)
            }
        })
    }

    /// A Shunt's effects on its target `v` (Rule 1.10.1): sent to `dest`
    /// on `line` at LV zero, both Charges their mean; no Player is Shunted
    /// twice by one Move (Rule 1.10.2).
    pub(super) fn send_shunted(&mut self, v: usize, dest: StationId, line: LineCode) {
        let me = self.me;
        let mean = ((i64::from(self.s.players[me].charge) + i64::from(self.s.players[v].charge))
            / 2) as i32;
        self.s.players[v].at = Some(Position {
            station: dest,
            line: Some(line),
        });
        self.s.players[v].lv = 0;
        self.s.players[me].charge = mean;
        self.s.players[v].charge = mean;
        self.shunts.players.push(v);
        // Shunting a Coffee carrier destroys eir Coffee and the shunter's
        // Papery Possessions (Rule 1.4.16).
        if self.s.players[v].carries(Good::BritishRailCoffee) {
            self.s.players[v]
                .possessions
                .retain(|p| p.good() != Good::BritishRailCoffee);
            let before = self.s.players[me].possessions.len();
            self.s.players[me]
                .possessions
                .retain(|p| !p.is(crate::gsd::Quality::Papery));
            let lost = before - self.s.players[me].possessions.len();
            self.change(format!(
                "{}'s British Rail Coffee is destroyed, and {lost} Papery Possession(s) of {} (Rule 1.4.16)",
                self.s.players[v].name, self.s.players[me].name
            ));
        }
        self.skid(dest, line);
    }

    /// On a Soaped line the shunter skids along: both end in the same
    /// place (Rule 1.20.6).
    fn skid(&mut self, dest: StationId, line: LineCode) {
        if self.soaped(line) {
            self.s.players[self.me].at = Some(Position {
                station: dest,
                line: Some(line),
            });
            self.change(format!(
                "the {line} is Soaped: {} skids along to {} (Rule 1.20.6)",
                self.s.players[self.me].name,
                self.name(dest)
            ));
        }
    }
}

/// Stations between `a` and `b` along `line` alone (either direction).
pub(super) fn line_distance(map: &Map, line: LineCode, a: StationId, b: StationId) -> Option<u32> {
    let mut seen = vec![u32::MAX; map.stations().len()];
    seen[a.index()] = 0;
    let mut q = std::collections::VecDeque::from([a]);
    while let Some(s) = q.pop_front() {
        if s == b {
            return Some(seen[s.index()]);
        }
        for &n in map.neighbours(s, line) {
            if seen[n.index()] == u32::MAX {
                seen[n.index()] = seen[s.index()] + 1;
                q.push_back(n);
            }
        }
    }
    None
}

/// The name a Token Stack goes by when Shunted (Rule 1.10.1).
pub(super) fn is_token_stack(name: &str) -> bool {
    name.eq_ignore_ascii_case("Token Stack")
}
