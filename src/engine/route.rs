//! The Move search (Rules 1.5.x, 1.6.2): does a route of exactly LV stations
//! exist along the written Move Portions?
//!
//! A layered search over (station, portion, Line Direction, interchanges
//! passed through), one layer per station travelled: polynomial in the size
//! of the map and the LV, never an enumeration of paths.

use crate::map::{Direction, LineCode, Map, StationId};

/// What the search may and may not do at each station and segment; the
/// adjudicator fills it from the game state.
pub struct Rules<'a> {
    /// A Piece may enter the station at all (not Blocked, Rule 1.9.1).
    pub enterable: &'a dyn Fn(StationId) -> bool,
    /// A Piece may pass through it (not Maelberged 1.9.5, no Kafka Sinkhole
    /// 1.9.6, no Stack under Sgronk 1.8.10).
    pub passable: &'a dyn Fn(StationId) -> bool,
    /// A Piece may start, end or change line there (not Closed, 1.13.4).
    pub open: &'a dyn Fn(StationId, Option<LineCode>) -> bool,
    /// The segment may be traversed (1.13.6).
    pub segment_open: &'a dyn Fn(LineCode, StationId, StationId) -> bool,
    /// Line changes are allowed at all (not Gapminding without a Book, 1.8.7).
    pub may_change: bool,
    /// The Player performed `[Rebounding]` (1.5.6).
    pub rebounding: bool,
    /// A station is adjacent to a Blocked station on `line` (for Rebounding).
    pub next_to_block: &'a dyn Fn(StationId, LineCode) -> bool,
    /// Forbid changing Line Direction when changing line at a Co-Located
    /// station (Rule 1.5.4); off only to diagnose a failed Move.
    pub no_turn_back: bool,
    /// Run one-way turning loops both ways (Rule 1.5.7); on only to
    /// diagnose a failed Move.
    pub loops_both_ways: bool,
}

/// The result of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Route lengths (in stations) that reach the destination, ascending.
    pub lengths: Vec<u32>,
    /// For the requested length: the numbers of Interchanges passed through
    /// that some valid route achieves (capped at 5).
    pub interchanges: Vec<u8>,
    /// For the requested length: some valid route changes line.
    pub changes_line: bool,
    /// For the requested length: the stations some valid route passes
    /// through (not its start or end, unless a route revisits them).
    pub through: Vec<StationId>,
    /// For the requested length: the Line Directions in which some valid
    /// route arrives at the destination (the direction of the Move's last
    /// Segment, for a Running Straddle, Rule 1.7.6).
    pub arrivals: Vec<Direction>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct State {
    station: StationId,
    portion: u8,
    /// 0 = not yet moving in this portion, 1 = Forward, 2 = Backward.
    dir: u8,
    passed: u8,
}

fn dir_code(d: Direction) -> u8 {
    match d {
        Direction::Forward => 1,
        Direction::Backward => 2,
    }
}

/// Whether leaving `here` for `next` on `next_line` heads back the way the
/// Piece came along `line` (moving in direction code `dir`): the angle
/// between the arrival and departure headings, on the map's coordinates,
/// is more than a right angle.
fn turns_back(
    map: &Map,
    here: StationId,
    line: LineCode,
    dir: u8,
    next_line: LineCode,
    next: StationId,
) -> bool {
    // The stations the Piece may have come from: one step back along `line`.
    let back = if dir == 1 {
        Direction::Backward
    } else {
        Direction::Forward
    };
    let prevs: Vec<StationId> = map
        .steps(here, line)
        .iter()
        .filter(|st| st.leave == back)
        .map(|st| st.to)
        .collect();
    if prevs.is_empty() {
        return false;
    }
    let (hy, hx) = map.coordinates(here, Some(line));
    let (py, px) = prevs
        .iter()
        .map(|p| map.coordinates(*p, Some(line)))
        .fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    let n = prevs.len() as f64;
    let arrive = (hx - px / n, hy - py / n);
    let (ny, nx) = map.coordinates(next, Some(next_line));
    let leave = (nx - hx, ny - hy);
    arrive.0 * leave.0 + arrive.1 * leave.1 < 0.0
}

/// Searches routes from `start` (on `start_line`, if known) to `dest` along
/// `portions`, up to `max_len` stations; reports which lengths arrive and,
/// for `want_len`, what the routes of that length pass through.
#[allow(clippy::too_many_arguments)]
pub fn search(
    map: &Map,
    rules: &Rules<'_>,
    start: StationId,
    start_line: Option<LineCode>,
    portions: &[LineCode],
    dest: StationId,
    want_len: u32,
    max_len: u32,
) -> Found {
    let k = portions.len();
    let mut found = Found::default();
    if k == 0 || !(rules.open)(start, start_line.or(Some(portions[0]))) {
        return found;
    }
    let Some((first_change, start_link)) = entry(map, rules, start, start_line, portions[0]) else {
        return found;
    };
    let n = map.stations().len();
    let idx = |s: &State| {
        ((s.station.index() * k + s.portion as usize) * 3 + s.dir as usize) * 6 + s.passed as usize
    };
    let size = n * k * 3 * 6;
    let step = Stepper {
        map,
        rules,
        portions,
        start,
        start_link,
    };
    let arrives = |s: &State| {
        s.station == dest
            && s.portion as usize == k - 1
            && s.dir != 0
            && (rules.open)(dest, Some(portions[k - 1]))
    };
    // Every layer is kept: the stations passed through are read back from
    // the states that lead to an arrival (see below).
    let mut layers: Vec<Vec<State>> = vec![vec![State {
        station: start,
        portion: 0,
        dir: 0,
        passed: 0,
    }]];
    // A route with more than one portion, or starting off its first line,
    // changes line.
    let changes = first_change || k > 1;
    // One table for every layer, its marks undone after each (a fresh
    // table a layer was most of a typical play's time: zeroing memory).
    let mut seen = vec![false; size];
    let mut out = Vec::new();
    for len in 1..=max_len {
        let mut next: Vec<State> = Vec::new();
        for s in &layers[len as usize - 1] {
            out.clear();
            step.successors(s, len, &mut out);
            for t in out.drain(..) {
                let i = idx(&t);
                if !seen[i] {
                    seen[i] = true;
                    next.push(t);
                }
            }
        }
        if record_arrivals(
            &mut found,
            next.iter().filter(|s| arrives(s)),
            len,
            want_len,
        ) {
            found.lengths.push(len);
            if len == want_len {
                found.changes_line = changes;
            }
        }
        for t in &next {
            seen[idx(t)] = false;
        }
        let empty = next.is_empty();
        layers.push(next);
        if empty {
            break;
        }
    }
    found.interchanges.sort_unstable();
    if found.lengths.contains(&want_len) {
        found.through = through(&step, &layers, want_len, &arrives, idx, size);
    }
    found
}

/// How a route may begin at `start` on `first`, the first portion's line:
/// whether it changes line there, and whether it crosses the start's
/// escalator link first (Rules 1.5.3, 1.5.4, 1.5.11); None when it cannot.
fn entry(
    map: &Map,
    rules: &Rules<'_>,
    start: StationId,
    start_line: Option<LineCode>,
    first: LineCode,
) -> Option<(bool, bool)> {
    let link_to_first = map
        .escalator_partner(start)
        .is_some_and(|p| map.station(p).lines.contains(first));
    match start_line {
        // Entering the first portion from another line is a change of line
        // at the start station, or across its escalator link.
        Some(l) if l != first => {
            if rules.may_change && map.can_change_line(start, l, first) {
                Some((true, false))
            } else if rules.may_change && link_to_first {
                Some((true, true))
            } else {
                None
            }
        }
        _ if !map.station(start).lines.contains(first) => {
            link_to_first.then_some((start_line.is_some(), true))
        }
        _ => Some((false, false)),
    }
}

/// Notes the arrivals of one layer; whether there were any.
fn record_arrivals<'s>(
    found: &mut Found,
    arrivals: impl Iterator<Item = &'s State>,
    len: u32,
    want_len: u32,
) -> bool {
    let mut arrived = false;
    for s in arrivals {
        arrived = true;
        if len != want_len {
            continue;
        }
        if !found.interchanges.contains(&s.passed) {
            found.interchanges.push(s.passed);
        }
        let d = if s.dir == 1 {
            Direction::Forward
        } else {
            Direction::Backward
        };
        if !found.arrivals.contains(&d) {
            found.arrivals.push(d);
        }
    }
    arrived
}

/// The stations some valid route of `want_len` stations passes through:
/// walking the layers back from the arrivals, a state is on a valid route
/// when one of its successors is.
fn through(
    step: &Stepper<'_>,
    layers: &[Vec<State>],
    want_len: u32,
    arrives: &dyn Fn(&State) -> bool,
    idx: impl Fn(&State) -> usize,
    size: usize,
) -> Vec<StationId> {
    // Two tables, the marks of the layer after (`good`) and of this one
    // (`now`), each cleared by the indices it set.
    let mut good = vec![false; size];
    let mut now = vec![false; size];
    let mut good_set: Vec<usize> = Vec::new();
    let mut now_set: Vec<usize> = Vec::new();
    for s in layers[want_len as usize].iter().filter(|s| arrives(s)) {
        good[idx(s)] = true;
        good_set.push(idx(s));
    }
    let mut stations: Vec<StationId> = Vec::new();
    let mut out = Vec::new();
    for len in (1..want_len).rev() {
        for s in &layers[len as usize] {
            out.clear();
            step.successors(s, len + 1, &mut out);
            if out.iter().any(|t| good[idx(t)]) {
                now[idx(s)] = true;
                now_set.push(idx(s));
                if !stations.contains(&s.station) {
                    stations.push(s.station);
                }
            }
        }
        for i in good_set.drain(..) {
            good[i] = false;
        }
        std::mem::swap(&mut good, &mut now);
        std::mem::swap(&mut good_set, &mut now_set);
    }
    stations.sort();
    stations
}

/// The moves of the search from one state to the next.
struct Stepper<'a> {
    map: &'a Map,
    rules: &'a Rules<'a>,
    portions: &'a [LineCode],
    start: StationId,
    /// The first portion's line is reached across the start's escalator link.
    start_link: bool,
}

impl Stepper<'_> {
    /// The states one station on from `s`, `len` being the new length.
    fn successors(&self, s: &State, len: u32, out: &mut Vec<State>) {
        let (map, rules, portions, start) = (self.map, self.rules, self.portions, self.start);
        let k = portions.len();
        let interchange =
            |s: StationId| map.station(s).kind == crate::map::StationKind::Interchange;
        let here = s.station;
        let line = portions[s.portion as usize];
        if self.start_link && len == 1 && here == start && s.dir == 0 && s.portion == 0 {
            if let Some(partner) = map.escalator_partner(here) {
                if (rules.enterable)(partner) && (rules.open)(partner, Some(line)) {
                    out.push(State {
                        station: partner,
                        portion: 0,
                        dir: 0,
                        passed: s.passed,
                    });
                }
            }
            return;
        }
        let leaving_through = s.dir != 0 || here != start || s.portion != 0;
        // Leaving a station we arrived at means passing through it.
        let passing = len > 1 && leaving_through;
        if passing && !(rules.passable)(here) {
            return;
        }
        let passed = if passing && here != start && interchange(here) {
            (s.passed + 1).min(5)
        } else {
            s.passed
        };
        // Continue along this portion's line.
        let mut dirs: &[u8] = match s.dir {
            0 => &[1, 2],
            1 => &[1],
            _ => &[2],
        };
        if s.dir != 0
            && rules.rebounding
            && (map.is_terminus(here, line) || (rules.next_to_block)(here, line))
        {
            dirs = &[1, 2];
        }
        let reverse: &[crate::map::Step] = if rules.loops_both_ways {
            map.loop_reverse_steps(here, line)
        } else {
            &[]
        };
        for step in map.steps(here, line).iter().chain(reverse) {
            if !dirs.contains(&dir_code(step.leave))
                || !(rules.enterable)(step.to)
                || !(rules.segment_open)(line, here, step.to)
            {
                continue;
            }
            out.push(State {
                station: step.to,
                portion: s.portion,
                dir: dir_code(step.arrive),
                passed,
            });
        }
        // Change to the next portion here (after moving in this one).
        let p = s.portion as usize;
        if s.dir == 0 || p + 1 >= k || !rules.may_change {
            return;
        }
        self.change_portion(s, line, portions[p + 1], out);
    }

    /// The states one station into the next portion, on `next_line`,
    /// changing line at `s` (Rules 1.5.4, 1.5.11) or across its escalator
    /// link, which counts both stations (Rule 1.5.3).
    fn change_portion(&self, s: &State, line: LineCode, next_line: LineCode, out: &mut Vec<State>) {
        let (map, rules) = (self.map, self.rules);
        let here = s.station;
        if map.can_change_line(here, line, next_line)
            && (rules.open)(here, Some(next_line))
            && (rules.passable)(here)
        {
            let co_located = map.station(here).kind == crate::map::StationKind::CoLocated;
            let passed = if map.station(here).kind == crate::map::StationKind::Interchange {
                (s.passed + 1).min(5)
            } else {
                s.passed
            };
            for step in map.steps(here, next_line) {
                // No change of Line Direction when changing line at a
                // Co-Situated station (Rule 1.5.4, RULINGS.md E9).
                if rules.no_turn_back
                    && co_located
                    && turns_back(map, here, line, s.dir, next_line, step.to)
                {
                    continue;
                }
                if (rules.enterable)(step.to) && (rules.segment_open)(next_line, here, step.to) {
                    out.push(State {
                        station: step.to,
                        portion: s.portion + 1,
                        dir: dir_code(step.arrive),
                        passed,
                    });
                }
            }
        }
        if let Some(partner) = map.escalator_partner(here) {
            if map.station(partner).lines.contains(next_line)
                && (rules.enterable)(partner)
                && (rules.open)(here, None)
                && (rules.open)(partner, Some(next_line))
            {
                out.push(State {
                    station: partner,
                    portion: s.portion + 1,
                    dir: 0,
                    passed: s.passed,
                });
            }
        }
    }
}
