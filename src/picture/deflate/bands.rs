//! The network's bands deflated once.
//!
//! Every picture is the same network with a game drawn over a part of it,
//! and deflating the picture's scanlines was a quarter of the daemon's time
//! under load (issue 20). So the stream is cut into bands of [`BAND_ROWS`]
//! rows, each deflated on its own (whole blocks, none of them the last,
//! matching back into the row before the band as anywhere else): a band's
//! bits then depend only on its rows and the row before it. Where those
//! rows are the network's own, unchanged by the game, the band is the same
//! in every picture, and its bits are kept and copied (shifted to where
//! the stream is) rather than found again.
//!
//! The bytes do not depend on what is kept: a kept band is the band
//! deflated, and the first picture to need it deflates it. Cutting the
//! stream costs a block header a band, about 2% of a picture's bytes.
//!
//! A kept band keeps its Adler-32 too, so that the stream's checksum is
//! combined from the bands' ([`adler_combine`]) rather than read again
//! over the whole picture: the scanlines of a kept band need not even be
//! laid out again (see `picture::scanlines`).

use std::sync::OnceLock;

use super::Bits;

/// Rows in a band: fewer make more bands unchanged by a game (a label
/// spoils the band it is in), more cost fewer block headers.
pub(in crate::picture) const BAND_ROWS: usize = 16;

/// A network's bands deflated (each when first needed), by band number.
#[derive(Default)]
pub(in crate::picture) struct Bands {
    kept: Vec<OnceLock<Band>>,
}

/// One band deflated: its bits, and the Adler-32 of its bytes.
pub(super) struct Band {
    /// The band's blocks, from bit 0.
    pub(super) bits: Bits,
    /// The Adler-32 of the band's bytes alone (from 1).
    pub(super) adler: u32,
}

impl Bands {
    /// Room for the bands of a network `rows` rows high: the bands wholly
    /// in it.
    pub(in crate::picture) fn new(rows: usize) -> Bands {
        Bands {
            kept: (0..rows / BAND_ROWS).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Band `b`'s place.
    pub(super) fn get(&self, b: usize) -> Option<&OnceLock<Band>> {
        self.kept.get(b)
    }
}

/// The Adler-32 of `a` then `b`, from the Adler-32 of each (`adler_a`,
/// `adler_b`) and the length of `b` (zlib's `adler32_combine`).
pub(super) fn adler_combine(adler_a: u32, adler_b: u32, len_b: usize) -> u32 {
    const BASE: u32 = 65521;
    let rem = (len_b % BASE as usize) as u32;
    let mut sum1 = adler_a & 0xffff;
    let mut sum2 = (rem * sum1) % BASE;
    sum1 += (adler_b & 0xffff) + BASE - 1;
    sum2 += (adler_a >> 16) + (adler_b >> 16) + BASE - rem;
    if sum1 >= BASE {
        sum1 -= BASE;
    }
    if sum1 >= BASE {
        sum1 -= BASE;
    }
    if sum2 >= BASE << 1 {
        sum2 -= BASE << 1;
    }
    if sum2 >= BASE {
        sum2 -= BASE;
    }
    sum1 | sum2 << 16
}

/// Which bands of a picture over a network of `rows` rows, `width` pixels
/// wide, are the network's own: no block in `changed` (blocks of `block`
/// pixels that differ from the network) touches the band's rows or the row
/// before it, and all of them are the network's (not the panel's below).
pub(in crate::picture) fn clean(
    rows: usize,
    width: usize,
    block: usize,
    changed: &[u32],
) -> Vec<bool> {
    if width == 0 {
        return Vec::new();
    }
    let mut touched = vec![false; rows];
    for &n in changed {
        let first = n as usize * block;
        let last = first + block - 1;
        for row in first / width..=(last / width).min(rows.saturating_sub(1)) {
            if let Some(t) = touched.get_mut(row) {
                *t = true;
            }
        }
    }
    (0..rows / BAND_ROWS)
        .map(|b| {
            let from = (b * BAND_ROWS).saturating_sub(1);
            !touched[from..(b + 1) * BAND_ROWS].contains(&true)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn adler(bytes: &[u8]) -> u32 {
        let mut a = simd_adler32::Adler32::new();
        a.write(bytes);
        a.finish()
    }

    proptest! {
        /// Two parts' checksums combine to the whole's, whatever the
        /// lengths (past the modulus too) and bytes.
        #[test]
        fn checksums_of_parts_combine_to_the_whole(
            a in proptest::collection::vec(any::<u8>(), 0..300),
            b in proptest::collection::vec(any::<u8>(), 0..300),
            fill in any::<u8>(),
            long in 0usize..140_000,
        ) {
            let mut b = b;
            b.resize(b.len() + long, fill);
            let whole: Vec<u8> = a.iter().chain(&b).copied().collect();
            prop_assert_eq!(adler_combine(adler(&a), adler(&b), b.len()), adler(&whole));
        }
    }

    #[test]
    fn a_changed_block_spoils_its_band_and_the_next() {
        // 32 px wide: two 16-px blocks a row; 64 rows, four bands.
        let clean = clean(64, 32, 16, &[2 * 15 + 1]);
        // Row 15 is band 0's last row and the row before band 1.
        assert_eq!(clean, [false, false, true, true]);
        assert_eq!(super::clean(64, 32, 16, &[]), [true; 4]);
        // Band 1's first row: only band 1.
        assert_eq!(super::clean(64, 32, 16, &[32]), [true, false, true, true]);
        // A partial band past the last whole one is never kept.
        assert_eq!(super::clean(40, 32, 16, &[]), [true, true]);
    }
}
