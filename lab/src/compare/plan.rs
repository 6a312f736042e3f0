//! The checked form of `runner compare`'s flags: which series (algorithm, sorting), processor
//! counts, seeds and search settings, and the fingerprint of everything that changes a cell's
//! result (a folder of cells is resumed only under the same fingerprint).

use std::path::{Path, PathBuf};

use anyhow::Result;
use control::parallel::aphid::AphidOptions;
use control::parallel::split_ab::SplitTables;
use control::parallel::{AlgoOptions, ParallelAlgo};
use control::search::{MAX_DEPTH, PlayFeatures, SearchConfig, Setting, SortRegime};
use dib::{Backend, CostModel, SimConfig};
use games::GameId;
use serde_json::{Value, json};

use crate::cli::{BackendKind, CompareArgs, DibArgs, family_names};
use crate::dib_flags::{self, MAX_PROCS};
use crate::input_error::input;
use crate::parallel_search::read_aphid_config;
use crate::search::{TableAndSorting, apply_table_and_sorting};
use crate::testset::TestSet;

use super::shard::Shard;
use super::store::Key;

/// The depth used when neither --depth nor --time-ms is given.
pub const DEFAULT_DEPTH: u32 = 7;

/// The timed repeats of a cell on a wall-clock backend when --repeat is not given.
pub const DEFAULT_WALL_CLOCK_REPEAT: usize = 5;

/// The processor counts used when --procs is not given (off MPI).
pub const DEFAULT_PROCS: [usize; 5] = [1, 2, 4, 8, 16];

/// One line of the comparison: an algorithm, optionally with its own sorting regime.
#[derive(Clone, Debug)]
pub struct Series {
    /// `name` or `name@sort`, as given.
    pub label: String,
    /// The algorithm.
    pub algo: ParallelAlgo,
    /// A sorting regime replacing --sort for this series.
    pub sort: Option<SortRegime>,
}

/// A checked comparison.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game.
    pub game: GameId,
    /// The test set.
    pub testset: TestSet,
    /// Only the first N positions.
    pub positions: Option<usize>,
    /// The series, in the order given.
    pub series: Vec<Series>,
    /// Processor counts, ascending, always with 1 (on MPI: 1 and the world size, once
    /// [`Plan::fit_world`] has run).
    pub procs: Vec<usize>,
    /// Where the processors run.
    pub backend: BackendKind,
    /// The simulator preset (sim only).
    pub sim_preset: Option<String>,
    /// Cost-model keys set over the preset's values (`--sim-set`, sim only).
    pub sim_set: Vec<(String, u64)>,
    /// The simulator's cost model, `--sim-set` applied (sim only): read once, when the plan is
    /// made, so every cell of the run uses the same numbers, whatever happens to a cost-model
    /// file meanwhile.
    pub cost: Option<CostModel>,
    /// Fixed depth, or `None` with `time_ms`.
    pub depth: Option<u32>,
    /// Per-position depth chosen by the baseline's time.
    pub time_ms: Option<u64>,
    /// The sequential search below the parallel part.
    pub config: SearchConfig,
    /// Granularity override.
    pub min_split_depth: Option<u32>,
    /// The options of single algorithms, as given (`--mwf-wait`, `--ybw-rule`, ...).
    pub algo_options: AlgoOptions,
    /// Seeds, 1..=K.
    pub seeds: Vec<u64>,
    /// Timed repeats of every cell (`--repeat`; 1 on the simulator).
    pub repeat: usize,
    /// The baseline algorithm (run on one processor).
    pub baseline: ParallelAlgo,
    /// Output folder.
    pub out: PathBuf,
    /// Print per-position lines.
    pub per_position: bool,
    /// Compute nothing: report the finished cells as they are, whichever build computed them
    /// (`--assemble`); an error when a cell is missing.
    pub assemble: bool,
    /// Simulated cells computed at the same time (`--jobs`; wall-clock cells run one at a
    /// time whatever it says).
    pub jobs: usize,
    /// Only this slice of the cells, and no report (`--shard K/N`).
    pub shard: Option<Shard>,
    /// What changes a cell's result, as JSON (stored beside the cells).
    pub fingerprint: Value,
    /// APHID's options for the aphid series (`--aphid-config`, then `--aphid-tt`).
    pub aphid: AphidOptions,
    /// The split engine's tables (`--split-tables`).
    pub split_tables: SplitTables,
    /// From this many processors on, the table is not used within one ply of the leaves
    /// (`--tt-leaf-ban-from`).
    pub tt_leaf_ban_from: Option<usize>,
    /// The label of the never-splitting control series ([`crate::never_split`]): on the
    /// threads backend with a never-splitting baseline, that algorithm runs on every
    /// processor count beside the series (added to them when `--algos` leaves it out).
    pub control: Option<String>,
}

/// Reads `--aphid-config`: the options and the FNV hash of what they say (their `Debug`
/// form), so that editing a comment of the file leaves the fingerprint, and the cells it
/// keys, as they are.
fn aphid_config(path: &Path) -> Result<(AphidOptions, u64)> {
    let o = read_aphid_config(path)?;
    if let Some(h) = &o.hierarchy {
        return Err(input(
            "--aphid-config",
            format!(
                "{} names a hierarchy of {} processes, which fixes the processor count; a \
                 comparison runs several counts, so leave the host lines out (or use \
                 `runner search --algo aphid --aphid-config` for that one count)",
                path.display(),
                h.procs()
            ),
        ));
    }
    let said = fnv(format!("{o:?}").as_bytes());
    Ok((o, said))
}

/// `--sim-set`'s items, and the cost model with them applied (`None` off the simulator).
pub type SimSettings = (Vec<(String, u64)>, Option<CostModel>);

/// Parses `--sim-set KEY=VALUE` items against `model`, the cost model `--sim-preset` names
/// (`None` off the simulator): each key once, each value a count that the model accepts.
/// Returns the items and the model with them applied.
pub fn parse_sim_set(
    given: &[String],
    backend: BackendKind,
    model: Option<CostModel>,
) -> Result<SimSettings> {
    if given.is_empty() {
        return Ok((Vec::new(), model));
    }
    if backend != BackendKind::Sim {
        return Err(input(
            "--sim-set",
            format!(
                "sets a simulator cost, but the backend is {backend}; add --backend sim or drop --sim-set"
            ),
        ));
    }
    let Some(mut model) = model else {
        return Err(input(
            "--sim-set",
            "needs the simulator's cost model (--backend sim)",
        ));
    };
    let mut out: Vec<(String, u64)> = Vec::new();
    for item in given {
        let Some((key, value)) = item.split_once('=') else {
            return Err(input(
                format!("--sim-set {item}"),
                "give KEY=VALUE, such as shared_table_ports=8",
            ));
        };
        let key = key.trim();
        let value: u64 = value.trim().replace('_', "").parse().map_err(|_| {
            input(
                format!("--sim-set {item}"),
                format!(
                    "'{}' is not a whole number (nanoseconds or a count)",
                    value.trim()
                ),
            )
        })?;
        if out.iter().any(|(k, _)| k == key) {
            return Err(input(
                format!("--sim-set {item}"),
                format!("{key} is set twice; give each key once"),
            ));
        }
        model = model
            .with_setting(key, value)
            .map_err(|e| input(format!("--sim-set {item}"), e))?;
        out.push((key.to_string(), value));
    }
    Ok((out, Some(model)))
}

/// Parses `--algos`; every registered algorithm when absent.
fn parse_series(given: Option<&[String]>) -> Result<Vec<Series>> {
    let Some(given) = given else {
        return Ok(ParallelAlgo::ALL
            .iter()
            .map(|&algo| Series {
                label: algo.name().to_string(),
                algo,
                sort: None,
            })
            .collect());
    };
    let mut series: Vec<Series> = Vec::new();
    for item in given.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let (name, sort) = match item.split_once('@') {
            Some((n, s)) => (
                n,
                Some(
                    s.parse::<SortRegime>()
                        .map_err(|e| input(format!("--algos {item}"), e))?,
                ),
            ),
            None => (item, None),
        };
        let algo: ParallelAlgo = name.parse().map_err(|e| input("--algos", e))?;
        let label = match sort {
            Some(s) => format!("{}@{}", algo.name(), s.name()),
            None => algo.name().to_string(),
        };
        if series.iter().any(|s| s.label == label) {
            return Err(input("--algos", format!("{label} is given twice")));
        }
        series.push(Series { label, algo, sort });
    }
    if series.is_empty() {
        return Err(input(
            "--algos",
            format!(
                "the list is empty; name at least one of: {}",
                ParallelAlgo::names()
            ),
        ));
    }
    Ok(series)
}

/// Checks `--procs`: ascending, without duplicates, with 1 added.
pub(crate) fn parse_procs(given: &[usize]) -> Result<Vec<usize>> {
    let mut procs = Vec::new();
    for &n in given {
        if n == 0 || n > MAX_PROCS {
            return Err(input(
                "--procs",
                format!("{n} is out of range; use 1 to {MAX_PROCS}"),
            ));
        }
        procs.push(n);
    }
    if procs.is_empty() {
        return Err(input(
            "--procs",
            "the processor list is empty; give counts such as 1,2,4,8",
        ));
    }
    procs.push(1);
    procs.sort_unstable();
    procs.dedup();
    Ok(procs)
}

/// The most jobs `--jobs` takes.
pub const MAX_JOBS: usize = 4096;

/// Checks `--jobs`: the machine's cores when absent. Only simulated cells run at the same
/// time, so more than one job on a wall-clock backend is refused rather than ignored.
///
/// # Errors
/// An input error for 0, too many, or more than one on a wall-clock backend.
pub fn parse_jobs(given: Option<usize>, backend: BackendKind) -> Result<usize> {
    match given {
        None => Ok(crate::machine::cores()),
        Some(0) => Err(input("--jobs 0", "give at least 1")),
        Some(j) if j > MAX_JOBS => Err(input(
            format!("--jobs {j}"),
            format!("is out of range; use 1 to {MAX_JOBS}"),
        )),
        Some(j) if j > 1 && backend != BackendKind::Sim => Err(input(
            format!("--jobs {j}"),
            format!(
                "runs simulated cells at the same time, and {backend} cells time themselves on the wall clock, one at a time; leave --jobs out or use --backend sim"
            ),
        )),
        Some(j) => Ok(j),
    }
}

/// Finds the test set: `--testset` (a file or a built-in set's name), else the built-in set
/// named after the game, else the start position and seeded random positions.
pub fn find_testset(given: Option<&str>, game: &str) -> Result<TestSet> {
    match given {
        Some(given) => TestSet::find("--testset", given),
        None => Ok(TestSet::built_in(game).unwrap_or_else(TestSet::random)),
    }
}

/// FNV-1a of the bytes: a short, stable content hash for the fingerprint.
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Plan {
    /// Checks every flag of `runner compare`.
    pub fn parse(args: &CompareArgs) -> Result<Plan> {
        let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
        let on_mpi = args.backend == BackendKind::Mpi;
        let series = parse_series(args.algos.as_deref())?;
        // On MPI the world size is added by `fit_world` once MPI has started.
        let procs = match (&args.procs, on_mpi) {
            (Some(text), _) => parse_procs(text)?,
            (None, false) => parse_procs(&DEFAULT_PROCS)?,
            (None, true) => vec![1],
        };
        let baseline = args.baseline;
        // The DIB flags are checked once, at the largest count; a cost-model file is read
        // there, and only there.
        let checked = dib_flags::parse(&dib_args(args, procs[procs.len() - 1], 1))?;
        let preset_cost = match checked.map(|p| p.backend) {
            Some(Backend::Sim(config)) => Some(config.cost),
            _ => None,
        };
        if args.seeds == 0 || args.seeds > 1000 {
            return Err(input(
                "--seeds",
                format!("{} is out of range; use 1 to 1000", args.seeds),
            ));
        }
        let depth = match (args.depth, args.time_ms) {
            // Clap refuses both on the command line; an experiment's table is checked here.
            (Some(_), Some(_)) => {
                return Err(input(
                    "--depth and --time-ms",
                    "exclude each other (a fixed depth, or one per position by time); give one",
                ));
            }
            (Some(d), _) if d == 0 || d > MAX_DEPTH => {
                return Err(input(
                    "--depth",
                    format!("{d} is out of range; use 0 to {MAX_DEPTH}"),
                ));
            }
            (_, Some(0)) => return Err(input("--time-ms", "give at least 1 ms")),
            (d, None) => Some(d.unwrap_or(DEFAULT_DEPTH)),
            (_, Some(_)) => None,
        };
        let repeat = match (args.repeat, args.backend == BackendKind::Sim) {
            (Some(0), _) => return Err(input("--repeat", "give at least 1")),
            (Some(k), _) if k > 1000 => {
                return Err(input(
                    "--repeat",
                    format!("{k} is out of range; use 1 to 1000"),
                ));
            }
            (Some(k), true) if k > 1 => {
                return Err(input(
                    "--repeat",
                    format!(
                        "{k} repeats on the simulator, whose runs are deterministic (every repeat takes the same virtual time); leave --repeat out, or use --backend threads"
                    ),
                ));
            }
            (Some(k), _) => k,
            (None, true) => 1,
            (None, false) => DEFAULT_WALL_CLOCK_REPEAT,
        };
        if args.positions == Some(0) {
            return Err(input("--positions", "give at least 1"));
        }
        let config = search_config(args)?;
        if config.play_enhancements() {
            // The play setting's reductions live in the sequential searcher; the split
            // engine's frames search every child to the full depth.
            let names = std::iter::once(baseline).chain(series.iter().map(|s| s.algo));
            if let Some(algo) = names.into_iter().find(|a| a.on_split_engine()) {
                let flag = if algo == baseline && !series.iter().any(|s| s.algo == algo) {
                    "--baseline"
                } else {
                    "--algos"
                };
                return Err(input(
                    flag,
                    format!(
                        "{} runs on the split engine, whose frames have none of the play setting's reductions (only its leaf searches would), so it would search another tree; in the play setting compare aphid and lazysmp, with --baseline lazysmp (on one processor the sequential iterative deepening)",
                        algo.name()
                    ),
                ));
            }
        }
        if args.table_sort.tt_sort_bug
            && config.sorting.regime != SortRegime::TypeTwo
            && !series.iter().any(|s| s.sort == Some(SortRegime::TypeTwo))
        {
            return Err(input(
                "--tt-sort-bug",
                "reproduces a bug of TT sorting, and no series sorts with tt; give --sort tt or a series @tt",
            ));
        }
        if let Some(m) = args.min_split_depth {
            if m > MAX_DEPTH {
                return Err(input(
                    "--min-split-depth",
                    format!("{m} is out of range; use 0 to {MAX_DEPTH}"),
                ));
            }
        }
        let testset = find_testset(args.testset.as_deref(), game.info().name)?;
        // A flag for one family of algorithms needs one of them among the series or baseline.
        let runs = |family: &[ParallelAlgo]| {
            family.contains(&baseline) || series.iter().any(|s| family.contains(&s.algo))
        };
        let aphid_only = [ParallelAlgo::Aphid];
        let split_engine: Vec<ParallelAlgo> = ParallelAlgo::ALL
            .iter()
            .copied()
            .filter(|a| a.on_split_engine())
            .collect();
        let split_engine_names = format!(
            "split-engine ({})",
            split_engine
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let aphid_rows = [
            ("--aphid-config", args.aphid_config.is_some()),
            ("--aphid-tt", args.aphid_tt.is_some()),
        ]
        .map(|(flag, given)| {
            (
                flag.to_string(),
                given,
                &aphid_only[..],
                "aphid".to_string(),
            )
        });
        let algo_options = args
            .algo_options
            .given()
            .into_iter()
            .map(|(flag, family)| (flag, true, family, family_names(family)));
        let tables = (
            "--split-tables".to_string(),
            args.split_tables.is_some(),
            &split_engine[..],
            split_engine_names,
        );
        for (flag, given, family, names) in
            aphid_rows.into_iter().chain(algo_options).chain([tables])
        {
            if given && !runs(family) {
                return Err(input(
                    flag,
                    format!(
                        "applies to the {names} series only, and neither --algos nor --baseline names one; add one to --algos or drop the flag"
                    ),
                ));
            }
        }
        let algo_options = args.algo_options;
        algo_options.check().map_err(|e| input(e.flag, e.message))?;
        let (mut aphid, aphid_fnv) = match &args.aphid_config {
            Some(path) => {
                let (o, h) = aphid_config(path)?;
                (o, Some(h))
            }
            None => (AphidOptions::default(), None),
        };
        if let Some(t) = args.aphid_tt {
            aphid.tt = t;
        }
        let mut fingerprint = json!({
            "game": game.info().name,
            "testset": testset.short_name(),
            "testset_fnv": format!("{:016x}", fnv(testset.content().as_bytes())),
            "depth": depth,
            "time_ms": args.time_ms,
            "sort": config.sorting.regime.name(),
            "expansion_depth": config.sorting.expansion_depth,
            "sort_depth": args.table_sort.sort_depth,
            "tt": config.tt_mode.name(),
            "tt_mb": config.tt_mib,
            "min_split_depth": args.min_split_depth,
            "backend": args.backend.name(),
            "sim_preset": args.sim_preset,
            "baseline": baseline.name(),
            "mwf_wait": algo_options.mwf.wait(),
            "repeat": repeat,
        });
        // Every option of a single algorithm that changes the runs, by its name with
        // underscores (`ybw_rule`).
        if let Value::Object(changed) = json!(algo_options.changed()) {
            for (key, value) in changed {
                fingerprint[key.replace('-', "_")] = value;
            }
        }
        if args.table_sort.unsorted {
            fingerprint["unsorted"] = json!(true);
        }
        if args.table_sort.tt_sort_bug {
            fingerprint["tt_sort_bug"] = json!(true);
        }
        if args.table_sort.refutation_table {
            fingerprint["refutation_table"] = json!(true);
        }
        if args.aphid_tt.is_some() {
            fingerprint["aphid_tt"] = json!(aphid.tt.name());
        }
        let split_tables = match args.split_tables {
            Some(t) => {
                fingerprint["split_tables"] = json!(t.name());
                t
            }
            None => SplitTables::Global,
        };
        if config.tt_min_depth != SearchConfig::research().tt_min_depth {
            fingerprint["tt_min_depth"] = json!(config.tt_min_depth);
        }
        if config.tt_replace != SearchConfig::research().tt_replace {
            fingerprint["tt_replace"] = json!(config.tt_replace.name());
        }
        if let Some(n) = args.tt_leaf_ban_from {
            if n < 2 {
                return Err(input(
                    "--tt-leaf-ban-from",
                    format!("{n} is not a parallel run; give 2 or more processors"),
                ));
            }
            fingerprint["tt_leaf_ban_from"] = json!(n);
        }
        if let (Some(_), Some(model)) = (
            args.sim_preset
                .as_ref()
                .filter(|p| p.parse::<dib::CostModel>().is_err()),
            &preset_cost,
        ) {
            // A cost-model file: its numbers, not its name, enter the fingerprint, so an edited
            // file makes new cells (a built-in preset is part of the build, which the
            // fingerprint names).
            fingerprint["sim_cost"] = json!(format!("{:016x}", fnv(model.to_toml().as_bytes())));
        }
        let (sim_set, cost) = parse_sim_set(&args.sim_set, args.backend, preset_cost)?;
        if !sim_set.is_empty() {
            fingerprint["sim_set"] = json!(
                sim_set
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(v)))
                    .collect::<serde_json::Map<_, _>>()
            );
        }
        if let Some(h) = aphid_fnv {
            // The file's bytes, not its name: an edited file makes new cells.
            fingerprint["aphid_config"] = json!(format!("{h:016x}"));
        }
        if config.setting != Setting::Research {
            fingerprint["setting"] = json!(config.setting.name());
        }
        if config.play_enhancements() && config.play_features != PlayFeatures::default() {
            fingerprint["play_features"] = json!(format!("{:?}", config.play_features));
        }
        let jobs = parse_jobs(args.jobs, args.backend)?;
        let shard = args
            .shard
            .as_deref()
            .map(|s| Shard::parse("--shard", s))
            .transpose()?;
        // On threads the baseline's never-splitting algorithm runs on every processor count
        // as the control of the timing (README, "The never-splitting control").
        let mut series = series;
        let control = (args.backend == BackendKind::Threads
            && baseline.never_splits()
            && procs.iter().any(|&n| n > 1))
        .then(|| {
            let label = baseline.name().to_string();
            if !series.iter().any(|s| s.label == label) {
                series.push(Series {
                    label: label.clone(),
                    algo: baseline,
                    sort: None,
                });
            }
            label
        });
        let out = args.out.clone().unwrap_or_else(|| {
            // The build is part of the name: after a rebuild the default folder is a new one
            // (the store refuses cells of another build).
            let named = format!("{fingerprint}{}", super::store::build_id());
            PathBuf::from("target/compare").join(format!(
                "{}-{:08x}",
                game.info().name,
                fnv(named.as_bytes()) as u32
            ))
        });
        Ok(Plan {
            game,
            testset,
            positions: args.positions,
            series,
            procs,
            backend: args.backend,
            sim_preset: args.sim_preset.clone(),
            sim_set,
            cost,
            depth,
            time_ms: args.time_ms,
            config,
            min_split_depth: args.min_split_depth,
            algo_options,
            seeds: (1..=args.seeds).collect(),
            repeat,
            baseline,
            out,
            per_position: args.per_position,
            assemble: args.assemble,
            jobs,
            shard,
            fingerprint,
            aphid,
            split_tables,
            tt_leaf_ban_from: args.tt_leaf_ban_from,
            control,
        })
    }

    /// Whether the runs are over MPI (`--backend mpi`).
    pub fn on_mpi(&self) -> bool {
        self.backend == BackendKind::Mpi
    }

    /// On MPI, with `world` ranks: the processor counts become 1 and `world` (an MPI cell uses
    /// every rank, one processor each); any other count given with --procs is refused.
    ///
    /// # Errors
    /// An input error naming the world size when --procs asked for another count.
    pub fn fit_world(&mut self, world: usize) -> Result<()> {
        if let Some(&n) = self.procs.iter().find(|&&n| n != 1 && n != world) {
            return Err(input(
                "--procs",
                format!(
                    "{n} processors, but this MPI launch has {world} ranks and an MPI cell runs on every rank (one processor each); give --procs {world} or leave --procs out, or launch with `mpirun -n {n}`"
                ),
            ));
        }
        self.procs.push(world);
        self.procs.sort_unstable();
        self.procs.dedup();
        Ok(())
    }

    /// Whether a cell on `procs` processors is one search over all MPI ranks (every rank must
    /// take part); the others run in one process (on MPI: on rank 0 alone).
    pub fn on_all_ranks(&self, procs: usize) -> bool {
        self.on_mpi() && procs > 1
    }

    /// The runtime backend for `procs` processors and `seed`. On MPI the one-processor cells
    /// (the baselines and the relative figures' runs) run on rank 0 alone with one processor on
    /// the threads backend: the same runtime, also timed by the wall clock.
    pub fn backend(&self, procs: usize, seed: u64) -> Result<Backend> {
        if let Some(cost) = &self.cost {
            return Ok(Backend::Sim(SimConfig::new(cost.clone(), seed)));
        }
        let kind = if self.on_mpi() && procs == 1 {
            BackendKind::Threads
        } else {
            self.backend
        };
        let flags = DibArgs {
            procs: Some(procs),
            backend: Some(kind),
            seed: Some(seed),
            sim_preset: None,
            faults: None,
        };
        let parallel = dib_flags::parse(&flags)?
            .ok_or_else(|| input("--procs", "a processor count is needed"))?;
        Ok(parallel.backend)
    }

    /// Whether times are virtual (simulator).
    pub fn virtual_time(&self) -> bool {
        self.backend == BackendKind::Sim
    }

    /// The cells of the position on `line`: its baseline, then every series on every
    /// processor count with every seed.
    pub fn keys(&self, line: usize) -> Vec<Key> {
        let mut keys = vec![Key::baseline(line, self.baseline.name())];
        for s in &self.series {
            for &n in &self.procs {
                for &seed in &self.seeds {
                    keys.push(Key::run(line, &s.label, n, seed));
                }
            }
        }
        keys
    }
}

fn dib_args(args: &CompareArgs, procs: usize, seed: u64) -> DibArgs {
    DibArgs {
        procs: Some(procs),
        backend: Some(args.backend),
        seed: Some(seed),
        sim_preset: args.sim_preset.clone(),
        faults: None,
    }
}

/// The search configuration of `--setting` (research unless asked) with the comparison's
/// table and sorting flags.
fn search_config(args: &CompareArgs) -> Result<SearchConfig> {
    let mut config = SearchConfig::for_setting(args.setting);
    if let Some(m) = args.tt_min_depth {
        if m > MAX_DEPTH {
            return Err(input(
                "--tt-min-depth",
                format!("{m} is out of range; use 0 to {MAX_DEPTH}"),
            ));
        }
        config.tt_min_depth = m;
    }
    apply_table_and_sorting(
        &mut config,
        &TableAndSorting {
            tt_mode: args.tt,
            tt_mode_flag: "--tt",
            flags: &args.table_sort,
        },
    )?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `runner compare`'s flags, parsed as the command line parses them.
    fn compare_args(argv: &[&str]) -> CompareArgs {
        #[derive(clap::Parser)]
        struct Wrap {
            #[command(flatten)]
            args: CompareArgs,
        }
        use clap::Parser as _;
        Wrap::try_parse_from(std::iter::once("compare").chain(argv.iter().copied()))
            .expect("valid flags")
            .args
    }

    #[test]
    fn a_cost_model_file_is_read_once_for_the_whole_run() {
        let path = std::env::temp_dir().join(format!("plan-cost-{}.toml", std::process::id()));
        let model = |node_ns: u64| {
            CostModel::shared_memory()
                .with_setting("node_ns", node_ns)
                .expect("a valid node cost")
                .to_toml()
        };
        std::fs::write(&path, model(1_111)).expect("a writable temp folder");
        let file = path.to_str().expect("a UTF-8 temp path");
        let plan = Plan::parse(&compare_args(&[
            "--procs",
            "2",
            "--sim-preset",
            file,
            "--sim-set",
            "latency_ns=777",
        ]))
        .expect("a valid plan");
        // The file changes while the run goes on: the cells keep the plan's numbers.
        std::fs::write(&path, model(2_222)).expect("a writable temp folder");
        for (procs, seed) in [(1, 1), (2, 1), (2, 2)] {
            match plan.backend(procs, seed).expect("a backend") {
                Backend::Sim(config) => {
                    assert_eq!(config.cost.node_ns, 1_111);
                    assert_eq!(config.cost.latency_ns, 777);
                    assert_eq!(config.seed, seed);
                }
                other => panic!("not the simulator: {other:?}"),
            }
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn processor_lists_are_sorted_deduplicated_and_start_at_one() {
        assert_eq!(parse_procs(&[8, 2, 4, 2]).unwrap(), vec![1, 2, 4, 8]);
        assert!(parse_procs(&[]).is_err());
        assert!(parse_procs(&[0]).is_err());
        assert!(parse_procs(&[MAX_PROCS + 1]).is_err());
    }

    #[test]
    fn a_threads_comparison_runs_the_never_splitting_control() {
        let threads = Plan::parse(&compare_args(&[
            "--backend",
            "threads",
            "--algos",
            "delaysplit",
            "--procs",
            "2",
        ]))
        .expect("a plan");
        assert_eq!(threads.control.as_deref(), Some("alphabeta"));
        let labels: Vec<&str> = threads.series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["delaysplit", "alphabeta"]);
        let given = Plan::parse(&compare_args(&[
            "--backend",
            "threads",
            "--algos",
            "alphabeta,mwf",
            "--procs",
            "2",
        ]))
        .expect("a plan");
        assert_eq!(given.series.len(), 2, "not added twice");
        let sim =
            Plan::parse(&compare_args(&["--algos", "delaysplit", "--procs", "2"])).expect("a plan");
        assert_eq!(
            sim.control, None,
            "the simulator's runs are left as they are"
        );
        assert_eq!(sim.series.len(), 1);
    }

    /// A table (an experiment's) may name both; clap refuses them together on the command line.
    #[test]
    fn a_depth_and_a_time_limit_exclude_each_other() {
        let args: CompareArgs = toml::from_str("depth = 5\ntime-ms = 20").expect("a table");
        let err = Plan::parse(&args).expect_err("both limits");
        assert!(
            err.to_string()
                .starts_with("--depth and --time-ms: exclude each other")
        );
    }

    #[test]
    fn series_come_from_the_registry_with_optional_sorting() {
        let all = parse_series(None).unwrap();
        assert_eq!(all.len(), ParallelAlgo::ALL.len());
        let name = ParallelAlgo::ALL[0].name();
        let list = |items: &[&str]| items.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
        let s = parse_series(Some(&list(&[name, &format!("{name}@ec")]))).unwrap();
        assert_eq!(s[1].label, format!("{name}@ec"));
        assert!(parse_series(Some(&list(&["no-such-algorithm"]))).is_err());
        assert!(parse_series(Some(&list(&[name, name]))).is_err());
        assert!(parse_series(Some(&list(&[" "]))).is_err());
    }

    #[test]
    fn sim_set_items_are_checked_against_the_preset() {
        let one = |items: &[&str]| {
            let items: Vec<String> = items.iter().map(|s| (*s).to_string()).collect();
            let model = CostModel::preset("origin2000").expect("a preset");
            parse_sim_set(&items, BackendKind::Sim, Some(model)).map(|(items, _)| items)
        };
        assert_eq!(
            one(&["shared_table_ports=8", "send_overhead_ns = 100_000"]).unwrap(),
            vec![
                ("shared_table_ports".to_string(), 8),
                ("send_overhead_ns".to_string(), 100_000)
            ]
        );
        assert!(one(&[]).unwrap().is_empty());
        for bad in [
            &["ports"][..],
            &["no_such_ns=3"],
            &["node_ns=fast"],
            &["node_ns=0"],
            &["latency_ns=1", "latency_ns=2"],
        ] {
            assert!(one(bad).is_err(), "{bad:?}");
        }
        assert!(parse_sim_set(&["node_ns=1".to_string()], BackendKind::Threads, None).is_err());
        let (_, applied) = parse_sim_set(
            &["node_ns=1234".to_string()],
            BackendKind::Sim,
            Some(CostModel::preset("origin2000").expect("a preset")),
        )
        .expect("valid");
        assert_eq!(applied.expect("a model").node_ns, 1234);
    }
}
