//! What the processors of one run in the play setting share: the clock's limits, the stop, the
//! halt that ends every processor's search, the node count of all processors, and the last
//! completed iteration (`README.md` beside this file, "The clock and the stop").
//!
//! Only processor 0 reads the limits and the stop. When it finds them reached it raises the halt
//! and ends the run; the other processors' searches poll the halt alone. A value a halted search
//! returns is therefore never taken: processor 0 takes no value after it raised the halt, and the
//! others' values only reach processor 0.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crossbeam_channel::Sender;
use dib::{Activity, Context, Envelope, Nanos, ProcId, Processor, Rng, Work};

use crate::engine::{Stop, WallClock};
use crate::search::{SearchContext, Signal};

/// How long processor 0 waits, at most, before it looks at the stop again while it has nothing
/// to do (on threads; a simulated run has no outside stop).
const STOP_POLL_NS: Nanos = 1_000_000;

/// When a search in the play setting ends, in the run's own time (the wall clock since the run
/// started on threads, virtual time on the simulator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayLimits {
    /// The deepest iteration.
    pub depth: u32,
    /// No iteration starts after this time.
    pub soft: Option<Duration>,
    /// The search ends at this time with the last completed iteration.
    pub hard: Option<Duration>,
    /// The search ends once the processors together have searched this many nodes.
    pub nodes: Option<u64>,
}

impl PlayLimits {
    /// Iterations up to `depth`, with no clock.
    #[must_use]
    pub fn depth(depth: u32) -> Self {
        PlayLimits {
            depth,
            soft: None,
            hard: None,
            nodes: None,
        }
    }
}

/// One completed iteration of a search in the play setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration<M> {
    /// Its depth.
    pub depth: u32,
    /// Its value, from the side to move at the root.
    pub value: i32,
    /// Its principal variation (at least the best move).
    pub pv: Vec<M>,
    /// Nodes of all processors since the search began.
    pub nodes: u64,
    /// The run's time when it completed.
    pub elapsed: Duration,
    /// The transposition tables' fill in permille when it was reported, where the algorithm has
    /// tables.
    pub hashfull: Option<u32>,
}

/// The shared state of one run in the play setting.
pub(crate) struct Watch<M> {
    limits: PlayLimits,
    stop: Stop,
    /// The clock of the limits on real threads (started when the move was asked for); `None`
    /// on the simulator, whose processors' virtual time is the clock (the run starts at 0).
    clock: Option<WallClock>,
    /// How long a processor may run between two looks at the clock (on the simulator, one
    /// poll interval of nodes at the model's node cost; 0 on threads, where polls are a fraction
    /// of a millisecond apart): the search ends when the next look would come past the hard
    /// deadline, so that it ends at the deadline rather than up to a slice after it.
    margin: Nanos,
    halted: AtomicBool,
    nodes: AtomicU64,
    last: Mutex<Option<Iteration<M>>>,
    reports: Option<Sender<Iteration<M>>>,
}

impl<M: Clone> Watch<M> {
    /// The state of a run under `limits`, timed by `clock` (`None`: the processors' own time,
    /// looked at every `margin` at most), that also ends when `stop` is raised; each completed
    /// iteration is sent to `reports`.
    pub(crate) fn new(
        limits: PlayLimits,
        stop: Stop,
        clock: Option<WallClock>,
        margin: Nanos,
        reports: Option<Sender<Iteration<M>>>,
    ) -> Arc<Self> {
        Arc::new(Watch {
            limits,
            stop,
            clock,
            margin,
            halted: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            last: Mutex::new(None),
            reports,
        })
    }

    /// The limits.
    pub(crate) fn limits(&self) -> &PlayLimits {
        &self.limits
    }

    /// The time of the limits for a processor whose own time is `proc_now` (the wall clock
    /// when there is one).
    pub(crate) fn now(&self, proc_now: Nanos) -> Nanos {
        match &self.clock {
            Some(c) => nanos(c.elapsed()),
            None => proc_now,
        }
    }

    /// Whether the search must end now (processor 0 only): the stop is raised, the hard
    /// deadline (less the margin) or the node budget is reached.
    pub(crate) fn expired(&self, now: Nanos) -> bool {
        self.stop.is_raised()
            || self
                .limits
                .hard
                .is_some_and(|h| now.saturating_add(self.margin) >= nanos(h))
            || self.limits.nodes.is_some_and(|n| self.nodes() >= n)
    }

    /// Whether a new iteration after `depth` may start at `now` (processor 0 only).
    pub(crate) fn may_deepen(&self, depth: u32, now: Nanos) -> bool {
        depth < self.limits.depth && !self.past_soft(now) && !self.expired(now)
    }

    /// Whether the soft deadline has passed at `now`.
    pub(crate) fn past_soft(&self, now: Nanos) -> bool {
        self.limits.soft.is_some_and(|s| now >= nanos(s))
    }

    /// Ends every processor's search (processor 0, as it ends the run).
    pub(crate) fn halt(&self) {
        self.halted.store(true, Ordering::Release);
    }

    /// Whether the run is ending: a search stops at its next poll.
    pub(crate) fn halted(&self) -> bool {
        self.halted.load(Ordering::Acquire)
    }

    /// Nodes charged by all processors so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    fn add_nodes(&self, n: u64) {
        if n > 0 {
            self.nodes.fetch_add(n, Ordering::Relaxed);
        }
    }

    /// Records a completed iteration of `depth` with `value` and `pv` at `now`; `pending` nodes
    /// of the recording processor are not charged yet.
    pub(crate) fn record(&self, depth: u32, value: i32, pv: Vec<M>, now: Nanos, pending: u64) {
        let it = Iteration {
            depth,
            value,
            pv,
            nodes: self.nodes() + pending,
            elapsed: Duration::from_nanos(now),
            hashfull: None,
        };
        if let Some(tx) = &self.reports {
            let _ = tx.send(it.clone());
        }
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(it);
    }

    /// The last completed iteration.
    pub(crate) fn last(&self) -> Option<Iteration<M>> {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// When processor 0, idle at its time `proc_now`, must look at the clock and the stop
    /// again (in its own time): at the hard deadline, and on real threads every
    /// [`STOP_POLL_NS`].
    fn next_check(&self, proc_now: Nanos) -> Option<Nanos> {
        let now = self.now(proc_now);
        let hard = self
            .limits
            .hard
            .map(|h| proc_now + nanos(h).saturating_sub(now));
        let poll = self.clock.is_some().then(|| proc_now + STOP_POLL_NS);
        match (hard, poll) {
            (Some(h), Some(p)) => Some(h.min(p)),
            (h, p) => h.or(p),
        }
    }
}

fn nanos(d: Duration) -> Nanos {
    u64::try_from(d.as_nanos()).unwrap_or(Nanos::MAX)
}

/// A processor of a run in the play setting: counts the nodes it charges into the watch, and
/// on processor 0 ends the run once the watch expires (raising the halt first) and wakes up
/// while idle to look at the clock and the stop.
///
/// With [`Timed::root_stays`], processor 0's first slice reads no message: a DIB run's root,
/// which deepens and reads the clock, starts there before any work request could take it
/// elsewhere.
pub(crate) struct Timed<P, M> {
    inner: P,
    watch: Arc<Watch<M>>,
    root: bool,
    /// Whether processor 0's first slice is still to run with its inbox held.
    hold_first: bool,
}

impl<P, M> Timed<P, M> {
    /// `inner` as processor `id` of the run of `watch`.
    pub(crate) fn new(inner: P, watch: Arc<Watch<M>>, id: ProcId) -> Self {
        Timed {
            inner,
            watch,
            root: id == 0,
            hold_first: false,
        }
    }

    /// Processor 0's first slice reads no message (a DIB run's root starts there).
    pub(crate) fn root_stays(mut self) -> Self {
        self.hold_first = self.root;
        self
    }
}

impl<P: Processor, M: Clone + Send + Sync + 'static> Processor for Timed<P, M> {
    type Msg = P::Msg;

    fn run(&mut self, ctx: &mut dyn Context<P::Msg>) -> Activity {
        if self.root && self.watch.expired(self.watch.now(ctx.now())) {
            self.watch.halt();
            ctx.finish();
            return Activity::Idle { wake_at: None };
        }
        let hold_inbox = std::mem::take(&mut self.hold_first);
        let activity = self.inner.run(&mut Counted {
            ctx: &mut *ctx,
            watch: &self.watch,
            hold_inbox,
        });
        match activity {
            Activity::Idle { wake_at } if self.root => {
                let check = self.watch.next_check(ctx.now());
                Activity::Idle {
                    wake_at: match (wake_at, check) {
                        (Some(w), Some(c)) => Some(w.min(c)),
                        (w, c) => w.or(c),
                    },
                }
            }
            a => a,
        }
    }
}

/// A processor's context that adds every node it charges to the watch's count.
struct Counted<'a, Msg, M> {
    ctx: &'a mut dyn Context<Msg>,
    watch: &'a Watch<M>,
    /// The inbox looks empty (processor 0's first slice).
    hold_inbox: bool,
}

impl<Msg, M: Clone> Context<Msg> for Counted<'_, Msg, M> {
    fn id(&self) -> ProcId {
        self.ctx.id()
    }
    fn procs(&self) -> usize {
        self.ctx.procs()
    }
    fn now(&self) -> Nanos {
        self.ctx.now()
    }
    fn rng(&mut self) -> &mut Rng {
        self.ctx.rng()
    }
    fn send(&mut self, to: ProcId, msg: Msg) {
        self.ctx.send(to, msg);
    }
    fn poll(&mut self) -> Option<Envelope<Msg>> {
        if self.hold_inbox {
            return None;
        }
        self.ctx.poll()
    }
    fn charge(&mut self, nodes: u64) {
        self.watch.add_nodes(nodes);
        self.ctx.charge(nodes);
    }
    fn charge_work(&mut self, work: &Work) {
        self.watch.add_nodes(work.nodes());
        self.ctx.charge_work(work);
    }
    fn finish(&mut self) {
        self.ctx.finish();
    }
    fn slice_nodes(&self) -> Option<u64> {
        self.ctx.slice_nodes()
    }
}

/// The context of a search that one step of a processor runs whole in the play setting (a
/// leaf search of the split engine, a sequential iteration of APHID's master): it stops when
/// the run halts and, on processor 0, when the clock runs out or the stop is raised. Its time
/// is the step's start plus its nodes at the simulated node cost (on threads, the wall clock).
pub(crate) struct WatchCtx<'a, M> {
    watch: &'a Watch<M>,
    /// Processor 0: the clock and the stop apply.
    clock: bool,
    start: Nanos,
    node_ns: u64,
}

impl<'a, M> WatchCtx<'a, M> {
    /// The context of a search on processor 0 (`clock`) or another, begun at `start` of its
    /// processor's time, each node costing `node_ns` (0 off the simulator).
    pub(crate) fn new(watch: &'a Watch<M>, clock: bool, start: Nanos, node_ns: u64) -> Self {
        WatchCtx {
            watch,
            clock,
            start,
            node_ns,
        }
    }
}

impl<M: Clone> SearchContext for WatchCtx<'_, M> {
    fn elapsed(&self) -> Duration {
        Duration::ZERO
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        let now = self.watch.now(
            self.start
                .saturating_add(nodes.saturating_mul(self.node_ns)),
        );
        if self.watch.halted() || (self.clock && self.watch.expired(now)) {
            Signal::Stop
        } else {
            Signal::Continue
        }
    }
}
