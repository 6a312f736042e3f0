//! Parallel perft through DIB equals sequential perft, for every registered game, on both
//! backends, and under injected faults on the simulator.

use control::parallel_perft::{ParallelPerft, parallel_perft, parallel_perft_with};
use dib::{Backend, CostModel, FaultPlan, SimConfig};
use games::{Game, GameId, GameInfo, GameVisitor};

/// Leaves allowed per test position: the depth grows until sequential perft passes this.
const LEAF_BUDGET: u64 = 100_000;

fn sim(seed: u64, faults: &str) -> Backend {
    let mut c = SimConfig::new(CostModel::shared_memory(), seed);
    c.faults = faults.parse::<FaultPlan>().unwrap();
    Backend::Sim(c)
}

struct Check;

impl GameVisitor for Check {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let root = G::start();
        let mut depth = 1;
        while depth < 12 && root.clone().perft(depth + 1) <= LEAF_BUDGET {
            depth += 1;
        }
        let want = root.clone().perft(depth);
        let name = info.name;
        for procs in [1, 2, 3, 8, 16] {
            let seed = 17 * procs as u64;
            let r = parallel_perft(&root, depth, procs, &sim(seed, ""), None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                r.value, want,
                "{name} depth {depth}, {procs} simulated, seed {seed}"
            );
        }
        // Small bulk subtrees, so these small trees are split finely too; the nodes charged
        // are the same for every processor count (the same subtrees are bulk everywhere)
        // unless work was redone.
        let mut charged = None;
        for procs in [1, 2, 5, 16] {
            let seed = 29 * procs as u64;
            let app = ParallelPerft::<G>::new(1).with_bulk_nodes(1);
            let r = parallel_perft_with(app, &root, depth, procs, &sim(seed, ""), None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let what = format!("{name} depth {depth}, bulk 1, {procs} simulated, seed {seed}");
            assert_eq!(r.value, want, "{what}");
            let nodes = r.total.backend.nodes;
            let once = *charged.get_or_insert(nodes);
            // Work redone (a requester that gave up waiting) is charged again.
            if r.total.dib.work_redone == 0 {
                assert_eq!(once, nodes, "{what}");
            } else {
                assert!(nodes > once, "{what}");
            }
        }
        for procs in 1..=4 {
            let r = parallel_perft(&root, depth, procs, &Backend::Threads { seed: 1 }, None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(r.value, want, "{name} depth {depth}, {procs} threads");
        }
        for seed in 0..10 {
            let faults = "crash=2@2000,drop=1/20,dup=1/20,delay=1/20,corrupt=1/20";
            let app = ParallelPerft::<G>::new(1).with_bulk_nodes(1 + seed % 3 * 8);
            let r = parallel_perft_with(app, &root, depth, 6, &sim(seed, faults), None)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                r.value, want,
                "{name} depth {depth}, faults {faults}, seed {seed}"
            );
        }
    }
}

#[test]
fn parallel_perft_equals_sequential_perft_for_every_game() {
    for &g in GameId::ALL {
        g.visit(Check);
    }
}
