//! Verdicts cite the right rule (issue 39, RULINGS G13): every rule number
//! a verdict can cite is a rule of the ruleset's text, each Action's rule is
//! the one whose text names it, and an Action that cannot be paid cites the
//! rule that prices it. The rules the engine can cite are collected, not
//! listed by hand: the tables (`grammar/actions.toml`,
//! `grammar/possessions.toml`, `grammar/rules-vol1.toml`) and every rule
//! number in a string of `src/engine`'s source, where each `illegal(...)` and
//! `ruling(...)` takes its rule from.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mornbot::engine::{adjudicate, case::Case, Verdict};
use mornbot::gsd::{parse_play, Price, Status, GOODS, SPECS};
use mornbot::map::Map;

/// Volume 1 of the ruleset, verbatim (fixtures/README.md).
const RULESET: &str = include_str!("../fixtures/ruleset/mornington-nomic-ruleset-vol1.txt");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Whether `s` is a rule number, `1.7.47`: three dot-separated numbers.
fn is_rule_number(s: &str) -> bool {
    s.split('.').count() == 3
        && s.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Each rule of the text by number: its paragraph, from `Rule X.Y.Z - `
/// at the start of a line to the next rule or Section.
fn rules_of_text() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in RULESET.lines() {
        let number = line
            .strip_prefix("Rule ")
            .and_then(|r| r.split_whitespace().next())
            .filter(|n| is_rule_number(n));
        if number.is_some() || line.starts_with('/') || line.starts_with("SECTION") {
            if let Some((n, body)) = current.take() {
                out.insert(n, body);
            }
        }
        if let Some(n) = number {
            current = Some((n.to_string(), String::new()));
        }
        if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    if let Some((n, body)) = current {
        out.insert(n, body);
    }
    out
}

/// The Sections of Volume 0 that the Table of Contents lists (`0.9
/// Kudos`): Volume 0 is another file, so a rule `0.x.y` is checked against
/// its Section.
fn volume_0_sections() -> BTreeSet<String> {
    let start = RULESET.find("Table of Contents").expect("the contents");
    let end = start
        + RULESET[start..]
            .find("in this file")
            .expect("the contents end");
    RULESET[start..end]
        .split_whitespace()
        .filter(|w| {
            w.strip_prefix("0.")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(str::to_string)
        .collect()
}

/// The string literals of Rust source, comments skipped.
fn string_literals(src: &str) -> Vec<String> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            // A char literal holding a quote or a backslash.
            b'\'' if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') => i += 4,
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 3,
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                out.push(src[start..i.min(b.len())].to_string());
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The rule numbers a string cites: the whole string when it is one
/// (`illegal("1.11.7", ...)`), else each number after "Rule" or "Rules" in
/// a message ("(Rules 1.4.46, 1.7.30)").
fn cited_in(lit: &str) -> Vec<String> {
    if is_rule_number(lit) {
        return vec![lit.to_string()];
    }
    let mut out = Vec::new();
    for (k, _) in lit.match_indices("Rule") {
        let rest = &lit[k + 4..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        if !rest.starts_with(' ') {
            continue; // "Rulebook", "Rulings"
        }
        // "Rule 1.4.33", "Rules 1.4.46, 1.7.30", "Rules 1.10.1 - 1.10.3".
        'words: for w in rest.split_whitespace() {
            if matches!(w, "and" | "or" | "to" | "-") {
                continue;
            }
            for piece in w.split('-') {
                let n = piece.trim_end_matches([',', ')', ';', ':', '.']);
                if !is_rule_number(n) {
                    break 'words;
                }
                out.push(n.to_string());
            }
            if w.ends_with([')', ';', ':']) {
                break;
            }
        }
    }
    out
}

/// Every rule number in a string of `src/engine`, with where it is.
fn engine_citations() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    files(&root().join("src/engine"), "rs", &mut paths);
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let src = std::fs::read_to_string(&p).unwrap();
        let name = p.strip_prefix(root()).unwrap().display().to_string();
        for lit in string_literals(&src) {
            for n in cited_in(&lit) {
                out.push((n, name.clone()));
            }
        }
    }
    out
}

#[test]
fn the_source_scan_reads_literals_and_messages() {
    let lits = string_literals(
        "// \"9.9.9\" in a comment\nlet q = '\"'; illegal(\"1.11.7\", format!(\"x {n} (Rules 1.4.46, 1.7.30)\")); let e = \"a \\\" b\";",
    );
    assert_eq!(
        lits,
        vec!["1.11.7", "x {n} (Rules 1.4.46, 1.7.30)", "a \\\" b"]
    );
    assert_eq!(cited_in("1.11.7"), vec!["1.11.7"]);
    assert_eq!(
        cited_in("x (Rules 1.4.46, 1.7.30) and (Rule 1.4.33)"),
        vec!["1.4.46", "1.7.30", "1.4.33"]
    );
    assert_eq!(
        cited_in("Rules 1.10.1 - 1.10.3 and 1.10.17-1.10.18, by Rulebook 1.2.3"),
        vec!["1.10.1", "1.10.3", "1.10.17", "1.10.18"]
    );
    assert_eq!(cited_in("Rule 1.7.x and 12.3"), Vec::<String>::new());
}

#[test]
fn every_rule_a_verdict_can_cite_is_in_the_ruleset() {
    let text = rules_of_text();
    assert!(text.len() > 170, "the rules of Volume 1: {}", text.len());
    let volume_0 = volume_0_sections();
    assert!(volume_0.contains("0.9"), "{volume_0:?}");
    let mut cited: Vec<(String, String)> = Vec::new();
    for s in SPECS {
        cited.push((s.rule.to_string(), format!("actions.toml {} rule", s.id)));
        cited.push((
            s.phase_rule.to_string(),
            format!("actions.toml {} phase_rule", s.id),
        ));
    }
    for g in GOODS {
        cited.push((g.rule.to_string(), format!("possessions.toml {}", g.id)));
    }
    let list: toml::Value = toml::from_str(include_str!("../grammar/rules-vol1.toml")).unwrap();
    let listed: Vec<String> = list["rule"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_str().unwrap().to_string())
        .collect();
    for n in &listed {
        cited.push((n.clone(), "rules-vol1.toml".into()));
    }
    let engine = engine_citations();
    // The scan is not vacuous: the engine's own citations are found.
    assert!(
        engine.len() > 300,
        "{} citations in src/engine",
        engine.len()
    );
    for known in ["1.11.7", "1.4.46", "1.3.2", "1.20.0"] {
        assert!(engine.iter().any(|(n, _)| n == known), "{known}");
    }
    cited.extend(engine);
    let mut wrong = BTreeSet::new();
    for (n, from) in &cited {
        let known = match n.strip_prefix("0.") {
            Some(rest) => {
                let section = format!("0.{}", rest.split('.').next().unwrap_or(""));
                volume_0.contains(&section)
            }
            None => text.contains_key(n),
        };
        if !is_rule_number(n) || !known {
            wrong.insert(format!(
                "{from} cites Rule {n}, which the ruleset does not have"
            ));
        }
    }
    // And rules-vol1.toml lists every rule of the text.
    for n in text.keys() {
        if !listed.contains(n) {
            wrong.insert(format!("rules-vol1.toml lacks Rule {n}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{}",
        wrong.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The words of an Action's form a rule defining it must contain, as
/// stems: `[Power-Shunting <Player> to <Station>]` -> `power`, `shunt`.
fn form_words(form: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut hole = false;
    for c in form.chars() {
        match c {
            '<' => hole = true,
            '>' => hole = false,
            _ if hole => {}
            _ => plain.push(c),
        }
    }
    let mut out = Vec::new();
    for w in plain.split(|c: char| c.is_whitespace() || "[]():!,".contains(c)) {
        // `LV+` and `LV-` are words; elsewhere a hyphen joins two.
        let parts: Vec<&str> = if w.ends_with(['+', '-']) {
            vec![w]
        } else {
            w.split('-').collect()
        };
        for p in parts {
            let p = p.to_lowercase();
            if p.len() < 2
                || matches!(
                    p.as_str(),
                    "to" | "at" | "from" | "by" | "the" | "of" | "and"
                )
            {
                continue;
            }
            let stem = if p.len() > 6 && p.ends_with("ing") {
                p[..p.len() - 3].to_string()
            } else if p.len() > 4 && p.ends_with('s') {
                p[..p.len() - 1].to_string()
            } else {
                p
            };
            out.push(stem);
        }
    }
    out
}

#[test]
fn every_action_cites_the_rule_whose_text_names_it() {
    let text = rules_of_text();
    assert_eq!(
        form_words("[Power-Shunting <Player> to <Station>]"),
        ["power", "shunt"]
    );
    assert_eq!(form_words("[LV+<N>]"), ["lv+"]);
    let mut wrong = Vec::new();
    for s in SPECS {
        if s.rule.starts_with("0.") {
            // Volume 0 is not in the text; such Actions need a human ruling.
            assert_eq!(s.status, Status::Ruling, "{}", s.id);
            continue;
        }
        let Some(body) = text.get(s.rule) else {
            wrong.push(format!("{}: Rule {} is not in the ruleset", s.id, s.rule));
            continue;
        };
        let body = body.to_lowercase();
        let words = form_words(s.form);
        assert!(!words.is_empty(), "{}: {}", s.id, s.form);
        let missing: Vec<&String> = words
            .iter()
            .filter(|w| !body.contains(w.as_str()))
            .collect();
        if !missing.is_empty() {
            wrong.push(format!(
                "{}: Rule {} does not name {} ({missing:?}){}",
                s.id,
                s.rule,
                s.form,
                s.rule_written
                    .map_or(String::new(), |w| format!("; the index wrote {w}"))
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every Legal case of the corpus replayed with the acting player's Tokens
/// taken away: each Action whose price cannot then be paid is refused
/// citing its own rule, the one that prices it. Every Action with a Cost
/// in the table must be caught so at least once.
#[test]
fn an_unpayable_action_cites_the_rule_that_prices_it() {
    let map = Map::london_1999();
    let mut paths = Vec::new();
    files(&root().join("fixtures/cases"), "toml", &mut paths);
    paths.sort();
    let mut caught = vec![0usize; SPECS.len()];
    let mut wrong = Vec::new();
    for p in &paths {
        let case = Case::from_toml(&std::fs::read_to_string(p).unwrap()).unwrap();
        if case.expect.verdict != "legal" {
            continue;
        }
        let (Ok(mut state), Ok(play)) = (case.state(map), parse_play(&case.play.line, map)) else {
            continue;
        };
        let me = state.to_play;
        state.players[me].tokens = Default::default();
        let out = adjudicate(map, &state, &play);
        for a in play.actions() {
            let spec = a.spec();
            if spec.cost == Price::None {
                continue;
            }
            let what = a.render();
            let price: Vec<_> = out
                .violations
                .iter()
                .filter(|v| {
                    v.message.contains(&what)
                        && (v.message.contains("cannot pay") || v.message.contains(" costs "))
                })
                .collect();
            if price.is_empty() {
                continue;
            }
            assert_eq!(out.verdict, Verdict::Illegal);
            caught[a.index()] += 1;
            for v in price {
                if v.rule != spec.rule {
                    wrong.push(format!(
                        "{}: {what} unpaid cites Rule {}, not Rule {} that prices it: {}",
                        case.id, v.rule, spec.rule, v.message
                    ));
                }
            }
        }
    }
    for (i, s) in SPECS.iter().enumerate() {
        if s.cost != Price::None && s.status == Status::Adjudicated && caught[i] == 0 {
            wrong.push(format!(
                "{}: no Legal case of the corpus shows {} refused for want of its price",
                s.id, s.form
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
