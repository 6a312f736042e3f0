//! The number of discs a move on the last empty square of a full 8x8 board flips, without
//! computing the flips: every other square is occupied, so the line of the last square in each
//! of the four directions is determined by the mover's discs alone (the rest are the
//! opponent's). Each line is gathered into a byte indexed by column (rows and diagonals) or
//! row (columns), and one table of `8 x 256` counts gives the flips along it.
//!
//! Diagonals shorter than eight squares read their missing squares as "not the mover's": a
//! run reaching them is never closed by a mover's disc, so it counts nothing, as it should.

/// `COUNT[x][line]`: the discs flipped on a full line of eight squares when the mover, owning
/// the squares of `line`, plays on square `x` (the other squares being the opponent's).
static COUNT: [[u8; 256]; 8] = count_table();

const fn count_table() -> [[u8; 256]; 8] {
    let mut out = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Towards higher squares.
            let mut i = x + 1;
            while i < 8 && line & (1 << i) == 0 {
                i += 1;
            }
            if i < 8 {
                total += i - x - 1;
            }
            // Towards lower squares.
            let mut i = x as i32 - 1;
            while i >= 0 && line & (1 << i) == 0 {
                i -= 1;
            }
            if i >= 0 {
                total += x - i as usize - 1;
            }
            out[x][line] = total as u8;
            line += 1;
        }
        x += 1;
    }
    out
}

/// For each square, the masks of its a1-h8 and h1-a8 diagonals.
static DIAGONALS: [[u64; 2]; 64] = diagonal_masks();

const fn diagonal_masks() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (r, c) = (other / 8, other % 8);
            if r - c == row - col {
                out[sq][0] |= 1 << other;
            }
            if r + c == row + col {
                out[sq][1] |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    out
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The number of discs flipped when the owner of `p` plays on `sq`, the one empty square of
/// an otherwise full 8x8 board (0 when the move is illegal).
#[inline(always)]
pub(crate) fn count_last_flips(p: u64, sq: usize) -> u32 {
    let (row, col) = (sq >> 3, sq & 7);
    let rank = (p >> (row * 8)) as u8;
    let file = ((((p >> col) & FILE_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u8;
    let [d9, d7] = DIAGONALS[sq];
    let diag9 = ((p & d9).wrapping_mul(FILE_A) >> 56) as u8;
    let diag7 = ((p & d7).wrapping_mul(FILE_A) >> 56) as u8;
    u32::from(COUNT[col][usize::from(rank)])
        + u32::from(COUNT[row][usize::from(file)])
        + u32::from(COUNT[col][usize::from(diag9)])
        + u32::from(COUNT[col][usize::from(diag7)])
}

#[cfg(test)]
mod tests {
    use super::super::super::bitboard::flips;
    use super::*;

    #[test]
    fn counts_equal_the_flips_on_random_full_boards() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            super::super::xorshift(&mut x);
            let sq = (x >> 58) as usize;
            let p = x.rotate_left(17) & !(1 << sq);
            let o = !p & !(1 << sq);
            assert_eq!(
                count_last_flips(p, sq),
                flips::<8>(p, o, sq).count_ones(),
                "{p:#x} {sq}"
            );
            assert_eq!(
                count_last_flips(o, sq),
                flips::<8>(o, p, sq).count_ones(),
                "{o:#x} {sq}"
            );
        }
    }
}
