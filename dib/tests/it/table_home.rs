//! A shared table that lives in one processor's memory (`CostModel::shared_table_home`): the
//! home spends `shared_serve_ns` on each probe another processor makes while the home searches,
//! and nothing on probes made while it waits for work. The times are exact: the simulator is
//! deterministic.

use dib::backend::sim;
use dib::{Activity, Context, CostModel, Processor, SimConfig, Work};

const NODE_NS: u64 = 1_000;
const SERVE_NS: u64 = 50_000;
const PROBES: u64 = 4;

/// 1 µs nodes, free messages, a 10 µs shared probe, the table in processor 0.
fn model(serve_ns: u64) -> CostModel {
    CostModel {
        node_ns: NODE_NS,
        send_overhead_ns: 0,
        recv_overhead_ns: 0,
        latency_ns: 0,
        shared_probe_ns: 10_000,
        shared_table_ports: 0,
        shared_table_home: Some(0),
        shared_serve_ns: serve_ns,
        notice: None,
        ..CostModel::shared_memory()
    }
}

/// Processor 1 probes the shared table `PROBES` times at time 0 and tells processor 0. With
/// `home_searches`, processor 0 searches 100 slices of 10 nodes meanwhile and finishes after
/// them; otherwise it waits for processor 1's message and finishes on it.
struct Pair {
    home_searches: bool,
    slices: u32,
    done: bool,
}

impl Processor for Pair {
    type Msg = u8;

    fn run(&mut self, ctx: &mut dyn Context<u8>) -> Activity {
        if ctx.id() == 1 {
            if !self.done {
                self.done = true;
                ctx.charge_work(&Work {
                    shared_probes: PROBES,
                    ..Work::search(0)
                });
                ctx.send(0, 1);
            }
            return Activity::Idle { wake_at: None };
        }
        if !self.home_searches {
            if ctx.poll().is_some() {
                ctx.finish();
            }
            return Activity::Idle { wake_at: None };
        }
        ctx.charge(10);
        self.slices += 1;
        if self.slices == 100 {
            ctx.finish();
        }
        Activity::Busy
    }
}

fn home_time(serve_ns: u64, home_searches: bool) -> (u64, u64) {
    let config = SimConfig::new(model(serve_ns), 1);
    let out = sim::run(2, &config, &|_| Pair {
        home_searches,
        slices: 0,
        done: false,
    })
    .expect("run");
    (out.elapsed_ns, out.counters[0].messaging_ns)
}

#[test]
fn the_home_serves_the_others_probes_while_it_searches() {
    let (free, free_messaging) = home_time(0, true);
    assert_eq!(free, 1_000 * NODE_NS);
    let (served, messaging) = home_time(SERVE_NS, true);
    assert_eq!(served, free + PROBES * SERVE_NS);
    assert_eq!(messaging - free_messaging, PROBES * SERVE_NS);
}

#[test]
fn a_waiting_home_serves_in_its_idle_time() {
    assert_eq!(home_time(SERVE_NS, false), home_time(0, false));
}

#[test]
fn serving_needs_a_home() {
    let text = "name = \"x\"\nnode_ns = 1\nsend_overhead_ns = 0\nrecv_overhead_ns = 0\n\
                latency_ns = 0\nshared_probe_ns = 5\nshared_serve_ns = 3\n";
    assert!(CostModel::from_toml(text).is_err());
    let homed = format!("{text}shared_table_home = 0\n");
    assert!(CostModel::from_toml(&homed).is_ok());
}
