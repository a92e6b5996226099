//! Line States (Rule 1.20): Normal (1.20.1), One Way (1.20.2), Electrified
//! (1.20.3), Speed Limits (1.20.4), Power Failures (1.20.5), Soaping
//! (1.20.6); and Electrical Possessions on Electrified lines (1.4.33).

use super::*;

impl Turn<'_> {
    /// Whether the Piece stands at a station of `line` (before or after its
    /// Move), as every Line State Action needs (Rule 1.20.0).
    fn on_line(&mut self, a: &Action, line: LineCode, when: When) -> bool {
        let at = self.at(when);
        let on = at.is_some_and(|s| self.map.station(s).lines.contains(line))
            || at.is_some_and(|s| self.magnified_line(a, line, s));
        if !on {
            // The requirement is Rule 1.20.0's words, whichever State is set.
            self.illegal(
                "1.20.0",
                format!("the Piece must be at a station of the {line}"),
            );
        }
        on
    }

    /// `[<Line>: Normal]`, `[<Line>: One Way: <Direction>]`,
    /// `[<Line>: Electrified]` (Rules 1.20.1 - 1.20.3): a new State replaces
    /// the line's others, but not its Speed Limit.
    pub(super) fn line_state(&mut self, a: &Action, line: LineCode, when: When) -> Charge {
        if !self.on_line(a, line, when) {
            return Charge::Table;
        }
        let state = match a {
            Action::LineOneWay { direction, .. } => {
                let named = &self.map.line(line).direction;
                let reverse = match named.as_str() {
                    "N-S" => "S-N",
                    "E-W" => "W-E",
                    _ => "Anti-Clockwise",
                };
                if direction != named && direction != reverse {
                    self.illegal(
                        "1.20.2",
                        format!("the {line} runs {named} or {reverse}, not {direction}"),
                    );
                    return Charge::Free;
                }
                Some(LineState::OneWay(direction.clone()))
            }
            Action::LineElectrified { .. } => Some(LineState::Electrified),
            _ => None,
        };
        self.clear_states(line);
        match state {
            Some(st) => {
                self.change(format!("the {line} is {st:?} (Rule {})", a.spec().rule));
                self.s
                    .disruptions
                    .push(Disruption::Line { line, state: st });
            }
            None => self.change(format!("the {line} is back to Normal (Rule 1.20.1)")),
        }
        Charge::Table
    }

    /// Removes a line's States other than its Speed Limit (Rule 1.20.1).
    fn clear_states(&mut self, line: LineCode) {
        self.s.disruptions.retain(|d| {
            !matches!(d, Disruption::Line { line: x, state } if *x == line && !matches!(state, LineState::SpeedLimit(_)))
        });
    }

    /// `[<Line>: Power Failure!]` and `[<Line>: Soaped]` (Rules 1.20.5,
    /// 1.20.6): on the Line Code of the player's most recent Move, with the
    /// Piece on that line; the State replaces the line's others (not its
    /// Speed Limit) and lasts one Round.
    pub(super) fn one_round_state(&mut self, a: &Action, line: LineCode, when: When) -> Charge {
        let rule = a.spec().rule;
        if !self.on_line(a, line, when) {
            return Charge::Table;
        }
        // The Piece's recorded line is the Line Code of its most recent
        // Move: this Turn's after the Move, the last one's before it.
        let last = self.s.players[self.me].at.and_then(|p| p.line);
        if last != Some(line) {
            let had = last.map_or("no Line Code".to_string(), |l| format!("the {l}"));
            self.illegal(
                rule,
                format!(
                    "{} names the Line Code of the player's most recent Move, which was {had}",
                    a.render()
                ),
            );
            return Charge::Table;
        }
        let (state, what) = match a {
            Action::LinePowerFailure { .. } => (LineState::PowerFailure, "has a Power Failure"),
            _ => (LineState::Soaped, "is Soaped"),
        };
        self.clear_states(line);
        let d = Disruption::Line { line, state };
        self.s.disruptions.push(d.clone());
        self.s.timed.push(crate::engine::Timed {
            disruption: d,
            by: self.my_name(),
        });
        self.tally.timed += 1;
        self.change(format!("the {line} {what} for one Round (Rule {rule})"));
        Charge::Table
    }

    /// `[<Line>: Speed Limit: <N>]` (Rule 1.20.4): the difference between
    /// the old and new Limits, in the table's colour.
    pub(super) fn speed_limit_action(
        &mut self,
        a: &Action,
        line: LineCode,
        n: i64,
        when: When,
    ) -> Charge {
        let rule = a.spec().rule;
        if !self.on_line(a, line, when) {
            return Charge::Free;
        }
        if n < 0 {
            self.illegal(rule, "a Speed Limit is not negative");
            return Charge::Free;
        }
        if n > i64::from(crate::gsd::parse::MAX_LV) {
            self.illegal(rule, "a Speed Limit is at most 999");
            return Charge::Free;
        }
        let old = self.speed_limit(line);
        let diff = (i64::from(old) - n).unsigned_abs() as u32;
        // The table's "varies": the difference, in Blue (RULINGS.md E15).
        let cost = self.with_bocks(a, vec![(diff, Colour::Blue)]);
        self.pay(&a.render(), rule, &cost);
        self.s.disruptions.retain(|d| {
            !matches!(d, Disruption::Line { line: x, state: LineState::SpeedLimit(_) } if *x == line)
        });
        self.s.disruptions.push(Disruption::Line {
            line,
            state: LineState::SpeedLimit(n as u32),
        });
        self.change(format!("the {line} has a Speed Limit of {n} (Rule 1.20.4)"));
        Charge::Paid
    }

    /// A line with a Power Failure that serves `id` (Rule 1.20.5).
    pub(super) fn power_failed(&self, id: StationId) -> Option<LineCode> {
        let st = self.map.station(id);
        self.s.disruptions.iter().find_map(|d| match d {
            Disruption::Line {
                line,
                state: LineState::PowerFailure,
            } if st.lines.contains(*line) => Some(*line),
            _ => None,
        })
    }

    /// Whether a line is Soaped (Rule 1.20.6).
    pub(super) fn soaped(&self, line: LineCode) -> bool {
        self.s.has(&Disruption::Line {
            line,
            state: LineState::Soaped,
        })
    }

    /// A line's Speed Limit (Rule 1.20.4; initially 10).
    pub(super) fn speed_limit(&self, line: LineCode) -> u32 {
        self.s
            .disruptions
            .iter()
            .find_map(|d| match d {
                Disruption::Line {
                    line: l,
                    state: LineState::SpeedLimit(n),
                } if *l == line => Some(*n),
                _ => None,
            })
            .unwrap_or(10)
    }

    /// Whether a step from `a` to `b` keeps to every One Way State: a
    /// segment of a One Way line, or the same pair of stations on another
    /// line (which touches it), only in the prescribed direction (Rule
    /// 1.20.2, RULINGS.md E14).
    pub(super) fn one_way_allows(&self, a: StationId, b: StationId) -> bool {
        self.s.disruptions.iter().all(|d| match d {
            Disruption::Line {
                line,
                state: LineState::OneWay(dir),
            } => {
                if !self.map.neighbours(a, *line).contains(&b) {
                    return true;
                }
                let prescribed = if *dir == self.map.line(*line).direction {
                    crate::map::Direction::Forward
                } else {
                    crate::map::Direction::Backward
                };
                self.map
                    .steps(a, *line)
                    .iter()
                    .any(|s| s.to == b && s.leave == prescribed)
            }
            _ => true,
        })
    }

    /// Whether one of player `i`'s Pieces is on a line in an Electrified
    /// State ("Players whose Pieces are on the said Line", Rule 1.4.33).
    pub(super) fn on_electrified(&self, i: usize) -> bool {
        let p = &self.s.players[i];
        [p.at, p.piece_b].into_iter().flatten().any(|pos| {
            pos.line.is_some_and(|l| {
                self.s.disruptions.contains(&Disruption::Line {
                    line: l,
                    state: LineState::Electrified,
                })
            })
        })
    }

    /// "If a Line is in an Electrified State, all Electrical Possessions
    /// carried by Players whose Pieces are on the said Line, are Off" (Rule
    /// 1.4.33): a standing condition, so it holds as the Turn begins, after
    /// the Move and after every Action, not only as the Turn ends
    /// (RULINGS.md E49): a Remote Control On when its Controller Electrifies
    /// the line e stands on is Off for the rest of the Turn.
    pub(super) fn electrified_off(&mut self) {
        for i in 0..self.s.players.len() {
            if !self.on_electrified(i) {
                continue;
            }
            let mut off = Vec::new();
            for p in &mut self.s.players[i].possessions {
                if let Item::Good { on, .. } = &mut p.item {
                    if *on {
                        *on = false;
                        let name = p.good().spec().name;
                        off.push(match p.item.number() {
                            Some(n) => format!("{name} {n}"),
                            None => name.to_string(),
                        });
                    }
                }
            }
            for what in off {
                let who = &self.s.players[i].name;
                self.change(format!(
                    "{who}'s {what} is Off: a Piece of eirs is on an Electrified line (Rule 1.4.33)"
                ));
            }
        }
    }
}
