//! The hostile-mail corpus (`fixtures/mail/hostile/`, described in its
//! README): each mail beside a `.toml` of what must come of it, run through
//! parsing and classification, and through building a reply to it (header
//! hygiene), then through a referee hosting the corpus's games, whose
//! outcome each case's `[referee]` table states.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use mornbot::mail::classify::{classify, ClassifyContext, GameInfo};
use mornbot::mail::inbound::{parse, AuthVerdict, InboundError, Limits};
use mornbot::mail::outbound::{build, reply_id, Auto, Identity, Reply};
use mornbot::map::Map;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    finding: u32,
    what: String,
    generate: Option<Generate>,
    expect: Expect,
    /// What the referee must do with it.
    referee: RefereeExpect,
}

/// What the referee does with a hostile mail, after two legal rounds of
/// MN12 (Rushton, Cryer, Brooke-Taylor), the second all Passes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RefereeExpect {
    /// Whether the trusted authserv-id `mx.example.net` is configured.
    #[serde(default)]
    trusted: bool,
    /// The `[limits]` key that refused it, `authentication` (changes
    /// nothing, answered by no one) or `replay`.
    refused: Option<String>,
    /// What the referee took it for (`turn`, `command`, `chatter`, ...).
    kind: Option<String>,
    /// A part of the referee's summary.
    summary: Option<String>,
    /// How many replies it caused.
    replies: Option<usize>,
}

/// A mail too big to keep as a file: `head`, a blank line (unless `head`
/// holds one), `prefix`, `body` `times` times, `suffix`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Generate {
    head: String,
    body: String,
    times: usize,
    #[serde(default)]
    prefix: String,
    #[serde(default)]
    suffix: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// `ok`, `unreadable` or `oversize`.
    parse: String,
    /// A part of the refusal's reason.
    reason: Option<String>,
    /// Whether a refusal has a sender to answer.
    answer: Option<bool>,
    from: Option<String>,
    /// `pass`, `fail` or `unknown`.
    auth: Option<String>,
    /// The classifier's kind: `turn`, `commands`, `buzz`, `concede`, ...
    kind: Option<String>,
}

fn dir() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "fixtures", "mail", "hostile"]
        .iter()
        .collect()
}

fn limits() -> Limits {
    Limits {
        own_addresses: vec!["mornbot@example.org".into()],
        loop_token: Some("mornbot@example.org".into()),
        trusted_authserv_id: Some("mx.example.net".into()),
        internal_networks: vec!["10.0.0.0/8".parse().unwrap()],
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

fn raw_of(toml_path: &Path, case: &Case) -> Vec<u8> {
    match &case.generate {
        Some(g) => {
            let mut s = g.head.clone();
            if !s.contains("\n\n") && !g.suffix.contains("\n\n") {
                s.push('\n');
            }
            s.push_str(&g.prefix);
            s.push_str(&g.body.repeat(g.times));
            s.push_str(&g.suffix);
            s.into_bytes()
        }
        None => {
            let eml = toml_path.with_extension("eml");
            std::fs::read(&eml).unwrap_or_else(|e| panic!("{}: {e}", eml.display()))
        }
    }
}

/// Builds a reply the way the referee does (to the sender, `Re:` the
/// subject, threaded) and checks what reaches its header section.
fn check_reply(name: &str, to: &str, subject: &str, id: &str, refs: &[String]) {
    let me = Identity {
        address: "mornbot@example.org".into(),
        name: "mornbot".into(),
        lounge: "lounge@lists.example.org".into(),
    };
    let mut references = refs.to_vec();
    references.push(id.to_string());
    let r = Reply {
        to: vec![to.to_string()],
        subject: format!("Re: {subject}"),
        body: "Refused.\n".into(),
        in_reply_to: Some(id.to_string()),
        references,
        message_id: reply_id(id, 0, &me),
        date: chrono::Utc::now(),
        auto: Auto::Replied,
        picture: None,
    };
    let mail = build(&me, &r).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = String::from_utf8_lossy(&mail.raw).into_owned();
    let head = text.split("\r\n\r\n").next().unwrap();
    for line in head.split("\r\n") {
        assert!(
            line.len() <= 998,
            "{name}: a header line of {} bytes",
            line.len()
        );
        assert!(
            !line.chars().any(|c| c.is_control() && c != '\t'),
            "{name}: a control character in {line:?}"
        );
    }
    // Encoded words must not smuggle them either.
    let subject = mail_parser::MessageParser::new()
        .parse(&mail.raw)
        .and_then(|m| m.subject().map(str::to_string))
        .unwrap_or_default();
    assert!(
        !subject
            .chars()
            .any(|c| c.is_control()
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
        "{name}: the reply's subject decodes to {subject:?}"
    );
}

fn run(name: &str, case: &Case, raw: &[u8]) {
    let e = &case.expect;
    match parse(raw, &limits()) {
        Ok(m) => {
            assert_eq!(e.parse, "ok", "{name}: parsed, expected {}", e.parse);
            if let Some(from) = &e.from {
                assert_eq!(&m.from, from, "{name}");
            }
            if let Some(auth) = &e.auth {
                let got = match m.auth {
                    AuthVerdict::Pass => "pass",
                    AuthVerdict::Fail => "fail",
                    AuthVerdict::Unknown => "unknown",
                };
                assert_eq!(got, auth, "{name}: authentication");
            }
            let c = classify(&m, &ctx());
            if let Some(kind) = &e.kind {
                assert_eq!(c.request.name(), kind, "{name}: kind");
            }
            // The daemon threads a reply under References + In-Reply-To.
            let mut refs = m.references.clone();
            refs.extend(m.in_reply_to.clone());
            check_reply(name, &m.from, &m.subject, &m.message_id, &refs);
        }
        Err(err) => {
            let got = match err {
                InboundError::Oversize { .. } => "oversize",
                InboundError::Unreadable { .. } => "unreadable",
            };
            assert_eq!(got, e.parse, "{name}: {err}");
            if let Some(reason) = &e.reason {
                assert!(err.to_string().contains(reason), "{name}: {err}");
            }
            let env = err.envelope();
            let sender = env.and_then(|v| v.from.clone());
            if let Some(answer) = e.answer {
                assert_eq!(sender.is_some(), answer, "{name}: a sender to answer");
            }
            if let (Some(env), Some(to)) = (env, sender) {
                check_reply(name, &to, &env.subject, &env.message_id, &env.references);
            }
        }
    }
}

#[test]
fn every_hostile_mail_has_its_expected_outcome() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{} cases", names.len());
    for path in &names {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let case: Case = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            name.starts_with(&format!("f{:02}-", case.finding)),
            "{name}: finding {}",
            case.finding
        );
        assert!(!case.what.is_empty(), "{name}");
        let raw = raw_of(path, &case);
        // Every mail as sent, and with CRLF line ends.
        run(&name, &case, &raw);
        let crlf: Vec<u8> = String::from_utf8_lossy(&raw)
            .replace('\n', "\r\n")
            .into_bytes();
        if crlf.len() <= limits().max_bytes || case.expect.parse != "ok" {
            run(&format!("{name} (CRLF)"), &case, &crlf);
        }
    }
    // Every mail file has its expectations.
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "eml") {
            assert!(p.with_extension("toml").exists(), "{}", p.display());
        }
    }
}

mod referee {
    //! The corpus through a referee: MN12 (Rushton, Cryer, Brooke-Taylor)
    //! after two legal rounds, MN13 (Garden, Lyttelton) not started.

    use chrono::{DateTime, TimeZone, Utc};
    use mornbot::config::{Config, GameConfig, PlayerConfig, SpeakerConfig};
    use mornbot::daemon::letter::{letter, Context};
    use mornbot::daemon::referee::Referee;
    use mornbot::mail::outbound::Identity;
    use mornbot::map::Map;
    use mornbot::store::{Origin, Store};

    use super::RefereeExpect;

    /// What one hostile mail did.
    pub struct Outcome {
        pub kind: String,
        pub summary: String,
        pub replies: Vec<Vec<u8>>,
        pub turns: usize,
    }

    fn me() -> Identity {
        Identity {
            address: "mornbot@example.org".into(),
            name: "mornbot".into(),
            lounge: "lounge@lists.example.org".into(),
        }
    }

    fn at(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2025, 1, 14, h, m, 0).unwrap()
    }

    fn game(tag: &str, players: &[(&str, &str)]) -> GameConfig {
        GameConfig {
            tag: tag.into(),
            start: "Monday 0900".into(),
            players: players
                .iter()
                .map(|(n, a)| PlayerConfig {
                    name: n.to_string(),
                    address: a.to_string(),
                })
                .collect(),
            referee: None,
            rulings: Default::default(),
            picture: false,
            kind: Default::default(),
            deadline: None,
            kind_rulings: Default::default(),
        }
    }

    fn origin() -> Origin {
        Origin {
            source: "hostile".into(),
            uidvalidity: None,
            uid: None,
        }
    }

    /// Posts two legal rounds of MN12 (the second all Passes, 14:00-14:05)
    /// and then `raw`, received at 15:00.
    pub fn run(raw: &[u8], expect: &RefereeExpect) -> Outcome {
        let mut store = Store::in_memory().unwrap();
        let games = [
            game(
                "MN12",
                &[
                    ("Rushton", "tim@example.org"),
                    ("Cryer", "barry@example.com"),
                    ("Brooke-Taylor", "graeme@example.org"),
                ],
            ),
            game(
                "MN13",
                &[
                    ("Garden", "kim@example.org"),
                    ("Lyttelton", "humph@example.org"),
                ],
            ),
        ];
        let speaker = SpeakerConfig {
            addresses: vec!["speaker@example.org".into()],
            ..SpeakerConfig::default()
        };
        let map = Map::london_1999();
        let mut referee = Referee::load(map, me(), speaker, &games, &mut store, at(13, 0)).unwrap();
        let mut cfg = Config::default();
        cfg.bot.address = me().address;
        cfg.bot.lounge = me().lounge;
        cfg.bot.internal_networks = vec!["10.0.0.0/8".parse().unwrap()];
        cfg.bot.trusted_authserv_id = expect.trusted.then(|| "mx.example.net".to_string());
        let ctx = Context::new(map, &me(), &cfg);
        let rounds = [
            (
                "tim@example.org",
                "Rushton : Morden (NT) [Home: Tooting Broadway]",
            ),
            (
                "barry@example.com",
                "Cryer : Upminster (DS) [Home: Hornchurch]",
            ),
            (
                "graeme@example.org",
                "Brooke-Taylor : Epping (CN) [Home: Theydon Bois]",
            ),
            ("tim@example.org", "Rushton : Pass"),
            ("barry@example.com", "Cryer : Pass"),
            ("graeme@example.org", "Brooke-Taylor : Pass"),
        ];
        for (i, (from, play)) in rounds.iter().enumerate() {
            let domain = from.split('@').nth(1).unwrap();
            let mail = format!(
                "Authentication-Results: mx.example.net; dmarc=pass header.from={domain}\r\n\
                 From: {from}\r\nTo: lounge@lists.example.org\r\nSubject: [MN12] turn\r\n\
                 Date: Tue, 14 Jan 2025 14:0{i}:00 +0000\r\n\
                 Message-ID: <round-{i}@example.org>\r\n\r\n{play}\r\n"
            );
            let l = letter(mail.as_bytes(), &ctx, &referee);
            let h = referee
                .handle(&mut store, origin(), &l, at(14, i as u32))
                .unwrap();
            assert_eq!(h.summary, "legal", "the opening rounds: {play}");
        }
        let before = store.all_mail().unwrap().len();
        let l = letter(raw, &ctx, &referee);
        let h = referee.handle(&mut store, origin(), &l, at(15, 0)).unwrap();
        Outcome {
            kind: h.kind,
            summary: h.summary,
            replies: store.all_mail().unwrap()[before..]
                .iter()
                .map(|m| m.raw.clone())
                .collect(),
            turns: store.turns("MN12").unwrap().len() + store.turns("MN13").unwrap().len(),
        }
    }
}

/// The most a hostile mail may cause to be sent, in bytes: a refusal, or
/// a reply cut at the `[limits]` reply size (finding 1 mailed 14.7 MB).
const MOST_REPLY_BYTES: usize = 300 << 10;

#[test]
fn every_hostile_mail_does_what_its_case_says_to_the_referee() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    names.sort();
    for path in &names {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let case: Case = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let raw = raw_of(path, &case);
        let x = &case.referee;
        let got = referee::run(&raw, x);
        let what = format!("{name}: {} / {}", got.kind, got.summary);
        // Nothing hostile changes a game: the opening rounds' 6 turns stay.
        assert_eq!(got.turns, 6, "{what}: a game changed");
        let bytes: usize = got.replies.iter().map(Vec::len).sum();
        assert!(
            bytes <= MOST_REPLY_BYTES,
            "{what}: {bytes} bytes of replies"
        );
        match x.refused.as_deref() {
            Some("authentication") => {
                assert_eq!(got.kind, "auth", "{what}");
                assert!(got.replies.is_empty(), "{what}: answered");
            }
            Some(key) => {
                assert!(got.summary.contains(key), "{what}: not refused by {key}");
                assert_eq!(got.replies.len(), 1, "{what}: one refusal to the sender");
            }
            None => {}
        }
        if let Some(kind) = &x.kind {
            assert_eq!(&got.kind, kind, "{what}");
        }
        if let Some(summary) = &x.summary {
            assert!(got.summary.contains(summary.as_str()), "{what}");
        }
        if let Some(n) = x.replies {
            assert_eq!(got.replies.len(), n, "{what}: replies");
        }
        for raw in &got.replies {
            no_control_characters_read(&what, raw);
        }
    }
}

/// Whether `c` may not reach a reply: a control character but a line end
/// or tab, or a bidirectional control (Trojan Source's).
fn unfit(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A reply as its reader's client decodes it (Subject and text) holds no
/// control character (issue 39, item 11).
fn no_control_characters_read(what: &str, raw: &[u8]) {
    let m = mail_parser::MessageParser::new()
        .parse(raw)
        .unwrap_or_else(|| panic!("{what}: a reply that does not parse"));
    let subject = m.subject().unwrap_or_default();
    assert!(
        !subject.chars().any(unfit),
        "{what}: the reply's Subject {subject:?}"
    );
    let text = m.body_text(0).unwrap_or_default();
    let bad: Vec<&str> = text.lines().filter(|l| l.chars().any(unfit)).collect();
    assert!(bad.is_empty(), "{what}: control characters in {bad:?}");
}
