//! The split engine's `SplitPolicy::Ybw` (`ybw`/`delaysplit`, plain and YBWC*) and
//! `SplitPolicy::Never` (`alphabeta`) beyond the agreement matrix's setting
//! (`control/src/parallel/split_ab/README.md`): every value equals sequential alpha-beta's on
//! seeded positions of every game, on the simulator (with and without faults) and on threads,
//! with alpha-beta and with PVS (minimal windows) at the engine frames, and without ordering
//! (the papers' frames); `Never` moves no work, `Ybw` does. On Othello, YBWC* gives away the
//! children of type-3 nodes before any is done and never splits a type-2 node before its
//! reasonable moves are done, and plain YBW does the opposite.

mod common;

use common::{
    agreement_config, depth_within_budget, extra_figure, random_position, sequential_alphabeta,
    sim_backend,
};

use common::Lcg;
use control::parallel::ParallelOptions;
use control::parallel::delaysplit::YbwRule;
use control::parallel::split_ab::{SplitPolicy, run};
use control::search::{Algorithm, SearchConfig};
use dib::Backend;
use games::{Game, GameId, GameInfo, GameVisitor};

/// The leaf and frame settings: the agreement tests' (alpha-beta, table, ordering), the same
/// with PVS, and the papers' (no ordering, so no engine frames).
fn configs() -> [SearchConfig; 3] {
    let ab = agreement_config();
    [
        ab,
        SearchConfig {
            algorithm: Algorithm::Pvs,
            ..ab
        },
        SearchConfig {
            move_ordering: false,
            ..ab
        },
    ]
}

fn options(
    depth: u32,
    procs: usize,
    backend: Backend,
    min_split: u32,
    search: SearchConfig,
) -> ParallelOptions {
    let mut o = ParallelOptions::new(depth, procs, backend);
    o.search = search;
    o.min_split_depth = min_split;
    o
}

struct Policies;

impl GameVisitor for Policies {
    type Output = u64;

    fn visit<G: Game>(self, info: &'static GameInfo) -> u64 {
        let name = info.name;
        let mut rng = Lcg(17);
        let mut moved = 0;
        for i in 0..3 {
            let pos: G = random_position(&mut rng, i * 3 % 11);
            if pos.outcome().is_some() {
                continue;
            }
            let Some((depth, _)) = depth_within_budget(&pos, 5, 20_000) else {
                continue;
            };
            let want = sequential_alphabeta(&pos, depth);
            for policy in [
                SplitPolicy::Ybw(YbwRule::Plain),
                SplitPolicy::Ybw(YbwRule::Star),
                SplitPolicy::Never,
            ] {
                let mut backends = vec![
                    (1, sim_backend(3, "")),
                    (3, sim_backend(5, "")),
                    (8, sim_backend(7, "")),
                    (5, sim_backend(9, "drop=1/20,dup=1/20,delay=1/20")),
                    (2, Backend::Threads { seed: 5 }),
                ];
                for (procs, backend) in backends.drain(..) {
                    for (search, min_split) in configs().into_iter().zip([1, 2, 1]) {
                        let o = options(depth, procs, backend.clone(), min_split, search);
                        let r = run(policy, &pos, &o)
                            .unwrap_or_else(|e| panic!("{name} {policy:?}: {e}"));
                        assert_eq!(
                            r.value,
                            want,
                            "{name} {policy:?} depth {depth} on {} x{procs} ({:?}, ordering {}), \
                             position {pos}",
                            o.backend.name(),
                            search.algorithm,
                            search.move_ordering
                        );
                        let splits = r.total.dib.splits;
                        if policy == SplitPolicy::Never {
                            assert_eq!(splits, 0, "{name}: Never split");
                        }
                        moved += splits;
                    }
                }
            }
        }
        moved
    }
}

#[test]
fn ybw_and_never_on_split_ab_agree_with_sequential_alphabeta() {
    let mut moved = 0;
    for &g in GameId::ALL {
        moved += g.visit(Policies);
    }
    assert!(moved > 0, "Ybw never moved work");
}

/// The splits of delay splitting under `rule` on an Othello position 20 plies into a seeded
/// game, 7 plies on 8 simulated processors in the research setting (PVS, table, ordering):
/// type-2 splits before the frame's reasonable moves were done, and type-3 splits before any
/// child was done.
fn othello_splits(rule: YbwRule) -> (f64, f64) {
    let pos: games::othello::Othello8 = random_position(&mut Lcg(5), 20);
    assert!(pos.outcome().is_none());
    let mut o = ParallelOptions::new(7, 8, sim_backend(11, ""));
    o.search = SearchConfig {
        tt_mib: 1,
        ..SearchConfig::research()
    };
    let r = run(SplitPolicy::Ybw(rule), &pos, &o).expect("a run");
    assert_eq!(r.value, sequential_alphabeta(&pos, 7), "{rule}");
    (
        extra_figure(&r, "splits_type2_early"),
        extra_figure(&r, "splits_type3_unstarted"),
    )
}

#[test]
fn ybwc_star_splits_by_node_type() {
    let (early, unstarted) = othello_splits(YbwRule::Star);
    assert_eq!(
        early, 0.0,
        "YBWC* split a type-2 node before its reasonable moves"
    );
    assert!(unstarted > 0.0, "YBWC* made type-3 nodes wait");
    let (early, unstarted) = othello_splits(YbwRule::Plain);
    assert!(early > 0.0, "plain YBW waited for the reasonable moves");
    assert_eq!(
        unstarted, 0.0,
        "plain YBW split a type-3 node before its eldest"
    );
}
