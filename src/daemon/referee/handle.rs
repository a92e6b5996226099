//! Handling one message: dispatch it to what it asks, time it against the
//! work budget, and commit its effects with its replies in one
//! transaction; the game's copy replaces the game only once the commit
//! succeeded.

use chrono::{DateTime, Utc};

use super::{Handled, Hosted, Letter, Live, Out, Referee, RefereeError, Request};
use crate::store::{Commit, Origin, Processed, Store};

/// The game a message concerned, its kind and what came of it.
type Dispatched = (Option<String>, String, String);

/// The copy of the game a message changed: a Volume 1 game's, or a hosted
/// game's (issue 41).
#[derive(Default)]
struct Changed {
    live: Option<Live>,
    hosted: Option<Hosted>,
}

impl Referee {
    /// Handles one message already classified; `received` is when the
    /// server received it (the turn's submission time, Rule 1.3.5).
    pub fn handle(
        &mut self,
        store: &mut Store,
        origin: Origin,
        letter: &Letter,
        received: DateTime<Utc>,
    ) -> Result<Handled, RefereeError> {
        let h = self.handle_with(store, origin, letter, received, false)?;
        Ok(h.expect("a turn is put off only when asked"))
    }

    /// [`Referee::handle`], except that a turn out of turn (Rule 1.3.2) is
    /// neither refused nor recorded: `None`, and nothing changed. The
    /// daemon asks this of a post while others received with it wait, and
    /// judges it again after them (RULINGS L12).
    pub fn handle_unless_out_of_turn(
        &mut self,
        store: &mut Store,
        origin: Origin,
        letter: &Letter,
        received: DateTime<Utc>,
    ) -> Result<Option<Handled>, RefereeError> {
        self.handle_with(store, origin, letter, received, true)
    }

    fn handle_with(
        &mut self,
        store: &mut Store,
        origin: Origin,
        letter: &Letter,
        received: DateTime<Utc>,
        put_off: bool,
    ) -> Result<Option<Handled>, RefereeError> {
        // Every reply this mail causes is counted against the strangers'
        // hourly limits (backscatter.rs), whatever path queues it.
        self.load_quota(store)?;
        let handled = self.handle_counted(store, origin, letter, received, put_off);
        self.drop_quota();
        handled
    }

    fn handle_counted(
        &mut self,
        store: &mut Store,
        origin: Origin,
        letter: &Letter,
        received: DateTime<Utc>,
        put_off: bool,
    ) -> Result<Option<Handled>, RefereeError> {
        if store.is_processed(&letter.message_id)? {
            return Ok(Some(Handled {
                message_id: letter.message_id.clone(),
                game: None,
                kind: "duplicate".into(),
                summary: "already processed".into(),
                replies: 0,
            }));
        }
        let started = self.lap();
        let fresh = || Commit {
            received_at: Some(received),
            ..Commit::default()
        };
        let mut out = Out::new(&self.me, letter, received, letter.message_id.clone());
        let mut commit = fresh();
        let mut both = Changed::default();
        let (mut game, mut kind, mut summary) =
            self.dispatch(store, letter, received, &mut out, &mut commit, &mut both)?;
        let Changed {
            live: mut changed,
            hosted: mut hosted_changed,
        } = both;
        let turnlike = kind == "turn" || kind == "order";
        if put_off && turnlike && summary == super::turn::OUT_OF_TURN {
            return Ok(None);
        }
        if let Some(why) = self.over_budget(started) {
            // Thrown away whole: the copy of the game, the events, the
            // replies; only the refusal (when the mail may be answered).
            tracing::warn!(id = %letter.message_id, from = %letter.from, "{why}");
            changed = None;
            hosted_changed = None;
            commit = fresh();
            self.load_quota(store)?; // what was queued is thrown away
            out = Out::new(&self.me, letter, received, letter.message_id.clone());
            if letter.no_reply.is_none() && !letter.auth_failed {
                out.refuse(why);
            }
            (game, kind, summary) = (
                letter.game.clone().ok(),
                "error".into(),
                "refused: work_ms_per_mail".into(),
            );
        }
        // Pictures are owed, drawn by the sender: never inside the budget.
        self.queue_out(&mut commit, &mut out);
        if let Some(why) = self.withheld() {
            tracing::warn!(id = %letter.message_id, from = %letter.from, "{why}");
            summary = format!("{summary}; {why}");
        }
        let replies = commit.outbox.len();
        commit.processed = Some(Processed {
            message_id: letter.message_id.clone(),
            origin,
            game: game.clone(),
            kind: kind.clone(),
            summary: summary.clone(),
        });
        if let Some(live) = &changed {
            commit.snapshots.push(self.snapshot_row(live));
        }
        if let Some(h) = &hosted_changed {
            commit.snapshots.push(self.hosted_snapshot(h));
        }
        store.commit(&commit)?;
        self.adopt_started(store, &commit)?;
        if let Some(live) = changed {
            self.reschedule_live(&live);
            self.games.put(live);
        }
        if let Some(h) = hosted_changed {
            self.reschedule_hosted(&h);
            self.games.put_hosted(h);
        } else {
            self.refresh_hosted(store, &commit)?;
        }
        Ok(Some(Handled {
            message_id: letter.message_id.clone(),
            game,
            kind,
            summary,
            replies,
        }))
    }

    /// What `letter` asks, done on a copy of its game (put in `changed`
    /// when the game changed), its replies in `out` and its effects in
    /// `commit`.
    fn dispatch(
        &self,
        store: &Store,
        letter: &Letter,
        received: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
        changed: &mut Changed,
    ) -> Result<Dispatched, RefereeError> {
        let changed_hosted = &mut changed.hosted;
        let changed = &mut changed.live;
        Ok(if let Some(why) = &letter.no_reply {
            // One of our own replies back through the list, or a private
            // mail's blind copy (RULINGS OD16), confirms its delivery (it
            // may be unconfirmed after a crash).
            commit.echoed.push(letter.message_id.clone());
            (None, "auto".to_string(), why.clone())
        } else if letter.auth_failed && letter.request != Request::Chatter {
            // The one authentication gate (RULINGS L7): with a trusted
            // authserv-id configured, a message without an aligned pass
            // changes nothing and is never answered, whatever it asks (a
            // turn, a workflow step, a Judgment, a Speaker's or anyone's
            // command): its From may be forged, and a reply would be
            // backscatter to whoever that names.
            tracing::warn!(id = %letter.message_id, from = %letter.from, request = letter.request.name(),
                "not authenticated by the trusted server: not judged, not answered");
            (
                letter.game.clone().ok(),
                "auth".into(),
                format!(
                    "authentication failed: {} not judged, not answered",
                    letter.request.name()
                ),
            )
        } else if let Some(tag) = self.hosted_tag(letter) {
            let (kind, summary) =
                self.hosted_mail(store, &tag, letter, received, out, commit, changed_hosted)?;
            (Some(tag), kind, summary)
        } else if let Some((game, live, summary)) =
            self.speaker_mail(store, letter, received, out, commit)?
        {
            *changed = live;
            (game, "speaker".into(), summary)
        } else if let Some((game, live, summary)) =
            self.ending_mail(store, letter, received, out, commit)?
        {
            *changed = live;
            (game, "ending".into(), summary)
        } else if let Some((game, live, summary)) =
            self.absence_mail(store, letter, received, out, commit)?
        {
            *changed = live;
            (game, "absence".into(), summary)
        } else {
            match &letter.request {
                Request::Chatter => (None, "chatter".into(), "ignored".into()),
                // Only a hosted game's mail is an order: taken above.
                Request::Order { .. } => {
                    let hosted: Vec<&String> =
                        self.tags().filter(|t| self.is_hosted(t)).take(10).collect();
                    out.refuse(format!(
                        "Your mail holds a turn, but does not say which game it is for: put \
                         the game's tag in the subject, e.g. \"[{}] my turn\". The games that \
                         take such turns: {}.",
                        hosted.first().map_or("MX1", |t| t.as_str()),
                        super::listed(hosted.into_iter())
                    ));
                    (None, "order".into(), "game unknown".into())
                }
                Request::Refuse(reason) => {
                    out.refuse(reason.clone());
                    (None, "error".into(), reason.clone())
                }
                Request::Commands(cmds) if cmds.len() > self.limits.commands_per_mail => {
                    out.refuse(format!(
                        "Your mail holds {} commands; mornbot answers at most {} in one mail \
                         ([limits] commands_per_mail), so none was answered. Send them in \
                         smaller mails.",
                        cmds.len(),
                        self.limits.commands_per_mail
                    ));
                    (None, "command".into(), "refused: commands_per_mail".into())
                }
                Request::Commands(_) if self.commands_over(store, letter, out)? => (
                    None,
                    "command".into(),
                    "not answered: command_replies_per_hour".into(),
                ),
                Request::Commands(cmds) => {
                    let s = self.all_commands(store, letter, cmds, received, out, commit)?;
                    (None, "command".into(), s)
                }
                Request::NotUnderstood { line, looks_like } => {
                    out.sender(self.unclear(line, looks_like, letter.game.as_ref().ok()));
                    (None, "unclear".into(), "not understood".into())
                }
                Request::Workflow(w) => match self.which_game(letter, out) {
                    None => (None, "buzz".into(), "game unknown".into()),
                    Some(tag) => {
                        let mut live = self.live(store, &tag)?;
                        let d = self.workflow(&mut live, letter, w, received, out, commit);
                        let summary = d.summary().to_string();
                        if d.changed() {
                            *changed = Some(live);
                        }
                        (Some(tag), "buzz".into(), summary)
                    }
                },
                Request::Turn { .. } | Request::TakeBack(_) => match self.which_game(letter, out) {
                    None => (None, "turn".into(), "game unknown".into()),
                    Some(tag) => {
                        let mut live = self.live(store, &tag)?;
                        let d =
                            self.turn(&mut live, letter, &letter.request, received, out, commit);
                        let summary = d.summary().to_string();
                        if d.changed() {
                            *changed = Some(live);
                        }
                        (Some(tag), "turn".into(), summary)
                    }
                },
            }
        })
    }
}
