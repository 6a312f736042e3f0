//! The deterministic discrete-event simulator: `N` virtual processors on one core.
//!
//! See `dib/README.md` for the event order, the cost model and the fault model. In short: a
//! processor's slice ([`Processor::run`]) executes atomically at the virtual time its `Ready`
//! event pops; during it, charged nodes and message overheads advance that processor's clock;
//! messages it sends arrive `L` later (plus injected delays); a message is visible to `poll`
//! once its arrival event has popped. Everything random comes from sub-seeds of one seed.

mod cost;
mod event_queue;
mod faults;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use serde::Serialize;

pub use cost::{
    CostModel, GameCosts, Notice, PresetError, SETTABLE_KEYS, SlowLines, preset_list, preset_names,
};
pub use faults::{Crash, FaultPlan, FaultSpecError};

use crate::accounting::BackendCounters;
use crate::backend::RunOutcome;
use crate::context::{Context, Envelope, Nanos, ProcId};
use crate::processor::{Activity, Factory, Processor};
use crate::rng::{Rng, STREAM_FAULTS, STREAM_PROCESSOR, sub_seed};
use crate::trace::{TraceHash, fnv1a};
use crate::work::Work;
use event_queue::EventQueue;

/// Settings of a simulated run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SimConfig {
    /// Costs of nodes and messages.
    pub cost: CostModel,
    /// The master seed: every random choice of the run derives from it.
    pub seed: u64,
    /// Injected faults.
    pub faults: FaultPlan,
    /// A run processing more events than this stops with [`SimError::TooManyEvents`].
    pub max_events: u64,
}

impl SimConfig {
    /// A fault-free run with the given cost model and seed.
    #[must_use]
    pub fn new(cost: CostModel, seed: u64) -> SimConfig {
        SimConfig {
            cost,
            seed,
            faults: FaultPlan::default(),
            max_events: 500_000_000,
        }
    }
}

/// Figures only the simulator has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SimFigures {
    /// The seed of the run (rerun with it to reproduce).
    pub seed: u64,
    /// Hash of the event trace.
    pub trace_hash: u64,
    /// Events processed.
    pub events: u64,
    /// Messages dropped on purpose.
    pub dropped: u64,
    /// Messages delivered twice.
    pub duplicated: u64,
    /// Messages delayed.
    pub delayed: u64,
    /// Messages corrupted (all caught by the checksum and discarded).
    pub corrupted: u64,
    /// Messages lost because the receiver was down.
    pub lost_to_crashes: u64,
    /// Processors crashed.
    pub crashes: u64,
    /// Processors restarted.
    pub restarts: u64,
}

impl SimFigures {
    /// The figures of `self` run after `earlier` (e.g. one iteration after the previous ones):
    /// counts summed, trace hashes chained (the earlier first), the later run's seed kept.
    #[must_use]
    pub fn after(self, earlier: &SimFigures) -> SimFigures {
        let mut bytes = earlier.trace_hash.to_le_bytes().to_vec();
        bytes.extend_from_slice(&self.trace_hash.to_le_bytes());
        SimFigures {
            seed: self.seed,
            trace_hash: crate::trace::fnv1a(&bytes),
            events: self.events + earlier.events,
            dropped: self.dropped + earlier.dropped,
            duplicated: self.duplicated + earlier.duplicated,
            delayed: self.delayed + earlier.delayed,
            corrupted: self.corrupted + earlier.corrupted,
            lost_to_crashes: self.lost_to_crashes + earlier.lost_to_crashes,
            crashes: self.crashes + earlier.crashes,
            restarts: self.restarts + earlier.restarts,
        }
    }
}

/// Why a simulated run failed. Every variant carries the seed that reproduces it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The fault plan crashes a processor that does not exist or holds the root.
    #[error(
        "cannot crash processor {proc}: use 1 to {} (processor 0 holds the root) (seed {seed})",
        procs.saturating_sub(1)
    )]
    BadCrash {
        /// The processor named.
        proc: ProcId,
        /// Processors in the run.
        procs: usize,
        /// The run's seed.
        seed: u64,
    },
    /// No event left and nobody finished: the protocol deadlocked.
    #[error("simulation stalled at {time_ns} ns with no event left (seed {seed})")]
    Stalled {
        /// Virtual time of the stall.
        time_ns: Nanos,
        /// The run's seed.
        seed: u64,
    },
    /// The event limit was reached.
    #[error("simulation passed {events} events without finishing (seed {seed})")]
    TooManyEvents {
        /// Events processed.
        events: u64,
        /// The run's seed.
        seed: u64,
    },
}

/// A message on the simulated wire: typed, or encoded with a checksum when corruption is
/// being injected.
#[derive(Debug)]
enum Frame<M> {
    Plain(M),
    Encoded { bytes: Vec<u8>, checksum: u64 },
}

#[derive(Debug)]
enum Event<M> {
    Ready {
        proc: ProcId,
        generation: u64,
    },
    Arrive {
        to: ProcId,
        from: ProcId,
        frame: Frame<M>,
        /// The message's content in 16-bit words (0 when the model prices messages by count).
        words: u64,
    },
    Crash {
        proc: ProcId,
        restart_after: Option<Nanos>,
    },
    Restart {
        proc: ProcId,
    },
}

struct Slot<M> {
    clock: Nanos,
    generation: u64,
    waiting: bool,
    crashed: bool,
    /// Arrived messages with their content in words.
    inbox: VecDeque<(Envelope<M>, u64)>,
    rng: Rng,
    counters: BackendCounters,
    /// Whether it has probed a shared table (it counts as a user of the table while busy).
    shared_user: bool,
    /// The arrival times of the messages on their way to it (scheduled, not yet arrived).
    arrivals: BinaryHeap<Reverse<Nanos>>,
}

struct SimCtx<'a, M> {
    id: ProcId,
    procs: usize,
    /// Processors using the shared table at the start of this slice, this one included.
    shared_users: u64,
    cost: &'a CostModel,
    /// The earliest virtual time a message not yet in this processor's inbox can arrive:
    /// its next scheduled arrival, or a message any other processor sends from the next event
    /// on (no earlier than that event's time plus the latency).
    horizon: Nanos,
    slot: &'a mut Slot<M>,
    /// Messages sent in this slice: receiver, message, content words, time the send ended.
    outbox: &'a mut Vec<(ProcId, M, u64, Nanos)>,
    finished: &'a mut bool,
    /// Serving time the shared table's home processor owes for probes of other processors
    /// made while it searched; it pays before its next slice.
    home_debt: &'a mut Nanos,
    /// Whether the shared table's home searches (is neither waiting nor crashed) as this slice
    /// starts.
    home_busy: bool,
}

/// The content of `msg` in 16-bit words: its postcard encoding (the MPI backend's wire
/// format), rounded up to whole words.
fn content_words<M: Serialize>(msg: &M) -> u64 {
    let bytes = postcard::to_allocvec(msg).map_or(0, |b| b.len() as u64);
    bytes.div_ceil(cost::WORD_BYTES)
}

/// The longest slice, in nodes, of an interrupted processor with no message in sight (a
/// bound on the simulator's bookkeeping, not on what the processor notices).
const MAX_SLICE_NODES: u64 = 1 << 16;

impl<M: Serialize> Context<M> for SimCtx<'_, M> {
    fn id(&self) -> ProcId {
        self.id
    }
    fn procs(&self) -> usize {
        self.procs
    }
    fn now(&self) -> Nanos {
        self.slot.clock
    }
    fn rng(&mut self) -> &mut Rng {
        &mut self.slot.rng
    }
    fn send(&mut self, to: ProcId, msg: M) {
        let words = if self.cost.sized_messages() {
            content_words(&msg)
        } else {
            0
        };
        let o = self.cost.send_msg_ns(words);
        self.slot.clock += o;
        self.slot.counters.messaging_ns += o;
        self.slot.counters.messages_sent += 1;
        self.slot.counters.words_sent += self.cost.message_words(words);
        self.outbox.push((to, msg, words, self.slot.clock));
    }
    fn poll(&mut self) -> Option<Envelope<M>> {
        let (env, words) = self.slot.inbox.pop_front()?;
        let o = self.cost.recv_msg_ns(self.id, words);
        self.slot.clock += o;
        self.slot.counters.messaging_ns += o;
        self.slot.counters.messages_received += 1;
        self.slot.counters.words_received += self.cost.message_words(words);
        Some(env)
    }
    fn charge(&mut self, nodes: u64) {
        self.charge_work(&Work::search(nodes));
    }
    fn charge_work(&mut self, work: &Work) {
        if work.shared_probes > 0 && !self.slot.shared_user {
            self.slot.shared_user = true;
            self.shared_users += 1;
        }
        if work.shared_probes > 0
            && self.home_busy
            && self.cost.shared_table_home.is_some_and(|h| h != self.id)
        {
            *self.home_debt += work.shared_probes.saturating_mul(self.cost.shared_serve_ns);
        }
        let t = self.cost.work_ns(self.id, work, self.shared_users);
        self.slot.clock += t;
        self.slot.counters.busy_ns += t;
        self.slot.counters.nodes += work.nodes();
        if t > 0 {
            self.slot.counters.last_busy_ns = self.slot.clock;
        }
    }
    fn finish(&mut self) {
        *self.finished = true;
    }
    fn slice_nodes(&self) -> Option<u64> {
        match self.cost.notice? {
            Notice::Poll { every_ns } => Some(self.cost.nodes_within(self.id, every_ns)),
            Notice::Interrupt => {
                let until = self.horizon.saturating_sub(self.slot.clock);
                Some(self.cost.nodes_within(self.id, until).min(MAX_SLICE_NODES))
            }
        }
    }
}

/// The processors using the shared table while `proc` runs a slice: those that have probed it
/// and are not waiting for a message or crashed, `proc` included if it has probed it. Counted
/// only when the model has contention (ports > 0): the count then depends on the event order,
/// which is deterministic.
fn shared_users<M>(slots: &[Slot<M>], proc: ProcId, cost: &CostModel) -> u64 {
    if cost.shared_table_ports == 0 {
        return 1;
    }
    let busy = slots
        .iter()
        .enumerate()
        .filter(|(i, s)| s.shared_user && !s.crashed && (!s.waiting || *i == proc))
        .count();
    busy.max(1) as u64
}

const TAG_READY: u64 = 1;
const TAG_ARRIVE: u64 = 2;
const TAG_CRASH: u64 = 3;
const TAG_RESTART: u64 = 4;
const TAG_DISCARD: u64 = 5;

/// Runs `procs` simulated processors built by `factory` until one calls [`Context::finish`].
///
/// # Errors
/// [`SimError`] (with the seed) when the fault plan is invalid or the run stalls.
pub fn run<P: Processor>(
    procs: usize,
    config: &SimConfig,
    factory: &dyn Factory<P>,
) -> Result<RunOutcome<P>, SimError> {
    let procs = procs.max(1);
    let seed = config.seed;
    for c in &config.faults.crashes {
        if c.proc == 0 || c.proc >= procs {
            return Err(SimError::BadCrash {
                proc: c.proc,
                procs,
                seed,
            });
        }
    }
    let cost = &config.cost.for_procs(procs);
    let faults = &config.faults;
    let encode = !faults.corrupt.is_never();
    let mut fault_rng = Rng::new(sub_seed(seed, STREAM_FAULTS, 0));
    let mut processors: Vec<P> = (0..procs).map(|id| factory.build(id)).collect();
    let mut slots: Vec<Slot<P::Msg>> = (0..procs)
        .map(|id| Slot {
            clock: 0,
            generation: 0,
            waiting: false,
            crashed: false,
            inbox: VecDeque::new(),
            rng: Rng::new(sub_seed(seed, STREAM_PROCESSOR, id as u64)),
            counters: BackendCounters::default(),
            shared_user: false,
            arrivals: BinaryHeap::new(),
        })
        .collect();
    let mut queue: EventQueue<Event<P::Msg>> = EventQueue::new();
    for id in 0..procs {
        queue.push(
            0,
            Event::Ready {
                proc: id,
                generation: 0,
            },
        );
    }
    for c in &faults.crashes {
        queue.push(
            c.at_ns,
            Event::Crash {
                proc: c.proc,
                restart_after: c.restart_after_ns,
            },
        );
    }
    let mut figures = SimFigures {
        seed,
        ..SimFigures::default()
    };
    let mut trace = TraceHash::default();
    let mut outbox: Vec<(ProcId, P::Msg, u64, Nanos)> = Vec::new();
    let mut finished = false;
    let mut home_debt: Nanos = 0;
    let mut end_time = 0;
    let mut now = 0;
    while !finished {
        let Some((time, seq, event)) = queue.pop() else {
            return Err(SimError::Stalled { time_ns: now, seed });
        };
        now = time;
        if trace.events() >= config.max_events {
            return Err(SimError::TooManyEvents {
                events: trace.events(),
                seed,
            });
        }
        match event {
            Event::Ready { proc, generation } => {
                let slot = &mut slots[proc];
                if slot.crashed || generation != slot.generation {
                    trace.record(&[time, seq, TAG_DISCARD, proc as u64]);
                    continue;
                }
                if time > slot.clock {
                    slot.counters.idle_ns += time - slot.clock;
                    slot.clock = time;
                }
                slot.waiting = false;
                if cost.shared_table_home == Some(proc) && home_debt > 0 {
                    slot.clock += home_debt;
                    slot.counters.messaging_ns += home_debt;
                    home_debt = 0;
                }
                let start = slot.clock;
                let next_arrival = slot.arrivals.peek().map_or(Nanos::MAX, |r| r.0);
                let shared_users = shared_users(&slots, proc, cost);
                let home_busy = cost
                    .shared_table_home
                    .and_then(|h| slots.get(h))
                    .is_some_and(|h| !h.waiting && !h.crashed);
                let horizon = queue
                    .next_time()
                    .map_or(Nanos::MAX, |t| t.saturating_add(cost.latency_ns))
                    .min(next_arrival);
                let slot = &mut slots[proc];
                let activity = {
                    let mut ctx = SimCtx {
                        id: proc,
                        procs,
                        shared_users,
                        cost,
                        horizon,
                        slot,
                        outbox: &mut outbox,
                        finished: &mut finished,
                        home_debt: &mut home_debt,
                        home_busy,
                    };
                    processors[proc].run(&mut ctx)
                };
                let slot = &mut slots[proc];
                trace.record(&[time, seq, TAG_READY, proc as u64, start, slot.clock]);
                if finished {
                    end_time = slot.clock;
                }
                slot.generation += 1;
                let generation = slot.generation;
                match activity {
                    Activity::Busy => queue.push(slot.clock, Event::Ready { proc, generation }),
                    Activity::Idle { wake_at } => {
                        if !slot.inbox.is_empty() {
                            queue.push(slot.clock, Event::Ready { proc, generation });
                        } else {
                            slot.waiting = true;
                            if let Some(w) = wake_at {
                                queue.push(w.max(slot.clock), Event::Ready { proc, generation });
                            }
                        }
                    }
                }
                for (to, msg, words, sent_at) in outbox.drain(..) {
                    let mut arrive = sent_at + cost.wire_ns(words);
                    if fault_rng.chance(faults.drop) {
                        figures.dropped += 1;
                        continue;
                    }
                    if fault_rng.chance(faults.delay) {
                        figures.delayed += 1;
                        let spread = (100 * cost.latency_ns).max(1_000_000);
                        arrive += 1 + fault_rng.below(spread);
                    }
                    let copies = if fault_rng.chance(faults.duplicate) {
                        figures.duplicated += 1;
                        2
                    } else {
                        1
                    };
                    for copy in 0..copies {
                        let frame = if encode {
                            let mut bytes = serde_json::to_vec(&msg).unwrap_or_default();
                            let checksum = fnv1a(&bytes);
                            if fault_rng.chance(faults.corrupt) && !bytes.is_empty() {
                                figures.corrupted += 1;
                                let bit = fault_rng.below(bytes.len() as u64 * 8);
                                bytes[(bit / 8) as usize] ^= 1 << (bit % 8);
                            }
                            Frame::Encoded { bytes, checksum }
                        } else {
                            Frame::Plain(msg.clone())
                        };
                        let at = arrive + copy * (1 + fault_rng.below(cost.latency_ns + 1));
                        slots[to].arrivals.push(Reverse(at));
                        queue.push(
                            at,
                            Event::Arrive {
                                to,
                                from: proc,
                                frame,
                                words,
                            },
                        );
                    }
                }
            }
            Event::Arrive {
                to,
                from,
                frame,
                words,
            } => {
                trace.record(&[time, seq, TAG_ARRIVE, to as u64, from as u64]);
                let slot = &mut slots[to];
                slot.arrivals.pop();
                if slot.crashed {
                    figures.lost_to_crashes += 1;
                    continue;
                }
                let msg = match frame {
                    Frame::Plain(m) => m,
                    Frame::Encoded { bytes, checksum } => {
                        if fnv1a(&bytes) != checksum {
                            continue; // detected corruption: treated as a drop
                        }
                        match serde_json::from_slice(&bytes) {
                            Ok(m) => m,
                            Err(_) => continue,
                        }
                    }
                };
                slot.inbox.push_back((Envelope { from, msg }, words));
                if slot.waiting {
                    slot.waiting = false;
                    slot.generation += 1;
                    queue.push(
                        time.max(slot.clock),
                        Event::Ready {
                            proc: to,
                            generation: slot.generation,
                        },
                    );
                }
            }
            Event::Crash {
                proc,
                restart_after,
            } => {
                trace.record(&[time, seq, TAG_CRASH, proc as u64]);
                let slot = &mut slots[proc];
                if slot.crashed {
                    continue;
                }
                figures.crashes += 1;
                slot.crashed = true;
                slot.counters.crashed = true;
                slot.inbox.clear();
                slot.generation += 1;
                if time > slot.clock {
                    slot.counters.idle_ns += time - slot.clock;
                    slot.clock = time;
                }
                if let Some(r) = restart_after {
                    queue.push(time + r, Event::Restart { proc });
                }
            }
            Event::Restart { proc } => {
                trace.record(&[time, seq, TAG_RESTART, proc as u64]);
                figures.restarts += 1;
                processors[proc] = factory.build(proc);
                let slot = &mut slots[proc];
                slot.crashed = false;
                slot.counters.crashed = false;
                slot.waiting = false;
                slot.clock = slot.clock.max(time);
                slot.generation += 1;
                queue.push(
                    slot.clock,
                    Event::Ready {
                        proc,
                        generation: slot.generation,
                    },
                );
            }
        }
    }
    for slot in &mut slots {
        if !slot.crashed && slot.clock < end_time {
            slot.counters.idle_ns += end_time - slot.clock;
        }
    }
    figures.trace_hash = trace.value();
    figures.events = trace.events();
    Ok(RunOutcome {
        processors,
        counters: slots.into_iter().map(|s| s.counters).collect(),
        elapsed_ns: end_time,
        sim: Some(figures),
        rank: None,
    })
}
