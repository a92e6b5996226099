//! The Nantucket, the Overcoat's secret pocket (Rule 1.4.15, RULINGS.md
//! E77): [Reshuffling] Small Possessions in and out, the pocket's contents
//! stolen with the victim's only Overcoat, lost with the last one.

use super::*;
use crate::gsd::{Good, Quality};

/// One move a `[Reshuffling]` makes, as a Play's directive writes it.
enum Shuffle<'p> {
    /// `{into Nantucket <Possession>}`.
    In(&'p Item),
    /// `{out of Nantucket <Possession>}`.
    Out(&'p Item),
}

impl Turn<'_> {
    /// `[Reshuffling]` (Rule 1.4.15): "the owner of a Nantucket may play
    /// the Reshuffling Action once per Turn, provided e is wearing eir
    /// Overcoat", moving "any or all of eir Small Possessions into and out
    /// of eir Nantucket": each one named by `{into Nantucket <Possession>}`
    /// or `{out of Nantucket <Possession>}`; none named is Illegal.
    pub(super) fn reshuffle(&mut self, a: &Action) -> Charge {
        let rule = a.spec().rule;
        let me = self.me;
        let wearing = self.s.players[me]
            .possessions
            .iter()
            .any(|p| p.worn && !p.nantucket && p.good() == Good::Overcoat);
        if !wearing {
            self.illegal(
                rule,
                format!(
                    "[Reshuffling] is played while wearing an Overcoat: {} wears none",
                    self.my_name()
                ),
            );
            return Charge::Free;
        }
        let moves: Vec<Shuffle<'_>> = self
            .play
            .directives()
            .filter_map(|d| match d {
                Directive::IntoNantucket(i) => Some(Shuffle::In(i)),
                Directive::OutOfNantucket(i) => Some(Shuffle::Out(i)),
                _ => None,
            })
            .collect();
        if moves.is_empty() {
            self.illegal(
                rule,
                "the Play names what [Reshuffling] moves, e.g. {into Nantucket Rover Card} or {out of Nantucket Rover Card}",
            );
            return Charge::Free;
        }
        for m in moves {
            self.shuffle_one(rule, m);
        }
        Charge::Table
    }

    /// Moves one Possession into or out of the Nantucket, or says why not.
    fn shuffle_one(&mut self, rule: &str, m: Shuffle<'_>) {
        let me = self.me;
        let (named, into) = match m {
            Shuffle::In(i) => (i, true),
            Shuffle::Out(i) => (i, false),
        };
        let text = crate::gsd::render::item_name(named);
        // Into: a carried one; out: one in the Nantucket.
        let found = self.s.players[me]
            .possessions
            .iter()
            .position(|p| p.nantucket != into && emporium::names(named, p));
        let Some(i) = found else {
            let where_ = if into {
                "carries"
            } else {
                "has in eir Nantucket"
            };
            self.illegal(rule, format!("{} {where_} no {text}", self.my_name()));
            return;
        };
        let p = &self.s.players[me].possessions[i];
        if into && !p.is(Quality::Small) {
            self.illegal(
                rule,
                format!(
                    "only Small Possessions may be stored in a Nantucket: the {text} is not Small"
                ),
            );
            return;
        }
        if into && p.worn {
            self.illegal(
                rule,
                format!("the {text} is Worn: [Removing] it comes first (RULINGS E77)"),
            );
            return;
        }
        self.s.players[me].possessions[i].nantucket = into;
        let how = if into { "into" } else { "out of" };
        self.change(format!(
            "{} moves the {text} {how} eir Nantucket (Rule 1.4.15)",
            self.my_name()
        ));
    }

    /// `{into Nantucket}` or `{out of Nantucket}` without a `[Reshuffling]`:
    /// "Possessions in a Nantucket may not be manipulated in any way", and
    /// nothing else moves them (Rule 1.4.15).
    pub(super) fn shuffles_without_reshuffling(&mut self) {
        let asked = self.play.directives().any(|d| {
            matches!(
                d,
                Directive::IntoNantucket(_) | Directive::OutOfNantucket(_)
            )
        });
        let played = self
            .play
            .actions()
            .any(|a| matches!(a, Action::Reshuffling));
        if asked && !played {
            self.illegal(
                "1.4.15",
                "only a [Reshuffling] moves Possessions into or out of a Nantucket",
            );
        }
    }

    /// How many Overcoats each player owns, in player order.
    pub(super) fn overcoats(&self) -> Vec<usize> {
        self.s
            .players
            .iter()
            .map(|p| {
                p.possessions
                    .iter()
                    .filter(|x| x.good() == Good::Overcoat)
                    .count()
            })
            .collect()
    }

    /// "If a Player loses an Overcoat and has none left as a result, all
    /// of eir Nantucked Possessions are also lost" (Rule 1.4.15): any
    /// player who owned an Overcoat in `before` and owns none now.
    pub(super) fn nantucket_lost(&mut self, before: &[usize]) {
        let now = self.overcoats();
        let mut lines = Vec::new();
        for (i, p) in self.s.players.iter_mut().enumerate() {
            let lost_last = before.get(i).is_some_and(|b| *b > 0) && now[i] == 0;
            if !lost_last {
                continue;
            }
            let n = p.possessions.iter().filter(|x| x.nantucket).count();
            if n == 0 {
                continue;
            }
            p.possessions.retain(|x| !x.nantucket);
            lines.push(format!(
                "{} has no Overcoat left: the {n} Possession(s) in eir Nantucket are lost (Rule 1.4.15)",
                p.name
            ));
        }
        self.out.changes.extend(lines);
    }

    /// A Shunt's claim took `v`'s Overcoat: "if ... the robbed Player has
    /// only one Overcoat, all of the victim's Nantucketed Possessions are
    /// moved (remaining Nantucketed) to the stealing Player's inventory"
    /// (Rule 1.4.15).
    pub(super) fn overcoat_stolen(&mut self, v: usize) {
        let me = self.me;
        let left = self.s.players[v]
            .possessions
            .iter()
            .any(|x| x.good() == Good::Overcoat);
        if left {
            return;
        }
        let (kept, moved): (Vec<_>, Vec<_>) = self.s.players[v]
            .possessions
            .drain(..)
            .partition(|x| !x.nantucket);
        self.s.players[v].possessions = kept;
        if moved.is_empty() {
            return;
        }
        let n = moved.len();
        self.s.players[me].possessions.extend(moved);
        self.change(format!(
            "with {}'s only Overcoat go the {n} Possession(s) in its Nantucket, still Nantucketed (Rule 1.4.15)",
            self.s.players[v].name
        ));
    }
}
