//! The threads backend: one OS thread per processor, messages through crossbeam channels, the
//! wall clock for time. Not deterministic; used for real speedups.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};

use crate::accounting::BackendCounters;
use crate::backend::RunOutcome;
use crate::context::{Context, Envelope, Nanos, ProcId};
use crate::processor::{Activity, Factory, Processor};
use crate::rng::{Rng, STREAM_PROCESSOR, sub_seed};

/// What travels through a processor's channel.
enum Packet<M> {
    Msg(ProcId, M),
    Stop,
}

struct ThreadCtx<M> {
    id: ProcId,
    procs: usize,
    start: Instant,
    rng: Rng,
    peers: Arc<Vec<Sender<Packet<M>>>>,
    inbox: Receiver<Packet<M>>,
    /// A message received while blocked, handed out by the next poll.
    held: Option<Envelope<M>>,
    stop: Arc<AtomicBool>,
    finished_at: Arc<AtomicU64>,
    stopped: bool,
    /// Whether an idle processor spins before blocking: only with a core for each.
    spin: bool,
    counters: BackendCounters,
}

impl<M> ThreadCtx<M> {
    fn elapsed(&self) -> Nanos {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// Blocks until a message arrives, the stop signal comes, or `wake_at`. With a core for
    /// every processor it first spins for up to [`SPIN_NS`] looking at the inbox: most waits
    /// (a work request's answer, a refused requester's retry) are shorter than that, and a
    /// blocked thread costs a futex wake-up on the sender's side and a scheduler wake-up (on
    /// a virtual machine an interrupt through the hypervisor) on its own.
    fn wait(&mut self, wake_at: Option<Nanos>) {
        let begin = Instant::now();
        if self.spin {
            let limit = wake_at.map_or(SPIN_NS, |t| t.saturating_sub(self.elapsed()).min(SPIN_NS));
            loop {
                match self.inbox.try_recv() {
                    Ok(Packet::Msg(from, msg)) => {
                        self.held = Some(Envelope { from, msg });
                        break;
                    }
                    Ok(Packet::Stop) => {
                        self.stopped = true;
                        break;
                    }
                    Err(_) => {}
                }
                if self.stop.load(Ordering::Relaxed) || elapsed_ns(begin) >= limit {
                    break;
                }
                std::hint::spin_loop();
            }
            if self.held.is_some()
                || self.stopped
                || (elapsed_ns(begin) >= limit && limit < SPIN_NS)
            {
                self.counters.idle_ns += elapsed_ns(begin);
                return;
            }
        }
        let got = match wake_at {
            Some(t) => {
                let now = self.elapsed();
                if t <= now {
                    return;
                }
                match self.inbox.recv_timeout(Duration::from_nanos(t - now)) {
                    Ok(p) => Some(p),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => {
                        self.stopped = true;
                        None
                    }
                }
            }
            None => match self.inbox.recv() {
                Ok(p) => Some(p),
                Err(_) => {
                    self.stopped = true;
                    None
                }
            },
        };
        match got {
            Some(Packet::Msg(from, msg)) => self.held = Some(Envelope { from, msg }),
            Some(Packet::Stop) => self.stopped = true,
            None => {}
        }
        self.counters.idle_ns += elapsed_ns(begin);
    }
}

/// The longest an idle processor spins before it blocks (see [`ThreadCtx::wait`]).
const SPIN_NS: Nanos = 100_000;

fn elapsed_ns(since: Instant) -> Nanos {
    u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

impl<M> Context<M> for ThreadCtx<M> {
    fn id(&self) -> ProcId {
        self.id
    }
    fn procs(&self) -> usize {
        self.procs
    }
    fn now(&self) -> Nanos {
        self.elapsed()
    }
    fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }
    fn send(&mut self, to: ProcId, msg: M) {
        let begin = Instant::now();
        // A send fails only when the receiver has already stopped: the run is over.
        let _ = self.peers[to].send(Packet::Msg(self.id, msg));
        self.counters.messages_sent += 1;
        self.counters.messaging_ns += u64::try_from(begin.elapsed().as_nanos()).unwrap_or(0);
    }
    fn poll(&mut self) -> Option<Envelope<M>> {
        if let Some(env) = self.held.take() {
            self.counters.messages_received += 1;
            return Some(env);
        }
        if self.inbox.is_empty() {
            // The common case between two quanta: no clock read.
            return None;
        }
        let begin = Instant::now();
        loop {
            match self.inbox.try_recv() {
                Ok(Packet::Msg(from, msg)) => {
                    self.counters.messages_received += 1;
                    self.counters.messaging_ns +=
                        u64::try_from(begin.elapsed().as_nanos()).unwrap_or(0);
                    return Some(Envelope { from, msg });
                }
                Ok(Packet::Stop) => self.stopped = true,
                Err(_) => return None,
            }
        }
    }
    fn charge(&mut self, nodes: u64) {
        self.counters.nodes += nodes;
    }
    fn finish(&mut self) {
        self.finished_at.store(self.elapsed(), Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.stopped = true;
        for (i, p) in self.peers.iter().enumerate() {
            if i != self.id {
                let _ = p.send(Packet::Stop);
            }
        }
    }
}

/// Runs `procs` processors built by `factory`, one OS thread each, until one of them calls
/// [`Context::finish`]. `seed` seeds the processors' RNGs (the run itself is not
/// deterministic: thread scheduling decides the interleaving).
pub fn run<P: Processor>(procs: usize, seed: u64, factory: &dyn Factory<P>) -> RunOutcome<P> {
    let procs = procs.max(1);
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..procs).map(|_| unbounded()).unzip();
    let peers = Arc::new(senders);
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let finished_at = Arc::new(AtomicU64::new(0));
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let spin = procs <= cores;
    let results: Vec<(P, BackendCounters)> = std::thread::scope(|scope| {
        let handles: Vec<_> = receivers
            .into_iter()
            .enumerate()
            .map(|(id, inbox)| {
                let peers = Arc::clone(&peers);
                let stop = Arc::clone(&stop);
                let finished_at = Arc::clone(&finished_at);
                scope.spawn(move || {
                    let mut processor = factory.build(id);
                    let mut ctx = ThreadCtx {
                        id,
                        procs,
                        start,
                        rng: Rng::new(sub_seed(seed, STREAM_PROCESSOR, id as u64)),
                        peers,
                        inbox,
                        held: None,
                        stop: Arc::clone(&stop),
                        finished_at,
                        stopped: false,
                        spin,
                        counters: BackendCounters::default(),
                    };
                    while !ctx.stopped && !stop.load(Ordering::Relaxed) {
                        match processor.run(&mut ctx) {
                            Activity::Busy => {}
                            Activity::Idle { wake_at } => {
                                if ctx.held.is_none() && !ctx.stopped {
                                    ctx.wait(wake_at);
                                }
                            }
                        }
                    }
                    let total = ctx.elapsed();
                    let c = &mut ctx.counters;
                    c.busy_ns = total.saturating_sub(c.idle_ns + c.messaging_ns);
                    (processor, ctx.counters)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    let elapsed_ns = finished_at.load(Ordering::SeqCst);
    let (processors, counters) = results.into_iter().unzip();
    RunOutcome {
        processors,
        counters,
        elapsed_ns,
        sim: None,
        rank: None,
    }
}
