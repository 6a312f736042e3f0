//! The solver's test-set files (`testsets/search/othello_*.txt`): one position a line in the
//! text of `Game::parse_position`, optionally followed by `;` and fields, among them
//! `score S`, the exact score for the side to move; blank lines and lines starting with `#`
//! are skipped.

use super::super::{Othello, OthelloError};
use crate::Game;

/// A line of a test-set file that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TestSetError {
    /// The position before the `;` does not parse.
    #[error("line {line}: {source}")]
    Position {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with the position.
        source: OthelloError,
    },
    /// The word after `score` is not a whole number.
    #[error("line {line}: score `{text}` is not a whole number")]
    Score {
        /// The line's number, from 1.
        line: usize,
        /// The word after `score` (empty at the end of the line).
        text: String,
    },
}

/// The positions of a test-set file's `text`, each with the exact score its line states as
/// `score S` (`None` where it states none).
pub fn scored_positions<const N: usize>(
    text: &str,
) -> Result<Vec<(Othello<N>, Option<i32>)>, TestSetError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (position, rest) = line.split_once(';').unwrap_or((line, ""));
        let pos = Othello::<N>::parse_position(position.trim()).map_err(|source| {
            TestSetError::Position {
                line: line_no,
                source,
            }
        })?;
        let mut words = rest.split_whitespace();
        let mut score = None;
        while let Some(w) = words.next() {
            if w == "score" {
                let text = words.next().unwrap_or("");
                score = Some(text.parse().map_err(|_| TestSetError::Score {
                    line: line_no,
                    text: text.to_string(),
                })?);
            }
        }
        out.push((pos, score));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_positions_scores_and_names_bad_lines() {
        let start = Othello::<8>::start().to_string();
        let text = format!("# a comment\n\n{start} ; ffo-1 score -12 empties 60\n{start}\n");
        let set = scored_positions::<8>(&text).expect("a test set");
        assert_eq!(set.len(), 2);
        assert_eq!(set[0], (Othello::start(), Some(-12)));
        assert_eq!(set[1].1, None);
        let bad_score = scored_positions::<8>(&format!("{start} ; score x"));
        assert_eq!(
            bad_score,
            Err(TestSetError::Score {
                line: 1,
                text: "x".to_string()
            })
        );
        let bad_position = scored_positions::<8>("# c\nXO X ; score 2");
        assert!(matches!(
            bad_position,
            Err(TestSetError::Position { line: 2, .. })
        ));
    }
}
