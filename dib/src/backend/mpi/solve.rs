//! DIB over MPI: each rank runs one [`DibProcessor`], rank 0 (which holds the root) gathers
//! every rank's accounting and gives the value and the accounting to every rank, so that
//! programs that call [`crate::solve`] repeatedly take the same path on every rank.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{MpiError, broadcast_from_root, gather_at_root, run};
use crate::accounting::{BackendCounters, DibCounters, ProcAccounts};
use crate::application::Application;
use crate::context::{Nanos, ProcId};
use crate::worker::{DibConfig, DibProcessor};

/// One rank's accounting as it travels (the public counters are not `Deserialize`).
#[derive(Clone, Copy, Serialize, Deserialize)]
struct WireAccounts {
    backend: [u64; 6],
    dib: [u64; 11],
}

impl From<ProcAccounts> for WireAccounts {
    fn from(a: ProcAccounts) -> Self {
        let b = a.backend;
        let d = a.dib;
        WireAccounts {
            backend: [
                b.busy_ns,
                b.idle_ns,
                b.messaging_ns,
                b.nodes,
                b.messages_sent,
                b.messages_received,
            ],
            dib: [
                d.requests_sent,
                d.requests_received,
                d.requests_granted,
                d.requests_refused,
                d.requests_timed_out,
                d.problems_received,
                d.splits,
                d.work_redone,
                d.late_results,
                d.aborts,
                d.updates,
            ],
        }
    }
}

impl From<WireAccounts> for ProcAccounts {
    fn from(w: WireAccounts) -> Self {
        let [
            busy_ns,
            idle_ns,
            messaging_ns,
            nodes,
            messages_sent,
            messages_received,
        ] = w.backend;
        let [
            requests_sent,
            requests_received,
            requests_granted,
            requests_refused,
            requests_timed_out,
            problems_received,
            splits,
            work_redone,
            late_results,
            aborts,
            updates,
        ] = w.dib;
        ProcAccounts {
            backend: BackendCounters {
                busy_ns,
                idle_ns,
                messaging_ns,
                nodes,
                messages_sent,
                messages_received,
                crashed: false,
            },
            dib: DibCounters {
                requests_sent,
                requests_received,
                requests_granted,
                requests_refused,
                requests_timed_out,
                problems_received,
                splits,
                work_redone,
                late_results,
                aborts,
                updates,
            },
        }
    }
}

/// What one rank contributes: its accounting, the root's value if it has it, and when it
/// finished the run.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct RankSummary<A: Application> {
    accounts: WireAccounts,
    value: Option<A::Value>,
    finished_at: Option<Nanos>,
}

/// What every rank gets back.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct RunSummary<A: Application> {
    value: Option<A::Value>,
    elapsed_ns: Nanos,
    accounts: Vec<WireAccounts>,
}

/// The result of a DIB run over MPI, the same on every rank.
pub(crate) struct DibRun<V> {
    /// The root's value (`None`: the run ended without it).
    pub value: Option<V>,
    /// Time from the common start to the root's completion.
    pub elapsed_ns: Nanos,
    /// Every rank's accounting, in rank order.
    pub accounts: Vec<ProcAccounts>,
    /// This rank.
    pub rank: ProcId,
}

/// Solves `root` with one DIB processor per rank (rank 0 holds the root). Every rank must call
/// it with the same arguments.
pub(crate) fn solve_dib<A: Application>(
    app: Arc<A>,
    root: A::Problem,
    config: DibConfig,
    seed: u64,
) -> Result<DibRun<A::Value>, MpiError> {
    let factory = |id: ProcId| {
        let root = (id == 0).then(|| root.clone());
        DibProcessor::new(Arc::clone(&app), config, root)
    };
    let outcome = run(seed, &factory)?;
    let rank = outcome.rank;
    let mine = RankSummary::<A> {
        accounts: ProcAccounts {
            backend: outcome.counters,
            dib: outcome.processor.counters(),
        }
        .into(),
        value: outcome.processor.result().cloned(),
        finished_at: outcome.finished_at,
    };
    let summary = gather_at_root(mine)?.map(|all| RunSummary::<A> {
        elapsed_ns: all.iter().filter_map(|s| s.finished_at).max().unwrap_or(0),
        accounts: all.iter().map(|s| s.accounts).collect(),
        value: all.into_iter().find_map(|s| s.value),
    });
    let summary = broadcast_from_root(summary)?;
    Ok(DibRun {
        value: summary.value,
        elapsed_ns: summary.elapsed_ns,
        accounts: summary
            .accounts
            .into_iter()
            .map(ProcAccounts::from)
            .collect(),
        rank,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounts_survive_the_wire_field_by_field() {
        let mut n = 0u64;
        let mut next = || {
            n += 1;
            n
        };
        let a = ProcAccounts {
            backend: BackendCounters {
                busy_ns: next(),
                idle_ns: next(),
                messaging_ns: next(),
                nodes: next(),
                messages_sent: next(),
                messages_received: next(),
                crashed: false,
            },
            dib: DibCounters {
                requests_sent: next(),
                requests_received: next(),
                requests_granted: next(),
                requests_refused: next(),
                requests_timed_out: next(),
                problems_received: next(),
                splits: next(),
                work_redone: next(),
                late_results: next(),
                aborts: next(),
                updates: next(),
            },
        };
        let bytes = postcard::to_allocvec(&WireAccounts::from(a)).expect("encodes");
        let back: WireAccounts = postcard::from_bytes(&bytes).expect("decodes");
        assert_eq!(ProcAccounts::from(back), a);
    }
}
