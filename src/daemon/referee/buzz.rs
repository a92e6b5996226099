//! The buzz workflow in the daemon (Rules 1.16.1 - 1.16.4): steps from
//! players' mails, recorded as events, folded by [`crate::speaker::buzz`].
//! What the Speaker's clock owes a buzz, the Referee's draw and settling
//! the turn are in `settle.rs`.

use chrono::{DateTime, Utc};

use super::notice::{self, Thread};
use super::{fmt_time, Disposition, Event, Letter, Live, Out, Referee, Workflow};
use crate::mail::outbound;
use crate::mail::wrap::{cut_sign_off, quote, verbatim, wrap};
use crate::speaker::buzz::{self as machine, Questionable, Settled, Stage, Step, BOT};
use crate::store::Commit;

/// The Questionable Turn, the held turns, and when play last resumed, of
/// a game, from its events.
#[allow(clippy::type_complexity)]
pub(super) fn load(
    events: &[(DateTime<Utc>, Event)],
) -> (
    Option<Questionable>,
    Vec<(DateTime<Utc>, Letter)>,
    Option<DateTime<Utc>>,
) {
    let mut q = None;
    let mut held = Vec::new();
    let mut resumed = None;
    for (at, e) in events {
        match e {
            Event::BuzzStep(step) => {
                if let Ok((next, settled)) = machine::apply(q.clone(), step, *at) {
                    q = next;
                    if settled.is_some() {
                        // Settling judged (or discarded) the held turns.
                        held.clear();
                        resumed = Some(*at);
                    }
                }
            }
            Event::Held(letter) => held.push((*at, (**letter).clone())),
            _ => {}
        }
    }
    (q, held, resumed)
}

impl Referee {
    /// Records a step: the event, the new state; returns the settlement.
    pub(super) fn step(
        &self,
        live: &mut Live,
        step: Step,
        at: DateTime<Utc>,
        commit: &mut Commit,
    ) -> Result<Option<Settled>, String> {
        let (next, settled) = machine::apply(live.questionable.clone(), &step, at)?;
        live.questionable = next;
        live.late.step_at = Some(at);
        Event::BuzzStep(step).record(&live.game.tag, commit);
        Ok(settled)
    }

    /// A lounge post the bot makes on its own account within a commit,
    /// on the game's thread.
    pub(super) fn announce(
        &self,
        commit: &mut Commit,
        th: &Thread,
        headline: String,
        body: String,
        at: DateTime<Utc>,
    ) {
        self.mail_to(commit, vec![self.me.lounge.clone()], th, headline, body, at);
    }

    pub(super) fn mail_to(
        &self,
        commit: &mut Commit,
        to: Vec<String>,
        th: &Thread,
        headline: String,
        body: String,
        at: DateTime<Utc>,
    ) {
        let r = self.notice_mail(th, to, &headline, &wrap(&body), at);
        self.queue(commit, &r);
    }

    /// The bot's own Buzz of a turn its engine finds Illegal (Rule 1.16.2):
    /// the turn is not in the log, and is Questionable until settled.
    pub(super) fn bot_buzz(
        &self,
        live: &mut Live,
        (turn, player, play): (u64, &str, &str),
        reason: &str,
        at: DateTime<Utc>,
        commit: &mut Commit,
    ) {
        let _ = self.step(
            live,
            Step::Buzz {
                turn,
                player: player.to_string(),
                buzzer: BOT.into(),
                reason: reason.to_string(),
                logged: false,
                play: play.to_string(),
            },
            at,
            commit,
        );
    }

    /// A turn posted while one is Questionable. Returns `Some(summary)`
    /// when the turn was held (Mistimed, Rule 1.16.1), `None` when it may
    /// be judged now: a player whose own turn the bot buzzed posting a new
    /// turn concedes the Buzz and plays anew (RULINGS S10).
    pub(super) fn mistimed(
        &self,
        live: &mut Live,
        letter: &Letter,
        poster: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Option<String> {
        let q = live.questionable.clone()?;
        if q.buzzer == BOT && !q.logged && q.player.eq_ignore_ascii_case(poster) {
            let _ = self.step(live, Step::Concede, at, commit);
            return None;
        }
        if !follows(live, &q, poster) {
            // Not the next player's turn whatever the Judgment: out of
            // turn, refused privately when judged (Rule 1.3.2); never held.
            return None;
        }
        Event::Held(Box::new(letter.clone())).record(&live.game.tag, commit);
        live.held.push((at, letter.clone()));
        out.sender(self.notice(format!(
            "Turn {} of {} ({}'s) is Questionable: {}. Play is held (Rule 1.16.1), so \
                         your turn is Mistimed: mornbot keeps it and judges it, in order, once \
                         turn {} is settled.",
            q.turn,
            live.game.tag,
            q.player,
            machine::describe(&q),
            q.turn
        )));
        Some("mistimed: held".into())
    }

    /// A player's step in the workflow, by mail.
    pub(super) fn workflow(
        &self,
        live: &mut Live,
        letter: &Letter,
        w: &Workflow,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let tag = live.game.tag.clone();
        // Authorise: only a player of the game takes part.
        let Some(me) = live.player_of(&letter.from).map(str::to_string) else {
            out.refuse(format!(
                "{} is not the registered address of any player of {tag}.",
                letter.from
            ));
            return Disposition::Unchanged("unregistered sender".into());
        };
        if *w == Workflow::NoBuzz {
            return self.no_buzz(live, letter, &me, at, out, commit);
        }
        // Extract: the step this message makes, if it may make one now.
        let q = live.questionable.clone();
        let step = match self.step_of(live, letter, w, q.as_ref(), &me, out) {
            Ok(step) => step,
            Err(d) => return d,
        };
        // Judge: record the step; it may settle the Questionable Turn.
        let summary = format!("{step:?}");
        let settled = match self.step(live, step.clone(), at, commit) {
            Ok(s) => s,
            Err(why) => {
                out.refuse(why);
                return Disposition::Unchanged("workflow step refused".into());
            }
        };
        let th = Thread::answering(&tag, format!("{}#step", letter.message_id), letter);
        if let Some(s) = settled {
            let before = q.as_ref().expect("only a Questionable Turn settles");
            self.settle(live, before, s, at, commit, &th);
            return Disposition::Changed(summary);
        }
        // Reply: the step's notice on the game's thread.
        self.announce_step(live, &step, &me, at, commit, &th);
        Disposition::Changed(summary)
    }

    /// A player acknowledges the winning turn instead of buzzing it (Rule
    /// 1.1.1); the game ends when every other player has.
    fn no_buzz(
        &self,
        live: &mut Live,
        letter: &Letter,
        me: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let tag = live.game.tag.clone();
        let winner = live.game.state.winner.clone();
        match winner {
            Some(wn)
                if !live.ended && live.questionable.is_none() && !wn.eq_ignore_ascii_case(me) =>
            {
                if !live.acks.iter().any(|a| a.eq_ignore_ascii_case(me)) {
                    live.acks.push(me.to_string());
                    Event::NoBuzz(live.turns.len(), me.to_string()).record(&tag, commit);
                }
                if self.win_acknowledged(live) {
                    let th = Thread::answering(&tag, format!("{}#end", letter.message_id), letter);
                    self.end_game(
                        live,
                        at,
                        commit,
                        &th,
                        "every other player has acknowledged it",
                    );
                    Disposition::Changed("no buzz: game over".into())
                } else {
                    Disposition::Changed("no buzz acknowledged".into())
                }
            }
            _ => {
                out.refuse(format!(
                    "There is no winning turn of {tag} awaiting acknowledgement."
                ));
                Disposition::Unchanged("no buzz refused".into())
            }
        }
    }

    /// The workflow step a message makes, given the Questionable Turn (if
    /// any), or the refusal when it does not apply now.
    fn step_of(
        &self,
        live: &Live,
        letter: &Letter,
        w: &Workflow,
        q: Option<&Questionable>,
        me: &str,
        out: &mut Out,
    ) -> Result<Step, Disposition> {
        let tag = &live.game.tag;
        let step = match (w, q) {
            (
                Workflow::Buzz {
                    player,
                    turn,
                    reason,
                },
                None,
            ) => {
                let n = live.turns.len() as u64;
                let target = match (turn, player) {
                    (Some(t), _) => Some(*t),
                    (None, Some(p)) => live
                        .turns
                        .iter()
                        .rev()
                        .find(|t| t.player.eq_ignore_ascii_case(p))
                        .map(|t| t.n),
                    // A reply to a verdict buzzes the turn it answered;
                    // otherwise the latest turn.
                    (None, None) => letter
                        .references
                        .iter()
                        .rev()
                        .find_map(|r| {
                            live.turns
                                .iter()
                                .find(|t| outbound::reply_id(&t.message_id, 0, &self.me) == *r)
                                .map(|t| t.n)
                        })
                        .or_else(|| live.turns.last().map(|t| t.n)),
                };
                let Some(t) = target.filter(|t| *t >= 1 && *t <= n) else {
                    out.refuse(format!(
                        "There is no such turn to buzz in {tag} (it has {n} turns)."
                    ));
                    return Err(Disposition::Unchanged("buzz refused: no such turn".into()));
                };
                // No more than three other turns made since (Rule 1.16.2).
                if n - t > 3 {
                    out.refuse(format!("Turn {t} of {tag} can no longer be buzzed: {} turns have been made since, and Rule 1.16.2 allows three.", n - t));
                    return Err(Disposition::Unchanged("buzz refused: too late".into()));
                }
                let player = live.turns[(t - 1) as usize].player.clone();
                if player.eq_ignore_ascii_case(me) {
                    out.refuse("You cannot buzz your own turn; take it back instead (Rule 1.3.3), while no one has played since.");
                    return Err(Disposition::Unchanged("buzz refused: own turn".into()));
                }
                Step::Buzz {
                    turn: t,
                    player,
                    buzzer: me.to_string(),
                    reason: cut_sign_off(reason),
                    logged: true,
                    play: live.turns[(t - 1) as usize].play.clone(),
                }
            }
            (Workflow::Buzz { .. }, Some(q)) => {
                out.refuse(format!("Turn {} of {tag} is already Questionable: no further Buzz can be made (Rule 1.16.2).", q.turn));
                return Err(Disposition::Unchanged(
                    "buzz refused: already questionable".into(),
                ));
            }
            (_, None) => {
                out.refuse(format!("No turn of {tag} is Questionable."));
                return Err(Disposition::Unchanged("nothing questionable".into()));
            }
            (Workflow::Withdraw, Some(q)) if q.buzzer.eq_ignore_ascii_case(me) => Step::Withdraw,
            (Workflow::Concede, Some(q))
                if q.player.eq_ignore_ascii_case(me)
                    && matches!(q.stage, Stage::Defence { .. }) =>
            {
                Step::Concede
            }
            (Workflow::Contest { text }, Some(q))
                if q.player.eq_ignore_ascii_case(me)
                    && matches!(q.stage, Stage::Defence { .. }) =>
            {
                Step::Defend {
                    defence: cut_sign_off(text),
                }
            }
            (Workflow::Concede, Some(q))
                if q.buzzer.eq_ignore_ascii_case(me) && matches!(q.stage, Stage::Reply { .. }) =>
            {
                Step::ConcedeDefence
            }
            (Workflow::Contest { text }, Some(q))
                if q.buzzer.eq_ignore_ascii_case(me) && matches!(q.stage, Stage::Reply { .. }) =>
            {
                Step::ContestDefence {
                    contest: cut_sign_off(text),
                }
            }
            (
                Workflow::Judgment { legal },
                Some(Questionable {
                    stage: Stage::Judgment { referee, .. },
                    ..
                }),
            ) if referee.eq_ignore_ascii_case(me) => Step::Judgment { legal: *legal },
            (
                Workflow::Decline,
                Some(Questionable {
                    stage: Stage::Judgment { referee, .. },
                    ..
                }),
            ) if referee.eq_ignore_ascii_case(me) => Step::Declined,
            (_, Some(q)) => {
                out.refuse(format!(
                    "Turn {} of {tag} is Questionable and {}: your message does not apply now.",
                    q.turn,
                    machine::describe(q)
                ));
                return Err(Disposition::Unchanged("workflow step refused".into()));
            }
        };
        Ok(step)
    }

    /// The notice of a step that did not settle the turn.
    fn announce_step(
        &self,
        live: &mut Live,
        step: &Step,
        me: &str,
        at: DateTime<Utc>,
        commit: &mut Commit,
        th: &Thread,
    ) {
        let tag = live.game.tag.clone();
        let q = live
            .questionable
            .clone()
            .expect("not settled, so still questionable");
        let (headline, text) = match step {
            Step::Buzz { turn, player, reason, .. } => (format!("Turn {turn} is Questionable"), format!(
                "{me} buzzes {player}'s turn {turn} of {tag}: it is Questionable (Rule 1.16.2).\n\n    {}\n\n{me}'s reason:\n\n{}\n{player} has until {} to reply \"Concede\" or \"Contest: <defence>\" (Rule 1.16.3); no contest by then makes the turn Illegal. Play is held meanwhile: later turns are kept and judged once this is settled.",
                notice::buzzed_play(live, &q),
                quote(reason),
                self.stage_deadline(&q)
            )),
            Step::Defend { defence } => {
                let mut t = format!("{me} contests the Buzz of turn {} of {tag}:\n\n{}\n{} has until {} to concede or contest the defence (Rule 1.16.3); no contest by then makes the turn Legal.", q.turn, quote(defence), q.buzzer, self.stage_deadline(&q));
                if q.buzzer == BOT && self.speaker.bot_contests_defences {
                    // The bot, as buzzer, contests so a human decides.
                    let contest = "mornbot, the buzzer, contests the defence, so that a human Referee decides.";
                    let _ = self.step(live, Step::ContestDefence { contest: contest.into() }, at, commit);
                    t.push_str(&format!(" {contest}"));
                    self.announce(commit, th, format!("Turn {}: Buzz contested", q.turn), t, at);
                    self.draw(live, at, commit, &th.sub("#draw"));
                    return;
                }
                (format!("Turn {}: Buzz contested", q.turn), t)
            }
            Step::ContestDefence { contest } => {
                self.announce(commit, th, format!("Turn {}: to Judgment", q.turn), format!("{me} contests the defence of turn {} of {tag}:\n\n{}\nThe matter goes to Judgment (Rule 1.16.3).", q.turn, quote(contest)), at);
                self.draw(live, at, commit, &th.sub("#draw"));
                return;
            }
            Step::Declined => {
                self.announce(commit, th, format!("Turn {}: Referee declined", q.turn), format!("{me} declines to judge turn {} of {tag}; another Referee is drawn (Rule 1.16.4).", q.turn), at);
                self.draw(live, at, commit, &th.sub("#draw"));
                return;
            }
            other => (format!("Turn {} is Questionable", q.turn), format!("{other:?}")),
        };
        self.announce(commit, th, headline, text, at);
    }

    /// Whether every other Active player acknowledged the winning turn.
    pub(super) fn win_acknowledged(&self, live: &Live) -> bool {
        let winner = live.game.state.winner.clone().unwrap_or_default();
        live.game
            .state
            .players
            .iter()
            .filter(|p| {
                p.active
                    && !p.name.eq_ignore_ascii_case(&winner)
                    && !crate::kinds::vol1::is_reserved(&p.name)
            })
            .all(|p| live.acks.iter().any(|a| a.eq_ignore_ascii_case(&p.name)))
    }

    /// Ends a won game (Rule 1.1.1).
    pub(super) fn end_game(
        &self,
        live: &mut Live,
        at: DateTime<Utc>,
        commit: &mut Commit,
        th: &Thread,
        why: &str,
    ) {
        let tag = live.game.tag.clone();
        let winner = live.game.state.winner.clone().unwrap_or_default();
        live.ended = true;
        self.record_end(live, commit);
        self.announce(commit, th, format!("Game over: {winner} wins"),
            format!("{winner} reached Mornington Crescent in turn {} and wins {tag} (Rule 1.1.1): {why}. The game is over; thank you all for playing.\n\nThe final GSD:\n\n{}", live.turns.len(), verbatim(&crate::kinds::vol1::document(&live.game, self.map))), at);
        self.reveal_dice(live, commit, th, at);
    }

    pub(super) fn stage_deadline(&self, q: &Questionable) -> String {
        match &q.stage {
            Stage::Defence { until } | Stage::Reply { until } | Stage::Judgment { until, .. } => {
                fmt_time(*until)
            }
            _ => "-".into(),
        }
    }
}

/// Whether `poster` plays the turn after the Questionable one: the player
/// to move when it is logged, else the next Active player after its
/// player.
fn follows(live: &Live, q: &Questionable, poster: &str) -> bool {
    let s = &live.game.state;
    if q.logged {
        return live.game.to_play().eq_ignore_ascii_case(poster);
    }
    let Some(i) = s.player_index(&q.player) else {
        return true;
    };
    let n = s.players.len();
    (1..=n)
        .map(|k| &s.players[(i + k) % n])
        .find(|p| p.active)
        .is_some_and(|p| p.name.eq_ignore_ascii_case(poster))
}
