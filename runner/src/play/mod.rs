//! `runner play`: a match between two engine configurations on any game, with wins, draws,
//! losses, the Elo difference and its 95 % interval, and optional game records.
//!
//! | module | concept |
//! | --- | --- |
//! | `spec` | the engine specifications of `--a` and `--b` |
//! | `referee` | one game: moves asked for in turn, checked, timed, adjudicated by the game's outcome |
//! | `elo` | the Elo difference and its error bars |
//! | `record` | PGN for chess, a plain move list for other games |

mod elo;
mod record;
mod referee;
mod spec;

use std::time::Duration;

use anyhow::{Context, Result};
use control::search::MAX_DEPTH;
use games::{Game, GameId, GameInfo, GameVisitor};
use serde_json::json;

use crate::cli::PlayArgs;
use crate::input_error::input;
use crate::player::{Budget, Player};
use elo::Tally;
use record::{GameRecord, GameResult};
use referee::Seat;

/// Runs `runner play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    let a = spec::parse(&args.a).map_err(|e| input("--a", e))?;
    let b = spec::parse(&args.b).map_err(|e| input("--b", e))?;
    if args.games == 0 {
        return Err(input("--games", "0 games is no match; give at least 1"));
    }
    if args.time_ms == Some(0) {
        return Err(input("--time-ms", "0 ms leaves no time; give at least 1"));
    }
    if let Some(d) = args.depth {
        if d == 0 || d > MAX_DEPTH {
            return Err(input(
                "--depth",
                format!("{d} is out of range; use 1 to {MAX_DEPTH}"),
            ));
        }
    }
    if args.max_plies == 0 {
        return Err(input("--max-plies", "give at least 1"));
    }
    // The engines' deadline keeps a margin of a tenth of the time per move (at most 50 ms) for
    // what happens after the search (the answer, the thread switch on a loaded machine); a move
    // counts as over time only past the full time per move.
    let budget = Budget {
        depth: args.depth,
        nodes: None,
        time: args
            .time_ms
            .map(|t| Duration::from_millis(t - (t / 10).min(50))),
        fixed_time: false,
    };
    let per_move = args.time_ms.map(Duration::from_millis);
    game.visit(MatchVisitor {
        args,
        a,
        b,
        budget,
        per_move,
    })
}

struct MatchVisitor<'a> {
    args: &'a PlayArgs,
    a: spec::Spec,
    b: spec::Spec,
    budget: Budget,
    per_move: Option<Duration>,
}

impl GameVisitor for MatchVisitor<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        let openings: Vec<G> = match &args.openings {
            Some(path) => crate::testset::read_positions::<G>("--openings", path, info)?
                .into_iter()
                .map(|(_, p)| p)
                .collect(),
            None => vec![G::start()],
        };
        let mut a = Seat::new(
            self.a.name.clone(),
            Player::<G>::new(self.a.method, self.a.config).map_err(|e| input("--a", e))?,
        );
        let mut b = Seat::new(
            self.b.name.clone(),
            Player::<G>::new(self.b.method, self.b.config).map_err(|e| input("--b", e))?,
        );
        let event = format!("{} vs {} ({})", a.name, b.name, info.name);
        let mut tally = Tally::default();
        let mut records = String::new();
        let mut rows = Vec::new();
        for i in 0..args.games {
            let opening = &openings[(i / 2) % openings.len()];
            let a_first = i % 2 == 0;
            a.player.clear();
            b.player.clear();
            let (first, second) = if a_first {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let played = referee::play(
                opening,
                first,
                second,
                &self.budget,
                self.per_move,
                args.max_plies,
            )
            .with_context(|| format!("game {}", i + 1))?;
            let a_result = match (played.result, a_first) {
                (GameResult::Draw, _) => 0,
                (GameResult::FirstWins, true) | (GameResult::SecondWins, false) => 1,
                _ => -1,
            };
            match a_result {
                1 => tally.wins += 1,
                0 => tally.draws += 1,
                _ => tally.losses += 1,
            }
            let (first_name, second_name) = if a_first {
                (a.name.clone(), b.name.clone())
            } else {
                (b.name.clone(), a.name.clone())
            };
            if !args.json {
                println!(
                    "game {:>3}: {first_name} (first) - {second_name} (second): {:<7} {:>4} plies, {}; A: +{} ={} -{}",
                    i + 1,
                    played.result.token(),
                    played.moves.len(),
                    played.reason,
                    tally.wins,
                    tally.draws,
                    tally.losses
                );
            }
            rows.push(json!({
                "game": i + 1,
                "first": first_name,
                "second": second_name,
                "result": played.result.token(),
                "plies": played.moves.len(),
                "reason": played.reason,
            }));
            if args.pgn.is_some() {
                record::write(
                    &GameRecord {
                        round: i + 1,
                        first: first_name,
                        second: second_name,
                        start: opening.clone(),
                        moves: played.moves,
                        result: played.result,
                        reason: played.reason,
                    },
                    &event,
                    &mut records,
                );
            }
        }
        if let Some(path) = &args.pgn {
            std::fs::write(path, &records)
                .with_context(|| format!("writing the games to {}", path.display()))?;
        }
        let elo = tally.elo();
        let seat_json = |s: &Seat<G>| {
            json!({
                "name": s.name,
                "method": s.player.method().describe(),
                "moves": s.moves,
                "over_time": s.over_time,
                "longest_ms": s.longest.as_secs_f64() * 1e3,
                "mean_ms": if s.moves > 0 { s.total.as_secs_f64() * 1e3 / s.moves as f64 } else { 0.0 },
                "abandoned_iterations": s.abandoned,
            })
        };
        if args.json {
            let out = json!({
                "game": info.name,
                "games": args.games,
                "time_ms": args.time_ms,
                "depth": args.depth,
                "a": seat_json(&a),
                "b": seat_json(&b),
                "wins": tally.wins,
                "draws": tally.draws,
                "losses": tally.losses,
                "score": tally.score(),
                "elo": elo,
                "results": rows,
            });
            println!("{out}");
        } else {
            println!(
                "A = {} ({}), B = {} ({})",
                a.name,
                a.player.method().describe(),
                b.name,
                b.player.method().describe()
            );
            println!(
                "A: +{} ={} -{} in {} games, score {:.1} %",
                tally.wins,
                tally.draws,
                tally.losses,
                tally.games(),
                tally.score().unwrap_or(0.0) * 100.0
            );
            if let Some(e) = &elo {
                println!("Elo difference A - B: {} (95 % interval)", elo::describe(e));
            }
            for s in [&a, &b] {
                println!(
                    "{}: {} moves, mean {:.1} ms, longest {:.1} ms, over the time per move: {}, parallel iterations left running: {}",
                    s.name,
                    s.moves,
                    if s.moves > 0 {
                        s.total.as_secs_f64() * 1e3 / s.moves as f64
                    } else {
                        0.0
                    },
                    s.longest.as_secs_f64() * 1e3,
                    s.over_time,
                    s.abandoned
                );
            }
        }
        Ok(())
    }
}
