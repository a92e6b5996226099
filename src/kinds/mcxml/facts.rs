//! The map as mc-xml sees it (RULINGS MX1, MX2): one plain graph over every
//! line of `maps/london-1999.toml`, with degrees and all-pairs step
//! distances computed once.
//!
//! A "line segment" (Rule 7) joins consecutive stations of a branch; the
//! escalator links and walking pairs of Volume 1 are not segments; the
//! Heathrow loop's one-way segments count both ways (mc-xml has no Line
//! Direction); Edgware Road and Shepherd's Bush are one station each, as
//! the map has them.

use std::collections::VecDeque;
use std::sync::OnceLock;

use crate::map::{Landmark, LineCode, LineSet, Map, StationId};

/// The distance of two stations with no route between them.
pub const UNREACHABLE: u16 = u16::MAX;

/// The map's facts for mc-xml, shared read-only.
#[derive(Debug)]
pub struct Facts {
    map: &'static Map,
    /// `adjacent[s]`: every station one segment from `s`, sorted.
    adjacent: Vec<Vec<StationId>>,
    /// `distance[a * n + b]`: the fewest steps from `a` to `b`.
    distance: Vec<u16>,
    termini: Vec<StationId>,
    interchanges: Vec<StationId>,
    mornington: StationId,
    tottenham: StationId,
}

impl Facts {
    /// Derives the facts from a map (a breadth-first search from every
    /// station: about 300 x 300 steps on the 1999 map).
    pub fn new(map: &'static Map) -> Facts {
        let n = map.stations().len();
        let mut adjacent: Vec<Vec<StationId>> = vec![Vec::new(); n];
        for id in map.station_ids() {
            let list = &mut adjacent[id.index()];
            for line in LineCode::ALL {
                list.extend_from_slice(map.neighbours(id, line));
            }
            list.sort();
            list.dedup();
        }
        let mut distance = vec![UNREACHABLE; n * n];
        let mut queue = VecDeque::new();
        for from in 0..n {
            let row = &mut distance[from * n..(from + 1) * n];
            row[from] = 0;
            queue.push_back(from);
            while let Some(s) = queue.pop_front() {
                let d = row[s];
                for t in &adjacent[s] {
                    if row[t.index()] == UNREACHABLE {
                        row[t.index()] = d + 1;
                        queue.push_back(t.index());
                    }
                }
            }
        }
        let ids = || map.station_ids();
        let termini = ids().filter(|s| adjacent[s.index()].len() == 1).collect();
        let interchanges = ids().filter(|s| adjacent[s.index()].len() >= 3).collect();
        Facts {
            map,
            adjacent,
            distance,
            termini,
            interchanges,
            mornington: map.landmark(Landmark::MorningtonCrescent),
            tottenham: map.landmark(Landmark::TottenhamCourtRoad),
        }
    }

    /// The facts of the embedded 1999 map, derived on first use.
    pub fn london() -> &'static Facts {
        static FACTS: OnceLock<Facts> = OnceLock::new();
        FACTS.get_or_init(|| Facts::new(Map::london_1999()))
    }

    /// The map the facts derive from (names, lookup, lines).
    pub fn map(&self) -> &'static Map {
        self.map
    }

    /// A station's name.
    pub fn name(&self, s: StationId) -> &'static str {
        &self.map.station(s).name
    }

    /// The stations one segment from `s` (Rule 7 "adjacent"), sorted.
    pub fn neighbours(&self, s: StationId) -> &[StationId] {
        &self.adjacent[s.index()]
    }

    /// Whether a segment joins `a` and `b`.
    pub fn adjacent(&self, a: StationId, b: StationId) -> bool {
        self.adjacent[a.index()].binary_search(&b).is_ok()
    }

    /// The lines whose segments join `a` and `b` (empty: not adjacent).
    pub fn segment_lines(&self, a: StationId, b: StationId) -> LineSet {
        let mut set = LineSet::EMPTY;
        for line in LineCode::ALL {
            if self.map.neighbours(a, line).contains(&b) {
                set.insert(line);
            }
        }
        set
    }

    /// How many stations are adjacent to `s`.
    pub fn degree(&self, s: StationId) -> usize {
        self.adjacent[s.index()].len()
    }

    /// Rule 5: "A termini station is one which has only one adjacent station."
    pub fn is_terminus(&self, s: StationId) -> bool {
        self.degree(s) == 1
    }

    /// Rule 5: "An interchange station is one which has at least 3 adjacent
    /// stations."
    pub fn is_interchange(&self, s: StationId) -> bool {
        self.degree(s) >= 3
    }

    /// The fewest steps from `a` to `b` over the plain graph, closures
    /// ignored ([`UNREACHABLE`] if none).
    pub fn distance(&self, a: StationId, b: StationId) -> u16 {
        self.distance[a.index() * self.adjacent.len() + b.index()]
    }

    /// Every terminus, alphabetical.
    pub fn termini(&self) -> &[StationId] {
        &self.termini
    }

    /// Every interchange, alphabetical.
    pub fn interchanges(&self) -> &[StationId] {
        &self.interchanges
    }

    /// Mornington Crescent.
    pub fn mornington(&self) -> StationId {
        self.mornington
    }

    /// Tottenham Court Road, where every train starts (Rule 1).
    pub fn tottenham(&self) -> StationId {
        self.tottenham
    }

    /// How many segments the graph has (each pair once).
    pub fn segment_count(&self) -> usize {
        self.adjacent.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// How many stations.
    pub fn station_count(&self) -> usize {
        self.adjacent.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> StationId {
        Map::london_1999().lookup(name).unwrap()
    }

    #[test]
    fn degrees_count_every_line_once() {
        let f = Facts::london();
        // Camden Town: Chalk Farm, Kentish Town, Mornington Crescent, Euston.
        assert_eq!(f.degree(id("Camden Town")), 4);
        assert!(f.adjacent(id("Camden Town"), id("Mornington Crescent")));
        assert!(f.is_terminus(id("Morden")));
        assert!(f.is_interchange(id("Oxford Circus")));
        // The counts of RULINGS MX2.
        assert_eq!(f.termini().len(), 25);
        assert_eq!(f.interchanges().len(), 63);
    }

    #[test]
    fn the_heathrow_loop_is_walked_both_ways() {
        let f = Facts::london();
        let t4 = id("Heathrow Terminal 4");
        let t123 = id("Heathrow Terminal 123");
        assert!(f.adjacent(t4, t123) && f.adjacent(t123, t4));
        assert!(f.adjacent(id("Hatton Cross"), t4));
    }

    #[test]
    fn escalator_links_are_not_segments() {
        let f = Facts::london();
        for &(a, b) in f.map().escalator_links() {
            if f.segment_lines(a, b).is_empty() {
                assert!(!f.adjacent(a, b), "{} - {}", f.name(a), f.name(b));
            }
        }
    }

    #[test]
    fn distances_are_symmetric_and_stepwise() {
        let f = Facts::london();
        let (a, b) = (id("Euston"), id("Oxford Circus"));
        assert_eq!(f.distance(a, b), 2);
        assert_eq!(f.distance(b, a), 2);
        assert_eq!(f.distance(a, a), 0);
        for s in f.map().station_ids() {
            for &t in f.neighbours(s) {
                assert_eq!(f.distance(s, t), 1);
            }
        }
    }

    #[test]
    fn the_segment_names_its_lines() {
        let f = Facts::london();
        let lines = f.segment_lines(id("Baker Street"), id("Regent's Park"));
        assert!(lines.contains(LineCode::BL));
        assert!(!lines.contains(LineCode::NT));
    }
}
