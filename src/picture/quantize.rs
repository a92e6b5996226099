//! Fewer colours for a smaller PNG: the picture is a few flat colours and
//! their anti-aliased edges, so 256 colours chosen by use lose nothing a
//! reader sees and make the file several times smaller.
//!
//! Colours are counted in 15-bit buckets (5 bits a channel); the 256 most
//! used buckets, each as the mean of its pixels, are the palette, and every
//! bucket maps to its nearest palette colour.

/// A palette of at most 256 RGB colours, and each pixel's index into it.
pub(super) struct Indexed {
    /// `r, g, b` per entry.
    pub palette: Vec<u8>,
    /// One index per pixel.
    pub indices: Vec<u8>,
}

/// The 15-bit bucket of a pixel's colour (its first three bytes).
pub(super) fn bucket(rgb: &[u8]) -> usize {
    ((rgb[0] as usize >> 3) << 10) | ((rgb[1] as usize >> 3) << 5) | (rgb[2] as usize >> 3)
}

/// An RGBA pixel's four bytes as one word, to compare pixels in one step.
pub(super) fn word(px: &[u8]) -> u32 {
    u32::from_le_bytes([px[0], px[1], px[2], px[3]])
}

/// The 15-bit bucket of a pixel given as a [`word`].
pub(super) fn bucket_of(px: u32) -> usize {
    bucket(&px.to_le_bytes())
}

/// How many buckets there are.
pub(super) const BUCKETS: usize = 1 << 15;

/// The mean colour of `n` pixels whose channels sum to `sum`, rounded.
pub(super) fn mean(n: u32, sum: [u64; 3]) -> [i32; 3] {
    let n = u64::from(n.max(1));
    [0, 1, 2].map(|c| ((sum[c] + n / 2) / n) as i32)
}

/// Colour counts by bucket: how many pixels, and their channel sums.
pub(super) struct Counts {
    count: Vec<u32>,
    sum: Vec<[u64; 3]>,
}

impl Counts {
    /// No pixels counted.
    pub(super) fn new() -> Counts {
        Counts {
            count: vec![0; BUCKETS],
            sum: vec![[0; 3]; BUCKETS],
        }
    }

    /// Adds `n` pixels of the colour of `px` (a [`word`]; alpha ignored).
    fn add(&mut self, px: u32, n: u32) {
        let rgba = px.to_le_bytes();
        let b = bucket(&rgba);
        self.count[b] += n;
        for (sum, v) in self.sum[b].iter_mut().zip(rgba) {
            *sum += u64::from(v) * u64::from(n);
        }
    }

    /// Counts opaque RGBA pixels given as [`word`]s (alpha ignored), a run
    /// of equal pixels at once: most of a picture is runs of one colour.
    pub(super) fn count(&mut self, pixels: impl IntoIterator<Item = u32>) {
        let mut run: Option<(u32, u32)> = None;
        for px in pixels {
            match &mut run {
                Some((prev, n)) if *prev == px => *n += 1,
                _ => {
                    if let Some((c, n)) = run.replace((px, 1)) {
                        self.add(c, n);
                    }
                }
            }
        }
        if let Some((c, n)) = run {
            self.add(c, n);
        }
    }

    /// The buckets counted, most used first; equal counts in bucket order
    /// (deterministic).
    pub(super) fn used(&self) -> Vec<usize> {
        let mut used: Vec<usize> = (0..BUCKETS).filter(|&b| self.count[b] > 0).collect();
        used.sort_unstable_by_key(|&b| (std::cmp::Reverse(self.count[b]), b));
        used
    }

    /// The mean colour of bucket `b`'s pixels.
    pub(super) fn mean(&self, b: usize) -> [i32; 3] {
        mean(self.count[b], self.sum[b])
    }
}

/// Quantises opaque RGBA pixels (4 bytes each, alpha ignored) to 256
/// colours.
pub(super) fn quantize(rgba: &[u8]) -> Indexed {
    let mut counts = Counts::new();
    counts.count(rgba.chunks_exact(4).map(word));
    index(&counts, rgba)
}

/// The palette of the 256 most used buckets of `counts` (the counts of
/// `rgba`), and each pixel's index.
fn index(counts: &Counts, rgba: &[u8]) -> Indexed {
    let used = counts.used();
    let mean = |b: usize| counts.mean(b);
    let palette: Vec<[i32; 3]> = used.iter().take(256).map(|&b| mean(b)).collect();
    let mut to_index = vec![0u8; BUCKETS];
    for (k, &b) in used.iter().enumerate() {
        to_index[b] = if k < 256 {
            k as u8
        } else {
            nearest(&palette, mean(b))
        };
    }
    // Branch-free, one table lookup a pixel (a run test costs more).
    let indices = rgba
        .chunks_exact(4)
        .map(|px| {
            let b = ((px[0] as usize >> 3) << 10)
                | ((px[1] as usize >> 3) << 5)
                | (px[2] as usize >> 3);
            to_index[b]
        })
        .collect();
    Indexed {
        palette: palette.iter().flat_map(|c| c.map(|v| v as u8)).collect(),
        indices,
    }
}

/// The index of the palette colour nearest `c` (squared RGB distance).
pub(super) fn nearest(palette: &[[i32; 3]], c: [i32; 3]) -> u8 {
    let d = |p: &[i32; 3]| (0..3).map(|i| (p[i] - c[i]).pow(2)).sum::<i32>();
    (0..palette.len())
        .min_by_key(|&i| d(&palette[i]))
        .unwrap_or(0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba(pixels: &[[u8; 3]]) -> Vec<u8> {
        pixels
            .iter()
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect()
    }

    #[test]
    fn few_colours_are_kept_exactly_and_many_are_mapped_near() {
        let flat = [[255, 255, 255], [0, 120, 42], [227, 32, 23]];
        let q = quantize(&rgba(&[flat[0], flat[1], flat[2], flat[1]]));
        assert_eq!(q.palette.len(), 9);
        let back = |q: &Indexed, i: usize| {
            let k = q.indices[i] as usize * 3;
            [q.palette[k], q.palette[k + 1], q.palette[k + 2]]
        };
        assert_eq!(back(&q, 1), flat[1]);
        assert_eq!(back(&q, 2), flat[2]);
        // A picture's kind of input: twelve flat colours, many pixels each,
        // and the anti-aliased blends between every two (990 more colours):
        // the flat ones stay exact, the blends land near.
        let flats: Vec<[u8; 3]> = (0..12u8)
            .map(|i| [i * 21, 255 - i * 19, i.wrapping_mul(97)])
            .collect();
        let mut pixels: Vec<[u8; 3]> = flats.iter().flat_map(|f| [*f; 500]).collect();
        for (a, fa) in flats.iter().enumerate() {
            for fb in &flats[a + 1..] {
                for t in 1..16u16 {
                    pixels.push(
                        [0, 1, 2]
                            .map(|c| ((fa[c] as u16 * (16 - t) + fb[c] as u16 * t) / 16) as u8),
                    );
                }
            }
        }
        let q = quantize(&rgba(&pixels));
        assert_eq!(q.palette.len(), 256 * 3);
        for (i, f) in flats.iter().enumerate() {
            assert_eq!(back(&q, i * 500), *f);
        }
        let blends = 12 * 500..pixels.len();
        let error: u32 = blends
            .clone()
            .map(|i| {
                let got = back(&q, i);
                (0..3)
                    .map(|c| got[c].abs_diff(pixels[i][c]) as u32)
                    .max()
                    .unwrap()
            })
            .sum();
        let mean = error as f64 / blends.len() as f64;
        assert!(mean < 24.0, "mean channel error {mean}");
    }
}
