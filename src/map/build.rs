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
use super::names::normalise;
use super::raw::{BranchKind, RawBank, RawKind, RawMap};
use super::schedule::Schedule;
use super::{
    Bank, Direction, Line, LineCode, LineSet, Map, SegmentRestriction, Site, Station, StationId,
    StationKind, StationRestriction, Step,
};

struct Ctx<'a> {
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
    let mut cx = Ctx {
        origin,
        line_starts: std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect(),
        problems: Vec::new(),
    };

    // Stations: the Current table of Rule 1.17.8.
    let mut by_name: HashMap<String, StationId> = HashMap::new();
    let mut by_key: HashMap<String, StationId> = HashMap::new();
    for (i, s) in raw.stations.list.iter().enumerate() {
        let id = StationId(i as u16);
        let (name, span) = (s.name.get_ref().as_str(), s.name.span());
        if by_name.insert(name.to_string(), id).is_some() {
            cx.problem(&span, Some(name), "duplicate station");
        } else if let Some(other) = by_key.insert(normalise(name), id) {
            let other = raw.stations.list[other.index()].name.get_ref().clone();
            cx.problem(
                &span,
                Some(name),
                format!("name is indistinguishable from {other:?}"),
            );
        }
        if s.zones.is_empty() || s.zones.iter().any(|z| !(1..=7).contains(z)) {
            cx.problem(
                &span,
                Some(name),
                format!("zones {:?} must be one or two of 1-7", s.zones),
            );
        } else if s.zones.len() > 2 || (s.zones.len() == 2 && s.zones[0].abs_diff(s.zones[1]) != 1)
        {
            cx.problem(
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
            cx.problem(
                &span,
                Some(name),
                format!("quadrants {q:?}: either [0] or up to three of 1-4"),
            );
        }
        match (&s.sites, s.lat, s.lon) {
            (None, Some(_), Some(_)) | (Some(_), None, None) => {}
            _ => cx.problem(&span, Some(name), "give either lat and lon, or sites"),
        }
    }
    let lookup = |cx: &mut Ctx, name: &Spanned<String>, what: &str| -> Option<StationId> {
        let id = by_name.get(name.get_ref()).copied();
        if id.is_none() {
            cx.problem(
                &name.span(),
                Some(name.get_ref()),
                format!("unknown station in {what} (not in the station list of Rule 1.17.8)"),
            );
        }
        id
    };

    // Lines and their branches.
    let n = raw.stations.list.len();
    let mut lines: Vec<Option<Line>> = vec![None; LineCode::ALL.len()];
    let mut steps: Vec<Vec<Vec<Step>>> = vec![vec![Vec::new(); n]; LineCode::ALL.len()];
    let mut neighbours: Vec<Vec<BTreeSet<StationId>>> =
        vec![vec![BTreeSet::new(); n]; LineCode::ALL.len()];
    // Directions a station's segments leave it in, ignoring one-way rules.
    let mut leaves: Vec<Vec<[bool; 2]>> = vec![vec![[false; 2]; n]; LineCode::ALL.len()];
    let mut station_lines = vec![LineSet::EMPTY; n];
    for (code_s, raw_line) in &raw.lines {
        let Some(code) = LineCode::parse(code_s.get_ref()).filter(|c| c.code() == code_s.get_ref())
        else {
            cx.problem(
                &code_s.span(),
                None,
                format!("unknown Line Code {:?} (Rule 1.17.4)", code_s.get_ref()),
            );
            continue;
        };
        let li = code.index();
        let mut seen_segments: HashSet<(StationId, StationId)> = HashSet::new();
        let mut branches = Vec::new();
        for branch in &raw_line.branches {
            let ids: Vec<Option<StationId>> = branch
                .stations
                .iter()
                .map(|s| lookup(&mut cx, s, &format!("{code} branch {:?}", branch.name)))
                .collect();
            let Some(first) = branch.stations.first() else {
                cx.problem(
                    &code_s.span(),
                    None,
                    format!("{code} branch {:?} is empty", branch.name),
                );
                continue;
            };
            if branch.stations.len() < 2 {
                cx.problem(
                    &first.span(),
                    Some(first.get_ref()),
                    format!("{code} branch {:?} needs two stations", branch.name),
                );
                continue;
            }
            let closed = branch.stations.first().map(|s| s.get_ref())
                == branch.stations.last().map(|s| s.get_ref());
            if (branch.kind != BranchKind::Line) != closed {
                cx.problem(
                    &first.span(),
                    Some(first.get_ref()),
                    format!(
                        "{code} branch {:?}: a loop ends where it starts, and only a loop does",
                        branch.name
                    ),
                );
            }
            if ids.iter().any(Option::is_none) {
                continue;
            }
            let ids: Vec<StationId> = ids.into_iter().flatten().collect();
            let last = ids.len() - 1;
            for (k, pair) in ids.windows(2).enumerate() {
                let (a, b) = (pair[0], pair[1]);
                let span = branch.stations[k + 1].span();
                let bname = branch.stations[k + 1].get_ref();
                if a == b {
                    cx.problem(
                        &span,
                        Some(bname),
                        format!("{code}: a station cannot be adjacent to itself"),
                    );
                    continue;
                }
                let key = (a.min(b), a.max(b));
                if !seen_segments.insert(key) {
                    cx.problem(
                        &span,
                        Some(bname),
                        format!(
                            "{code}: duplicate segment {} - {} (each segment is listed once, in the forward direction)",
                            raw.stations.list[a.index()].name.get_ref(),
                            bname
                        ),
                    );
                    continue;
                }
                station_lines[a.index()].insert(code);
                station_lines[b.index()].insert(code);
                neighbours[li][a.index()].insert(b);
                neighbours[li][b.index()].insert(a);
                leaves[li][a.index()][0] = true;
                leaves[li][b.index()][1] = true;
                match branch.kind {
                    BranchKind::Line | BranchKind::Loop => {
                        steps[li][a.index()].push(Step {
                            to: b,
                            leave: Direction::Forward,
                            arrive: Direction::Forward,
                        });
                        steps[li][b.index()].push(Step {
                            to: a,
                            leave: Direction::Backward,
                            arrive: Direction::Backward,
                        });
                    }
                    BranchKind::TurningLoop => {
                        // One way only (Rule 1.5.7); leaving the loop the
                        // train heads back the way it came.
                        let arrive = if k + 1 == last {
                            Direction::Backward
                        } else {
                            Direction::Forward
                        };
                        steps[li][a.index()].push(Step {
                            to: b,
                            leave: Direction::Forward,
                            arrive,
                        });
                    }
                }
            }
            branches.push(ids);
        }
        if LineCode::parse(&raw_line.direction).is_some() || raw_line.direction.trim().is_empty() {
            cx.problem(
                &code_s.span(),
                None,
                format!("{code}: direction must name the Rule 1.20.2 direction"),
            );
        }
        lines[li] = Some(Line {
            code,
            name: raw_line.name.clone(),
            direction: raw_line.direction.clone(),
            branches,
            segments: seen_segments.len(),
        });
    }
    for code in LineCode::ALL {
        if lines[code.index()].is_none() && !raw.lines.keys().any(|k| k.get_ref() == code.code()) {
            cx.problem(
                &(0..0),
                None,
                format!("line {code} (Rule 1.17.4) is missing"),
            );
        }
    }

    // Per-station checks that need the lines.
    let mut stations = Vec::with_capacity(n);
    for (i, s) in raw.stations.list.iter().enumerate() {
        let (name, span) = (s.name.get_ref().as_str(), s.name.span());
        let lines_here = station_lines[i];
        if lines_here.is_empty() {
            cx.problem(&span, Some(name), "station is on no line");
        }
        let sites: Vec<Site> = match &s.sites {
            None => vec![Site {
                lines: lines_here,
                lat: s.lat.unwrap_or(0.0),
                lon: s.lon.unwrap_or(0.0),
            }],
            Some(raw_sites) => {
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
                            _ => cx.problem(&span, Some(name), format!("site line {l:?} is not a line of this station or is listed twice")),
                        }
                    }
                    sites.push(Site {
                        lines: set,
                        lat: rs.lat,
                        lon: rs.lon,
                    });
                }
                if covered != lines_here || sites.len() < 2 {
                    cx.problem(
                        &span,
                        Some(name),
                        "sites must split the station's lines into two or more groups",
                    );
                }
                sites
            }
        };
        let kind = match s.kind {
            RawKind::Interchange => StationKind::Interchange,
            RawKind::CoLocated => StationKind::CoLocated,
            RawKind::Single => StationKind::Single,
        };
        let shared_site = sites.iter().any(|site| site.lines.len() > 1);
        match kind {
            StationKind::Single if shared_site => cx.problem(
                &span,
                Some(name),
                "several lines meet here: the station must be an interchange or co-located",
            ),
            StationKind::CoLocated if !shared_site => cx.problem(
                &span,
                Some(name),
                "a co-located station needs two lines at one site",
            ),
            _ => {}
        }
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
            let [fwd, back] = leaves[code.index()][i];
            if fwd != back {
                terminus_of.insert(code);
            }
        }
        if !terminus_of.is_empty() {
            categories.insert(Category::Terminus);
        }
        let call = LineCode::ALL
            .iter()
            .map(|l| neighbours[l.index()][i].len() as u32)
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

    // Escalator links and walking pairs.
    let pairs =
        |cx: &mut Ctx, list: &[[Spanned<String>; 2]], what: &str| -> Vec<(StationId, StationId)> {
            let mut out: Vec<(StationId, StationId)> = Vec::new();
            for [a, b] in list {
                let (x, y) = (lookup(cx, a, what), lookup(cx, b, what));
                let (Some(x), Some(y)) = (x, y) else { continue };
                if x == y {
                    cx.problem(
                        &a.span(),
                        Some(a.get_ref()),
                        format!("{what} joins a station to itself"),
                    );
                } else if out
                    .iter()
                    .any(|&(p, q)| (p, q) == (x, y) || (p, q) == (y, x))
                {
                    cx.problem(
                        &b.span(),
                        Some(b.get_ref()),
                        format!("duplicate {what} pair"),
                    );
                } else {
                    out.push((x, y));
                }
            }
            out
        };
    let escalator = pairs(&mut cx, &raw.links.escalator, "escalator link");
    let walking = pairs(&mut cx, &raw.links.walking, "walking pair");
    for (k, &(a, b)) in escalator.iter().enumerate() {
        if escalator[..k]
            .iter()
            .any(|&(p, q)| [p, q].contains(&a) || [p, q].contains(&b))
        {
            let s = &raw.links.escalator[k][0];
            cx.problem(
                &s.span(),
                Some(s.get_ref()),
                "a station has at most one escalator link",
            );
        }
    }

    // Ghost Stations are off the map: their names must not clash with it.
    for g in &raw.ghosts.names {
        if by_key.contains_key(&normalise(g.get_ref())) {
            cx.problem(
                &g.span(),
                Some(g.get_ref()),
                "a Ghost Station cannot share a name with a station",
            );
        }
    }

    // Aliases.
    let mut keys = by_key.clone();
    for (alias, target) in &raw.aliases {
        let Some(id) = lookup(&mut cx, target, "aliases") else {
            continue;
        };
        match keys.insert(normalise(alias.get_ref()), id) {
            Some(other) if other != id => cx.problem(
                &alias.span(),
                Some(alias.get_ref()),
                format!(
                    "alias already names {:?}",
                    raw.stations.list[other.index()].name.get_ref()
                ),
            ),
            _ => {}
        }
    }

    // Restricted openings.
    let mut station_restrictions = Vec::new();
    for r in &raw.restricted.stations {
        let schedule = match Schedule::parse(r.open.get_ref()) {
            Ok(s) => s,
            Err(e) => {
                cx.problem(&r.open.span(), None, e);
                continue;
            }
        };
        let (station, category) = match (&r.station, &r.category) {
            (Some(s), None) => match lookup(&mut cx, s, "restricted.stations") {
                Some(id) => (Some(id), None),
                None => continue,
            },
            (None, Some(c)) => match Category::parse(c.get_ref()) {
                Some(cat) => (None, Some(cat)),
                None => {
                    cx.problem(
                        &c.span(),
                        None,
                        format!("unknown category {:?} (Rule 1.17.6)", c.get_ref()),
                    );
                    continue;
                }
            },
            _ => {
                cx.problem(
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
                (Some(code), Some(id)) if stations[id.index()].lines.contains(code) => Some(code),
                _ => {
                    cx.problem(
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
        station_restrictions.push(StationRestriction {
            station,
            category,
            line,
            schedule,
            note: r.note.clone(),
        });
    }
    let mut segment_restrictions = Vec::new();
    for r in &raw.restricted.segments {
        let Some(line) = LineCode::parse(r.line.get_ref()) else {
            cx.problem(
                &r.line.span(),
                None,
                format!("unknown Line Code {:?}", r.line.get_ref()),
            );
            continue;
        };
        let (Some(from), Some(to)) = (
            lookup(&mut cx, &r.from, "restricted.segments"),
            lookup(&mut cx, &r.to, "restricted.segments"),
        ) else {
            continue;
        };
        let schedule = match Schedule::parse(r.open.get_ref()) {
            Ok(s) => s,
            Err(e) => {
                cx.problem(&r.open.span(), None, e);
                continue;
            }
        };
        match line_path(&neighbours[line.index()], from, to) {
            Some(path) => segment_restrictions.push(SegmentRestriction {
                line,
                from,
                to,
                segments: path.windows(2).map(|w| (w[0], w[1])).collect(),
                schedule,
            }),
            None => cx.problem(
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

    let meridian = lookup(&mut cx, &raw.map.meridian, "map.meridian");
    if !cx.problems.is_empty() {
        return Err(MapError::Invalid(cx.problems));
    }
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| l.expect("checked above"))
        .collect();
    let distances = Distances::compute(&stations, &steps, &escalator);
    let longest_name = stations
        .iter()
        .map(|s| normalise(&s.name).chars().count())
        .max()
        .unwrap_or(0);
    Ok(Map {
        name: raw.map.name,
        meridian: meridian.expect("checked above"),
        stations,
        lines,
        longest_name,
        by_key: keys,
        steps,
        neighbours: neighbours
            .into_iter()
            .map(|per| per.into_iter().map(|s| s.into_iter().collect()).collect())
            .collect(),
        escalator,
        walking,
        ghosts: raw
            .ghosts
            .names
            .into_iter()
            .map(Spanned::into_inner)
            .collect(),
        ghost_current: raw.ghosts.current,
        station_restrictions,
        segment_restrictions,
        distances,
    })
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
