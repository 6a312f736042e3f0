//! `runner play`: a match between two engines on any game, the project's own in process or
//! outside programs speaking UCI, GTP or the line protocol, with wins, draws, losses, the Elo
//! difference and its 95 % interval, forfeits, a progress bar over the games, and optional game
//! records (the file is created before the first game and written game by game). The referee,
//! its forfeits and the protocols: `README.md` beside this file.
//!
//! | module | concept |
//! | --- | --- |
//! | `spec` | the engine specifications of `--a` and `--b` |
//! | `opening` | the openings, with the moves that reach them |
//! | `referee` | one game: moves asked for in turn, checked, timed, adjudicated by the game's outcome or a forfeit |
//! | `outside` | an outside engine: its protocol client, restarts, the faults that forfeit a game |
//! | `process` | a child process with line I/O and read deadlines |
//! | `uci_client`, `gtp_client`, `line_client` | the protocols |
//! | `elo` | the Elo difference and its error bars |
//! | `record` | PGN for chess, PDN for checkers, the transcript for Othello, a plain move list for other games |

pub mod elo;
mod gtp_client;
mod line_client;
pub mod opening;
pub mod outside;
mod process;
mod record;
mod referee;
pub mod spec;
mod uci_client;

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
use opening::Opening;
use outside::Outside;
use record::{GameRecord, GameResult, MatchInfo};
use referee::{Contender, Seat};
use spec::{EngineSpec, Spec};

/// Runs `runner play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    let a = spec::parse_engine(&args.a).map_err(|e| input("--a", e))?;
    let b = spec::parse_engine(&args.b).map_err(|e| input("--b", e))?;
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
    if let Some(g) = args.grace_ms {
        plan.grace = Duration::from_millis(g);
    }
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
    /// How long past the time per move an outside engine's answer is awaited before it
    /// forfeits by hanging (the whole wait without a time per move).
    pub grace: Duration,
}

/// The grace without a time per move (a fixed depth).
pub const DEPTH_GRACE: Duration = Duration::from_secs(60);

/// The grace with `per_move`: twice the time per move, at least a second.
#[must_use]
pub fn default_grace(per_move: Option<Duration>) -> Duration {
    per_move.map_or(DEPTH_GRACE, |t| (2 * t).max(Duration::from_secs(1)))
}

impl Plan {
    /// `games` games at `time_ms` a move or to `depth`, a draw at `max_plies`. The engines'
    /// deadline keeps a margin of a tenth of the time per move (at most 50 ms) for what happens
    /// after the search (the answer, the thread switch on a loaded machine); a move counts as
    /// over time only past the full time per move. The grace is [`default_grace`].
    #[must_use]
    pub fn new(games: usize, time_ms: Option<u64>, depth: Option<u32>, max_plies: usize) -> Plan {
        let per_move = time_ms.map(Duration::from_millis);
        Plan {
            games,
            budget: Budget {
                depth,
                nodes: None,
                time: time_ms.map(|t| Duration::from_millis(t - (t / 10).min(50))),
                fixed_time: false,
            },
            per_move,
            max_plies,
            grace: default_grace(per_move),
        }
    }
}

/// One engine's side of a finished match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatSummary {
    /// Its name.
    pub name: String,
    /// How it searched (`pvs`, `abdada/2`), or the protocol and program (`uci:stockfish`).
    pub method: String,
    /// Moves played.
    pub moves: u64,
    /// Moves that took longer than the time per move.
    pub over_time: u64,
    /// The longest move, in ms.
    pub longest_ms: f64,
    /// The mean move, in ms.
    pub mean_ms: f64,
    /// Games it lost by giving no legal move (an illegal or unparsable one, or none).
    pub illegal: u64,
    /// Games it lost because the program crashed or could not be started.
    #[serde(default)]
    pub crashes: u64,
    /// Games it lost because the program did not answer within the time and the grace.
    #[serde(default)]
    pub hangs: u64,
    /// Games it lost because the program broke its protocol or refused the game.
    #[serde(default)]
    pub protocol: u64,
    /// How often the program was started again after a crash, hang or protocol error.
    #[serde(default)]
    pub restarts: u64,
}

impl SeatSummary {
    fn of<G: Game>(s: &Seat<G>) -> SeatSummary {
        SeatSummary {
            name: s.name.clone(),
            method: s.engine.describe(),
            moves: s.moves,
            over_time: s.over_time,
            longest_ms: s.longest.as_secs_f64() * 1e3,
            mean_ms: if s.moves > 0 {
                s.total.as_secs_f64() * 1e3 / s.moves as f64
            } else {
                0.0
            },
            illegal: s.illegal,
            crashes: s.crashes,
            hangs: s.hangs,
            protocol: s.protocol,
            restarts: s.restarts(),
        }
    }

    /// Games it forfeited.
    #[must_use]
    pub fn forfeits(&self) -> u64 {
        self.illegal + self.crashes + self.hangs + self.protocol
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
    let openings: Vec<Opening<G>> = openings.iter().cloned().map(Opening::at).collect();
    let bar = ProgressBar::hidden();
    let (tally, _) = play_games(plan, &openings, (&mut a, &mut b), None, &bar, None)?;
    Ok(MatchOutcome {
        tally,
        a: SeatSummary::of(&a),
        b: SeatSummary::of(&b),
    })
}

struct MatchVisitor<'a> {
    args: &'a PlayArgs,
    a: EngineSpec,
    b: EngineSpec,
    plan: Plan,
    pgn: Option<File>,
}

impl GameVisitor for MatchVisitor<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        let mut openings: Vec<Opening<G>> = match &args.openings {
            Some(given) => {
                let set = crate::testset::TestSet::find("--openings", given)?;
                opening::read::<G>("--openings", &set, info)?
            }
            None => vec![Opening::at(G::start())],
        };
        let mut a = seat::<G>("--a", &self.a, info)?;
        let mut b = seat::<G>("--b", &self.b, info)?;
        let replays = [&a, &b]
            .iter()
            .any(|s| matches!(&s.engine, Contender::Outside(o) if o.needs_lines()));
        if replays {
            opening::complete_lines("--openings", &mut openings)?;
        }
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

/// The seat of `spec` (given with `flag`): an outside program is started once here, so that a
/// program that cannot be started, or refuses the game, is an input error before the first
/// game; a program that fails later in its handshake forfeits its games.
fn seat<G: Game>(flag: &str, spec: &EngineSpec, info: &'static GameInfo) -> Result<Seat<G>> {
    let engine: Contender<G> = match spec {
        EngineSpec::Own(s) => s.player::<G>().map_err(|e| input(flag, e))?.into(),
        EngineSpec::Outside(o) => {
            let mut engine = Outside::new(o.clone(), info).map_err(|e| input(flag, e))?;
            if let Err(e @ (outside::Fault::Refused(_) | outside::Fault::Spawn(_))) = engine.start()
            {
                return Err(input(flag, e));
            }
            engine.into()
        }
    };
    Ok(Seat::new(spec.name().to_string(), engine))
}

/// Plays the match's games, one line per game on stdout (with `lines`) above `bar`, which
/// advances by one per game; each record is written to the file as its game ends. Returns the
/// tally and the JSON rows of the games.
fn play_games<G: Game>(
    plan: &Plan,
    openings: &[Opening<G>],
    (a, b): (&mut Seat<G>, &mut Seat<G>),
    mut pgn: Option<(&mut File, &MatchInfo)>,
    bar: &ProgressBar,
    lines: Option<()>,
) -> Result<(Tally, Vec<serde_json::Value>)> {
    let mut tally = Tally::default();
    let mut rows = Vec::new();
    {
        for i in 0..plan.games {
            let opening = &openings[(i / 2) % openings.len()];
            let a_first = i % 2 == 0;
            a.engine.clear();
            b.engine.clear();
            let (first, second) = if a_first {
                (&mut *a, &mut *b)
            } else {
                (&mut *b, &mut *a)
            };
            let played = referee::play(opening, first, second, plan)
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
            let forfeit = played.forfeit.as_ref().map(|f| {
                json!({
                    "engine": f.engine,
                    "seat": if (f.side == games::Side::First) == a_first { "a" } else { "b" },
                    "kind": f.kind,
                    "detail": f.detail,
                })
            });
            rows.push(json!({
                "game": i + 1,
                "first": first_name,
                "second": second_name,
                "result": played.result.token(),
                "plies": played.moves.len(),
                "reason": played.reason,
                "forfeit": forfeit,
            }));
            if let Some((file, info)) = &mut pgn {
                let mut text = String::new();
                record::write(
                    &GameRecord {
                        round: i + 1,
                        first: first_name,
                        second: second_name,
                        start: opening.pos.clone(),
                        line: opening.line.clone(),
                        moves: played.moves,
                        result: played.result,
                        reason: played.reason,
                        forfeit: played.forfeit,
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
                "grace_ms": args.grace_ms.unwrap_or_else(|| {
                    let grace = default_grace(args.time_ms.map(Duration::from_millis));
                    u64::try_from(grace.as_millis()).unwrap_or(u64::MAX)
                }),
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
                a.engine.describe(),
                b.name,
                b.engine.describe()
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
                if s.crashes + s.hangs + s.protocol + s.restarts > 0 {
                    println!(
                        "{}: forfeits by crashing {}, by hanging {}, by breaking the protocol {}; restarted {} times",
                        s.name, s.crashes, s.hangs, s.protocol, s.restarts
                    );
                }
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
            &[Opening::at(TicTacToe3::start())],
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
