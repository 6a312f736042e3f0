//! Prints the perft rate of the `othello` crate 0.1.2 and of ours, side by side, from the 8x8
//! start: `cargo run --release -p games --example othello_perft_rate -- 11`.
//!
//! Both use the same rules (a pass is a ply, finished games count 0) and bulk counting at the
//! last ply; the counts must agree.
use std::time::Instant;

use games::Game;
use games::othello::Othello8;

include!("../benches/support/crate_perft.rs");

fn main() {
    let depth: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 11,
        Some(Ok(d)) => d,
        Some(Err(e)) => {
            eprintln!("usage: othello_perft_rate [DEPTH]: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let theirs = crate_perft(&othello::Game::default(), depth);
    let t_theirs = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let ours = Othello8::start().perft(depth);
    let t_ours = started.elapsed().as_secs_f64();
    println!(
        "othello crate 0.1.2: perft({depth}) = {theirs} in {t_theirs:.3} s, {:.1} M leaves/s",
        theirs as f64 / t_theirs / 1e6
    );
    println!(
        "games othello:       perft({depth}) = {ours} in {t_ours:.3} s, {:.1} M leaves/s",
        ours as f64 / t_ours / 1e6
    );
    if ours != theirs {
        eprintln!("counts differ");
        std::process::exit(1);
    }
}
