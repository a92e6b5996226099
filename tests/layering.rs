//! The layers the architecture keeps (README, "Layout"; issue 41): edges
//! meet only in the daemon. This scans each layer's sources for the
//! paths of the layers it may not reach, as `tests/purity.rs` scans the
//! pure core for IO.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::Path;

/// Every line of code (comments left out) under `dir` naming one of
/// `paths`: `file:line: path`.
fn naming(dir: &str, paths: &[&str]) -> Vec<String> {
    let mut hits = Vec::new();
    scan(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(dir),
        paths,
        &mut hits,
    );
    hits
}

fn scan(dir: &Path, paths: &[&str], hits: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        panic!("{} is not a directory", dir.display());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            scan(&path, paths, hits);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for p in paths {
                    if code.contains(p) {
                        hits.push(format!("{}:{}: {p}", path.display(), n + 1));
                    }
                }
            }
        }
    }
}

#[test]
fn settings_sit_below_the_daemon_and_the_mail() {
    let hits = naming(
        "src/config",
        &["crate::daemon", "crate::mail", "crate::store"],
    );
    assert!(
        hits.is_empty(),
        "src/config reaches above itself:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_scan_finds_what_it_looks_for() {
    // A rule that could never fire proves nothing: the daemon does use
    // the mail and the store.
    assert!(!naming("src/daemon", &["crate::mail"]).is_empty());
    assert!(!naming("src/daemon", &["crate::store"]).is_empty());
    assert!(!naming("src/kinds", &["crate::engine", "crate::gsd"]).is_empty());
}

#[test]
fn the_mail_knows_nothing_of_the_store() {
    // Rows both keep live in src/envelope.rs; the IMAP adapter's marks
    // are a trait the daemon gives the store for.
    let hits = naming("src/mail", &["crate::store"]);
    assert!(
        hits.is_empty(),
        "src/mail reaches the store:\n{}",
        hits.join("\n")
    );
}

/// The archive reads games of other kinds through their kind, and Volume 1
/// games through a `record::Source` the daemon gives it: it names nothing
/// of the loop.
#[test]
fn the_archive_reads_the_store_through_the_kinds_not_the_loop() {
    let hits = naming("src/archive", &["crate::daemon"]);
    assert!(hits.is_empty(), "{}", hits.join("\n"));
}

/// The edges never reach a hosted kind's own module: only the interface
/// (`Kind`, `Position`), so a new kind needs no change to them.
#[test]
fn the_edges_reach_hosted_kinds_only_through_the_interface() {
    let mut hits = Vec::new();
    for dir in [
        "src/daemon",
        "src/mail",
        "src/store",
        "src/speaker",
        "src/archive",
        "src/config",
    ] {
        hits.extend(naming(dir, &["crate::kinds::mcxml", "kinds::mcxml::"]));
    }
    assert!(hits.is_empty(), "{}", hits.join("\n"));
}

/// Issue 41: no edge imports Volume 1's engine or GSD. Volume 1's own
/// workflows (a GSD compared with mornbot's, buzzes and Judgments, the
/// bot's dice, Gambits, the classifier's Play and GSD shapes, RULES) reach
/// them through the kind's module, `crate::kinds::vol1` (its `workflow`),
/// as every other kind is reached through `crate::kinds::Kind`.
#[test]
fn the_edges_reach_volume_1_only_through_its_kind() {
    let mut hits = Vec::new();
    for dir in [
        "src/daemon",
        "src/mail",
        "src/store",
        "src/speaker",
        "src/archive",
        "src/config",
    ] {
        hits.extend(naming(dir, &["crate::engine", "crate::gsd"]));
    }
    assert!(
        hits.is_empty(),
        "reach Volume 1's engine or GSD, not through crate::kinds:\n{}",
        hits.join("\n")
    );
}
