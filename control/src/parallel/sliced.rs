//! Running a recursive search (a [`Searcher`](crate::search::Searcher) call that cannot be
//! suspended) as a DIB worker-model processor, which must work in bounded slices.
//!
//! Two modes, chosen by the backend:
//!
//! - **inline** (threads): the job runs to its end inside the processor's first slice. Every
//!   poll of the search ([`POLL_INTERVAL`](crate::search::POLL_INTERVAL) nodes) charges the
//!   nodes to the context and reads the inbox, so a stop message still ends it promptly.
//! - **stepped** (simulator): the job runs on a worker OS thread in lockstep with the
//!   processor: a slice resumes the worker, which searches until its next poll and hands
//!   control back with the nodes it visited. Only one of the two runs at a time, and the
//!   simulator runs one processor at a time, so a simulated run stays deterministic (the
//!   worker's search depends only on what earlier slices did), and every processor's clock
//!   advances by the nodes it really searched, slice by slice, as for DIB searches.
//!
//! A job that is dropped unfinished (the run ended, or the simulator crashed its processor)
//! is told to stop at its next poll and its thread is joined.
//!
//! The processor's messages go to a [`Mailbox`]: by default one that only recognises the stop
//! message; a job that talks to its peers (Lazy SMP over MPI exchanging table entries) gives
//! its own, which also sends at every pause. Inline, the mailbox also sees every entry the
//! job's searches store in their table ([`Mailbox::stored`], called from the search's
//! [`SearchContext::stored`] hook), so it can collect what it sends.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use dib::{Context, Nanos, Work};

use crate::search::{KindTally, SearchContext, SearchStats, Signal, TtEntry};

/// What a running job sees of its processor: a [`SearchContext`] that charges nodes and
/// passes on stop requests.
pub struct JobCtx<'a> {
    link: &'a mut dyn Link,
    /// The node count of the current search at its last poll.
    seen: u64,
    /// Nodes of the current search charged so far.
    charged: u64,
    /// The searcher's quiescence, look-ahead and probe counters at the last poll.
    counts: KindTally,
    /// Whether the searcher's table is shared with other processors (its probes are then
    /// charged as shared-table probes).
    shared_table: bool,
}

impl<'a> JobCtx<'a> {
    fn new(link: &'a mut dyn Link) -> Self {
        JobCtx {
            link,
            seen: 0,
            charged: 0,
            counts: KindTally::default(),
            shared_table: false,
        }
    }

    /// Ends one search that visited `nodes` nodes in all: charges what its polls did not.
    pub fn settle(&mut self, nodes: u64) {
        self.link
            .add(&Work::search(nodes.saturating_sub(self.charged)));
        self.seen = 0;
        self.charged = 0;
    }

    /// Says whether the job's searches probe a table shared with other processors.
    pub fn set_shared_table(&mut self, shared: bool) {
        self.shared_table = shared;
    }

    /// Whether the processor was asked to stop.
    pub fn stop_requested(&mut self) -> bool {
        self.link.stop_requested()
    }
}

impl SearchContext for JobCtx<'_> {
    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.link.now())
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        let delta = nodes.saturating_sub(self.seen);
        self.seen = nodes;
        self.charged += delta;
        self.link.add(&Work::search(delta));
        self.link.pause()
    }

    fn poll_counts(&mut self, nodes: u64, stats: &SearchStats) -> Signal {
        let delta = nodes.saturating_sub(self.seen);
        self.seen = nodes;
        self.charged += delta;
        let now = stats.tally();
        let new = self.counts.since(now);
        self.counts = now;
        self.link
            .add(&super::work_of(delta, new, self.shared_table));
        self.link.pause()
    }

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        self.link.stored(hash, entry);
    }

    fn searching(&mut self, hash: u64, depth: u32, entering: bool) {
        self.link.searching(hash, depth, entering);
    }
}

/// What a job's search context gives beside a [`SearchContext`]: the end of one search's
/// accounting and the processor's stop.
pub(crate) trait JobContext: SearchContext {
    /// Ends one search that visited `nodes` nodes in all ([`JobCtx::settle`]).
    fn settle(&mut self, nodes: u64);
    /// Whether the processor was asked to stop ([`JobCtx::stop_requested`]).
    fn stop_requested(&mut self) -> bool;
}

impl JobContext for JobCtx<'_> {
    fn settle(&mut self, nodes: u64) {
        JobCtx::settle(self, nodes);
    }

    fn stop_requested(&mut self) -> bool {
        JobCtx::stop_requested(self)
    }
}

/// The processor side of a running job.
trait Link {
    /// Records work done (charged at the next pause).
    fn add(&mut self, work: &Work);
    /// Charges the recorded nodes and gives the processor a chance to run (stepped mode);
    /// `Stop` when the job must end.
    fn pause(&mut self) -> Signal;
    /// Whether a stop was requested (without pausing).
    fn stop_requested(&mut self) -> bool;
    /// The processor's time.
    fn now(&self) -> Nanos;
    /// The job's search stored `entry` for the position with `hash`.
    fn stored(&mut self, hash: u64, entry: &TtEntry);
    /// The job's search started or ended searching a node (ABDADA's busy counts).
    fn searching(&mut self, hash: u64, depth: u32, entering: bool);
}

/// A job: the whole search a processor does.
pub type Job<T> = Box<dyn FnOnce(&mut JobCtx<'_>) -> T + Send + 'static>;

/// Where a job stands after a slice.
pub enum Progress<T> {
    /// Still running: run the processor again.
    Running,
    /// Finished with this output (returned once).
    Done(T),
    /// Finished earlier.
    Over,
}

/// How jobs run (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// To the end in the first slice (real threads).
    Inline,
    /// On a worker thread in lockstep, one poll interval per slice (the simulator).
    Stepped,
}

enum ToWorker {
    Resume { stop: bool, now: Nanos },
}

enum FromWorker<T> {
    Yield { work: Work },
    Done { work: Work, output: T },
}

struct Worker<T> {
    resume: Option<Sender<ToWorker>>,
    reports: Receiver<FromWorker<T>>,
    handle: Option<JoinHandle<()>>,
}

/// What a job's processor does with its messages.
pub trait Mailbox<M>: Send {
    /// Takes in one message; `true` when it asks the job to stop.
    fn receive(&mut self, msg: M) -> bool;

    /// Sends what the job has for its peers; called at every pause of the job (each poll
    /// interval inline, each slice stepped).
    fn send(&mut self, ctx: &mut dyn Context<M>) {
        let _ = ctx;
    }

    /// The job's search stored `entry` for the position with `hash` in its table (the
    /// search's [`SearchContext::stored`] hook). Called inline only: a stepped job's searches
    /// run on another thread than the mailbox, and their stores are not passed on.
    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        let _ = (hash, entry);
    }

    /// The job's search started (`entering`) or ended searching the node with `hash` and
    /// `depth` plies left (ABDADA's [`SearchContext::searching`] hook). Called inline only, as
    /// [`Mailbox::stored`].
    fn searching(&mut self, hash: u64, depth: u32, entering: bool) {
        let _ = (hash, depth, entering);
    }
}

/// The mailbox that only recognises stop messages (and drops every other message).
struct StopOn<M>(fn(&M) -> bool);

impl<M> Mailbox<M> for StopOn<M> {
    fn receive(&mut self, msg: M) -> bool {
        (self.0)(&msg)
    }
}

/// A job run in slices by a processor whose messages are `M`.
pub struct Sliced<T, M> {
    mode: Mode,
    job: Option<Job<T>>,
    worker: Option<Worker<T>>,
    mailbox: Box<dyn Mailbox<M>>,
    stop: bool,
    over: bool,
}

impl<T: Send + 'static, M: 'static> Sliced<T, M> {
    /// A job not yet started; `is_stop` recognises the messages that stop it (every other
    /// message is dropped).
    pub fn new(mode: Mode, job: Job<T>, is_stop: fn(&M) -> bool) -> Self {
        Self::with_mailbox(mode, job, Box::new(StopOn(is_stop)))
    }

    /// A job not yet started whose processor's messages go to `mailbox`.
    pub fn with_mailbox(mode: Mode, job: Job<T>, mailbox: Box<dyn Mailbox<M>>) -> Self {
        Sliced {
            mode,
            job: Some(job),
            worker: None,
            mailbox,
            stop: false,
            over: false,
        }
    }

    fn read_inbox(stop: &mut bool, mailbox: &mut dyn Mailbox<M>, ctx: &mut dyn Context<M>) {
        while let Some(env) = ctx.poll() {
            *stop |= mailbox.receive(env.msg);
        }
    }

    /// Runs one slice of the job.
    pub fn step(&mut self, ctx: &mut dyn Context<M>) -> Progress<T> {
        if self.over {
            Self::read_inbox(&mut self.stop, &mut *self.mailbox, ctx);
            return Progress::Over;
        }
        match self.mode {
            Mode::Inline => {
                let Some(job) = self.job.take() else {
                    return Progress::Over;
                };
                let mut link = InlineLink {
                    ctx,
                    pending: Work::default(),
                    stop: self.stop,
                    mailbox: &mut *self.mailbox,
                };
                let mut jc = JobCtx::new(&mut link);
                let output = job(&mut jc);
                let _ = link.pause();
                self.stop = link.stop;
                self.over = true;
                Progress::Done(output)
            }
            Mode::Stepped => self.step_worker(ctx),
        }
    }

    fn step_worker(&mut self, ctx: &mut dyn Context<M>) -> Progress<T> {
        Self::read_inbox(&mut self.stop, &mut *self.mailbox, ctx);
        self.mailbox.send(ctx);
        if self.worker.is_none() {
            let Some(job) = self.job.take() else {
                return Progress::Over;
            };
            self.worker = Some(spawn(job, self.stop, ctx.now()));
        } else if let Some(w) = &self.worker {
            if let Some(tx) = &w.resume {
                let _ = tx.send(ToWorker::Resume {
                    stop: self.stop,
                    now: ctx.now(),
                });
            }
        }
        let Some(w) = &mut self.worker else {
            return Progress::Over;
        };
        match w.reports.recv() {
            Ok(FromWorker::Yield { work }) => {
                ctx.charge_work(&work);
                Progress::Running
            }
            Ok(FromWorker::Done { work, output }) => {
                ctx.charge_work(&work);
                self.over = true;
                self.shut_down();
                Progress::Done(output)
            }
            Err(_) => {
                // The worker ended without reporting: it panicked. Pass the panic on.
                self.over = true;
                if let Some(h) = self.worker.as_mut().and_then(|w| w.handle.take()) {
                    if let Err(panic) = h.join() {
                        std::panic::resume_unwind(panic);
                    }
                }
                Progress::Over
            }
        }
    }

    fn shut_down(&mut self) {
        if let Some(mut w) = self.worker.take() {
            w.resume = None;
            if let Some(h) = w.handle.take() {
                // A worker that panicked after its last report has nothing more to say.
                let _ = h.join();
            }
        }
    }
}

impl<T, M> Drop for Sliced<T, M> {
    fn drop(&mut self) {
        if let Some(mut w) = self.worker.take() {
            // Closing the channel makes the worker's next pause answer Stop.
            w.resume = None;
            if let Some(h) = w.handle.take() {
                let _ = h.join();
            }
        }
    }
}

fn spawn<T: Send + 'static>(job: Job<T>, stop: bool, now: Nanos) -> Worker<T> {
    let (resume_tx, resume_rx) = channel();
    let (report_tx, report_rx) = channel();
    let handle = std::thread::spawn(move || {
        let mut link = WorkerLink {
            resume: resume_rx,
            reports: report_tx,
            pending: Work::default(),
            stop,
            now,
        };
        let mut jc = JobCtx::new(&mut link);
        let output = job(&mut jc);
        let work = std::mem::take(&mut link.pending);
        let _ = link.reports.send(FromWorker::Done { work, output });
    });
    Worker {
        resume: Some(resume_tx),
        reports: report_rx,
        handle: Some(handle),
    }
}

struct InlineLink<'a, M> {
    ctx: &'a mut dyn Context<M>,
    pending: Work,
    stop: bool,
    mailbox: &'a mut dyn Mailbox<M>,
}

impl<M> Link for InlineLink<'_, M> {
    fn add(&mut self, work: &Work) {
        self.pending.add(work);
    }

    fn pause(&mut self) -> Signal {
        let work = std::mem::take(&mut self.pending);
        if !work.is_empty() {
            self.ctx.charge_work(&work);
        }
        self.mailbox.send(self.ctx);
        self.stop_requested();
        if self.stop {
            Signal::Stop
        } else {
            Signal::Continue
        }
    }

    fn stop_requested(&mut self) -> bool {
        while let Some(env) = self.ctx.poll() {
            self.stop |= self.mailbox.receive(env.msg);
        }
        self.stop
    }

    fn now(&self) -> Nanos {
        self.ctx.now()
    }

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        self.mailbox.stored(hash, entry);
    }

    fn searching(&mut self, hash: u64, depth: u32, entering: bool) {
        self.mailbox.searching(hash, depth, entering);
    }
}

struct WorkerLink<T> {
    resume: Receiver<ToWorker>,
    reports: Sender<FromWorker<T>>,
    pending: Work,
    stop: bool,
    now: Nanos,
}

impl<T> Link for WorkerLink<T> {
    fn add(&mut self, work: &Work) {
        self.pending.add(work);
    }

    fn pause(&mut self) -> Signal {
        if self.stop {
            return Signal::Stop;
        }
        let work = std::mem::take(&mut self.pending);
        if self.reports.send(FromWorker::Yield { work }).is_err() {
            self.stop = true;
            return Signal::Stop;
        }
        match self.resume.recv() {
            Ok(ToWorker::Resume { stop, now }) => {
                self.stop |= stop;
                self.now = now;
            }
            Err(_) => self.stop = true,
        }
        if self.stop {
            Signal::Stop
        } else {
            Signal::Continue
        }
    }

    fn stop_requested(&mut self) -> bool {
        self.stop
    }

    fn now(&self) -> Nanos {
        self.now
    }

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        // The mailbox lives on the processor's thread (see `Mailbox::stored`).
        let _ = (hash, entry);
    }

    fn searching(&mut self, hash: u64, depth: u32, entering: bool) {
        let _ = (hash, depth, entering);
    }
}
