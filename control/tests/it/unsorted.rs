//! Rezaie and Finkel's unsorted tree (`SearchConfig::unsorted`, `--unsorted`): sequential
//! alpha-beta and every parallel algorithm of the paper on one simulated processor visit exactly
//! the nodes of a plain negamax alpha-beta written here, children in the game's generation order
//! (no table, killers, history, hints or sorting). PV splitting's frames search younger siblings
//! with minimal windows (`--pv-form mp`, Marsland and Popowich's), so its reference is the same
//! search with PVS at the nodes the split engine makes frames; Rezaie and Finkel's form
//! (`--pv-form rf`) is alpha-beta on one processor ("sequential PV splitting is identical to
//! alpha-beta"). Tree splitting's root as only a master (`--tree-root master`) searches alone on
//! one processor. MWF searches without deep cutoffs (Rezaie and Finkel section 3.2), so its
//! reference is the same search with the window `(-inf, -best)` at every child (Knuth and Moore's
//! F1); with `--mwf-cutoffs deep` it is alpha-beta's. DMWF searches MWF's tree with
//! `--dmwf-promote beside` and its own order (the promoted children first) by default, which only
//! returns the same value. ER evaluates elder grandchildren and orders by them (its own tree), so
//! it only returns the same value.

use control::parallel::dmwf::DmwfPromote;
use control::parallel::mwf::MwfCutoffs;
use control::parallel::pvsplit::PvForm;
use control::parallel::treesplit::TreeRoot;
use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::{SearchConfig, Searcher, Unlimited};
use dib::{Backend, CostModel, SimConfig};
use games::Game;
use games::othello::Othello6;
use games::score::INFINITY;
use games::tictactoe::TicTacToe4;

/// Fail-soft negamax alpha-beta in generation order, counting every node it enters. With
/// `pvs_from` = `Some(m)`, nodes with at least `m` plies left search their younger children
/// with a minimal window first (re-searched with `(best, beta)` when it fails high inside beta);
/// with `pvs_from` = `Some(0)`, no node has deep cutoffs instead: every child gets
/// `(-inf, -best)` (F1).
fn reference<G: Game>(
    pos: &G,
    depth: u32,
    alpha: i32,
    beta: i32,
    ply: u32,
    pvs_from: Option<u32>,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(outcome) = pos.outcome() {
        return outcome.score(ply);
    }
    if depth == 0 {
        return pos.evaluate();
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return pos.evaluate();
    }
    let shallow = pvs_from == Some(0);
    let pvs = !shallow && pvs_from.is_some_and(|m| depth >= m);
    let mut best = -INFINITY;
    for (i, &mv) in moves.iter().enumerate() {
        let mut child = pos.clone();
        let _ = child.make_move(mv);
        let a = alpha.max(best);
        let v = if pvs && i > 0 && a > -INFINITY && a + 1 < beta {
            let v = -reference(&child, depth - 1, -a - 1, -a, ply + 1, pvs_from, nodes);
            if v > a && v < beta {
                -reference(&child, depth - 1, -beta, -v, ply + 1, pvs_from, nodes)
            } else {
                v
            }
        } else if shallow {
            -reference(&child, depth - 1, -INFINITY, -a, ply + 1, pvs_from, nodes)
        } else {
            -reference(&child, depth - 1, -beta, -a, ply + 1, pvs_from, nodes)
        };
        best = best.max(v);
        if best >= beta {
            break;
        }
    }
    best
}

fn sim() -> Backend {
    Backend::Sim(SimConfig::new(CostModel::shared_memory(), 1))
}

/// The algorithms of Rezaie and Finkel (and `abdib`, its parallel alpha-beta) that run on the split
/// engine.
fn paper_algorithms() -> Vec<ParallelAlgo> {
    ParallelAlgo::ALL
        .iter()
        .copied()
        .filter(|a| a.on_split_engine())
        .collect()
}

fn check<G: Game>(name: &str, pos: &G, depth: u32) {
    let mut ab_nodes = 0;
    let want = reference(pos, depth, -INFINITY, INFINITY, 0, None, &mut ab_nodes);

    let mut s = Searcher::<G>::new(SearchConfig::unsorted()).unwrap();
    let r = s.search_window(pos, depth, -INFINITY, INFINITY, &mut Unlimited);
    assert_eq!(r.value, want, "{name} depth {depth}: sequential value");
    assert_eq!(
        s.stats().nodes(),
        ab_nodes,
        "{name} depth {depth}: sequential alpha-beta nodes"
    );

    let mut f1_nodes = 0;
    let f1_value = reference(pos, depth, -INFINITY, INFINITY, 0, Some(0), &mut f1_nodes);
    assert_eq!(f1_value, want, "{name} depth {depth}: F1 value");

    for min_split in [2, 3] {
        let mut pvs_nodes = 0;
        let pvs_value = reference(
            pos,
            depth,
            -INFINITY,
            INFINITY,
            0,
            Some(min_split),
            &mut pvs_nodes,
        );
        assert_eq!(pvs_value, want);
        let run = |algo: ParallelAlgo, cutoffs: MwfCutoffs, promote: DmwfPromote| {
            let mut o = ParallelOptions::new(depth, 1, sim());
            o.search = SearchConfig::unsorted();
            o.min_split_depth = min_split;
            o.algo.mwf.mwf_cutoffs = Some(cutoffs);
            o.algo.dmwf.dmwf_promote = Some(promote);
            search(algo, pos, &o).unwrap()
        };
        for algo in paper_algorithms() {
            let r = run(algo, MwfCutoffs::default(), DmwfPromote::default());
            let at = format!("{name} depth {depth} {algo} (min split {min_split})");
            assert_eq!(r.value, want, "{at}: value");
            match algo {
                // ER's own order (elder grandchildren first) and DMWF's (the promoted children
                // first): other trees.
                ParallelAlgo::Er | ParallelAlgo::Dmwf => {}
                ParallelAlgo::PvSplit => assert_eq!(r.nodes, pvs_nodes, "{at}: nodes"),
                ParallelAlgo::Mwf => assert_eq!(r.nodes, f1_nodes, "{at}: nodes"),
                _ => assert_eq!(r.nodes, ab_nodes, "{at}: nodes"),
            }
        }
        let mut o = ParallelOptions::new(depth, 1, sim());
        o.search = SearchConfig::unsorted();
        o.min_split_depth = min_split;
        o.algo.pv.pv_form = Some(PvForm::Rf);
        let rf = search(ParallelAlgo::PvSplit, pos, &o).unwrap();
        assert_eq!(
            (rf.value, rf.nodes),
            (want, ab_nodes),
            "{name} depth {depth} pvsplit, Rezaie and Finkel's form (min split {min_split})"
        );
        o.algo.pv.pv_form = Some(PvForm::default());
        o.algo.tree.tree_root = Some(TreeRoot::Master);
        let master = search(ParallelAlgo::TreeSplit, pos, &o).unwrap();
        assert_eq!(
            (master.value, master.nodes),
            (want, ab_nodes),
            "{name} depth {depth} treesplit, the root a master (min split {min_split})"
        );
        let deep = run(ParallelAlgo::Mwf, MwfCutoffs::Deep, DmwfPromote::default());
        assert_eq!(
            (deep.value, deep.nodes),
            (want, ab_nodes),
            "{name} depth {depth} mwf, deep cutoffs (min split {min_split})"
        );
        let beside = run(
            ParallelAlgo::Dmwf,
            MwfCutoffs::default(),
            DmwfPromote::Beside,
        );
        assert_eq!(
            (beside.value, beside.nodes),
            (want, f1_nodes),
            "{name} depth {depth} dmwf beside the eldest (min split {min_split})"
        );
    }
}

#[test]
fn unsorted_searches_visit_the_generation_order_alpha_beta_tree() {
    let mut ttt = TicTacToe4::start();
    for depth in [3, 5] {
        check("tictactoe4 start", &ttt, depth);
    }
    let mut moves = Vec::new();
    ttt.generate_moves(&mut moves);
    ttt.make_move(moves[5]);
    ttt.generate_moves(&mut moves);
    ttt.make_move(moves[0]);
    check("tictactoe4 after two marks", &ttt, 6);

    let othello = Othello6::start();
    for depth in [3, 4, 5] {
        check("othello6 start", &othello, depth);
    }
}

/// The switch is what makes the difference: with the research defaults (table, ordering,
/// PVS) the same searches visit other trees.
#[test]
fn the_research_defaults_visit_another_tree() {
    let pos = TicTacToe4::start();
    let mut ab_nodes = 0;
    let _ = reference(&pos, 5, -INFINITY, INFINITY, 0, None, &mut ab_nodes);
    let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
    let _ = s.search_window(&pos, 5, -INFINITY, INFINITY, &mut Unlimited);
    assert_ne!(s.stats().nodes(), ab_nodes);
    let mut o = ParallelOptions::new(5, 1, sim());
    o.min_split_depth = 2;
    let r = search(ParallelAlgo::Mwf, &pos, &o).unwrap();
    assert_ne!(r.nodes, ab_nodes);
    assert!(SearchConfig::unsorted().is_unsorted() && !SearchConfig::research().is_unsorted());
}
