//! The openings of a match: a position and, where known, the moves that reach it from the
//! game's start position. Engines that only replay moves (GTP has no command to set up a
//! position) need those moves, and so does the Othello transcript.
//!
//! The moves come from the test set's EPD operation `c0` (`c0 "f5 d6 c3 d3 c4 f4";`, the moves
//! from the start in the game's notation, SAN in chess), which `runner openings` writes; they
//! must reach the line's position. An opening without `c0` that such an engine needs is found by
//! [`line_to`], a breadth-first walk from the start over distinct positions.

use std::collections::HashMap;

use anyhow::Result;
use games::{Game, GameInfo};

use crate::input_error::input;
use crate::testset::{TestSet, read_entries};

/// The deepest opening [`line_to`] looks for.
pub const MAX_SEARCHED_PLIES: u32 = 12;

/// The most positions [`line_to`] keeps.
pub const MAX_SEARCHED_POSITIONS: usize = 2_000_000;

/// An opening of a match.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    /// The position the game starts from.
    pub pos: G,
    /// The moves from the game's start position to `pos`, where known.
    pub line: Option<Vec<G::Move>>,
}

impl<G: Game> Opening<G> {
    /// `pos` with no known line; the start position has the empty one.
    pub fn at(pos: G) -> Self {
        let line = (pos == G::start()).then(Vec::new);
        Opening { pos, line }
    }
}

/// The openings of `set` (given with `flag`), each with the line of its `c0` operation.
///
/// # Errors
/// An input error for a position that does not parse, or a `c0` whose moves are illegal or end
/// elsewhere.
pub fn read<G: Game>(flag: &str, set: &TestSet, info: &GameInfo) -> Result<Vec<Opening<G>>> {
    read_entries::<G>(flag, set, info)?
        .into_iter()
        .map(|entry| {
            let mut opening = Opening::at(entry.pos);
            if let Some(text) = operation(&entry.operations, "c0") {
                let at = || format!("{flag} {} line {}: c0", set.display(), entry.line);
                let line = replay::<G>(text).map_err(|e| input(at(), e))?;
                let mut end = G::start();
                for &mv in &line {
                    let _ = end.make_move(mv);
                }
                if end.hash() != opening.pos.hash() {
                    return Err(input(
                        at(),
                        format!("the moves reach {end}, not the line's position"),
                    ));
                }
                opening.line = Some(line);
            }
            Ok(opening)
        })
        .collect()
}

/// Gives every opening its line, searching with [`line_to`] where none is known.
///
/// # Errors
/// An input error naming the first opening whose line is not found.
pub fn complete_lines<G: Game>(flag: &str, openings: &mut [Opening<G>]) -> Result<()> {
    for (i, o) in openings.iter_mut().enumerate() {
        if o.line.is_none() {
            let line =
                line_to(&o.pos, MAX_SEARCHED_PLIES, MAX_SEARCHED_POSITIONS).ok_or_else(|| {
                    input(
                        flag,
                        format!(
                            "opening {} ({}) is not reached within {MAX_SEARCHED_PLIES} plies of the start; an engine that replays moves needs its moves as c0 \"m1 m2 ...\"",
                            i + 1,
                            o.pos
                        ),
                    )
                })?;
            o.line = Some(line);
        }
    }
    Ok(())
}

/// The moves of `text` (separated by spaces), played from the start position.
fn replay<G: Game>(text: &str) -> Result<Vec<G::Move>, String> {
    let mut pos = G::start();
    let mut line = Vec::new();
    for (i, word) in text.split_whitespace().enumerate() {
        let mv = pos
            .parse_move(word)
            .map_err(|e| format!("move {} '{word}': {e}", i + 1))?;
        let _ = pos.make_move(mv);
        line.push(mv);
    }
    Ok(line)
}

/// The value of the EPD operation `name` in `operations` (`name "value";` or `name value;`),
/// without its quotes.
pub fn operation<'a>(operations: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = operations.trim();
    while !rest.is_empty() {
        let (opcode, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let after = after.trim_start();
        // The operands run to the `;` outside quotes.
        let mut quoted = false;
        let end = after
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    quoted = !quoted;
                }
                c == ';' && !quoted
            })
            .map_or(after.len(), |(i, _)| i);
        let operands = after[..end].trim();
        if opcode == name {
            return Some(operands.trim_matches('"'));
        }
        rest = after.get(end + 1..).unwrap_or("").trim_start();
    }
    None
}

/// The moves from the start position to `target`: a breadth-first walk of at most `max_plies`
/// plies that visits each position once (by hash), keeping at most `max_positions`.
pub fn line_to<G: Game>(target: &G, max_plies: u32, max_positions: usize) -> Option<Vec<G::Move>> {
    let start = G::start();
    let goal = target.hash();
    // Each position's parent and the move from it.
    let mut parent: HashMap<u64, (u64, G::Move)> = HashMap::new();
    let mut layer = vec![start.clone()];
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    let mut found = start.hash() == goal;
    for _ in 0..max_plies {
        if found {
            break;
        }
        let mut next = Vec::new();
        for pos in &layer {
            pos.generate_moves(&mut moves);
            for &mv in &moves {
                let mut child = pos.clone();
                let _ = child.make_move(mv);
                let h = child.hash();
                if h == start.hash() || parent.contains_key(&h) {
                    continue;
                }
                parent.insert(h, (pos.hash(), mv));
                if h == goal {
                    found = true;
                }
                next.push(child);
            }
            if parent.len() > max_positions {
                return None;
            }
        }
        layer = next;
    }
    if !found {
        return None;
    }
    let mut line = Vec::new();
    let mut at = goal;
    while at != start.hash() {
        let &(from, mv) = parent.get(&at)?;
        line.push(mv);
        at = from;
    }
    line.reverse();
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::othello::Othello8;

    #[test]
    fn operations_are_found_by_name_with_or_without_quotes() {
        let ops = "id \"Two Knights; quiet\"; c0 \"e4 e5 Nf3\"; bm Nc3;";
        assert_eq!(operation(ops, "c0"), Some("e4 e5 Nf3"));
        assert_eq!(operation(ops, "id"), Some("Two Knights; quiet"));
        assert_eq!(operation(ops, "bm"), Some("Nc3"));
        assert_eq!(operation(ops, "c1"), None);
        assert_eq!(operation("", "c0"), None);
    }

    #[test]
    fn a_line_is_found_for_an_othello_opening_and_replays_to_it() {
        let mut pos = Othello8::start();
        for m in ["f5", "d6", "c3", "d3", "c4"] {
            let mv = pos.parse_move(m).unwrap();
            let _ = pos.make_move(mv);
        }
        let line = line_to(&pos, 8, 100_000).unwrap();
        assert_eq!(line.len(), 5);
        let mut replayed = Othello8::start();
        for &mv in &line {
            let _ = replayed.make_move(mv);
        }
        assert_eq!(replayed, pos);
        assert_eq!(line_to(&Othello8::start(), 8, 10), Some(Vec::new()));
        // Too few plies, or too few positions, find nothing.
        assert_eq!(line_to(&pos, 4, 100_000), None);
        assert_eq!(line_to(&pos, 8, 10), None);
    }

    #[test]
    fn the_built_in_openings_carry_lines_that_reach_them() {
        for (game, set) in [
            (games::GameId::Othello8, "openings_othello"),
            (games::GameId::Chess, "openings_chess"),
            (games::GameId::Checkers, "openings_checkers"),
        ] {
            struct Check(&'static str);
            impl games::GameVisitor for Check {
                type Output = ();
                fn visit<G: Game>(self, info: &'static GameInfo) {
                    let set = TestSet::find("--openings", self.0).unwrap();
                    let openings = read::<G>("--openings", &set, info).unwrap();
                    assert_eq!(openings.len(), 50, "{}", self.0);
                    assert!(openings.iter().all(|o| o.line.is_some()), "{}", self.0);
                }
            }
            game.visit(Check(set));
        }
    }
}
