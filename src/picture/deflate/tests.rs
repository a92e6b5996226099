//! The encoder against miniz_oxide's inflater and the png crate's decoder.

use proptest::prelude::*;

use super::huffman::{code_length_runs, code_lengths};
use super::*;

/// `data` deflated and inflated again by another implementation.
fn round_trip(data: &[u8], stride: usize) -> Vec<u8> {
    let z = zlib(data, stride);
    miniz_oxide::inflate::decompress_to_vec_zlib(&z).expect("a valid zlib stream")
}

/// An indexed PNG of `indices` (`width` a row) with a grey palette of
/// `colours`, framed by the png crate around our IDAT.
fn png_of(width: usize, indices: &[u8], colours: usize) -> Vec<u8> {
    let height = indices.len() / width;
    let mut scanlines = Vec::new();
    for row in indices.chunks(width) {
        scanlines.push(0);
        scanlines.extend_from_slice(row);
    }
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width as u32, height as u32);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette((0..colours).flat_map(|c| [c as u8; 3]).collect::<Vec<u8>>());
    let mut writer = enc.write_header().unwrap();
    writer
        .write_chunk(png::chunk::IDAT, &zlib(&scanlines, width + 1))
        .unwrap();
    writer.finish().unwrap();
    out
}

/// The indices of an indexed PNG, as the png crate decodes them.
fn decoded(png: &[u8]) -> Vec<u8> {
    let mut reader = png::Decoder::new(png).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Indexed);
    buf.truncate(info.buffer_size());
    buf
}

/// A xorshift generator: the same bytes on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A picture-like image: rows copied from the row above (shifted by up to
/// two pixels), runs of one colour and noise, mixed at random.
fn picture_like(width: usize, height: usize, colours: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut px = Vec::with_capacity(width * height);
    for y in 0..height {
        let mut x = 0;
        while x < width {
            let n = (1 + rng.below(3 * width / 2 + 1)).min(width - x);
            let kind = rng.below(4);
            for i in x..x + n {
                let above = (y * width + i + 2).checked_sub(width + kind);
                px.push(match (kind, above) {
                    (0..=2, Some(a)) if a < px.len() => px[a],
                    (0 | 3, _) => rng.below(colours) as u8,
                    _ => (seed % colours as u64) as u8,
                });
            }
            x += n;
        }
    }
    px
}

#[test]
fn empty_and_tiny_inputs_round_trip() {
    for data in [
        &[][..],
        &[0],
        &[0, 7],
        &[0, 0, 0, 0, 0],
        &[1, 2, 3, 4, 5, 6, 7, 8, 9],
    ] {
        for stride in [1, 2, 3, 5, 100] {
            assert_eq!(round_trip(data, stride), data);
        }
    }
}

#[test]
fn long_runs_noise_and_repeated_rows_round_trip() {
    let mut rng = Rng(7);
    let noise: Vec<u8> = (0..300_000).map(|_| rng.next() as u8).collect();
    let row: Vec<u8> = (0..1601).map(|i| (i / 37) as u8).collect();
    let rows: Vec<u8> = row.iter().cycle().take(1601 * 300).copied().collect();
    for (data, stride) in [(vec![7u8; 1 << 20], 1601), (noise, 1601), (rows, 1601)] {
        assert_eq!(round_trip(&data, stride), data);
    }
}

#[test]
fn rows_longer_than_the_window_round_trip() {
    // The row above is out of reach: only runs are looked for.
    let data = picture_like(40_000, 3, 5, 3);
    assert_eq!(round_trip(&data, 40_001), data);
}

#[test]
fn a_fuzz_style_picture_round_trips_through_png() {
    let mut rng = Rng(0x5eed);
    for _ in 0..20 {
        let colours = 1 + rng.below(256);
        let px = picture_like(300, 200, colours, rng.next());
        assert_eq!(decoded(&png_of(300, &px, colours)), px);
    }
}

#[test]
fn repeats_are_found() {
    let row: Vec<u8> = (0..801).map(|i| (i % 251) as u8).collect();
    let rows: Vec<u8> = row.iter().cycle().take(801 * 100).copied().collect();
    assert!(zlib(&rows, 801).len() < 1400);
    assert!(zlib(&[9; 100_000], 801).len() < 200);
}

#[test]
fn lengths_and_distances_have_their_codes() {
    assert_eq!(LEN_SYMBOL[0], 0);
    assert_eq!(LEN_SYMBOL[258 - 3], 28, "258 is symbol 285, no extra bits");
    assert_eq!(LEN_SYMBOL[257 - 3], 27 | 30 << 5);
    for (code, &base) in LEN_BASE.iter().enumerate().take(28) {
        assert_eq!(usize::from(LEN_SYMBOL[usize::from(base) - 3]), code);
    }
    let dist_base = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257,
    ];
    for (code, &base) in dist_base.iter().enumerate() {
        assert_eq!(dist_symbol(base), code as u32);
    }
    assert_eq!(dist_symbol(32768), 29 | 8191 << 5);
    assert_eq!(dist_symbol(1601), 21 | (1600 - 1536) << 5);
}

/// The Kraft sum of `lens` in units of 2^-limit.
fn kraft(lens: &[u8], limit: u32) -> u64 {
    lens.iter()
        .filter(|&&l| l > 0)
        .map(|&l| 1u64 << (limit - u32::from(l)))
        .sum()
}

#[test]
fn lengths_are_limited_and_complete_when_counts_are_skewed() {
    // Fibonacci counts make an unlimited Huffman code 30 bits deep.
    let mut counts = vec![1u32, 1];
    while counts.len() < 32 {
        counts.push(counts[counts.len() - 1] + counts[counts.len() - 2]);
    }
    for limit in [7, 15] {
        let lens = code_lengths(&counts, limit);
        assert!(
            lens.iter().all(|&l| (1..=limit as u8).contains(&l)),
            "{lens:?}"
        );
        assert_eq!(kraft(&lens, limit), 1 << limit);
    }
}

#[test]
fn one_or_no_symbol_gets_a_complete_code() {
    assert_eq!(code_lengths(&[0, 0, 0], 15), [1, 1, 0]);
    assert_eq!(code_lengths(&[0, 0, 5], 15), [1, 0, 1]);
    assert_eq!(code_lengths(&[5, 0, 0], 15), [1, 1, 0]);
    assert_eq!(code_lengths(&[3, 1, 1], 15), [1, 2, 2]);
}

#[test]
fn code_length_runs_say_every_length() {
    let lens: Vec<u8> = [
        vec![0; 140],
        vec![8; 9],
        vec![0; 5],
        vec![3, 3, 4],
        vec![0; 2],
    ]
    .concat();
    let (runs, counts) = code_length_runs(&lens);
    let mut back = Vec::new();
    for &(s, extra) in &runs {
        let extra = usize::from(extra);
        match s {
            16 => back.extend(vec![*back.last().unwrap(); 3 + extra]),
            17 => back.extend(vec![0; 3 + extra]),
            18 => back.extend(vec![0; 11 + extra]),
            len => back.push(len),
        }
    }
    assert_eq!(back, lens);
    assert_eq!(counts.iter().sum::<u32>() as usize, runs.len());
}

/// Indices laid out as unfiltered scanlines.
fn scanlines_of(width: usize, px: &[u8]) -> Vec<u8> {
    let mut scanlines = Vec::new();
    for row in px.chunks(width) {
        scanlines.push(0);
        scanlines.extend_from_slice(row);
    }
    scanlines
}

#[test]
fn a_clean_band_is_copied_not_deflated_again() {
    let (width, height) = (40, 3 * BAND_ROWS);
    let px = picture_like(width, height, 5, 11);
    let before = scanlines_of(width, &px);
    let kept = Bands::new(height);
    let clean = [true, false, true];
    let first = zlib_over(&before, width + 1, &clean, &kept);
    assert_eq!(
        miniz_oxide::inflate::decompress_to_vec_zlib(&first).unwrap(),
        before
    );
    // Band 2 changed behind the encoder's back while called clean: its
    // kept bits are used, so the stream still says the old band. (The
    // caller's promise is what makes that right; see `clean_bands`.)
    let mut after = before.clone();
    let band2 = 2 * BAND_ROWS * (width + 1);
    for b in &mut after[band2 + 1..band2 + 30] {
        *b ^= 1;
    }
    // Its check sum is the kept band's too (combined, not read again):
    // the stream is whole and valid for what it says.
    let z = zlib_over(&after, width + 1, &clean, &kept);
    let again = miniz_oxide::inflate::decompress_to_vec_zlib(&z).unwrap();
    assert_eq!(again[..band2], after[..band2]);
    assert_eq!(again[band2..], before[band2..]);
    // Called changed, it is deflated again.
    let fresh = zlib_over(&after, width + 1, &[true, false, false], &kept);
    assert_eq!(
        miniz_oxide::inflate::decompress_to_vec_zlib(&fresh).unwrap(),
        after
    );
}

proptest! {
    /// Any image, through miniz_oxide's inflater and the png decoder.
    #[test]
    fn images_round_trip(
        width in 1usize..70,
        height in 1usize..40,
        colours in 1usize..=256,
        seed in any::<u64>(),
    ) {
        let px = picture_like(width, height, colours, seed);
        let mut scanlines = Vec::new();
        for row in px.chunks(width) {
            scanlines.push(0);
            scanlines.extend_from_slice(row);
        }
        prop_assert_eq!(round_trip(&scanlines, width + 1), scanlines);
        prop_assert_eq!(decoded(&png_of(width, &px, colours)), px);
    }

    /// Any bytes with any stride.
    #[test]
    fn bytes_round_trip(
        data in proptest::collection::vec(0u8..4, 0..3000),
        stride in 1usize..100,
    ) {
        prop_assert_eq!(round_trip(&data, stride), data);
    }

    /// Bands copied from what is kept give the bytes deflated afresh,
    /// whatever the kept bands' bit offsets (a cold then a warm store),
    /// and the data back.
    #[test]
    fn kept_bands_are_the_bands_deflated(
        width in 1usize..70,
        height in 1usize..(5 * BAND_ROWS),
        seed in any::<u64>(),
        mask in any::<u64>(),
    ) {
        let px = picture_like(width, height, 7, seed);
        let scanlines = scanlines_of(width, &px);
        let kept = Bands::new(height);
        let clean: Vec<bool> = (0..height / BAND_ROWS).map(|b| mask >> b & 1 == 1).collect();
        let cold = zlib_over(&scanlines, width + 1, &clean, &kept);
        prop_assert_eq!(&zlib_over(&scanlines, width + 1, &clean, &kept), &cold);
        prop_assert_eq!(
            miniz_oxide::inflate::decompress_to_vec_zlib(&cold).unwrap(),
            scanlines.clone()
        );
        // No band kept: the stream is `zlib`'s, uncut.
        let none = vec![false; clean.len()];
        prop_assert_eq!(
            zlib_over(&scanlines, width + 1, &none, &kept),
            zlib(&scanlines, width + 1)
        );
    }

    /// Optimal for its limit: never a longer code than the counts allow,
    /// and a complete code.
    #[test]
    fn lengths_are_limited_and_complete(
        counts in proptest::collection::vec(0u32..100_000, 2..300),
        limit in 9u32..=15,
    ) {
        let lens = code_lengths(&counts, limit);
        prop_assert!(lens.iter().all(|&l| u32::from(l) <= limit));
        let coded = counts.iter().filter(|&&c| c > 0).count();
        prop_assume!((2..=1 << limit).contains(&coded));
        prop_assert_eq!(kraft(&lens, limit), 1 << limit);
        for (&c, &l) in counts.iter().zip(&lens) {
            prop_assert_eq!(c > 0, l > 0);
        }
    }
}
