//! The command-line forms of the library's inputs (clap derive): one struct per command that
//! the library runs, and the flags that several of them share. `runner compare`'s flags
//! ([`CompareArgs`]) also read from a TOML table (serde), the form the experiments keep them in:
//! each key is a flag's long name (`time-ms = 200000`, `unsorted = true`), and a missing key has
//! the flag's default ([`defaults`]). A value with names is typed in both forms (clap's
//! `ValueEnum`, serde by the same names: [`BackendKind`] and control's option enums), and a
//! list is split at its commas ([`list`]).

use clap::{Args, ValueEnum};
use control::parallel::aphid::TtSharing;
use control::parallel::cdsplit::CdStrategy;
use control::parallel::split_ab::SplitTables;
use control::parallel::{AlgoOptions, ParallelAlgo};
use control::search::{Setting, SortRegime, TtMode, TtReplace};
use serde::Deserialize;

pub mod list;

/// Where a run's processors run (`--backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// One OS thread per processor.
    Threads,
    /// The deterministic simulator: virtual time, a cost model.
    Sim,
    /// One MPI rank per processor, under `mpirun` or `srun`.
    Mpi,
}

impl BackendKind {
    /// The name `--backend` takes.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BackendKind::Threads => "threads",
            BackendKind::Sim => "sim",
            BackendKind::Mpi => "mpi",
        }
    }
}

impl std::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The defaults of `runner compare`'s flags that have one, shared by clap (`default_value`,
/// `default_value_t`) and serde (`#[serde(default = ...)]`), so that a flag left out of a table
/// and one left off the command line mean the same.
pub mod defaults {
    use super::BackendKind;
    use control::parallel::ParallelAlgo;
    use control::search::{Setting, SortRegime, TtReplace};

    /// `--game`.
    pub const GAME: &str = "tictactoe4";
    /// `--backend`.
    pub const BACKEND: BackendKind = BackendKind::Sim;
    /// `--seeds`.
    pub const SEEDS: u64 = 1;
    /// `--baseline`.
    pub const BASELINE: ParallelAlgo = ParallelAlgo::AlphaBeta;
    /// `--setting`.
    pub const SETTING: Setting = Setting::Research;
    /// `--tt-mb`.
    pub const TT_MB: usize = 16;
    /// `--sort`.
    pub const SORT: SortRegime = SortRegime::None;
    /// `--expansion-depth`.
    pub const EXPANSION_DEPTH: u32 = 3;
    /// `--tt-replace`.
    pub const TT_REPLACE: TtReplace = TtReplace::Always;

    pub(crate) fn game() -> String {
        GAME.into()
    }
    pub(crate) fn backend() -> BackendKind {
        BACKEND
    }
    pub(crate) fn seeds() -> u64 {
        SEEDS
    }
    pub(crate) fn baseline() -> ParallelAlgo {
        BASELINE
    }
    pub(crate) fn setting() -> Setting {
        SETTING
    }
    pub(crate) fn tt_mb() -> usize {
        TT_MB
    }
    pub(crate) fn sort() -> SortRegime {
        SORT
    }
    pub(crate) fn expansion_depth() -> u32 {
        EXPANSION_DEPTH
    }
    pub(crate) fn tt_replace() -> TtReplace {
        TT_REPLACE
    }
}

/// The help of `--sim-preset`: the built-in presets, named from dib's table, then `rest`.
fn sim_preset_help(rest: &str) -> String {
    format!(
        "Simulator cost model: a preset ({}{rest}",
        dib::preset_list()
    )
}

/// Arguments of `runner search`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("limit").required(true).multiple(true).args(["depth", "time_ms", "nodes"]))]
pub struct SearchArgs {
    /// The game (see `runner list`).
    #[arg(long)]
    pub game: String,
    /// The root position (`--position`).
    #[command(flatten)]
    pub position: PositionArg,
    /// A test set to search position by position, with totals (the benchmark mode): a file
    /// (one position per line, `#` comments, EPD operations after the position) or the name
    /// of a built-in set (`runner list` shows them). EPD `bm` operations are scored: how many
    /// best moves the search found.
    #[arg(long, conflicts_with = "position")]
    pub testset: Option<String>,
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
    /// algorithm of `runner list` (alphabeta, delaysplit/ybw, ...). Default pvs, or alphabeta
    /// with --unsorted.
    #[arg(long)]
    pub algo: Option<String>,
    /// The DIB runtime flags: search in parallel with the parallel algorithm --algo, to
    /// exactly --depth plies.
    #[command(flatten)]
    pub dib: DibArgs,
    /// Parallel granularity: nodes with fewer plies left are searched sequentially where they
    /// are, never split (default: the algorithm's own, 5 for alphabeta and delaysplit/ybw, 4
    /// for abdib, mwf, dmwf, treesplit, pvsplit and er, 2 for the others; APHID keeps its own,
    /// `min_granularity` in --aphid-config). Needs --procs.
    #[arg(long)]
    pub min_split_depth: Option<u32>,
    /// APHID (`--algo aphid`): a configuration file, either TOML (one table per group of
    /// options, as in control/src/parallel/aphid/README.md) or the thesis's `aphid.config` format
    /// (two numbers, then one host per process, tabs for levels of the hierarchy); told apart
    /// by the extension (.toml, .config) or else by the first line.
    #[arg(long)]
    pub aphid_config: Option<std::path::PathBuf>,
    /// APHID (`--algo aphid`): the processors' transposition tables, local, shared or
    /// distributed (the shadow-table ring; overrides the configuration file's `[tables] tt`),
    /// as `runner compare --aphid-tt`.
    #[arg(long)]
    pub aphid_tt: Option<TtSharing>,
    /// Refused with the fix: APHID's tables are `--aphid-tt`, the table mode `--tt-mode`.
    #[arg(long, hide = true)]
    pub tt: Option<String>,
    /// Transposition table mode: off, exact (hits only at exactly the stored depth) or normal;
    /// default: exact in the research setting, normal in play.
    #[arg(long)]
    pub tt_mode: Option<TtMode>,
    /// Nodes with fewer plies left than this do not use the table (1: every interior node; 0:
    /// the horizon nodes too).
    #[arg(long, default_value_t = 2)]
    pub tt_min_depth: u32,
    /// The named setting: research (fixed depth, deterministic) or play (every enhancement).
    #[arg(long, default_value_t = defaults::SETTING)]
    pub setting: Setting,
    /// The table size and sorting flags (shared with `runner compare`).
    #[command(flatten)]
    pub table_sort: TableSortArgs,
    /// Turn off move ordering (TT move, hints, killers, history): the game's generation order.
    #[arg(long)]
    pub no_ordering: bool,
    /// Search every iteration with a full window instead of an aspiration window.
    #[arg(long)]
    pub no_aspiration: bool,
    /// Print exactly one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Parallel runs (--procs): also print the algorithm's own counters (always in --json).
    #[arg(long)]
    pub verbose: bool,
    /// The options of single algorithms (shared with `runner compare`).
    #[command(flatten)]
    pub algo_options: AlgoOptions,
    /// Common-depth splitting (`--algo cdsplit`, the two-PDP-11 thesis): the nodes within this many
    /// plies of the root are shared (default 2).
    #[arg(long, value_name = "CD")]
    pub common_depth: Option<u32>,
    /// Common-depth splitting: strategy a (variable common depth, the default) or b (fixed).
    #[arg(long, value_name = "a|b")]
    pub cd_strategy: Option<CdStrategy>,
    /// Quiescence plies below the horizon, statically evaluated there (the two-PDP-11 thesis: 2);
    /// default: no limit.
    #[arg(long, value_name = "K")]
    pub quiescence_plies: Option<u32>,
}

impl SearchArgs {
    /// The algorithm's name: `--algo`, else `pvs`, or `alphabeta` with `--unsorted` (the
    /// paper's unsorted search is plain alpha-beta).
    #[must_use]
    pub fn algo_name(&self) -> &str {
        match &self.algo {
            Some(name) => name,
            None if self.table_sort.unsorted => "alphabeta",
            None => "pvs",
        }
    }
}

/// The table size and sorting flags shared by `runner search` and `runner compare` (each
/// names its table-mode flag itself: `--tt-mode` in search, `--tt` in compare). Flattened into
/// [`CompareArgs`]' table too, so it denies no key itself: the outer struct does.
#[derive(Clone, Debug, Args, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct TableSortArgs {
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = defaults::TT_MB)]
    #[serde(default = "defaults::tt_mb")]
    pub tt_mb: usize,
    /// Sorting regime (Rezaie and Finkel): none, tn, pvr, ec or tt.
    #[arg(long, default_value_t = defaults::SORT)]
    #[serde(default = "defaults::sort")]
    pub sort: SortRegime,
    /// Levels expanded below a node to sort its children.
    #[arg(long, default_value_t = defaults::EXPANSION_DEPTH)]
    #[serde(default = "defaults::expansion_depth")]
    pub expansion_depth: u32,
    /// Deepest node (plies from the root) that may be sorted; no limit if absent.
    #[arg(long)]
    pub sort_depth: Option<u32>,
    /// Rezaie and Finkel's unsorted tree: plain alpha-beta (also below the parallel algorithms),
    /// the game's generation order, no transposition table, no killers, history or move hints and
    /// no aspiration window. A sorting regime (--sort, or a series' @regime) is then the only
    /// ordering: Rezaie and Finkel's sorted runs. Refuses a table mode other than off. The
    /// sequential `runner search` then defaults to --algo alphabeta.
    #[arg(long)]
    #[serde(default)]
    pub unsorted: bool,
    /// With --sort tt: reproduce Rezaie and Finkel's TT-sorting bug (section 5), in which a sorted
    /// type-2 node searched only --expansion-depth plies below it; values then differ from
    /// alpha-beta's. Off by default (correct TT sorting).
    #[arg(long)]
    #[serde(default)]
    pub tt_sort_bug: bool,
    /// Marsland and Popowich's refutation table: each iteration of iterative
    /// deepening searches the root's moves sorted by the last iteration's values and tries,
    /// below each, the line the last iteration searched first; the parallel algorithms hand
    /// every piece its line. Off by default; the mp-* experiments turn it on.
    #[arg(long)]
    #[serde(default)]
    pub refutation_table: bool,
    /// Which results a position's table entry takes: always (every new result) or deeper (only
    /// a result at least as deep as the stored one, the thesis's programs' rule). Default
    /// always.
    #[arg(long, default_value_t = defaults::TT_REPLACE)]
    #[serde(default = "defaults::tt_replace")]
    pub tt_replace: TtReplace,
    /// With --setting play: the enhancements it uses, comma-separated among null-move, lmr,
    /// check-extensions and probcut (ProbCut with the game's model; 8x8 Othello has one), or
    /// none; default null-move,lmr,check-extensions. Thesis table 6.2's variable-depth
    /// Othello is probcut alone.
    #[arg(long)]
    pub play_features: Option<String>,
}

impl CompareArgs {
    /// Reads a table whose keys are the flags' long names. A key that is no flag is refused
    /// here, against clap's list of flags (serde cannot refuse unknown keys through the
    /// flattened option families).
    ///
    /// # Errors
    /// A key that is no flag of `runner compare`, or a value of the wrong type.
    pub fn from_table(table: toml::Table) -> Result<CompareArgs, toml::de::Error> {
        let command = <CompareArgs as Args>::augment_args(clap::Command::new("compare"));
        let longs: Vec<&str> = command
            .get_arguments()
            .filter_map(clap::Arg::get_long)
            .collect();
        if let Some(key) = table.keys().find(|k| !longs.contains(&k.as_str())) {
            return Err(serde::de::Error::custom(format!(
                "unknown field `{key}`, expected one of {}",
                longs
                    .iter()
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        toml::Value::Table(table).try_into()
    }
}

/// The names of `family`, joined by "and" (`mwf and dmwf`), for the messages of a flag that
/// applies to those algorithms only.
#[must_use]
pub fn family_names(family: &[ParallelAlgo]) -> String {
    family
        .iter()
        .map(|a| a.name())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// Arguments of `runner openings`.
#[derive(Debug, Args)]
pub struct OpeningsArgs {
    /// The game (see `runner list`).
    #[arg(long)]
    pub game: String,
    /// Plies from the start: every position this many plies in is a candidate.
    #[arg(long)]
    pub plies: u32,
    /// How many openings to write.
    #[arg(long)]
    pub count: usize,
    /// Each candidate is searched to this depth (the play setting, sequential).
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Candidates whose value lies further from 0 than this (the game's evaluation units) are
    /// left out.
    #[arg(long)]
    pub max_value: i32,
    /// The seed of the choice among the balanced candidates.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The file to write (a test set: one position per line, with comment lines naming how it
    /// was made).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Arguments of `runner strength`.
#[derive(Debug, Args)]
pub struct StrengthArgs {
    /// The size: `quick` (the simulator, 2 and 4 processors, a few games a match: minutes
    /// here) or `full` (real threads at `--procs`, or the simulator up to 64 processors; 100
    /// games a match: for a many-core machine or a Slurm array with `--shard`). Every other
    /// flag overrides the size's choice.
    #[arg(long, value_enum, default_value_t = StrengthSize::Quick)]
    pub size: StrengthSize,
    /// The games, comma-separated (default: chess, othello, checkers).
    #[arg(long, value_delimiter = ',')]
    pub games: Option<Vec<String>>,
    /// The parallel algorithms, comma-separated (default: every one).
    #[arg(long, value_delimiter = ',')]
    pub algos: Option<Vec<ParallelAlgo>>,
    /// Processor counts to play against one, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub procs: Option<Vec<usize>>,
    /// Where the engines run: real threads (against the sequential engine on one thread, the
    /// wall clock timing each move) or the simulator (against the same algorithm on one
    /// simulated processor, each move a budget of virtual time).
    #[arg(long, value_enum)]
    pub backend: Option<BackendKind>,
    /// The simulated machine: a preset name or a cost-model file (`runner calibrate` writes
    /// one for this machine).
    #[arg(long)]
    pub sim_preset: Option<String>,
    /// Time per move in milliseconds (virtual on the simulator).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Games per match (each opening with both colours).
    #[arg(long)]
    pub match_games: Option<usize>,
    /// Measure no time to depth.
    #[arg(long)]
    pub no_ttd: bool,
    /// Matches and time-to-depth runs at once (simulator only; real threads run one at a time).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Compute only the K-th of N disjoint slices of the cells into `--out` (N processes, or a
    /// Slurm array, share one folder); `--assemble` then writes the page.
    #[arg(long, conflicts_with = "assemble")]
    pub shard: Option<String>,
    /// Compute nothing: write the page from the folder's finished cells (every shard's).
    #[arg(long)]
    pub assemble: bool,
    /// The folder of the cells and the page.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// The sizes of `runner strength`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrengthSize {
    /// The simulator (shared-memory preset), 2 and 4 processors, 4 games a match, 100 virtual
    /// ms a move.
    Quick,
    /// 100 games a match at 100 ms a move.
    Full,
}

/// Arguments of `runner solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game (see `runner list`): any game; Othello's boards use their own endgame solver,
    /// the others the generic search to the end of the game.
    #[arg(long)]
    pub game: String,
    /// The position to solve (`--position`).
    #[command(flatten)]
    pub position: PositionArg,
    /// Transposition table size in MiB (of whichever solver runs).
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Stop after this many milliseconds (wall clock) and report the deepest completed
    /// iteration, unproven; no limit if absent.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Print exactly one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// `--position`, the same for every subcommand that takes one (read by
/// [`crate::testset::parse_position`], as test-set lines are).
#[derive(Clone, Debug, Default, Args)]
pub struct PositionArg {
    /// The root position in the game's text format (`runner list` shows each game's; a
    /// position may begin with `-`); the start position if absent.
    #[arg(
        id = "position",
        long = "position",
        value_name = "POSITION",
        allow_hyphen_values = true
    )]
    pub text: Option<String>,
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
    pub backend: Option<BackendKind>,
    /// Master seed of the run (processor RNGs; on sim also every fault). Needs --procs.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulator cost model: a built-in preset (default shared-memory) or a .toml cost-model
    /// file (`runner calibrate` writes one). Needs --backend sim. The help names the presets.
    #[arg(long, help = sim_preset_help(
        "; default shared-memory) or a .toml cost-model file (`runner calibrate` writes one). \
         Needs --backend sim"
    ))]
    pub sim_preset: Option<String>,
    /// Faults to inject on the simulator, e.g.
    /// `crash=3@1000,drop=1/100,dup=1/200,delay=1/50,corrupt=1/100` (times in virtual
    /// microseconds). Needs --backend sim.
    #[arg(long)]
    pub faults: Option<String>,
}

/// Arguments of `runner compare` (also the building block of every `runner experiment`, whose
/// TOML tables deserialise into it through [`CompareArgs::from_table`]: keys are the long names,
/// defaults are clap's).
#[derive(Clone, Debug, Args, Deserialize)]
#[command(group = clap::ArgGroup::new("limit").args(["depth", "time_ms"]))]
#[serde(rename_all = "kebab-case")]
pub struct CompareArgs {
    /// The game (see `runner list`).
    #[arg(long, default_value = defaults::GAME)]
    #[serde(default = "defaults::game")]
    pub game: String,
    /// The test set: a file, or the name of a built-in set (`runner list` shows them);
    /// default: the built-in set named after the game, or else the start position and seeded
    /// random positions (the seed is printed).
    #[arg(long)]
    pub testset: Option<String>,
    /// Use only the first N positions of the test set.
    #[arg(long)]
    pub positions: Option<usize>,
    /// Comma-separated parallel algorithms of `runner list`, each optionally with its own
    /// sorting regime after `@` (`mwf@ec,dmwf@ec`); default: every registered algorithm.
    #[arg(long, value_delimiter = ',')]
    #[serde(default, deserialize_with = "list::comma")]
    pub algos: Option<Vec<String>>,
    /// Comma-separated processor counts (a 1-processor run of each algorithm is always added
    /// for the relative figures); default 1,2,4,8,16, and on mpi the world size (the only
    /// count above 1 an MPI launch can run).
    #[arg(long, value_delimiter = ',', value_parser = list::count)]
    #[serde(default, deserialize_with = "list::comma")]
    pub procs: Option<Vec<usize>>,
    /// Where the processors run: sim (deterministic, virtual time), threads, or mpi (under
    /// `mpirun -n N`: each MPI cell uses every rank, one processor each; the one-processor
    /// cells run on rank 0, which alone writes and prints).
    #[arg(long, default_value_t = defaults::BACKEND)]
    #[serde(default = "defaults::backend")]
    pub backend: BackendKind,
    /// Search depth in plies (default 7 when neither --depth nor --time-ms is given).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Instead of one depth: per position, the smallest depth whose sequential baseline takes
    /// at least this many milliseconds (of the backend's clock).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// The table size and sorting flags (shared with `runner search`).
    #[command(flatten)]
    #[serde(flatten)]
    pub table_sort: TableSortArgs,
    /// Transposition table mode: off, exact or normal (default exact, the research setting).
    #[arg(long)]
    pub tt: Option<TtMode>,
    /// Nodes with fewer plies left than this neither probe nor store the table (default 2; 1:
    /// every interior node; 0: the horizon nodes too, Marsland and Popowich's "any tree node"; 3:
    /// only subtrees of more than 2 plies, Marsland and Popowich's "> 2 ply").
    #[arg(long)]
    pub tt_min_depth: Option<u32>,
    /// From this many processors on, nodes within one ply of the leaves neither probe nor
    /// store the table (--tt-min-depth at least 2), as the thesis's 64-processor runs on the
    /// Origin 2000 (its section 6.2.5); the runs on fewer processors and the baseline keep
    /// --tt-min-depth. Absent: --tt-min-depth at every count.
    #[arg(long, value_name = "N")]
    pub tt_leaf_ban_from: Option<usize>,
    /// Parallel granularity: nodes with fewer plies left are never split (default: each
    /// algorithm's own, 5 for alphabeta and delaysplit/ybw, 4 for abdib, mwf, dmwf, treesplit,
    /// pvsplit and er, 2 for the others; APHID keeps its own, `min_granularity` in
    /// --aphid-config).
    #[arg(long)]
    pub min_split_depth: Option<u32>,
    /// Simulator cost model: a built-in preset or a .toml cost-model file (sim only). The
    /// help names the presets.
    #[arg(long, help = sim_preset_help(") or a .toml cost-model file (sim only)"))]
    pub sim_preset: Option<String>,
    /// One numeric key of the simulator's cost model over the preset's value, as KEY=VALUE
    /// (such as `shared_table_ports=8` or `send_overhead_ns=100000`; `poll_ns=T` makes a busy
    /// processor look at its inbox every T ns, `poll_ns=0` interrupts it); repeatable, each
    /// key once (sim only; the keys are those of `dib/presets/*.toml`).
    #[arg(long, value_name = "KEY=VALUE")]
    #[serde(default)]
    pub sim_set: Vec<String>,
    /// Seeds 1..=K per cell: mean and spread over them.
    #[arg(long, default_value_t = defaults::SEEDS)]
    #[serde(default = "defaults::seeds")]
    pub seeds: u64,
    /// Timed repeats of every cell, interleaved (each repeat runs the baseline and every cell
    /// once, in a shuffled order); a cell's time is their median, with a confidence interval.
    /// Default 5 on threads and mpi (wall clock), 1 on sim (deterministic: only 1 is allowed).
    #[arg(long)]
    pub repeat: Option<usize>,
    /// The sequential baseline: a parallel algorithm run on one processor.
    #[arg(long, default_value_t = defaults::BASELINE)]
    #[serde(default = "defaults::baseline")]
    pub baseline: ParallelAlgo,
    /// Output folder (results.csv, results.json, SVG plots, report.html, and cells.jsonl for
    /// resuming); default target/compare/<hash of the settings>.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Also print one line per position.
    #[arg(long)]
    #[serde(default)]
    pub per_position: bool,
    /// Simulated cells computed at the same time, each on a thread of its own (default: the
    /// machine's cores); the simulator is deterministic, so the results are the same for any
    /// count. Wall-clock cells (threads, mpi) time themselves and run one at a time: more
    /// than 1 is refused there.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Compute only the K-th of N disjoint slices of the cells (K from 1 to N) into the --out
    /// folder the N share, and write no report; once every slice is done, --assemble writes
    /// it. For a Slurm array (`--shard $SLURM_ARRAY_TASK_ID/N`) or N processes anywhere.
    #[arg(long, value_name = "K/N", conflicts_with = "assemble")]
    pub shard: Option<String>,
    /// Compute nothing: write the report from the folder's finished cells (every shard's),
    /// whichever build computed them; an error naming how many cells are missing.
    #[arg(long)]
    #[serde(default)]
    pub assemble: bool,
    /// The options of single algorithms (shared with `runner search`).
    #[command(flatten)]
    #[serde(flatten)]
    pub algo_options: AlgoOptions,
    /// APHID's transposition tables: local, shared or distributed (the shadow-table ring of
    /// thesis 5.2.6); default local. Applies to the aphid series only: an error when neither
    /// `--algos` nor `--baseline` names aphid.
    #[arg(long)]
    pub aphid_tt: Option<TtSharing>,
    /// The split engine's transposition tables (alphabeta, delaysplit/ybw, mwf, dmwf,
    /// treesplit, pvsplit, er): global (one table every processor probes; the default) or
    /// local (one per processor, each 1/N of the size). An error when no series runs on the
    /// split engine.
    #[arg(long, value_name = "global|local")]
    pub split_tables: Option<SplitTables>,
    /// APHID's options for the aphid series: a configuration file, TOML (groups and keys as in
    /// control/src/parallel/aphid/README.md, such as `[geometry]` `master_depth = 5`) or the
    /// thesis's `aphid.config` text without host lines (a hierarchy names its processor
    /// count, which a comparison over several counts cannot keep). `--aphid-tt`, when also
    /// given, sets the tables over the file's `[tables] tt`. An error when no series runs aphid.
    #[arg(long)]
    pub aphid_config: Option<std::path::PathBuf>,
    /// The search setting: research (fixed depth; every run must return the baseline's
    /// value) or play (variable depth through the play setting's reductions and the normal
    /// table, as thesis table 6.2; values may then differ from the baseline's and are counted,
    /// not called wrong).
    #[arg(long, default_value_t = defaults::SETTING)]
    #[serde(default = "defaults::setting")]
    pub setting: Setting,
}

/// `runner compare` alone, for tests that read a command line as the binary would.
#[cfg(test)]
#[derive(clap::Parser)]
#[command(name = "compare")]
struct CompareCommand {
    #[command(flatten)]
    args: CompareArgs,
}

/// `runner compare`'s flags as clap reads the words `argv` (the first the command's name).
#[cfg(test)]
pub(crate) fn parse_compare<'a>(
    argv: impl IntoIterator<Item = &'a str>,
) -> Result<CompareArgs, clap::Error> {
    <CompareCommand as clap::Parser>::try_parse_from(argv).map(|c| c.args)
}

/// Arguments of `runner experiment`.
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// The experiment's name (see --list).
    #[arg(required_unless_present_any = ["list", "all"])]
    pub name: Option<String>,
    /// List the experiments with what they reproduce.
    #[arg(long)]
    pub list: bool,
    /// Run every experiment, each into OUT/<name>, and write the results page OUT/README.md.
    #[arg(long, conflicts_with_all = ["name", "list"])]
    pub all: bool,
    /// Output folder; default target/experiments/<name> (with --all: target/experiments).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Fewer positions, processors and plies: a run of a minute or two.
    #[arg(long)]
    pub quick: bool,
    /// Run only these variants (comma-separated; an experiment's variants are its subfolders,
    /// e.g. `origin2000`), for a long experiment run one machine at a time.
    #[arg(long, value_delimiter = ',', conflicts_with = "all")]
    pub variant: Vec<String>,
    /// Search only the first N positions of the test set (the experiment's own count
    /// otherwise); the results page names the count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub positions: Option<u32>,
    /// Compute nothing: rebuild the pages (reports, plots, verdict) from the comparisons'
    /// finished cells (every shard's), also from cells another build of runner computed,
    /// which the page then names; an error when a cell is missing. For the pages of a run in
    /// shards, or a change to the pages alone.
    #[arg(long)]
    pub assemble: bool,
    /// Simulated cells computed at the same time, each on a thread of its own (default: the
    /// machine's cores); the results are the same for any count. The cells of a wall-clock
    /// comparison (threads, mpi) time themselves and run one at a time.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Compute only the K-th of N disjoint slices of every comparison's cells (K from 1 to N)
    /// into the --out folder the N share, and write no pages; once every slice is done,
    /// --assemble writes them. For a Slurm array (`--shard $SLURM_ARRAY_TASK_ID/N`) or N
    /// processes anywhere.
    #[arg(long, value_name = "K/N", conflicts_with = "assemble")]
    pub shard: Option<String>,
}

/// Arguments of `runner calibrate`.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// The cost-model file to write (TOML; its folder must exist).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Fewer positions, shallower searches and fewer repeats: a few seconds.
    #[arg(long)]
    pub quick: bool,
    /// Comma-separated games to measure (the first gives the defaults); default
    /// tictactoe4,othello,checkers,chess.
    #[arg(long, value_delimiter = ',')]
    pub games: Option<Vec<String>>,
    /// Print exactly one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `runner validate-sim`.
#[derive(Debug, Args)]
pub struct ValidateSimArgs {
    /// The cost model of the prediction: a built-in preset name or a .toml file; default: a
    /// `runner calibrate --quick` of this machine, in memory.
    #[arg(long)]
    pub sim_preset: Option<String>,
    /// Comma-separated games; default tictactoe4,othello,checkers.
    #[arg(long, value_delimiter = ',')]
    pub games: Option<Vec<String>>,
    /// Comma-separated parallel algorithms of `runner list`; default: every one.
    #[arg(long, value_delimiter = ',')]
    pub algos: Option<Vec<String>>,
    /// Search depth for every game (default: chosen by --min-seconds; with --quick each
    /// game's quick depth, see dib/CALIBRATION.md).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Choose each game's depth: the smallest whose one-processor alphabeta run on threads
    /// lasts at least this many seconds. Default 1 (not with --depth; with --quick only when
    /// given).
    #[arg(long, value_name = "S")]
    pub min_seconds: Option<f64>,
    /// Comma-separated processor counts (1 is added); default 1 to the cores.
    #[arg(long, value_delimiter = ',')]
    pub procs: Option<Vec<usize>>,
    /// Paired rounds per algorithm at least (each round times every processor count once,
    /// after one warm-up run each). Default 5 (2 with --quick).
    #[arg(long)]
    pub repeat: Option<usize>,
    /// Paired rounds per algorithm at most: the rounds go on until every row's interval is
    /// decided against 10 % (3 % for the never-splitting control) or narrow. Default 20 (3
    /// with --quick).
    #[arg(long, value_name = "M")]
    pub max_repeat: Option<usize>,
    /// Shallow searches and two or three paired rounds: a few seconds.
    #[arg(long)]
    pub quick: bool,
    /// Print exactly one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Also write the results as a generated markdown page (its folder must exist): the
    /// command, the machine and build, the cost model, the table and the capacity lines.
    #[arg(long, value_name = "FILE.md")]
    pub out: Option<std::path::PathBuf>,
}

/// Arguments of `runner play`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("per_move").required(true).args(["time_ms", "depth", "nodes"]))]
pub struct PlayArgs {
    /// The game (see `runner list`).
    #[arg(long)]
    pub game: String,
    /// Engine A: comma-separated key=value pairs, e.g. `algo=pvs,setting=play,tt-mb=16` or
    /// `algo=ybw,procs=2,backend=threads` (keys: algo, procs, backend, setting, tt-mb, name);
    /// or an outside program, `uci:COMMAND`, `gtp:COMMAND` or `line:COMMAND`, then
    /// `,option.NAME=VALUE` and `,name=N` (e.g. `uci:/usr/games/stockfish,option.UCI_Elo=2300`).
    #[arg(long)]
    pub a: String,
    /// Engine B, in the same form.
    #[arg(long)]
    pub b: String,
    /// Number of games; colours alternate, and each opening is played once with each colour.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Thinking time per move in milliseconds (wall clock).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Fixed search depth per move instead of a time.
    #[arg(long)]
    pub depth: Option<u32>,
    /// A node budget per move for both engines instead of a time (the result does not depend
    /// on the machine's load).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Opening positions: a test set as for `runner search --testset` (a file, one position
    /// per line, or a built-in set's name); the start position if absent.
    #[arg(long)]
    pub openings: Option<String>,
    /// Write the games to this file: PGN for chess, a plain move list for other games.
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// Adjudicate a game as a draw after this many plies.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Print exactly one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// How long past the time per move an outside engine's answer is awaited before it forfeits
    /// by hanging (default: twice the time per move, at least 1000 ms; with --depth only, the
    /// whole wait, 60000 ms).
    #[arg(long)]
    pub grace_ms: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn clap(argv: &[&str]) -> CompareArgs {
        parse_compare(std::iter::once("compare").chain(argv.iter().copied()))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn table(text: &str) -> Result<CompareArgs, toml::de::Error> {
        CompareArgs::from_table(toml::from_str(text)?)
    }

    /// The serde defaults are clap's: an empty table is `runner compare` without flags.
    #[test]
    fn an_empty_table_is_compare_without_flags() {
        let read = table("").expect("an empty table reads");
        assert_eq!(format!("{read:?}"), format!("{:?}", clap(&[])));
    }

    /// Every flag is the key of its long name, and a value means the same in both forms: one
    /// key of a table against the flag on the command line, for each flag.
    #[test]
    fn every_flag_is_the_key_of_its_long_name() {
        let mut checked = 0;
        for arg in CompareCommand::command().get_arguments() {
            let Some(long) = arg.get_long().filter(|l| *l != "help") else {
                continue;
            };
            // A flag with named values takes its first name; any other the first value of
            // the key's type: (TOML, the flag's text).
            let named = arg
                .get_possible_values()
                .first()
                .filter(|_| arg.get_action().takes_values())
                .map(|v| v.get_name().to_string());
            let mut candidates: Vec<(String, &str)> = named
                .as_deref()
                .map(|name| (format!("\"{name}\""), name))
                .into_iter()
                .collect();
            candidates.extend([
                ("\"x\"".to_string(), "x"),
                ("1".to_string(), "1"),
                ("true".to_string(), "true"),
                ("[\"x\"]".to_string(), "x"),
            ]);
            let found = candidates.into_iter().find_map(|(toml, text)| {
                table(&format!("{long} = {toml}"))
                    .ok()
                    .map(|args| (args, text))
            });
            let Some((read, text)) = found else {
                panic!("--{long} is no key of the table");
            };
            let flag = format!("--{long}");
            let argv: Vec<&str> = if arg.get_action().takes_values() {
                vec![&flag, text]
            } else {
                vec![&flag]
            };
            assert_eq!(format!("{read:?}"), format!("{:?}", clap(&argv)), "{flag}");
            checked += 1;
        }
        assert!(checked >= 40, "{checked} flags");
    }

    /// A named value is checked by its type in both forms: clap lists the names, a table gets
    /// the type's own message; lists split at commas in both.
    #[test]
    fn named_values_and_lists_are_typed() {
        let err = parse_compare(["compare", "--sort", "ecc"]).expect_err("no such regime");
        assert!(
            err.to_string()
                .contains("possible values: none, tn, pvr, ec, tt"),
            "{err}"
        );
        let err = table("backend = \"gpu\"").expect_err("no such backend");
        assert!(err.message().contains("`threads`, `sim`, `mpi`"), "{err}");
        let err = table("tt = \"exactly\"").expect_err("no such table mode");
        assert!(
            err.message().contains("use one of: off exact normal"),
            "{err}"
        );
        let read = clap(&["--procs", "1,2", "--procs", "8", "--algos", "mwf,er"]);
        assert_eq!(read.procs, Some(vec![1, 2, 8]));
        assert_eq!(read.algos, Some(vec!["mwf".to_string(), "er".to_string()]));
        let read = table("procs = \"1,2,8\"\nalgos = [\"mwf\", \"er\"]").expect("lists");
        assert_eq!(read.procs, Some(vec![1, 2, 8]));
        assert_eq!(read.algos, Some(vec!["mwf".to_string(), "er".to_string()]));
        assert_eq!(read.backend, BackendKind::Sim);
        assert_eq!(read.setting, Setting::Research);
        // An algorithm by an alias, in both forms.
        assert_eq!(
            clap(&["--baseline", "ybw"]).baseline,
            ParallelAlgo::DelaySplit
        );
        let read = table("baseline = \"ybw\"").expect("an alias");
        assert_eq!(read.baseline, ParallelAlgo::DelaySplit);
        let err = table("baseline = \"ybww\"").expect_err("no such algorithm");
        assert!(
            err.message().contains("unknown parallel algorithm 'ybww'"),
            "{err}"
        );
    }

    #[test]
    fn a_key_that_is_no_flag_is_refused() {
        let err = table("depth = 5\ndepht = 6").expect_err("a misspelt key");
        assert!(err.message().contains("unknown field `depht`"), "{err}");
        let err = table("tt-mb = \"big\"").expect_err("a string for a number");
        assert!(err.message().contains("invalid type"), "{err}");
    }
}
