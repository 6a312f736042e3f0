//! The split engine's `SplitPolicy::Ybw` (`ybw`/`delaysplit`, plain and YBWC*, windows spread
//! or by value), `SplitPolicy::Er` with always one active e-child, and `SplitPolicy::Never`
//! (`alphabeta`) beyond the agreement matrix's setting
//! (`control/src/parallel/split_ab/README.md`): every value equals sequential alpha-beta's on
//! seeded positions of every game, on the simulator (with and without faults) and on threads,
//! with alpha-beta and with PVS (minimal windows) at the engine frames, and without ordering
//! (the papers' frames); `Never` moves no work, `Ybw` does. On Othello, YBWC* gives away the
//! children of type-3 nodes before any is done and never splits a type-2 node before its
//! reasonable moves are done, and plain YBW does the opposite. In Rezaie and Finkel's setting,
//! delay splitting by value sends no window to a running piece, and ER with always one active
//! e-child starts e-children after earlier extra ones are done, and searches sequential ER's tree
//! on one processor.

use crate::common;

use common::{
    agreement_config, depth_within_budget, random_position, sequential_alphabeta, sim_backend,
};

use common::Lcg;
use control::parallel::delaysplit::{YbwRule, YbwWindows};
use control::parallel::er::ErEChildren;
use control::parallel::split_ab::{SplitPolicy, run};
use control::parallel::{ParallelOptions, ParallelResult};
use control::search::{Algorithm, SearchConfig};
use dib::Backend;
use games::tictactoe::Cell;
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

/// The policies to check, each with delay splitting's windows and ER's e-children rule.
struct Policies(Vec<(SplitPolicy, YbwWindows, ErEChildren)>);

/// `policies` with the engine's default windows and e-children rule.
fn defaults(policies: &[SplitPolicy]) -> Policies {
    Policies(
        policies
            .iter()
            .map(|&p| (p, YbwWindows::Spread, ErEChildren::Split))
            .collect(),
    )
}

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
            for &(policy, windows, e_children) in &self.0 {
                let mut backends = vec![
                    (1, sim_backend(3, "")),
                    (3, sim_backend(5, "")),
                    (8, sim_backend(7, "")),
                    (5, sim_backend(9, "drop=1/20,dup=1/20,delay=1/20")),
                    // Nothing lost: a tree-splitting root stays only a master.
                    (4, sim_backend(13, "dup=1/20,delay=1/20")),
                    (2, Backend::Threads { seed: 5 }),
                ];
                for (procs, backend) in backends.drain(..) {
                    for (search, min_split) in configs().into_iter().zip([1, 2, 1]) {
                        let mut o = options(depth, procs, backend.clone(), min_split, search);
                        o.algo.ybw.ybw_windows = Some(windows);
                        o.algo.er.er_e_children = Some(e_children);
                        let r = run(policy, &pos, &o)
                            .unwrap_or_else(|e| panic!("{name} {policy:?}: {e}"));
                        assert_eq!(
                            r.value,
                            want,
                            "{name} {policy:?} ({}, {}) depth {depth} on {} x{procs} ({:?}, \
                             ordering {}), position {pos}",
                            o.algo.ybw.windows(),
                            o.algo.er.e_children(),
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
        let (spread, by_value) = (YbwWindows::Spread, YbwWindows::ByValue);
        let (split, active) = (ErEChildren::Split, ErEChildren::Active);
        moved += g.visit(Policies(vec![
            (SplitPolicy::Ybw(YbwRule::Plain), spread, split),
            (SplitPolicy::Ybw(YbwRule::Star), spread, split),
            (SplitPolicy::Ybw(YbwRule::Plain), by_value, split),
            (SplitPolicy::Er, spread, active),
            (SplitPolicy::Never, spread, split),
        ]));
    }
    assert!(moved > 0, "Ybw never moved work");
}

/// Rezaie and Finkel's readings of tree splitting (the root's processor only a master) and PV
/// splitting (alpha-beta's windows, tree splitting below the type-1 nodes; its type-1 nodes'
/// processor a worker or only a master) return sequential alpha-beta's value.
#[test]
fn tree_splitting_master_and_rezaie_finkel_pv_splitting_agree_with_sequential_alphabeta() {
    let mut moved = 0;
    for &g in GameId::ALL {
        moved += g.visit(defaults(&[
            SplitPolicy::TreeSplit {
                split_depth: 2,
                master_root: true,
            },
            SplitPolicy::PvSplitRf {
                split_depth: 2,
                master_root: false,
            },
            SplitPolicy::PvSplitRf {
                split_depth: 2,
                master_root: true,
            },
        ]));
    }
    assert!(moved > 0, "neither moved work");
}

/// Unsorted 4x4 tic-tac-toe from the start, 7 plies, `procs` simulated processors, every level
/// split (the papers' setting).
fn tictactoe_run(policy: SplitPolicy, procs: usize, faults: &str) -> ParallelResult<Cell> {
    let pos = games::tictactoe::TicTacToe4::start();
    let mut o = ParallelOptions::new(7, procs, sim_backend(21, faults));
    o.search = SearchConfig::unsorted();
    o.min_split_depth = 2;
    let r = run(policy, &pos, &o).expect("a run");
    assert_eq!(
        r.value,
        sequential_alphabeta(&pos, 7),
        "{policy:?} on {procs}"
    );
    r
}

/// Rezaie and Finkel section 3.3: "the root processor ... is only a master". With `master_root` the
/// root's processor searches none of the root's children on 8 processors (it does without,
/// and on one processor it must); on a machine that loses messages it keeps DIB's redo and so
/// searches too.
#[test]
fn the_tree_splitting_root_is_only_a_master() {
    let tree = |master_root| SplitPolicy::TreeSplit {
        split_depth: 2,
        master_root,
    };
    let here = |r: &ParallelResult<Cell>| r.figures.root_children_here.unwrap_or(0);
    let master = tictactoe_run(tree(true), 8, "");
    assert_eq!(here(&master), 0, "the master searched a root child");
    assert!(master.figures.widest_split.is_some_and(|w| w <= 10));
    assert!(here(&tictactoe_run(tree(false), 8, "")) > 0);
    assert_eq!(here(&tictactoe_run(tree(true), 1, "")), 16);
    assert!(here(&tictactoe_run(tree(true), 5, "drop=1/50")) > 0);
}

/// Rezaie and Finkel section 3.4: PV splitting evaluates the siblings of a type-1 node by tree
/// splitting, with alpha-beta's windows: frames below the type-1 nodes split (none does in
/// Marsland and Popowich's form) and no minimal window or re-search is ever searched.
#[test]
fn rezaie_finkel_pv_splitting_splits_below_the_type_one_nodes() {
    let rf = tictactoe_run(
        SplitPolicy::PvSplitRf {
            split_depth: 2,
            master_root: false,
        },
        8,
        "",
    );
    let f = rf.figures;
    assert!(f.splits_type1 > Some(0));
    assert!(f.splits_other > Some(0), "no tree splitting below");
    assert_eq!(f.minimal_windows, Some(0));
    assert_eq!(f.researches, Some(0));
    let mp = tictactoe_run(SplitPolicy::PvSplit, 8, "").figures;
    assert_eq!(mp.splits_other, Some(0));
    assert!(mp.minimal_windows > Some(0));
}

/// The splits of delay splitting under `rule` on an Othello position 20 plies into a seeded
/// game, 7 plies on 8 simulated processors in the research setting (PVS, table, ordering):
/// type-2 splits before the frame's reasonable moves were done, and type-3 splits before any
/// child was done.
fn othello_splits(rule: YbwRule) -> (u64, u64) {
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
        r.figures.splits_type2_early.unwrap_or(0),
        r.figures.splits_type3_unstarted.unwrap_or(0),
    )
}

#[test]
fn ybwc_star_splits_by_node_type() {
    let (early, unstarted) = othello_splits(YbwRule::Star);
    assert_eq!(
        early, 0,
        "YBWC* split a type-2 node before its reasonable moves"
    );
    assert!(unstarted > 0, "YBWC* made type-3 nodes wait");
    let (early, unstarted) = othello_splits(YbwRule::Plain);
    assert!(early > 0, "plain YBW waited for the reasonable moves");
    assert_eq!(
        unstarted, 0,
        "plain YBW split a type-3 node before its eldest"
    );
}

/// Rezaie and Finkel's setting (unsorted 4x4 tic-tac-toe, splitting down to 2 plies) on `procs`
/// simulated processors, 7 plies from the empty board.
fn rezaie_finkel_options(procs: usize) -> ParallelOptions {
    options(7, procs, sim_backend(13, ""), 2, SearchConfig::unsorted())
}

/// Delay splitting by value (Rezaie and Finkel section 3.6): no piece ever gets a narrowed window,
/// where spreading sends many, and the value is alpha-beta's either way.
#[test]
fn delay_splitting_by_value_sends_no_window_to_running_pieces() {
    let pos = games::tictactoe::TicTacToe4::start();
    let want = sequential_alphabeta(&pos, 7);
    let updates = |windows: YbwWindows| {
        let mut o = rezaie_finkel_options(8);
        o.algo.ybw.ybw_windows = Some(windows);
        let r = run(SplitPolicy::Ybw(YbwRule::Plain), &pos, &o).expect("a run");
        assert_eq!(r.value, want, "{windows}");
        assert!(r.total.dib.splits > 0, "{windows}: no split");
        r.figures.window_updates.unwrap_or(0)
    };
    assert!(updates(YbwWindows::Spread) > 0, "spreading sent no window");
    assert_eq!(updates(YbwWindows::ByValue), 0, "by value sent a window");
}

/// ER with always one active e-child (Rezaie and Finkel section 3.5): on 8 processors an e-node
/// starts a further e-child after an extra one is done, which a second e-child per split never
/// does; on one processor nothing is handed out and it searches exactly sequential ER's tree.
#[test]
fn er_keeps_one_active_e_child_once_its_children_run_in_parallel() {
    let pos = games::tictactoe::TicTacToe4::start();
    let want = sequential_alphabeta(&pos, 7);
    let er = |rule: ErEChildren, procs: usize| {
        let mut o = rezaie_finkel_options(procs);
        o.algo.er.er_e_children = Some(rule);
        let r = run(SplitPolicy::Er, &pos, &o).expect("a run");
        assert_eq!(r.value, want, "{rule} x{procs}");
        r
    };
    let split = er(ErEChildren::Split, 8);
    let active = er(ErEChildren::Active, 8);
    assert_eq!(split.figures.later_e_children, Some(0));
    assert!(active.figures.later_e_children > Some(0));
    assert!(
        active.figures.extra_e_children > split.figures.extra_e_children,
        "active: {:?}, split: {:?}",
        active.figures,
        split.figures
    );
    let (one_split, one_active) = (er(ErEChildren::Split, 1), er(ErEChildren::Active, 1));
    assert_eq!(one_active.nodes, one_split.nodes);
    assert_eq!(one_active.figures.extra_e_children, Some(0));
}
