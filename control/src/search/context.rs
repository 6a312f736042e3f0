//! How a search learns the time and whether to stop: the [`SearchContext`] trait.
//!
//! The search library never reads the wall clock. Whoever runs a search hands it a context: the
//! runner's wall clock, the DIB runtime's processor (which may answer with virtual time and
//! read its inbox when polled), or one of the deterministic contexts below for tests. The search
//! calls [`SearchContext::poll`] every [`POLL_INTERVAL`] nodes and [`SearchContext::elapsed`]
//! only then and around sorting.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::stats::SearchStats;
use super::tt::TtEntry;

/// The search polls its context once every this many nodes (and at the start of each search).
pub const POLL_INTERVAL: u64 = 1024;

/// What a poll tells the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Keep searching.
    Continue,
    /// Stop as soon as possible; the search returns the last completed iteration.
    Stop,
}

/// Time and abort requests, as seen by one search.
pub trait SearchContext {
    /// Time since the search started, as this context measures it (wall clock, or virtual time
    /// in a simulator). Must never decrease.
    fn elapsed(&self) -> Duration;

    /// Called every [`POLL_INTERVAL`] nodes with the number of nodes this search has visited so
    /// far (sorting nodes included). A runtime may read messages or charge virtual time here.
    /// Returns [`Signal::Stop`] to abort the search.
    fn poll(&mut self, nodes: u64) -> Signal {
        let _ = nodes;
        Signal::Continue
    }

    /// [`SearchContext::poll`] with the searcher's counters (cumulative since its last
    /// [`Searcher::reset_stats`](crate::search::Searcher::reset_stats)), for a runtime that
    /// charges nodes by kind (quiescence, look-ahead, table probes). The search calls this one;
    /// the default passes `nodes` on to [`SearchContext::poll`].
    fn poll_counts(&mut self, nodes: u64, stats: &SearchStats) -> Signal {
        let _ = stats;
        self.poll(nodes)
    }

    /// Called after the search stores `entry` for the position with `hash` in its
    /// transposition table. A runtime may share entries (APHID's shadow tables); the default
    /// does nothing.
    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        let _ = (hash, entry);
    }

    /// ABDADA: the search starts (`entering`) or ends searching the node with `hash` and
    /// `depth` plies left, counted in its busy table. A runtime whose processors have tables of
    /// their own (MPI) may tell the others; the default does nothing.
    fn searching(&mut self, hash: u64, depth: u32, entering: bool) {
        let _ = (hash, depth, entering);
    }

    /// Whether iterative deepening should start no new iteration: the caller's own soft
    /// deadline (a parallel engine's, in the run's time), beside the search's time limit. The
    /// default never says so.
    fn past_soft_deadline(&self) -> bool {
        false
    }

    /// Called when the search starts on a move at its root: the `number`-th move searched
    /// (from 1) in this iteration, `index` its place in the root's `generate_moves` list. An
    /// engine may report it (UCI `currmove`); the default does nothing.
    fn root_move(&mut self, number: usize, index: usize) {
        let _ = (number, index);
    }
}

impl<C: SearchContext + ?Sized> SearchContext for &mut C {
    fn elapsed(&self) -> Duration {
        (**self).elapsed()
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        (**self).poll(nodes)
    }

    fn poll_counts(&mut self, nodes: u64, stats: &SearchStats) -> Signal {
        (**self).poll_counts(nodes, stats)
    }

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        (**self).stored(hash, entry);
    }

    fn past_soft_deadline(&self) -> bool {
        (**self).past_soft_deadline()
    }

    fn searching(&mut self, hash: u64, depth: u32, entering: bool) {
        (**self).searching(hash, depth, entering);
    }

    fn root_move(&mut self, number: usize, index: usize) {
        (**self).root_move(number, index);
    }
}

/// A context with no clock (time stands still at zero) and no abort requests: searches end by
/// depth or node limits only. Fully deterministic.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unlimited;

impl SearchContext for Unlimited {
    fn elapsed(&self) -> Duration {
        Duration::ZERO
    }
}

/// A deterministic virtual clock: time advances by a fixed cost per node, as the simulator
/// charges it. Time limits then behave identically on every run and machine.
#[derive(Clone, Copy, Debug)]
pub struct NodeClock {
    /// Virtual nanoseconds charged per node.
    pub nanos_per_node: u64,
    nodes: u64,
}

impl NodeClock {
    /// A clock charging `nanos_per_node` per node, starting at zero.
    #[must_use]
    pub const fn new(nanos_per_node: u64) -> Self {
        NodeClock {
            nanos_per_node,
            nodes: 0,
        }
    }
}

impl SearchContext for NodeClock {
    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.nodes.saturating_mul(self.nanos_per_node))
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        self.nodes = nodes;
        Signal::Continue
    }
}

/// Wraps another context and adds an abort request that any thread can raise through a shared
/// flag (a stop command, a cutoff found elsewhere).
#[derive(Clone, Debug)]
pub struct Abortable<C> {
    inner: C,
    flag: Arc<AtomicBool>,
}

impl<C> Abortable<C> {
    /// Wraps `inner`; raising `flag` (store `true`) stops the search at its next poll.
    pub fn new(inner: C, flag: Arc<AtomicBool>) -> Self {
        Abortable { inner, flag }
    }
}

impl<C: SearchContext> SearchContext for Abortable<C> {
    fn elapsed(&self) -> Duration {
        self.inner.elapsed()
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        if self.flag.load(Ordering::Relaxed) {
            return Signal::Stop;
        }
        self.inner.poll(nodes)
    }
}
