//! The fault plan: which faults the simulator injects, all drawn from the run's seed.
//!
//! Written on the command line as a comma-separated list, for example
//! `crash=3@1000,drop=1/100,dup=1/200,delay=1/50,corrupt=1/100`:
//!
//! - `crash=P@T` crashes processor `P` at virtual time `T` (microseconds; suffixes `us`, `ms`,
//!   `s` allowed); `crash=P@T+R` restarts it from nothing `R` later. Repeatable.
//! - `drop=A/B`, `dup=A/B`, `delay=A/B`, `corrupt=A/B`: the chance that a message is lost,
//!   delivered twice, held back by an extra random delay, or has one bit flipped (which the
//!   receiver's checksum detects, so it is then lost).
//! - `none` (or nothing): no faults.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::context::{Nanos, ProcId};
use crate::rng::{Ratio, RatioError};

/// A processor crash (and optional restart from the factory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Crash {
    /// The processor that crashes (never 0, which holds the root).
    pub proc: ProcId,
    /// When, in virtual nanoseconds.
    pub at_ns: Nanos,
    /// If set, the processor comes back empty this long after the crash.
    pub restart_after_ns: Option<Nanos>,
}

/// The faults of a simulated run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FaultPlan {
    /// Processor crashes.
    pub crashes: Vec<Crash>,
    /// Chance that a message is lost.
    pub drop: Ratio,
    /// Chance that a message is delivered twice.
    pub duplicate: Ratio,
    /// Chance that a message is delayed by an extra random time.
    pub delay: Ratio,
    /// Chance that a message is corrupted on the link (detected, then lost).
    pub corrupt: Ratio,
}

impl Default for FaultPlan {
    fn default() -> Self {
        FaultPlan {
            crashes: Vec::new(),
            drop: Ratio::NEVER,
            duplicate: Ratio::NEVER,
            delay: Ratio::NEVER,
            corrupt: Ratio::NEVER,
        }
    }
}

impl FaultPlan {
    /// Whether the plan injects nothing.
    #[must_use]
    pub fn is_none(&self) -> bool {
        *self == FaultPlan::default()
    }

    /// Whether work can be lost: a crash, or a message dropped or corrupted (DIB then needs
    /// its redo of work given away).
    #[must_use]
    pub fn loses_work(&self) -> bool {
        !self.crashes.is_empty() || !self.drop.is_never() || !self.corrupt.is_never()
    }
}

/// A malformed fault specification.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FaultSpecError {
    /// An item without `=`, or with an unknown key.
    #[error(
        "'{0}' is not a fault; use crash=P@T[+R], drop=A/B, dup=A/B, delay=A/B or corrupt=A/B, comma-separated"
    )]
    UnknownItem(String),
    /// A crash not written `P@T` or `P@T+R`.
    #[error(
        "crash '{0}' is malformed; write crash=P@T (processor P at T microseconds, e.g. crash=3@1000 or crash=3@5ms) or crash=P@T+R to restart it R later"
    )]
    BadCrash(String),
    /// A bad probability.
    #[error("{key}: {source}")]
    BadRatio {
        /// The fault whose probability is bad.
        key: String,
        /// What is wrong with it.
        source: RatioError,
    },
}

/// Parses a time in microseconds with an optional `us`, `ms` or `s` suffix.
fn parse_time(text: &str) -> Option<Nanos> {
    let t = text.trim();
    let (digits, scale) = if let Some(d) = t.strip_suffix("ms") {
        (d, 1_000_000)
    } else if let Some(d) = t.strip_suffix("us") {
        (d, 1_000)
    } else if let Some(d) = t.strip_suffix('s') {
        (d, 1_000_000_000)
    } else {
        (t, 1_000)
    };
    digits.trim().parse::<u64>().ok()?.checked_mul(scale)
}

fn parse_crash(text: &str) -> Result<Crash, FaultSpecError> {
    let bad = || FaultSpecError::BadCrash(text.to_string());
    let (p, rest) = text.split_once('@').ok_or_else(bad)?;
    let proc = p.trim().parse().map_err(|_| bad())?;
    let (at, restart) = match rest.split_once('+') {
        Some((a, r)) => (a, Some(parse_time(r).ok_or_else(bad)?)),
        None => (rest, None),
    };
    Ok(Crash {
        proc,
        at_ns: parse_time(at).ok_or_else(bad)?,
        restart_after_ns: restart,
    })
}

impl FromStr for FaultPlan {
    type Err = FaultSpecError;

    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let mut plan = FaultPlan::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if item == "none" {
                continue;
            }
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| FaultSpecError::UnknownItem(item.to_string()))?;
            let ratio = || {
                value
                    .parse::<Ratio>()
                    .map_err(|source| FaultSpecError::BadRatio {
                        key: key.to_string(),
                        source,
                    })
            };
            match key.trim() {
                "crash" => plan.crashes.push(parse_crash(value)?),
                "drop" => plan.drop = ratio()?,
                "dup" | "duplicate" => plan.duplicate = ratio()?,
                "delay" => plan.delay = ratio()?,
                "corrupt" => plan.corrupt = ratio()?,
                _ => return Err(FaultSpecError::UnknownItem(item.to_string())),
            }
        }
        Ok(plan)
    }
}

impl fmt::Display for FaultPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items = Vec::new();
        for c in &self.crashes {
            let mut s = format!("crash={}@{}us", c.proc, c.at_ns / 1_000);
            if let Some(r) = c.restart_after_ns {
                s.push_str(&format!("+{}us", r / 1_000));
            }
            items.push(s);
        }
        for (k, r) in [
            ("drop", self.drop),
            ("dup", self.duplicate),
            ("delay", self.delay),
            ("corrupt", self.corrupt),
        ] {
            if !r.is_never() {
                items.push(format!("{k}={r}"));
            }
        }
        if items.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&items.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_parses_and_prints_back() {
        let plan: FaultPlan = "crash=3@1000,drop=1/100,dup=1/200,delay=1/50,corrupt=1/100"
            .parse()
            .unwrap();
        assert_eq!(plan.crashes[0].proc, 3);
        assert_eq!(plan.crashes[0].at_ns, 1_000_000);
        assert_eq!(plan.drop, Ratio { num: 1, den: 100 });
        assert_eq!(plan.to_string().parse::<FaultPlan>(), Ok(plan));
        let r: FaultPlan = "crash=2@5ms+1ms".parse().unwrap();
        assert_eq!(r.crashes[0].restart_after_ns, Some(1_000_000));
        assert!("none".parse::<FaultPlan>().unwrap().is_none());
    }

    #[test]
    fn bad_specs_name_the_problem() {
        assert!(matches!(
            "explode=1".parse::<FaultPlan>(),
            Err(FaultSpecError::UnknownItem(_))
        ));
        assert!(matches!(
            "crash=3".parse::<FaultPlan>(),
            Err(FaultSpecError::BadCrash(_))
        ));
        let e = "drop=2/1".parse::<FaultPlan>().unwrap_err();
        assert!(e.to_string().starts_with("drop:"), "{e}");
    }
}
