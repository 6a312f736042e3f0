//! `runner mpi-example`: dib's own examples (N-queens counting, alpha-beta on the synthetic
//! random tree) over MPI, with the sequential value beside the parallel one.

use std::sync::Arc;

use anyhow::{Context as _, Result};
use clap::Args;
use dib::examples::alphabeta_tree::{AbProblem, AlphaBetaTree, Window};
use dib::examples::nqueens::{Board, NQueens, count_sequential};
use dib::examples::random_tree::{TreeNode, TreeShape, negamax};
use dib::{Backend, solve};
use serde_json::json;

use lab::input_error::input;

/// Arguments of `runner mpi-example` (run under `mpirun -n N`).
#[derive(Debug, Args)]
pub struct ExampleArgs {
    /// `nqueens` (count the solutions on a SIZE x SIZE board) or `alphabeta` (the value of a
    /// random min/max tree of height SIZE).
    #[arg(long)]
    pub example: String,
    /// Board size (4 to 14) or tree height (1 to 9).
    #[arg(long)]
    pub size: u32,
    /// The seed of the processors' RNGs (and of the random tree).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solve it this many times in one MPI session (processor seeds SEED, SEED+1, ...).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeat: u32,
}

/// The random tree's shape (as in dib's tests).
const SHAPE: TreeShape = TreeShape {
    min_branch: 2,
    max_branch: 7,
    spread: 200,
};

/// Runs `runner mpi-example`; rank 0 prints one JSON object with the DIB value over MPI and
/// the sequential value.
pub fn run(args: &ExampleArgs) -> Result<()> {
    let limits = match args.example.as_str() {
        "nqueens" => 4..=14,
        "alphabeta" => 1..=9,
        other => {
            return Err(input(
                "--example",
                format!("unknown example '{other}'; use nqueens or alphabeta"),
            ));
        }
    };
    if !limits.contains(&args.size) {
        return Err(input(
            "--size",
            format!(
                "{} is out of range for {}; use {} to {}",
                args.size,
                args.example,
                limits.start(),
                limits.end()
            ),
        ));
    }
    let session = lab::mpi::start()?;
    let procs = lab::mpi::world_size(&session);
    let mut values = Vec::new();
    let mut seconds = Vec::new();
    let mut root = true;
    // Several runs in one MPI session: each must start clean after the last one's drain.
    for run in 0..u64::from(args.repeat) {
        let backend = Backend::Mpi {
            seed: args.seed.wrapping_add(run),
        };
        let (value, is_root, secs) = solve_once(args, procs, &backend)?;
        values.push(value);
        seconds.push(secs);
        root = is_root;
    }
    if root {
        let sequential = if args.example == "nqueens" {
            json!(count_sequential(&Board::empty(queens(args.size))).0)
        } else {
            json!(negamax(&TreeNode::root(args.seed, args.size), &SHAPE).0)
        };
        let out = json!({
            "example": args.example,
            "size": args.size,
            "seed": args.seed,
            "procs": procs,
            "value": values[0],
            "values": values,
            "sequential": sequential,
            "seconds": seconds,
        });
        println!("{out}");
    }
    drop(session);
    Ok(())
}

fn queens(size: u32) -> u8 {
    u8::try_from(size).unwrap_or(8)
}

/// One DIB run of the example over MPI: its value, whether this rank is the root, and the
/// seconds it took.
fn solve_once(
    args: &ExampleArgs,
    procs: usize,
    backend: &Backend,
) -> Result<(serde_json::Value, bool, f64)> {
    if args.example == "nqueens" {
        let r = solve(
            Arc::new(NQueens { min_rows: 2 }),
            Board::empty(queens(args.size)),
            procs,
            backend,
            None,
        )
        .context("N-queens over MPI")?;
        Ok((json!(r.value), r.is_root(), r.seconds()))
    } else {
        let app = AlphaBetaTree {
            shape: SHAPE,
            min_height: 1,
            eldest_first: true,
        };
        let problem = AbProblem {
            node: TreeNode::root(args.seed, args.size),
            window: Window::FULL,
        };
        let r = solve(Arc::new(app), problem, procs, backend, None)
            .context("alpha-beta tree over MPI")?;
        Ok((json!(r.value), r.is_root(), r.seconds()))
    }
}
