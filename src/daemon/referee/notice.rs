//! Notices a person can follow (issues 13 and 39): every mail about a
//! game is on the game's thread. Its Subject says what it is, after the
//! game's tag ([`outbound::notice_subject`]: `[MN1] Turn 4: Rushton
//! (legal)`, `[MN1] Cancelled`), its first body line says the same
//! (the headline), and its References name the game's root
//! ([`outbound::game_root`]) and, when it answers a message, that message
//! and its own References: mail clients thread by References, so the game
//! stays one conversation whatever each Subject says. Each is signed once,
//! here.
//!
//! Private replies to a sender (refusals, parse errors, command answers)
//! are not notices: they keep `Re: <their subject>`.

use chrono::{DateTime, Utc};

use super::{fmt_time, Letter, Live, Out, Referee};
use crate::mail::outbound::{self, Auto, Identity, Reply};
use crate::mail::wrap::quote;
use crate::speaker::buzz::Questionable;

/// Where a notice the bot sends from its own account sits on its game's
/// thread: the game, the key its Message-ID derives from (stable, so a
/// notice rebuilt after a crash is the same mail), and the message it
/// answers, if any (its id and its References).
#[derive(Clone, Debug)]
pub(super) struct Thread {
    /// The game's tag.
    pub(super) tag: String,
    /// What the Message-ID derives from.
    pub(super) key: String,
    /// The message answered: its Message-ID and References.
    pub(super) answers: Option<(String, Vec<String>)>,
}

impl Thread {
    /// A notice of the Speaker's clock (a Timeout, a lapse, a draw): it
    /// answers no message.
    pub(super) fn clock(tag: &str, key: impl Into<String>) -> Thread {
        Thread {
            tag: tag.to_string(),
            key: key.into(),
            answers: None,
        }
    }

    /// A notice answering `letter`.
    pub(super) fn answering(tag: &str, key: impl Into<String>, letter: &Letter) -> Thread {
        Thread {
            tag: tag.to_string(),
            key: key.into(),
            answers: Some((letter.message_id.clone(), letter.references.clone())),
        }
    }

    /// The same place on the thread, for a further notice: its key gets
    /// `suffix`.
    pub(super) fn sub(&self, suffix: &str) -> Thread {
        Thread {
            key: format!("{}{suffix}", self.key),
            ..self.clone()
        }
    }
}

/// What a notice says: its headline (what it is, in the Subject and its
/// first line) and its text.
pub(super) struct Said<'a> {
    pub(super) headline: &'a str,
    pub(super) text: &'a str,
}

/// A notice on game `tag`'s thread: its Subject and first line the
/// headline, then a blank line, the text and the signature.
fn on_thread(
    me: &Identity,
    tag: &str,
    answers: Option<(&str, &[String])>,
    message_id: String,
    to: Vec<String>,
    said: Said<'_>,
    at: DateTime<Utc>,
) -> Reply {
    let root = outbound::game_root(tag, me);
    let body = format!("{}\n\n{}", said.headline, said.text);
    Reply {
        to,
        subject: outbound::notice_subject(tag, said.headline),
        body: crate::mail::render::signed(&body, Some(tag), &me.address),
        in_reply_to: Some(answers.map_or(root.clone(), |(id, _)| id.to_string())),
        references: outbound::thread_references(&root, answers),
        message_id,
        date: at,
        auto: if answers.is_some() {
            Auto::Replied
        } else {
            Auto::Generated
        },
        picture: None,
    }
}

impl<'a> Out<'a> {
    /// The replies to `letter`, their Message-IDs derived from `id_base`,
    /// dated `at`.
    pub(super) fn new(
        me: &'a Identity,
        letter: &'a Letter,
        at: DateTime<Utc>,
        id_base: String,
    ) -> Out<'a> {
        Out {
            me,
            letter,
            at,
            mails: Vec::new(),
            id_base,
            withdrawn: None,
            pictures: Vec::new(),
        }
    }

    /// Moves the last mail to position `i`: a notice that must be read
    /// before the mails from `i` on.
    pub(super) fn before(&mut self, i: usize) {
        if let Some(m) = self.mails.pop() {
            self.mails.insert(i.min(self.mails.len()), m);
        }
    }

    /// A notice to the lounge on game `tag`'s thread, answering the letter.
    pub(super) fn game(&mut self, tag: &str, headline: &str, body: String) {
        let to = vec![self.me.lounge.clone()];
        let k = self.mails.len();
        let l = self.letter;
        let body = self.with_note(body);
        self.mails.push(on_thread(
            self.me,
            tag,
            Some((&l.message_id, &l.references)),
            outbound::reply_id(&self.id_base, k, self.me),
            to,
            Said {
                headline,
                text: &body,
            },
            self.at,
        ));
    }
}

/// Who is to play in `live` and by when (issue 39): every notice that
/// names the player to move says when eir turn is due: "It is Rushton's
/// turn, due by Tue 17 Nov 2026 21:00 GMT (Rule 1.3.5).", or why no
/// deadline runs (a pause, a Questionable Turn).
pub(super) fn whose_turn(live: &Live) -> String {
    let who = live.game.to_play();
    if let Some(q) = &live.questionable {
        return format!(
            "It is {who}'s turn, held while turn {} is Questionable (Rule 1.16.1).",
            q.turn
        );
    }
    if live.paused {
        return format!(
            "It is {who}'s turn; the game is paused, so no turn is due until the Speaker \
             resumes it."
        );
    }
    match live.deadline() {
        Some(d) => format!("It is {who}'s turn, due by {} (Rule 1.3.5).", fmt_time(d)),
        None => format!("It is {who}'s turn."),
    }
}

/// The headline of a legal turn's verdict; a turn replacing one taken
/// back says so (Rule 1.3.3), rather than look like a second turn `n`.
pub(super) fn legal_headline(n: usize, player: &str, replaces: bool) -> String {
    if replaces {
        format!("Turn {n}: {player} took it back and plays again (legal)")
    } else {
        format!("Turn {n}: {player} (legal)")
    }
}

impl Referee {
    /// Announces that `player` took back eir turn `n`, quoting the play
    /// withdrawn, then `tail`.
    pub(super) fn took_back(
        &self,
        out: &mut Out,
        tag: &str,
        (player, n, withdrawn): (&str, usize, &str),
        tail: String,
    ) {
        out.game(
            tag,
            &format!("{player} took back turn {n}"),
            self.notice(format!(
                "{player} took back eir turn {n} (Rule 1.3.3); it never happened:\n\n    \
                 {withdrawn}\n\n{tail}"
            )),
        );
    }

    /// A notice on `th`'s game thread, sent by the bot on its own account
    /// (it says something changed, or is due), `auto-replied` when it
    /// answers a message, else `auto-generated`.
    pub(super) fn notice_mail(
        &self,
        th: &Thread,
        to: Vec<String>,
        headline: &str,
        body: &str,
        at: DateTime<Utc>,
    ) -> Reply {
        let answers = th.answers.as_ref().map(|(id, r)| (id.as_str(), &r[..]));
        on_thread(
            &self.me,
            &th.tag,
            answers,
            outbound::reply_id(&th.key, 0, &self.me),
            to,
            Said {
                headline,
                text: body,
            },
            at,
        )
    }
}

/// The play of a Questionable Turn: as the Buzz recorded it, else (a Buzz
/// recorded before plays were kept) from the log.
pub(super) fn buzzed_play(live: &Live, q: &Questionable) -> String {
    if !q.play.is_empty() || !q.logged {
        return q.play.clone();
    }
    live.turns
        .get((q.turn as usize).wrapping_sub(1))
        .map(|t| t.play.clone())
        .unwrap_or_default()
}

/// The case a Referee judges (Rule 1.16.4): the play, the Buzz, the
/// defence and the contest of it, each as its writer put it (sign-offs
/// cut when the step was recorded).
pub(super) fn the_case(live: &Live, q: &Questionable) -> String {
    let mut parts = Vec::new();
    let play = buzzed_play(live, q);
    if !play.is_empty() {
        parts.push(format!("The turn:\n\n    {play}\n"));
    }
    parts.push(format!("{}'s Buzz:\n\n{}", q.buzzer, quote(&q.reason)));
    if let Some(d) = &q.defence {
        parts.push(format!("{}'s defence:\n\n{}", q.player, quote(d)));
    }
    if let Some(c) = &q.contest {
        parts.push(format!(
            "{}'s contest of the defence:\n\n{}",
            q.buzzer,
            quote(c)
        ));
    }
    parts.join("\n")
}
