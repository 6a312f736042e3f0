//! Background processes: a process that shares another process's CPU at lower priority.
//!
//! [`Hosted`] entries in [`super::SimConfig::background`] say that process `proc` runs in the
//! background of the CPU whose own (foreground) process is `cpu`. The foreground has strict
//! priority and never notices the background: it runs exactly as it would alone. The
//! background starts a slice only while its host is waiting (no message in its inbox, no
//! wake time due, its last slice over). Its slice still computes atomically at the start, but
//! the slice occupies the CPU over an interval whose end moves: whenever the host runs a slice
//! that starts inside the background slice (a message arrived, a wake fell due), the
//! background's end moves later by the host's busy time in that slice (preemption). What the
//! background sends during a slice is held and released when the CPU would really have
//! reached the send, i.e. at its send time plus all the preemption of the slice so far, which
//! is never earlier than a priority scheduler would send it. See `dib/README.md`.

use std::collections::{HashSet, VecDeque};

use serde::Serialize;

use crate::context::{Nanos, ProcId};
use crate::processor::Activity;

/// One background process and the CPU it borrows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Hosted {
    /// The background process.
    pub proc: ProcId,
    /// The foreground process whose CPU it shares (it has priority).
    pub cpu: ProcId,
}

/// Why a background mapping was refused (see [`super::SimError::BadBackground`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackgroundProblem {
    /// A process number out of range.
    OutOfRange,
    /// A process hosting itself.
    OwnHost,
    /// A process listed as background twice.
    TwiceInBackground,
    /// A CPU given two background processes.
    TwoGuests,
    /// A background process named as the host of another.
    HostInBackground,
}

impl BackgroundProblem {
    /// What is wrong, in words.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            BackgroundProblem::OutOfRange => "a process number is not below the process count",
            BackgroundProblem::OwnHost => "a process cannot run in its own background",
            BackgroundProblem::TwiceInBackground => "the process is listed in the background twice",
            BackgroundProblem::TwoGuests => "a CPU hosts at most one background process",
            BackgroundProblem::HostInBackground => {
                "a background process cannot host another (name a foreground process as the CPU)"
            }
        }
    }
}

/// Checks `background` for `procs` processes: the first bad entry with what is wrong.
pub(crate) fn check(
    background: &[Hosted],
    procs: usize,
) -> Result<(), (Hosted, BackgroundProblem)> {
    let guests: HashSet<ProcId> = background.iter().map(|h| h.proc).collect();
    let mut seen = HashSet::new();
    let mut hosts = HashSet::new();
    for &h in background {
        let problem = if h.proc >= procs || h.cpu >= procs {
            Some(BackgroundProblem::OutOfRange)
        } else if h.proc == h.cpu {
            Some(BackgroundProblem::OwnHost)
        } else if !seen.insert(h.proc) {
            Some(BackgroundProblem::TwiceInBackground)
        } else if !hosts.insert(h.cpu) {
            Some(BackgroundProblem::TwoGuests)
        } else if guests.contains(&h.cpu) {
            Some(BackgroundProblem::HostInBackground)
        } else {
            None
        };
        if let Some(p) = problem {
            return Err((h, p));
        }
    }
    Ok(())
}

/// A background slice in progress: computed, but its end (and its messages) not yet reached.
#[derive(Debug)]
pub(crate) struct BgSlice<M> {
    /// The end of the computation on the process's own clock (no preemption).
    pub(crate) compute_end: Nanos,
    /// The host's busy time inside the slice so far.
    pub(crate) shift: Nanos,
    /// Messages sent in the slice, not yet released: (to, message, send time without
    /// preemption), in send order.
    pub(crate) held: VecDeque<(ProcId, M, Nanos)>,
    /// What the slice asked for next.
    pub(crate) activity: Activity,
    /// Whether the slice ended the run (it ends at the slice's real end).
    pub(crate) finish: bool,
    /// Bumped at every preemption, so that a stale resume event is discarded.
    pub(crate) generation: u64,
}

impl<M> BgSlice<M> {
    /// The slice's end with the preemption so far.
    pub(crate) fn end(&self) -> Nanos {
        self.compute_end + self.shift
    }

    /// When something next happens: the next held message is released or the slice ends.
    pub(crate) fn next_milestone(&self) -> Nanos {
        self.held
            .front()
            .map_or(self.compute_end, |m| m.2.min(self.compute_end))
            + self.shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_mappings_are_named() {
        let h = |proc, cpu| Hosted { proc, cpu };
        assert_eq!(check(&[h(2, 0)], 3), Ok(()));
        assert_eq!(
            check(&[h(3, 0)], 3),
            Err((h(3, 0), BackgroundProblem::OutOfRange))
        );
        assert_eq!(
            check(&[h(1, 1)], 3),
            Err((h(1, 1), BackgroundProblem::OwnHost))
        );
        assert_eq!(
            check(&[h(2, 0), h(2, 1)], 3),
            Err((h(2, 1), BackgroundProblem::TwiceInBackground))
        );
        assert_eq!(
            check(&[h(2, 0), h(1, 0)], 3),
            Err((h(1, 0), BackgroundProblem::TwoGuests))
        );
        assert_eq!(
            check(&[h(2, 0), h(1, 2)], 3),
            Err((h(1, 2), BackgroundProblem::HostInBackground))
        );
    }
}
