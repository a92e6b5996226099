//! `config.example.toml` documents every key (issue 39): every key the
//! configuration's serde structs accept is in it, and every key in it is
//! one they accept, with a value of the right type.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::*;

const EXAMPLE: &str = include_str!("../../config.example.toml");

/// The example with its commented-out keys and sections put back: a line
/// `# key = value` or `# [section]` loses its `# `; prose stays a comment.
fn uncommented() -> String {
    EXAMPLE
        .lines()
        .map(|l| {
            match l
                .strip_prefix('#')
                .map(|r| r.strip_prefix(' ').unwrap_or(r))
            {
                Some(r) if is_section(r) || key_of(r).is_some() => r.to_string(),
                _ => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `[section]` or `[[array.of.tables]]`, maybe with a comment after it.
fn is_section(line: &str) -> bool {
    section_of(line).is_some()
}

/// The dotted path of a section line.
fn section_of(line: &str) -> Option<String> {
    let l = line.trim_start();
    let inner = l
        .strip_prefix("[[")
        .and_then(|r| r.split_once("]]"))
        .or_else(|| l.strip_prefix('[').and_then(|r| r.split_once(']')))?;
    let (name, rest) = inner;
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.');
    let rest = rest.trim();
    (ok && (rest.is_empty() || rest.starts_with('#'))).then(|| name.to_string())
}

/// The key of a `key = value` line.
fn key_of(line: &str) -> Option<&str> {
    let (key, _) = line.split_once(" = ")?;
    (!key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
    .then_some(key)
}

/// Every `section.key` the example documents, commented out or not.
fn documented() -> BTreeSet<String> {
    let mut section = String::new();
    let mut keys = BTreeSet::new();
    for l in uncommented().lines() {
        if let Some(s) = section_of(l) {
            section = s;
        } else if let Some(k) = key_of(l) {
            keys.insert(format!("{section}.{k}"));
        }
    }
    keys
}

/// Every `section.key` a value of the configuration serialises to: the
/// serde structs' own names (renames and flattening applied), down to
/// the leaves.
fn keys_of(v: &serde_json::Value, path: &str, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                if v.is_object() || is_tables(v) {
                    keys_of(v, &p, out);
                } else {
                    out.insert(p);
                }
            }
        }
        serde_json::Value::Array(items) if is_tables(v) => {
            for item in items {
                keys_of(item, path, out);
            }
        }
        _ => {}
    }
}

/// Whether `v` is an array of tables (`[[game]]`).
fn is_tables(v: &serde_json::Value) -> bool {
    v.as_array()
        .is_some_and(|a| !a.is_empty() && a.iter().all(serde_json::Value::is_object))
}

/// A configuration with every optional part present, so that every key
/// shows when it is serialised: the sections that are options, a game, a
/// player. A new field of these structs must be given here (they have no
/// defaults), and so is found.
fn full() -> Config {
    let secret = Secret {
        password_file: Some(PathBuf::from("p")),
        password_env: Some("P".into()),
    };
    Config {
        imap: Some(ImapConfig {
            host: "h".into(),
            port: Some(1),
            security: Security::Tls,
            user: "u".into(),
            secret: secret.clone(),
            folder: "f".into(),
            quarantine_folder: "q".into(),
            wait: Wait::Poll,
            poll_ms: 1,
            idle_secs: 1,
            ca_file: Some(PathBuf::from("c")),
        }),
        smtp: Some(SmtpConfig {
            host: "h".into(),
            port: Some(1),
            security: Security::Tls,
            user: Some("u".into()),
            secret,
            ca_file: Some(PathBuf::from("c")),
        }),
        games: vec![GameConfig {
            tag: "MN1".into(),
            start: default_start(),
            players: vec![PlayerConfig {
                name: "A".into(),
                address: "a@x".into(),
            }],
            referee: Some("r@x".into()),
            rulings: crate::kinds::vol1::Rulings::default(),
            picture: true,
            kind: crate::kinds::Kind::McXml,
            deadline: Some("48h".into()),
            kind_rulings: [
                ("build_at".to_string(), RulingValue::Text("on".into())),
                ("unblock_adjacent".to_string(), RulingValue::Bool(true)),
            ]
            .into(),
        }],
        ..Config::default()
    }
}

#[test]
fn the_example_documents_every_key_the_configuration_accepts() {
    let mut accepted = BTreeSet::new();
    keys_of(
        &serde_json::to_value(full()).expect("a configuration serialises"),
        "",
        &mut accepted,
    );
    let documented = documented();
    let missing: Vec<&String> = accepted.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "keys the configuration accepts that config.example.toml does not document: \
         {missing:?}"
    );
    // And the other way: each documented key is one of the structs'.
    let unknown: Vec<&String> = documented.difference(&accepted).collect();
    assert!(unknown.is_empty(), "keys no struct accepts: {unknown:?}");
}

#[test]
fn the_example_with_every_key_set_is_a_valid_configuration() {
    // Each documented key, set to its example value, reads (unknown keys
    // and wrong types are refused) and validates.
    let text = uncommented();
    let c = Config::from_toml(&text, "config.example.toml (uncommented)")
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(c.imap.is_some() && c.smtp.is_some() && !c.games.is_empty());
    c.validate().unwrap();
}

#[test]
fn the_key_walk_sees_renames_and_flattening() {
    let mut keys = BTreeSet::new();
    keys_of(&serde_json::to_value(full()).unwrap(), "", &mut keys);
    for k in [
        "game.player.address",
        "game.rulings.soaped_phase",
        "imap.password_file",
        "speaker.addresses",
        "bot.internal_networks",
    ] {
        assert!(keys.contains(k), "{k} in {keys:?}");
    }
    assert!(!keys.contains("imap.secret"), "{keys:?}");
    assert!(!keys.contains("games"), "{keys:?}");
}
