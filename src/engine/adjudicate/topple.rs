//! Toppling a Token Stack along a line (Rule 1.7.55, RULINGS.md E67).

use super::*;

/// How a Stack may be strewn towards a Target Station.
enum Strew {
    /// One path along one line, the Stack's station first, the Target last.
    Path(Vec<StationId>),
    /// No line serving the Stack's station reaches the Target in exactly
    /// that many stations.
    None,
    /// Several paths of that length strew the Tokens differently.
    Several,
}

impl Turn<'_> {
    /// `[Topple to <Station>]` (Rule 1.7.55): with an LV above four, after
    /// the Move, the Stack at the Piece's Station is strewn along one of
    /// that Station's lines: its top Token to the Target, twice the LV
    /// stations away along that line, the next one station less, and so
    /// on; a Token that cannot be placed (Rule 1.14.3's six, a Pegged
    /// Station, Rule 1.11.4) disappears; the LV becomes zero.
    pub(super) fn topple(&mut self, a: &Action, target: &Target) -> Charge {
        let me = self.me;
        let lv = self.s.players[me].lv;
        let Some(here) = self.here() else {
            self.illegal("1.7.55", "the Piece is not on the Map");
            return Charge::Free;
        };
        let Some(to) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if lv <= 4 {
            self.illegal(
                "1.7.55",
                format!("a Topple needs a Line Velocity greater than four (the LV is {lv})"),
            );
            return Charge::Free;
        }
        let Some(tokens) = self.s.stack(here).filter(|t| !t.is_empty()).cloned() else {
            self.illegal(
                "1.7.55",
                format!(
                    "there is no Token Stack at {}, the Piece's Station, to Topple",
                    self.name(here)
                ),
            );
            return Charge::Free;
        };
        if self.pegged(here) {
            self.illegal(
                "1.11.4",
                format!(
                    "{} is Pegged: no Token may be removed from it",
                    self.name(here)
                ),
            );
            return Charge::Free;
        }
        let Some(path) = self.topple_path(here, to, target, lv) else {
            return Charge::Free;
        };
        let p = 2 * lv;
        if tokens.len() > p as usize {
            self.ruling(
                "1.7.55",
                format!(
                    "the Stack holds {} Tokens, more than the {p} stations they are strewn over",
                    tokens.len()
                ),
            );
            return Charge::Free;
        }
        self.strew(here, &tokens, &path);
        self.s.players[me].lv = 0;
        self.change(format!(
            "{} Topples the Stack at {} towards {}: the LV is reduced to zero (Rule 1.7.55)",
            self.my_name(),
            self.name(here),
            target.station
        ));
        Charge::Table
    }

    /// The way the Tokens are strewn, `p` = twice the LV stations from
    /// `here` to the Target along one line serving `here`; `None` after
    /// saying why there is none (Illegal) or why it is not one (a ruling).
    fn topple_path(
        &mut self,
        here: StationId,
        to: StationId,
        target: &Target,
        lv: u32,
    ) -> Option<Vec<StationId>> {
        if let Some(l) = target
            .line
            .filter(|l| !self.map.station(here).lines.contains(*l))
        {
            self.illegal(
                "1.7.55",
                format!(
                    "the {l} does not serve {}: the Target's Line Code must be one of the Lines serving the Toppled Stack's Station",
                    self.name(here)
                ),
            );
            return None;
        }
        let p = 2 * lv;
        match self.strew_path(here, to, target.line, p) {
            Strew::Path(path) => Some(path),
            Strew::None => {
                let lines = match target.line {
                    Some(l) => format!("the {l}"),
                    None => format!("any line serving {}", self.name(here)),
                };
                self.illegal(
                    "1.7.55",
                    format!(
                        "{} is not {p} stations (twice the LV of {lv}) from the Stack at {} along {lines}",
                        target.station,
                        self.name(here)
                    ),
                );
                None
            }
            Strew::Several => {
                self.ruling(
                    "1.7.55",
                    format!(
                        "more than one line or path of {p} stations leads from {} to {}: the Topple does not say along which the Tokens are strewn",
                        self.name(here),
                        target.station
                    ),
                );
                None
            }
        }
    }

    /// Places the Toppled Tokens, top first, from the far end of `path`
    /// back towards its start.
    fn strew(&mut self, from: StationId, tokens: &[Colour], path: &[StationId]) {
        self.s.stacks.retain(|(s, _)| *s != from);
        let mut lost = 0;
        for (k, c) in tokens.iter().rev().enumerate() {
            let at = path[path.len() - 1 - k];
            let room = self.unlimited_stack(at) || self.s.stack(at).map_or(0, Vec::len) < 6;
            if !room || self.pegged(at) {
                lost += 1;
                continue;
            }
            let i = self.stack_index(at);
            self.s.stacks[i].1.push(*c);
            self.tally.dropped_on.push(at);
        }
        if lost > 0 {
            self.change(format!(
                "{lost} Toppled Token(s) cannot be placed and disappear (Rules 1.7.55, 1.14.3, 1.11.4)"
            ));
        }
    }

    /// The one path of exactly `p` stations along one line serving `from`
    /// (`line` if the Target names one) to `to`, by the fewest stations
    /// along that line; Blocks, closures and Line States do not count.
    fn strew_path(&self, from: StationId, to: StationId, line: Option<LineCode>, p: u32) -> Strew {
        let serving = self.map.station(from).lines;
        let mut found: Option<Vec<StationId>> = None;
        for l in serving.iter().filter(|l| line.is_none_or(|x| x == *l)) {
            match line_path(self.map, from, to, l, p) {
                Strew::Path(path) => {
                    if found.as_ref().is_some_and(|f| *f != path) {
                        return Strew::Several;
                    }
                    found = Some(path);
                }
                Strew::Several => return Strew::Several,
                Strew::None => {}
            }
        }
        found.map_or(Strew::None, Strew::Path)
    }
}

/// The shortest path along line `l` from `from` to `to`, if it has exactly
/// `p` steps and is the only one.
fn line_path(map: &Map, from: StationId, to: StationId, l: LineCode, p: u32) -> Strew {
    let n = map.stations().len();
    let mut dist = vec![u32::MAX; n];
    let mut ways = vec![0u32; n];
    let mut prev = vec![None; n];
    let mut queue = std::collections::VecDeque::new();
    dist[from.index()] = 0;
    ways[from.index()] = 1;
    queue.push_back(from);
    while let Some(x) = queue.pop_front() {
        if dist[x.index()] >= p {
            continue;
        }
        for &y in map.neighbours(x, l) {
            let d = dist[x.index()] + 1;
            if dist[y.index()] == u32::MAX {
                dist[y.index()] = d;
                ways[y.index()] = ways[x.index()];
                prev[y.index()] = Some(x);
                queue.push_back(y);
            } else if dist[y.index()] == d {
                ways[y.index()] = ways[y.index()].saturating_add(ways[x.index()]);
            }
        }
    }
    if dist[to.index()] != p {
        return Strew::None;
    }
    if ways[to.index()] > 1 {
        return Strew::Several;
    }
    let mut path = vec![to];
    let mut at = to;
    while let Some(b) = prev[at.index()] {
        path.push(b);
        at = b;
    }
    path.reverse();
    Strew::Path(path)
}
