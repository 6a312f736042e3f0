//! Prints Rezaie and Finkel's figures 5 and 6 as a table: relative efficiency and relative node
//! counts for 1 to 21 simulated processors (shared-memory preset, seed 1; virtual seconds) on 4x4
//! tic-tac-toe, depth 9, from `x---/----/----/----` (15 empty squares), unsorted (no move
//! ordering, no table), for every algorithm of the split engine, and MWF without the type-2
//! wait. Speedup is against the same algorithm on one processor (the paper's relative
//! efficiency); `vs ab` against `alphabeta` on one processor. Every run's value is checked
//! against sequential alpha-beta's (exit status 1 on a difference).
//!
//! `cargo run --release -p control --example rezaie_finkel_efficiency -- [MAX_PROCS]`
//!
//! `MAX_PROCS` (default 21) is the largest number of processors. The output is one line for
//! `alphabeta` on one processor, then per algorithm a header and one line per number of
//! processors: processors, virtual seconds, relative speedup, relative efficiency, nodes
//! against one processor, speedup against `alphabeta`. `runner experiment` holds the same
//! figures against the published numbers; this table is the quick look while tuning
//! `control/src/parallel/split_ab`.

use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::{SearchConfig, Searcher, TtMode, Unlimited};
use dib::{Backend, CostModel, SimConfig};
use games::Game;
use games::score::INFINITY;
use games::tictactoe::TicTacToe4;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let max_procs: usize = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => 21,
        [n] => match n.parse() {
            Ok(n) if n >= 1 => n,
            _ => usage(&format!("MAX_PROCS `{n}` is not a whole number from 1")),
        },
        _ => usage("too many arguments"),
    };
    let root = TicTacToe4::parse_position("x---/----/----/----")?;
    let mut config = SearchConfig::research();
    config.move_ordering = false;
    config.tt_mode = TtMode::Off;
    let want = Searcher::<TicTacToe4>::new(config)?
        .search_window(&root, 9, -INFINITY, INFINITY, &mut Unlimited)
        .value;
    let options = |procs: usize| {
        let sim = SimConfig::new(CostModel::shared_memory(), 1);
        let mut o = ParallelOptions::new(9, procs, Backend::Sim(sim));
        o.search = config;
        o
    };
    let ab = search(ParallelAlgo::AlphaBeta, &root, &options(1))?;
    println!("alphabeta x1: {} s, {} nodes", ab.seconds, ab.nodes);
    let variants: [(ParallelAlgo, bool); 6] = [
        (ParallelAlgo::Mwf, true),
        (ParallelAlgo::Mwf, false),
        (ParallelAlgo::Dmwf, true),
        (ParallelAlgo::TreeSplit, true),
        (ParallelAlgo::PvSplit, true),
        (ParallelAlgo::Er, true),
    ];
    for (algo, wait) in variants {
        let label = if wait {
            algo.to_string()
        } else {
            format!("{algo}-nowait")
        };
        let mut base = None;
        println!(
            "{label}: procs, seconds, rel. speedup, rel. efficiency, nodes/nodes(1), speedup vs ab"
        );
        for procs in 1..=max_procs {
            let mut o = options(procs);
            o.algo.mwf.mwf_wait = Some(wait);
            let r = search(algo, &root, &o)?;
            if r.value != want {
                return Err(format!(
                    "{label} on {procs} processors: value {} but alpha-beta's is {want}",
                    r.value
                )
                .into());
            }
            let (t1, n1) = *base.get_or_insert((r.seconds, r.nodes));
            let speedup = t1 / r.seconds;
            println!(
                "{label} {procs:2} {:9.4} {speedup:6.2} {:5.2} {:5.2} {:6.2}",
                r.seconds,
                speedup / procs as f64,
                r.nodes as f64 / n1 as f64,
                ab.seconds / r.seconds,
            );
        }
    }
    Ok(())
}

/// Ends the process with a one-line usage error, exit status 2.
fn usage(message: &str) -> ! {
    eprintln!("{message}; usage: rezaie_finkel_efficiency [MAX_PROCS]");
    std::process::exit(2);
}
