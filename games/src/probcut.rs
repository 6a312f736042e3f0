//! ProbCut's statistical model of a game's search values (Buro, "ProbCut: an effective
//! selective extension of the alpha-beta algorithm", ICCA Journal 18(2), 1995).
//!
//! Before a node of `height` plies left is searched, a `shallow`-ply search predicts its value
//! through the linear model `deep = slope * shallow + offset + e`, the error `e` normal with
//! standard deviation `sigma`. When the shallow value says that the deep value lies outside
//! the window with a probability beyond the threshold, the node returns the window bound
//! without the deep search. The model is a fact about a game's evaluation function and search,
//! measured off-line by regression of deep on shallow values over positions of the game; each
//! game that has one states the command that measured it.

/// A game's ProbCut model: the check height, the shallow depth, the regression and the cut
/// threshold (in standard deviations).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    /// Plies left at the nodes that are checked.
    pub height: u32,
    /// Depth of the predicting search (less than `height`).
    pub shallow: u32,
    /// Slope `a` of `deep = a * shallow + b`.
    pub slope: f64,
    /// Offset `b`, in evaluation units.
    pub offset: f64,
    /// Standard deviation of the regression's residuals, in evaluation units.
    pub sigma: f64,
    /// How many standard deviations the prediction must clear (Buro's `t`).
    pub threshold: f64,
}

impl ProbCut {
    /// The shallow value at or above which the deep value is taken to reach `beta`.
    #[must_use]
    pub fn high_bound(&self, beta: i32) -> i32 {
        ((f64::from(beta) + self.threshold * self.sigma - self.offset) / self.slope).ceil() as i32
    }

    /// The shallow value at or below which the deep value is taken to stay at or below `alpha`.
    #[must_use]
    pub fn low_bound(&self, alpha: i32) -> i32 {
        ((f64::from(alpha) - self.threshold * self.sigma - self.offset) / self.slope).floor() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_widen_the_window_by_the_threshold_in_deviations() {
        let m = ProbCut {
            height: 8,
            shallow: 4,
            slope: 1.0,
            offset: 0.0,
            sigma: 10.0,
            threshold: 1.5,
        };
        assert_eq!(m.high_bound(100), 115);
        assert_eq!(m.low_bound(-100), -115);
        let skewed = ProbCut {
            slope: 0.5,
            offset: 20.0,
            ..m
        };
        // deep = 0.5 * shallow + 20: reaching 100 + 15 needs shallow >= 190.
        assert_eq!(skewed.high_bound(100), 190);
        assert_eq!(skewed.low_bound(-100), -270);
    }
}
