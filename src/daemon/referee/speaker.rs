//! The Speaker by mail (issue 13, item 4): the addresses in `[speaker]
//! addresses` may settle a turn a human must settle, by a Judgment or by
//! posting the GSD that carries it, and use the Speaker's commands
//! (`RESIGN <player>`, `VOID`, `PAUSE`, `RESUME`, each with an optional
//! game tag). Everything the Speaker does is logged as an event and
//! answered; the Speaker's word stands (RULINGS S11, S13).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::notice::Thread;
use super::{Command, Letter, Live, Out, Referee, RefereeError, Request, Workflow};
use super::{Disposition, Event, Judged, Paused};
use crate::kinds::vol1::{parse_gsd, render_play};
use crate::mail::wrap::verbatim;
use crate::speaker::buzz::Step;
use crate::store::{Commit, Store, TurnRow};

/// A turn the engine did not apply and a human must settle: refused (the
/// bot's Buzz) or beyond the engine ("needs a human ruling").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// Its turn number.
    pub turn: u64,
    /// Its player.
    pub player: String,
    /// The play, canonical.
    pub play: String,
    /// The message that carried it.
    pub message_id: String,
    /// When it arrived.
    pub submitted_at: DateTime<Utc>,
    /// Whether it needs a ruling (else the engine found it Illegal).
    pub ruling: bool,
}

/// What a Speaker's message asks, when it is a Speaker's request.
enum Ask {
    Judgment(bool),
    Gsd(String),
    Commands(Vec<(String, Option<String>)>),
}

/// What a Speaker's mail did: its game, the game changed (if it was), a
/// summary.
pub(super) type SpeakerDone = (Option<String>, Option<Live>, String);

impl Referee {
    /// Whether `address` is one of the Speaker's.
    pub fn is_speaker(&self, address: &str) -> bool {
        self.speaker
            .addresses
            .iter()
            .any(|a| crate::mail::address::same(a, address))
    }

    /// The Speaker's request in a letter, if the letter is one: a
    /// Judgment, a GSD, or Speaker commands. Anything else from the Speaker
    /// is handled as from anyone.
    fn speaker_ask(&self, letter: &Letter) -> Option<Ask> {
        if !self.is_speaker(&letter.from) {
            return None;
        }
        match &letter.request {
            Request::Workflow(Workflow::Judgment { legal }) => Some(Ask::Judgment(*legal)),
            Request::Turn {
                text, gsd: true, ..
            } => Some(Ask::Gsd(text.clone())),
            Request::Commands(cmds) => {
                let ours: Vec<(String, Option<String>)> = cmds
                    .iter()
                    .filter_map(|c| match c {
                        Command::Speaker(s) => speaker_command(s),
                        _ => None,
                    })
                    .collect();
                (!ours.is_empty()).then_some(Ask::Commands(ours))
            }
            _ => None,
        }
    }

    /// A Speaker's request for hosted game `tag`: `RESIGN <player>` takes a
    /// player out (RULINGS MX15), `PAUSE` and `RESUME` stop and restart its
    /// clock; Judgments, GSDs and `VOID` are Volume 1's, refused with why.
    #[allow(clippy::too_many_arguments)]
    fn hosted_speaker(
        &self,
        store: &Store,
        tag: &str,
        ask: Ask,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let mut h = self.hosted(store, tag)?;
        let kind = h.def.kind;
        let Ask::Commands(cmds) = ask else {
            out.refuse(format!(
                "{tag} is a game of {kind}: it has no Judgments or GSDs (Volume 1's)."
            ));
            return Ok("speaker: not this kind".into());
        };
        let mut said = Vec::new();
        for (cmd, arg) in cmds {
            match (cmd.as_str(), arg) {
                ("RESIGN", Some(name)) => {
                    if self.hosted_resign(&mut h, &name, letter, at, out, commit) {
                        said.push(format!("speaker: {name} resigned"));
                    }
                }
                (verb @ ("PAUSE" | "RESUME"), _) => {
                    let pause = verb == "PAUSE";
                    if self.hosted_pause(&mut h, pause, at, out, commit) {
                        said.push(format!("speaker: {}", verb.to_ascii_lowercase()));
                    }
                }
                (other, _) => {
                    out.refuse(format!(
                        "{other} is not available for {tag}, a game of {kind}: RESIGN \
                         <player>, PAUSE and RESUME are, besides what the players send."
                    ));
                    said.push(format!("speaker: {other} not this kind"));
                }
            }
        }
        Ok(said.join("; "))
    }

    /// Handles a Speaker's message; `None` when it is not one (handled as
    /// from anyone). Returns the game, the changed game, and a summary.
    pub(super) fn speaker_mail(
        &self,
        store: &Store,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<Option<SpeakerDone>, RefereeError> {
        let Some(ask) = self.speaker_ask(letter) else {
            return Ok(None);
        };
        let Some(tag) = self.which_game(letter, out) else {
            return Ok(Some((None, None, "speaker: game unknown".into())));
        };
        if self.is_hosted(&tag) {
            let said = self.hosted_speaker(store, &tag, ask, letter, at, out, commit)?;
            return Ok(Some((Some(tag), None, said)));
        }
        let mut live = self.live(store, &tag)?;
        let done = match ask {
            Ask::Judgment(legal) => {
                self.speaker_judgment(&mut live, legal, letter, at, out, commit)
            }
            Ask::Gsd(text) => match self.refuse_over_limits(&text, true, out) {
                Some(refused) => refused,
                None => match parse_gsd(&text, self.map) {
                    Ok(g) => {
                        let n = live.game.plays.len();
                        let adds = live
                            .pending
                            .as_ref()
                            .filter(|_| g.plays.len() == n + 1)
                            .is_some_and(|p| render_play(&g.plays[n]) == p.play);
                        if adds {
                            self.speaker_judgment(&mut live, true, letter, at, out, commit)
                        } else {
                            out.refuse(format!(
                                "A GSD from the Speaker settles a turn awaiting Judgment in {tag} \
                             when it adds that turn, and only that turn, to the log; this one \
                             does not. Reply \"Judgment: Legal\" or \
                             \"Judgment: Illegal\" instead."
                            ));
                            Disposition::Unchanged("speaker gsd refused".into())
                        }
                    }
                    Err(e) => {
                        out.refuse(format!("The GSD does not parse: {e}"));
                        Disposition::Unchanged("speaker gsd unreadable".into())
                    }
                },
            },
            Ask::Commands(cmds) => {
                let mut any = false;
                let mut said = Vec::new();
                for (cmd, arg) in cmds {
                    let d = self.speaker_command(&mut live, &cmd, arg.as_deref(), at, commit);
                    any |= d.changed();
                    said.push(d.summary().to_string());
                }
                if let Request::Commands(all) = &letter.request {
                    // Stalemate steps are answered apart (`ending.rs`).
                    if all.iter().any(|c| matches!(c, Command::Stalemate(..))) {
                        said.push(
                            "The Stalemate step was not done: send it in a mail of its own.".into(),
                        );
                    }
                }
                out.sender(self.notice(said.join("\n\n")));
                Disposition::new(any, "speaker commands")
            }
        };
        let summary = done.summary().to_string();
        Ok(Some((Some(tag), done.changed().then_some(live), summary)))
    }

    /// The Speaker's Judgment on the game's Questionable Turn or on the
    /// turn awaiting a ruling.
    fn speaker_judgment(
        &self,
        live: &mut Live,
        legal: bool,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let tag = live.game.tag.clone();
        let th = Thread::answering(&tag, format!("{}#speaker", letter.message_id), letter);
        if let Some(q) = live.questionable.clone() {
            let Ok(Some(settled)) = self.step(live, Step::Speaker { legal }, at, commit) else {
                out.refuse(format!("Turn {} of {tag} cannot be settled now.", q.turn));
                return Disposition::Unchanged("speaker judgment refused".into());
            };
            self.settle(live, &q, settled, at, commit, &th);
            return Disposition::Changed(format!("speaker judgment: {settled:?}"));
        }
        let Some(p) = live.pending.clone() else {
            out.refuse(format!(
                "No turn of {tag} awaits a Judgment: nothing is Questionable and no turn \
                 needs a ruling."
            ));
            return Disposition::Unchanged("speaker judgment: nothing pending".into());
        };
        live.pending = None;
        if legal {
            let applied = self.apply_judged(live, &p, commit);
            let text = if applied {
                format!(
                    "The Speaker judges {}'s turn {} of {tag} Legal, and it stands (Rule \
                     1.16.4; the Speaker's word stands):\n\n    {}\n\nmornbot applied it as \
                     far as its engine models the rules. {} The GSD:\n\n{}",
                    p.player,
                    p.turn,
                    p.play,
                    super::notice::whose_turn(live),
                    verbatim(&crate::kinds::vol1::document(&live.game, self.map))
                )
            } else {
                format!(
                    "The Speaker judges {}'s turn {} of {tag} Legal, but it is no longer {}'s \
                     turn to play, so it cannot be applied; nothing changed.",
                    p.player, p.turn, p.player
                )
            };
            self.announce(
                commit,
                &th,
                format!("Turn {}: Legal by Judgment", p.turn),
                text,
                at,
            );
            Disposition::new(applied, "speaker judgment: Legal")
        } else {
            Event::Judged(Judged {
                turn: p.turn,
                legal: false,
            })
            .record(&tag, commit);
            self.announce(
                commit,
                &th,
                format!("Turn {}: Illegal by Judgment", p.turn),
                format!(
                    "The Speaker judges {}'s turn {} of {tag} Illegal: it never happened \
                     (Rule 1.16.1).\n\n    {}\n\n{}",
                    p.player,
                    p.turn,
                    p.play,
                    super::notice::whose_turn(live)
                ),
                at,
            );
            Disposition::Changed("speaker judgment: Illegal".into())
        }
    }

    /// Records the turn awaiting a Judgment.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn set_pending(
        &self,
        live: &mut Live,
        n: usize,
        player: &str,
        play: &str,
        letter: &Letter,
        at: DateTime<Utc>,
        ruling: bool,
        commit: &mut Commit,
    ) {
        let p = Pending {
            turn: n as u64,
            player: player.to_string(),
            play: play.to_string(),
            message_id: letter.message_id.clone(),
            submitted_at: at,
            ruling,
        };
        Event::Pending(p.clone()).record(&live.game.tag, commit);
        live.pending = Some(p);
    }

    /// Logs a turn made Legal by Judgment and plays it as far as the
    /// engine can; false when it is not that player's turn any more.
    pub(super) fn apply_judged(&self, live: &mut Live, p: &Pending, commit: &mut Commit) -> bool {
        let tag = live.game.tag.clone();
        if live.game.plays.len() as u64 + 1 != p.turn {
            return false;
        }
        let Ok(play) = crate::kinds::vol1::parse_play(&p.play, self.map) else {
            return false;
        };
        if live.game.play_by_judgment(self.map, play).is_none() {
            return false;
        }
        let row = TurnRow {
            n: p.turn,
            player: p.player.clone(),
            play: p.play.clone(),
            message_id: p.message_id.clone(),
            submitted_at: p.submitted_at,
        };
        live.turns.push(row.clone());
        commit.turns.push((tag.clone(), row));
        Event::Judged(Judged {
            turn: p.turn,
            legal: true,
        })
        .record(&tag, commit);
        true
    }

    /// One Speaker command: whether it changed the game, and what was done.
    fn speaker_command(
        &self,
        live: &mut Live,
        cmd: &str,
        arg: Option<&str>,
        at: DateTime<Utc>,
        commit: &mut Commit,
    ) -> Disposition {
        let tag = live.game.tag.clone();
        let key = format!("speaker-{tag}-{cmd}-{}", at.timestamp_millis());
        let th = Thread::clock(&tag, key.clone());
        match cmd {
            "RESIGN" => {
                let Some(name) = arg else {
                    return Disposition::Unchanged("RESIGN needs a player's name.".into());
                };
                let Some(player) = live
                    .game
                    .state
                    .players
                    .iter()
                    .find(|p| p.name.eq_ignore_ascii_case(name))
                    .map(|p| p.name.clone())
                else {
                    return Disposition::Unchanged(format!("{name} is not a player of {tag}."));
                };
                self.resign_by_speaker(live, &player, at, commit, &key);
                Disposition::Changed(format!("{player} is Resigned from {tag} (Rule 1.1.3)."))
            }
            "VOID" => {
                if live.questionable.is_some() {
                    return Disposition::Unchanged(format!(
                        "A turn of {tag} is Questionable: settle it by Judgment instead."
                    ));
                }
                let Some(last) = live.turns.last().cloned() else {
                    return Disposition::Unchanged(format!("{tag} has no turn to void."));
                };
                let keep = live.turns.len() - 1;
                live.turns.truncate(keep);
                live.game.truncate(self.map, keep);
                commit.truncate.push((tag.clone(), keep as u64));
                self.announce(commit, &th, format!("Turn {} voided by the Speaker", last.n),
                    format!("The Speaker voids {}'s turn {} of {tag}: it never happened.\n\n    {}\n\n{} The GSD:\n\n{}",
                        last.player, last.n, last.play, super::notice::whose_turn(live), verbatim(&crate::kinds::vol1::document(&live.game, self.map))), at);
                Disposition::Changed(format!("Turn {} of {tag} is void.", last.n))
            }
            "PAUSE" | "RESUME" => {
                let pause = cmd == "PAUSE";
                if live.paused == pause {
                    return Disposition::Unchanged(format!(
                        "{tag} is already {}.",
                        if pause { "paused" } else { "running" }
                    ));
                }
                live.paused = pause;
                if !pause {
                    // The awaited player's 36 hours start again now.
                    live.resumed_at = Some(at);
                }
                Event::Paused(Paused { paused: pause, at }).record(&tag, commit);
                let text = if pause {
                    format!("The Speaker pauses {tag}: no turn is due and no Timeout runs until the Speaker resumes it.")
                } else {
                    format!(
                        "The Speaker resumes {tag}. {}",
                        super::notice::whose_turn(live)
                    )
                };
                self.announce(
                    commit,
                    &th,
                    format!(
                        "{} by the Speaker",
                        if pause { "Paused" } else { "Resumed" }
                    ),
                    text,
                    at,
                );
                Disposition::Changed(format!(
                    "{tag} is {}.",
                    if pause { "paused" } else { "resumed" }
                ))
            }
            _ => Disposition::Unchanged(format!("Unknown Speaker command {cmd}.")),
        }
    }
}

/// The turn awaiting a Judgment and whether the game is paused, from a
/// game's events and its number of logged turns.
pub(super) fn load(events: &[(DateTime<Utc>, Event)], n_turns: usize) -> (Option<Pending>, bool) {
    let mut pending: Option<Pending> = None;
    let mut paused = false;
    for (_, e) in events {
        match e {
            Event::Pending(p) => pending = Some(p.clone()),
            Event::Judged(j) if pending.as_ref().is_some_and(|p| p.turn == j.turn) => {
                pending = None;
            }
            Event::Paused(p) => paused = p.paused,
            _ => {}
        }
    }
    // Moot once the log moved on (the player played again, or a rollback).
    let pending = pending.filter(|p| p.turn == n_turns as u64 + 1);
    (pending, paused)
}

/// A Speaker command line (`RESIGN Cryer MN1`, `VOID [MN1]`, `PAUSE`,
/// `RESUME`): its verb and its argument (a game tag is read by the
/// classifier from the line or subject).
pub(super) fn speaker_command(line: &str) -> Option<(String, Option<String>)> {
    let mut words = line.split_whitespace();
    let verb = words.next()?.to_ascii_uppercase();
    if !matches!(verb.as_str(), "RESIGN" | "VOID" | "PAUSE" | "RESUME") {
        return None;
    }
    let arg = words
        .find(|w| !w.starts_with('[') && !looks_like_tag(w))
        .map(str::to_string);
    Some((verb, arg))
}

fn looks_like_tag(w: &str) -> bool {
    let w = w.trim_matches(['[', ']']);
    w.len() >= 2
        && w.chars().take_while(|c| c.is_ascii_uppercase()).count() >= 1
        && w.chars().last().is_some_and(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speaker_command_lines() {
        assert_eq!(
            speaker_command("RESIGN Cryer MN1"),
            Some(("RESIGN".into(), Some("Cryer".into())))
        );
        assert_eq!(
            speaker_command("resign [MN1] Cryer"),
            Some(("RESIGN".into(), Some("Cryer".into())))
        );
        assert_eq!(speaker_command("VOID MN1"), Some(("VOID".into(), None)));
        assert_eq!(speaker_command("PAUSE"), Some(("PAUSE".into(), None)));
        assert_eq!(speaker_command("SCORES MN1"), None);
    }
}
