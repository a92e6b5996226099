//! Rules 7 and 9 of [`super`]: commands among other lines, and what the bot
//! does not understand but must not pass over in silence (RULINGS L4, L5).

use super::{
    command_shaped, parse_command, play_head, subject_core, BodyLine, ClassifyContext, Command,
    LooksLike, Request, MAX_QUOTED_CHARS,
};
use crate::kinds::vol1::parse_play;
use crate::mail::inbound::Inbound;

/// The most lines a greeting or a sign-off around commands may take.
const COURTESY_LINES: usize = 2;

/// The commands of a message with other lines too (rule 7), or `None`
/// when it has no command line.
pub(super) fn mixed_commands(
    content: &[&BodyLine<'_>],
    direct: bool,
    players: &[String],
    ctx: &ClassifyContext<'_>,
) -> Option<Vec<Command>> {
    let parsed: Vec<Option<Command>> = content
        .iter()
        .map(|l| parse_command(l.text, ctx).filter(|_| direct || in_capitals(l.text)))
        .collect();
    let first = parsed.iter().position(Option::is_some)?;
    let last = parsed.iter().rposition(Option::is_some)?;
    // The greeting: all the lines before the first command, when short;
    // the sign-off: the short lines that end the message.
    let greeting = if courtesy(&content[..first]) {
        first
    } else {
        0
    };
    let sign_off = (last + 1..content.len())
        .find(|&i| courtesy(&content[i..]))
        .unwrap_or(content.len());
    let reported = |i: usize, t: &str| {
        !(i < greeting || i >= sign_off)
            && (direct
                || command_shaped(t)
                || command_attempt(t).is_some()
                || play_attempt(t, players, ctx).is_some())
    };
    Some(
        content
            .iter()
            .zip(parsed)
            .enumerate()
            .filter_map(|(i, (l, c))| {
                let t = l.text.trim();
                c.or_else(|| reported(i, t).then(|| Command::Unknown(quoted(t))))
            })
            .collect(),
    )
}

/// Whether `lines` are a greeting or a sign-off: at most
/// [`COURTESY_LINES`] lines of at most three words, none command-shaped.
fn courtesy(lines: &[&BodyLine<'_>]) -> bool {
    lines.len() <= COURTESY_LINES
        && lines.iter().all(|l| {
            let t = l.text.trim();
            t.split_whitespace().count() <= 3 && !command_shaped(t) && command_attempt(t).is_none()
        })
}

/// Whether a line's first word is written in capitals.
fn in_capitals(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| w.chars().all(|c| !c.is_ascii_lowercase()))
}

/// `cmds` with the subject's command first, when the subject is one (not
/// a reply's) that the body does not repeat: a body command of the same
/// kind repeats it, whatever its arguments (`Subject: resign` over
/// `RESIGN MN20` is one Resignation, from MN20, not a bare one first).
pub(super) fn with_subject(
    msg: &Inbound,
    mut cmds: Vec<Command>,
    ctx: &ClassifyContext<'_>,
) -> Vec<Command> {
    let (subject, reply) = subject_core(&msg.subject);
    if reply || msg.in_reply_to.is_some() {
        return cmds;
    }
    if let Some(c) = parse_command(subject, ctx) {
        if !cmds
            .iter()
            .any(|b| kind_of_command(b) == kind_of_command(&c))
        {
            cmds.insert(0, c);
        }
    }
    cmds
}

/// What kind of command `c` is, its arguments aside: the verb of a
/// Speaker's (or unknown) line, the variant (and step) otherwise.
fn kind_of_command(c: &Command) -> String {
    use std::mem::discriminant;
    match c {
        Command::Speaker(line) | Command::Unknown(line) => line
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase(),
        Command::Stalemate(step, _) => format!("STALEMATE {step:?}"),
        Command::Lobby(l) => format!("{:?}", discriminant(l)),
        Command::Absence(a) => format!("{:?}", discriminant(a)),
        other => format!("{:?}", discriminant(other)),
    }
}

/// A message the bot does not understand (rule 9), or `None` for chatter.
pub(super) fn not_understood(
    content: &[&BodyLine<'_>],
    direct: bool,
    players: &[String],
    ctx: &ClassifyContext<'_>,
) -> Option<Request> {
    for l in content {
        let t = l.text.trim();
        let looks_like = if let Some(w) = command_attempt(t) {
            Some(LooksLike::Command(w.to_string()))
        } else if let Some(meant) = misspelt(t, direct, ctx) {
            Some(LooksLike::Misspelt(meant))
        } else {
            play_attempt(t, players, ctx).map(LooksLike::Play)
        };
        if let Some(looks_like) = looks_like {
            return Some(Request::NotUnderstood {
                line: quoted(t),
                looks_like,
            });
        }
    }
    let first = content.first()?;
    direct.then(|| Request::NotUnderstood {
        line: quoted(first.text.trim()),
        looks_like: LooksLike::Letter,
    })
}

/// The command word of a line that starts with one in capitals but is
/// not a command (`STATUS of MN12 please`), in at most four words: a verb
/// of a command anyone may send taking at most a game
/// ([`crate::mail::commands::plain`]).
fn command_attempt(t: &str) -> Option<&'static str> {
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() > 4 {
        return None;
    }
    let first = words.first()?.trim_end_matches([':', ',', '.', '!', '?']);
    crate::mail::commands::plain(first).map(|c| c.verb)
}

/// What a line with a misspelt command verb meant (`STRAT MN28`: `START
/// MN28`), when it is one: any such line in mail to the bot; in the
/// lounge, only one written like a command (its first word in capitals,
/// at most six words), since players' prose is not the bot's.
fn misspelt(t: &str, direct: bool, ctx: &ClassifyContext<'_>) -> Option<String> {
    let like_a_command =
        in_capitals(t) && command_shaped_first(t) && t.split_whitespace().count() <= 6;
    if !(direct || like_a_command) {
        return None;
    }
    did_you_mean(t, ctx)
}

/// Whether the first word is two to sixteen capital letters.
fn command_shaped_first(t: &str) -> bool {
    t.split_whitespace()
        .next()
        .is_some_and(|w| (2..=16).contains(&w.len()) && w.chars().all(|c| c.is_ascii_uppercase()))
}

/// What a misspelt command line may have meant: the line with its verb
/// corrected when that reads as a command, else the nearest command's
/// form (see [`crate::mail::commands::did_you_mean`]).
pub fn did_you_mean(line: &str, ctx: &ClassifyContext<'_>) -> Option<String> {
    crate::mail::commands::did_you_mean(line, |l| {
        parse_command(l, ctx)
            .as_ref()
            .and_then(crate::mail::commands::verb_of)
            .is_some()
    })
}

/// A Play line under a name that is no player (`Some(name)`), or one
/// without a name that has a Line code in brackets (`None`); only when the
/// game's players are known (otherwise any Play line is taken, rule 6).
fn play_attempt(t: &str, players: &[String], ctx: &ClassifyContext<'_>) -> Option<Option<String>> {
    let someone = players.first()?;
    if t.len() > 500 {
        return None;
    }
    if let Some(name) = play_head(t) {
        let known = name.eq_ignore_ascii_case("drone")
            || players.iter().any(|p| p.eq_ignore_ascii_case(name));
        return (!known && parse_play(t, ctx.map).is_ok()).then(|| Some(name.to_string()));
    }
    (t.contains('(') && parse_play(&format!("{someone} : {t}"), ctx.map).is_ok()).then_some(None)
}

/// A line as a reply may quote it: at most [`MAX_QUOTED_CHARS`] characters.
fn quoted(t: &str) -> String {
    match t.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ctx, kind_of, msg};
    use super::super::{classify, GameInfo};
    use super::*;

    fn direct(subject: &str, body: &str) -> Request {
        let mut m = msg(subject, body);
        m.to = vec!["mornbot@example.org".into()];
        classify(&m, &ctx()).request
    }

    #[test]
    fn every_command_word_is_a_command_alone() {
        for c in crate::mail::commands::COMMANDS {
            if crate::mail::commands::plain(c.verb).is_some() {
                assert!(parse_command(c.verb, &ctx()).is_some(), "{}", c.verb);
            }
        }
    }

    /// The one table of commands (`mail::commands`) and the parser agree:
    /// every example HELP gives reads as its own command.
    #[test]
    fn every_example_help_gives_reads_as_its_command() {
        for c in crate::mail::commands::COMMANDS {
            let line = c.example("MN12");
            let read = parse_command(&line, &ctx());
            let verb = read.as_ref().and_then(crate::mail::commands::verb_of);
            assert_eq!(verb, Some(c.verb), "{line:?} reads as {read:?}");
        }
    }

    #[test]
    fn a_misspelt_command_says_what_it_meant() {
        for (line, meant) in [
            ("STRAT MN28", "START MN28"),
            ("JION MN28 as Kit", "JOIN MN28 as Kit"),
            (
                "ABSENSE 2026-12-03 TO 2026-12-04",
                "ABSENCE 2026-12-03 TO 2026-12-04",
            ),
            ("STAUTS", "STATUS"),
            ("CANCLE GAME MN20", "CANCEL GAME MN20"),
        ] {
            assert_eq!(
                direct("", line),
                Request::NotUnderstood {
                    line: line.into(),
                    looks_like: LooksLike::Misspelt(meant.into())
                },
                "{line}"
            );
        }
        // In the lounge, only a line written like a command.
        assert_eq!(
            kind_of("[MN12] hi", "STAUTS MN12"),
            Request::NotUnderstood {
                line: "STAUTS MN12".into(),
                looks_like: LooksLike::Misspelt("STATUS MN12".into())
            }
        );
        assert_eq!(
            kind_of("[MN12] hi", "Strat the game, someone"),
            Request::Chatter
        );
    }

    #[test]
    fn several_commands_and_a_question_to_the_bot_are_all_answered() {
        assert_eq!(
            direct("", "HELP\nSTATUS\nGSD MN12\nwhat are the scores?"),
            Request::Commands(vec![
                Command::Help,
                Command::Status(None),
                Command::Gsd(Some("MN12".into())),
                Command::Unknown("what are the scores?".into()),
            ])
        );
        // A greeting and a sign-off are not questions.
        assert_eq!(
            direct("", "Hi bot,\nSTATUS MN12\nThanks,\nTim"),
            Request::Commands(vec![Command::Status(Some("MN12".into()))])
        );
        // A sign-off is two lines at most; a question before it is asked.
        assert_eq!(
            direct("", "STATUS\nwhat are the scores?\nThanks\nsee you\nTim"),
            Request::Commands(vec![
                Command::Status(None),
                Command::Unknown("what are the scores?".into()),
                Command::Unknown("Thanks".into()),
            ])
        );
    }

    #[test]
    fn a_subject_command_comes_first_unless_repeated_or_a_reply() {
        assert_eq!(
            direct("STATUS", "GSD\nHELP"),
            Request::Commands(vec![
                Command::Status(None),
                Command::Gsd(None),
                Command::Help,
            ])
        );
        assert_eq!(
            direct("HELP", "HELP\nGSD"),
            Request::Commands(vec![Command::Help, Command::Gsd(None)])
        );
        assert_eq!(
            direct("Re: HELP", "GSD"),
            Request::Commands(vec![Command::Gsd(None)])
        );
        // The body names the game: the subject's bare verb is the same
        // command, not another one without a game.
        assert_eq!(
            direct("resign", "RESIGN MN12"),
            Request::Commands(vec![Command::Speaker("RESIGN MN12".into())])
        );
        assert_eq!(
            direct("status", "STATUS MN12"),
            Request::Commands(vec![Command::Status(Some("MN12".into()))])
        );
        assert_eq!(
            direct("Stalemate", "STALEMATE MN12"),
            Request::Commands(vec![Command::Stalemate(
                crate::mail::request::StalemateStep::Agree,
                Some("MN12".into())
            )])
        );
    }

    #[test]
    fn commands_in_the_lounge_among_prose() {
        assert_eq!(
            kind_of("hello", "Hi all\nSTATUS MN12\nthanks, see you all tonight"),
            Request::Commands(vec![Command::Status(Some("MN12".into()))])
        );
        // A heading in prose is not a command; a command-shaped line is
        // reported.
        assert_eq!(
            kind_of("", "Rules\nI think 1.6 is unclear."),
            Request::Chatter
        );
        assert_eq!(
            kind_of("", "Evening all.\nSTATUS\nSCORES MN12"),
            Request::Commands(vec![
                Command::Status(None),
                Command::Unknown("SCORES MN12".into())
            ])
        );
    }

    #[test]
    fn failed_attempts_are_not_understood() {
        assert_eq!(
            kind_of("", "Evening all.\nSTATUS of MN12 please"),
            Request::NotUnderstood {
                line: "STATUS of MN12 please".into(),
                looks_like: LooksLike::Command("STATUS".into())
            }
        );
        assert_eq!(
            kind_of("[MN12] my turn", "Rushtin : Euston (NT)"),
            Request::NotUnderstood {
                line: "Rushtin : Euston (NT)".into(),
                looks_like: LooksLike::Play(Some("Rushtin".into()))
            }
        );
        assert_eq!(
            kind_of("[MN12] my turn", "[LV+1] Euston (VC via: CN,NT)"),
            Request::NotUnderstood {
                line: "[LV+1] Euston (VC via: CN,NT)".into(),
                looks_like: LooksLike::Play(None)
            }
        );
        // Chatter stays chatter.
        for body in [
            "STATUS is annoying me today, frankly",
            "Note: I'm away until Monday",
            "I went to Euston (NT) yesterday.",
            "Pass the salt",
        ] {
            assert_eq!(kind_of("[MN12] hello", body), Request::Chatter, "{body}");
        }
        // Without known players any Play line is a Play (rule 6).
        let c = ClassifyContext {
            games: std::sync::Arc::new(crate::mail::classify::Roster::from(vec![GameInfo {
                tag: "MN1".into(),
                players: vec![],
                kind: Default::default(),
            }])),
            ..ctx()
        };
        assert!(matches!(
            classify(&msg("", "Rushtin : Euston (NT)"), &c).request,
            Request::Turn { .. }
        ));
    }

    #[test]
    fn mail_to_the_bot_is_never_chatter() {
        assert_eq!(
            direct("hello", "Hi bot, what can you do?"),
            Request::NotUnderstood {
                line: "Hi bot, what can you do?".into(),
                looks_like: LooksLike::Letter
            }
        );
        let long = "x".repeat(500);
        let Request::NotUnderstood { line, .. } = direct("", &long) else {
            panic!()
        };
        assert_eq!(line.chars().count(), MAX_QUOTED_CHARS + 3);
    }
}
