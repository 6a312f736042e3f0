//! The processors of the algorithms whose processors share nothing but a transposition table
//! (Lazy SMP, `lazysmp.md`; ABDADA, `abdada.md`): processor 0 runs the main search, whose last
//! completed iteration is the answer, and the others run helper searches that only fill the
//! table (and, under ABDADA, the count of processors searching each node). A recursive search
//! cannot be suspended, so each processor runs its search as a job of `sliced`: inline on
//! threads, stepped in lockstep with the simulator.
//!
//! Over MPI ranks share no memory: every rank has its own table, and its mailbox
//! ([`Exchange`]) sends the entries its searches store with at least [`SHARE_MIN_DEPTH`]
//! plies left, and under ABDADA the nodes its searches start and end with as many plies, to
//! every other rank at every poll.
//!
//! In the play setting (`play`) the same processors search one move: the main search deepens
//! until the run's watch ends it, the helpers until the main search is done, with a table and
//! searchers kept from move to move ([`SharedState`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use dib::backend::RunOutcome;
use dib::{Activity, Backend, Context, DibCounters, ProcAccounts, ProcId, Processor};
use games::Game;
use serde::{Deserialize, Serialize};

use super::play::watch::Watch;
use super::sliced::{Job, JobContext, JobCtx, Mailbox, Mode, Progress, Sliced};
use super::{Figures, ParallelError, ParallelOptions, ParallelResult, lazysmp};
use crate::search::tt::TtEntry;
use crate::search::{
    BusyTable, Limits, SearchConfig, SearchContext, SearchResult, SearchStats, Searcher, Signal,
    TranspositionTable, TtMode,
};

/// Which algorithm the processors run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scheme {
    /// Lazy SMP: helpers deepen on their own schedules, each starting at its own root move.
    Lazy,
    /// ABDADA: every processor deepens as the main search does, younger children that another
    /// processor searches put off to a second pass.
    Abdada,
}

impl Scheme {
    fn name(self) -> &'static str {
        match self {
            Scheme::Lazy => "lazysmp",
            Scheme::Abdada => "abdada",
        }
    }
}

/// What the processors tell each other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum TableMsg {
    /// The main search is done: stop searching.
    Stop,
    /// Table entries (position hash, entry) the sender stored since its last poll (over MPI,
    /// where ranks share no table).
    Entries(Vec<(u64, TtEntry)>),
    /// ABDADA over MPI: nodes (position hash) the sender's search started (`true`) or ended
    /// since its last poll.
    Busy(Vec<(u64, bool)>),
}

/// Over MPI, a rank sends the entries its table stored with at least this many plies left
/// (shallower ones are cheaper to search again than to send; the research setting does not
/// store below 2 plies anyway), and under ABDADA the nodes with as many plies it starts and
/// ends.
pub(crate) const SHARE_MIN_DEPTH: u8 = 3;

/// Over MPI, at most this many entries (and as many busy marks) are collected per poll
/// interval (1,024 nodes); a search stores far fewer deep entries than that.
const SHARE_CAPACITY: usize = 1024;

/// The mailbox of a rank over MPI: takes in other ranks' entries and busy marks, sends its own.
pub(crate) struct Exchange {
    pub(crate) table: Arc<TranspositionTable>,
    /// ABDADA: the rank's count of processors searching each node.
    pub(crate) busy: Option<Arc<BusyTable>>,
    /// Entries taken in so far (read by the processor's summary).
    pub(crate) imported: Arc<AtomicU64>,
    /// This rank's deep stores since the last send (at most [`SHARE_CAPACITY`]).
    pub(crate) outbox: Vec<(u64, TtEntry)>,
    /// ABDADA: this rank's deep nodes started and ended since the last send.
    pub(crate) marks: Vec<(u64, bool)>,
}

impl Mailbox<TableMsg> for Exchange {
    fn receive(&mut self, msg: TableMsg) -> bool {
        match msg {
            TableMsg::Stop => true,
            TableMsg::Entries(entries) => {
                self.imported
                    .fetch_add(entries.len() as u64, Ordering::Relaxed);
                // Written to the table directly, not through a search: the hook does not see
                // them, so they are not sent on again (no echo).
                for (hash, entry) in entries {
                    self.table.store(hash, entry);
                }
                false
            }
            TableMsg::Busy(marks) => {
                if let Some(busy) = &self.busy {
                    for (hash, entering) in marks {
                        if entering {
                            let _ = busy.enter(hash);
                        } else {
                            busy.leave(hash);
                        }
                    }
                }
                false
            }
        }
    }

    fn send(&mut self, ctx: &mut dyn Context<TableMsg>) {
        let me = ctx.id();
        if !self.outbox.is_empty() {
            let entries = std::mem::take(&mut self.outbox);
            for peer in (0..ctx.procs()).filter(|&p| p != me) {
                ctx.send(peer, TableMsg::Entries(entries.clone()));
            }
        }
        if !self.marks.is_empty() {
            let marks = std::mem::take(&mut self.marks);
            for peer in (0..ctx.procs()).filter(|&p| p != me) {
                ctx.send(peer, TableMsg::Busy(marks.clone()));
            }
        }
    }

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        if entry.depth >= SHARE_MIN_DEPTH && self.outbox.len() < SHARE_CAPACITY {
            self.outbox.push((hash, *entry));
        }
    }

    fn searching(&mut self, hash: u64, depth: u32, entering: bool) {
        if depth >= u32::from(SHARE_MIN_DEPTH) && self.marks.len() < SHARE_CAPACITY {
            self.marks.push((hash, entering));
        }
    }
}

/// What processor 0 returns.
type MainOutput<M> = SearchResult<M>;

/// What the run reports of one processor (the main search's answer on processor 0); it
/// crosses ranks over MPI.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct Summary<G: Game> {
    /// The main search's answer (processor 0 only).
    main: Option<MainAnswer<G::Move>>,
    /// Table entries received from other ranks (MPI only).
    imported: u64,
}

/// What the result takes from the main search.
#[derive(Serialize, Deserialize)]
struct MainAnswer<M> {
    value: i32,
    best_move: Option<M>,
    pv: Vec<M>,
    tt_cutoffs: u64,
    deferred: u64,
}

/// What the jobs of one run share.
struct Setup<G: Game> {
    scheme: Scheme,
    root: G,
    depth: u32,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    /// ABDADA: the count of processors searching each node.
    busy: Option<Arc<BusyTable>>,
    mode: Mode,
    /// Whether every processor of the run probes `table` (not over MPI, where each rank has
    /// its own): probes are then charged as shared-table probes.
    shared: bool,
}

/// ABDADA counts the processors at nodes with at least this many plies left (and puts off
/// only such children): shallower nodes are cheaper to search twice than to count.
pub(crate) const ABDADA_MIN_DEPTH: u32 = 2;

impl<G: Game> Setup<G> {
    /// A searcher of this run on the shared table (and, under ABDADA, the busy table).
    fn searcher(&self) -> Searcher<G> {
        let s = Searcher::with_table(self.config, Arc::clone(&self.table));
        match &self.busy {
            Some(b) => s.with_busy(Arc::clone(b), ABDADA_MIN_DEPTH),
            None => s,
        }
    }
}

/// The main search: sequential iterative deepening to the depth.
fn main_job<G: Game>(setup: &Setup<G>) -> Job<Option<MainOutput<G::Move>>> {
    let (root, depth, mut s) = (setup.root.clone(), setup.depth, setup.searcher());
    let shared = setup.shared;
    Box::new(move |ctx: &mut JobCtx<'_>| {
        ctx.set_shared_table(shared);
        let r = s.search(&root, &Limits::depth(depth), ctx);
        ctx.settle(r.stats.nodes());
        Some(r)
    })
}

/// A helper: Lazy SMP's schedule of depths and root moves (`lazysmp`), or ABDADA's iterative
/// deepening as the main search's.
fn helper_job<G: Game>(setup: &Setup<G>, h: usize) -> Job<Option<MainOutput<G::Move>>> {
    let (root, depth, mut s) = (setup.root.clone(), setup.depth, setup.searcher());
    let shared = setup.shared;
    let scheme = setup.scheme;
    Box::new(move |ctx: &mut JobCtx<'_>| {
        ctx.set_shared_table(shared);
        match scheme {
            Scheme::Lazy => lazysmp::helper_search(&mut s, &root, h, depth, ctx),
            Scheme::Abdada => {
                let r = s.search(&root, &Limits::depth(depth), ctx);
                ctx.settle(r.stats.nodes());
            }
        }
        None
    })
}

/// One processor.
pub(crate) struct SharedProcessor<G: Game> {
    id: ProcId,
    job: Sliced<Option<MainOutput<G::Move>>, TableMsg>,
    result: Option<MainOutput<G::Move>>,
    /// Table entries received from other ranks (MPI only).
    imported: Arc<AtomicU64>,
}

impl<G: Game> Processor for SharedProcessor<G> {
    type Msg = TableMsg;

    fn run(&mut self, ctx: &mut dyn Context<TableMsg>) -> Activity {
        match self.job.step(ctx) {
            Progress::Running => Activity::Busy,
            Progress::Done(out) => {
                if self.id == 0 {
                    self.result = out;
                    for p in 1..ctx.procs() {
                        ctx.send(p, TableMsg::Stop);
                    }
                    ctx.finish();
                }
                Activity::Idle { wake_at: None }
            }
            Progress::Over => Activity::Idle { wake_at: None },
        }
    }
}

/// The mode of `backend`'s jobs.
fn mode_of(backend: &Backend) -> Mode {
    match backend {
        Backend::Threads { .. } | Backend::Mpi { .. } => Mode::Inline,
        Backend::Sim(_) => Mode::Stepped,
    }
}

/// Searches `root` to `options.depth` plies with `scheme` on `options.procs` processors.
///
/// # Errors
/// [`ParallelError::BadOption`] when the table is off (there would be nothing to share);
/// [`ParallelError::Search`] when the table cannot be built; [`ParallelError::Dib`] when the
/// runtime fails.
pub(crate) fn search<G: Game>(
    scheme: Scheme,
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    check(scheme, options)?;
    let mode = mode_of(&options.backend);
    // Over MPI this process's table is its rank's alone; its mailbox collects what the others
    // need (inline, so it sees the searches' stores).
    let exchange = matches!(options.backend, Backend::Mpi { .. });
    let table = TranspositionTable::for_config(&options.search)
        .map_err(crate::search::SearchError::from)?;
    table.new_generation();
    let setup = Setup {
        scheme,
        root: root.clone(),
        depth: options.depth,
        config: options.search,
        table: Arc::new(table),
        busy: (scheme == Scheme::Abdada).then(|| Arc::new(BusyTable::new())),
        mode,
        shared: !exchange && options.procs > 1,
    };
    let factory = |id: ProcId| {
        let job = if id == 0 {
            main_job(&setup)
        } else {
            helper_job(&setup, id)
        };
        processor(id, job, &setup, exchange)
    };
    // Helpers still blocked in their searches stop and are joined as they are summarized.
    let summarize = |p: SharedProcessor<G>| Summary::<G> {
        main: p.result.map(|r| MainAnswer {
            value: r.value,
            best_move: r.best_move,
            pv: r.pv,
            tt_cutoffs: r.stats.tt_cutoffs,
            deferred: r.stats.deferred,
        }),
        imported: p.imported.load(Ordering::Relaxed),
    };
    let outcome = dib::run_processors(options.procs, &options.backend, &factory, &summarize)?;
    let mut result = finish(scheme, outcome, options)?;
    result.figures.hashfull = Some(f64::from(setup.table.hashfull()));
    Ok(result)
}

/// Refuses a table that is off: there would be nothing to share.
fn check(scheme: Scheme, options: &ParallelOptions) -> Result<(), ParallelError> {
    if options.search.tt_mode == TtMode::Off {
        return Err(ParallelError::BadOption {
            algo: scheme.name(),
            message: "the processors share a transposition table; use --tt-mode exact (or normal)"
                .to_string(),
        });
    }
    if options.procs == 0 {
        return Err(dib::DibError::NoProcessors.into());
    }
    Ok(())
}

/// Processor `id` running `job` (with the exchange of entries over MPI).
fn processor<G: Game>(
    id: ProcId,
    job: Job<Option<MainOutput<G::Move>>>,
    setup: &Setup<G>,
    exchange: bool,
) -> SharedProcessor<G> {
    let imported = Arc::new(AtomicU64::new(0));
    let job = if exchange {
        let mailbox = Exchange {
            table: Arc::clone(&setup.table),
            busy: setup.busy.clone(),
            imported: Arc::clone(&imported),
            outbox: Vec::new(),
            marks: Vec::new(),
        };
        Sliced::with_mailbox(setup.mode, job, Box::new(mailbox))
    } else {
        Sliced::new(setup.mode, job, |m| *m == TableMsg::Stop)
    };
    SharedProcessor::<G> {
        id,
        job,
        result: None,
        imported,
    }
}

fn finish<G: Game>(
    scheme: Scheme,
    mut outcome: RunOutcome<Summary<G>>,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let seed = outcome.sim.map(|s| s.seed);
    let MainAnswer {
        value,
        best_move,
        pv,
        tt_cutoffs,
        deferred,
    } = outcome
        .processors
        .get_mut(0)
        .and_then(|p| p.main.take())
        .ok_or(dib::DibError::NoValue { seed })?;
    let accounts: Vec<ProcAccounts> = outcome
        .counters
        .iter()
        .map(|c| ProcAccounts {
            backend: *c,
            dib: DibCounters::default(),
        })
        .collect();
    let total = ProcAccounts::total(&accounts);
    let main_nodes = accounts.first().map_or(0, |a| a.backend.nodes);
    let figures = Figures {
        main_nodes: Some(main_nodes),
        helper_nodes: Some(total.backend.nodes - main_nodes),
        main_tt_cutoffs: Some(tt_cutoffs),
        entries_received: Some(outcome.processors.iter().map(|p| p.imported).sum()),
        main_deferred: (scheme == Scheme::Abdada).then_some(deferred),
        ..Figures::default()
    };
    Ok(ParallelResult {
        value,
        best_move,
        pv,
        nodes: total.backend.nodes,
        horizon_leaves: None,
        seconds: outcome.elapsed_ns as f64 / 1e9,
        backend: options.backend.name(),
        procs: options.procs,
        accounts,
        total,
        sim: outcome.sim,
        figures,
        aphid: None,
        rank: outcome.rank,
    })
}

/// What Lazy SMP and ABDADA keep from move to move in the play setting: the table, the busy
/// counts, and each processor's searcher (its killers and history).
pub(crate) struct SharedState<G: Game> {
    scheme: Scheme,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    busy: Option<Arc<BusyTable>>,
    searchers: Arc<Mutex<Vec<Option<Searcher<G>>>>>,
}

impl<G: Game> SharedState<G> {
    /// The state of `scheme` with `options` (their table size and search configuration).
    ///
    /// # Errors
    /// As [`search`]'s.
    pub(crate) fn new(scheme: Scheme, options: &ParallelOptions) -> Result<Self, ParallelError> {
        check(scheme, options)?;
        let table = TranspositionTable::for_config(&options.search)
            .map_err(crate::search::SearchError::from)?;
        let busy = (scheme == Scheme::Abdada).then(|| Arc::new(BusyTable::new()));
        let searchers = (0..options.procs).map(|_| None).collect();
        let mut state = SharedState {
            scheme,
            config: options.search,
            table: Arc::new(table),
            busy,
            searchers: Arc::new(Mutex::new(searchers)),
        };
        state.rebind();
        Ok(state)
    }

    /// Gives every searcher the shared table (and busy counts).
    fn rebind(&mut self) {
        let mut all = self
            .searchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for slot in all.iter_mut() {
            let s = Searcher::with_table(self.config, Arc::clone(&self.table));
            *slot = Some(match &self.busy {
                Some(b) => s.with_busy(Arc::clone(b), ABDADA_MIN_DEPTH),
                None => s,
            });
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub(crate) fn clear(&mut self) {
        self.table.clear();
        if let Some(b) = &self.busy {
            b.clear();
        }
        self.rebind();
    }

    /// The table's fill in permille.
    pub(crate) fn hashfull(&self) -> u32 {
        self.table.hashfull()
    }

    /// The processors of one move's run under `watch` on `backend`.
    pub(crate) fn processors(
        &self,
        root: &G,
        backend: &Backend,
        procs: usize,
        watch: &Arc<Watch<G::Move>>,
    ) -> impl Fn(ProcId) -> SharedProcessor<G> + Sync + use<'_, G> {
        self.table.new_generation();
        let mode = mode_of(backend);
        let shared = procs > 1;
        let root = root.clone();
        let watch = Arc::clone(watch);
        move |id: ProcId| {
            let job = play_job(self.scheme, id, &root, shared, &self.searchers, &watch);
            let setup = Setup {
                scheme: self.scheme,
                root: root.clone(),
                depth: 0,
                config: self.config,
                table: Arc::clone(&self.table),
                busy: self.busy.clone(),
                mode,
                shared,
            };
            processor(id, job, &setup, false)
        }
    }
}

/// The job of processor `id` in the play setting: the main search deepens and records each
/// iteration in the watch; a helper searches until the main search is done.
fn play_job<G: Game>(
    scheme: Scheme,
    id: ProcId,
    root: &G,
    shared: bool,
    searchers: &Arc<Mutex<Vec<Option<Searcher<G>>>>>,
    watch: &Arc<Watch<G::Move>>,
) -> Job<Option<MainOutput<G::Move>>> {
    let root = root.clone();
    let searchers = Arc::clone(searchers);
    let watch = Arc::clone(watch);
    Box::new(move |ctx: &mut JobCtx<'_>| {
        ctx.set_shared_table(shared);
        let taken = searchers.lock().unwrap_or_else(PoisonError::into_inner)[id].take();
        let mut s = taken?;
        let depth = watch.limits().depth;
        let mut play = PlayCtx {
            job: ctx,
            watch: &watch,
            main: id == 0,
        };
        let out = if id == 0 {
            let limits = Limits::depth(depth);
            let r = s.search_with_progress(&root, &limits, &mut play, &mut |p| {
                let now = watch.now(u64::try_from(p.elapsed.as_nanos()).unwrap_or(u64::MAX));
                // The main search's nodes are charged at its polls: at least they were searched.
                let pending = p.nodes.saturating_sub(watch.nodes());
                watch.record(p.depth, p.value, p.pv.to_vec(), now, pending);
            });
            play.settle(r.stats.nodes());
            Some(r)
        } else {
            match scheme {
                Scheme::Lazy => lazysmp::helper_search(&mut s, &root, id, depth, &mut play),
                Scheme::Abdada => {
                    let r = s.search(&root, &Limits::depth(depth), &mut play);
                    play.settle(r.stats.nodes());
                }
            }
            None
        };
        searchers.lock().unwrap_or_else(PoisonError::into_inner)[id] = Some(s);
        if id == 0 {
            // Helpers stop at their next poll (they also get the stop message).
            watch.halt();
        }
        out
    })
}

/// The search context of a job in the play setting: the processor's, and the watch's halt;
/// for the main search also the clock, the stop and the soft deadline.
pub(crate) struct PlayCtx<'a, 'b, M> {
    pub(crate) job: &'a mut JobCtx<'b>,
    watch: &'a Watch<M>,
    main: bool,
}

impl<M: Clone> PlayCtx<'_, '_, M> {
    fn now(&self) -> u64 {
        let own = u64::try_from(self.job.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.watch.now(own)
    }
}

impl<M: Clone> SearchContext for PlayCtx<'_, '_, M> {
    fn elapsed(&self) -> std::time::Duration {
        self.job.elapsed()
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        let signal = self.job.poll(nodes);
        self.verdict(signal)
    }

    fn poll_counts(&mut self, nodes: u64, stats: &SearchStats) -> Signal {
        let signal = self.job.poll_counts(nodes, stats);
        self.verdict(signal)
    }

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        self.job.stored(hash, entry);
    }

    fn searching(&mut self, hash: u64, depth: u32, entering: bool) {
        self.job.searching(hash, depth, entering);
    }

    fn past_soft_deadline(&self) -> bool {
        self.main && self.watch.past_soft(self.now())
    }
}

impl<M: Clone> JobContext for PlayCtx<'_, '_, M> {
    fn settle(&mut self, nodes: u64) {
        self.job.settle(nodes);
    }

    fn stop_requested(&mut self) -> bool {
        self.job.stop_requested() || self.watch.halted()
    }
}

impl<M: Clone> PlayCtx<'_, '_, M> {
    fn verdict(&self, signal: Signal) -> Signal {
        if signal == Signal::Stop
            || self.watch.halted()
            || (self.main && self.watch.expired(self.now()))
        {
            Signal::Stop
        } else {
            Signal::Continue
        }
    }
}
