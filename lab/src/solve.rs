//! `runner solve`: the exact value of a position of any registered game, by the game's
//! specialised solver where it has one, else by the generic search deepened to the end of the
//! game. `--time-ms` stops it with the deepest completed iteration, unproven.

use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Result, anyhow};
use control::search::{
    Algorithm, Limits, MAX_DEPTH, SearchConfig, Searcher, TtMode, tt::MAX_TT_MIB,
};
use games::othello::endgame::Solver;
use games::othello::{self, Othello};
use games::score::{self, INFINITY};
use games::{Game, GameId, GameInfo, GameVisitor};
use indicatif::ProgressBar;
use serde_json::{Value, json};

use crate::cli::SolveArgs;
use crate::input_error::input;
use crate::search::{clock_seconds, describe_value, format_line};
use control::engine::WallClock;

/// Runs `runner solve`.
pub fn run(args: &SolveArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    if args.tt_mb == 0 || args.tt_mb > MAX_TT_MIB {
        return Err(input(
            "--tt-mb",
            format!("{} MiB is out of range; use 1 to {MAX_TT_MIB}", args.tt_mb),
        ));
    }
    if args.time_ms == Some(0) {
        return Err(input("--time-ms", "0 ms leaves no time; give at least 1"));
    }
    if let Some(result) = specialised_solver(game, args) {
        return result;
    }
    game.visit(GenericSolve { args })
}

/// Games with their own exact solver (faster than the generic search, and with exact final
/// scores such as Othello's disc difference). Returns `None` for games solved by the generic
/// search. A new specialised solver gets one arm here and prints a [`Report`].
fn specialised_solver(game: GameId, args: &SolveArgs) -> Option<Result<()>> {
    match game {
        GameId::Othello8 => Some(solve_othello::<8>(game.info(), args)),
        GameId::Othello6 => Some(solve_othello::<6>(game.info(), args)),
        _ => None,
    }
}

/// One line of the solve's progress: a completed iteration, or the search to the end.
#[derive(Clone, Copy, Debug)]
pub struct Iteration {
    /// Its depth in plies; `None` for the search without a horizon.
    pub depth: Option<u32>,
    /// Its value for the side to move.
    pub value: i32,
    /// Its nodes.
    pub nodes: u64,
    /// Seconds since the solve began, at its end.
    pub seconds: f64,
}

impl Iteration {
    fn text(&self) -> String {
        let depth = self
            .depth
            .map_or_else(|| "to the end".to_string(), |d| format!("depth {d:>3}"));
        format!(
            "  {depth:<10}  value {:>16}  nodes {:>12}  time {:>8.3} s",
            describe_value(self.value),
            self.nodes,
            self.seconds
        )
    }

    fn json(&self) -> Value {
        json!({
            "depth": self.depth,
            "value": self.value,
            "nodes": self.nodes,
            "seconds": self.seconds,
        })
    }
}

/// Prints the first line of a text report (before the search, so that iterations follow it).
fn print_header(info: &GameInfo, root: &impl std::fmt::Display, solver: &str, args: &SolveArgs) {
    if args.json {
        return;
    }
    let limit = args
        .time_ms
        .map_or_else(String::new, |t| format!(", time limit {t} ms"));
    println!("solve {} from {root} ({solver}{limit})", info.name);
}

/// Othello's endgame solver (`games::othello::endgame`): the exact final disc difference, with
/// the empties going to the winner. The principal variation is found afterwards by solving each
/// successor with the same solver (its table keeps exact facts), outside the timed solve. The
/// solver cannot be interrupted: under `--time-ms` it runs on its own thread, and a solve past
/// the limit is reported as not finished (the process then ends with the thread).
fn solve_othello<const N: usize>(info: &'static GameInfo, args: &SolveArgs) -> Result<()>
where
    Othello<N>: Game<Move = othello::Move>,
{
    const SOLVER: &str = "othello endgame solver (disc difference)";
    let root: Othello<N> = args.position.parse(info)?;
    print_header(info, &root, SOLVER, args);
    // `Solver::new(bits)` takes 32 * 2^bits bytes: the largest such table within --tt-mb.
    let entries = (args.tt_mb as u64 * (1 << 20) / 32).max(16);
    let bits = 63 - entries.leading_zeros();
    let full = (N * N) as i32;
    let spinner = crate::progress::spinner(args.json);
    spinner.set_message(format!("solving {} to the end", info.name));
    let clock = WallClock::start();
    let (send, receive) = mpsc::channel();
    let position = root;
    std::thread::spawn(move || {
        let mut solver = Solver::<N>::new(bits);
        let first = solver.solve(&position, -full, full);
        let mut pv = Vec::new();
        let mut pos = position;
        let mut step = first;
        while let Some(mv) = step.best_move {
            pv.push(mv);
            let _ = pos.make_move(mv);
            if pos.outcome().is_some() {
                break;
            }
            step = solver.solve(&pos, -full, full);
        }
        // The receiver is gone only when the time ran out.
        let _ = send.send((first, clock_seconds(&clock), pv));
    });
    let received = match args.time_ms {
        Some(ms) => receive.recv_timeout(Duration::from_millis(ms)).ok(),
        None => receive.recv().ok(),
    };
    spinner.finish_and_clear();
    let Some((first, seconds, pv)) = received else {
        let ms = args.time_ms.unwrap_or_default();
        if args.json {
            let out = json!({
                "game": info.name,
                "position": root.to_string(),
                "solver": SOLVER,
                "time_ms": ms,
                "exact": false,
                "stopped": true,
                "value": null,
                "iterations": [],
            });
            println!("{out}");
        } else {
            println!(
                "not solved within {ms} ms (this solver has no iterations to report); give more --time-ms"
            );
        }
        return Ok(());
    };
    let value = first.score;
    let (result, words) = match value.signum() {
        1 => ("win", format!("win by {value} discs")),
        -1 => ("loss", format!("loss by {} discs", -value)),
        _ => ("draw", "draw".to_string()),
    };
    let iteration = Iteration {
        depth: None,
        value,
        nodes: first.nodes,
        seconds,
    };
    if !args.json {
        println!("{}", iteration.text());
    }
    Report {
        info,
        root: &root,
        value,
        value_text: words,
        result,
        best_move: first.best_move,
        pv: &pv,
        exact: true,
        depth: None,
        nodes: first.nodes,
        seconds,
        solver: SOLVER,
        iterations: vec![iteration],
        time_ms: args.time_ms,
    }
    .print(args.json);
    Ok(())
}

struct GenericSolve<'a> {
    args: &'a SolveArgs,
}

/// The generic solver's search: PVS with the normal table and full windows.
fn solve_config(tt_mib: usize) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Pvs,
        tt_mode: TtMode::Normal,
        tt_mib,
        aspiration: None,
        ..SearchConfig::research()
    }
}

/// What the generic deepening found.
struct Deepening<M> {
    iterations: Vec<Iteration>,
    /// Value, principal variation and depth (`None`: to the end) of the last completed search.
    last: Option<(i32, Vec<M>, Option<u32>)>,
    exact: bool,
    nodes: u64,
}

/// Iterative deepening from `root` until an iteration meets no horizon (every line ended) or
/// proves a win or loss within its depth, then one search without a horizon (depth
/// [`MAX_DEPTH`]) that settles the value, as `control::search::solve` does: its table entries
/// from the shallower iterations cannot stand in for lines to the end. Each completed search
/// is printed at once (text) and kept.
fn deepen<G: Game>(
    root: &G,
    args: &SolveArgs,
    spinner: &ProgressBar,
    clock: &mut WallClock,
) -> Result<Deepening<G::Move>> {
    let mut searcher =
        Searcher::<G>::new(solve_config(args.tt_mb)).map_err(|e| input("--tt-mb", e))?;
    // The time counts from here: building the table is not part of the solve.
    *clock = WallClock::start();
    let limits = Limits {
        time: args.time_ms.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut run = Deepening {
        iterations: Vec::new(),
        last: None,
        exact: false,
        nodes: 0,
    };
    let mut depth = 1;
    loop {
        let to_end = depth == MAX_DEPTH;
        spinner.set_message(if to_end {
            "searching to the end of the game".to_string()
        } else {
            format!("depth {depth}")
        });
        searcher.reset_stats();
        let r = searcher.search_window_limited(root, depth, -INFINITY, INFINITY, &limits, clock);
        let stats = searcher.stats();
        run.nodes += stats.nodes();
        if !r.completed {
            break;
        }
        let iteration = Iteration {
            depth: (!to_end).then_some(depth),
            value: r.value,
            nodes: stats.nodes(),
            seconds: clock_seconds(clock),
        };
        if !args.json {
            spinner.suspend(|| println!("{}", iteration.text()));
        }
        run.iterations.push(iteration);
        run.last = Some((r.value, r.pv, iteration.depth));
        let proven = score::plies_to_end(r.value).is_some_and(|p| p <= depth);
        if to_end {
            run.exact = stats.horizon == 0;
            break;
        }
        depth = if stats.horizon == 0 || proven {
            MAX_DEPTH
        } else {
            depth + 1
        };
    }
    Ok(run)
}

impl GameVisitor for GenericSolve<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        const SOLVER: &str = "generic alpha-beta (PVS + table), deepened to the end";
        let args = self.args;
        let root: G = args.position.parse(info)?;
        print_header(info, &root, SOLVER, args);
        let mut clock = WallClock::start();
        let (value, pv, depth, exact, nodes, iterations) = if let Some(outcome) = root.outcome() {
            (outcome.score(0), Vec::new(), None, true, 0, Vec::new())
        } else {
            let spinner = crate::progress::spinner(args.json);
            let run = deepen(&root, args, &spinner, &mut clock)?;
            spinner.finish_and_clear();
            let Some((value, pv, depth)) = run.last else {
                return Err(input(
                    "--time-ms",
                    format!(
                        "{} ms was not enough for one iteration; give more time",
                        args.time_ms.unwrap_or_default()
                    ),
                ));
            };
            (value, pv, depth, run.exact, run.nodes, run.iterations)
        };
        let seconds = clock_seconds(&clock);
        if !exact && args.time_ms.is_none() {
            return Err(anyhow!(
                "the generic solver did not reach the end of every line of {} within {MAX_DEPTH} plies",
                info.name
            ));
        }
        let result = if !exact {
            "unproven"
        } else if value > 0 && score::is_decisive(value) {
            "win"
        } else if value < 0 && score::is_decisive(value) {
            "loss"
        } else if value == 0 {
            "draw"
        } else {
            "value"
        };
        let value_text = if result == "draw" {
            "draw".to_string()
        } else {
            describe_value(value)
        };
        Report {
            info,
            root: &root,
            value,
            value_text,
            result,
            best_move: pv.first().copied(),
            pv: &pv,
            exact,
            depth,
            nodes,
            seconds,
            solver: SOLVER,
            iterations,
            time_ms: args.time_ms,
        }
        .print(args.json);
        Ok(())
    }
}

/// What `runner solve` prints, whichever solver produced it.
pub struct Report<'a, G: Game> {
    /// The game.
    pub info: &'static GameInfo,
    /// The solved position.
    pub root: &'a G,
    /// The value for the side to move (exact when `exact`).
    pub value: i32,
    /// The value in words.
    pub value_text: String,
    /// `win`, `loss`, `draw`, `value` or (stopped by the time limit) `unproven`.
    pub result: &'static str,
    /// A best move.
    pub best_move: Option<G::Move>,
    /// A principal variation.
    pub pv: &'a [G::Move],
    /// Whether the value is proven.
    pub exact: bool,
    /// The depth of the last completed search; `None` when it went to the end of the game.
    pub depth: Option<u32>,
    /// Nodes of the solve.
    pub nodes: u64,
    /// Seconds of the solve.
    pub seconds: f64,
    /// Which solver.
    pub solver: &'static str,
    /// The completed searches, in order.
    pub iterations: Vec<Iteration>,
    /// The time limit, if any.
    pub time_ms: Option<u64>,
}

impl<G: Game> Report<'_, G> {
    /// Prints the report as text (after the header and iteration lines) or as one JSON object.
    pub fn print(&self, as_json: bool) {
        let nps = if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        };
        let pv = format_line(self.root, self.pv);
        let best_move = self.best_move.map(|m| self.root.format_move(m));
        if as_json {
            let out = json!({
                "game": self.info.name,
                "position": self.root.to_string(),
                "solver": self.solver,
                "value": self.value,
                "value_text": self.value_text,
                "result": self.result,
                "plies_to_end": score::plies_to_end(self.value),
                "best_move": best_move,
                "pv": pv,
                "exact": self.exact,
                "stopped": !self.exact,
                "depth": self.depth,
                "time_ms": self.time_ms,
                "iterations": self.iterations.iter().map(Iteration::json).collect::<Vec<_>>(),
                "nodes": self.nodes,
                "seconds": self.seconds,
                "nodes_per_second": nps,
            });
            println!("{out}");
            return;
        }
        if self.exact {
            println!(
                "value: {} ({}) for the side to move",
                self.value, self.value_text
            );
        } else {
            println!(
                "not solved within {} ms: value {} ({}) at depth {}, unproven, for the side to move",
                self.time_ms.unwrap_or_default(),
                self.value,
                self.value_text,
                self.depth.unwrap_or_default()
            );
        }
        println!(
            "best move: {}",
            best_move.as_deref().unwrap_or("none (game over)")
        );
        println!("pv: {}", pv.join(" "));
        println!(
            "nodes: {}, time: {:.3} s, {:.2} M nodes/s",
            self.nodes,
            self.seconds,
            nps / 1e6
        );
    }
}
