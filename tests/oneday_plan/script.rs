//! The script around the plan: the scripted Timeouts (a placement, a
//! turn, a second step) and a plan's rehearsal on a mirror.

use mornbot::dice::Seed;
use mornbot::kinds::oneday::{Next, Phase, State};

use super::{Act, Mirror, Plan};

/// The scripted events beyond the plan, in play: after which turn of play
/// (counted from 0) the seat-2 player misses a turn, and from when a
/// player misses its second step (seat 1 or 2, or W when the card drawn
/// is not one W puts).
pub const MISS_TURN_AFTER: u32 = 4;
pub const MISS_SECOND_AFTER: u32 = 7;

/// What happens next in the script: a mail, or a Timeout of `who`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Mail(String, Act),
    Timeout(String),
}

/// The script's state: which scripted Timeouts have happened.
#[derive(Default)]
pub struct Script {
    pub missed_placement: bool,
    pub missed_turn: bool,
    pub missed_second: bool,
}

impl Script {
    /// The next step from `s`: in set-up W, then seat 1, then seat 2 place
    /// in turn (interleaved), seat 2 missing its last placement; in play
    /// the plan, with the scripted Timeouts.
    pub fn next(&mut self, plan: &Plan, s: &State) -> Step {
        let names = s.players();
        match s.phase() {
            Phase::Setup => {
                // the awaited player with the most cards left, seat order
                let who = names
                    .iter()
                    .max_by_key(|n| (s.placements_left(n), std::cmp::Reverse(s.seat(n))))
                    .unwrap()
                    .clone();
                if who == names[2] && s.placements_left(&who) == 1 {
                    let others_done = names[..2].iter().all(|n| s.placements_left(n) == 0);
                    if others_done {
                        self.missed_placement = true;
                        return Step::Timeout(who);
                    }
                }
                let act = plan.act(s, &who);
                Step::Mail(who, act)
            }
            Phase::Play { mover, drawn } => {
                let who = names[*mover].clone();
                if *mover == 2 && drawn.is_none() && !self.missed_turn && s.turns >= MISS_TURN_AFTER
                {
                    self.missed_turn = true;
                    return Step::Timeout(who);
                }
                // By seat 1 or 2, or by W when the card drawn is not one
                // W puts (some deals keep W's need on every pile a
                // Timeout would bury while the others draw).
                let by = *mover != 0 || drawn.is_some_and(|c| plan.fits(s, c).is_none());
                if by
                    && drawn.is_some()
                    && self.missed_turn
                    && !self.missed_second
                    && s.turns >= MISS_SECOND_AFTER
                    && !plan.timeout_buries(s)
                {
                    self.missed_second = true;
                    return Step::Timeout(who);
                }
                let act = plan.act(s, &who);
                Step::Mail(who, act)
            }
            Phase::Over { .. } => panic!("over"),
        }
    }
}

/// What a rehearsal of a plan came to: mails sent, Timeouts, turns of
/// play, reshuffles.
pub type Rehearsal = (usize, usize, u32, u32);

/// Plays `plan` from `seed` to its end on a mirror: what it came to, or
/// why it did not go as the stack test needs (W wins, after a reshuffle,
/// with each scripted Timeout).
pub fn rehearse(names: &[String], seed: &Seed, plan: &Plan) -> Result<Rehearsal, String> {
    let mut m = Mirror::start(names, seed.clone());
    let mut script = Script::default();
    let (mut mails, mut timeouts) = (0, 0);
    while !matches!(m.s().phase(), Phase::Over { .. }) {
        if mails >= 400 {
            return Err(format!("no end after {mails} mails"));
        }
        let s = m.s().clone();
        match script.next(plan, &s) {
            Step::Mail(who, act) => {
                m.send(&who, &act.body());
                mails += 1;
            }
            Step::Timeout(who) => {
                m.timeout(&who);
                timeouts += 1;
            }
        }
    }
    let s = m.s();
    if s.next()
        != (Next::Over {
            winners: vec![plan.w.clone()],
        })
    {
        return Err(format!("{:?} after {} turns", s.next(), s.turns));
    }
    if s.reshuffles() == 0 {
        return Err(format!(
            "W won without a reshuffle, after {} turns",
            s.turns
        ));
    }
    if !(script.missed_placement && script.missed_turn && script.missed_second) {
        return Err(format!(
            "missed: a placement {}, a turn {}, a second step {}",
            script.missed_placement, script.missed_turn, script.missed_second
        ));
    }
    assert_eq!(m.fold(&m.log), m.p, "the log folds to the game");
    Ok((mails, timeouts, s.turns, s.reshuffles()))
}
