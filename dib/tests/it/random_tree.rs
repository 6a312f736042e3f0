//! The synthetic min/max tree through DIB: the negamax value on every backend, processor
//! count, seed and fault plan.

use crate::common;

use dib::Backend;
use dib::examples::random_tree::{RandomTree, TreeNode, TreeShape, negamax};

const APP: RandomTree = RandomTree {
    shape: TreeShape {
        min_branch: 2,
        max_branch: 6,
        spread: 1000,
    },
    min_height: 1,
};

#[test]
fn same_value_on_1_to_64_simulated_processors_and_1_to_4_threads() {
    let root = TreeNode::root(42, 7);
    let (want, _) = negamax(&root, &APP.shape);
    for procs in 1..=64 {
        let r = common::run(
            APP,
            root,
            procs,
            &common::sim("shared-memory", procs as u64, ""),
        );
        assert_eq!(r.value, want, "{procs} processors, seed {procs}");
    }
    for procs in 1..=4 {
        let r = common::run(APP, root, procs, &Backend::Threads { seed: 1 });
        assert_eq!(r.value, want, "{procs} threads");
    }
}

#[test]
fn same_value_under_faults_over_hundreds_of_seeds() {
    let plans = [
        "drop=1/10,dup=1/10",
        "delay=1/4,corrupt=1/10",
        "crash=2@500",
        "crash=1@50+2000,crash=3@800,drop=1/25,dup=1/25,delay=1/25,corrupt=1/25",
    ];
    for seed in 0..300u64 {
        let root = TreeNode::root(seed, 4 + (seed % 3) as u32);
        let (want, _) = negamax(&root, &APP.shape);
        let plan = plans[seed as usize % plans.len()];
        let procs = 4 + (seed as usize % 13);
        let preset = if seed % 2 == 0 {
            "shared-memory"
        } else {
            "pdp11"
        };
        let r = common::run(APP, root, procs, &common::sim(preset, seed, plan));
        assert_eq!(
            r.value, want,
            "{procs} processors, faults {plan}, seed {seed}"
        );
    }
}
