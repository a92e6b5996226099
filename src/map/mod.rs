//! The Underground as data: stations, lines, links and distances.
//!
//! The map is loaded once from `maps/london-1999.toml` (embedded in the
//! binary; a config may name another file of the same shape), checked by a
//! validating builder, and then shared read-only. Everything the rules ask of
//! the map derives from that data: adjacency per line, Line Direction,
//! termini, the Call of a station (Rule 1.17.10), its categories
//! (Rule 1.17.6) and the Fosdyke distances S, R, L, Q and Z (Rule 1.17.9),
//! which are computed for all pairs at load.
//!
//! The module is pure: it reads no files itself (the caller hands it text)
//! and knows nothing of game state or time of day beyond the opening windows
//! of Rules 1.13.5 and 1.13.6.

mod build;
mod category;
mod distance;
mod error;
mod landmark;
mod line;
pub mod names;
mod orientation;
mod raw;
mod route;
mod schedule;
mod venbacker;

use std::collections::HashMap;
use std::sync::OnceLock;

use chrono::Weekday;
use serde::Serialize;

pub use category::{Category, CategorySet};
pub use distance::Fosdyke;
pub use error::{MapError, Problem, UnknownStation};
pub use landmark::{Landmark, Landmarks};
pub use line::{Direction, LineCode, LineColour, LineSet};
pub use orientation::{Orientation, Section};
pub use schedule::Schedule;
pub use venbacker::Venbacker;

/// The embedded map of mid-1999.
pub const LONDON_1999: &str = include_str!("../../maps/london-1999.toml");

/// A station of the map, as an index into [`Map::stations`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
pub struct StationId(pub u16);

impl StationId {
    /// The index into [`Map::stations`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A Ghost Station (Rule 1.11.6), as an index into [`Map::ghosts`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
pub struct GhostId(pub u8);

/// How the map draws a station served by its lines (Rules 1.17.1, 1.17.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StationKind {
    /// Drawn with an interchange symbol (several lines, a British Rail
    /// connection, or an escalator link).
    Interchange,
    /// Several lines on shared platforms, drawn as a plain tick.
    CoLocated,
    /// Anything else.
    Single,
}

/// The bank of the Thames a station is on (Rule 1.8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bank {
    /// North of the river.
    North,
    /// South of the river.
    South,
}

/// One place on the real map where some of a station's lines meet. Almost
/// every station has one site; Edgware Road and Shepherd's Bush have two.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Site {
    /// Lines calling at this site.
    #[serde(serialize_with = "category::serialize_lines")]
    pub lines: LineSet,
    /// Latitude (WGS84).
    pub lat: f64,
    /// Longitude (WGS84).
    pub lon: f64,
}

/// A station and everything the map says about it.
#[derive(Clone, Debug)]
pub struct Station {
    /// The name as spelled in the Current table of Rule 1.17.8.
    pub name: String,
    /// Its Current (Rule 1.17.8).
    pub current: u32,
    /// Its Venbacker Number, its face of the 295-sided die (RULINGS.md M19).
    pub venbacker: Venbacker,
    /// Its zones (Rule 1.17.7): two on a zone boundary.
    pub zones: Vec<u8>,
    /// How the map draws it.
    pub kind: StationKind,
    /// Whether it has a British Rail connection.
    pub british_rail: bool,
    /// Its bank of the Thames.
    pub thames: Bank,
    /// Its Quadrants (Rule 1.17.2): `[0]` in the Circle, else one or two of 1-4.
    pub quadrants: Vec<u8>,
    /// The places where its lines call (see [`Site`]).
    pub sites: Vec<Site>,
    /// Every line calling at it.
    pub lines: LineSet,
    /// Lines that terminate here (Rule 1.17.6: emerge in only one direction).
    pub terminus_of: LineSet,
    /// Its Call (Rule 1.17.10).
    pub call: u32,
    /// Its categories (Rule 1.17.6).
    pub categories: CategorySet,
}

/// One move of a Piece along a line from a station to the next (Rule 1.5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The station reached.
    pub to: StationId,
    /// The Line Direction the Piece must be moving in to take this step.
    pub leave: Direction,
    /// The Line Direction it moves in on arrival. Equal to `leave` except on
    /// the closing segment of the Heathrow turning loop.
    pub arrive: Direction,
}

/// A restriction of Rule 1.13.5 on a station (or all stations of a category).
#[derive(Clone, Debug, Serialize)]
pub struct StationRestriction {
    /// The station, or `None` when the restriction is by category.
    pub station: Option<StationId>,
    /// The category it applies to (Holy, Rule 1.13.5).
    pub category: Option<Category>,
    /// Only this line's platforms, e.g. Turnham Green (PD).
    pub line: Option<LineCode>,
    /// When it is Open.
    pub schedule: Schedule,
    /// The rule's remark, e.g. which Action opens it.
    pub note: Option<String>,
}

/// A restriction of Rule 1.13.6 on the segments of a line between two stations.
#[derive(Clone, Debug, Serialize)]
pub struct SegmentRestriction {
    /// The line.
    pub line: LineCode,
    /// One end, as written.
    pub from: StationId,
    /// The other end.
    pub to: StationId,
    /// Every adjacent pair of stations on the restricted stretch.
    pub segments: Vec<(StationId, StationId)>,
    /// When it is Open (either Line Direction).
    pub schedule: Schedule,
}

/// A line: its name, prescribed direction and branches.
#[derive(Clone, Debug)]
pub struct Line {
    /// The code.
    pub code: LineCode,
    /// The name, e.g. "Northern".
    pub name: String,
    /// Its colour on the map.
    pub colour: LineColour,
    /// The name of the forward direction of Rule 1.20.2 (N-S, E-W, Clockwise).
    pub direction: String,
    /// The branches as ordered station sequences in the forward direction.
    pub branches: Vec<Vec<StationId>>,
    /// Number of distinct segments (pairs of adjacent stations).
    pub segments: usize,
}

/// The validated map, shared read-only.
#[derive(Debug)]
pub struct Map {
    name: String,
    meridian: StationId,
    stations: Vec<Station>,
    lines: Vec<Line>,
    by_key: HashMap<String, StationId>,
    /// Characters in the longest normalised station name (bounds `suggest`).
    longest_name: usize,
    /// `steps[line][station]`: where a Piece can go next along `line`.
    steps: Vec<Vec<Vec<Step>>>,
    /// `loop_reverse[line][station]`: the steps a one-way turning loop
    /// forbids (Rule 1.5.7), to tell a player why a Move fails.
    loop_reverse: Vec<Vec<Vec<Step>>>,
    /// Lines with a one-way turning loop.
    turning_loops: LineSet,
    /// `neighbours[line][station]`: adjacent stations on the line, sorted.
    neighbours: Vec<Vec<Vec<StationId>>>,
    /// Every section of line with its orientation (Rule 1.4.40).
    sections: Vec<Section>,
    /// `orientations[line][station]`: each neighbour and the section's
    /// orientation.
    orientations: Vec<Vec<Vec<(StationId, Orientation)>>>,
    escalator: Vec<(StationId, StationId)>,
    walking: Vec<(StationId, StationId)>,
    /// `by_venbacker[n - 1]`: the station of Venbacker Number `n`.
    by_venbacker: Vec<StationId>,
    ghosts: Vec<String>,
    ghost_current: u32,
    station_restrictions: Vec<StationRestriction>,
    segment_restrictions: Vec<SegmentRestriction>,
    landmarks: Landmarks,
    distances: distance::Distances,
}

impl Map {
    /// Loads and validates a map from TOML text; `origin` names the file in
    /// errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Map, MapError> {
        build::build(text, origin)
    }

    /// The embedded map of mid-1999, loaded on first use.
    pub fn london_1999() -> &'static Map {
        static MAP: OnceLock<Map> = OnceLock::new();
        MAP.get_or_init(|| {
            Map::from_toml(LONDON_1999, "maps/london-1999.toml")
                .expect("the embedded map is valid (checked by the test suite)")
        })
    }

    /// The map's title.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every station, indexed by [`StationId`], alphabetical.
    pub fn stations(&self) -> &[Station] {
        &self.stations
    }

    /// Every station id.
    pub fn station_ids(&self) -> impl Iterator<Item = StationId> {
        (0..self.stations.len() as u16).map(StationId)
    }

    /// One station.
    pub fn station(&self, id: StationId) -> &Station {
        &self.stations[id.index()]
    }

    /// Every line, in [`LineCode::ALL`] order.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// One line.
    pub fn line(&self, code: LineCode) -> &Line {
        &self.lines[code.index()]
    }

    /// The station a rule names (resolved when the map was loaded).
    pub fn landmark(&self, l: Landmark) -> StationId {
        self.landmarks.get(l)
    }

    /// Whether `id` is the station a rule names.
    pub fn is(&self, id: StationId, l: Landmark) -> bool {
        self.landmarks.get(l) == id
    }

    /// The station at the centre of the Quadrants (Rule 1.17.2).
    pub fn meridian(&self) -> StationId {
        self.meridian
    }

    /// Finds a station by name: exact names, aliases, and the tolerances of
    /// [`names::normalise`].
    pub fn lookup(&self, name: &str) -> Result<StationId, UnknownStation> {
        self.by_key
            .get(&names::normalise(name))
            .copied()
            .ok_or_else(|| UnknownStation {
                name: name.to_string(),
                suggestions: self.suggest(name, 5),
            })
    }

    /// Finds a station by name like [`Map::lookup`], without computing
    /// suggestions when there is none (for parsers trying alternatives).
    pub fn find(&self, name: &str) -> Option<StationId> {
        self.by_key.get(&names::normalise(name)).copied()
    }

    /// Every name the map finds a station by (its own and its aliases),
    /// normalised as [`names::normalise`] does, sorted.
    pub fn keys_of(&self, id: StationId) -> Vec<&str> {
        let mut keys: Vec<&str> = self
            .by_key
            .iter()
            .filter(|(_, &s)| s == id)
            .map(|(k, _)| k.as_str())
            .collect();
        keys.sort_unstable();
        keys
    }

    /// The station names nearest to `name`, best first.
    pub fn suggest(&self, name: &str, at_most: usize) -> Vec<String> {
        let key = names::normalise(name);
        // Nothing far longer than every station name is a near miss, and
        // edit distances on long garbage are quadratic: a parser that
        // backtracks through a long line would pay for them at every split
        // (found by the `play` fuzz target).
        if key.chars().count() > self.longest_name + 8 {
            return Vec::new();
        }
        // Ghost Stations are places a play may name too (Rule 1.11.6).
        let mut scored: Vec<(usize, &str)> = self
            .stations
            .iter()
            .map(|s| s.name.as_str())
            .chain(self.ghosts().iter().map(String::as_str))
            .map(|name| {
                let sk = names::normalise(name);
                let mut d = names::edit_distance(&key, &sk);
                // A prefix or a word of the real name is a near miss, not a typo.
                if !key.is_empty() && (sk.starts_with(&key) || sk.split(' ').any(|w| w == key)) {
                    d = d.min(1);
                }
                (d, name)
            })
            .collect();
        scored.sort();
        let limit = (key.chars().count() / 4).max(2);
        scored
            .into_iter()
            .filter(|(d, _)| *d <= limit)
            .take(at_most)
            .map(|(_, n)| n.to_string())
            .collect()
    }

    /// Stations adjacent to `id` on `line`, whatever the direction.
    pub fn neighbours(&self, id: StationId, line: LineCode) -> &[StationId] {
        &self.neighbours[line.index()][id.index()]
    }

    /// The steps a Piece at `id` on `line` can take (one-way segments only
    /// in their direction). A Piece moving in direction `d` may take the
    /// steps whose `leave` is `d`.
    pub fn steps(&self, id: StationId, line: LineCode) -> &[Step] {
        &self.steps[line.index()][id.index()]
    }

    /// The steps against a one-way turning loop's direction (Rule 1.5.7):
    /// never taken by a Move, only searched to explain one that fails.
    pub fn loop_reverse_steps(&self, id: StationId, line: LineCode) -> &[Step] {
        &self.loop_reverse[line.index()][id.index()]
    }

    /// Whether `line` has a one-way turning loop (Rule 1.5.7).
    pub fn has_turning_loop(&self, line: LineCode) -> bool {
        self.turning_loops.contains(line)
    }

    /// Whether `id` is a terminus of `line` (Rule 1.17.6).
    pub fn is_terminus(&self, id: StationId, line: LineCode) -> bool {
        self.station(id).terminus_of.contains(line)
    }

    /// The site of `id` at which `line` calls, if it does.
    pub fn site_of(&self, id: StationId, line: LineCode) -> Option<usize> {
        self.station(id)
            .sites
            .iter()
            .position(|s| s.lines.contains(line))
    }

    /// Where the station's `line` calls, as (latitude, longitude); the first
    /// site when the line is not given or does not call there.
    pub fn coordinates(&self, id: StationId, line: Option<LineCode>) -> (f64, f64) {
        let st = self.station(id);
        let site = line.and_then(|l| self.site_of(id, l)).unwrap_or(0);
        (st.sites[site].lat, st.sites[site].lon)
    }

    /// Whether a Piece may change from `from` to `to` at `id` mid-move:
    /// both lines call at the same site of the station (an Interchange or a
    /// Co-Located station, Rule 1.5.4). Escalator links are separate
    /// ([`Map::escalator_partner`]).
    pub fn can_change_line(&self, id: StationId, from: LineCode, to: LineCode) -> bool {
        from != to
            && matches!(
                (self.site_of(id, from), self.site_of(id, to)),
                (Some(a), Some(b)) if a == b
            )
    }

    /// The other end of an escalator link (Rule 1.5.3), if `id` has one.
    pub fn escalator_partner(&self, id: StationId) -> Option<StationId> {
        self.escalator.iter().find_map(|&(a, b)| {
            if a == id {
                Some(b)
            } else if b == id {
                Some(a)
            } else {
                None
            }
        })
    }

    /// The escalator links of Rule 1.5.3.
    pub fn escalator_links(&self) -> &[(StationId, StationId)] {
        &self.escalator
    }

    /// The extra Walking Distance pairs listed in Rule 1.7.10.
    pub fn walking_pairs(&self) -> &[(StationId, StationId)] {
        &self.walking
    }

    /// Whether two stations are within Walking Distance (Rule 1.7.10):
    /// adjacent on any line, linked by an escalator, one of the listed pairs,
    /// or the same name at separate sites (Edgware Road, Shepherd's Bush).
    pub fn within_walking_distance(&self, a: StationId, b: StationId) -> bool {
        if a == b {
            return self.station(a).sites.len() > 1;
        }
        LineCode::ALL
            .iter()
            .any(|&l| self.neighbours(a, l).contains(&b))
            || self.escalator_partner(a) == Some(b)
            || self
                .walking
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
    }

    /// The Ghost Stations of Rule 1.11.6 (not stations of the map proper).
    pub fn ghosts(&self) -> &[String] {
        &self.ghosts
    }

    /// The Current of every Ghost Station (Rule 1.11.6).
    pub fn ghost_current(&self) -> u32 {
        self.ghost_current
    }

    /// Finds a Ghost Station by name (same tolerances as [`Map::lookup`]).
    pub fn lookup_ghost(&self, name: &str) -> Option<&str> {
        self.find_ghost(name).map(|g| self.ghost(g))
    }

    /// Finds a Ghost Station by name, as its id.
    pub fn find_ghost(&self, name: &str) -> Option<GhostId> {
        // Ghost names are a few words; skip the scan for anything longer.
        if name.len() > 24 {
            return None;
        }
        let key = names::normalise(name);
        self.ghosts
            .iter()
            .position(|g| names::normalise(g) == key)
            .map(|i| GhostId(i as u8))
    }

    /// A Ghost Station's name.
    pub fn ghost(&self, id: GhostId) -> &str {
        &self.ghosts[id.0 as usize]
    }

    /// The station restrictions of Rule 1.13.5.
    pub fn station_restrictions(&self) -> &[StationRestriction] {
        &self.station_restrictions
    }

    /// The segment restrictions of Rule 1.13.6.
    pub fn segment_restrictions(&self) -> &[SegmentRestriction] {
        &self.segment_restrictions
    }

    /// Whether station `id` is Open to a Piece on `line` (or on any of its
    /// lines when `line` is `None`) on `day` at `minute` past 0000, by the
    /// map's restrictions alone. Holidays are Sundays (pass `Weekday::Sun`);
    /// Actions that open stations (Opening MC, Collection Plate) and
    /// Defaming are the engine's business.
    pub fn station_open(
        &self,
        id: StationId,
        line: Option<LineCode>,
        day: Weekday,
        minute: u16,
    ) -> bool {
        let station = self.station(id);
        self.station_restrictions.iter().all(|r| {
            let applies = match (r.station, r.category) {
                (Some(s), _) => s == id,
                (None, Some(c)) => station.categories.contains(c),
                (None, None) => false,
            } && match (r.line, line) {
                (Some(rl), Some(l)) => rl == l,
                // A line-specific restriction closes the station only when
                // every line there is restricted; Turnham Green (DS) stays open.
                (Some(_), None) => station.lines.len() == 1,
                (None, _) => true,
            };
            !applies || r.schedule.is_open(day, minute)
        })
    }

    /// Whether the segment between adjacent stations `a` and `b` on `line` is
    /// Open on `day` at `minute` past 0000 (Rule 1.13.6, either direction).
    pub fn segment_open(
        &self,
        line: LineCode,
        a: StationId,
        b: StationId,
        day: Weekday,
        minute: u16,
    ) -> bool {
        self.segment_restrictions.iter().all(|r| {
            r.line != line
                || !r
                    .segments
                    .iter()
                    .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
                || r.schedule.is_open(day, minute)
        })
    }

    /// Route distance R: stations on the shortest route by any lines
    /// (escalator links count one station; Rule 1.5.3). `None` if no route.
    pub fn route_distance(&self, a: StationId, b: StationId) -> Option<u32> {
        self.distances.route(a, b)
    }

    /// Station distance S: stations between `a` and `b` along one line
    /// without changing line, the least over their common lines. `None`
    /// when no line serves both.
    pub fn same_line_distance(&self, a: StationId, b: StationId) -> Option<u32> {
        self.distances.same_line(a, b)
    }

    /// Line changes L: the fewest changes of line on any route from `a` to
    /// `b` (not the changes of the shortest route). `None` if no route.
    pub fn line_changes(&self, a: StationId, b: StationId) -> Option<u32> {
        self.distances.changes(a, b)
    }

    /// Quadrant distance Q: Quadrant boundaries between the stations, the
    /// least over their quadrants (never more than two).
    pub fn quadrant_distance(&self, a: StationId, b: StationId) -> u32 {
        distance::quadrant_distance(&self.station(a).quadrants, &self.station(b).quadrants)
    }

    /// Zone distance Z: Zone boundaries between the stations, the least
    /// over their zones.
    pub fn zone_distance(&self, a: StationId, b: StationId) -> u32 {
        distance::zone_distance(&self.station(a).zones, &self.station(b).zones)
    }

    /// The full Fosdyke Code of two stations (Rule 1.17.9).
    pub fn fosdyke(&self, a: StationId, b: StationId) -> Fosdyke {
        Fosdyke {
            s: self.same_line_distance(a, b),
            r: self.route_distance(a, b),
            l: self.line_changes(a, b),
            q: Some(self.quadrant_distance(a, b)),
            z: Some(self.zone_distance(a, b)),
        }
    }

    /// Number of distinct line segments on the whole map (counted per line).
    pub fn segment_count(&self) -> usize {
        self.lines.iter().map(|l| l.segments).sum()
    }
}
