//! The never-splitting control of a wall-clock measurement, and the verdicts of intervals.
//!
//! `alphabeta` never splits: on N processors one of them searches and the others only ask for
//! work and are refused, so its speedup over its own one-processor run must read 1.00. Every
//! real-thread speedup rests on timing a one-processor and an N-processor run the same way;
//! this row checks that way. `runner validate-sim` and `runner compare --backend threads` both
//! measure it and say, beside every table, whether the run can be trusted: a control whose
//! interval lies within [`CONTROL_TOLERANCE`] of 1.00 says yes, one wholly outside says no,
//! and one whose interval is too wide to tell says undecided.

use serde::Serialize;

/// How far the never-splitting control may read from 1.00 (relative) in a run to be trusted.
pub const CONTROL_TOLERANCE: f64 = 0.03;

/// What an interval says about a band of acceptable values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every value of the interval lies in the band.
    Within,
    /// No value of the interval lies in the band.
    Outside,
    /// The interval reaches both into the band and out of it (or there is none): more runs
    /// are needed to judge.
    Undecided,
}

impl Verdict {
    /// The word the tables print.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Within => "within",
            Verdict::Outside => "outside",
            Verdict::Undecided => "undecided",
        }
    }
}

/// Judges `interval` (`None`: too few samples for one) against the band `[lo, hi]`.
#[must_use]
pub fn judge(interval: Option<(f64, f64)>, band: (f64, f64)) -> Verdict {
    let Some((lo, hi)) = interval else {
        return Verdict::Undecided;
    };
    if lo >= band.0 && hi <= band.1 {
        Verdict::Within
    } else if hi < band.0 || lo > band.1 {
        Verdict::Outside
    } else {
        Verdict::Undecided
    }
}

/// The band of the control: 1.00 within [`CONTROL_TOLERANCE`].
#[must_use]
pub fn control_band() -> (f64, f64) {
    (1.0 - CONTROL_TOLERANCE, 1.0 + CONTROL_TOLERANCE)
}

/// The measured speedups `m` for which `predicted` is within `tolerance` of `m`, the error
/// being `(predicted - m) / m`: `[predicted / (1 + tolerance), predicted / (1 - tolerance)]`.
#[must_use]
pub fn model_band(predicted: f64, tolerance: f64) -> (f64, f64) {
    (
        predicted / (1.0 + tolerance),
        predicted / (1.0 - tolerance).max(f64::MIN_POSITIVE),
    )
}

/// Whether a run's measurements can be trusted, from its controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trust {
    /// Every control lies within [`CONTROL_TOLERANCE`] of 1.00.
    Trusted,
    /// Some control lies outside it: the run's speedups are not to be trusted.
    NotTrusted,
    /// No control is outside, but some interval is too wide to tell (or there is no control).
    Undecided,
}

impl Trust {
    /// From the controls' verdicts: one outside decides, else all within, else undecided.
    #[must_use]
    pub fn of(verdicts: impl IntoIterator<Item = Verdict>) -> Trust {
        let mut seen = false;
        let mut all_within = true;
        for v in verdicts {
            seen = true;
            match v {
                Verdict::Outside => return Trust::NotTrusted,
                Verdict::Undecided => all_within = false,
                Verdict::Within => {}
            }
        }
        if seen && all_within {
            Trust::Trusted
        } else {
            Trust::Undecided
        }
    }

    /// The sentence the reports print.
    #[must_use]
    pub fn sentence(self) -> String {
        let pct = 100.0 * CONTROL_TOLERANCE;
        match self {
            Trust::Trusted => {
                format!("trusted: every never-splitting control is within {pct:.0} % of 1.00")
            }
            Trust::NotTrusted => format!(
                "NOT TO BE TRUSTED: a never-splitting control is outside {pct:.0} % of 1.00, so the one-processor and the N-processor runs did not meet the same machine (a busy machine, or a timing that treats them differently)"
            ),
            Trust::Undecided => format!(
                "undecided: a never-splitting control's interval is too wide to tell whether it is within {pct:.0} % of 1.00 (more repeats, longer runs or a quieter machine)"
            ),
        }
    }
}

/// One control measurement: the never-splitting algorithm on `procs` processors against one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Control {
    /// What it was measured on (a game, or a test set).
    pub on: String,
    /// Processors.
    pub procs: usize,
    /// The measured speedup (1.00 expected).
    pub speedup: f64,
    /// Its 95 % interval (`None`: too few samples).
    pub lo: Option<f64>,
    /// The upper end.
    pub hi: Option<f64>,
    /// The interval against 1.00 within [`CONTROL_TOLERANCE`].
    pub verdict: Verdict,
}

impl Control {
    /// A control from its speedup and interval, judged.
    #[must_use]
    pub fn new(on: impl Into<String>, procs: usize, speedup: f64, ci: Option<(f64, f64)>) -> Self {
        Control {
            on: on.into(),
            procs,
            speedup,
            lo: ci.map(|c| c.0),
            hi: ci.map(|c| c.1),
            verdict: judge(ci, control_band()),
        }
    }

    /// One line: `control alphabeta x2 on othello: 1.01 [0.99, 1.03]: within 3 % of 1.00`.
    #[must_use]
    pub fn line(&self) -> String {
        let ci = match (self.lo, self.hi) {
            (Some(lo), Some(hi)) => format!("[{lo:.3}, {hi:.3}]"),
            _ => "[no interval]".into(),
        };
        let what = match self.verdict {
            Verdict::Within => "within",
            Verdict::Outside => "OUTSIDE",
            Verdict::Undecided => "undecided whether within",
        };
        format!(
            "control alphabeta x{} on {}: {:.3} {ci}: {what} {:.0} % of 1.00",
            self.procs,
            self.on,
            self.speedup,
            100.0 * CONTROL_TOLERANCE
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_is_within_outside_or_undecided_against_a_band() {
        let band = (0.97, 1.03);
        assert_eq!(judge(Some((0.98, 1.02)), band), Verdict::Within);
        assert_eq!(judge(Some((0.97, 1.03)), band), Verdict::Within);
        assert_eq!(judge(Some((1.04, 1.10)), band), Verdict::Outside);
        assert_eq!(judge(Some((0.80, 0.96)), band), Verdict::Outside);
        assert_eq!(judge(Some((0.95, 1.01)), band), Verdict::Undecided);
        assert_eq!(judge(Some((0.90, 1.10)), band), Verdict::Undecided);
        assert_eq!(judge(None, band), Verdict::Undecided);
    }

    #[test]
    fn the_model_band_is_the_measured_speedups_a_prediction_is_within_ten_percent_of() {
        let (lo, hi) = model_band(1.5, 0.10);
        // At m = lo the prediction is 10 % above, at m = hi 10 % below.
        assert!(((1.5 - lo) / lo - 0.10).abs() < 1e-12);
        assert!(((1.5 - hi) / hi + 0.10).abs() < 1e-12);
        assert_eq!(control_band(), (0.97, 1.03));
    }

    #[test]
    fn one_control_outside_means_not_to_be_trusted() {
        use Verdict::{Outside, Undecided, Within};
        assert_eq!(Trust::of([Within, Within]), Trust::Trusted);
        assert_eq!(Trust::of([Within, Undecided]), Trust::Undecided);
        assert_eq!(Trust::of([Undecided, Outside]), Trust::NotTrusted);
        assert_eq!(Trust::of([]), Trust::Undecided);
        let c = Control::new("othello", 2, 1.15, Some((1.10, 1.20)));
        assert_eq!(c.verdict, Outside);
        assert!(c.line().contains("OUTSIDE 3 % of 1.00"), "{}", c.line());
        let json = serde_json::to_value(Trust::NotTrusted).expect("json");
        assert_eq!(json, "not_trusted");
    }
}
