//! Real-thread speed of `ybw` (delay splitting) against sequential PVS on the Othello
//! middle-game test set: both at the same depth, runs alternated position by position
//! and repeated, medians per position summed.
//!
//! `cargo run --release -p control --example ybw_threads -- [DEPTH] [ROUNDS] [PROCS] [MIN_SPLIT]
//! [POSITIONS] [--sim] [--only pvs|ybw] [--pair] [--pos I]`
//!
//! Defaults: depth 11, 3 rounds, 2 processors, the algorithm's default `min_split_depth`, the
//! 10 positions of `testsets/search/othello_midgame.txt`; `-` stands for a default. The sequential
//! search is the one `runner search --algo pvs --depth D` runs (research setting, 16 MiB
//! exact-depth table, iterative deepening with aspiration windows); `ybw` runs as
//! `runner search --algo ybw --procs N --backend threads` does. Every parallel value is checked
//! against PVS's.
//!
//! With `--sim` ybw runs on the simulator (shared-memory preset, seed 1)
//! instead, and the "wall" figures are virtual: ybw's simulated seconds against PVS's nodes at
//! the preset's cost per node (load-independent).
//!
//! With `--only pvs` or `--only ybw` only that side runs (for a profiler; no ratio). With
//! `--pos I` only position `I` of the set runs (for looking at it alone).
//! With `--pair` the example measures the machine instead: per position, one PVS search
//! alone, then two identical PVS searches (own tables) at once on two threads; the ratio of
//! the pair's node rate to the single one is the most two threads of this code can give here
//! (2.00 on two free cores).
//!
//! Printed: wall seconds (median per position, summed), CPU seconds of the process (user +
//! system, from `/proc/self/stat`, so Linux only; 0 elsewhere), nodes, and the threads'
//! idle and messaging shares from the runtime's accounting; the load average before and after.
//! On a machine shared with other work, the CPU figures are the load-independent ones: a
//! 2-thread run cannot be faster than its CPU time divided by 2.

mod common;

use std::error::Error;
use std::time::Instant;

use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::{Limits, SearchConfig, Searcher, Unlimited};
use dib::{Backend, CostModel, SimConfig};
use games::othello::Othello;

/// CPU seconds (user + system) of this process so far; 0 where `/proc` is missing.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // `rest` starts at field 3, so field k is at index k - 3; 100 ticks a second on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// One timed run: (value, nodes, wall s, cpu s, idle s, messaging s, busy s).
struct Run {
    value: i32,
    nodes: u64,
    wall: f64,
    cpu: f64,
    idle: f64,
    messaging: f64,
    /// ybw only: the protocol's counts summed over processors and iterations.
    dib: Option<dib::ProcAccounts>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

const USAGE: &str = "ybw_threads [DEPTH] [ROUNDS] [PROCS] [MIN_SPLIT] [POSITIONS] [--sim] [--only pvs|ybw] [--pair] [--pos I]";

/// Ends the process with a one-line usage error, exit status 2.
fn usage(message: &str) -> ! {
    eprintln!("{message}; usage: {USAGE}");
    std::process::exit(2);
}

/// The command line: positional numbers (`-` for a default) and the switches.
#[derive(Default)]
struct Args {
    positional: Vec<Option<u64>>,
    sim: bool,
    pair: bool,
    only: Option<String>,
    pos: Option<usize>,
}

fn args() -> Args {
    let mut out = Args::default();
    let mut words = std::env::args().skip(1);
    let value = |name: &str, words: &mut dyn Iterator<Item = String>| {
        words
            .next()
            .unwrap_or_else(|| usage(&format!("--{name} needs a value")))
    };
    while let Some(word) = words.next() {
        match word.as_str() {
            "--sim" => out.sim = true,
            "--pair" => out.pair = true,
            "--only" => match value("only", &mut words).as_str() {
                w @ ("pvs" | "ybw") => out.only = Some(w.to_string()),
                w => usage(&format!("--only {w}: pvs or ybw")),
            },
            "--pos" => {
                let w = value("pos", &mut words);
                out.pos = Some(
                    w.parse()
                        .unwrap_or_else(|e| usage(&format!("--pos {w}: {e}"))),
                );
            }
            "-" => out.positional.push(None),
            w if w.starts_with("--") => usage(&format!("unknown option {w}")),
            w => out.positional.push(Some(
                w.parse().unwrap_or_else(|e| usage(&format!("`{w}`: {e}"))),
            )),
        }
    }
    if out.positional.len() > 5 {
        usage("more than five numbers");
    }
    out
}

fn main() -> Result<(), Box<dyn Error>> {
    let args = args();
    let arg = |i: usize| args.positional.get(i).copied().flatten();
    let depth = u32::try_from(arg(0).unwrap_or(11)).unwrap_or_else(|_| usage("DEPTH too large"));
    let rounds = arg(1).unwrap_or(3) as usize;
    let procs = arg(2).unwrap_or(2) as usize;
    let algo = ParallelAlgo::DelaySplit;
    let min_split =
        arg(3).map(|m| u32::try_from(m).unwrap_or_else(|_| usage("MIN_SPLIT too large")));
    let count = arg(4).unwrap_or(10) as usize;
    let mut positions = common::othello_midgame(count)?;
    if let Some(i) = args.pos {
        // One position of the set (for looking at it alone).
        positions = positions.into_iter().skip(i).take(1).collect();
    }
    let config = SearchConfig::research();
    let simulated = args.sim;
    println!(
        "depth {depth}, {} positions, {rounds} rounds, ybw on {procs} threads (min_split_depth {}), load average {}",
        positions.len(),
        min_split.map_or_else(|| "default".to_string(), |m| m.to_string()),
        load_average()
    );
    if args.pair {
        return pair(&positions, depth, rounds, config);
    }
    let only = args.only;
    let (run_pvs, run_ybw) = (
        only.as_deref() != Some("ybw"),
        only.as_deref() != Some("pvs"),
    );
    let mut pvs: Vec<Vec<Run>> = positions.iter().map(|_| Vec::new()).collect();
    let mut ybw: Vec<Vec<Run>> = positions.iter().map(|_| Vec::new()).collect();
    for round in 0..rounds {
        for (i, pos) in positions.iter().enumerate() {
            // Alternate which goes first, so that neither always meets the same load.
            for first in [round % 2 == 0, round % 2 != 0] {
                if first && run_pvs {
                    let (c0, t0) = (cpu_seconds(), Instant::now());
                    let mut s = Searcher::<Othello<8>>::new(config)?;
                    let r = s.search(pos, &Limits::depth(depth), &mut Unlimited);
                    let nodes = r.stats.nodes();
                    pvs[i].push(Run {
                        value: r.value,
                        nodes,
                        wall: if simulated {
                            CostModel::shared_memory().nodes_ns(0, nodes) as f64 / 1e9
                        } else {
                            t0.elapsed().as_secs_f64()
                        },
                        cpu: cpu_seconds() - c0,
                        idle: 0.0,
                        messaging: 0.0,
                        dib: None,
                    });
                } else if !first && run_ybw {
                    let backend = if simulated {
                        Backend::Sim(SimConfig::new(CostModel::shared_memory(), 1))
                    } else {
                        Backend::Threads { seed: 1 }
                    };
                    let mut o = ParallelOptions::for_algo(algo, depth, procs, backend);
                    o.search = config;
                    o.min_split_depth = min_split.unwrap_or(o.min_split_depth);
                    let (c0, t0) = (cpu_seconds(), Instant::now());
                    let r = search(algo, pos, &o)?;
                    let t = r.total.backend;
                    ybw[i].push(Run {
                        value: r.value,
                        nodes: r.nodes,
                        wall: if simulated {
                            r.seconds
                        } else {
                            t0.elapsed().as_secs_f64()
                        },
                        cpu: cpu_seconds() - c0,
                        idle: t.idle_ns as f64 / 1e9,
                        messaging: t.messaging_ns as f64 / 1e9,
                        dib: Some(r.total),
                    });
                }
            }
            let (p, y) = (pvs[i].last(), ybw[i].last());
            if let (Some(p), Some(y)) = (p, y) {
                if p.value != y.value {
                    return Err(format!(
                        "position {i}: ybw value {} differs from PVS value {}",
                        y.value, p.value
                    )
                    .into());
                }
            }
            let side = |r: Option<&Run>| {
                r.map_or_else(String::new, |r| {
                    format!(
                        "{:.3} s ({:.2} cpu, {} nodes, value {})",
                        r.wall, r.cpu, r.nodes, r.value
                    )
                })
            };
            let extra = y.map_or_else(String::new, |y| {
                format!(", idle {:.3} s, msg {:.4} s", y.idle, y.messaging)
            });
            println!(
                "round {round} pos {i}: pvs {}  ybw {}{extra}",
                side(p),
                side(y)
            );
        }
    }
    let sum = |runs: &[Vec<Run>], f: fn(&Run) -> f64| -> f64 {
        runs.iter()
            .filter(|r| !r.is_empty())
            .map(|r| median(r.iter().map(f).collect()))
            .sum()
    };
    let (pw, yw) = (sum(&pvs, |r| r.wall), sum(&ybw, |r| r.wall));
    let (pc, yc) = (sum(&pvs, |r| r.cpu), sum(&ybw, |r| r.cpu));
    let (pn, yn) = (sum(&pvs, |r| r.nodes as f64), sum(&ybw, |r| r.nodes as f64));
    let (yi, ym) = (sum(&ybw, |r| r.idle), sum(&ybw, |r| r.messaging));
    println!(
        "total (medians): pvs {pw:.3} s wall, {pc:.2} s cpu, {pn:.0} nodes; ybw {yw:.3} s wall, {yc:.2} s cpu, {yn:.0} nodes, idle {yi:.3} s, messaging {ym:.4} s (summed over threads)"
    );
    // The protocol's counts, per round (summed over positions, processors and iterations).
    let runs: Vec<dib::ProcAccounts> = ybw.iter().flatten().filter_map(|r| r.dib).collect();
    let d = dib::ProcAccounts::total(&runs).dib;
    let per = |n: u64| n / rounds.max(1) as u64;
    println!(
        "ybw protocol per round: {} requests ({} granted, {} refused, {} timed out), {} splits, {} aborts, {} updates",
        per(d.requests_sent),
        per(d.requests_granted),
        per(d.requests_refused),
        per(d.requests_timed_out),
        per(d.splits),
        per(d.aborts),
        per(d.updates)
    );
    let rate = |n: f64, c: f64| if c > 0.0 { n / c / 1e6 } else { 0.0 };
    println!(
        "node rate (nodes per cpu second): pvs {:.2} M/s, ybw {:.2} M/s ({:.3} of pvs)",
        rate(pn, pc),
        rate(yn, yc),
        rate(yn, yc) / rate(pn, pc)
    );
    if run_pvs && run_ybw {
        // Every pair was compared above (a difference ends the run with an error).
        println!(
            "values: ybw equal to pvs on all {} positions in all {rounds} rounds",
            positions.len()
        );
        println!(
            "ratio pvs/ybw: wall {:.2}x; cpu-bound {:.2}x (pvs cpu / (ybw cpu / {procs})); nodes {:.3}; load average {}",
            pw / yw,
            pc / (yc / procs as f64),
            yn / pn,
            load_average()
        );
    }
    Ok(())
}

/// The machine's own limit (`--pair`): per position, one PVS search alone, then two
/// identical ones (each with its own table) at once on two threads. Prints the pair's
/// throughput against the single search's: 2.00 on two free cores, less where the two threads
/// share a core, memory bandwidth or a clock budget, or where other work takes a core.
fn pair(
    positions: &[Othello<8>],
    depth: u32,
    rounds: usize,
    config: SearchConfig,
) -> Result<(), Box<dyn Error>> {
    let one = |pos: &Othello<8>| -> Result<u64, String> {
        let mut s = Searcher::<Othello<8>>::new(config).map_err(|e| e.to_string())?;
        Ok(s.search(pos, &Limits::depth(depth), &mut Unlimited)
            .stats
            .nodes())
    };
    let (mut alone, mut both) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let (mut a, mut b) = (0.0, 0.0);
        for pos in positions {
            let t0 = Instant::now();
            one(pos)?;
            a += t0.elapsed().as_secs_f64();
            let t0 = Instant::now();
            let (theirs, mine) = std::thread::scope(|scope| {
                let h = scope.spawn(|| one(pos));
                let mine = one(pos);
                (h.join().map_err(|_| "thread panicked".to_string()), mine)
            });
            theirs??;
            mine?;
            b += t0.elapsed().as_secs_f64();
        }
        println!(
            "round {round}: one search {a:.3} s, two at once {b:.3} s: throughput {:.2}x; load average {}",
            2.0 * a / b,
            load_average()
        );
        alone.push(a);
        both.push(b);
    }
    let (a, b) = (median(alone), median(both));
    println!(
        "pair (medians): one {a:.3} s, two at once {b:.3} s: two threads give {:.2}x one thread's throughput; load average {}",
        2.0 * a / b,
        load_average()
    );
    Ok(())
}
