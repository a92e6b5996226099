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
        let n = stations.len();
        // States are (station, line) pairs; a line calls at exactly one site
        // of a station, so a state is also a site.
        let nl = LineCode::ALL.len();
        let state = |s: StationId, l: LineCode| s.index() * nl + l.index();
        let partner: Vec<Option<StationId>> = (0..n)
            .map(|i| {
                let id = StationId(i as u16);
                escalator
                    .iter()
                    .find_map(|&(a, b)| (a == id).then_some(b).or((b == id).then_some(a)))
            })
            .collect();
        let site_of = |s: StationId, l: LineCode| {
            stations[s.index()]
                .sites
                .iter()
                .position(|site| site.lines.contains(l))
        };

        let mut route = vec![NONE; n * n];
        let mut changes = vec![NONE; n * n];
        let mut same_line = vec![NONE; n * n];
        let mut dist = vec![u32::MAX; n * nl];
        let mut chg = vec![u32::MAX; n * nl];
        let mut deque = VecDeque::new();

        for src in 0..n {
            let src_id = StationId(src as u16);
            // R: BFS over states where moving along a line or an escalator
            // link costs one station and changing line at a site costs none.
            dist.fill(u32::MAX);
            let mut frontier: Vec<(StationId, LineCode)> = Vec::new();
            for l in stations[src].lines.iter() {
                dist[state(src_id, l)] = 0;
                frontier.push((src_id, l));
            }
            // Layered BFS: each layer is first closed under the zero-cost
            // changes of line within a site, then expanded by one station.
            let close = |frontier: &mut Vec<(StationId, LineCode)>, dist: &mut Vec<u32>| {
                let mut i = 0;
                while i < frontier.len() {
                    let (s, l) = frontier[i];
                    let d = dist[state(s, l)];
                    for m in stations[s.index()].lines.iter() {
                        if site_of(s, m) == site_of(s, l) && dist[state(s, m)] > d {
                            dist[state(s, m)] = d;
                            frontier.push((s, m));
                        }
                    }
                    i += 1;
                }
            };
            close(&mut frontier, &mut dist);
            while !frontier.is_empty() {
                let mut next = Vec::new();
                for &(s, l) in &frontier {
                    let d = dist[state(s, l)];
                    for st in &steps[l.index()][s.index()] {
                        if dist[state(st.to, l)] == u32::MAX {
                            dist[state(st.to, l)] = d + 1;
                            next.push((st.to, l));
                        }
                    }
                    if let Some(p) = partner[s.index()] {
                        for m in stations[p.index()].lines.iter() {
                            if dist[state(p, m)] == u32::MAX {
                                dist[state(p, m)] = d + 1;
                                next.push((p, m));
                            }
                        }
                    }
                }
                close(&mut next, &mut dist);
                frontier = next;
            }
            for dst in 0..n {
                let best = stations[dst]
                    .lines
                    .iter()
                    .map(|l| dist[state(StationId(dst as u16), l)])
                    .min()
                    .unwrap_or(u32::MAX);
                route[src * n + dst] = clamp(best);
            }

            // L: 0-1 BFS where changing line (at a site or by escalator link)
            // costs one and moving along a line costs nothing.
            chg.fill(u32::MAX);
            for l in stations[src].lines.iter() {
                chg[state(src_id, l)] = 0;
                deque.push_back((src_id, l));
            }
            while let Some((s, l)) = deque.pop_front() {
                let c = chg[state(s, l)];
                for st in &steps[l.index()][s.index()] {
                    if chg[state(st.to, l)] > c {
                        chg[state(st.to, l)] = c;
                        deque.push_front((st.to, l));
                    }
                }
                for m in stations[s.index()].lines.iter() {
                    if m != l && site_of(s, m) == site_of(s, l) && chg[state(s, m)] > c + 1 {
                        chg[state(s, m)] = c + 1;
                        deque.push_back((s, m));
                    }
                }
                if let Some(p) = partner[s.index()] {
                    for m in stations[p.index()].lines.iter() {
                        if chg[state(p, m)] > c + 1 {
                            chg[state(p, m)] = c + 1;
                            deque.push_back((p, m));
                        }
                    }
                }
            }
            for dst in 0..n {
                let best = stations[dst]
                    .lines
                    .iter()
                    .map(|l| chg[state(StationId(dst as u16), l)])
                    .min()
                    .unwrap_or(u32::MAX);
                changes[src * n + dst] = clamp(best);
            }

            // S: BFS along each line through the source, no changes.
            for l in stations[src].lines.iter() {
                let mut seen = vec![u32::MAX; n];
                seen[src] = 0;
                let mut q = VecDeque::from([src_id]);
                while let Some(s) = q.pop_front() {
                    for st in &steps[l.index()][s.index()] {
                        if seen[st.to.index()] == u32::MAX {
                            seen[st.to.index()] = seen[s.index()] + 1;
                            q.push_back(st.to);
                        }
                    }
                }
                for (dst, &d) in seen.iter().enumerate() {
                    let cell = &mut same_line[src * n + dst];
                    *cell = (*cell).min(clamp(d));
                }
            }
        }
        Distances {
            n,
            route,
            same_line,
            changes,
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
