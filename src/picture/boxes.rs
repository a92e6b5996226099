//! The label boxes: rounded rectangles, white at 92% over the network,
//! with a 1 px grey rim, one under each station label.
//!
//! resvg draws such a box as an anti-aliased path (a supersampled fill at
//! 92%, then the rim stroked into a second path and filled): 50 - 120 us a
//! box, a sixth of a lounge game's picture and a fifth of the heaviest
//! fixture's (instructions measured with and without them). A box's edges
//! sit on pixel centres ([`LabelBox::snapped`]), so all but its corners are
//! whole pixels: the fast picture ([`super::draw_png`]) draws them
//! straight onto the canvas, the corners from their coverage computed once.
//! The SVG has the same rectangle ([`LabelBox::svg`]): one description,
//! drawn either way (`tests` compares the two).

use std::sync::OnceLock;

use resvg::tiny_skia;

use super::dirty::Dirty;
use super::glyphs::over;

/// The corner radius, px.
const RADIUS: f64 = 3.0;
/// The fill's opacity.
const FILL_OPACITY: f64 = 0.92;
/// The rim's colour.
const RIM: [u8; 3] = [0x45, 0x5a, 0x64];
/// Pixels from a box's edge pixel that a corner's arc reaches: the arc and
/// the rim's half-width outside it.
const CORNER: usize = 4;
/// Samples a pixel side when computing a corner's coverage.
const SAMPLES: usize = 8;

/// A label's box, its edges on pixel centres (`x`, `y` at a half pixel,
/// `w`, `h` whole pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct LabelBox {
    /// Left edge, px.
    pub x: f64,
    /// Top edge, px.
    pub y: f64,
    /// Width, px.
    pub w: f64,
    /// Height, px.
    pub h: f64,
}

impl LabelBox {
    /// The box nearest to the rectangle at (`x`, `y`), `w` x `h` with its
    /// edges on pixel centres.
    pub(super) fn snapped(x: f64, y: f64, w: f64, h: f64) -> LabelBox {
        LabelBox {
            x: x.floor() + 0.5,
            y: y.floor() + 0.5,
            w: w.round().max(2.0 * RADIUS),
            h: h.round().max(2.0 * RADIUS),
        }
    }

    /// The box as an SVG element.
    pub(super) fn svg(&self) -> String {
        let [r, g, b] = RIM;
        format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="{RADIUS:.1}" fill="#ffffff" fill-opacity="{FILL_OPACITY}" stroke="#{r:02x}{g:02x}{b:02x}" stroke-width="1"/>"##,
            self.x, self.y, self.w, self.h
        )
    }
}

/// (fill, rim) coverage, 0 - 255, of the pixels of a box's top-left
/// corner, `CORNER` x `CORNER` from its edge pixels; the other corners are
/// its mirror images.
fn corner() -> &'static [[(u8, u8); CORNER]; CORNER] {
    static TABLE: OnceLock<[[(u8, u8); CORNER]; CORNER]> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The edges at 0.5 (the edge pixel's centre); the arc's centre.
        let (edge, centre) = (0.5, 0.5 + RADIUS);
        let mut table = [[(0, 0); CORNER]; CORNER];
        for (row, line) in table.iter_mut().enumerate() {
            for (col, cell) in line.iter_mut().enumerate() {
                let (mut fill, mut rim) = (0, 0);
                for s in 0..SAMPLES * SAMPLES {
                    let px = col as f64 + ((s % SAMPLES) as f64 + 0.5) / SAMPLES as f64;
                    let py = row as f64 + ((s / SAMPLES) as f64 + 0.5) / SAMPLES as f64;
                    // Signed distance to the outline, outside positive.
                    let d = if px < centre && py < centre {
                        (px - centre).hypot(py - centre) - RADIUS
                    } else {
                        (edge - px).max(edge - py)
                    };
                    fill += usize::from(d <= 0.0);
                    rim += usize::from(d.abs() <= 0.5);
                }
                let share = |n: usize| (n * 255 / (SAMPLES * SAMPLES)) as u8;
                *cell = (share(fill), share(rim));
            }
        }
        table
    })
}

/// Draws `boxes` over `pixmap` (opaque, premultiplied), in order, marking
/// each in `dirty`. A box reaching past the pixmap is clipped.
pub(super) fn draw(pixmap: &mut tiny_skia::PixmapMut<'_>, boxes: &[LabelBox], dirty: &mut Dirty) {
    let (pw, ph) = (pixmap.width() as i64, pixmap.height() as i64);
    let fill_alpha = (FILL_OPACITY * 255.0).round() as u32;
    // The fill over each channel value: a lookup, not a blend, a pixel.
    let mut filled = [0u8; 256];
    for (v, out) in filled.iter_mut().enumerate() {
        let mut px = [v as u8; 4];
        over(&mut px, [255; 3], fill_alpha);
        *out = px[0];
    }
    let table = corner();
    let data = pixmap.data_mut();
    for b in boxes {
        // The edge pixels: those whose centres the edges pass through.
        let (x0, y0) = (b.x.floor() as i64, b.y.floor() as i64);
        let (x1, y1) = (x0 + b.w as i64, y0 + b.h as i64);
        dirty.add(x0 as f32, y0 as f32, (x1 + 1) as f32, (y1 + 1) as f32);
        let c = CORNER as i64;
        let (left, right) = (x0.max(0), x1.min(pw - 1));
        if left > right {
            continue;
        }
        for y in y0.max(0)..=y1.min(ph - 1) {
            // How far into a corner's rows, from the nearer edge.
            let in_rows = (y - y0).min(y1 - y);
            let row = &mut data[(4 * y * pw) as usize..(4 * (y + 1) * pw) as usize];
            let span = &mut row[4 * left as usize..4 * (right + 1) as usize];
            for (x, px) in (left..).zip(span.chunks_exact_mut(4)) {
                let in_cols = (x - x0).min(x1 - x);
                if in_rows < c && in_cols < c {
                    let (fill, rim) = table[in_rows as usize][in_cols as usize];
                    over(px, [255; 3], fill_alpha * u32::from(fill) / 255);
                    over(px, RIM, u32::from(rim));
                } else if in_rows == 0 || in_cols == 0 {
                    px[..3].copy_from_slice(&RIM);
                } else {
                    for v in &mut px[..3] {
                        *v = filled[usize::from(*v)];
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grey-and-black background, so that the fill's 8% shows.
    fn background(w: u32, h: u32) -> tiny_skia::Pixmap {
        let mut p = tiny_skia::Pixmap::new(w, h).unwrap();
        for (i, px) in p.data_mut().chunks_exact_mut(4).enumerate() {
            let v = if (i / 7) % 2 == 0 { 0 } else { 160 };
            px.copy_from_slice(&[v, v, v, 255]);
        }
        p
    }

    #[test]
    fn a_box_drawn_straight_is_the_box_resvg_draws() {
        let (w, h) = (60u32, 40u32);
        let b = LabelBox::snapped(7.3, 5.8, 41.6, 22.2);
        assert_eq!((b.x, b.y, b.w, b.h), (7.5, 5.5, 42.0, 22.0));
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">{}</svg>"#,
            b.svg()
        );
        let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
        let mut want = background(w, h);
        resvg::render(&tree, tiny_skia::Transform::default(), &mut want.as_mut());
        let mut got = background(w, h);
        let mut dirty = Dirty::new(w, h);
        draw(&mut got.as_mut(), &[b], &mut dirty);
        let mut worst = 0;
        let mut changed = 0;
        let pixels = got.data().chunks(4).zip(want.data().chunks(4));
        for (i, (a, b)) in pixels.enumerate() {
            let d = a.iter().zip(b).map(|(x, y)| x.abs_diff(*y)).max().unwrap();
            // Only the corners may differ.
            let (x, y) = ((i % w as usize) as i64, (i / w as usize) as i64);
            let corner = (x - 7).min(49 - x) < 4 && (y - 5).min(27 - y) < 4;
            assert!(d == 0 || corner, "({x}, {y}): {a:?}, resvg {b:?}");
            worst = worst.max(d);
            changed += usize::from(d > 0);
        }
        // The corners' sampling differs from resvg's (which is not even
        // symmetric): by less than the picture tests' tolerance (48).
        assert!(worst <= 40, "a channel differs by {worst}");
        assert!(changed < 60, "{changed} pixels differ");
        // And it drew: the rim's colour along its top edge.
        let at = |x: usize, y: usize| &got.data()[4 * (y * w as usize + x)..][..3];
        assert_eq!(at(20, 5), RIM);
        assert_eq!(at(7, 15), RIM);
        assert_eq!(at(49, 15), RIM);
        assert_eq!(at(20, 27), RIM);
    }

    #[test]
    fn a_box_past_the_edges_is_clipped() {
        let mut p = background(20, 20);
        let mut dirty = Dirty::new(20, 20);
        draw(
            &mut p.as_mut(),
            &[LabelBox::snapped(-10.0, 12.0, 50.0, 30.0)],
            &mut dirty,
        );
        assert_eq!(&p.data()[4 * (12 * 20 + 5)..][..3], RIM);
    }
}
