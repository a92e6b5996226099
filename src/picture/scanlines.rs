//! A picture's PNG scanlines (each row a filter byte, then its palette
//! indices), laid out for the encoder in a buffer kept between pictures.
//!
//! Laying out the whole picture again (1.7 MB at 1600 px wide) was a
//! sixteenth of a picture's time, though most of its rows are the
//! network's, the same as in the picture before. So the buffer remembers
//! which bands of it ([`BAND_ROWS`] rows) hold the network's rows, and a
//! band the new picture left as the network's (`clean`, see
//! `deflate::clean_bands`) is not copied again. Every other row is.

use super::deflate::BAND_ROWS;

/// Scanlines kept from one picture to the next.
#[derive(Default)]
pub(super) struct Scanlines {
    bytes: Vec<u8>,
    /// Per band: its rows in `bytes` are the network's.
    network: Vec<bool>,
    /// The rows' width the bands were laid out at.
    width: usize,
}

impl Scanlines {
    /// `indices` (rows of `width`) laid out as unfiltered scanlines. With
    /// `clean` (per band of the network: the picture's rows there are the
    /// network's), a clean band that already holds the network's rows is
    /// left as it is.
    pub(super) fn lay_out(&mut self, indices: &[u8], width: usize, clean: &[bool]) -> &[u8] {
        let width = width.max(1);
        if width != self.width {
            // Rows of another width: nothing in the buffer is known.
            self.network.clear();
            self.width = width;
        }
        let rows = indices.len().div_ceil(width);
        self.bytes.resize(indices.len() + rows, 0);
        self.network.resize(clean.len(), false);
        let mut at = 0;
        for (r, row) in indices.chunks(width).enumerate() {
            let band = r / BAND_ROWS;
            let kept = clean.get(band) == Some(&true) && self.network[band];
            if !kept {
                self.bytes[at] = 0; // filter type None
                self.bytes[at + 1..at + 1 + row.len()].copy_from_slice(row);
            }
            at += 1 + row.len();
        }
        // Known from now on: a clean band wholly in the buffer (a picture
        // shorter than the network would not hold its last bands).
        let band_bytes = BAND_ROWS * (width + 1);
        for (b, (known, &c)) in self.network.iter_mut().zip(clean).enumerate() {
            *known = c && (b + 1) * band_bytes <= self.bytes.len();
        }
        debug_assert!(
            self.bytes == full(indices, width),
            "kept scanlines are the picture's"
        );
        &self.bytes
    }
}

/// `indices` laid out whole (what [`Scanlines::lay_out`] must equal).
fn full(indices: &[u8], width: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(indices.len() + indices.len() / width + 1);
    for row in indices.chunks(width) {
        out.push(0);
        out.extend_from_slice(row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever the buffer held before, the scanlines are the picture's:
    /// a clean band is skipped only when it holds the network's already,
    /// and a band changed since (or a taller or shorter picture) is laid
    /// out again.
    #[test]
    fn kept_rows_are_only_those_known_to_be_the_networks() {
        let width = 5;
        let rows = 3 * BAND_ROWS;
        let network: Vec<u8> = (0..rows * width).map(|i| (i % 251) as u8).collect();
        let mut changed = network.clone();
        changed[BAND_ROWS * width + 2] = 255; // band 1
        let mut taller = network.clone();
        taller.extend([7; 2 * 5 + 3]); // a panel and a partial row
        let mut s = Scanlines::default();
        let all = [true, true, true];
        // (picture, clean bands): each laid out must equal a full layout
        // (checked inside with debug assertions; here by value).
        let short = network[..BAND_ROWS * width + 3].to_vec(); // band 1 cut
        for (picture, clean) in [
            (&network, &all[..]),
            (&short, &all[..]),
            (&network, &all[..]),
            (&changed, &[true, false, true][..]),
            (&network, &all[..]),
            (&taller, &all[..]),
            (&network, &[false, false, false][..]),
            (&changed, &[true, false, true][..]),
        ] {
            assert_eq!(s.lay_out(picture, width, clean), full(picture, width));
        }
        // Rows of another width: nothing kept is taken for them.
        assert_eq!(s.lay_out(&network, 4, &all), full(&network, 4));
    }
}
