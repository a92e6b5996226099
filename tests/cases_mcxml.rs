//! The mc-xml rule-case corpus of fixtures/cases-mcxml/: every case passes,
//! and the corpus covers what it must (each action legal and illegal, each
//! rule and each testable ruling).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use mornbot::kinds::mcxml::case::McCase;
use mornbot::kinds::mcxml::{ActionKind, Facts};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

/// Every case file with its path.
fn corpus() -> Vec<(PathBuf, McCase)> {
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases-mcxml"),
        &mut all,
    );
    all.sort();
    all.into_iter()
        .map(|f| {
            let c = McCase::from_toml(&std::fs::read_to_string(&f).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f, c)
        })
        .collect()
}

fn is_blind(p: &Path) -> bool {
    p.components().any(|c| c.as_os_str() == "blind")
}

#[test]
fn the_mcxml_case_corpus_passes() {
    let all = corpus();
    assert!(!all.is_empty());
    let mut ids = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for (f, case) in &all {
        assert!(ids.insert(case.id.clone()), "duplicate id {}", case.id);
        assert!(
            case.unknown_keys.is_empty(),
            "{}: unknown keys {:?}",
            f.display(),
            case.unknown_keys
        );
        assert_eq!(
            f.file_stem().unwrap().to_str().unwrap(),
            case.id,
            "file name = id"
        );
        let r = case.run(Facts::london());
        if !r.pass {
            failures.push(format!("{}: {}", r.id, r.why.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn the_corpus_has_150_cases_of_its_own_beside_the_blind_ones() {
    let own = corpus().iter().filter(|(f, _)| !is_blind(f)).count();
    assert!(own >= 150, "{own} own cases");
}

/// Each action has a case where it stands and one where it is refused.
#[test]
fn every_action_has_a_legal_and_an_illegal_case() {
    let all = corpus();
    for name in [
        "Move", "Shunt", "Block", "Unblock", "Steal", "Work", "Slave", "Buy", "Build",
    ] {
        assert!(ActionKind::from_name(name).is_some());
        let with = |verdicts: &[&str]| {
            all.iter().any(|(_, c)| {
                verdicts.contains(&c.expect.verdict.as_str())
                    && c.turn
                        .xml
                        .to_ascii_lowercase()
                        .contains(&format!("<{}", name.to_ascii_lowercase()))
            })
        };
        assert!(with(&["legal", "won"]), "no legal case plays {name}");
        assert!(with(&["illegal"]), "no illegal case plays {name}");
    }
}

/// Rules 1 - 6 each have a legal and an illegal case, and Rule 7's
/// definitions are exercised.
#[test]
fn every_rule_has_cases_both_ways() {
    let all = corpus();
    for rule in ["1", "2", "3", "4", "5", "6"] {
        let cites = |legal: bool| {
            all.iter().any(|(_, c)| {
                c.rules.iter().any(|r| r == rule)
                    && (c.expect.verdict == "illegal") != legal
                    && c.expect.verdict != "unreadable"
            })
        };
        assert!(cites(true), "no legal case for Rule {rule}");
        assert!(cites(false), "no illegal case for Rule {rule}");
        let broken = all.iter().any(|(_, c)| {
            c.expect
                .violations
                .as_ref()
                .is_some_and(|v| v.iter().any(|r| r == rule))
        });
        assert!(broken, "no case's verdict cites Rule {rule}");
    }
    assert!(all.iter().any(|(_, c)| c.rules.iter().any(|r| r == "7")));
}

/// Every ruling of RULINGS.md's mc-xml section that a turn can test is
/// exercised by a case of our own; MX13 - MX15 are the lobby's and the
/// Speaker's (order of play, deadlines, resignation), not the judge's.
#[test]
fn every_testable_ruling_has_a_case() {
    let all = corpus();
    for n in (1..=12).chain(16..=19) {
        let id = format!("MX{n}");
        assert!(
            all.iter()
                .any(|(f, c)| !is_blind(f) && c.rulings.contains(&id)),
            "no case of our own exercises {id}"
        );
    }
}

/// RULINGS.md's mc-xml section: every case it names exists, and every
/// ruling a turn can test names a case.
#[test]
fn the_rulings_cite_cases_that_exist() {
    let ids: std::collections::HashSet<String> = corpus().into_iter().map(|(_, c)| c.id).collect();
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("RULINGS.md")).unwrap();
    let section = &text[text.find("\n## mc-xml").expect("an mc-xml section")..];
    // Up to the next section (Money Run's follows).
    let section = &section[..section[1..].find("\n## ").map_or(section.len(), |k| k + 1)];
    let mut entries = section.split("\n### MX").skip(1);
    let mut seen = 0;
    for n in 1..=22 {
        let entry = entries.next().unwrap_or_else(|| panic!("no entry MX{n}"));
        assert!(
            entry.starts_with(&format!("{n}.")),
            "entry MX{n} out of order"
        );
        seen += 1;
        let cited: Vec<&str> = entry
            .split(|c: char| c.is_whitespace() || c == ',' || c == '.')
            .filter(|w| {
                w.split('-').count() >= 2
                    && w.ends_with(|c: char| c.is_ascii_digit())
                    && w.contains("-0")
                    || w.starts_with("blind-")
            })
            .collect();
        for id in &cited {
            assert!(ids.contains(*id), "MX{n} cites {id}, which is no case");
        }
        // MX13 - MX15 and MX20 - MX22 are the daemon's (tests/kinds_mail.rs).
        if !(13..=15).contains(&n) && n < 20 {
            assert!(!cited.is_empty(), "MX{n} cites no case");
        }
    }
    assert_eq!(seen, 22);
}
