//! The mail corpus (`fixtures/mail/*.eml`) against the expectations written
//! beside each mail (`NN-name.expect.toml`, described in the corpus
//! README): every mail as stored, with LF and with CRLF line ends, through
//! `mail::inbound::parse`, `mail::digest::read` and
//! `mail::classify::classify`.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use mornbot::gsd::{parse_gsd, parse_play};
use mornbot::mail::classify::{
    classify, ClassifyContext, Command, Excerpt, GameInfo, GameRef, LooksLike, Request, Workflow,
};
use mornbot::mail::digest;
use mornbot::mail::inbound::{parse, AuthVerdict, AutoKind, Inbound, Limits};
use mornbot::mail::request::StalemateStep;
use mornbot::map::Map;
use serde::Deserialize;

const GSD: &str = include_str!("../fixtures/mail/gsd-mn12.txt");

fn dir() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "fixtures", "mail"]
        .iter()
        .collect()
}

fn limits() -> Limits {
    Limits {
        own_addresses: vec!["mornbot@example.org".into()],
        loop_token: Some("mornbot@example.org".into()),
        trusted_authserv_id: Some("mx.example.net".into()),
        list_address: Some("lounge@lists.example.org".into()),
        ..Limits::default()
    }
}

fn ctx() -> ClassifyContext<'static> {
    ClassifyContext {
        map: Map::london_1999(),
        games: std::sync::Arc::new(mornbot::mail::classify::Roster::from(vec![
            GameInfo {
                tag: "MN12".into(),
                players: vec!["Rushton".into(), "Cryer".into(), "Brooke-Taylor".into()],
                kind: Default::default(),
            },
            GameInfo {
                tag: "MN13".into(),
                players: vec!["Garden".into(), "Lyttelton".into()],
                kind: Default::default(),
            },
        ])),
        bot_address: "mornbot@example.org".into(),
    }
}

fn ok() -> String {
    "ok".into()
}
fn none() -> String {
    "none".into()
}
fn unknown() -> String {
    "unknown".into()
}

/// What must come of a mail (or of one post of a digest). Fields left out
/// are not checked, but for `parse`, `auto` and `auth`, whose defaults are
/// checked; `from`, `game` and `kind` must be given for a mail that reads.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// `ok` or `unreadable`.
    #[serde(default = "ok")]
    parse: String,
    /// Part of the reason a mail is unreadable.
    error: Option<String>,
    message_id: Option<String>,
    from: Option<String>,
    /// `none`, `bounce`, `list-notice`, `auto-submitted`, `bulk`, `loop`,
    /// `own`.
    #[serde(default = "none")]
    auto: String,
    /// `pass`, `fail`, `unknown`.
    #[serde(default = "unknown")]
    auth: String,
    /// `tagged MN12`, `named MN12`, `only MN12`, `ambiguous MN12 MN13`,
    /// `unknown`.
    game: Option<String>,
    /// `turn`, `commands`, `take-back`, `buzz`, `withdraw`, `concede`,
    /// `contest`, `judgment`, `decline`, `not-understood`, `chatter`.
    kind: Option<String>,
    /// A turn's (or a take-back's replacement's) excerpt: a GSD or a Play.
    gsd: Option<bool>,
    /// Where the excerpt starts in the body (1-based).
    line: Option<usize>,
    column: Option<usize>,
    /// A GSD's first line; a Play (with its continuation lines); the line a
    /// message not understood was read by.
    text: Option<String>,
    /// The commands, as written (`STATUS MN12`, `RULES coverage`, a
    /// Speaker's line whole), `?` before one not understood.
    commands: Option<Vec<String>>,
    /// A Buzz's player and turn.
    player: Option<String>,
    turn: Option<u64>,
    /// A Buzz's reason, a Contest's or a Judgment's text.
    reason: Option<String>,
    /// A Judgment's verdict.
    legal: Option<bool>,
    /// What a message not understood looked like: `letter`, `command
    /// STATUS`, `player Cyrer`, `play without a name`.
    looks_like: Option<String>,
    /// The posts of a digest, in order.
    #[serde(default)]
    post: Vec<Expect>,
}

fn auto_name(a: Option<AutoKind>) -> String {
    match a {
        None => "none",
        Some(AutoKind::Bounce) => "bounce",
        Some(AutoKind::ListNotice) => "list-notice",
        Some(AutoKind::AutoSubmitted) => "auto-submitted",
        Some(AutoKind::Bulk) => "bulk",
        Some(AutoKind::Loop) => "loop",
        Some(AutoKind::Own) => "own",
    }
    .into()
}

fn game_name(g: &GameRef) -> String {
    match g {
        GameRef::Tagged(t) => format!("tagged {t}"),
        GameRef::Named(t) => format!("named {t}"),
        GameRef::Only(t) => format!("only {t}"),
        GameRef::Ambiguous(v) => format!("ambiguous {}", v.join(" ")),
        GameRef::Unknown => "unknown".into(),
    }
}

fn command_text(c: &Command) -> String {
    let with = |word: &str, arg: &Option<String>| match arg {
        Some(a) => format!("{word} {a}"),
        None => word.to_string(),
    };
    match c {
        Command::Help => "HELP".into(),
        Command::Status(game) => with("STATUS", game),
        Command::Gsd(game) => with("GSD", game),
        Command::History(game) => with("HISTORY", game),
        Command::Rules => "RULES".into(),
        Command::Speaker(s) => s.clone(),
        Command::Unknown(s) => format!("? {s}"),
        Command::Stalemate(step, game) => {
            let word = match step {
                StalemateStep::Agree => "STALEMATE",
                StalemateStep::Withdraw => "WITHDRAW STALEMATE",
                StalemateStep::Confirm => "CONFIRM STALEMATE",
                StalemateStep::Refuse => "REFUSE STALEMATE",
            };
            with(word, game)
        }
        Command::Points => "POINTS".into(),
        Command::Archive(game) => with("ARCHIVE", game),
        Command::Lobby(l) => format!("LOBBY {l:?}"),
        Command::Absence(a) => format!("ABSENCE {a:?}"),
    }
}

/// Fills `e` with an excerpt, checking it lies where it says in `body`
/// and reads as what it is.
fn excerpt(name: &str, body: &str, x: &Request, e: &mut Expect) {
    let Request::Turn {
        text,
        gsd,
        line,
        column,
    } = x
    else {
        panic!("{name}: not a turn: {x:?}")
    };
    let (gsd, x) = (
        *gsd,
        Excerpt {
            text: text.clone(),
            line: *line,
            column: *column,
        },
    );
    let first = x.text.split('\n').next().unwrap_or("");
    let at: String = body
        .split('\n')
        .nth(x.line - 1)
        .unwrap_or_else(|| panic!("{name}: no body line {}", x.line))
        .chars()
        .skip(x.column - 1)
        .collect();
    assert_eq!(
        at.trim_end(),
        first.trim_end(),
        "{name}: the excerpt's place"
    );
    if gsd {
        parse_gsd(&x.text, Map::london_1999())
            .unwrap_or_else(|err| panic!("{name}: {err}\n{}", x.text));
    } else {
        parse_play(&x.text, Map::london_1999()).unwrap_or_else(|err| panic!("{name}: {err}"));
    }
    e.gsd = Some(gsd);
    e.line = Some(x.line);
    e.column = Some(x.column);
    e.text = Some(if gsd {
        first.to_string()
    } else {
        x.text.clone()
    });
}

/// Everything there is to say of a mail that reads.
fn actual(name: &str, m: &Inbound) -> Expect {
    assert!(!m.body.contains('\r'), "{name}: CRLF becomes LF");
    let c = classify(m, &ctx());
    let mut e = Expect {
        parse: ok(),
        message_id: Some(m.message_id.clone()),
        from: Some(m.from.clone()),
        auto: auto_name(m.auto),
        auth: match m.auth {
            AuthVerdict::Pass => "pass",
            AuthVerdict::Fail => "fail",
            AuthVerdict::Unknown => "unknown",
        }
        .into(),
        game: Some(game_name(&c.game)),
        ..Expect::default()
    };
    match &c.request {
        t @ Request::Turn { gsd, text, .. } => {
            excerpt(name, &m.body, t, &mut e);
            if *gsd {
                // Every GSD a mail carries is the corpus's one.
                let parsed = parse_gsd(text, Map::london_1999()).unwrap();
                let reference = parse_gsd(GSD, Map::london_1999()).unwrap();
                assert_eq!(parsed, reference, "{name}: the GSD");
            }
        }
        Request::TakeBack(Some(t)) => excerpt(name, &m.body, t, &mut e),
        Request::Commands(cmds) => {
            e.commands = Some(cmds.iter().map(command_text).collect());
        }
        Request::Workflow(Workflow::Buzz {
            player,
            turn,
            reason,
        }) => {
            e.player.clone_from(player);
            e.turn = *turn;
            e.reason = Some(reason.clone());
        }
        Request::Workflow(Workflow::Contest { text }) => e.reason = Some(text.clone()),
        Request::Workflow(Workflow::Judgment { legal }) => e.legal = Some(*legal),
        Request::NotUnderstood { line, looks_like } => {
            e.text = Some(line.clone());
            e.looks_like = Some(match looks_like {
                LooksLike::Letter => "letter".into(),
                LooksLike::Command(w) => format!("command {w}"),
                LooksLike::Play(Some(n)) => format!("player {n}"),
                LooksLike::Play(None) => "play without a name".into(),
                LooksLike::Misspelt(m) => format!("misspelt {m}"),
            });
        }
        _ => {}
    }
    let kind = c.request.name();
    e.kind = Some(kind.into());
    e
}

/// `got` with only what `want` checks.
fn masked(mut got: Expect, want: &Expect) -> Expect {
    macro_rules! keep {
        ($($f:ident),*) => {$(
            if want.$f.is_none() {
                got.$f = None;
            }
        )*};
    }
    keep!(
        error, message_id, from, game, kind, gsd, line, column, text, commands, player, turn,
        reason, legal, looks_like
    );
    got.post = std::mem::take(&mut got.post)
        .into_iter()
        .zip(&want.post)
        .map(|(g, w)| masked(g, w))
        .collect();
    got
}

/// What comes of `raw`: the mail, and the posts of a digest.
fn run(name: &str, raw: &[u8]) -> Expect {
    let m = match parse(raw, &limits()) {
        Ok(m) => m,
        Err(err) => {
            return Expect {
                parse: "unreadable".into(),
                error: Some(err.to_string()),
                message_id: err.envelope().map(|v| v.message_id.clone()),
                auto: auto_name(err.envelope().and_then(|v| v.auto)),
                auth: unknown(),
                ..Expect::default()
            }
        }
    };
    let mut e = actual(name, &m);
    if let Some(d) = digest::read(raw, &m, &limits()) {
        assert_eq!(d.unread, 0, "{name}");
        e.post = d
            .posts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let post = p
                    .read
                    .as_ref()
                    .unwrap_or_else(|err| panic!("{name}: {err}"));
                actual(&format!("{name}, post {}", i + 1), post)
            })
            .collect();
    }
    e
}

fn check(name: &str, want: &Expect, raw: &[u8]) {
    let got = run(name, raw);
    assert_eq!(
        got.post.len(),
        want.post.len(),
        "{name}: the posts: {got:#?}"
    );
    let mut got = masked(got, want);
    // An unreadable mail's reason is a part of the message.
    if let (Some(g), Some(w)) = (&got.error, &want.error) {
        assert!(g.contains(w.as_str()), "{name}: {g}");
        got.error = Some(w.clone());
    }
    assert_eq!(&got, want, "{name}");
}

fn with_lf(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\r' && raw.get(i + 1) == Some(&b'\n') {
            i += 1;
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

fn with_crlf(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 16);
    for &b in &with_lf(raw) {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

fn expectation(eml: &Path) -> Expect {
    let name = eml.file_stem().unwrap().to_string_lossy();
    let path = eml.with_file_name(format!("{name}.expect.toml"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (every mail has its expectations)", path.display()));
    let e: Expect = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let given = |e: &Expect| e.from.is_some() && e.game.is_some() && e.kind.is_some();
    assert!(
        e.parse != "ok" || (given(&e) && e.post.iter().all(given)),
        "{}: from, game and kind must be given",
        path.display()
    );
    e
}

#[test]
fn every_mail_meets_its_expectations_with_lf_and_crlf() {
    let mut mails: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    mails.sort();
    assert!(mails.len() >= 45, "{} mails", mails.len());
    for eml in &mails {
        let name = eml.file_name().unwrap().to_string_lossy().into_owned();
        let want = expectation(eml);
        let raw = std::fs::read(eml).unwrap();
        check(&name, &want, &raw);
        check(&format!("{name} (LF)"), &want, &with_lf(&raw));
        check(&format!("{name} (CRLF)"), &want, &with_crlf(&raw));
    }
    // And no expectation without its mail.
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        let file = p.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(stem) = file.strip_suffix(".expect.toml") {
            assert!(p.with_file_name(format!("{stem}.eml")).exists(), "{file}");
        }
    }
}

#[test]
fn line_ends_convert_both_ways() {
    assert_eq!(with_lf(b"a\r\nb\nc\r"), b"a\nb\nc\r");
    assert_eq!(with_crlf(b"a\r\nb\nc"), b"a\r\nb\r\nc");
}
