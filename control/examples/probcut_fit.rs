//! Measures 8x8 Othello's ProbCut model (`games::probcut`): the regression of `DEEP`-ply on
//! `SHALLOW`-ply search values over positions of seeded random play, as Buro measured his
//! (deep and shallow values of the same positions, fixed-depth alpha-beta, full window).
//!
//! Positions: `COUNT` games of uniformly random moves from the start, each stopped after a
//! number of plies drawn uniformly from `MIN_PLIES..=MAX_PLIES` (passes count), finished games
//! skipped. The defaults cover the discs at which the checked nodes of the middle-game test
//! set's searches lie (28 discs at the root, checks 6 to 12 plies below it).
//!
//! `cargo run --release -p control --example probcut_fit -- [DEEP SHALLOW COUNT SEED]`
//! (defaults 8 4 400 1) prints the slope, offset and residual deviation to put into
//! `games/src/othello/mod.rs`.

use dib::Rng;
use games::Game;
use games::othello::Othello8;

use control::search::{SearchConfig, Searcher, Unlimited};

const MIN_PLIES: u64 = 26;
const MAX_PLIES: u64 = 44;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u64>())
        .collect::<Result<_, _>>()
        .unwrap_or_else(|_| {
            eprintln!("usage: probcut_fit [DEEP SHALLOW COUNT SEED] (whole numbers)");
            std::process::exit(2);
        });
    let arg = |i: usize, default: u64| args.get(i).copied().unwrap_or(default);
    let (deep, shallow, count, seed) = (arg(0, 8), arg(1, 4), arg(2, 400), arg(3, 1));
    if shallow == 0 || shallow >= deep || count < 3 {
        eprintln!("probcut_fit: need 0 < SHALLOW < DEEP and COUNT >= 3");
        std::process::exit(2);
    }
    let mut rng = Rng::new(seed);
    let mut searcher = Searcher::<Othello8>::new(SearchConfig::research()).expect("a table");
    let mut pairs = Vec::new();
    while pairs.len() < count as usize {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        let mut value = |depth: u64| {
            searcher.clear();
            f64::from(searcher.search_window_value(
                &pos,
                depth as u32,
                -games::score::INFINITY,
                games::score::INFINITY,
                &mut Unlimited,
            ))
        };
        let (s, d) = (value(shallow), value(deep));
        if games::score::is_decisive(s as i32) || games::score::is_decisive(d as i32) {
            continue;
        }
        pairs.push((s, d));
    }
    let n = pairs.len() as f64;
    let mean_s = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_d = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx = pairs.iter().map(|p| (p.0 - mean_s).powi(2)).sum::<f64>();
    let sxy = pairs
        .iter()
        .map(|p| (p.0 - mean_s) * (p.1 - mean_d))
        .sum::<f64>();
    let slope = sxy / sxx;
    let offset = mean_d - slope * mean_s;
    let sse = pairs
        .iter()
        .map(|p| (p.1 - slope * p.0 - offset).powi(2))
        .sum::<f64>();
    let sigma = (sse / (n - 2.0)).sqrt();
    let syy = pairs.iter().map(|p| (p.1 - mean_d).powi(2)).sum::<f64>();
    println!(
        "deep {deep} shallow {shallow}: {} positions (seed {seed}, {MIN_PLIES}-{MAX_PLIES} plies of random play)",
        pairs.len()
    );
    println!(
        "slope {slope:.4}  offset {offset:.2}  sigma {sigma:.2}  correlation {:.4}",
        sxy / (sxx * syy).sqrt()
    );
}

/// A position after a random number of uniformly random moves, or `None` if the game ended.
fn random_position(rng: &mut Rng) -> Option<Othello8> {
    let plies = MIN_PLIES + rng.below(MAX_PLIES - MIN_PLIES + 1);
    let mut pos = Othello8::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            return None;
        }
        pos.generate_moves(&mut moves);
        let mv = moves[rng.below(moves.len() as u64) as usize];
        pos.make_move(mv);
    }
    pos.outcome().is_none().then_some(pos)
}
