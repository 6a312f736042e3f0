//! Bad-bound requests (session 8): the window the master asks for, when a request already out
//! covers what a pass needs, and the value a pass holds for a leaf whose answer is pending.
//!
//! A leaf whose result at the required depth does not decide the pass's window gets a "bad
//! bound" request (thesis 5.2.1). With the thesis's rule the request asks for exactly the
//! pass's window at that leaf; the next pass's window there often differs a little (the answer
//! itself moves its siblings' values), and a second request follows. `bad_bound_margin`
//! (10 by default since session 8) widens the request by a margin on both sides
//! ([`request_window`]), and a pending request
//! whose window contains the one a later pass needs is not sent again ([`covers`]): a fail-soft
//! search with window `(A, B)` returns an exact value inside it, a lower bound at or above
//! `B`, or an upper bound at or below `A`, each of which decides any window inside `(A, B)`.
//! `bad_bound_hold` keeps the value a pass used for a leaf while its request is out
//! ([`held_value`]), so that guesses that drift with the anchor or with shallower results do
//! not move the master's tree before the answer does. `early_bad_bounds` asks at once, as
//! soon as the leaf's owner has reported the depth below the required one, when the owner's
//! own window is expected to leave the pass's window undecided ([`expect_undecided`]), instead of
//! after that search came back undecided: one search of the required depth instead of two,
//! and the answer a round trip earlier.

use games::score::INFINITY;

use super::message::BadBound;
use super::table::Bounds;

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

/// `AphidOptions::early_bad_bounds`: whether a slave's own search of a leaf, with `slave`
/// (its window centred on the hypothetical value, the leaf's scale; `None` for the infinite
/// window it uses at a decisive hypothesis), is expected to leave the window `(alpha, beta)` a
/// pass needs undecided, the leaf's value being about `guess`: a guess inside the slave's
/// window expects an exact value, which decides; a guess beyond one end expects a bound at
/// that end, which decides only if the pass's window ends there too (or inside).
#[must_use]
pub(crate) fn expect_undecided(
    alpha: i32,
    beta: i32,
    slave: Option<(i32, i32)>,
    guess: i32,
) -> bool {
    slave.is_some_and(|(a, b)| (guess >= b && beta > b) || (guess <= a && alpha < a))
}

/// The value a pass uses for a leaf whose bad-bound answer is pending: the value held since the
/// request went out when it is still consistent with what the leaf's required depth is known
/// to be (`known`, the root's scale), otherwise this pass's guess.
#[must_use]
pub(crate) fn held_value(held: Option<i32>, known: Bounds, guess: i32) -> i32 {
    match held {
        Some(h) if known.lower <= h && h <= known.upper => h,
        _ => guess,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_guess_beyond_the_slave_window_expects_an_undecided_result() {
        let slave = Some((-10, 10));
        // Inside the slave's window: an exact value is expected.
        assert!(!expect_undecided(-INFINITY, INFINITY, slave, 3));
        // Beyond its upper end: a lower bound near 10, which decides only a beta at most 10.
        assert!(expect_undecided(-5, 30, slave, 15));
        assert!(!expect_undecided(-5, 10, slave, 15));
        assert!(!expect_undecided(-30, 8, slave, 15));
        // Beyond its lower end.
        assert!(expect_undecided(-30, 5, slave, -12));
        assert!(!expect_undecided(-10, 5, slave, -12));
        // The infinite window decides everything.
        assert!(!expect_undecided(-5, 30, None, 15));
        // A result of the slave's window against a pass window beyond it: undecided.
        assert!(Bounds::from_search(12, -10, 10).decides(-5, 30).is_none());
    }

    #[test]
    fn a_held_value_stays_while_the_known_bounds_allow_it() {
        let known = Bounds {
            lower: 10,
            upper: INFINITY,
        };
        assert_eq!(held_value(Some(12), known, 40), 12);
        assert_eq!(held_value(Some(5), known, 40), 40);
        assert_eq!(held_value(None, known, 40), 40);
        assert_eq!(held_value(Some(5), Bounds::UNKNOWN, 40), 5);
    }
}
