//! Games of kinds other than Volume 1 (issue 41), reached only through
//! [`crate::kinds`]: the game is its definition, the turn log and the
//! position folded from it (a snapshot of the position, under the kind's
//! encoding version, spares the fold). An order is read and judged by the
//! game's kind; a legal one is logged by its canonical line and announced
//! in the lounge with the state document and its picture; anything else is
//! answered to its sender alone and changes nothing. The clock (its
//! reminders and Timeouts) is `hosted_clock.rs`.

use chrono::{DateTime, Utc};

use super::notice::Thread;
use super::{fmt_time, Disposition, GameConfigDef, Letter, Out, Referee, RefereeError, Request};
use crate::kinds::{Judged, Next, Position, Viewer};
use crate::store::{Commit, SnapshotRow, Store, TurnRow};

/// A hosted game in memory.
#[derive(Clone, Debug)]
pub struct Hosted {
    /// Its definition (late joiners added to its players).
    pub def: GameConfigDef,
    /// The position after the last line of the log.
    pub position: Position,
    /// The log as stored.
    pub turns: Vec<TurnRow>,
    /// When the game was stored: the first turn's clock starts.
    pub created_at: DateTime<Utc>,
    /// The keys (`Hosted::reminder_key`) of the awaited step's
    /// reminders that went out.
    pub reminded: Vec<String>,
    /// What its events come to: late joins asked and consented to, the
    /// Speaker's pause, the absences.
    pub(super) events: super::hosted_players::Events,
    /// The seed of the game's dice (RULINGS S14): the order of play was
    /// drawn from it, and it is revealed when the game ends.
    pub dice: Option<crate::dice::Seed>,
}

impl Hosted {
    /// When the awaited turn's clock started.
    pub fn clock_started(&self) -> DateTime<Utc> {
        // An open turn's clock started before its first step: its
        // deadline covers them all.
        let lines_in = match self.position.next() {
            Next::Act { lines_in, .. } => lines_in,
            Next::Over { .. } => 0,
        };
        let before = self.turns.len().saturating_sub(lines_in);
        let last = before
            .checked_sub(1)
            .map_or(self.created_at, |i| self.turns[i].submitted_at);
        self.events.resumed_at.map_or(last, |r| r.max(last))
    }

    /// When `player`'s clock for the awaited step started: in a step
    /// several players take at once (One Day in London's set-up, RULINGS
    /// OD5) each one's clock runs from eir own last line of the log (or
    /// the game's start), so that another's mail does not reset it; else
    /// the turn's clock ([`Hosted::clock_started`]).
    pub fn clock_started_of(&self, player: &str) -> DateTime<Utc> {
        if self.awaited_all().len() < 2 {
            return self.clock_started();
        }
        let last = self
            .turns
            .iter()
            .rev()
            .find(|t| t.player.eq_ignore_ascii_case(player))
            .map_or(self.created_at, |t| t.submitted_at);
        self.events.resumed_at.map_or(last, |r| r.max(last))
    }

    /// Whether the Speaker paused the game: no turn is due meanwhile.
    pub fn paused(&self) -> bool {
        self.events.paused
    }

    /// When `player`'s awaited step is due; none once the game is over,
    /// while it is paused, or when `player` is not awaited.
    pub fn deadline_of(&self, player: &str) -> Option<DateTime<Utc>> {
        if self.events.paused
            || !self
                .awaited_all()
                .iter()
                .any(|p| p.eq_ignore_ascii_case(player))
        {
            return None;
        }
        Some(
            self.policy()
                .due(self.clock_started_of(player), &self.away_of(player)),
        )
    }

    /// When the awaited step is next due (the earliest of the awaited
    /// players'); none once the game is over.
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        let who = self.awaited()?;
        self.deadline_of(&who)
    }

    /// When `player` is away (RULINGS S27).
    pub fn away_of(&self, player: &str) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
        self.events
            .absences
            .iter()
            .filter(|a| a.player.eq_ignore_ascii_case(player))
            .map(|a| a.span())
            .collect()
    }

    /// Every awaited player, in order of play.
    pub(super) fn awaited_all(&self) -> Vec<String> {
        match self.position.next() {
            Next::Act { players, .. } => players,
            Next::Over { .. } => Vec::new(),
        }
    }

    /// The awaited player whose step is due first (the first in order of
    /// play on a tie), if any.
    pub(super) fn awaited(&self) -> Option<String> {
        let all = self.awaited_all();
        if all.len() < 2 || self.events.paused {
            return all.into_iter().next();
        }
        all.into_iter().min_by_key(|p| self.deadline_of(p))
    }

    /// The key of `player`'s reminder for the awaited step: the turn's
    /// number, or in a step several players take at once the number of
    /// eir own next line and eir name.
    pub(super) fn reminder_key(&self, player: &str) -> String {
        let n = self.turns.len() + 1;
        if self.awaited_all().len() < 2 {
            return n.to_string();
        }
        let own = self
            .turns
            .iter()
            .filter(|t| t.player.eq_ignore_ascii_case(player))
            .count();
        format!("{}-{}", own + 1, player.to_lowercase())
    }

    /// The player registered at `address`.
    pub(super) fn player_of(&self, address: &str) -> Option<&str> {
        self.def.player_at(address)
    }

    /// The address of `player`.
    pub(super) fn address_of(&self, player: &str) -> Option<&str> {
        self.def.address_of(player)
    }

    /// The state document, with who plays next and by when: the public's
    /// (a kind with hidden information shows no one's hidden cards in it).
    pub fn document(&self) -> String {
        let due = self.deadline().map(fmt_time);
        self.position.render(&Viewer::Public, due.as_deref())
    }

    /// `player`'s private document (a kind with hidden information), with
    /// eir own deadline.
    pub fn private_document(&self, player: &str) -> Option<String> {
        let due = self.deadline_of(player).map(fmt_time);
        self.position.private(player, due.as_deref())
    }

    /// The log, one numbered line each (a canonical turn may take several).
    pub fn history(&self) -> String {
        let mut s = format!(
            "{} ({}), {} line(s) in the log:\n\n",
            self.def.tag,
            self.def.kind.title(),
            self.turns.len()
        );
        for t in &self.turns {
            let timeout = if t.message_id.starts_with("timeout-") {
                " (Timeout)"
            } else {
                ""
            };
            s.push_str(&format!("{:>4}. {}{timeout}\n", t.n, t.player));
            for l in t.play.lines() {
                s.push_str(&format!("      {l}\n"));
            }
        }
        s
    }
}

/// The position of a game `def` whose log is `turns` (see [`Kind::fold`]).
///
/// [`Kind::fold`]: crate::kinds::Kind::fold
fn fold(
    def: &GameConfigDef,
    turns: &[TurnRow],
    seed: Option<&crate::dice::Seed>,
) -> Result<Position, String> {
    let players: Vec<String> = def.players.iter().map(|p| p.0.clone()).collect();
    let log: Vec<(String, String)> = turns
        .iter()
        .map(|t| (t.player.clone(), t.play.clone()))
        .collect();
    let mut draws = super::dice::SeedDraws::new(seed, &def.tag);
    def.kind
        .fold_drawing(&players, &def.kind_rulings, &log, &mut draws)
        .map_err(|e| e.to_string())
}

impl Referee {
    /// Whether `tag` is a game of a kind other than Volume 1.
    pub(super) fn is_hosted(&self, tag: &str) -> bool {
        self.games.defs.get(tag).is_some_and(|d| !d.is_vol1())
    }

    /// Hosted game `tag` as it stands: cached, or from its snapshot when
    /// it folds the whole log under the kind's encoding, else replayed.
    ///
    /// # Errors
    ///
    /// [`RefereeError::Game`] when there is no such game or its log does
    /// not replay; [`RefereeError::Store`].
    pub fn hosted(&self, store: &Store, tag: &str) -> Result<Hosted, RefereeError> {
        if let Some(h) = self.games.hosted.borrow().get(tag) {
            return Ok(h.clone());
        }
        let bad = |detail: String| RefereeError::Game {
            tag: tag.to_string(),
            detail,
        };
        let mut def = self
            .games
            .defs
            .get(tag)
            .cloned()
            .ok_or_else(|| bad("no such game".into()))?;
        let row = store.game(tag)?.ok_or_else(|| bad("no such game".into()))?;
        let turns = store.turns(tag)?;
        // Late joiners' addresses, from their asks (RULINGS MX13).
        let events = super::hosted_players::fold_events(tag, &store.events(tag)?)?;
        for t in &turns {
            let known = def
                .players
                .iter()
                .any(|p| p.0.eq_ignore_ascii_case(&t.player));
            if t.play == Position::join_line(&t.player) && !known {
                if let Some(a) = events.asks.iter().rev().find(|a| a.name == t.player) {
                    def.players.push((a.name.clone(), a.by.clone()));
                }
            }
        }
        let last = turns.last().map_or(0, |t| t.n);
        let snap = store
            .snapshot(tag)?
            .filter(|s| s.turns == last && s.row.version == def.snapshot_version());
        let dice = super::dice::seed_of(store, tag)?;
        let position = match snap.map(|s| def.kind.decode(&s.row.version, &s.row.state)) {
            Some(Ok(p)) => p,
            _ => fold(&def, &turns, dice.as_ref()).map_err(bad)?,
        };
        let mut h = Hosted {
            def,
            position,
            turns,
            created_at: row.created_at,
            reminded: Vec::new(),
            events,
            dice,
        };
        for p in h.awaited_all() {
            let key = h.reminder_key(&p);
            if store.timer_done(tag, "reminder", &key)? {
                h.reminded.push(key);
            }
        }
        self.games.put_hosted(h.clone());
        Ok(h)
    }

    /// The snapshot of `h` as it stands.
    pub(super) fn hosted_snapshot(&self, h: &Hosted) -> SnapshotRow {
        SnapshotRow {
            game: h.def.tag.clone(),
            version: h.position.encoding().to_string(),
            due_key: self.due_key.clone(),
            due_at: self.hosted_due(h),
            state: h.position.encode(),
        }
    }

    /// Judges the order in `letter` (a [`crate::mail::Request::Order`]'s
    /// `text`) for `h`.
    pub(super) fn hosted_order(
        &self,
        h: &mut Hosted,
        letter: &Letter,
        text: &str,
        received: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let tag = h.def.tag.clone();
        let Some(sender) = h.player_of(&letter.from).map(str::to_string) else {
            out.refuse(format!(
                "{} is not a player's address in {tag}, so its orders are not judged.",
                letter.from
            ));
            return Disposition::new(false, "not a player");
        };
        // An ended game takes no turn: said plainly, not as a turn to
        // correct (there is no next turn and no one is awaited). Its turns
        // are the position's, as its state document counts them: a late
        // join's or a resignation's line of the log is no turn.
        if let Next::Over { winners } = h.position.next() {
            out.refuse(format!(
                "{tag} is over: {} after {} turns, so no turn can be played in it. ARCHIVE \
                 {tag} sends its record.",
                won(&winners),
                h.position.turns()
            ));
            return Disposition::new(false, "game over");
        }
        let (order, repairs) = match h.position.read(text) {
            Ok(read) => read,
            Err(e) => {
                out.refuse(format!(
                    "Your mail holds no order mornbot can read for {tag} ({}): {e}. An order \
                     looks like\n\n{}\n",
                    h.def.kind.title(),
                    indent(h.def.kind.example_order())
                ));
                return Disposition::new(false, "unreadable");
            }
        };
        let n = h.turns.len() + 1;
        // Not the awaited player's: refused, as an illegal turn, but told
        // apart so that the daemon can judge it again after the posts
        // received with it (RULINGS L12).
        // In a step several players take at once, any of them is in turn.
        let all = h.awaited_all();
        let awaited = h.awaited();
        let out_of_turn = !all.is_empty() && !all.iter().any(|a| a.eq_ignore_ascii_case(&sender));
        let mut draws = super::dice::SeedDraws::new(h.dice.as_ref(), &tag);
        let judged = h.position.judge_drawing(&order, &sender, &mut draws);
        match judged {
            Judged::Illegal(breaches) if out_of_turn => {
                let list: String = breaches.iter().map(|b| format!("  - {b}\n")).collect();
                let due = h
                    .deadline()
                    .map_or(String::new(), |d| format!(", due by {}", fmt_time(d)));
                out.refuse(format!(
                    "Your turn for {tag} is refused: it is {}'s turn{due}, not yours.\n\n{list}",
                    if all.len() > 1 {
                        all.join(" and ")
                    } else {
                        awaited.unwrap_or_default()
                    }
                ));
                Disposition::new(false, super::turn::OUT_OF_TURN)
            }
            Judged::Illegal(breaches) => {
                let breaches: Vec<String> = breaches.iter().map(ToString::to_string).collect();
                let body = crate::mail::render::render_for(
                    h.def.kind.id(),
                    "order_illegal",
                    minijinja::context! {
                        n, game => tag, player => sender, breaches, repairs,
                        reason => "Nothing has changed.",
                    },
                );
                out.sender(body);
                Disposition::new(false, "illegal")
            }
            // A hosted game has no Judgment workflow (Volume 1's): the turn
            // does not stand, and the sender is told which rule needs a
            // person.
            Judged::NeedsRuling(rules) => {
                let list: String = rules.iter().map(|b| format!("  - {b}\n")).collect();
                out.refuse(format!(
                    "Your turn {n} of {tag} needs a human ruling, which mornbot cannot give:\n\n\
                     {list}\nNothing has changed; ask the Speaker, or send another turn."
                ));
                Disposition::new(false, "needs ruling")
            }
            Judged::Legal { position, changes } | Judged::Over { position, changes } => {
                let line = h.position.canonical(&order);
                let row = TurnRow {
                    n: n as u64,
                    player: sender.clone(),
                    play: line.clone(),
                    message_id: letter.message_id.clone(),
                    submitted_at: received,
                };
                let before = std::mem::replace(&mut h.position, position);
                h.turns.push(row.clone());
                commit.turns.push((tag.clone(), row));
                commit.draws.extend(draws.made);
                self.private_mails(h, Some(&before), &n.to_string(), received, commit);
                // An open turn (issue 42): the same player is awaited for
                // the rest of it, by the turn's deadline.
                let open = match h.position.next() {
                    Next::Act {
                        players,
                        step,
                        lines_in,
                    } if lines_in > 0
                        && players.iter().any(|p| p.eq_ignore_ascii_case(&sender)) =>
                    {
                        Some(step)
                    }
                    _ => None,
                };
                let due = h.deadline().map(fmt_time);
                let body = crate::mail::render::render_for(
                    h.def.kind.id(),
                    "order_accepted",
                    minijinja::context! {
                        player => sender, n, game => tag, line => indent(&line), changes,
                        repairs, document => h.document(), open, due,
                    },
                );
                // The subject says a win, or a turn left open, as the
                // lounge's list of subjects is how many read it.
                let verdict = if let Next::Over { winners } = h.position.next() {
                    if winners.is_empty() {
                        "legal, and ends the game"
                    } else {
                        "legal, and wins"
                    }
                } else if open.is_some() {
                    "legal, turn open"
                } else {
                    "legal"
                };
                out.game(&tag, &format!("Turn {n}: {sender}, {verdict}"), body);
                self.hosted_picture_on_last(&h.def, &h.position, n, out);
                self.end_if_over(h, letter, received, commit);
                Disposition::new(true, "legal")
            }
        }
    }
}

/// How a game's end reads: who won, or that no one did (a stalemate).
pub(super) fn won(winners: &[String]) -> String {
    if winners.is_empty() {
        "it ended with no winner (a stalemate)".to_string()
    } else {
        format!("{} won", winners.join(" and "))
    }
}

pub(super) fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Referee {
    /// The hosted game a letter's turn-like request is for: an order, a
    /// Volume 1 turn, take-back or workflow step sent to a hosted game.
    pub(super) fn hosted_tag(&self, letter: &Letter) -> Option<String> {
        let tag = letter.game.as_ref().ok()?.to_uppercase();
        let turnlike = matches!(
            letter.request,
            Request::Order { .. }
                | Request::Turn { .. }
                | Request::TakeBack(_)
                | Request::Workflow(_)
        );
        (turnlike && self.is_hosted(&tag)).then_some(tag)
    }

    /// Handles a turn-like letter for hosted game `tag`: an order is
    /// judged; Volume 1's turns, take-backs and buzzes are refused with
    /// what the game's kind reads. The kind of request and the summary.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hosted_mail(
        &self,
        store: &Store,
        tag: &str,
        letter: &Letter,
        received: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
        changed: &mut Option<Hosted>,
    ) -> Result<(String, String), RefereeError> {
        let mut h = self.hosted(store, tag)?;
        let Request::Order { text } = &letter.request else {
            // No take-backs where cards are hidden: a free peek.
            let peek = if matches!(letter.request, Request::TakeBack(_)) && h.def.kind.hides() {
                " An order that stands is final in a game with hidden cards (RULINGS OD12)."
            } else {
                ""
            };
            out.refuse(format!(
                "{tag} is a game of {} ({}): it has no {} of Volume 1.{peek} A turn is one \
                 order, like\n\n{}\n",
                h.def.kind.title(),
                h.def.kind.id(),
                match letter.request {
                    Request::TakeBack(_) => "take-back (Rule 1.3.3)",
                    Request::Workflow(_) => "buzz workflow (Rules 1.16.x)",
                    _ => "GSD or Play line",
                },
                indent(h.def.kind.example_order())
            ));
            return Ok(("order".into(), format!("not {}", h.def.kind)));
        };
        let d = self.hosted_order(&mut h, letter, text, received, out, commit);
        let summary = d.summary().to_string();
        if d.changed() {
            *changed = Some(h);
        }
        Ok(("order".into(), summary))
    }
}

impl Referee {
    /// After a commit that logged lines of hosted games outside their
    /// turns (a late join, a resignation): each is loaded again, its
    /// players' addresses recorded, and rescheduled.
    pub(super) fn refresh_hosted(
        &mut self,
        store: &mut Store,
        commit: &Commit,
    ) -> Result<(), RefereeError> {
        let mut tags: Vec<&String> = commit.turns.iter().map(|(t, _)| t).collect();
        tags.extend(commit.events.iter().map(|(t, _, _)| t));
        tags.sort();
        tags.dedup();
        for tag in tags {
            if !self.is_hosted(tag) {
                continue;
            }
            self.games.hosted.borrow_mut().remove(tag.as_str());
            let h = self.hosted(store, tag)?;
            let known = self.games.defs.get(tag.as_str()).map(|d| &d.players);
            if known != Some(&h.def.players) {
                let json = serde_json::to_string(&super::Definition {
                    config: h.def.clone(),
                })
                .expect("serialisable");
                store.set_definitions(&[(tag.clone(), json)])?;
                self.games.add(tag.clone(), h.def.clone());
            }
            self.reschedule_hosted(&h);
        }
        Ok(())
    }
}

impl Referee {
    /// Once `h`'s game is over, in the commit that ended it: records its
    /// end for the Game Archive's list and reveals the seed of its dice
    /// (RULINGS S14).
    pub(super) fn end_if_over(
        &self,
        h: &Hosted,
        letter: &Letter,
        at: DateTime<Utc>,
        commit: &mut Commit,
    ) {
        if let Next::Over { winners } = h.position.next() {
            let tag = &h.def.tag;
            // Listed by ARCHIVE with the Volume 1 games; no Points (they
            // are Volume 1's, Rule 1.1.9).
            commit.ending.push(crate::store::EndingOp::Finished {
                game: tag.clone(),
                winner: if winners.is_empty() {
                    "no one (a stalemate)".to_string()
                } else {
                    winners.join(", ")
                },
                turns: h.position.turns() as usize,
            });
            let th = Thread::answering(tag, format!("{}#end-{tag}", letter.message_id), letter);
            self.reveal_seed(tag, h.dice.as_ref(), commit, &th, at);
        }
    }
}
