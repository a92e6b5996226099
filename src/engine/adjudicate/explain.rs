//! Finding a Move's route under the game's constraints, and saying which
//! rule stops a Move that has none (RULINGS.md E11).

use super::*;

impl Turn<'_> {
    /// Searches every candidate destination line under `relax`: the first
    /// line with a route of exactly `lv` stations, and all route lengths.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn route(
        &self,
        relax: &Relax,
        may_change: bool,
        at: Position,
        candidates: &[LineCode],
        via: &[LineCode],
        dest: StationId,
        lv: u32,
    ) -> (Option<(LineCode, crate::engine::route::Found)>, Vec<u32>) {
        let map = self.map;
        // Looked up once: the closure runs for every station the search enters.
        let hyde = self.hyde() && !relax.hyde;
        let enterable = |s: StationId| {
            (relax.blocks || !self.blocked(s))
                && !(hyde && map.station(s).categories.contains(Category::Holy))
        };
        let passable = |s: StationId| {
            (relax.passing || self.passable(s)) && (relax.power || self.power_failed(s).is_none())
        };
        let open = |s: StationId, l: Option<LineCode>| relax.closures || self.open(s, l);
        let seg = |l: LineCode, a: StationId, b: StationId| {
            (relax.closures || map.segment_open(l, a, b, self.opening_day(), self.now().minutes))
                && (relax.one_way || self.one_way_allows(a, b))
        };
        let next_to_block =
            |s: StationId, l: LineCode| map.neighbours(s, l).iter().any(|&n| self.blocked(n));
        let rules = Rules {
            enterable: &enterable,
            passable: &passable,
            open: &open,
            segment_open: &seg,
            may_change: may_change || relax.changes,
            rebounding: self.rebounding,
            next_to_block: &next_to_block,
            no_turn_back: !relax.turn_back,
        };
        let mut best = None;
        let mut lengths: Vec<u32> = Vec::new();
        for l in candidates {
            let mut portions: Vec<LineCode> = via.to_vec();
            portions.push(*l);
            let found = search(
                map, &rules, at.station, at.line, &portions, dest, lv, MAX_ROUTE,
            );
            if found.lengths.contains(&lv) && best.is_none() {
                best = Some((*l, found.clone()));
            }
            lengths.extend(found.lengths);
        }
        lengths.sort_unstable();
        lengths.dedup();
        (best, lengths)
    }

    /// No route fits: find which rule stops it by lifting one constraint at
    /// a time, and say what would have been legal.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn explain_no_route(
        &mut self,
        may_change: bool,
        at: Position,
        candidates: &[LineCode],
        via: &[LineCode],
        dest: StationId,
        lv: u32,
        written: &str,
        lengths: &[u32],
    ) {
        let map = self.map;
        let from = at.text(map);
        let fits = |t: &Self, r: Relax| {
            t.route(&r, may_change, at, candidates, via, dest, lv)
                .0
                .is_some()
        };
        let mut found_cause = false;
        if fits(
            self,
            Relax {
                blocks: true,
                ..Relax::default()
            },
        ) {
            found_cause = true;
            let blocked: Vec<StationId> = map.station_ids().filter(|s| self.blocked(*s)).collect();
            for b in blocked
                .iter()
                .filter(|b| **b == dest)
                .chain(blocked.iter().filter(|b| **b != dest))
            {
                let name = self.name(*b).to_string();
                let home_of = self
                    .s
                    .players
                    .iter()
                    .enumerate()
                    .find(|(i, p)| *i != self.me && p.home == Some(*b))
                    .map(|(_, p)| p.name.clone());
                let electrified = self.metallic_at_move
                    && self.s.disruptions.iter().any(|d| matches!(d, Disruption::Line { line, state: LineState::Electrified } if map.station(*b).lines.contains(*line)));
                let (rule, why) = if electrified {
                    ("1.20.3", format!("{name} is on an Electrified line and the Piece carries Metallic Tokens"))
                } else if let Some(owner) = home_of {
                    ("1.12.3", format!("{name} is {owner}'s Home Station, Blocked during your Turn unless you pay a Toll or Rent"))
                } else if self.s.has_mark(map, *b, StationMark::Bulkhead) {
                    ("1.9.3", format!("{name} is Bulkheaded, and so Blocked"))
                } else if self.s.has_mark(map, *b, StationMark::HeavyDamage) {
                    (
                        "1.11.3",
                        format!("{name} is Heavily Damaged, and so Blocked"),
                    )
                } else {
                    ("1.9.1", format!("{name} is Blocked"))
                };
                let place = if *b == dest {
                    "ends at"
                } else {
                    "would pass through"
                };
                self.illegal(
                    rule,
                    format!("{written} from {from} {place} a Blocked station: {why}"),
                );
                if *b == dest {
                    break;
                }
            }
        }
        if self.hyde()
            && fits(
                self,
                Relax {
                    hyde: true,
                    ..Relax::default()
                },
            )
        {
            found_cause = true;
            self.illegal(
                "1.7.38",
                format!("{written} from {from} would pass through or end at a Holy Station, which a player wearing the Hyde Mask may not"),
            );
        }
        if fits(
            self,
            Relax {
                closures: true,
                ..Relax::default()
            },
        ) {
            found_cause = true;
            let when = self.now();
            let msg = if !self.open(dest, candidates.first().copied()) {
                let mc = map.is(dest, Landmark::MorningtonCrescent);
                format!(
                    "{} is Closed at {when}{}",
                    self.name(dest),
                    if mc {
                        " ([Opening MC] before the Move opens it, Rule 1.7.28)"
                    } else {
                        ""
                    }
                )
            } else if !self.open(at.station, at.line) {
                format!(
                    "{} is Closed at {when}: no Move starts there",
                    self.name(at.station)
                )
            } else {
                format!("{written} changes line at a Closed station or runs on a Closed Line Segment at {when}")
            };
            self.illegal("1.13.4", msg);
        }
        if fits(
            self,
            Relax {
                one_way: true,
                ..Relax::default()
            },
        ) {
            found_cause = true;
            self.illegal(
                "1.20.2",
                format!("{written} from {from} runs against a One Way Line"),
            );
        }
        if fits(
            self,
            Relax {
                passing: true,
                ..Relax::default()
            },
        ) {
            found_cause = true;
            let (rule, what) = if self.s.disruptions.iter().any(|d| {
                matches!(
                    d,
                    Disruption::Station {
                        mark: StationMark::Maelberg,
                        ..
                    }
                )
            }) {
                ("1.9.5", "a Maelberged station")
            } else if self.s.has(&Disruption::Sgronk) {
                ("1.8.10", "a Token Stack while the game is in Sgronk")
            } else {
                ("1.9.6", "a Kafka Sinkhole")
            };
            self.illegal(
                rule,
                format!("{written} from {from} would pass through {what}"),
            );
        }
        // Only a Power Failure in force can be the cause (and the search is
        // the costly part of a diagnosis).
        let lines: Vec<String> = self
            .s
            .disruptions
            .iter()
            .filter_map(|d| match d {
                Disruption::Line {
                    line,
                    state: LineState::PowerFailure,
                } => Some(format!("the {line}")),
                _ => None,
            })
            .collect();
        if !lines.is_empty()
            && fits(
                self,
                Relax {
                    power: true,
                    ..Relax::default()
                },
            )
        {
            found_cause = true;
            self.illegal(
                "1.20.5",
                format!(
                    "{written} from {from} would pass through a station of {}, which has a Power Failure",
                    lines.join(" or ")
                ),
            );
        }
        if !may_change
            && fits(
                self,
                Relax {
                    changes: true,
                    ..Relax::default()
                },
            )
        {
            found_cause = true;
            self.illegal(
                "1.8.7",
                "the game is Gapminding: no change of Line without a Book",
            );
        }
        if fits(
            self,
            Relax {
                turn_back: true,
                ..Relax::default()
            },
        ) {
            found_cause = true;
            self.illegal("1.5.4", format!("{written} from {from} reverses Line Direction while changing line at a Co-Located station"));
        }
        if found_cause {
            return;
        }
        if lengths.is_empty() {
            self.illegal("1.5.4", format!("no route from {from} to {written} follows those Line Codes (without reversing, through open, unblocked stations)"));
        } else {
            let list: Vec<String> = lengths.iter().take(5).map(u32::to_string).collect();
            self.illegal(
                "1.6.2",
                format!(
                    "{written} is not {lv} stations from {from} along those lines: it needs LV {}",
                    list.join(" or ")
                ),
            );
        }
    }
}
