//! A game's picture encoded as the plain network's PNG with the game's
//! rows changed (issue 20: a verdict's picture is most of the daemon's work
//! per mail).
//!
//! Every picture of the embedded map is the same network with a game drawn
//! over a small part of it and a panel below. So the network is quantised
//! and deflated once ([`Base`]): its colours take the first
//! [`BASE_COLOURS`] entries of every picture's palette, its pixels keep
//! their indices, and its image data is deflated in bands of [`BAND`] rows,
//! each band a self-contained stretch of deflate blocks (a fresh dictionary,
//! ended by a sync flush, so bands concatenate into one stream). A picture
//! then counts and maps only the pixels the game changed, gives the colours
//! it brought the remaining palette entries, and deflates only the bands it
//! touched; the others are copied. The zlib stream's Adler-32 is combined
//! from the bands' own.

use super::quantize::{bucket, bucket_of, nearest, word, Counts, BUCKETS};
use super::PictureError;

/// Rows per deflated band: small enough that a game's marks leave most
/// bands untouched, large enough that a band compresses well on its own.
pub(super) const BAND: usize = 16;

/// Palette entries kept for the network's colours; the rest are for the
/// colours a game brings (players' colours, highlights, the panel's).
pub(super) const BASE_COLOURS: usize = 224;

/// Bytes of a row compared at once when looking for the game's pixels.
const BLOCK: usize = 64;

/// The plain network quantised and deflated, for [`Base::png`].
pub(super) struct Base {
    width: usize,
    height: usize,
    /// The network's palette colours, most used first.
    palette: Vec<[i32; 3]>,
    /// Per colour bucket: its palette entry, when the bucket is one.
    own: Vec<Option<u8>>,
    /// One palette index per pixel of the network.
    indices: Vec<u8>,
    /// The network's whole bands, deflated.
    bands: Vec<Band>,
}

/// One band of image data (filter bytes and indices), deflated.
struct Band {
    deflated: Vec<u8>,
    adler: u32,
    len: usize,
}

impl Base {
    /// The network's opaque RGBA pixels (`width` x `height`), quantised to
    /// [`BASE_COLOURS`] colours and deflated by bands.
    pub(super) fn new(rgba: &[u8], width: usize, height: usize) -> Result<Base, PictureError> {
        let mut counts = Counts::new();
        counts.count(rgba.chunks_exact(4).map(word));
        let mut used = counts.used();
        used.truncate(BASE_COLOURS);
        let palette: Vec<[i32; 3]> = used.iter().map(|&b| counts.mean(b)).collect();
        let mut own = vec![None; BUCKETS];
        for (k, &b) in used.iter().enumerate() {
            own[b] = Some(k as u8);
        }
        let mut to_index = own.clone();
        let indices = rgba
            .chunks_exact(4)
            .map(|px| {
                let b = bucket(px);
                *to_index[b].get_or_insert_with(|| nearest(&palette, counts.mean(b)))
            })
            .collect::<Vec<u8>>();
        let mut bands = Vec::with_capacity(height / BAND);
        let mut scratch = Vec::new();
        for band in 0..height / BAND {
            scanlines(
                &indices,
                width,
                band * BAND..(band + 1) * BAND,
                &mut scratch,
            );
            bands.push(Band {
                deflated: deflate_band(&scratch)?,
                adler: adler32(&scratch),
                len: scratch.len(),
            });
        }
        Ok(Base {
            width,
            height,
            palette,
            own,
            indices,
            bands,
        })
    }

    /// PNG bytes of `rgba` (opaque, `width` x `height`: the network's
    /// width, any height), whose pixels are mostly those of `network` (the
    /// pixels `self` was made from).
    pub(super) fn png(
        &self,
        network: &[u8],
        rgba: &[u8],
        width: usize,
        height: usize,
    ) -> Result<Vec<u8>, PictureError> {
        if width != self.width || rgba.len() != width * height * 4 {
            return Err(PictureError::Png(format!(
                "a {width} x {height} picture over a network {} px wide",
                self.width
            )));
        }
        let row = width * 4;
        let changed: Vec<bool> = (0..height)
            .map(|r| {
                r >= self.height || rgba[r * row..(r + 1) * row] != network[r * row..(r + 1) * row]
            })
            .collect();
        // The game's pixels: those of the network's rows that differ from
        // the network's (found a block at a time), and every pixel below it.
        let kept = self.height.min(height);
        let mut diffs: Vec<(usize, u32)> = Vec::new();
        for r in (0..kept).filter(|&r| changed[r]) {
            let (old, new) = (
                &network[r * row..(r + 1) * row],
                &rgba[r * row..(r + 1) * row],
            );
            for (c, (a, b)) in old.chunks(BLOCK).zip(new.chunks(BLOCK)).enumerate() {
                if a == b {
                    continue;
                }
                for (j, (pa, pb)) in a.chunks_exact(4).zip(b.chunks_exact(4)).enumerate() {
                    if pa != pb {
                        diffs.push((r * width + c * BLOCK / 4 + j, word(pb)));
                    }
                }
            }
        }
        let below = || rgba[kept * row..].chunks_exact(4).map(word);
        let mut counts = Counts::new();
        counts.count(diffs.iter().map(|d| d.1).chain(below()));
        let mut palette = self.palette.clone();
        let extras: Vec<usize> = counts
            .used()
            .into_iter()
            .filter(|&b| self.own[b].is_none())
            .take(256 - palette.len())
            .collect();
        palette.extend(extras.iter().map(|&b| counts.mean(b)));
        let mut to_index = self.own.clone();
        for (k, &b) in extras.iter().enumerate() {
            to_index[b] = Some((self.palette.len() + k) as u8);
        }
        let mut indices = Vec::with_capacity(width * height);
        indices.extend_from_slice(&self.indices[..width * self.height.min(height)]);
        indices.resize(width * height, 0);
        let mut last: Option<(u32, u8)> = None;
        let mut index_of = |px: u32| match last {
            Some((p, k)) if p == px => k,
            _ => {
                let b = bucket_of(px);
                let k = *to_index[b].get_or_insert_with(|| nearest(&palette, counts.mean(b)));
                last = Some((px, k));
                k
            }
        };
        for &(at, px) in &diffs {
            indices[at] = index_of(px);
        }
        for (at, px) in (kept * width..).zip(below()) {
            indices[at] = index_of(px);
        }
        let idat = self.deflate(&indices, width, height, &changed)?;
        encode(width, height, &palette, &idat)
    }

    /// The zlib stream of `indices`' scanlines: the network's bands where
    /// no row `changed`, the others deflated now.
    fn deflate(
        &self,
        indices: &[u8],
        width: usize,
        height: usize,
        changed: &[bool],
    ) -> Result<Vec<u8>, PictureError> {
        // Level 1 (FLEVEL 0), 32 KB window; 0x7801 is a multiple of 31.
        let mut out = vec![0x78, 0x01];
        let (mut adler, mut scratch) = (1u32, Vec::new());
        for start in (0..height).step_by(BAND) {
            let end = (start + BAND).min(height);
            let kept = self
                .bands
                .get(start / BAND)
                .filter(|_| end - start == BAND && !changed[start..end].contains(&true));
            if let Some(band) = kept {
                out.extend_from_slice(&band.deflated);
                adler = adler32_combine(adler, band.adler, band.len);
            } else {
                scanlines(indices, width, start..end, &mut scratch);
                out.extend_from_slice(&deflate_band(&scratch)?);
                adler = adler32_combine(adler, adler32(&scratch), scratch.len());
            }
        }
        // The last block: empty, fixed Huffman codes, BFINAL set.
        out.extend_from_slice(&[0x03, 0x00]);
        out.extend_from_slice(&adler.to_be_bytes());
        Ok(out)
    }
}

/// The PNG scanlines of `rows` of `indices` (filter type None, then the
/// row's indices) into `out`.
fn scanlines(indices: &[u8], width: usize, rows: std::ops::Range<usize>, out: &mut Vec<u8>) {
    out.clear();
    for r in rows {
        out.push(0);
        out.extend_from_slice(&indices[r * width..(r + 1) * width]);
    }
}

/// `data` as raw deflate blocks at level 1 from a fresh dictionary, not
/// final, ended by a sync flush (an empty stored block, byte aligned), so
/// that such bands concatenate into one deflate stream.
fn deflate_band(data: &[u8]) -> Result<Vec<u8>, PictureError> {
    use miniz_oxide::deflate::core::{
        compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
    };
    // Level 1, raw deflate (negative window bits), the default strategy.
    let mut c = CompressorOxide::new(create_comp_flags_from_zip_params(1, -15, 0));
    let mut out: Vec<u8> = Vec::new();
    let mut input = data;
    // Room for a band at an eighth of its size; more rounds when short.
    let room = data.len() / 8 + 4096;
    loop {
        let at = out.len();
        out.resize(at + room, 0);
        let (status, read, wrote) = compress(&mut c, input, &mut out[at..], TDEFLFlush::Sync);
        out.truncate(at + wrote);
        input = &input[read..];
        match status {
            // All read and the flush written with room to spare: done.
            TDEFLStatus::Okay if input.is_empty() && wrote < room => return Ok(out),
            TDEFLStatus::Okay => {}
            other => return Err(PictureError::Png(format!("deflate: {other:?}"))),
        }
    }
}

const ADLER_MOD: u32 = 65521;

/// The Adler-32 of `data` (RFC 1950).
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 bytes is the most that cannot overflow before the modulo.
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= ADLER_MOD;
        b %= ADLER_MOD;
    }
    (b << 16) | a
}

/// The Adler-32 of two pieces of data from their own: `first`'s, and
/// `second`'s with its length (zlib's `adler32_combine`).
fn adler32_combine(first: u32, second: u32, second_len: usize) -> u32 {
    let m = u64::from(ADLER_MOD);
    let rem = second_len as u64 % m;
    let (a1, b1) = (u64::from(first & 0xffff), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xffff), u64::from(second >> 16));
    let a = (a1 + a2 + m - 1) % m;
    let b = (rem * a1 + b1 + b2 + m - rem) % m;
    ((b << 16) | a) as u32
}

/// A PNG of one IDAT chunk (`idat`, a zlib stream) over `palette`.
fn encode(
    width: usize,
    height: usize,
    palette: &[[i32; 3]],
    idat: &[u8],
) -> Result<Vec<u8>, PictureError> {
    let err = |e: png::EncodingError| PictureError::Png(e.to_string());
    let mut out = Vec::with_capacity(idat.len() + 1024);
    let mut enc = png::Encoder::new(&mut out, width as u32, height as u32);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(
        palette
            .iter()
            .flat_map(|c| c.map(|v| v as u8))
            .collect::<Vec<u8>>(),
    );
    let mut writer = enc.write_header().map_err(err)?;
    writer.write_chunk(png::chunk::IDAT, idat).map_err(err)?;
    writer.finish().map_err(err)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decoded RGB of a PNG.
    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut dec = png::Decoder::new(png);
        dec.set_transformations(png::Transformations::EXPAND);
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        (info.width, info.height, buf[..info.buffer_size()].to_vec())
    }

    /// A network-like picture: flat colours, blends between them.
    fn network(width: usize, height: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(width * height * 4);
        for y in 0..height {
            for x in 0..width {
                let px = match (x / 7 + y / 5) % 9 {
                    0 => [220, 36, 31],
                    1 => [0, 114, 41],
                    2 => [(x * 3 % 256) as u8, 200, (y * 5 % 256) as u8],
                    _ => [255, 255, 255],
                };
                v.extend_from_slice(&[px[0], px[1], px[2], 255]);
            }
        }
        v
    }

    #[test]
    fn adler_combined_is_adler_whole() {
        let data: Vec<u8> = (0..70_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        for cut in [0, 1, 5552, 33_333, 70_000] {
            let (a, b) = data.split_at(cut);
            assert_eq!(
                adler32_combine(adler32(a), adler32(b), b.len()),
                adler32(&data),
                "cut at {cut}"
            );
        }
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
    }

    #[test]
    fn the_network_itself_decodes_to_itself_within_its_palette() {
        let (w, h) = (120, 50);
        let net = network(w, h);
        let base = Base::new(&net, w, h).unwrap();
        let png = base.png(&net, &net, w, h).unwrap();
        let (dw, dh, rgb) = decode(&png);
        assert_eq!((dw as usize, dh as usize), (w, h));
        for (px, got) in net.chunks_exact(4).zip(rgb.chunks_exact(3)) {
            for c in 0..3 {
                assert!(px[c].abs_diff(got[c]) <= 8, "{px:?} became {got:?}");
            }
        }
    }

    #[test]
    fn a_game_drawn_over_it_decodes_exactly_where_its_colours_are_few() {
        let (w, h) = (120, 70);
        let net = network(w, h);
        let base = Base::new(&net, w, h - 13).unwrap();
        let mut pic = net.clone();
        // A new colour in one band, and a panel of new rows below the base.
        for x in 30..60 {
            let at = (20 * w + x) * 4;
            pic[at..at + 3].copy_from_slice(&[123, 45, 167]);
        }
        for y in h - 13..h {
            let at = (y * w + (y % w)) * 4;
            pic[at..at + 3].copy_from_slice(&[9, 9, 9]);
        }
        let png = base.png(&net[..w * (h - 13) * 4], &pic, w, h).unwrap();
        let (_, dh, rgb) = decode(&png);
        assert_eq!(dh as usize, h);
        let at = |x: usize, y: usize| &rgb[(y * w + x) * 3..(y * w + x) * 3 + 3];
        assert_eq!(at(40, 20), [123, 45, 167]);
        assert_eq!(at(h - 1, h - 1), [9, 9, 9]);
        assert_eq!(at(0, h - 2), [255, 255, 255]);
        // The unchanged bands are the network's, byte for byte.
        let whole = base.png(
            &net[..w * (h - 13) * 4],
            &net[..w * (h - 13) * 4],
            w,
            h - 13,
        );
        let (_, _, plain) = decode(&whole.unwrap());
        assert_eq!(&rgb[..w * 16 * 3], &plain[..w * 16 * 3]);
    }

    #[test]
    fn a_picture_of_another_width_is_refused() {
        let net = network(40, 20);
        let base = Base::new(&net, 40, 20).unwrap();
        assert!(base.png(&net, &network(41, 20), 41, 20).is_err());
    }
}
