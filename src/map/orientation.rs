//! Which way each section of line runs, for the Narg Clamp (Rule 1.4.40):
//! "e may only move horizontally or vertically".
//!
//! The map records no drawing, only where each station stands (WGS84
//! latitude and longitude per site). A section's orientation is its
//! compass bearing on the ground, between the sites where its line calls at
//! its two stations, on a local flat projection (longitude scaled by the
//! cosine of the mean latitude), snapped to the eight directions of a
//! schematic map: within 22.5 degrees of east-west it is horizontal, within
//! 22.5 degrees of north-south vertical, otherwise diagonal (RULINGS.md
//! E63). It is computed once, when the map is built;
//! `fixtures/map/rule-1.4.40-sections.txt` lists every section and is kept
//! equal to [`Map::sections_table`] by the test suite.

use serde::Serialize;

use super::{LineCode, Map, Station, StationId};

/// How a section of line runs (Rule 1.4.40).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Orientation {
    /// Within 22.5 degrees of east-west.
    Horizontal,
    /// Within 22.5 degrees of north-south.
    Vertical,
    /// Anything else: a Narg Clamp's carrier may not pass along it.
    Diagonal,
}

impl Orientation {
    /// Whether a Narg Clamp's carrier may pass along it.
    pub fn straight(self) -> bool {
        self != Orientation::Diagonal
    }

    /// `horizontal`, `vertical` or `diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            Orientation::Horizontal => "horizontal",
            Orientation::Vertical => "vertical",
            Orientation::Diagonal => "diagonal",
        }
    }

    /// Snaps a bearing, in degrees anticlockwise from east folded into
    /// `0..180`, to the nearest of the eight schematic directions; the
    /// boundaries (22.5 and 67.5 degrees from an axis) count as straight.
    pub fn of_bearing(deg: f64) -> Orientation {
        let from_ew = deg.min(180.0 - deg);
        let from_ns = (deg - 90.0).abs();
        if from_ew <= 22.5 {
            Orientation::Horizontal
        } else if from_ns <= 22.5 {
            Orientation::Vertical
        } else {
            Orientation::Diagonal
        }
    }
}

/// One section of line between two adjacent stations.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Section {
    /// The line.
    pub line: LineCode,
    /// One end, in the order the line's branch lists them.
    pub from: StationId,
    /// The other end.
    pub to: StationId,
    /// Bearing from `from` to `to`, degrees anticlockwise from east,
    /// folded into `0..180` (a section has no direction).
    pub bearing: f64,
    /// Its orientation.
    pub orientation: Orientation,
}

/// The bearing between two (latitude, longitude) points, degrees
/// anticlockwise from east folded into `0..180`, on a flat projection
/// with longitude scaled by the cosine of the mean latitude (at London's
/// latitude a degree of longitude is about 0.62 of a degree of latitude).
pub fn bearing(a: (f64, f64), b: (f64, f64)) -> f64 {
    let mean_lat = ((a.0 + b.0) / 2.0).to_radians();
    let dx = (b.1 - a.1) * mean_lat.cos();
    let dy = b.0 - a.0;
    let deg = dy.atan2(dx).to_degrees();
    let folded = deg.rem_euclid(180.0);
    // 180 folds to 0: one horizontal, not two.
    if folded >= 180.0 {
        0.0
    } else {
        folded
    }
}

/// Every section of every line, in the order of the lines and their
/// branches, each once; `neighbours[line][station]` are the adjacent
/// stations (sections a branch list does not name, such as a loop's
/// closing one, come after their line's branches).
pub(super) fn sections(
    stations: &[Station],
    branches: &[(LineCode, &[Vec<StationId>])],
    neighbours: &[Vec<Vec<StationId>>],
) -> Vec<Section> {
    let site = |id: StationId, line: LineCode| {
        let st = &stations[id.index()];
        let s = st
            .sites
            .iter()
            .find(|s| s.lines.contains(line))
            .unwrap_or(&st.sites[0]);
        (s.lat, s.lon)
    };
    let mut out: Vec<Section> = Vec::new();
    for &(line, brs) in branches {
        let mut seen: Vec<(StationId, StationId)> = Vec::new();
        let mut add = |a: StationId, b: StationId, out: &mut Vec<Section>| {
            let key = (a.min(b), a.max(b));
            if seen.contains(&key) {
                return;
            }
            seen.push(key);
            let deg = bearing(site(a, line), site(b, line));
            out.push(Section {
                line,
                from: a,
                to: b,
                bearing: deg,
                orientation: Orientation::of_bearing(deg),
            });
        };
        for br in brs {
            for w in br.windows(2) {
                add(w[0], w[1], &mut out);
            }
        }
        for (i, ns) in neighbours[line.index()].iter().enumerate() {
            let a = StationId(i as u16);
            for &b in ns {
                if a < b {
                    add(a, b, &mut out);
                }
            }
        }
    }
    out
}

impl Map {
    /// Every section of line with its orientation (Rule 1.4.40).
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The orientation of the section of `line` between adjacent stations
    /// `a` and `b` (either way round); `None` if they are not adjacent on it.
    pub fn orientation(&self, line: LineCode, a: StationId, b: StationId) -> Option<Orientation> {
        self.orientations[line.index()][a.index()]
            .iter()
            .find(|(n, _)| *n == b)
            .map(|(_, o)| *o)
    }

    /// The list of `fixtures/map/rule-1.4.40-sections.txt`: a header, then
    /// one section a line, `LINE | from | to | bearing | orientation`.
    pub fn sections_table(&self) -> String {
        let mut out = String::from(
            "# Rule 1.4.40 (the Narg Clamp): every section of line and its orientation,\n\
             # derived from the stations' WGS84 sites (RULINGS.md E63): bearing in degrees\n\
             # anticlockwise from east (0-180), within 22.5 of east-west horizontal, of\n\
             # north-south vertical, else diagonal. Generated from the map and kept equal\n\
             # to it by tests/narg_sections.rs (MORNBOT_BLESS=1 rewrites it).\n",
        );
        let (mut h, mut v, mut d) = (0, 0, 0);
        for s in &self.sections {
            match s.orientation {
                Orientation::Horizontal => h += 1,
                Orientation::Vertical => v += 1,
                Orientation::Diagonal => d += 1,
            }
        }
        out.push_str(&format!(
            "# {} sections: {h} horizontal, {v} vertical, {d} diagonal\n",
            self.sections.len()
        ));
        for s in &self.sections {
            out.push_str(&format!(
                "{} | {} | {} | {:5.1} | {}\n",
                s.line,
                self.station(s.from).name,
                self.station(s.to).name,
                s.bearing,
                s.orientation.name()
            ));
        }
        out
    }
}

/// `orientations[line][station]`: each neighbour on the line and the
/// orientation of the section to it, for the route search.
pub(super) fn index(
    sections: &[Section],
    stations: usize,
) -> Vec<Vec<Vec<(StationId, Orientation)>>> {
    let mut out = vec![vec![Vec::new(); stations]; LineCode::ALL.len()];
    for s in sections {
        out[s.line.index()][s.from.index()].push((s.to, s.orientation));
        out[s.line.index()][s.to.index()].push((s.from, s.orientation));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearings_snap_to_eight_directions() {
        assert_eq!(Orientation::of_bearing(0.0), Orientation::Horizontal);
        assert_eq!(Orientation::of_bearing(22.5), Orientation::Horizontal);
        assert_eq!(Orientation::of_bearing(22.6), Orientation::Diagonal);
        assert_eq!(Orientation::of_bearing(67.4), Orientation::Diagonal);
        assert_eq!(Orientation::of_bearing(67.5), Orientation::Vertical);
        assert_eq!(Orientation::of_bearing(112.5), Orientation::Vertical);
        assert_eq!(Orientation::of_bearing(135.0), Orientation::Diagonal);
        assert_eq!(Orientation::of_bearing(157.5), Orientation::Horizontal);
        assert_eq!(Orientation::of_bearing(179.9), Orientation::Horizontal);
    }

    #[test]
    fn a_degree_of_longitude_is_narrower_than_one_of_latitude() {
        // Equal degree offsets at 51.5 N: dx = cos(51.5) = 0.62, so the
        // bearing is atan(1 / 0.62) = 58 degrees, not 45.
        let b = bearing((51.5, 0.0), (51.5 + 0.01, 0.01));
        assert!((b - 58.1).abs() < 0.2, "{b}");
        // Due west folds onto due east; due south onto due north.
        assert!(bearing((51.5, 0.0), (51.5, -0.1)).abs() < 1e-9);
        assert!((bearing((51.5, 0.0), (51.4, 0.0)) - 90.0).abs() < 1e-9);
    }

    #[test]
    fn the_london_map_orients_every_section_both_ways() {
        let map = Map::london_1999();
        assert_eq!(map.sections().len(), map.segment_count());
        for s in map.sections() {
            assert_eq!(map.orientation(s.line, s.from, s.to), Some(s.orientation));
            assert_eq!(map.orientation(s.line, s.to, s.from), Some(s.orientation));
        }
    }
}
