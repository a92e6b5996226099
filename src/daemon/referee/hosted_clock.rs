//! A hosted game's clock (issue 41): when its awaited turn (or the rest
//! of an open turn) is due, the private reminder before it, and the
//! Timeout its kind plays once it is past.

use chrono::{DateTime, Utc};

use super::hosted::{indent, Hosted};
use super::notice::Thread;
use super::{fmt_time, Referee, RefereeError};
use crate::kinds::{Judged, Next};
use crate::store::{Commit, Store, TurnRow};

impl Hosted {
    /// The deadline policy of the awaited step (its kind's per step,
    /// RULINGS OD14; else the game's).
    pub fn policy(&self) -> crate::speaker::policy::Policy {
        let step = match self.position.next() {
            Next::Act { step, .. } => step,
            Next::Over { .. } => "turn",
        };
        self.def
            .kind
            .step_deadline(step, &self.def.kind_rulings, self.def.deadline)
    }

    /// [`Hosted::policy`] in words, for the step awaited: `24 counted hours
    /// a placement`; the rest of an open turn is due by the turn's clock,
    /// so it reads as a turn's.
    pub fn policy_words(&self) -> String {
        match self.position.next() {
            Next::Act {
                step, lines_in: 0, ..
            } => self.policy().per(step),
            _ => self.policy().to_string(),
        }
    }
}

impl Referee {
    /// The clock of `h`'s awaited step, while timeouts run: the player
    /// whose act is owed first, when eir step is due, and when eir private
    /// reminder goes out unless it went. In a step several players take at
    /// once each has eir own clock, and the earliest act owed is chosen.
    fn hosted_clock(&self, h: &Hosted) -> Option<(String, DateTime<Utc>, Option<DateTime<Utc>>)> {
        if !self.speaker.timeouts {
            return None;
        }
        let before = chrono::Duration::hours(i64::from(self.speaker.reminder_hours));
        let policy = h.policy();
        h.awaited_all()
            .into_iter()
            .filter_map(|player| {
                let due = h.deadline_of(&player)?;
                let key = h.reminder_key(&player);
                let reminder = policy
                    .reminder(
                        due,
                        before,
                        h.clock_started_of(&player),
                        &h.away_of(&player),
                    )
                    .filter(|_| !h.reminded.contains(&key));
                Some((player, due, reminder))
            })
            .min_by_key(|(_, due, reminder)| reminder.map_or(*due, |r| r.min(*due)))
    }

    /// When the clock next owes `h` something: the reminder, or the
    /// Timeout.
    pub(super) fn hosted_due(&self, h: &Hosted) -> Option<DateTime<Utc>> {
        let (_, due, reminder) = self.hosted_clock(h)?;
        Some(reminder.map_or(due, |r| r.min(due)))
    }

    /// Puts `h` in the agenda at its next due time (or takes it out).
    pub(super) fn reschedule_hosted(&mut self, h: &Hosted) {
        let at = self.hosted_due(h);
        self.schedule(&h.def.tag, at);
    }

    /// The first act the clock owes hosted game `h` at `now` (a reminder,
    /// or a Timeout played by its kind), into `commit`; its summary.
    pub(super) fn hosted_act(
        &self,
        h: &mut Hosted,
        now: DateTime<Utc>,
        commit: &mut Commit,
    ) -> Option<String> {
        let (player, due, reminder) = self.hosted_clock(h)?;
        let (tag, n) = (h.def.tag.clone(), h.turns.len() as u64 + 1);
        if now < due {
            if reminder.is_none_or(|at| now < at) {
                return None;
            }
            let key = h.reminder_key(&player);
            h.reminded.push(key.clone());
            commit
                .timers
                .push((tag.clone(), "reminder".into(), key.clone()));
            let to = h.address_of(&player)?.to_string();
            let r = self.notice_mail(
                &Thread::clock(&tag, format!("reminder-{tag}-{key}")),
                vec![to],
                &format!("Turn {n}: a reminder"),
                &crate::mail::wrap::wrap(&match h.position.next() {
                    // An open turn: the rest of it is awaited.
                    Next::Act { step, lines_in, .. } if lines_in > 0 => format!(
                        "{player}, the {step} of your open turn in {tag} is due by {} ({}); \
                         if nothing comes by then, mornbot closes the turn as it stands.",
                        fmt_time(due),
                        h.policy_words()
                    ),
                    // A step of its own (a placement in a set-up).
                    Next::Act { step, .. } if step != "turn" => format!(
                        "{player}, your {step} in {tag} is due by {} ({}); if none comes by \
                         then, mornbot plays a Timeout for you.",
                        fmt_time(due),
                        h.policy_words()
                    ),
                    _ => format!(
                        "{player}, your turn {n} of {tag} is due by {} ({}); if no turn comes \
                         by then, mornbot plays a Timeout for you.",
                        fmt_time(due),
                        h.policy_words()
                    ),
                }),
                now,
            );
            self.queue(commit, &r);
            return Some(format!("reminder to {player}, turn {n}"));
        }
        let (order, judged) = h.position.timeout_of(&player)?;
        let (Judged::Legal { position, changes } | Judged::Over { position, changes }) = judged
        else {
            tracing::error!(game = %tag, "the kind refused its own Timeout; left to the Speaker");
            return None;
        };
        let line = h.position.canonical(&order);
        let row = TurnRow {
            n,
            player: player.clone(),
            play: line.clone(),
            message_id: format!("timeout-{tag}-{n}@{}", self.me.domain()),
            submitted_at: due,
        };
        // The policy of the step missed, not of the next.
        let policy = h.policy_words();
        let before = std::mem::replace(&mut h.position, position);
        h.turns.push(row.clone());
        commit.turns.push((tag.clone(), row));
        self.private_mails(h, Some(&before), &n.to_string(), now, commit);
        let body = crate::mail::render::render_for(
            h.def.kind.id(),
            "order_timeout",
            minijinja::context! {
                player, n, game => tag, due => fmt_time(due), policy,
                line => indent(&line), changes, document => h.document(),
            },
        );
        let r = self.notice_mail(
            &Thread::clock(&tag, format!("timeout-{tag}-{n}")),
            vec![self.me.lounge.clone()],
            &format!("Turn {n}: {player} timed out"),
            &body,
            now,
        );
        self.queue_with_hosted_picture(commit, &h.def, &h.position, n as usize, &r);
        Some(format!("Timeout for {player}, turn {n}"))
    }
    /// Does what the clock owes hosted game `tag` at `now`, each act
    /// committed with its mail; repeats until nothing is due (a restart
    /// after a long outage times out every overdue turn in order).
    pub(super) fn hosted_tick(
        &mut self,
        store: &mut Store,
        tag: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<super::Handled>, RefereeError> {
        let mut done = Vec::new();
        for _ in 0..1000 {
            let mut h = self.hosted(store, tag)?;
            let mut commit = Commit {
                received_at: Some(now),
                ..Commit::default()
            };
            let Some(summary) = self.hosted_act(&mut h, now, &mut commit) else {
                // Nothing due after all (a reminder already sent): the
                // agenda must still move on.
                self.reschedule_hosted(&h);
                break;
            };
            commit.snapshots.push(self.hosted_snapshot(&h));
            store.commit(&commit)?;
            self.reschedule_hosted(&h);
            done.push(super::Handled {
                message_id: String::new(),
                game: Some(tag.to_string()),
                kind: "speaker".into(),
                summary,
                replies: commit.outbox.len(),
            });
            self.games.put_hosted(h);
        }
        Ok(done)
    }
}
