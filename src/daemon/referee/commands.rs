//! The bot's answers to commands (`HELP`, `STATUS`, `GSD`, `HISTORY`,
//! `RULES`) and to what it did not understand, sent to the sender alone.

use chrono::{DateTime, Utc};

use super::{fmt_time, Command, Live, LooksLike, Out, Referee, RefereeError};
use crate::kinds::Kind;
use crate::mail::render::render as tpl;
use crate::mail::wrap::verbatim;
use crate::store::Store;

impl Referee {
    /// Says where the lounge's rules are, for HELP (`[bot] rules_url`).
    pub fn set_rules_url(&mut self, url: Option<String>) {
        self.rules_url = url;
    }

    /// What classifying a line needs, as the daemon classifies mail.
    fn classify_context(&self) -> crate::mail::classify::ClassifyContext<'static> {
        crate::mail::classify::ClassifyContext {
            map: self.map,
            games: self.roster(),
            bot_address: self.me.address.clone(),
        }
    }

    /// Answers commands, all in one reply; returns a summary.
    pub(super) fn commands(
        &self,
        store: &Store,
        cmds: &[Command],
        out: &mut Out,
    ) -> Result<String, RefereeError> {
        let mut unknown = Vec::new();
        let mut parts = Vec::new();
        let mut help = false;
        for c in cmds {
            match c {
                Command::Help => help = true,
                Command::Unknown(s) => unknown.push(s.clone()),
                Command::Speaker(s) => parts.push(format!(
                    "\"{s}\" is a Speaker's command: only the Speaker's addresses may \
                     use it, and this is not one of them.\n"
                )),
                Command::Rules => {
                    let all: Vec<String> = Kind::ALL.iter().map(|k| k.rules_text()).collect();
                    parts.push(all.join("\n"));
                }
                Command::Points | Command::Archive(_) | Command::Stalemate(..) => {
                    parts.push(self.ending_answer(store, c)?);
                }
                // Answered by the lobby (`lobby.rs`) and the absences
                // (`absence.rs`) before these.
                Command::Lobby(_) | Command::Absence(_) => {}
                Command::Status(g) | Command::Gsd(g) | Command::History(g) => {
                    let status = matches!(c, Command::Status(_));
                    let (tags, others) = match g {
                        Some(t) if self.has_game(&t.to_uppercase()) => {
                            (vec![t.to_uppercase()], None)
                        }
                        Some(t) => {
                            parts.push(self.no_game(store, t, status)?);
                            continue;
                        }
                        // Never every game (RULINGS S32).
                        None => {
                            let u = self.unnamed(&out.letter.from);
                            let line = self.others_line(u.others, &u.tags);
                            (u.tags, line)
                        }
                    };
                    for tag in &tags {
                        if self.is_hosted(tag) {
                            let h = self.hosted(store, tag)?;
                            // A player of a game with hidden information
                            // asking STATUS gets eir own document (the
                            // public one and eir cards): the answer goes
                            // to eir registered address alone.
                            let own = h
                                .player_of(&out.letter.from)
                                .filter(|_| status)
                                .and_then(|p| h.private_document(p));
                            parts.push(match (c, own) {
                                (Command::History(_), _) => verbatim(&h.history()),
                                (_, Some(doc)) => verbatim(&doc),
                                _ => verbatim(&h.document()),
                            });
                            continue;
                        }
                        let live = self.live(store, tag)?;
                        parts.push(match c {
                            Command::Status(_) => self.status(&live, &out.letter.from, out.at),
                            // Left as they are by the wrapping: a Play is one
                            // line however long, so that a player can add
                            // eirs and post the GSD back.
                            Command::Gsd(_) => {
                                verbatim(&crate::kinds::vol1::document(&live.game, self.map))
                            }
                            _ => verbatim(&history(&live)),
                        });
                    }
                    if status && g.is_none() {
                        parts.extend(self.lobby_status(store)?);
                    }
                    parts.extend(others);
                }
            }
        }
        if help || !unknown.is_empty() {
            let ctx = self.classify_context();
            let unknown: Vec<_> = unknown
                .iter()
                .map(|line| {
                    let meant = crate::mail::classify::did_you_mean(line, &ctx);
                    minijinja::context! { line, meant }
                })
                .collect();
            let example = self.tags().next().cloned().unwrap_or("MN1".into());
            parts.push(tpl(
                "help",
                minijinja::context! {
                    games => super::listed(self.tags()),
                    commands => verbatim(&crate::mail::commands::help_list(&example)),
                    steps => verbatim(&crate::mail::commands::steps_list()),
                    kinds => verbatim(&crate::mail::commands::kinds_list()),
                    rules_url => self.rules_url, speaker => self.speaker.addresses.first(),
                    example, lounge => self.me.lounge, bot => self.me.address, unknown,
                },
            ));
        }
        // One signature, at the end: a client hides what follows a `-- `.
        out.sender(tpl(
            "commands",
            minijinja::context! { parts, bot => self.me.address },
        ));
        Ok(format!("{} commands", cmds.len()))
    }

    /// A game's STATUS, for `asker`: players' addresses only for the
    /// game's players and the Speaker (issue 14, finding 7).
    fn status(&self, live: &Live, asker: &str, now: DateTime<Utc>) -> String {
        let s = &live.game.state;
        let insider = live.player_of(asker).is_some() || self.is_speaker(asker);
        let players: Vec<_> = live
            .def
            .players
            .iter()
            .map(|(n, a)| {
                let active = s
                    .player_index(n)
                    .map(|i| s.players[i].active)
                    .unwrap_or(true);
                let address = insider.then_some(a);
                minijinja::context! { name => n, address, active }
            })
            .collect();
        let questionable = live.questionable.as_ref().map(|q| {
            format!(
                "Turn {} ({}'s) is Questionable, buzzed by {}: {}. {} turn(s) held.",
                q.turn,
                q.player,
                q.buzzer,
                crate::speaker::buzz::describe(q),
                live.held.len()
            )
        });
        tpl(
            "status",
            minijinja::context! {
                game => live.game.tag, turns => live.game.plays.len(), time => s.time.to_string(),
                winner => s.winner, next => live.game.to_play(), questionable,
                deadline => if live.questionable.is_some() || live.paused { None } else { live.deadline().map(fmt_time) },
                players, requests => self.open_requests(live, now), paused => live.paused,
            },
        )
    }

    /// The answer to a command naming `t`, which is no game being played:
    /// to `STATUS`, a lobby game's line when it is one.
    fn no_game(&self, store: &Store, t: &str, status: bool) -> Result<String, RefereeError> {
        let tag = t.to_uppercase();
        if status {
            if let Some(g) = store.lobby_game(&tag)?.filter(|g| g.started_at.is_none()) {
                return Ok(format!(
                    "{tag} waits in the lobby for players:\n{}",
                    self.lobby_line(store, &tag, g.players)?
                ));
            }
        }
        Ok(format!("There is no game {t}.\n"))
    }

    /// The reply to a message the bot did not understand: the line it read,
    /// and what it made of it.
    pub(super) fn unclear(
        &self,
        line: &str,
        looks_like: &LooksLike,
        game: Option<&String>,
    ) -> String {
        let roster = self.roster();
        let info = game
            .and_then(|g| roster.get(g))
            .or_else(|| roster.iter().next());
        let players = game
            .and_then(|g| roster.get(g))
            .map(|i| i.players.clone())
            .unwrap_or_default();
        let (looks, word, name, meant) = match looks_like {
            LooksLike::Letter => ("letter", None, None, None),
            LooksLike::Command(w) => ("command", Some(w.as_str()), None, None),
            LooksLike::Play(Some(n)) => ("player", None, Some(n.as_str()), None),
            LooksLike::Play(None) => ("nameless", None, None, None),
            LooksLike::Misspelt(m) => ("misspelt", None, None, Some(m.as_str())),
        };
        let example_game = info.map_or("MN1", |i| i.tag.as_str());
        let spec = word.and_then(crate::mail::commands::plain);
        tpl(
            "unclear",
            minijinja::context! {
                line, looks, word, name, meant, game, players, bot => self.me.address,
                form => spec.map(|c| c.form()),
                example => spec.filter(|c| !c.args.is_empty()).map(|c| c.example(example_game)),
                example_player => info.and_then(|i| i.players.first()).map_or("Rushton", String::as_str),
            },
        )
    }
}

fn history(live: &Live) -> String {
    let mut s = format!("{}: {} turns\n\n", live.game.tag, live.turns.len());
    for t in &live.turns {
        s.push_str(&format!(
            "{:>4}  {}  {}\n",
            t.n,
            t.submitted_at.format("%Y-%m-%d %H:%M UTC"),
            t.play
        ));
    }
    s
}
