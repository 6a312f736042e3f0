//! N-queens counting through DIB: the same count on every backend, processor count, seed and
//! fault plan.

use crate::common;

use dib::Backend;
use dib::examples::nqueens::{Board, NQueens, count_sequential};

const APP: NQueens = NQueens { min_rows: 2 };

#[test]
fn eight_queens_on_1_to_64_simulated_processors() {
    for procs in 1..=64 {
        let seed = 1000 + procs as u64;
        let r = common::run(
            APP,
            Board::empty(8),
            procs,
            &common::sim("shared-memory", seed, ""),
        );
        assert_eq!(r.value, 92, "{procs} processors, seed {seed}");
        let seq = count_sequential(&Board::empty(8)).1;
        if r.total.dib.work_redone == 0 {
            assert_eq!(r.total.backend.nodes, seq, "seed {seed}");
        } else {
            assert!(r.total.backend.nodes >= seq, "seed {seed}");
        }
    }
}

#[test]
fn twelve_queens_on_the_simulator_and_on_threads() {
    for (procs, preset) in [
        (1, "shared-memory"),
        (16, "sun4-pvm"),
        (64, "shared-memory"),
    ] {
        let r = common::run(APP, Board::empty(12), procs, &common::sim(preset, 7, ""));
        assert_eq!(r.value, 14_200, "{procs} processors, {preset}, seed 7");
    }
    for procs in 1..=4 {
        let r = common::run(
            APP,
            Board::empty(10),
            procs,
            &Backend::Threads { seed: procs as u64 },
        );
        assert_eq!(r.value, 724, "{procs} threads");
    }
}

#[test]
fn counts_survive_faults_over_hundreds_of_seeds() {
    let plans = [
        "drop=1/10",
        "dup=1/5,delay=1/5",
        "corrupt=1/8",
        "crash=3@300",
        "crash=2@200+500,drop=1/20",
        "crash=1@100,crash=4@400,drop=1/30,dup=1/30,delay=1/30,corrupt=1/30",
    ];
    let (mut injected, mut crashes, mut redone) = (0, 0, 0);
    for seed in 0..300u64 {
        let plan = plans[seed as usize % plans.len()];
        let procs = 5 + (seed as usize % 12);
        let preset = if seed % 3 == 0 {
            "sun4-pvm"
        } else {
            "shared-memory"
        };
        let n = 6 + (seed % 3) as u8;
        let want = count_sequential(&Board::empty(n)).0;
        let r = common::run(
            APP,
            Board::empty(n),
            procs,
            &common::sim(preset, seed, plan),
        );
        assert_eq!(
            r.value, want,
            "n={n}, {procs} processors, faults {plan}, seed {seed}"
        );
        let f = r.sim.unwrap();
        injected += f.dropped + f.duplicated + f.delayed + f.corrupted;
        crashes += f.crashes;
        redone += r.total.dib.work_redone;
    }
    // The faults really happened, and lost work was really redone.
    assert!(
        injected > 1000 && crashes > 100 && redone > 50,
        "{injected} {crashes} {redone}"
    );
}

#[test]
fn one_seed_gives_one_trace() {
    for seed in [1, 2, 99] {
        let backend = common::sim(
            "shared-memory",
            seed,
            "crash=2@500,drop=1/20,dup=1/20,delay=1/20,corrupt=1/20",
        );
        let a = common::run(APP, Board::empty(9), 12, &backend);
        let b = common::run(APP, Board::empty(9), 12, &backend);
        let (ha, hb) = (a.sim.unwrap(), b.sim.unwrap());
        assert_eq!(ha.trace_hash, hb.trace_hash, "seed {seed}");
        assert_eq!(a.elapsed_ns, b.elapsed_ns, "seed {seed}");
        assert_eq!(a.accounts, b.accounts, "seed {seed}");
        let other = common::run(
            APP,
            Board::empty(9),
            12,
            &common::sim("shared-memory", seed + 1000, ""),
        );
        assert_ne!(ha.trace_hash, other.sim.unwrap().trace_hash);
    }
}

/// The long sweep: 12 queens on every processor count from 1 to 256 and 2,000 faulty seeds.
/// `cargo test --release -p dib --test it nqueens:: -- --ignored`
#[test]
#[ignore = "long sweep; run with --ignored"]
fn long_sweep() {
    for procs in 1..=256 {
        let r = common::run(
            APP,
            Board::empty(12),
            procs,
            &common::sim("shared-memory", procs as u64, ""),
        );
        assert_eq!(r.value, 14_200, "{procs} processors, seed {procs}");
    }
    for seed in 0..2_000u64 {
        let plan = "crash=2@2000,crash=5@4000+3000,drop=1/30,dup=1/30,delay=1/30,corrupt=1/30";
        let procs = 6 + (seed as usize % 60);
        let r = common::run(
            APP,
            Board::empty(10),
            procs,
            &common::sim("sun4-pvm", seed, plan),
        );
        assert_eq!(
            r.value, 724,
            "{procs} processors, faults {plan}, seed {seed}"
        );
    }
}

/// With a retry delay longer than the run, a refused processor waits for the end; with
/// `ask_again_after_work` it asks again once it has worked again (a result of its own made
/// its search runnable).
#[test]
fn a_refused_processor_asks_again_after_working_when_told_to() {
    let backend = common::sim("pdp11", 3, "");
    let run = |again: bool| {
        let config = dib::DibConfig {
            retry_delay_ns: 1 << 50,
            ask_again_after_work: again,
            ..backend.default_config()
        };
        let r = dib::solve(
            std::sync::Arc::new(APP),
            Board::empty(10),
            2,
            &backend,
            Some(config),
        )
        .expect("runs");
        assert_eq!(r.value, 724, "again {again}");
        r
    };
    let (never, again) = (run(false), run(true));
    assert!(
        again.total.dib.requests_sent > never.total.dib.requests_sent,
        "{} against {} requests",
        again.total.dib.requests_sent,
        never.total.dib.requests_sent
    );
}
