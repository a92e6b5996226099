//! The Magno-Clamp's own Actions (Rule 1.4.45, RULINGS.md E78):
//! [Attracting] Metallic Tokens from Players and Token Stacks less than
//! three stations away, and [Magno-Gone], which destroys the Clamp for four
//! Metallic Tokens. What carrying the Clamp forbids is `restraints.rs`.

use super::*;
use crate::gsd::Good;

/// The Metallic Tokens (Rule 1.4.1).
const METALS: [Colour; 3] = [Colour::Gold, Colour::Silver, Colour::Bronze];

/// Where an `[Attracting]` takes a Token from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// A Player's Piece (index).
    Player(usize),
    /// The Token Stack at a station.
    Stack(StationId),
}

impl Turn<'_> {
    /// `[Magno-Gone]` (Rule 1.4.45): one Magno-Clamp carried is destroyed
    /// and the player loses four Metallic Tokens "of eir choice, if e has
    /// any": all of them when e has four or fewer, four of the only
    /// Metallic colour e holds, or those named `{loses 2Go,2Si}`; a choice
    /// left unwritten is Illegal, never a guess (RULINGS E78).
    pub(super) fn magno_gone(&mut self, a: &Action) -> Charge {
        let me = self.me;
        let rule = a.spec().rule;
        let found = self.s.players[me]
            .possessions
            .iter()
            .position(|p| !p.nantucket && p.good() == Good::MagnoClamp);
        let Some(i) = found else {
            self.illegal(rule, format!("{} carries no Magno-Clamp", self.my_name()));
            return Charge::Free;
        };
        let t = self.s.players[me].tokens;
        let held: Vec<(Colour, u32)> = METALS
            .iter()
            .map(|c| (*c, t.get(*c)))
            .filter(|(_, n)| *n > 0)
            .collect();
        let total: u32 = held.iter().map(|(_, n)| n).sum();
        let named = self.directive(|d| match d {
            Directive::Loses(list) => Some(list.0.clone()),
            _ => None,
        });
        let lose: Vec<(u32, Colour)> = match named {
            Some(list) => match self.check_losses(&list, total.min(4)) {
                Ok(()) => list,
                Err(why) => {
                    self.illegal(rule, why);
                    return Charge::Free;
                }
            },
            None if total <= 4 => held.iter().map(|(c, n)| (*n, *c)).collect(),
            None if held.len() == 1 => vec![(4, held[0].0)],
            None => {
                let options: Vec<String> = four_of(&held)
                    .iter()
                    .map(|l| format!("{{loses {}}}", crate::gsd::TokenList(l.clone())))
                    .collect();
                self.illegal(
                    rule,
                    format!(
                        "[Magno-Gone] loses four Metallic Tokens of the player's choice, and needs a choice: {}",
                        super::choice::either(&options)
                    ),
                );
                return Charge::Free;
            }
        };
        let mut lost = 0;
        for (n, c) in lose {
            let have = self.s.players[me].tokens.get(c);
            self.s.players[me].tokens.set(c, have - n);
            lost += n;
        }
        self.s.players[me].possessions.remove(i);
        self.change(format!(
            "the Magno-Clamp is destroyed and {lost} Metallic Token(s) lost (Rule {rule})"
        ));
        Charge::Table
    }

    /// A `{loses ...}` list: Metallic colours only, each held, `want` in all.
    fn check_losses(&self, list: &[(u32, Colour)], want: u32) -> Result<(), String> {
        let t = self.s.players[self.me].tokens;
        if let Some((_, c)) = list.iter().find(|(_, c)| !METALS.contains(c)) {
            return Err(format!(
                "{} Tokens are not Metallic: [Magno-Gone] loses Gold, Silver or Bronze",
                c.name()
            ));
        }
        for c in METALS {
            let n: u32 = list.iter().filter(|(_, x)| *x == c).map(|(n, _)| n).sum();
            if n > t.get(c) {
                return Err(format!(
                    "{} holds {} {} Tokens, not {n}",
                    self.my_name(),
                    t.get(c),
                    c.name()
                ));
            }
        }
        let sum: u32 = list.iter().map(|(n, _)| n).sum();
        if sum != want {
            return Err(format!(
                "[Magno-Gone] loses four Metallic Tokens, or all the player has if fewer: {want}, not {sum}"
            ));
        }
        Ok(())
    }

    /// `[Attracting]` (Rule 1.4.45): with a Magno-Clamp carried, "one
    /// Metallic Token from each Player or Token Stack which is less than
    /// three Stations away" (route distance R below three, RULINGS E78):
    /// the only Metallic colour a source holds, or the one named `{attracts
    /// Gold from Bob}` / `{attracts Gold from Euston}`. Not from another
    /// Magno-Clamp carrier, nor a Pegged Stack (Rule 1.11.4).
    pub(super) fn attracting(&mut self) -> Charge {
        if !self.s.players[self.me].carries(Good::MagnoClamp) {
            let who = self.my_name();
            self.illegal("1.4.45", format!("{who} carries no Magno-Clamp"));
            return Charge::Free;
        }
        let Some(here) = self.here() else {
            self.illegal("1.4.45", "the Piece must be on the Map to attract");
            return Charge::Free;
        };
        let choices: Vec<(Colour, String)> = self
            .play
            .directives()
            .filter_map(|d| match d {
                Directive::Attracts { colour, from } => Some((*colour, from.clone())),
                _ => None,
            })
            .collect();
        let mut named: Vec<(Source, Colour)> = Vec::new();
        for (c, from) in &choices {
            match self.attract_source(here, from) {
                Ok(src) if named.iter().any(|(s, _)| *s == src) => {
                    self.illegal("1.4.45", format!("one Token only is attracted from {from}"));
                }
                Ok(src) => named.push((src, *c)),
                Err((r, why)) => self.illegal(r, why),
            }
        }
        let mut taken = 0;
        for src in self.sources(here) {
            let held = self.metals_of(src);
            let pick = named.iter().find(|(s, _)| *s == src).map(|(_, c)| *c);
            let colour = match (pick, held.as_slice()) {
                (Some(c), _) if held.contains(&c) => c,
                (Some(c), _) => {
                    let msg = format!("{} has no {} Token", self.source_name(src), c.name());
                    self.illegal("1.4.45", msg);
                    continue;
                }
                (None, []) => continue,
                (None, [c]) => *c,
                (None, several) => {
                    let who = self.source_name(src);
                    let options: Vec<String> = several
                        .iter()
                        .map(|c| format!("{{attracts {} from {who}}}", c.name()))
                        .collect();
                    let msg = format!(
                        "[Attracting] from {who}, who holds Metallic Tokens of several colours, needs a choice: {}",
                        super::choice::either(&options)
                    );
                    self.illegal("1.4.45", msg);
                    continue;
                }
            };
            self.take_metal(src, colour);
            taken += 1;
        }
        if taken == 0 && self.out.violations.is_empty() {
            self.change(
                "no Metallic Token is within reach: [Attracting] takes nothing (Rule 1.4.45)",
            );
        }
        // The index's Gain "varies": what was taken is credited above.
        Charge::Paid
    }

    /// A `{loses ...}` without `[Magno-Gone]`, or an `{attracts ...}`
    /// without `[Attracting]`: a choice for an Action not played is an
    /// error, not prose (Rule 1.4.45).
    pub(super) fn stray_magnet_choices(&mut self) {
        let gone = self.play.actions().any(|a| matches!(a, Action::MagnoGone));
        let attracting = self.play.actions().any(|a| matches!(a, Action::Attracting));
        let stray: Vec<&str> = self
            .play
            .directives()
            .filter_map(|d| match d {
                Directive::Loses(_) if !gone => {
                    Some("{loses ...} names what a [Magno-Gone] loses, and none is played")
                }
                Directive::Attracts { .. } if !attracting => {
                    Some("{attracts ...} names what an [Attracting] takes, and none is played")
                }
                _ => None,
            })
            .collect();
        for msg in stray {
            self.illegal("1.4.45", msg);
        }
    }

    /// Every Player and Token Stack the Clamp attracts from: less than
    /// three stations away by route (Rule 1.17.9's R), Players not shielded.
    fn sources(&self, here: StationId) -> Vec<Source> {
        let near = |s: StationId| self.map.route_distance(here, s).is_some_and(|r| r < 3);
        let mut out: Vec<Source> = (0..self.s.players.len())
            .filter(|&i| i != self.me)
            .filter(|&i| self.s.players[i].station().is_some_and(near))
            .filter(|&i| self.shielded(i).is_none())
            .map(Source::Player)
            .collect();
        out.extend(
            self.s
                .stacks
                .iter()
                .filter(|(s, t)| !t.is_empty() && near(*s) && !self.pegged(*s))
                .map(|(s, _)| Source::Stack(*s)),
        );
        out
    }

    /// Why a Player's Metallic Tokens may not be attracted: "Metallic
    /// Tokens may not be taken from [a Magno-Clamp carrier's] Possession by
    /// other Players" (Rule 1.4.45). [Attracting] names no Player, so it
    /// does not target one (no Sanctuary, Prison Clamp or small-hours
    /// exemption, as E68's Tithe).
    fn shielded(&self, i: usize) -> Option<(&'static str, &'static str)> {
        self.s.players[i].carries(Good::MagnoClamp).then_some((
            "1.4.45",
            "Metallic Tokens may not be taken from a Magno-Clamp carrier's Possession by other Players",
        ))
    }

    /// The source a `{attracts ... from X}` names: a Player of the game, or
    /// a station with a Token Stack; in reach and not shielded.
    fn attract_source(
        &self,
        here: StationId,
        from: &str,
    ) -> Result<Source, (&'static str, String)> {
        let src = match self.s.player_index(from) {
            Some(i) if i == self.me => {
                return Err(("1.4.45", format!("{from} is the attracting player")))
            }
            Some(i) => Source::Player(i),
            None => match self.map.find(from) {
                Some(s) if self.s.stack(s).is_some_and(|t| !t.is_empty()) => Source::Stack(s),
                Some(_) => return Err(("1.4.45", format!("there is no Token Stack at {from}"))),
                None => {
                    return Err((
                        "1.4.45",
                        format!("{from} is neither a player of this game nor a station"),
                    ))
                }
            },
        };
        let at = match src {
            Source::Player(i) => self.s.players[i].station(),
            Source::Stack(s) => Some(s),
        };
        let near = at.is_some_and(|s| self.map.route_distance(here, s).is_some_and(|r| r < 3));
        if !near {
            return Err((
                "1.4.45",
                format!("{from} is not less than three Stations away"),
            ));
        }
        if let Source::Player(i) = src {
            if let Some((r, why)) = self.shielded(i) {
                return Err((r, format!("{from}: {why}")));
            }
        }
        if let Source::Stack(s) = src {
            if self.pegged(s) {
                return Err((
                    "1.11.4",
                    format!("{from} is Pegged: no Token is removed from it"),
                ));
            }
        }
        Ok(src)
    }

    /// The Metallic colours a source holds.
    fn metals_of(&self, src: Source) -> Vec<Colour> {
        METALS
            .into_iter()
            .filter(|c| match src {
                Source::Player(i) => self.s.players[i].tokens.get(*c) > 0,
                Source::Stack(s) => self.s.stack(s).is_some_and(|t| t.contains(c)),
            })
            .collect()
    }

    /// How a source is named in a verdict.
    fn source_name(&self, src: Source) -> String {
        match src {
            Source::Player(i) => self.s.players[i].name.clone(),
            Source::Stack(s) => self.name(s).to_string(),
        }
    }

    /// Moves one Token of `c` from the source to the attracting player (the
    /// topmost of that colour from a Stack).
    fn take_metal(&mut self, src: Source, c: Colour) {
        match src {
            Source::Player(i) => {
                let have = self.s.players[i].tokens.get(c);
                self.s.players[i].tokens.set(c, have - 1);
            }
            Source::Stack(s) => {
                if let Some(k) = self.s.stacks.iter().position(|(x, _)| *x == s) {
                    let t = &mut self.s.stacks[k].1;
                    if let Some(j) = t.iter().rposition(|x| *x == c) {
                        t.remove(j);
                    }
                    if t.is_empty() {
                        self.s.stacks.remove(k);
                    }
                }
            }
        }
        self.gain(&[(1, c)]);
        let from = self.source_name(src);
        self.change(format!(
            "{} attracts a {} Token from {from} (Rule 1.4.45)",
            self.my_name(),
            c.name()
        ));
    }
}

/// Every way of losing four of the Metallic Tokens `held` (more than four,
/// of several colours), as token lists in the order of `held`.
fn four_of(held: &[(Colour, u32)]) -> Vec<Vec<(u32, Colour)>> {
    let mut out: Vec<Vec<(u32, Colour)>> = vec![vec![]];
    for &(c, n) in held {
        let mut next = Vec::new();
        for so_far in &out {
            let taken: u32 = so_far.iter().map(|(k, _)| k).sum();
            for k in 0..=n.min(4 - taken) {
                let mut l = so_far.clone();
                if k > 0 {
                    l.push((k, c));
                }
                next.push(l);
            }
        }
        out = next;
    }
    out.retain(|l| l.iter().map(|(k, _)| k).sum::<u32>() == 4);
    out
}
