//! The simulator's background processes: preemption, held messages, the CPU's time,
//! determinism and refused mappings.

use super::*;

/// The processes of the tests: a pinger, a responder and a cruncher (or an observer, a host
/// that answers once and a background process that sends once).
enum Role {
    /// Sends `left` pings to processor 1, one at a time; records each round trip.
    Pinger {
        left: u32,
        sent_at: Nanos,
        rtts: Vec<Nanos>,
    },
    /// Answers every message after charging `nodes`.
    Responder { nodes: u64 },
    /// Charges `nodes` per slice forever.
    Cruncher { nodes: u64 },
    /// Charges `nodes` once, sends one message to processor 0, then idles.
    SendOnce { nodes: u64, done: bool },
    /// Records when the first message from processor 2 is seen, then ends the run; sends one
    /// message to processor 1 at the start.
    Observer {
        started: bool,
        seen_at: Option<Nanos>,
    },
}

impl Processor for Role {
    type Msg = u64;

    fn run(&mut self, ctx: &mut dyn Context<u64>) -> Activity {
        match self {
            Role::Pinger {
                left,
                sent_at,
                rtts,
            } => {
                let arrived = ctx.now();
                let mut answered = false;
                while ctx.poll().is_some() {
                    answered = true;
                }
                if answered {
                    rtts.push(arrived - *sent_at);
                }
                if answered || rtts.is_empty() && *sent_at == 0 {
                    if *left == 0 {
                        ctx.finish();
                    } else {
                        *left -= 1;
                        *sent_at = ctx.now();
                        ctx.send(1, 0);
                    }
                }
                Activity::Idle { wake_at: None }
            }
            Role::Responder { nodes } => {
                while let Some(env) = ctx.poll() {
                    ctx.charge(*nodes);
                    ctx.send(env.from, env.msg);
                }
                Activity::Idle { wake_at: None }
            }
            Role::Cruncher { nodes } => {
                ctx.charge(*nodes);
                Activity::Busy
            }
            Role::SendOnce { nodes, done } => {
                if !*done {
                    *done = true;
                    ctx.charge(*nodes);
                    ctx.send(0, 7);
                }
                Activity::Idle { wake_at: None }
            }
            Role::Observer { started, seen_at } => {
                let now = ctx.now();
                if !*started {
                    *started = true;
                    ctx.send(1, 1);
                }
                while let Some(env) = ctx.poll() {
                    if env.from == 2 && seen_at.is_none() {
                        *seen_at = Some(now);
                        ctx.finish();
                    }
                }
                Activity::Idle { wake_at: None }
            }
        }
    }
}

fn ping_factory(id: ProcId) -> Role {
    match id {
        0 => Role::Pinger {
            left: 20,
            sent_at: 0,
            rtts: Vec::new(),
        },
        1 => Role::Responder { nodes: 5 },
        _ => Role::Cruncher { nodes: 1_000 },
    }
}

fn config(background: Vec<Hosted>) -> SimConfig {
    SimConfig {
        background,
        ..SimConfig::new(CostModel::shared_memory(), 11)
    }
}

fn rtts(out: &RunOutcome<Role>) -> Vec<Nanos> {
    match &out.processors[0] {
        Role::Pinger { rtts, .. } => rtts.clone(),
        _ => Vec::new(),
    }
}

/// Busy + idle + messaging + preempted: all of a process's time to its last clock.
fn whole(c: &BackendCounters) -> Nanos {
    c.busy_ns + c.idle_ns + c.messaging_ns + c.preempted_ns
}

#[test]
fn the_foreground_answers_as_if_alone_while_the_background_crunches() {
    let alone = run(2, &config(Vec::new()), &ping_factory).expect("runs");
    let shared = run(3, &config(vec![Hosted { proc: 2, cpu: 1 }]), &ping_factory).expect("runs");
    let expected = rtts(&alone);
    assert_eq!(expected.len(), 20);
    // A slice of the cruncher lasts 10 ms; a round trip about 0.07 ms. Not one waits for it.
    assert_eq!(rtts(&shared), expected);
    assert_eq!(shared.elapsed_ns, alone.elapsed_ns);
    let (host, guest) = (&shared.counters[1], &shared.counters[2]);
    assert!(guest.nodes >= 1_000, "the background did work: {guest:?}");
    assert!(guest.preempted_ns > 0, "{guest:?}");
    assert_eq!(shared.sim.map(|s| s.preemptions), Some(20));
    // The CPU is never busier than the time that passed on it.
    let cpu_end = whole(host).max(whole(guest));
    assert!(cpu_end >= shared.elapsed_ns);
    assert!(
        host.busy_ns + host.messaging_ns + guest.busy_ns + guest.messaging_ns <= cpu_end,
        "{host:?} {guest:?}"
    );
}

#[test]
fn a_background_process_gets_the_hosts_idle_time_only() {
    // Host 1 answers pings; the cruncher fills the rest of CPU 1 up to the end of its last
    // slice, and nothing more.
    let out = run(3, &config(vec![Hosted { proc: 2, cpu: 1 }]), &ping_factory).expect("runs");
    let (host, guest) = (&out.counters[1], &out.counters[2]);
    let host_busy = host.busy_ns + host.messaging_ns;
    let guest_busy = guest.busy_ns + guest.messaging_ns;
    assert_eq!(
        guest.preempted_ns, host_busy,
        "every host slice fell inside a crunch"
    );
    assert!(host_busy + guest_busy <= whole(guest));
    // The background's last slice may run past the end, never by more than a slice.
    assert!(whole(guest) < out.elapsed_ns + 10_000_000 + host_busy);
}

#[test]
fn held_messages_leave_late_by_the_preemption_before_them() {
    let factory = |id: ProcId| match id {
        0 => Role::Observer {
            started: false,
            seen_at: None,
        },
        1 => Role::Responder { nodes: 10 },
        _ => Role::SendOnce {
            nodes: 100,
            done: false,
        },
    };
    let c = CostModel::shared_memory();
    let out = run(3, &config(vec![Hosted { proc: 2, cpu: 1 }]), &factory).expect("runs");
    let Role::Observer { seen_at, .. } = &out.processors[0] else {
        panic!("processor 0 is the observer");
    };
    // The background computes 100 nodes from 0 and sends at their end; the host receives the
    // observer's message at o_s + L and spends o_r + 10 nodes + o_s on it inside that slice.
    let preempted = c.recv_overhead_ns + 10 * c.node_ns + c.send_overhead_ns;
    let sent = 100 * c.node_ns + c.send_overhead_ns;
    assert_eq!(out.counters[2].preempted_ns, preempted);
    assert_eq!(*seen_at, Some(sent + preempted + c.latency_ns));
    // On CPUs of their own, the message comes without the host's time.
    let own = run(3, &config(Vec::new()), &factory).expect("runs");
    let Role::Observer { seen_at, .. } = &own.processors[0] else {
        panic!("processor 0 is the observer");
    };
    assert_eq!(*seen_at, Some(sent + c.latency_ns));
}

#[test]
fn background_runs_are_reproducible_and_hashed() {
    let shared = config(vec![Hosted { proc: 2, cpu: 1 }]);
    let a = run(3, &shared, &ping_factory).expect("runs");
    let b = run(3, &shared, &ping_factory).expect("runs");
    let hash = |o: &RunOutcome<Role>| o.sim.map(|s| s.trace_hash);
    assert_eq!(hash(&a), hash(&b));
    assert_eq!(a.counters, b.counters);
    let own = run(3, &config(Vec::new()), &ping_factory).expect("runs");
    assert_ne!(
        hash(&a),
        hash(&own),
        "the trace covers the background's events"
    );
    // The same under message faults.
    let mut faulty = shared.clone();
    faulty.faults = "delay=1/3,dup=1/5".parse().expect("a fault plan");
    let a = run(3, &faulty, &ping_factory).expect("runs");
    let b = run(3, &faulty, &ping_factory).expect("runs");
    assert_eq!(hash(&a), hash(&b));
}

#[test]
fn bad_mappings_and_crashes_of_shared_cpus_are_refused() {
    let err = run(3, &config(vec![Hosted { proc: 3, cpu: 1 }]), &ping_factory)
        .err()
        .expect("refused");
    assert!(matches!(
        err,
        SimError::BadBackground {
            problem: BackgroundProblem::OutOfRange,
            ..
        }
    ));
    assert!(err.to_string().contains("process 3"), "{err}");
    for proc in [1, 2] {
        let mut c = config(vec![Hosted { proc: 2, cpu: 1 }]);
        c.faults = format!("crash={proc}@10").parse().expect("a fault plan");
        let err = run(3, &c, &ping_factory).err().expect("refused");
        assert_eq!(err, SimError::SharedCpuCrash { proc, seed: 11 });
        assert!(err.to_string().contains("SimConfig::background"), "{err}");
    }
}
