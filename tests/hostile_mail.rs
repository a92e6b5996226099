//! The hostile-mail corpus (`fixtures/mail/hostile/`, described in its
//! README): each mail beside a `.toml` of what must come of it, run through
//! parsing and classification, and through building a reply to it (header
//! hygiene). The `[referee]` expectations are checked by the referee's own
//! run of the corpus (issue 14, phase 2); here they are only read.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::collections::BTreeMap;
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
    /// What the referee must do (checked in phase 2).
    #[allow(dead_code)]
    referee: Option<BTreeMap<String, toml::Value>>,
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
        games: vec![
            GameInfo {
                tag: "MN12".into(),
                players: vec!["Rushton".into(), "Cryer".into(), "Brooke-Taylor".into()],
            },
            GameInfo {
                tag: "MN13".into(),
                players: vec!["Garden".into(), "Lyttelton".into()],
            },
        ],
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
