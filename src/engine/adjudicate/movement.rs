//! The Move (Rules 1.5, 1.6): Line Velocity, Pass and Timeout, Standard
//! Moves along the written Move Portions, Speed Limits and Line Changes,
//! Token Collection (1.4.20) and Charge (1.19.2).

use super::*;

impl Turn<'_> {
    /// `[LV+<N>]` and `[LV-<N>]` (Rules 1.6.1, 1.6.3; the Hyde Mask allows
    /// five, Rule 1.7.38; a Speed Craze forbids slowing without a Craze
    /// Sidestep, Rule 1.8.13).
    pub(super) fn lv_change(&mut self, a: &Action, n: i64) -> Charge {
        let up = matches!(a, Action::LvPlus { .. });
        let sidestep = self
            .play
            .actions()
            .any(|x| matches!(x, Action::CrazeSidestep));
        if !up && self.s.has(&Disruption::SpeedCraze) && !sidestep {
            self.illegal(
                "1.8.13",
                "a Speed Craze is in effect: [LV-X] needs a [Craze Sidestep] this Turn",
            );
        }
        let most = if self.hyde() { 5 } else { 3 };
        if !(1..=most).contains(&n) {
            let (rule, x) = if most == 5 {
                ("1.7.38", "from 1 to 5 with the Hyde Mask")
            } else {
                ("1.6.3", "1, 2 or 3")
            };
            self.illegal(rule, format!("{}: X must be {x}", a.render()));
            return Charge::Free;
        }
        let lv = i64::from(self.s.players[self.me].lv);
        let new = if up { lv + n } else { lv - n };
        // LV below zero becomes zero (Rule 1.6.1).
        self.s.players[self.me].lv = new.clamp(0, i64::from(crate::gsd::parse::MAX_LV)) as u32;
        Charge::Table
    }

    /// `[Rebounding]` (Rule 1.5.6): the Move may bounce off a Block.
    pub(super) fn rebounding(&mut self) -> Charge {
        self.mv.rebounding = true;
        Charge::Table
    }

    /// `[Line Change]` (Rule 1.5.11): paid once; the Move pays nothing
    /// more; free with a Current All Day Rover Card (Rule 1.4.28).
    pub(super) fn line_change(&mut self) -> Charge {
        self.mv.line_change_paid = true;
        if self.s.players[self.me].has_rover(self.now().day) {
            Charge::Free
        } else {
            Charge::Table
        }
    }

    /// The Move of the Turn.
    pub(super) fn movement(&mut self, mv: &Move) {
        match mv {
            // Always Valid (Rule 1.5.0); advances Game Time one hour (Rule 1.3.5).
            Move::Timeout => self.clock.minutes += 60,
            Move::Pass(named) | Move::Farkle(named) => self.pass(mv, named.as_ref()),
            // Judged Piece by Piece in bifurcation.rs (Rule 1.7.42).
            Move::Bifurcated(a, b) => {
                self.bifurcated_moves(a, b);
                self.s.last_move = self.ladder_floor_of_two_moves();
                return;
            }
            Move::To {
                dest,
                via,
                escalator_to,
            } => {
                // Openings are judged when the Move starts; it then takes 10 minutes.
                let charge = self.s.players[self.me].charge;
                self.move_to(dest, via, escalator_to.as_ref());
                self.clock.minutes += 10;
                self.spiral_allows(charge);
                self.bounded_move(escalator_to.as_ref().unwrap_or(dest).place.station());
            }
        }
        self.record_last_move();
    }

    /// Pass or Farkle: the written position must be the Piece's (Rule
    /// 1.2.0); LV becomes zero (Rules 1.5.2, 1.5.12).
    fn pass(&mut self, mv: &Move, named: Option<&Target>) {
        let me = self.me;
        if let (Some(t), Some(at)) = (named, self.s.players[me].at) {
            let same_station = t.place == Place::Station(at.station);
            let same_line = t.line.is_none() || at.line.is_none() || t.line == at.line;
            if !same_station || !same_line {
                self.illegal(
                    "1.2.0",
                    format!(
                        "the Pass names {}, but the Piece is at {}",
                        crate::gsd::parse::target_text(t),
                        at.text(self.map)
                    ),
                );
            }
        }
        self.s.players[me].lv = 0;
        if matches!(mv, Move::Farkle(_)) {
            self.change("Farkle: the player may set Game Time in the GSD (Rule 1.5.12)");
        }
    }

    /// A Move to a station: to a Ghost Station, out of one, a Special Move,
    /// or a Standard Move along Move Portions.
    fn move_to(&mut self, dest: &Target, via: &[LineCode], escalator_to: Option<&Target>) {
        let me = self.me;
        let to = match dest.place {
            Place::Ghost(g) => return self.ghosting_move(g),
            Place::Station(id) => id,
        };
        if let Some(l) = dest.line {
            if !self.map.station(to).lines.contains(l) {
                let lines: Vec<&str> = self
                    .map
                    .station(to)
                    .lines
                    .iter()
                    .map(|l| l.code())
                    .collect();
                self.illegal(
                    "1.2.0",
                    format!(
                        "{} is not on the {l}; its lines are {}",
                        dest.station,
                        lines.join(", ")
                    ),
                );
                return;
            }
        }
        let escalator = escalator_to.and_then(|e| e.place.station());
        self.loop_special(to);
        let start = self.s.players[me].at;
        let special = start.is_none() || self.mv.special.is_some();
        if !special
            && self.s.players[me]
                .possessions
                .iter()
                .any(|p| luggage::size_of(p).0)
        {
            self.illegal(
                "1.4.31",
                "a player carrying a Huge Possession may make no Standard Move (only Pass, Timeout or a Special Move)",
            );
        }
        self.power_failure_voids(start.map(|a| a.station), to, escalator, special);
        if let Some(g) = self.s.players[me].ghost {
            return self.leave_ghost(g, dest, to);
        }
        match start {
            None => {
                // Entering the Map (RULINGS.md E1): any open, unblocked
                // station; the Home Station is checked at the end of the Turn.
                self.mv.entered = true;
                self.special_arrival(dest, to, None, escalator_to);
            }
            Some(at) if self.mv.special.is_some() => {
                self.may_start(at, true);
                self.special_move(at, dest, to);
                self.special_arrival(dest, to, Some(at.station), escalator_to);
            }
            Some(at) => self.standard_move(at, dest, to, via, escalator_to),
        }
    }

    /// A Power Failure voids every Move starting, ending or passing at a
    /// station of its line, Walking excepted (Rule 1.20.5); Special Moves
    /// too unless the game rules otherwise (RULINGS.md E41). Passing is
    /// checked by the route search.
    fn power_failure_voids(
        &mut self,
        start: Option<StationId>,
        to: StationId,
        escalator: Option<StationId>,
        special: bool,
    ) {
        let voided = self.mv.special != Some(Special::Walking)
            && (!special || self.s.rulings.power_failure_voids_special_moves);
        if !voided {
            return;
        }
        let ends = start
            .map(|s| (s, "start"))
            .into_iter()
            .chain(std::iter::once((to, "end")))
            .chain(escalator.map(|e| (e, "end")));
        for (id, place) in ends {
            if let Some(l) = self.power_failed(id) {
                self.illegal(
                    "1.20.5",
                    format!(
                        "the {l} has a Power Failure: no Move may {place} at {}, a station of that line (only Walking may)",
                        self.name(id)
                    ),
                );
            }
        }
    }

    /// A Special Move or an entry to the Map arriving at `to`: Open,
    /// unblocked, not Holy for the Hyde Mask; destination bonuses only
    /// (RULINGS.md E4); LV becomes zero (Rules 1.5.0, 1.6.2).
    fn special_arrival(
        &mut self,
        dest: &Target,
        to: StationId,
        from: Option<StationId>,
        escalator_to: Option<&Target>,
    ) {
        if !self.open(to, dest.line) {
            self.illegal(
                "1.13.4",
                format!("{} is Closed at {}", dest.station, self.now()),
            );
        }
        if self.blocked(to) {
            self.illegal("1.9.1", format!("{} is Blocked", dest.station));
        }
        if self.hyde_forbids(to) {
            self.illegal(
                "1.7.38",
                format!(
                    "{} is a Holy Station: a player wearing the Hyde Mask may not Move to it",
                    dest.station
                ),
            );
        }
        if from.is_some() {
            self.destination_bonuses(to);
        }
        self.arrive(to, dest.line, from, escalator_to);
        // A Special Move to Dollis Hill leaves LV as it was (Rule 1.8.1).
        if from.is_none() || !self.map.is(to, Landmark::DollisHill) {
            self.s.players[self.me].lv = 0;
        }
    }

    /// A Standard Move of exactly LV stations along the written Move
    /// Portions (Rules 1.5.1 - 1.5.11, 1.6.2).
    fn standard_move(
        &mut self,
        at: Position,
        dest: &Target,
        to: StationId,
        via: &[LineCode],
        escalator_to: Option<&Target>,
    ) {
        let me = self.me;
        if !self.may_start(at, false) {
            return;
        }
        // Bridges Up: no crossing the Thames (Rule 1.8.3).
        if self.bridges_forbid(at.station, to) {
            return;
        }
        let lv = self.s.players[me].lv;
        let written =
            (self.mv.written.clone()).unwrap_or_else(|| crate::gsd::render_move(&self.play.mv));
        let Some(candidates) = self.portions(at, dest, to, via, &written) else {
            return;
        };
        let may_change = self.may_change_line();
        let strict = explain::Relax::default();
        let (best, lengths) = self.route(&strict, may_change, at, &candidates, to, lv);
        let Some((portions, found)) = best else {
            self.explain_no_route(may_change, at, &candidates, to, lv, &written, &lengths);
            return;
        };
        let dest_line = *portions.last().expect("a Move has a portion");
        if !self.within_speed_limits(&portions, lv) {
            return;
        }
        if found.changes_line {
            self.mv.line_changes += 1;
        }
        if found.changes_line
            && !self.mv.line_change_paid
            && !self.s.players[me].has_rover(self.now().day)
        {
            if let Some(cost) = Self::table_cost(&Action::LineChange) {
                self.pay("the Line Change of this Move", "1.5.11", &cost);
            }
            self.mv.line_change_paid = true;
        }
        self.mv.through = found.through.clone();
        // Off the line at an escalator's far end, the Piece has no Line
        // Direction to run on in.
        if escalator_to.is_none() {
            self.mv.arrivals = found.arrivals.clone();
        }
        self.collect(&found, to, at.station);
        self.arrive(to, Some(dest_line), Some(at.station), escalator_to);
    }

    /// The Move Portions the written Move may mean, each a list of lines
    /// (Rule 1.2.0, RULINGS.md E2): the via lines and the destination's
    /// (a via list that repeats the destination's Line Code names the last
    /// portion once); with no Line Code at all, the line the Piece stands
    /// on, with no Line Change; off a line, each line of the destination.
    fn portions(
        &mut self,
        at: Position,
        dest: &Target,
        to: StationId,
        via: &[LineCode],
        written: &str,
    ) -> Option<Vec<Vec<LineCode>>> {
        let mut via = via.to_vec();
        if let (Some(l), Some(last)) = (dest.line, via.last()) {
            if *last == l {
                via.pop();
            }
        }
        let with = |l: LineCode| {
            let mut p = via.clone();
            p.push(l);
            p
        };
        if let Some(l) = dest.line {
            return Some(vec![with(l)]);
        }
        let lines = self.map.station(to).lines;
        if let Some(last) = via.last() {
            // The via list may name every portion, the last one serving
            // the destination ("Goodge Street (via: CN,NT)").
            let mut all: Vec<Vec<LineCode>> = Vec::new();
            if lines.contains(*last) {
                all.push(via.clone());
            }
            all.extend(lines.iter().map(with));
            return Some(all);
        }
        match at.line {
            Some(l) if lines.contains(l) => Some(vec![vec![l]]),
            Some(l) if !self.s.rulings.bare_move_any_line => {
                let codes: Vec<&str> = lines.iter().map(|x| x.code()).collect();
                self.illegal(
                    "1.2.0",
                    format!(
                        "{written} names no Line Code, which means the Piece stays on the {l}, and {} is not on it: a Move that changes line writes its Line Codes, e.g. {} ({}{})",
                        dest.station,
                        dest.station,
                        codes.first().copied().unwrap_or(""),
                        if self.map.station(at.station).lines.contains(l) { format!(" via: {l}") } else { String::new() }
                    ),
                );
                None
            }
            _ => Some(lines.iter().map(|l| vec![l]).collect()),
        }
    }

    /// Whether a line change is allowed at all: not while Gapminding,
    /// unless the player carries a Book (Rule 1.8.7).
    fn may_change_line(&self) -> bool {
        !self.s.has(&Disruption::Gapminding)
            || self.s.players[self.me].carries(crate::gsd::Good::Book)
    }

    /// Speed Limits (Rule 1.20.4): no portion on a line whose Limit is
    /// below the LV (twice the Limit with a Charge beyond 100%).
    fn within_speed_limits(&mut self, portions: &[LineCode], lv: u32) -> bool {
        let charge = self.s.players[self.me].charge;
        for l in portions {
            let limit = self.speed_limit(*l);
            let allowed = if charge.unsigned_abs() > 100 {
                limit.saturating_mul(2)
            } else {
                limit
            };
            if lv > allowed {
                self.illegal(
                    "1.20.4",
                    format!("the {l} has a Speed Limit of {limit}: LV {lv} may not move along it"),
                );
                return false;
            }
        }
        true
    }

    /// Moves the Piece; applies Charge (Rule 1.19.2) and the escalator end
    /// (Rule 1.5.3).
    pub(super) fn arrive(
        &mut self,
        dest: StationId,
        line: Option<LineCode>,
        from: Option<StationId>,
        escalator_to: Option<&Target>,
    ) {
        let me = self.me;
        let mut final_station = dest;
        let mut final_line = line;
        if let Some(other) = escalator_to {
            match other.place.station() {
                Some(o) if self.map.escalator_partner(dest) == Some(o) => {
                    if !self.open(o, None) || self.blocked(o) {
                        self.illegal(
                            "1.5.3",
                            format!(
                                "the Escalator Link to {} cannot be used: {} is Closed or Blocked",
                                other.station, other.station
                            ),
                        );
                    }
                    final_station = o;
                    final_line = None;
                }
                _ => self.illegal(
                    "1.5.3",
                    format!(
                        "{} has no Escalator Link to {}",
                        self.name(dest),
                        other.station
                    ),
                ),
            }
        }
        if let Some(from) = from {
            let delta = self.map.station(final_station).current as i32
                - self.map.station(from).current as i32;
            let p = &mut self.s.players[me];
            p.charge = p.charge.saturating_add(delta).clamp(-999, 999);
        }
        let pos = Position {
            station: final_station,
            line: final_line,
        };
        self.s.players[me].at = Some(pos);
        self.change(format!(
            "{} moves to {}",
            self.my_name(),
            pos.text(self.map)
        ));
    }

    /// Token Collection (Rule 1.4.20) for a Standard Move.
    fn collect(&mut self, found: &crate::engine::route::Found, dest: StationId, from: StationId) {
        let me = self.me;
        let st = self.map.station(dest);
        let mut bonus: Vec<(Colour, String)> = Vec::new();
        bonus.extend(self.interchange_bonus(dest));
        // Several routes may fit the written lines: the best count stands
        // (RULINGS.md E3).
        let passed = found.interchanges.iter().copied().max().unwrap_or(0);
        let c = match passed {
            2 => Some(Colour::Red),
            3 => Some(Colour::Black),
            4 => Some(Colour::Blue),
            p if p >= 5 => Some(Colour::Silver),
            _ => None,
        };
        if let Some(c) = c {
            bonus.push((c, format!("passing through {passed} Interchanges")));
        }
        if !found.changes_line {
            bonus.push((Colour::Black, "a Move with no change of Line".into()));
        }
        // A Zone Pass for the zone the Move stayed in.
        let zone_pass = self.s.players[me].possessions.iter().any(|p| {
            !p.nantucket
                && zone_pass_zones(&p.item).is_some_and(|(lo, hi)| {
                    (lo..=hi)
                        .any(|z| self.map.station(from).zones.contains(&z) && st.zones.contains(&z))
                })
        });
        if zone_pass {
            bonus.push((
                Colour::Bronze,
                "a Move within a Zone for which a Zone Pass is carried".into(),
            ));
        }
        bonus.extend(self.hat_bonus(dest));
        self.award(bonus);
    }

    /// The destination bonuses of a Special Move (Rule 1.4.20, RULINGS.md E4).
    fn destination_bonuses(&mut self, dest: StationId) {
        let mut bonus: Vec<(Colour, String)> = Vec::new();
        bonus.extend(self.interchange_bonus(dest));
        bonus.extend(self.hat_bonus(dest));
        self.award(bonus);
    }

    fn interchange_bonus(&self, dest: StationId) -> Option<(Colour, String)> {
        let st = self.map.station(dest);
        if st.kind != StationKind::Interchange {
            return None;
        }
        let n = st.lines.len();
        let c = match n {
            2 => Colour::Red,
            3 => Colour::Black,
            4 => Colour::Blue,
            n if n >= 5 => Colour::Silver,
            _ => return None,
        };
        Some((c, format!("moving to an Interchange of {n} lines")))
    }

    /// A Worn Hat matching the destination's type (Rule 1.4.20).
    fn hat_bonus(&self, dest: StationId) -> Option<(Colour, String)> {
        let st = self.map.station(dest);
        let hat_match = self.s.players[self.me].possessions.iter().any(|p| {
            p.worn
                && matches!(&p.item, Item::Hats(hs) if hs.iter().any(|h| match h {
                    Hat::AToZ => st.categories.contains(Category::AToZ),
                    Hat::BritishRail => st.categories.contains(Category::BritishRail),
                    Hat::Compass => st.categories.contains(Category::Compass),
                    Hat::Terminus => st.categories.contains(Category::Terminus),
                    Hat::Verdant => st.categories.contains(Category::Verdant),
                    _ => false,
                }))
        });
        hat_match.then(|| {
            (
                Colour::Blue,
                "moving to a Station matching the Worn Hat".to_string(),
            )
        })
    }

    fn award(&mut self, bonus: Vec<(Colour, String)>) {
        for (c, why) in bonus {
            self.gain(&[(1, c)]);
            self.change(format!("+1 {} for {why} (Rule 1.4.20)", c.name()));
        }
    }
}

/// The zones a Zone Pass covers (Rule 1.4.18): "Zone 2 Pass" (2, 2),
/// "Zones 1-6 Pass" (1, 6).
fn zone_pass_zones(item: &Item) -> Option<(u8, u8)> {
    use crate::gsd::Good;
    match item {
        Item::ZonePass(z) => Some((*z, *z)),
        Item::Good {
            good: Good::Zone1Pass,
            ..
        } => Some((1, 1)),
        Item::Good {
            good: Good::Zones13Pass,
            ..
        } => Some((1, 3)),
        Item::Good {
            good: Good::Zones16Pass,
            ..
        } => Some((1, 6)),
        _ => None,
    }
}
