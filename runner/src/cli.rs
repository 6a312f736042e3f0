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
    /// Search a position with the sequential search core (alpha-beta, PVS or minimax), or with
    /// a parallel algorithm on DIB processors (--procs).
    Search(SearchArgs),
    /// Solve a position exactly (search to the end of the game).
    Solve(SolveArgs),
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
    /// The DIB runtime flags (a parallel count).
    #[command(flatten)]
    pub dib: DibArgs,
}

/// Arguments of `runner search`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("limit").required(true).multiple(true).args(["depth", "time_ms", "nodes"]))]
pub struct SearchArgs {
    /// The game (see `runner list`).
    #[arg(long)]
    pub game: String,
    /// The root position in the game's text format; the start position if absent.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// A file of positions (one per line, `#` comments; trailing fields such as EPD operations
    /// are ignored) to search one after the other, with totals: the benchmark mode.
    #[arg(long, conflicts_with = "position")]
    pub testset: Option<std::path::PathBuf>,
    /// Depth in plies (1 to 100); iterative deepening stops there.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Time limit in milliseconds (wall clock); the result is the last completed iteration.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Node limit.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The algorithm: alphabeta, pvs or minimax (sequential); with --procs, a parallel
    /// algorithm of `runner list` (alphabeta, delaysplit/ybw, ...).
    #[arg(long, default_value = "pvs")]
    pub algo: String,
    /// The DIB runtime flags: search in parallel with the parallel algorithm --algo, to
    /// exactly --depth plies.
    #[command(flatten)]
    pub dib: DibArgs,
    /// Parallel granularity: nodes with fewer plies left are searched sequentially where they
    /// are, never split (default 2). Needs --procs.
    #[arg(long)]
    pub min_split_depth: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub tt_mb: usize,
    /// Transposition table mode: off, exact (hits only at exactly the stored depth) or normal;
    /// default: exact in the research setting, normal in play.
    #[arg(long)]
    pub tt_mode: Option<String>,
    /// Nodes with fewer plies left than this do not use the table (1: every interior node).
    #[arg(long, default_value_t = 2)]
    pub tt_min_depth: u32,
    /// The named setting: research (fixed depth, deterministic) or play (every enhancement).
    #[arg(long, default_value = "research")]
    pub setting: String,
    /// Sorting regime (Rezaie and Finkel): none, tn, pvr, ec or tt.
    #[arg(long, default_value = "none")]
    pub sort: String,
    /// Levels expanded below a node to sort its children.
    #[arg(long, default_value_t = 3)]
    pub expansion_depth: u32,
    /// Deepest node (plies from the root) that may be sorted; no limit if absent.
    #[arg(long)]
    pub sort_depth: Option<u32>,
    /// Turn off move ordering (TT move, hints, killers, history): the game's generation order.
    #[arg(long)]
    pub no_ordering: bool,
    /// Search every iteration with a full window instead of an aspiration window.
    #[arg(long)]
    pub no_aspiration: bool,
    /// Print exactly one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `runner solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game: othello, othello6, tictactoe3 or tictactoe4.
    #[arg(long)]
    pub game: String,
    /// The position in the game's text format; the start position if absent.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Transposition table size in MiB (of whichever solver runs).
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Print exactly one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// The DIB runtime flags shared by `runner perft` and `runner search` (checked by
/// `dib_flags::parse`).
#[derive(Debug, Args)]
pub struct DibArgs {
    /// Run in parallel with this many DIB processors (1 to 4096); sequential if absent.
    #[arg(long)]
    pub procs: Option<usize>,
    /// Where the processors run: `threads` (one OS thread each), `sim` (the deterministic
    /// simulator; time is virtual) or `mpi` (one MPI rank each, under `mpirun`/`srun`; --procs
    /// is then the world size and may be left out). Needs --procs except for mpi; default
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
