//! `runner solve`: the exact value of a position, by a game's specialised solver where it has
//! one, else by the generic search to the end of the game.

use anyhow::{Result, bail};
use control::search::{solve, tt::MAX_TT_MIB};
use games::othello::endgame::Solver;
use games::othello::{self, Othello};
use games::{Game, GameId, GameInfo, GameVisitor, score};
use serde_json::json;

use crate::cli::SolveArgs;
use crate::input_error::input;
use crate::search::{clock_seconds, describe_value, format_line, parse_position};
use crate::wall_clock::WallClock;

/// The games `runner solve` accepts (their games end soon enough to be solved).
const SOLVABLE: &[&str] = &["othello", "othello6", "tictactoe3", "tictactoe4"];

/// Runs `runner solve`.
pub fn run(args: &SolveArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    if !SOLVABLE.contains(&game.name()) {
        return Err(input(
            "--game",
            format!(
                "{game} cannot be solved here; solve one of: {}",
                SOLVABLE.join(", ")
            ),
        ));
    }
    if args.tt_mb == 0 || args.tt_mb > MAX_TT_MIB {
        return Err(input(
            "--tt-mb",
            format!("{} MiB is out of range; use 1 to {MAX_TT_MIB}", args.tt_mb),
        ));
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

/// Othello's endgame solver (`games::othello::endgame`): the exact final disc difference, with
/// the empties going to the winner. The principal variation is found afterwards by solving each
/// successor with the same solver (its table keeps exact facts), outside the timed solve.
fn solve_othello<const N: usize>(info: &'static GameInfo, args: &SolveArgs) -> Result<()>
where
    Othello<N>: Game<Move = othello::Move>,
{
    let root: Othello<N> = parse_position(args.position.as_deref(), info)?;
    // `Solver::new(bits)` takes 32 * 2^bits bytes: the largest such table within --tt-mb.
    let entries = (args.tt_mb as u64 * (1 << 20) / 32).max(16);
    let bits = 63 - entries.leading_zeros();
    let mut solver = Solver::<N>::new(bits);
    let full = (N * N) as i32;
    let clock = WallClock::start();
    let first = solver.solve(&root, -full, full);
    let seconds = clock_seconds(&clock);
    let mut pv = Vec::new();
    let mut pos = root;
    let mut step = first;
    while let Some(mv) = step.best_move {
        pv.push(mv);
        let _ = pos.make_move(mv);
        if pos.outcome().is_some() {
            break;
        }
        step = solver.solve(&pos, -full, full);
    }
    let value = first.score;
    let (result, words) = match value.signum() {
        1 => ("win", format!("win by {value} discs")),
        -1 => ("loss", format!("loss by {} discs", -value)),
        _ => ("draw", "draw".to_string()),
    };
    Report {
        info,
        root: &root,
        value,
        value_text: words,
        result,
        best_move: first.best_move,
        pv: &pv,
        exact: true,
        nodes: first.nodes,
        seconds,
        solver: "othello endgame solver (disc difference)",
    }
    .print(args.json);
    Ok(())
}

struct GenericSolve<'a> {
    args: &'a SolveArgs,
}

impl GameVisitor for GenericSolve<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        let root: G = parse_position(args.position.as_deref(), info)?;
        let mut clock = WallClock::start();
        let solution = solve(&root, args.tt_mb, &mut clock).map_err(|e| input("--tt-mb", e))?;
        let seconds = clock_seconds(&clock);
        if !solution.exact {
            bail!(
                "the generic solver did not reach the end of every line of {} within {} plies",
                info.name,
                control::search::MAX_DEPTH
            );
        }
        let value = solution.value;
        let result = if value > 0 && score::is_decisive(value) {
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
            best_move: solution.best_move,
            pv: &solution.pv,
            exact: solution.exact,
            nodes: solution.stats.nodes(),
            seconds,
            solver: "generic alpha-beta (PVS + table)",
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
    /// The exact value for the side to move.
    pub value: i32,
    /// The value in words.
    pub value_text: String,
    /// `win`, `loss`, `draw` or `value`.
    pub result: &'static str,
    /// A best move.
    pub best_move: Option<G::Move>,
    /// A principal variation.
    pub pv: &'a [G::Move],
    /// Whether the value is proven.
    pub exact: bool,
    /// Nodes of the solve.
    pub nodes: u64,
    /// Seconds of the solve.
    pub seconds: f64,
    /// Which solver.
    pub solver: &'static str,
}

impl<G: Game> Report<'_, G> {
    /// Prints the report as text or as one JSON object.
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
                "nodes": self.nodes,
                "seconds": self.seconds,
                "nodes_per_second": nps,
            });
            println!("{out}");
            return;
        }
        println!(
            "solve {} from {} ({})",
            self.info.name, self.root, self.solver
        );
        println!(
            "value: {} ({}) for the side to move",
            self.value, self.value_text
        );
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
