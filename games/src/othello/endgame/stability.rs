//! A lower bound on the discs that can never be flipped again (stable discs), 8x8 board.
//!
//! A disc is stable when, on each of the four lines through it (row, column, two diagonals),
//! it cannot be outflanked: the line is full, or a neighbour along the line is a stable disc
//! of the same colour (or the board edge). Discs on an edge can only be outflanked along that
//! edge, so their stability is exact from a table over the 3^8 edge configurations ([`EDGES`],
//! built once by trying every sequence of placements on the edge). From the edges and the full
//! lines the stable set grows inwards until it stops changing.
//!
//! The solver uses it for the *stability cutoff*: if the opponent owns `s` stable discs, the
//! side to move ends with at most `64 - s` of them, so the score is at most `64 - 2s`.

use std::sync::OnceLock;

/// Board masks: the a- and h-files, the first and last ranks.
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;
/// The squares not on any edge.
const INNER: u64 = !(FILE_A | FILE_H | RANK_1 | RANK_8);

/// The 15 diagonals of each of the two diagonal directions (a1-h8 parallels, then h1-a8).
const fn diagonals() -> [[u64; 15]; 2] {
    let mut out = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = (sq / 8, sq % 8);
        out[0][row + 7 - col] |= 1 << sq;
        out[1][row + col] |= 1 << sq;
        sq += 1;
    }
    out
}

static DIAGONALS: [[u64; 15]; 2] = diagonals();

/// For every pair of edge bytes `(player, opponent)` (index `player * 256 + opponent`), the
/// player's discs that are stable along the edge.
static EDGES: OnceLock<Vec<u8>> = OnceLock::new();

/// The discs of `p` that flip when `p` places a disc on square `x` of an 8-square line held
/// with `o` (0 when none do).
fn line_flips(p: u8, o: u8, x: u32) -> u8 {
    let mut flipped = 0u8;
    // Towards higher bits.
    let mut run = 0u8;
    let mut i = x + 1;
    while i < 8 && o & (1 << i) != 0 {
        run |= 1 << i;
        i += 1;
    }
    if i < 8 && p & (1 << i) != 0 {
        flipped |= run;
    }
    // Towards lower bits.
    run = 0;
    let mut i = x as i32 - 1;
    while i >= 0 && o & (1 << i) != 0 {
        run |= 1 << i;
        i -= 1;
    }
    if i >= 0 && p & (1 << i) != 0 {
        flipped |= run;
    }
    flipped
}

/// Builds [`EDGES`]: a configuration's stable discs are those that keep their colour in every
/// configuration reachable by placing a disc of either colour on an empty square (a move there
/// may be legal through another line, so placements that flip nothing count too).
fn build_edges() -> Vec<u8> {
    // stable[p * 256 + o]: the stable discs of both colours (as one mask).
    let mut stable = vec![0u8; 65536];
    // Fill in order of more occupied squares first, so successors are known.
    let mut configs: Vec<(u8, u8)> = Vec::with_capacity(6561);
    for p in 0..=255u8 {
        for o in 0..=255u8 {
            if p & o == 0 {
                configs.push((p, o));
            }
        }
    }
    configs.sort_by_key(|&(p, o)| std::cmp::Reverse((p | o).count_ones()));
    for (p, o) in configs {
        let empty = !(p | o);
        let mut keep = p | o;
        for x in 0..8 {
            if empty & (1 << x) == 0 {
                continue;
            }
            // `p` plays x.
            let f = line_flips(p, o, x);
            let (np, no) = (p | f | (1 << x), o & !f);
            keep &= stable[usize::from(np) * 256 + usize::from(no)] & !f;
            // `o` plays x.
            let g = line_flips(o, p, x);
            let (np, no) = (p & !g, o | g | (1 << x));
            keep &= stable[usize::from(np) * 256 + usize::from(no)] & !g;
        }
        stable[usize::from(p) * 256 + usize::from(o)] = keep;
    }
    // Keep the player's part only.
    let mut out = vec![0u8; 65536];
    for p in 0..=255u8 {
        for o in 0..=255u8 {
            if p & o == 0 {
                let i = usize::from(p) * 256 + usize::from(o);
                out[i] = stable[i] & p;
            }
        }
    }
    out
}

/// The edge table.
fn edges() -> &'static [u8] {
    EDGES.get_or_init(build_edges)
}

/// Gathers the a-file (bit `row` for square `row * 8`) into a byte.
#[inline]
fn file_a_byte(b: u64) -> u8 {
    ((b & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Spreads a byte (bit `row`) back onto the a-file: the multiplier places bit `i` of the
/// reversed byte on row `7 - i` (copies 9 bits apart never overlap, so no carries).
#[inline]
fn byte_to_file_a(x: u8) -> u64 {
    (u64::from(x.reverse_bits()).wrapping_mul(0x8040_2010_0804_0201) >> 7) & FILE_A
}

/// The stable discs of `p` (against `o`) on the four edges, exactly.
#[inline]
fn edge_stable(table: &[u8], p: u64, o: u64) -> u64 {
    let look = |pe: u8, oe: u8| table[usize::from(pe) * 256 + usize::from(oe)];
    let bottom = u64::from(look(p as u8, o as u8));
    let top = u64::from(look((p >> 56) as u8, (o >> 56) as u8)) << 56;
    let left = byte_to_file_a(look(file_a_byte(p), file_a_byte(o)));
    let right = byte_to_file_a(look(file_a_byte(p >> 7), file_a_byte(o >> 7))) << 7;
    bottom | top | left | right
}

/// The squares whose lines in each of the four directions are full: (rows, columns,
/// a1-h8 diagonals, h1-a8 diagonals).
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut rows = 0u64;
    let mut cols = filled;
    for r in 0..8 {
        let row = RANK_1 << (8 * r);
        if filled & row == row {
            rows |= row;
        }
    }
    // Columns: AND of all rows, spread back.
    cols &= cols >> 32;
    cols &= cols >> 16;
    cols &= cols >> 8;
    let cols = (cols & 0xFF).wrapping_mul(FILE_A);
    let mut diag = [0u64; 2];
    for (d, lines) in DIAGONALS.iter().enumerate() {
        for &line in lines {
            if filled & line == line {
                diag[d] |= line;
            }
        }
    }
    [rows, cols, diag[0], diag[1]]
}

/// A lower bound on the number of stable discs of `p` against `o` (8x8 board).
#[must_use]
pub(crate) fn stable_count(p: u64, o: u64) -> u32 {
    stable_discs(p, o).count_ones()
}

/// A subset of the stable discs of `p` against `o` (8x8 board).
#[must_use]
pub(crate) fn stable_discs(p: u64, o: u64) -> u64 {
    grow(edges(), p, o, full_lines(p | o))
}

/// The numbers of stable discs of `p` and of `o` (as [`stable_count`] of each, sharing the
/// full lines, which depend only on the occupied squares).
#[must_use]
pub(crate) fn stable_counts(p: u64, o: u64) -> (u32, u32) {
    let (table, full) = (edges(), full_lines(p | o));
    (
        grow(table, p, o, full).count_ones(),
        grow(table, o, p, full).count_ones(),
    )
}

/// The stable discs of `p` against `o` from the edges and the `full` lines inwards.
#[inline]
fn grow(table: &[u8], p: u64, o: u64, [rows, cols, d9, d7]: [u64; 4]) -> u64 {
    let mut stable = edge_stable(table, p, o) | (p & INNER & rows & cols & d9 & d7);
    let candidates = p & INNER;
    if candidates & !stable == 0 {
        return stable;
    }
    loop {
        let h = rows | (stable << 1) | (stable >> 1);
        let v = cols | (stable << 8) | (stable >> 8);
        let a = d9 | (stable << 9) | (stable >> 9);
        let b = d7 | (stable << 7) | (stable >> 7);
        // Inner squares only: their neighbours never wrap around a file edge.
        let grown = stable | (candidates & h & v & a & b);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_byte_round_trip() {
        for x in 0..=255u8 {
            assert_eq!(file_a_byte(byte_to_file_a(x)), x);
            assert_eq!(byte_to_file_a(x) & !FILE_A, 0);
        }
    }

    #[test]
    fn both_counts_equal_the_single_counts() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            super::super::xorshift(&mut x);
            let filled = x | x.rotate_left(23) | x.rotate_left(41);
            let p = filled & x.rotate_left(7);
            let o = filled & !p;
            assert_eq!(
                stable_counts(p, o),
                (stable_count(p, o), stable_count(o, p))
            );
        }
    }

    #[test]
    fn edge_table_basics() {
        let t = edges();
        // A full edge is stable.
        assert_eq!(t[0b1010_1010 * 256 + 0b0101_0101], 0b1010_1010);
        // A corner is stable; a lone disc next to it on an otherwise empty edge is not.
        assert_eq!(t[0b0000_0011 * 256], 0b0000_0011);
        assert_eq!(t[0b0000_0010 * 256], 0);
        // Player a1-b1, opponent c1: a1 b1 stable (the corner anchors them).
        assert_eq!(t[0b0000_0011 * 256 + 0b0000_0100], 0b0000_0011);
    }
}
