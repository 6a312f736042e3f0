//! `abdada`: Weill's ABDADA ("Alpha-Bêta Distribué avec Droit d'Aînesse", 1996). Every
//! processor runs the same iterative deepening from the root, sharing one transposition table
//! and, beside it, a count per position of the processors searching that node. A younger child
//! that another processor is searching is put off to a second pass over the node's moves, so
//! that the processors spread over the younger children once the eldest is done (the eldest son
//! keeps its right: it is never put off), and a node's table cutoff returns before the node's
//! count is raised. Processor 0's last completed iteration is the answer. `abdada.md` beside
//! this file quotes the paper and describes the mechanism; the node search is the sequential
//! one's (`search/alphabeta.rs`, with `Searcher::with_busy`), the processors are
//! `shared_table`'s.
//!
//! In the research setting the table runs in exact-depth mode and every child is searched in
//! one pass or the other, so the main search returns exactly the value of sequential alpha-beta
//! at the depth (moves are only reordered), as the agreement tests check.

use games::Game;

use super::shared_table::{self, Scheme};
use super::{ParallelError, ParallelOptions, ParallelResult};

/// Searches `root` to `options.depth` plies with ABDADA on `options.procs` processors.
///
/// # Errors
/// [`ParallelError::BadOption`] when the table is off (the counts live beside it);
/// [`ParallelError::Search`] when the table cannot be built; [`ParallelError::Dib`] when the
/// runtime fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    shared_table::search(Scheme::Abdada, root, options)
}
