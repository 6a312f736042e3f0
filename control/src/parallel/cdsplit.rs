//! Splitting at a common depth (the two-PDP-11 thesis, a 1978 thesis in which a PDP-11/45 and a
//! PDP-11/20 share a chess search over a data link): the nodes within
//! `ParallelOptions::common_depth` plies of the root are shared between the processors; below it
//! each processor searches the move it took alone. Strategy A (`CdStrategy::Variable`, the default)
//! lowers the common depth as the search backs up; strategy B (`CdStrategy::Fixed`) keeps it. The
//! engine is [`super::split_ab`] with [`SplitPolicy::CommonDepth`]; `cdsplit.md` beside this file
//! reads the mechanism against the thesis's own sentences.
//!
//! Every node within the common depth is a frame of the split engine; below it the private
//! search (the thesis's MINMX2) is made of frames that never split down to
//! `ParallelOptions::min_split_depth` plies left, then the sequential searcher. A small
//! `min_split_depth` lets a busy processor answer a request between nodes instead of after a
//! whole private subtree.

use std::fmt;
use std::str::FromStr;

use games::Game;

use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::search::UnknownName;

/// The thesis's two ways of choosing the common depth (its section "Search strategy").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CdStrategy {
    /// Strategy A, a variable common depth (`VARCD` 1): a node's common depth drops to its own
    /// ply once one of its children is done, and is set back at the root.
    Variable,
    /// Strategy B, a fixed common depth (`VARCD` 0).
    Fixed,
}

impl CdStrategy {
    /// Both, A first.
    pub const ALL: [CdStrategy; 2] = [CdStrategy::Variable, CdStrategy::Fixed];

    /// The thesis's letter: `A` or `B`.
    #[must_use]
    pub const fn letter(self) -> &'static str {
        match self {
            CdStrategy::Variable => "A",
            CdStrategy::Fixed => "B",
        }
    }
}

/// Each strategy by its letter, lower case (`a`, `b`); the thesis's upper-case letter and the
/// strategy's word (`variable`, `fixed`) also accepted, as by `FromStr`.
#[cfg(feature = "clap")]
impl clap::ValueEnum for CdStrategy {
    fn value_variants<'a>() -> &'a [Self] {
        &CdStrategy::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let value = match self {
            CdStrategy::Variable => {
                clap::builder::PossibleValue::new("a").aliases(["A", "variable"])
            }
            CdStrategy::Fixed => clap::builder::PossibleValue::new("b").aliases(["B", "fixed"]),
        };
        Some(value)
    }
}

impl FromStr for CdStrategy {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s {
            "a" | "A" | "variable" => Ok(CdStrategy::Variable),
            "b" | "B" | "fixed" => Ok(CdStrategy::Fixed),
            _ => Err(UnknownName {
                what: "common-depth strategy",
                given: s.to_string(),
                valid: "a (variable), b (fixed)".into(),
            }),
        }
    }
}

impl fmt::Display for CdStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// The split engine's policy of this module for `options`.
///
/// # Errors
/// Never: every option value is accepted.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn policy(options: &ParallelOptions) -> Result<SplitPolicy, ParallelError> {
    Ok(SplitPolicy::CommonDepth {
        cd: options.common_depth,
        variable: options.cd_strategy == CdStrategy::Variable,
    })
}

/// Runs common-depth splitting on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let cd = options.common_depth;
    let framed = ParallelOptions {
        // Frames at least at plies 0..=cd (plies left at least depth - cd).
        min_split_depth: options
            .min_split_depth
            .min(options.depth.saturating_sub(cd))
            .max(1),
        ..options.clone()
    };
    run(policy(options)?, root, &framed)
}
