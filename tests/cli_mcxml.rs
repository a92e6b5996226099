//! The `mornbot` commands of the mc-xml kind: `map stats --kind mc-xml`,
//! `rules --coverage --kind mc-xml`, and `case` on a directory that mixes
//! kinds.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::process::{Command, Output};

fn mornbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run mornbot")
}

#[test]
fn map_stats_of_the_mcxml_graph() {
    let out = mornbot(&["map", "stats", "--kind", "mc-xml", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stations"], 295);
    assert_eq!(v["termini"], 25);
    assert_eq!(v["interchanges"], 63);
    assert!(v["termini_list"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s == "Morden"));
    let out = mornbot(&["map", "stats", "--kind", "chess"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rules_coverage_of_mcxml_counts_the_cases() {
    let out = mornbot(&["rules", "--coverage", "--kind", "mc-xml"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Rule 3 - Moving: "), "{text}");
    assert!(text.contains("A player may not step to a closed station."));
    assert!(
        text.lines().last().unwrap().starts_with("107 sentences: "),
        "{text}"
    );
    let out = mornbot(&[
        "rules",
        "--coverage",
        "--kind",
        "mc-xml",
        "--cases",
        "fixtures/cases-mcxml/buy",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rule5 = v
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "5")
        .unwrap();
    assert!(rule5["cases"].as_u64().unwrap() >= 20, "{rule5}");
}

#[test]
fn case_runs_a_directory_mixing_kinds() {
    let dir = std::env::temp_dir().join(format!("mornbot-mixed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("fixtures/cases-mcxml/move/move-legal-001.toml"),
        dir.join("a.toml"),
    )
    .unwrap();
    let vol1 = std::fs::read_dir(root.join("fixtures/cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "toml"))
        .or_else(|| {
            let sub = std::fs::read_dir(root.join("fixtures/cases"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| p.is_dir())?;
            std::fs::read_dir(sub)
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| p.extension().is_some_and(|x| x == "toml"))
        })
        .unwrap();
    std::fs::copy(vol1, dir.join("b.toml")).unwrap();
    let out = mornbot(&["case", dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("PASS move-legal-001"), "{text}");
    assert!(text.contains("2 passed, 0 failed"), "{text}");
}
