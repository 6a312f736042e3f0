//! Parallel search in the play setting: one run of the runtime per move, iterative deepening
//! inside it, ended by a clock and a stop that reach every processor, with the transposition
//! tables, the searchers and (on real threads) the processors' threads kept from move to move.
//! `README.md` beside this file describes how each family of algorithms runs in play.
//!
//! [`PlayEngine`] is what [`crate::engine::Player`] runs for a parallel method: every
//! registered algorithm, on real threads (a [`Pool`] of threads kept from move to move) or on
//! the simulator (virtual time: the clock is the simulated machine's).

pub(crate) mod watch;

use std::sync::Arc;
use std::time::Duration;

use dib::backend::threads::Pool;
use dib::{Backend, DibProcessor, ProcId};
use games::Game;

use super::aphid::AphidState;
use super::shared_table::{Scheme, SharedState};
use super::split_ab::{self, AbProblem, PlayNode, Role, SplitAb, SplitPolicy};
use super::{Engine, ParallelAlgo, ParallelError, ParallelOptions, deepening};
use crate::engine::{Stop, WallClock};

pub use watch::{Iteration, PlayLimits};
use watch::{Timed, Watch};

/// What a search in the play setting returns.
#[derive(Clone, Debug)]
pub struct PlayOutcome<M> {
    /// The last completed iteration (`None` when none completed before the clock or the stop).
    pub last: Option<Iteration<M>>,
    /// Nodes of all processors.
    pub nodes: u64,
    /// The run's time: the wall clock on threads, virtual time on the simulator.
    pub elapsed: Duration,
    /// The transposition tables' fill in permille at the end, where the algorithm has tables.
    pub hashfull: Option<u32>,
}

/// A parallel algorithm playing move after move: its options, its threads and what it keeps
/// between moves.
pub struct PlayEngine<G: Game> {
    algo: ParallelAlgo,
    options: ParallelOptions,
    /// The processors' threads (real threads only).
    pool: Option<Pool>,
    core: Core<G>,
}

impl<G: Game> std::fmt::Debug for PlayEngine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayEngine")
            .field("algo", &self.algo)
            .field("procs", &self.options.procs)
            .field("backend", &self.options.backend.name())
            .finish_non_exhaustive()
    }
}

/// What an algorithm keeps from move to move.
enum Core<G: Game> {
    /// The split engine's application (its tables and leaf searchers) and policy.
    Split {
        app: Arc<SplitAb<G>>,
        policy: SplitPolicy,
    },
    /// Lazy SMP's and ABDADA's table, busy counts and searchers.
    Shared(SharedState<G>),
    /// APHID's processors' tables.
    Aphid(AphidState),
}

impl<G: Game> PlayEngine<G> {
    /// `algo` with `options` (the processors, the backend, the search configuration: the play
    /// setting, or the research setting's fixed-depth tree deepened inside one run). The depth of
    /// `options` is ignored: each search's [`PlayLimits`] give it.
    ///
    /// # Errors
    /// [`ParallelError::BadOption`] for an option the algorithm refuses or the MPI backend
    /// (a search in play is ended by a clock that only processes of one machine share);
    /// [`ParallelError::Search`] when a table cannot be built; [`ParallelError::Thread`] when
    /// the threads cannot start.
    pub fn new(algo: ParallelAlgo, options: &ParallelOptions) -> Result<Self, ParallelError> {
        if options.procs == 0 {
            return Err(dib::DibError::NoProcessors.into());
        }
        let fitted = options.fitted_to::<G>();
        let options = fitted.unwrap_or_else(|| options.clone());
        let pool = match &options.backend {
            Backend::Threads { .. } => {
                Some(
                    Pool::new(options.procs).map_err(|e| ParallelError::BadOption {
                        algo: algo.name(),
                        message: format!("cannot start {} threads: {e}", options.procs),
                    })?,
                )
            }
            Backend::Sim(_) => None,
            Backend::Mpi { .. } => {
                return Err(ParallelError::BadOption {
                    algo: algo.name(),
                    message: "the play engine runs on threads or the simulator, not over MPI \
                              (its clock and stop are shared in memory)"
                        .to_string(),
                });
            }
        };
        let core = match (algo.engine(), split_ab::policy_of(algo, &options)?) {
            (Engine::Split, Some(policy)) => Core::Split {
                app: Arc::new(SplitAb::new(policy, &options)?),
                policy,
            },
            (Engine::SharedTable, _) => {
                let scheme = if algo == ParallelAlgo::Abdada {
                    Scheme::Abdada
                } else {
                    Scheme::Lazy
                };
                Core::Shared(SharedState::new(scheme, &options)?)
            }
            (Engine::Aphid, _) => Core::Aphid(AphidState::new(&options)?),
            (Engine::Split, None) => {
                return Err(ParallelError::BadOption {
                    algo: algo.name(),
                    message: "has no split policy".to_string(),
                });
            }
        };
        Ok(PlayEngine {
            algo,
            options,
            pool,
            core,
        })
    }

    /// The algorithm.
    #[must_use]
    pub fn algo(&self) -> ParallelAlgo {
        self.algo
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &ParallelOptions {
        &self.options
    }

    /// Forgets what earlier searches learnt (a new game): tables, killers, history.
    pub fn clear(&mut self) {
        match &mut self.core {
            Core::Split { app, .. } => {
                for t in app.tables() {
                    t.clear();
                }
                for p in app.pools() {
                    p.clear();
                }
            }
            Core::Shared(state) => state.clear(),
            Core::Aphid(state) => state.clear(),
        }
    }

    /// Searches `root` depth after depth within `limits`, timed by `clock` (on threads: the
    /// clock started when the move was asked for; `None` on the simulator, whose run starts at
    /// virtual time 0), until the limits or `stop` end it; `report` sees each completed
    /// iteration as it completes.
    ///
    /// # Errors
    /// [`ParallelError`] when the runtime fails.
    pub fn search(
        &mut self,
        root: &G,
        limits: &PlayLimits,
        clock: Option<WallClock>,
        stop: &Stop,
        report: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> Result<PlayOutcome<G::Move>, ParallelError> {
        let clock = clock.filter(|_| self.pool.is_some());
        let (tx, rx) = crossbeam_channel::unbounded();
        let margin = match &self.options.backend {
            Backend::Sim(c) => crate::search::POLL_INTERVAL.saturating_mul(c.cost.node_ns),
            _ => 0,
        };
        let watch = Watch::new(*limits, stop.clone(), clock, margin, Some(tx));
        if root.outcome().is_some() {
            return Ok(PlayOutcome {
                last: None,
                nodes: 0,
                elapsed: Duration::ZERO,
                hashfull: None,
            });
        }
        let (done_tx, done_rx) = crossbeam_channel::bounded::<()>(1);
        let this = &*self;
        let ran = std::thread::scope(|scope| {
            let run = scope.spawn(|| {
                let r = this.run(root, &watch);
                drop(done_tx);
                r
            });
            loop {
                crossbeam_channel::select! {
                    recv(rx) -> it => {
                        if let Ok(mut it) = it {
                            it.hashfull = Some(this.hashfull());
                            report(&it);
                        }
                    }
                    recv(done_rx) -> _ => break,
                }
            }
            for mut it in rx.try_iter() {
                it.hashfull = Some(this.hashfull());
                report(&it);
            }
            match run.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        });
        let elapsed_ns = ran?;
        Ok(PlayOutcome {
            last: watch.last(),
            nodes: watch.nodes(),
            elapsed: Duration::from_nanos(elapsed_ns),
            hashfull: Some(self.hashfull()),
        })
    }

    /// The tables' mean fill in permille.
    fn hashfull(&self) -> u32 {
        match &self.core {
            Core::Split { app, .. } => {
                let tables = app.tables();
                let sum: u32 = tables.iter().map(|t| t.hashfull()).sum();
                sum / u32::try_from(tables.len().max(1)).unwrap_or(1)
            }
            Core::Shared(state) => state.hashfull(),
            Core::Aphid(state) => state.hashfull(),
        }
    }

    /// One run under `watch`; returns its time.
    fn run(&self, root: &G, watch: &Arc<Watch<G::Move>>) -> Result<u64, ParallelError> {
        match &self.core {
            Core::Split { app, policy } => self.run_split(app, *policy, root, watch),
            Core::Shared(state) => {
                let build =
                    state.processors(root, &self.options.backend, self.options.procs, watch);
                let timed = |id: ProcId| Timed::new(build(id), Arc::clone(watch), id);
                self.run_processors(&timed)
            }
            Core::Aphid(state) => {
                let depth = watch.limits().depth;
                let build = state.processors(root, depth, &self.options, watch);
                let timed = |id: ProcId| Timed::new(build(id), Arc::clone(watch), id);
                self.run_processors(&timed)
            }
        }
    }

    /// The split engine's run: DIB processors, processor 0 holding the run root, which
    /// deepens inside the run.
    fn run_split(
        &self,
        app: &Arc<SplitAb<G>>,
        policy: SplitPolicy,
        root: &G,
        watch: &Arc<Watch<G::Move>>,
    ) -> Result<u64, ParallelError> {
        app.set_watch(Some(Arc::clone(watch)));
        for t in app.tables() {
            t.new_generation();
        }
        let role = if policy == SplitPolicy::Er {
            Role::Evaluate
        } else {
            Role::Plain
        };
        let mut problem = AbProblem::root(root.clone(), 1, role);
        problem.play = Some(PlayNode {
            null_ok: false,
            root_depth: 1,
        });
        problem.cd = policy.common_depth();
        let config = deepening::engine_dib_config(&self.options)
            .unwrap_or_else(|| self.options.backend.default_config());
        let build = |id: ProcId| {
            let root = (id == 0).then(|| problem.clone());
            Timed::new(
                DibProcessor::new(Arc::clone(app), config, root),
                Arc::clone(watch),
                id,
            )
            .root_stays()
        };
        let elapsed = self.run_processors(&build);
        app.set_watch(None);
        elapsed
    }

    /// Runs the processors `build` makes on the engine's backend; returns the run's time.
    fn run_processors<P: dib::Processor>(
        &self,
        build: &(dyn Fn(ProcId) -> P + Sync),
    ) -> Result<u64, ParallelError> {
        let procs = self.options.procs;
        match (&self.options.backend, &self.pool) {
            (Backend::Threads { seed }, Some(pool)) => {
                let out = pool.run(*seed, (0..procs).map(build).collect());
                Ok(out.elapsed_ns)
            }
            (backend, _) => {
                let out = dib::run_processors(procs, backend, &build, &|_| ())?;
                Ok(out.elapsed_ns)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, SearchConfig, Searcher, Unlimited};
    use dib::{CostModel, SimConfig};
    use games::checkers::Checkers;
    use games::tictactoe::TicTacToe4;

    /// The sequential values of depths 1 to `depth`.
    fn sequential<G: Game>(root: &G, depth: u32) -> Vec<i32> {
        (1..=depth)
            .map(|d| {
                let mut s = Searcher::<G>::new(SearchConfig::research()).unwrap();
                s.search(root, &Limits::depth(d), &mut Unlimited).value
            })
            .collect()
    }

    /// Every iteration's value of `algo` on `procs` processors of `backend` in the research
    /// setting, deepened inside one run.
    fn iterations<G: Game>(
        algo: ParallelAlgo,
        root: &G,
        depth: u32,
        procs: usize,
        backend: Backend,
    ) -> Vec<i32> {
        let mut options = ParallelOptions::for_algo(algo, depth, procs, backend);
        options.search = SearchConfig::research();
        let mut engine = PlayEngine::<G>::new(algo, &options).unwrap();
        let mut seen = Vec::new();
        let out = engine
            .search(
                root,
                &PlayLimits::depth(depth),
                None,
                &Stop::new(),
                &mut |it| seen.push((it.depth, it.value)),
            )
            .unwrap();
        assert_eq!(
            out.last.as_ref().map(|l| l.depth),
            Some(depth),
            "{algo} {seen:?} {out:?}"
        );
        assert_eq!(
            seen.iter().map(|s| s.0).collect::<Vec<_>>(),
            (1..=depth).collect::<Vec<_>>()
        );
        seen.into_iter().map(|s| s.1).collect()
    }

    #[test]
    fn deepening_inside_one_run_gives_each_depths_sequential_value_in_the_research_setting() {
        let root = TicTacToe4::start();
        let want = sequential(&root, 6);
        let checkers = Checkers::start();
        let want_checkers = sequential(&checkers, 7);
        for &algo in ParallelAlgo::ALL {
            for procs in [1, 3] {
                let sim = Backend::Sim(SimConfig::new(CostModel::shared_memory(), 3));
                assert_eq!(
                    iterations(algo, &root, 6, procs, sim),
                    want,
                    "{algo} x{procs}"
                );
            }
            let sim = Backend::Sim(SimConfig::new(CostModel::shared_memory(), 3));
            assert_eq!(
                iterations(algo, &checkers, 7, 2, sim),
                want_checkers,
                "{algo} sim checkers"
            );
            let threads = Backend::Threads { seed: 1 };
            assert_eq!(
                iterations(algo, &root, 6, 2, threads.clone()),
                want,
                "{algo} threads ttt"
            );
            assert_eq!(
                iterations(algo, &checkers, 7, 2, threads),
                want_checkers,
                "{algo} on threads"
            );
        }
    }
}
