//! Writes training positions of the solver's linear presort evaluation
//! (`games::othello::endgame::training::presort_positions`): positions with 12 to 16 empties
//! from play that is greedy by the hand-made evaluation three moves in four and uniformly
//! random otherwise, each solved exactly, in the test-set format (`POSITION ; score S
//! empties E`). The generator's seed is fixed.
//!
//! ```text
//! cargo run --release -p games --example othello_presort_positions -- [OUT] [COUNT]
//! ```
//!
//! - `OUT`: the file written (default `/tmp/fit.txt`).
//! - `COUNT`: how many positions (default 2000).
//!
//! `testsets/search/othello_presort_fit.txt` was made this way; the example
//! `othello_presort_fit` fits the weights on it.

mod common;

use games::othello::endgame::training::presort_positions;

const USAGE: &str = "othello_presort_positions [OUT] [COUNT]";

fn main() {
    let args = common::Args::parse(USAGE, &[], &[]);
    let (out, count) = match args.positional(2) {
        [] => ("/tmp/fit.txt", 2000),
        [out] => (out.as_str(), 2000),
        [out, count] => (
            out.as_str(),
            count
                .parse()
                .unwrap_or_else(|e| args.fail(format!("COUNT {count}: {e}"))),
        ),
        _ => unreachable!("at most two positional arguments"),
    };
    if let Err(e) = std::fs::write(out, presort_positions(count)) {
        eprintln!("othello_presort_positions: cannot write {out}: {e}");
        std::process::exit(1);
    }
}
