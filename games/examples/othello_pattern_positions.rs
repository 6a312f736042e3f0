//! Writes training positions of the 8x8 solver's pattern evaluation
//! (`games::othello::endgame::training::pattern_positions`): games from the start, random with a
//! per-game probability of 1/2 to 1/8 per move and otherwise greedy by the evaluation, with
//! about a third of their positions with the chosen empties solved exactly.
//!
//! ```text
//! cargo run --release -p games --example othello_pattern_positions -- [OUT] [--threads T]
//!     [--seconds S] [--seed X] [--empties LO,HI]
//! ```
//!
//! - `OUT`: the file written (default `pattern_train.txt`), one position a line: the two
//!   bitboards (side to move, opponent) in hex and the exact score.
//! - `--threads` (default 2), `--seconds` (default 60): how long each of how many threads
//!   plays and solves; the number of positions depends on it.
//! - `--seed` (default 5), `--empties` (default `12,20`, at most 31): what is generated.
//!
//! The files are the input of the example `othello_pattern_train`; the commands that made
//! the weights in use are in `games/src/othello/endgame/README.md`.

mod common;

use games::othello::endgame::training::{PatternPositions, pattern_positions};

const USAGE: &str =
    "othello_pattern_positions [OUT] [--threads T] [--seconds S] [--seed X] [--empties LO,HI]";

fn main() {
    let args = common::Args::parse(USAGE, &["threads", "seconds", "seed", "empties"], &[]);
    let out = args
        .positional(1)
        .first()
        .map_or("pattern_train.txt", String::as_str);
    let default = PatternPositions::default();
    let [lo, hi] = args
        .list("empties")
        .unwrap_or([*default.empties.start(), *default.empties.end()]);
    if lo > hi || hi > 31 {
        args.fail(format!("--empties {lo},{hi}: need LO <= HI <= 31"));
    }
    let config = PatternPositions {
        threads: args.value("threads", default.threads),
        seconds: args.value("seconds", default.seconds),
        seed: args.value("seed", default.seed),
        empties: lo..=hi,
    };
    let text = pattern_positions(&config);
    println!("{} positions", text.lines().count());
    if let Err(e) = std::fs::write(out, text) {
        eprintln!("othello_pattern_positions: cannot write {out}: {e}");
        std::process::exit(1);
    }
}
