//! Where each processor's time went, and what it did: the figures every report is built from.
//!
//! Time splits into busy (searching nodes), messaging (sending and receiving: the
//! "interference" loss) and idle (waiting for work: the "starvation" loss). On the simulator
//! these are exact virtual times; on threads, idle is the time spent blocked waiting for a
//! message, messaging the time inside send/poll calls that moved a message, and busy the rest.

use serde::{Deserialize, Serialize};

/// What the backend measures for one processor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendCounters {
    /// Time spent on charged nodes (and, on threads, everything not idle or messaging).
    pub busy_ns: u64,
    /// Time spent waiting with nothing to do.
    pub idle_ns: u64,
    /// Time spent sending and receiving messages.
    pub messaging_ns: u64,
    /// Nodes charged.
    pub nodes: u64,
    /// Messages sent.
    pub messages_sent: u64,
    /// Messages received (polled).
    pub messages_received: u64,
    /// Whether the simulator crashed this processor (and did not restart it).
    pub crashed: bool,
    /// 16-bit words sent, each message's overhead words included (simulator, when its cost
    /// model prices a message by its size; 0 otherwise).
    #[serde(default)]
    pub words_sent: u64,
    /// 16-bit words received (as `words_sent`).
    #[serde(default)]
    pub words_received: u64,
    /// The time this processor last finished charged work (simulator; 0 elsewhere): the run's
    /// time less this is its idle time at the end of the run.
    #[serde(default)]
    pub last_busy_ns: u64,
}

/// What the DIB protocol counts for one processor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DibCounters {
    /// Work requests sent.
    pub requests_sent: u64,
    /// Work requests received.
    pub requests_received: u64,
    /// Requests answered with work.
    pub requests_granted: u64,
    /// Requests refused.
    pub requests_refused: u64,
    /// Requests that got no answer in time.
    pub requests_timed_out: u64,
    /// Problems received from other processors.
    pub problems_received: u64,
    /// Times the running search was subdivided.
    pub splits: u64,
    /// Problems given away that this processor then redid itself.
    pub work_redone: u64,
    /// Results that arrived for work already done (duplicates, late results after a redo).
    pub late_results: u64,
    /// Subtrees aborted here.
    pub aborts: u64,
    /// Information updates delivered here.
    pub updates: u64,
}

/// All figures of one processor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProcAccounts {
    /// Time and traffic.
    #[serde(flatten)]
    pub backend: BackendCounters,
    /// Protocol events.
    #[serde(flatten)]
    pub dib: DibCounters,
}

impl ProcAccounts {
    /// The sum of `all` (the `crashed` flag is true when any processor crashed).
    #[must_use]
    pub fn total(all: &[ProcAccounts]) -> ProcAccounts {
        let mut t = ProcAccounts::default();
        for a in all {
            let (b, d) = (&a.backend, &a.dib);
            t.backend.busy_ns += b.busy_ns;
            t.backend.idle_ns += b.idle_ns;
            t.backend.messaging_ns += b.messaging_ns;
            t.backend.nodes += b.nodes;
            t.backend.messages_sent += b.messages_sent;
            t.backend.messages_received += b.messages_received;
            t.backend.crashed |= b.crashed;
            t.backend.words_sent += b.words_sent;
            t.backend.words_received += b.words_received;
            t.backend.last_busy_ns = t.backend.last_busy_ns.max(b.last_busy_ns);
            t.dib.requests_sent += d.requests_sent;
            t.dib.requests_received += d.requests_received;
            t.dib.requests_granted += d.requests_granted;
            t.dib.requests_refused += d.requests_refused;
            t.dib.requests_timed_out += d.requests_timed_out;
            t.dib.problems_received += d.problems_received;
            t.dib.splits += d.splits;
            t.dib.work_redone += d.work_redone;
            t.dib.late_results += d.late_results;
            t.dib.aborts += d.aborts;
            t.dib.updates += d.updates;
        }
        t
    }
}
