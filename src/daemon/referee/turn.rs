//! A turn from a player's mail (Rules 1.3.1 - 1.3.3), in four steps:
//! **authorise** (who may play in this game now), **extract** (the Play
//! from a GSD or a Play line, a stale or unreadable one answered), **judge**
//! (the engine's verdict, its effects on the game, the log and the events)
//! and **reply** (the lounge notice or the private refusal). A take-back
//! rolls the log back by one turn and judges its replacement the same way.

use chrono::{DateTime, Utc};

use super::notice;
use super::{fmt_time, Disposition, Event, Letter, Live, Out, Referee, Refused, Request};
use crate::kinds::vol1::{
    parse_gsd, parse_play, render_gsd as render, render_play, Gsd, Outcome, ParseError, Play,
    Verdict,
};
use crate::mail::render::{caret, render as tpl};
use crate::mail::wrap::verbatim;
use crate::store::{Commit, TurnRow};

/// The summary of a turn refused as out of turn (Rule 1.3.2): the one
/// refusal a daemon may put off while posts received with it wait (see
/// [`Referee::handle_unless_out_of_turn`]).
pub(super) const OUT_OF_TURN: &str = "out of turn";

/// Where a turn's text starts in the mail's body: its 1-based line and
/// column.
type At = (usize, usize);

impl Referee {
    /// A turn or a take-back for `live`.
    pub(super) fn turn(
        &self,
        live: &mut Live,
        letter: &Letter,
        request: &Request,
        received: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let player = match self.authorise(live, letter, out) {
            Ok(p) => p,
            Err(d) => return d,
        };
        if matches!(request, Request::Turn { .. }) {
            if let Some(summary) = self.mistimed(live, letter, &player, received, out, commit) {
                return Disposition::Changed(summary);
            }
        }
        let (text, gsd, at) = match request {
            Request::TakeBack(r) => {
                let r = r.as_deref();
                return self.take_back(live, letter, &player, r, received, out, commit);
            }
            Request::Turn {
                text,
                gsd,
                line,
                column,
            } => (text, *gsd, (*line, *column)),
            _ => return Disposition::Unchanged("not a turn".into()),
        };
        let (play, posted) = match self.extract(live, letter, text, gsd, at, out) {
            Ok(x) => x,
            Err(d) => return d,
        };
        if let Err(d) = self.authorise_play(live, letter, &player, &play, out) {
            return d;
        }
        if posted.is_none() {
            if let Err(d) = self.refuse_replay(live, letter, &play, out) {
                return d;
            }
        }
        self.judge(live, letter, play, posted.as_ref(), received, out, commit)
    }

    /// Who may play: the sender's player in this game, or the refusal.
    fn authorise(
        &self,
        live: &Live,
        letter: &Letter,
        out: &mut Out,
    ) -> Result<String, Disposition> {
        let tag = &live.game.tag;
        let refuse = |out: &mut Out, why: String, summary: &str| {
            out.refuse(why);
            Err(Disposition::Unchanged(summary.into()))
        };
        let Some(player) = live.player_of(&letter.from).map(str::to_string) else {
            return refuse(
                out,
                format!(
                    "{} is not the registered address of any player of {tag}, so mornbot \
                     cannot accept turns from it.",
                    letter.from
                ),
                "unregistered sender",
            );
        };
        // Authentication was checked before any handler (RULINGS L7).
        if let Some(w) = &live.game.state.winner {
            return refuse(out, format!("{tag} is over: {w} has won."), "game over");
        }
        if live.ended {
            return refuse(out, format!("{tag} is over (a Stalemate)."), "game over");
        }
        if live.game.state.player_index(&player).is_none() {
            return refuse(
                out,
                format!(
                    "{player} has Resigned from {tag} (Rules 1.1.3, 1.1.10) and plays no \
                     more turns in it."
                ),
                "resigned player",
            );
        }
        if live.paused {
            return refuse(
                out,
                format!(
                    "The Speaker has paused {tag}: no turn is played until the Speaker \
                     resumes it."
                ),
                "paused",
            );
        }
        Ok(player)
    }

    /// The Play a turn carries, and the poster's GSD when one was sent; a
    /// stale GSD, one of several plays, or text that does not parse is
    /// answered here.
    fn extract(
        &self,
        live: &Live,
        letter: &Letter,
        text: &str,
        gsd: bool,
        at: At,
        out: &mut Out,
    ) -> Result<(Play, Option<Gsd>), Disposition> {
        let (map, tag) = (self.map, &live.game.tag);
        if let Some(refused) = self.refuse_over_limits(text, gsd, out) {
            return Err(refused);
        }
        if !gsd {
            return parse_play(text.trim(), map)
                .map(|p| (p, None))
                .map_err(|e| self.parse_error(letter, "play", tag, at, &e, out));
        }
        let g =
            parse_gsd(text, map).map_err(|e| self.parse_error(letter, "GSD", tag, at, &e, out))?;
        let at_turn = live.game.plays.len();
        let k = g
            .plays
            .iter()
            .zip(&live.game.plays)
            .take_while(|(a, b)| render_play(a) == render_play(b))
            .count();
        if k < at_turn || g.plays.len() <= at_turn {
            let based_on = if k < at_turn { k } else { g.plays.len() };
            out.sender(tpl(
                "stale",
                minijinja::context! {
                    game => tag, based_on, at => at_turn,
                    last => live.game.plays.last().map(render_play),
                    whose => notice::whose_turn(live),
                    gsd => render(&live.game.gsd(map)),
                    bot => self.me.address,
                },
            ));
            return Err(Disposition::Unchanged(format!(
                "stale: based on turn {based_on}, at {at_turn}"
            )));
        }
        if g.plays.len() > at_turn + 1 {
            out.refuse(format!(
                "Your GSD adds {} plays to {tag}; a message carries one turn.",
                g.plays.len() - at_turn
            ));
            return Err(Disposition::Unchanged("several plays".into()));
        }
        if let Some(refused) = self.refuse_long_play(&render_play(&g.plays[at_turn]), out) {
            return Err(refused);
        }
        Ok((g.plays[at_turn].clone(), Some(g)))
    }

    /// Whether the sender may make this Play: eir own, or the Drone's when
    /// e carries the Drone Stick (Rule 1.15.1). Someone else's is refused,
    /// and the player named is told privately.
    fn authorise_play(
        &self,
        live: &Live,
        letter: &Letter,
        player: &str,
        play: &Play,
        out: &mut Out,
    ) -> Result<(), Disposition> {
        let handles_drone = crate::kinds::vol1::is_reserved(&play.player)
            && live
                .game
                .state
                .drone_handler()
                .is_some_and(|h| h.name.eq_ignore_ascii_case(player));
        if play.player.eq_ignore_ascii_case(player) || handles_drone {
            return Ok(());
        }
        let tag = &live.game.tag;
        out.refuse(format!(
            "You are registered in {tag} as {player}; mornbot accepts turns for {} only \
             from {}'s own address.",
            play.player, play.player
        ));
        if let Some(owner) = live.address_of(&play.player) {
            let owner = owner.to_string();
            out.push(
                vec![owner],
                format!("[{tag}] a turn in your name was refused"),
                self.refusal(format!(
                    "A turn for you in {tag} arrived from {}, which is not your registered \
                     address, and was refused:\n\n    {}",
                    letter.from,
                    render_play(play)
                )),
            );
        }
        Err(Disposition::Unchanged("spoofed player".into()))
    }

    /// The engine's verdict on the Play, its effects, and the reply.
    #[allow(clippy::too_many_arguments)]
    fn judge(
        &self,
        live: &mut Live,
        letter: &Letter,
        play: Play,
        posted: Option<&Gsd>,
        received: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let n = live.game.plays.len() + 1;
        let (play, dice) = match self.roll_dice(live, play, n as u64, commit) {
            Ok(rolled) => rolled,
            Err(why) => {
                out.refuse(why);
                return Disposition::Unchanged("a roll of the player's own".into());
            }
        };
        let outcome = live.game.judge(self.map, &play);
        let t = Judging {
            n,
            text: render_play(&play),
            play,
            letter,
            received,
            dice,
        };
        match outcome.verdict {
            Verdict::Legal => self.accept(live, &t, &outcome, posted, out, commit),
            Verdict::Illegal if outcome.violations.iter().any(|v| v.rule == "1.3.2") => {
                // Out of turn: a private refusal, not a Buzz (a Buzz is for
                // a turn taken in turn); nothing is held, play goes on.
                let why = outcome
                    .violations
                    .iter()
                    .find(|v| v.rule == "1.3.2")
                    .map(|v| v.message.clone())
                    .unwrap_or_default();
                let due = live
                    .deadline()
                    .map(|d| format!(" (due by {})", fmt_time(d)))
                    .unwrap_or_default();
                out.refuse(format!(
                    "Rule 1.3.2: {why} in {}{due}, so your play was not judged and the game \
                     goes on without it:\n\n    {}\n\nPost it again when it is your turn.",
                    live.game.tag, t.text
                ));
                Disposition::Unchanged(OUT_OF_TURN.into())
            }
            Verdict::Illegal => self.buzz_illegal(live, &t, &outcome, out, commit),
            Verdict::NeedsRuling => self.ask_ruling(live, &t, &outcome, out, commit),
        }
    }

    /// A Legal turn: logged, played, and announced with what changed.
    fn accept(
        &self,
        live: &mut Live,
        t: &Judging<'_>,
        outcome: &Outcome,
        posted: Option<&Gsd>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let (map, tag, n) = (self.map, live.game.tag.clone(), t.n);
        live.game.play(map, t.play.clone());
        live.pending = None;
        let row = TurnRow {
            n: n as u64,
            player: t.play.player.clone(),
            play: t.text.clone(),
            message_id: t.letter.message_id.clone(),
            submitted_at: t.received,
        };
        live.turns.push(row.clone());
        commit.turns.push((tag.clone(), row));
        // A Gambit it declared joins the lounge's registry (Rule 1.18.2).
        for g in &outcome.declared {
            commit.gambits.push(crate::store::GambitRow {
                game: tag.clone(),
                turn: n as u64,
                name: g.name.clone(),
                data: serde_json::to_string(g).expect("a Gambit serialises"),
            });
        }
        self.games.share_gambits(&tag, &outcome.declared);
        let canonical = live.game.gsd(map);
        let diffs = posted
            .map(|g| crate::kinds::vol1::table_diffs(g, &canonical, ("yours", "mornbot's")))
            .unwrap_or_default();
        out.game(
            &tag,
            &notice::legal_headline(n, &t.play.player, out.withdrawn.is_some()),
            tpl(
                "accepted",
                minijinja::context! {
                    player => t.play.player, n, game => tag, play => t.text,
                    withdrawn => out.withdrawn,
                    changes => outcome.changes, diffs, winner => live.game.state.winner,
                    dice => t.dice,
                    window => self.speaker.win_window_hours,
                    next => live.game.to_play(),
                    deadline => live.deadline().map(fmt_time),
                    gsd => render(&canonical),
                    bot => self.me.address,
                },
            ),
        );
        self.picture_on_last(live, out);
        Disposition::Changed("legal".into())
    }

    /// An Illegal turn: the bot buzzes it (Rule 1.16.2) and it awaits the
    /// workflow or the Speaker.
    fn buzz_illegal(
        &self,
        live: &mut Live,
        t: &Judging<'_>,
        outcome: &Outcome,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let (tag, n, who) = (live.game.tag.clone(), t.n, t.play.player.as_str());
        let needle = needle_for(&t.text, outcome);
        let reason = outcome
            .violations
            .iter()
            .map(|v| format!("Rule {}: {}", v.rule, v.message))
            .collect::<Vec<_>>()
            .join("; ");
        self.bot_buzz(
            live,
            (n as u64, who, t.text.as_str()),
            &reason,
            t.received,
            commit,
        );
        self.set_pending(live, n, who, &t.text, t.letter, t.received, false, commit);
        // The Buzz's deadline to contest, and the turn's if e does not.
        let until = live.questionable.as_ref().and_then(|q| match q.stage {
            crate::speaker::buzz::Stage::Defence { until } => Some(until),
            _ => None,
        });
        let due = until.map(|u| crate::speaker::absence::turn_deadline_away(u, &live.away_of(who)));
        Event::BotBuzz(Refused {
            violations: outcome.violations.clone(),
            ..t.refused()
        })
        .record(&tag, commit);
        out.game(
            &tag,
            &format!("Buzz: {who}'s turn {n} is illegal"),
            tpl(
                "buzz",
                minijinja::context! {
                    player => who, n, game => tag, play => t.text,
                    withdrawn => out.withdrawn,
                    caret => caret(&t.text, needle.as_deref()),
                    until => until.map(fmt_time), due => due.map(fmt_time),
                    dice => t.dice,
                    violations => outcome.violations,
                    gsd => crate::kinds::vol1::document(&live.game, self.map),
                    bot => self.me.address,
                },
            ),
        );
        self.picture_on_last(live, out);
        Disposition::Changed("illegal".into())
    }

    /// A turn beyond the engine: it awaits a Judgment ("needs a human
    /// ruling").
    fn ask_ruling(
        &self,
        live: &mut Live,
        t: &Judging<'_>,
        outcome: &Outcome,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let (tag, n, who) = (live.game.tag.clone(), t.n, t.play.player.as_str());
        self.set_pending(live, n, who, &t.text, t.letter, t.received, true, commit);
        Event::NeedsRuling(Refused {
            rulings: outcome.rulings.clone(),
            ..t.refused()
        })
        .record(&tag, commit);
        // The appointed referee by name, never by address (no lounge mail
        // shows one): a player's name, or "the game's referee", who is
        // then asked privately too (e may not read the lounge).
        let referee = live.def.referee.clone();
        let referee_name = referee
            .as_deref()
            .and_then(|a| live.player_of(a))
            .map(str::to_string);
        let headline = format!("Turn {n}: {who} needs a human ruling");
        let text = tpl(
            "ruling",
            minijinja::context! {
                player => who, n, game => tag, play => t.text,
                rulings => outcome.rulings, referee => referee.is_some(), referee_name,
                dice => t.dice,
            },
        );
        out.game(&tag, &headline, text.clone());
        self.picture_on_last(live, out);
        if let Some(a) = referee.filter(|a| !self.is_registered(a) && !self.is_speaker(a)) {
            let th = super::notice::Thread::answering(
                &tag,
                format!("{}#referee", t.letter.message_id),
                t.letter,
            );
            let r = self.notice_mail(&th, vec![a], &headline, &text, t.received);
            out.mails.push(r);
        }
        Disposition::Changed("needs ruling".into())
    }

    #[allow(clippy::too_many_arguments)]
    fn take_back(
        &self,
        live: &mut Live,
        letter: &Letter,
        player: &str,
        replacement: Option<&Request>,
        received: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Disposition {
        let tag = live.game.tag.clone();
        if let Some(q) = &live.questionable {
            out.refuse(format!(
                "Rule 1.3.3: a turn may be taken back only while no one has played or \
                         buzzed since; turn {} of {tag} is Questionable.",
                q.turn
            ));
            return Disposition::Unchanged("take-back refused".into());
        }
        let last_is_mine = live
            .turns
            .last()
            .is_some_and(|t| t.player.eq_ignore_ascii_case(player));
        if !last_is_mine {
            out.refuse(format!(
                "Rule 1.3.3: a player may take back only eir most recent turn while no \
                         one has played since; the latest turn of {tag} is not yours."
            ));
            return Disposition::Unchanged("take-back refused".into());
        }
        let keep = live.turns.len() - 1;
        let withdrawn = live.turns[keep].play.clone();
        live.turns.truncate(keep);
        live.game.truncate(self.map, keep);
        commit.truncate.push((tag.clone(), keep as u64));
        if let Some(r) = replacement {
            let first = out.mails.len();
            out.withdrawn = Some(withdrawn.clone());
            let d = self.turn(live, letter, r, received, out, commit);
            out.withdrawn = None;
            let s = d.summary();
            if !d.changed() {
                // The replacement failed: the take-back alone stands, and
                // the player is told with the failure's own reply.
                let tail = format!(
                    "The replacement was not accepted ({s}). {}",
                    notice::whose_turn(live)
                );
                self.took_back(out, &tag, (player, keep + 1, &withdrawn), tail);
                out.before(first);
            }
            return Disposition::Changed(format!("taken back; replacement {s}"));
        }
        let tail = format!(
            "{} The GSD as it stands:\n\n{}",
            notice::whose_turn(live),
            verbatim(&crate::kinds::vol1::document(&live.game, self.map))
        );
        self.took_back(out, &tag, (player, keep + 1, &withdrawn), tail);
        Disposition::Changed("taken back".into())
    }

    fn parse_error(
        &self,
        letter: &Letter,
        what: &str,
        tag: &str,
        (first_line, first_column): At,
        e: &ParseError,
        out: &mut Out,
    ) -> Disposition {
        // Error positions are in the excerpt; the player sees the body.
        let line = first_line + e.line.saturating_sub(1);
        let column = if e.line <= 1 {
            first_column + e.column.saturating_sub(1)
        } else {
            e.column
        };
        let source = letter
            .body
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("")
            .to_string();
        let caret = format!("{}^", " ".repeat(column.saturating_sub(1)));
        out.sender(tpl(
            "parse_error",
            minijinja::context! {
                what, game => tag, line, column, source, caret,
                expected => e.expected, found => e.found, suggestions => e.suggestions,
                bot => self.me.address,
            },
        ));
        Disposition::Unchanged(format!("parse error at {line}:{column}"))
    }
}

/// A Play being judged, and the mail that carried it.
struct Judging<'a> {
    /// Its turn number.
    n: usize,
    /// The Play.
    play: Play,
    /// The Play, canonical.
    text: String,
    /// The mail.
    letter: &'a Letter,
    /// When it arrived.
    received: DateTime<Utc>,
    /// The bot's draws for it, as the verdict states them (RULINGS S14).
    dice: Vec<String>,
}

impl Judging<'_> {
    /// The audit record of a turn the engine did not pass.
    fn refused(&self) -> Refused {
        Refused {
            turn: self.n,
            player: self.play.player.clone(),
            play: self.text.clone(),
            message_id: self.letter.message_id.clone(),
            ..Refused::default()
        }
    }
}

/// A station or word of the play the first violation talks about, to put
/// the caret under.
fn needle_for(play: &str, out: &Outcome) -> Option<String> {
    let msg = &out.violations.first()?.message;
    // The longest run of the play's words that the message repeats.
    let words: Vec<&str> = play
        .split(|c: char| c.is_whitespace() || "()[]{},:".contains(c))
        .filter(|w| w.len() > 1)
        .collect();
    let mut best: Option<String> = None;
    for i in 0..words.len() {
        for j in i + 1..=words.len().min(i + 4) {
            let cand = words[i..j].join(" ");
            if msg.contains(&cand)
                && play.contains(&cand)
                && best.as_ref().is_none_or(|b| cand.len() > b.len())
            {
                best = Some(cand);
            }
        }
    }
    best.filter(|b| b.len() > 2)
}
