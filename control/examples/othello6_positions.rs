//! Every distinct 6x6 Othello position `PLIES` plies after the start (passes count as plies;
//! duplicates by hash removed), one per line in the test-set format, in move-generation order.
//! Used to find roots whose search trees have a given size (testsets/search/README.md).
//!
//! `cargo run --release -p control --example othello6_positions -- PLIES`

use std::collections::HashSet;

use games::Game;
use games::othello::Othello6;

fn main() {
    let plies: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        Some(Ok(n)) => n,
        _ => {
            eprintln!("usage: othello6_positions PLIES (a whole number of plies)");
            std::process::exit(2);
        }
    };
    let mut level = vec![Othello6::start()];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &level {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            for mv in moves {
                let mut child = *pos;
                child.make_move(mv);
                if child.outcome().is_none() && seen.insert(child.hash()) {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    for pos in &level {
        println!("{pos}");
    }
}
