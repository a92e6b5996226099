//! Huffman codes for deflate (RFC 1951, 3.2.2 and 3.2.7): optimal code
//! lengths under a limit, the canonical codes, and the code lengths said
//! in the code-length alphabet.

/// The code lengths `lens` in the code-length alphabet (RFC 1951, 3.2.7):
/// each symbol with its extra bits' value, and the symbols' counts. Runs
/// of zeros are 17 (3-10) and 18 (11-138); runs of another length are the
/// length once and 16 (3-6 more).
pub(super) fn code_length_runs(lens: &[u8]) -> (Vec<(u8, u8)>, [u32; 19]) {
    let mut runs = Vec::with_capacity(lens.len());
    let mut counts = [0u32; 19];
    let mut push = |symbol: u8, extra: u8| {
        runs.push((symbol, extra));
        counts[usize::from(symbol)] += 1;
    };
    let mut i = 0;
    while i < lens.len() {
        let len = lens[i];
        let mut run = lens[i..].iter().take_while(|&&l| l == len).count();
        i += run;
        if len == 0 {
            while run >= 11 {
                let n = run.min(138);
                push(18, (n - 11) as u8);
                run -= n;
            }
            if run >= 3 {
                push(17, (run - 3) as u8);
                run = 0;
            }
        } else {
            push(len, 0);
            run -= 1;
            while run >= 3 {
                let n = run.min(6);
                push(16, (n - 3) as u8);
                run -= n;
            }
        }
        for _ in 0..run {
            push(len, 0);
        }
    }
    (runs, counts)
}

/// A canonical Huffman code: each symbol's length and its code, bit
/// reversed for sending (deflate sends a code's first bit first, and bits
/// go out least significant first).
pub(super) struct Code {
    /// Each symbol's code length, 0 for none.
    pub lens: Vec<u8>,
    /// Each symbol's code in the low 16 bits, its length above them.
    pub packed: Vec<u32>,
}

impl Code {
    /// The optimal code for `counts` with no code over `limit` bits. At
    /// least two symbols get a code, so that every code is complete (zlib
    /// refuses an incomplete code other than a single one-bit code).
    pub fn new(counts: &[u32], limit: u32) -> Code {
        let lens = code_lengths(counts, limit);
        let mut per_len = [0u16; 16];
        for &l in &lens {
            per_len[usize::from(l)] += 1;
        }
        per_len[0] = 0;
        let mut next = [0u16; 16];
        let mut code = 0u16;
        for bits in 1..16 {
            code = (code + per_len[bits - 1]) << 1;
            next[bits] = code;
        }
        let packed = lens
            .iter()
            .map(|&l| {
                if l == 0 {
                    return 0;
                }
                let c = next[usize::from(l)];
                next[usize::from(l)] += 1;
                u32::from(c.reverse_bits() >> (16 - l)) | u32::from(l) << 16
            })
            .collect();
        Code { lens, packed }
    }
}

/// Optimal code lengths for `counts`, none over `limit` bits: Huffman's,
/// or when they are too long, package-merge's. Symbols with no count get
/// no code, unless fewer than two have one.
pub(super) fn code_lengths(counts: &[u32], limit: u32) -> Vec<u8> {
    let mut lens = vec![0u8; counts.len()];
    // (count, symbol), the cheapest first.
    let mut leaves: Vec<(u64, usize)> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(s, &c)| (u64::from(c), s))
        .collect();
    if leaves.len() < 2 {
        let lone = leaves.first().map_or(0, |&(_, s)| s);
        lens[lone] = 1;
        lens[usize::from(lone == 0)] = 1;
        return lens;
    }
    leaves.sort_unstable();
    if !huffman(&leaves, limit, &mut lens) {
        package_merge(&leaves, limit, &mut lens);
    }
    lens
}

/// Huffman's code lengths for `leaves` (sorted, at least two) into
/// `lens`, by two queues (the leaves, and the merged nodes, which come in
/// order); false if a code would be longer than `limit`.
fn huffman(leaves: &[(u64, usize)], limit: u32, lens: &mut [u8]) -> bool {
    let n = leaves.len();
    // Node i < n is leaf i; node n + j is the j-th merge.
    let mut weight: Vec<u64> = Vec::with_capacity(2 * n);
    weight.extend(leaves.iter().map(|&(c, _)| c));
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut leaf, mut node) = (0, n);
    for merged in n..2 * n - 1 {
        let mut take = || {
            let from_leaf = leaf < n && (node == merged || weight[leaf] <= weight[node]);
            let i = if from_leaf { leaf } else { node };
            if from_leaf {
                leaf += 1;
            } else {
                node += 1;
            }
            i
        };
        let (a, b) = (take(), take());
        weight.push(weight[a] + weight[b]);
        parent[a] = merged;
        parent[b] = merged;
    }
    // Depths from the root (the last node) down: a parent comes after its
    // children.
    let mut depth = vec![0u32; 2 * n - 1];
    for i in (0..2 * n - 2).rev() {
        depth[i] = depth[parent[i]] + 1;
    }
    if depth[..n].iter().any(|&d| d > limit) {
        return false;
    }
    for (&(_, s), &d) in leaves.iter().zip(&depth) {
        lens[s] = d as u8;
    }
    true
}

/// Optimal code lengths for `leaves` (sorted, at least two, at most
/// 2^`limit`) none over `limit` bits into `lens`, by package-merge
/// (Larmore and Hirschberg): a symbol's length is how many times it is in
/// the cheapest 2n - 2 items of the last list.
fn package_merge(leaves: &[(u64, usize)], limit: u32, lens: &mut [u8]) {
    let n = leaves.len();
    // Each list from the deepest level up: whether each item is a leaf.
    let mut kinds: Vec<Vec<bool>> = vec![vec![true; n]];
    let mut weights: Vec<u64> = leaves.iter().map(|&(c, _)| c).collect();
    for _ in 1..limit {
        let packages: Vec<u64> = weights.chunks_exact(2).map(|p| p[0] + p[1]).collect();
        let mut merged = Vec::with_capacity(n + packages.len());
        let mut kind = Vec::with_capacity(n + packages.len());
        let (mut i, mut j) = (0, 0);
        while i < n || j < packages.len() {
            if j == packages.len() || (i < n && leaves[i].0 <= packages[j]) {
                merged.push(leaves[i].0);
                kind.push(true);
                i += 1;
            } else {
                merged.push(packages[j]);
                kind.push(false);
                j += 1;
            }
        }
        weights = merged;
        kinds.push(kind);
    }
    // The items taken from each list, from the top level down: its leaves
    // (the cheapest, in order) get a bit each, its packages take twice as
    // many items from the list below.
    let mut take = 2 * n - 2;
    for kind in kinds.iter().rev() {
        let leaves_taken = kind[..take].iter().filter(|&&leaf| leaf).count();
        for &(_, s) in &leaves[..leaves_taken] {
            lens[s] += 1;
        }
        take = 2 * (take - leaves_taken);
    }
}
