//! Dynamic mandatory work first (Rezaie and Finkel section 6): "we decide which children of a
//! type-1 node to fully investigate not by taking the first (as in MWF), but by taking all those
//! whose static value is above the 90th percentile of its siblings." MWF otherwise (with its
//! cutoff rule, `ParallelOptions::mwf_cutoffs`).
//!
//! The percentile is the nearest rank: the value of rank `ceil(p n / 100)` of the `n`
//! siblings' static values (the game's evaluation from the parent's side), ascending.
//! [`DmwfPromote::Replace`] (the default) is the text: the children strictly above it are type
//! 1 *instead of* the eldest, searched first (in their order) and the others are type 2; when
//! no child is strictly above it (all of the best share one value, or fewer than ten
//! siblings), the node takes the first, as MWF. [`DmwfPromote::Beside`] makes the children at
//! or above it type 1 beside the eldest, which stays type 1 and first. Both rules are for the
//! papers' trees (move ordering off); engine frames keep the sequential search's order, and
//! their promoted children join the eldest.

use games::Game;

use super::algo_options::option_family;
use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::named_value::named_enum;

named_enum! {
    /// Which children of a type-1 node DMWF makes type 1.
    DmwfPromote, flag "--dmwf-promote", what "DMWF promotion rule", valid "replace (strictly above, instead of the eldest: the paper's), beside", {
        /// Those strictly above the percentile, instead of the eldest (Rezaie and Finkel section
        /// 6).
        #[default]
        Replace => "replace",
        /// Those at or above the percentile, beside the eldest.
        Beside => "beside",
    }
}

option_family! {
    /// DMWF's options.
    DmwfOptions applies to [Dmwf] {
        /// DMWF: `replace`, the children strictly above the 90th percentile of their siblings'
        /// static values are type 1 instead of the eldest (Rezaie and Finkel section 6; the
        /// default), or `beside`, those at or above it join the eldest.
        dmwf_promote => promote: DmwfPromote = DmwfPromote::Replace,
    }
}

/// The split engine's policy of this module for `options`.
///
/// # Errors
/// [`ParallelError::BadOption`] for a percentile above 100.
pub(crate) fn policy(options: &ParallelOptions) -> Result<SplitPolicy, ParallelError> {
    if options.dmwf_percentile > 100 {
        return Err(ParallelError::BadOption {
            algo: "dmwf",
            message: format!(
                "the percentile is {}; give one from 0 to 100",
                options.dmwf_percentile
            ),
        });
    }
    Ok(SplitPolicy::Dmwf {
        percentile: options.dmwf_percentile,
        replace: options.algo.dmwf.promote() == DmwfPromote::Replace,
    })
}

/// Runs DMWF on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError::BadOption`] for a percentile above 100; otherwise when the runtime or the
/// table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(policy(options)?, root, options)
}
