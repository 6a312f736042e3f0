//! The positions along a game given as a list of moves in the game's notation (the `moves`
//! line of the records `runner play --pgn` writes for games other than chess).

use crate::Game;

/// A move of the list that does not parse or is illegal where it is played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}, move `{text}`: {source}")]
pub struct ReplayError<E: std::error::Error + 'static> {
    /// Its ply, from 1.
    pub ply: usize,
    /// Its text.
    pub text: String,
    /// The game's own error.
    pub source: E,
}

/// The position before each move of `moves` played from `start`, then the final one:
/// `moves.len() + 1` positions, the one before ply `k` at index `k - 1`.
///
/// # Errors
/// [`ReplayError`] for the first move that does not parse or is illegal.
pub fn replay<G: Game>(start: &G, moves: &[&str]) -> Result<Vec<G>, ReplayError<G::Error>> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len() + 1);
    for (i, &text) in moves.iter().enumerate() {
        out.push(pos.clone());
        let mv = pos.parse_move(text).map_err(|source| ReplayError {
            ply: i + 1,
            text: text.to_string(),
            source,
        })?;
        let _ = pos.make_move(mv);
    }
    out.push(pos);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictactoe::TicTacToe3;

    #[test]
    fn positions_before_each_ply_then_the_last() {
        let start = TicTacToe3::start();
        let all = replay(&start, &["a1", "b2"]).expect("legal");
        assert_eq!(all.len(), 3);
        assert_eq!(all[0], start);
        let mut one = start;
        one.make_move(one.parse_move("a1").expect("legal"));
        assert_eq!(all[1], one);
        let e = replay(&start, &["a1", "a1"]).unwrap_err();
        assert_eq!((e.ply, e.text.as_str()), (2, "a1"));
    }
}
