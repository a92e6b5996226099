//! Pictures of known games (issue 18): rendered to PNG and compared with
//! the reviewed references in `fixtures/pictures/`, and checked for what
//! must be in them.
//!
//! After a deliberate change to the drawing, regenerate the references with
//! `MORNBOT_BLESS=1 cargo test --test picture`, look at every PNG in
//! `fixtures/pictures/` and commit them with the change. A picture that no
//! longer matches is written to `target/.../tmp/pictures/` for comparison.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::path::{Path, PathBuf};
use std::process::Command;

use mornbot::engine::GameState;
use mornbot::gsd::parse_gsd;
use mornbot::map::{Map, StationId};
use mornbot::picture::{self, PictureError, Projection, Scene, MARGIN, WIDTH};

/// The games drawn for review: the rule book's example, Blocks and Line
/// States, and a GSD with every box.
const REVIEWED: [&str; 3] = [
    "22-long-game-forty-plays",
    "04-rule-1.2.2-disrupted-services",
    "25-full-gsd-all-boxes",
];
/// A channel further than this from the reference makes a pixel differ.
const CHANNEL_TOLERANCE: u8 = 48;
/// At most this share of pixels may differ (anti-aliasing, font hinting).
const PIXEL_TOLERANCE: f64 = 0.002;
/// Between the fast PNG and the SVG drawn whole: their text is filled from
/// the same outlines by the same rasteriser, but placed an eighth of a
/// pixel apart at most and kerned from the font's `kern` table rather than
/// shaped, so glyph edges differ by a shade here and there.
const TEXT_TOLERANCE: f64 = 0.005;
/// The mail budget of issue 18.
const MAX_PNG_BYTES: usize = 150 * 1024;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scene(name: &str) -> Scene {
    let map = Map::london_1999();
    let path = root().join(format!("fixtures/gsd/valid/{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap();
    let gsd = parse_gsd(&text, map).unwrap();
    Scene::from_gsd(map, &gsd).unwrap()
}

fn svg(name: &str) -> String {
    picture::svg(Map::london_1999(), &scene(name)).unwrap()
}

/// A PNG decoded to RGB rows: (width, height, pixels).
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(bytes);
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| match channels {
            1 | 2 => [p[0], p[0], p[0]],
            _ => [p[0], p[1], p[2]],
        })
        .collect();
    (info.width, info.height, rgb)
}

/// Pixels differing by more than the channel tolerance.
fn differing(a: &[u8], b: &[u8]) -> usize {
    a.chunks(3)
        .zip(b.chunks(3))
        .filter(|(p, q)| {
            p.iter()
                .zip(*q)
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        })
        .count()
}

#[test]
fn pictures_match_the_reviewed_references() {
    let bless = std::env::var("MORNBOT_BLESS").is_ok_and(|v| v == "1");
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pictures");
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut failures = Vec::new();
    for name in REVIEWED {
        let png = picture::draw_png(Map::london_1999(), &scene(name)).unwrap();
        assert!(png.len() < MAX_PNG_BYTES, "{name}: {} bytes", png.len());
        let reference = root().join(format!("fixtures/pictures/{name}.png"));
        if bless {
            std::fs::write(&reference, &png).unwrap();
            eprintln!("blessed {}", reference.display());
            continue;
        }
        let Ok(want) = std::fs::read(&reference) else {
            panic!(
                "{} is missing: run MORNBOT_BLESS=1 cargo test --test picture",
                reference.display()
            );
        };
        let (w, h, got) = decode(&png);
        let (ww, wh, want) = decode(&want);
        let diff = if (w, h) == (ww, wh) {
            differing(&got, &want)
        } else {
            usize::MAX
        };
        let share = diff as f64 / (w as f64 * h as f64);
        if share > PIXEL_TOLERANCE {
            let actual = out_dir.join(format!("{name}.png"));
            std::fs::write(&actual, &png).unwrap();
            failures.push(format!(
                "{name}: {w}x{h} vs {ww}x{wh}, {diff} pixels differ; see {}",
                actual.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The share of pixels that differ between two PNGs of the same size.
fn share_differing(a: &[u8], b: &[u8]) -> f64 {
    let (w, h, a) = decode(a);
    let (bw, bh, b) = decode(b);
    assert_eq!((w, h), (bw, bh));
    differing(&a, &b) as f64 / (w as f64 * h as f64)
}

#[test]
fn the_fast_png_is_the_svg_drawn() {
    // draw_png reuses the network's pixels; it must draw what the SVG
    // says, Power Failures (drawn whole), routes, Closed stations and all.
    let map = Map::london_1999();
    for name in [
        "22-long-game-forty-plays",
        "04-rule-1.2.2-disrupted-services",
        "25-full-gsd-all-boxes",
        "17-clamps-poid-and-fires",
    ] {
        let scene = scene(name);
        let fast = picture::draw_png(map, &scene).unwrap();
        let whole = picture::png(&picture::svg(map, &scene).unwrap()).unwrap();
        let share = share_differing(&fast, &whole);
        assert!(share <= TEXT_TOLERANCE, "{name}: {share}");
    }
    // And the comparison can fail: the same game without its Fires told
    // apart (rings and labels) differs.
    let with_fires = scene("17-clamps-poid-and-fires");
    let without = Scene {
        fires: Vec::new(),
        ..with_fires.clone()
    };
    let a = picture::draw_png(map, &with_fires).unwrap();
    let b = picture::draw_png(map, &without).unwrap();
    let (_, _, a) = decode(&a);
    let (_, _, b) = decode(&b);
    assert!(differing(&a, &b) > 100);
}

#[test]
fn the_png_is_sized_for_mail_and_a_phone() {
    for name in REVIEWED {
        let png = picture::draw_png(Map::london_1999(), &scene(name)).unwrap();
        let (w, h, _) = decode(&png);
        assert_eq!(w, WIDTH as u32, "{name}");
        assert!(h > 800 && h < 1300, "{name}: height {h}");
        assert!(png.len() < MAX_PNG_BYTES, "{name}: {} bytes", png.len());
    }
}

#[test]
fn every_player_is_named_on_the_picture() {
    for name in REVIEWED {
        let scene = scene(name);
        let svg = svg(name);
        for p in &scene.state.players {
            assert!(
                svg.contains(&format!(">{}", p.name)),
                "{name}: {} missing",
                p.name
            );
        }
    }
}

/// The canvas point of a station, as the picture draws it.
fn point(name: &str) -> String {
    let map = Map::london_1999();
    let proj = Projection::fit(map, WIDTH, MARGIN);
    let (x, y) = proj.point(map.coordinates(map.lookup(name).unwrap(), None));
    format!(r#"cx="{x:.1}" cy="{y:.1}""#)
}

#[test]
fn each_blocked_station_has_a_mark_and_a_label() {
    let svg = svg("04-rule-1.2.2-disrupted-services");
    for station in ["Warren Street", "Regent's Park"] {
        let ring = format!(
            r##"<circle {} r="12.0" fill="none" stroke="#c62828""##,
            point(station)
        );
        assert!(svg.contains(&ring), "no Block mark at {station}");
    }
    assert_eq!(svg.matches(">Blocked by Garden<").count(), 2);
}

#[test]
fn fires_in_force_are_told_from_blocks() {
    // Pertwee's latest Play set Regent's Park on Fire; eir Fire at Baker
    // Street ended with that Turn.
    let svg = svg("17-clamps-poid-and-fires");
    let fire = |s: &str| {
        format!(
            r##"<circle {} r="12.0" fill="none" stroke="#ff6d00""##,
            point(s)
        )
    };
    assert!(svg.contains(&fire("Regent's Park")));
    assert!(!svg.contains(&fire("Baker Street")));
    assert!(svg.contains(">Fire by Pertwee<"));
    assert!(!svg.contains("Blocked by Pertwee"));
}

#[test]
fn stacks_marks_and_wild_stations_are_labelled() {
    let svg = svg("25-full-gsd-all-boxes");
    for label in [
        ">Stack: 3 tokens (top Go)<",
        ">Stack: 2 tokens (top Si)<",
        ">Bulkhead<",
        ">Maelberg<",
        ">Defamed<",
        ">*Damage*<",
        ">Wild Station<",
        ">Home of Rushton<",
        "CN: Speed Limit: 4",
        "Gapminding",
    ] {
        assert!(svg.contains(label), "{label} missing");
    }
    for name in ["Dollis Hill", "Cockfosters", "Wembley Park", "Temple"] {
        assert!(svg.contains(&format!(">{name}<")), "{name} not labelled");
    }
    // A quiet station is not labelled.
    assert!(!svg.contains(">Chalfont &amp; Latimer<"));
}

#[test]
fn the_last_move_is_drawn_along_its_route() {
    let scene = scene("22-long-game-forty-plays");
    let last = scene.last_move.as_ref().unwrap();
    assert!(last.route.len() > 1, "{last:?}");
    let svg = picture::svg(Map::london_1999(), &scene).unwrap();
    assert!(svg.contains(&format!(">{} moved from here<", last.player)));
    assert!(svg.contains(r##"stroke="#ff9800" stroke-width="14""##));
}

#[test]
fn a_station_the_map_lacks_is_an_error() {
    let mut scene = scene("22-long-game-forty-plays");
    scene.state.wild.push(StationId(9999));
    let err = picture::svg(Map::london_1999(), &scene).unwrap_err();
    assert!(
        matches!(err, PictureError::UnknownStation { id: 9999, .. }),
        "{err}"
    );
    // A state of no game at all still draws the bare network.
    let bare = Scene::of_state(GameState::new(scene.state.time, Vec::new()));
    assert!(picture::svg(Map::london_1999(), &bare).is_ok());
}

fn mornbot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mornbot"))
        .args(args)
        .output()
        .expect("run mornbot")
}

#[test]
fn map_draw_writes_png_or_svg_and_refuses_unknown_stations() {
    let dir = std::env::temp_dir().join(format!("mornbot-draw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gsd = root().join("fixtures/gsd/valid/25-full-gsd-all-boxes.txt");
    let (png, svg) = (dir.join("game.png"), dir.join("game.SVG"));
    for out in [&png, &svg] {
        let o = mornbot(&[
            "map",
            "draw",
            "--gsd",
            gsd.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(std::fs::read(&png)
        .unwrap()
        .starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // A Wild Station the map lacks: refused as bad input, nothing written.
    let text = std::fs::read_to_string(&gsd)
        .unwrap()
        .replace("Cockfosters, Upminster", "Hogwarts, Upminster");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, text).unwrap();
    let out = dir.join("bad.png");
    let o = mornbot(&[
        "map",
        "draw",
        "--gsd",
        bad.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Hogwarts"));
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}
