//! EPD (Extended Position Description) lines: the four FEN position fields followed by
//! operations such as `bm Qd1+; id "BK.01";`.

use super::error::ChessError;
use super::moves::Move;
use super::position::Chess;
use super::san;

/// One EPD record.
#[derive(Clone, Debug)]
pub struct Epd {
    /// The position (halfmove clock 0, fullmove number 1 unless `hmvc`/`fmvn` say otherwise).
    pub position: Chess,
    /// The operations in order: opcode and operands (quotes removed).
    pub operations: Vec<(String, Vec<String>)>,
}

impl Epd {
    /// Parses one EPD line.
    ///
    /// # Errors
    /// [`ChessError::BadEpd`] for a line without four position fields or with an unterminated
    /// quote; any FEN error of the position.
    pub fn parse(line: &str) -> Result<Epd, ChessError> {
        let line = line.trim();
        let mut rest = line;
        let mut fields = Vec::with_capacity(4);
        for _ in 0..4 {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                return Err(ChessError::BadEpd {
                    reason: format!("'{line}' has fewer than the four position fields"),
                });
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        let operations = parse_operations(rest)?;
        let op = |name: &str| {
            operations
                .iter()
                .find(|(o, _)| o == name)
                .and_then(|(_, v)| v.first().cloned())
        };
        let fen = format!(
            "{} {} {}",
            fields.join(" "),
            op("hmvc").unwrap_or_else(|| "0".into()),
            op("fmvn").unwrap_or_else(|| "1".into())
        );
        Ok(Epd {
            position: Chess::from_fen(&fen)?,
            operations,
        })
    }

    /// The operands of `opcode`, if present.
    #[must_use]
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.operations
            .iter()
            .find(|(o, _)| o == opcode)
            .map(|(_, v)| v.as_slice())
    }

    /// The `id` operand, if any.
    #[must_use]
    pub fn id(&self) -> Option<&str> {
        self.operands("id")?.first().map(String::as_str)
    }

    /// The best moves (`bm`, in SAN) resolved to legal moves.
    ///
    /// # Errors
    /// The first `bm` move that does not resolve to exactly one legal move.
    pub fn best_moves(&self) -> Result<Vec<Move>, ChessError> {
        self.operands("bm")
            .unwrap_or_default()
            .iter()
            .map(|text| san::parse_san(self.position.board(), text))
            .collect()
    }
}

fn parse_operations(text: &str) -> Result<Vec<(String, Vec<String>)>, ChessError> {
    let mut ops = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, tokens: &mut Vec<String>| {
        if !word.is_empty() {
            tokens.push(std::mem::take(word));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                flush(&mut word, &mut tokens);
                let mut quoted = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(q) => quoted.push(q),
                        None => {
                            return Err(ChessError::BadEpd {
                                reason: format!("unterminated quote in '{text}'"),
                            });
                        }
                    }
                }
                tokens.push(quoted);
            }
            ';' => {
                flush(&mut word, &mut tokens);
                let mut it = std::mem::take(&mut tokens).into_iter();
                if let Some(opcode) = it.next() {
                    ops.push((opcode, it.collect()));
                }
            }
            c if c.is_whitespace() => flush(&mut word, &mut tokens),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut tokens);
    if !tokens.is_empty() {
        return Err(ChessError::BadEpd {
            reason: format!("operation '{}' is not terminated by ';'", tokens.join(" ")),
        });
    }
    Ok(ops)
}
