//! The pure modules (map, gsd, engine, speaker, picture, dice, kinds) reach for no IO, async,
//! randomness or wall clock: the adjudicator must be a function of its
//! inputs. This scans their sources for the tell-tale names.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::Path;

const PURE: [&str; 7] = [
    "src/kinds",
    "src/dice",
    "src/map",
    "src/gsd",
    "src/engine",
    "src/speaker",
    "src/picture",
];
const FORBIDDEN: [&str; 17] = [
    // clippy.toml denies IO, the clock and tasks crate-wide; the core may
    // not allow them back.
    "disallowed_methods",
    "disallowed_types",
    "tokio",
    "async fn",
    "std::fs",
    "std::net",
    "std::env",
    "SystemTime::now",
    "Instant::now",
    "Utc::now",
    "Local::now",
    "thread_rng",
    "getrandom",
    "OsRng",
    "rusqlite",
    "lettre",
    "async_imap",
];

fn scan(dir: &Path, hits: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            scan(&path, hits);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for word in FORBIDDEN {
                    if code.contains(word) {
                        hits.push(format!("{}:{}: {word}", path.display(), n + 1));
                    }
                }
            }
        }
    }
}

#[test]
fn pure_modules_do_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut hits = Vec::new();
    for dir in PURE {
        scan(&root.join(dir), &mut hits);
    }
    assert!(
        root.join("src/map").is_dir(),
        "the scan must see the map module"
    );
    assert!(hits.is_empty(), "IO in a pure module:\n{}", hits.join("\n"));
}
