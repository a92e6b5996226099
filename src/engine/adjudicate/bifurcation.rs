//! Me and My Shadow (Rule 1.7.42): `[Bifurcating to <Station>]`, the
//! second Piece's upkeep, the two labelled Moves, either Piece qualifying
//! for an Action, and Pieces destroyed by running into each other.
//!
//! Piece A is the player's `at`, Piece B `piece_b`. To judge something of
//! Piece B, the two are swapped ([`Turn::swap_pieces`]), so that every
//! handler written for one Piece judges B as it judges A.

use super::*;
use crate::engine::state::LastMove;

/// Piece B's part of the Move facts, kept while Piece A's are in `mv`
/// (and the other way round while the Pieces are swapped).
#[derive(Clone, Default)]
pub(super) struct OtherPiece {
    /// Where Piece B stood when the Turn began (Rule 1.7.42).
    started_at: Option<StationId>,
    /// Stations Piece B's Move passed through.
    through: Vec<StationId>,
    /// Line Directions Piece B's Move arrived in.
    arrivals: Vec<crate::map::Direction>,
}

/// What an Action may change, to judge it again for the other Piece.
#[derive(Clone)]
struct Saved {
    s: GameState,
    violations: Vec<Violation>,
    rulings: Vec<Violation>,
    changes: Vec<String>,
    declared: Vec<crate::engine::gambit::Gambit>,
    clock: Clock,
    mv: MoveFacts,
    opened: Openings,
    tally: Tally,
    shunts: Shunts,
    other: OtherPiece,
}

impl Turn<'_> {
    /// Whether the player whose Turn it is has two Pieces (Rule 1.7.42).
    pub(super) fn bifurcated(&self) -> bool {
        self.s.players[self.me].bifurcated()
    }

    /// Swaps Piece A and Piece B of player `i`; for the player whose Turn
    /// it is, also the Move facts of each (where it began, what it passed).
    pub(super) fn swap_pieces(&mut self, i: usize) {
        let p = &mut self.s.players[i];
        if p.piece_b.is_none() {
            return;
        }
        std::mem::swap(&mut p.at, &mut p.piece_b);
        let name = p.name.clone();
        self.s.gambits.swap_pieces(&name);
        if i == self.me {
            self.swap_facts();
        }
    }

    /// Swaps the Move facts of the two Pieces of the player whose Turn it is.
    fn swap_facts(&mut self) {
        std::mem::swap(&mut self.mv.started_at, &mut self.other.started_at);
        std::mem::swap(&mut self.mv.through, &mut self.other.through);
        std::mem::swap(&mut self.mv.arrivals, &mut self.other.arrivals);
    }

    /// `[Bifurcating to <Station>]` (Rule 1.7.42): a second Piece, B, at a
    /// Station adjacent to the Player's current position; no more than two
    /// Pieces at any one time.
    pub(super) fn bifurcating(&mut self, a: &Action, target: &Target) -> Charge {
        let me = self.me;
        if self.bifurcated() {
            self.illegal(
                "1.7.42",
                "a Player may have no more than two Pieces at any one time: e is already Bifurcated",
            );
            return Charge::Free;
        }
        let Some(to) = self.station_of(target, a) else {
            return Charge::Free;
        };
        let Some(here) = self.here() else {
            self.illegal(
                "1.7.42",
                format!(
                    "{} must be adjacent to the Player's current position, and eir Piece is on no Station of the map",
                    target.station
                ),
            );
            return Charge::Free;
        };
        // The line B stands on: the written one, else the one it shares
        // with A's, else any on which the two are adjacent.
        let mine = self.s.players[me].at.and_then(|p| p.line);
        let along: Vec<LineCode> = LineCode::ALL
            .iter()
            .copied()
            .filter(|&l| self.map.neighbours(here, l).contains(&to))
            .collect();
        if along.is_empty() {
            self.illegal(
                "1.7.42",
                format!(
                    "{} is not adjacent to the Player's current position, {}",
                    target.station,
                    self.name(here)
                ),
            );
            return Charge::Free;
        }
        let line = match target.line {
            Some(l) if along.contains(&l) => Some(l),
            Some(l) => {
                self.illegal(
                    "1.7.42",
                    format!(
                        "{} is not adjacent to {} on the {l}",
                        target.station,
                        self.name(here)
                    ),
                );
                return Charge::Free;
            }
            None => mine
                .filter(|l| along.contains(l))
                .or(along.first().copied()),
        };
        let b = Position { station: to, line };
        self.s.players[me].piece_b = Some(b);
        let name = self.my_name();
        self.s.gambits.start_b(&name);
        self.other = OtherPiece {
            started_at: None,
            ..OtherPiece::default()
        };
        self.change(format!(
            "{} Bifurcates: Piece B at {} (Rule 1.7.42)",
            self.my_name(),
            b.text(self.map)
        ));
        Charge::Table
    }

    /// A Bifurcated Player at the beginning of eir Turn loses 2 Bronze
    /// Tokens or 1 Token of any other colour, of eir choice (`{upkeep
    /// <Colour>}`); if e cannot pay, Piece B is destroyed (Rule 1.7.42,
    /// RULINGS E106).
    pub(super) fn bifurcation_upkeep(&mut self) {
        let me = self.me;
        if !self.bifurcated() {
            return;
        }
        self.other.started_at = self.s.players[me].piece_b.map(|b| b.station);
        let t = self.s.players[me].tokens;
        let need = |c: Colour| if c == Colour::Bronze { 2 } else { 1 };
        let can: Vec<Colour> = Colour::ALL
            .iter()
            .copied()
            .filter(|&c| t.get(c) >= need(c))
            .collect();
        let chosen = self.directive(|d| match d {
            Directive::Upkeep(c) => Some(*c),
            _ => None,
        });
        let colour = match (chosen, can.as_slice()) {
            (_, []) => {
                self.s.players[me].piece_b = None;
                let name = self.my_name();
                self.s.gambits.drop_b(&name);
                self.change(format!(
                    "{} cannot pay the upkeep of Piece B (2 Bronze or 1 other Token): Piece B is destroyed (Rule 1.7.42)",
                    self.my_name()
                ));
                return;
            }
            (Some(c), _) if can.contains(&c) => c,
            (Some(c), _) => {
                self.illegal(
                    "1.7.42",
                    format!(
                        "{{upkeep {}}}: e has not {} {} Token(s) to lose",
                        c.name(),
                        need(c),
                        c.name()
                    ),
                );
                return;
            }
            (None, [only]) => *only,
            (None, _) if can.contains(&Colour::Bronze) => Colour::Bronze,
            (None, several) => {
                let options: Vec<String> = several
                    .iter()
                    .map(|c| format!("{{upkeep {}}}", c.name()))
                    .collect();
                self.illegal(
                    "1.7.42",
                    format!(
                        "the upkeep of Piece B (1 Token of any colour but Bronze, of eir choice, as eir Turn begins; e has not 2 Bronze) needs a choice: {}",
                        super::choice::either(&options)
                    ),
                );
                return;
            }
        };
        let n = need(colour);
        self.s.players[me].tokens.set(colour, t.get(colour) - n);
        self.change(format!(
            "{} loses {n} {} for Piece B's upkeep (Rule 1.7.42)",
            self.my_name(),
            colour.name()
        ));
    }

    /// What Bifurcation forbids, before an Action of the player whose Turn
    /// it is (Rule 1.7.42, RULINGS E110).
    fn bifurcation_forbids(&mut self, a: &Action) {
        if !self.bifurcated() {
            return;
        }
        match a {
            Action::CollectingParcel | Action::CatchingPigeon => self.illegal(
                "1.7.42",
                format!(
                    "a Bifurcated Player may not perform {} (Schizophrenia is too distracting)",
                    a.render()
                ),
            ),
            Action::DenyingGambit { player, .. } if player.eq_ignore_ascii_case(&self.my_name()) => {
                self.illegal(
                    "1.7.42",
                    "a Player may not attempt to Deny eir own Manoeuvre or Gambit (one Piece's by the other's)",
                )
            }
            _ => {}
        }
    }

    fn save(&self) -> Saved {
        Saved {
            s: self.s.clone(),
            violations: self.out.violations.clone(),
            rulings: self.out.rulings.clone(),
            changes: self.out.changes.clone(),
            declared: self.out.declared.clone(),
            clock: self.clock.clone(),
            mv: self.mv.clone(),
            opened: self.opened.clone(),
            tally: self.tally.clone(),
            shunts: self.shunts.clone(),
            other: self.other.clone(),
        }
    }

    fn restore(&mut self, saved: Saved) {
        self.s = saved.s;
        // The reading kept is reported, not the last one tried.
        self.out.violations = saved.violations;
        self.out.rulings = saved.rulings;
        self.out.changes = saved.changes;
        self.out.declared = saved.declared;
        self.clock = saved.clock;
        self.mv = saved.mv;
        self.opened = saved.opened;
        self.tally = saved.tally;
        self.shunts = saved.shunts;
        self.other = saved.other;
    }

    /// One Action, judged for either Piece (Rule 1.7.42: "legal if either
    /// Piece fufills that qualification", and it affects only that Piece):
    /// the Actioning player's Piece A, else B; a Bifurcated target's Piece
    /// A, else B. The first reading that breaks no rule stands; if none
    /// does, the plain one (both A) is reported. Then Pieces run into each
    /// other are destroyed.
    pub(super) fn piece_action(&mut self, a: &Action, when: When) {
        self.bifurcation_forbids(a);
        let target = a
            .target_player()
            .and_then(|t| self.s.player_index(t))
            .filter(|&v| v != self.me && self.s.players[v].bifurcated());
        if !self.bifurcated() && target.is_none() {
            self.action(a, when);
            return;
        }
        let before: Vec<_> = self.s.players.iter().map(|p| (p.at, p.piece_b)).collect();
        let saved = self.save();
        let mut readings = vec![(false, false), (true, false)];
        if target.is_some() {
            readings.extend([(false, true), (true, true)]);
        }
        if !self.bifurcated() {
            readings.retain(|r| !r.0);
        }
        let mut first: Option<Saved> = None;
        for (k, &(mine_b, theirs_b)) in readings.iter().enumerate() {
            if k > 0 {
                self.restore(saved.clone());
            }
            let swaps: Vec<usize> = [(mine_b, Some(self.me)), (theirs_b, target)]
                .into_iter()
                .filter_map(|(b, i)| if b { i } else { None })
                .collect();
            for &i in &swaps {
                self.swap_pieces(i);
            }
            self.action(a, when);
            for &i in &swaps {
                self.swap_pieces(i);
            }
            if self.out.violations.len() == saved.violations.len() {
                first = None;
                break;
            }
            if k == 0 {
                first = Some(self.save());
            }
        }
        if let Some(plain) = first {
            self.restore(plain);
        }
        self.collisions(&before, a);
    }

    /// A Piece moved onto its player's other Piece destroys it (Rule
    /// 1.7.42): the stationary one. One Shunted into the other destroys
    /// the other, and the Shunter gains the Double-Shunt's Silver Token
    /// (Rules 1.7.42, 1.10.2; RULINGS E105).
    fn collisions(&mut self, before: &[(Option<Position>, Option<Position>)], a: &Action) {
        for i in 0..self.s.players.len() {
            let p = &self.s.players[i];
            let (Some(pa), Some(pb)) = (p.at, p.piece_b) else {
                continue;
            };
            if pa.station != pb.station {
                continue;
            }
            let (was_a, _) = before.get(i).copied().unwrap_or((None, None));
            let a_moved = was_a != Some(pa);
            let name = p.name.clone();
            // The stationary Piece is destroyed; the one that came stays.
            if a_moved {
                self.s.players[i].piece_b = None;
                self.s.gambits.drop_b(&name);
            } else {
                self.s.players[i].at = self.s.players[i].piece_b.take();
                self.s.gambits.promote_b(&name);
            }
            let (came, gone) = if a_moved { ("A", "B") } else { ("B", "A") };
            self.change(format!(
                "{name}'s Piece {came} comes to {}, where Piece {gone} stood: Piece {gone} is destroyed (Rule 1.7.42)",
                self.name(pa.station)
            ));
            let shunt = matches!(
                a,
                Action::Shunting { .. }
                    | Action::DeadEndShunting { .. }
                    | Action::PowerShunting { .. }
                    | Action::StationaryShunting { .. }
                    | Action::DoubleShunting { .. }
            );
            if shunt && i != self.me {
                self.gain(&[(1, Colour::Silver)]);
                self.change(format!(
                    "{} gains 1 Silver: the Double-Shunt's bonus for Shunting one of {name}'s Pieces into the other (Rules 1.7.42, 1.10.2)",
                    self.my_name()
                ));
            }
        }
    }

    /// The two labelled Moves of a Bifurcated Player (Rule 1.7.42): A's,
    /// the Neutral Actions between, then B's; both at the LV the Moves
    /// begin with, which a Pass or Special Move of either then zeroes
    /// (RULINGS E102); each its own Token bonuses, Line Change, forced
    /// destination and restraints; a Piece moving to or through the other
    /// destroys it.
    pub(super) fn bifurcated_moves(&mut self, a: &Move, b: &Move) {
        if !self.bifurcated() {
            self.illegal(
                "1.7.42",
                "only a Bifurcated Player, who has a second Piece from [Bifurcating to <Station>], makes two Moves labelled A: and B:",
            );
            return;
        }
        for (m, label) in [(a, "A"), (b, "B")] {
            if matches!(m, Move::Timeout | Move::Farkle(_) | Move::Bifurcated(..)) {
                self.illegal(
                    "1.7.42",
                    format!(
                        "Piece {label}'s Move is {}: each Piece's Move is a Move to a Station or a Pass (a Timeout or Farkle is the whole Turn's, written alone; RULINGS E102)",
                        crate::gsd::render_move(m)
                    ),
                );
                return;
            }
        }
        let line_changes = self
            .play
            .actions()
            .filter(|x| matches!(x, Action::LineChange))
            .count();
        if line_changes > 2 {
            self.illegal(
                "1.3.4",
                "[Line Change] is played more than twice: a Bifurcated Player plays it once for each Move that changes line (Rule 1.7.42)",
            );
        }
        // The one Special Move a pre-Move Action permits serves one Piece,
        // the other's Move being a Standard Move (RULINGS E130): with two
        // Moves to Stations, A's if that reading breaks no rule, else B's.
        let special = self.mv.special;
        let both = !matches!(a, Move::Pass(_)) && !matches!(b, Move::Pass(_));
        if special.is_none() || !both {
            let for_a = special.is_some() && !matches!(a, Move::Pass(_));
            self.two_moves(
                a,
                b,
                line_changes,
                for_a.then_some(special).flatten(),
                special.filter(|_| !for_a),
            );
            return;
        }
        let saved = self.save();
        self.two_moves(a, b, line_changes, special, None);
        if self.out.violations.len() == saved.violations.len() {
            return;
        }
        let first = self.save();
        self.restore(saved.clone());
        self.two_moves(a, b, line_changes, None, special);
        if self.out.violations.len() != saved.violations.len() {
            self.restore(first);
        }
    }

    /// Piece A's Move, the Neutral Actions between, then Piece B's, each
    /// with the Special Move it is given (RULINGS E102, E130).
    fn two_moves(
        &mut self,
        a: &Move,
        b: &Move,
        line_changes: usize,
        special_a: Option<Special>,
        special_b: Option<Special>,
    ) {
        let me = self.me;
        let lv = self.s.players[me].lv;
        let last = self.s.last_move;
        // Piece A.
        self.mv.special = special_a;
        let changed_before = self.mv.line_changes;
        self.mv.written = Some(crate::gsd::render_move(a));
        self.one_piece_move(a);
        let lv_a = self.s.players[me].lv;
        let a_changed = self.mv.line_changes > changed_before;
        self.ran_into_other("A");
        for x in self.play.actions_between() {
            self.piece_action(x, When::After);
        }
        // Piece B, unless A's Move destroyed it.
        if !self.bifurcated() {
            if !matches!(b, Move::Pass(_)) {
                self.illegal(
                    "1.7.42",
                    "Piece A's Move destroyed Piece B, which then makes no Move: Piece B's Move is written Pass (RULINGS E103)",
                );
            }
            return;
        }
        self.s.players[me].lv = lv;
        self.s.last_move = last;
        self.mv.line_change_paid = line_changes > usize::from(a_changed);
        // A's Move may have made the Loop's Special Move: B's is its own.
        self.mv.special = special_b;
        self.swap_pieces(me);
        self.mv.written = Some(crate::gsd::render_move(b));
        self.one_piece_move(b);
        if self.ran_into_other("B") {
            // B destroyed A: B, in `at`, is now the player's only Piece.
            self.swap_facts();
        } else {
            self.swap_pieces(me);
        }
        self.mv.written = None;
        let lv_b = self.s.players[me].lv;
        self.s.players[me].lv = lv_a.min(lv_b);
    }

    /// Where a Bifurcated Player's two Moves went, as the next Turn's
    /// Venbacker Ladder bound (Rule 1.8.9, RULINGS E132): the Station of
    /// the lower Venbacker Number of the two Pieces' (the higher, if the
    /// game so rules); a Piece at a Ghost Station has none.
    pub(super) fn ladder_floor_of_two_moves(&self) -> LastMove {
        let p = &self.s.players[self.me];
        let ends = p.stations().map(|s| (self.map.venbacker(s), s));
        let end = if self.s.rulings.ladder_higher_of_two_moves {
            ends.max()
        } else {
            ends.min()
        };
        LastMove::Ended(end.map(|(_, s)| s))
    }

    /// One Piece's Move and what carried Possessions then forbid (one
    /// Luggage Rack for both Pieces, Rule 1.7.42).
    fn one_piece_move(&mut self, m: &Move) {
        self.movement(m);
        self.restraints_after_move(m);
    }

    /// The Piece in `at` moved to or through the Station of the other
    /// (`piece_b`), which is destroyed (Rule 1.7.42): whether it was.
    fn ran_into_other(&mut self, label: &str) -> bool {
        let me = self.me;
        let Some(other) = self.s.players[me].piece_b.map(|b| b.station) else {
            return false;
        };
        let to = self.here() == Some(other);
        if to || self.mv.through.contains(&other) {
            self.s.players[me].piece_b = None;
            let name = self.my_name();
            self.s.gambits.drop_b(&name);
            let gone = if label == "A" { "B" } else { "A" };
            self.change(format!(
                "Piece {label} moves {} {}, where Piece {gone} stood: Piece {gone} is destroyed (Rule 1.7.42)",
                if to { "to" } else { "through" },
                self.name(other)
            ));
            return true;
        }
        false
    }

    /// A Bifurcated Player's Move to a Station, unlabelled, does not say
    /// which Piece makes it (Rule 1.7.42, RULINGS E102).
    pub(super) fn unlabelled_move(&mut self, mv: &Move) {
        if self.bifurcated() && matches!(mv, Move::To { .. }) {
            self.illegal(
                "1.7.42",
                format!(
                    "{} is Bifurcated: Moves should be labelled, A:<Move> B:<Move> (a Piece that stays writes Pass), and {} names no Piece",
                    self.my_name(),
                    crate::gsd::render_move(mv)
                ),
            );
        }
    }

    /// Whether both of a Bifurcated player's Pieces rest at Mornington
    /// Crescent, as e needs to win (Rule 1.7.42); true with one Piece.
    pub(super) fn both_pieces_at_mc(&self) -> bool {
        self.s.players[self.me]
            .piece_b
            .is_none_or(|b| self.map.is(b.station, Landmark::MorningtonCrescent))
    }

    /// How many of player `i`'s Pieces are in `zone` (Rule 1.7.42: a
    /// Tithe affects a Bifurcated Player twice if both are).
    pub(super) fn pieces_in_zone(&self, i: usize, zone: u8) -> usize {
        self.s.players[i]
            .stations()
            .filter(|s| self.map.station(*s).zones.contains(&zone))
            .count()
    }
}
