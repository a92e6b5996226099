//! Finding a Move's route under the game's constraints, and saying which
//! rule stops a Move that has none: each constraint is lifted in turn, and
//! the ones whose lifting lets the Move through are the rules it breaks
//! (RULINGS.md E11).

use super::*;
use crate::engine::route::Found;

/// Constraints lifted when explaining why no route fits.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Relax {
    pub(super) one_way: bool,
    pub(super) power: bool,
    pub(super) blocks: bool,
    pub(super) closures: bool,
    pub(super) passing: bool,
    pub(super) changes: bool,
    pub(super) turn_back: bool,
    pub(super) hyde: bool,
    pub(super) loops: bool,
    /// The Narg Clamp's horizontal-or-vertical sections (Rule 1.4.40).
    pub(super) narg: bool,
}

/// A route found: its Move Portions and what the search found.
type Best = Option<(Vec<LineCode>, Found)>;

/// One constraint the diagnosis lifts, when it applies, and what to say.
struct Check {
    relax: Relax,
    applies: fn(&Turn<'_>, &Failed<'_>) -> bool,
    report: fn(&mut Turn<'_>, &Failed<'_>),
}

/// The Move that found no route.
struct Failed<'w> {
    may_change: bool,
    at: Position,
    dest: StationId,
    candidates: &'w [Vec<LineCode>],
    written: &'w str,
}

impl Turn<'_> {
    /// Searches every candidate list of Move Portions under `relax`: the
    /// first with a route of exactly `lv` stations, and every route length.
    pub(super) fn route(
        &self,
        relax: &Relax,
        may_change: bool,
        at: Position,
        candidates: &[Vec<LineCode>],
        dest: StationId,
        lv: u32,
    ) -> (Best, Vec<u32>) {
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
        // A Narg Clamp's carrier passes only along sections the map
        // orients horizontally or vertically (Rule 1.4.40, RULINGS.md E63).
        let narged = !relax.narg && self.narged();
        let seg = |l: LineCode, a: StationId, b: StationId| {
            (relax.closures || map.segment_open(l, a, b, self.opening_day(), self.now().minutes))
                && (relax.one_way || self.one_way_allows(a, b))
                && (!narged || map.orientation(l, a, b).is_none_or(|o| o.straight()))
        };
        let next_to_block =
            |s: StationId, l: LineCode| map.neighbours(s, l).iter().any(|&n| self.blocked(n));
        let rules = Rules {
            enterable: &enterable,
            passable: &passable,
            open: &open,
            segment_open: &seg,
            may_change: may_change || relax.changes,
            rebounding: self.mv.rebounding,
            next_to_block: &next_to_block,
            no_turn_back: !relax.turn_back,
            loops_both_ways: relax.loops,
        };
        let mut best = None;
        let mut lengths: Vec<u32> = Vec::new();
        for portions in candidates {
            let found = search(
                map, &rules, at.station, at.line, portions, dest, lv, MAX_ROUTE,
            );
            if found.lengths.contains(&lv) && best.is_none() {
                best = Some((portions.clone(), found.clone()));
            }
            lengths.extend(found.lengths);
        }
        lengths.sort_unstable();
        lengths.dedup();
        (best, lengths)
    }

    /// No route fits: find which rules stop it by lifting one constraint
    /// at a time, and say what would have been legal.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn explain_no_route(
        &mut self,
        may_change: bool,
        at: Position,
        candidates: &[Vec<LineCode>],
        dest: StationId,
        lv: u32,
        written: &str,
        lengths: &[u32],
    ) {
        let failed = Failed {
            may_change,
            at,
            dest,
            candidates,
            written,
        };
        let mut found_cause = false;
        for check in CHECKS {
            if !(check.applies)(self, &failed) {
                continue;
            }
            let fits = self
                .route(&check.relax, may_change, at, candidates, dest, lv)
                .0
                .is_some();
            if fits {
                found_cause = true;
                (check.report)(self, &failed);
            }
        }
        if found_cause {
            return;
        }
        let mut lengths = lengths.to_vec();
        // No straight route of any length: the Narg Clamp is one cause,
        // and the lengths its diagonal routes would need say the other.
        if lengths.is_empty() && self.narged() {
            let relax = Relax {
                narg: true,
                ..STRICT
            };
            lengths = self.route(&relax, may_change, at, candidates, dest, lv).1;
            if !lengths.is_empty() {
                self.report_narg(&failed);
            }
        }
        let from = at.text(self.map);
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

    /// The Blocked stations that stop the Move: the destination first,
    /// each with the rule that Blocks it.
    fn report_blocks(&mut self, f: &Failed<'_>) {
        let map = self.map;
        let from = f.at.text(map);
        let blocked: Vec<StationId> = map.station_ids().filter(|s| self.blocked(*s)).collect();
        for b in blocked
            .iter()
            .filter(|b| **b == f.dest)
            .chain(blocked.iter().filter(|b| **b != f.dest))
        {
            // Only a Blocked station the Move could pass through or end at.
            if *b != f.dest && !self.route_touches(f, *b) {
                continue;
            }
            let (rule, why) = self.why_blocked(*b);
            let place = if *b == f.dest {
                "ends at"
            } else {
                "would pass through"
            };
            self.illegal(
                rule,
                format!("{} from {from} {place} a Blocked station: {why}", f.written),
            );
            if *b == f.dest {
                break;
            }
        }
    }

    /// Whether some route of the written Move, Blocks lifted, uses `b`.
    fn route_touches(&self, f: &Failed<'_>, b: StationId) -> bool {
        let relax = Relax {
            blocks: true,
            ..Relax::default()
        };
        let lv = self.s.players[self.me].lv;
        let (best, _) = self.route(&relax, f.may_change, f.at, f.candidates, f.dest, lv);
        best.is_some_and(|(_, found)| found.through.contains(&b))
    }

    /// The rule that Blocks a station (Rules 1.20.3, 1.12.3, 1.9.3, 1.11.3, 1.9.1).
    pub(super) fn why_blocked(&self, b: StationId) -> (&'static str, String) {
        let map = self.map;
        let name = self.name(b).to_string();
        let home_of = self
            .s
            .players
            .iter()
            .enumerate()
            .find(|(i, p)| {
                *i != self.me && p.home == Some(b) && !p.carries(crate::gsd::Good::KnidClamp)
            })
            .map(|(_, p)| p.name.clone());
        let electrified = self.mv.metallic
            && self.s.disruptions.iter().any(|d| matches!(d, Disruption::Line { line, state: LineState::Electrified } if map.station(b).lines.contains(*line)));
        if electrified {
            (
                "1.20.3",
                format!("{name} is on an Electrified line and the Piece carries Metallic Tokens"),
            )
        } else if let Some(owner) = home_of {
            ("1.12.3", format!("{name} is {owner}'s Home Station, Blocked during your Turn unless you pay a Toll or Rent"))
        } else if self.s.has_mark(b, StationMark::Bulkhead) {
            ("1.9.3", format!("{name} is Bulkheaded, and so Blocked"))
        } else if self.s.has_mark(b, StationMark::HeavyDamage) {
            (
                "1.11.3",
                format!("{name} is Heavily Damaged, and so Blocked"),
            )
        } else {
            ("1.9.1", format!("{name} is Blocked"))
        }
    }

    fn report_closures(&mut self, f: &Failed<'_>) {
        let when = self.now();
        let line = f.candidates.first().and_then(|c| c.last()).copied();
        let msg = if !self.open(f.dest, line) {
            let mc = self.map.is(f.dest, Landmark::MorningtonCrescent);
            format!(
                "{} is Closed at {when}{}",
                self.name(f.dest),
                if mc {
                    " ([Opening MC] before the Move opens it, Rule 1.7.28)"
                } else {
                    ""
                }
            )
        } else if !self.open(f.at.station, f.at.line) {
            format!(
                "{} is Closed at {when}: no Move starts there",
                self.name(f.at.station)
            )
        } else {
            format!(
                "{} changes line at a Closed station or runs on a Closed Line Segment at {when}",
                f.written
            )
        };
        self.illegal("1.13.4", msg);
    }

    fn report_passing(&mut self, f: &Failed<'_>) {
        // A Suspect Package on some route of the written Move (Rule 1.4.7).
        let relax = Relax {
            passing: true,
            ..Relax::default()
        };
        let lv = self.s.players[self.me].lv;
        let (best, _) = self.route(&relax, f.may_change, f.at, f.candidates, f.dest, lv);
        let package = best.and_then(|(_, found)| {
            found
                .through
                .iter()
                .copied()
                .find(|s| self.s.has_package(*s))
        });
        if let Some(p) = package {
            let from = f.at.text(self.map);
            self.illegal(
                "1.4.7",
                format!(
                    "{} from {from} would pass through {}, where a Suspect Package rests",
                    f.written,
                    self.name(p)
                ),
            );
            return;
        }
        // A Player carrying the PoID on the way (Rule 1.4.24).
        let (best, _) = self.route(&relax, f.may_change, f.at, f.candidates, f.dest, lv);
        let carrier = best.and_then(|(_, found)| {
            found
                .through
                .iter()
                .copied()
                .find(|s| self.poid_protects(*s))
        });
        if let Some(c) = carrier {
            let from = f.at.text(self.map);
            self.illegal(
                "1.4.24",
                format!(
                    "{} from {from} would pass through {}, where a Player carries the Podume of Infinite Darkness (or acts as if e did)",
                    f.written,
                    self.name(c)
                ),
            );
            return;
        }
        let maelberg = self.s.disruptions.iter().any(|d| {
            matches!(
                d,
                Disruption::Station {
                    mark: StationMark::Maelberg,
                    ..
                }
            )
        });
        let (rule, what) = if maelberg {
            ("1.9.5", "a Maelberged station")
        } else if self.s.has(&Disruption::Sgronk) {
            ("1.8.10", "a Token Stack while the game is in Sgronk")
        } else {
            ("1.9.6", "a Kafka Sinkhole")
        };
        let from = f.at.text(self.map);
        self.illegal(
            rule,
            format!("{} from {from} would pass through {what}", f.written),
        );
    }

    fn report_power(&mut self, f: &Failed<'_>) {
        let lines: Vec<String> = self
            .power_failures()
            .iter()
            .map(|l| format!("the {l}"))
            .collect();
        let from = f.at.text(self.map);
        self.illegal(
            "1.20.5",
            format!(
                "{} from {from} would pass through a station of {}, which has a Power Failure",
                f.written,
                lines.join(" or ")
            ),
        );
    }

    /// Lines with a Power Failure in force (Rule 1.20.5).
    fn power_failures(&self) -> Vec<LineCode> {
        self.s
            .disruptions
            .iter()
            .filter_map(|d| match d {
                Disruption::Line {
                    line,
                    state: LineState::PowerFailure,
                } => Some(*line),
                _ => None,
            })
            .collect()
    }

    /// Whether the player carries a Narg Clamp (Rule 1.4.40); one in a
    /// Nantucket is not carried (Rule 1.4.15).
    pub(super) fn narged(&self) -> bool {
        self.s.players[self.me]
            .possessions
            .iter()
            .any(|p| !p.nantucket && p.good() == crate::gsd::Good::NargClamp)
    }

    /// Every route of the Move passes along a diagonal section of line:
    /// name those on the routes the Clamp forbids (their stations, on the
    /// Move's lines), at most three.
    fn report_narg(&mut self, f: &Failed<'_>) {
        let relax = Relax {
            narg: true,
            ..STRICT
        };
        let lv = self.s.players[self.me].lv;
        let (best, _) = self.route(&relax, f.may_change, f.at, f.candidates, f.dest, lv);
        let mut on: Vec<StationId> = vec![f.at.station, f.dest];
        let mut lines: Vec<LineCode> = f.candidates.iter().flatten().copied().collect();
        if let Some((portions, found)) = best {
            on.extend(found.through);
            lines = portions;
        }
        let diagonal: Vec<String> = self
            .map
            .sections()
            .iter()
            .filter(|s| {
                !s.orientation.straight()
                    && lines.contains(&s.line)
                    && on.contains(&s.from)
                    && on.contains(&s.to)
            })
            .take(3)
            .map(|s| format!("{} - {} ({})", self.name(s.from), self.name(s.to), s.line))
            .collect();
        let from = f.at.text(self.map);
        let which = if diagonal.is_empty() {
            String::new()
        } else {
            format!(", such as {}", diagonal.join(", "))
        };
        self.illegal(
            "1.4.40",
            format!(
                "{} from {from} passes along a diagonal section of line{which}: a Narg Clamp's carrier may only move horizontally or vertically (the sections of fixtures/map/rule-1.4.40-sections.txt, RULINGS.md E63)",
                f.written
            ),
        );
    }

    /// The Heathrow loop runs one way (Rule 1.5.7): a Move the wrong way
    /// round it breaks that rule, not "it needs LV n".
    fn heathrow_loop(&mut self, f: &Failed<'_>) {
        let from = f.at.text(self.map);
        self.illegal(
            "1.5.7",
            format!("{} from {from} runs a one-way loop against its direction (the Heathrow loop is travelled only clockwise: Hatton Cross, Heathrow Terminal 4, Heathrow Terminals 1, 2, 3)", f.written),
        );
    }
}

/// Every constraint in force.
const STRICT: Relax = Relax {
    one_way: false,
    power: false,
    blocks: false,
    closures: false,
    passing: false,
    changes: false,
    turn_back: false,
    hyde: false,
    loops: false,
    narg: false,
};

/// The constraints, in the order their rules are reported.
const CHECKS: &[Check] = &[
    Check {
        relax: Relax {
            narg: true,
            ..STRICT
        },
        applies: |t, _| t.narged(),
        report: |t, f| t.report_narg(f),
    },
    Check {
        relax: Relax {
            blocks: true,
            ..STRICT
        },
        applies: |_, _| true,
        report: |t, f| t.report_blocks(f),
    },
    Check {
        relax: Relax {
            hyde: true,
            ..STRICT
        },
        applies: |t, _| t.hyde(),
        report: |t, f| {
            let from = f.at.text(t.map);
            t.illegal("1.7.38", format!("{} from {from} would pass through or end at a Holy Station, which a player wearing the Hyde Mask may not", f.written));
        },
    },
    Check {
        relax: Relax {
            closures: true,
            ..STRICT
        },
        applies: |_, _| true,
        report: |t, f| t.report_closures(f),
    },
    Check {
        relax: Relax {
            one_way: true,
            ..STRICT
        },
        applies: |t, _| {
            t.s.disruptions.iter().any(|d| {
                matches!(
                    d,
                    Disruption::Line {
                        state: LineState::OneWay(_),
                        ..
                    }
                )
            })
        },
        report: |t, f| {
            let from = f.at.text(t.map);
            t.illegal(
                "1.20.2",
                format!("{} from {from} runs against a One Way Line", f.written),
            );
        },
    },
    Check {
        relax: Relax {
            passing: true,
            ..STRICT
        },
        applies: |_, _| true,
        report: |t, f| t.report_passing(f),
    },
    Check {
        relax: Relax {
            power: true,
            ..STRICT
        },
        // Only a Power Failure in force can be the cause (and the search is
        // the costly part of a diagnosis).
        applies: |t, _| !t.power_failures().is_empty(),
        report: |t, f| t.report_power(f),
    },
    Check {
        relax: Relax {
            changes: true,
            ..STRICT
        },
        applies: |_, f| !f.may_change,
        report: |t, _| {
            t.illegal(
                "1.8.7",
                "the game is Gapminding: no change of Line without a Book",
            )
        },
    },
    Check {
        relax: Relax {
            turn_back: true,
            ..STRICT
        },
        applies: |_, _| true,
        report: |t, f| {
            let from = f.at.text(t.map);
            t.illegal("1.5.4", format!("{} from {from} reverses Line Direction while changing line at a Co-Located station", f.written));
        },
    },
    Check {
        relax: Relax {
            loops: true,
            ..STRICT
        },
        applies: |t, f| {
            f.candidates
                .iter()
                .flatten()
                .any(|l| t.map.has_turning_loop(*l))
        },
        report: |t, f| t.heathrow_loop(f),
    },
];
