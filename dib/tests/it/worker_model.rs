//! The lower-level worker model on its own: a master/worker protocol written once against
//! `Processor` and `Context` runs unchanged on threads and on the simulator, and the
//! simulator's clock follows the cost model.

use dib::backend::{sim, threads};
use dib::{Activity, Context, CostModel, Processor, SimConfig};

/// Processor 0 hands out the numbers 1..=jobs one at a time to whichever worker asks, and
/// finishes when it has the sum of their squares; workers square (charging `n` nodes each).
struct SumOfSquares {
    jobs: u64,
    next: u64,
    received: u64,
    sum: u64,
    asked: bool,
}

impl SumOfSquares {
    fn new(jobs: u64) -> Self {
        SumOfSquares {
            jobs,
            next: 1,
            received: 0,
            sum: 0,
            asked: false,
        }
    }
}

impl Processor for SumOfSquares {
    /// (kind, number): 0 = "ready", 1 = job, 2 = answer, 3 = no more work.
    type Msg = (u8, u64);

    fn run(&mut self, ctx: &mut dyn Context<(u8, u64)>) -> Activity {
        if ctx.id() == 0 {
            while let Some(env) = ctx.poll() {
                let (kind, n) = env.msg;
                if kind == 2 {
                    self.sum += n;
                    self.received += 1;
                }
                if self.next <= self.jobs {
                    ctx.send(env.from, (1, self.next));
                    self.next += 1;
                } else {
                    ctx.send(env.from, (3, 0));
                }
            }
            if self.received == self.jobs {
                ctx.finish();
            }
            return Activity::Idle { wake_at: None };
        }
        if !self.asked {
            self.asked = true;
            ctx.send(0, (0, 0));
        }
        while let Some(env) = ctx.poll() {
            if env.msg.0 == 1 {
                let n = env.msg.1;
                ctx.charge(n);
                ctx.send(0, (2, n * n));
            }
        }
        Activity::Idle { wake_at: None }
    }
}

fn sum_on_threads(procs: usize, jobs: u64) -> u64 {
    let out = threads::run(procs, 1, &|_| SumOfSquares::new(jobs));
    out.processors[0].sum
}

#[test]
fn one_protocol_on_both_backends() {
    let want: u64 = (1..=50u64).map(|n| n * n).sum();
    for procs in 2..=4 {
        assert_eq!(sum_on_threads(procs, 50), want, "{procs} threads");
    }
    for procs in [2, 3, 9, 33] {
        let config = SimConfig::new(CostModel::shared_memory(), 5);
        let out = sim::run(procs, &config, &|_| SumOfSquares::new(50)).unwrap();
        assert_eq!(out.processors[0].sum, want, "{procs} simulated");
        let nodes: u64 = out.counters.iter().map(|c| c.nodes).sum();
        assert_eq!(nodes, (1..=50).sum::<u64>());
    }
}

#[test]
fn the_simulated_clock_follows_the_cost_model() {
    // One worker: each job costs a round trip plus n nodes; nothing overlaps. With a handling
    // cost, every message costs it once at the sender and once at the receiver.
    for handling in [0, 700] {
        let cost = CostModel {
            message_handling_ns: handling,
            ..CostModel::sun4_pvm()
        };
        let config = SimConfig::new(cost.clone(), 9);
        let jobs = 5;
        let out = sim::run(2, &config, &|_| SumOfSquares::new(jobs)).unwrap();
        let nodes: u64 = (1..=jobs).sum();
        let (send, recv) = (
            cost.send_overhead_ns + handling,
            cost.recv_overhead_ns + handling,
        );
        let per_message = send + cost.latency_ns + recv;
        // Messages: ready, then (job, answer) per job; the master finishes right after sending
        // "no more work" in answer to the last answer (its send overhead counts, not its
        // flight).
        let expected = (1 + 2 * jobs) * per_message + nodes * cost.node_ns + send;
        assert_eq!(out.elapsed_ns, expected, "handling {handling} ns");
        let w = &out.counters[1];
        assert_eq!(w.busy_ns, nodes * cost.node_ns);
        assert_eq!(w.messages_sent, 1 + jobs);
        assert_eq!(w.messaging_ns, (1 + jobs) * send + jobs * recv);
    }
}

#[test]
fn the_simulated_clock_prices_a_message_by_its_words() {
    // Every message of the protocol is 2 bytes of postcard (a kind and a small number): one
    // word of content and 3 of overhead. The sender waits for the link; the receiver pays per
    // word at its own speed (processor 1 is 1.8 times slower).
    let cost = CostModel {
        wire_word_ns: 34_000,
        sender_waits_for_wire: true,
        recv_word_ns: 25_000,
        message_overhead_words: 3,
        send_overhead_ns: 0,
        recv_overhead_ns: 0,
        latency_ns: 100,
        relative_cost_percent: vec![100, 180],
        ..CostModel::shared_memory()
    };
    let config = SimConfig::new(cost.clone(), 9);
    let jobs = 5;
    let out = sim::run(2, &config, &|_| SumOfSquares::new(jobs)).unwrap();
    let send = 4 * 34_000;
    let to_master = send + 100 + 4 * 25_000;
    let to_worker = send + 100 + 4 * 25_000 * 180 / 100;
    let nodes: u64 = (1..=jobs).sum();
    let expected =
        (1 + jobs) * to_master + jobs * to_worker + nodes * cost.node_ns * 180 / 100 + send;
    assert_eq!(out.elapsed_ns, expected);
    let w = &out.counters[1];
    assert_eq!((w.words_sent, w.words_received), (4 * (1 + jobs), 4 * jobs));
    assert_eq!(out.counters[0].words_sent, 4 * (jobs + 1));
    // Sent without waiting, the words' link time moves from the sender to the flight: the
    // same total, since nothing overlaps, but for the last message, whose flight the run
    // does not wait for.
    let flying = CostModel {
        sender_waits_for_wire: false,
        ..cost
    };
    let out = sim::run(2, &SimConfig::new(flying, 9), &|_| SumOfSquares::new(jobs)).unwrap();
    assert_eq!(out.elapsed_ns, expected - send);
    assert_eq!(out.counters[1].messaging_ns, jobs * 4 * 25_000 * 180 / 100);
}
