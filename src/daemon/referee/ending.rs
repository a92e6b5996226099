//! How games end by mail (issue 17, item 4): a player's own `RESIGN
//! [game]` (Rule 1.1.3; the Speaker's path, reused), and the Stalemate
//! (Rule 1.1.11; RULINGS S22): `STALEMATE [game]` from each Active non-Drone
//! player, then the Speaker's `CONFIRM STALEMATE <game>` or `REFUSE
//! STALEMATE <game>`. Every game's end is recorded once, with its Points
//! (Rule 1.1.9), by [`Referee::record_end`]. The answers to `POINTS` and
//! `ARCHIVE` are in `archive.rs`.

use chrono::{DateTime, Utc};

use super::notice::{self, Thread};
use super::speaker::{speaker_command, SpeakerDone};
use super::{Command, Event, Letter, Live, Out, Referee, RefereeError, Request};
use crate::mail::request::StalemateStep;
use crate::mail::wrap::verbatim;
use crate::speaker::points::{Field, Outcome};
use crate::speaker::stalemate::{tally, Agreement, Tally};
use crate::store::{Commit, Ending, EndingOp, Store};

/// A command of a player's (or the Speaker's) that may end a game, with
/// the game it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Act {
    /// The sender Resigns.
    Resign(Option<String>),
    /// A step towards a Stalemate.
    Stalemate(StalemateStep, Option<String>),
}

/// What an act did to its game: the game changed, and the summary.
type Done = (bool, String);

impl Referee {
    /// Handles a mail holding an ending act (answering its other commands
    /// too); `None` when it holds none. One game a mail: the first act's.
    pub(super) fn ending_mail(
        &self,
        store: &Store,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<Option<SpeakerDone>, RefereeError> {
        let Request::Commands(cmds) = &letter.request else {
            return Ok(None);
        };
        if cmds.len() > self.limits.commands_per_mail {
            // Refused whole where every command mail is ([limits]).
            return Ok(None);
        }
        let (mut acts, mut rest) = (Vec::new(), Vec::new());
        for c in cmds {
            match self.act_of(c, &letter.from) {
                Some(a) => acts.push(a),
                None => rest.push(c.clone()),
            }
        }
        let Some(first) = acts.first() else {
            return Ok(None);
        };
        let hint = match first {
            Act::Resign(g) | Act::Stalemate(_, g) => g.clone(),
        };
        let Some(tag) = self.ending_game(letter, hint.as_deref(), out) else {
            return Ok(Some((None, None, "ending: game unknown".into())));
        };
        if self.is_hosted(&tag) {
            let said = self.hosted_ending(store, &tag, &acts, letter, at, out, commit)?;
            if !rest.is_empty() {
                self.commands(store, &rest, out)?;
            }
            return Ok(Some((Some(tag), None, said)));
        }
        let mut live = self.live(store, &tag)?;
        let mut agreements = store.stalemate_agreements(&tag)?;
        let (mut changed, mut said) = (false, Vec::new());
        for act in &acts {
            let named = match act {
                Act::Resign(g) | Act::Stalemate(_, g) => g.as_deref(),
            };
            if named.is_some_and(|g| !g.eq_ignore_ascii_case(&tag)) {
                out.refuse(format!(
                    "One game a mail: this one is about {tag}, so \"{}\" was not done; send it \
                     in a mail of its own.",
                    describe(act)
                ));
                continue;
            }
            let d = match act {
                Act::Resign(_) => self.resign_by_mail(&mut live, letter, at, out, commit),
                Act::Stalemate(step, _) => {
                    self.stalemate(&mut live, &mut agreements, *step, letter, at, out, commit)
                }
            };
            changed |= d.0;
            said.push(d.1);
        }
        // The game keeps its agreements: once all agree it waits on the
        // Speaker (RULINGS S31), which changes its due time.
        changed |= super::late::sync_stalemate(&mut live, &agreements, at);
        if !rest.is_empty() {
            self.commands(store, &rest, out)?;
        }
        Ok(Some((Some(tag), changed.then_some(live), said.join("; "))))
    }

    /// The ending act a command is, from `from`: a Stalemate step, or a
    /// `RESIGN` naming no one (or the sender's own player).
    fn act_of(&self, c: &Command, from: &str) -> Option<Act> {
        match c {
            Command::Stalemate(step, g) => Some(Act::Stalemate(*step, g.clone())),
            Command::Speaker(line) => {
                let (verb, arg) = speaker_command(line)?;
                if verb != "RESIGN" {
                    return None;
                }
                let game = line
                    .split_whitespace()
                    .skip(1)
                    .map(|w| w.trim_matches(['[', ']']).to_ascii_uppercase())
                    .find(|w| self.has_game(w));
                match arg {
                    None => Some(Act::Resign(game)),
                    Some(name) if self.plays_as(from, &name) => Some(Act::Resign(game)),
                    Some(_) => None,
                }
            }
            _ => None,
        }
    }

    /// Whether `address` is registered as a player named `name` in some game.
    fn plays_as(&self, address: &str, name: &str) -> bool {
        self.games.defs.values().any(|d| {
            d.players.iter().any(|(n, a)| {
                n.eq_ignore_ascii_case(name) && crate::mail::address::same(a, address)
            })
        })
    }

    /// The game an ending act is about: the one it names, the mail's, or
    /// the sender's only game; else the sender is asked.
    pub(super) fn ending_game(
        &self,
        letter: &Letter,
        named: Option<&str>,
        out: &mut Out,
    ) -> Option<String> {
        if let Some(t) = named.map(str::to_uppercase) {
            if self.has_game(&t) {
                return Some(t);
            }
            out.refuse(format!(
                "There is no game {t} in this lounge. The games are: {}.",
                super::listed(self.tags())
            ));
            return None;
        }
        if letter.game.is_err() {
            let mine: Vec<&String> = self
                .games
                .defs
                .iter()
                .filter(|(_, d)| {
                    d.players
                        .iter()
                        .any(|(_, a)| crate::mail::address::same(a, &letter.from))
                })
                .map(|(t, _)| t)
                .collect();
            if let [only] = mine[..] {
                return Some(only.clone());
            }
        }
        self.which_game(letter, out)
    }

    /// A player Resigns by eir own message (Rule 1.1.3): as the Speaker's
    /// `RESIGN` does it.
    fn resign_by_mail(
        &self,
        live: &mut Live,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Done {
        let tag = live.game.tag.clone();
        let Some(player) = live.player_of(&letter.from).map(str::to_string) else {
            out.refuse(self.not_a_player(&letter.from, &tag, "Resign from it (Rule 1.1.3)"));
            return (false, "resign refused: not a player".into());
        };
        if let Some(why) = over(live) {
            out.refuse(why);
            return (false, "resign refused: game over".into());
        }
        if live.game.state.player_index(&player).is_none() {
            out.refuse(format!("{player} has already Resigned from {tag}."));
            return (false, "resign refused: already resigned".into());
        }
        let why = format!("{player} Resigns from {tag} by eir own message (Rule 1.1.3)");
        let key = format!("resign-{tag}-{}", letter.message_id);
        self.resign_because(live, &player, at, commit, &why, &key);
        out.sender(self.notice(format!(
            "You have Resigned from {tag} (Rule 1.1.3); the lounge is told."
        )));
        (true, format!("{player} resigned from {tag}"))
    }

    /// Refusal text for a sender who is no player of `tag`, naming the
    /// games e does play.
    pub(super) fn not_a_player(&self, from: &str, tag: &str, what: &str) -> String {
        let theirs: Vec<&String> = self
            .games
            .defs
            .iter()
            .filter(|(_, d)| {
                d.players
                    .iter()
                    .any(|(_, a)| crate::mail::address::same(a, from))
            })
            .map(|(t, _)| t)
            .collect();
        let also = if theirs.is_empty() {
            String::new()
        } else {
            format!(
                " That address plays {}; name that game, e.g. \"STALEMATE {}\" or \"RESIGN {}\".",
                super::listed(theirs.iter().copied()),
                theirs[0],
                theirs[0]
            )
        };
        format!(
            "{from} is not the registered address of any player of {tag}, so it cannot {what}.{also}"
        )
    }

    /// One step towards a Stalemate (Rule 1.1.11, RULINGS S22).
    #[allow(clippy::too_many_arguments)]
    fn stalemate(
        &self,
        live: &mut Live,
        agreements: &mut Vec<Agreement>,
        step: StalemateStep,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Done {
        let tag = live.game.tag.clone();
        if let Some(why) = over(live) {
            out.refuse(why);
            return (false, "stalemate refused: game over".into());
        }
        let speakers = matches!(step, StalemateStep::Confirm | StalemateStep::Refuse);
        if speakers && !self.is_speaker(&letter.from) {
            out.refuse(format!(
                "\"{} STALEMATE {tag}\" is the Speaker's to send (Rule 1.1.11), and {} is not \
                 one of the Speaker's addresses. A player agrees with \
                 \"STALEMATE {tag}\".",
                if step == StalemateStep::Confirm {
                    "CONFIRM"
                } else {
                    "REFUSE"
                },
                letter.from
            ));
            return (false, "stalemate refused: not the Speaker".into());
        }
        let th = Thread::answering(&tag, format!("{}#stalemate", letter.message_id), letter);
        match step {
            StalemateStep::Agree | StalemateStep::Withdraw => {
                self.agreement(live, agreements, step, letter, out, commit, &th, at)
            }
            StalemateStep::Confirm => {
                let t = self.tally(live, agreements);
                if !t.complete() {
                    out.refuse(format!(
                        "Not every Active non-Drone player of {tag} agrees a Stalemate (Rule \
                         1.1.11): still to agree: {}.",
                        names(&t.missing)
                    ));
                    return (false, "stalemate confirm refused: not agreed".into());
                }
                live.ended = true;
                self.record_end(live, commit);
                self.announce(commit, &th, "Game over: a Stalemate".to_string(),
                    format!("Every Active non-Drone player of {tag} agreed ({}), and the Speaker declares the game over in Stalemate (Rule 1.1.11): no one has Won or Lost, and no one's Points change (Rule 1.1.9). Thank you all for playing.\n\nThe final GSD:\n\n{}",
                        names(&t.agreed), verbatim(&crate::kinds::vol1::document(&live.game, self.map))), at);
                self.reveal_dice(live, commit, &th, at);
                out.sender(self.notice(format!("{tag} is over: a Stalemate.")));
                (true, format!("{tag} ended in stalemate"))
            }
            StalemateStep::Refuse => {
                if self.tally(live, agreements).agreed.is_empty() {
                    out.refuse(format!(
                        "No player of {tag} agrees a Stalemate now, so there is nothing to \
                         refuse."
                    ));
                    return (false, "stalemate refuse: nothing agreed".into());
                }
                agreements.clear();
                commit.ending.push(EndingOp::Clear { game: tag.clone() });
                self.announce(commit, &th, "No Stalemate: play goes on".to_string(),
                    format!("The Speaker does not declare {tag} over (Rule 1.1.11): play goes on, and every agreement to a Stalemate is void (RULINGS S22). {}", notice::whose_turn(live)), at);
                out.sender(self.notice(format!("The Stalemate of {tag} is refused.")));
                (false, format!("{tag} stalemate refused by the Speaker"))
            }
        }
    }

    /// The player a Stalemate step comes from, if e may take it: an Active
    /// non-Drone player of the game, agreeing anew or withdrawing an
    /// agreement that stands; else the refusal, said to the sender.
    fn agreeing_player(
        &self,
        live: &Live,
        agreements: &[Agreement],
        withdraw: bool,
        letter: &Letter,
        out: &mut Out,
    ) -> Result<String, Done> {
        let tag = live.game.tag.clone();
        let Some(player) = live.player_of(&letter.from).map(str::to_string) else {
            out.refuse(self.not_a_player(
                &letter.from,
                &tag,
                "agree a Stalemate in it (Rule 1.1.11)",
            ));
            return Err((false, "stalemate refused: not a player".into()));
        };
        let before = self.tally(live, agreements);
        let is_active = before
            .agreed
            .iter()
            .chain(&before.missing)
            .any(|p| p.eq_ignore_ascii_case(&player));
        if !is_active {
            out.refuse(format!(
                "Only the Active non-Drone players of {tag} agree a Stalemate (Rule 1.1.11), \
                 and {player} is not one now (Resigned, or Inactive)."
            ));
            return Err((false, "stalemate refused: not active".into()));
        }
        let agreed = before
            .agreed
            .iter()
            .any(|p| p.eq_ignore_ascii_case(&player));
        if agreed != withdraw {
            out.refuse(if withdraw {
                format!("{player} has no agreement to a Stalemate of {tag} standing to withdraw.")
            } else {
                format!(
                    "{player} already agrees a Stalemate of {tag}. Still to agree: {}.",
                    names(&before.missing)
                )
            });
            return Err((false, "stalemate: nothing to do".into()));
        }
        Ok(player)
    }

    /// A player agrees a Stalemate, or withdraws eir agreement.
    #[allow(clippy::too_many_arguments)]
    fn agreement(
        &self,
        live: &Live,
        agreements: &mut Vec<Agreement>,
        step: StalemateStep,
        letter: &Letter,
        out: &mut Out,
        commit: &mut Commit,
        th: &Thread,
        at: DateTime<Utc>,
    ) -> Done {
        let tag = live.game.tag.clone();
        let withdraw = step == StalemateStep::Withdraw;
        let player = match self.agreeing_player(live, agreements, withdraw, letter, out) {
            Ok(p) => p,
            Err(done) => return done,
        };
        agreements.retain(|a| !a.player.eq_ignore_ascii_case(&player));
        if withdraw {
            commit.ending.push(EndingOp::Withdraw {
                game: tag.clone(),
                player: player.clone(),
            });
        } else {
            let a = Agreement {
                player: player.clone(),
                turns: live.turns.len(),
                last: live
                    .turns
                    .last()
                    .map(|t| t.message_id.clone())
                    .unwrap_or_default(),
            };
            agreements.push(a.clone());
            commit.ending.push(EndingOp::Agree {
                game: tag.clone(),
                agreement: a,
            });
        }
        let t = self.tally(live, agreements);
        let mut text = if withdraw {
            format!("{player} withdraws eir agreement that {tag} has reached a Stalemate (Rule 1.1.11).")
        } else {
            format!("{player} agrees that {tag} has reached a Stalemate (Rule 1.1.11). An agreement stands until the next turn is logged (RULINGS S22); WITHDRAW STALEMATE {tag} takes it back.")
        };
        text.push_str(&format!(
            "\n\nAgreed: {}. Still to agree: {}.",
            names(&t.agreed),
            names(&t.missing)
        ));
        if t.complete() {
            text.push_str(&format!("\n\nEvery Active non-Drone player agrees. The Speaker may declare {tag} over with \"CONFIRM STALEMATE {tag}\", or refuse with \"REFUSE STALEMATE {tag}\"."));
            self.ask_speaker(&tag, &t, th, at, commit);
        }
        let headline = if withdraw {
            "Stalemate agreement withdrawn"
        } else {
            "Stalemate agreed"
        };
        self.announce(commit, th, format!("{headline} by {player}"), text, at);
        out.sender(self.notice(format!("Done: {headline} in {tag}; the lounge is told.")));
        (
            false,
            format!(
                "{player} {}",
                if withdraw {
                    "withdrew stalemate"
                } else {
                    "agreed stalemate"
                }
            ),
        )
    }

    /// Asks the Speaker's addresses to confirm or refuse an agreed
    /// Stalemate (Rule 1.1.11).
    fn ask_speaker(
        &self,
        tag: &str,
        t: &Tally,
        th: &Thread,
        at: DateTime<Utc>,
        commit: &mut Commit,
    ) {
        if self.speaker.addresses.is_empty() {
            return;
        }
        let r = self.notice_mail(
            &th.sub("#speaker"),
            self.speaker.addresses.clone(),
            "Stalemate agreed: your decision",
            &self.notice(format!("Every Active non-Drone player of {tag} agrees a Stalemate ({}). Reply \"CONFIRM STALEMATE {tag}\" to end the game with no winner (Rule 1.1.11), or \"REFUSE STALEMATE {tag}\".", names(&t.agreed))),
            at,
        );
        self.queue(commit, &r);
    }

    /// The game's Stalemate tally now.
    fn tally(&self, live: &Live, agreements: &[Agreement]) -> Tally {
        let active: Vec<String> = live
            .game
            .state
            .players
            .iter()
            .filter(|p| p.active && !crate::kinds::vol1::is_reserved(&p.name))
            .map(|p| p.name.clone())
            .collect();
        let last = live.turns.last().map_or("", |t| t.message_id.as_str());
        tally(&active, agreements, live.turns.len(), last)
    }

    /// Records that `live` has ended, once, with the Points its end gives
    /// (Rule 1.1.9): won by its winner, or (no winner) a Stalemate. Every
    /// end of a game comes here.
    pub(super) fn record_end(&self, live: &Live, commit: &mut Commit) {
        Event::Ended(live.turns.len()).record(&live.game.tag, commit);
        commit.ending.push(EndingOp::Ended(ending_of(live)));
    }

    /// Scores the games that ended before this build kept Points (RULINGS
    /// S36): each once, in the order they ended, at the time it ended; run
    /// once a database (the `meta` key says it ran). How many it scored.
    ///
    /// # Errors
    ///
    /// [`RefereeError`] when the database fails or a game does not load.
    pub fn score_old_endings(&mut self, store: &mut Store) -> Result<usize, RefereeError> {
        const DONE: &str = "endings_backfilled";
        if store.meta(DONE)?.is_some() {
            return Ok(0);
        }
        let mut n = 0;
        for (tag, at) in store.endings_missing()? {
            if !self.has_game(&tag) {
                continue;
            }
            let live = self.live(store, &tag)?;
            if !live.ended {
                continue;
            }
            store.commit(&Commit {
                received_at: Some(at),
                ending: vec![EndingOp::Ended(ending_of(&live))],
                ..Commit::default()
            })?;
            tracing::info!(game = %tag, "scored a game that ended before Points were kept");
            n += 1;
        }
        store.set_meta(DONE, "1")?;
        Ok(n)
    }
}

/// The record of `live`'s end: won by its winner, or (no winner) a
/// Stalemate, with who finished and who Resigned.
fn ending_of(live: &Live) -> Ending {
    let outcome = match &live.game.state.winner {
        Some(w) => Outcome::Won(w.clone()),
        None => Outcome::Stalemate,
    };
    let field = Field {
        finishers: live
            .game
            .state
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect(),
        resigned: live.game.resigned.iter().map(|(_, n)| n.clone()).collect(),
    };
    Ending {
        game: live.game.tag.clone(),
        outcome,
        field,
        turns: live.turns.len(),
    }
}

/// Why nothing more can happen in `live`, when it is over.
pub(super) fn over(live: &Live) -> Option<String> {
    let tag = &live.game.tag;
    match &live.game.state.winner {
        Some(w) => Some(format!("{tag} is over: {w} has won.")),
        None if live.ended => Some(format!("{tag} is over (a Stalemate).")),
        None => None,
    }
}

fn names(n: &[String]) -> String {
    if n.is_empty() {
        "no one".into()
    } else {
        n.join(", ")
    }
}

fn describe(a: &Act) -> String {
    match a {
        Act::Resign(g) => format!("RESIGN {}", g.as_deref().unwrap_or("")),
        Act::Stalemate(s, g) => format!("{s:?} STALEMATE {}", g.as_deref().unwrap_or("")),
    }
    .trim()
    .to_string()
}
