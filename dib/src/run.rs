//! Solving a problem with DIB on a chosen backend, and the report of the run.

use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::accounting::{DibCounters, ProcAccounts};
use crate::application::Application;
use crate::backend::sim::{SimConfig, SimError, SimFigures};
use crate::backend::{RunOutcome, sim, threads};
use crate::context::{Nanos, ProcId};
use crate::processor::{Factory, Processor};
use crate::worker::{DibConfig, DibProcessor};

/// Where processors run.
#[derive(Clone, Debug, PartialEq, Eq)]
// Built once per run and passed by reference: the size of the simulator's settings is no cost.
#[allow(clippy::large_enum_variant)]
pub enum Backend {
    /// One OS thread per processor; `seed` seeds the processors' RNGs.
    Threads {
        /// The seed of the processors' RNGs.
        seed: u64,
    },
    /// The deterministic simulator.
    Sim(SimConfig),
    /// One MPI rank per processor (feature `mpi`; run under `mpirun`/`srun` with a live
    /// `dib::backend::mpi::Session`). Every rank calls [`solve`] (or [`run_processors`]) with
    /// the same arguments, and `procs` must equal the world size; every rank gets the report
    /// (see [`Report::rank`]).
    Mpi {
        /// The seed of the processors' RNGs.
        seed: u64,
    },
}

impl Backend {
    /// `threads`, `sim` or `mpi`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Threads { .. } => "threads",
            Backend::Sim(_) => "sim",
            Backend::Mpi { .. } => "mpi",
        }
    }

    /// The protocol settings that suit this backend.
    #[must_use]
    pub fn default_config(&self) -> DibConfig {
        match self {
            Backend::Threads { .. } => DibConfig::for_threads(),
            Backend::Sim(c) => DibConfig::for_sim(&c.cost),
            // As on threads; a refused requester waits a little longer between messages that
            // may cross a network.
            Backend::Mpi { .. } => DibConfig {
                retry_delay_ns: 50_000,
                ..DibConfig::for_threads()
            },
        }
    }
}

/// Why a DIB run failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DibError {
    /// Zero processors asked for.
    #[error("a run needs at least 1 processor")]
    NoProcessors,
    /// The simulator failed (the message carries the seed that reproduces it).
    #[error(transparent)]
    Sim(#[from] SimError),
    /// `Backend::Mpi` with a processor count other than the MPI world size.
    #[error(
        "{asked} processors asked for but MPI runs {world} ranks: launch with `mpirun -n {asked}` or ask for {world}"
    )]
    MpiProcs {
        /// Processors asked for.
        asked: usize,
        /// Ranks in the MPI world.
        world: usize,
    },
    /// The MPI backend failed.
    #[error(transparent)]
    Mpi(#[from] crate::backend::mpi::MpiError),
    /// The run ended without the root's value (a bug in the runtime or the application).
    #[error("the run ended without a value for the root{}", seed.map(|s| format!(" (seed {s})")).unwrap_or_default())]
    NoValue {
        /// The simulator seed, if simulated.
        seed: Option<u64>,
    },
}

/// The result of a run with its accounting.
#[derive(Clone, Debug, Serialize)]
pub struct Report<V> {
    /// The root's value.
    pub value: V,
    /// The backend's name.
    pub backend: &'static str,
    /// Processors.
    pub procs: usize,
    /// Time to the root's value (virtual on the simulator).
    pub elapsed_ns: Nanos,
    /// Per-processor accounting.
    pub accounts: Vec<ProcAccounts>,
    /// Their sum.
    pub total: ProcAccounts,
    /// Simulator figures (seed, trace hash, faults injected).
    pub sim: Option<SimFigures>,
    /// The protocol settings used.
    pub config: DibConfig,
    /// On MPI, this process's rank (every rank gets the same report; rank 0 is the one that
    /// should print it); `None` on the other backends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<ProcId>,
}

impl<V> Report<V> {
    /// Elapsed time in seconds.
    #[must_use]
    pub fn seconds(&self) -> f64 {
        self.elapsed_ns as f64 / 1e9
    }

    /// Whether this process holds the root's report to print: always off MPI, rank 0 on MPI.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.rank.is_none_or(|r| r == 0)
    }
}

/// Solves `root` with `procs` DIB processors on `backend` (`config`: the backend's default
/// when `None`). Processor 0 holds the root.
///
/// # Errors
/// [`DibError`] when the run cannot start or the simulator stalls.
pub fn solve<A: Application>(
    app: Arc<A>,
    root: A::Problem,
    procs: usize,
    backend: &Backend,
    config: Option<DibConfig>,
) -> Result<Report<A::Value>, DibError> {
    let config = config.unwrap_or_else(|| backend.default_config());
    let factory = |id: ProcId| {
        let root = (id == 0).then(|| root.clone());
        DibProcessor::new(Arc::clone(&app), config, root)
    };
    // What the report needs of each processor (also what crosses ranks over MPI).
    let summarize = |p: DibProcessor<A>| (p.result().cloned(), p.counters());
    let outcome = run_processors(procs, backend, &factory, &summarize)?;
    let seed = outcome.sim.map(|s| s.seed);
    let value = outcome
        .processors
        .iter()
        .find_map(|(value, _)| value.clone())
        .ok_or(DibError::NoValue { seed })?;
    Ok(Report::from_outcome(
        value,
        backend,
        &outcome,
        |(_, counters)| *counters,
        config,
    ))
}

/// Runs `procs` processors built by `factory` on `backend` until one of them calls
/// [`crate::Context::finish`], and hands back each processor's `summarize`d state with the
/// backend's counters: the worker-model counterpart of [`solve`] for protocols of their own
/// (APHID's master and slaves, Lazy SMP).
///
/// On [`Backend::Mpi`] (feature `mpi`, under `mpirun`/`srun` with a live
/// `dib::backend::mpi::Session`) every rank calls it with the same arguments; `procs` must
/// equal the world size. Each rank builds and runs processor number `rank` and summarizes it;
/// the summaries and counters are gathered at rank 0 and broadcast, so every rank gets the
/// same outcome, with [`RunOutcome::rank`] saying which rank it is (only rank 0 should print:
/// [`RunOutcome::is_root`]). Summaries are serialized for that, hence the serde bounds; on
/// threads and the simulator they never leave the process.
///
/// # Errors
/// [`DibError`] when no processor is asked for, the simulator fails, or on MPI: the build has
/// no MPI library or no MPI session ([`DibError::Mpi`]), `procs` differs from the world size, or a message or
/// summary cannot cross ranks.
pub fn run_processors<P, S>(
    procs: usize,
    backend: &Backend,
    factory: &dyn Factory<P>,
    summarize: &dyn Fn(P) -> S,
) -> Result<RunOutcome<S>, DibError>
where
    P: Processor,
    S: Serialize + DeserializeOwned,
{
    if procs == 0 {
        return Err(DibError::NoProcessors);
    }
    match backend {
        Backend::Threads { seed } => Ok(threads::run(procs, *seed, factory).summarized(summarize)),
        Backend::Sim(sim_config) => Ok(sim::run(procs, sim_config, factory)?.summarized(summarize)),
        Backend::Mpi { seed } => {
            crate::backend::mpi::gathered::run_gathered(procs, *seed, factory, summarize)
        }
    }
}

impl<V> Report<V> {
    /// The report of a finished run: `value`, the backend's counters and each processor's
    /// protocol counters (read by `dib_counters`).
    pub fn from_outcome<P>(
        value: V,
        backend: &Backend,
        outcome: &RunOutcome<P>,
        dib_counters: impl Fn(&P) -> DibCounters,
        config: DibConfig,
    ) -> Report<V> {
        let accounts: Vec<ProcAccounts> = outcome
            .processors
            .iter()
            .zip(&outcome.counters)
            .map(|(p, c)| ProcAccounts {
                backend: *c,
                dib: dib_counters(p),
            })
            .collect();
        Report {
            value,
            backend: backend.name(),
            procs: outcome.processors.len(),
            elapsed_ns: outcome.elapsed_ns,
            total: ProcAccounts::total(&accounts),
            accounts,
            sim: outcome.sim,
            config,
            rank: outcome.rank,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Context;
    use crate::processor::Activity;

    /// A processor that ends the run at once.
    struct Quick;

    impl Processor for Quick {
        type Msg = ();

        fn run(&mut self, ctx: &mut dyn Context<()>) -> Activity {
            ctx.finish();
            Activity::Idle { wake_at: None }
        }
    }

    #[test]
    fn run_processors_hands_back_summaries_in_processor_order() {
        let factory = |_: ProcId| Quick;
        let out = run_processors(3, &Backend::Threads { seed: 1 }, &factory, &|_: Quick| 7u8)
            .expect("runs");
        assert_eq!(out.processors, vec![7, 7, 7]);
        assert_eq!(out.counters.len(), 3);
        assert_eq!(out.rank, None);
        assert!(out.is_root());
    }

    #[test]
    fn mpi_without_a_session_is_refused() {
        use crate::backend::mpi::MpiError;
        let factory = |_: ProcId| Quick;
        let err = run_processors(2, &Backend::Mpi { seed: 1 }, &factory, &|_: Quick| ())
            .expect_err("no MPI session here");
        assert!(
            matches!(
                err,
                DibError::Mpi(MpiError::NotBuilt | MpiError::NotInitialized)
            ),
            "{err}"
        );
    }
}
