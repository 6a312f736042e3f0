//! `runner play`: a match between two engine configurations on any game, with wins, draws,
//! losses, the Elo difference and its 95 % interval, a progress bar over the games, and
//! optional game records (the file is created before the first game and written game by game).
//!
//! | module | concept |
//! | --- | --- |
//! | `spec` | the engine specifications of `--a` and `--b` |
//! | `referee` | one game: moves asked for in turn, checked, timed, adjudicated by the game's outcome |
//! | `elo` | the Elo difference and its error bars |
//! | `record` | PGN for chess, a plain move list for other games |

pub mod elo;
mod record;
mod referee;
pub mod spec;

use std::fs::File;
use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result};
use control::search::MAX_DEPTH;
use games::{Game, GameId, GameInfo, GameVisitor};
use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::cli::PlayArgs;
use crate::input_error::input;
use control::engine::Budget;
use elo::Tally;
use record::{GameRecord, GameResult, MatchInfo};
use referee::Seat;
use spec::Spec;

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
    if args.nodes == Some(0) {
        return Err(input("--nodes", "0 nodes is no search; give at least 1"));
    }
    let mut plan = Plan::new(args.games, args.time_ms, args.depth, args.max_plies);
    plan.budget.nodes = args.nodes;
    // Before the first game: a record file that cannot be written would otherwise fail only
    // after the whole match.
    let pgn = match &args.pgn {
        Some(path) => Some(File::create(path).map_err(|e| {
            input(
                "--pgn",
                format!(
                    "cannot write {}: {e}; give a file in an existing folder that you may write to",
                    path.display()
                ),
            )
        })?),
        None => None,
    };
    game.visit(MatchVisitor {
        args,
        a,
        b,
        plan,
        pgn,
    })
}

/// How the games of a match are played.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Games; colours alternate, each opening played once with each colour.
    pub games: usize,
    /// Each move's budget.
    pub budget: Budget,
    /// The time per move (a move that takes longer counts as over time).
    pub per_move: Option<Duration>,
    /// A game is a draw at this many plies.
    pub max_plies: usize,
}

impl Plan {
    /// `games` games at `time_ms` a move or to `depth`, a draw at `max_plies`. The engines'
    /// deadline keeps a margin of a tenth of the time per move (at most 50 ms) for what happens
    /// after the search (the answer, the thread switch on a loaded machine); a move counts as
    /// over time only past the full time per move.
    #[must_use]
    pub fn new(games: usize, time_ms: Option<u64>, depth: Option<u32>, max_plies: usize) -> Plan {
        Plan {
            games,
            budget: Budget {
                depth,
                nodes: None,
                time: time_ms.map(|t| Duration::from_millis(t - (t / 10).min(50))),
                fixed_time: false,
            },
            per_move: time_ms.map(Duration::from_millis),
            max_plies,
        }
    }
}

/// One engine's side of a finished match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatSummary {
    /// Its name.
    pub name: String,
    /// How it searched (`pvs`, `abdada/2`).
    pub method: String,
    /// Moves played.
    pub moves: u64,
    /// Moves that took longer than the time per move.
    pub over_time: u64,
    /// The longest move, in ms.
    pub longest_ms: f64,
    /// The mean move, in ms.
    pub mean_ms: f64,
    /// Games it lost by giving no legal move.
    pub illegal: u64,
}

impl SeatSummary {
    fn of<G: Game>(s: &Seat<G>) -> SeatSummary {
        SeatSummary {
            name: s.name.clone(),
            method: s.player.method().describe(),
            moves: s.moves,
            over_time: s.over_time,
            longest_ms: s.longest.as_secs_f64() * 1e3,
            mean_ms: if s.moves > 0 {
                s.total.as_secs_f64() * 1e3 / s.moves as f64
            } else {
                0.0
            },
            illegal: s.illegal,
        }
    }
}

/// What a match gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchOutcome {
    /// Wins, draws and losses of engine A.
    pub tally: Tally,
    /// Engine A's side.
    pub a: SeatSummary,
    /// Engine B's side.
    pub b: SeatSummary,
}

/// Plays a match of `a` against `b` from `openings` under `plan`, quietly (no records, no
/// progress): what the strength page plays.
///
/// # Errors
/// When an engine cannot be built or a search fails.
pub fn play_match<G: Game>(
    a: &Spec,
    b: &Spec,
    openings: &[G],
    plan: &Plan,
) -> Result<MatchOutcome> {
    let mut a = Seat::new(a.name.clone(), a.player::<G>().context("engine A")?);
    let mut b = Seat::new(b.name.clone(), b.player::<G>().context("engine B")?);
    let bar = ProgressBar::hidden();
    let (tally, _) = play_games(plan, openings, (&mut a, &mut b), None, &bar, None)?;
    Ok(MatchOutcome {
        tally,
        a: SeatSummary::of(&a),
        b: SeatSummary::of(&b),
    })
}

struct MatchVisitor<'a> {
    args: &'a PlayArgs,
    a: Spec,
    b: Spec,
    plan: Plan,
    pgn: Option<File>,
}

impl GameVisitor for MatchVisitor<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        let openings: Vec<G> = match &args.openings {
            Some(given) => {
                let set = crate::testset::TestSet::find("--openings", given)?;
                crate::testset::read_positions::<G>("--openings", &set, info)?
                    .into_iter()
                    .map(|(_, p)| p)
                    .collect()
            }
            None => vec![G::start()],
        };
        let mut a = Seat::new(
            self.a.name.clone(),
            self.a.player::<G>().map_err(|e| input("--a", e))?,
        );
        let mut b = Seat::new(
            self.b.name.clone(),
            self.b.player::<G>().map_err(|e| input("--b", e))?,
        );
        let record_info = MatchInfo::new(
            format!("{} vs {} ({})", a.name, b.name, info.name),
            crate::machine::now_secs(),
            args.time_ms,
        );
        let bar = crate::progress::bar(args.games as u64, "games", args.json);
        let mut pgn = self.pgn;
        let (tally, rows) = play_games(
            &self.plan,
            &openings,
            (&mut a, &mut b),
            pgn.as_mut().map(|f| (f, &record_info)),
            &bar,
            (!args.json).then_some(()),
        )?;
        bar.finish_and_clear();
        report(args, info, &a, &b, &tally, rows);
        Ok(())
    }
}

/// Plays the match's games, one line per game on stdout (with `lines`) above `bar`, which
/// advances by one per game; each record is written to the file as its game ends. Returns the
/// tally and the JSON rows of the games.
fn play_games<G: Game>(
    plan: &Plan,
    openings: &[G],
    (a, b): (&mut Seat<G>, &mut Seat<G>),
    mut pgn: Option<(&mut File, &MatchInfo)>,
    bar: &ProgressBar,
    lines: Option<()>,
) -> Result<(Tally, Vec<serde_json::Value>)> {
    let (budget, per_move) = (&plan.budget, plan.per_move);
    let mut tally = Tally::default();
    let mut rows = Vec::new();
    {
        for i in 0..plan.games {
            let opening = &openings[(i / 2) % openings.len()];
            let a_first = i % 2 == 0;
            a.player.clear();
            b.player.clear();
            let (first, second) = if a_first {
                (&mut *a, &mut *b)
            } else {
                (&mut *b, &mut *a)
            };
            let played = referee::play(opening, first, second, budget, per_move, plan.max_plies)
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
            if lines.is_some() {
                bar.suspend(|| {
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
                });
            }
            rows.push(json!({
                "game": i + 1,
                "first": first_name,
                "second": second_name,
                "result": played.result.token(),
                "plies": played.moves.len(),
                "reason": played.reason,
            }));
            if let Some((file, info)) = &mut pgn {
                let mut text = String::new();
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
                    info,
                    &mut text,
                );
                file.write_all(text.as_bytes())
                    .and_then(|()| file.flush())
                    .context("writing the game record to the --pgn file")?;
            }
            bar.set_message(format!(
                "A: +{} ={} -{}",
                tally.wins, tally.draws, tally.losses
            ));
            bar.inc(1);
        }
    }
    Ok((tally, rows))
}

/// Prints the match report: one JSON object, or the text summary.
fn report<G: Game>(
    args: &PlayArgs,
    info: &GameInfo,
    a: &Seat<G>,
    b: &Seat<G>,
    tally: &Tally,
    rows: Vec<serde_json::Value>,
) {
    {
        let elo = tally.elo();
        let seat_json = |s: &Seat<G>| json!(SeatSummary::of(s));
        if args.json {
            let out = json!({
                "game": info.name,
                "games": args.games,
                "time_ms": args.time_ms,
                "depth": args.depth,
                "nodes": args.nodes,
                "a": seat_json(a),
                "b": seat_json(b),
                "wins": tally.wins,
                "draws": tally.draws,
                "losses": tally.losses,
                "score": tally.score(),
                "elo": elo,
                "elo_method": elo.as_ref().map(elo::method),
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
                println!(
                    "Elo difference A - B: {} ({})",
                    elo::describe(e),
                    elo::method(e)
                );
            }
            for s in [a, b] {
                let s = SeatSummary::of(s);
                println!(
                    "{}: {} moves, mean {:.1} ms, longest {:.1} ms, over the time per move: {}, illegal moves: {}",
                    s.name, s.moves, s.mean_ms, s.longest_ms, s.over_time, s.illegal
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use control::search::{Algorithm, SearchConfig};
    use games::tictactoe::TicTacToe3;

    use control::engine::{Method, Player};

    #[test]
    fn the_progress_bar_advances_once_per_game_and_records_are_written_as_games_end() {
        let plan = Plan::new(3, None, Some(9), 400);
        let seat = |algo: Algorithm| {
            Seat::new(
                algo.name().into(),
                Player::<TicTacToe3>::new(Method::Sequential(algo), SearchConfig::research())
                    .unwrap(),
            )
        };
        let (mut a, mut b) = (seat(Algorithm::Pvs), seat(Algorithm::AlphaBeta));
        let path = std::env::temp_dir().join(format!("runner-play-bar-{}", std::process::id()));
        let mut file = File::create(&path).unwrap();
        let info = MatchInfo::new("t".into(), 0, None);
        let bar = ProgressBar::hidden();
        let (tally, rows) = play_games(
            &plan,
            &[TicTacToe3::start()],
            (&mut a, &mut b),
            Some((&mut file, &info)),
            &bar,
            None,
        )
        .unwrap();
        assert_eq!(bar.position(), 3);
        assert_eq!(tally.games(), 3);
        assert_eq!(rows.len(), 3);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches("# t, game ").count(), 3, "{text}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_quiet_match_of_simulated_engines_repeats_exactly() {
        let a = spec::parse("algo=abdada,procs=3,backend=sim,name=a").unwrap();
        let b = spec::parse("algo=abdada,procs=1,backend=sim,name=b").unwrap();
        let plan = Plan::new(2, Some(20), None, 60);
        let openings = [games::checkers::Checkers::start()];
        let first = play_match(&a, &b, &openings, &plan).unwrap();
        assert_eq!(first.tally.games(), 2);
        assert_eq!(first.a.over_time + first.b.over_time, 0);
        assert_eq!(first.a.illegal + first.b.illegal, 0);
        // Virtual time: no move took more than the time per move.
        assert!(
            first.a.longest_ms <= 20.0 && first.b.longest_ms <= 20.0,
            "{first:?}"
        );
        assert_eq!(play_match(&a, &b, &openings, &plan).unwrap(), first);
    }
}
