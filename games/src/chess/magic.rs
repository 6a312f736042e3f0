//! Sliding-piece attacks by "fancy" magic bitboards, with every table built by `const fn`.
//!
//! For a rook or bishop on square `s`, the squares that can block it form a mask `m` (its rays
//! without the board edge). Multiplying the blockers `occ & m` by a magic number and keeping the
//! top `popcount(m)` bits gives a perfect index of the attack set: `table[offset[s] +
//! ((occ & m) * magic[s]) >> (64 - popcount(m))]`. Rooks need 102,400 entries, bishops 5,248
//! (one shared table of 841 KiB).
//!
//! The magic numbers below were found for this module by a plain trial-and-error search
//! (sparse random 64-bit candidates from a xorshift generator, keeping the first one without
//! destructive collisions over all blocker subsets, at the minimal shift); the `const fn`
//! [`build_table`] verifies nothing at run time, so `tests::magics_are_perfect` checks every
//! entry against a ray walk. Why magics rather than another scheme: see `README.md` in this
//! directory (benchmark `attacks/*` in `games/benches/chess.rs`).

use super::square::Square;

/// Rook magic numbers, a1 to h8.
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x0980_0080_1140_0020, 0x8340_0044_1000_2000, 0x0880_2000_9000_8268, 0x0080_0800_8010_0004,
    0x8100_1100_0402_0800, 0x0300_0100_0400_0822, 0x0880_1A00_2900_0080, 0x8100_0500_0120_4882,
    0x0844_8000_8140_0320, 0x0804_4020_1000_4000, 0x0108_8020_0310_0480, 0x0004_8080_0800_1000,
    0x0003_0018_0100_1014, 0x0002_0002_0004_1008, 0x0004_0081_0804_2210, 0x0105_0001_0000_9042,
    0x0400_8080_0040_0021, 0xC100_4040_1000_2000, 0x0060_0080_1000_2088, 0x0400_8080_0800_1000,
    0x4440_8080_0800_0400, 0x1002_0080_0400_0280, 0x4002_4400_300D_1248, 0x0010_0200_0040_8104,
    0x0101_0082_0020_4200, 0x8020_0020_4000_5000, 0x4100_1000_8080_2000, 0x4008_006A_8010_0280,
    0x1020_0800_8004_0080, 0x0004_0100_4002_0040, 0x0018_A124_0008_0290, 0x6140_0042_0000_8104,
    0x4000_4000_2080_0090, 0x2020_0020_8080_4000, 0x0000_4082_0200_2010, 0x0080_1005_0100_0820,
    0x0000_8004_0080_0800, 0x000A_2004_0801_4010, 0x0100_8002_0080_0100, 0xA008_0057_0200_008C,
    0x0080_0040_6000_C010, 0x1040_1000_2800_2000, 0x0048_2001_0011_0040, 0x0068_4902_1003_0020,
    0x1009_0800_0501_0010, 0x2142_0008_0401_0100, 0x1001_0801_1084_0002, 0x1801_0044_0082_0001,
    0x0104_4020_8D02_0200, 0x0000_4000_2000_8080, 0x0200_2000_8010_0280, 0x0000_1000_2009_0100,
    0x0204_0080_0802_0480, 0x8104_0100_4002_0040, 0x7800_0201_B008_0400, 0x0040_8000_5100_2880,
    0x0050_1080_0100_2041, 0x208A_8011_0061_4003, 0x0006_0020_4208_9082, 0x0011_0900_0420_1001,
    0x1002_0010_0420_0802, 0x0005_0002_0804_0001, 0x0002_0027_01AC_0822, 0x0000_1025_0184_004A,
];

/// Bishop magic numbers, a1 to h8.
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0xC0A0_0122_0604_0EA0, 0x8010_2282_0042_0001, 0x0110_0082_2040_0400, 0x0244_5C00_8010_6000,
    0x0044_0420_0400_8100, 0x0880_9004_2040_8C05, 0x0201_0801_1008_0002, 0x0000_1080_9420_2000,
    0x0000_0420_0204_0108, 0x0000_6230_2411_0042, 0x0086_1000_9481_1002, 0x0000_0445_0200_2080,
    0x0100_4602_1140_0040, 0x0008_1090_0420_0004, 0x0202_3200_8484_4000, 0x8040_0424_2104_1009,
    0x2010_10C0_5102_008C, 0x1020_8882_0802_4080, 0x0108_000C_8029_0200, 0x8048_0004_2042_5203,
    0x0005_0000_9040_2000, 0x2080_4002_0110_4100, 0x8820_4201_1110_1000, 0x4AC0_3022_0882_1802,
    0x0004_4000_1002_A840, 0x2002_2000_1004_1080, 0x1012_0802_0100_4400, 0x8440_0400_0241_0120,
    0x1090_8200_8401_0400, 0x2084_8520_1202_1000, 0x1204_0062_C101_1003, 0x0200_8205_E109_0080,
    0x088C_1028_0804_2080, 0x0802_1022_0090_4280, 0x8020_2090_0208_0020, 0x2200_0808_0006_0A00,
    0x20C0_0040_1001_0100, 0x0802_0041_0082_1003, 0x0008_0244_0000_8080, 0x0000_8401_0200_8090,
    0x0030_A404_2024_4007, 0x0A19_0842_1001_1282, 0x0004_0820_9001_9806, 0x6108_0042_0802_0080,
    0x0081_2004_1011_0100, 0x1040_8107_0101_0208, 0x0282_0478_3201_2080, 0x0010_0200_9900_0020,
    0x000E_0104_2240_0840, 0x1020_4208_B008_9090, 0x0810_0444_0C04_8000, 0x88C0_1800_8404_0001,
    0x3100_0208_0304_0080, 0x8900_70A0_4121_0C00, 0x0020_2001_0101_0A09, 0x0004_1002_4041_0400,
    0x0006_0044_0208_0200, 0x0801_0624_8404_2000, 0x0001_0002_D744_1004, 0x0810_0800_0020_8800,
    0x0000_0208_0803_0411, 0x1450_0010_2001_4440, 0x0040_6008_1081_A288, 0x0044_0114_0410_8A00,
];

/// Ray directions as (file step, rank step).
pub(crate) const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Diagonal directions.
pub(crate) const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks of a slider on `sq` along `dirs` with blockers `occ`, by walking the rays (slow; used
/// to build the tables, in tests and as the benchmark baseline).
#[must_use]
pub const fn slide(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let (f0, r0) = ((sq % 8) as i8, (sq / 8) as i8);
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The relevant-blocker mask: the rays from `sq` without their last square.
const fn blocker_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let (f0, r0) = ((sq % 8) as i8, (sq / 8) as i8);
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// What one square needs to find its attack set in [`TABLE`].
#[derive(Clone, Copy)]
pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

const fn magics(magic_numbers: &[u64; 64], dirs: &[(i8, i8); 4], start: usize) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = blocker_mask(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: magic_numbers[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

/// Entries of the rook part of [`TABLE`].
const ROOK_ENTRIES: usize = 102_400;
/// Entries of the bishop part.
const BISHOP_ENTRIES: usize = 5_248;

pub(crate) static ROOK: [Magic; 64] = magics(&ROOK_MAGICS, &ROOK_DIRS, 0);
pub(crate) static BISHOP: [Magic; 64] = magics(&BISHOP_MAGICS, &BISHOP_DIRS, ROOK_ENTRIES);

const fn fill(table: &mut [u64], m: &[Magic; 64], dirs: &[(i8, i8); 4]) {
    let mut sq = 0;
    while sq < 64 {
        let Magic {
            mask,
            magic,
            shift,
            offset,
        } = m[sq];
        // Every subset of `mask` (the carry-rippler enumeration).
        let mut subset = 0u64;
        loop {
            let index = offset + (subset.wrapping_mul(magic) >> shift) as usize;
            table[index] = slide(sq, subset, dirs);
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const fn build_table() -> [u64; ROOK_ENTRIES + BISHOP_ENTRIES] {
    let rook = magics(&ROOK_MAGICS, &ROOK_DIRS, 0);
    let bishop = magics(&BISHOP_MAGICS, &BISHOP_DIRS, ROOK_ENTRIES);
    assert!(rook[63].offset + (1 << (64 - rook[63].shift)) == ROOK_ENTRIES);
    assert!(bishop[63].offset + (1 << (64 - bishop[63].shift)) == ROOK_ENTRIES + BISHOP_ENTRIES);
    let mut table = [0u64; ROOK_ENTRIES + BISHOP_ENTRIES];
    fill(&mut table, &rook, &ROOK_DIRS);
    fill(&mut table, &bishop, &BISHOP_DIRS);
    table
}

/// Attack sets of both sliders, addressed through [`ROOK`] and [`BISHOP`].
#[allow(long_running_const_eval)]
static TABLE: [u64; ROOK_ENTRIES + BISHOP_ENTRIES] = build_table();

#[inline]
fn lookup(m: &Magic, occ: u64) -> u64 {
    TABLE[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Rook attacks from `sq` with blockers `occ`.
#[inline]
#[must_use]
pub fn rook(sq: Square, occ: u64) -> u64 {
    lookup(&ROOK[sq.index()], occ)
}

/// Bishop attacks from `sq` with blockers `occ`.
#[inline]
#[must_use]
pub fn bishop(sq: Square, occ: u64) -> u64 {
    lookup(&BISHOP[sq.index()], occ)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_are_perfect() {
        for sq in 0..64 {
            let s = Square::new(sq as u8);
            for (m, dirs, f) in [
                (&ROOK[sq], &ROOK_DIRS, rook as fn(Square, u64) -> u64),
                (&BISHOP[sq], &BISHOP_DIRS, bishop),
            ] {
                let mut subset = 0u64;
                loop {
                    assert_eq!(f(s, subset), slide(sq, subset, dirs), "square {s}");
                    // Squares outside the mask never matter.
                    assert_eq!(f(s, subset | !m.mask), slide(sq, subset | !m.mask, dirs));
                    subset = subset.wrapping_sub(m.mask) & m.mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
    }
}
