//! The One Day in London rack cases of fixtures/cases-oneday/: every case
//! passes, ids are file stems, and the corpus covers what it must (at least
//! 150 racks, valid and broken, every reason, each ruling both ways, the
//! seed's own journeys).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use mornbot::kinds::oneday::case::OdCase;
use mornbot::kinds::oneday::Deck;

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
