//! Backends that run processors: real OS threads, the deterministic simulator, and MPI ranks
//! (through the MPI library a program registers; see [`mpi`]).

pub mod mpi;
pub mod sim;
pub mod threads;

use crate::accounting::BackendCounters;
use crate::context::{Nanos, ProcId};

/// What a backend hands back after a run: the processors (to read their results), or what
/// [`crate::run_processors`] made of them, and the counters it measured.
#[derive(Debug)]
pub struct RunOutcome<P> {
    /// Every processor as it was when the run ended (a crashed one as it was when it crashed),
    /// or its summary, in processor order.
    pub processors: Vec<P>,
    /// Per-processor time and traffic.
    pub counters: Vec<BackendCounters>,
    /// Time from start to [`crate::Context::finish`] (virtual on the simulator).
    pub elapsed_ns: Nanos,
    /// The simulator's trace hash and fault figures (`None` on threads).
    pub sim: Option<sim::SimFigures>,
    /// On MPI, this process's rank (every rank gets the same outcome; rank 0 is the one that
    /// should print); `None` on the other backends.
    pub rank: Option<ProcId>,
}

impl<P> RunOutcome<P> {
    /// The same outcome with every processor replaced by `summarize(processor)`, in order.
    pub fn summarized<S>(self, summarize: &dyn Fn(P) -> S) -> RunOutcome<S> {
        RunOutcome {
            processors: self.processors.into_iter().map(summarize).collect(),
            counters: self.counters,
            elapsed_ns: self.elapsed_ns,
            sim: self.sim,
            rank: self.rank,
        }
    }

    /// Whether this process holds the outcome to print: always off MPI, rank 0 on MPI.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.rank.is_none_or(|r| r == 0)
    }
}
