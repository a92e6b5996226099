//! Restricted openings of stations (Rule 1.13.5) and of line segments.

use super::*;

impl Builder<'_> {
    /// The restricted openings of stations (Rule 1.13.5).
    pub(super) fn station_restrictions(&mut self, stations: &[Station]) -> Vec<StationRestriction> {
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
    pub(super) fn segment_restrictions(
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
