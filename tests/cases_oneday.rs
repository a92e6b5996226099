//! The One Day in London rack cases of fixtures/cases-oneday/: every case
//! passes, ids are file stems, and the corpus covers what it must (at least
//! 150 racks, valid and broken, every reason, each ruling both ways, the
//! seed's own journeys).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use mornbot::kinds::oneday::case::OdCase;
use mornbot::kinds::oneday::game_case::{self, GameCase};
use mornbot::kinds::oneday::Deck;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml")
            && !game_case::is_game(&std::fs::read_to_string(&p).unwrap())
        {
            out.push(p);
        }
    }
}

fn corpus() -> Vec<(PathBuf, OdCase)> {
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases-oneday"),
        &mut all,
    );
    all.sort();
    all.into_iter()
        .map(|f| {
            let c = OdCase::from_toml(&std::fs::read_to_string(&f).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f, c)
        })
        .collect()
}

#[test]
fn every_case_passes_and_is_named_by_its_id() {
    let all = corpus();
    assert!(all.len() >= 150, "{} cases", all.len());
    let mut failed = Vec::new();
    for (f, c) in &all {
        assert_eq!(
            f.file_stem().unwrap().to_str().unwrap(),
            c.id,
            "{}",
            f.display()
        );
        assert!(c.unknown_keys.is_empty(), "{}: {:?}", c.id, c.unknown_keys);
        let r = c.run(Deck::zone1());
        if !r.pass {
            failed.push(format!("{}: {}", r.id, r.why.join("; ")));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn the_corpus_covers_reasons_rulings_and_the_seed() {
    let all = corpus();
    let valid = all.iter().filter(|(_, c)| c.expect.valid).count();
    assert!(valid >= 30 && all.len() - valid >= 100, "{valid} valid");
    for reason in [
        "same-station",
        "no-common-line",
        "goes-back",
        "blocked",
        "wrong-length",
        "unknown-card",
        "card-twice",
    ] {
        assert!(
            all.iter()
                .any(|(_, c)| c.expect.reason.as_deref() == Some(reason)),
            "no case breaks with {reason}"
        );
    }
    for slot in 1..=9 {
        assert!(
            all.iter().any(|(_, c)| c.expect.break_at == Some(slot)),
            "no case breaks at slot {slot}"
        );
    }
    for ruling in ["hop_change", "concurrent_back"] {
        let with = |valid: bool| {
            all.iter().any(|(_, c)| {
                c.journey.get(ruling).map(String::as_str) == Some("forbid")
                    && c.expect.valid == valid
            })
        };
        assert!(with(true) && with(false), "{ruling}: a case either way");
    }
    for od in ["OD1", "OD2", "OD10"] {
        assert!(
            all.iter().any(|(_, c)| c.rulings.iter().any(|r| r == od)),
            "{od}"
        );
    }
    let seed = all
        .iter()
        .filter(|(_, c)| c.source.contains("the seed"))
        .count();
    assert!(seed >= 100, "{seed} cases quote the seed");
}

/// The game cases of `fixtures/cases-oneday/games/` (RULINGS OD5 - OD13):
/// each passes, is named by its file, and every ruling of the game by
/// mail has a legal and an illegal case.
#[test]
fn every_game_case_passes_and_each_ruling_has_both_verdicts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases-oneday/games");
    let mut cases = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let f = e.unwrap().path();
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(game_case::is_game(&text), "{}", f.display());
        let c: GameCase = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(f.file_stem().unwrap().to_str().unwrap(), c.id);
        let r = game_case::run_text(&text, &f.display().to_string());
        assert!(r.pass, "{}: {}", r.id, r.why.join("; "));
        cases.push(c);
    }
    assert!(cases.len() >= 25, "{} game cases", cases.len());
    for od in ["OD5", "OD6", "OD7", "OD8", "OD13"] {
        let with = |verdicts: &[&str]| {
            cases.iter().any(|c| {
                c.rulings.iter().any(|r| r == od) && verdicts.contains(&c.expect.verdict.as_str())
            })
        };
        assert!(
            with(&["legal", "won"]) && with(&["illegal"]),
            "{od}: both ways"
        );
    }
    for od in ["OD9", "OD11"] {
        assert!(
            cases.iter().any(|c| c.rulings.iter().any(|r| r == od)),
            "{od}"
        );
    }
}
