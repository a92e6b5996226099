//! The checking builder: raw map file -> validated [`Map`].
//!
//! Every problem found is reported, each with the file, line and station it
//! concerns; a map with any problem is refused.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::ops::Range;

use toml::Spanned;

use super::category::{name_categories, Category};
use super::distance::Distances;
use super::error::{MapError, Problem};
use super::landmark::{Landmark, Landmarks};
use super::names::normalise;
use super::raw::{BranchKind, RawBank, RawBranch, RawKind, RawMap, RawStation};
use super::schedule::Schedule;
mod lines;
mod restrictions;
mod stations;

use super::{
    Bank, Direction, Line, LineCode, LineColour, LineSet, Map, SegmentRestriction, Site, Station,
    StationId, StationKind, StationRestriction, Step, Venbacker,
};

struct Ctx<'a> {
    /// The file, for messages.
    origin: &'a str,
    line_starts: Vec<usize>,
    problems: Vec<Problem>,
}

impl Ctx<'_> {
    fn line_of(&self, span: &Range<usize>) -> usize {
        self.line_starts.partition_point(|&s| s <= span.start)
    }

    fn problem(&mut self, span: &Range<usize>, station: Option<&str>, message: impl Into<String>) {
        self.problems.push(Problem {
            file: self.origin.to_string(),
            line: self.line_of(span),
            station: station.map(str::to_string),
            message: message.into(),
        });
    }
}

pub(crate) fn build(text: &str, origin: &str) -> Result<Map, MapError> {
    let raw: RawMap = toml::from_str(text).map_err(|e| MapError::Syntax {
        file: origin.to_string(),
        message: e.to_string().trim_end().to_string(),
    })?;
    let mut b = Builder {
        raw: &raw,
        cx: Ctx {
            origin,
            line_starts: std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
            problems: Vec::new(),
        },
        by_name: HashMap::new(),
        by_key: HashMap::new(),
    };
    b.names();
    let topo = b.lines();
    let stations = b.stations(&topo);
    let by_venbacker = b.venbacker_numbers();
    let escalator = b.pairs(&raw.links.escalator, "escalator link");
    let walking = b.pairs(&raw.links.walking, "walking pair");
    b.one_escalator_each(&escalator);
    b.ghost_names();
    let keys = b.aliases();
    let station_restrictions = b.station_restrictions(&stations);
    let segment_restrictions = b.segment_restrictions(&topo.neighbours);
    let landmarks = b.landmarks(&keys);
    let meridian = b.lookup(&raw.map.meridian, "map.meridian");
    if !b.cx.problems.is_empty() {
        return Err(MapError::Invalid(b.cx.problems));
    }
    let lines: Vec<Line> = topo
        .lines
        .into_iter()
        .map(|l| l.expect("checked above"))
        .collect();
    let distances = Distances::compute(&stations, &topo.steps, &escalator);
    let neighbours: Vec<Vec<Vec<StationId>>> = topo
        .neighbours
        .into_iter()
        .map(|per| per.into_iter().map(|s| s.into_iter().collect()).collect())
        .collect();
    let branches: Vec<(LineCode, &[Vec<StationId>])> = lines
        .iter()
        .map(|l| (l.code, l.branches.as_slice()))
        .collect();
    let sections = super::orientation::sections(&stations, &branches, &neighbours);
    let orientations = super::orientation::index(&sections, stations.len());
    let longest_name = stations
        .iter()
        .map(|s| normalise(&s.name).chars().count())
        .max()
        .unwrap_or(0);
    Ok(Map {
        name: raw.map.name.clone(),
        meridian: meridian.expect("checked above"),
        stations,
        lines,
        longest_name,
        by_key: keys,
        turning_loops: LineCode::ALL
            .into_iter()
            .filter(|l| topo.loop_reverse[l.index()].iter().any(|s| !s.is_empty()))
            .fold(LineSet::EMPTY, |mut set, l| {
                set.insert(l);
                set
            }),
        steps: topo.steps,
        loop_reverse: topo.loop_reverse,
        neighbours,
        sections,
        orientations,
        escalator,
        walking,
        by_venbacker,
        ghosts: raw
            .ghosts
            .names
            .iter()
            .map(|g| g.get_ref().clone())
            .collect(),
        ghost_current: raw.ghosts.current,
        station_restrictions,
        segment_restrictions,
        landmarks: landmarks.expect("checked above"),
        distances,
    })
}

/// What the lines make of the stations: per line, the branches, the steps a
/// Piece can take, the neighbours, and which directions leave each station.
struct Topology {
    lines: Vec<Option<Line>>,
    steps: Vec<Vec<Vec<Step>>>,
    neighbours: Vec<Vec<BTreeSet<StationId>>>,
    /// Directions a station's segments leave it in, ignoring one-way rules.
    leaves: Vec<Vec<[bool; 2]>>,
    station_lines: Vec<LineSet>,
    /// The steps a turning loop forbids (its reverse way), for diagnosis.
    loop_reverse: Vec<Vec<Vec<Step>>>,
}

/// The builder's working state: the raw file, the problems found so far,
/// and the station names.
struct Builder<'r> {
    raw: &'r RawMap,
    cx: Ctx<'r>,
    by_name: HashMap<String, StationId>,
    by_key: HashMap<String, StationId>,
}

impl Builder<'_> {
    /// A station named in some table of the file, reported when unknown.
    fn lookup(&mut self, name: &Spanned<String>, what: &str) -> Option<StationId> {
        let id = self.by_name.get(name.get_ref()).copied();
        if id.is_none() {
            self.cx.problem(
                &name.span(),
                Some(name.get_ref()),
                format!("unknown station in {what} (not in the station list of Rule 1.17.8)"),
            );
        }
        id
    }

    /// Stations: the Current table of Rule 1.17.8; names, zones, quadrants
    /// and positions.
    fn names(&mut self) {
        let raw = self.raw;
        for (i, s) in raw.stations.list.iter().enumerate() {
            let id = StationId(i as u16);
            let (name, span) = (s.name.get_ref().as_str(), s.name.span());
            if self.by_name.insert(name.to_string(), id).is_some() {
                self.cx.problem(&span, Some(name), "duplicate station");
            } else if let Some(other) = self.by_key.insert(normalise(name), id) {
                let other = raw.stations.list[other.index()].name.get_ref().clone();
                self.cx.problem(
                    &span,
                    Some(name),
                    format!("name is indistinguishable from {other:?}"),
                );
            }
            if s.zones.is_empty() || s.zones.iter().any(|z| !(1..=7).contains(z)) {
                self.cx.problem(
                    &span,
                    Some(name),
                    format!("zones {:?} must be one or two of 1-7", s.zones),
                );
            } else if s.zones.len() > 2
                || (s.zones.len() == 2 && s.zones[0].abs_diff(s.zones[1]) != 1)
            {
                self.cx.problem(
                    &span,
                    Some(name),
                    format!(
                        "zones {:?}: a boundary station is in two adjacent zones",
                        s.zones
                    ),
                );
            }
            let q = &s.quadrants;
            if q.is_empty()
                || q.iter().any(|&x| x > 4)
                || (q.contains(&0) && q.len() > 1)
                || q.len() > 3
            {
                self.cx.problem(
                    &span,
                    Some(name),
                    format!("quadrants {q:?}: either [0] or up to three of 1-4"),
                );
            }
            match (&s.sites, s.lat, s.lon) {
                (None, Some(_), Some(_)) | (Some(_), None, None) => {}
                _ => self
                    .cx
                    .problem(&span, Some(name), "give either lat and lon, or sites"),
            }
        }
    }
}
