//! Why the master's principal variation moves (session 7): every parallel pass is attributed
//! to the news that arrived since the previous pass (its *trigger*), and the counters say how
//! often a pass with that trigger moved the principal variation (the leaf it ends in), changed
//! the set of touched leaves, and created table rows; for passes that moved the principal
//! variation, where the new principal leaf's value came from.
//!
//! A pass has one trigger, the first of these that arrived since the previous pass: a new
//! iteration, a bad-bound answer, a result at a touched leaf's required depth, at one ply less,
//! at a lower depth, a change of the value guesses are scaled to (the anchor), nothing (a
//! re-send or a revived slave).

use super::table::LeafId;

/// What arrived between two passes (the master collects it in [`News`] and reads it when the
/// next pass is done).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct News {
    /// The pass is the first of an iteration.
    pub(crate) iteration: bool,
    /// A result answered a pending bad-bound request.
    pub(crate) bad_answer: bool,
    /// A new fact at a touched leaf's required depth.
    pub(crate) required: bool,
    /// A new fact one ply below the required depth.
    pub(crate) required_minus_1: bool,
    /// A new fact two or more plies below the required depth.
    pub(crate) shallower: bool,
}

/// The trigger of a pass, in order of precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// The first pass of an iteration.
    Iteration,
    /// A bad-bound answer.
    BadAnswer,
    /// A result at the required depth.
    Required,
    /// A result one ply shallower.
    RequiredMinus1,
    /// A result two or more plies shallower.
    Shallower,
    /// Only the anchor (the value guesses are scaled to) changed.
    Scaling,
    /// None of these.
    Other,
}

impl News {
    /// The trigger of a pass after this news, `scaled` telling whether the anchor changed.
    pub(crate) fn trigger(self, scaled: bool) -> Trigger {
        if self.iteration {
            Trigger::Iteration
        } else if self.bad_answer {
            Trigger::BadAnswer
        } else if self.required {
            Trigger::Required
        } else if self.required_minus_1 {
            Trigger::RequiredMinus1
        } else if self.shallower {
            Trigger::Shallower
        } else if scaled {
            Trigger::Scaling
        } else {
            Trigger::Other
        }
    }

    /// Notes a new fact at depth `depth` of a touched leaf whose required depth is `required`.
    pub(crate) fn note(&mut self, depth: u32, required: u32) {
        if depth >= required {
            self.required = true;
        } else if depth + 1 == required {
            self.required_minus_1 = true;
        } else {
            self.shallower = true;
        }
    }
}

/// Where the value of the leaf a pass's principal variation ends in came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A result at the required depth that decides the window (or the master's own search).
    Certain,
    /// A guess from a result at the required depth (not deciding the window).
    Required,
    /// A guess from one ply below.
    RequiredMinus1,
    /// A guess from two or more plies below, but above 0.
    Shallower,
    /// The 0-ply static value stored when the row was created.
    Static,
}

impl Source {
    /// The source of a guess from depth `k` for a leaf whose required depth is `required`.
    pub(crate) fn of_guess(k: u32, required: u32) -> Source {
        if k == 0 {
            Source::Static
        } else if k >= required {
            Source::Required
        } else if k + 1 == required {
            Source::RequiredMinus1
        } else {
            Source::Shallower
        }
    }
}

/// The principal leaf of a pass and where its value came from.
pub(crate) type PrincipalLeaf = Option<(LeafId, Source)>;

super::stats::counters! {
    /// The master's churn counters (reported as `aphid_churn_<counter>`), over the parallel
    /// passes; "moved": the principal variation ends in another leaf than the previous pass's
    /// (within an iteration), "touched": the set of touched leaves differs, "rows": table rows
    /// the pass created.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct ChurnStats, prefix "aphid_churn_" {
        /// Passes that began an iteration.
        pub iteration_passes,
        /// Rows those passes created.
        pub iteration_rows,
        /// Passes after a bad-bound answer.
        pub bad_passes,
        /// Of those, passes that moved the principal variation.
        pub bad_moved,
        /// Of those, passes that changed the touched set.
        pub bad_touched,
        /// Rows created by those passes.
        pub bad_rows,
        /// Passes after a result at the required depth.
        pub required_passes,
        /// Of those, moved.
        pub required_moved,
        /// Of those, touched set changed.
        pub required_touched,
        /// Rows created.
        pub required_rows,
        /// Passes after a result one ply below the required depth.
        pub minus1_passes,
        /// Of those, moved.
        pub minus1_moved,
        /// Of those, touched set changed.
        pub minus1_touched,
        /// Rows created.
        pub minus1_rows,
        /// Passes after a result two or more plies below the required depth.
        pub shallower_passes,
        /// Of those, moved.
        pub shallower_moved,
        /// Of those, touched set changed.
        pub shallower_touched,
        /// Rows created.
        pub shallower_rows,
        /// Passes after only a change of the anchor guesses are scaled to.
        pub scaling_passes,
        /// Of those, moved.
        pub scaling_moved,
        /// Of those, touched set changed.
        pub scaling_touched,
        /// Rows created.
        pub scaling_rows,
        /// Passes after none of these.
        pub other_passes,
        /// Of those, moved.
        pub other_moved,
        /// Of those, touched set changed.
        pub other_touched,
        /// Rows created.
        pub other_rows,
        /// Moved passes whose new principal leaf was certain.
        pub pv_certain,
        /// ... guessed from a result at the required depth.
        pub pv_required,
        /// ... guessed from one ply below.
        pub pv_minus1,
        /// ... guessed from two or more plies below (not 0).
        pub pv_shallower,
        /// ... its 0-ply static value.
        pub pv_static,
        /// Rows held back from their slave when created (`AphidOptions::new_leaf_passes`).
        pub deferred_rows,
        /// Of those, rows later handed out.
        pub deferred_released,
        /// Bad-bound requests sent (session 8, `bad_bound.rs`).
        pub bad_requests,
        /// Of those, requests for a leaf and depth asked before (a second window).
        pub bad_repeats,
        /// Pending requests answered by a slave's report.
        pub bad_answers,
        /// Requests not sent because one already out covers the window
        /// (`AphidOptions::bad_bound_margin`).
        pub bad_covered,
        /// Guesses replaced by the value held while a request is out
        /// (`AphidOptions::bad_bound_hold`).
        pub bad_held,
        /// Uncertain leaves a pass found expected to need a bad bound before their required
        /// depth came back, and asked for at once (`AphidOptions::early_bad_bounds`; the
        /// requests sent are among `bad_requests`).
        pub bad_early,
    }
}

impl ChurnStats {
    /// Counts one pass with trigger `t`: whether it moved the principal variation (with the
    /// new principal leaf's source) and changed the touched set, and the rows it created.
    pub(crate) fn count(&mut self, t: Trigger, moved: Option<Source>, touched: bool, rows: u64) {
        let (passes, m, tc, r) = match t {
            Trigger::Iteration => {
                self.iteration_passes += 1;
                self.iteration_rows += rows;
                return;
            }
            Trigger::BadAnswer => (
                &mut self.bad_passes,
                &mut self.bad_moved,
                &mut self.bad_touched,
                &mut self.bad_rows,
            ),
            Trigger::Required => (
                &mut self.required_passes,
                &mut self.required_moved,
                &mut self.required_touched,
                &mut self.required_rows,
            ),
            Trigger::RequiredMinus1 => (
                &mut self.minus1_passes,
                &mut self.minus1_moved,
                &mut self.minus1_touched,
                &mut self.minus1_rows,
            ),
            Trigger::Shallower => (
                &mut self.shallower_passes,
                &mut self.shallower_moved,
                &mut self.shallower_touched,
                &mut self.shallower_rows,
            ),
            Trigger::Scaling => (
                &mut self.scaling_passes,
                &mut self.scaling_moved,
                &mut self.scaling_touched,
                &mut self.scaling_rows,
            ),
            Trigger::Other => (
                &mut self.other_passes,
                &mut self.other_moved,
                &mut self.other_touched,
                &mut self.other_rows,
            ),
        };
        *passes += 1;
        *m += u64::from(moved.is_some());
        *tc += u64::from(touched);
        *r += rows;
        match moved {
            Some(Source::Certain) => self.pv_certain += 1,
            Some(Source::Required) => self.pv_required += 1,
            Some(Source::RequiredMinus1) => self.pv_minus1 += 1,
            Some(Source::Shallower) => self.pv_shallower += 1,
            Some(Source::Static) => self.pv_static += 1,
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_news_in_precedence_order_is_the_trigger() {
        let mut n = News::default();
        assert_eq!(n.trigger(false), Trigger::Other);
        assert_eq!(n.trigger(true), Trigger::Scaling);
        n.note(3, 6);
        assert_eq!(n.trigger(true), Trigger::Shallower);
        n.note(5, 6);
        assert_eq!(n.trigger(false), Trigger::RequiredMinus1);
        n.note(6, 6);
        assert_eq!(n.trigger(false), Trigger::Required);
        n.bad_answer = true;
        assert_eq!(n.trigger(false), Trigger::BadAnswer);
        n.iteration = true;
        assert_eq!(n.trigger(false), Trigger::Iteration);
    }

    #[test]
    fn guesses_are_sourced_by_depth_below_the_required_one() {
        assert_eq!(Source::of_guess(0, 6), Source::Static);
        assert_eq!(Source::of_guess(3, 6), Source::Shallower);
        assert_eq!(Source::of_guess(5, 6), Source::RequiredMinus1);
        assert_eq!(Source::of_guess(6, 6), Source::Required);
    }

    #[test]
    fn passes_are_counted_by_trigger_and_moved_ones_by_source() {
        let mut c = ChurnStats::default();
        c.count(Trigger::Required, Some(Source::Static), true, 3);
        c.count(Trigger::Required, None, false, 0);
        c.count(Trigger::Iteration, Some(Source::Certain), true, 9);
        assert_eq!(
            (
                c.required_passes,
                c.required_moved,
                c.required_touched,
                c.required_rows
            ),
            (2, 1, 1, 3)
        );
        assert_eq!((c.iteration_passes, c.iteration_rows), (1, 9));
        assert_eq!((c.pv_static, c.pv_certain), (1, 0));
    }
}
