//! The pixels a picture is drawn on, kept from one picture to the next.
//!
//! Every picture starts as the plain network (7.5 MB of RGBA at 1600 px
//! wide) with white below it for the panel. Copying that whole for each
//! picture, into memory the allocator has just handed back, was the
//! largest share of a picture's time; a game changes about a tenth of the
//! network's blocks. So a canvas is kept, and each picture starts by
//! restoring only the blocks the last one changed (found anyway when the
//! picture is indexed against the network, see
//! [`super::quantize::quantize_over`]) and whitening the rows the last
//! panel used.

use std::sync::Mutex;

use super::dirty::Dirty;
use super::quantize::{quantize_over, Base, Indexed};
use super::scanlines::Scanlines;

/// Bytes in a block of pixels: the network and a picture are compared, and
/// a canvas restored, a block at a time (64 pixels).
pub(super) const BLOCK: usize = 4 * 64;

/// Canvases kept at most: one for each picture drawn at once (the sender
/// draws one ahead, see `daemon::sender`; a second drawing at once, by
/// `map draw` or the archive, gets a fresh one).
const KEPT: usize = 1;

/// Kept canvases, all over the embedded map's network (the only network
/// kept, see [`super::raster::network`]).
static POOL: Mutex<Vec<Canvas>> = Mutex::new(Vec::new());

/// RGBA pixels (premultiplied, opaque) that equal a network's except in
/// the blocks listed in `changed` and in the `used` bytes past the network;
/// white beyond.
pub(super) struct Canvas {
    data: Vec<u8>,
    /// Blocks of the network ([`BLOCK`] bytes each) that differ from it.
    changed: Vec<u32>,
    /// Bytes the last picture drawn on it covered.
    used: usize,
    /// Whether it goes back to the pool (drawn over the kept network).
    pooled: bool,
    /// Palette indices equal to the network's (`Base::indices`) except in
    /// the `changed` blocks and past the network, and scanlines: buffers
    /// kept for the next picture (each fresh one would be new pages for the
    /// kernel to fault in and zero, two megabytes a picture, and the
    /// indices a copy of the network's).
    indices: Vec<u8>,
    scanlines: Scanlines,
}

impl Canvas {
    /// A canvas equal to `network` (its RGBA pixels, indexed as `base`)
    /// and white past it, `len` bytes long at least: a kept one restored
    /// when `pooled` (the network is the kept one), else a fresh copy.
    pub(super) fn take(network: &[u8], base: &Base, len: usize, pooled: bool) -> Canvas {
        let kept = if pooled {
            POOL.lock().unwrap_or_else(|e| e.into_inner()).pop()
        } else {
            None
        };
        let mut canvas = match kept {
            Some(mut c) => {
                c.restore(network, base);
                c
            }
            None => Canvas {
                data: network.to_vec(),
                changed: Vec::new(),
                used: 0,
                pooled,
                // Room for the whole picture, panel included (grown later,
                // it would double); filled with the network's by
                // `index_over`.
                indices: Vec::with_capacity(len.div_ceil(4).max(base.indices.len())),
                scanlines: Scanlines::default(),
            },
        };
        if canvas.data.len() < len {
            canvas.data.resize(len, 255);
        }
        canvas.used = len;
        canvas
    }

    /// The first `len` bytes (as taken) to draw on.
    pub(super) fn pixels(&mut self) -> &mut [u8] {
        &mut self.data[..self.used]
    }

    /// The picture drawn on it indexed over the network (`base`, of pixels
    /// `network`), into the kept index buffer, looking only at the blocks
    /// `dirty` marks; the blocks it changed are noted for the next
    /// picture's restore.
    pub(super) fn index_over(&mut self, base: &Base, network: &[u8], dirty: &Dirty) -> Indexed {
        let mut indices = std::mem::take(&mut self.indices);
        if indices.len() < base.indices.len() {
            // A fresh canvas, or one cut short by a picture shorter than
            // the network: the network's indices, whole.
            indices.clear();
            indices.extend_from_slice(&base.indices);
        }
        let drawn = &self.data[..self.used];
        dirty.check(network, drawn);
        debug_assert!(
            indices.len() >= base.indices.len() && indices[..base.indices.len()] == base.indices,
            "a canvas's indices are the network's"
        );
        quantize_over(
            base,
            network,
            drawn,
            &dirty.blocks(),
            &mut self.changed,
            indices,
        )
    }

    /// The blocks of the network the last indexed picture changed.
    pub(super) fn changed(&self) -> &[u32] {
        &self.changed
    }

    /// The kept scanlines, for the encoder.
    pub(super) fn scanlines(&mut self) -> &mut Scanlines {
        &mut self.scanlines
    }

    /// Back to the pool (when it came from it and the pool has room), with
    /// `indices` (from [`Canvas::index_over`]) kept for the next picture.
    pub(super) fn give_back(mut self, indices: Vec<u8>) {
        if !self.pooled {
            return;
        }
        self.indices = indices;
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < KEPT {
            pool.push(self);
        }
    }

    /// Equal to `network` (indexed as `base`) again: its changed blocks
    /// copied back, pixels and indices, the bytes past it the last picture
    /// used whitened.
    fn restore(&mut self, network: &[u8], base: &Base) {
        for &b in &self.changed {
            let start = b as usize * BLOCK;
            let end = (start + BLOCK).min(network.len());
            if let (Some(to), Some(from)) = (self.data.get_mut(start..end), network.get(start..end))
            {
                to.copy_from_slice(from);
            }
            let (start, end) = (start / 4, end / 4);
            if let (Some(to), Some(from)) = (
                self.indices.get_mut(start..end),
                base.indices.get(start..end),
            ) {
                to.copy_from_slice(from);
            }
        }
        self.changed.clear();
        let past = network.len().min(self.data.len());
        let used = self.used.clamp(past, self.data.len());
        self.data[past..used].fill(255);
    }
}

#[cfg(test)]
mod tests {
    use crate::gsd::parse_gsd;
    use crate::map::Map;
    use crate::picture::{draw_png, Scene};

    fn scene(text: &str) -> Scene {
        let map = Map::london_1999();
        Scene::from_gsd(map, &parse_gsd(text, map).unwrap()).unwrap()
    }

    /// Whatever was drawn on a kept canvas before, and however many are
    /// drawn at once, a picture comes out the same, byte for byte: a tall
    /// panel after a short one and the other way round, a game with many
    /// marks after one with few.
    #[test]
    fn a_picture_is_the_same_whatever_its_canvas_drew_before() {
        let map = Map::london_1999();
        let big = scene(include_str!(
            "../../fixtures/gsd/valid/25-full-gsd-all-boxes.txt"
        ));
        let small = scene(include_str!(
            "../../fixtures/gsd/valid/19-night-train-and-timeouts.txt"
        ));
        let (a, b) = (draw_png(map, &big).unwrap(), draw_png(map, &small).unwrap());
        assert_ne!(a, b);
        for _ in 0..2 {
            assert_eq!(draw_png(map, &small).unwrap(), b);
            assert_eq!(draw_png(map, &big).unwrap(), a);
        }
        let (a, b) = (&a, &b);
        std::thread::scope(|s| {
            let drawing: Vec<_> = (0..4)
                .map(|k| {
                    let (scene, want) = if k % 2 == 0 { (&big, a) } else { (&small, b) };
                    s.spawn(move || (0..3).all(|_| &draw_png(map, scene).unwrap() == want))
                })
                .collect();
            for d in drawing {
                assert!(d.join().unwrap());
            }
        });
    }
}
