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

/// The shared state of one threads run: every processor's channel, the stop flag, the start
/// time and when the run finished.
struct Shared<M> {
    procs: usize,
    seed: u64,
    peers: Arc<Vec<Sender<Packet<M>>>>,
    stop: Arc<AtomicBool>,
    start: Instant,
    finished_at: Arc<AtomicU64>,
    spin: bool,
}

impl<M> Clone for Shared<M> {
    fn clone(&self) -> Self {
        Shared {
            procs: self.procs,
            seed: self.seed,
            peers: Arc::clone(&self.peers),
            stop: Arc::clone(&self.stop),
            start: self.start,
            finished_at: Arc::clone(&self.finished_at),
            spin: self.spin,
        }
    }
}

impl<M> Shared<M> {
    /// The state of a run of `procs` processors, and each processor's inbox.
    fn new(procs: usize, seed: u64) -> (Self, Vec<Receiver<Packet<M>>>) {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..procs).map(|_| unbounded()).unzip();
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let shared = Shared {
            procs,
            seed,
            peers: Arc::new(senders),
            stop: Arc::new(AtomicBool::new(false)),
            start: Instant::now(),
            finished_at: Arc::new(AtomicU64::new(0)),
            spin: procs <= cores,
        };
        (shared, receivers)
    }

    /// Runs `processor` as number `id` on this thread until the run stops.
    fn drive<P: Processor<Msg = M>>(
        self,
        id: ProcId,
        inbox: Receiver<Packet<M>>,
        mut processor: P,
    ) -> (P, BackendCounters) {
        let stop = Arc::clone(&self.stop);
        let mut ctx = ThreadCtx {
            id,
            procs: self.procs,
            start: self.start,
            rng: Rng::new(sub_seed(self.seed, STREAM_PROCESSOR, id as u64)),
            peers: self.peers,
            inbox,
            held: None,
            stop: self.stop,
            finished_at: self.finished_at,
            stopped: false,
            spin: self.spin,
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
    }

    /// The outcome once every processor is back.
    fn outcome<P>(&self, results: Vec<(P, BackendCounters)>) -> RunOutcome<P> {
        let elapsed_ns = self.finished_at.load(Ordering::SeqCst);
        let (processors, counters) = results.into_iter().unzip();
        RunOutcome {
            processors,
            counters,
            elapsed_ns,
            sim: None,
            rank: None,
        }
    }
}

/// Runs `procs` processors built by `factory`, one OS thread each, until one of them calls
/// [`Context::finish`]. `seed` seeds the processors' RNGs (the run itself is not
/// deterministic: thread scheduling decides the interleaving).
pub fn run<P: Processor>(procs: usize, seed: u64, factory: &dyn Factory<P>) -> RunOutcome<P> {
    let procs = procs.max(1);
    let (shared, receivers) = Shared::new(procs, seed);
    let results: Vec<(P, BackendCounters)> = std::thread::scope(|scope| {
        let handles: Vec<_> = receivers
            .into_iter()
            .enumerate()
            .map(|(id, inbox)| {
                let shared = shared.clone();
                scope.spawn(move || shared.drive(id, inbox, factory.build(id)))
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
    shared.outcome(results)
}

/// A job for a thread of a [`Pool`].
type PoolJob = Box<dyn FnOnce() + Send + 'static>;

/// OS threads kept from run to run: processor `i` of every run on the pool runs on the pool's
/// thread `i`, so that what a processor leaves in its thread's caches (and whatever the
/// application keys by thread) is still there at the next run, and no thread is started per run.
/// The threads end when the pool is dropped.
pub struct Pool {
    threads: Vec<(Sender<PoolJob>, Option<std::thread::JoinHandle<()>>)>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("threads", &self.threads.len())
            .finish()
    }
}

impl Pool {
    /// A pool of `threads` threads (at least one).
    ///
    /// # Errors
    /// When the operating system cannot start a thread.
    pub fn new(threads: usize) -> std::io::Result<Pool> {
        let threads = (0..threads.max(1))
            .map(|i| {
                let (tx, rx) = unbounded::<PoolJob>();
                let handle = std::thread::Builder::new()
                    .name(format!("dib processor {i}"))
                    .spawn(move || {
                        for job in rx {
                            job();
                        }
                    })?;
                Ok((tx, Some(handle)))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Pool { threads })
    }

    /// How many threads the pool has.
    #[must_use]
    pub fn size(&self) -> usize {
        self.threads.len()
    }

    /// Runs `processors` (processor `i` on thread `i`; at most [`Pool::size`] of them) until
    /// one of them calls [`Context::finish`], as [`run`] does with threads of its own.
    ///
    /// # Panics
    /// When there are more processors than threads; a processor's panic is passed on.
    pub fn run<P: Processor>(&self, seed: u64, processors: Vec<P>) -> RunOutcome<P> {
        assert!(
            processors.len() <= self.threads.len(),
            "{} processors on a pool of {} threads",
            processors.len(),
            self.threads.len()
        );
        let (shared, receivers) = Shared::new(processors.len().max(1), seed);
        let (done_tx, done_rx) = unbounded();
        for (id, (processor, inbox)) in processors.into_iter().zip(receivers).enumerate() {
            let shared = shared.clone();
            let done = done_tx.clone();
            let job: PoolJob = Box::new(move || {
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    shared.drive(id, inbox, processor)
                }));
                let _ = done.send((id, result));
            });
            if self.threads[id].0.send(job).is_err() {
                panic!("the pool's thread {id} has ended");
            }
        }
        drop(done_tx);
        let mut results: Vec<Option<(P, BackendCounters)>> = Vec::new();
        results.resize_with(shared.procs, || None);
        for (id, result) in done_rx {
            match result {
                Ok(r) => results[id] = Some(r),
                Err(panic) => {
                    // Stop the others before passing the panic on.
                    shared.stop.store(true, Ordering::SeqCst);
                    for p in shared.peers.iter() {
                        let _ = p.send(Packet::Stop);
                    }
                    std::panic::resume_unwind(panic)
                }
            }
        }
        shared.outcome(results.into_iter().flatten().collect())
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for (tx, handle) in &mut self.threads {
            // Closing the channel ends the thread's loop.
            let (dead, _) = unbounded();
            *tx = dead;
            if let Some(h) = handle.take() {
                let _ = h.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts its runs; processor 0 ends the run after a message from every peer.
    struct Echo {
        heard: usize,
    }

    impl Processor for Echo {
        type Msg = ();

        fn run(&mut self, ctx: &mut dyn Context<()>) -> Activity {
            if ctx.id() != 0 {
                if self.heard == 0 {
                    ctx.send(0, ());
                    self.heard = 1;
                }
                return Activity::Idle { wake_at: None };
            }
            while ctx.poll().is_some() {
                self.heard += 1;
            }
            if self.heard + 1 == ctx.procs() {
                ctx.finish();
            }
            Activity::Idle { wake_at: None }
        }
    }

    #[test]
    fn a_pool_runs_one_run_after_another_on_the_same_threads() {
        let pool = Pool::new(3).expect("threads start");
        assert_eq!(pool.size(), 3);
        for procs in [3, 2, 3, 1] {
            let out = pool.run(1, (0..procs).map(|_| Echo { heard: 0 }).collect());
            assert_eq!(out.processors.len(), procs);
            assert_eq!(out.processors[0].heard, procs - 1);
            assert_eq!(out.counters.len(), procs);
        }
    }
}
