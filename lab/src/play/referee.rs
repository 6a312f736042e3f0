//! One game between two engines: moves are asked for in turn, checked legal, timed, and the
//! game ends when the `Game` trait says so (or at the ply limit, as a draw).

use std::time::Duration;

use anyhow::Result;
use games::{Game, Outcome, Side};

use super::record::GameResult;
use control::engine::Stop;
use control::engine::WallClock;
use control::engine::{Budget, Player};
use control::search::SearchContext;

/// An engine in a match with its timing record.
pub struct Seat<G: Game> {
    /// The name in reports.
    pub name: String,
    /// The engine.
    pub player: Player<G>,
    /// Moves played.
    pub moves: u64,
    /// Moves whose thinking took longer than the time per move.
    pub over_time: u64,
    /// The longest time one move took.
    pub longest: Duration,
    /// Total thinking time.
    pub total: Duration,
    /// Games lost by giving no legal move.
    pub illegal: u64,
}

impl<G: Game> Seat<G> {
    /// A seat for `player` named `name`.
    pub fn new(name: String, player: Player<G>) -> Self {
        Seat {
            name,
            player,
            moves: 0,
            over_time: 0,
            longest: Duration::ZERO,
            total: Duration::ZERO,
            illegal: 0,
        }
    }
}

/// How one game went.
pub struct Played<M> {
    /// The moves.
    pub moves: Vec<M>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub reason: String,
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

/// Plays `start` to the end, the engine in `first` playing [`Side::First`] (White in chess,
/// whoever is to move in `start`); a move taking longer than `per_move` counts as over time.
///
/// # Errors
/// When an engine's search fails (a parallel runtime error).
pub fn play<G: Game>(
    start: &G,
    first: &mut Seat<G>,
    second: &mut Seat<G>,
    budget: &Budget,
    per_move: Option<Duration>,
    max_plies: usize,
) -> Result<Played<G::Move>> {
    let mut pos = start.clone();
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
            });
        }
        if moves.len() >= max_plies {
            return Ok(Played {
                moves,
                result: GameResult::Draw,
                reason: format!("draw adjudicated at the ply limit {max_plies}"),
            });
        }
        let seat = if mover == Side::First {
            &mut *first
        } else {
            &mut *second
        };
        let clock = WallClock::start();
        let thought = seat.player.think(&pos, budget, clock, &stop, &mut |_| {})?;
        // A simulated engine's time is the simulated machine's.
        let took = thought.virtual_time.unwrap_or_else(|| clock.elapsed());
        seat.moves += 1;
        seat.total += took;
        seat.longest = seat.longest.max(took);
        if per_move.is_some_and(|t| took > t) {
            seat.over_time += 1;
        }
        pos.generate_moves(&mut legal);
        let Some(mv) = thought.best_move.filter(|m| legal.contains(m)) else {
            seat.illegal += 1;
            return Ok(Played {
                moves,
                result: loss_of(mover),
                reason: format!("{} gave no legal move", seat.name),
            });
        };
        let _ = pos.make_move(mv);
        moves.push(mv);
    }
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
        let full = Budget {
            depth: Some(9),
            ..Budget::default()
        };
        let g = play(&TicTacToe3::start(), &mut a, &mut b, &full, None, 100).unwrap();
        assert_eq!(g.result, GameResult::Draw, "{}", g.reason);
        assert_eq!(g.moves.len(), 9);
        assert_eq!(a.moves + b.moves, 9);
        // The ply limit adjudicates a draw.
        let g = play(&TicTacToe3::start(), &mut a, &mut b, &full, None, 3).unwrap();
        assert_eq!(g.moves.len(), 3);
        assert!(g.reason.contains("ply limit"));
    }
}
