//! Fits the weights of the solver's linear presort evaluation
//! (`games::othello::endgame::training::fit_presort`) to the exact scores of a test-set file
//! by least squares, and prints them in discs and in sixteenths of a disc (the unit of
//! `WEIGHTS` in `games/src/othello/endgame/presort.rs`, where they go) with the fit's rms
//! error.
//!
//! ```text
//! cargo run --release -p games --example othello_presort_fit -- [FILE]
//! ```
//!
//! - `FILE`: a test-set file whose every position states `score S`, or the name of one in
//!   `testsets/search` (default `othello_presort_fit.txt`, made by the example
//!   `othello_presort_positions`).

mod common;

use games::othello::Othello8;
use games::othello::endgame::training::fit_presort;

const USAGE: &str = "othello_presort_fit [FILE]";

fn main() {
    let args = common::Args::parse(USAGE, &[], &[]);
    let file = args
        .positional(1)
        .first()
        .map_or("othello_presort_fit.txt", String::as_str);
    let positions: Result<Vec<(Othello8, i32)>, String> =
        common::read_scored("othello_presort_fit", file)
            .into_iter()
            .map(|(pos, score)| score.map(|s| (pos, s)).ok_or(format!("{pos} has no score")))
            .collect();
    let positions = positions.unwrap_or_else(|e| {
        eprintln!(
            "othello_presort_fit: {}: {e}",
            common::testset_path(file).display()
        );
        std::process::exit(1);
    });
    let fit = fit_presort(&positions);
    println!("weights (discs): {:?}", fit.weights);
    println!(
        "weights (sixteenths): {:?}",
        fit.weights
            .iter()
            .map(|x| (x * 16.0).round() as i32)
            .collect::<Vec<_>>()
    );
    println!(
        "rms error {:.2} discs over {} positions",
        fit.rms, fit.positions
    );
}
