//! Guessed values for uncertain leaves (thesis 5.2.1, table 5.1).
//!
//! When the master's pass reaches a leaf whose result at the required depth is missing or does
//! not decide the leaf for the pass's window, it guesses. It looks at the slave's results from
//! the required depth down to 0 and takes the first that decides the window, after scaling:
//! a result of depth `k` belongs to the full search of `ply + k` plies, whose root value may
//! differ from the current hypothetical root value; the difference is added to the result, so
//! that the leaf affects the tree as it did in that earlier search. The 0-ply result (the
//! static value stored when the leaf was created) is exact, so a guess always exists.

use super::table::{Bounds, DepthBounds};

/// A guessed value and the depth of the result it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The value the pass uses.
    pub value: i32,
    /// The depth of the slave result it was scaled from.
    pub depth: u32,
}

/// The guess for a leaf with results `bounds` (on the root's scale, from the leaf's side to
/// move) at window `(alpha, beta)`, looking at depths `required` and below. `delta(k)` is the
/// amount to add to a depth-`k` result: the hypothetical root value minus the root value of the
/// search of that depth, turned to the leaf's side (0 where unknown, and at `required`).
/// `None` when no searched depth decides the window (then the caller falls back on the
/// deepest result).
#[must_use]
pub fn guess(
    bounds: &DepthBounds,
    required: u32,
    alpha: i32,
    beta: i32,
    delta: impl Fn(u32) -> i32,
) -> Option<Guess> {
    bounds
        .deepest_first()
        .filter(|(k, _)| *k <= required)
        .find_map(|(k, b)| {
            let scaled: Bounds = b.scaled(delta(k));
            scaled
                .decides(alpha, beta)
                .map(|value| Guess { value, depth: k })
        })
}

/// A value to use when no result decides the window: the deepest result at or above
/// `required`'s level, scaled, taken at whichever bound is finite (the exact value if known).
#[must_use]
pub fn fallback(bounds: &DepthBounds, required: u32, delta: impl Fn(u32) -> i32) -> Option<i32> {
    bounds
        .deepest_first()
        .find(|(k, _)| *k <= required)
        .map(|(k, b)| {
            let s = b.scaled(delta(k));
            if s.lower > -games::score::INFINITY {
                s.lower
            } else {
                s.upper
            }
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
        let g = guess(&d, 6, -10, 8, |k| -2 - roots[k as usize]).expect("a guess");
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
        let g = guess(&e, 6, -10, 8, |k| -2 - roots[k as usize]).expect("a guess");
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
        let g = guess(&z, 6, -10, 8, |_| -5).expect("a guess");
        assert_eq!(
            g,
            Guess {
                value: 15,
                depth: 0
            }
        );
    }
}
