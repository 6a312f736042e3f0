//! What a processor sees of the machine: the [`Context`] that every backend implements.
//!
//! Application code reads time and randomness only through it, so the same code runs on real
//! threads and in the deterministic simulator.

use crate::rng::Rng;
use crate::work::Work;

/// A processor's number, `0..procs`. Processor 0 holds the root problem.
pub type ProcId = usize;

/// Time in nanoseconds since the run started: wall-clock on the threads backend, virtual in the
/// simulator.
pub type Nanos = u64;

/// A message with its sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope<M> {
    /// Who sent it.
    pub from: ProcId,
    /// What was sent.
    pub msg: M,
}

/// The services a backend gives the processor it runs: identity and peers, time, a seeded RNG,
/// message passing and node charging.
pub trait Context<M> {
    /// This processor.
    fn id(&self) -> ProcId;
    /// How many processors take part (peers are `0..procs()` other than [`Context::id`]).
    fn procs(&self) -> usize;
    /// The current time of this processor.
    fn now(&self) -> Nanos;
    /// This processor's seeded RNG.
    fn rng(&mut self) -> &mut Rng;
    /// Sends `msg` to processor `to` (not to itself). Delivery is not guaranteed when the
    /// simulator injects faults.
    fn send(&mut self, to: ProcId, msg: M);
    /// The next message that has arrived, if any (never blocks).
    fn poll(&mut self) -> Option<Envelope<M>>;
    /// Records `nodes` full search nodes really searched; the simulator advances this
    /// processor's clock by their cost.
    fn charge(&mut self, nodes: u64);
    /// Records work of every kind (nodes by kind, table probes); the simulator charges each
    /// kind its own cost. The default counts every node as a search node and ignores probes,
    /// for contexts that only count.
    fn charge_work(&mut self, work: &Work) {
        self.charge(work.nodes());
    }
    /// Ends the whole run (called by the processor that completed the root).
    fn finish(&mut self);

    /// How many full search nodes this processor may search before it next looks at its
    /// inbox, where the machine decides it (the simulator with a cost model's
    /// [`crate::backend::sim::Notice`]); `None`: the caller's own node quantum. A processor
    /// that runs a search in slices ends a slice after about this many nodes.
    fn slice_nodes(&self) -> Option<u64> {
        None
    }

    /// A peer chosen uniformly at random, or `None` when this processor is alone.
    fn random_peer(&mut self) -> Option<ProcId> {
        let n = self.procs();
        if n < 2 {
            return None;
        }
        let id = self.id();
        let pick = self.rng().below(n as u64 - 1) as usize;
        Some(if pick >= id { pick + 1 } else { pick })
    }
}
