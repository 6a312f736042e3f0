//! Command-line arguments (clap derive). One struct per subcommand.

use clap::{Args, Parser, Subcommand};

/// Parallel game-tree search: games, search algorithms, runtimes and experiments.
#[derive(Debug, Parser)]
#[command(name = "runner", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games with their variants and text formats.
    List(ListArgs),
    /// Count the leaves of the legal-move tree to a fixed depth (move-generator check and
    /// speed benchmark).
    Perft(PerftArgs),
    /// Message latency and throughput between MPI ranks 0 and 1 (run under `mpirun -n 2`).
    #[cfg(feature = "mpi")]
    MpiBench(crate::mpi::BenchArgs),
    /// dib's own examples (N-queens, alpha-beta tree) over MPI beside their sequential values
    /// (run under `mpirun -n N`).
    #[cfg(feature = "mpi")]
    MpiExample(crate::mpi::ExampleArgs),
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
    /// The root position in the game's text format; the start position if absent.
    #[arg(long)]
    pub position: Option<String>,
    /// Depth in plies (0 to 64).
    #[arg(long)]
    pub depth: u32,
    /// Also print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Print exactly one JSON object on stdout (with --procs: plus the runtime's accounting).
    #[arg(long)]
    pub json: bool,
    /// Count in parallel with this many DIB processors (1 to 4096); sequential if absent.
    #[arg(long)]
    pub procs: Option<usize>,
    /// Where the processors run: `threads` (one OS thread each), `sim` (the deterministic
    /// simulator; time is virtual) or `mpi` (one MPI rank each, under `mpirun`; --procs is
    /// then the world size and may be left out). Needs --procs except for mpi; default
    /// threads.
    #[arg(long)]
    pub backend: Option<String>,
    /// Master seed of the run (processor RNGs; on sim also every fault). Needs --procs.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulator cost model: shared-memory, network or pdp11 (default shared-memory). Needs
    /// --backend sim.
    #[arg(long)]
    pub sim_preset: Option<String>,
    /// Faults to inject on the simulator, e.g.
    /// `crash=3@1000,drop=1/100,dup=1/200,delay=1/50,corrupt=1/100` (times in virtual
    /// microseconds). Needs --backend sim.
    #[arg(long)]
    pub faults: Option<String>,
}
