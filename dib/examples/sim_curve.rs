//! The simulated efficiency curve of DIB on N-queens counting, 1 to 256 processors, and the
//! simulator's own speed (simulated nodes per real second against the sequential count).
//!
//! `cargo run --release -p dib --example sim_curve -- [N] [PRESET] [SEED]`
//! (defaults: 13, shared-memory, 1). Efficiency is T(sequential) / (P x T(P)), where the
//! sequential time is the sequential node count times the preset's cost per node.

use std::sync::Arc;
use std::time::Instant;

use dib::examples::nqueens::{Board, NQueens, count_sequential};
use dib::{Backend, CostModel, SimConfig, solve};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u8 = args.first().and_then(|s| s.parse().ok()).unwrap_or(13);
    let preset = args.get(1).map_or("shared-memory", String::as_str);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let cost: CostModel = match preset.parse() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let (solutions, seq_nodes) = count_sequential(&Board::empty(n));
    let seq_real = started.elapsed().as_secs_f64();
    let seq_virtual = seq_nodes as f64 * cost.node_ns as f64 / 1e9;
    println!("{n}-queens: {solutions} solutions, {seq_nodes} nodes; preset {cost}; seed {seed}");
    println!(
        "sequential: {seq_virtual:.3} virtual s; {:.1} M nodes/s real",
        seq_nodes as f64 / seq_real / 1e6
    );
    println!(
        "{:>5} {:>10} {:>8} {:>6} {:>11} {:>9} {:>6} {:>6} {:>6} {:>8} {:>12}",
        "procs",
        "virtual s",
        "speedup",
        "eff",
        "nodes",
        "messages",
        "busy%",
        "idle%",
        "msg%",
        "real s",
        "sim Mnode/s"
    );
    for procs in [1, 2, 4, 8, 16, 32, 64, 128, 256] {
        let backend = Backend::Sim(SimConfig::new(cost.clone(), seed));
        let t0 = Instant::now();
        let r = match solve(
            Arc::new(NQueens { min_rows: 3 }),
            Board::empty(n),
            procs,
            &backend,
            None,
        ) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        };
        let real = t0.elapsed().as_secs_f64();
        assert_eq!(r.value, solutions, "seed {seed}");
        let t = &r.total.backend;
        let spent = (t.busy_ns + t.idle_ns + t.messaging_ns).max(1) as f64;
        let speedup = seq_virtual / r.seconds();
        println!(
            "{procs:>5} {:>10.4} {speedup:>8.2} {:>6.3} {:>11} {:>9} {:>6.1} {:>6.1} {:>6.1} {real:>8.3} {:>12.1}",
            r.seconds(),
            speedup / procs as f64,
            t.nodes,
            t.messages_sent,
            100.0 * t.busy_ns as f64 / spent,
            100.0 * t.idle_ns as f64 / spent,
            100.0 * t.messaging_ns as f64 / spent,
            t.nodes as f64 / real / 1e6
        );
    }
}
