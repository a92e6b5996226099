//! Translocations (Rule 1.5.13): Compass Wormholes (1.7.13), Straddles
//! (1.7.6) and Charge Tunneling (1.19.4). A Translocation shifts the Piece
//! outside the Movement Phase: it passes through nothing, collects nothing
//! and, Charge changing only by movement in the Movement Phase (Rule
//! 1.19.2), leaves the Charge alone (RULINGS.md E37).

use super::*;
use crate::map::Direction;

impl Turn<'_> {
    /// `[<Compass> Wormhole to <Station>]` (Rule 1.7.13): the compass word
    /// is a word of both names.
    pub(super) fn wormhole(&mut self, a: &Action, compass: &str, target: &Target) -> Charge {
        let rule = a.spec().rule;
        let has_word = |name: &str| {
            name.split(|c: char| !c.is_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case(compass))
        };
        let Some(here) = self.here() else {
            self.illegal(rule, "a Wormhole starts from the Piece's Station");
            return Charge::Free;
        };
        let Some(dest) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let here_name = self.name(here).to_string();
        if !has_word(&here_name) {
            self.illegal(
                rule,
                format!("\"{compass}\" is not a word of {here_name}, the Piece's Station"),
            );
        } else if !has_word(&target.station) {
            self.illegal(
                rule,
                format!("\"{compass}\" is not a word of {}", target.station),
            );
        } else {
            self.translocate(a, target, dest, here);
        }
        Charge::Table
    }

    /// `[Charge Tunneling to <Station>]` (Rule 1.19.4): to a station of the
    /// same Current as the Piece's, never Mornington Crescent.
    pub(super) fn charge_tunnel(&mut self, a: &Action, target: &Target) -> Charge {
        let rule = a.spec().rule;
        let Some(here) = self.here() else {
            self.illegal(rule, "Charge Tunneling starts from the Piece's Station");
            return Charge::Free;
        };
        let Some(dest) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if self.map.is(dest, Landmark::MorningtonCrescent) {
            self.illegal(rule, "no Player may Charge Tunnel to Mornington Crescent");
            return Charge::Table;
        }
        let (mine, theirs) = (
            self.map.station(here).current,
            self.map.station(dest).current,
        );
        if mine != theirs {
            self.illegal(
                rule,
                format!(
                    "{} has a Current of {theirs}, {} one of {mine}: Charge Tunneling needs the same Current",
                    target.station,
                    self.name(here)
                ),
            );
        } else {
            self.translocate(a, target, dest, here);
        }
        Charge::Table
    }

    /// A Translocation (Rule 1.5.13): the station must be one an ordinary
    /// Move could end at (not Blocked or Closed), on the line written.
    fn translocate(&mut self, a: &Action, target: &Target, dest: StationId, from: StationId) {
        let rule = a.spec().rule;
        if dest == from {
            self.illegal(rule, "a Translocation goes to another station");
            return;
        }
        if let Some(l) = target.line {
            if !self.map.station(dest).lines.contains(l) {
                self.illegal(rule, format!("{} is not on the {l}", target.station));
                return;
            }
        }
        if self.blocked(dest) {
            self.illegal(
                "1.5.13",
                format!("{} is Blocked: no Translocation to it", target.station),
            );
            return;
        }
        if !self.open(dest, target.line) {
            self.illegal(
                "1.5.13",
                format!(
                    "{} is Closed at {}: no Translocation to it",
                    target.station,
                    self.now()
                ),
            );
            return;
        }
        if self.hyde_forbids(dest) {
            self.illegal(
                "1.7.38",
                format!(
                    "{} is a Holy Station: a player wearing the Hyde Mask may not go to it",
                    target.station
                ),
            );
            return;
        }
        // Outside the Movement Phase: no Charge change (Rule 1.19.2).
        self.arrive(dest, target.line, None, None);
    }

    /// `[Straddling to <Station>]` (Rule 1.7.6): a Standing Straddle from
    /// the Piece's Station, whose Stack holds at least as many Tokens as
    /// the route distance R to the destination, or a Running Straddle from
    /// the next station in the Line Direction of the Move's last Segment,
    /// on along that line and direction no further than its Stack's Tokens
    /// (RULINGS.md E38).
    pub(super) fn straddle(&mut self, a: &Action, target: &Target) -> Charge {
        let rule = a.spec().rule;
        let Some(here) = self.here() else {
            self.illegal(rule, "a Straddle starts from the Piece's Station");
            return Charge::Free;
        };
        let Some(dest) = self.station_of(target, a) else {
            return Charge::Free;
        };
        if let Some(l) = self.power_failed(here) {
            self.illegal(
                "1.20.5",
                format!(
                    "the {l} has a Power Failure: no Straddle from {}, a station of that line",
                    self.name(here)
                ),
            );
            return Charge::Free;
        }
        let standing = self.stack_size(here);
        let r = self.map.route_distance(here, dest);
        let runs = self.running_starts(here);
        let line = self.s.players[self.me].at.and_then(|p| p.line);
        let running = line.is_some_and(|l| {
            runs.iter().any(|&(from, dir)| {
                let n = self.stack_size(from);
                n > 0 && ahead(self.map, l, from, dir, dest, n)
            })
        });
        if (standing > 0 && r.is_some_and(|d| d <= standing)) || running {
            self.translocate(a, target, dest, here);
            self.tally.straddled = true;
            return Charge::Table;
        }
        let why = self.why_no_straddle(here, target, standing, r, line, &runs);
        self.illegal(rule, why);
        Charge::Free
    }

    /// The Tokens in the Stack at a station.
    fn stack_size(&self, s: StationId) -> u32 {
        self.s.stack(s).map_or(0, |t| t.len() as u32)
    }

    /// Where a Running Straddle may start: the stations after the Piece's
    /// in the Line Directions of the Move's arrival, with the direction.
    fn running_starts(&self, here: StationId) -> Vec<(StationId, Direction)> {
        let mut starts: Vec<(StationId, Direction)> = Vec::new();
        if let Some(l) = self.s.players[self.me].at.and_then(|p| p.line) {
            for d in &self.mv.arrivals {
                for st in self.map.steps(here, l) {
                    if st.leave == *d && !starts.iter().any(|x| x.0 == st.to) {
                        starts.push((st.to, st.arrive));
                    }
                }
            }
        }
        starts
    }

    /// Why neither a Standing nor a Running Straddle reaches the target.
    fn why_no_straddle(
        &self,
        here: StationId,
        target: &Target,
        standing: u32,
        r: Option<u32>,
        line: Option<LineCode>,
        starts: &[(StationId, Direction)],
    ) -> String {
        let mut why = if standing == 0 {
            format!(
                "{} has no Token Stack for a Standing Straddle",
                self.name(here)
            )
        } else {
            format!(
                "a Standing Straddle from {} reaches stations at most {standing} away (the Tokens of its Stack); {} is {}",
                self.name(here),
                target.station,
                r.map_or("unreachable".to_string(), |d| format!("{d} away"))
            )
        };
        match (line, starts.is_empty()) {
            (None, _) => why.push_str("; off a line the Piece has no Line Direction for a Running Straddle"),
            (Some(_), true) if self.mv.arrivals.is_empty() => why.push_str(
                "; a Running Straddle follows the Line Direction of this Turn's Move, and the Piece made no Standard Move",
            ),
            (Some(l), true) => why.push_str(&format!(
                "; no station follows {} in the {l}'s Line Direction of the Move",
                self.name(here)
            )),
            (Some(l), false) => {
                let each: Vec<String> = starts
                    .iter()
                    .map(|&(f, _)| match self.stack_size(f) {
                        0 => format!("{} (no Token Stack)", self.name(f)),
                        n => format!("{} ({n} Tokens)", self.name(f)),
                    })
                    .collect();
                why.push_str(&format!(
                    "; a Running Straddle from {} goes on along the {l} in the Move's Line Direction no further than its Tokens, and {} is not so reached",
                    each.join(" or "),
                    target.station
                ));
            }
        }
        why
    }
}

/// Whether `dest` lies at most `n` stations on from `from` along `line`,
/// moving in Line Direction `dir` (a Running Straddle, Rule 1.7.6).
fn ahead(
    map: &Map,
    line: LineCode,
    from: StationId,
    dir: Direction,
    dest: StationId,
    n: u32,
) -> bool {
    let mut layer = vec![(from, dir)];
    for _ in 0..n {
        let mut next = Vec::new();
        for (s, d) in layer {
            for st in map.steps(s, line) {
                if st.leave == d {
                    if st.to == dest {
                        return true;
                    }
                    if !next.contains(&(st.to, st.arrive)) {
                        next.push((st.to, st.arrive));
                    }
                }
            }
        }
        layer = next;
    }
    false
}
