//! Move-ordering quality of the sequential search on an Othello test set: children searched
//! at nodes that fail high, and how often the best move is searched first.
//!
//! `cargo run --release -p control --example ordering_quality -- DEPTH [SET]` (run from the
//! workspace root; SET defaults to `testsets/search/othello_midgame.txt`). Brockington's thesis,
//! 6.3.1: KEYANO searched 1.10 successors at a type-2 node and the best move first 89-93 % of
//! the time.
mod common;

use std::error::Error;

use control::search::{SearchConfig, Searcher, Unlimited};
use games::score::INFINITY;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).map_or(Ok(10), |s| s.parse())?;
    let positions = match args.get(2) {
        Some(set) => common::othello_set(set, usize::MAX)?,
        None => common::othello_midgame(usize::MAX)?,
    };
    let (mut cuts, mut children, mut first, mut known) = (0, 0, 0, 0);
    for pos in &positions {
        let mut s = Searcher::new(SearchConfig::research())?;
        for d in 1..=depth {
            let _ = s.search_window(pos, d, -INFINITY, INFINITY, &mut Unlimited);
        }
        let st = s.stats();
        cuts += st.cut_nodes;
        children += st.cut_children;
        first += st.best_first;
        known += st.best_known;
    }
    println!(
        "{} positions, depth {depth}: {:.3} children searched per fail-high node, best move first at {:.1} % of the nodes with a best move",
        positions.len(),
        children as f64 / cuts.max(1) as f64,
        100.0 * first as f64 / known.max(1) as f64
    );
    Ok(())
}
