//! The lines of the map file and their branches (Rule 1.17.4): the
//! segments, the steps a Piece can take along them, and turning loops.

use super::*;

impl Builder<'_> {
    /// Lines and their branches; every line of Rule 1.17.4 must be there.
    pub(super) fn lines(&mut self) -> Topology {
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
            let colour = LineColour::parse(raw_line.colour.get_ref()).unwrap_or_else(|| {
                self.cx.problem(
                    &raw_line.colour.span(),
                    None,
                    format!(
                        "{code}: colour {:?} is not #RRGGBB",
                        raw_line.colour.get_ref()
                    ),
                );
                LineColour([0, 0, 0])
            });
            topo.lines[code.index()] = Some(Line {
                code,
                name: raw_line.name.clone(),
                colour,
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
            topo.add_segment(code, &branch.kind, a, b, k + 1 == last);
        }
        Some(ids)
    }
}

impl Topology {
    /// Records the segment `a` - `b` of line `code`, on a branch of `kind`
    /// (`last_segment` when it ends the branch): the stations' lines and
    /// neighbours, the directions it leaves them in, and the steps a Piece
    /// can take along it.
    fn add_segment(
        &mut self,
        code: LineCode,
        kind: &BranchKind,
        a: StationId,
        b: StationId,
        last_segment: bool,
    ) {
        let li = code.index();
        self.station_lines[a.index()].insert(code);
        self.station_lines[b.index()].insert(code);
        self.neighbours[li][a.index()].insert(b);
        self.neighbours[li][b.index()].insert(a);
        self.leaves[li][a.index()][0] = true;
        self.leaves[li][b.index()][1] = true;
        let steps = &mut self.steps[li];
        match kind {
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
                let arrive = if last_segment {
                    Direction::Backward
                } else {
                    Direction::Forward
                };
                steps[a.index()].push(Step {
                    to: b,
                    leave: Direction::Forward,
                    arrive,
                });
                self.loop_reverse[li][b.index()].push(Step {
                    to: a,
                    leave: arrive.reversed(),
                    arrive: Direction::Backward,
                });
            }
        }
    }
}
