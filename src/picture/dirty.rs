//! Where a picture may have drawn on the network: the blocks (of
//! [`BLOCK`] bytes) under the bounding boxes of what the overlay draws,
//! its shapes (from the parsed SVG) and its glyphs. Only those blocks are
//! compared with the network and indexed again; comparing all 7.5 MB of
//! the canvas was a tenth of a picture's time, and a game draws on about a
//! tenth of the network.
//!
//! The boxes must hold every pixel drawn: a box too small would leave the
//! network's pixels in the PNG where the game drew. So each box is widened
//! by [`PAD`] px for anti-aliasing, a group with filters counts whole, and
//! builds with debug assertions (the tests) check that no other block
//! differs ([`Dirty::check`]).

use resvg::usvg;

use super::canvas::BLOCK;

/// Pixels added on every side of a box: anti-aliasing reaches a pixel past
/// the geometry; one more for rounding.
const PAD: f32 = 2.0;

/// Pixels in a block.
const PX: usize = BLOCK / 4;

/// The blocks of a `width`-pixel-wide network of `height` rows that a
/// picture may have drawn on.
pub(super) struct Dirty {
    width: usize,
    height: usize,
    marked: Vec<bool>,
}

impl Dirty {
    /// Nothing drawn yet.
    pub(super) fn new(width: u32, height: u32) -> Dirty {
        let (width, height) = (width as usize, height as usize);
        Dirty {
            width,
            height,
            marked: vec![false; (width * height).div_ceil(PX)],
        }
    }

    /// Marks the blocks under the box (`x0`, `y0`) - (`x1`, `y1`), in px,
    /// widened by [`PAD`] and clipped to the network.
    pub(super) fn add(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) {
        if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
            // No box to trust: everything.
            self.marked.fill(true);
            return;
        }
        let clamp = |v: f32, max: usize| (v.max(0.0) as usize).min(max);
        let (c0, c1) = (
            clamp((x0 - PAD).floor(), self.width),
            clamp((x1 + PAD).ceil(), self.width),
        );
        let (r0, r1) = (
            clamp((y0 - PAD).floor(), self.height),
            clamp((y1 + PAD).ceil(), self.height),
        );
        if c0 >= c1 {
            return;
        }
        for row in r0..r1 {
            let start = row * self.width + c0;
            let end = row * self.width + c1;
            for b in &mut self.marked[start / PX..=(end - 1) / PX] {
                *b = true;
            }
        }
    }

    /// Marks what the nodes of `tree` draw.
    pub(super) fn add_tree(&mut self, tree: &usvg::Tree) {
        for node in tree.root().children() {
            self.add_node(node);
        }
    }

    fn add_node(&mut self, node: &usvg::Node) {
        match node {
            usvg::Node::Group(g) if g.filters().is_empty() => {
                for child in g.children() {
                    self.add_node(child);
                }
            }
            // A filter may draw past its children: the group's layer.
            usvg::Node::Group(g) => {
                let r = g.abs_layer_bounding_box();
                self.add(r.left(), r.top(), r.right(), r.bottom());
            }
            _ => {
                let r = node.abs_stroke_bounding_box();
                self.add(r.left(), r.top(), r.right(), r.bottom());
            }
        }
    }

    /// The marked blocks, in order.
    pub(super) fn blocks(&self) -> Vec<u32> {
        (0..self.marked.len())
            .filter(|&b| self.marked[b])
            .map(|b| b as u32)
            .collect()
    }

    /// With debug assertions: panics if a block not marked differs between
    /// `network` and `drawn` (a box missed something drawn).
    pub(super) fn check(&self, network: &[u8], drawn: &[u8]) {
        if !cfg!(debug_assertions) {
            return;
        }
        let blocks = network.chunks(BLOCK).zip(drawn.chunks(BLOCK));
        for (b, (n, d)) in blocks.enumerate() {
            assert!(
                self.marked.get(b).copied().unwrap_or(true) || n == d,
                "block {b} (row {}) was drawn on outside every box",
                b * PX / self.width.max(1)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_marks_the_blocks_under_it_padded() {
        // 200 px wide: a row is 3.125 blocks, so rows straddle blocks.
        let mut d = Dirty::new(200, 10);
        d.add(70.0, 3.0, 71.0, 3.0);
        // Rows 1 - 4, columns 68..73: pixels 268..273, ..., 868..873.
        let want: Vec<u32> = (1..5).map(|r| ((r * 200 + 68) / 64) as u32).collect();
        assert_eq!(d.blocks(), want);
        // Off the network: nothing; not finite: everything.
        let mut d = Dirty::new(200, 10);
        d.add(500.0, 3.0, 600.0, 4.0);
        d.add(10.0, 50.0, 20.0, 60.0);
        assert!(d.blocks().is_empty());
        d.add(f32::NAN, 0.0, 1.0, 1.0);
        assert_eq!(d.blocks().len(), (200 * 10usize).div_ceil(64));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "outside every box")]
    fn a_drawn_block_outside_every_box_is_caught() {
        let d = Dirty::new(128, 2);
        let network = vec![255u8; 128 * 2 * 4];
        let mut drawn = network.clone();
        drawn[4 * 130] = 0;
        d.check(&network, &drawn);
    }
}
