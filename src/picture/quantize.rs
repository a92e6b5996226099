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

/// Quantises opaque RGBA pixels (4 bytes each, alpha ignored) to 256
/// colours. One pass counts the buckets (remembering each pixel's), one
/// maps them: most of a picture is runs of one colour, so a pixel equal to
/// the one before it costs a comparison.
pub(super) fn quantize(rgba: &[u8]) -> Indexed {
    const BUCKETS: usize = 1 << 15;
    let mut count = vec![0u32; BUCKETS];
    let mut sum = vec![[0u64; 3]; BUCKETS];
    let mut of_pixel: Vec<u16> = Vec::with_capacity(rgba.len() / 4);
    // A run of equal pixels is counted once, at its end.
    let mut run: Option<([u8; 3], usize, u32)> = None;
    let mut flush = |run: ([u8; 3], usize, u32), count: &mut Vec<u32>| {
        let (rgb, b, n) = run;
        count[b] += n;
        for c in 0..3 {
            sum[b][c] += rgb[c] as u64 * n as u64;
        }
    };
    for px in rgba.chunks_exact(4) {
        let rgb = [px[0], px[1], px[2]];
        match &mut run {
            Some((prev, b, n)) if *prev == rgb => {
                *n += 1;
                of_pixel.push(*b as u16);
            }
            _ => {
                if let Some(r) = run.take() {
                    flush(r, &mut count);
                }
                let b = bucket(rgb);
                of_pixel.push(b as u16);
                run = Some((rgb, b, 1));
            }
        }
    }
    if let Some(r) = run {
        flush(r, &mut count);
    }
    let mut used: Vec<usize> = (0..BUCKETS).filter(|&b| count[b] > 0).collect();
    // Most used first; equal counts in bucket order (deterministic).
    used.sort_by_key(|&b| (std::cmp::Reverse(count[b]), b));
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
    Indexed {
        palette: palette.iter().flat_map(|c| c.map(|v| v as u8)).collect(),
        indices: of_pixel.iter().map(|&b| to_index[b as usize]).collect(),
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
