//! The one error for a name that does not exist: a game, an algorithm, an option's value, a
//! simulator preset. It sits below every other crate of the workspace, so `games` (which
//! re-exports it), `dib` and the crates above them use it for every name they read.

use std::borrow::Cow;

/// The error of naming something that does not exist; the message names what was asked for
/// and the valid names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{given}'; use one of: {valid}")]
pub struct UnknownName {
    /// What was named (e.g. "game", "parallel algorithm", "sorting regime").
    pub what: &'static str,
    /// The text given.
    pub given: String,
    /// The accepted names.
    pub valid: Cow<'static, str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_name_and_the_valid_ones() {
        let e = UnknownName {
            what: "game",
            given: "go".into(),
            valid: "chess, othello".into(),
        };
        assert_eq!(
            e.to_string(),
            "unknown game 'go'; use one of: chess, othello"
        );
    }
}
