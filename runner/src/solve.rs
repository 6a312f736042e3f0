//! `runner solve`: the exact value of a position, by a game's specialised solver where it has
//! one, else by the generic search to the end of the game.

use anyhow::{Result, bail};
use control::search::{Solution, solve, tt::MAX_TT_MIB};
use games::{Game, GameId, GameInfo, GameVisitor};
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

/// The hook for games with their own exact solver (faster than the generic search, and with
/// exact final scores such as Othello's disc difference). Returns `None` for games solved by
/// the generic search.
///
/// To wire Othello's endgame solver (`games::othello::endgame`), add a `match` arm for
/// `GameId::Othello` (and `GameId::Othello6`) that parses `args.position`, runs the solver and
/// prints the same keys as [`print_solution`]: game, position, value, value_text, best_move, pv,
/// exact, nodes, seconds, nodes_per_second, solver.
fn specialised_solver(game: GameId, args: &SolveArgs) -> Option<Result<()>> {
    let _ = (game, args);
    None
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
        print_solution(
            info,
            &root,
            &solution,
            seconds,
            "generic alpha-beta (PVS + table)",
            args.json,
        );
        Ok(())
    }
}

/// Prints a solution as text or as one JSON object.
pub fn print_solution<G: Game>(
    info: &GameInfo,
    root: &G,
    solution: &Solution<G::Move>,
    seconds: f64,
    solver: &str,
    as_json: bool,
) {
    let nodes = solution.stats.nodes();
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    let pv = format_line(root, &solution.pv);
    let best_move = solution.best_move.map(|m| root.format_move(m));
    let result = match solution.value {
        v if v > 0 && games::score::is_decisive(v) => "win",
        v if v < 0 && games::score::is_decisive(v) => "loss",
        0 => "draw",
        _ => "value",
    };
    if as_json {
        let out = json!({
            "game": info.name,
            "position": root.to_string(),
            "solver": solver,
            "value": solution.value,
            "value_text": describe_value(solution.value),
            "result": result,
            "plies_to_end": games::score::plies_to_end(solution.value),
            "best_move": best_move,
            "pv": pv,
            "exact": solution.exact,
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": nps,
        });
        println!("{out}");
        return;
    }
    println!("solve {} from {} ({solver})", info.name, root);
    let words = if result == "draw" {
        "draw".to_string()
    } else {
        describe_value(solution.value)
    };
    println!("value: {} ({words}) for the side to move", solution.value);
    println!(
        "best move: {}",
        best_move.as_deref().unwrap_or("none (game over)")
    );
    println!("pv: {}", pv.join(" "));
    println!(
        "nodes: {nodes}, time: {seconds:.3} s, {:.2} M nodes/s",
        nps / 1e6
    );
}
