//! The split engine's `SplitPolicy::Ybw` (`ybw`/`delaysplit`, plain and YBWC*, windows spread
//! or by value), `SplitPolicy::Er` with always one active e-child, and `SplitPolicy::Never`
//! (`alphabeta`) beyond the agreement matrix's setting
//! (`control/src/parallel/split_ab/README.md`): every value equals sequential alpha-beta's on
//! seeded positions of every game, on the simulator (with and without faults) and on threads,
//! with alpha-beta and with PVS (minimal windows) at the engine frames, and without ordering
//! (the papers' frames); `Never` moves no work, `Ybw` does. On Othello, YBWC* gives away the
//! children of type-3 nodes before any is done and never splits a type-2 node before its
//! reasonable moves are done, and plain YBW does the opposite. In seed 003's setting, delay
//! splitting by value sends no window to a running piece, and ER with always one active e-child
//! starts e-children after earlier extra ones are done, and searches sequential ER's tree on one
//! processor.

mod common;

use common::{
    agreement_config, depth_within_budget, extra_figure, random_position, sequential_alphabeta,
    sim_backend,
};

use common::Lcg;
use control::parallel::ParallelOptions;
use control::parallel::delaysplit::{YbwRule, YbwWindows};
use control::parallel::er::ErEChildren;
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
            let (spread, by_value) = (YbwWindows::Spread, YbwWindows::ByValue);
            let (split, active) = (ErEChildren::Split, ErEChildren::Active);
            let cases = [
                (SplitPolicy::Ybw(YbwRule::Plain), spread, split),
                (SplitPolicy::Ybw(YbwRule::Star), spread, split),
                (SplitPolicy::Ybw(YbwRule::Plain), by_value, split),
                (SplitPolicy::Er, spread, active),
                (SplitPolicy::Never, spread, split),
            ];
            for (policy, windows, e_children) in cases {
                let mut backends = vec![
                    (1, sim_backend(3, "")),
                    (3, sim_backend(5, "")),
                    (8, sim_backend(7, "")),
                    (5, sim_backend(9, "drop=1/20,dup=1/20,delay=1/20")),
                    (2, Backend::Threads { seed: 5 }),
                ];
                for (procs, backend) in backends.drain(..) {
                    for (search, min_split) in configs().into_iter().zip([1, 2, 1]) {
                        let mut o = options(depth, procs, backend.clone(), min_split, search);
                        o.ybw_windows = windows;
                        o.er_e_children = e_children;
                        let r = run(policy, &pos, &o)
                            .unwrap_or_else(|e| panic!("{name} {policy:?}: {e}"));
                        assert_eq!(
                            r.value,
                            want,
                            "{name} {policy:?} ({}, {}) depth {depth} on {} x{procs} ({:?}, \
                             ordering {}), position {pos}",
                            o.ybw_windows,
                            o.er_e_children,
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

/// Seed 003's setting (unsorted 4x4 tic-tac-toe, splitting down to 2 plies) on `procs`
/// simulated processors, 7 plies from the empty board.
fn seed003(procs: usize) -> ParallelOptions {
    options(7, procs, sim_backend(13, ""), 2, SearchConfig::unsorted())
}

/// Delay splitting by value (seed 003 section 3.6): no piece ever gets a narrowed window,
/// where spreading sends many, and the value is alpha-beta's either way.
#[test]
fn delay_splitting_by_value_sends_no_window_to_running_pieces() {
    let pos = games::tictactoe::TicTacToe4::start();
    let want = sequential_alphabeta(&pos, 7);
    let updates = |windows: YbwWindows| {
        let mut o = seed003(8);
        o.ybw_windows = windows;
        let r = run(SplitPolicy::Ybw(YbwRule::Plain), &pos, &o).expect("a run");
        assert_eq!(r.value, want, "{windows}");
        assert!(r.total.dib.splits > 0, "{windows}: no split");
        extra_figure(&r, "window_updates")
    };
    assert!(
        updates(YbwWindows::Spread) > 0.0,
        "spreading sent no window"
    );
    assert_eq!(updates(YbwWindows::ByValue), 0.0, "by value sent a window");
}

/// ER with always one active e-child (seed 003 section 3.5): on 8 processors an e-node starts
/// a further e-child after an extra one is done, which a second e-child per split never does;
/// on one processor nothing is handed out and it searches exactly sequential ER's tree.
#[test]
fn er_keeps_one_active_e_child_once_its_children_run_in_parallel() {
    let pos = games::tictactoe::TicTacToe4::start();
    let want = sequential_alphabeta(&pos, 7);
    let er = |rule: ErEChildren, procs: usize| {
        let mut o = seed003(procs);
        o.er_e_children = rule;
        let r = run(SplitPolicy::Er, &pos, &o).expect("a run");
        assert_eq!(r.value, want, "{rule} x{procs}");
        r
    };
    let split = er(ErEChildren::Split, 8);
    let active = er(ErEChildren::Active, 8);
    assert_eq!(extra_figure(&split, "later_e_children"), 0.0);
    assert!(extra_figure(&active, "later_e_children") > 0.0);
    assert!(
        extra_figure(&active, "extra_e_children") > extra_figure(&split, "extra_e_children"),
        "active: {:?}, split: {:?}",
        active.extra,
        split.extra
    );
    let (one_split, one_active) = (er(ErEChildren::Split, 1), er(ErEChildren::Active, 1));
    assert_eq!(one_active.nodes, one_split.nodes);
    assert_eq!(extra_figure(&one_active, "extra_e_children"), 0.0);
}
