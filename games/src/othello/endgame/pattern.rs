//! A pattern evaluation for the presort (8x8 only): the twelve linear features of
//! `presort.rs` plus, for ten line and corner patterns in every orientation, one trained weight
//! per configuration of the pattern's squares (empty, side to move, opponent), each set of
//! weights per band of empties. The weights are trained here (`training.rs`, labels from
//! the solver's own exact scores) and stored in `presort_weights.bin`, read in place.
//!
//! Blob layout (little endian): the 8 bytes [`MAGIC`], then for each of [`BANDS`] bands,
//! [`LINEAR`] `i16` linear weights and [`TABLE`] `i16` pattern weights, all in
//! 1/[`SCALE`] of a disc.

/// The patterns, each in one orientation (square indices, row * 8 + column, in reading
/// order): edge; corner 3x3; rows 2, 3 and 4; the diagonals of length 8, 7, 6, 5 and 4.
const BASES: [&[u8]; 10] = [
    &[0, 1, 2, 3, 4, 5, 6, 7],
    &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    &[8, 9, 10, 11, 12, 13, 14, 15],
    &[16, 17, 18, 19, 20, 21, 22, 23],
    &[24, 25, 26, 27, 28, 29, 30, 31],
    &[0, 9, 18, 27, 36, 45, 54, 63],
    &[1, 10, 19, 28, 37, 46, 55],
    &[2, 11, 20, 29, 38, 47],
    &[3, 12, 21, 30, 39],
    &[4, 13, 22, 31],
];

/// Bands of empties: up to 14, 15-17, 18 and more.
pub(crate) const BANDS: usize = 3;
/// The band of a position with `empties` empty squares.
#[inline]
pub(crate) fn band(empties: u32) -> usize {
    match empties {
        0..=14 => 0,
        15..=17 => 1,
        _ => 2,
    }
}

/// Linear weights per band (the features of `presort::features`).
pub(crate) const LINEAR: usize = super::presort::FEATURES;
/// Weights are stored in 1/`SCALE` of a disc.
pub(crate) const SCALE: f64 = 64.0;
/// The blob's first bytes.
pub(crate) const MAGIC: [u8; 8] = *b"OTPAT1\0\0";

const fn pow3(k: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r *= 3;
        i += 1;
    }
    r
}

/// Offsets of each pattern's table and (last) the total pattern weights per band.
const OFFSETS: [usize; 11] = {
    let mut out = [0; 11];
    let mut i = 0;
    while i < 10 {
        out[i + 1] = out[i] + pow3(BASES[i].len());
        i += 1;
    }
    out
};

/// Pattern weights per band.
pub(crate) const TABLE: usize = OFFSETS[10];
/// The blob's size in bytes.
pub(crate) const BLOB_BYTES: usize = 8 + BANDS * (LINEAR + TABLE) * 2;

/// Square `sq` under symmetry `k` (0..8: four rotations, each with or without a mirror).
pub(crate) const fn symmetric(k: usize, sq: usize) -> usize {
    let (mut r, mut c) = (sq / 8, sq % 8);
    if k >= 4 {
        c = 7 - c;
    }
    let mut i = 0;
    while i < k % 4 {
        let t = r;
        r = c;
        c = 7 - t;
        i += 1;
    }
    r * 8 + c
}

/// One placement of a pattern: its squares in reading order and its table's offset.
#[derive(Clone, Copy)]
pub(crate) struct Instance {
    squares: [u8; 9],
    len: u8,
    offset: u32,
}

/// How many distinct placements the patterns have.
pub(crate) const INSTANCES: usize = 38;

/// Every placement: each pattern under the eight symmetries, duplicates (the same set of
/// squares) dropped.
pub(crate) static PLACEMENTS: [Instance; INSTANCES] = {
    let mut out = [Instance {
        squares: [0; 9],
        len: 0,
        offset: 0,
    }; INSTANCES];
    let mut masks = [0u64; INSTANCES];
    let mut count = 0;
    let mut b = 0;
    while b < 10 {
        let base = BASES[b];
        let mut k = 0;
        while k < 8 {
            let mut inst = Instance {
                squares: [0; 9],
                len: base.len() as u8,
                offset: OFFSETS[b] as u32,
            };
            let mut mask = 0u64;
            let mut i = 0;
            while i < base.len() {
                let s = symmetric(k, base[i] as usize);
                inst.squares[i] = s as u8;
                mask |= 1 << s;
                i += 1;
            }
            let mut seen = false;
            let mut j = 0;
            while j < count {
                if masks[j] == mask {
                    seen = true;
                }
                j += 1;
            }
            if !seen {
                out[count] = inst;
                masks[count] = mask;
                count += 1;
            }
            k += 1;
        }
        b += 1;
    }
    assert!(count == INSTANCES);
    out
};

/// The index of `(p, o)` in placement `inst`'s table (within its pattern's table).
#[inline(always)]
pub(crate) fn index(inst: &Instance, p: u64, o: u64) -> usize {
    let mut idx = 0usize;
    for &s in &inst.squares[..usize::from(inst.len)] {
        idx = idx * 3 + ((p >> s) & 1) as usize + 2 * ((o >> s) & 1) as usize;
    }
    idx
}

/// The table indices (offsets included, within a band) of every placement for `(p, o)`.
pub(crate) fn indices(p: u64, o: u64) -> [u32; INSTANCES] {
    let mut out = [0u32; INSTANCES];
    for (slot, inst) in out.iter_mut().zip(&PLACEMENTS) {
        *slot = inst.offset + index(inst, p, o) as u32;
    }
    out
}

/// The trained weights, read in place (their size is checked by the type: a blob of another
/// layout does not compile).
pub(crate) static WEIGHTS: &[u8; BLOB_BYTES] = include_bytes!("presort_weights.bin");

const _: () = {
    let mut i = 0;
    while i < MAGIC.len() {
        assert!(
            WEIGHTS[i] == MAGIC[i],
            "presort_weights.bin: wrong magic bytes"
        );
        i += 1;
    }
};

#[inline(always)]
fn weight_at(blob: &[u8], i: usize) -> i32 {
    i32::from(i16::from_le_bytes([blob[2 * i], blob[2 * i + 1]]))
}

/// The evaluation of `(p, o)` (8x8, side to move `p`) with the linear features `linear`, in
/// 1/[`SCALE`] of a disc, from the weights `blob` (the layout of the module documentation).
#[inline]
pub(crate) fn evaluate_blob(blob: &[u8], p: u64, o: u64, linear: &[i32; LINEAR]) -> i32 {
    let empties = 64 - (p | o).count_ones();
    let body = &blob[8..];
    let base = band(empties) * (LINEAR + TABLE);
    let mut sum: i32 = linear
        .iter()
        .enumerate()
        .map(|(i, &x)| x * weight_at(body, base + i))
        .sum();
    let table = &body[2 * (base + LINEAR)..];
    each_index(p, o, |i| sum += weight_at(table, i));
    sum
}

/// The ternary value of the low `L` bits of a byte, bit 0 the most significant digit
/// (`TERNARY[L][b]`, L = 0..=8).
static TERNARY: [[u16; 256]; 9] = {
    let mut out = [[0u16; 256]; 9];
    let mut l = 0;
    while l <= 8 {
        let mut b = 0;
        while b < 256 {
            let mut v = 0u16;
            let mut i = 0;
            while i < l {
                v = v * 3 + ((b >> i) & 1) as u16;
                i += 1;
            }
            out[l][b] = v;
            b += 1;
        }
        l += 1;
    }
    out
};

/// The board mirrored along the a1-h8 diagonal: square `(r, c)` to `(c, r)`.
#[inline(always)]
fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The board mirrored left to right: column `c` to `7 - c`.
#[inline(always)]
fn mirror(mut x: u64) -> u64 {
    x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
    x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
    ((x >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((x & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// The squares `(i, i)` of the main diagonal gathered into a byte (bit `i` from square
/// `(i, i)`), after shifting the board right by `shift` squares, so that the low `8 - shift`
/// bits read the diagonal `(i, i + shift)` (the higher bits, which [`TERNARY`] of that length
/// ignores, hold squares wrapped from the next row).
#[inline(always)]
fn diagonal(x: u64, shift: u32) -> usize {
    const MAIN: u64 = 0x8040_2010_0804_0201;
    (((x >> shift) & MAIN).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// Calls `f` with the table index (offset included) of every placement of
/// `PLACEMENTS` for `(p, o)`, in some order: the same indices as `index` (tested), from byte
/// lookups on the board turned by each of the four rotations (a placement under rotation `k`
/// reads its pattern's base squares on the board turned back by `k`).
#[inline(always)]
fn each_index(p: u64, o: u64, mut f: impl FnMut(usize)) {
    let (tp, to) = (transpose(p), transpose(o));
    let boards = [
        (p, o),
        (tp.swap_bytes(), to.swap_bytes()),
        (p.reverse_bits(), o.reverse_bits()),
        (mirror(tp), mirror(to)),
    ];
    let t = &TERNARY;
    let row = |a: u64, b: u64, r: u32| {
        let (x, y) = (
            ((a >> (8 * r)) & 0xFF) as usize,
            ((b >> (8 * r)) & 0xFF) as usize,
        );
        usize::from(t[8][x]) + 2 * usize::from(t[8][y])
    };
    let corner = |x: u64| {
        usize::from(t[3][(x & 7) as usize]) * 729
            + usize::from(t[3][((x >> 8) & 7) as usize]) * 27
            + usize::from(t[3][((x >> 16) & 7) as usize])
    };
    for (k, &(a, b)) in boards.iter().enumerate() {
        f(OFFSETS[0] + row(a, b, 0));
        f(OFFSETS[1] + corner(a) + 2 * corner(b));
        f(OFFSETS[2] + row(a, b, 1));
        f(OFFSETS[3] + row(a, b, 2));
        f(OFFSETS[4] + row(a, b, 3));
        if k < 2 {
            f(OFFSETS[5]
                + usize::from(t[8][diagonal(a, 0)])
                + 2 * usize::from(t[8][diagonal(b, 0)]));
        }
        for (j, l) in [(6, 7), (7, 6), (8, 5), (9, 4)] {
            let shift = (8 - l) as u32;
            f(OFFSETS[j]
                + usize::from(t[l][diagonal(a, shift)])
                + 2 * usize::from(t[l][diagonal(b, shift)]));
        }
    }
}

/// The blob of weights: `linear[band]` and `table[band]` in discs, rounded to
/// 1/[`SCALE`] (and clamped to the `i16` range).
pub(crate) fn encode(linear: &[[f64; LINEAR]; BANDS], table: &[Vec<f64>]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    let q = |x: f64| ((x * SCALE).round().clamp(-32768.0, 32767.0) as i16).to_le_bytes();
    for b in 0..BANDS {
        for &x in &linear[b] {
            out.extend_from_slice(&q(x));
        }
        for &x in &table[b] {
            out.extend_from_slice(&q(x));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_cover_each_pattern_in_every_orientation() {
        // 4 edges, 4 corners, 4 of each row, 2 long diagonals, 4 of each shorter one.
        let per_pattern: Vec<usize> = (0..10)
            .map(|b| {
                PLACEMENTS
                    .iter()
                    .filter(|i| i.offset as usize == OFFSETS[b])
                    .count()
            })
            .collect();
        assert_eq!(per_pattern, [4, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        for k in 0..8 {
            let mut seen = 0u64;
            for sq in 0..64 {
                seen |= 1 << symmetric(k, sq);
            }
            assert_eq!(seen, u64::MAX, "symmetry {k} is a permutation");
        }
    }

    /// Two disjoint random disc sets (side to move, opponent) from the generator state `x`.
    fn random_discs(x: &mut u64) -> (u64, u64) {
        super::super::xorshift(x);
        let board = *x;
        super::super::xorshift(x);
        (board & *x, board & !*x)
    }

    #[test]
    fn byte_lookups_give_the_indices_of_the_square_by_square_reading() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..2000 {
            let (p, o) = random_discs(&mut x);
            let mut want: Vec<u32> = indices(p, o).to_vec();
            let mut got = Vec::new();
            each_index(p, o, |i| got.push(i as u32));
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn stored_blob_has_the_expected_layout() {
        assert_eq!(WEIGHTS.len(), BLOB_BYTES);
        assert_eq!(WEIGHTS[..8], MAGIC);
    }

    #[test]
    fn encoder_and_evaluation_agree() {
        // Weights from a small generator, encoded, then the evaluation from the blob against
        // the sum computed directly in discs.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            super::super::xorshift(&mut x);
            ((x >> 40) as f64 / (1u64 << 24) as f64 - 0.5) * 8.0
        };
        let linear: [[f64; LINEAR]; BANDS] =
            std::array::from_fn(|_| std::array::from_fn(|_| next()));
        let table: Vec<Vec<f64>> = (0..BANDS)
            .map(|_| (0..TABLE).map(|_| next()).collect())
            .collect();
        let blob = encode(&linear, &table);
        assert_eq!(blob.len(), BLOB_BYTES);
        let q = |v: f64| (v * SCALE).round();
        let mut y = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            let (p, o) = random_discs(&mut y);
            let feats = super::super::presort::features::<8>(p, o);
            let b = band(64 - (p | o).count_ones());
            let mut want = 0.0;
            for (f, w) in feats.iter().zip(&linear[b]) {
                want += f64::from(*f) * q(*w);
            }
            for idx in indices(p, o) {
                want += q(table[b][idx as usize]);
            }
            assert_eq!(f64::from(evaluate_blob(&blob, p, o, &feats)), want);
        }
    }
}
