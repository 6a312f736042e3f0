//! Solving a problem with DIB on a chosen backend, and the report of the run.

use std::sync::Arc;

use serde::Serialize;

use crate::accounting::{DibCounters, ProcAccounts};
use crate::application::Application;
use crate::backend::sim::{SimConfig, SimError, SimFigures};
use crate::backend::{RunOutcome, sim, threads};
use crate::context::{Nanos, ProcId};
use crate::processor::{Factory, Processor};
use crate::worker::{DibConfig, DibProcessor};

/// Where processors run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One OS thread per processor; `seed` seeds the processors' RNGs.
    Threads {
        /// The seed of the processors' RNGs.
        seed: u64,
    },
    /// The deterministic simulator.
    Sim(SimConfig),
    /// One MPI rank per processor (feature `mpi`; run under `mpirun`/`srun` with a live
    /// `dib::backend::mpi::Session`). Every rank calls [`solve`] with the same arguments, and
    /// `procs` must equal the world size; every rank gets the report (see [`Report::rank`]).
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
    /// `Backend::Mpi` in a build without the `mpi` feature.
    #[error("this build has no MPI backend: rebuild with `--features mpi` (see README.md)")]
    MpiNotBuilt,
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
    #[cfg(feature = "mpi")]
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
    if procs == 0 {
        return Err(DibError::NoProcessors);
    }
    let config = config.unwrap_or_else(|| backend.default_config());
    let factory = |id: ProcId| {
        let root = (id == 0).then(|| root.clone());
        DibProcessor::new(Arc::clone(&app), config, root)
    };
    if let Backend::Mpi { seed } = backend {
        return solve_mpi(Arc::clone(&app), root.clone(), procs, *seed, config);
    }
    let outcome: RunOutcome<DibProcessor<A>> = run_processors(procs, backend, &factory)?;
    let seed = outcome.sim.map(|s| s.seed);
    let value = outcome
        .processors
        .iter()
        .find_map(|p| p.result().cloned())
        .ok_or(DibError::NoValue { seed })?;
    Ok(Report::from_outcome(
        value,
        backend,
        &outcome,
        DibProcessor::counters,
        config,
    ))
}

/// Runs `procs` processors built by `factory` on `backend` until one of them calls
/// [`crate::Context::finish`]: the worker-model counterpart of [`solve`] for protocols of
/// their own (APHID's master and slaves). Threads and the simulator only; MPI runs go through
/// [`solve`].
///
/// # Errors
/// [`DibError`] when no processor is asked for, the simulator fails, or the backend is MPI.
pub fn run_processors<P: Processor>(
    procs: usize,
    backend: &Backend,
    factory: &dyn Factory<P>,
) -> Result<RunOutcome<P>, DibError> {
    if procs == 0 {
        return Err(DibError::NoProcessors);
    }
    match backend {
        Backend::Threads { seed } => Ok(threads::run(procs, *seed, factory)),
        Backend::Sim(sim_config) => Ok(sim::run(procs, sim_config, factory)?),
        Backend::Mpi { .. } => Err(DibError::MpiNotBuilt),
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
            rank: None,
        }
    }
}

/// [`solve`] on [`Backend::Mpi`].
#[cfg(feature = "mpi")]
fn solve_mpi<A: Application>(
    app: Arc<A>,
    root: A::Problem,
    procs: usize,
    seed: u64,
    config: DibConfig,
) -> Result<Report<A::Value>, DibError> {
    let (_, world) = crate::backend::mpi::rank_and_size()?;
    if procs != world {
        return Err(DibError::MpiProcs {
            asked: procs,
            world,
        });
    }
    let run = crate::backend::mpi::solve::solve_dib(app, root, config, seed)?;
    let value = run.value.ok_or(DibError::NoValue { seed: None })?;
    Ok(Report {
        value,
        backend: "mpi",
        procs,
        elapsed_ns: run.elapsed_ns,
        total: ProcAccounts::total(&run.accounts),
        accounts: run.accounts,
        sim: None,
        config,
        rank: Some(run.rank),
    })
}

/// [`solve`] on [`Backend::Mpi`] in a build without MPI.
#[cfg(not(feature = "mpi"))]
fn solve_mpi<A: Application>(
    _app: Arc<A>,
    _root: A::Problem,
    _procs: usize,
    _seed: u64,
    _config: DibConfig,
) -> Result<Report<A::Value>, DibError> {
    Err(DibError::MpiNotBuilt)
}
