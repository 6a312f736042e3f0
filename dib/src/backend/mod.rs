//! Backends that run processors: real OS threads, the deterministic simulator, and (feature
//! `mpi`) MPI ranks.

#[cfg(feature = "mpi")]
pub mod mpi;
pub mod sim;
pub mod threads;

use crate::accounting::BackendCounters;
use crate::context::Nanos;

/// What a backend hands back after a run: the processors (to read their results) and the
/// counters it measured.
#[derive(Debug)]
pub struct RunOutcome<P> {
    /// Every processor as it was when the run ended (a crashed one as it was when it crashed).
    pub processors: Vec<P>,
    /// Per-processor time and traffic.
    pub counters: Vec<BackendCounters>,
    /// Time from start to [`crate::Context::finish`] (virtual on the simulator).
    pub elapsed_ns: Nanos,
    /// The simulator's trace hash and fault figures (`None` on threads).
    pub sim: Option<sim::SimFigures>,
}
