//! Alpha-beta on the synthetic tree through DIB: window updates spread to the processors below
//! a node, cut-off subtrees are aborted, and delayed evaluation holds back young brothers; the
//! root value is the exact negamax value on every backend, processor count, seed and fault
//! plan.

use crate::common;

use dib::Backend;
use dib::examples::alphabeta_tree::{AbProblem, AlphaBetaTree, Window};
use dib::examples::random_tree::{TreeNode, TreeShape, negamax};

const SHAPE: TreeShape = TreeShape {
    min_branch: 2,
    max_branch: 7,
    spread: 200,
};

fn app(eldest_first: bool) -> AlphaBetaTree {
    AlphaBetaTree {
        shape: SHAPE,
        min_height: 1,
        eldest_first,
    }
}

fn problem(node: TreeNode) -> AbProblem {
    AbProblem {
        node,
        window: Window::FULL,
    }
}

#[test]
fn exact_value_on_1_to_64_simulated_processors_and_1_to_4_threads() {
    let (mut updates, mut aborts) = (0, 0);
    for seed in 0..4u64 {
        let root = TreeNode::root(seed, 7);
        let want = negamax(&root, &SHAPE).0;
        for procs in 1..=64 {
            let s = seed * 100 + procs as u64;
            let r = common::run(
                app(seed % 2 == 0),
                problem(root),
                procs,
                &common::sim("shared-memory", s, ""),
            );
            assert_eq!(r.value, want, "{procs} processors, seed {s}");
            updates += r.total.dib.updates;
            aborts += r.total.dib.aborts;
        }
        for procs in 1..=4 {
            let r = common::run(
                app(seed % 2 == 1),
                problem(root),
                procs,
                &Backend::Threads { seed },
            );
            assert_eq!(r.value, want, "{procs} threads, tree {seed}");
        }
    }
    // Information spreading and aborts really happened.
    assert!(
        updates > 100 && aborts > 100,
        "{updates} updates, {aborts} aborts"
    );
}

#[test]
fn exact_value_under_faults_over_hundreds_of_seeds() {
    let plans = [
        "drop=1/10,dup=1/10",
        "delay=1/4,corrupt=1/10",
        "crash=2@300",
        "crash=1@50+2000,crash=3@800,drop=1/25,dup=1/25,delay=1/25,corrupt=1/25",
    ];
    for seed in 0..300u64 {
        let root = TreeNode::root(seed, 5 + (seed % 2) as u32);
        let want = negamax(&root, &SHAPE).0;
        let plan = plans[seed as usize % plans.len()];
        let procs = 4 + (seed as usize % 13);
        let preset = if seed % 3 == 0 {
            "sun4-pvm"
        } else {
            "shared-memory"
        };
        let r = common::run(
            app(seed % 5 == 0),
            problem(root),
            procs,
            &common::sim(preset, seed, plan),
        );
        assert_eq!(
            r.value, want,
            "{procs} processors, faults {plan}, seed {seed}"
        );
    }
}

/// The long sweep: 3,000 faulty seeds on larger trees and up to 96 processors.
/// `cargo test --release -p dib --test it alphabeta_tree:: -- --ignored`
#[test]
#[ignore = "long sweep; run with --ignored"]
fn long_sweep_under_faults() {
    let plans = [
        "drop=1/5,dup=1/5,delay=1/5,corrupt=1/5",
        "crash=1@100,crash=2@200,crash=3@300+5000,drop=1/20",
        "crash=4@1000+1000,crash=5@3000,dup=1/3,delay=1/3",
    ];
    for seed in 0..3_000u64 {
        let root = TreeNode::root(seed, 6 + (seed % 2) as u32);
        let want = negamax(&root, &SHAPE).0;
        let plan = plans[seed as usize % plans.len()];
        let procs = 6 + (seed as usize % 91);
        let preset = ["shared-memory", "sun4-pvm", "pdp11"][seed as usize % 3];
        let r = common::run(
            app(seed % 2 == 0),
            problem(root),
            procs,
            &common::sim(preset, seed, plan),
        );
        assert_eq!(
            r.value, want,
            "{procs} processors, {preset}, faults {plan}, seed {seed}"
        );
    }
}
