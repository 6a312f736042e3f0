//! The simulator charges each kind of node its own cost: look-ahead (static-evaluation) nodes
//! of the sorting regimes, quiescence nodes, frames of the split engine, shared-table probes
//! and their contention; and
//! every preset stays deterministic.

use control::parallel::{self, ParallelAlgo, ParallelOptions, ParallelResult};
use control::search::{SortConfig, SortRegime};
use dib::{Backend, CostModel, SimConfig};
use games::Game;
use games::chess::Chess;
use games::tictactoe::TicTacToe4;

fn sim(cost: CostModel) -> Backend {
    Backend::Sim(SimConfig::new(cost, 7))
}

fn run<G: Game>(
    algo: ParallelAlgo,
    root: &G,
    depth: u32,
    procs: usize,
    backend: Backend,
    tweak: impl Fn(&mut ParallelOptions),
) -> ParallelResult<G::Move> {
    let mut o = ParallelOptions::for_algo(algo, depth, procs, backend);
    tweak(&mut o);
    parallel::search(algo, root, &o).expect("the search runs")
}

#[test]
fn a_look_ahead_node_is_charged_the_static_evaluation_cost() {
    let root = TicTacToe4::start();
    let sorted = |o: &mut ParallelOptions| {
        o.search.sorting = SortConfig {
            regime: SortRegime::EldestChild,
            ..SortConfig::default()
        };
    };
    let base = CostModel::shared_memory();
    let free = CostModel {
        static_eval_ns: Some(0),
        ..base.clone()
    };
    // One processor: the virtual time is exactly the sum of its charges.
    let a = run(
        ParallelAlgo::AlphaBeta,
        &root,
        5,
        1,
        sim(base.clone()),
        sorted,
    );
    let b = run(ParallelAlgo::AlphaBeta, &root, 5, 1, sim(free), sorted);
    let sort_nodes = a.figures.sort_nodes.unwrap_or(0);
    assert!(sort_nodes > 0, "the regime sorts");
    assert_eq!(a.value, b.value);
    assert_eq!(a.nodes, b.nodes);
    let difference = a.seconds - b.seconds;
    let expected = sort_nodes as f64 * base.node_ns as f64 / 1e9;
    assert!(
        (difference - expected).abs() < 1e-9,
        "look-ahead time {difference} s, expected {expected} s"
    );
}

#[test]
fn a_frame_of_the_split_engine_is_charged_the_frame_cost() {
    // MWF from the empty 4x4 board, 3 plies, frames at nodes with 2 plies or more left. The
    // engine deepens: iteration 1 opens no frame, iteration 2 opens the root, iteration 3 the
    // root and its 16 children (the root's window stays infinite, so every child is searched);
    // the nodes below are searched by the sequential searcher. 18 frames in all.
    let root = TicTacToe4::start();
    let split_at_two = |o: &mut ParallelOptions| o.min_split_depth = 2;
    let base = CostModel::shared_memory();
    let dear = CostModel {
        frame_ns: Some(base.node_ns + 1_000),
        ..base.clone()
    };
    let a = run(ParallelAlgo::Mwf, &root, 3, 1, sim(base), split_at_two);
    let b = run(ParallelAlgo::Mwf, &root, 3, 1, sim(dear), split_at_two);
    assert_eq!(a.nodes, b.nodes);
    // One processor: the virtual time is exactly the sum of its charges.
    let extra_ns = (b.seconds - a.seconds) * 1e9;
    assert!((extra_ns - 18_000.0).abs() < 0.5, "{extra_ns} ns more");
}

#[test]
fn quiescence_nodes_are_charged_their_own_cost() {
    // A middle-game position with captures, so that quiescence runs.
    let root =
        Chess::parse_position("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3")
            .expect("a valid FEN");
    let base = CostModel::shared_memory();
    let cheap = CostModel {
        quiescence_ns: Some(base.node_ns / 10),
        ..base.clone()
    };
    let a = run(ParallelAlgo::DelaySplit, &root, 3, 1, sim(base), |_| {});
    let b = run(ParallelAlgo::DelaySplit, &root, 3, 1, sim(cheap), |_| {});
    assert_eq!((a.value, a.nodes), (b.value, b.nodes));
    assert!(
        b.seconds < a.seconds,
        "cheaper quiescence nodes take less time: {} against {}",
        b.seconds,
        a.seconds
    );
}

#[test]
fn shared_table_probes_cost_more_when_more_processors_use_the_table_than_it_has_ports() {
    let root = TicTacToe4::start();
    let probing = CostModel {
        shared_probe_ns: 2_000,
        ..CostModel::shared_memory()
    };
    let contended = CostModel {
        shared_table_ports: 1,
        ..probing.clone()
    };
    let free = run(
        ParallelAlgo::LazySmp,
        &root,
        6,
        4,
        sim(CostModel::shared_memory()),
        |_| {},
    );
    let probed = run(ParallelAlgo::LazySmp, &root, 6, 4, sim(probing), |_| {});
    let queued = run(ParallelAlgo::LazySmp, &root, 6, 4, sim(contended), |_| {});
    assert_eq!(free.value, probed.value);
    assert_eq!(free.value, queued.value);
    assert!(
        probed.seconds > free.seconds,
        "probes of the shared table take time: {} against {}",
        probed.seconds,
        free.seconds
    );
    assert!(
        queued.seconds > probed.seconds,
        "four users of one port wait: {} against {}",
        queued.seconds,
        probed.seconds
    );
}

#[test]
fn aphid_slaves_probing_one_shared_table_pay_for_it() {
    let root = games::othello::Othello6::start();
    let shared = |o: &mut ParallelOptions| {
        o.aphid.tt = control::parallel::aphid::TtSharing::Shared;
    };
    let free = run(
        ParallelAlgo::Aphid,
        &root,
        6,
        4,
        sim(CostModel::shared_memory()),
        shared,
    );
    let probing = CostModel {
        shared_probe_ns: 5_000,
        ..CostModel::shared_memory()
    };
    let paid = run(ParallelAlgo::Aphid, &root, 6, 4, sim(probing), shared);
    assert_eq!(free.value, paid.value);
    assert!(
        paid.seconds > free.seconds,
        "shared probes take time: {} against {}",
        paid.seconds,
        free.seconds
    );
}

#[test]
fn every_preset_is_deterministic_and_agrees_on_the_value() {
    let root = TicTacToe4::start();
    let reference = run(
        ParallelAlgo::AlphaBeta,
        &root,
        5,
        1,
        sim(CostModel::shared_memory()),
        |_| {},
    )
    .value;
    for name in dib::preset_names() {
        let cost = CostModel::preset(name).expect("a built-in preset");
        for algo in [ParallelAlgo::DelaySplit, ParallelAlgo::LazySmp] {
            let a = run(algo, &root, 5, 4, sim(cost.clone()), |_| {});
            let b = run(algo, &root, 5, 4, sim(cost.clone()), |_| {});
            let hash = |r: &ParallelResult<_>| r.sim.map(|s| s.trace_hash);
            assert_eq!(hash(&a), hash(&b), "{name} {algo}: same seed, same trace");
            assert_eq!(a.seconds, b.seconds, "{name} {algo}");
            assert_eq!(a.value, reference, "{name} {algo}");
        }
    }
}

#[test]
fn a_preset_table_limit_caps_the_table_on_the_simulator() {
    let o = ParallelOptions {
        search: control::search::SearchConfig {
            tt_mib: 1024,
            ..control::search::SearchConfig::research()
        },
        ..ParallelOptions::new(4, 2, sim(CostModel::preset("origin2000").expect("preset")))
    };
    let fitted = o.fitted_to::<TicTacToe4>().expect("the table is capped");
    assert_eq!(fitted.search.tt_entries, Some(16_777_216));
    let threads = ParallelOptions {
        backend: Backend::Threads { seed: 1 },
        ..o
    };
    assert!(threads.fitted_to::<TicTacToe4>().is_none());
}

#[test]
fn pv_splitting_with_local_tables_probes_each_processors_own_table() {
    use control::parallel::split_ab::SplitTables;
    let root = TicTacToe4::start();
    let tables = |t: SplitTables| {
        move |o: &mut ParallelOptions| {
            o.split_tables = t;
        }
    };
    let probing = CostModel {
        shared_probe_ns: 50_000,
        ..CostModel::shared_memory()
    };
    let pv = |procs, cost: &CostModel, t| {
        run(
            ParallelAlgo::PvSplit,
            &root,
            7,
            procs,
            sim(cost.clone()),
            tables(t),
        )
    };
    let free = CostModel::shared_memory();
    let global = pv(4, &free, SplitTables::Global);
    let local = pv(4, &free, SplitTables::Local);
    assert_eq!(global.value, local.value);
    assert_ne!(
        global.nodes, local.nodes,
        "four tables remember less than one"
    );
    // One processor: its local table is the global one.
    let one = pv(1, &free, SplitTables::Global);
    let one_local = pv(1, &free, SplitTables::Local);
    assert_eq!(
        (one.nodes, one.seconds),
        (one_local.nodes, one_local.seconds)
    );
    // The probes of a global table several processors use are shared-table probes; a local
    // table's never are.
    let global_paid = pv(4, &probing, SplitTables::Global);
    let local_paid = pv(4, &probing, SplitTables::Local);
    assert!(
        global_paid.seconds > global.seconds,
        "the global table's probes take time: {} against {}",
        global_paid.seconds,
        global.seconds
    );
    assert_eq!(local_paid.seconds, local.seconds);
}
