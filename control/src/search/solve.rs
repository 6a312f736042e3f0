//! Solving a position exactly with the generic search: alpha-beta (PVS) to the end of the game
//! with a transposition table, no horizon. The value is the game-theoretic one: a win or loss
//! with its distance in plies ([`games::score`]), a draw, or the exact final value of games that
//! end with one ([`games::Outcome::Value`]).
//!
//! Games with a specialised solver (Othello's endgame solver in `games`) are solved by that
//! solver instead; the runner chooses (see `lab/src/solve.rs`).

use games::Game;
use games::score::INFINITY;

use super::context::SearchContext;
use super::limits::{Limits, MAX_DEPTH};
use super::searcher::{SearchError, Searcher};
use super::settings::{Algorithm, SearchConfig, TtMode};
use super::stats::SearchStats;

/// An exact solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<M> {
    /// The game-theoretic value for the side to move.
    pub value: i32,
    /// A best move (`None` when the game is over).
    pub best_move: Option<M>,
    /// A principal variation to the end of the game (as far as the table recalls it).
    pub pv: Vec<M>,
    /// True when every line was searched to the end of the game (false: some line was longer
    /// than the search's maximum depth, or the search was stopped), so the value is proven.
    pub exact: bool,
    /// The counters of the solve.
    pub stats: SearchStats,
}

/// Solves `root` to the end of the game with a table of `tt_mib` MiB. Iterative deepening to a
/// few plies first fills the table and the history with good move ordering; then one search
/// without a horizon (depth [`MAX_DEPTH`]) settles the value.
///
/// # Errors
/// When the table cannot be built.
pub fn solve<G: Game>(
    root: &G,
    tt_mib: usize,
    ctx: &mut dyn SearchContext,
) -> Result<Solution<G::Move>, SearchError> {
    let config = SearchConfig {
        algorithm: Algorithm::Pvs,
        tt_mode: TtMode::Normal,
        tt_mib,
        aspiration: None,
        ..SearchConfig::research()
    };
    let mut searcher = Searcher::<G>::new(config)?;
    let warm = searcher.search(root, &Limits::depth(8), ctx);
    let mut stats = warm.stats;
    if root.outcome().is_some() {
        return Ok(Solution {
            value: warm.value,
            best_move: None,
            pv: Vec::new(),
            exact: true,
            stats,
        });
    }
    searcher.reset_stats();
    let r = searcher.search_window(root, MAX_DEPTH, -INFINITY, INFINITY, ctx);
    let deep = searcher.stats().clone();
    let exact = r.completed && deep.horizon == 0;
    stats.add(&deep);
    Ok(Solution {
        value: r.value,
        best_move: r.pv.first().copied(),
        pv: r.pv,
        exact,
        stats,
    })
}
