//! Search benchmarks: time to a fixed depth over test-set positions for chess (Bratko-Kopec),
//! Othello (middle-game positions) and checkers, in the research and play settings, and the
//! Othello endgame solver on 20 and 22 empties and FFO #40 (20 empties). Each benchmark sets its throughput to the
//! nodes one iteration visits, so criterion's `thrpt` line is nodes per second; every
//! iteration asserts that node count (the searches are deterministic).
//!
//! `cargo bench -p control --bench search` (numbers in `control/src/search/README.md`).

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::path::Path;
use std::time::Duration;

use control::search::{Limits, SearchConfig, Searcher, Setting, Unlimited};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use games::Game;
use games::checkers::Checkers;
use games::chess::Chess;
use games::othello::Othello8;
use games::othello::endgame::Solver;

/// The first `take` positions of `testsets/search/<file>`: each line's first `fields`
/// whitespace-separated fields (EPD operations and labels after them are skipped).
fn positions<G: Game>(file: &str, fields: usize, take: usize) -> Vec<G> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testsets/search")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("a test set file");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(take)
        .map(|l| {
            let head: Vec<&str> = l.split_whitespace().take(fields).collect();
            G::parse_position(&head.join(" ")).unwrap_or_else(|e| panic!("{l}: {e}"))
        })
        .collect()
}

/// Searches every position to `depth` with a fresh searcher; returns the nodes.
fn run<G: Game>(positions: &[G], setting: Setting, depth: u32) -> u64 {
    positions
        .iter()
        .map(|pos| {
            let mut s = Searcher::<G>::new(SearchConfig::for_setting(setting)).expect("table");
            s.search(pos, &Limits::depth(depth), &mut Unlimited)
                .stats
                .nodes()
        })
        .sum()
}

fn bench_game<G: Game>(c: &mut Criterion, name: &str, positions: &[G], depth: u32) {
    let mut group = c.benchmark_group(format!("search/{name}"));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    for setting in [Setting::Research, Setting::Play] {
        let nodes = run(positions, setting, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{setting}_d{depth}"), |b| {
            b.iter(|| assert_eq!(run(positions, setting, depth), nodes));
        });
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    bench_game(
        c,
        "chess_bk6",
        &positions::<Chess>("bratko_kopec.epd", 4, 6),
        5,
    );
    bench_game(
        c,
        "othello_mid5",
        &positions::<Othello8>("othello_midgame.txt", 2, 5),
        7,
    );
    bench_game(
        c,
        "checkers6",
        &positions::<Checkers>("checkers.txt", 1, 6),
        11,
    );
}

fn endgame(c: &mut Criterion) {
    let mut group = c.benchmark_group("othello_endgame");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(5));
    // One position per file (the cheaper of the first two of the 20- and 22-empties files, and
    // FFO #40), solved exactly with a fresh 2^20-entry solver. 24 empties take 10 s and more
    // per solve: too long for a benchmark (see games/src/othello/endgame.rs for those).
    for (file, index, name) in [
        ("othello_end20.txt", 1, "end20_1"),
        ("othello_end22.txt", 1, "end22_1"),
        ("othello_ffo40_59.txt", 0, "ffo40"),
    ] {
        let pos = positions::<Othello8>(file, 2, index + 1)[index];
        let solve = || Solver::<8>::new(20).solve(&pos, -64, 64);
        let first = solve();
        group.throughput(Throughput::Elements(first.nodes));
        group.bench_function(name, |b| {
            b.iter(|| {
                let r = solve();
                assert_eq!((r.score, r.nodes), (first.score, first.nodes));
            });
        });
    }
    group.finish();
}

criterion_group!(benches, search, endgame);
criterion_main!(benches);
