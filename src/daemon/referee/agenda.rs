//! The Speaker's clock: each game's next due time in the agenda (issue
//! 20: a wake-up touches only the games that are due), and what falls due:
//! the end of a Questionable Turn's deadlines, the end of an unbuzzed win,
//! resignations after long absence, reminders, and Timeouts (Rules 1.1.10,
//! 1.3.5, 1.16.x).

use chrono::{DateTime, Utc};

use super::*;

impl Referee {
    /// When an unbuzzed winning turn ends its game (`[speaker]
    /// win_window_hours` after it), if it is waiting to.
    pub(super) fn win_window_end(&self, live: &Live) -> Option<DateTime<Utc>> {
        if live.ended || live.questionable.is_some() || self.speaker.win_window_hours == 0 {
            return None;
        }
        live.game.state.winner.as_ref()?;
        let won = live.turns.last()?.submitted_at;
        Some(won + chrono::Duration::hours(i64::from(self.speaker.win_window_hours)))
    }

    /// When the Speaker next has something to do in any game (a buzz
    /// deadline, the end of a win, a resignation, a reminder or a Timeout),
    /// if ever.
    pub fn next_due(&self) -> Option<DateTime<Utc>> {
        self.agenda.iter().next().map(|(t, _)| *t)
    }

    /// Changes a game by hand (tests, tools), keeping its snapshot and the
    /// agenda right; false when there is no such game.
    ///
    /// # Errors
    ///
    /// [`RefereeError`] when the game does not load or its snapshot cannot
    /// be written.
    pub fn edit_game(
        &mut self,
        store: &mut Store,
        tag: &str,
        f: impl FnOnce(&mut Live),
    ) -> Result<bool, RefereeError> {
        if !self.has_game(tag) {
            return Ok(false);
        }
        let mut live = self.live(store, tag)?;
        f(&mut live);
        store.put_snapshots(&[self.snapshot_row(&live)])?;
        self.reschedule_live(&live);
        self.games.put(live);
        Ok(true)
    }

    /// Puts `live`'s game in the agenda at its next due time (or takes it
    /// out): after every change of the game's state.
    pub(super) fn reschedule_live(&mut self, live: &Live) {
        let at = self.due_of(live);
        self.schedule(&live.game.tag, at);
    }

    /// Puts game `tag` in the agenda at `at` (or takes it out): a Volume 1
    /// game's or a hosted game's next due time.
    pub(super) fn schedule(&mut self, tag: &str, at: Option<DateTime<Utc>>) {
        if let Some(old) = self.due.remove(tag) {
            self.agenda.remove(&(old, tag.to_string()));
        }
        if let Some(t) = at {
            self.due.insert(tag.to_string(), t);
            self.agenda.insert((t, tag.to_string()));
        }
    }

    /// When the Speaker next owes `live` something, if ever.
    pub(super) fn due_of(&self, live: &Live) -> Option<DateTime<Utc>> {
        let before = chrono::Duration::hours(i64::from(self.speaker.reminder_hours));
        let mut next: Option<DateTime<Utc>> = None;
        if let Some(t) = self.win_window_end(live) {
            let t = t + chrono::Duration::milliseconds(1);
            next = Some(next.map_or(t, |x| x.min(t)));
        }
        if let Some(q) = &live.questionable {
            if let Some(t) = crate::speaker::buzz::next_event(q) {
                next = Some(next.map_or(t, |x| x.min(t)));
            }
        }
        if let Some(t) = self.waiting_due(live) {
            next = Some(next.map_or(t, |x| x.min(t)));
        }
        if !self.speaker.timeouts {
            return next;
        }
        if let Some((_, t)) = live.resignation() {
            let t = t + chrono::Duration::milliseconds(1);
            next = Some(next.map_or(t, |x| x.min(t)));
        }
        if let Some(t) = crate::speaker::machine::next_event(&live.turn_clock(), before) {
            next = Some(next.map_or(t, |x| x.min(t)));
        }
        next
    }

    /// Does what the Speaker owes at `now` in every game: the buzz
    /// workflow's lapses and draws, the end of an unbuzzed win, Rule 1.1.10
    /// resignations, private reminders, and Timeouts at passed deadlines
    /// (Rule 1.3.5), each committed with its mail; repeats until nothing is
    /// due (a restart after a long outage times out every overdue turn in
    /// order).
    pub fn tick(
        &mut self,
        store: &mut Store,
        now: DateTime<Utc>,
    ) -> Result<Vec<Handled>, RefereeError> {
        let mut done = Vec::new();
        // Only the games the agenda says are due: an idle game costs
        // nothing here.
        let tags: Vec<String> = self
            .agenda
            .iter()
            .take_while(|(t, _)| *t <= now)
            .map(|(_, tag)| tag.clone())
            .collect();
        for tag in tags {
            // Bounded: at most one act per turn, and a game cannot have more
            // overdue turns than this between two ticks in practice.
            if self.is_hosted(&tag) {
                done.extend(self.hosted_tick(store, &tag, now)?);
                continue;
            }
            for _ in 0..1000 {
                let mut live = self.live(store, &tag)?;
                let mut commit = Commit {
                    received_at: Some(now),
                    ..Commit::default()
                };
                let Some(summary) = self.speaker_act(&mut live, now, &mut commit) else {
                    break;
                };
                commit.snapshots.push(self.snapshot_row(&live));
                store.commit(&commit)?;
                self.reschedule_live(&live);
                self.games.put(live);
                done.push(Handled {
                    message_id: String::new(),
                    game: Some(tag.clone()),
                    kind: "speaker".into(),
                    summary,
                    replies: commit.outbox.len(),
                });
            }
        }
        Ok(done)
    }

    /// The first act the Speaker owes `live` at `now`, done into `commit`;
    /// its summary, or `None` when nothing is due.
    pub(super) fn speaker_act(
        &mut self,
        live: &mut Live,
        now: DateTime<Utc>,
        commit: &mut Commit,
    ) -> Option<String> {
        use crate::speaker::deadline::is_overdue;
        use crate::speaker::machine::{due, Due};
        let tag = live.game.tag.clone();
        // The buzz workflow's deadlines first (Rules 1.16.3-4).
        if let Some(summary) = self.buzz_due(live, now, commit) {
            return Some(summary);
        }
        if self
            .win_window_end(live)
            .is_some_and(|t| is_overdue(t, now))
        {
            let th = Thread::clock(&tag, format!("end-{tag}-{}", live.turns.len()));
            self.end_game(live, now, commit, &th, "no one buzzed it in time");
            return Some("game over".into());
        }
        // A game waiting on a human: the lounge is told (RULINGS S31).
        if let Some(summary) = self.waiting_notice(live, now, commit) {
            return Some(summary);
        }
        if !self.speaker.timeouts {
            return None;
        }
        if let Some((name, due_at)) = live.resignation() {
            if is_overdue(due_at, now) {
                self.resign(live, &name, now, commit);
                return Some(format!("{name} Resigned (Rule 1.1.10)"));
            }
        }
        let before = chrono::Duration::hours(i64::from(self.speaker.reminder_hours));
        let summary = match due(&live.turn_clock(), now, before)? {
            Due::Reminder {
                player,
                turn,
                deadline,
            } => self.remind(live, (&player, turn, deadline), now, commit),
            Due::Timeout {
                player,
                turn,
                deadline,
            } => {
                let line = format!("{player} : Timeout");
                let outcome =
                    parse_play(&line, self.map).map(|p| (live.game.play(self.map, p.clone()), p));
                match outcome {
                    Ok((out, play)) if out.verdict == Verdict::Legal => {
                        let row = TurnRow {
                            n: turn,
                            player: player.clone(),
                            play: render_play(&play),
                            message_id: format!("timeout-{tag}-{turn}@{}", self.me.domain()),
                            submitted_at: deadline,
                        };
                        live.turns.push(row.clone());
                        commit.turns.push((tag.clone(), row));
                        let body = tpl(
                            "accepted",
                            minijinja::context! {
                                player, n => turn, game => tag, play => line,
                                timeout => fmt_time(deadline),
                                changes => out.changes,
                                next => live.game.to_play(),
                                deadline => live.deadline().map(fmt_time),
                                gsd => crate::kinds::vol1::document(&live.game, self.map),
                                bot => self.me.address,
                            },
                        );
                        let r = self.notice_mail(
                            &Thread::clock(&tag, format!("timeout-{tag}-{turn}")),
                            vec![self.me.lounge.clone()],
                            &format!("Turn {turn}: {player} timed out"),
                            &body,
                            now,
                        );
                        self.queue_with_picture(commit, live, &r);
                        format!("Timeout for {player}, turn {turn}")
                    }
                    _ => {
                        // Cannot happen for the engine (Timeout is always
                        // valid, Rule 1.5.2); never loop on it.
                        tracing::error!(game = %tag, "the engine refused {line}; timeouts stop");
                        commit.timers.push((
                            tag.clone(),
                            "timeout-refused".into(),
                            turn.to_string(),
                        ));
                        self.speaker.timeouts = false;
                        format!("Timeout refused for {player}")
                    }
                }
            }
        };
        Some(summary)
    }

    /// Resigns a player for two months without a move (Rules 1.1.10,
    /// 1.1.3), announcing it in the lounge.
    pub(super) fn resign(
        &self,
        live: &mut Live,
        name: &str,
        now: DateTime<Utc>,
        commit: &mut Commit,
    ) {
        let tag = live.game.tag.clone();
        let why = format!(
            "{name} has played no move in {tag} for two calendar months and is treated as \
             Resigned (Rules 1.1.10, 1.1.3)"
        );
        self.resign_because(
            live,
            name,
            now,
            commit,
            &why,
            &format!("resigned-{tag}-{name}"),
        );
    }

    /// Resigns a player on the Speaker's word (Rule 1.1.3).
    pub(super) fn resign_by_speaker(
        &self,
        live: &mut Live,
        name: &str,
        now: DateTime<Utc>,
        commit: &mut Commit,
        key: &str,
    ) {
        let why = format!(
            "The Speaker Resigns {name} from {} (Rule 1.1.3)",
            live.game.tag
        );
        self.resign_because(live, name, now, commit, &why, key);
    }

    pub(super) fn resign_because(
        &self,
        live: &mut Live,
        name: &str,
        now: DateTime<Utc>,
        commit: &mut Commit,
        why: &str,
        key: &str,
    ) {
        let tag = live.game.tag.clone();
        let had_winner = live.game.state.winner.is_some();
        live.game.resign(name);
        Event::Resigned(live.game.plays.len(), name.to_string()).record(&tag, commit);
        // The last player left Wins by this resignation (Rule 1.1.3): there
        // is no winning turn to buzz, so the game ends here, for this
        // reason, in this one notice.
        let won_now = !had_winner && live.game.state.winner.is_some();
        if won_now {
            live.ended = true;
            self.record_end(live, commit);
        }
        let mut text = format!(
            "{why}: gone from the Token Table with eir Tokens and Possessions; eir Home is \
             ownerless."
        );
        match &live.game.state.winner {
            Some(w) if won_now => text.push_str(&format!(
                " {w} is the last player left and Wins {tag} (Rule 1.1.3). The game is \
                 over; thank you all for playing."
            )),
            Some(w) => text.push_str(&format!(" {w} has already won {tag}.")),
            None => text.push_str(&format!(" {}", notice::whose_turn(live))),
        }
        text.push_str(&format!(
            "\n\n{}",
            verbatim(&crate::kinds::vol1::document(&live.game, self.map))
        ));
        let th = Thread::clock(&tag, key.to_string());
        let r = self.notice_mail(
            &th,
            vec![self.me.lounge.clone()],
            &format!("{name} has Resigned"),
            &self.notice(text),
            now,
        );
        self.queue(commit, &r);
        if won_now {
            self.reveal_dice(live, commit, &th, now);
        }
    }
}
