//! Processor numbers as a process of a hierarchy sees them (`hierarchy.rs`): its master is
//! `0` and its own slaves are `1..`, as in a flat run, whatever their numbers on the backend.
//! Numbers without a route (a slave's peers in the shadow-table ring) pass unchanged.

use dib::{Context, Envelope, Nanos, ProcId, Rng};

use super::message::Msg;

/// A context that renumbers: local `i` is backend processor `routes[i]`.
pub(super) struct Remap<'a> {
    inner: &'a mut dyn Context<Msg>,
    routes: &'a [ProcId],
}

impl<'a> Remap<'a> {
    /// `routes[0]`: the master; `routes[i]`: slave `i`.
    pub(super) fn new(inner: &'a mut dyn Context<Msg>, routes: &'a [ProcId]) -> Self {
        Remap { inner, routes }
    }
}

impl Context<Msg> for Remap<'_> {
    fn id(&self) -> ProcId {
        self.inner.id()
    }

    fn procs(&self) -> usize {
        self.inner.procs()
    }

    fn now(&self) -> Nanos {
        self.inner.now()
    }

    fn rng(&mut self) -> &mut Rng {
        self.inner.rng()
    }

    fn send(&mut self, to: ProcId, msg: Msg) {
        let to = self.routes.get(to).copied().unwrap_or(to);
        self.inner.send(to, msg);
    }

    fn poll(&mut self) -> Option<Envelope<Msg>> {
        let mut env = self.inner.poll()?;
        if let Some(i) = self.routes.iter().position(|&g| g == env.from) {
            env.from = i;
        }
        Some(env)
    }

    fn charge(&mut self, nodes: u64) {
        self.inner.charge(nodes);
    }
    fn charge_work(&mut self, work: &dib::Work) {
        self.inner.charge_work(work);
    }

    fn finish(&mut self) {
        self.inner.finish();
    }
    fn slice_nodes(&self) -> Option<u64> {
        self.inner.slice_nodes()
    }
}
