//! The picture as mailed, pixel for pixel: every valid fixture GSD drawn by
//! `picture::draw_png`, decoded to RGBA, must hash to the SHA-256 stored in
//! `fixtures/pictures/pixels.sha256`. The encoding (palette order, filters,
//! deflate) may change; what a reader sees may not, not by one pixel.
//!
//! The hashes were taken from main before the PNG encoder was made faster
//! (the `fastpic` branch). After a deliberate change to the drawing, write
//! them again with `MORNBOT_BLESS=1 cargo test --test picture_pixels` (and
//! look at the reviewed pictures, see `tests/picture.rs`).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use std::fmt::Write;
use std::path::Path;

use mornbot::gsd::parse_gsd;
use mornbot::map::Map;
use mornbot::picture::{self, Scene};
use sha2::{Digest, Sha256};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A PNG decoded to 8-bit RGBA, whatever its colour type: (width, height,
/// pixels).
fn rgba(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(bytes);
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let px = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| match channels {
            1 => [p[0], p[0], p[0], 255],
            2 => [p[0], p[0], p[0], p[1]],
            3 => [p[0], p[1], p[2], 255],
            _ => [p[0], p[1], p[2], p[3]],
        })
        .collect();
    (info.width, info.height, px)
}

/// `name width height sha256` of one fixture's picture; `None` for a GSD
/// that is no game state (one without a Game Time).
fn line(name: &str) -> Option<String> {
    let map = Map::london_1999();
    let text =
        std::fs::read_to_string(root().join(format!("fixtures/gsd/valid/{name}.txt"))).unwrap();
    let scene = Scene::from_gsd(map, &parse_gsd(&text, map).unwrap()).ok()?;
    let (w, h, px) = rgba(&picture::draw_png(map, &scene).unwrap());
    let hash = Sha256::digest(&px);
    let mut hex = String::new();
    for b in hash {
        let _ = write!(hex, "{b:02x}");
    }
    Some(format!("{name} {w} {h} {hex}"))
}

#[test]
fn every_fixture_is_drawn_pixel_for_pixel_as_before() {
    let mut names: Vec<String> = std::fs::read_dir(root().join("fixtures/gsd/valid"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".txt").map(str::to_string)
        })
        .collect();
    names.sort();
    let got: Vec<String> = names.iter().filter_map(|n| line(n)).collect();
    let path = root().join("fixtures/pictures/pixels.sha256");
    if std::env::var("MORNBOT_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, got.join("\n") + "\n").unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap();
    let want: Vec<&str> = want.lines().collect();
    let differ: Vec<String> = got
        .iter()
        .filter(|g| !want.contains(&g.as_str()))
        .cloned()
        .collect();
    assert!(
        differ.is_empty(),
        "pictures that changed:\n{}",
        differ.join("\n")
    );
    assert_eq!(got.len(), want.len(), "fixtures added or removed");
}
