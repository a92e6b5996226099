//! Knerdling (Rule 1.4.36): a player who received a Clamp since eir last
//! Turn, holding the Knerdling Stick received before it, hands the Clamp
//! and then the Stick to a Player e can reach along eir Line without
//! turning, with no Block, Bulkhead or Piece between (RULINGS.md E75).
//!
//! Who gave each Clamp, and whether the Stick was held first, is folded
//! from the plays (every Action's new Clamps in others' Luggage) or
//! recovered from a GSD's plays; a player whose latest Turn neither has
//! seen gets "needs a human ruling".

use super::*;
use crate::engine::state::Received;
use crate::gsd::{Good, Play, Quality};
use crate::map::Direction;

const RULE: &str = "1.4.36";

/// Each player's Clamps (not in a Nantucket) and whether e holds the
/// Knerdling Stick, in player order.
pub(super) type Holdings = Vec<(Vec<Item>, bool)>;

fn holdings(s: &GameState) -> Holdings {
    s.players
        .iter()
        .map(|p| {
            let carried = p.possessions.iter().filter(|x| !x.nantucket);
            (
                carried
                    .clone()
                    .filter(|x| x.good().is(Quality::Clamp))
                    .map(|x| x.item.clone())
                    .collect(),
                carried.clone().any(|x| x.good() == Good::KnerdlingStick),
            )
        })
        .collect()
}

/// The Clamp an Action gives its target, as the play writes it (the
/// Radio Clamp's number is not in the play).
fn clamp_given(a: &Action) -> Option<(&str, Good)> {
    Some(match a {
        Action::Spooning { player } => (player, Good::SpoonClamp),
        Action::Narging { player } => (player, Good::NargClamp),
        Action::Greening { player } => (player, Good::GreenClamp),
        Action::Freeming { player } => (player, Good::FreemClamp),
        Action::Knidding { player } => (player, Good::KnidClamp),
        Action::MagnoClamping { player } => (player, Good::MagnoClamp),
        Action::Toffing { player } => (player, Good::ToffClamp),
        Action::Radiating { player } => (player, Good::RadioClamp),
        _ => return None,
    })
}

impl GameState {
    /// The Clamps received since each player's latest play that a GSD's
    /// plays show (Rule 1.4.36); the Stick counts as held before a Clamp
    /// when its receiver carries it now and no later Knerdling handed it
    /// to em.
    pub(crate) fn recover_received(&mut self, plays: &[Play]) {
        self.received.clear();
        self.turns_seen.clear();
        for play in plays {
            let name = play.player.as_str();
            self.received
                .retain(|r| !r.player.eq_ignore_ascii_case(name));
            if !self.turns_seen.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                self.turns_seen.push(name.to_string());
            }
            for a in play.actions() {
                if let Action::Knerdling { player } = a {
                    // The Stick comes after every Clamp its receiver has,
                    // the one handed with it included, which is thus never
                    // Knerdled on with it (no record needed).
                    for r in self.received.iter_mut() {
                        if r.player.eq_ignore_ascii_case(player) {
                            r.stick = false;
                        }
                    }
                    continue;
                }
                let Some((target, good)) = clamp_given(a) else {
                    continue;
                };
                let Some(t) = self.player_index(target) else {
                    continue;
                };
                let p = &self.players[t];
                let stick = p
                    .possessions
                    .iter()
                    .any(|x| !x.nantucket && x.good() == Good::KnerdlingStick);
                self.received.push(Received {
                    player: p.name.clone(),
                    clamp: crate::gsd::Possession::of(good).item,
                    from: name.to_string(),
                    stick,
                });
            }
        }
        let players = self.players.clone();
        self.received.retain(|r| {
            players
                .iter()
                .any(|p| p.active && p.name.eq_ignore_ascii_case(&r.player))
        });
    }
}

impl Turn<'_> {
    /// Each player's Clamps and Stick before an Action.
    pub(super) fn holdings(&self) -> Holdings {
        holdings(&self.s)
    }

    /// After an Action: each Clamp that came into another player's Luggage
    /// was given by the Actioning Player, the Stick held before it if e
    /// held it before the Action. A record whose receiver no longer holds
    /// the Stick loses it.
    pub(super) fn clamps_given(&mut self, before: Holdings) {
        let after = holdings(&self.s);
        let from = self.my_name();
        for (p, (now, _)) in after.iter().enumerate() {
            if p == self.me {
                continue;
            }
            let (mut old, stick) = before.get(p).cloned().unwrap_or_default();
            for item in now {
                if let Some(i) = old.iter().position(|x| x == item) {
                    old.remove(i);
                    continue;
                }
                self.s.received.push(Received {
                    player: self.s.players[p].name.clone(),
                    clamp: item.clone(),
                    from: from.clone(),
                    stick,
                });
            }
        }
        self.sticks_kept();
    }

    fn sticks_kept(&mut self) {
        let players = &self.s.players;
        for r in self.s.received.iter_mut() {
            let holds = players.iter().any(|p| {
                p.name.eq_ignore_ascii_case(&r.player)
                    && p.possessions
                        .iter()
                        .any(|x| !x.nantucket && x.good() == Good::KnerdlingStick)
            });
            r.stick &= holds;
        }
    }

    /// As a Turn ends: the player has taken a Turn (eir received Clamps no
    /// longer count); an Inactive player's do not either.
    pub(super) fn knerdle_round(&mut self, me_name: &str) {
        self.sticks_kept();
        let players = self.s.players.clone();
        self.s.received.retain(|r| {
            !r.player.eq_ignore_ascii_case(me_name)
                && players
                    .iter()
                    .any(|p| p.active && p.name.eq_ignore_ascii_case(&r.player))
        });
        if !self
            .s
            .turns_seen
            .iter()
            .any(|n| n.eq_ignore_ascii_case(me_name))
        {
            self.s.turns_seen.push(me_name.to_string());
        }
    }

    /// `[Knerdling <Player>]`: the first Action of the Turn; the Clamp
    /// (the earliest received one not given by the target) then the Stick
    /// go to the target.
    pub(super) fn knerdling(&mut self, a: &Action, player: &str) -> Charge {
        let me = self.me;
        let name = self.my_name();
        if !self
            .play
            .actions()
            .next()
            .is_some_and(|x| std::ptr::eq(x, a))
        {
            self.illegal(
                RULE,
                "Knerdling may only be performed as the first Action of a Turn",
            );
            return Charge::Free;
        }
        let stick = self.s.players[me]
            .possessions
            .iter()
            .position(|x| !x.nantucket && x.good() == Good::KnerdlingStick);
        let Some(stick) = stick else {
            self.illegal(
                RULE,
                format!("{name} is not in possession of the Knerdling Stick"),
            );
            return Charge::Free;
        };
        let Some(v) = self.s.player_index(player).filter(|&v| v != me) else {
            self.illegal(RULE, format!("{player} is not another player of this game"));
            return Charge::Free;
        };
        let target = self.s.players[v].name.clone();
        if !self
            .s
            .turns_seen
            .iter()
            .any(|n| n.eq_ignore_ascii_case(&name))
        {
            self.ruling(
                RULE,
                format!("which Clamps {name} received since eir last Turn, from whom, and whether e held the Knerdling Stick first, is not in the plays mornbot has folded"),
            );
            return Charge::Free;
        }
        let Some(k) = self.knerdled_clamp(&target) else {
            return Charge::Free;
        };
        // The target is the <Player> of the Action: not at, nor from, an
        // undefamed Holy Station (Rule 1.11.7), nor in the small hours
        // (Rule 1.13.1).
        self.names_target(v);
        if !self.knerdle_reach(v) {
            self.illegal(
                RULE,
                format!("{target}'s position cannot be reached without a change of Line or of Line Direction with no Blocks, Bulkheads or other Players in between"),
            );
            return Charge::Free;
        }
        let r = self.s.received.remove(k);
        let i = self.s.players[me]
            .possessions
            .iter()
            .position(|x| !x.nantucket && emporium::names(&r.clamp, x))
            .expect("knerdled_clamp found it carried");
        let clamp = self.s.players[me].possessions.remove(i);
        let good = clamp.good();
        // The Clamp's own records go with it (Rules 1.4.44, 1.4.47).
        if let Some(t) = self
            .s
            .toffs
            .iter_mut()
            .find(|t| t.player.eq_ignore_ascii_case(&name) && good == Good::ToffClamp)
        {
            t.player = target.clone();
        }
        if let Some(p) = self
            .s
            .prisons
            .iter_mut()
            .find(|p| p.player.eq_ignore_ascii_case(&name) && good == Good::PrisonClamp)
        {
            p.player = target.clone();
        }
        let text = crate::gsd::render::item_text(&clamp.item);
        self.s.players[v].possessions.push(clamp);
        let stick = self.s.players[me]
            .possessions
            .remove(stick - usize::from(i < stick));
        self.s.players[v].possessions.push(stick);
        self.change(format!(
            "{name} Knerdles {target}: the {text} {} gave em, then the Knerdling Stick, go to {target} (Rule 1.4.36)",
            r.from
        ));
        Charge::Table
    }

    /// The index in `received` of the Clamp Knerdling hands to `target`:
    /// received since the Knerdler's last Turn while holding the Stick,
    /// still carried, and not given by the target.
    fn knerdled_clamp(&mut self, target: &str) -> Option<usize> {
        let me = self.me;
        let name = self.my_name();
        let carried = &self.s.players[me].possessions;
        let eligible: Vec<usize> = (0..self.s.received.len())
            .filter(|&k| {
                let r = &self.s.received[k];
                r.player.eq_ignore_ascii_case(&name)
                    && r.stick
                    && carried
                        .iter()
                        .any(|x| !x.nantucket && emporium::names(&r.clamp, x))
            })
            .collect();
        if eligible.is_empty() {
            self.illegal(
                RULE,
                format!("{name} has received no Clamp since eir last Turn while holding the Knerdling Stick received before it"),
            );
            return None;
        }
        let k = eligible
            .into_iter()
            .find(|&k| !self.s.received[k].from.eq_ignore_ascii_case(target));
        if k.is_none() {
            self.illegal(
                RULE,
                format!("the target must be a Player other than the Player who gave the Clamp: {target} gave it"),
            );
        }
        k
    }

    /// Whether player `v`'s Station can be reached from the Piece along its
    /// Line (any of its Station's lines when the Line is not known) in one
    /// Line Direction, with no Block, Bulkhead or other Piece in between.
    fn knerdle_reach(&self, v: usize) -> bool {
        let Some(pos) = self.s.players[self.me].at else {
            return false;
        };
        let Some(goal) = self.s.players[v].station() else {
            return false;
        };
        if goal == pos.station {
            return true;
        }
        let st = self.map.station(pos.station);
        let lines: Vec<LineCode> = match pos.line {
            Some(l) => vec![l],
            None => LineCode::ALL
                .into_iter()
                .filter(|l| st.lines.contains(*l))
                .collect(),
        };
        let between = |x: StationId| {
            self.s.blocks.iter().any(|b| b.station == x)
                || self.s.has_mark(x, StationMark::Bulkhead)
                || self.s.has_mark(x, StationMark::HeavyDamage)
                || self.s.occupied_by_other(x, self.me)
        };
        for l in lines {
            for d in [Direction::Forward, Direction::Backward] {
                let mut edge = vec![(pos.station, d)];
                let mut seen = edge.clone();
                while let Some((x, dir)) = edge.pop() {
                    for s in self.map.steps(x, l).iter().filter(|s| s.leave == dir) {
                        if s.to == goal {
                            return true;
                        }
                        if seen.contains(&(s.to, s.arrive)) || between(s.to) {
                            continue;
                        }
                        seen.push((s.to, s.arrive));
                        edge.push((s.to, s.arrive));
                    }
                }
            }
        }
        false
    }
}
