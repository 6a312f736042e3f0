//! The Elo difference of a match result, with a 95 % confidence interval.
//!
//! With `W` wins, `D` draws and `L` losses in `N` games the score is `p = (W + D/2) / N` and
//! the logistic Elo model gives the difference `-400 log10(1/p - 1)`. The interval treats the
//! per-game scores (1, 1/2, 0) as independent samples: their variance is
//! `s² = (W (1-p)² + D (1/2-p)² + L p²) / N`, the standard error of `p` is `s / √N`, and the
//! interval `p ± 1.96 s/√N` is mapped through the same formula. This is the normal
//! approximation; with few games the interval is wide, as it should be.
//!
//! When that interval has no width (every game had the same result, so `s = 0`: all draws, or
//! one side scored everything and the Elo would be infinite) or reaches a score of 0 or 1, the
//! result is *adjusted*: half a point is added to
//! each side (one drawn game: `p' = (W + D/2 + 1/2) / (N + 1)`), the estimate is the Elo of
//! `p'`, and the interval is the Wilson score interval of `p'` on `N + 1` games,
//! `(p' + z²/2n ± z √(p'(1-p')/n + z²/4n²)) / (1 + z²/n)`, which stays strictly inside (0, 1) for
//! `0 < p' < 1`; so every end is finite. 2-0 gives +279.6 [-139.0, +698.2].

use serde::{Deserialize, Serialize};

/// The 97.5 % quantile of the standard normal distribution (two-sided 95 %).
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of engine A against engine B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games A won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

/// An Elo difference (A minus B) and its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Elo {
    /// The point estimate (infinite when one side scored everything).
    pub diff: f64,
    /// The lower end of the 95 % interval.
    pub low: f64,
    /// The upper end.
    pub high: f64,
    /// Whether half a point was added to each side and the Wilson interval used (the normal
    /// interval had no width or reached a score of 0 or 1).
    pub adjusted: bool,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score as a fraction of the games (`None` before any game).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The Elo difference and its interval (`None` before any game).
    pub fn elo(&self) -> Option<Elo> {
        let p = self.score()?;
        let n = f64::from(self.games());
        let var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        let margin = Z95 * (var / n).sqrt();
        if margin > 0.0 && p - margin > 0.0 && p + margin < 1.0 {
            return Some(Elo {
                diff: elo_of_score(p),
                low: elo_of_score(p - margin),
                high: elo_of_score(p + margin),
                adjusted: false,
            });
        }
        let n = n + 1.0;
        let p = (p * (n - 1.0) + 0.5) / n;
        let z2 = Z95 * Z95;
        let centre = p + z2 / (2.0 * n);
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        let scale = 1.0 + z2 / n;
        Some(Elo {
            diff: elo_of_score(p),
            low: elo_of_score((centre - half) / scale),
            high: elo_of_score((centre + half) / scale),
            adjusted: true,
        })
    }
}

/// The Elo difference at which the logistic model expects the score fraction `p`
/// (±infinity at and beyond 0 and 1).
pub fn elo_of_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        // Written so that an even score gives +0, not -0.
        400.0 * (p / (1.0 - p)).log10()
    }
}

/// How the interval was computed, for the report: the normal approximation, or the
/// adjustment of one-sided scores.
pub fn method(elo: &Elo) -> &'static str {
    if elo.adjusted {
        "95 % Wilson interval with half a point added to each side, as the normal interval had no width or reached a score of 0 or 100 %"
    } else {
        "95 % interval, normal approximation"
    }
}

/// `+147.2 [-33.4, +504.0]`, with `inf` for infinite ends.
pub fn describe(elo: &Elo) -> String {
    let f = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 {
                "+inf".to_string()
            } else {
                "-inf".to_string()
            }
        } else {
            format!("{x:+.1}")
        }
    };
    format!("{} [{}, {}]", f(elo.diff), f(elo.low), f(elo.high))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.01
    }

    #[test]
    fn even_scores_give_zero() {
        let t = Tally {
            wins: 3,
            draws: 4,
            losses: 3,
        };
        let e = t.elo().unwrap();
        assert!(close(e.diff, 0.0));
        assert!(close(e.low, -e.high));
        assert_eq!(describe(&e).split_whitespace().next(), Some("+0.0"));
    }

    #[test]
    fn hand_computed_score_of_three_quarters() {
        // p = 3/4: 1/p - 1 = 1/3, log10(1/3) = -0.477121, times -400: 190.85.
        assert!(close(elo_of_score(0.75), 190.85));
        assert!(close(elo_of_score(0.25), -190.85));
    }

    #[test]
    fn hand_computed_interval() {
        // 6 wins, 2 draws, 2 losses: p = 7/10, Elo = -400 log10(3/7) = 147.19.
        // s² = (6 * 0.09 + 2 * 0.04 + 2 * 0.49) / 10 = 0.16; s/√N = 0.4/√10 = 0.126491;
        // margin 1.959964 * 0.126491 = 0.247918; p from 0.452082 to 0.947918;
        // Elo -400 log10(0.547918/0.452082) = -33.40 and -400 log10(0.052082/0.947918) = 504.03.
        let e = Tally {
            wins: 6,
            draws: 2,
            losses: 2,
        }
        .elo()
        .unwrap();
        assert!(close(e.diff, 147.19), "{e:?}");
        assert!(close(e.low, -33.40), "{e:?}");
        assert!(close(e.high, 504.03), "{e:?}");
        assert_eq!(describe(&e), "+147.2 [-33.4, +504.0]");
    }

    #[test]
    fn one_sided_results_get_half_a_point_each_and_finite_bounds() {
        // 2-0: p' = 2.5/3 = 0.833333, Elo -400 log10(0.2) = 279.59. Wilson on n = 3:
        // z²/n = 1.280486, centre (0.833333 + 0.640243) / 2.280486 = 0.646168,
        // half 1.959964 √(0.046296 + 0.106707) / 2.280486 = 0.336180; the scores 0.309988
        // and 0.982347 give 400 log10(0.309988/0.690012) = -139.00 and +698.18.
        let e = Tally {
            wins: 2,
            draws: 0,
            losses: 0,
        }
        .elo()
        .unwrap();
        assert!(e.adjusted);
        assert!(close(e.diff, 279.59), "{e:?}");
        assert!(e.low.is_finite() && e.high.is_finite(), "{e:?}");
        assert!(close(e.low, -139.00) && close(e.high, 698.18), "{e:?}");
        assert_eq!(describe(&e), "+279.6 [-139.0, +698.2]");
        // The mirror image.
        let m = Tally {
            wins: 0,
            draws: 0,
            losses: 2,
        }
        .elo()
        .unwrap();
        assert!(close(m.diff, -e.diff) && close(m.low, -e.high) && close(m.high, -e.low));
        assert_eq!(Tally::default().elo(), None);
        // One draw among losses: the normal interval reaches 0, so it is adjusted too.
        let e = Tally {
            wins: 0,
            draws: 1,
            losses: 3,
        }
        .elo()
        .unwrap();
        // p' = (0.5 + 0.5) / 5 = 0.2: -400 log10(4) = -240.82.
        assert!(e.adjusted && close(e.diff, -240.82), "{e:?}");
        assert!(e.low.is_finite() && e.high.is_finite());
        assert!(method(&e).contains("Wilson"));
        // All draws: the estimate stays 0, the interval gets a width. Wilson on p' = 0.5,
        // n = 3: half 1.959964 √(0.083333 + 0.106707) / 2.280486 = 0.374666, so the scores
        // 0.125334 and 0.874666 give ∓337.51.
        let e = Tally {
            wins: 0,
            draws: 2,
            losses: 0,
        }
        .elo()
        .unwrap();
        assert!(e.adjusted && close(e.diff, 0.0), "{e:?}");
        assert!(close(e.low, -337.51) && close(e.high, 337.51), "{e:?}");
    }
}
