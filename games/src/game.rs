//! The [`Game`] trait: everything a search needs to know about a game.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::score;

/// The two players. `First` moves first from the standard start position
/// (X in tic-tac-toe, Black in Othello and checkers, White in chess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// The player who moves first from the start position.
    First,
    /// The player who moves second.
    Second,
}

impl Side {
    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// `0` for [`Side::First`], `1` for [`Side::Second`]; handy for indexing `[T; 2]`.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The game-theoretic result of a finished game, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost (the usual case: the opponent completed a line,
    /// gave mate, or left the side to move without pieces or moves).
    Loss,
    /// Nobody wins.
    Draw,
    /// The game ended with an exact numeric value for the side to move, inside the
    /// evaluation range (used by synthetic trees whose leaves carry values).
    Value(i32),
}

impl Outcome {
    /// The negamax score of this outcome reached `ply` half-moves below the root of a search:
    /// wins and losses lie outside the evaluation range and prefer faster wins (and slower
    /// losses), see [`score`].
    #[must_use]
    pub const fn score(self, ply: u32) -> i32 {
        match self {
            Outcome::Win => score::win_in(ply),
            Outcome::Loss => score::loss_in(ply),
            Outcome::Draw => score::DRAW,
            Outcome::Value(v) => v,
        }
    }
}

/// A two-player, zero-sum, perfect-information game position.
///
/// A value of the implementing type is one position (including whose turn it is and whatever
/// history the rules need). Every control module is generic over this trait and never asks which
/// game it runs; see `games/README.md` for the steps to add a game.
///
/// # Conventions
/// - **Negamax**: [`Game::evaluate`] and [`Outcome`] are from the point of view of the side to
///   move. Static evaluations lie strictly inside `-score::MAX_EVAL..=score::MAX_EVAL`.
/// - **Make/unmake**: [`Game::make_move`] returns an [`Game::Undo`] token which
///   [`Game::unmake_move`] consumes to restore the position exactly (hash included). A game for
///   which copying is cheaper sets `Undo` to a copy of its state (copy-make behind the same
///   interface); each game's docs say which it chose and why.
/// - **Passes** are ordinary moves where the rules have them (Othello): a position with no
///   legal move is always terminal ([`Game::outcome`] is `Some`).
/// - **No allocation** on the generate/make/unmake path: moves go into a caller-owned buffer
///   that is reused from node to node.
pub trait Game:
    Clone + Debug + Display + PartialEq + Send + Sync + Serialize + DeserializeOwned + 'static
{
    /// A move. Small, `Copy`, and serializable so it can travel in messages.
    type Move: Copy
        + Debug
        + PartialEq
        + Eq
        + Hash
        + Send
        + Sync
        + Serialize
        + DeserializeOwned
        + 'static;

    /// What [`Game::make_move`] returns so that [`Game::unmake_move`] can restore the position.
    type Undo: Clone + Send + 'static;

    /// The typed error of parsing positions and moves of this game.
    type Error: std::error::Error + Send + Sync + 'static;

    /// An upper bound on the number of legal moves in any position, for sizing buffers.
    const MAX_MOVES: usize;

    /// The standard start position.
    fn start() -> Self;

    /// Parses a position in this game's text format (the one [`Display`] prints).
    ///
    /// # Errors
    /// A typed error naming what is wrong with the text.
    fn parse_position(text: &str) -> Result<Self, Self::Error>;

    /// The player to move.
    fn side_to_move(&self) -> Side;

    /// Clears `moves` and fills it with the legal moves of this position (none when the game is
    /// over). Never allocates once `moves` has grown to [`Game::MAX_MOVES`].
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a legal move (one produced by [`Game::generate_moves`] for this position).
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back `mv`, which must be the last move made, using the token it returned.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// `Some` when the game is over, with the result for the side to move.
    fn outcome(&self) -> Option<Outcome>;

    /// Static evaluation from the side to move (negamax), strictly inside
    /// `-score::MAX_EVAL..=score::MAX_EVAL`. Only meaningful when the game is not over.
    fn evaluate(&self) -> i32;

    /// The 64-bit Zobrist hash, updated incrementally by make/unmake.
    fn hash(&self) -> u64;

    /// The Zobrist hash computed from scratch; always equal to [`Game::hash`] (tests check it).
    fn compute_hash(&self) -> u64;

    /// Parses a move in this game's notation and checks that it is legal here.
    ///
    /// # Errors
    /// A typed error saying whether the text is malformed or the move is illegal.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::Error>;

    /// Formats a legal move of this position in this game's notation (the one
    /// [`Game::parse_move`] reads).
    fn format_move(&self, mv: Self::Move) -> String;

    /// A cheap move-ordering hint: larger means "try earlier". Searches may use it; the default
    /// gives no preference.
    fn move_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Clears `moves` and fills it with the moves a quiescence search should try, returning
    /// whether the side to move may instead "stand pat" on the static evaluation.
    ///
    /// Chess: captures and promotions, stand pat allowed (when in check: every evasion, no
    /// stand pat). Checkers: when a capture is compulsory, all captures and no stand pat,
    /// otherwise nothing. The default (no tactical moves, stand pat) turns quiescence off.
    fn generate_tactical(&self, moves: &mut Vec<Self::Move>) -> bool {
        moves.clear();
        true
    }

    /// Whether the side to move is in check (games without check: never). Searches use it for
    /// check extensions and to avoid null moves in check.
    fn in_check(&self) -> bool {
        false
    }

    /// A "null move" (the side to move passes although the rules forbid it), for null-move
    /// pruning in the `play` search setting; `None` (the default) where the game has no such
    /// move or null-move pruning is unsound for it. It is made and unmade with
    /// [`Game::make_move`] and [`Game::unmake_move`], and is never produced by
    /// [`Game::generate_moves`].
    fn null_move(&self) -> Option<Self::Move> {
        None
    }

    /// Whether the side to move has material besides its king and pawns (games without the
    /// notion: always). The `play` search setting tries no null move without it: with only king
    /// and pawns, zugzwang (every move worsens the position) is common and passing would
    /// overrate the position.
    fn has_non_pawn_material(&self) -> bool {
        true
    }

    /// Static exchange evaluation: whether `mv` wins at least `threshold` (in evaluation units)
    /// once the captures it allows on its destination square are played out, each side
    /// capturing with its cheapest piece and free to stop; `None` (the default) where the game
    /// has no such estimate. The `play` search setting orders and prunes captures by it.
    fn see(&self, _mv: Self::Move, _threshold: i32) -> Option<bool> {
        None
    }

    /// The evaluation's size of a small material gain (a pawn in chess), the unit of the `play`
    /// search setting's margins (reverse futility and delta pruning);
    /// `None` (the default) where the evaluation has no such scale, and the search then prunes
    /// nothing by margins.
    fn margin_unit(&self) -> Option<i32> {
        None
    }

    /// ProbCut's model of this position's search values, for ProbCut in the `play` search
    /// setting; `None` (the default) where the game has none. See [`crate::probcut`].
    fn probcut(&self) -> Option<crate::probcut::ProbCut> {
        None
    }

    /// Whether [`Game::move_hint`] is only a static preference among quiet moves (Othello's
    /// square weights) rather than a mark of tactical moves that belong before the killers
    /// (captures in chess and checkers; the default). The `play` search setting, with its
    /// `killers-first` switch, orders killers and history above a static hint and lets late
    /// move reductions reach every move but the table's and the killers.
    fn hint_is_static(&self) -> bool {
        false
    }

    /// The `play` search setting's static evaluation (with its `trained-eval` switch) where the
    /// game has a trained one, stronger and slower than [`Game::evaluate`]; the default is
    /// `evaluate`. The same conventions: negamax, strictly inside `±score::MAX_EVAL`.
    fn evaluate_trained(&self) -> i32 {
        self.evaluate()
    }

    /// A new exact solver of this game's endings, for the `play` search setting's engine
    /// ([`crate::endgame`]); `None` (the default) where the game has none.
    fn endgame_solver() -> Option<Box<dyn crate::endgame::EndgameSolver<Self>>> {
        None
    }

    /// Counts the leaves of the legal-move tree of exactly `depth` plies (finished games before
    /// `depth` contribute nothing), counting the last ply in bulk. Games override this with a
    /// faster specialised version where it pays; the result must not change.
    fn perft(&mut self, depth: u32) -> u64 {
        crate::perft::generic_perft(self, depth)
    }
}
