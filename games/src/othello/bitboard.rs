//! Bitboard geometry and the two hot routines: legal-move generation and flip computation.
//!
//! Square `(row, col)` (row 0 is rank 1, col 0 is file a) is bit `row * 8 + col` of a `u64`
//! for both board sizes. The 6x6 board uses the lower-left 6x6 corner of that grid; its unused
//! bits (files g and h, ranks 7 and 8) are never occupied, so runs of discs cannot leave the
//! board through them.
//!
//! - [`moves`] finds the legal moves of all eight directions in parallel (Kogge-Stone style
//!   fills: one shift, then doubling steps over the opponent's discs, covering runs of up to six
//!   discs).
//! - [`flips`] finds the discs one move turns with a precomputed ray per square and direction:
//!   the first square along the ray that is not an opponent disc is isolated with one bit trick
//!   (lowest set bit for rays towards higher bits, highest set bit for rays towards lower
//!   bits), and if it holds a player disc the ray squares before it flip.

/// The eight directions as `(row step, column step)`; the first four point to higher bits.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Bits of the squares of an `n` x `n` board.
#[must_use]
pub const fn valid_mask(n: usize) -> u64 {
    let mut mask = 0u64;
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            mask |= 1 << (row * 8 + col);
            col += 1;
        }
        row += 1;
    }
    mask
}

/// Squares of the board minus its first and last files (where horizontal runs may continue).
const fn inner_columns(n: usize) -> u64 {
    let mut mask = 0u64;
    let mut row = 0;
    while row < n {
        let mut col = 1;
        while col + 1 < n {
            mask |= 1 << (row * 8 + col);
            col += 1;
        }
        row += 1;
    }
    mask
}

/// For each square and direction, the squares from the next one to the board edge.
const fn rays(n: usize) -> [[u64; 8]; 64] {
    let mut out = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
        if row < n as i32 && col < n as i32 {
            let mut d = 0;
            while d < 8 {
                let (dr, dc) = DIRECTIONS[d];
                let (mut r, mut c) = (row + dr, col + dc);
                let mut ray = 0u64;
                while r >= 0 && c >= 0 && r < n as i32 && c < n as i32 {
                    ray |= 1 << (r * 8 + c);
                    r += dr;
                    c += dc;
                }
                out[sq][d] = ray;
                d += 1;
            }
        }
        sq += 1;
    }
    out
}

static RAYS_8: [[u64; 8]; 64] = rays(8);
static RAYS_6: [[u64; 8]; 64] = rays(6);
const INNER_8: u64 = inner_columns(8);
const INNER_6: u64 = inner_columns(6);

/// The geometry of an `N` x `N` board (`N` is 6 or 8).
pub(crate) struct Geometry<const N: usize>;

impl<const N: usize> Geometry<N> {
    /// Bits of the board's squares.
    pub(crate) const VALID: u64 = {
        assert!(N == 6 || N == 8, "Othello boards are 6x6 or 8x8");
        valid_mask(N)
    };
    /// Squares not on the first or last file.
    const INNER: u64 = if N == 8 { INNER_8 } else { INNER_6 };

    #[inline(always)]
    fn rays() -> &'static [[u64; 8]; 64] {
        if N == 8 { &RAYS_8 } else { &RAYS_6 }
    }
}

/// Legal moves of left-shift direction `s` (runs over `m`, a subset of the opponent's discs).
#[inline(always)]
fn moves_up(p: u64, m: u64, s: u32) -> u64 {
    let mut f = m & (p << s);
    f |= m & (f << s);
    let pre = m & (m << s);
    f |= pre & (f << (2 * s));
    f |= pre & (f << (2 * s));
    f << s
}

/// Legal moves of right-shift direction `s`.
#[inline(always)]
fn moves_down(p: u64, m: u64, s: u32) -> u64 {
    let mut f = m & (p >> s);
    f |= m & (f >> s);
    let pre = m & (m >> s);
    f |= pre & (f >> (2 * s));
    f |= pre & (f >> (2 * s));
    f >> s
}

/// The squares where the player owning `p` may play against the opponent owning `o`.
#[inline]
#[must_use]
pub(crate) fn moves<const N: usize>(p: u64, o: u64) -> u64 {
    let h = o & Geometry::<N>::INNER;
    let found = moves_up(p, h, 1)
        | moves_down(p, h, 1)
        | moves_up(p, o, 8)
        | moves_down(p, o, 8)
        | moves_up(p, h, 7)
        | moves_down(p, h, 7)
        | moves_up(p, h, 9)
        | moves_down(p, h, 9);
    found & Geometry::<N>::VALID & !(p | o)
}

/// The opponent discs that turn when the owner of `p` plays on empty square `sq`
/// (0 when the move is illegal). Always inlined: the endgame solver spends a third of its time
/// here, and the call itself was measurable.
#[inline(always)]
#[must_use]
pub(crate) fn flips<const N: usize>(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &Geometry::<N>::rays()[sq];
    let mut flipped = 0u64;
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let blockers = ray & !o;
        let first = blockers & blockers.wrapping_neg();
        let ok = 0u64.wrapping_sub(u64::from(first & p != 0));
        flipped |= ray & first.wrapping_sub(1) & ok;
        d += 1;
    }
    while d < 8 {
        let ray = rays[d];
        let blockers = ray & !o;
        // Highest set bit (bit 63 when there is none: never on a ray towards lower bits, and
        // then the mask below is empty).
        let first = (1u64 << 63).wrapping_shr(blockers.leading_zeros());
        let ok = 0u64.wrapping_sub(u64::from(first & p != 0));
        flipped |= ray & !first.wrapping_mul(2).wrapping_sub(1) & ok;
        d += 1;
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_rays() {
        assert_eq!(valid_mask(8), u64::MAX);
        assert_eq!(valid_mask(6).count_ones(), 36);
        // a1 towards h8 on 8x8: b2..h8.
        assert_eq!(RAYS_8[0][3].count_ones(), 7);
        // a1 towards f6 on 6x6: b2..f6.
        assert_eq!(RAYS_6[0][3].count_ones(), 5);
        assert_eq!(RAYS_6[0][4], 0);
    }

    #[test]
    fn start_moves() {
        // 8x8: black (e4, d5) against white (d4, e5): d3, c4, f5, e6.
        let bit = |s: &str| {
            let b = s.as_bytes();
            1u64 << ((b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize)
        };
        let black = bit("e4") | bit("d5");
        let white = bit("d4") | bit("e5");
        let m = moves::<8>(black, white);
        assert_eq!(m, bit("d3") | bit("c4") | bit("f5") | bit("e6"));
        assert_eq!(flips::<8>(black, white, 19), bit("d4"));
        // 6x6: black (d3, c4) against white (c3, d4).
        let black = bit("d3") | bit("c4");
        let white = bit("c3") | bit("d4");
        let m = moves::<6>(black, white);
        assert_eq!(m, bit("c2") | bit("b3") | bit("e4") | bit("d5"));
        assert_eq!(flips::<6>(black, white, 10), bit("c3"));
    }
}
