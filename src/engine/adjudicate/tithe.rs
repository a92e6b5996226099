//! Tithing a Zone and collecting the Tithe a Turn later (Rule 1.7.31,
//! RULINGS.md E68).

use super::*;
use crate::engine::state::Tithed;

impl Turn<'_> {
    /// `[Tithe <Zone>]` (Rule 1.7.31): the Zone is Tithed until the end of
    /// the player's next Turn; it costs (7 - Zone) Blue Tokens.
    pub(super) fn tithe(&mut self, a: &Action, zone: u8) -> Charge {
        let rule = a.spec().rule;
        let zones = self.map_zones();
        if !zones.contains(&zone) {
            self.illegal(
                rule,
                format!(
                    "there is no Zone {zone}: the London Underground's Zones are {} to {}",
                    zones.first().copied().unwrap_or(1),
                    zones.last().copied().unwrap_or(1)
                ),
            );
            return Charge::Free;
        }
        let cost = vec![(7u32.saturating_sub(u32::from(zone)), Colour::Blue)];
        let cost = self.with_bocks(a, cost);
        self.pay(&a.render(), rule, &cost);
        self.change(format!(
            "{} Tithes Zone {zone} until the end of eir next Turn (Rule 1.7.31)",
            self.my_name()
        ));
        Charge::Paid
    }

    /// `[Collecting Tithe]` (Rule 1.7.31): after a `[Tithe <Zone>]` in the
    /// player's previous Turn, one Token from each other Piece in that Zone
    /// (the colour named `{tithes Red from Bob}`, unnamed where the holder
    /// leaves one choice) and the top Token of each Token Stack there. A
    /// Station on a Zone boundary is in both Zones.
    pub(super) fn collect_tithe(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        let me_name = self.my_name();
        let Some(zone) = self
            .s
            .tithes
            .iter()
            .find(|t| t.player.eq_ignore_ascii_case(&me_name))
            .map(|t| t.zone)
        else {
            self.illegal(
                rule,
                format!("{me_name} did not perform [Tithe <Zone>] during eir previous Turn"),
            );
            return Charge::Free;
        };
        let choices: Vec<(Colour, String)> = self
            .play
            .directives()
            .filter_map(|d| match d {
                Directive::Tithes { colour, from } => Some((*colour, from.clone())),
                _ => None,
            })
            .collect();
        let mut taken: Vec<(usize, Colour)> = Vec::new();
        let mut wrong = Vec::new();
        let mut wanting: Vec<(usize, Vec<Vec<Colour>>)> = Vec::new();
        let mut unchosen: Vec<String> = Vec::new();
        for (i, p) in self.s.players.iter().enumerate() {
            // A Bifurcated Player with both Pieces in the Zone is tithed
            // twice (Rule 1.7.42).
            let pieces = self.pieces_in_zone(i, zone);
            let inside = pieces > 0;
            let named: Vec<Colour> = choices
                .iter()
                .filter(|(_, f)| f.eq_ignore_ascii_case(&p.name))
                .map(|(c, _)| *c)
                .collect();
            if i == self.me || !inside || p.tokens.0.iter().all(|n| *n == 0) {
                if !named.is_empty() {
                    wrong.push(format!(
                        "{} pays no Tithe: {}",
                        p.name,
                        if i == self.me {
                            "the Tither emself"
                        } else if !inside {
                            "eir Piece is not in the Zone"
                        } else {
                            "e has no Tokens"
                        }
                    ));
                }
                continue;
            }
            if named.is_empty() {
                // The Tokens the play did not name: the only choice there
                // is, else the play needs one (RULINGS E134).
                let options = tithe_options(p, pieces);
                if options.is_empty() {
                    unchosen.push(format!(
                        "{} carries a Magno-Clamp and Metallic Tokens only, which may not be taken from eir Possession (Rule 1.4.45): e pays no Tithe",
                        p.name
                    ));
                }
                wanting.push((i, options));
                continue;
            }
            match named_tithes(p, i, pieces, zone, &named) {
                Ok(t) => taken.extend(t),
                Err(w) => wrong.push(w),
            }
        }
        for who in choices.iter().map(|(_, f)| f) {
            if self.s.player_index(who).is_none() {
                wrong.push(format!("{who} is not a player of this game"));
            }
        }
        if !wrong.is_empty() {
            for w in wrong {
                self.illegal(rule, w);
            }
            return Charge::Table;
        }
        if !self.unnamed_tithes(rule, zone, wanting, &mut taken) {
            return Charge::Table;
        }
        for u in unchosen {
            self.change(u);
        }
        self.take_tithe(zone, &taken);
        Charge::Table
    }

    /// The Tokens the play did not name from each Piece in `wanting` (its
    /// holder's index and the ways to take them): the only way is taken,
    /// several need a choice (RULINGS E134). False if the play is Illegal.
    fn unnamed_tithes(
        &mut self,
        rule: &str,
        zone: u8,
        wanting: Vec<(usize, Vec<Vec<Colour>>)>,
        taken: &mut Vec<(usize, Colour)>,
    ) -> bool {
        let mut complete = true;
        for (i, options) in wanting {
            let name = self.s.players[i].name.clone();
            let written: Vec<(Vec<Colour>, String)> = options
                .into_iter()
                .map(|cs| {
                    let w: Vec<String> = cs
                        .iter()
                        .map(|c| format!("{{tithes {} from {name}}}", c.name()))
                        .collect();
                    let w = match w.as_slice() {
                        [one] => one.clone(),
                        several => format!("({})", several.join(" ")),
                    };
                    (cs, w)
                })
                .collect();
            let pieces = if self.pieces_in_zone(i, zone) > 1 {
                "Pieces"
            } else {
                "Piece"
            };
            let what = format!(
                "[Collecting Tithe] from {name}'s {pieces} in Zone {zone} (\"a Token of the Actioning Player's choice\")"
            );
            match self.only_choice(rule, &what, &written) {
                Some(cs) => taken.extend(cs.into_iter().map(|c| (i, c))),
                None if written.is_empty() => {}
                None => complete = false,
            }
        }
        complete
    }

    /// Moves the Tithe to the Tither: the Tokens named from each Piece and
    /// the top Token of each Stack in the Zone that is not Pegged (Rule
    /// 1.11.4: no Token is removed from a Pegged Station).
    fn take_tithe(&mut self, zone: u8, taken: &[(usize, Colour)]) {
        for &(i, c) in taken {
            let have = self.s.players[i].tokens.get(c);
            self.s.players[i].tokens.set(c, have - 1);
            self.gain(&[(1, c)]);
            let name = self.s.players[i].name.clone();
            self.change(format!(
                "a {} Token is tithed from {name} (Rule 1.7.31)",
                c.name()
            ));
        }
        let stations: Vec<StationId> = self
            .s
            .stacks
            .iter()
            .filter(|(s, t)| !t.is_empty() && self.map.station(*s).zones.contains(&zone))
            .map(|(s, _)| *s)
            .filter(|s| !self.pegged(*s))
            .collect();
        for at in stations {
            let Some(i) = self.s.stacks.iter().position(|(s, _)| *s == at) else {
                continue;
            };
            let Some(c) = self.s.stacks[i].1.pop() else {
                continue;
            };
            if self.s.stacks[i].1.is_empty() {
                self.s.stacks.remove(i);
            }
            self.gain(&[(1, c)]);
            self.change(format!(
                "the top {} Token of the Stack at {} is tithed (Rule 1.7.31)",
                c.name(),
                self.name(at)
            ));
        }
    }

    /// The Zones of the map, lowest first.
    fn map_zones(&self) -> Vec<u8> {
        let mut z: Vec<u8> = self
            .map
            .stations()
            .iter()
            .flat_map(|s| s.zones.iter().copied())
            .collect();
        z.sort_unstable();
        z.dedup();
        z
    }

    /// As the Turn ends: the Zone the player Tithed last Turn is no longer
    /// Tithed, and one Tithed this Turn is (Rule 1.7.31).
    pub(super) fn tithe_round(&mut self, me_name: &str) {
        self.s
            .tithes
            .retain(|t| !t.player.eq_ignore_ascii_case(me_name));
        let zone = self.play.actions().find_map(|a| match a {
            Action::Tithe { zone } => Some(*zone),
            _ => None,
        });
        // Recorded whatever the verdict: a Turn judged Legal by the Speaker
        // keeps its state as far as the engine played it (RULINGS S11).
        if let Some(zone) = zone {
            self.s.tithes.push(Tithed {
                player: me_name.to_string(),
                zone,
            });
        }
    }
}

/// What a Tithe may take from player `p`'s `pieces` Pieces in the Zone
/// when the play names nothing: each choice of one Token a Piece (as many
/// as e holds, if fewer), of colours e holds, Metallic ones not from a
/// Magno-Clamp's carrier (Rule 1.4.45); sorted, without repeats.
fn tithe_options(p: &crate::engine::PlayerState, pieces: usize) -> Vec<Vec<Colour>> {
    let magno = p.carries(crate::gsd::Good::MagnoClamp);
    let held: Vec<(Colour, u32)> = Colour::ALL
        .into_iter()
        .filter(|c| c.is_plastic() || !magno)
        .map(|c| (c, p.tokens.get(c)))
        .filter(|(_, n)| *n > 0)
        .collect();
    let total: u32 = held.iter().map(|(_, n)| n).sum();
    let k = pieces.min(total as usize);
    let mut out: Vec<Vec<Colour>> = vec![vec![]];
    for _ in 0..k {
        let mut next = Vec::new();
        for pick in &out {
            for &(c, n) in &held {
                let used = pick.iter().filter(|x| **x == c).count() as u32;
                if used < n && pick.last().is_none_or(|l| *l <= c) {
                    let mut p = pick.clone();
                    p.push(c);
                    next.push(p);
                }
            }
        }
        out = next;
    }
    out.retain(|o| !o.is_empty());
    out
}

/// The Tokens the play names from player `p` (index `i`), one for each of
/// eir `pieces` in the Zone (Rule 1.7.31; twice for a Bifurcated Player
/// with both there, Rule 1.7.42), or why they cannot be tithed.
fn named_tithes(
    p: &crate::engine::PlayerState,
    i: usize,
    pieces: usize,
    zone: u8,
    named: &[Colour],
) -> Result<Vec<(usize, Colour)>, String> {
    if named.len() > pieces {
        return Err(if pieces == 1 {
            format!("one Token only is tithed from {}", p.name)
        } else {
            format!(
                "two Tokens only are tithed from {}, one for each Piece (Rule 1.7.42)",
                p.name
            )
        });
    }
    if named.len() < pieces {
        return Err(format!(
            "both of {}'s Pieces are in Zone {zone}: the Tithe affects em twice (Rule 1.7.42), so the play names two Tokens, e.g. {{tithes Red from {}}} twice",
            p.name, p.name
        ));
    }
    let mut taken = Vec::new();
    for (k, c) in named.iter().enumerate() {
        let wanted = named[..=k].iter().filter(|x| *x == c).count() as u32;
        if !c.is_plastic() && p.carries(crate::gsd::Good::MagnoClamp) {
            return Err(format!(
                "{} carries a Magno-Clamp: Metallic Tokens may not be taken from eir Possession (Rule 1.4.45)",
                p.name
            ));
        }
        if p.tokens.get(*c) < wanted {
            return Err(format!("{} has no {} Token", p.name, c.name()));
        }
        taken.push((i, *c));
    }
    Ok(taken)
}
