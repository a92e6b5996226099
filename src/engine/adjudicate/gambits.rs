//! Manoeuvres and Gambits (Rules 1.18.1 - 1.18.4): declaring one
//! (Declaraction), using one, Denying one, and the recent end-of-turn
//! positions they are judged on, folded as each Turn ends.
//!
//! "Recent" positions end with this Turn's Move: a Declaraction or a Usage
//! is played after the Move that completes it (RULINGS E115, E117).

use super::*;
use crate::engine::gambit::{mark_of, Denial, Gambit, Mark};
use crate::gsd::gambit::{first_unmet, Step, StepsText};
use crate::gsd::TokenList;

/// Counts by colour, in the order of [`Colour::ALL`], zeros dropped.
fn by_colour(t: &[(u32, Colour)]) -> Vec<(u32, Colour)> {
    Colour::ALL
        .iter()
        .map(|&c| (t.iter().filter(|x| x.1 == c).map(|x| x.0).sum(), c))
        .filter(|(n, _)| *n > 0)
        .collect()
}

impl Turn<'_> {
    /// The Station this Turn's Move ended at, for a Gambit it completes;
    /// says why not under `rule` when the Move is a Pass, a Farkle or a
    /// Timeout, or the Piece is at no Station of the map.
    fn gambit_move_end(&mut self, rule: &str, what: &str) -> Option<StationId> {
        if !self.moved_here() {
            self.illegal(
                rule,
                format!("{what} is played after a Move to the Manoeuvre's last Station; this Turn's Move is not one (a Pass, a Farkle or a Timeout is none of a Gambit's moves)"),
            );
            return None;
        }
        let here = self.here();
        if here.is_none() {
            self.illegal(
                rule,
                format!("{what}: the Piece is at no Station of the map"),
            );
        }
        here
    }

    /// Whether the Piece in `at` made this Turn's Move to a Station: the
    /// Move, or for a Bifurcated Player the labelled Move that ended where
    /// the Piece now is (a Manoeuvre is a single Piece's, RULINGS E131).
    fn moved_here(&self) -> bool {
        match &self.play.mv {
            Move::To { .. } => true,
            Move::Bifurcated(a, b) => {
                let here = self.here();
                [a, b].into_iter().any(|m| {
                    matches!(**m, Move::To { .. })
                        && here.is_some_and(|h| mark_of(m) == Mark::At(h))
                })
            }
            _ => false,
        }
    }

    /// `[Declaring the <Name> Gambit]` (Rule 1.18.1): the attributes of the
    /// player's 3 to 6 recent moves, none a Pass or a Timeout, stated with
    /// the cost in `{Gambit: ...; cost ...}`; the cost and 1 Green paid; a
    /// new Gambit of the registry (Rule 1.18.2).
    pub(super) fn declare_gambit(&mut self, a: &Action, name: &str) -> Charge {
        let rule = "1.18.1";
        let what = a.render();
        if let Some(g) = self.s.gambits.find(name) {
            self.illegal(
                rule,
                format!("{} already names a Gambit ({}): a new Gambit needs a new name, for a Usage must name it clearly", g.title(), g.steps_text(self.map)),
            );
            return Charge::Free;
        }
        let Some((steps, cost)) = self.directive(|d| match d {
            Directive::Gambit { steps, cost } => Some((steps.clone(), cost.clone())),
            _ => None,
        }) else {
            self.illegal(
                rule,
                format!("\"The specific attributes of these moves must be listed\", with the cost: {what} needs a comment {{Gambit: Holy Station -> Hill Station -> Populated Station; cost 6Bu}}"),
            );
            return Charge::Free;
        };
        if !(3..=6).contains(&steps.len()) {
            self.illegal(
                rule,
                format!(
                    "'Recent' is \"at least three but no more than six\" moves; {} lists {}",
                    what,
                    steps.len()
                ),
            );
            return Charge::Free;
        }
        let Some(stations) = self.recent_for_declaraction(rule, &what, steps.len()) else {
            return Charge::Free;
        };
        if let Some(i) = first_unmet(&steps, &stations, self.map) {
            self.illegal(
                rule,
                format!(
                    "step {} of {what}, {}, does not hold of {} (the player's moves, oldest first: {})",
                    i + 1,
                    steps[i].text(self.map),
                    self.name(stations[i]),
                    self.names(&stations)
                ),
            );
            return Charge::Free;
        }
        let same = self.s.gambits.all().find(|g| g.steps == steps).cloned();
        if let Some(g) = same {
            self.illegal(
                rule,
                format!("\"A Manoeuvre Declaraction action is illegal if a Gambit already exists using that exact sequence of station attributes\": {} is {}", g.title(), StepsText(&steps, self.map)),
            );
            return Charge::Free;
        }
        let Some(cost) = self.declared_cost(rule, &cost) else {
            return Charge::Free;
        };
        let mut price = cost.clone();
        price.push((1, Colour::Green));
        let price = self.with_bocks(a, by_colour(&price));
        self.pay(&what, rule, &price);
        let g = Gambit {
            name: name.trim().to_string(),
            // Gambit and Manoeuvre are synonyms (Rule 1.18.1): a declared
            // one is recorded as a Gambit.
            manoeuvre: false,
            cost,
            steps,
            by: Some(self.my_name()),
        };
        self.change(format!(
            "{} declares {} ({}; cost {}), kept in Rule 1.18.2's list",
            self.my_name(),
            g.title(),
            g.steps_text(self.map),
            fmt_tokens(&g.cost)
        ));
        self.s.gambits.declared.push(g.clone());
        self.out.declared.push(g);
        Charge::Paid
    }

    /// The Stations of the player's last `n` moves, this Turn's the last,
    /// none a Pass or a Timeout (Rule 1.18.1).
    fn recent_for_declaraction(
        &mut self,
        rule: &str,
        what: &str,
        n: usize,
    ) -> Option<Vec<StationId>> {
        let here = self.gambit_move_end(rule, what)?;
        let me = self.my_name();
        if self.record_unknown(self.me) {
            self.ruling(rule, format!("{what}: mornbot does not know {me}'s moves before this Turn (the state was read without the plays that brought eir Piece here)"));
            return None;
        }
        let marks: Vec<Mark> = self
            .s
            .gambits
            .recent(&me)
            .map(|r| r.marks.clone())
            .unwrap_or_default();
        if marks.len() + 1 < n {
            self.illegal(
                rule,
                format!(
                    "{what} lists {n} moves; {me} has played only {} so far",
                    marks.len() + 1
                ),
            );
            return None;
        }
        let mut stations = Vec::new();
        for m in &marks[marks.len() + 1 - n..] {
            match m {
                Mark::At(s) => stations.push(*s),
                Mark::Pass | Mark::Timeout => {
                    self.illegal(
                        rule,
                        format!("a Manoeuvre may be declared \"provided that none of the recent moves is a Pass, or a Timeout\": one of {me}'s last {n} is"),
                    );
                    return None;
                }
                Mark::Unknown => {
                    self.ruling(rule, format!("one of {me}'s last {n} moves ended where mornbot cannot place it (a Ghost Station or a Bifurcation)"));
                    return None;
                }
            }
        }
        stations.push(here);
        Some(stations)
    }

    /// The cost a Declaraction states: at least one Token, counts positive
    /// (Rules 1.18.1, 1.18.2; RULINGS E116).
    fn declared_cost(&mut self, rule: &str, cost: &TokenList) -> Option<Vec<(u32, Colour)>> {
        if cost.0.iter().any(|(n, _)| *n == 0) {
            self.illegal(
                "1.18.2",
                format!(
                    "\"Costs of tokens are recorded in positive numbers only\": {cost} has a zero"
                ),
            );
            return None;
        }
        let cost = by_colour(&cost.0);
        if cost.is_empty() {
            self.illegal(
                rule,
                "\"The cost of this action is at least one token of any colour\"",
            );
            return None;
        }
        Some(cost)
    }

    /// Whether the fold has never seen player `i`'s Turns though eir Piece
    /// was on the Map as this Turn began: a state read without the plays
    /// that brought it there (RULINGS E115).
    fn record_unknown(&self, i: usize) -> bool {
        let on_map = if i == self.me {
            self.mv.started_at.is_some()
        } else {
            self.s.players[i].at.is_some()
        };
        on_map && self.s.gambits.recent(&self.s.players[i].name).is_none()
    }

    /// `a, b, c`: station names.
    fn names(&self, stations: &[StationId]) -> String {
        stations
            .iter()
            .map(|&s| self.name(s).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The player's most recent non-Pass Stations, this Turn's the last,
    /// as many as the Gambit has steps (Rule 1.18.3); `None` with the
    /// reason when there are fewer or they do not meet its steps.
    fn completes(&mut self, rule: &str, what: &str, g: &Gambit) -> Option<Vec<StationId>> {
        let here = self.gambit_move_end(rule, what)?;
        let me = self.my_name();
        if self.record_unknown(self.me) {
            self.ruling(rule, format!("{what}: mornbot does not know {me}'s moves before this Turn (the state was read without the plays that brought eir Piece here)"));
            return None;
        }
        let mut stations: Vec<StationId> = self
            .s
            .gambits
            .recent(&me)
            .map(|r| r.stations.clone())
            .unwrap_or_default();
        stations.push(here);
        let n = g.steps.len();
        let broken = self
            .s
            .gambits
            .recent(&me)
            .is_some_and(|r| r.marks.contains(&Mark::Unknown));
        if stations.len() < n && broken {
            self.ruling(rule, format!("{what}: one of {me}'s recent moves ended where mornbot cannot place it (a Ghost Station or a Bifurcation)"));
            return None;
        }
        if stations.len() < n {
            self.illegal(
                rule,
                format!(
                    "{} has {n} steps; {me} has played only {} Stations",
                    g.title(),
                    stations.len()
                ),
            );
            return None;
        }
        let stations = stations.split_off(stations.len() - n);
        if let Some(i) = first_unmet(&g.steps, &stations, self.map) {
            self.illegal(
                rule,
                format!(
                    "\"the most recent valid non-pass Stations that the Player played\" must \"have the same attributes and [be] in the same sequence\" as {} ({}): {me}'s are {}, and {} is not {}",
                    g.title(),
                    g.steps_text(self.map),
                    self.names(&stations),
                    self.name(stations[i]),
                    g.steps[i].text(self.map)
                ),
            );
            return None;
        }
        Some(stations)
    }

    /// `[Using the <Name> Gambit]` (Rule 1.18.3): the Gambit completed by
    /// this Turn's Move gains its cost and 2 Silver for each of its
    /// Stations that is another Player's Home Station, doubled after an
    /// unsuccessful Denial (Rule 1.18.4); the gain shown in `{gains ...}`.
    pub(super) fn use_gambit(&mut self, a: &Action, name: &str) -> Charge {
        let rule = "1.18.3";
        let what = a.render();
        let Some(g) = self.s.gambits.find(name).cloned() else {
            self.illegal(
                rule,
                format!("{what}: no Gambit of Rule 1.18.2's list is named {name}"),
            );
            return Charge::Free;
        };
        let Some(stations) = self.completes(rule, &what, &g) else {
            return Charge::Free;
        };
        let me = self.my_name();
        let homes = stations
            .iter()
            .filter(|&&s| {
                self.s
                    .players
                    .iter()
                    .enumerate()
                    .any(|(i, p)| i != self.me && p.home == Some(s))
            })
            .count() as u32;
        let mut gain = g.cost.clone();
        gain.push((2 * homes, Colour::Silver));
        let mut gain = by_colour(&gain);
        let denied = self
            .s
            .gambits
            .denials
            .iter()
            .position(|d| d.target.eq_ignore_ascii_case(&me) && g.is_named(&d.gambit));
        if let Some(k) = denied {
            let d = self.s.gambits.denials.remove(k);
            for (n, _) in &mut gain {
                *n *= 2;
            }
            self.change(format!(
                "{}'s Denial of {} was unsuccessful: {me} doubles the reward (Rule 1.18.4)",
                d.denier,
                g.title()
            ));
        }
        let shown = self.directive(|d| match d {
            Directive::Gains(t) => Some(by_colour(&t.0)),
            _ => None,
        });
        match shown {
            None => {
                self.illegal(rule, format!("\"This gain must be shown in the Comments\": {what} gains {}, e.g. {{gains {}}}", fmt_tokens(&gain), TokenList(gain.clone())));
                return Charge::Free;
            }
            Some(s) if s != gain => {
                self.illegal(rule, format!("\"This gain must be shown in the Comments\": the comment shows {}, {what} gains {}", fmt_tokens(&s), fmt_tokens(&gain)));
                return Charge::Free;
            }
            Some(_) => {}
        }
        self.gain(&gain);
        self.change(format!(
            "{me} completes {} and gains {} (Rule 1.18.3)",
            g.title(),
            fmt_tokens(&gain)
        ));
        Charge::Paid
    }

    /// `[Denying the <Name> Gambit by <Player>]` (Rule 1.18.4): only once
    /// that player has played the penultimate Move of the Manoeuvre; paid
    /// from the table, settled on eir next Turn.
    pub(super) fn deny_gambit(&mut self, a: &Action, name: &str, player: &str) -> Charge {
        let rule = "1.18.4";
        let what = a.render();
        let Some(t) = self.s.player_index(player).filter(|&t| t != self.me) else {
            self.illegal(rule, format!("{what}: {player} is not another Player of this game (\"another Player may ... Deny the Manoeuvre\")"));
            return Charge::Free;
        };
        let Some(g) = self.s.gambits.find(name).cloned() else {
            self.illegal(
                rule,
                format!("{what}: no Gambit of Rule 1.18.2's list is named {name}"),
            );
            return Charge::Free;
        };
        let target = self.s.players[t].name.clone();
        if self
            .s
            .gambits
            .denials
            .iter()
            .any(|d| d.target.eq_ignore_ascii_case(&target) && g.is_named(&d.gambit))
        {
            self.illegal(
                rule,
                format!(
                    "{} by {target} is already Denied, until eir next Turn (RULINGS E121)",
                    g.title()
                ),
            );
            return Charge::Free;
        }
        if self.record_unknown(t) {
            self.ruling(rule, format!("{what}: mornbot does not know {target}'s moves (the state was read without the plays that brought eir Piece where it is)"));
            return Charge::Free;
        }
        let n = g.steps.len();
        let stations: Vec<StationId> = self
            .s
            .gambits
            .recent(&target)
            .map(|r| r.stations.clone())
            .unwrap_or_default();
        let first: &[Step] = &g.steps[..n - 1];
        let verge = stations.len() >= n - 1
            && first_unmet(first, &stations[stations.len() + 1 - n..], self.map).is_none();
        if !verge {
            self.illegal(
                rule,
                format!("\"Such a Denial Action may only be played after the Player who is attempting to complete the Manoeuvre has played the penultimate Move\": {target}'s recent Stations ({}) are not the first {} steps of {} ({})", self.names(&stations), n - 1, g.title(), g.steps_text(self.map)),
            );
            return Charge::Free;
        }
        let charge = self.pay_table(a);
        self.s.gambits.denials.push(Denial {
            denier: self.my_name(),
            target: target.clone(),
            gambit: g.name.clone(),
        });
        self.change(format!(
            "{} Denies {} by {target}: settled on {target}'s next Turn (Rule 1.18.4)",
            self.my_name(),
            g.title()
        ));
        charge
    }

    /// Where the Turn's Move left the player's Piece, or each of eir two
    /// Pieces (RULINGS E131): a Move to a Station is recorded where the
    /// Piece now is.
    fn record_marks(&mut self, mv: &Move) {
        let me = self.my_name();
        let at = |m: &Move, here: Option<StationId>| match (mark_of(m), here) {
            (Mark::At(_), Some(at)) => Mark::At(at),
            (Mark::At(_), None) => Mark::Unknown,
            (m, _) => m,
        };
        let Move::Bifurcated(a, b) = mv else {
            let mark = at(mv, self.here());
            self.s.gambits.record(&me, mark);
            return;
        };
        let p = &self.s.players[self.me];
        if let Some(piece_b) = p.piece_b {
            self.s.gambits.record(&me, at(a, p.station()));
            self.s.gambits.record_b(&me, at(b, Some(piece_b.station)));
        } else {
            // One Piece is left: the one that moved, if one did.
            let moved = if matches!(**b, Move::To { .. }) { b } else { a };
            self.s.gambits.record(&me, at(moved, self.here()));
        }
    }

    /// As the Turn ends: where it ended, for later Gambits; and the
    /// Denials of this player's Manoeuvres, which e did not complete this
    /// Turn, pay their Deniers the reward (Rule 1.18.4, RULINGS E122).
    pub(super) fn gambits_end_of_turn(&mut self, mv: &Move) {
        let me = self.my_name();
        self.record_marks(mv);
        let (mine, rest): (Vec<Denial>, Vec<Denial>) = std::mem::take(&mut self.s.gambits.denials)
            .into_iter()
            .partition(|d| d.target.eq_ignore_ascii_case(&me));
        self.s.gambits.denials = rest;
        for d in mine {
            let (Some(g), Some(i)) = (
                self.s.gambits.find(&d.gambit).cloned(),
                self.s.player_index(&d.denier),
            ) else {
                continue;
            };
            self.credit(i, &g.cost);
            self.change(format!(
                "{me} did not complete {}: {}'s Denial succeeds and {} gains {} (Rule 1.18.4)",
                g.title(),
                d.denier,
                d.denier,
                fmt_tokens(&g.cost)
            ));
        }
    }
}
