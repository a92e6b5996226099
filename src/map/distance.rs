//! All-pairs distances for Fosdyke Notation (Rule 1.17.9).
//!
//! Computed once when the map loads: three 295 x 295 byte matrices (R, S, L)
//! by breadth-first search from every station, each search linear in the
//! size of the map.

use std::collections::VecDeque;
use std::fmt;

use serde::Serialize;

use super::{LineCode, Station, StationId, Step};

const NONE: u8 = u8::MAX;

/// A Fosdyke Code: the proximity of two places (Rule 1.17.9). `None` is the
/// indicator `*` (no route, no common line, or not in any Zone/Quadrant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Fosdyke {
    /// S: stations apart without changing line.
    pub s: Option<u32>,
    /// R: stations on the shortest route.
    pub r: Option<u32>,
    /// L: fewest line changes on any route.
    pub l: Option<u32>,
    /// Q: Quadrant boundaries between them.
    pub q: Option<u32>,
    /// Z: Zone boundaries between them.
    pub z: Option<u32>,
}

impl Fosdyke {
    /// The code between anything and a Ghost Station (Rule 1.11.6): every
    /// indicator is `*`.
    pub const GHOST: Fosdyke = Fosdyke {
        s: None,
        r: None,
        l: None,
        q: None,
        z: None,
    };
}

impl fmt::Display for Fosdyke {
    /// `(S3,R3,L0,Q0,Z0)`, with `*` for an indicator that does not apply.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |c: char, v: Option<u32>| match v {
            Some(v) => format!("{c}{v}"),
            None => format!("{c}*"),
        };
        write!(
            f,
            "({},{},{},{},{})",
            part('S', self.s),
            part('R', self.r),
            part('L', self.l),
            part('Q', self.q),
            part('Z', self.z)
        )
    }
}

#[derive(Debug)]
pub(crate) struct Distances {
    n: usize,
    route: Vec<u8>,
    same_line: Vec<u8>,
    changes: Vec<u8>,
}

fn get(m: &[u8], n: usize, a: StationId, b: StationId) -> Option<u32> {
    match m[a.index() * n + b.index()] {
        NONE => None,
        d => Some(d as u32),
    }
}

impl Distances {
    pub(crate) fn route(&self, a: StationId, b: StationId) -> Option<u32> {
        get(&self.route, self.n, a, b)
    }
    pub(crate) fn same_line(&self, a: StationId, b: StationId) -> Option<u32> {
        get(&self.same_line, self.n, a, b)
    }
    pub(crate) fn changes(&self, a: StationId, b: StationId) -> Option<u32> {
        get(&self.changes, self.n, a, b)
    }

    /// Computes every pair. `steps[line][station]` are the directed steps
    /// (one-way segments only one way); `escalator` the links of Rule 1.5.3.
    pub(crate) fn compute(
        stations: &[Station],
        steps: &[Vec<Vec<Step>>],
        escalator: &[(StationId, StationId)],
    ) -> Distances {
        let g = Graph::new(stations, steps, escalator);
        let n = stations.len();
        let mut route = vec![NONE; n * n];
        let mut changes = vec![NONE; n * n];
        let mut same_line = vec![NONE; n * n];
        let mut work = vec![u32::MAX; n * g.nl];
        for src in 0..n {
            let src_id = StationId(src as u16);
            let row = src * n..(src + 1) * n;
            g.route_from(src_id, &mut work);
            g.best_into(&work, &mut route[row.clone()]);
            g.changes_from(src_id, &mut work);
            g.best_into(&work, &mut changes[row.clone()]);
            g.same_line_from(src_id, &mut same_line[row]);
        }
        Distances {
            n,
            route,
            same_line,
            changes,
        }
    }
}

/// The (station, line) states of the network: a line calls at exactly one
/// site of a station, so a state is also a site.
struct Graph<'a> {
    stations: &'a [Station],
    steps: &'a [Vec<Vec<Step>>],
    /// Each station's escalator partner (Rule 1.5.3).
    partner: Vec<Option<StationId>>,
    nl: usize,
}

impl<'a> Graph<'a> {
    fn new(
        stations: &'a [Station],
        steps: &'a [Vec<Vec<Step>>],
        escalator: &[(StationId, StationId)],
    ) -> Graph<'a> {
        let partner = (0..stations.len())
            .map(|i| {
                let id = StationId(i as u16);
                escalator
                    .iter()
                    .find_map(|&(a, b)| (a == id).then_some(b).or((b == id).then_some(a)))
            })
            .collect();
        Graph {
            stations,
            steps,
            partner,
            nl: LineCode::ALL.len(),
        }
    }

    fn state(&self, s: StationId, l: LineCode) -> usize {
        s.index() * self.nl + l.index()
    }

    fn site_of(&self, s: StationId, l: LineCode) -> Option<usize> {
        self.stations[s.index()]
            .sites
            .iter()
            .position(|site| site.lines.contains(l))
    }

    /// The best state of each destination, clamped, into `row`.
    fn best_into(&self, per_state: &[u32], row: &mut [u8]) {
        for (dst, cell) in row.iter_mut().enumerate() {
            let best = self.stations[dst]
                .lines
                .iter()
                .map(|l| per_state[self.state(StationId(dst as u16), l)])
                .min()
                .unwrap_or(u32::MAX);
            *cell = clamp(best);
        }
    }

    /// R: BFS over states where moving along a line or an escalator link
    /// costs one station and changing line at a site costs none.
    fn route_from(&self, src: StationId, dist: &mut [u32]) {
        dist.fill(u32::MAX);
        let mut frontier: Vec<(StationId, LineCode)> = Vec::new();
        for l in self.stations[src.index()].lines.iter() {
            dist[self.state(src, l)] = 0;
            frontier.push((src, l));
        }
        // Layered BFS: each layer is first closed under the zero-cost
        // changes of line within a site, then expanded by one station.
        self.close(&mut frontier, dist);
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &(s, l) in &frontier {
                let d = dist[self.state(s, l)];
                for st in &self.steps[l.index()][s.index()] {
                    if dist[self.state(st.to, l)] == u32::MAX {
                        dist[self.state(st.to, l)] = d + 1;
                        next.push((st.to, l));
                    }
                }
                if let Some(p) = self.partner[s.index()] {
                    for m in self.stations[p.index()].lines.iter() {
                        if dist[self.state(p, m)] == u32::MAX {
                            dist[self.state(p, m)] = d + 1;
                            next.push((p, m));
                        }
                    }
                }
            }
            self.close(&mut next, dist);
            frontier = next;
        }
    }

    /// Closes a BFS layer under the zero-cost changes of line within a site.
    fn close(&self, frontier: &mut Vec<(StationId, LineCode)>, dist: &mut [u32]) {
        let mut i = 0;
        while i < frontier.len() {
            let (s, l) = frontier[i];
            let d = dist[self.state(s, l)];
            for m in self.stations[s.index()].lines.iter() {
                if self.site_of(s, m) == self.site_of(s, l) && dist[self.state(s, m)] > d {
                    dist[self.state(s, m)] = d;
                    frontier.push((s, m));
                }
            }
            i += 1;
        }
    }

    /// L: 0-1 BFS where changing line (at a site or by escalator link)
    /// costs one and moving along a line costs nothing.
    fn changes_from(&self, src: StationId, chg: &mut [u32]) {
        chg.fill(u32::MAX);
        let mut deque = VecDeque::new();
        for l in self.stations[src.index()].lines.iter() {
            chg[self.state(src, l)] = 0;
            deque.push_back((src, l));
        }
        while let Some((s, l)) = deque.pop_front() {
            let c = chg[self.state(s, l)];
            for st in &self.steps[l.index()][s.index()] {
                if chg[self.state(st.to, l)] > c {
                    chg[self.state(st.to, l)] = c;
                    deque.push_front((st.to, l));
                }
            }
            for m in self.stations[s.index()].lines.iter() {
                if m != l
                    && self.site_of(s, m) == self.site_of(s, l)
                    && chg[self.state(s, m)] > c + 1
                {
                    chg[self.state(s, m)] = c + 1;
                    deque.push_back((s, m));
                }
            }
            if let Some(p) = self.partner[s.index()] {
                for m in self.stations[p.index()].lines.iter() {
                    if chg[self.state(p, m)] > c + 1 {
                        chg[self.state(p, m)] = c + 1;
                        deque.push_back((p, m));
                    }
                }
            }
        }
    }

    /// S: BFS along each line through the source, no changes.
    fn same_line_from(&self, src: StationId, row: &mut [u8]) {
        let n = self.stations.len();
        for l in self.stations[src.index()].lines.iter() {
            let mut seen = vec![u32::MAX; n];
            seen[src.index()] = 0;
            let mut q = VecDeque::from([src]);
            while let Some(s) = q.pop_front() {
                for st in &self.steps[l.index()][s.index()] {
                    if seen[st.to.index()] == u32::MAX {
                        seen[st.to.index()] = seen[s.index()] + 1;
                        q.push_back(st.to);
                    }
                }
            }
            for (cell, &d) in row.iter_mut().zip(&seen) {
                *cell = (*cell).min(clamp(d));
            }
        }
    }
}

fn clamp(d: u32) -> u8 {
    if d >= NONE as u32 {
        NONE
    } else {
        d as u8
    }
}

/// Quadrant boundaries between two quadrants: the Circle (0) borders all
/// four compass quadrants; adjacent compass quadrants share one boundary,
/// opposite ones are two apart.
fn quadrant_step(a: u8, b: u8) -> u32 {
    match (a, b) {
        _ if a == b => 0,
        (0, _) | (_, 0) => 1,
        _ if a.abs_diff(b) == 2 => 2,
        _ => 1,
    }
}

pub(crate) fn quadrant_distance(a: &[u8], b: &[u8]) -> u32 {
    a.iter()
        .flat_map(|&x| b.iter().map(move |&y| quadrant_step(x, y)))
        .min()
        .unwrap_or(0)
}

pub(crate) fn zone_distance(a: &[u8], b: &[u8]) -> u32 {
    a.iter()
        .flat_map(|&x| b.iter().map(move |&y| x.abs_diff(y) as u32))
        .min()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrants() {
        assert_eq!(quadrant_distance(&[0], &[0]), 0);
        assert_eq!(quadrant_distance(&[0], &[3]), 1);
        assert_eq!(quadrant_distance(&[1], &[2]), 1);
        assert_eq!(quadrant_distance(&[4], &[1]), 1);
        assert_eq!(quadrant_distance(&[1], &[3]), 2);
        assert_eq!(quadrant_distance(&[2], &[4]), 2);
        // A boundary station is in both quadrants: the nearer counts.
        assert_eq!(quadrant_distance(&[1, 4], &[3]), 1);
    }

    #[test]
    fn zones() {
        assert_eq!(zone_distance(&[1], &[1]), 0);
        assert_eq!(zone_distance(&[1], &[7]), 6);
        assert_eq!(zone_distance(&[1, 2], &[3]), 1);
    }

    #[test]
    fn fosdyke_display_uses_stars() {
        let f = Fosdyke {
            s: Some(3),
            r: Some(3),
            l: Some(0),
            q: None,
            z: Some(1),
        };
        assert_eq!(f.to_string(), "(S3,R3,L0,Q*,Z1)");
        assert_eq!(Fosdyke::GHOST.to_string(), "(S*,R*,L*,Q*,Z*)");
    }
}
