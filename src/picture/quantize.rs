//! Fewer colours for a smaller PNG: the picture is a few flat colours and
//! their anti-aliased edges, so 256 colours chosen by use lose nothing a
//! reader sees and make the file several times smaller.
//!
//! Colours are counted in 15-bit buckets (5 bits a channel); the 256 most
//! used buckets, each as the mean of its pixels, are the palette, and every
//! bucket maps to its nearest palette colour ([`quantize`]). A picture drawn
//! over the plain network keeps the network's palette and indices, quantised
//! once ([`Base`]), and indexes again only what the game drew
//! ([`quantize_over`]).

use super::canvas::BLOCK;

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
struct Counts {
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

    /// Adds `n` pixels of colour `rgb`.
    fn add(&mut self, rgb: [u8; 3], n: u32) {
        let b = bucket(rgb);
        self.count[b] += n;
        for (sum, v) in self.sum[b].iter_mut().zip(rgb) {
            *sum += u64::from(v) * u64::from(n);
        }
    }

    /// The buckets used, most used first; equal counts in bucket order
    /// (deterministic).
    fn ranked(&self) -> Vec<usize> {
        let mut used: Vec<usize> = (0..BUCKETS).filter(|&b| self.count[b] > 0).collect();
        used.sort_unstable_by_key(|&b| (std::cmp::Reverse(self.count[b]), b));
        used
    }

    /// Counts opaque RGBA pixels (alpha ignored), a run of equal pixels
    /// at once: most of a picture is runs of one colour.
    fn count(&mut self, rgba: &[u8]) {
        let mut run: Option<([u8; 3], u32)> = None;
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
    index(&counts, rgba, 256)
}

/// How many palette entries a [`Base`] keeps for its own colours; the rest
/// (at least 56) are for the colours a picture adds over it.
const BASE_COLOURS: usize = 200;

/// A base picture (the plain network, the same under every picture of a
/// map) quantised once: its palette of its [`BASE_COLOURS`] most used
/// buckets, and each of its pixels' index. A picture drawn over it keeps
/// those entries and indices, so only the pixels it changed are looked at
/// again ([`quantize_over`]).
pub(super) struct Base {
    palette: Vec<[i32; 3]>,
    /// Per bucket: its entry when the bucket is one of the palette's.
    entry: Vec<Option<u8>>,
    /// Each pixel's entry.
    pub(super) indices: Vec<u8>,
    /// The nearest base entry of colours met before, direct-mapped by
    /// colour ([`Near`]): a game's anti-aliased edges blend the same
    /// colours picture after picture, and looking through the 200 entries
    /// for each was a twentieth of a picture's instructions.
    near: std::sync::Mutex<Vec<Near>>,
}

/// A colour (`r | g << 8 | b << 16 | 1 << 24`; 0 for none), its nearest
/// base entry and the squared distance to it.
#[derive(Clone, Copy, Default)]
struct Near {
    key: u32,
    entry: u8,
    distance: i32,
}

/// Slots in [`Base::near`].
const NEAR_SLOTS: usize = 1 << 12;

impl Near {
    fn key(c: [i32; 3]) -> u32 {
        (c[0] as u32 & 0xff) | (c[1] as u32 & 0xff) << 8 | (c[2] as u32 & 0xff) << 16 | 1 << 24
    }

    /// The slot of a key: a multiplicative hash's top bits.
    fn slot(key: u32) -> usize {
        (key.wrapping_mul(0x9e37_79b1) >> (32 - NEAR_SLOTS.trailing_zeros())) as usize
    }
}

impl Base {
    /// Quantises `rgba` (opaque RGBA pixels) as a base.
    pub(super) fn new(rgba: &[u8]) -> Base {
        let mut counts = Counts::new();
        counts.count(rgba);
        let q = index(&counts, rgba, BASE_COLOURS);
        let mut entry = vec![None; BUCKETS];
        for (k, &b) in counts.ranked().iter().take(BASE_COLOURS).enumerate() {
            entry[b] = Some(k as u8);
        }
        Base {
            palette: q
                .palette
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]].map(i32::from))
                .collect(),
            entry,
            indices: q.indices,
            near: std::sync::Mutex::new(vec![Near::default(); NEAR_SLOTS]),
        }
    }
}

/// The colours a picture adds over its base, by bucket: an accumulator
/// per bucket met, found through a bucket-to-slot table.
struct Added {
    slot: Vec<u16>,
    count: Vec<u32>,
    sum: Vec<[u64; 3]>,
    bucket: Vec<usize>,
}

impl Added {
    fn new() -> Added {
        Added {
            slot: vec![u16::MAX; BUCKETS],
            count: Vec::new(),
            sum: Vec::new(),
            bucket: Vec::new(),
        }
    }

    /// Counts `n` pixels of `rgb`; their slot.
    fn add(&mut self, rgb: [u8; 3], n: u32) -> u16 {
        let b = bucket(rgb);
        let mut s = self.slot[b];
        if s == u16::MAX {
            s = self.count.len() as u16;
            self.slot[b] = s;
            self.count.push(0);
            self.sum.push([0; 3]);
            self.bucket.push(b);
        }
        let k = s as usize;
        self.count[k] += n;
        for (sum, v) in self.sum[k].iter_mut().zip(rgb) {
            *sum += u64::from(v) * u64::from(n);
        }
        s
    }
}

/// A pixel's colour as `r | g << 8 | b << 16` (its alpha dropped: the
/// picture is opaque), so that comparing colours is comparing integers.
#[inline]
fn colour(px: &[u8]) -> u32 {
    let px: [u8; 4] = px.try_into().unwrap_or_default();
    u32::from_le_bytes(px) & 0x00ff_ffff
}

/// A picture being indexed over its base: the colours it adds, and the
/// pixels waiting for their entry until the added palette is known.
struct Over<'a> {
    base: &'a Base,
    added: Added,
    /// (pixel, slot of its colour in `added`).
    pending: Vec<(u32, u16)>,
    /// The last colour looked up that is a base entry, and its entry: a
    /// picture is mostly runs of one colour (the panel's white, a label's
    /// fill). `u32::MAX` (no colour) at first.
    last: (u32, u8),
}

impl Over<'_> {
    /// Indexes pixel `i`, of colour `c` (see [`colour`]), into `out`: a
    /// base entry, or pending. The common case, the last colour again,
    /// inline.
    #[inline(always)]
    fn index(&mut self, c: u32, i: usize, out: &mut u8) {
        if c == self.last.0 {
            *out = self.last.1;
        } else {
            self.index_slow(c, i, out);
        }
    }

    /// [`Over::index`] for a colour other than the last.
    #[inline(never)]
    fn index_slow(&mut self, c: u32, i: usize, out: &mut u8) {
        let rgb = [c as u8, (c >> 8) as u8, (c >> 16) as u8];
        match self.base.entry[bucket(rgb)] {
            Some(e) => {
                self.last = (c, e);
                *out = e;
            }
            None => {
                let s = self.added.add(rgb, 1);
                self.pending.push((i as u32, s));
            }
        }
    }
}

/// `rgba` quantised over `base` (whose pixels, `base_rgba`, it mostly
/// shares): the base's palette and indices are kept; the pixels that
/// differ from it (compared a block at a time, in the `candidates` blocks
/// only, in order: nothing was drawn elsewhere) and those past its end are
/// indexed again, the most used colours among them not in the base's
/// palette added to it, up to 256, and any other mapped to its nearest
/// entry. The base's colours keep their entries, so a picture looks as the
/// base does wherever the game did not draw. The blocks (of
/// [`BLOCK`] bytes) that differ are added to `changed`; the indices are
/// laid out in `indices` (a buffer kept between pictures, which must hold
/// the base's indices over the base).
pub(super) fn quantize_over(
    base: &Base,
    base_rgba: &[u8],
    rgba: &[u8],
    candidates: &[u32],
    changed: &mut Vec<u32>,
    mut indices: Vec<u8>,
) -> Indexed {
    let shared = base_rgba.len().min(rgba.len()) / 4 * 4;
    // Already the base's over the network (the canvas keeps them so); past
    // it, every pixel is indexed below.
    indices.resize(rgba.len() / 4, 0);
    let mut over = Over {
        base,
        added: Added::new(),
        pending: Vec::new(),
        last: (u32::MAX, 0),
    };
    // The candidate blocks compared with the base (memcmp); in a block
    // that differs, each differing pixel is indexed again.
    let (old, new) = (&base_rgba[..shared], &rgba[..shared]);
    let (near, far) = indices.split_at_mut(shared / 4);
    for &n in candidates {
        let n = n as usize;
        let start = n * BLOCK;
        if start >= shared {
            break;
        }
        let end = (start + BLOCK).min(shared);
        let (a, b) = (&old[start..end], &new[start..end]);
        if a == b {
            continue;
        }
        let out = &mut near[start / 4..end / 4];
        changed.push(n as u32);
        let pixels = a.chunks_exact(4).zip(b.chunks_exact(4)).zip(out);
        for (k, ((pa, pb), o)) in pixels.enumerate() {
            let c = colour(pb);
            if colour(pa) != c {
                over.index(c, n * BLOCK / 4 + k, o);
            }
        }
    }
    // Past the network (the panel, white but for its text and marks): a
    // white block at once (one memcmp, one memset), when white is a base
    // entry, as it is on any network drawn on white.
    const WHITE: [u8; BLOCK] = [255; BLOCK];
    let white = base.entry[bucket([255; 3])];
    let rest = rgba[shared..].chunks(BLOCK).zip(far.chunks_mut(BLOCK / 4));
    for (n, (block, out)) in rest.enumerate() {
        if let (Some(w), true) = (white, block == WHITE) {
            out.fill(w);
            continue;
        }
        for (k, (px, o)) in block.chunks_exact(4).zip(out).enumerate() {
            over.index(colour(px), shared / 4 + n * BLOCK / 4 + k, o);
        }
    }
    let Over { added, pending, .. } = over;
    // The added colours most used first (ties in bucket order), as many as
    // the palette has room for; the rest to their nearest entry.
    let mut order: Vec<usize> = (0..added.count.len()).collect();
    order.sort_unstable_by_key(|&k| (std::cmp::Reverse(added.count[k]), added.bucket[k]));
    let mut palette = base.palette.clone();
    let mut to_index = vec![0u8; added.count.len()];
    let mean = |k: usize| -> [i32; 3] {
        let n = u64::from(added.count[k]);
        [0, 1, 2].map(|c| ((added.sum[k][c] + n / 2) / n) as i32)
    };
    let room = 256 - palette.len();
    for &k in order.iter().take(room) {
        to_index[k] = palette.len() as u8;
        palette.push(mean(k));
    }
    // The nearest entry, the first of those as near: the base's (from the
    // cache, else looked for and kept) unless an added one is nearer.
    let from = base.palette.len();
    let mut cache = base.near.lock().unwrap_or_else(|e| e.into_inner());
    for &k in order.iter().skip(room) {
        let c = mean(k);
        let key = Near::key(c);
        let slot = &mut cache[Near::slot(key)];
        if slot.key != key {
            let entry = nearest(&base.palette, c);
            let distance = base
                .palette
                .get(usize::from(entry))
                .map_or(i32::MAX, |p| distance(p, c));
            *slot = Near {
                key,
                entry,
                distance,
            };
        }
        let a = from + usize::from(nearest(&palette[from..], c));
        let nearer = palette
            .get(a)
            .is_some_and(|p| distance(p, c) < slot.distance);
        to_index[k] = if nearer { a as u8 } else { slot.entry };
    }
    drop(cache);
    for (i, s) in pending {
        indices[i as usize] = to_index[s as usize];
    }
    Indexed {
        palette: palette.iter().flat_map(|c| c.map(|v| v as u8)).collect(),
        indices,
    }
}

/// The palette of the `colours` (at most 256) most used buckets of
/// `counts` (the counts of `rgba`), and each pixel's index.
fn index(counts: &Counts, rgba: &[u8], colours: usize) -> Indexed {
    let (count, sum) = (&counts.count, &counts.sum);
    let used = counts.ranked();
    let mean = |b: usize| -> [i32; 3] {
        let n = count[b] as u64;
        [0, 1, 2].map(|c| ((sum[b][c] + n / 2) / n) as i32)
    };
    let colours = colours.min(256);
    let palette: Vec<[i32; 3]> = used.iter().take(colours).map(|&b| mean(b)).collect();
    let mut to_index = vec![0u8; BUCKETS];
    for (k, &b) in used.iter().enumerate() {
        to_index[b] = if k < colours {
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

/// The index of the palette colour nearest `c` (squared RGB distance),
/// the first of those as near.
fn nearest(palette: &[[i32; 3]], c: [i32; 3]) -> u8 {
    (0..palette.len())
        .min_by_key(|&i| distance(&palette[i], c))
        .unwrap_or(0) as u8
}

/// The squared RGB distance between `p` and `c`.
fn distance(p: &[i32; 3], c: [i32; 3]) -> i32 {
    (0..3).map(|i| (p[i] - c[i]).pow(2)).sum()
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

    /// The colour of pixel `i` as `q` has it.
    fn back(q: &Indexed, i: usize) -> [u8; 3] {
        let k = q.indices[i] as usize * 3;
        [q.palette[k], q.palette[k + 1], q.palette[k + 2]]
    }

    #[test]
    fn over_a_base_keeps_its_entries_and_adds_the_new_colours() {
        // A base of 12 flat colours and their blends (more buckets than
        // the base keeps), a picture over it with three new flat colours
        // drawn here and there, and rows past the base's end.
        let flats: Vec<[u8; 3]> = (0..12u8)
            .map(|i| [i * 21, 255 - i * 19, i.wrapping_mul(97)])
            .collect();
        let mut base: Vec<[u8; 3]> = flats.iter().flat_map(|f| [*f; 500]).collect();
        for (a, fa) in flats.iter().enumerate() {
            for fb in &flats[a + 1..] {
                for t in 1..16u16 {
                    base.push(
                        [0, 1, 2]
                            .map(|c| ((fa[c] as u16 * (16 - t) + fb[c] as u16 * t) / 16) as u8),
                    );
                }
            }
        }
        let new = [[250, 0, 250], [3, 200, 255], [128, 64, 0]];
        let mut over = base.clone();
        for i in (100..6000).step_by(37) {
            over[i] = new[i % 3];
        }
        over.extend((0..900).map(|i| new[i % 3]));
        let (base_rgba, over_rgba) = (rgba(&base), rgba(&over));
        let b = Base::new(&base_rgba);
        let mut changed = Vec::new();
        let every: Vec<u32> = (0..base_rgba.len().div_ceil(BLOCK) as u32).collect();
        let q = quantize_over(
            &b,
            &base_rgba,
            &over_rgba,
            &every,
            &mut changed,
            b.indices.clone(),
        );
        // Exactly the blocks of the base where a pixel changed.
        let px = BLOCK / 4;
        let mut want: Vec<u32> = (100..6000).step_by(37).map(|i| (i / px) as u32).collect();
        want.dedup();
        assert_eq!(changed, want);
        // The base's entries, then the three new colours.
        assert_eq!(q.palette.len(), (BASE_COLOURS + 3) * 3);
        assert_eq!(q.indices.len(), over.len());
        let alone = quantize(&base_rgba);
        for i in 0..over.len() {
            if i < base.len() && over[i] == base[i] {
                // Where the picture did not draw, the base's index.
                assert_eq!(q.indices[i], b.indices[i], "pixel {i}");
            } else {
                assert_eq!(back(&q, i), over[i], "pixel {i}");
            }
        }
        // The base's flat colours are exact, as quantising it alone.
        for (i, f) in flats.iter().enumerate() {
            assert_eq!(back(&q, i * 500), *f);
            assert_eq!(back(&alone, i * 500), *f);
        }
        // A shorter picture than its base.
        let short = &over_rgba[..over_rgba.len() / 12 * 4];
        let q = quantize_over(
            &b,
            &base_rgba,
            short,
            &every,
            &mut Vec::new(),
            b.indices.clone(),
        );
        assert_eq!(q.indices.len(), short.len() / 4);
        assert_eq!(back(&q, 100), over[100]);
    }

    #[test]
    fn colours_past_the_palettes_room_go_to_the_first_nearest_entry_every_time() {
        let flats: Vec<[u8; 3]> = vec![[0, 0, 0], [20, 10, 10], [10, 20, 10], [200, 0, 0]];
        let base: Vec<[u8; 3]> = (0..4096).map(|i| flats[i % 4]).collect();
        let base_rgba = rgba(&base);
        let b = Base::new(&base_rgba);
        // 400 colours drawn past the base, each on one pixel (ties: the
        // added colours go by bucket order), and (10, 10, 10), as near
        // to entries 1 and 2.
        let mut seed = 7u32;
        let mut over = base.clone();
        over.extend((0..400).map(|_| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            [seed >> 8, seed >> 16, seed >> 24].map(|v| (v & 0xf8) as u8 | 4)
        }));
        over.push([10, 10, 10]);
        let over_rgba = rgba(&over);
        let every: Vec<u32> = (0..over_rgba.len().div_ceil(BLOCK) as u32).collect();
        let run = || {
            quantize_over(
                &b,
                &base_rgba,
                &over_rgba,
                &every,
                &mut Vec::new(),
                b.indices.clone(),
            )
        };
        let first = run();
        let palette: Vec<[i32; 3]> = first
            .palette
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]].map(i32::from))
            .collect();
        assert_eq!(palette.len(), 256);
        for (i, px) in over.iter().enumerate().skip(base.len()) {
            let c = px.map(i32::from);
            let got = usize::from(first.indices[i]);
            if got >= b.palette.len() && palette[got] == c {
                continue; // one of the colours added
            }
            assert_eq!(got, usize::from(nearest(&palette, c)), "pixel {i}: {px:?}");
        }
        // Again, from the cache: the same.
        let second = run();
        assert_eq!(first.indices, second.indices);
        assert_eq!(first.palette, second.palette);
    }

    #[test]
    fn few_colours_are_kept_exactly_and_many_are_mapped_near() {
        let flat = [[255, 255, 255], [0, 120, 42], [227, 32, 23]];
        let q = quantize(&rgba(&[flat[0], flat[1], flat[2], flat[1]]));
        assert_eq!(q.palette.len(), 9);
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
