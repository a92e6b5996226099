//! The Turn (Rules 1.3.x): whose it is, the phases in order, one Action of
//! a kind, and what happens as it ends (Rules 1.1.1, 1.3.0, 1.13.1).

use super::*;

impl Turn<'_> {
    /// Judges the whole Turn: its player, its Actions in order around the
    /// Move, and its end.
    pub(super) fn run(&mut self) {
        if !self.whose_turn() {
            return;
        }
        self.mv.started_at = self.here();
        self.electrified_off();
        self.bifurcation_upkeep();
        self.uncover_lodes();
        self.kafka_sinkhole();
        self.prison_expiry();
        self.poid_turn_start();
        self.record_holiday();
        self.cascade_turn_start();
        let mv = &self.play.mv;
        // Timeout and Farkle take no Actions (Rules 1.3.5, 1.5.12).
        if self.play.actions().next().is_some() {
            match mv {
                Move::Timeout => self.illegal("1.3.5", "a Timeout is played with no Actions"),
                Move::Farkle(_) => self.illegal("1.5.12", "a Farkle is played with no Actions"),
                _ => {}
            }
        }
        self.check_kinds();
        // A state may show an LV its Possessions do not allow (Rule 1.4.39:
        // "if eir LV is ever above four, it becomes four").
        self.watch_lv();
        self.restraints_on_move(mv);
        self.late_arrival();
        self.blasted_pass();
        self.check_phases();
        for a in self.play.actions_before() {
            self.piece_action(a, When::Before);
        }
        let t = self.s.players[self.me].tokens;
        self.mv.metallic = [Colour::Gold, Colour::Silver, Colour::Bronze]
            .iter()
            .any(|c| t.get(*c) > 0);
        self.unlabelled_move(mv);
        self.movement(mv);
        self.electrified_off();
        self.cascade_count(mv);
        // A Bifurcated Move's restraints are judged Piece by Piece.
        if !matches!(mv, Move::Bifurcated(..)) {
            self.restraints_after_move(mv);
        }
        self.watch_lv();
        for a in self.play.actions_after() {
            self.piece_action(a, When::After);
        }
        self.flourish();
        self.end_of_turn(mv);
        self.check_sizes();
        self.electrified_off();
    }

    /// "Any Turn which sees a Piece ending at that Station is Illegal"
    /// (Rule 1.11.4): a Shunted Piece too, whatever the Shunt may ignore on
    /// its way.
    fn shunted_onto_pegs(&mut self) {
        let mut shunted = self.shunts.players.clone();
        shunted.sort_unstable();
        shunted.dedup();
        for v in shunted {
            if let Some(at) = self.s.players[v].station() {
                if self.pegged(at) {
                    let msg = format!(
                        "{} is Pegged: {}'s Piece may not end the Turn there",
                        self.name(at),
                        self.s.players[v].name
                    );
                    self.illegal("1.11.4", msg);
                }
            }
        }
    }

    /// The player must be the one whose Turn it is (Rule 1.3.2); an
    /// Inactive player's Turn passes to the next Active one, and the Drone
    /// is Inactive unless an Active player carries the Drone Stick (Rule
    /// 1.15.1).
    fn whose_turn(&mut self) -> bool {
        let Some(me) = self.s.player_index(&self.play.player) else {
            self.illegal(
                "1.3.2",
                format!("{} is not a player of this game", self.play.player),
            );
            return false;
        };
        self.s.refresh_drone();
        if !self.s.players[self.s.to_play].active {
            let n = self.s.players.len();
            if let Some(next) = (0..n)
                .map(|k| (self.s.to_play + k) % n)
                .find(|&j| self.s.players[j].active)
            {
                self.s.to_play = next;
            }
        }
        if me != self.s.to_play {
            let due = self.s.players[self.s.to_play].name.clone();
            self.illegal(
                "1.3.2",
                format!("it is {due}'s Turn, not {}'s", self.s.players[me].name),
            );
            return false;
        }
        self.me = me;
        true
    }

    /// A Piece starting its Turn at a Kafka Sinkhole has its non-Black
    /// Plastic Tokens turned Black (Rule 1.9.6).
    fn kafka_sinkhole(&mut self) {
        let Some(st) = self.mv.started_at else {
            return;
        };
        let sink = self
            .s
            .stack(st)
            .is_some_and(|t| t.len() >= 4 && t.iter().all(|c| *c == Colour::Black));
        if !sink {
            return;
        }
        let t = &mut self.s.players[self.me].tokens;
        let moved: u32 = [Colour::Blue, Colour::Green, Colour::Red]
            .iter()
            .map(|c| t.get(*c))
            .sum();
        for c in [Colour::Blue, Colour::Green, Colour::Red] {
            t.set(c, 0);
        }
        t.set(Colour::Black, t.get(Colour::Black) + moved);
        if moved > 0 {
            self.change(format!(
                "{moved} Plastic Token(s) turn Black in the Kafka Sinkhole (Rule 1.9.6)"
            ));
        }
    }

    /// Pre-Move Actions come before the Move and post-Move ones after it
    /// (Rules 1.3.4, 1.7.1): the rule cited is the one whose words fix the
    /// Action's phase, its own where it says so.
    fn check_phases(&mut self) {
        // A Scarf's wearer releases Rats as a Neutral Action (Rule 1.4.35):
        // worn as the Turn begins or put on by a pre-Move [Wearing Scarf].
        let scarf = self.s.players[self.me].wears(crate::gsd::Good::Scarf)
            || self.play.actions_before().any(|a| {
                matches!(a, Action::Wearing { possession: Item::Good { good, .. } } if *good == crate::gsd::Good::Scarf)
            });
        // The index says pre-Move, Rule 1.20.6 post-Move: the game chooses,
        // by default either (RULINGS.md E41).
        let place = |a: &Action| -> (Phase, &'static str) {
            match a {
                Action::ReleasingRat if scarf => (Phase::Neutral, "1.4.35"),
                Action::LineSoaped { .. } => match self.s.rulings.soaped_phase {
                    SoapedPhase::Either => (Phase::Neutral, "1.7.1"),
                    SoapedPhase::Pre => (Phase::Pre, "1.7.1"),
                    SoapedPhase::Post => (Phase::Post, "1.20.6"),
                },
                _ => (a.spec().phase, a.spec().phase_rule),
            }
        };
        let mut wrong = Vec::new();
        for a in self.play.actions_before() {
            if let (Phase::Post, rule) = place(a) {
                wrong.push((
                    rule,
                    format!(
                        "{} is a post-Move Action: it comes after the Move",
                        a.render()
                    ),
                ));
            }
        }
        for a in self.play.actions_after() {
            if let (Phase::Pre, rule) = place(a) {
                wrong.push((
                    rule,
                    format!(
                        "{} is a pre-Move Action: it comes before the Move",
                        a.render()
                    ),
                ));
            }
        }
        // Neutral Actions may be played between the two Moves (Rule 1.7.42).
        for a in self.play.actions_between() {
            if place(a).0 != Phase::Neutral {
                wrong.push((
                    "1.7.42",
                    format!(
                        "{} is not a Neutral Action: only Neutral Actions may be played between the two Moves",
                        a.render()
                    ),
                ));
            }
        }
        for (rule, w) in wrong {
            self.illegal(rule, w);
        }
    }

    /// One Action of a kind per Turn (Rules 1.2.0, 1.3.4), unless a rule
    /// allows it again: Blocks (1.9.1), exchanges and Bonanza (1.7.21,
    /// 1.4.10), Token claims (1.14.4), Discards (1.4.22), Waiting (1.7.52),
    /// and multiple Shunts (1.10.2, whose own checks apply).
    fn check_kinds(&mut self) {
        let mut seen: Vec<usize> = Vec::new();
        let mut twice = Vec::new();
        for a in self.play.actions() {
            let i = a.index();
            let many = matches!(
                a,
                Action::Blocking { .. }
                    | Action::DoubleShunting { .. }
                    | Action::ClaimingToken { .. }
                    | Action::Waiting
                    | Action::Bonanza
                    | Action::Recycling
                    | Action::ReleasingRat
                    | Action::Discarding { .. }
            ) || is_exchange(a)
                // Once for each Piece's Move (Rule 1.7.42), checked there.
                || (matches!(a, Action::LineChange)
                    && matches!(self.play.mv, Move::Bifurcated(..)));
            if seen.contains(&i) && !many && !twice.contains(&i) {
                twice.push(i);
            }
            seen.push(i);
        }
        for i in twice {
            let form = crate::gsd::SPECS[i].form;
            self.illegal(
                "1.3.4",
                format!("{form} is played twice: one Action of a kind per Turn"),
            );
        }
    }

    /// A player whose latest Visit was answered by another player's Late
    /// Arrival from the same Place must Pass, with no Actions (Rule 1.7.9);
    /// any Move but a Timeout ends what eir last Move visited.
    fn late_arrival(&mut self) {
        let mv = &self.play.mv;
        if matches!(mv, Move::Timeout) {
            return;
        }
        let name = self.my_name();
        let late = self
            .s
            .visits
            .iter()
            .find(|v| v.late && v.player.eq_ignore_ascii_case(&name))
            .map(|v| v.place.clone());
        if let Some(place) = late {
            if !matches!(mv, Move::Pass(_)) || self.play.actions().next().is_some() {
                self.illegal(
                    "1.7.9",
                    format!(
                        "{name}'s Visit to {place} was followed by a Late Arrival from {place}: e must play Pass, with no Actions, this Turn"
                    ),
                );
            }
        }
        self.s
            .visits
            .retain(|v| !v.player.eq_ignore_ascii_case(&name));
    }

    /// The checks and effects of a Turn's end.
    fn end_of_turn(&mut self, mv: &Move) {
        let me = self.me;
        let me_name = self.my_name();
        // A player without a Home must declare one in the Turn e enters the
        // Map (Rule 1.12.2, RULINGS.md E1).
        if self.mv.entered && self.s.players[me].home.is_none() && !is_drone(&me_name) {
            self.illegal("1.12.2", "a player entering the Map must declare a Home Station ([Home: <Station>]) in the same Turn");
        }
        let limit = 60 + self.clock.extra_limit;
        if self.clock.minutes > limit && !matches!(mv, Move::Timeout) {
            self.illegal(
                "1.13.1",
                format!(
                    "the Turn takes {} minutes of Game Time; a Turn lasts at most {limit}",
                    self.clock.minutes
                ),
            );
        }
        if let Some(at) = self.here() {
            if self.pegged(at) && !matches!(mv, Move::Pass(_) | Move::Timeout | Move::Farkle(_)) {
                self.illegal(
                    "1.11.4",
                    format!("{} is Pegged: no Turn may end there", self.name(at)),
                );
            }
        }
        self.shunted_onto_pegs();
        self.shunted_lose_pigeons();
        self.enter_loop();
        self.restraints_at_end();
        self.poid_end_of_turn();
        self.poid_die_roll(mv);
        self.poid_abandons();
        self.radio_clamps_follow();
        self.knerdle_round(&me_name);
        // Cowering lasts until the player's next Turn (Rule 1.7.56).
        self.s
            .cowering
            .retain(|c| !c.eq_ignore_ascii_case(&me_name));
        if self.play.actions().any(|a| matches!(a, Action::Cowering)) {
            self.s.cowering.push(me_name.clone());
        }
        // Where this Turn began, for a Toff Clamp given before eir next
        // Turn (Rule 1.4.44).
        self.s
            .began
            .retain(|b| !b.player.eq_ignore_ascii_case(&me_name));
        if let Some(at) = self.mv.started_at {
            self.s.began.push(crate::engine::state::Began {
                player: me_name.clone(),
                at,
            });
        }
        self.tithe_round(&me_name);
        self.expire_rounds(&me_name);
        self.place_spent();
        if self.s.has(&Disruption::Sgronk) && !self.s.stacks.iter().any(|(_, t)| t.len() >= 2) {
            self.s.disruptions.retain(|d| *d != Disruption::Sgronk);
            self.change("no Stack holds two Tokens: the game leaves Sgronk (Rule 1.8.10)");
        }
        self.gambits_end_of_turn(mv);
        self.pass_time();
        self.end_charge_spiral();
        self.check_win(&me_name);
        if is_drone(&me_name) {
            self.s.stick_fresh = false;
        }
        // A claim of the Drone Stick this Turn may wake or idle the Drone.
        self.s.refresh_drone();
        self.s.turn += 1;
        self.s.to_play = self.s.next_active(me);
    }

    /// The player's Blocks and one-Round Line States from eir previous
    /// Turn end now (one Round, Rules 1.3.0, 1.9.1, 1.20.5, 1.20.6); an
    /// entry whose State was since replaced is dropped.
    fn expire_rounds(&mut self, me_name: &str) {
        expire_round(&mut self.s.blocks, self.tally.blocks, |b| b.by == me_name);
        let ended = expire_round(&mut self.s.timed, self.tally.timed, |t| t.by == me_name);
        for crate::engine::Timed { disruption: d, .. } in ended {
            if self.s.has(&d) {
                self.s.disruptions.retain(|x| *x != d);
                if let Disruption::Line { line, .. } = d {
                    self.change(format!(
                        "the {line} is back to Normal: {me_name}'s Round has passed (Rules 1.20.5, 1.20.6)"
                    ));
                }
            }
        }
        let disruptions = self.s.disruptions.clone();
        self.s.timed.retain(|t| disruptions.contains(&t.disruption));
    }

    /// The first Piece to rest at Mornington Crescent wins (Rule 1.1.1);
    /// the Drone never does (Rule 1.15.1).
    fn check_win(&mut self, me_name: &str) {
        let Some(at) = self.here() else {
            return;
        };
        // A Bifurcated Player wins only with both Pieces there (Rule 1.7.42).
        if self.map.is(at, Landmark::MorningtonCrescent)
            && self.both_pieces_at_mc()
            && !is_drone(me_name)
            && self.s.winner.is_none()
        {
            self.s.winner = Some(me_name.to_string());
            self.change(format!(
                "{me_name} rests at Mornington Crescent and wins (Rule 1.1.1)"
            ));
        }
    }
}

/// Removes and returns the entries of `v` for which `mine` holds, except
/// the last `placed` (set this Turn): what a player set for one Round ends
/// with eir next Turn.
fn expire_round<T>(v: &mut Vec<T>, placed: u32, mine: impl Fn(&T) -> bool) -> Vec<T> {
    let keep_from = v.len().saturating_sub(placed as usize);
    let mut ended = Vec::new();
    let mut kept = Vec::with_capacity(v.len());
    for (i, x) in v.drain(..).enumerate() {
        if i < keep_from && mine(&x) {
            ended.push(x);
        } else {
            kept.push(x);
        }
    }
    *v = kept;
    ended
}

/// The Bureau de Change's Actions (Rule 1.7.21).
pub(super) fn is_exchange(a: &Action) -> bool {
    matches!(
        a,
        Action::GoldToSilver
            | Action::GoldToBronze
            | Action::GoldToBlue
            | Action::SilverToBronze
            | Action::SilverToGold
            | Action::BronzeToGold
            | Action::BlueToGold
            | Action::BronzeToSilver
    )
}
