//! What can be wrong with a checkers position or move text.

/// A malformed or impossible checkers position, or a malformed or illegal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckersError {
    /// The position text is empty.
    #[error(
        "empty position; write PDN FEN such as B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    )]
    EmptyPosition,
    /// The first field is not the side to move.
    #[error("bad side to move '{found}': the position must start with B or W (then ':')")]
    BadSideToMove {
        /// The first field as given.
        found: String,
    },
    /// A field is neither a piece list (`W...`, `B...`) nor the no-progress counter (`H...`).
    #[error(
        "unknown field '{field}': after the side to move come ':W<squares>' and ':B<squares>' (and optionally ':H<plies>')"
    )]
    UnknownField {
        /// The field as given.
        field: String,
    },
    /// One colour's piece list is missing.
    #[error("the position has no piece list for {colour}; add ':{letter}' followed by its squares")]
    MissingColour {
        /// `White` or `Black`.
        colour: &'static str,
        /// `W` or `B`.
        letter: char,
    },
    /// One colour's piece list appears twice.
    #[error("the piece list of {colour} appears twice; give each colour once")]
    ColourTwice {
        /// `White` or `Black`.
        colour: &'static str,
    },
    /// A piece entry is not a square number, `K` + square, or a range.
    #[error(
        "bad piece entry '{token}' for {colour}: write square numbers 1-32, K before a king, a range like 1-12, separated by commas"
    )]
    BadPieceEntry {
        /// The entry as given.
        token: String,
        /// `White` or `Black`.
        colour: &'static str,
    },
    /// A separator other than `,` between squares (or an empty entry).
    #[error(
        "bad separator in '{token}' for {colour}: separate squares with commas and fields with colons"
    )]
    BadSeparator {
        /// The entry as given.
        token: String,
        /// `White` or `Black`.
        colour: &'static str,
    },
    /// A square number outside 1-32.
    #[error("square {square} of {colour} is off the board; squares are numbered 1 to 32")]
    SquareOutOfRange {
        /// The number given.
        square: u64,
        /// `White` or `Black`.
        colour: &'static str,
    },
    /// A range whose end comes before its start.
    #[error("range '{token}' of {colour} runs backwards; write the smaller square first")]
    BackwardRange {
        /// The entry as given.
        token: String,
        /// `White` or `Black`.
        colour: &'static str,
    },
    /// The same square listed twice for one colour.
    #[error("square {square} is given twice for {colour}")]
    SquareTwice {
        /// The square.
        square: u8,
        /// `White` or `Black`.
        colour: &'static str,
    },
    /// A square listed for both colours.
    #[error("square {square} is given for both White and Black")]
    BothColours {
        /// The square.
        square: u8,
    },
    /// A man on the row where it would have been crowned.
    #[error(
        "{colour} man on square {square}, its crowning row: a man there is a king (write K{square})"
    )]
    ManOnCrowningRow {
        /// The square.
        square: u8,
        /// `White` or `Black`.
        colour: &'static str,
    },
    /// More than 12 pieces of one colour.
    #[error("{colour} has {count} pieces; a side has at most 12")]
    TooManyPieces {
        /// `White` or `Black`.
        colour: &'static str,
        /// How many were given.
        count: u32,
    },
    /// The side that just moved has no pieces (the game ended before this position).
    #[error(
        "{colour} is not to move and has no pieces: the game ended before this position (give {colour} a piece or the move)"
    )]
    NoPiecesForMover {
        /// The side that is not to move.
        colour: &'static str,
    },
    /// The no-progress counter is not a number in range.
    #[error(
        "bad no-progress counter '{text}': write H followed by the plies since the last capture or man move, 0 to {limit}"
    )]
    BadCounter {
        /// The field as given.
        text: String,
        /// The largest value.
        limit: u8,
    },
    /// The move text is empty.
    #[error("empty move; write a step like 11-15 or a capture like 22x15x8")]
    EmptyMove,
    /// The move text has neither `-` nor `x`.
    #[error("move '{text}' has no separator; write a step like 11-15 or a capture like 22x15")]
    MoveWithoutSeparator {
        /// The text given.
        text: String,
    },
    /// The move text mixes `-` and `x`.
    #[error("move '{text}' mixes '-' and 'x'; use '-' for a step and 'x' between every jump")]
    MixedMoveSeparators {
        /// The text given.
        text: String,
    },
    /// A part of the move text is not a square number.
    #[error("move '{text}': '{token}' is not a square number (1-32)")]
    BadMoveSquare {
        /// The text given.
        text: String,
        /// The offending part.
        token: String,
    },
    /// A square of the move is outside 1-32.
    #[error("move '{text}': square {token} is off the board; squares are numbered 1 to 32")]
    MoveSquareOutOfRange {
        /// The text given.
        text: String,
        /// The offending part.
        token: String,
    },
    /// A step (`-`) written with more than two squares.
    #[error("move '{text}': a step has exactly two squares; write captures with 'x' (22x15x8)")]
    StepWithManySquares {
        /// The text given.
        text: String,
    },
    /// The game is over.
    #[error("illegal move '{text}': the game is over")]
    GameOver {
        /// The text given.
        text: String,
    },
    /// The start square does not hold a piece of the side to move.
    #[error("illegal move '{text}': square {square} holds no {colour} piece ({colour} to move)")]
    NotYourPiece {
        /// The text given.
        text: String,
        /// The start square.
        square: u8,
        /// The side to move.
        colour: &'static str,
    },
    /// A non-capture when a capture is compulsory.
    #[error("illegal move '{text}': a capture is compulsory, for example {example}")]
    CaptureCompulsory {
        /// The text given.
        text: String,
        /// One legal capture.
        example: String,
    },
    /// A capture written when there is none.
    #[error("illegal move '{text}': {colour} has no capture here")]
    NoCapture {
        /// The text given.
        text: String,
        /// The side to move.
        colour: &'static str,
    },
    /// A capture sequence stopped while the piece can still jump.
    #[error(
        "illegal move '{text}': the capture must go on (a multi-jump is one move), for example {example}"
    )]
    IncompleteCapture {
        /// The text given.
        text: String,
        /// A complete sequence it begins.
        example: String,
    },
    /// A capture given by start and end square only, which several sequences fit.
    #[error("ambiguous capture '{text}': write every landing square, one of {options}")]
    AmbiguousCapture {
        /// The text given.
        text: String,
        /// The sequences that fit, comma-separated.
        options: String,
    },
    /// Any other move that is not legal here.
    #[error("illegal move '{text}': the legal moves are {legal}")]
    IllegalMove {
        /// The text given.
        text: String,
        /// The legal moves, comma-separated.
        legal: String,
    },
}
