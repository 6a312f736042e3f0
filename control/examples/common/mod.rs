//! What the control examples share: the Othello middle-game test set they measure on.

use std::error::Error;

use games::Game;
use games::othello::Othello;

/// The first `count` positions of `testsets/search/othello_midgame.txt` (run from the
/// workspace root), skipping blank and `#` comment lines.
pub fn othello_midgame(count: usize) -> Result<Vec<Othello<8>>, Box<dyn Error>> {
    othello_set("testsets/search/othello_midgame.txt", count)
}

/// The first `count` positions of the Othello test-set file at `path`, skipping blank and `#`
/// comment lines.
pub fn othello_set(path: &str, count: usize) -> Result<Vec<Othello<8>>, Box<dyn Error>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read test set `{path}`: {e}"))?;
    let positions = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(count)
        .map(|l| Othello::parse_position(l.trim()))
        .collect::<Result<_, _>>()?;
    Ok(positions)
}
