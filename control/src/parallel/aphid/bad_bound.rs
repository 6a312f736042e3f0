//! Bad-bound requests: the window the master asks for, and when a request already out covers
//! what a pass needs.
//!
//! A leaf whose result at the required depth does not decide the pass's window gets a "bad
//! bound" request (thesis 5.2.1). With the thesis's rule the request asks for exactly the
//! pass's window at that leaf; the next pass's window there often differs a little (the answer
//! itself moves its siblings' values), and a second request follows. `bad_bound_margin`
//! (10 by default) widens the request by a margin on both sides ([`request_window`]), and a
//! pending request whose window contains the one a later pass needs is not sent again
//! ([`covers`]): a fail-soft search with window `(A, B)` returns an exact value inside it, a
//! lower bound at or above `B`, or an upper bound at or below `A`, each of which decides any
//! window inside `(A, B)`.

use games::score::INFINITY;

use super::message::BadBound;

/// The window to ask for when a pass needs `(alpha, beta)` (the leaf's scale): widened by
/// `margin` on both sides, within `[-INFINITY, INFINITY]`; `margin = 0` is the pass's own
/// window (the thesis).
#[must_use]
pub(crate) fn request_window(alpha: i32, beta: i32, margin: u32) -> (i32, i32) {
    let m = i32::try_from(margin).unwrap_or(i32::MAX);
    (
        alpha.saturating_sub(m).max(-INFINITY),
        beta.saturating_add(m).min(INFINITY),
    )
}

/// Whether the answer to `pending` will decide a pass that needs depth `depth` with window
/// `(alpha, beta)` (the leaf's scale): same depth, and a window that contains the needed one.
#[must_use]
pub(crate) fn covers(pending: &BadBound, depth: u32, alpha: i32, beta: i32) -> bool {
    pending.depth == depth && pending.alpha <= alpha && pending.beta >= beta
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::aphid::table::Bounds;

    #[test]
    fn a_margin_widens_the_request_within_the_score_range() {
        assert_eq!(request_window(-5, 7, 0), (-5, 7));
        assert_eq!(request_window(-5, 7, 20), (-25, 27));
        assert_eq!(
            request_window(-INFINITY + 3, INFINITY - 1, 10),
            (-INFINITY, INFINITY)
        );
        assert_eq!(request_window(0, 1, u32::MAX), (-INFINITY, INFINITY));
    }

    #[test]
    fn a_pending_request_covers_only_windows_inside_its_own_at_its_depth() {
        let p = BadBound {
            depth: 6,
            alpha: -20,
            beta: 30,
        };
        assert!(covers(&p, 6, -20, 30));
        assert!(covers(&p, 6, -10, 25));
        assert!(!covers(&p, 6, -21, 25));
        assert!(!covers(&p, 6, -10, 31));
        assert!(!covers(&p, 7, -10, 25));
        // Every answer to the pending window decides a window inside it.
        for v in [-40, -20, 0, 29, 30, 50] {
            let b = Bounds::from_search(v, p.alpha, p.beta);
            assert!(b.decides(-10, 25).is_some(), "answer {v}");
        }
    }
}
