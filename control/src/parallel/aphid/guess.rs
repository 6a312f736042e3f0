//! Guessed values for uncertain leaves (thesis 5.2.1, table 5.1).
//!
//! When the master's pass reaches a leaf whose result at the required depth is missing or does
//! not decide the leaf for the pass's window, it guesses. It looks at the slave's results from
//! the required depth down to 0 and takes the first that decides the window, after scaling:
//! a result of depth `k` belongs to the full search of `ply + k` plies, whose root value may
//! differ from the current hypothetical root value; the difference is added to the result, so
//! that the leaf affects the tree as it did in that earlier search. The 0-ply result (the
//! static value stored when the leaf was created) is exact, so a guess always exists.
//!
//! The master also seeds a new leaf from the transposition table
//! (`AphidOptions::tt_seeded_guesses`, and again at every pass that finds it uncertain,
//! `tt_reseed_guesses`; both on by default; [`seed_bounds`]): a table entry of depth `k`
//! fills depth `k` where no search has reported it, for guesses only.

use super::table::{Bounds, DepthBounds};
use crate::search::{Bound, TtEntry};

super::stats::counters! {
    /// What the master's guesses drew on (reported as `aphid_guess_<counter>`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct GuessStats, prefix "aphid_guess_" {
        /// New leaves seeded from the transposition table (`AphidOptions::tt_seeded_guesses`).
        pub seeds,
        /// Of those, seeds of depth 1, 2, 3 and 4 or more.
        pub seeds_depth_1,
        /// Seeds of depth 2.
        pub seeds_depth_2,
        /// Seeds of depth 3.
        pub seeds_depth_3,
        /// Seeds of depth 4 or more.
        pub seeds_depth_4_up,
        /// Sum of the seeds' depths.
        pub seed_depth_sum,
        /// Depths found in the table for uncertain leaves by later passes
        /// (`AphidOptions::tt_reseed_guesses`) that no search of the leaf had reported.
        pub reseeds,
        /// Guesses (and fallbacks) taken from a seeded depth the slaves had not reported.
        pub from_seed,
        /// Guesses (and fallbacks) taken from a result of the other parity than the required
        /// depth.
        pub other_parity,
    }
}

/// A transposition-table entry as a result of its own depth, on the leaf's scale (the
/// table's decisive scores count plies from the stored position, as a leaf's do). Used as a
/// guess only: a leaf becomes certain only by a slave's (or the master's own) search at its
/// required depth.
#[must_use]
pub fn seed_bounds(e: &TtEntry) -> Bounds {
    match e.bound {
        Bound::Exact => Bounds::exact(e.value),
        Bound::Lower => Bounds {
            lower: e.value,
            upper: games::score::INFINITY,
        },
        Bound::Upper => Bounds {
            lower: -games::score::INFINITY,
            upper: e.value,
        },
    }
}

/// A guessed value and the depth of the result it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The value the pass uses.
    pub value: i32,
    /// The depth of the slave result it was scaled from.
    pub depth: u32,
}

/// The results a guess looks at, in the order it looks: depths `required` and below, deepest
/// first; with `parity` (`AphidOptions::parity_guesses`, Brockington and Schaeffer's footnote 2)
/// every depth of the required depth's parity (`required`, `required - 2`, ...) before the others.
fn candidates(bounds: &DepthBounds, required: u32, parity: bool) -> Vec<(u32, Bounds)> {
    let mut c: Vec<(u32, Bounds)> = bounds
        .deepest_first()
        .filter(|(k, _)| *k <= required)
        .collect();
    if parity {
        // Stable: each parity stays deepest first.
        c.sort_by_key(|(k, _)| (required - k) % 2);
    }
    c
}

/// The guess for a leaf with results `bounds` (on the root's scale, from the leaf's side to
/// move) at window `(alpha, beta)`, looking at depths `required` and below in the order of
/// [`candidates`] (deepest first; with `parity` the required depth's parity first).
/// `delta(k)` is the amount to add to a depth-`k` result: the hypothetical root value minus
/// the root value of the search of that depth, turned to the leaf's side (0 where unknown, and
/// at `required`). `None` when no searched depth decides the window (then the caller falls
/// back on the first candidate).
#[must_use]
pub fn guess(
    bounds: &DepthBounds,
    required: u32,
    alpha: i32,
    beta: i32,
    delta: impl Fn(u32) -> i32,
    parity: bool,
) -> Option<Guess> {
    candidates(bounds, required, parity)
        .into_iter()
        .find_map(|(k, b)| {
            b.scaled(delta(k))
                .decides(alpha, beta)
                .map(|value| Guess { value, depth: k })
        })
}

/// A value to use when no result decides the window: the first of [`candidates`] (the
/// deepest result at or below `required`, with `parity` of its parity if there is one),
/// scaled, taken at whichever bound is finite (the exact value if known), with the depth it
/// came from.
#[must_use]
pub fn fallback(
    bounds: &DepthBounds,
    required: u32,
    delta: impl Fn(u32) -> i32,
    parity: bool,
) -> Option<Guess> {
    candidates(bounds, required, parity).first().map(|&(k, b)| {
        let s = b.scaled(delta(k));
        let value = if s.lower > -games::score::INFINITY {
            s.lower
        } else {
            s.upper
        };
        Guess { value, depth: k }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::score::INFINITY;

    fn le(v: i32) -> Bounds {
        Bounds {
            lower: -INFINITY,
            upper: v,
        }
    }

    fn ge(v: i32) -> Bounds {
        Bounds {
            lower: v,
            upper: INFINITY,
        }
    }

    /// Table 5.1 of the thesis: results of depths 0 to 5 (depth 6 unknown), the root values of
    /// the searches they belong to, a hypothetical root value of -2 and the window (-10, 8).
    fn table_5_1() -> (DepthBounds, [i32; 6]) {
        let mut d = DepthBounds::default();
        let results = [
            Bounds::exact(20),
            le(-8),
            ge(20),
            Bounds::exact(-6),
            ge(2),
            le(15),
        ];
        for (k, b) in results.into_iter().enumerate() {
            d.record(k as u32, b);
        }
        (d, [3, 5, 7, -1, -3, -7])
    }

    #[test]
    fn the_fallback_is_the_deepest_result_at_a_finite_bound() {
        let (d, _) = table_5_1();
        // Required 6: the 5-ply result (<= 15), at its finite upper bound.
        assert_eq!(
            fallback(&d, 6, |_| 0, false),
            Some(Guess {
                value: 15,
                depth: 5
            })
        );
        // Required 4: the 4-ply result (>= 2), at its lower bound, scaled.
        assert_eq!(
            fallback(&d, 4, |_| 3, false),
            Some(Guess { value: 5, depth: 4 })
        );
        assert_eq!(fallback(&DepthBounds::default(), 4, |_| 0, false), None);
    }

    #[test]
    fn a_table_entry_seeds_its_own_depth_as_bounds() {
        let e = |bound, value| TtEntry {
            value,
            depth: 3,
            bound,
            move_index: None,
        };
        assert_eq!(seed_bounds(&e(Bound::Exact, 7)), Bounds::exact(7));
        assert_eq!(seed_bounds(&e(Bound::Lower, 7)), ge(7));
        assert_eq!(seed_bounds(&e(Bound::Upper, -7)), le(-7));
    }

    #[test]
    fn the_scaled_row_of_table_5_1() {
        let (d, roots) = table_5_1();
        let hyp = -2;
        let scaled: Vec<Bounds> = (0..6)
            .map(|k| d.get(k).expect("searched").scaled(hyp - roots[k as usize]))
            .collect();
        assert_eq!(
            scaled,
            vec![
                Bounds::exact(15),
                le(-15),
                ge(11),
                Bounds::exact(-7),
                ge(3),
                le(20)
            ]
        );
    }

    #[test]
    fn the_worked_example_uses_the_3_ply_result() {
        let (d, roots) = table_5_1();
        let g = guess(&d, 6, -10, 8, |k| -2 - roots[k as usize], false).expect("a guess");
        assert_eq!(
            g,
            Guess {
                value: -7,
                depth: 3
            }
        );
    }

    #[test]
    fn shallower_results_decide_when_deeper_ones_do_not() {
        let (d, roots) = table_5_1();
        // Without the 3-ply result, the 2-ply one (>= 11) decides (-10, 8).
        let mut e = DepthBounds::default();
        for k in [0, 1, 2, 4, 5] {
            e.record(k, d.get(k).expect("searched"));
        }
        let g = guess(&e, 6, -10, 8, |k| -2 - roots[k as usize], false).expect("a guess");
        assert_eq!(
            g,
            Guess {
                value: 11,
                depth: 2
            }
        );
        // Only the 0-ply result: it is exact and always decides.
        let mut z = DepthBounds::default();
        z.record(0, Bounds::exact(20));
        let g = guess(&z, 6, -10, 8, |_| -5, false).expect("a guess");
        assert_eq!(
            g,
            Guess {
                value: 15,
                depth: 0
            }
        );
    }
}
