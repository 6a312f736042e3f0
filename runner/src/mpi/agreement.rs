//! `runner mpi-agreement` (hidden; the helper of `runner/tests/it/mpi.rs`): every registered
//! parallel algorithm (`ParallelAlgo::ALL`, so algorithms added later are covered) over MPI on
//! small seeded positions of every registered game, against sequential alpha-beta at the same
//! depth. One `mpirun` runs all the cases, so the test starts MPI once per rank count.

use anyhow::{Context as _, Result};
use clap::Args;
use control::parallel::{self, ParallelAlgo, ParallelOptions};
use control::search::{
    Algorithm, SearchConfig, Searcher, Unlimited, minimax_value_within, shift_decisive,
};
use dib::rng::sub_seed;
use dib::{Backend, Rng};
use games::score::INFINITY;
use games::{Game, GameId, GameInfo, GameVisitor};
use serde_json::{Value, json};

use lab::testset::random_position;

/// The sub-seed stream of the positions.
const POSITIONS: u64 = 0x706f_7369;

/// Arguments of `runner mpi-agreement` (run under `mpirun -n N`).
#[derive(Debug, Args)]
pub struct AgreementArgs {
    /// Random positions per game.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub positions: u32,
    /// The deepest search tried.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub max_depth: u32,
    /// Minimax nodes allowed per case: the depth grows while the minimax tree stays within it.
    #[arg(long, default_value_t = 100_000)]
    pub budget: u64,
    /// Seed of the positions and of the processors' RNGs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The sequential search every case is checked against (and every processor runs below the
/// parallel part): alpha-beta, research setting, a small table.
fn config() -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::AlphaBeta,
        tt_mib: 1,
        ..SearchConfig::research()
    }
}

/// Sequential alpha-beta with a full window.
fn sequential<G: Game>(pos: &G, depth: u32) -> Result<i32> {
    let mut s = Searcher::<G>::new(config()).context("the sequential searcher")?;
    Ok(
        s.search_window(pos, depth, -INFINITY, INFINITY, &mut Unlimited)
            .value,
    )
}

/// Runs `runner mpi-agreement`; rank 0 prints one JSON object: the cases, the runs, and every
/// disagreement (none when all is well).
pub fn run(args: &AgreementArgs) -> Result<()> {
    let session = lab::mpi::start()?;
    let procs = lab::mpi::world_size(&session);
    let mut sweep = Sweep {
        args,
        procs,
        game: 0,
        cases: 0,
        runs: Vec::new(),
        root: true,
    };
    for (k, &game) in GameId::ALL.iter().enumerate() {
        sweep.game = k as u64;
        game.visit(&mut sweep)?;
    }
    if sweep.root {
        let disagreements: Vec<&Value> = sweep
            .runs
            .iter()
            .filter(|r| r["agrees"] != json!(true))
            .collect();
        let moved = sweep
            .runs
            .iter()
            .filter(|r| r["problems_received"].as_u64().is_some_and(|n| n > 0))
            .count();
        let entries: f64 = sweep
            .runs
            .iter()
            .filter_map(|r| r["entries_received"].as_f64())
            .sum();
        let out = json!({
            "procs": procs,
            "algos": ParallelAlgo::ALL.iter().map(|a| a.name()).collect::<Vec<_>>(),
            "games": GameId::ALL.iter().map(|g| g.name()).collect::<Vec<_>>(),
            "cases": sweep.cases,
            "runs": sweep.runs.len(),
            "runs_with_work_moved": moved,
            "lazysmp_entries_received": entries,
            "disagreements": disagreements,
        });
        println!("{out}");
    }
    drop(session);
    Ok(())
}

/// The sweep over games: its settings and what it found.
struct Sweep<'a> {
    args: &'a AgreementArgs,
    procs: usize,
    /// The index of the game being swept (it seeds the positions).
    game: u64,
    cases: usize,
    runs: Vec<Value>,
    /// Whether this rank prints (every rank gets the same results).
    root: bool,
}

impl GameVisitor for &mut Sweep<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        // The same positions on every rank: the RNG depends only on the seed and the game.
        let mut rng = Rng::new(sub_seed(args.seed, POSITIONS, self.game));
        for i in 0..args.positions {
            let plies = rng.below(12);
            let pos: G = random_position(&mut rng, plies);
            if pos.outcome().is_some() {
                continue;
            }
            let Some(depth) = (1..=args.max_depth)
                .take_while(|&d| minimax_value_within(&pos, d, args.budget).is_some())
                .last()
            else {
                continue;
            };
            let want = sequential(&pos, depth)?;
            self.cases += 1;
            let backend = Backend::Mpi { seed: args.seed };
            for &algo in ParallelAlgo::ALL {
                let mut o = ParallelOptions::new(depth, self.procs, backend.clone());
                o.search = config();
                // Both granularities: splitting down to the last ply, and the default.
                o.min_split_depth = 1 + i % 2;
                let r = parallel::search(algo, &pos, &o)
                    .with_context(|| format!("{algo} on {} over MPI, position {pos}", info.name))?;
                self.root = r.is_root();
                // The best move must keep the value (checked on the sequential search).
                let best_keeps_value = match r.best_move {
                    Some(mv) => {
                        let mut child = pos.clone();
                        let _ = child.make_move(mv);
                        -shift_decisive(sequential(&child, depth - 1)?, 1) == want
                    }
                    None => true,
                };
                // Lazy SMP: table entries that crossed ranks.
                let entries_received = r.figures.entries_received;
                self.runs.push(json!({
                    "game": info.name,
                    "position": pos.to_string(),
                    "depth": depth,
                    "min_split_depth": o.min_split_depth,
                    "algo": algo.name(),
                    "sequential": want,
                    "value": r.value,
                    "best_move": r.best_move.map(|m| pos.format_move(m)),
                    "agrees": r.value == want && best_keeps_value,
                    "problems_received": r.total.dib.problems_received,
                    "messages_received": r.total.backend.messages_received,
                    "entries_received": entries_received,
                }));
            }
        }
        Ok(())
    }
}
