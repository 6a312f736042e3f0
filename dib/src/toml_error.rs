//! Where a TOML text is wrong, in one line: the `toml` crate's message spans several lines
//! (`invalid table header` then `expected ...`), while a command-line tool answers bad input
//! with one line. [`TomlError`] keeps the line and column of the error and the message with
//! its lines joined.

use std::fmt;

/// A TOML text that does not read: `line L, column C: what is wrong` (1-based, the column
/// counted in characters), on one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TomlError {
    /// The line of the error's start (1-based).
    pub line: usize,
    /// Its column in that line, in characters (1-based).
    pub column: usize,
    /// What is wrong, one line.
    pub message: String,
}

impl TomlError {
    /// The place and message of `err`, an error of reading `text`; the start of the text when
    /// the error has no place.
    #[must_use]
    pub fn new(text: &str, err: &toml::de::Error) -> TomlError {
        let (line, column) = line_and_column(text, err.span().map_or(0, |s| s.start));
        TomlError {
            line,
            column,
            message: one_line(err.message()),
        }
    }
}

impl fmt::Display for TomlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for TomlError {}

/// The 1-based line and character column of byte `offset` of `text` (clamped to the text and
/// to a character boundary).
#[must_use]
pub fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[start..].chars().count() + 1,
    )
}

/// `message` with its lines trimmed, the empty ones dropped, and the rest joined by `; `.
#[must_use]
pub fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_header_is_one_line_with_its_place() {
        let text = "name = \"x\"\n[games\nnode_ns = 1\n";
        let err = toml::from_str::<toml::Table>(text).unwrap_err();
        assert!(err.message().contains('\n'), "{:?}", err.message());
        let e = TomlError::new(text, &err);
        assert_eq!((e.line, e.column), (2, 7), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
        assert!(
            e.to_string()
                .starts_with("line 2, column 7: invalid table header; expected"),
            "{e}"
        );
    }

    #[test]
    fn columns_count_characters_and_offsets_are_clamped() {
        assert_eq!(line_and_column("ab\ncd", 0), (1, 1));
        assert_eq!(line_and_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_and_column("é = 1", 3), (1, 3));
        // Inside a character: its start.
        assert_eq!(line_and_column("é = 1", 1), (1, 1));
        assert_eq!(line_and_column("ab", 99), (1, 3));
        assert_eq!(one_line(" a \n\n b\n"), "a; b");
    }
}
