//! Actions that target another Player (Rule 1.10.0): Huffs (1.10.15),
//! Blonks (1.10.16), Shadows (1.10.5), and what a Shunt claims (1.10.1,
//! 1.10.2). The Shunts themselves are in `shunts.rs`.

use super::*;
use crate::gsd::{Claim, Good};

impl Turn<'_> {
    /// The common conditions of Actions that target a player (Rules 1.10.0,
    /// 1.11.7, 1.13.1): the target's index and position.
    pub(super) fn target_of(&mut self, a: &Action, player: &str) -> Option<(usize, Position)> {
        let me = self.me;
        let rule = a.spec().rule;
        self.targeting(a);
        let Some(v) = self.s.player_index(player).filter(|&v| v != me) else {
            self.illegal(rule, format!("{player} is not another player of this game"));
            return None;
        };
        let (Some(mine), Some(theirs)) = (self.s.players[me].at, self.s.players[v].at) else {
            self.illegal(
                rule,
                format!("both Pieces must be on the Map to Shunt {player}"),
            );
            return None;
        };
        let same_line = mine.line.is_none() || theirs.line.is_none() || mine.line == theirs.line;
        let shares = mine.station == theirs.station && same_line;
        if !shares && !self.magnified(a, magnify::Lens::Player(v), mine, theirs) {
            self.illegal(
                "1.10.0",
                format!("{player} does not share the Piece's Station and Line"),
            );
            return None;
        }
        if self.sanctuary(mine.station) {
            return None;
        }
        Some((v, theirs))
    }

    /// What every targeting Action needs: to be the first post-Move Action
    /// (Rule 1.10.0), outside 0000-0500 (Rule 1.13.1).
    pub(super) fn targeting(&mut self, a: &Action) {
        let first_post = self
            .play
            .actions_after()
            .next()
            .is_some_and(|x| std::ptr::eq(x, a));
        if !first_post {
            self.illegal(
                "1.10.0",
                format!(
                    "{} must be the first post-Move Action of the Turn",
                    a.render()
                ),
            );
        }
        if crate::engine::time::in_small_hours(self.now()) {
            self.illegal(
                "1.13.1",
                "Actions that target other Players cannot be played between 0000 and 0500",
            );
        }
    }

    /// A Holy Station not Defamed: a Sanctuary (Rule 1.11.7).
    fn refuge(&self, at: StationId) -> bool {
        self.map.station(at).categories.contains(Category::Holy)
            && !self.s.has_mark(at, StationMark::Defamed)
    }

    /// Sanctuary for player `v`, the target, at `at`: "If a Player is
    /// situated at a Holy Station, e may not be the target of any Action"
    /// (Rule 1.11.7); reports it.
    pub(super) fn sheltered(&mut self, v: usize, at: StationId) -> bool {
        let holy = self.refuge(at);
        if holy {
            self.illegal(
                "1.11.7",
                format!(
                    "{} is at {}, a Holy Station: Sanctuary forbids targeting em",
                    self.s.players[v].name,
                    self.name(at)
                ),
            );
        }
        holy
    }

    /// An Action that names another Player without sharing eir Station
    /// (`[Giving Tokens to <Player>]`, `[Knerdling <Player>]`): it targets
    /// em all the same (Rule
    /// 1.11.7's "the <Player> of any Action requiring a Player to be
    /// specified"; RULINGS E124), so neither of the two may be at a Holy
    /// Station (Rule 1.11.7), nor the hour 0000 - 0500 (Rule 1.13.1).
    pub(super) fn names_target(&mut self, v: usize) {
        if crate::engine::time::in_small_hours(self.now()) {
            self.illegal(
                "1.13.1",
                "Actions that target other Players cannot be played between 0000 and 0500",
            );
        }
        if let Some(mine) = self.s.players[self.me].at {
            if self.sanctuary(mine.station) {
                return;
            }
        }
        if let Some(theirs) = self.s.players[v].at {
            self.sheltered(v, theirs.station);
        }
    }

    /// Sanctuary: nobody at an undefamed Holy Station targets or is
    /// targeted (Rule 1.11.7); reports it.
    pub(super) fn sanctuary(&mut self, at: StationId) -> bool {
        let holy = self.refuge(at);
        if holy {
            self.illegal(
                "1.11.7",
                format!(
                    "{} is a Holy Station: Sanctuary forbids targeting a Player from it",
                    self.name(at)
                ),
            );
        }
        holy
    }

    /// `[Huffing <Player>]` (Rule 1.10.15): both LVs become the number the
    /// comment names (`{LV 3}`), from 0 to the sum of them (0, unnamed, when
    /// the sum is 0).
    pub(super) fn huff(&mut self, a: &Action, player: &str) -> Charge {
        let rule = a.spec().rule;
        let Some((v, _)) = self.target_of(a, player) else {
            return Charge::Table;
        };
        let victim = self.s.players[v].name.clone();
        let most = self.s.players[self.me]
            .lv
            .saturating_add(self.s.players[v].lv);
        // "any number between zero and 'x'": with x zero, zero is the only
        // choice and needs no comment (RULINGS E134).
        let named = self
            .directive(|d| match d {
                Directive::Lv(n) => Some(*n),
                _ => None,
            })
            .or((most == 0).then_some(0));
        match named {
            Some(n) if n <= most => {
                self.s.players[self.me].lv = n;
                self.s.players[v].lv = n;
                self.change(format!(
                    "{victim} is Huffed: both LVs are {n} (Rule 1.10.15)"
                ));
            }
            Some(n) => self.illegal(
                rule,
                format!("LV {n} is more than the two LVs together ({most})"),
            ),
            None => self.illegal(
                rule,
                format!(
                    "{} needs a choice: the new LV, {{LV 0}} to {{LV {most}}} (the two LVs together)",
                    a.render()
                ),
            ),
        }
        Charge::Table
    }

    /// `[Blonking <Player>]` (Rule 1.10.16): one Token of the victim's,
    /// named `{destroys Red}` (unnamed when e holds one colour), is
    /// destroyed.
    pub(super) fn blonk(&mut self, a: &Action, player: &str) -> Charge {
        let rule = a.spec().rule;
        let Some((v, _)) = self.target_of(a, player) else {
            return Charge::Table;
        };
        let victim = self.s.players[v].name.clone();
        let named = self.directive(|d| match d {
            Directive::Destroys(c) => Some(*c),
            _ => None,
        });
        // "a single token in the possession of the victim": the only
        // colour e holds needs no comment; several need a choice (E134).
        let held: Vec<(Colour, String)> = Colour::ALL
            .into_iter()
            .filter(|c| self.s.players[v].tokens.get(*c) > 0)
            .map(|c| (c, format!("{{destroys {}}}", c.name())))
            .collect();
        let named = match named {
            Some(c) => Some(c),
            None if held.is_empty() => None,
            None => match self.only_choice(rule, &a.render(), &held) {
                Some(c) => Some(c),
                None => return Charge::Table,
            },
        };
        match named {
            Some(c) if self.s.players[v].tokens.get(c) > 0 => {
                let t = self.s.players[v].tokens.get(c);
                self.s.players[v].tokens.set(c, t - 1);
                self.change(format!(
                    "a {} Token of {victim}'s is destroyed (Rule 1.10.16)",
                    c.name()
                ));
            }
            Some(c) => self.illegal(rule, format!("{victim} has no {} Token", c.name())),
            None => self.illegal(
                rule,
                format!("{victim} holds no Token for the Blonk to destroy"),
            ),
        }
        Charge::Table
    }

    /// `[Shadowing <Player>]` (Rule 1.10.5): the Shadower takes the
    /// victim's LV and may gain a Plastic Token of a colour the victim
    /// holds, named `{takes Red}`.
    pub(super) fn shadow(&mut self, a: &Action, player: &str) -> Charge {
        let rule = a.spec().rule;
        let Some((v, _)) = self.target_of(a, player) else {
            return Charge::Table;
        };
        let victim = self.s.players[v].name.clone();
        self.s.players[self.me].lv = self.s.players[v].lv;
        match self.directive(|d| match d {
            Directive::Takes(c) => Some(*c),
            _ => None,
        }) {
            Some(c) if c.is_plastic() && self.s.players[v].tokens.get(c) > 0 => {
                self.gain(&[(1, c)]);
                self.change(format!(
                    "{} Shadows {victim} and gains a {} Token (Rule 1.10.5)",
                    self.my_name(),
                    c.name()
                ));
            }
            Some(c) => self.illegal(
                rule,
                format!(
                    "the Token must be Plastic and of a colour {victim} holds, not {}",
                    c.name()
                ),
            ),
            None => self.change(format!(
                "{} Shadows {victim} and takes no Token",
                self.my_name()
            )),
        }
        Charge::Table
    }

    /// What the next Shunt of this Move that may claim (the Shunt, then
    /// each multiple Shunt) claims from `target` (Rules 1.10.1, 1.10.2): a
    /// `{claims <what> from <target>}`, else the next `{claims <what>}`
    /// naming no one.
    pub(super) fn claim_of(&mut self, target: &str) -> Option<Claim> {
        let k = self.shunts.claims;
        self.shunts.claims += 1;
        let claims: Vec<(&Claim, Option<&str>)> = self
            .play
            .directives()
            .filter_map(|d| match d {
                Directive::Claims { what, from } => Some((what, from.as_deref())),
                _ => None,
            })
            .collect();
        claims
            .iter()
            .find(|(_, from)| from.is_some_and(|f| f.eq_ignore_ascii_case(target)))
            .or_else(|| claims.iter().filter(|(_, from)| from.is_none()).nth(k))
            .map(|(what, _)| (*what).clone())
    }

    /// The claim after Shunting a Stack: one Token of the Stack, named in a
    /// comment `{claims <Colour>}`; the topmost of that colour among the
    /// `moved` Tokens now on top of the Stack at `dest` (Rule 1.10.1).
    pub(super) fn stack_claim(&mut self, dest: StationId, moved: usize) {
        let Some(what) = self.claim_of("Token Stack") else {
            return;
        };
        let c = match what {
            Claim::Token(c) => c,
            Claim::Possession(item) => {
                self.illegal(
                    "1.10.1",
                    format!(
                        "a Token Stack carries only Tokens: {} cannot be claimed from it",
                        crate::gsd::render::item_text(&item)
                    ),
                );
                return;
            }
        };
        let i = self.stack_index(dest);
        let len = self.s.stacks[i].1.len();
        let from = len - moved.min(len);
        match (from..len).rev().find(|&k| self.s.stacks[i].1[k] == c) {
            Some(k) => {
                self.s.stacks[i].1.remove(k);
                if self.s.stacks[i].1.is_empty() {
                    self.s.stacks.remove(i);
                }
                self.gain(&[(1, c)]);
                self.change(format!(
                    "{} claims a {} Token from the Stack",
                    self.s.players[self.me].name,
                    c.name()
                ));
            }
            None => self.illegal(
                "1.10.1",
                format!("the Shunted Stack has no {} Token to claim", c.name()),
            ),
        }
    }

    /// The Shunting player's claim of one Token or Possession (Rule 1.10.1),
    /// named in a comment `{claims <Colour>}` or `{claims <Possession>}`.
    pub(super) fn shunt_claim(&mut self, v: usize) {
        let me = self.me;
        let target = self.s.players[v].name.clone();
        let Some(what) = self.claim_of(&target) else {
            return;
        };
        let belt = self.s.players[v].carries(Good::MoneyBelt);
        let item = match what {
            Claim::Token(c) => {
                if belt {
                    self.illegal(
                        "1.10.1",
                        "the Shunted player wears a Money Belt: no Token may be claimed",
                    );
                } else if !c.is_plastic() && self.s.players[v].carries(Good::MagnoClamp) {
                    self.illegal(
                        "1.4.45",
                        "Metallic Tokens may not be taken from a Magno-Clamp carrier's Possession by other Players",
                    );
                } else if self.s.players[v].tokens.get(c) == 0 {
                    self.illegal(
                        "1.10.1",
                        format!(
                            "{} has no {} Token to claim",
                            self.s.players[v].name,
                            c.name()
                        ),
                    );
                } else {
                    let t = self.s.players[v].tokens.get(c);
                    self.s.players[v].tokens.set(c, t - 1);
                    self.gain(&[(1, c)]);
                    self.change(format!("{} claims a {} Token", self.my_name(), c.name()));
                }
                return;
            }
            Claim::Possession(item) => item,
        };
        let text = crate::gsd::render::item_name(&item);
        let idx = self.s.players[v]
            .possessions
            .iter()
            .position(|p| emporium::names(&item, p));
        let Some(i) = idx else {
            self.illegal(
                "1.10.1",
                format!("{} has no {text} to claim", self.s.players[v].name),
            );
            return;
        };
        let p = &self.s.players[v].possessions[i];
        if p.worn || p.nantucket || p.good() == Good::MoneyBelt {
            self.illegal(
                "1.10.1",
                format!("{text} cannot be claimed (Worn, in a Nantucket, or the Money Belt)"),
            );
            return;
        }
        let p = self.s.players[v].possessions.remove(i);
        let overcoat = p.good() == Good::Overcoat;
        self.s.players[me].possessions.push(p);
        self.change(format!("{} claims {text}", self.my_name()));
        if overcoat {
            self.overcoat_stolen(v);
        }
    }
}
