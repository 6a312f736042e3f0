//! Trains the 8x8 solver's pattern evaluation
//! (`games::othello::endgame::training::train_patterns`) on files of the example
//! `othello_pattern_positions` and writes its weights: per band of empties the linear
//! features by least squares, then the pattern weights by stochastic gradient descent on the
//! residuals, every tenth position held out for validation and the epoch with the lowest
//! validation error kept. It prints the positions and linear weights per band and the
//! training and validation rms error (in discs) per epoch.
//!
//! ```text
//! cargo run --release -p games --example othello_pattern_train -- DATA... [--out PATH]
//!     [--epochs N] [--rate R] [--decay D] [--tie]
//! ```
//!
//! - `DATA`: training files, read one after the other (their order decides which positions
//!   are held out).
//! - `--out`: the weights written (default `games/src/othello/endgame/presort_weights.bin`,
//!   the file the solver builds in).
//! - `--epochs` (default 20), `--rate` (the first epoch's learning rate, default 0.004),
//!   `--decay` (L2 per step, default 0.0001), `--tie` (one pattern table for all bands).
//!
//! The commands that made the weights in use are in `games/src/othello/endgame/README.md`.

mod common;

use games::othello::endgame::training::{PatternTraining, parse_pattern_positions, train_patterns};

const USAGE: &str =
    "othello_pattern_train DATA... [--out PATH] [--epochs N] [--rate R] [--decay D] [--tie]";

fn main() {
    let args = common::Args::parse(USAGE, &["out", "epochs", "rate", "decay"], &["tie"]);
    let files = args.positional(usize::MAX);
    if files.is_empty() {
        args.fail("no training file");
    }
    let out: String = args.value(
        "out",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/othello/endgame/presort_weights.bin"
        )
        .to_string(),
    );
    let default = PatternTraining::default();
    let config = PatternTraining {
        epochs: args.value("epochs", default.epochs),
        rate: args.value("rate", default.rate),
        decay: args.value("decay", default.decay),
        tie: args.switch("tie"),
    };
    let mut samples = Vec::new();
    for file in files {
        let read = std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| parse_pattern_positions(&text).map_err(|e| e.to_string()));
        match read {
            Ok(more) => samples.extend(more),
            Err(e) => {
                eprintln!("othello_pattern_train: {file}: {e}");
                std::process::exit(1);
            }
        }
    }
    let blob = train_patterns(&samples, &config, |line| println!("{line}"));
    if let Err(e) = std::fs::write(&out, blob) {
        eprintln!("othello_pattern_train: cannot write {out}: {e}");
        std::process::exit(1);
    }
    println!("wrote {out}");
}
