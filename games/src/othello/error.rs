//! The typed errors of Othello position and move text.

/// What can be wrong with an Othello position or move text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OthelloError {
    /// The position text is empty.
    #[error(
        "empty position: write {cells} cells (X, O or -) row by row from a1, a space, then X or O for the side to move"
    )]
    EmptyPosition {
        /// Cells the board has.
        cells: usize,
    },
    /// The position text has no side-to-move field.
    #[error(
        "position '{text}' has no side to move: add a space and X (black) or O (white) after the {cells} cells"
    )]
    MissingSide {
        /// The text given.
        text: String,
        /// Cells the board has.
        cells: usize,
    },
    /// The position text has more than two whitespace-separated fields.
    #[error(
        "position has {fields} fields but needs 2: the {cells} cells (no spaces inside) and the side to move"
    )]
    TooManyFields {
        /// Fields found.
        fields: usize,
        /// Cells the board has.
        cells: usize,
    },
    /// The cell field has the wrong number of characters.
    #[error(
        "position has {found} cells but a {size}x{size} board needs {expected} (X, O or - per cell, row by row from a1)"
    )]
    WrongLength {
        /// Cells the board has.
        expected: usize,
        /// Cells the text gave.
        found: usize,
        /// Board side length.
        size: usize,
    },
    /// A character that is not a cell.
    #[error("bad cell '{ch}' at {square} (cell {index}); use X (black), O (white) or - (empty)")]
    BadCell {
        /// The character.
        ch: char,
        /// Its index among the cells (0-based, a1 = 0).
        index: usize,
        /// Its square name.
        square: String,
    },
    /// The side-to-move field is not `X` or `O`.
    #[error("bad side to move '{text}'; use X (black) or O (white)")]
    BadSide {
        /// The text given.
        text: String,
    },
    /// One of the four centre squares is empty (they are filled from the start and never
    /// emptied).
    #[error(
        "centre square {square} is empty, but the four centre squares are never empty in Othello"
    )]
    EmptyCentre {
        /// The square's name.
        square: String,
    },
    /// The move text is neither a square name nor `pass`.
    #[error(
        "bad move '{text}': write a square as a file letter and rank number, like d3, or 'pass'"
    )]
    BadMove {
        /// The text given.
        text: String,
    },
    /// The square is outside the board.
    #[error("move '{text}' is off the {size}x{size} board (files a-{last_file}, ranks 1-{size})")]
    OffBoard {
        /// The text given.
        text: String,
        /// Board side length.
        size: usize,
        /// The last file letter.
        last_file: char,
    },
    /// The square is occupied.
    #[error("illegal move '{text}': that square is already occupied")]
    Occupied {
        /// The text given.
        text: String,
    },
    /// The move turns no disc.
    #[error("illegal move '{text}': it outflanks no disc (legal moves: {legal})")]
    NoFlips {
        /// The text given.
        text: String,
        /// The legal moves, space-separated.
        legal: String,
    },
    /// A pass while the side to move has a move.
    #[error(
        "illegal pass: the side to move has legal moves ({legal}); passing is allowed only without one"
    )]
    PassWithMoves {
        /// The legal moves, space-separated.
        legal: String,
    },
    /// A square move while the side to move has none and must pass.
    #[error("illegal move '{text}': the side to move has no legal move and must 'pass'")]
    MustPass {
        /// The text given.
        text: String,
    },
    /// The game is over.
    #[error("illegal move '{text}': the game is over (neither side can move)")]
    GameOver {
        /// The text given.
        text: String,
    },
}
