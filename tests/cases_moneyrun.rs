//! The Money Run rule-case corpus of fixtures/cases-moneyrun/: every case
//! passes, ids are file stems, and the corpus covers what it must (each
//! action legal and illegal, each ruling MR1 - MR16, each EFAQ answer).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use mornbot::kinds::moneyrun::case::MrCase;

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

fn corpus() -> Vec<(PathBuf, MrCase)> {
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases-moneyrun"),
        &mut all,
    );
    all.sort();
    all.into_iter()
        .map(|f| {
            let c = MrCase::from_toml(&std::fs::read_to_string(&f).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f, c)
        })
        .collect()
}

#[test]
fn every_case_passes_and_is_named_by_its_id() {
    let all = corpus();
    assert!(all.len() >= 110, "{} cases", all.len());
    let mut failed = Vec::new();
    for (f, c) in &all {
        assert_eq!(
            f.file_stem().unwrap().to_str().unwrap(),
            c.id,
            "{}",
            f.display()
        );
        assert!(c.unknown_keys.is_empty(), "{}: {:?}", c.id, c.unknown_keys);
        let r = c.run();
        if !r.pass {
            failed.push(format!("{}: {}", r.id, r.why.join("; ")));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn the_corpus_covers_rulings_actions_and_answers() {
    let all = corpus();
    for n in 1..=16 {
        let r = format!("MR{n}");
        assert!(
            all.iter().any(|(_, c)| c.rulings.contains(&r)),
            "no case cites {r}"
        );
    }
    for rule in [
        "E1", "E2", "E3", "H2", "H3", "H4", "H5", "H6", "C3", "C7", "M1", "M2", "M3", "M7",
    ] {
        assert!(
            all.iter().any(|(_, c)| c.rules.iter().any(|r| r == rule)),
            "no case cites {rule}"
        );
    }
    for dir in ["place", "coin", "pawn"] {
        let of = |v: &str| {
            all.iter()
                .filter(|(f, c)| f.parent().unwrap().ends_with(dir) && c.expect.verdict == v)
                .count()
        };
        assert!(of("legal") + of("won") > 0 && of("illegal") > 0, "{dir}");
    }
    let opens = all
        .iter()
        .filter(|(_, c)| c.turn.len() > 1 && c.rulings.iter().any(|r| r == "MR14"))
        .count();
    assert!(opens >= 2, "an open turn continued in a later mail");
}

/// RULINGS.md's Money Run section: MR1 - MR17 in order, each naming cases
/// that exist.
#[test]
fn the_rulings_cite_cases_that_exist() {
    let ids: std::collections::HashSet<String> = corpus().into_iter().map(|(_, c)| c.id).collect();
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("RULINGS.md")).unwrap();
    let section = &text[text.find("\n## Money Run").expect("a Money Run section")..];
    let section = &section[..section[1..].find("\n## ").map_or(section.len(), |k| k + 1)];
    assert!(
        section.contains("house ruling"),
        "MR2 is marked a house ruling"
    );
    let entries: Vec<&str> = section.split("\n### MR").skip(1).collect();
    assert_eq!(entries.len(), 17);
    for (k, entry) in entries.iter().enumerate() {
        assert!(
            entry.starts_with(&format!("{}.", k + 1)),
            "MR{} out of order",
            k + 1
        );
        let cases = &entry[entry.find("**Cases**:").expect("cases named")..];
        // A ruling on the lobby (MR17) is shown by a test of the kind, not
        // by a rule case: the test must exist.
        if let Some(t) = cases.strip_prefix("**Cases**: tests/") {
            let (file, test) = t.split_once(", ").expect("tests/FILE, TEST");
            let text = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests")
                    .join(file),
            )
            .unwrap();
            let test = test.trim().trim_end_matches('.');
            assert!(text.contains(&format!("fn {test}()")), "MR{}: {t}", k + 1);
            continue;
        }
        let cited: Vec<&str> = cases
            .split(|c: char| c.is_whitespace() || c == ',' || c == '.' || c == '(')
            .filter(|w| w.contains('-') && w.ends_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert!(!cited.is_empty(), "MR{} names no case", k + 1);
        for id in cited {
            assert!(ids.contains(id), "MR{} cites {id}, which is no case", k + 1);
        }
    }
}
