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
use super::{
    Bank, Direction, Line, LineCode, LineSet, Map, SegmentRestriction, Site, Station, StationId,
    StationKind, StationRestriction, Step,
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
        neighbours: topo
            .neighbours
            .into_iter()
            .map(|per| per.into_iter().map(|s| s.into_iter().collect()).collect())
            .collect(),
        escalator,
        walking,
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

    /// Lines and their branches; every line of Rule 1.17.4 must be there.
    fn lines(&mut self) -> Topology {
        let raw = self.raw;
        let n = raw.stations.list.len();
        let mut topo = Topology {
            lines: vec![None; LineCode::ALL.len()],
            steps: vec![vec![Vec::new(); n]; LineCode::ALL.len()],
            neighbours: vec![vec![BTreeSet::new(); n]; LineCode::ALL.len()],
            leaves: vec![vec![[false; 2]; n]; LineCode::ALL.len()],
            station_lines: vec![LineSet::EMPTY; n],
            loop_reverse: vec![vec![Vec::new(); n]; LineCode::ALL.len()],
        };
        for (code_s, raw_line) in &raw.lines {
            let Some(code) =
                LineCode::parse(code_s.get_ref()).filter(|c| c.code() == code_s.get_ref())
            else {
                self.cx.problem(
                    &code_s.span(),
                    None,
                    format!("unknown Line Code {:?} (Rule 1.17.4)", code_s.get_ref()),
                );
                continue;
            };
            let mut seen_segments: HashSet<(StationId, StationId)> = HashSet::new();
            let mut branches = Vec::new();
            for branch in &raw_line.branches {
                if let Some(ids) = self.branch(code, code_s, branch, &mut seen_segments, &mut topo)
                {
                    branches.push(ids);
                }
            }
            if LineCode::parse(&raw_line.direction).is_some()
                || raw_line.direction.trim().is_empty()
            {
                self.cx.problem(
                    &code_s.span(),
                    None,
                    format!("{code}: direction must name the Rule 1.20.2 direction"),
                );
            }
            topo.lines[code.index()] = Some(Line {
                code,
                name: raw_line.name.clone(),
                direction: raw_line.direction.clone(),
                branches,
                segments: seen_segments.len(),
            });
        }
        for code in LineCode::ALL {
            if topo.lines[code.index()].is_none()
                && !raw.lines.keys().any(|k| k.get_ref() == code.code())
            {
                self.cx.problem(
                    &(0..0),
                    None,
                    format!("line {code} (Rule 1.17.4) is missing"),
                );
            }
        }
        topo
    }

    /// One branch of a line: its segments, in the line's forward direction
    /// (a turning loop one way only, Rule 1.5.7). None when it is unusable.
    fn branch(
        &mut self,
        code: LineCode,
        code_s: &Spanned<String>,
        branch: &RawBranch,
        seen_segments: &mut HashSet<(StationId, StationId)>,
        topo: &mut Topology,
    ) -> Option<Vec<StationId>> {
        let li = code.index();
        let what = format!("{code} branch {:?}", branch.name);
        let ids: Vec<Option<StationId>> = branch
            .stations
            .iter()
            .map(|s| self.lookup(s, &what))
            .collect();
        let Some(first) = branch.stations.first() else {
            self.cx
                .problem(&code_s.span(), None, format!("{what} is empty"));
            return None;
        };
        if branch.stations.len() < 2 {
            self.cx.problem(
                &first.span(),
                Some(first.get_ref()),
                format!("{what} needs two stations"),
            );
            return None;
        }
        let closed = branch.stations.first().map(|s| s.get_ref())
            == branch.stations.last().map(|s| s.get_ref());
        if (branch.kind != BranchKind::Line) != closed {
            self.cx.problem(
                &first.span(),
                Some(first.get_ref()),
                format!("{what}: a loop ends where it starts, and only a loop does"),
            );
        }
        if ids.iter().any(Option::is_none) {
            return None;
        }
        let ids: Vec<StationId> = ids.into_iter().flatten().collect();
        let last = ids.len() - 1;
        for (k, pair) in ids.windows(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let span = branch.stations[k + 1].span();
            let bname = branch.stations[k + 1].get_ref();
            if a == b {
                self.cx.problem(
                    &span,
                    Some(bname),
                    format!("{code}: a station cannot be adjacent to itself"),
                );
                continue;
            }
            if !seen_segments.insert((a.min(b), a.max(b))) {
                self.cx.problem(
                    &span,
                    Some(bname),
                    format!(
                        "{code}: duplicate segment {} - {} (each segment is listed once, in the forward direction)",
                        self.raw.stations.list[a.index()].name.get_ref(),
                        bname
                    ),
                );
                continue;
            }
            topo.station_lines[a.index()].insert(code);
            topo.station_lines[b.index()].insert(code);
            topo.neighbours[li][a.index()].insert(b);
            topo.neighbours[li][b.index()].insert(a);
            topo.leaves[li][a.index()][0] = true;
            topo.leaves[li][b.index()][1] = true;
            let steps = &mut topo.steps[li];
            match branch.kind {
                BranchKind::Line | BranchKind::Loop => {
                    steps[a.index()].push(Step {
                        to: b,
                        leave: Direction::Forward,
                        arrive: Direction::Forward,
                    });
                    steps[b.index()].push(Step {
                        to: a,
                        leave: Direction::Backward,
                        arrive: Direction::Backward,
                    });
                }
                BranchKind::TurningLoop => {
                    // One way only (Rule 1.5.7); leaving the loop the train
                    // heads back the way it came.
                    let arrive = if k + 1 == last {
                        Direction::Backward
                    } else {
                        Direction::Forward
                    };
                    steps[a.index()].push(Step {
                        to: b,
                        leave: Direction::Forward,
                        arrive,
                    });
                    topo.loop_reverse[li][b.index()].push(Step {
                        to: a,
                        leave: arrive.reversed(),
                        arrive: Direction::Backward,
                    });
                }
            }
        }
        Some(ids)
    }

    /// Per-station records, with the checks that need the lines.
    fn stations(&mut self, topo: &Topology) -> Vec<Station> {
        let raw = self.raw;
        let mut stations = Vec::with_capacity(raw.stations.list.len());
        for (i, s) in raw.stations.list.iter().enumerate() {
            let name = s.name.get_ref().as_str();
            let lines_here = topo.station_lines[i];
            if lines_here.is_empty() {
                self.cx
                    .problem(&s.name.span(), Some(name), "station is on no line");
            }
            let sites = self.sites(s, lines_here);
            let kind = self.kind(s, &sites);
            let mut categories = name_categories(name);
            if s.british_rail {
                categories.insert(Category::BritishRail);
            }
            match kind {
                StationKind::Interchange => categories.insert(Category::Interchange),
                StationKind::CoLocated => categories.insert(Category::CoLocated),
                StationKind::Single => {}
            }
            let mut terminus_of = LineSet::EMPTY;
            for code in lines_here.iter() {
                let [fwd, back] = topo.leaves[code.index()][i];
                if fwd != back {
                    terminus_of.insert(code);
                }
            }
            if !terminus_of.is_empty() {
                categories.insert(Category::Terminus);
            }
            let call = LineCode::ALL
                .iter()
                .map(|l| topo.neighbours[l.index()][i].len() as u32)
                .sum();
            let mut zones = s.zones.clone();
            zones.sort_unstable();
            let mut quadrants = s.quadrants.clone();
            quadrants.sort_unstable();
            stations.push(Station {
                name: name.to_string(),
                current: s.current,
                zones,
                kind,
                british_rail: s.british_rail,
                thames: match s.thames {
                    RawBank::North => Bank::North,
                    RawBank::South => Bank::South,
                },
                quadrants,
                sites,
                lines: lines_here,
                terminus_of,
                call,
                categories,
            });
        }
        stations
    }

    /// Where a station's lines call: one site, or the file's sites, which
    /// must split its lines into two or more groups.
    fn sites(&mut self, s: &RawStation, lines_here: LineSet) -> Vec<Site> {
        let (name, span) = (s.name.get_ref().as_str(), s.name.span());
        let Some(raw_sites) = &s.sites else {
            return vec![Site {
                lines: lines_here,
                lat: s.lat.unwrap_or(0.0),
                lon: s.lon.unwrap_or(0.0),
            }];
        };
        let mut covered = LineSet::EMPTY;
        let mut sites = Vec::new();
        for rs in raw_sites {
            let mut set = LineSet::EMPTY;
            for l in &rs.lines {
                match LineCode::parse(l) {
                    Some(code) if lines_here.contains(code) && !covered.contains(code) => {
                        set.insert(code);
                        covered.insert(code);
                    }
                    _ => self.cx.problem(
                        &span,
                        Some(name),
                        format!("site line {l:?} is not a line of this station or is listed twice"),
                    ),
                }
            }
            sites.push(Site {
                lines: set,
                lat: rs.lat,
                lon: rs.lon,
            });
        }
        if covered != lines_here || sites.len() < 2 {
            self.cx.problem(
                &span,
                Some(name),
                "sites must split the station's lines into two or more groups",
            );
        }
        sites
    }

    /// How the map draws a station, checked against its sites.
    fn kind(&mut self, s: &RawStation, sites: &[Site]) -> StationKind {
        let (name, span) = (s.name.get_ref().as_str(), s.name.span());
        let kind = match s.kind {
            RawKind::Interchange => StationKind::Interchange,
            RawKind::CoLocated => StationKind::CoLocated,
            RawKind::Single => StationKind::Single,
        };
        let shared_site = sites.iter().any(|site| site.lines.len() > 1);
        match kind {
            StationKind::Single if shared_site => self.cx.problem(
                &span,
                Some(name),
                "several lines meet here: the station must be an interchange or co-located",
            ),
            StationKind::CoLocated if !shared_site => self.cx.problem(
                &span,
                Some(name),
                "a co-located station needs two lines at one site",
            ),
            _ => {}
        }
        kind
    }

    /// Escalator links or walking pairs: two different stations, each pair once.
    fn pairs(&mut self, list: &[[Spanned<String>; 2]], what: &str) -> Vec<(StationId, StationId)> {
        let mut out: Vec<(StationId, StationId)> = Vec::new();
        for [a, b] in list {
            let (x, y) = (self.lookup(a, what), self.lookup(b, what));
            let (Some(x), Some(y)) = (x, y) else { continue };
            if x == y {
                self.cx.problem(
                    &a.span(),
                    Some(a.get_ref()),
                    format!("{what} joins a station to itself"),
                );
            } else if out
                .iter()
                .any(|&(p, q)| (p, q) == (x, y) || (p, q) == (y, x))
            {
                self.cx.problem(
                    &b.span(),
                    Some(b.get_ref()),
                    format!("duplicate {what} pair"),
                );
            } else {
                out.push((x, y));
            }
        }
        out
    }

    /// A station has at most one escalator link (Rule 1.5.3).
    fn one_escalator_each(&mut self, escalator: &[(StationId, StationId)]) {
        for (k, &(a, b)) in escalator.iter().enumerate() {
            if escalator[..k]
                .iter()
                .any(|&(p, q)| [p, q].contains(&a) || [p, q].contains(&b))
            {
                let s = &self.raw.links.escalator[k][0];
                self.cx.problem(
                    &s.span(),
                    Some(s.get_ref()),
                    "a station has at most one escalator link",
                );
            }
        }
    }

    /// Ghost Stations are off the map: their names must not clash with it.
    fn ghost_names(&mut self) {
        for g in &self.raw.ghosts.names {
            if self.by_key.contains_key(&normalise(g.get_ref())) {
                self.cx.problem(
                    &g.span(),
                    Some(g.get_ref()),
                    "a Ghost Station cannot share a name with a station",
                );
            }
        }
    }

    /// Every name a station is found by: its own and its aliases.
    fn aliases(&mut self) -> HashMap<String, StationId> {
        let mut keys = self.by_key.clone();
        for (alias, target) in &self.raw.aliases {
            let Some(id) = self.lookup(target, "aliases") else {
                continue;
            };
            match keys.insert(normalise(alias.get_ref()), id) {
                Some(other) if other != id => self.cx.problem(
                    &alias.span(),
                    Some(alias.get_ref()),
                    format!(
                        "alias already names {:?}",
                        self.raw.stations.list[other.index()].name.get_ref()
                    ),
                ),
                _ => {}
            }
        }
        keys
    }

    /// The restricted openings of stations (Rule 1.13.5).
    fn station_restrictions(&mut self, stations: &[Station]) -> Vec<StationRestriction> {
        let mut out = Vec::new();
        for r in &self.raw.restricted.stations {
            let schedule = match Schedule::parse(r.open.get_ref()) {
                Ok(s) => s,
                Err(e) => {
                    self.cx.problem(&r.open.span(), None, e);
                    continue;
                }
            };
            let (station, category) = match (&r.station, &r.category) {
                (Some(s), None) => match self.lookup(s, "restricted.stations") {
                    Some(id) => (Some(id), None),
                    None => continue,
                },
                (None, Some(c)) => match Category::parse(c.get_ref()) {
                    Some(cat) => (None, Some(cat)),
                    None => {
                        self.cx.problem(
                            &c.span(),
                            None,
                            format!("unknown category {:?} (Rule 1.17.6)", c.get_ref()),
                        );
                        continue;
                    }
                },
                _ => {
                    self.cx.problem(
                        &r.open.span(),
                        None,
                        "a restriction names either a station or a category",
                    );
                    continue;
                }
            };
            let line = match &r.line {
                None => None,
                Some(l) => match (LineCode::parse(l.get_ref()), station) {
                    (Some(code), Some(id)) if stations[id.index()].lines.contains(code) => {
                        Some(code)
                    }
                    _ => {
                        self.cx.problem(
                            &l.span(),
                            None,
                            format!(
                                "line {:?} does not call at the restricted station",
                                l.get_ref()
                            ),
                        );
                        continue;
                    }
                },
            };
            out.push(StationRestriction {
                station,
                category,
                line,
                schedule,
                note: r.note.clone(),
            });
        }
        out
    }

    /// The restricted openings of stretches of line (Rule 1.13.6).
    fn segment_restrictions(
        &mut self,
        neighbours: &[Vec<BTreeSet<StationId>>],
    ) -> Vec<SegmentRestriction> {
        let mut out = Vec::new();
        for r in &self.raw.restricted.segments {
            let Some(line) = LineCode::parse(r.line.get_ref()) else {
                self.cx.problem(
                    &r.line.span(),
                    None,
                    format!("unknown Line Code {:?}", r.line.get_ref()),
                );
                continue;
            };
            let (Some(from), Some(to)) = (
                self.lookup(&r.from, "restricted.segments"),
                self.lookup(&r.to, "restricted.segments"),
            ) else {
                continue;
            };
            let schedule = match Schedule::parse(r.open.get_ref()) {
                Ok(s) => s,
                Err(e) => {
                    self.cx.problem(&r.open.span(), None, e);
                    continue;
                }
            };
            match line_path(&neighbours[line.index()], from, to) {
                Some(path) => out.push(SegmentRestriction {
                    line,
                    from,
                    to,
                    segments: path.windows(2).map(|w| (w[0], w[1])).collect(),
                    schedule,
                }),
                None => self.cx.problem(
                    &r.to.span(),
                    Some(r.to.get_ref()),
                    format!(
                        "no {line} line between {:?} and {:?}",
                        r.from.get_ref(),
                        r.to.get_ref()
                    ),
                ),
            }
        }
        out
    }

    /// Every station a rule names, by the file's `[landmarks]` entry or the
    /// rule's own spelling; a map without one is refused, naming it.
    fn landmarks(&mut self, keys: &HashMap<String, StationId>) -> Option<Landmarks> {
        let raw = self.raw;
        for key in raw.landmarks.keys() {
            if Landmark::from_key(key.get_ref()).is_none() {
                let known: Vec<String> = Landmark::ALL.iter().map(|l| l.key()).collect();
                self.cx.problem(
                    &key.span(),
                    None,
                    format!(
                        "unknown landmark {:?}; the landmarks are {}",
                        key.get_ref(),
                        known.join(", ")
                    ),
                );
            }
        }
        let mut found = Vec::with_capacity(Landmark::ALL.len());
        for l in Landmark::ALL {
            let named = raw.landmarks.iter().find(|(k, _)| *k.get_ref() == l.key());
            let id = match named {
                Some((_, name)) => self.lookup(name, "landmarks"),
                None => {
                    let id = keys.get(&normalise(l.rule_name())).copied();
                    if id.is_none() {
                        self.cx.problem(
                            &(0..0),
                            Some(l.rule_name()),
                            format!(
                                "Rule {} names {}, which is not on this map: add the station, or name the map's station for it in [landmarks] {} = \"...\"",
                                l.rule(),
                                l.rule_name(),
                                l.key()
                            ),
                        );
                    }
                    id
                }
            };
            found.push(id);
        }
        found
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .map(Landmarks::new)
    }
}

/// The stations along one line from `a` to `b` (shortest), if connected.
fn line_path(adj: &[BTreeSet<StationId>], a: StationId, b: StationId) -> Option<Vec<StationId>> {
    let mut prev: Vec<Option<StationId>> = vec![None; adj.len()];
    let mut queue = std::collections::VecDeque::from([a]);
    prev[a.index()] = Some(a);
    while let Some(s) = queue.pop_front() {
        if s == b {
            let mut path = vec![b];
            let mut cur = b;
            while cur != a {
                cur = prev[cur.index()]?;
                path.push(cur);
            }
            path.reverse();
            return Some(path);
        }
        for &t in &adj[s.index()] {
            if prev[t.index()].is_none() {
                prev[t.index()] = Some(s);
                queue.push_back(t);
            }
        }
    }
    None
}
