//! `runner validate-sim`: the simulator's prediction checked against real threads. Every
//! parallel algorithm searches a fixed position of each game on 1..C threads (C: the cores this
//! process may use; one warm-up run, then the median of K timed runs) and on the simulator with
//! a cost model (default: a quick calibration of this machine, in memory), and the speedups are
//! compared. Each speedup is against the same algorithm's one-processor run on the same backend.

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

/// The games when `--games` is absent.
const DEFAULT_GAMES: &[GameId] = &[GameId::TicTacToe4, GameId::Othello8, GameId::Checkers];

/// What each speedup is measured against.
const BASELINE: &str = "the same algorithm's one-processor run on the same backend";

/// Timed runs per cell when `--repeat` is absent.
const DEFAULT_REPEAT: usize = 3;

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
    measured_speedup: f64,
    predicted_speedup: f64,
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
    /// The median idle share of the threads runs' processor time, and the simulator's.
    measured_idle_percent: f64,
    predicted_idle_percent: f64,
    /// (predicted - measured) / measured speedup, in percent.
    error_percent: f64,
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
    /// Idle time in percent of the processors' accounted time.
    idle_percent: f64,
}

/// A cell's runs on threads (after the warm-up) and on the simulator.
struct Cell {
    procs: usize,
    threads: Vec<Run>,
    sim: Run,
}

fn median_of<T: Copy + PartialOrd>(values: &[T]) -> T {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v[v.len() / 2]
}

/// Turns the cells of one game and algorithm (procs ascending, the first with one processor)
/// into rows.
fn rows_of(game: &'static str, algo: ParallelAlgo, depth: u32, cells: &[Cell]) -> Vec<Row> {
    let seconds = |c: &Cell| median_of(&c.threads.iter().map(|t| t.seconds).collect::<Vec<_>>());
    let Some(base) = cells.first() else {
        return Vec::new();
    };
    let (base_measured, base_predicted) = (seconds(base), base.sim.seconds);
    cells
        .iter()
        .map(|c| {
            let measured = seconds(c);
            let measured_speedup = base_measured / measured;
            let predicted_speedup = base_predicted / c.sim.seconds;
            let times: Vec<f64> = c.threads.iter().map(|t| t.seconds).collect();
            let threads =
                |f: fn(&Run) -> u64| median_of(&c.threads.iter().map(f).collect::<Vec<_>>());
            Row {
                game,
                algo: algo.name(),
                procs: c.procs,
                depth,
                measured_seconds: measured,
                measured_seconds_min: times.iter().copied().fold(f64::INFINITY, f64::min),
                measured_seconds_max: times.iter().copied().fold(0.0, f64::max),
                predicted_seconds: c.sim.seconds,
                measured_speedup,
                predicted_speedup,
                measured_nodes: threads(|t| t.nodes),
                simulated_nodes: c.sim.nodes,
                measured_messages: threads(|t| t.messages),
                simulated_messages: c.sim.messages,
                measured_requests: threads(|t| t.requests),
                simulated_requests: c.sim.requests,
                measured_refusals: threads(|t| t.refusals),
                simulated_refusals: c.sim.refusals,
                measured_idle_percent: median_of(
                    &c.threads.iter().map(|t| t.idle_percent).collect::<Vec<_>>(),
                ),
                predicted_idle_percent: c.sim.idle_percent,
                error_percent: 100.0 * (predicted_speedup - measured_speedup) / measured_speedup,
            }
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
    let algos: Vec<ParallelAlgo> = match &args.algos {
        Some(text) => parse_list("--algos", text)?,
        None => ParallelAlgo::ALL.to_vec(),
    };
    if let Some(d) = args.depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(input(
                "--depth",
                format!("{d} is out of range; use 1 to {MAX_DEPTH}"),
            ));
        }
    }
    let repeat = args
        .repeat
        .unwrap_or(if args.quick { 1 } else { DEFAULT_REPEAT });
    if repeat == 0 || repeat > 100 {
        return Err(input(
            "--repeat",
            format!("{repeat} is out of range; use 1 to 100"),
        ));
    }
    if let Some(path) = &args.out {
        calibrate::check_out(path)?;
    }
    let (preset, cost) = cost_model(args.sim_preset.as_deref(), &games, args.json)?;
    let cores = crate::machine::cores();
    let procs: Vec<usize> = (1..=cores).collect();
    let steps = games.len() * algos.len() * procs.len() * (repeat + 2);
    let bar = crate::progress::bar(steps as u64, "runs", args.json);
    let mut rows = Vec::new();
    // Game by game, in name order (as the JSON object and the page list them).
    let mut depths = serde_json::Map::new();
    let mut capacity = std::collections::BTreeMap::new();
    for &game in &games {
        let depth = args.depth.unwrap_or({
            let row = crate::per_game::of(game);
            if args.quick {
                row.validation_depth_quick
            } else {
                row.validation_depth
            }
        });
        depths.insert(game.name().to_string(), json!(depth));
        let (game_rows, cap) = game.visit(GameRuns {
            game,
            depth,
            algos: &algos,
            procs: &procs,
            repeat,
            cost: &cost,
            quick: args.quick,
            bar: &bar,
        })?;
        rows.extend(game_rows);
        capacity.insert(game.name(), cap);
    }
    bar.finish_and_clear();
    let capacity_lines: Vec<String> = capacity
        .iter()
        .map(|(game, cap)| {
            format!(
                "{game}: {cores} independent sequential searches at once ran {:.2}x the throughput of one (min {:.2}, max {:.2}): the capacity for parallel search after the runs",
                cap.median, cap.min, cap.max,
            )
        })
        .collect();
    if let Some(path) = &args.out {
        let page = markdown(&preset, &cost, repeat, &rows, &capacity_lines);
        std::fs::write(path, page).with_context(|| format!("writing {}", path.display()))?;
    }
    if args.json {
        let out = json!({
            "preset": preset,
            "cost_model": cost,
            "baseline": BASELINE,
            "repeat": repeat,
            "cores": cores,
            "depths": depths,
            "capacity": capacity,
            "rows": rows,
        });
        println!("{out}");
    } else {
        print_table(&preset, &cost, repeat, &rows);
        for line in &capacity_lines {
            println!("{line}");
        }
    }
    Ok(())
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

/// The table's columns, in [`Row::cells`] order.
const COLUMNS: [Column; 17] = [
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
    column("pred x", "predicted speedup", 6),
    column("error %", "error %", 7),
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
    fn cells(&self) -> [String; 17] {
        [
            self.game.to_string(),
            self.algo.to_string(),
            self.procs.to_string(),
            self.depth.to_string(),
            format!("{:.4}", self.measured_seconds),
            format!("{:.4}", self.predicted_seconds),
            format!("{:.2}", self.measured_speedup),
            format!("{:.2}", self.predicted_speedup),
            format!("{:+.1}", self.error_percent),
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

/// How many of the predicted speedups at the largest processor count are within 10 % of the
/// measured: (count, of, processors); `None` without a parallel row.
fn within_ten_percent(rows: &[Row]) -> Option<(usize, usize, usize)> {
    let top = rows.iter().map(|r| r.procs).max().filter(|&n| n > 1)?;
    let at_top: Vec<&Row> = rows.iter().filter(|r| r.procs == top).collect();
    let within = at_top
        .iter()
        .filter(|r| r.error_percent.abs() <= 10.0)
        .count();
    Some((within, at_top.len(), top))
}

/// The page `--out` writes: the command, this machine and build, the cost model, the table,
/// the count within 10 % and the capacity lines.
fn markdown(
    preset: &str,
    cost: &CostModel,
    repeat: usize,
    rows: &[Row],
    capacity: &[String],
) -> String {
    use std::fmt::Write as _;
    let command: Vec<String> = std::iter::once("runner".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let env = crate::compare::environment::Environment::now(crate::cli::BackendKind::Threads, None);
    let mut out = format!(
        "{GENERATED}\n# The simulator against real threads\n\n- command: `{}`\n",
        command.join(" ")
    );
    for (name, value) in env.fields() {
        if name != "simulator preset" {
            let _ = writeln!(out, "- {name}: {value}");
        }
    }
    let _ = writeln!(out, "- cost model: {preset}: {cost}");
    let _ = writeln!(
        out,
        "- threads: the median of {repeat} timed runs after a warm-up; speedups against {BASELINE}\n"
    );
    let head: Vec<&str> = COLUMNS.iter().map(|c| c.long).collect();
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let rule: Vec<&str> = COLUMNS
        .iter()
        .map(|c| if c.left { "---" } else { "---:" })
        .collect();
    let _ = writeln!(out, "| {} |", rule.join(" | "));
    for r in rows {
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
    if let Some((within, of, top)) = within_ten_percent(rows) {
        let _ = writeln!(
            out,
            "\nAt {top} processors {within} of {of} predicted speedups are within 10 % of the measured."
        );
    }
    if !capacity.is_empty() {
        out.push('\n');
        for line in capacity {
            let _ = writeln!(out, "- {line}");
        }
    }
    out
}

fn print_table(preset: &str, cost: &CostModel, repeat: usize, rows: &[Row]) {
    println!("simulator preset: {preset}: {cost}");
    println!("threads: median of {repeat} timed runs after a warm-up; speedups against {BASELINE}");
    let head: Vec<String> = COLUMNS.iter().map(|c| c.text(c.short, true)).collect();
    println!("{}", head.join(" "));
    for r in rows {
        let cells: Vec<String> = COLUMNS
            .iter()
            .zip(r.cells())
            .map(|(c, cell)| c.text(&cell, false))
            .collect();
        println!("{}", cells.join(" "));
    }
    if let Some((within, of, top)) = within_ten_percent(rows) {
        println!(
            "at {top} processors: {within} of {of} predicted speedups within 10% of the measured"
        );
    }
}

struct GameRuns<'a> {
    game: GameId,
    depth: u32,
    algos: &'a [ParallelAlgo],
    procs: &'a [usize],
    repeat: usize,
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

/// One search of `root`.
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
        idle_percent: 100.0 * b.idle_ns as f64 / spent,
    })
}

impl GameVisitor for GameRuns<'_> {
    type Output = Result<(Vec<Row>, Stat)>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<(Vec<Row>, Stat)> {
        let root = calibrate::positions::<G>(self.game, info, 1)?
            .into_iter()
            .next()
            .unwrap_or_else(G::start);
        let mut rows = Vec::new();
        for &algo in self.algos {
            let mut cells = Vec::new();
            for &procs in self.procs {
                self.bar
                    .set_message(format!("{} {algo} x{procs}", info.name));
                let threads = Backend::Threads { seed: 1 };
                search_once(algo, &root, self.depth, procs, threads.clone())?;
                self.bar.inc(1);
                let mut runs = Vec::new();
                for _ in 0..self.repeat {
                    runs.push(search_once(
                        algo,
                        &root,
                        self.depth,
                        procs,
                        threads.clone(),
                    )?);
                    self.bar.inc(1);
                }
                let sim = Backend::Sim(SimConfig::new(self.cost.clone(), 1));
                let sim = search_once(algo, &root, self.depth, procs, sim)?;
                self.bar.inc(1);
                cells.push(Cell {
                    procs,
                    threads: runs,
                    sim,
                });
            }
            rows.extend(rows_of(info.name, algo, self.depth, &cells));
        }
        self.bar
            .set_message(format!("{} parallel capacity", info.name));
        let threads = self.procs.last().copied().unwrap_or(1);
        let capacity = measure::parallel_capacity(&root, threads, &Effort::new(self.quick));
        Ok((rows, capacity))
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

    #[test]
    fn speedups_are_against_the_one_processor_run_of_each_backend() {
        let run = |seconds: f64, nodes: u64| Run {
            seconds,
            nodes,
            messages: nodes / 10,
            requests: nodes / 20,
            refusals: nodes / 40,
            idle_percent: 5.0,
        };
        let cells = [
            Cell {
                procs: 1,
                threads: vec![run(1.0, 100), run(1.2, 100), run(0.8, 100)],
                sim: run(2.0, 100),
            },
            Cell {
                procs: 2,
                threads: vec![run(0.5, 120), run(0.6, 130), run(0.4, 110)],
                sim: run(1.25, 125),
            },
        ];
        let rows = rows_of("g", ParallelAlgo::DelaySplit, 5, &cells);
        assert_eq!(rows[0].measured_speedup, 1.0);
        assert_eq!(rows[0].error_percent, 0.0);
        let r = &rows[1];
        assert_eq!((r.measured_seconds, r.measured_nodes), (0.5, 120));
        assert_eq!((r.measured_messages, r.simulated_messages), (12, 12));
        assert_eq!((r.measured_requests, r.simulated_requests), (6, 6));
        assert_eq!((r.measured_refusals, r.simulated_refusals), (3, 3));
        assert_eq!((r.measured_seconds_min, r.measured_seconds_max), (0.4, 0.6));
        assert_eq!((r.measured_speedup, r.predicted_speedup), (2.0, 1.6));
        assert!((r.error_percent + 20.0).abs() < 1e-9, "{}", r.error_percent);
    }
}
