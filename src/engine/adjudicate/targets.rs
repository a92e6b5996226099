//! Actions that target another player: Shunts, Huffs, Blonks, Shadows
//! (Rules 1.10.x, 1.11.7, 1.13.1).

use super::*;

impl Turn<'_> {
    /// The common conditions of Actions that target a player (Rules 1.10.0,
    /// 1.11.7, 1.13.1): the target's index and position.
    pub(super) fn target_of(
        &mut self,
        a: &Action,
        rule: &str,
        player: &str,
        first_post: bool,
    ) -> Option<(usize, Position)> {
        let me = self.me;
        if !first_post {
            self.illegal(
                "1.10.0",
                format!(
                    "{} must be the first post-Move Action of the Turn",
                    a.render()
                ),
            );
        }
        if crate::engine::time::in_small_hours(self.now()) {
            self.illegal(
                "1.13.1",
                "Actions that target other Players cannot be played between 0000 and 0500",
            );
        }
        let Some(v) = self.s.player_index(player).filter(|&v| v != me) else {
            self.illegal(rule, format!("{player} is not another player of this game"));
            return None;
        };
        let (Some(mine), Some(theirs)) = (self.s.players[me].at, self.s.players[v].at) else {
            self.illegal(
                rule,
                format!("both Pieces must be on the Map to Shunt {player}"),
            );
            return None;
        };
        let same_line = mine.line.is_none() || theirs.line.is_none() || mine.line == theirs.line;
        if mine.station != theirs.station || !same_line {
            self.illegal(
                "1.10.0",
                format!("{player} does not share the Piece's Station and Line"),
            );
            return None;
        }
        // Sanctuary: nobody at a Holy Station targets or is targeted (Rule 1.11.7).
        let holy = |s: StationId| {
            self.map.station(s).categories.contains(Category::Holy)
                && !self.s.has_mark(self.map, s, StationMark::Defamed)
        };
        if holy(mine.station) {
            self.illegal(
                "1.11.7",
                format!(
                    "{} is a Holy Station: Sanctuary forbids Shunting from it",
                    self.name(mine.station)
                ),
            );
            return None;
        }
        Some((v, theirs))
    }

    /// The choice a targeting Action leaves to its player, written as a
    /// comment `{<word> <value>}` (RULINGS.md E24).
    pub(super) fn choice(&self, word: &str) -> Option<String> {
        self.play.comments().find_map(|c| {
            let lower = c.to_lowercase();
            let at = lower.find(&format!("{word} "))?;
            Some(
                c[at + word.len() + 1..]
                    .trim()
                    .trim_end_matches('.')
                    .to_string(),
            )
        })
    }

    /// Shunts (Rules 1.10.0 - 1.10.3, 1.10.17, 1.10.18): the target shares
    /// the Piece's Station and Line; it is sent along one of its lines to a
    /// station LV stations away (or a nearer Terminus), never Mornington
    /// Crescent; both LVs become zero (not the shunter's in a Power Shunt),
    /// both Charges their mean.
    pub(super) fn shunt(
        &mut self,
        a: &Action,
        rule: &str,
        player: &str,
        target: &crate::gsd::Target,
        first_post: bool,
    ) {
        let me = self.me;
        if player.eq_ignore_ascii_case("Token Stack")
            || player.eq_ignore_ascii_case("Suspect Package")
            || player.eq_ignore_ascii_case("PoID")
        {
            self.ruling(rule, format!("shunting a {player} is not yet adjudicated"));
            return;
        }
        let Some((v, theirs)) = self.target_of(a, rule, player, first_post) else {
            return;
        };
        if self.name(theirs.station) == "Dollis Hill" {
            self.illegal(
                "1.10.1",
                "Dollis Hill is a Loop Trap Station: no Shunt from it (Rule 1.8.1)",
            );
            return;
        }
        let lv = self.s.players[me].lv;
        let stationary = matches!(a, Action::StationaryShunting { .. });
        if stationary && lv != 0 {
            self.illegal("1.10.17", "a Stationary Shunt is played only at LV zero");
            return;
        }
        if !stationary && lv == 0 {
            self.illegal(
                "1.10.1",
                "no Shunt at LV zero (after a Pass or a Special Move)",
            );
            return;
        }
        let n = if stationary { 1 } else { lv };
        let Some(dest) = self.shunt_destination(target, rule) else {
            return;
        };
        let dead_end = matches!(a, Action::DeadEndShunting { .. });
        let Some(line) = self.shunt_line(theirs.station, dest, target.line, n, dead_end) else {
            let what = if dead_end {
                format!("a Terminus fewer than {n} stations away")
            } else {
                format!("{n} stations away (or a nearer Terminus)")
            };
            self.illegal(
                rule,
                format!(
                    "{} is not {what} along a line serving {}",
                    target.station,
                    self.name(theirs.station)
                ),
            );
            return;
        };
        self.send_shunted(v, dest, line);
        if !matches!(a, Action::PowerShunting { .. }) {
            self.s.players[me].lv = 0;
        }
        self.changes.push(format!(
            "{} is Shunted to {} ({line}) (Rule {rule})",
            self.s.players[v].name, target.station
        ));
        self.shunt_made = Some((n, dest));
        if dead_end {
            // The Shunted player loses one Token of each colour (Rule 1.10.3).
            for c in Colour::ALL {
                let have = self.s.players[v].tokens.get(c);
                if have > 0 {
                    self.s.players[v].tokens.set(c, have - 1);
                }
            }
        } else if matches!(a, Action::Shunting { .. }) {
            self.shunt_claim(v);
        }
    }

    /// A Double Shunt (Rule 1.10.2): after a Shunt to an occupied Station,
    /// the second post-Move Action may Shunt a Player there on, as if the
    /// shunter had Shunted em directly at the first Shunt's LV; no Player
    /// is Shunted twice by one Move; the shunter gains one Silver Token.
    pub(super) fn double_shunt(
        &mut self,
        a: &Action,
        rule: &str,
        player: &str,
        target: &crate::gsd::Target,
        second_post: bool,
    ) {
        let me = self.me;
        if !second_post {
            let chained = self
                .play
                .actions_after()
                .take_while(|x| !std::ptr::eq(*x, a))
                .any(|x| matches!(x, Action::DoubleShunting { .. }));
            if chained {
                // "Triple (or greater multiple) Shunts may be set up and
                // played under the same principles": how they are written
                // is not said.
                self.ruling(
                    rule,
                    "Triple and greater multiple Shunts are not yet adjudicated",
                );
                return;
            }
            self.illegal(
                rule,
                format!(
                    "{} must be the second post-Move Action of the Turn",
                    a.render()
                ),
            );
        }
        let Some((n, occupied)) = self.shunt_made else {
            self.illegal(
                rule,
                "a Double Shunt follows a Shunt of this Move to an occupied Station",
            );
            return;
        };
        if player.eq_ignore_ascii_case("Token Stack")
            || player.eq_ignore_ascii_case("Suspect Package")
            || player.eq_ignore_ascii_case("PoID")
        {
            self.ruling(
                rule,
                format!("Double-Shunting a {player} is not yet adjudicated"),
            );
            return;
        }
        let Some(v) = self.s.player_index(player).filter(|&v| v != me) else {
            self.illegal(rule, format!("{player} is not another player of this game"));
            return;
        };
        if self.shunted.contains(&v) {
            self.illegal(
                rule,
                format!(
                    "{player} has been Shunted by this Move already: no Player is Shunted twice"
                ),
            );
            return;
        }
        let Some(theirs) = self.s.players[v].at.filter(|p| p.station == occupied) else {
            self.illegal(
                rule,
                format!(
                    "{player} is not at {}, where the first Shunt sent its target",
                    self.name(occupied)
                ),
            );
            return;
        };
        let Some(dest) = self.shunt_destination(target, rule) else {
            return;
        };
        let Some(line) = self.shunt_line(theirs.station, dest, target.line, n, false) else {
            self.illegal(
                rule,
                format!(
                    "{} is not {n} stations (the first Shunt's LV) from {}, or a nearer Terminus, along one line",
                    target.station,
                    self.name(theirs.station)
                ),
            );
            return;
        };
        self.send_shunted(v, dest, line);
        self.gain(&[(1, Colour::Silver)]);
        self.changes.push(format!(
            "{} is Double-Shunted to {} ({line}); +1 Silver (Rule 1.10.2)",
            self.s.players[v].name, target.station
        ));
    }

    /// Where a Shunt sends its target: a station of the map, never
    /// Mornington Crescent (Rule 1.10.1).
    fn shunt_destination(&mut self, target: &crate::gsd::Target, rule: &str) -> Option<StationId> {
        let Some(dest) = self.map.find(&target.station) else {
            self.illegal(
                rule,
                format!("{} is not a station of the map", target.station),
            );
            return None;
        };
        if self.name(dest) == "Mornington Crescent" {
            self.illegal("1.10.1", "no Shunt to Mornington Crescent");
            return None;
        }
        Some(dest)
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
    fn send_shunted(&mut self, v: usize, dest: StationId, line: LineCode) {
        let me = self.me;
        let mean = (self.s.players[me].charge + self.s.players[v].charge) / 2;
        self.s.players[v].at = Some(Position {
            station: dest,
            line: Some(line),
        });
        self.s.players[v].lv = 0;
        self.s.players[me].charge = mean;
        self.s.players[v].charge = mean;
        self.shunted.push(v);
        // On a Soaped line the shunter skids along: both end in the same
        // place (Rule 1.20.6).
        if self.soaped(line) {
            self.s.players[me].at = Some(Position {
                station: dest,
                line: Some(line),
            });
            self.changes.push(format!(
                "the {line} is Soaped: {} skids along to {} (Rule 1.20.6)",
                self.s.players[me].name,
                self.name(dest)
            ));
        }
    }

    /// The Shunting player's claim of one Token or Possession (Rule 1.10.1),
    /// named in a comment `{claims <Colour>}` or `{claims <Possession>}`.
    pub(super) fn shunt_claim(&mut self, v: usize) {
        let me = self.me;
        let Some(what) = self.play.comments().find_map(|c| {
            let lower = c.to_lowercase();
            lower.find("claims ").map(|i| {
                c[i + "claims ".len()..]
                    .trim()
                    .trim_end_matches('.')
                    .to_string()
            })
        }) else {
            return;
        };
        let belt = self.s.players[v].possessions.iter().any(|p| matches!(&p.item, Item::Named { name, .. } if name.eq_ignore_ascii_case("Money Belt")));
        if let Some(c) = Colour::parse(
            what.trim_start_matches("a ")
                .trim_start_matches("1 ")
                .trim_end_matches(" Token"),
        ) {
            if belt {
                self.illegal(
                    "1.10.1",
                    "the Shunted player wears a Money Belt: no Token may be claimed",
                );
            } else if self.s.players[v].tokens.get(c) == 0 {
                self.illegal(
                    "1.10.1",
                    format!(
                        "{} has no {} Token to claim",
                        self.s.players[v].name,
                        c.name()
                    ),
                );
            } else {
                let t = self.s.players[v].tokens.get(c);
                self.s.players[v].tokens.set(c, t - 1);
                self.gain(&[(1, c)]);
                self.changes.push(format!(
                    "{} claims a {} Token",
                    self.s.players[me].name,
                    c.name()
                ));
            }
            return;
        }
        let idx = self.s.players[v].possessions.iter().position(|p| {
            crate::gsd::possession_text(p).eq_ignore_ascii_case(&what)
                || matches!(&p.item, Item::Named { name, .. } if name.eq_ignore_ascii_case(&what))
        });
        match idx {
            Some(i) => {
                let p = &self.s.players[v].possessions[i];
                if p.worn
                    || p.nantucket
                    || matches!(&p.item, Item::Named { name, .. } if name.eq_ignore_ascii_case("Money Belt"))
                {
                    self.illegal(
                        "1.10.1",
                        format!(
                            "{what} cannot be claimed (Worn, in a Nantucket, or the Money Belt)"
                        ),
                    );
                } else {
                    let p = self.s.players[v].possessions.remove(i);
                    self.s.players[me].possessions.push(p);
                    self.changes
                        .push(format!("{} claims {what}", self.s.players[me].name));
                }
            }
            None => self.illegal(
                "1.10.1",
                format!("{} has no {what} to claim", self.s.players[v].name),
            ),
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
