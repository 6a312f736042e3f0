//! `runner validate-sim`: the simulator's prediction checked against real threads. Every
//! parallel algorithm searches a fixed position of each game on several processor counts of
//! the threads backend and on the simulator with a cost model (default: a quick calibration of
//! this machine, in memory), and the speedups are compared. Each speedup is against the same
//! algorithm's one-processor run on the same backend. The threads runs are paired and
//! interleaved, and repeated until each row's interval is narrow enough to judge 10 %
//! ([`paired`], and `README.md` in this folder); the never-splitting control (`alphabeta` on
//! N processors, [`crate::never_split`]) always runs and says whether the run can be trusted.

pub mod paired;

use anyhow::{Context as _, Result};
use control::parallel::{self, ParallelAlgo, ParallelOptions};
use control::search::MAX_DEPTH;
use dib::{Backend, CostModel, SimConfig};
use games::{Game, GameId, GameInfo, GameVisitor};
use indicatif::ProgressBar;
use serde::Serialize;
use serde_json::json;

use crate::calibrate::measure::{self, Effort, Stat};
use crate::calibrate::{self, parse_list};
use crate::cli::ValidateSimArgs;
use crate::input_error::input;
use crate::never_split::{self, Control, Trust, Verdict};

/// The games when `--games` is absent.
const DEFAULT_GAMES: &[GameId] = &[GameId::TicTacToe4, GameId::Othello8, GameId::Checkers];

/// What each speedup is measured against.
const BASELINE: &str = "the same algorithm's one-processor run on the same backend";

/// Paired rounds per algorithm at least (`--repeat`), without and with `--quick`.
const DEFAULT_MIN_ROUNDS: [usize; 2] = [5, 2];

/// Paired rounds per algorithm at most (`--max-repeat`), without and with `--quick`.
const DEFAULT_MAX_ROUNDS: [usize; 2] = [20, 3];

/// The shortest one-processor `alphabeta` run the chosen depth gives (`--min-seconds`),
/// without `--depth` and `--quick`.
const DEFAULT_MIN_SECONDS: f64 = 1.0;

/// The relative error a prediction may have to count as right.
const TOLERANCE: f64 = 0.10;

/// One line of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    game: &'static str,
    algo: &'static str,
    procs: usize,
    depth: u32,
    /// The median wall-clock seconds of the threads runs.
    measured_seconds: f64,
    /// The smallest and largest of them.
    measured_seconds_min: f64,
    measured_seconds_max: f64,
    /// The simulator's virtual seconds.
    predicted_seconds: f64,
    /// The geometric mean of the paired rounds' one-processor over N-processor seconds.
    measured_speedup: f64,
    /// Its 95 % interval (`None` with fewer than two rounds).
    measured_speedup_lo: Option<f64>,
    measured_speedup_hi: Option<f64>,
    predicted_speedup: f64,
    /// The paired rounds behind the speedup.
    pairs: usize,
    /// The median node count of the threads runs.
    measured_nodes: u64,
    simulated_nodes: u64,
    /// The median message count of the threads runs.
    measured_messages: u64,
    simulated_messages: u64,
    /// Of them, work requests (the median of the threads runs), and those refused.
    measured_requests: u64,
    simulated_requests: u64,
    measured_refusals: u64,
    simulated_refusals: u64,
    /// Work requests answered with work (the median of the threads runs; a never-splitting
    /// search grants none unless a request takes a problem before it is started).
    measured_grants: u64,
    simulated_grants: u64,
    /// The median idle share of the threads runs' processor time, and the simulator's.
    measured_idle_percent: f64,
    predicted_idle_percent: f64,
    /// (predicted - measured) / measured speedup, in percent.
    error_percent: f64,
    /// The error over the measured speedup's interval.
    error_percent_lo: Option<f64>,
    error_percent_hi: Option<f64>,
    /// The predicted speedup against the measured one's interval, within 10 %.
    verdict: Verdict,
    /// For the never-splitting control on more than one processor: its interval against 1.00
    /// within 3 %.
    control: Option<Verdict>,
}

/// What one search did.
#[derive(Clone, Copy, Debug)]
struct Run {
    seconds: f64,
    nodes: u64,
    messages: u64,
    /// Work requests sent.
    requests: u64,
    /// Work requests refused.
    refusals: u64,
    /// Work requests granted.
    grants: u64,
    /// Idle time in percent of the processors' accounted time.
    idle_percent: f64,
}

fn median_of<T: Copy + PartialOrd>(values: &[T]) -> T {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v[v.len() / 2]
}

/// The band of measured speedups in which row `i` (processor counts ascending, the first one
/// processor) is judged settled: the control's for a never-splitting algorithm on more than
/// one processor, else the model's 10 % around the predicted speedup.
fn band_of(algo: ParallelAlgo, procs: usize, predicted: f64) -> (f64, f64) {
    if algo.never_splits() && procs > 1 {
        never_split::control_band()
    } else {
        never_split::model_band(predicted, TOLERANCE)
    }
}

/// The paired (one-processor, N-processor) seconds of the same rounds.
fn pairs_of(one: &[Run], many: &[Run]) -> Vec<(f64, f64)> {
    one.iter()
        .zip(many)
        .map(|(a, b)| (a.seconds, b.seconds))
        .collect()
}

/// Whether every row of one algorithm is measured well enough to stop: each interval decided
/// against its band or narrow ([`paired::settled`]).
fn all_settled(algo: ParallelAlgo, procs: &[usize], threads: &[Vec<Run>], sims: &[Run]) -> bool {
    (1..procs.len()).all(|i| {
        let predicted = sims[0].seconds / sims[i].seconds;
        let interval =
            paired::estimate(&pairs_of(&threads[0], &threads[i])).and_then(|e| e.interval);
        paired::settled(interval, band_of(algo, procs[i], predicted))
    })
}

/// Turns the runs of one game and algorithm (per processor count, ascending, the first with
/// one processor; the threads runs in the order of their rounds) into rows.
fn rows_of(
    game: &'static str,
    algo: ParallelAlgo,
    depth: u32,
    procs: &[usize],
    threads: &[Vec<Run>],
    sims: &[Run],
) -> Vec<Row> {
    let (Some(base), Some(base_sim)) = (threads.first(), sims.first()) else {
        return Vec::new();
    };
    procs
        .iter()
        .zip(threads.iter().zip(sims))
        .map(|(&n, (runs, sim))| {
            let estimate = paired::estimate(&pairs_of(base, runs));
            let measured_speedup = estimate.map_or(f64::NAN, |e| e.speedup);
            let interval = estimate.and_then(|e| e.interval);
            let predicted_speedup = base_sim.seconds / sim.seconds;
            let error = |m: f64| 100.0 * (predicted_speedup - m) / m;
            let times: Vec<f64> = runs.iter().map(|t| t.seconds).collect();
            let median = |f: fn(&Run) -> u64| median_of(&runs.iter().map(f).collect::<Vec<_>>());
            let control = (algo.never_splits() && n > 1)
                .then(|| never_split::judge(interval, never_split::control_band()));
            Row {
                game,
                algo: algo.name(),
                procs: n,
                depth,
                measured_seconds: median_of(&times),
                measured_seconds_min: times.iter().copied().fold(f64::INFINITY, f64::min),
                measured_seconds_max: times.iter().copied().fold(0.0, f64::max),
                predicted_seconds: sim.seconds,
                measured_speedup,
                measured_speedup_lo: interval.map(|i| i.0),
                measured_speedup_hi: interval.map(|i| i.1),
                predicted_speedup,
                pairs: estimate.map_or(0, |e| e.pairs),
                measured_nodes: median(|t| t.nodes),
                simulated_nodes: sim.nodes,
                measured_messages: median(|t| t.messages),
                simulated_messages: sim.messages,
                measured_requests: median(|t| t.requests),
                simulated_requests: sim.requests,
                measured_refusals: median(|t| t.refusals),
                simulated_refusals: sim.refusals,
                measured_grants: median(|t| t.grants),
                simulated_grants: sim.grants,
                measured_idle_percent: median_of(
                    &runs.iter().map(|t| t.idle_percent).collect::<Vec<_>>(),
                ),
                predicted_idle_percent: sim.idle_percent,
                error_percent: error(measured_speedup),
                // The error falls as the measured speedup rises.
                error_percent_lo: interval.map(|i| error(i.1)),
                error_percent_hi: interval.map(|i| error(i.0)),
                verdict: never_split::judge(
                    interval,
                    never_split::model_band(predicted_speedup, TOLERANCE),
                ),
                control,
            }
        })
        .collect()
}

/// The controls among `rows`: every never-splitting row on more than one processor.
fn controls(rows: &[Row]) -> Vec<Control> {
    rows.iter()
        .filter(|r| r.control.is_some())
        .map(|r| {
            let ci = r.measured_speedup_lo.zip(r.measured_speedup_hi);
            Control::new(r.game, r.procs, r.measured_speedup, ci)
        })
        .collect()
}

/// The cost model named by `--sim-preset`: a .toml file (or any existing file) or a built-in
/// preset; absent, a quick calibration of `games` on this machine. Returns its label too.
fn cost_model(given: Option<&str>, games: &[GameId], json: bool) -> Result<(String, CostModel)> {
    match given {
        None => {
            let bar =
                crate::progress::bar(calibrate::steps(games.len(), true), "calibration", json);
            let model = calibrate::measure(games, true, &bar)?.model();
            bar.finish_and_clear();
            Ok(("calibrated --quick (in memory)".into(), model))
        }
        Some(p) => Ok((p.to_string(), crate::dib_flags::cost_model(p)?)),
    }
}

/// Runs `runner validate-sim`.
pub fn run(args: &ValidateSimArgs) -> Result<()> {
    let games: Vec<GameId> = match &args.games {
        Some(given) => parse_list("--games", given)?,
        None => DEFAULT_GAMES.to_vec(),
    };
    let mut algos: Vec<ParallelAlgo> = match &args.algos {
        Some(text) => parse_list("--algos", text)?,
        None => ParallelAlgo::ALL.to_vec(),
    };
    // The never-splitting control runs in every validation, first.
    algos.retain(|a| !a.never_splits());
    algos.insert(0, ParallelAlgo::AlphaBeta);
    if let Some(d) = args.depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(input(
                "--depth",
                format!("{d} is out of range; use 1 to {MAX_DEPTH}"),
            ));
        }
    }
    let method = Method::parse(args)?;
    let procs = parse_procs(args.procs.as_deref())?;
    if let Some(path) = &args.out {
        calibrate::check_out(path)?;
    }
    let (preset, cost) = cost_model(args.sim_preset.as_deref(), &games, args.json)?;
    let cores = crate::machine::cores();
    if let Some(&n) = procs.last().filter(|&&n| n > cores) {
        eprintln!(
            "warning: {n} threads on {cores} cores: threads share cores, and the measured speedups say so"
        );
    }
    let steps = games.len() * algos.len() * procs.len() * (method.max_rounds + 2);
    let bar = crate::progress::bar(steps as u64, "runs", args.json);
    let mut rows = Vec::new();
    // Game by game, in name order (as the JSON object and the page list them).
    let mut depths = serde_json::Map::new();
    let mut capacity = std::collections::BTreeMap::new();
    for &game in &games {
        let per_game = crate::per_game::of(game);
        let (game_rows, cap, depth) = game.visit(GameRuns {
            game,
            depth: match (args.depth, method.min_seconds) {
                (Some(d), _) => Depth::Fixed(d),
                (None, Some(s)) => Depth::ByTime(s),
                (None, None) => Depth::Fixed(per_game.validation_depth_quick),
            },
            algos: &algos,
            procs: &procs,
            method: &method,
            cost: &cost,
            quick: args.quick,
            bar: &bar,
        })?;
        depths.insert(game.name().to_string(), json!(depth));
        rows.extend(game_rows);
        capacity.insert(game.name(), cap);
    }
    bar.finish_and_clear();
    let capacity_lines: Vec<String> = capacity
        .iter()
        .map(|(game, cap)| {
            format!(
                "{game}: {} independent sequential searches at once ran {:.2}x the throughput of one (min {:.2}, max {:.2}): the capacity for parallel search after the runs",
                procs.last().copied().unwrap_or(1), cap.median, cap.min, cap.max,
            )
        })
        .collect();
    let report = Report {
        preset: &preset,
        cost: &cost,
        method: &method,
        rows: &rows,
        controls: controls(&rows),
        capacity: &capacity_lines,
    };
    if let Some(path) = &args.out {
        std::fs::write(path, report.markdown())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if args.json {
        let out = json!({
            "preset": preset,
            "cost_model": cost,
            "baseline": BASELINE,
            "method": method,
            "repeat": method.min_rounds,
            "cores": cores,
            "procs": procs,
            "depths": depths,
            "capacity": capacity,
            "rows": rows,
            "summary": report.tallies(),
            "controls": report.controls,
            "trust": report.trust(),
            "trust_sentence": report.trust().sentence(),
        });
        println!("{out}");
    } else {
        report.print();
    }
    Ok(())
}

/// How the threads runs are timed: the paired rounds' bounds and the depth's rule.
#[derive(Clone, Debug, Serialize)]
pub struct Method {
    /// Paired rounds at least (`--repeat`).
    pub min_rounds: usize,
    /// Paired rounds at most (`--max-repeat`).
    pub max_rounds: usize,
    /// The depth is the smallest whose one-processor `alphabeta` run lasts this long
    /// (`--min-seconds`; `None`: `--depth`, or the quick depth).
    pub min_seconds: Option<f64>,
}

impl Method {
    /// From `--repeat`, `--max-repeat`, `--min-seconds`, `--depth` and `--quick`.
    fn parse(args: &ValidateSimArgs) -> Result<Method> {
        let quick = usize::from(args.quick);
        let min_rounds = args.repeat.unwrap_or(DEFAULT_MIN_ROUNDS[quick]);
        if min_rounds == 0 || min_rounds > 1000 {
            return Err(input(
                "--repeat",
                format!("{min_rounds} is out of range; use 1 to 1000"),
            ));
        }
        let max_rounds = args
            .max_repeat
            .unwrap_or(DEFAULT_MAX_ROUNDS[quick].max(min_rounds));
        if max_rounds < min_rounds || max_rounds > 1000 {
            return Err(input(
                "--max-repeat",
                format!("{max_rounds} is out of range; use {min_rounds} (--repeat) to 1000"),
            ));
        }
        let min_seconds = match (args.min_seconds, args.depth, args.quick) {
            (Some(s), _, _) if !(s > 0.0 && s <= 3600.0) => {
                return Err(input(
                    "--min-seconds",
                    format!("{s} is out of range; use more than 0 and at most 3600"),
                ));
            }
            (Some(_), Some(_), _) => {
                return Err(input(
                    "--min-seconds and --depth",
                    "exclude each other (a depth chosen by time, or a fixed one); give one",
                ));
            }
            (Some(s), None, _) => Some(s),
            (None, None, false) => Some(DEFAULT_MIN_SECONDS),
            (None, _, _) => None,
        };
        Ok(Method {
            min_rounds,
            max_rounds,
            min_seconds,
        })
    }

    /// One sentence on how the threads runs were timed.
    fn sentence(&self) -> String {
        let depth = match self.min_seconds {
            Some(s) => format!(
                "the depth the smallest whose one-processor alphabeta run lasts {s} s or more"
            ),
            None => "a fixed depth".into(),
        };
        format!(
            "threads: after one untimed run of each processor count, paired rounds (each runs every processor count once, ascending, then descending in the next round), {} to {} rounds, until every row's interval is decided or narrow; a speedup is the geometric mean of its rounds' one-processor over N-processor seconds, with a 95 % t-interval; {depth}; speedups against {BASELINE}",
            self.min_rounds, self.max_rounds
        )
    }
}

/// Checks `--procs` as `runner compare` does (ascending, without duplicates, with 1 added) and
/// that some count is above 1; absent, 1 to the cores.
fn parse_procs(given: Option<&[usize]>) -> Result<Vec<usize>> {
    let Some(given) = given else {
        return Ok((1..=crate::machine::cores().max(2)).collect());
    };
    let procs = crate::compare::plan::parse_procs(given)?;
    if procs.len() < 2 {
        return Err(input(
            "--procs",
            "no count above 1: give the processor counts to validate, such as 2,4,8",
        ));
    }
    Ok(procs)
}

/// One column of the table, printed and on the page.
struct Column {
    /// The printed head.
    short: &'static str,
    /// The page's head.
    long: &'static str,
    /// The printed width of a value (its unit after it).
    width: usize,
    /// Left-aligned (the names), else right-aligned.
    left: bool,
    /// What follows a value: `%`, or nothing.
    unit: &'static str,
}

impl Column {
    /// `cell` as the printed table shows it: padded to the width, the unit after a value.
    fn text(&self, cell: &str, head: bool) -> String {
        let w = self.width;
        match (self.left, head) {
            (true, _) => format!("{cell:<w$}"),
            (false, true) => format!("{cell:>0$}", w + self.unit.len()),
            (false, false) => format!("{cell:>w$}{}", self.unit),
        }
    }
}

const fn column(short: &'static str, long: &'static str, width: usize) -> Column {
    Column {
        short,
        long,
        width,
        left: false,
        unit: "",
    }
}

/// The number of columns.
const WIDTH: usize = 20;

/// The table's columns, in [`Row::cells`] order.
const COLUMNS: [Column; WIDTH] = [
    Column {
        left: true,
        ..column("game", "game", 10)
    },
    Column {
        left: true,
        ..column("algo", "algo", 10)
    },
    column("procs", "procs", 5),
    column("depth", "depth", 5),
    column("meas s", "measured s", 9),
    column("pred s", "predicted s", 9),
    column("meas x", "measured speedup", 6),
    column("meas 95% CI", "measured 95 % interval", 14),
    column("pred x", "predicted speedup", 6),
    column("error %", "error %", 7),
    Column {
        left: true,
        ..column("10 %", "within 10 %", 9)
    },
    column("pairs", "pairs", 5),
    column("nodes meas", "nodes measured", 10),
    column("nodes sim", "nodes simulated", 10),
    column("msgs meas", "messages measured", 8),
    column("msgs sim", "messages simulated", 8),
    column("reqs m", "requests measured", 7),
    column("reqs s", "requests simulated", 7),
    Column {
        unit: "%",
        ..column("idle m", "idle measured", 5)
    },
    Column {
        unit: "%",
        ..column("idle s", "idle simulated", 5)
    },
];

impl Row {
    /// The row's values, formatted, in [`COLUMNS`] order (units apart).
    fn cells(&self) -> [String; WIDTH] {
        let ci = match (self.measured_speedup_lo, self.measured_speedup_hi) {
            (Some(lo), Some(hi)) => format!("[{lo:.2}, {hi:.2}]"),
            _ => "-".into(),
        };
        [
            self.game.to_string(),
            self.algo.to_string(),
            self.procs.to_string(),
            self.depth.to_string(),
            format!("{:.4}", self.measured_seconds),
            format!("{:.4}", self.predicted_seconds),
            format!("{:.2}", self.measured_speedup),
            ci,
            format!("{:.2}", self.predicted_speedup),
            format!("{:+.1}", self.error_percent),
            self.verdict.name().to_string(),
            self.pairs.to_string(),
            self.measured_nodes.to_string(),
            self.simulated_nodes.to_string(),
            self.measured_messages.to_string(),
            self.simulated_messages.to_string(),
            self.measured_requests.to_string(),
            self.simulated_requests.to_string(),
            format!("{:.1}", self.measured_idle_percent),
            format!("{:.1}", self.predicted_idle_percent),
        ]
    }
}

/// The first line of a page `--out` writes.
pub const GENERATED: &str =
    "<!-- generated by runner validate-sim --out; rerun it rather than edit -->";

/// How the predicted speedups on one processor count fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Processors.
    pub procs: usize,
    /// Rows whose interval lies within 10 % of the prediction.
    pub within: usize,
    /// Rows whose interval lies wholly outside.
    pub outside: usize,
    /// Rows whose interval straddles 10 %.
    pub undecided: usize,
    /// Rows on this processor count.
    pub of: usize,
}

impl Tally {
    fn sentence(&self) -> String {
        format!(
            "at {} processors {} of {} predicted speedups are within 10 % of the measured, {} outside, {} undecided (their intervals straddle 10 %)",
            self.procs, self.within, self.of, self.outside, self.undecided
        )
    }
}

/// The verdicts per processor count above 1, ascending.
fn tallies(rows: &[Row]) -> Vec<Tally> {
    let mut counts: Vec<usize> = rows.iter().map(|r| r.procs).filter(|&n| n > 1).collect();
    counts.sort_unstable();
    counts.dedup();
    counts
        .into_iter()
        .map(|n| {
            let on: Vec<&Row> = rows.iter().filter(|r| r.procs == n).collect();
            let count = |v: Verdict| on.iter().filter(|r| r.verdict == v).count();
            Tally {
                procs: n,
                within: count(Verdict::Within),
                outside: count(Verdict::Outside),
                undecided: count(Verdict::Undecided),
                of: on.len(),
            }
        })
        .collect()
}

/// Everything a validation reports, printed or as a page.
struct Report<'a> {
    preset: &'a str,
    cost: &'a CostModel,
    method: &'a Method,
    rows: &'a [Row],
    controls: Vec<Control>,
    capacity: &'a [String],
}

impl Report<'_> {
    fn tallies(&self) -> Vec<Tally> {
        tallies(self.rows)
    }

    fn trust(&self) -> Trust {
        Trust::of(self.controls.iter().map(|c| c.verdict))
    }

    /// The page `--out` writes: the command, this machine and build, the cost model, the
    /// method, the table, the verdicts, the controls and the capacity lines.
    fn markdown(&self) -> String {
        use std::fmt::Write as _;
        let command: Vec<String> = std::iter::once("runner".to_string())
            .chain(std::env::args().skip(1))
            .collect();
        let env =
            crate::compare::environment::Environment::now(crate::cli::BackendKind::Threads, None);
        let mut out = format!(
            "{GENERATED}\n# The simulator against real threads\n\n**Measurement {}.**\n\n- command: `{}`\n",
            self.trust().sentence(),
            command.join(" ")
        );
        for (name, value) in env.fields() {
            if name != "simulator preset" {
                let _ = writeln!(out, "- {name}: {value}");
            }
        }
        let _ = writeln!(out, "- cost model: {}: {}", self.preset, self.cost);
        let _ = writeln!(out, "- {}\n", self.method.sentence());
        let head: Vec<&str> = COLUMNS.iter().map(|c| c.long).collect();
        let _ = writeln!(out, "| {} |", head.join(" | "));
        let rule: Vec<&str> = COLUMNS
            .iter()
            .map(|c| if c.left { "---" } else { "---:" })
            .collect();
        let _ = writeln!(out, "| {} |", rule.join(" | "));
        for r in self.rows {
            let cells: Vec<String> = COLUMNS
                .iter()
                .zip(r.cells())
                .map(|(c, cell)| match c.unit {
                    "" => cell,
                    unit => format!("{cell} {unit}"),
                })
                .collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
        for t in self.tallies() {
            let _ = writeln!(out, "- {}.", upper_first(&t.sentence()));
        }
        out.push('\n');
        for c in &self.controls {
            let _ = writeln!(out, "- {}", c.line());
        }
        let _ = writeln!(out, "- measurement {}", self.trust().sentence());
        if !self.capacity.is_empty() {
            out.push('\n');
            for line in self.capacity {
                let _ = writeln!(out, "- {line}");
            }
        }
        out
    }

    fn print(&self) {
        println!("simulator preset: {}: {}", self.preset, self.cost);
        println!("{}", self.method.sentence());
        let head: Vec<String> = COLUMNS.iter().map(|c| c.text(c.short, true)).collect();
        println!("{}", head.join(" "));
        for r in self.rows {
            let cells: Vec<String> = COLUMNS
                .iter()
                .zip(r.cells())
                .map(|(c, cell)| c.text(&cell, false))
                .collect();
            println!("{}", cells.join(" "));
        }
        for t in self.tallies() {
            println!("{}", t.sentence());
        }
        for c in &self.controls {
            println!("{}", c.line());
        }
        println!("measurement {}", self.trust().sentence());
        for line in self.capacity {
            println!("{line}");
        }
    }
}

/// `text` with its first letter upper-case.
fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// How a game's depth is chosen.
#[derive(Clone, Copy, Debug)]
enum Depth {
    /// This one.
    Fixed(u32),
    /// The smallest whose one-processor `alphabeta` run on threads lasts this many seconds.
    ByTime(f64),
}

struct GameRuns<'a> {
    game: GameId,
    depth: Depth,
    algos: &'a [ParallelAlgo],
    procs: &'a [usize],
    method: &'a Method,
    cost: &'a CostModel,
    quick: bool,
    bar: &'a ProgressBar,
}

/// The options of one search. On the simulator the runtime gets the settings of the threads
/// run it predicts ([`ParallelOptions::threads_dib_config`]): the same quantum between two
/// looks at the inbox and the same waits, not the simulator's own defaults.
fn options_for(algo: ParallelAlgo, depth: u32, procs: usize, backend: Backend) -> ParallelOptions {
    let mut options = ParallelOptions::for_algo(algo, depth, procs, backend);
    if matches!(options.backend, Backend::Sim(_)) {
        options.dib = Some(options.threads_dib_config(algo));
    }
    options
}

/// One search of `root`. Every threads run, on one processor or on many, goes through here:
/// the same options, a fresh application (its table allocated and cleared alike), its
/// processors' threads started by the runtime for each run.
fn search_once<G: Game>(
    algo: ParallelAlgo,
    root: &G,
    depth: u32,
    procs: usize,
    backend: Backend,
) -> Result<Run> {
    let options = options_for(algo, depth, procs, backend);
    let r = parallel::search(algo, root, &options)
        .with_context(|| format!("{algo} x{procs} on {}", options.backend.name()))?;
    let b = &r.total.backend;
    let spent = (b.busy_ns + b.idle_ns + b.messaging_ns).max(1) as f64;
    Ok(Run {
        seconds: r.seconds,
        nodes: r.nodes,
        messages: b.messages_sent,
        requests: r.total.dib.requests_sent,
        refusals: r.total.dib.requests_refused,
        grants: r.total.dib.requests_granted,
        idle_percent: 100.0 * b.idle_ns as f64 / spent,
    })
}

/// The threads backend every timed run uses.
const THREADS: Backend = Backend::Threads { seed: 1 };

/// The smallest depth whose one-processor `alphabeta` run on threads lasts `seconds` (or the
/// deepest); its runs warm the machine up as well.
fn depth_by_time<G: Game>(root: &G, seconds: f64, bar: &ProgressBar, name: &str) -> Result<u32> {
    for depth in 1..=MAX_DEPTH {
        bar.set_message(format!("{name}: choosing the depth ({depth})"));
        let r = search_once(ParallelAlgo::AlphaBeta, root, depth, 1, THREADS)?;
        if r.seconds >= seconds {
            return Ok(depth);
        }
    }
    Ok(MAX_DEPTH)
}

impl GameVisitor for GameRuns<'_> {
    type Output = Result<(Vec<Row>, Stat, u32)>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<(Vec<Row>, Stat, u32)> {
        let root = calibrate::positions::<G>(self.game, info, 1)?
            .into_iter()
            .next()
            .unwrap_or_else(G::start);
        let depth = match self.depth {
            Depth::Fixed(d) => d,
            Depth::ByTime(s) => depth_by_time(&root, s, self.bar, info.name)?,
        };
        let procs = self.procs;
        let (min, max) = (self.method.min_rounds, self.method.max_rounds);
        let mut rows = Vec::new();
        for &algo in self.algos {
            let sim = Backend::Sim(SimConfig::new(self.cost.clone(), 1));
            let mut sims = Vec::with_capacity(procs.len());
            for &n in procs {
                self.bar
                    .set_message(format!("{} {algo} x{n}: simulator", info.name));
                sims.push(search_once(algo, &root, depth, n, sim.clone())?);
                self.bar.inc(1);
            }
            // One untimed run of every count, so that none is timed cold.
            for &n in procs {
                self.bar
                    .set_message(format!("{} {algo} x{n}: warm-up", info.name));
                search_once(algo, &root, depth, n, THREADS)?;
                self.bar.inc(1);
            }
            let mut threads: Vec<Vec<Run>> = vec![Vec::new(); procs.len()];
            let mut rounds = 0;
            while rounds < max {
                for i in paired::round_order(procs.len(), rounds) {
                    self.bar.set_message(format!(
                        "{} {algo} x{}: round {}",
                        info.name,
                        procs[i],
                        rounds + 1
                    ));
                    threads[i].push(search_once(algo, &root, depth, procs[i], THREADS)?);
                    self.bar.inc(1);
                }
                rounds += 1;
                if rounds >= min && all_settled(algo, procs, &threads, &sims) {
                    break;
                }
            }
            self.bar.inc(((max - rounds) * procs.len()) as u64);
            rows.extend(rows_of(info.name, algo, depth, procs, &threads, &sims));
        }
        self.bar
            .set_message(format!("{} parallel capacity", info.name));
        let threads = procs.last().copied().unwrap_or(1);
        let capacity = measure::parallel_capacity(&root, threads, &Effort::new(self.quick));
        Ok((rows, capacity, depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulator_runs_with_the_threads_runs_runtime_settings() {
        let sim = Backend::Sim(SimConfig::new(CostModel::shared_memory(), 1));
        for algo in [ParallelAlgo::Mwf, ParallelAlgo::DelaySplit] {
            let threads = options_for(algo, 5, 2, Backend::Threads { seed: 1 });
            assert_eq!(threads.dib, None, "threads keep their defaults");
            let simulated = options_for(algo, 5, 2, sim.clone());
            assert_eq!(simulated.dib, Some(threads.threads_dib_config(algo)));
            assert_ne!(simulated.dib, Some(sim.default_config()));
        }
    }

    fn run(seconds: f64, nodes: u64) -> Run {
        Run {
            seconds,
            nodes,
            messages: nodes / 10,
            requests: nodes / 20,
            refusals: nodes / 40,
            grants: nodes / 80,
            idle_percent: 5.0,
        }
    }

    #[test]
    fn speedups_are_paired_against_the_one_processor_run_of_each_backend() {
        let threads = [
            vec![run(1.0, 100), run(1.2, 100), run(0.8, 100)],
            vec![run(0.5, 120), run(0.6, 130), run(0.4, 110)],
        ];
        let sims = [run(2.0, 100), run(1.25, 125)];
        let rows = rows_of("g", ParallelAlgo::DelaySplit, 5, &[1, 2], &threads, &sims);
        assert_eq!(rows[0].measured_speedup, 1.0);
        assert_eq!(rows[0].error_percent, 0.0);
        assert_eq!(rows[0].verdict, Verdict::Within);
        let r = &rows[1];
        assert_eq!((r.measured_seconds, r.measured_nodes), (0.5, 120));
        assert_eq!((r.measured_messages, r.simulated_messages), (12, 12));
        assert_eq!((r.measured_requests, r.simulated_requests), (6, 6));
        assert_eq!((r.measured_refusals, r.simulated_refusals), (3, 3));
        assert_eq!((r.measured_grants, r.simulated_grants), (1, 1));
        assert_eq!((r.measured_seconds_min, r.measured_seconds_max), (0.4, 0.6));
        // Every round's pair has the ratio 2: speedup 2 with a point interval.
        assert!((r.measured_speedup - 2.0).abs() < 1e-12);
        assert_eq!(r.predicted_speedup, 1.6);
        assert!((r.error_percent + 20.0).abs() < 1e-9, "{}", r.error_percent);
        assert_eq!(r.pairs, 3);
        assert_eq!(r.verdict, Verdict::Outside);
        assert_eq!(
            r.control, None,
            "only the never-splitting rows are controls"
        );
    }

    #[test]
    fn the_never_splitting_rows_are_the_controls() {
        let threads = [
            vec![run(1.0, 100), run(1.0, 100), run(1.0, 100)],
            vec![run(1.1, 100), run(1.12, 100), run(1.09, 100)],
        ];
        let sims = [run(1.0, 100), run(1.0, 100)];
        let rows = rows_of("g", ParallelAlgo::AlphaBeta, 5, &[1, 2], &threads, &sims);
        assert_eq!(rows[0].control, None);
        assert_eq!(rows[1].control, Some(Verdict::Outside));
        let c = controls(&rows);
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].on.as_str(), c[0].procs), ("g", 2));
        assert_eq!(Trust::of(c.iter().map(|c| c.verdict)), Trust::NotTrusted);
        // The error interval runs the other way from the speedup's.
        let r = &rows[1];
        assert!(r.error_percent_lo < r.error_percent_hi);
    }

    #[test]
    fn rows_are_tallied_per_processor_count() {
        let threads = [
            vec![run(1.0, 100), run(1.0, 100)],
            vec![run(0.5, 100), run(0.5, 100)],
        ];
        let sims = [run(1.0, 100), run(0.5, 100)];
        let mut rows = rows_of("g", ParallelAlgo::Mwf, 5, &[1, 2], &threads, &sims);
        let noisy = [
            vec![run(1.0, 100), run(1.0, 100)],
            vec![run(0.4, 100), run(0.6, 100)],
        ];
        rows.extend(rows_of("g", ParallelAlgo::Er, 5, &[1, 2], &noisy, &sims));
        assert_eq!(
            tallies(&rows),
            vec![Tally {
                procs: 2,
                within: 1,
                outside: 0,
                undecided: 1,
                of: 2
            }]
        );
    }

    #[test]
    fn processor_lists_start_at_one_and_need_a_count_above_it() {
        assert_eq!(
            parse_procs(Some(&[8, 2, 4, 2][..])).expect("ok"),
            vec![1, 2, 4, 8]
        );
        assert!(parse_procs(Some(&[1][..])).is_err());
        assert!(parse_procs(Some(&[0, 2][..])).is_err());
        let default = parse_procs(None).expect("default");
        assert_eq!(default[0], 1);
        assert!(default.len() >= 2);
    }
}
