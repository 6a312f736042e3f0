//! A whole run over MPI, as [`crate::run_processors`] needs it: each rank runs its processor,
//! turns it into a serializable summary, and every rank gets every rank's summary and counters
//! (gathered at rank 0, then broadcast), so that programs making several runs take the same
//! path on every rank.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{broadcast_from_root, gather_at_root, rank_and_size, run};
use crate::accounting::BackendCounters;
use crate::backend::RunOutcome;
use crate::context::Nanos;
use crate::processor::{Factory, Processor};
use crate::run::DibError;

/// What one rank contributes.
#[derive(Serialize, Deserialize)]
struct RankPart<S> {
    summary: S,
    counters: BackendCounters,
    /// When this rank ended the run, if it did (from the common start).
    finished_at: Option<Nanos>,
}

/// Runs this rank's processor (see [`run`]) and hands back every rank's `summarize`d processor
/// and counters, the same on every rank but for [`RunOutcome::rank`]. Every rank must call it,
/// with `procs` the world size.
pub(crate) fn run_gathered<P, S>(
    procs: usize,
    seed: u64,
    factory: &dyn Factory<P>,
    summarize: &dyn Fn(P) -> S,
) -> Result<RunOutcome<S>, DibError>
where
    P: Processor,
    S: Serialize + DeserializeOwned,
{
    let (_, world) = rank_and_size()?;
    if procs != world {
        return Err(DibError::MpiProcs {
            asked: procs,
            world,
        });
    }
    let outcome = run(seed, factory)?;
    let rank = outcome.rank;
    let mine = RankPart {
        summary: summarize(outcome.processor),
        counters: outcome.counters,
        finished_at: outcome.finished_at,
    };
    let all: Vec<RankPart<S>> = broadcast_from_root(gather_at_root(mine)?)?;
    let elapsed_ns = all.iter().filter_map(|p| p.finished_at).max().unwrap_or(0);
    let (processors, counters) = all.into_iter().map(|p| (p.summary, p.counters)).unzip();
    Ok(RunOutcome {
        processors,
        counters,
        elapsed_ns,
        sim: None,
        rank: Some(rank),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounting::DibCounters;

    #[test]
    fn counters_survive_the_wire_field_by_field() {
        let mut n = 0u64;
        let mut next = || {
            n += 1;
            n
        };
        let part = RankPart {
            summary: DibCounters {
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
            counters: BackendCounters {
                busy_ns: next(),
                idle_ns: next(),
                messaging_ns: next(),
                nodes: next(),
                messages_sent: next(),
                messages_received: next(),
                crashed: true,
                words_sent: next(),
                words_received: next(),
                last_busy_ns: next(),
            },
            finished_at: Some(next()),
        };
        let bytes = postcard::to_allocvec(&part).expect("encodes");
        let back: RankPart<DibCounters> = postcard::from_bytes(&bytes).expect("decodes");
        assert_eq!(back.summary, part.summary);
        assert_eq!(back.counters, part.counters);
        assert_eq!(back.finished_at, part.finished_at);
    }
}
