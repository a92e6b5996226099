//! The archive as a person sees it (issue 18, item 4): a turn page opened
//! in headless Chromium (Debian's `chromium`), its rendered DOM checked
//! for the play, the verdict, the GSD and the picture, and a screenshot
//! checked for the network's and the game's colours (both images loaded
//! and stacked). The committed sample site and screenshot
//! (`fixtures/archive/`) are what this build writes; `MORNBOT_BLESS=1`
//! rewrites them after a deliberate change (look at them before
//! committing).
//!
//! Chromium is required: `./scripts/test` installs it as root. Without
//! it the test fails saying so; `MORNBOT_SKIP_BROWSER=1` skips it on
//! purpose (with a note).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

#[path = "archive_support/games.rs"]
mod games;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use mornbot::map::{LineCode, Map};
use mornbot::store::Store;

/// The turn page looked at and committed as a screenshot.
const TURN: usize = 8;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mornbot-browser-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The browser, or `None` when skipped on purpose; fails when missing.
fn chromium() -> Option<&'static str> {
    if std::env::var("MORNBOT_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("SKIPPED: MORNBOT_SKIP_BROWSER=1");
        return None;
    }
    let found = Command::new("chromium")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "the archive's browser test needs Debian's chromium (`apt-get install chromium`; \
         ./scripts/test installs it as root); set MORNBOT_SKIP_BROWSER=1 to skip it"
    );
    Some("chromium")
}

/// Runs headless Chromium on `url` with `args`, at most a minute.
fn run(browser: &str, profile: &Path, args: &[&str], url: &str) -> Output {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--allow-file-access-from-files",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("chromium {args:?} {url} took over a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "chromium {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The sample: three players, twelve legal turns, built into `site`.
fn sample_site(dir: &Path) -> PathBuf {
    let map = Map::london_1999();
    let mut s = Store::open(&dir.join("mornbot.db")).unwrap();
    games::write_game(&mut s, map, "MN1", &["Rushton", "Warren", "Acton"], 12);
    let site = dir.join("site");
    mornbot::archive::build(map, &s, &site, &mornbot::daemon::ArchiveSource).unwrap();
    site
}

/// Every file under `root`, relative path and bytes, sorted.
fn files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn rgb(hex: &str) -> [u8; 3] {
    let v = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    [v(1), v(3), v(5)]
}

/// How many pixels of an RGBA image are within `tol` of `colour` in
/// every channel.
fn pixels_near(rgba: &[u8], colour: [u8; 3], tol: u8) -> usize {
    rgba.chunks(4)
        .filter(|p| (0..3).all(|i| p[i].abs_diff(colour[i]) <= tol))
        .count()
}

#[test]
fn the_sample_site_is_what_the_build_writes() {
    let d = fresh("sample");
    let site = sample_site(&d);
    let fixture = root().join("fixtures/archive/site");
    if std::env::var("MORNBOT_BLESS").as_deref() == Ok("1") {
        let _ = std::fs::remove_dir_all(&fixture);
        for (rel, bytes) in files(&site) {
            let to = fixture.join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::write(to, bytes).unwrap();
        }
    }
    assert!(
        fixture.is_dir(),
        "{} is missing: MORNBOT_BLESS=1 writes it",
        fixture.display()
    );
    let (got, want) = (files(&site), files(&fixture));
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&got),
        names(&want),
        "MORNBOT_BLESS=1 rewrites the sample"
    );
    for ((name, a), (_, b)) in got.iter().zip(&want) {
        assert!(
            a == b,
            "{name} differs from fixtures/archive/site (MORNBOT_BLESS=1 rewrites it)"
        );
    }
}

#[test]
fn a_turn_page_in_chromium_shows_the_play_verdict_gsd_and_picture() {
    let Some(browser) = chromium() else {
        return;
    };
    let d = fresh("dom");
    let site = sample_site(&d);
    let page = site.join(format!("MN1/turn-{TURN:03}.html"));
    let url = format!("file://{}", page.display());
    let profile = d.join("profile");

    // The DOM as the browser built it.
    let dom = String::from_utf8(run(browser, &profile, &["--dump-dom"], &url).stdout).unwrap();
    let store = Store::open(&d.join("mornbot.db")).unwrap();
    let play = &store.turns("MN1").unwrap()[TURN - 1].play;
    for needle in [
        format!("<pre class=\"play\">{play}</pre>"),
        "<section class=\"verdict\" id=\"verdict\">".to_string(),
        "<span class=\"legal\">Legal</span>".to_string(),
        "<pre class=\"gsd\">Game MN1".to_string(),
        "<img src=\"../network.svg\"".to_string(),
        "<svg class=\"overlay\" id=\"picture\" role=\"img\"".to_string(),
    ] {
        assert!(dom.contains(&needle), "the DOM lacks {needle}:\n{dom}");
    }

    // The screenshot: the network's Central line and a Piece, so both
    // images loaded and the overlay sits on the network.
    let shot = d.join("shot.png");
    run(
        browser,
        &profile,
        &[
            "--window-size=1000,1400",
            &format!("--screenshot={}", shot.display()),
        ],
        &url,
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1000, 1400));
    let rgba: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => buf[..info.buffer_size()].to_vec(),
        png::ColorType::Rgb => buf[..info.buffer_size()]
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    let central = rgb(&Map::london_1999().line(LineCode::CN).colour.hex());
    // The overlay, inline in the turn's page.
    let overlay = std::fs::read_to_string(site.join(format!("MN1/turn-{TURN:03}.html"))).unwrap();
    // A Piece: the disc drawn in its player's colour (r="7.5").
    let at = overlay
        .find(r##"r="7.5" fill="#"##)
        .expect("a Piece on the overlay");
    let piece = rgb(&overlay[at + 14..at + 21]);
    let (c, p) = (
        pixels_near(&rgba, central, 24),
        pixels_near(&rgba, piece, 24),
    );
    assert!(
        c >= 50,
        "{c} pixels of the Central line's {central:?}: the network did not load"
    );
    assert!(
        p >= 10,
        "{p} pixels of the Piece's {piece:?}: the overlay did not load"
    );
    let total = rgba.len() / 4;
    let ink = total - pixels_near(&rgba, [248, 248, 248], 7);
    assert!(
        ink > total / 50,
        "the page is all but blank: {ink} of {total} pixels"
    );
    if std::env::var("MORNBOT_BLESS").as_deref() == Ok("1") {
        std::fs::copy(&shot, root().join("fixtures/archive/turn-page.png")).unwrap();
    }
}
