//! Unit tests of the slave: scheduling, windows, slices and catch-up.

use super::pick::{catch_up_depth, exact_window};
use super::*;
use games::tictactoe::TicTacToe3;

fn state(iteration: u32, leaves: &[(LeafId, u32, u32)]) -> SlaveState<TicTacToe3> {
    let searcher = Searcher::new(crate::search::SearchConfig::research()).expect("a table");
    let mut s = Slave::new(
        TicTacToe3::start(),
        20,
        2,
        &AphidOptions::default(),
        searcher,
    );
    s.state.target = 10;
    s.state.epoch = Epoch {
        iteration,
        hypothesis: 0,
        shift: 0,
    };
    for &(leaf, priority, searched) in leaves {
        s.state.leaves.insert(
            leaf,
            SlaveLeaf {
                position: TicTacToe3::start(),
                ply: 4,
                priority,
                bounds: DepthBounds::default(),
                searched,
                bad: None,
                known: priority,
                nodes: 0,
                cut: None,
                cut_window: None,
            },
        );
    }
    s.state
}

/// `alternative_window`: a touched leaf off the principal variation (a type-2 or type-3
/// node on its path: fewer than `ply + 1` type-1 nodes) gets the narrow window, the
/// principal-variation leaf and untouched leaves the normal one; run-ahead doubles both;
/// off, every leaf gets the normal window.
#[test]
fn alternative_windows_off_the_principal_variation() {
    // Leaves at ply 4: priority 4 * 5 + 2 = 22 is all type 1; 4 * 3 + 2 = 14 is not.
    let mut s = state(10, &[(1, 22, 5), (2, 14, 5), (3, 14, 6)]);
    s.alternative_window = 2;
    let width = |s: &SlaveState<TicTacToe3>, leaf| {
        let w = s.pick().expect("work");
        assert_eq!(w.leaf, leaf);
        w.beta - w.alpha
    };
    assert_eq!(width(&s, 1), 2 * s.window, "the principal variation");
    s.leaves.remove(&1);
    assert_eq!(width(&s, 2), 2 * 2, "an alternative branch");
    s.leaves.remove(&2);
    assert_eq!(width(&s, 3), 2 * 4, "run-ahead on an alternative branch");
    s.alternative_window = 0;
    assert_eq!(width(&s, 3), 4 * s.window, "off: run-ahead's normal window");
    let pv = state(10, &[(4, 23, 5)]);
    assert_eq!(width(&pv, 4), 2 * pv.window, "the +1 bit does not count");
}

/// `pv_window`: the principal-variation leaf (every node of its path of type 1) gets the
/// wide window in required and run-ahead searches, clamped to the score range; the other
/// leaves keep theirs; off, the principal leaf gets the normal window.
#[test]
fn the_principal_leaf_gets_the_wide_window() {
    // Leaves at ply 4: priority 4 * 5 + 2 = 22 is all type 1; 4 * 3 + 2 = 14 is not.
    let mut s = state(10, &[(1, 22, 5), (2, 14, 5), (3, 22, 6)]);
    s.pv_window = 50;
    let window = |s: &SlaveState<TicTacToe3>, leaf| {
        let w = s.pick().expect("work");
        assert_eq!(w.leaf, leaf);
        (w.alpha, w.beta)
    };
    assert_eq!(window(&s, 1), (-50, 50), "the principal leaf, required");
    s.pv_window = 0;
    assert_eq!(window(&s, 1), (-s.window, s.window), "off");
    s.pv_window = INFINITY;
    assert_eq!(
        window(&s, 1),
        (-INFINITY, INFINITY),
        "clamped to the score range"
    );
    s.leaves.remove(&1);
    assert_eq!(
        window(&s, 2),
        (-s.window, s.window),
        "off the principal variation"
    );
    s.leaves.remove(&2);
    s.pv_window = 50;
    assert_eq!(window(&s, 3), (-100, 100), "run-ahead doubles it");
}

/// The epoch's `shift` (`run_ahead_shift`) moves the centre of run-ahead windows only, on
/// the leaf's side: required work keeps the hypothesis.
#[test]
fn run_ahead_windows_centre_on_the_shifted_value() {
    // Iteration 10: a ply-4 leaf (root's side) needs depth 6, a ply-3 leaf depth 7.
    let mut s = state(10, &[(1, 22, 5), (2, 14, 6)]);
    s.epoch.hypothesis = 30;
    s.epoch.shift = -20;
    let centre = |w: Work| (w.alpha + w.beta) / 2;
    let w = s.pick().expect("work");
    assert_eq!(
        (w.leaf, w.depth, centre(w)),
        (1, 6, 30),
        "required: the hypothesis"
    );
    s.leaves.remove(&1);
    let w = s.pick().expect("work");
    assert_eq!(
        (w.leaf, w.depth, centre(w)),
        (2, 7, 10),
        "run-ahead: shifted"
    );
    s.leaves.get_mut(&2).expect("leaf").ply = 3;
    s.leaves.get_mut(&2).expect("leaf").searched = 7;
    let w = s.pick().expect("work");
    assert_eq!((w.depth, centre(w)), (8, -10), "the other side: negated");
    s.epoch.shift = 0;
    let w = s.pick().expect("work");
    assert_eq!(centre(w), -30, "no shift");
}

/// In the last iteration an untouched leaf below its required depth goes before run-ahead
/// (not as required work); before it, run-ahead goes first; and never with the option off.
#[test]
fn untouched_leaves_before_run_ahead_in_the_last_iteration() {
    let mut s = state(10, &[(1, 9, 6), (2, 0, 4), (3, 0, 6)]);
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (2, 5, false));
    let before = state(9, &[(1, 9, 5), (2, 0, 3)]);
    let w = before.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (1, 6, false));
    s.untouched_last = false;
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth), (1, 7));
}

/// With `priority_from_depth`, a required leaf searched at least that deep goes by
/// priority before a shallower one (which the thesis's order would take first); leaves
/// below that depth still go first, shallowest first.
#[test]
fn priority_before_depth_past_priority_from_depth() {
    let mut s = state(10, &[(1, 9, 5), (2, 3, 3), (3, 12, 4)]);
    let w = s.pick().expect("work");
    assert_eq!(w.leaf, 2, "the thesis's order: shallowest first");
    s.priority_from = 3;
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (3, 5, true));
    s.priority_from = 4;
    let w = s.pick().expect("work");
    assert_eq!(w.leaf, 2, "leaf 2 is below the depth: it goes first");
}

/// A revoked leaf's required work is counted as lost to load balancing.
#[test]
fn revoked_work_is_counted() {
    let mut s = state(10, &[(1, 9, 5)]);
    s.leaves.get_mut(&1).expect("leaf").nodes = 1234;
    s.apply(Msg::Revoke { leaf: 1 });
    assert_eq!(s.waste.revoked, 1234);
    assert!(s.leaves.is_empty());
}

/// Session 8: a cut required search resumes with `required_slice_growth` times its
/// budget; a cut speculative one with twice its budget up to `speculative_slice_cap`.
#[test]
fn slice_growth_and_speculative_cap() {
    assert_eq!(grown_speculative_budget(2048, 0), 4096);
    assert_eq!(grown_speculative_budget(2048, 3000), 3000);
    assert_eq!(grown_speculative_budget(8192, 3000), 8192);
    let o = AphidOptions {
        required_slice_growth: 4,
        ..AphidOptions::default()
    };
    let searcher = Searcher::new(crate::search::SearchConfig::research()).expect("a table");
    let s = Slave::new(TicTacToe3::start(), 20, 2, &o, searcher);
    assert_eq!(s.state.slice_growth, 4);
    let searcher = Searcher::new(crate::search::SearchConfig::research()).expect("a table");
    let s = Slave::new(
        TicTacToe3::start(),
        20,
        2,
        &AphidOptions::default(),
        searcher,
    );
    assert_eq!(s.state.slice_growth, 2);
}

/// Session 8: with `cut_keeps_window` a search resumed after a cut keeps the cut
/// search's window (same depth, not a bad bound); otherwise the scheduler's window.
#[test]
fn a_resumed_search_keeps_its_window() {
    let w = Work {
        leaf: 1,
        depth: 5,
        alpha: -10,
        beta: 10,
        required: true,
        bad: false,
        untouched: false,
    };
    let r = resumed_window(w, Some((5, -3, 17)), true);
    assert_eq!((r.alpha, r.beta, r.depth), (-3, 17, 5));
    assert_eq!(resumed_window(w, Some((5, -3, 17)), false), w);
    assert_eq!(resumed_window(w, Some((4, -3, 17)), true), w);
    let bad = Work { bad: true, ..w };
    assert_eq!(resumed_window(bad, Some((5, -3, 17)), true), bad);
    assert_eq!(resumed_window(w, None, true), w);
}

/// Session 8: `exact_spare` windows, and the slave with nothing required in the last
/// iteration makes the highest-priority touched bound exact before untouched leaves.
#[test]
fn spare_time_makes_bounds_exact() {
    assert_eq!(exact_window(5, INFINITY, 20), Some((4, 25)));
    assert_eq!(exact_window(-INFINITY, 5, 20), Some((-15, 6)));
    assert_eq!(exact_window(-3, 8, 20), Some((-4, 9)));
    assert_eq!(exact_window(4, 4, 20), None);
    assert_eq!(exact_window(-INFINITY, INFINITY, 20), None);
    let mut s = state(10, &[(1, 9, 6), (2, 12, 6), (3, 0, 4)]);
    for id in [1, 2] {
        let l = s.leaves.get_mut(&id).expect("leaf");
        l.bounds.record(
            6,
            Bounds {
                lower: 7,
                upper: INFINITY,
            },
        );
    }
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.untouched), (3, true), "off: untouched first");
    s.exact_spare = true;
    let w = s.pick().expect("work");
    assert_eq!(
        (w.leaf, w.depth, w.alpha, w.beta, w.required),
        (2, 6, 6, 7 + 2 * s.window, false)
    );
}

/// Session 8: with `catch_up_from = 2` a leaf far below its required depth (figure 5.3's
/// leaf 7: nothing searched, 6 plies needed) starts at 4 plies; one within 2 plies of it
/// goes on one ply at a time; run-ahead is unchanged.
#[test]
fn catch_up_starts_near_the_required_depth() {
    assert_eq!(catch_up_depth(0, 6, 0), 1);
    assert_eq!(catch_up_depth(0, 6, 2), 4);
    assert_eq!(catch_up_depth(4, 6, 2), 5);
    assert_eq!(catch_up_depth(5, 6, 2), 6);
    assert_eq!(catch_up_depth(6, 6, 2), 7);
    assert_eq!(catch_up_depth(0, 2, 3), 1);
    let mut s = state(10, &[(1, 9, 4), (4, 8, 3), (7, 5, 0)]);
    s.catch_up_from = 2;
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (7, 4, true));
}

/// Figure 5.3, slave 1: leaves 1, 4 and 7 searched to 4, 3 and 0 plies; the 10-ply search
/// with d' = 4 needs 6: leaf 7 goes first, to 1 ply.
#[test]
fn the_shallowest_leaf_goes_first() {
    let s = state(10, &[(1, 9, 4), (4, 8, 3), (7, 5, 0)]);
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (7, 1, true));
}

/// Figure 5.3, slave 2: leaves 2 and 5 both at 5 plies; 2 is further left (higher
/// priority) and is searched to 6 first. A leaf of priority 0 is never chosen.
#[test]
fn then_the_higher_priority() {
    let s = state(10, &[(2, 11, 5), (5, 9, 5), (8, 0, 0)]);
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth), (2, 6));
}

/// Figure 5.6: a slave whose touched leaves all have the required depth extends them
/// speculatively, highest priority first; a bad bound preempts everything.
#[test]
fn speculation_after_the_required_work_and_bad_bounds_first() {
    let mut s = state(10, &[(1112, 13, 6), (2111, 8, 6)]);
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (1112, 7, false));
    s.leaves.get_mut(&2111).expect("leaf").bad = Some(BadBound {
        depth: 6,
        alpha: -3,
        beta: 4,
    });
    let w = s.pick().expect("work");
    assert_eq!(
        (w.leaf, w.depth, w.alpha, w.beta, w.bad),
        (2111, 6, -3, 4, true)
    );
    assert!(!s.is_done());
}
