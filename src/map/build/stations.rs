//! Per-station records: sites, kinds, escalators, Ghost Station names,
//! aliases and the landmarks the rules name.

use super::*;

impl Builder<'_> {
    /// Per-station records, with the checks that need the lines.
    pub(super) fn stations(&mut self, topo: &Topology) -> Vec<Station> {
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
                venbacker: Venbacker::new(s.venbacker).unwrap_or(Venbacker::FIRST),
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

    /// Venbacker Numbers (RULINGS.md M19): every station's is one of 1 to
    /// the number of stations, none twice; the stations in their order.
    pub(super) fn venbacker_numbers(&mut self) -> Vec<StationId> {
        let list = &self.raw.stations.list;
        let mut by_number: Vec<Option<StationId>> = vec![None; list.len()];
        for (i, s) in list.iter().enumerate() {
            let (name, span) = (s.name.get_ref().as_str(), s.name.span());
            let n = s.venbacker as usize;
            if !(1..=list.len()).contains(&n) {
                self.cx.problem(
                    &span,
                    Some(name),
                    format!(
                        "Venbacker Number {n} is not one of 1-{} (one per station)",
                        list.len()
                    ),
                );
            } else if let Some(other) = by_number[n - 1] {
                let other = list[other.index()].name.get_ref().clone();
                self.cx.problem(
                    &span,
                    Some(name),
                    format!("Venbacker Number {n} is also {other:?}'s"),
                );
            } else {
                by_number[n - 1] = Some(StationId(i as u16));
            }
        }
        by_number.into_iter().flatten().collect()
    }

    /// Escalator links or walking pairs: two different stations, each pair once.
    pub(super) fn pairs(
        &mut self,
        list: &[[Spanned<String>; 2]],
        what: &str,
    ) -> Vec<(StationId, StationId)> {
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
    pub(super) fn one_escalator_each(&mut self, escalator: &[(StationId, StationId)]) {
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
    pub(super) fn ghost_names(&mut self) {
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
    pub(super) fn aliases(&mut self) -> HashMap<String, StationId> {
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

    /// Every station a rule names, by the file's `[landmarks]` entry or the
    /// rule's own spelling; a map without one is refused, naming it.
    pub(super) fn landmarks(&mut self, keys: &HashMap<String, StationId>) -> Option<Landmarks> {
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
