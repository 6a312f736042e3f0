//! Checkers move generation speed: the specialised perft (bulk counting, copy-make without
//! hashes) and the generic perft through the `Game` trait (make/unmake with incremental hashes),
//! from the start position. Every iteration asserts the published count it times.
//!
//! `cargo bench -p games --bench checkers`; the deep figure (depth 12, 388,623,673 leaves) comes
//! from `cargo run --release -p runner -- perft --game checkers --depth 12`.

use criterion::{Criterion, Throughput, criterion_main};
use games::Game;
use games::checkers::Checkers;

/// Aart Bik's counts from the start position (testsets/perft/checkers.perft).
const COUNTS: [u64; 11] = [
    1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564,
];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("checkers_perft");
    group.sample_size(20);
    for depth in [8u32, 9] {
        let expected = COUNTS[depth as usize];
        group.throughput(Throughput::Elements(expected));
        group.bench_function(format!("specialised_depth_{depth}"), |b| {
            b.iter(|| {
                let n = Checkers::start().perft(depth);
                assert_eq!(n, expected);
                n
            });
        });
    }
    let depth = 7u32;
    let expected = COUNTS[depth as usize];
    group.throughput(Throughput::Elements(expected));
    group.bench_function(format!("generic_depth_{depth}"), |b| {
        b.iter(|| {
            let n = games::perft::generic_perft(&mut Checkers::start(), depth);
            assert_eq!(n, expected);
            n
        });
    });
    group.bench_function(format!("generic_full_depth_{depth}"), |b| {
        b.iter(|| {
            let n = games::perft::perft_full(&mut Checkers::start(), depth);
            assert_eq!(n, expected);
            n
        });
    });
    group.finish();
}

// `criterion_group!` defines an undocumented public function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::perft);
}
criterion_main!(group::benches);
