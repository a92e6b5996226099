//! A zlib stream (RFC 1950 around RFC 1951 deflate) made for a PNG's
//! indexed scanlines: cheaper than a general deflater because it only looks
//! where a picture of lines and text repeats itself.
//!
//! The picture is mostly white runs and strokes, and a row is very often
//! the row above, or the row above shifted by a pixel (a diagonal stroke).
//! So the match finder keeps no hash table: it tries a few fixed distances
//! only (1, a run; the stride, the row above; the stride give or take one,
//! diagonals). Where a match may start is found five positions at a time
//! with word-wide compares of the row above and the run; there all the
//! distances are extended sixteen bytes at a time and the longest is taken
//! (greedy). The symbols then go out in dynamic Huffman blocks
//! ([`huffman`]).

mod bands;
mod huffman;

pub(super) use bands::{clean as clean_bands, Bands, BAND_ROWS};
use huffman::{code_length_runs, Code};

/// The deflate window: no distance may be larger.
const WINDOW: usize = 32 * 1024;
/// The shortest match taken: a three-byte match costs about as much as
/// three literals in these pictures, and looking for it costs more.
const MIN_MATCH: usize = 4;
/// The longest match deflate can say.
const MAX_MATCH: usize = 258;
/// Symbols in a block: enough to pay for the block's code tables, few
/// enough for the codes to follow the picture's parts.
const BLOCK_SYMBOLS: usize = 1 << 15;
/// The literal/length alphabet: 256 literals, end of block, 29 lengths.
const LITLEN: usize = 286;
/// The distance alphabet.
const DISTS: usize = 30;
/// End of block.
const END: usize = 256;
/// The longest code of the literal/length and distance codes.
const MAX_BITS: u32 = 15;
/// The longest code of the code-length code.
const MAX_CL_BITS: u32 = 7;

/// The smallest length of each length code (RFC 1951, 3.2.5).
const LEN_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
/// The extra bits of each length code.
const LEN_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// The extra bits of each distance code.
const DIST_EXTRA: [u8; DISTS] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order the code-length code's lengths are sent in.
const CL_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// For each match length less 3: its length code (0 for symbol 257) in
/// the low 5 bits and its extra bits' value above them.
const LEN_SYMBOL: [u16; 256] = len_symbols();

const fn len_symbols() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut code = 0;
    // In code order, so that 258 ends as code 28 (symbol 285, no extra
    // bits) rather than code 27 with all its extra bits set.
    while code < 29 {
        let mut extra = 0;
        while extra < 1 << LEN_EXTRA[code] && LEN_BASE[code] as usize + extra <= MAX_MATCH {
            table[LEN_BASE[code] as usize + extra - 3] = (code | extra << 5) as u16;
            extra += 1;
        }
        code += 1;
    }
    table
}

/// A distance's code in the low 5 bits and its extra bits' value from
/// bit 5 (RFC 1951, 3.2.5: two codes for each power of two).
fn dist_symbol(dist: usize) -> u32 {
    let x = dist as u32 - 1;
    if x < 4 {
        return x;
    }
    let top = 31 - x.leading_zeros(); // at least 2
    let code = 2 * top + ((x >> (top - 1)) & 1);
    code | (x & ((1 << (top - 1)) - 1)) << 5
}

/// `data` (PNG scanlines of `stride` bytes each, filter byte included)
/// deflated in a zlib stream. Any bytes and any stride are valid; the
/// stride only says where to look for repeats.
pub(super) fn zlib(data: &[u8], stride: usize) -> Vec<u8> {
    zlib_over(data, stride, &[], &Bands::default())
}

/// [`zlib`], with the bands `kept` says are a network's own (`clean[b]`:
/// band `b` and the row before it are the network's rows, unchanged)
/// copied from `kept` rather than deflated again ([`bands`]). The bytes
/// depend on `clean`, not on what `kept` holds yet.
pub(super) fn zlib_over(data: &[u8], stride: usize, clean: &[bool], kept: &Bands) -> Vec<u8> {
    let mut w = Bits::with_capacity(data.len() / 12 + 1024);
    // CMF: deflate with a 32 KiB window; FLG: the fastest level, no
    // dictionary, and the check bits ((CMF * 256 + FLG) % 31 == 0).
    w.out.extend_from_slice(&[0x78, 0x01]);
    let finder = Finder::new(stride);
    let mut block = Block::new(0);
    let band = BAND_ROWS * stride.max(1);
    // Where the data not yet written starts: the bands the picture changed
    // run together, cut only where a kept band starts (a block header a
    // cut; a picture that changed every band is deflated as by `zlib`).
    // The checksum is read over what is deflated here and combined with
    // the kept bands' own.
    let mut from = 0;
    let mut adler = simd_adler32::Adler32::new();
    for (b, start) in (0..data.len()).step_by(band).enumerate() {
        let Some(piece) = kept.get(b).filter(|_| clean.get(b) == Some(&true)) else {
            continue;
        };
        if from < start {
            deflate_band(&data[..start], from, &finder, &mut block, &mut w);
            adler.write(&data[from..start]);
        }
        let end = (start + band).min(data.len());
        let piece = piece.get_or_init(|| {
            let mut bits = Bits::with_capacity(band / 12);
            deflate_band(&data[..end], start, &finder, &mut block, &mut bits);
            let mut own = simd_adler32::Adler32::new();
            own.write(&data[start..end]);
            bands::Band {
                bits,
                adler: own.finish(),
            }
        });
        w.append(&piece.bits);
        let sum = bands::adler_combine(adler.finish(), piece.adler, end - start);
        adler = simd_adler32::Adler32::from_checksum(sum);
        from = end;
    }
    if from < data.len() {
        deflate_band(data, from, &finder, &mut block, &mut w);
        adler.write(&data[from..]);
    }
    // The last block: empty, fixed codes (BFINAL, BTYPE 01, then the end
    // of block, seven zero bits).
    w.put(0b011, 3);
    w.put(0, 7);
    w.align();
    w.out.extend_from_slice(&adler.finish().to_be_bytes());
    w.out
}

/// Data from `start` to its end as whole blocks (none of them the last),
/// matching back into the data before `start` as anywhere else: the bits
/// depend only on those bytes and the row before them.
fn deflate_band(data: &[u8], start: usize, finder: &Finder, block: &mut Block, w: &mut Bits) {
    let mut pos = start;
    while pos < data.len() {
        block.clear(pos);
        pos = finder.parse(data, pos, block);
        block.write(data, w, false);
    }
}

/// The distances looked at, each with its distance symbol.
struct Finder {
    /// (distance, its [`dist_symbol`]), most promising first.
    candidates: Vec<(usize, u32)>,
    /// The two distances scanned for where a match starts (the others
    /// are looked at only there): diagonal matches mostly start where
    /// the row above or a run does, and scanning is the costly part.
    scanned: [usize; 2],
    /// The longest distance: from there on every distance is in the data.
    reach: usize,
}

impl Finder {
    /// The candidates for rows `stride` bytes long: a run first (on equal
    /// lengths its distance costs no extra bits), then the row above, then
    /// the diagonals.
    fn new(stride: usize) -> Finder {
        let mut dists = vec![1, stride, stride.saturating_sub(1), stride + 1];
        dists.retain(|&d| (1..=WINDOW).contains(&d));
        let mut seen = Vec::new();
        dists.retain(|&d| {
            let new = !seen.contains(&d);
            seen.push(d);
            new
        });
        // Never empty: distance 1 is always in the window.
        let scanned = [dists[0], dists[dists.len().min(2) - 1]];
        let reach = dists.iter().copied().max().unwrap_or(0);
        let candidates = dists.into_iter().map(|d| (d, dist_symbol(d))).collect();
        Finder {
            candidates,
            scanned,
            reach,
        }
    }

    /// Parses `data` from `pos` into `block` until the block is full or
    /// the data ends; the position reached.
    fn parse(&self, data: &[u8], mut pos: usize, block: &mut Block) -> usize {
        let mut tally = Tally::default();
        // Near the start some distances reach before the data.
        while pos < self.reach.min(data.len()) && tally.count < BLOCK_SYMBOLS {
            pos = tally.take(block, data, pos, self.longest::<true>(data, pos));
        }
        // Eight bytes to scan: the last few are literals.
        let end = data.len().saturating_sub(7);
        while pos < end && tally.count < BLOCK_SYMBOLS {
            // Five positions at once: literals up to the first where the
            // scanned distances have four bytes the same.
            let skip = self.literals_ahead(data, pos);
            tally.literals(block, &data[pos..pos + skip]);
            pos += skip;
            if skip < 5 {
                pos = tally.take(block, data, pos, self.longest::<false>(data, pos));
            }
        }
        if pos >= end && tally.count < BLOCK_SYMBOLS {
            tally.literals(block, &data[pos..]);
            pos = data.len();
        }
        if tally.pending > 0 {
            block.items.push((tally.pending, 0));
        }
        pos
    }

    /// How many of the five positions from `at` the scanned distances
    /// cannot start a match at (`at` at least [`Finder::reach`], eight
    /// bytes left): per distance, the bytes that differ are the nonzero
    /// bytes of an xor, found by a carry-free add on all eight at once.
    #[inline]
    fn literals_ahead(&self, data: &[u8], at: usize) -> usize {
        const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let here = load64(data, at);
        let starts = |dist: usize| {
            let x = here ^ load64(data, at - dist);
            // The top bit of each byte: set where the bytes are equal.
            let same = !(((x & LOW) + LOW) | x | LOW);
            let two = same & (same >> 8);
            two & (two >> 16)
        };
        let starts = starts(self.scanned[0]) | starts(self.scanned[1]);
        if starts == 0 {
            5
        } else {
            (starts.trailing_zeros() / 8) as usize
        }
    }

    /// The longest match at `pos`: its length (under [`MIN_MATCH`] for
    /// none) and distance symbol. `CHECKED`: some distances may reach
    /// before the data.
    #[inline]
    fn longest<const CHECKED: bool>(&self, data: &[u8], pos: usize) -> (usize, u32) {
        let max = MAX_MATCH.min(data.len() - pos);
        if max < MIN_MATCH {
            return (0, 0);
        }
        let here = load32(data, pos);
        let mut best = 0;
        let mut best_symbol = 0;
        for &(dist, symbol) in &self.candidates {
            // Cheap refusals first: the first four bytes, then the byte
            // that would make the match longer than the best.
            if (CHECKED && dist > pos)
                || load32(data, pos - dist) != here
                || data[pos - dist + best] != data[pos + best]
            {
                continue;
            }
            let len = match_len(data, pos - dist, pos, max);
            if len > best {
                best = len;
                best_symbol = symbol;
                if len == max {
                    break;
                }
            }
        }
        (best, best_symbol)
    }
}

/// What the parse of a block has counted, apart from the [`Block`] so
/// that it stays in registers (the block's counts could alias it).
#[derive(Default)]
struct Tally {
    /// Symbols in the block.
    count: usize,
    /// Literals not in an item yet.
    pending: u32,
}

impl Tally {
    /// `bytes` as literals.
    #[inline]
    fn literals(&mut self, block: &mut Block, bytes: &[u8]) {
        for &byte in bytes {
            block.litlen[usize::from(byte)] += 1;
        }
        self.pending += bytes.len() as u32;
        self.count += bytes.len();
    }

    /// The match `(len, dist)` found at `pos` (a [`Finder::longest`]), or
    /// a literal if it is too short; the position after it.
    #[inline]
    fn take(&mut self, block: &mut Block, data: &[u8], pos: usize, found: (usize, u32)) -> usize {
        let (len, dist) = found;
        if len < MIN_MATCH {
            self.literals(block, &data[pos..pos + 1]);
            return pos + 1;
        }
        let code = u32::from(LEN_SYMBOL[len - 3]);
        let packed = (code & 31) | (dist & 31) << 5 | (code >> 5) << 10 | (dist >> 5) << 15;
        block
            .items
            .push((self.pending | (len as u32) << 20, packed));
        self.pending = 0;
        self.count += 1;
        block.litlen[257 + (code & 31) as usize] += 1;
        block.dist[(dist & 31) as usize] += 1;
        pos + len
    }
}

/// The eight bytes at `at`, as a number.
#[inline]
fn load64(data: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(data[at..at + 8].try_into().unwrap())
}

/// The four bytes at `at`, as a number.
#[inline]
fn load32(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(data[at..at + 4].try_into().unwrap())
}

/// How many bytes from `from` equal those from `at` (`from` < `at`), at
/// most `max`: sixteen bytes compared at a time (a vector compare), then
/// the first difference found in eight.
#[inline]
fn match_len(data: &[u8], from: usize, at: usize, max: usize) -> usize {
    let a = &data[from..from + max];
    let b = &data[at..at + max];
    let mut len = 0;
    while len + 16 <= max {
        let x: &[u8; 16] = a[len..len + 16].try_into().unwrap();
        let y: &[u8; 16] = b[len..len + 16].try_into().unwrap();
        if x != y {
            break;
        }
        len += 16;
    }
    while len + 8 <= max {
        let diff = load64(a, len) ^ load64(b, len);
        if diff != 0 {
            return len + (diff.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    while len < max && a[len] == b[len] {
        len += 1;
    }
    len
}

/// One block's symbols and their counts. The literals stay in the data:
/// an item says how many come before each match.
struct Block {
    /// Where the block's data starts.
    start: usize,
    /// The literals before each match in the low 20 bits and the match's
    /// length above them (0 after the last match), and the match: the
    /// length code in bits 0-4, the distance code in bits 5-9, the
    /// length's extra bits from bit 10 and the distance's from bit 15.
    items: Vec<(u32, u32)>,
    /// Counts of the literal/length symbols.
    litlen: [u32; LITLEN],
    /// Counts of the distance symbols.
    dist: [u32; DISTS],
}

impl Block {
    fn new(start: usize) -> Block {
        Block {
            start,
            items: Vec::with_capacity(BLOCK_SYMBOLS / 4),
            litlen: [0; LITLEN],
            dist: [0; DISTS],
        }
    }

    /// The block starting at `start`, empty.
    fn clear(&mut self, start: usize) {
        self.start = start;
        self.items.clear();
        self.litlen = [0; LITLEN];
        self.dist = [0; DISTS];
    }

    /// The block (of `data`) as a dynamic Huffman block (RFC 1951, 3.2.7).
    fn write(&mut self, data: &[u8], w: &mut Bits, last: bool) {
        self.litlen[END] = 1;
        let litlen = Code::new(&self.litlen, MAX_BITS);
        let dist = Code::new(&self.dist, MAX_BITS);
        let nlit = used(&litlen.lens, 257);
        let ndist = used(&dist.lens, 1);
        let mut lens = Vec::with_capacity(nlit + ndist);
        lens.extend_from_slice(&litlen.lens[..nlit]);
        lens.extend_from_slice(&dist.lens[..ndist]);
        let (runs, counts) = code_length_runs(&lens);
        let cl = Code::new(&counts, MAX_CL_BITS);
        let ncl = CL_ORDER
            .iter()
            .rposition(|&s| cl.lens[s] != 0)
            .map_or(4, |i| (i + 1).max(4));
        w.put(u64::from(last) | 2 << 1, 3);
        w.put(
            (nlit - 257) as u64 | ((ndist - 1) as u64) << 5 | ((ncl - 4) as u64) << 10,
            14,
        );
        for &s in &CL_ORDER[..ncl] {
            w.put(u64::from(cl.lens[s]), 3);
        }
        for &(symbol, extra) in &runs {
            let s = usize::from(symbol);
            let extra_bits = [2, 3, 7].get(s.wrapping_sub(16)).copied().unwrap_or(0);
            w.put(
                u64::from(cl.packed[s] & 0xffff) | u64::from(extra) << (cl.packed[s] >> 16),
                (cl.packed[s] >> 16) + extra_bits,
            );
        }
        self.write_symbols(data, w, &litlen, &dist);
    }

    /// The block's symbols and its end in `litlen` and `dist`.
    fn write_symbols(&self, data: &[u8], w: &mut Bits, litlen: &Code, dist: &Code) {
        // The bit buffer in locals, so that it stays in registers (stores
        // to the output could alias it otherwise).
        let (mut buf, mut held) = (w.buf, w.len);
        let out = &mut w.out;
        let mut put = |bits: u64, n: u32| {
            let len = held + n;
            if len < 64 {
                buf |= bits << held;
                held = len;
            } else {
                out.extend_from_slice(&(buf | bits << held).to_le_bytes());
                buf = bits >> (64 - held);
                held = len - 64;
            }
        };
        let lit: &[u32; LITLEN] = litlen.packed[..].try_into().unwrap();
        let dist: &[u32; DISTS] = dist.packed[..].try_into().unwrap();
        let mut pos = self.start;
        for &(literals, m) in &self.items {
            let n = (literals & 0xf_ffff) as usize;
            // Two literals at a time: two codes fit one put.
            let mut pairs = data[pos..pos + n].chunks_exact(2);
            for pair in &mut pairs {
                let a = lit[usize::from(pair[0])];
                let b = lit[usize::from(pair[1])];
                let bits = u64::from(a & 0xffff) | u64::from(b & 0xffff) << (a >> 16);
                put(bits, (a >> 16) + (b >> 16));
            }
            for &byte in pairs.remainder() {
                let a = lit[usize::from(byte)];
                put(u64::from(a & 0xffff), a >> 16);
            }
            let len = literals >> 20;
            pos += n + len as usize;
            if len == 0 {
                continue;
            }
            let lc = (m & 31) as usize;
            let code = lit[257 + lc];
            let extra = u64::from((m >> 10) & 31);
            put(
                u64::from(code & 0xffff) | extra << (code >> 16),
                (code >> 16) + u32::from(LEN_EXTRA[lc]),
            );
            let dc = ((m >> 5) & 31) as usize;
            let code = dist[dc];
            let extra = u64::from((m >> 15) & 0x1fff);
            put(
                u64::from(code & 0xffff) | extra << (code >> 16),
                (code >> 16) + u32::from(DIST_EXTRA[dc]),
            );
        }
        let end = lit[END];
        put(u64::from(end & 0xffff), end >> 16);
        w.buf = buf;
        w.len = held;
    }
}

/// How many of `lens` must be sent: up to the last code, at least `min`.
fn used(lens: &[u8], min: usize) -> usize {
    lens.iter()
        .rposition(|&l| l != 0)
        .map_or(min, |i| (i + 1).max(min))
}

/// Bits out, least significant first, through a 64-bit buffer.
struct Bits {
    out: Vec<u8>,
    buf: u64,
    len: u32,
}

impl Bits {
    fn with_capacity(bytes: usize) -> Bits {
        Bits {
            out: Vec::with_capacity(bytes),
            buf: 0,
            len: 0,
        }
    }

    /// The low `n` bits of `bits` (the rest zero), `n` at most 32.
    #[inline]
    fn put(&mut self, bits: u64, n: u32) {
        let len = self.len + n;
        if len < 64 {
            self.buf |= bits << self.len;
            self.len = len;
            return;
        }
        // A full buffer out; what did not fit stays (`self.len` > 31).
        let full = self.buf | bits << self.len;
        self.out.extend_from_slice(&full.to_le_bytes());
        self.buf = bits >> (64 - self.len);
        self.len = len - 64;
    }

    /// Bits written by another writer from bit 0 (whole: never aligned),
    /// after these.
    fn append(&mut self, other: &Bits) {
        if self.len == 0 {
            self.out.extend_from_slice(&other.out);
        } else {
            // `other.out` is whole words: each shifted in, the rest held.
            for word in other.out.chunks_exact(8) {
                let word = u64::from_le_bytes(word.try_into().unwrap());
                self.out
                    .extend_from_slice(&(self.buf | word << self.len).to_le_bytes());
                self.buf = word >> (64 - self.len);
            }
        }
        // What `other` holds, at most 63 bits: in two puts of 32 at most.
        let low = other.len.min(32);
        self.put(other.buf & ((1u64 << low) - 1), low);
        self.put(other.buf >> low, other.len - low);
    }

    /// The bits held, padded with zeros to a byte.
    fn align(&mut self) {
        let bytes = self.len.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.buf.to_le_bytes()[..bytes]);
        self.buf = 0;
        self.len = 0;
    }
}

#[cfg(test)]
mod tests;
