//! The setup of Rezaie and Finkel's experiments beyond the unsorted tree
//! (`unsorted.rs`): ER ignores the sorting regimes (it orders by its elder grandchildren), the
//! TT-sorting bug of section 5 is an option that is off by default, and the sorting depth bounds
//! the sorted nodes (6 on 6x6 Othello, as in section 5).

use control::parallel::dmwf::DmwfPromote;
use control::parallel::{ParallelAlgo, ParallelOptions, ParallelResult, search};
use control::search::{SearchConfig, Searcher, SortRegime, Unlimited};
use dib::{Backend, CostModel, SimConfig};
use games::Game;
use games::othello::Othello6;
use games::score::INFINITY;
use games::tictactoe::TicTacToe4;

fn sim() -> Backend {
    Backend::Sim(SimConfig::new(CostModel::preset("sequent").unwrap(), 1))
}

/// The look-ahead nodes of `r` (0 when nothing was sorted).
fn sort_nodes<M>(r: &ParallelResult<M>) -> u64 {
    r.figures.sort_nodes.unwrap_or(0)
}

fn run<G: Game>(
    algo: ParallelAlgo,
    pos: &G,
    depth: u32,
    procs: usize,
    config: SearchConfig,
) -> ParallelResult<G::Move> {
    let mut o = ParallelOptions::new(depth, procs, sim());
    o.search = config;
    o.min_split_depth = 2;
    search(algo, pos, &o).unwrap()
}

fn sorted(regime: SortRegime) -> SearchConfig {
    let mut c = SearchConfig::unsorted();
    c.sorting.regime = regime;
    c
}

/// ER searches the same tree, in the same virtual time, under every regime: no look-ahead.
/// MWF under EC sorting searches another (so the regimes reach the engine).
#[test]
fn er_orders_by_its_elder_grandchildren_whatever_the_regime() {
    let pos = TicTacToe4::start();
    for procs in [1, 4] {
        let plain = run(ParallelAlgo::Er, &pos, 6, procs, SearchConfig::unsorted());
        for &regime in SortRegime::ALL {
            let r = run(ParallelAlgo::Er, &pos, 6, procs, sorted(regime));
            assert_eq!(r.value, plain.value, "{regime} x{procs}");
            assert_eq!(r.nodes, plain.nodes, "{regime} x{procs}");
            assert_eq!(r.seconds, plain.seconds, "{regime} x{procs}");
            assert_eq!(sort_nodes(&r), 0, "{regime} x{procs}");
        }
        let mwf = run(ParallelAlgo::Mwf, &pos, 6, procs, SearchConfig::unsorted());
        let mwf_ec = run(
            ParallelAlgo::Mwf,
            &pos,
            6,
            procs,
            sorted(SortRegime::EldestChild),
        );
        assert!(sort_nodes(&mwf_ec) > 0);
        assert_ne!(mwf.nodes, mwf_ec.nodes);
    }
}

/// The bug is off by default; on, under TT sorting, type-2 nodes search only the expansion
/// depth, so far fewer nodes are searched (sequentially and in parallel); under EC sorting it
/// changes nothing.
#[test]
fn the_tt_sorting_bug_is_an_option_off_by_default() {
    assert!(!SearchConfig::research().sorting.type_two_bug);
    assert!(!SearchConfig::unsorted().sorting.type_two_bug);
    let pos = TicTacToe4::start();
    let buggy = |regime| {
        let mut c = sorted(regime);
        c.sorting.type_two_bug = true;
        c
    };
    let nodes = |config: SearchConfig| {
        let mut s = Searcher::<TicTacToe4>::new(config).unwrap();
        let _ = s.search_window(&pos, 7, -INFINITY, INFINITY, &mut Unlimited);
        (s.stats().nodes(), s.stats().sort_nodes)
    };
    let (right, wrong) = (
        nodes(sorted(SortRegime::TypeTwo)),
        nodes(buggy(SortRegime::TypeTwo)),
    );
    assert!(wrong.0 < right.0, "{wrong:?} against {right:?}");
    assert_eq!(
        nodes(sorted(SortRegime::EldestChild)),
        nodes(buggy(SortRegime::EldestChild))
    );
    for procs in [1, 4] {
        let right = run(
            ParallelAlgo::Mwf,
            &pos,
            7,
            procs,
            sorted(SortRegime::TypeTwo),
        );
        let wrong = run(
            ParallelAlgo::Mwf,
            &pos,
            7,
            procs,
            buggy(SortRegime::TypeTwo),
        );
        assert!(
            wrong.nodes < right.nodes,
            "x{procs}: {} against {}",
            wrong.nodes,
            right.nodes
        );
    }
}

/// Sorting depth on 6x6 Othello, 8 plies, EC sorting: a bound of 7 sorts every node that has
/// moves left to sort (the same look-ahead as no bound), 6 sorts fewer, sequentially and with
/// MWF on the simulator.
#[test]
fn the_sorting_depth_bounds_the_sorted_nodes_on_othello6() {
    let pos = Othello6::start();
    let config = |bound: u32| {
        let mut c = sorted(SortRegime::EldestChild);
        c.sorting.sorting_depth = bound;
        c
    };
    let look_ahead = |bound| {
        let mut s = Searcher::<Othello6>::new(config(bound)).unwrap();
        let r = s.search_window(&pos, 8, -INFINITY, INFINITY, &mut Unlimited);
        (r.value, s.stats().sort_nodes)
    };
    let (all, seven, six) = (look_ahead(u32::MAX), look_ahead(7), look_ahead(6));
    assert_eq!(all, seven);
    assert!(six.1 < seven.1 && six.1 > 0, "{six:?} against {seven:?}");
    assert_eq!(six.0, all.0);
    let mwf = |bound| sort_nodes(&run(ParallelAlgo::Mwf, &pos, 8, 4, config(bound)));
    assert!(mwf(6) < mwf(u32::MAX));
}

/// DMWF's promoted children (type 1 though not eldest) are sorted under EC sorting, like the
/// eldest child: with `--dmwf-promote beside` on one processor DMWF then looks ahead at other
/// nodes than MWF and searches another tree, where with no sorting the promotion changes
/// nothing (the order is the same); under both rules DMWF has alpha-beta's value at every
/// processor count.
#[test]
fn ec_sorting_sorts_dmwf_promoted_children() {
    let pos = TicTacToe4::start();
    let ab = {
        let mut s = Searcher::<TicTacToe4>::new(SearchConfig::unsorted()).unwrap();
        s.search_window(&pos, 6, -INFINITY, INFINITY, &mut Unlimited)
            .value
    };
    let dmwf = |procs: usize, config: SearchConfig, promote: DmwfPromote| {
        let mut o = ParallelOptions::new(6, procs, sim());
        o.search = config;
        o.min_split_depth = 2;
        o.algo.dmwf.dmwf_promote = Some(promote);
        search(ParallelAlgo::Dmwf, &pos, &o).unwrap()
    };
    let mwf = run(ParallelAlgo::Mwf, &pos, 6, 1, SearchConfig::unsorted());
    let beside = dmwf(1, SearchConfig::unsorted(), DmwfPromote::Beside);
    assert_eq!(mwf.nodes, beside.nodes);
    let ec = sorted(SortRegime::EldestChild);
    let mwf_ec = run(ParallelAlgo::Mwf, &pos, 6, 1, ec);
    let beside_ec = dmwf(1, ec, DmwfPromote::Beside);
    assert_ne!(sort_nodes(&mwf_ec), sort_nodes(&beside_ec));
    assert_ne!(mwf_ec.nodes, beside_ec.nodes);
    for promote in [DmwfPromote::Replace, DmwfPromote::Beside] {
        for procs in [1, 2, 5, 12, 20] {
            let r = dmwf(procs, ec, promote);
            assert_eq!(r.value, ab, "{promote} x{procs}");
        }
    }
}
