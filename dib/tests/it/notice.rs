//! How a busy simulated processor notices a message (`CostModel::notice`): between slices of
//! its own node quantum, by polling every T of its busy time, or at once (an interrupt, after
//! the node in progress). The times are exact: the simulator is deterministic.

use std::sync::Arc;

use dib::backend::sim;
use dib::examples::nqueens::{Board, NQueens, count_sequential};
use dib::{Activity, Backend, Context, CostModel, Notice, Processor, SimConfig, solve};

/// A model with 1 µs nodes, 5 µs on the wire and free message handling.
fn model(notice: Option<Notice>) -> CostModel {
    CostModel {
        node_ns: 1_000,
        send_overhead_ns: 0,
        recv_overhead_ns: 0,
        latency_ns: 5_000,
        notice,
        ..CostModel::shared_memory()
    }
}

/// Processor 0 works in slices of the machine's length (or 256 nodes where the machine does
/// not decide) until a message comes, and finishes when it sees it; processor 1 sends that
/// message at time 0.
struct Worker {
    noticed_at: Option<u64>,
}

impl Processor for Worker {
    type Msg = u8;

    fn run(&mut self, ctx: &mut dyn Context<u8>) -> Activity {
        if ctx.id() == 1 {
            if self.noticed_at.is_none() {
                self.noticed_at = Some(0);
                ctx.send(0, 1);
            }
            return Activity::Idle { wake_at: None };
        }
        if ctx.poll().is_some() {
            self.noticed_at = Some(ctx.now());
            ctx.finish();
            return Activity::Idle { wake_at: None };
        }
        ctx.charge(ctx.slice_nodes().unwrap_or(256));
        Activity::Busy
    }
}

fn noticed_at(notice: Option<Notice>) -> u64 {
    let config = SimConfig::new(model(notice), 1);
    let out = sim::run(2, &config, &|_| Worker { noticed_at: None }).expect("run");
    out.processors[0].noticed_at.expect("noticed")
}

#[test]
fn a_busy_processor_notices_a_message_as_its_machine_does() {
    // Sent at 0, the message arrives at 5 µs.
    assert_eq!(
        noticed_at(None),
        256_000,
        "at the end of a 256-node quantum"
    );
    assert_eq!(
        noticed_at(Some(Notice::Poll { every_ns: 20_000 })),
        20_000,
        "at the first poll after it arrived"
    );
    assert_eq!(
        noticed_at(Some(Notice::Poll { every_ns: 3_000 })),
        6_000,
        "polls at 3 and 6 µs"
    );
    let interrupt = noticed_at(Some(Notice::Interrupt));
    assert!(
        (5_000..=6_000).contains(&interrupt),
        "within one node of its arrival: {interrupt}"
    );
}

#[test]
fn a_slower_processor_polls_after_fewer_nodes() {
    let mut m = model(Some(Notice::Poll { every_ns: 30_000 }));
    m.relative_cost_percent = vec![100, 300];
    let config = SimConfig::new(m, 1);
    let out = sim::run(2, &config, &|_| Worker { noticed_at: None }).expect("run");
    assert_eq!(out.processors[0].noticed_at, Some(30_000));
    let c = &config.cost;
    assert_eq!(
        (c.nodes_within(0, 30_000), c.nodes_within(1, 30_000)),
        (30, 10)
    );
}

/// N-queens on DIB with slow nodes (20 ms, as Marsland and Popowich's boards): every way of
/// noticing gives the right count, the same run for the same seed, and a requester is answered
/// sooner by a machine that interrupts or polls often than by one that looks every 256 nodes.
#[test]
fn dib_answers_requests_as_the_machine_notices_them() {
    let board = Board::empty(7);
    let (count, _) = count_sequential(&board);
    let slow = |notice| CostModel {
        node_ns: 20_000_000,
        latency_ns: 5_000_000,
        send_overhead_ns: 1_000_000,
        recv_overhead_ns: 1_000_000,
        notice,
        ..CostModel::shared_memory()
    };
    let mut times = Vec::new();
    for notice in [
        None,
        Some(Notice::Poll {
            every_ns: 100_000_000,
        }),
        Some(Notice::Interrupt),
    ] {
        for seed in 1..=3 {
            let backend = Backend::Sim(SimConfig::new(slow(notice), seed));
            let run = || {
                solve(Arc::new(NQueens { min_rows: 3 }), board, 4, &backend, None)
                    .unwrap_or_else(|e| panic!("{notice:?} seed {seed}: {e}"))
            };
            let (a, b) = (run(), run());
            assert_eq!(a.value, count, "{notice:?} seed {seed}");
            assert_eq!(
                (a.elapsed_ns, a.sim.map(|s| s.trace_hash)),
                (b.elapsed_ns, b.sim.map(|s| s.trace_hash)),
                "{notice:?} seed {seed}: the same run twice"
            );
            if seed == 1 {
                times.push(a.elapsed_ns);
            }
        }
    }
    assert!(
        times[1] < times[0] && times[2] < times[0],
        "polling every 100 ms or interrupts beat 256 nodes of 20 ms: {times:?}"
    );
}
