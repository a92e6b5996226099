//! The GSD corpus of fixtures/gsd/: every valid GSD parses and formats
//! stably; every mangled copy (as mail clients deliver it) parses to the
//! same document as its original; every invalid one fails at the line and
//! column its `.expect` names, with the message it names. Each runs with LF
//! and with CRLF line ends.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::fs;
use std::path::{Path, PathBuf};

use mornbot::gsd::{parse_gsd, parse_play, render, render_play, Gsd};
use mornbot::map::Map;

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/gsd")
        .join(name)
}

fn files(name: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir(name))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

/// A fixture's text as the daemon and `mornbot gsd` read a file: UTF-8,
/// else Windows-1252.
fn read(path: &Path) -> String {
    mornbot::text::decode(&fs::read(path).unwrap()).text
}

fn parse(path: &Path, text: &str) -> Gsd {
    parse_gsd(text, Map::london_1999()).unwrap_or_else(|e| panic!("{}:{e}", path.display()))
}

#[test]
fn valid_fixtures_parse_and_format_stably() {
    let valid = files("valid", "txt");
    assert!(
        valid.len() >= 25,
        "at least the rule examples and twenty more"
    );
    for path in &valid {
        let text = read(path);
        let g = parse(path, &text);
        assert!(!g.players.is_empty(), "{}", path.display());
        let canonical = render(&g);
        for line in canonical.lines().filter(|l| !l.contains(" : ")) {
            // Within 78 columns; letters beyond ASCII only in names.
            assert!(
                line.chars().count() <= 78
                    && line.chars().all(|c| c.is_ascii() || c.is_alphabetic()),
                "{}: {line}",
                path.display()
            );
        }
        let again = parse(path, &canonical);
        assert_eq!(
            again,
            g,
            "{}: the canonical rendering parses back",
            path.display()
        );
        assert_eq!(
            render(&again),
            canonical,
            "{}: formatting is stable",
            path.display()
        );
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(parse(path, &crlf), g, "{}: CRLF", path.display());
    }
}

#[test]
fn mangled_fixtures_parse_like_their_originals() {
    let mangled = files("mangled", "txt");
    assert!(mangled.len() >= 12);
    let mut kinds = std::collections::BTreeSet::new();
    for path in &mangled {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let (original, kind) = stem.rsplit_once("--").expect("NAME--KIND.txt");
        kinds.insert(kind.to_string());
        let orig_path = dir("valid").join(format!("{original}.txt"));
        let want = parse(&orig_path, &read(&orig_path));
        let got = parse(path, &read(path));
        assert_eq!(got, want, "{}", path.display());
    }
    assert!(mangled.len() >= 200, "the layouts of issues 13 and 39");
    // The layouts players write boxes in (grammar/gsd.ebnf's quirks).
    for k in [
        "quoted",
        "crlf",
        "tabs",
        "rewrapped",
        "prose",
        "realigned",
        "oneline",
        "borderless",
        "packed",
        "proportional",
        "md-pipe-table",
        "tsv-token-table",
        "rst-grid-table",
        "unicode-heavy",
        "unicode-double",
        "cp1252",
        "nfd",
        "lv-ch-swapped",
        "plays-dash-list",
        "outlook-reply",
        "bridges-down-line",
        "yahoo-double-spaced",
    ] {
        assert!(kinds.contains(k), "no mangled fixture of kind {k}");
    }
}

/// Each negative layout differs from its original in one fact (its `.why`
/// says which) while laid out in a way that a careless reader would take
/// for the original: it must never read as the original (refused, or read
/// as the different state it is). Written blind to the parser.
#[test]
fn negative_fixtures_never_read_as_their_originals() {
    let negative = files("negative", "txt");
    assert!(negative.len() >= 60);
    let mut wrong = Vec::new();
    for path in &negative {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let (original, _) = stem.rsplit_once("--").expect("NAME--KIND.txt");
        let why = fs::read_to_string(path.with_extension("why")).expect("a .why beside it");
        assert!(!why.trim().is_empty());
        let orig_path = dir("valid").join(format!("{original}.txt"));
        let want = parse(&orig_path, &read(&orig_path));
        let text = read(path);
        for text in [text.clone(), text.replace('\n', "\r\n")] {
            if parse_gsd(&text, Map::london_1999()).is_ok_and(|g| g == want) {
                wrong.push(format!(
                    "{}: read as its original ({})",
                    path.display(),
                    why.trim()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn invalid_fixtures_fail_where_expected() {
    let invalid = files("invalid", "txt");
    assert!(invalid.len() >= 15);
    let mut wrong = Vec::new();
    for path in &invalid {
        let expect = fs::read_to_string(path.with_extension("expect")).unwrap();
        let (pos, needle) = expect.trim().split_once(' ').unwrap();
        let text = read(path);
        for text in [text.clone(), text.replace('\n', "\r\n")] {
            match parse_gsd(&text, Map::london_1999()) {
                Ok(_) => wrong.push(format!("{}: parsed, expected an error", path.display())),
                Err(e) => {
                    let msg = e.to_string();
                    if !msg.starts_with(&format!("{pos}:")) || !msg.contains(needle) {
                        wrong.push(format!(
                            "{}: got {msg:?}, want {pos} ... {needle:?}",
                            path.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Inputs the fuzz targets once broke: each parses and round-trips, or
/// fails with a position.
#[test]
fn fuzz_regressions() {
    let cases = files("fuzz", "txt");
    assert!(!cases.is_empty());
    for path in &cases {
        let text = String::from_utf8_lossy(&fs::read(path).unwrap()).into_owned();
        match parse_gsd(&text, Map::london_1999()) {
            Ok(g) => assert_eq!(parse(path, &render(&g)), g, "{}", path.display()),
            Err(e) => assert!(e.line >= 1 && e.column >= 1, "{}: {e}", path.display()),
        }
    }
}

/// Play lines the `play` fuzz target once broke (a crash or a timeout): each
/// parses and round-trips, or fails with a position.
#[test]
fn play_fuzz_regressions() {
    let cases = files("fuzz-play", "txt");
    assert!(!cases.is_empty());
    let map = Map::london_1999();
    for path in &cases {
        let text = String::from_utf8_lossy(&fs::read(path).unwrap()).into_owned();
        match parse_play(&text, map) {
            Ok(p) => {
                let line = render_play(&p);
                assert_eq!(parse_play(&line, map).unwrap(), p, "{}", path.display());
            }
            Err(e) => assert!(e.line >= 1 && e.column >= 1, "{}: {e}", path.display()),
        }
    }
}

/// No suggestion is computed for a name far longer than any station's: the
/// play matcher asks for them at every split of a long line (the timeout
/// the `play` fuzz target found).
#[test]
fn no_suggestions_for_overlong_names() {
    let map = Map::london_1999();
    assert!(map.suggest(&"Moorgate ".repeat(20), 3).is_empty());
    assert_eq!(map.suggest("Moorgat", 1), vec!["Moorgate".to_string()]);
}
