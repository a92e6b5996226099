//! Text drawn from a cache of rasterised glyphs, for the picture in every
//! verdict: laying text out and filling glyph outlines was half of the
//! picture's time through resvg, and a picture's labels use a few dozen
//! glyphs at a few sizes, the same from one picture to the next.
//!
//! A glyph is outlined from the embedded face (the one the SVG names) and
//! filled by tiny-skia, as resvg would, at an eighth-of-a-pixel offset, once;
//! then every use is a blend of its coverage. Text is laid out by advance
//! widths with the face's `kern` pairs (no shaping: the labels are names of
//! stations and players, and numbers).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use resvg::tiny_skia;
use ttf_parser::{Face, GlyphId, OutlineBuilder};

/// A line of text to draw.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Text {
    /// Where its baseline starts (or is centred, with `middle`), in px.
    pub at: (f64, f64),
    /// Its size in px.
    pub size: f64,
    /// Its colour.
    pub rgb: [u8; 3],
    /// Whether `at` is the middle of the baseline (else its start).
    pub middle: bool,
    /// The text itself.
    pub text: String,
}

/// The colour of `#rrggbb` (black when it is not one).
pub(super) fn rgb(hex: &str) -> [u8; 3] {
    let channel = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
    };
    match (hex.len(), hex.starts_with('#')) {
        (7, true) => match (channel(1), channel(3), channel(5)) {
            (Some(r), Some(g), Some(b)) => [r, g, b],
            _ => [0, 0, 0],
        },
        _ => [0, 0, 0],
    }
}

/// Sub-pixel steps a glyph is rasterised at, each way.
const STEPS: f64 = 8.0;
/// Glyphs kept at most; past it the cache starts again (text in a
/// picture is mostly station and player names: a few hundred glyphs).
const MAX_CACHED: usize = 20_000;

/// A glyph's coverage, placed relative to its pen position.
struct Glyph {
    left: i32,
    top: i32,
    width: usize,
    alpha: Vec<u8>,
}

/// Cache key: glyph, size in tenths of a px, sub-pixel x and y steps.
type Key = (u16, u32, u8, u8);

fn face() -> &'static Face<'static> {
    static FACE: OnceLock<Face<'static>> = OnceLock::new();
    FACE.get_or_init(|| {
        // The embedded face parses: checked by a test below.
        Face::parse(super::raster::FONT, 0).expect("the embedded font parses")
    })
}

/// The glyph cache.
type Cache = HashMap<Key, Arc<Glyph>, BuildHasherDefault<KeyHasher>>;

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Cache::default()))
}

/// A hasher for [`Key`]s, which are 64 bits: the bits mixed by one
/// multiply. The default, SipHash, resists keys chosen to collide; these
/// come from one font's glyphs at a few sizes, at most [`MAX_CACHED`] of
/// them kept, and SipHash took a fifth of drawing a picture's text.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u8(b);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.0 = self.0 << 8 ^ u64::from(n);
    }

    fn write_u16(&mut self, n: u16) {
        self.0 = self.0 << 16 ^ u64::from(n);
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = self.0 << 32 ^ u64::from(n);
    }

    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ h >> 29
    }
}

/// Draws `texts` over `pixmap` (opaque), in order, marking each glyph's
/// box in `dirty`.
pub(super) fn draw(
    pixmap: &mut tiny_skia::PixmapMut<'_>,
    texts: &[Text],
    dirty: &mut super::dirty::Dirty,
) {
    let face = face();
    let scale_of = |size: f64| size / f64::from(face.units_per_em());
    // Locked once for all the texts, not once a glyph.
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    for t in texts {
        let scale = scale_of(t.size);
        // Spaces as SVG has them (xml:space default): runs collapsed, none
        // at either end, so the picture is what its SVG shows.
        let text = t.text.split_whitespace().collect::<Vec<_>>().join(" ");
        let glyphs: Vec<GlyphId> = text
            .chars()
            .filter(|c| !c.is_control())
            .map(|c| face.glyph_index(c).unwrap_or(GlyphId(0)))
            .collect();
        // Pen positions in font units.
        let mut pens = Vec::with_capacity(glyphs.len());
        let mut pen = 0.0;
        for (i, &g) in glyphs.iter().enumerate() {
            if i > 0 {
                pen += kerning(face, glyphs[i - 1], g);
            }
            pens.push(pen);
            pen += f64::from(face.glyph_hor_advance(g).unwrap_or(0));
        }
        let x0 = if t.middle {
            t.at.0 - pen * scale / 2.0
        } else {
            t.at.0
        };
        for (&g, &p) in glyphs.iter().zip(&pens) {
            let (x, y) = (x0 + p * scale, t.at.1);
            // The nearest step (a step further may be the next pixel's 0).
            let (x, y) = ((x * STEPS).round() / STEPS, (y * STEPS).round() / STEPS);
            let (ix, iy) = (x.floor(), y.floor());
            let sx = ((x - ix) * STEPS).round() as u8;
            let sy = ((y - iy) * STEPS).round() as u8;
            if let Some(glyph) = glyph(&mut cache, face, g, t.size, sx, sy) {
                let (left, top) = (ix as f32 + glyph.left as f32, iy as f32 + glyph.top as f32);
                let rows = glyph.alpha.len() / glyph.width.max(1);
                dirty.add(left, top, left + glyph.width as f32, top + rows as f32);
                blend(pixmap, &glyph, ix as i32, iy as i32, t.rgb);
            }
        }
    }
}

/// The horizontal kerning between two glyphs, in font units.
fn kerning(face: &Face<'_>, left: GlyphId, right: GlyphId) -> f64 {
    face.tables()
        .kern
        .into_iter()
        .flat_map(|k| k.subtables)
        .filter(|s| s.horizontal && !s.variable)
        .find_map(|s| s.glyphs_kerning(left, right))
        .map_or(0.0, f64::from)
}

/// The cached coverage of `g` at `size` px, offset by `sx`, `sy` steps;
/// `None` for a glyph without an outline (a space).
fn glyph(
    cache: &mut Cache,
    face: &Face<'_>,
    g: GlyphId,
    size: f64,
    sx: u8,
    sy: u8,
) -> Option<Arc<Glyph>> {
    let key = (g.0, (size * 10.0).round() as u32, sx, sy);
    if let Some(hit) = cache.get(&key) {
        return (!hit.alpha.is_empty()).then(|| hit.clone());
    }
    let made = Arc::new(rasterise(face, g, size, sx, sy).unwrap_or(Glyph {
        left: 0,
        top: 0,
        width: 0,
        alpha: Vec::new(),
    }));
    if cache.len() >= MAX_CACHED {
        cache.clear();
    }
    cache.insert(key, made.clone());
    (!made.alpha.is_empty()).then_some(made)
}

/// Fills the outline of `g` at `size` px, its pen at (`sx`, `sy`) steps
/// into the pixel, as resvg fills text: anti-aliased, non-zero.
fn rasterise(face: &Face<'_>, g: GlyphId, size: f64, sx: u8, sy: u8) -> Option<Glyph> {
    let scale = (size / f64::from(face.units_per_em())) as f32;
    let mut b = Outline {
        path: tiny_skia::PathBuilder::new(),
        scale,
        dx: (f64::from(sx) / STEPS) as f32,
        dy: (f64::from(sy) / STEPS) as f32,
    };
    face.outline_glyph(g, &mut b)?;
    let path = b.path.finish()?;
    let r = path.bounds();
    let (left, top) = (r.left().floor() as i32, r.top().floor() as i32);
    let width = (r.right().ceil() as i32 - left).max(1) as u32;
    let height = (r.bottom().ceil() as i32 - top).max(1) as u32;
    let mut mask = tiny_skia::Pixmap::new(width, height)?;
    let mut paint = tiny_skia::Paint::default();
    paint.set_color_rgba8(0, 0, 0, 255);
    paint.anti_alias = true;
    mask.fill_path(
        &path,
        &paint,
        tiny_skia::FillRule::Winding,
        tiny_skia::Transform::from_translate(-left as f32, -top as f32),
        None,
    );
    Some(Glyph {
        left,
        top,
        width: width as usize,
        alpha: mask.pixels().iter().map(|p| p.alpha()).collect(),
    })
}

/// Blends `colour` through the coverage of `g` with its pen at (`x`, `y`),
/// clipped to the pixmap a row at a time (no test a pixel).
fn blend(pixmap: &mut tiny_skia::PixmapMut<'_>, g: &Glyph, x: i32, y: i32, colour: [u8; 3]) {
    let (pw, ph) = (i64::from(pixmap.width()), i64::from(pixmap.height()));
    let left = i64::from(x) + i64::from(g.left);
    // The glyph's columns inside the pixmap.
    let width = g.width as i64;
    let (c0, c1) = ((-left).clamp(0, width), (pw - left).clamp(0, width));
    if c0 >= c1 {
        return;
    }
    let (c0, c1) = (c0 as usize, c1 as usize);
    let data = pixmap.data_mut();
    for (row, cover) in g.alpha.chunks(g.width).enumerate() {
        let py = i64::from(y) + i64::from(g.top) + row as i64;
        if !(0..ph).contains(&py) {
            continue;
        }
        let at = 4 * (py as usize * pw as usize + (left + c0 as i64) as usize);
        let pixels = data[at..at + 4 * (c1 - c0)].chunks_exact_mut(4);
        for (&a, px) in cover[c0..c1].iter().zip(pixels) {
            match a {
                0 => {}
                // Full coverage: the colour itself (what the blend gives).
                255 => px[..3].copy_from_slice(&colour),
                _ => over(px, colour, u32::from(a)),
            }
        }
    }
}

/// Blends opaque `colour` at `alpha` (0 - 255) into the opaque pixel `px`
/// (RGBA): what the glyphs and the label boxes are drawn with.
#[inline]
pub(super) fn over(px: &mut [u8], colour: [u8; 3], alpha: u32) {
    for (d, &c) in px[..3].iter_mut().zip(&colour) {
        *d = ((u32::from(*d) * (255 - alpha) + u32::from(c) * alpha + 127) / 255) as u8;
    }
}

/// A glyph outline into a tiny-skia path: font units scaled to px, y down,
/// offset by the sub-pixel step.
struct Outline {
    path: tiny_skia::PathBuilder,
    scale: f32,
    dx: f32,
    dy: f32,
}

impl Outline {
    fn p(&self, x: f32, y: f32) -> (f32, f32) {
        (x * self.scale + self.dx, -y * self.scale + self.dy)
    }
}

impl OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.p(x, y);
        self.path.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.p(x, y);
        self.path.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let (x1, y1) = self.p(x1, y1);
        let (x, y) = self.p(x, y);
        self.path.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let (x1, y1) = self.p(x1, y1);
        let (x2, y2) = self.p(x2, y2);
        let (x, y) = self.p(x, y);
        self.path.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.path.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_read_from_hex() {
        assert_eq!(rgb("#37474f"), [0x37, 0x47, 0x4f]);
        assert_eq!(rgb("#fff"), [0, 0, 0]);
        assert_eq!(rgb("red"), [0, 0, 0]);
        assert_eq!(rgb("#zz0000"), [0, 0, 0]);
    }

    fn drawn(text: &str, middle: bool) -> tiny_skia::Pixmap {
        let mut p = tiny_skia::Pixmap::new(200, 40).unwrap();
        p.fill(tiny_skia::Color::WHITE);
        let t = Text {
            at: (100.0, 30.0),
            size: 24.0,
            rgb: [0, 0, 0],
            middle,
            text: text.into(),
        };
        let white = p.clone();
        let mut dirty = super::super::dirty::Dirty::new(200, 40);
        draw(&mut p.as_mut(), &[t], &mut dirty);
        // Every pixel drawn is in a glyph's box.
        dirty.check(white.data(), p.data());
        p
    }

    fn dark_columns(p: &tiny_skia::Pixmap) -> Vec<u32> {
        (0..p.width())
            .filter(|&x| (0..p.height()).any(|y| p.pixel(x, y).unwrap().red() < 128))
            .collect()
    }

    #[test]
    fn text_is_drawn_from_its_start_or_its_middle() {
        assert!(dark_columns(&drawn("", false)).is_empty());
        assert!(dark_columns(&drawn(" ", false)).is_empty());
        let start = dark_columns(&drawn("Rushton", false));
        assert!(start.len() > 40, "{start:?}");
        assert!(*start.first().unwrap() >= 100);
        let mid = dark_columns(&drawn("Rushton", true));
        let (a, b) = (*mid.first().unwrap(), *mid.last().unwrap());
        assert!(a < 100 && b > 100 && (a + b).abs_diff(200) <= 4, "{a}..{b}");
    }

    #[test]
    fn off_the_edge_and_unknown_characters_do_not_panic() {
        let mut p = tiny_skia::Pixmap::new(20, 20).unwrap();
        let t = |at| Text {
            at,
            size: 30.0,
            rgb: [1, 2, 3],
            middle: false,
            text: "W\u{10FFFF}\u{7}é漢".into(),
        };
        let mut dirty = super::super::dirty::Dirty::new(20, 20);
        draw(
            &mut p.as_mut(),
            &[t((-15.0, 5.0)), t((15.0, 40.0)), t((1e9, -1e9))],
            &mut dirty,
        );
    }
}
