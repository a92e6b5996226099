//! The Speaker's side of a buzz (Rules 1.16.1, 1.16.4): what the clock
//! owes a Questionable Turn (a lapse, a Referee to draw or redraw), the
//! Referee's draw, and settling the turn: Illegal rolls the log back (a
//! replay), then the held turns are judged in order.

use chrono::{DateTime, Utc};

use super::notice::{self, Thread};
use super::{Event, Judged, Letter, Live, Out, Referee};
use crate::mail::wrap::verbatim;
use crate::speaker::buzz::{self as machine, Questionable, Settled, Step};
use crate::store::Commit;

impl Referee {
    /// Draws a Referee (Rule 1.16.4) among the Active players other than
    /// the two, excluding those already tried; none: the game is on hold.
    pub(super) fn draw(
        &self,
        live: &mut Live,
        at: DateTime<Utc>,
        commit: &mut Commit,
        th: &Thread,
    ) {
        let Some(q) = live.questionable.clone() else {
            return;
        };
        let tag = live.game.tag.clone();
        let active: Vec<String> = live
            .game
            .state
            .players
            .iter()
            .filter(|p| p.active)
            .map(|p| p.name.clone())
            .collect();
        let pool = crate::speaker::eligible_referees(&active, &q.player, &q.buzzer, &q.tried);
        let drawn = match &live.dice {
            // The game's dice (RULINGS S14).
            Some(dice) => self
                .referee_by_dice(dice, (&tag, q.turn, q.tried.len()), &pool, commit)
                .map(|(name, face, how)| (name, 0, Some(face), how)),
            // A game without dice: the old reproducible draw (RULINGS S8).
            None => {
                let seed =
                    crate::speaker::seed_from(&format!("{tag}-{}", q.turn), q.tried.len() as u32);
                crate::speaker::draw_referee(&pool, seed)
                    .map(|name| (name, seed, None, format!("seed {seed}")))
            }
        };
        match drawn {
            Some((name, seed, die, how)) => {
                let _ = self.step(
                    live,
                    Step::Referee {
                        name: name.clone(),
                        seed,
                        die,
                    },
                    at,
                    commit,
                );
                let q = live.questionable.clone().expect("judging");
                let until = self.stage_deadline(&q);
                self.announce(commit, th, format!("Turn {}: {name} is Referee", q.turn),
                    format!("{name} is drawn at random from {} as Referee of turn {} of {tag} (Rule 1.16.4), and has until {until} to post a Judgment. Drawn {how}", pool.join(", "), q.turn), at);
                if let Some(addr) = live.address_of(&name) {
                    self.mail_to(commit, vec![addr.to_string()], &th.sub("#referee"),
                        format!("You are Referee of turn {}", q.turn),
                        format!("You are the Referee of {}'s turn {} of {tag}, buzzed by {} (Rule 1.16.4).\n\n{}\nReply by {until} with \"Judgment: Legal\" or \"Judgment: Illegal\" (your decision is binding), or \"Decline\".", q.player, q.turn, q.buzzer, notice::the_case(live, &q)), at);
                }
            }
            None => {
                let _ = self.step(live, Step::OnHold, at, commit);
                self.announce(commit, th, format!("Turn {}: on hold", q.turn),
                    format!("No Referee is available for turn {} of {tag} (Rule 1.16.4): the game is on hold until the Speaker appoints one.", q.turn), at);
            }
        }
    }

    /// Ends a Questionable Turn: Illegal rolls the log back to before it
    /// (a replay); then the held turns are judged in order (Legal) or
    /// discarded with it (Illegal).
    pub(super) fn settle(
        &self,
        live: &mut Live,
        q: &Questionable,
        settled: Settled,
        at: DateTime<Utc>,
        commit: &mut Commit,
        th: &Thread,
    ) {
        let (turn, player, logged) = (q.turn, q.player.clone(), q.logged);
        live.resumed_at = Some(at);
        let tag = live.game.tag.clone();
        let held = std::mem::take(&mut live.held);
        match settled {
            Settled::Illegal => {
                if live.pending.as_ref().is_some_and(|p| p.turn == turn) {
                    live.pending = None;
                    Event::Judged(Judged { turn, legal: false }).record(&tag, commit);
                }
                let mut text = format!("{player}'s turn {turn} of {tag} is Illegal (Rule 1.16.1)");
                if logged {
                    let keep = (turn - 1) as usize;
                    let removed = live.turns.len().saturating_sub(keep);
                    live.turns.truncate(keep);
                    live.game.truncate(self.map, keep);
                    commit.truncate.push((tag.clone(), keep as u64));
                    text.push_str(&format!(
                        ": it and the {} turn(s) after it never happened.",
                        removed.saturating_sub(1)
                    ));
                } else {
                    text.push('.');
                }
                for (_, l) in &held {
                    self.mail_to(commit, vec![l.from.clone()], &Thread::answering(&tag, format!("{}#discarded", l.message_id), l), "Your held turn is void".to_string(),
                        format!("Your Mistimed turn came after turn {turn} of {tag}, which is Illegal: it never happened (Rule 1.16.1). Please post your turn again if it is yours to play."), at);
                }
                text.push_str(&format!(
                    " {} The GSD:\n\n{}",
                    notice::whose_turn(live),
                    verbatim(&crate::kinds::vol1::document(&live.game, self.map))
                ));
                self.announce(commit, th, format!("Turn {turn} is Illegal"), text, at);
            }
            Settled::Legal => {
                let pending = live.pending.take().filter(|p| p.turn == turn);
                let text = if logged {
                    format!("{player}'s turn {turn} of {tag} is Legal: it stands, and play continues (Rule 1.16.1). {}", next_up(live, &held))
                } else if pending
                    .as_ref()
                    .is_some_and(|p| self.apply_judged(live, p, commit))
                {
                    // RULINGS S11: the Judgment's word stands; the engine
                    // plays the refused turn as far as it models it.
                    format!("{player}'s turn {turn} of {tag} is Legal by Judgment and stands (Rule 1.16.1), though mornbot's engine refused it: mornbot applied it as far as its engine models the rules. {} The GSD:\n\n{}", next_up(live, &held), verbatim(&crate::kinds::vol1::document(&live.game, self.map)))
                } else {
                    format!("{player}'s turn {turn} of {tag} is Legal by Judgment, but it can no longer be applied (the log has moved on): the Speaker may post the GSD with it. {}", notice::whose_turn(live))
                };
                self.announce(commit, th, format!("Turn {turn} is Legal"), text, at);
                for (hat, l) in held {
                    // Dated now, after the notice above: a verdict dated
                    // when its turn arrived would be read before it.
                    let mut o = Out::new(&self.me, &l, at, format!("{}#held", l.message_id));
                    let _ = self.turn(live, &l, &l.request, hat, &mut o, commit);
                    self.queue_out(commit, &mut o);
                }
            }
        }
    }

    /// What the Speaker's clock owes the workflow of `live` at `now`.
    pub(super) fn buzz_due(
        &self,
        live: &mut Live,
        now: DateTime<Utc>,
        commit: &mut Commit,
    ) -> Option<String> {
        let q = live.questionable.clone()?;
        let tag = live.game.tag.clone();
        let th = Thread::clock(
            &tag,
            format!("speaker-{tag}-{}-{}", q.turn, now.timestamp_millis()),
        );
        match machine::due(&q, now)? {
            machine::Due::Lapse => {
                let settled = self.step(live, Step::Lapsed, now, commit).ok()??;
                self.settle(live, &q, settled, now, commit, &th);
                Some(format!("turn {}: 36 hours lapsed, {settled:?}", q.turn))
            }
            machine::Due::Draw => {
                self.draw(live, now, commit, &th);
                Some(format!("turn {}: Referee drawn", q.turn))
            }
            machine::Due::RefereeSilent => {
                let _ = self.step(live, Step::Declined, now, commit);
                self.draw(live, now, commit, &th);
                Some(format!("turn {}: Referee silent, redrawn", q.turn))
            }
        }
    }
}

/// Who plays next after a Questionable Turn settled Legal: with turns held,
/// the first of them plays now, so naming the player to move would be
/// untrue by the next notice; their verdicts say it.
fn next_up(live: &Live, held: &[(DateTime<Utc>, Letter)]) -> String {
    if held.is_empty() {
        notice::whose_turn(live)
    } else {
        format!(
            "The {} turn(s) held meanwhile are judged now, in the order they arrived; \
             each verdict follows and says who plays next.",
            held.len()
        )
    }
}
