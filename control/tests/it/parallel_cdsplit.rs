//! Common-depth splitting (`cdsplit`, the two-PDP-11 thesis): on every registered game, every
//! common depth from 0 to 4 and both strategies return the value of sequential alpha-beta at the
//! same depth, on the simulator (1, 2 and 3 processors; the shared-memory preset and the two-PDP-11
//! thesis's unequal machines, whose messages are priced by their words) and on 2 threads; work
//! moves between processors, at common depth 0 only the root's moves; strategy A moves fewer pieces
//! than B and a deeper common depth more; and the two-PDP-11 thesis's quiescence limit changes
//! nothing of that.

use crate::common;

use common::{
    Lcg, agreement_config as config, depth_within_budget, random_position,
    sequential_alphabeta as sequential, sim_backend as sim,
};
use control::parallel::cdsplit::CdStrategy;
use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::SearchConfig;
use dib::{Backend, CostModel, SimConfig};
use games::{Game, GameId, GameInfo, GameVisitor};

fn options(depth: u32, procs: usize, backend: Backend, cd: u32, s: CdStrategy) -> ParallelOptions {
    let mut o = ParallelOptions::new(depth, procs, backend);
    o.search = config();
    o.common_depth = cd;
    o.cd_strategy = s;
    o
}

/// The pdp11 preset (unequal processors, messages priced by their words).
fn pdp11(seed: u64) -> Backend {
    Backend::Sim(SimConfig::new(CostModel::pdp11(), seed))
}

struct Agreement;

/// What one game's sweep covered: runs, and runs on two or more processors where work moved.
#[derive(Default)]
struct Covered {
    runs: u64,
    moved: u64,
}

impl GameVisitor for Agreement {
    type Output = Covered;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Covered {
        let name = info.name;
        let mut rng = Lcg(17);
        let mut c = Covered::default();
        for i in 0..2 {
            let pos: G = random_position(&mut rng, 2 + i * 5);
            if pos.outcome().is_some() {
                continue;
            }
            let Some((depth, _)) = depth_within_budget(&pos, 5, 20_000) else {
                continue;
            };
            let want = sequential(&pos, depth);
            for cd in 0..=4 {
                for s in CdStrategy::ALL {
                    let mut runs: Vec<(String, ParallelOptions)> = Vec::new();
                    for procs in [1, 2, 3] {
                        let seed = 100 * i as u64 + 10 * u64::from(cd) + procs as u64;
                        runs.push((
                            format!("sim x{procs}"),
                            options(depth, procs, sim(seed, ""), cd, s),
                        ));
                    }
                    runs.push(("pdp11 x2".into(), options(depth, 2, pdp11(7), cd, s)));
                    runs.push((
                        "threads x2".into(),
                        options(depth, 2, Backend::Threads { seed: 3 }, cd, s),
                    ));
                    for (what, o) in runs {
                        let r = search(ParallelAlgo::CdSplit, &pos, &o)
                            .unwrap_or_else(|e| panic!("{name} {what}: {e}"));
                        assert_eq!(
                            r.value, want,
                            "{name} cd {cd} strategy {s} {what} depth {depth}, position {pos}"
                        );
                        c.runs += 1;
                        if o.procs > 1 && r.total.dib.problems_received > 0 {
                            c.moved += 1;
                        }
                    }
                }
            }
        }
        c
    }
}

#[test]
fn every_common_depth_and_strategy_agrees_with_sequential_alphabeta_on_every_game() {
    let (mut runs, mut moved) = (0, 0);
    for &g in GameId::ALL {
        let c = g.visit(Agreement);
        assert!(c.runs > 0, "{g:?}: no position fits the budget");
        runs += c.runs;
        moved += c.moved;
    }
    assert!(
        moved > runs / 4,
        "work moved in only {moved} of {runs} runs"
    );
}

/// On the two-PDP-11 thesis's machines, work moves at every common depth, and at common depth 0
/// only the root's moves are shared: at most one piece per root move.
#[test]
fn work_moves_at_every_common_depth_and_only_root_moves_at_zero() {
    let pos =
        games::chess::Chess::from_fen("8/8/p6p/1p3kp1/1P6/P4PKP/5P2/8 w - - 0 1").expect("a FEN");
    let depth = 6;
    let want = sequential(&pos, depth);
    for cd in 0..=3 {
        for s in CdStrategy::ALL {
            let mut o = options(depth, 2, pdp11(1), cd, s);
            o.search = SearchConfig::unsorted();
            let r = search(ParallelAlgo::CdSplit, &pos, &o).expect("runs");
            assert_eq!(r.value, want, "cd {cd} {s}");
            let moved = r.total.dib.problems_received;
            assert!(moved > 0, "cd {cd} {s}: nothing moved");
            if cd == 0 {
                // The root's moves only: at most one piece per root move.
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                assert!(moved <= moves.len() as u64, "cd 0 {s}: {moved} pieces");
            }
        }
    }
}

/// Strategy A shares less than strategy B at the same common depth (its common depth drops as
/// the search backs up), and a deeper common depth shares more.
#[test]
fn strategy_a_shares_less_than_b_and_depth_shares_more() {
    let pos = games::chess::Chess::from_fen("8/ppp5/8/PPP3kp/8/6KP/8/8 w - - 0 1").expect("a FEN");
    let moved = |cd: u32, s: CdStrategy| {
        let mut o = options(7, 2, pdp11(1), cd, s);
        o.search = SearchConfig::unsorted();
        search(ParallelAlgo::CdSplit, &pos, &o)
            .expect("runs")
            .total
            .dib
            .problems_received
    };
    let (a3, b3) = (moved(3, CdStrategy::Variable), moved(3, CdStrategy::Fixed));
    assert!(a3 < b3, "cd 3: A moved {a3}, B {b3}");
    let (b0, b1) = (moved(0, CdStrategy::Fixed), moved(1, CdStrategy::Fixed));
    assert!(b0 < b1 && b1 < b3, "B: cd 0 {b0}, cd 1 {b1}, cd 3 {b3}");
    // At common depth 0 the strategies are one.
    assert_eq!(moved(0, CdStrategy::Variable), b0);
}

/// The two-PDP-11 thesis's quiescence limit (static evaluation two plies below the horizon) keeps
/// every common depth equal to sequential alpha-beta with the same limit, and it does limit the
/// tree.
#[test]
fn the_quiescence_limit_agrees_and_limits() {
    let pos = games::chess::Chess::from_fen(
        "r1bq1rk1/1p2bppp/p1nppn2/6B1/3NPP2/2N5/PPPQ2PP/2KR1B1R w - - 0 1",
    )
    .expect("a FEN");
    let depth = 3;
    let limited = SearchConfig {
        quiescence_plies: Some(2),
        ..SearchConfig::unsorted()
    };
    let nodes_of = |config: SearchConfig| {
        let mut s = control::search::Searcher::<games::chess::Chess>::new(config).expect("builds");
        let r = s.search_window(
            &pos,
            depth,
            -games::score::INFINITY,
            games::score::INFINITY,
            &mut control::search::Unlimited,
        );
        (r.value, s.stats().quiescence)
    };
    let (want, q_limited) = nodes_of(limited);
    let (_, q_full) = nodes_of(SearchConfig::unsorted());
    assert!(
        q_limited < q_full,
        "{q_limited} against {q_full} quiescence nodes"
    );
    for cd in 0..=2 {
        for s in CdStrategy::ALL {
            let mut o = options(depth, 2, pdp11(3), cd, s);
            o.search = limited;
            let r = search(ParallelAlgo::CdSplit, &pos, &o).expect("runs");
            assert_eq!(r.value, want, "cd {cd} {s}");
        }
    }
}
