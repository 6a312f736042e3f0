//! This rank's processor loop over MPI: the [`Context`] implementation, idle waiting by probing,
//! the stop broadcast, and the drain that leaves no message in flight after a run.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{MpiError, Received, Wire, world};
use crate::accounting::BackendCounters;
use crate::context::{Context, Envelope, Nanos, ProcId};
use crate::processor::{Activity, Factory, Processor};
use crate::rng::{Rng, STREAM_PROCESSOR, sub_seed};

/// A processor's message, or the last fragment of a long one.
pub(super) const TAG_MSG: i32 = 1;
/// A fragment of a long message, not the last one.
pub(super) const TAG_PART: i32 = 5;
/// "The run is over" (empty body).
pub(super) const TAG_STOP: i32 = 2;
/// "The run is over because this rank failed" (body: the error, UTF-8).
pub(super) const TAG_FAIL: i32 = 3;
/// Values moved between ranks after a run (gather, broadcast).
pub(super) const TAG_COLLECT: i32 = 4;

/// The longest piece sent in one MPI message. Open MPI sends messages up to its eager limit
/// (4 KiB on shared memory, 64 KiB on TCP) at once; a longer buffered send goes through a
/// rendezvous that progresses slowly (16 KiB round trips measured about 1 ms here, and burst
/// throughput 20 MB/s), so long messages go as a train of pieces, which MPI delivers in order
/// (burst throughput then 400 to 700 MB/s).
const FRAGMENT: usize = 4000;

/// The longest sleep between probes of an idle rank.
pub(super) const MAX_IDLE_SLEEP: Duration = Duration::from_micros(200);
/// How long an idle rank keeps probing (yielding the core in between) before it starts to
/// sleep. Probing also pushes this rank's own queued pieces out, and a train of pieces needs
/// both ends to probe: with 100 us, 16 KiB round trips took 400 us (median) on the shared
/// 2-core machine; with 1 to 2 ms, 60 us. On a cluster (a core per rank) spinning costs nothing;
/// oversubscribed ranks yield the core while they spin.
pub(super) const SPIN: Duration = Duration::from_millis(1);

/// What [`run`] hands back on this rank.
#[derive(Debug)]
pub struct RankOutcome<P> {
    /// This rank.
    pub rank: ProcId,
    /// The number of ranks (processors).
    pub procs: usize,
    /// This rank's processor as it was when the run ended.
    pub processor: P,
    /// This rank's time and traffic.
    pub counters: BackendCounters,
    /// When this rank called [`Context::finish`], if it did (from the common start).
    pub finished_at: Option<Nanos>,
}

struct MpiCtx<'w> {
    world: &'w dyn Wire,
    id: ProcId,
    procs: usize,
    start: Instant,
    rng: Rng,
    /// Messages (of any tag) sent to each rank during the run.
    sent_to: Vec<u64>,
    /// Messages (of any tag) received during the run.
    received: u64,
    /// The fragments received so far of each rank's current long message.
    partial: Vec<Vec<u8>>,
    stopped: bool,
    finished_at: Option<Nanos>,
    /// This rank's own failure, or a peer's announced one.
    failure: Option<MpiError>,
    counters: BackendCounters,
}

impl MpiCtx<'_> {
    fn elapsed(&self) -> Nanos {
        u64::try_from(self.start.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn send_bytes(&mut self, to: ProcId, bytes: &[u8], tag: i32) {
        self.world.buffered_send(to, tag, bytes);
        self.sent_to[to] += 1;
    }

    /// Tells every other rank to stop (`tag`: [`TAG_STOP`] or [`TAG_FAIL`]).
    fn broadcast_stop(&mut self, tag: i32, body: &[u8]) {
        for peer in 0..self.procs {
            if peer != self.id {
                self.send_bytes(peer, body, tag);
            }
        }
        self.stopped = true;
    }

    /// Records this rank's failure and stops every rank.
    fn fail(&mut self, detail: String) {
        if self.failure.is_none() {
            let text = detail.clone();
            self.failure = Some(MpiError::Codec {
                rank: self.id,
                detail,
            });
            self.broadcast_stop(TAG_FAIL, text.as_bytes());
        }
    }

    /// Waits until a message is pending or `wake_at` passes, probing with a back-off.
    fn wait(&mut self, wake_at: Option<Nanos>) {
        let begin = Instant::now();
        let mut sleep = Duration::from_micros(10);
        loop {
            if self.world.pending() {
                break;
            }
            let now = self.elapsed();
            if wake_at.is_some_and(|t| t <= now) {
                break;
            }
            if begin.elapsed() < SPIN {
                std::thread::yield_now();
            } else {
                let left = wake_at.map_or(MAX_IDLE_SLEEP, |t| Duration::from_nanos(t - now));
                std::thread::sleep(sleep.min(left));
                sleep = (sleep * 2).min(MAX_IDLE_SLEEP);
            }
        }
        self.counters.idle_ns += u64::try_from(begin.elapsed().as_nanos()).unwrap_or(0);
    }
}

impl<M: Serialize + DeserializeOwned> Context<M> for MpiCtx<'_> {
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
        if self.stopped || to >= self.procs || to == self.id {
            return;
        }
        let begin = Instant::now();
        match postcard::to_allocvec(&msg) {
            Ok(bytes) => {
                let mut pieces = bytes.chunks(FRAGMENT).peekable();
                if pieces.peek().is_none() {
                    self.send_bytes(to, &[], TAG_MSG);
                }
                while let Some(piece) = pieces.next() {
                    let tag = if pieces.peek().is_some() {
                        TAG_PART
                    } else {
                        TAG_MSG
                    };
                    self.send_bytes(to, piece, tag);
                }
                self.counters.messages_sent += 1;
            }
            Err(e) => self.fail(format!("cannot encode a message for rank {to}: {e}")),
        }
        self.counters.messaging_ns += u64::try_from(begin.elapsed().as_nanos()).unwrap_or(0);
    }
    fn poll(&mut self) -> Option<Envelope<M>> {
        let begin = Instant::now();
        while !self.stopped {
            let Received {
                from,
                tag,
                mut bytes,
            } = self.world.try_receive()?;
            self.received += 1;
            match tag {
                TAG_PART => self.partial[from].extend_from_slice(&bytes),
                TAG_MSG => {
                    if !self.partial[from].is_empty() {
                        let mut whole = std::mem::take(&mut self.partial[from]);
                        whole.extend_from_slice(&bytes);
                        bytes = whole;
                    }
                    match postcard::from_bytes::<M>(&bytes) {
                    Ok(msg) => {
                        self.counters.messages_received += 1;
                        self.counters.messaging_ns +=
                            u64::try_from(begin.elapsed().as_nanos()).unwrap_or(0);
                        return Some(Envelope { from, msg });
                    }
                    Err(e) => self.fail(format!(
                        "cannot decode a message from rank {from} ({e}): are all ranks running the same build?"
                    )),
                    }
                }
                TAG_FAIL => {
                    self.failure.get_or_insert(MpiError::PeerFailed {
                        rank: from,
                        detail: String::from_utf8_lossy(&bytes).into_owned(),
                    });
                    self.stopped = true;
                }
                _ => self.stopped = true,
            }
        }
        None
    }
    fn charge(&mut self, nodes: u64) {
        self.counters.nodes += nodes;
    }
    fn finish(&mut self) {
        if !self.stopped {
            self.finished_at = Some(self.elapsed());
            self.broadcast_stop(TAG_STOP, &[]);
        }
    }
}

/// Runs this rank's processor, built by `factory` with the rank as its id, until some rank
/// calls [`Context::finish`]. Every rank of the world must call it (with the same `seed`);
/// `seed` seeds the processors' RNGs as on the other backends. Returns after every message of
/// the run has been received everywhere, so runs can follow one another in one process.
///
/// # Errors
/// [`MpiError::NotInitialized`] without a live [`super::Session`]; [`MpiError::Codec`] or
/// [`MpiError::PeerFailed`] when a message could not be encoded or decoded here or elsewhere
/// (every rank then stops).
pub fn run<P: Processor>(seed: u64, factory: &dyn Factory<P>) -> Result<RankOutcome<P>, MpiError> {
    let world = world()?;
    let world = &*world;
    let id = world.rank();
    let procs = world.size();
    let mut processor = factory.build(id);
    // A common start: no rank sends before every rank is ready to receive.
    world.barrier();
    let mut ctx = MpiCtx {
        world,
        id,
        procs,
        start: Instant::now(),
        rng: Rng::new(sub_seed(seed, STREAM_PROCESSOR, id as u64)),
        sent_to: vec![0; procs],
        received: 0,
        partial: vec![Vec::new(); procs],
        stopped: false,
        finished_at: None,
        failure: None,
        counters: BackendCounters::default(),
    };
    while !ctx.stopped {
        match processor.run(&mut ctx) {
            Activity::Busy => {}
            Activity::Idle { wake_at } => {
                if !ctx.stopped {
                    ctx.wait(wake_at);
                }
            }
        }
    }
    let total = ctx.elapsed();
    let c = &mut ctx.counters;
    c.busy_ns = total.saturating_sub(c.idle_ns + c.messaging_ns);
    drain(&mut ctx);
    if let Some(e) = ctx.failure {
        return Err(e);
    }
    Ok(RankOutcome {
        rank: id,
        procs,
        processor,
        counters: ctx.counters,
        finished_at: ctx.finished_at,
    })
}

/// Receives (and drops) every message still addressed to this rank: ranks exchange how many
/// messages each sent to each, once all have stopped sending, then take exactly the missing
/// ones. A failure announced in the drain still counts.
fn drain(ctx: &mut MpiCtx<'_>) {
    let incoming = ctx.world.all_to_all(&ctx.sent_to);
    let expected: u64 = incoming.iter().sum();
    while ctx.received < expected {
        let Received { from, tag, bytes } = ctx.world.receive();
        ctx.received += 1;
        if tag == TAG_FAIL && ctx.failure.is_none() {
            ctx.failure = Some(MpiError::PeerFailed {
                rank: from,
                detail: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
    }
    ctx.world.barrier();
}
