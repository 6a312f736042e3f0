//! An exact solver of a game's last moves ([`EndgameSolver`]), which the `play` search setting's
//! engine calls instead of (or after) its search when few moves are left
//! ([`crate::Game::endgame_solver`]; Othello's is `othello::endgame::Solver`).
//!
//! A solve may be stopped: the solver asks its `poll` every few thousand nodes and gives up at
//! once, answering `None`, when the poll says so (a deadline passed, a stop was requested). A
//! stopped solve leaves nothing wrong behind (the solver stores no bound it did not prove).

use crate::Game;

/// What a finished solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// The final value for the side to move in the game's own unit (Othello: the disc
    /// difference, empties to the winner), exact when it lies strictly inside the window;
    /// otherwise fail-soft, an upper bound (at or below alpha) or a lower bound (at or above
    /// beta).
    pub value: i32,
    /// A move reaching `value` (meaningful when it is exact or a lower bound); `None` when the
    /// game is over.
    pub best_move: Option<M>,
    /// Positions visited.
    pub nodes: u64,
}

/// Asked with the solve's node count every few thousand nodes; `true` stops the solve.
pub type Poll = Box<dyn FnMut(u64) -> bool + Send>;

/// An exact solver of a game's endings, kept by an engine from move to move (its table
/// holds facts about positions, valid whatever the window).
pub trait EndgameSolver<G: Game>: Send {
    /// How many moves at most are left to the end of the game from `pos` (Othello: the empty
    /// squares, passes aside): what an engine compares with its reach.
    fn moves_left(&self, pos: &G) -> u32;

    /// Solves `pos` within the window `(alpha, beta)`; `None` when `poll` stopped it.
    fn solve(&mut self, pos: &G, alpha: i32, beta: i32, poll: Poll) -> Option<Solved<G::Move>>;

    /// Forgets what earlier solves learnt (a new game).
    fn clear(&mut self);
}
