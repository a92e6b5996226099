//! The key to the picture's symbols, the panel's last line.
//!
//! It is the same in every picture, only lower or higher with the panel's
//! lines, and drawing it (dashed, translucent and stroked shapes, and its
//! text) was a tenth of a lounge game's picture. So the fast picture
//! ([`super::draw_png`]) draws it once into a strip of pixels and copies
//! the strip's drawn pixels into each picture ([`blit`]). The panel's rows
//! are laid out on whole pixels from the network's height, so every
//! picture of a map has the key at the same fraction of a pixel, and the
//! strip is the key as it would have been drawn there.

use std::sync::{Arc, Mutex};

use resvg::tiny_skia;

use super::panel::LEFT;
use super::writer::{text_width, Svg};
use super::PictureError;

/// Rows of the strip above the key's baseline row, and from it down:
/// enough for its symbols (7 px around a point 5 px above the baseline,
/// with their strokes) and its text's descenders, with anti-aliasing.
const ABOVE: usize = 16;
const BELOW: usize = 6;

/// Draws the key with its text's baseline at `y`: written, or kept aside
/// for [`blit`] when the SVG keeps text apart.
pub(super) fn draw(w: &mut Svg, y: f64) {
    if !w.keep_key_aside(y) {
        symbols(w, y);
    }
}

/// The key drawn once: each row's runs of drawn (not white) pixels, for
/// the key's baseline at `frac` past a pixel's top, in a picture `width`
/// px wide.
struct Strip {
    frac: f64,
    width: u32,
    /// (row from the strip's top, first pixel, RGBA pixels).
    runs: Vec<(usize, usize, Vec<u8>)>,
}

/// The strip last drawn (one map's pictures all use the same).
static STRIP: Mutex<Option<Arc<Strip>>> = Mutex::new(None);

/// Copies the key, with its baseline at `y`, into `pixmap` (whose rows
/// there are white: the panel's last line).
pub(super) fn blit(pixmap: &mut tiny_skia::PixmapMut<'_>, y: f64) -> Result<(), PictureError> {
    let (width, height) = (pixmap.width() as usize, pixmap.height() as i64);
    let strip = strip(y - y.floor(), pixmap.width())?;
    let top = y.floor() as i64 - ABOVE as i64;
    let data = pixmap.data_mut();
    for (row, x, pixels) in &strip.runs {
        let py = top + *row as i64;
        if (0..height).contains(&py) {
            let at = 4 * (py as usize * width + x);
            data[at..at + pixels.len()].copy_from_slice(pixels);
        }
    }
    Ok(())
}

/// The strip for a baseline `frac` past a pixel's top, `width` px wide:
/// the kept one, or drawn (as [`super::draw_png`] draws: resvg for the
/// shapes, the glyph cache for the text).
fn strip(frac: f64, width: u32) -> Result<Arc<Strip>, PictureError> {
    let mut kept = STRIP.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = kept.as_ref().filter(|s| s.frac == frac && s.width == width) {
        return Ok(s.clone());
    }
    let rows = (ABOVE + BELOW) as u32;
    let mut w = Svg::clear(f64::from(width), f64::from(rows));
    w.keep_text_apart();
    symbols(&mut w, ABOVE as f64 + frac);
    let (svg, aside) = w.finish_apart();
    let tree = super::raster::tree(&svg)?;
    let mut pixmap = tiny_skia::Pixmap::new(width, rows)
        .ok_or_else(|| PictureError::Png(format!("a key {width} px wide")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let mut pm = pixmap.as_mut();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pm);
    let mut dirty = super::dirty::Dirty::new(width, rows);
    super::glyphs::draw(&mut pm, &aside.texts, &mut dirty);
    let mut runs = Vec::new();
    for (row, line) in pixmap.data().chunks_exact(4 * width as usize).enumerate() {
        let mut x = 0;
        let drawn = |px: &[u8]| px[..3] != [255; 3];
        let pixels: Vec<&[u8]> = line.chunks_exact(4).collect();
        while x < pixels.len() {
            if !drawn(pixels[x]) {
                x += 1;
                continue;
            }
            let start = x;
            while x < pixels.len() && drawn(pixels[x]) {
                x += 1;
            }
            runs.push((row, start, line[4 * start..4 * x].to_vec()));
        }
    }
    let s = Arc::new(Strip { frac, width, runs });
    *kept = Some(s.clone());
    Ok(s)
}

/// How a key's symbol is drawn around its point.
enum Symbol {
    /// A circle of this radius.
    Circle(f64),
    /// A 14 px square with rounded corners.
    Square,
    /// A 16 px stroke across the point.
    Stroke,
}

/// The key, in order: each symbol, its style and its name.
const ITEMS: [(Symbol, &str, &str); 9] = [
    (
        Symbol::Circle(7.0),
        r##"fill="#9e9e9e" stroke="#000000" stroke-width="1.5""##,
        "Piece",
    ),
    (
        Symbol::Square,
        r##"fill="none" stroke="#9e9e9e" stroke-width="3""##,
        "Home",
    ),
    (
        Symbol::Circle(7.0),
        r##"fill="none" stroke="#c62828" stroke-width="3""##,
        "Blocked",
    ),
    (
        Symbol::Circle(7.0),
        r##"fill="none" stroke="#ff6d00" stroke-width="3""##,
        "Fire",
    ),
    (
        Symbol::Circle(7.0),
        r##"fill="none" stroke="#6a1b9a" stroke-width="2" stroke-dasharray="3 2""##,
        "Wild Station",
    ),
    (
        Symbol::Stroke,
        r##"stroke="#ff9800" stroke-width="10" stroke-opacity="0.45""##,
        "last Move",
    ),
    (
        Symbol::Circle(4.6),
        r##"fill="#ffffff" stroke="#000000" stroke-width="1.7""##,
        "interchange",
    ),
    (
        Symbol::Circle(4.0),
        r##"fill="#bdbdbd" stroke="#616161" stroke-width="1.4""##,
        "Closed",
    ),
    (
        Symbol::Stroke,
        r##"stroke="#000000" stroke-width="3" stroke-dasharray="4 5" stroke-opacity="0.55""##,
        "Power Failure",
    ),
];

/// The key's symbols and their names, the text's baseline at `y`.
fn symbols(w: &mut Svg, y: f64) {
    let mut x = LEFT;
    for (symbol, style, text) in ITEMS {
        let c = (x + 8.0, y - 5.0);
        match symbol {
            Symbol::Circle(r) => w.circle(c, r, style),
            Symbol::Square => w.rect(c.0 - 7.0, c.1 - 7.0, 14.0, 14.0, 2.0, style),
            Symbol::Stroke => w.line((c.0 - 8.0, c.1), (c.0 + 8.0, c.1), style),
        }
        w.text((x + 22.0, y), 13.0, "#424242", text);
        x += 22.0 + text_width(text, 13.0) + 24.0;
    }
}
