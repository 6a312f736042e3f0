//! The command line (clap derive): the subcommands, and the arguments of those the library
//! does not run (`list`, `perft`); the others' are `lab::cli`'s.

use clap::{Args, Parser, Subcommand};
use lab::cli::{
    CalibrateArgs, CompareArgs, DibArgs, ExperimentArgs, OpeningsArgs, PlayArgs, PositionArg,
    SearchArgs, SolveArgs, StrengthArgs, ValidateSimArgs,
};

/// Parallel game-tree search: games, search algorithms, runtimes and experiments.
#[derive(Debug, Parser)]
#[command(name = "runner", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
// Parsed once per run: the size of the largest variant (search's flags) does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games with their variants and text formats.
    List(ListArgs),
    /// Count the leaves of the legal-move tree to a fixed depth (move-generator check and
    /// speed benchmark).
    Perft(PerftArgs),
    /// Search a position with the sequential search core (alpha-beta, PVS or minimax), or with
    /// a parallel algorithm on DIB processors (--procs).
    Search(SearchArgs),
    /// Solve a position exactly (search to the end of the game).
    Solve(SolveArgs),
    /// Compare parallel algorithms over processor counts on a test set: the papers' tables,
    /// CSV/JSON, SVG plots and an HTML report (resumable with the same --out).
    Compare(CompareArgs),
    /// Run a named reproduction of a paper's figure or table (`--list` shows them).
    Experiment(ExperimentArgs),
    /// Run as a UCI chess engine on stdin/stdout (for chess GUIs such as cutechess or Arena).
    Uci,
    /// Run the engine of any game on stdin/stdout in the line protocol (for `runner play
    /// --a 'line:runner engine --game G'` and scripts).
    Engine(crate::served::ServedArgs),
    /// Run the Othello engine on stdin/stdout in the Go Text Protocol (for GTP controllers and
    /// `runner play --a 'gtp:runner gtp --game othello'`).
    Gtp(crate::gtp::GtpArgs),
    /// Play a match between two engine configurations on any game, with the Elo difference.
    Play(PlayArgs),
    /// Strength per core: each parallel algorithm on N processors against one processor, in
    /// matches at a fixed time per move (Elo with its interval), and its time to depth; writes
    /// a page.
    Strength(StrengthArgs),
    /// Write balanced opening positions for matches: the positions a number of plies in whose
    /// searched value is near 0.
    Openings(OpeningsArgs),
    /// Measure this machine (node and split-engine frame costs per game, table probes, channel
    /// messages, the runtime's handling of a message) and write a simulator cost model (TOML)
    /// that `--sim-preset FILE` reads.
    Calibrate(CalibrateArgs),
    /// Check the simulator against real threads: every parallel algorithm on 1..cores threads
    /// beside the simulator's prediction with a cost model, with the error of the speedup.
    ValidateSim(ValidateSimArgs),
    /// Message latency and throughput between MPI ranks 0 and 1 (run under `mpirun -n 2`).
    #[cfg(feature = "mpi")]
    MpiBench(crate::mpi::BenchArgs),
    /// dib's own examples (N-queens, alpha-beta tree) over MPI beside their sequential values
    /// (run under `mpirun -n N`).
    #[cfg(feature = "mpi")]
    MpiExample(crate::mpi::ExampleArgs),
    /// Every parallel algorithm over MPI against sequential search on small positions of
    /// every game (the MPI test's helper; run under `mpirun -n N`).
    #[cfg(feature = "mpi")]
    #[command(hide = true)]
    MpiAgreement(crate::mpi::AgreementArgs),
}

/// Arguments of `runner list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `runner perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The game (see `runner list`).
    #[arg(long)]
    pub game: String,
    /// The root position (`--position`).
    #[command(flatten)]
    pub position: PositionArg,
    /// Depth in plies (0 to 64).
    #[arg(long)]
    pub depth: u32,
    /// Also print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Print exactly one JSON object on stdout (with --procs: plus the runtime's accounting).
    #[arg(long)]
    pub json: bool,
    /// The DIB runtime flags (a parallel count).
    #[command(flatten)]
    pub dib: DibArgs,
}
