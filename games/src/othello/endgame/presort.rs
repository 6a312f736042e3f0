//! Move ordering near the root of an endgame solve: a shallow alpha-beta search with a small
//! fitted evaluation estimates each child, and the solver tries the children it rates best
//! first. The estimates only order moves; the solve itself stays exact.

use super::super::bitboard::valid_mask;
use super::super::bitboard::{Geometry, flips, moves};
use super::super::eval::{neighbours, square_weights};
use super::pattern;
use super::stability;

/// How many features [`features`] computes.
pub(crate) const FEATURES: usize = 12;

/// The evaluation's weights, in sixteenths of a disc per unit of each feature of
/// [`features`]: least squares on the exact scores of the 3,000 positions of
/// `testsets/search/othello_presort_fit.txt` (12-16 empties), by the example
/// `othello_presort_fit` (`training::fit_presort`).
const WEIGHTS: [i32; FEATURES] = [18, 27, 103, -13, 100, 2, -16, 18, -1, 16, -2, 17];

/// The evaluation's features of `(p, o)`, each "side to move minus opponent" where that
/// applies: 0 a constant 1; 1 mobility (legal moves); 2 corner moves; 3 potential mobility
/// (empty squares next to an opponent disc); 4 corners held; 5 X-squares next to an empty
/// corner; 6 C-squares next to an empty corner; 7 stable discs (8x8 only); 8 discs; 9 parity
/// (+1 when the number of empties is odd, -1 when even); 10 the static square weights of the
/// discs (`../eval.rs`, divided by 8); 11 frontier discs (next to an empty square), counted
/// opponent minus side to move.
#[inline]
pub(crate) fn features<const N: usize>(p: u64, o: u64) -> [i32; FEATURES] {
    let empty = Geometry::<N>::VALID & !(p | o);
    let count = |x: u64| x.count_ones() as i32;
    let (mp, mo) = (moves::<N>(p, o), moves::<N>(o, p));
    let corners = corner_squares::<N>();
    let (mut x_diff, mut c_diff) = (0, 0);
    for i in 0..4 {
        if empty & (1 << CORNERS[N / 8][i]) != 0 {
            let x = 1u64 << X_SQUARES[N / 8][i];
            let c = C_SQUARES[N / 8][i];
            x_diff += count(p & x) - count(o & x);
            c_diff += count(p & c) - count(o & c);
        }
    }
    let stable = if N == 8 {
        let (sp, so) = stability::stable_counts(p, o);
        sp as i32 - so as i32
    } else {
        0
    };
    [
        1,
        count(mp) - count(mo),
        count(mp & corners) - count(mo & corners),
        count(neighbours::<N>(o) & empty) - count(neighbours::<N>(p) & empty),
        count(p & corners) - count(o & corners),
        x_diff,
        c_diff,
        stable,
        count(p) - count(o),
        if count(empty) & 1 == 1 { 1 } else { -1 },
        square_sum::<N>(p) - square_sum::<N>(o),
        count(neighbours::<N>(empty) & o) - count(neighbours::<N>(empty) & p),
    ]
}

/// Square indices of the corners (`[6x6, 8x8]`).
const CORNERS: [[u32; 4]; 2] = [[0, 5, 40, 45], [0, 7, 56, 63]];
/// The X-square of each corner.
const X_SQUARES: [[u32; 4]; 2] = [[9, 12, 33, 36], [9, 14, 49, 54]];
/// The two C-squares of each corner.
const C_SQUARES: [[u64; 4]; 2] = [
    [
        1 << 1 | 1 << 8,
        1 << 4 | 1 << 13,
        1 << 32 | 1 << 41,
        1 << 44 | 1 << 37,
    ],
    [
        1 << 1 | 1 << 8,
        1 << 6 | 1 << 15,
        1 << 48 | 1 << 57,
        1 << 62 | 1 << 55,
    ],
];

/// The distinct static square weights of `../eval.rs` and, for each, its squares on an
/// `n` x `n` board.
const fn weight_classes(n: usize) -> [(i32, u64); 6] {
    let weights = square_weights(n);
    let mut out = [(100, 0u64), (-50, 0), (-20, 0), (10, 0), (-5, 0), (2, 0)];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 6 {
            if weights[sq] == out[k].0 && valid_mask(n) & (1 << sq) != 0 {
                out[k].1 |= 1 << sq;
            }
            k += 1;
        }
        sq += 1;
    }
    out
}

static WEIGHT_CLASSES: [[(i32, u64); 6]; 2] = [weight_classes(6), weight_classes(8)];

/// The sum of the static square weights (`../eval.rs`, corners 100 ... X-squares -50) of
/// the discs `x`, divided by 8 (one population count per distinct weight).
#[inline]
fn square_sum<const N: usize>(x: u64) -> i32 {
    let sum: i32 = WEIGHT_CLASSES[N / 8]
        .iter()
        .map(|&(w, mask)| w * (x & mask).count_ones() as i32)
        .sum();
    sum / 8
}

#[cfg(test)]
#[test]
fn square_sum_equals_the_sum_over_discs() {
    use super::super::eval::square_weight;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..1000 {
        super::xorshift(&mut x);
        for (n, discs) in [(8, x), (6, x & valid_mask(6))] {
            let mut rest = discs;
            let mut sum = 0;
            while rest != 0 {
                sum += if n == 8 {
                    square_weight::<8>(rest.trailing_zeros() as usize)
                } else {
                    square_weight::<6>(rest.trailing_zeros() as usize)
                };
                rest &= rest - 1;
            }
            let fast = if n == 8 {
                square_sum::<8>(discs)
            } else {
                square_sum::<6>(discs)
            };
            assert_eq!(fast, sum / 8);
        }
    }
}

#[inline]
fn corner_squares<const N: usize>() -> u64 {
    CORNERS[N / 8].iter().fold(0, |m, &s| m | 1 << s)
}

/// The fitted evaluation of `(p, o)` for the side to move, in sixteenths of a disc: on 8x8
/// the pattern evaluation of `pattern.rs`, on 6x6 the linear one of [`WEIGHTS`].
#[inline]
pub(crate) fn evaluate<const N: usize>(p: u64, o: u64) -> i32 {
    let x = features::<N>(p, o);
    if N == 8 {
        return pattern::evaluate_blob(pattern::WEIGHTS, p, o, &x) / 4;
    }
    linear_evaluate(&x)
}

/// The linear evaluation of the features `x` with [`WEIGHTS`], in sixteenths of a disc.
#[inline]
pub(crate) fn linear_evaluate(x: &[i32; FEATURES]) -> i32 {
    x.iter().zip(WEIGHTS).map(|(f, w)| f * w).sum()
}

/// From this depth on, [`shallow`] orders its moves by the opponent's replies.
const ORDER_FROM: u32 = 2;

/// The estimated value of `(p, o)` for the side to move (`p`), in sixteenths of a disc, from
/// a fail-soft alpha-beta search of `depth` plies with [`evaluate`] at its leaves (a pass
/// costs no ply; a finished game scores its disc difference). `nodes` counts the positions
/// visited.
pub(crate) fn shallow<const N: usize>(
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return evaluate::<N>(p, o);
    }
    let mut list = moves::<N>(p, o);
    if list == 0 {
        if moves::<N>(o, p) == 0 {
            return 16 * (p.count_ones() as i32 - o.count_ones() as i32);
        }
        return -shallow::<N>(o, p, depth, -beta, -alpha, nodes);
    }
    let (mut best, mut a) = (i32::MIN + 1, alpha);
    if depth >= ORDER_FROM {
        // Children ordered by the opponent's replies (fewest first), for earlier cutoffs:
        // the value of the search does not depend on the order, only its cost.
        let mut children = [(0u32, 0u64, 0u64); 64];
        let mut len = 0;
        while list != 0 {
            let sq = list.trailing_zeros() as usize;
            list &= list - 1;
            let f = flips::<N>(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            children[len] = (moves::<N>(np, no).count_ones(), np, no);
            len += 1;
        }
        children[..len].sort_unstable_by_key(|c| c.0);
        for &(_, np, no) in &children[..len] {
            let v = -shallow::<N>(np, no, depth - 1, -beta, -a, nodes);
            if improve(v, (&mut best, &mut a), beta) {
                break;
            }
        }
        return best;
    }
    while list != 0 {
        let sq = list.trailing_zeros() as usize;
        list &= list - 1;
        let f = flips::<N>(p, o, sq);
        let v = -shallow::<N>(o ^ f, p ^ f ^ (1 << sq), depth - 1, -beta, -a, nodes);
        if improve(v, (&mut best, &mut a), beta) {
            break;
        }
    }
    best
}

/// Fail-soft bookkeeping of one child's value `v`: raises the best value and alpha; true
/// when `v` reaches beta (a cutoff).
#[inline(always)]
fn improve(v: i32, (best, alpha): (&mut i32, &mut i32), beta: i32) -> bool {
    *best = (*best).max(v);
    *alpha = (*alpha).max(v);
    v >= beta
}

/// Plain negamax of `depth` plies with [`evaluate`] at the leaves, through the game's own
/// move making (the test oracle of [`shallow`]).
#[cfg(test)]
fn negamax<const N: usize>(pos: &super::super::Othello<N>, depth: u32) -> i32 {
    use super::super::Move;
    let (p, o) = pos.bitboards();
    if depth == 0 {
        evaluate::<N>(p, o)
    } else if pos.is_over() {
        16 * (p.count_ones() as i32 - o.count_ones() as i32)
    } else if pos.legal_squares() == 0 {
        -negamax(&pos.played(Move::PASS), depth)
    } else {
        (0..64)
            .filter(|&sq| pos.legal_squares() >> sq & 1 != 0)
            .map(|sq| -negamax(&pos.played(Move::square(sq)), depth - 1))
            .max()
            .unwrap_or(i32::MIN + 1)
    }
}

/// Positions of random games (both sizes) and the negamax value at depths 0 to 3: the
/// ordered alpha-beta of [`shallow`] (full window) returns it.
#[cfg(test)]
fn check_shallow<const N: usize>(seed: u64) -> usize {
    use super::super::{Move, Othello};
    use crate::Game;
    let mut x = seed;
    let mut checked = 0;
    for _ in 0..8 {
        let mut pos = Othello::<N>::start();
        while !pos.is_over() {
            let (p, o) = pos.bitboards();
            for depth in 0..=3 {
                let mut nodes = 0;
                let v = shallow::<N>(p, o, depth, -i32::MAX, i32::MAX, &mut nodes);
                assert_eq!(v, negamax(&pos, depth), "{pos} depth {depth}");
                checked += 1;
            }
            let legal = pos.legal_squares();
            pos = if legal == 0 {
                pos.played(Move::PASS)
            } else {
                let k = super::xorshift(&mut x) % u64::from(legal.count_ones());
                let mut rest = legal;
                for _ in 0..k {
                    rest &= rest - 1;
                }
                pos.played(Move::square(rest.trailing_zeros() as usize))
            };
        }
    }
    checked
}

#[cfg(test)]
#[test]
fn shallow_equals_negamax_whatever_the_order() {
    assert!(check_shallow::<8>(0x2545_F491_4F6C_DD1D) > 1000);
    assert!(check_shallow::<6>(0x9E37_79B9_7F4A_7C15) > 500);
}
