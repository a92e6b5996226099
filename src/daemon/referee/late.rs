//! Who is late (issue 17, item 6): at a turn's reminder the lounge is told
//! whose turn is pending, and a game that waits on a human (a Judgment
//! owed by the Speaker or a Referee, a Stalemate every player agreed that
//! the Speaker must confirm or refuse) gets one short lounge notice per
//! `[speaker] waiting_notice_hours` of waiting (RULINGS S30, S31).
//!
//! Both are the Speaker's acts from the agenda (`Referee::due_of` says
//! when a game's next notice is due; `tick` acts on due games only), each
//! committed with its mail and a timers row, so a restart never repeats
//! one: a game's notices sent are read back from the timers when it is
//! loaded.

use chrono::{DateTime, Duration, Utc};

use super::notice::Thread;
use super::{fmt_time, Event, Live, Referee, RefereeError};
use crate::mail::wrap::verbatim;
use crate::speaker::buzz::Stage;
use crate::speaker::stalemate::{tally, Agreement, Tally};
use crate::speaker::waiting::{next_notice, notice_number, notice_of, waited, Wait};
use crate::store::{Commit, Store};

/// The timers kind of a waiting notice (its key: `<wait id>-<n>`).
const WAITING: &str = "waiting";

/// What the Speaker keeps of a game to tell who is late.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Late {
    /// When the Questionable Turn's last step was recorded: its current
    /// stage began then.
    pub step_at: Option<DateTime<Utc>>,
    /// The game's Stalemate agreements, with when each was made.
    pub stalemate: Vec<(Agreement, DateTime<Utc>)>,
    /// The wait the last waiting notice was about, and its number.
    pub noticed: Option<(String, u32)>,
}

/// Fills in `live`'s [`Late`] from its events and the store: when its
/// buzz workflow last moved, its Stalemate agreements, and the waiting
/// notices already sent for the wait it is in.
pub(super) fn load(
    store: &Store,
    live: &mut Live,
    events: &[(DateTime<Utc>, Event)],
) -> Result<(), RefereeError> {
    let tag = live.game.tag.clone();
    live.late.step_at = events
        .iter()
        .rev()
        .find(|(_, e)| matches!(e, Event::BuzzStep(_)))
        .map(|(at, _)| *at);
    live.late.stalemate = store.stalemate_agreements_at(&tag)?;
    live.late.noticed = match wait_of(live) {
        Some(w) => store
            .timer_keys(&tag, WAITING, &format!("{}-", w.id))?
            .iter()
            .filter_map(|k| notice_of(&w.id, k))
            .max()
            .map(|n| (w.id, n)),
        None => None,
    };
    Ok(())
}

/// The game's Stalemate tally now (Rule 1.1.11, RULINGS S22).
pub(super) fn stalemate_tally(live: &Live) -> Tally {
    let active: Vec<String> = live
        .game
        .state
        .players
        .iter()
        .filter(|p| p.active && !crate::kinds::vol1::is_reserved(&p.name))
        .map(|p| p.name.clone())
        .collect();
    let agreements: Vec<Agreement> = live.late.stalemate.iter().map(|(a, _)| a.clone()).collect();
    let last = live.turns.last().map_or("", |t| t.message_id.as_str());
    tally(&active, &agreements, live.turns.len(), last)
}

/// When the Stalemate agreements standing now were all made: the latest
/// of them (every Active non-Drone player agrees since then).
fn stalemate_since(live: &Live) -> Option<DateTime<Utc>> {
    let last = live.turns.last().map_or("", |t| t.message_id.as_str());
    live.late
        .stalemate
        .iter()
        .filter(|(a, _)| a.turns == live.turns.len() && a.last == last)
        .map(|(_, at)| *at)
        .max()
}

/// What `live` waits on a human for, if it does: a Referee's Judgment of
/// a Questionable Turn (or the Speaker's, when no Referee is available:
/// RULINGS S13), a Judgment the Speaker owes, the Speaker's decision on an
/// agreed Stalemate. A Questionable Turn at another step waits on no one
/// yet: its own deadlines move it (the turn the bot buzzed is also
/// pending, for the Speaker to settle at will).
pub(super) fn wait_of(live: &Live) -> Option<Wait> {
    if live.ended {
        return None;
    }
    let tag = &live.game.tag;
    if let Some(q) = &live.questionable {
        return match &q.stage {
            Stage::Judgment { referee, until } => Some(Wait::new(
                "referee",
                q.turn,
                format!(
                    "the Referee's Judgment of Questionable turn {} ({}'s), due by {}",
                    q.turn,
                    q.player,
                    fmt_time(*until)
                ),
                referee.clone(),
                *until - crate::speaker::deadline::JUDGMENT_PERIOD,
            )),
            Stage::OnHold => Some(Wait::new(
                "on-hold",
                q.turn,
                format!(
                    "a Judgment of Questionable turn {} ({}'s): no Referee is available, so \
                     the Speaker settles it (RULINGS S13)",
                    q.turn, q.player
                ),
                "the Speaker".into(),
                live.late.step_at?,
            )),
            _ => None,
        };
    }
    if let Some(p) = &live.pending {
        return Some(Wait::new(
            "judgment",
            p.turn,
            format!("a Judgment of {}'s turn {}", p.player, p.turn),
            "the Speaker".into(),
            p.submitted_at,
        ));
    }
    if stalemate_tally(live).complete() {
        return Some(Wait::new(
            "stalemate",
            live.turns.len() as u64,
            format!(
                "the Speaker's decision on the Stalemate every player agreed: \"CONFIRM \
                 STALEMATE {tag}\" or \"REFUSE STALEMATE {tag}\" (Rule 1.1.11)"
            ),
            "the Speaker".into(),
            stalemate_since(live)?,
        ));
    }
    None
}

impl Referee {
    /// How often a waiting game is noticed (`[speaker]
    /// waiting_notice_hours`); `None`: never.
    fn waiting_every(&self) -> Option<Duration> {
        let h = self.speaker.waiting_notice_hours;
        (h > 0).then(|| Duration::hours(i64::from(h)))
    }

    /// When `live`'s next waiting notice is due, if it waits on a human.
    pub(super) fn waiting_due(&self, live: &Live) -> Option<DateTime<Utc>> {
        let every = self.waiting_every()?;
        let w = wait_of(live)?;
        let sent = live
            .late
            .noticed
            .as_ref()
            .filter(|(id, _)| *id == w.id)
            .map_or(0, |(_, n)| *n);
        next_notice(w.since, sent, every)
    }

    /// Tells the lounge what `live` waits on, when a notice is due at
    /// `now`: one mail, its timers row and the notice's number in `live`,
    /// all in `commit`; its summary.
    pub(super) fn waiting_notice(
        &self,
        live: &mut Live,
        now: DateTime<Utc>,
        commit: &mut Commit,
    ) -> Option<String> {
        let due = self.waiting_due(live)?;
        if now < due {
            return None;
        }
        let every = self.waiting_every()?;
        let w = wait_of(live)?;
        let tag = live.game.tag.clone();
        let n = notice_number(w.since, now, every);
        let key = format!("{}-{n}", w.id);
        commit
            .timers
            .push((tag.clone(), WAITING.into(), key.clone()));
        live.late.noticed = Some((w.id.clone(), n));
        let text = format!(
            "{tag} is waiting on {}: {}. It has waited since {} ({}); nothing moves in {tag} \
             until then. STATUS {tag} shows every open request.",
            w.who,
            w.what,
            fmt_time(w.since),
            waited(w.since, now)
        );
        let r = self.notice_mail(
            &Thread::clock(&tag, format!("waiting-{tag}-{key}")),
            vec![self.me.lounge.clone()],
            &format!("Waiting on {}", w.who),
            &self.notice(text),
            now,
        );
        self.queue(commit, &r);
        Some(format!("{tag} waits on {} (notice {n})", w.who))
    }

    /// The reminder of turn `turn`, due by `deadline`: privately to its
    /// player (Rule 1.3.5), and briefly to the lounge (RULINGS S30), both
    /// in `commit` with the timers row that says it went out.
    pub(super) fn remind(
        &self,
        live: &mut Live,
        (player, turn, deadline): (&str, u64, DateTime<Utc>),
        now: DateTime<Utc>,
        commit: &mut Commit,
    ) -> String {
        let tag = live.game.tag.clone();
        commit
            .timers
            .push((tag.clone(), "reminder".into(), turn.to_string()));
        live.reminded_for = Some(turn);
        if let Some(addr) = live.address_of(player) {
            let body = self.notice(format!(
                "{player}, your turn {turn} in {tag} is due by {} (Rule 1.3.5). \
                 If no turn arrives by then, mornbot submits a Timeout for you.\n\n\
                 The GSD as it stands:\n\n{}",
                fmt_time(deadline),
                verbatim(&crate::kinds::vol1::document(&live.game, self.map))
            ));
            let r = self.notice_mail(
                &Thread::clock(&tag, format!("reminder-{tag}-{turn}")),
                vec![addr.to_string()],
                &format!(
                    "Reminder: your turn {turn} is due by {}",
                    fmt_time(deadline)
                ),
                &body,
                now,
            );
            self.queue(commit, &r);
        }
        let r = self.notice_mail(
            &Thread::clock(&tag, format!("reminder-lounge-{tag}-{turn}")),
            vec![self.me.lounge.clone()],
            &format!("Reminder: {player}'s turn {turn} is due"),
            &self.notice(format!(
                "{tag} waits on {player}'s turn {turn}, due by {} (Rule 1.3.5); with no \
                 turn by then, mornbot submits a Timeout for em.",
                fmt_time(deadline)
            )),
            now,
        );
        self.queue(commit, &r);
        format!("reminded {player} of turn {turn}")
    }
}

/// Keeps `live`'s Stalemate agreements as `agreements` now stand (an
/// agreement already kept keeps its time; a new one is made `at`);
/// whether they changed (so the game's copy, its snapshot and its due time
/// must be kept).
pub(super) fn sync_stalemate(live: &mut Live, agreements: &[Agreement], at: DateTime<Utc>) -> bool {
    let kept = std::mem::take(&mut live.late.stalemate);
    live.late.stalemate = agreements
        .iter()
        .map(|a| {
            let when = kept
                .iter()
                .find(|(k, _)| k == a)
                .map_or(at, |(_, when)| *when);
            (a.clone(), when)
        })
        .collect();
    live.late.stalemate != kept
}
