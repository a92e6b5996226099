//! Pegged Stations (Rule 1.11.4) and Pegged Line Segments (1.11.5), and
//! Wild Stations (1.11.1).

use super::*;

impl Turn<'_> {
    /// `[Pegging <Station>]` (Rule 1.11.4): after the Move, a station the
    /// Piece started at, passed through, or is adjacent to, with no Piece.
    pub(super) fn peg(&mut self, a: &Action, target: &Target, when: When) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if when == When::Before {
            self.illegal(
                "1.11.4",
                format!("{} is played after the Move (Rule 1.11.4)", a.render()),
            );
            return Charge::Free;
        }
        let touched = self.mv.started_at == Some(id)
            || self.mv.through.contains(&id)
            || self.here().is_some_and(|h| self.adjacent(h, id));
        if !touched {
            self.illegal(
                "1.11.4",
                format!(
                    "{} is not a station the Piece started at, passed through, or is adjacent to",
                    target.station
                ),
            );
        } else if self.s.players.iter().any(|p| p.station() == Some(id)) {
            self.illegal(
                "1.11.4",
                format!("{} holds a Piece and cannot be Pegged", target.station),
            );
        } else {
            self.mark(id, StationMark::Peg, "Pegged", "1.11.4");
        }
        Charge::Table
    }

    /// `[Unpegging <Station>]` (Rule 1.11.4): a Pegged station passed
    /// through or adjacent; the Line Segments it ends are Unpegged too
    /// (Rule 1.11.5).
    pub(super) fn unpeg(&mut self, a: &Action, target: &Target, when: When) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let name = &target.station;
        if when == When::Before {
            self.illegal(
                "1.11.4",
                format!("{} is played after the Move (Rule 1.11.4)", a.render()),
            );
            return Charge::Free;
        }
        let touched =
            self.mv.through.contains(&id) || self.here().is_some_and(|h| self.adjacent(h, id));
        let at = self.s.disruptions.iter().position(
            |d| matches!(d, Disruption::Station { at, mark: StationMark::Peg } if *at == id),
        );
        match (touched, at) {
            (false, _) => self.illegal(
                "1.11.4",
                format!("{name} is not a station the Piece passed through or is adjacent to"),
            ),
            (true, None) => self.illegal("1.11.4", format!("{name} is not Pegged")),
            (true, Some(i)) => {
                self.s.disruptions.remove(i);
                self.change(format!("{name} is Unpegged (Rule 1.11.4)"));
                let before = self.s.disruptions.len();
                self.s.disruptions.retain(|d| {
                    !matches!(d, Disruption::PeggedSegment { from, to, .. } if *from == id || *to == id)
                });
                if self.s.disruptions.len() != before {
                    self.change(format!(
                        "the Line Segments ending at {name} are Unpegged (Rule 1.11.5)"
                    ));
                }
            }
        }
        Charge::Table
    }

    /// `[Pegging from <Station> to <Station> <Line>]` (Rule 1.11.5): right
    /// after Pegging one end, between two Pegged Stations of the Line along
    /// it without a change of direction, no Piece on it and no overlap with
    /// another Pegged Segment; the table's Cost per unpegged Station in it.
    pub(super) fn peg_segment(
        &mut self,
        a: &Action,
        from: &Target,
        to: &Target,
        line: LineCode,
    ) -> Charge {
        let (Some(x), Some(y)) = (self.station_of(from, a), self.station_of(to, a)) else {
            return Charge::Free;
        };
        if !self.follows_its_peg(a, x, y) {
            return Charge::Free;
        }
        let mut why = Vec::new();
        for (id, name) in [(x, &from.station), (y, &to.station)] {
            if !self.pegged(id) {
                why.push(format!("{name} is not Pegged"));
            }
            if !self.map.station(id).lines.contains(line) {
                why.push(format!("{name} is not on the {line}"));
            }
        }
        if x == y {
            why.push("a Line Segment joins two different Stations".into());
        }
        if !why.is_empty() {
            self.illegal("1.11.5", why.join("; "));
            return Charge::Free;
        }
        let stations = segment_stations(self.map, line, x, y);
        if !self.straight_along(line, x, y, &stations) {
            self.illegal(
                "1.11.5",
                format!(
                    "{} and {} are not joined along the {line} without a change of direction",
                    from.station, to.station
                ),
            );
            return Charge::Free;
        }
        if let Some(p) = self
            .s
            .players
            .iter()
            .find(|p| p.station().is_some_and(|s| stations.contains(&s)))
        {
            self.illegal(
                "1.11.5",
                format!("{}'s Piece rests on the Line Segment", p.name),
            );
            return Charge::Free;
        }
        if self.overlaps_pegged(line, &stations) {
            self.illegal(
                "1.11.5",
                "the Line Segment overlaps another Pegged Line Segment",
            );
            return Charge::Free;
        }
        let unpegged = stations.iter().filter(|s| !self.pegged(**s)).count() as u32;
        if let (Some(c), true) = (Self::unit_colour(a), unpegged > 0) {
            let cost = self.with_bocks(a, vec![(unpegged, c)]);
            self.pay(&a.render(), "1.11.5", &cost);
        }
        self.s.disruptions.push(Disruption::PeggedSegment {
            from: x,
            to: y,
            line,
        });
        self.change(format!(
            "{} to {} ({line}) is Pegged: {} Stations (Rule 1.11.5)",
            from.station,
            to.station,
            stations.len()
        ));
        Charge::Paid
    }

    /// A Segment is Pegged right after Pegging one of its ends (Rule 1.11.5).
    fn follows_its_peg(&mut self, a: &Action, x: StationId, y: StationId) -> bool {
        let prev = self
            .play
            .actions_after()
            .take_while(|p| !std::ptr::eq(*p, a))
            .last();
        let follows = matches!(prev, Some(Action::Pegging { station })
            if station.place == Place::Station(x) || station.place == Place::Station(y));
        if !follows {
            self.illegal(
                "1.11.5",
                format!(
                    "{} must immediately follow the [Pegging] of {} or {} in the same Turn",
                    a.render(),
                    self.name(x),
                    self.name(y)
                ),
            );
        }
        follows
    }

    /// Whether `stations` run from `x` to `y` along `line` with no change
    /// of direction.
    fn straight_along(
        &self,
        line: LineCode,
        x: StationId,
        y: StationId,
        stations: &[StationId],
    ) -> bool {
        let len = stations.len().saturating_sub(1) as u32;
        let yes = |_: StationId| true;
        let open = |_: StationId, _: Option<LineCode>| true;
        let seg = |_: LineCode, _: StationId, _: StationId| true;
        let near = |_: StationId, _: LineCode| false;
        let rules = Rules {
            enterable: &yes,
            passable: &yes,
            open: &open,
            segment_open: &seg,
            may_change: false,
            rebounding: false,
            next_to_block: &near,
            no_turn_back: true,
            loops_both_ways: false,
        };
        !stations.is_empty()
            && search(self.map, &rules, x, Some(line), &[line], y, len, len)
                .lengths
                .contains(&len)
    }

    /// Whether a Segment on `line` shares two stations with a Pegged one.
    fn overlaps_pegged(&self, line: LineCode, stations: &[StationId]) -> bool {
        self.s.disruptions.iter().any(|d| match d {
            Disruption::PeggedSegment { from, to, line: l } if *l == line => {
                segment_stations(self.map, line, *from, *to)
                    .iter()
                    .filter(|s| stations.contains(s))
                    .count()
                    >= 2
            }
            _ => false,
        })
    }

    /// Pegged, or inside a Pegged Line Segment (Rules 1.11.4, 1.11.5).
    pub(super) fn pegged(&self, id: StationId) -> bool {
        if self.s.has_mark(id, StationMark::Peg) {
            return true;
        }
        self.s.disruptions.iter().any(|d| match d {
            Disruption::PeggedSegment { from, to, line } => {
                segment_stations(self.map, *line, *from, *to).contains(&id)
            }
            _ => false,
        })
    }

    /// `[<Station> Wild]` (Rule 1.11.1): not within three stations of
    /// Mornington Crescent; at most three Wild Stations, the oldest going.
    pub(super) fn station_wild(&mut self, a: &Action, target: &Target) -> Charge {
        let Some(id) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let mc = self.map.landmark(Landmark::MorningtonCrescent);
        if self.map.route_distance(id, mc).is_some_and(|d| d <= 3) {
            self.illegal(
                "1.11.1",
                format!(
                    "{} is within three stations of Mornington Crescent and cannot be Wild",
                    target.station
                ),
            );
            return Charge::Free;
        }
        self.s.wild.push(id);
        if self.s.wild.len() > 3 {
            let gone = self.s.wild.remove(0);
            self.change(format!("{} is no longer Wild", self.name(gone)));
        }
        self.change(format!("{} is Wild (Rule 1.11.1)", target.station));
        Charge::Table
    }
}

/// The stations of `line` between `a` and `b` inclusive (shortest).
fn segment_stations(map: &Map, line: LineCode, a: StationId, b: StationId) -> Vec<StationId> {
    let mut prev: std::collections::HashMap<StationId, StationId> =
        std::collections::HashMap::new();
    let mut q = std::collections::VecDeque::from([a]);
    prev.insert(a, a);
    while let Some(s) = q.pop_front() {
        if s == b {
            let mut path = vec![b];
            let mut cur = b;
            while cur != a {
                cur = prev[&cur];
                path.push(cur);
            }
            return path;
        }
        for &n in map.neighbours(s, line) {
            if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(n) {
                e.insert(s);
                q.push_back(n);
            }
        }
    }
    vec![]
}
