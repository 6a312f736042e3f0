//! `runner mpi-bench`: message round-trip latency and one-way throughput between rank 0 and
//! rank 1, measured through the MPI backend's own [`Context`] (serialization, `MPI_Bsend`,
//! probing and the idle back-off included): what a DIB processor sees.

use anyhow::{Context as _, Result};
use clap::Args;
use dib::{Activity, Context, Nanos, ProcId, Processor};
use serde::{Deserialize, Serialize};
use serde_json::json;

use lab::input_error::input;

/// Arguments of `runner mpi-bench` (run under `mpirun -n 2` or more; ranks 0 and 1 take part).
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Payload sizes in bytes, comma-separated.
    #[arg(long, default_value = "0,64,1024,16384,262144")]
    pub sizes: String,
    /// Timed round trips per size (after as many untimed ones as a warm-up, at most 100).
    #[arg(long, default_value_t = 2000)]
    pub round_trips: u32,
    /// Messages per throughput burst.
    #[arg(long, default_value_t = 64)]
    pub burst: u32,
    /// Bursts per size (throughput is the median burst's).
    #[arg(long, default_value_t = 15)]
    pub bursts: u32,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The largest payload accepted (a burst must fit MPI's send buffer).
const MAX_SIZE: usize = 1 << 20;

#[derive(Clone, Debug, Serialize, Deserialize)]
enum BenchMsg {
    Ping(Vec<u8>),
    Pong(Vec<u8>),
    Stream { payload: Vec<u8>, last: bool },
    Ack,
}

/// One payload size's figures.
#[derive(Clone, Debug, Serialize)]
struct Row {
    bytes: usize,
    /// Median round trip (ns).
    round_trip_median_ns: Nanos,
    /// Mean round trip (ns).
    round_trip_mean_ns: Nanos,
    /// Payload bytes per second in the median burst, until the receiver's acknowledgement.
    throughput_bytes_per_s: f64,
    /// Messages per second in the median burst.
    messages_per_s: f64,
}

enum Phase {
    Start,
    Ping {
        size: usize,
        trip: u32,
        sent_at: Nanos,
    },
    Burst {
        size: usize,
        round: u32,
        started: Nanos,
    },
}

struct Bench {
    id: ProcId,
    sizes: Vec<usize>,
    warmup: u32,
    trips: u32,
    burst: u32,
    bursts: u32,
    phase: Phase,
    times: Vec<Nanos>,
    burst_times: Vec<Nanos>,
    rows: Vec<Row>,
}

impl Bench {
    fn ping(&mut self, ctx: &mut dyn Context<BenchMsg>, size: usize, trip: u32) {
        let sent_at = ctx.now();
        ctx.send(1, BenchMsg::Ping(vec![0xA5; self.sizes[size]]));
        self.phase = Phase::Ping {
            size,
            trip,
            sent_at,
        };
    }

    fn start_burst(&mut self, ctx: &mut dyn Context<BenchMsg>, size: usize, round: u32) {
        let started = ctx.now();
        for i in 0..self.burst {
            ctx.send(
                1,
                BenchMsg::Stream {
                    payload: vec![0x5A; self.sizes[size]],
                    last: i + 1 == self.burst,
                },
            );
        }
        self.phase = Phase::Burst {
            size,
            round,
            started,
        };
    }

    /// Rank 0: the next step after a reply.
    fn on_reply(&mut self, ctx: &mut dyn Context<BenchMsg>, msg: &BenchMsg) {
        match (&self.phase, msg) {
            (
                &Phase::Ping {
                    size,
                    trip,
                    sent_at,
                },
                BenchMsg::Pong(_),
            ) => {
                if trip >= self.warmup {
                    self.times.push(ctx.now() - sent_at);
                }
                if trip + 1 < self.warmup + self.trips {
                    self.ping(ctx, size, trip + 1);
                } else {
                    self.start_burst(ctx, size, 0);
                }
            }
            (
                &Phase::Burst {
                    size,
                    round,
                    started,
                },
                BenchMsg::Ack,
            ) => {
                self.burst_times.push((ctx.now() - started).max(1));
                if round + 1 < self.bursts {
                    self.start_burst(ctx, size, round + 1);
                    return;
                }
                self.burst_times.sort_unstable();
                let seconds = self.burst_times[self.burst_times.len() / 2] as f64 / 1e9;
                self.burst_times.clear();
                self.times.sort_unstable();
                let n = self.times.len().max(1) as u64;
                let bytes = self.sizes[size];
                self.rows.push(Row {
                    bytes,
                    round_trip_median_ns: self
                        .times
                        .get(self.times.len() / 2)
                        .copied()
                        .unwrap_or(0),
                    round_trip_mean_ns: self.times.iter().sum::<u64>() / n,
                    throughput_bytes_per_s: (bytes as f64 * f64::from(self.burst)) / seconds,
                    messages_per_s: f64::from(self.burst) / seconds,
                });
                self.times.clear();
                if size + 1 < self.sizes.len() {
                    self.ping(ctx, size + 1, 0);
                } else {
                    ctx.finish();
                }
            }
            _ => {}
        }
    }
}

impl Processor for Bench {
    type Msg = BenchMsg;

    fn run(&mut self, ctx: &mut dyn Context<BenchMsg>) -> Activity {
        if self.id == 0 && matches!(self.phase, Phase::Start) {
            self.ping(ctx, 0, 0);
        }
        while let Some(env) = ctx.poll() {
            match (self.id, env.msg) {
                (1, BenchMsg::Ping(p)) => ctx.send(0, BenchMsg::Pong(p)),
                (1, BenchMsg::Stream { last: true, .. }) => ctx.send(0, BenchMsg::Ack),
                (0, msg) => self.on_reply(ctx, &msg),
                _ => {}
            }
        }
        Activity::Idle { wake_at: None }
    }
}

fn parse_sizes(text: &str) -> Result<Vec<usize>> {
    let sizes: Vec<usize> = text
        .split(',')
        .map(|s| s.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|e| {
            input(
                "--sizes",
                format!("'{text}': {e}; give bytes like 0,64,1024"),
            )
        })?;
    if sizes.is_empty() || sizes.iter().any(|&s| s > MAX_SIZE) {
        return Err(input(
            "--sizes",
            format!("'{text}': give 1 or more sizes of 0 to {MAX_SIZE} bytes"),
        ));
    }
    Ok(sizes)
}

/// Runs `runner mpi-bench`; rank 0 prints the figures.
pub fn run(args: &BenchArgs) -> Result<()> {
    let sizes = parse_sizes(&args.sizes)?;
    if args.round_trips == 0 || args.burst == 0 || args.bursts == 0 {
        return Err(input(
            "--round-trips/--burst/--bursts",
            "must be at least 1",
        ));
    }
    let largest = sizes.iter().copied().max().unwrap_or(0);
    if largest.saturating_mul(args.burst as usize) > dib::backend::mpi::SEND_BUFFER_BYTES / 2 {
        return Err(input(
            "--burst",
            format!(
                "{} messages of {largest} bytes do not fit MPI's send buffer; use a smaller burst",
                args.burst
            ),
        ));
    }
    let session = lab::mpi::start()?;
    if session.size() < 2 {
        return Err(input(
            "mpi-bench",
            "needs 2 or more ranks: run it under `mpirun -n 2`",
        ));
    }
    let warmup = args.round_trips.min(100);
    let factory = |id: ProcId| Bench {
        id,
        sizes: sizes.clone(),
        warmup,
        trips: args.round_trips,
        burst: args.burst,
        bursts: args.bursts,
        phase: Phase::Start,
        times: Vec::new(),
        burst_times: Vec::new(),
        rows: Vec::new(),
    };
    let outcome = dib::backend::mpi::run(1, &factory).context("the MPI benchmark")?;
    if outcome.rank != 0 {
        return Ok(());
    }
    let rows = &outcome.processor.rows;
    if args.json {
        println!(
            "{}",
            json!({
                "ranks": outcome.procs,
                "mpi_library": session.library(),
                "round_trips": args.round_trips,
                "burst": args.burst,
                "bursts": args.bursts,
                "rows": rows,
            })
        );
    } else {
        println!(
            "mpi-bench: ranks 0 <-> 1 of {} ({}); per size {} round trips, {} bursts of {} messages",
            outcome.procs,
            session.library(),
            args.round_trips,
            args.bursts,
            args.burst
        );
        println!("   bytes  rtt median (us)  rtt mean (us)  throughput (MB/s)  messages/s");
        for r in rows {
            println!(
                "{:>8} {:>16.2} {:>14.2} {:>18.1} {:>11.0}",
                r.bytes,
                r.round_trip_median_ns as f64 / 1e3,
                r.round_trip_mean_ns as f64 / 1e3,
                r.throughput_bytes_per_s / 1e6,
                r.messages_per_s
            );
        }
    }
    Ok(())
}
