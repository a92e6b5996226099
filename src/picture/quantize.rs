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

fn bucket(rgb: [u8; 3]) -> usize {
    ((rgb[0] as usize >> 3) << 10) | ((rgb[1] as usize >> 3) << 5) | (rgb[2] as usize >> 3)
}

const BUCKETS: usize = 1 << 15;

/// Colour counts by bucket: how many pixels, and their channel sums.
#[derive(Clone)]
pub(super) struct Counts {
    count: Vec<u32>,
    sum: Vec<[u64; 3]>,
}

impl Counts {
    fn new() -> Counts {
        Counts {
            count: vec![0; BUCKETS],
            sum: vec![[0; 3]; BUCKETS],
        }
    }

    /// Adds `n` pixels of colour `rgb` (`n` negative: takes them away).
    fn add(&mut self, rgb: [u8; 3], n: i64) {
        let b = bucket(rgb);
        self.count[b] = (self.count[b] as i64 + n) as u32;
        for (sum, v) in self.sum[b].iter_mut().zip(rgb) {
            *sum = (*sum as i64 + v as i64 * n) as u64;
        }
    }

    /// Counts opaque RGBA pixels (alpha ignored), a run of equal pixels
    /// at once: most of a picture is runs of one colour.
    fn count(&mut self, rgba: &[u8]) {
        let mut run: Option<([u8; 3], i64)> = None;
        for px in rgba.chunks_exact(4) {
            let rgb = [px[0], px[1], px[2]];
            match &mut run {
                Some((prev, n)) if *prev == rgb => *n += 1,
                _ => {
                    if let Some((c, n)) = run.replace((rgb, 1)) {
                        self.add(c, n);
                    }
                }
            }
        }
        if let Some((c, n)) = run {
            self.add(c, n);
        }
    }
}

/// Quantises opaque RGBA pixels (4 bytes each, alpha ignored) to 256
/// colours.
pub(super) fn quantize(rgba: &[u8]) -> Indexed {
    let mut counts = Counts::new();
    counts.count(rgba);
    index(&counts, rgba)
}

/// The colour counts of `rgba`, for [`quantize_over`].
pub(super) fn counts(rgba: &[u8]) -> Counts {
    let mut counts = Counts::new();
    counts.count(rgba);
    counts
}

/// [`quantize`] of `rgba`, whose first pixels are mostly those of `base`
/// (counted in `base_counts`): only the pixels that differ are counted
/// again (a picture is the plain network, counted once, with a game drawn
/// over a small part of it). The result is the same as [`quantize`]'s.
pub(super) fn quantize_over(base: &[u8], base_counts: &Counts, rgba: &[u8]) -> Indexed {
    let mut counts = base_counts.clone();
    let shared = base.len().min(rgba.len()) / 4 * 4;
    // Compared a block at a time (memcmp); a differing block pixel by pixel.
    const BLOCK: usize = 4 * 64;
    let (old, new) = (&base[..shared], &rgba[..shared]);
    for (a, b) in old.chunks(BLOCK).zip(new.chunks(BLOCK)) {
        if a == b {
            continue;
        }
        for (pa, pb) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
            if pa[..3] != pb[..3] {
                counts.add([pa[0], pa[1], pa[2]], -1);
                counts.add([pb[0], pb[1], pb[2]], 1);
            }
        }
    }
    // Base pixels past the picture's end are not in it.
    for px in base[shared..].chunks_exact(4) {
        counts.add([px[0], px[1], px[2]], -1);
    }
    counts.count(&rgba[shared..]);
    index(&counts, rgba)
}

/// The palette of the 256 most used buckets of `counts` (the counts of
/// `rgba`), and each pixel's index.
fn index(counts: &Counts, rgba: &[u8]) -> Indexed {
    let (count, sum) = (&counts.count, &counts.sum);
    let mut used: Vec<usize> = (0..BUCKETS).filter(|&b| count[b] > 0).collect();
    // Most used first; equal counts in bucket order (deterministic).
    used.sort_unstable_by_key(|&b| (std::cmp::Reverse(count[b]), b));
    let mean = |b: usize| -> [i32; 3] {
        let n = count[b] as u64;
        [0, 1, 2].map(|c| ((sum[b][c] + n / 2) / n) as i32)
    };
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
fn nearest(palette: &[[i32; 3]], c: [i32; 3]) -> u8 {
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
    fn over_a_counted_base_is_the_same_as_from_scratch() {
        let base: Vec<[u8; 3]> = (0..5000u32)
            .map(|i| {
                [
                    (i / 300) as u8 * 9,
                    255 - (i / 700) as u8,
                    (i % 7) as u8 * 30,
                ]
            })
            .collect();
        let mut over = base.clone();
        for i in (100..4000).step_by(37) {
            over[i] = [200, (i % 251) as u8, 17];
        }
        over.extend((0..900u32).map(|i| [255, 255, (i / 100) as u8]));
        let (base, over) = (rgba(&base), rgba(&over));
        let a = quantize(&over);
        let b = quantize_over(&base, &counts(&base), &over);
        assert_eq!((a.palette, a.indices), (b.palette, b.indices));
        let short = &over[..over.len() / 12 * 4];
        let b = quantize_over(&base, &counts(&base), short);
        let a = quantize(short);
        assert_eq!((a.palette, a.indices), (b.palette, b.indices));
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
