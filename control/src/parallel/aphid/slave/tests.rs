//! Unit tests of the slave: scheduling and windows.

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
                cut: None,
            },
        );
    }
    s.state
}

/// Required work gets `window` either side of the hypothetical value (turned to the leaf's
/// side), run-ahead twice that, whatever the leaf's place in the master's tree.
#[test]
fn required_and_run_ahead_windows() {
    // Leaves at ply 4: priority 4 * 5 + 2 = 22 is all type 1; 4 * 3 + 2 = 14 is not.
    let mut s = state(10, &[(1, 22, 5), (2, 14, 5), (3, 14, 6)]);
    s.epoch.hypothesis = 30;
    let window = |s: &SlaveState<TicTacToe3>, leaf| {
        let w = s.pick().expect("work");
        assert_eq!(w.leaf, leaf);
        (w.alpha, w.beta)
    };
    let w = s.window;
    assert_eq!(window(&s, 1), (30 - w, 30 + w), "the principal variation");
    s.leaves.remove(&1);
    assert_eq!(window(&s, 2), (30 - w, 30 + w), "an alternative branch");
    s.leaves.remove(&2);
    assert_eq!(window(&s, 3), (30 - 2 * w, 30 + 2 * w), "run-ahead");
    let l = s.leaves.get_mut(&3).expect("leaf");
    (l.ply, l.searched) = (3, 7);
    assert_eq!(window(&s, 3), (-30 - 2 * w, -30 + 2 * w), "the other side");
}

/// A decisive hypothetical value is centred on too, moved to the leaf's distance to the end:
/// a mate in 5 plies from the root is a loss in 2 at a leaf 3 plies down; the window stays
/// within the score range.
#[test]
fn decisive_hypotheses_keep_a_window_on_the_leafs_scale() {
    use games::score::{INFINITY, loss_in, win_in};
    let mut s = state(10, &[(1, 22, 5)]);
    s.epoch.hypothesis = win_in(5);
    let w = s.window;
    let pick = |s: &SlaveState<TicTacToe3>| {
        let x = s.pick().expect("work");
        (x.alpha, x.beta)
    };
    assert_eq!(
        pick(&s),
        (win_in(1) - w, INFINITY),
        "4 plies down: a win in 1"
    );
    s.leaves.get_mut(&1).expect("leaf").ply = 3;
    assert_eq!(
        pick(&s),
        (-INFINITY, loss_in(2) + w),
        "3 plies down: a loss in 2"
    );
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

/// `pick = "priority"` (thesis 5.2.3, "the node with the highest priority is always scheduled
/// until it has been searched to the requisite depth"): figure 5.3's slave 1 searches leaf 1
/// (the highest priority, 4 plies of 6) before the shallower leaves 4 and 7, one ply at a
/// time; the default `deficit` takes leaf 7. Once every leaf has its 6 plies, the shallowest
/// runs ahead, priority second.
#[test]
fn the_priority_order_takes_the_highest_priority_required_leaf() {
    let leaves = [(1, 9, 4), (4, 8, 3), (7, 5, 0)];
    let mut s = state(10, &leaves);
    assert_eq!(s.pick, PickOrder::Deficit);
    assert_eq!(s.pick().expect("work").leaf, 7);
    s.pick = PickOrder::Priority;
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (1, 5, true));
    s.leaves.get_mut(&1).expect("leaf").searched = 6;
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (4, 4, true));
    // A required leaf goes before run-ahead on a higher-priority one.
    s.leaves.get_mut(&4).expect("leaf").searched = 6;
    assert_eq!(s.pick().expect("work").leaf, 7);
    // All at the required depth: run-ahead, shallowest first, then priority.
    let mut s = state(10, &[(1, 9, 7), (4, 8, 6), (7, 5, 6)]);
    s.pick = PickOrder::Priority;
    let w = s.pick().expect("work");
    assert_eq!((w.leaf, w.depth, w.required), (4, 7, false));
}
