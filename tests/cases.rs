//! The rule-case corpus of fixtures/cases/ (our DATC): every case passes.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};

use mornbot::engine::case::Case;
use mornbot::map::Map;

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

#[test]
fn the_case_corpus_passes() {
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases"),
        &mut all,
    );
    all.sort();
    assert!(!all.is_empty());
    let mut ids = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for f in &all {
        let case = Case::from_toml(&std::fs::read_to_string(f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
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
        let r = case.run(Map::london_1999());
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

/// Every case file of the corpus, parsed.
fn corpus() -> Vec<Case> {
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cases"),
        &mut all,
    );
    all.iter()
        .map(|f| Case::from_toml(&std::fs::read_to_string(f).unwrap()).unwrap())
        .collect()
}

/// The status column of `grammar/actions.toml` is the truth the dispatcher
/// and the corpus are checked against, not a hand-kept list: an Action
/// marked adjudicated has a handler (its example never gets "not yet
/// adjudicated") and at least one legal and one illegal case; an Action
/// marked ruling always needs a human ruling.
#[test]
fn every_action_status_is_kept_by_the_dispatcher_and_the_cases() {
    use mornbot::engine::{adjudicate, GameState, PlayerState};
    use mornbot::gsd::{parse_play, Status, SPECS};
    let map = Map::london_1999();
    let time = mornbot::gsd::GameTime {
        day: chrono::Weekday::Mon,
        minutes: 9 * 60,
        night_train: false,
    };
    let mut state = GameState::new(
        time,
        vec![PlayerState::joining("Alice"), PlayerState::joining("Bob")],
    );
    state.players[0].at = Some(mornbot::engine::Position {
        station: map.find("Holborn").unwrap(),
        line: Some(mornbot::map::LineCode::CN),
    });
    let mut legal = vec![0usize; SPECS.len()];
    let mut illegal = vec![0usize; SPECS.len()];
    for case in corpus() {
        let Ok(play) = parse_play(&case.play.line, map) else {
            continue;
        };
        let counts = match case.expect.verdict.as_str() {
            "legal" => &mut legal,
            "illegal" => &mut illegal,
            _ => continue,
        };
        let mut seen = Vec::new();
        for a in play.actions() {
            if !seen.contains(&a.index()) {
                seen.push(a.index());
                counts[a.index()] += 1;
            }
        }
    }
    let mut wrong = Vec::new();
    for (i, spec) in SPECS.iter().enumerate() {
        let play = parse_play(&format!("Alice : Pass {}", spec.example), map)
            .or_else(|_| parse_play(&format!("Alice : {} Pass", spec.example), map))
            .unwrap_or_else(|e| panic!("{}: {e}", spec.example));
        let out = adjudicate(map, &state, &play);
        let unjudged = out
            .rulings
            .iter()
            .any(|r| r.message.contains("is not yet adjudicated by mornbot"));
        match spec.status {
            Status::Adjudicated if unjudged => wrong.push(format!(
                "{}: marked adjudicated, but the dispatcher has no handler",
                spec.id
            )),
            Status::Ruling if !unjudged => wrong.push(format!(
                "{}: marked ruling, but the dispatcher judges it",
                spec.id
            )),
            Status::Adjudicated if legal[i] == 0 || illegal[i] == 0 => wrong.push(format!(
                "{}: adjudicated with {} legal and {} illegal cases (needs one of each)",
                spec.id, legal[i], illegal[i]
            )),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
