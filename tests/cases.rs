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
