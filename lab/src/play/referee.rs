//! One game between two engines: moves are asked for in turn, checked legal, timed, and the
//! game ends when the `Game` trait says so (or at the ply limit, as a draw), or when an engine
//! forfeits it: an outside engine that crashes, hangs past the grace, breaks its protocol or
//! answers an illegal move, or any engine that gives no legal move.

use std::time::{Duration, Instant};

use anyhow::Result;
use games::{Game, Outcome, Side};

use super::Plan;
use super::opening::Opening;
use super::outside::{Choice, Fault, GameSoFar, Outside, Terms};
use super::record::GameResult;
use control::engine::Stop;
use control::engine::WallClock;
use control::engine::{Budget, Player};
use control::search::SearchContext;

/// An engine of a match: the project's, in process, or an outside program.
pub enum Contender<G: Game> {
    /// In process.
    Own(Player<G>),
    /// An outside program behind a protocol client.
    Outside(Outside<G>),
}

impl<G: Game> From<Player<G>> for Contender<G> {
    fn from(p: Player<G>) -> Self {
        Contender::Own(p)
    }
}

impl<G: Game> From<Outside<G>> for Contender<G> {
    fn from(o: Outside<G>) -> Self {
        Contender::Outside(o)
    }
}

impl<G: Game> Contender<G> {
    /// How it searches: `pvs`, `abdada/2`, or the protocol and program, `uci:stockfish`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Contender::Own(p) => p.method().describe(),
            Contender::Outside(o) => o.describe(),
        }
    }

    /// Forgets what earlier games taught an in-process engine (an outside one is told at the
    /// start of the next game).
    pub fn clear(&mut self) {
        if let Contender::Own(p) = self {
            p.clear();
        }
    }
}

/// An engine in a match with its timing record.
pub struct Seat<G: Game> {
    /// The name in reports.
    pub name: String,
    /// The engine.
    pub engine: Contender<G>,
    /// Moves played.
    pub moves: u64,
    /// Moves whose thinking took longer than the time per move.
    pub over_time: u64,
    /// The longest time one move took.
    pub longest: Duration,
    /// Total thinking time.
    pub total: Duration,
    /// Games lost by giving no legal move (an illegal or unparsable one, or none).
    pub illegal: u64,
    /// Games lost because the program crashed (or could not be started).
    pub crashes: u64,
    /// Games lost because the program gave no answer within the time per move and the grace.
    pub hangs: u64,
    /// Games lost because the program broke its protocol or refused the game.
    pub protocol: u64,
}

impl<G: Game> Seat<G> {
    /// A seat for `engine` named `name`.
    pub fn new(name: String, engine: impl Into<Contender<G>>) -> Self {
        Seat {
            name,
            engine: engine.into(),
            moves: 0,
            over_time: 0,
            longest: Duration::ZERO,
            total: Duration::ZERO,
            illegal: 0,
            crashes: 0,
            hangs: 0,
            protocol: 0,
        }
    }

    /// How often an outside program was started again after the first time.
    #[must_use]
    pub fn restarts(&self) -> u64 {
        match &self.engine {
            Contender::Outside(o) => o.starts().saturating_sub(1),
            Contender::Own(_) => 0,
        }
    }

    /// Counts one move that took `took`.
    fn timed(&mut self, took: Duration, per_move: Option<Duration>) {
        self.moves += 1;
        self.total += took;
        self.longest = self.longest.max(took);
        if per_move.is_some_and(|t| took > t) {
            self.over_time += 1;
        }
    }

    /// Counts `fault` and says how the game ends.
    fn forfeit(&mut self, side: Side, fault: &Fault) -> Forfeit {
        match fault {
            Fault::Spawn(_) | Fault::Crash(_) => self.crashes += 1,
            Fault::Hang(_) => self.hangs += 1,
            Fault::Illegal { .. } => self.illegal += 1,
            Fault::Protocol(_) | Fault::Refused(_) => self.protocol += 1,
        }
        Forfeit {
            engine: self.name.clone(),
            side,
            kind: fault.kind(),
            detail: fault.to_string(),
        }
    }
}

/// A game lost without being played out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The engine that lost it.
    pub engine: String,
    /// Its side.
    pub side: Side,
    /// `crash`, `hang`, `illegal`, `protocol` or `refused` ([`Fault::kind`]).
    pub kind: &'static str,
    /// What happened, in words.
    pub detail: String,
}

/// How one game went.
pub struct Played<M> {
    /// The moves.
    pub moves: Vec<M>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub reason: String,
    /// The forfeit that ended it, if one did.
    pub forfeit: Option<Forfeit>,
}

/// The result when `loser` loses.
fn loss_of(loser: Side) -> GameResult {
    match loser {
        Side::First => GameResult::SecondWins,
        Side::Second => GameResult::FirstWins,
    }
}

/// The result of a finished position with `outcome` for `mover`, the side to move.
pub fn adjudicate(outcome: Outcome, mover: Side) -> GameResult {
    match outcome {
        Outcome::Win => loss_of(mover.opponent()),
        Outcome::Loss => loss_of(mover),
        Outcome::Draw => GameResult::Draw,
        Outcome::Value(v) if v > 0 => loss_of(mover.opponent()),
        Outcome::Value(v) if v < 0 => loss_of(mover),
        Outcome::Value(_) => GameResult::Draw,
    }
}

/// The game `moves` played so far, ended by `forfeit`.
fn forfeited<M>(moves: Vec<M>, forfeit: Forfeit) -> Played<M> {
    Played {
        moves,
        result: loss_of(forfeit.side),
        reason: format!("{} forfeits: {}", forfeit.engine, forfeit.detail),
        forfeit: Some(forfeit),
    }
}

/// Plays `opening` to the end under `plan`, the engine in `first` playing [`Side::First`]
/// (White in chess, whoever is to move in the opening); a move taking longer than the time per
/// move counts as over time, and an outside engine's answer is awaited for the time per move
/// and [`Plan::grace`] (the grace alone without a time per move).
///
/// # Errors
/// When an in-process engine's search fails (a parallel runtime error).
pub fn play<G: Game>(
    opening: &Opening<G>,
    first: &mut Seat<G>,
    second: &mut Seat<G>,
    plan: &Plan,
) -> Result<Played<G::Move>> {
    let (budget, per_move) = (&plan.budget, plan.per_move);
    let terms = Terms {
        movetime: budget.time,
        depth: budget.depth,
    };
    let limit = per_move.map_or(plan.grace, |t| t + plan.grace);
    for (seat, side) in [(&mut *first, Side::First), (&mut *second, Side::Second)] {
        if let Contender::Outside(o) = &mut seat.engine {
            if let Err(fault) = o.new_game(&terms) {
                return Ok(forfeited(Vec::new(), seat.forfeit(side, &fault)));
            }
        }
    }
    let mut pos = opening.pos.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::with_capacity(G::MAX_MOVES);
    let stop = Stop::new();
    loop {
        let mover = pos.side_to_move();
        if let Some(outcome) = pos.outcome() {
            let side = match mover {
                Side::First => "first",
                Side::Second => "second",
            };
            let reason = match outcome {
                Outcome::Win => format!("the side to move ({side}) has won"),
                Outcome::Loss => format!("the side to move ({side}) has lost"),
                Outcome::Draw => "drawn by the rules".to_string(),
                Outcome::Value(v) => format!("ended with value {v} for the side to move ({side})"),
            };
            return Ok(Played {
                moves,
                result: adjudicate(outcome, mover),
                reason,
                forfeit: None,
            });
        }
        if moves.len() >= plan.max_plies {
            return Ok(Played {
                moves,
                result: GameResult::Draw,
                reason: format!("draw adjudicated at the ply limit {}", plan.max_plies),
                forfeit: None,
            });
        }
        let seat = if mover == Side::First {
            &mut *first
        } else {
            &mut *second
        };
        let chosen = match &mut seat.engine {
            Contender::Own(player) => {
                let (best, took) = think(player, &pos, budget, &stop)?;
                seat.timed(took, per_move);
                pos.generate_moves(&mut legal);
                match best.filter(|m| legal.contains(m)) {
                    Some(mv) => mv,
                    None => {
                        let fault = Fault::Illegal {
                            text: best.map_or_else(|| "none".into(), |m| pos.format_move(m)),
                            why: "not one of the legal moves".into(),
                        };
                        let mut f = seat.forfeit(mover, &fault);
                        f.detail = "gave no legal move".into();
                        return Ok(forfeited(moves, f));
                    }
                }
            }
            Contender::Outside(engine) => {
                let so_far = GameSoFar {
                    opening,
                    moves: &moves,
                    pos: &pos,
                };
                let asked = Instant::now();
                let answer = engine.choose(&so_far, &terms, limit);
                match answer {
                    Ok(choice) => {
                        seat.timed(asked.elapsed(), per_move);
                        match choice {
                            Choice::Move(mv) => mv,
                            Choice::Resign => {
                                return Ok(Played {
                                    moves,
                                    result: loss_of(mover),
                                    reason: format!("{} resigns", seat.name),
                                    forfeit: None,
                                });
                            }
                        }
                    }
                    Err(fault) => {
                        if matches!(fault, Fault::Illegal { .. }) {
                            seat.timed(asked.elapsed(), per_move);
                        }
                        return Ok(forfeited(moves, seat.forfeit(mover, &fault)));
                    }
                }
            }
        };
        let _ = pos.make_move(chosen);
        moves.push(chosen);
    }
}

/// An in-process engine's move and the time it took (a simulated engine's on the simulated
/// machine).
fn think<G: Game>(
    player: &mut Player<G>,
    pos: &G,
    budget: &Budget,
    stop: &Stop,
) -> Result<(Option<G::Move>, Duration)> {
    let clock = WallClock::start();
    let thought = player.think(pos, budget, clock, stop, &mut |_| {})?;
    let took = thought.virtual_time.unwrap_or_else(|| clock.elapsed());
    Ok((thought.best_move, took))
}

#[cfg(test)]
mod tests {
    use super::*;
    use control::search::{Algorithm, SearchConfig};
    use games::tictactoe::TicTacToe3;

    use control::engine::Method;

    #[test]
    fn outcomes_are_seen_from_the_side_to_move() {
        assert_eq!(
            adjudicate(Outcome::Loss, Side::First),
            GameResult::SecondWins
        );
        assert_eq!(
            adjudicate(Outcome::Loss, Side::Second),
            GameResult::FirstWins
        );
        assert_eq!(
            adjudicate(Outcome::Win, Side::Second),
            GameResult::SecondWins
        );
        assert_eq!(
            adjudicate(Outcome::Value(-3), Side::Second),
            GameResult::FirstWins
        );
        assert_eq!(adjudicate(Outcome::Value(0), Side::First), GameResult::Draw);
        assert_eq!(adjudicate(Outcome::Draw, Side::First), GameResult::Draw);
    }

    #[test]
    fn perfect_tictactoe_is_a_draw_and_a_weak_engine_loses_or_draws() {
        let seat = |depth_algo: Algorithm| {
            Seat::new(
                depth_algo.name().into(),
                Player::<TicTacToe3>::new(Method::Sequential(depth_algo), SearchConfig::research())
                    .unwrap(),
            )
        };
        let (mut a, mut b) = (seat(Algorithm::Pvs), seat(Algorithm::AlphaBeta));
        let full = Plan::new(1, None, Some(9), 100);
        let start = Opening::at(TicTacToe3::start());
        let g = play(&start, &mut a, &mut b, &full).unwrap();
        assert_eq!(g.result, GameResult::Draw, "{}", g.reason);
        assert_eq!(g.moves.len(), 9);
        assert_eq!(a.moves + b.moves, 9);
        assert!(g.forfeit.is_none());
        // The ply limit adjudicates a draw.
        let g = play(&start, &mut a, &mut b, &Plan::new(1, None, Some(9), 3)).unwrap();
        assert_eq!(g.moves.len(), 3);
        assert!(g.reason.contains("ply limit"));
    }
}
