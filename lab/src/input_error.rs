//! The marker for errors in what the user gave (exit status 2), as opposed to failures while
//! running (exit status 1).

use std::fmt;

/// An error in the user's input: a bad name, a malformed position, an out-of-range number.
/// Its message names what is wrong and how to fix it.
#[derive(Debug)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// Turns any displayable error into an [`InputError`] with `context` in front.
pub fn input(context: impl fmt::Display, err: impl fmt::Display) -> anyhow::Error {
    anyhow::Error::new(InputError(format!("{context}: {err}")))
}
