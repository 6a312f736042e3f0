//! Seeded randomness: a small deterministic generator, integer-ratio probabilities, and sub-seeds
//! derived from one master seed (one per subsystem and per processor).
//!
//! The generator is SplitMix64 (Steele, Lea & Flood, 2014): tiny, fast, and identical on every
//! platform, which is what a reproducible simulation needs. It is not cryptographic.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The stream of sub-seeds for processor RNGs (see [`sub_seed`]).
pub const STREAM_PROCESSOR: u64 = 1;
/// The stream of sub-seeds for the simulator's fault injection.
pub const STREAM_FAULTS: u64 = 2;
/// The stream of sub-seeds for applications (for example synthetic trees).
pub const STREAM_APPLICATION: u64 = 3;

/// A deterministic pseudo-random generator (SplitMix64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

/// The SplitMix64 finaliser: a bijective mix of 64 bits.
#[must_use]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of sub-generator `index` of subsystem `stream`, derived from `master`.
#[must_use]
pub const fn sub_seed(master: u64, stream: u64, index: u64) -> u64 {
    mix64(mix64(master ^ mix64(stream.wrapping_add(0x9e37_79b9_7f4a_7c15))) ^ index)
}

impl Rng {
    /// A generator started from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.state)
    }

    /// A uniform integer in `0..n` (`0` when `n` is 0), by the multiply-high method.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `ratio`.
    pub fn chance(&mut self, ratio: Ratio) -> bool {
        ratio.num > 0 && self.below(u64::from(ratio.den)) < u64::from(ratio.num)
    }
}

/// A probability as an integer ratio `num / den` (no floating point, so runs are reproducible
/// everywhere). `0/1` is "never".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratio {
    /// Numerator.
    pub num: u32,
    /// Denominator, never 0.
    pub den: u32,
}

impl Ratio {
    /// Never.
    pub const NEVER: Ratio = Ratio { num: 0, den: 1 };

    /// `num / den`, or an error when `den` is 0 or `num > den`.
    ///
    /// # Errors
    /// [`RatioError`] naming the problem.
    pub fn new(num: u32, den: u32) -> Result<Ratio, RatioError> {
        if den == 0 {
            return Err(RatioError::ZeroDenominator);
        }
        if num > den {
            return Err(RatioError::AboveOne { num, den });
        }
        Ok(Ratio { num, den })
    }

    /// Whether the event never happens.
    #[must_use]
    pub const fn is_never(self) -> bool {
        self.num == 0
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// A malformed probability.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatioError {
    /// Not of the form `A/B`.
    #[error("'{0}' is not a probability; write it as A/B with whole numbers, e.g. 1/100")]
    Malformed(String),
    /// `B` is zero.
    #[error("the denominator of a probability must not be 0")]
    ZeroDenominator,
    /// Above 1.
    #[error("probability {num}/{den} is above 1")]
    AboveOne {
        /// Numerator.
        num: u32,
        /// Denominator.
        den: u32,
    },
}

impl FromStr for Ratio {
    type Err = RatioError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || RatioError::Malformed(s.to_string());
        let (a, b) = s.split_once('/').ok_or_else(malformed)?;
        let num = a.trim().parse().map_err(|_| malformed())?;
        let den = b.trim().parse().map_err(|_| malformed())?;
        Ratio::new(num, den)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_sub_seeds_differ() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(
            sub_seed(1, STREAM_FAULTS, 0),
            sub_seed(1, STREAM_PROCESSOR, 0)
        );
        assert_ne!(
            sub_seed(1, STREAM_PROCESSOR, 0),
            sub_seed(1, STREAM_PROCESSOR, 1)
        );
    }

    #[test]
    fn below_stays_in_range_and_chance_follows_the_ratio() {
        let mut r = Rng::new(3);
        let mut hits = 0;
        for _ in 0..10_000 {
            assert!(r.below(7) < 7);
            if r.chance(Ratio { num: 1, den: 4 }) {
                hits += 1;
            }
        }
        assert!((2_200..2_800).contains(&hits), "{hits}");
        assert!(!r.chance(Ratio::NEVER));
    }

    #[test]
    fn ratios_parse_with_clear_errors() {
        assert_eq!("1/100".parse::<Ratio>(), Ok(Ratio { num: 1, den: 100 }));
        assert!(matches!(
            "x".parse::<Ratio>(),
            Err(RatioError::Malformed(_))
        ));
        assert_eq!("1/0".parse::<Ratio>(), Err(RatioError::ZeroDenominator));
        assert!(matches!(
            "3/2".parse::<Ratio>(),
            Err(RatioError::AboveOne { .. })
        ));
    }
}
