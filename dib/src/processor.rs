//! The lower-level worker model: a [`Processor`] runs in slices on some backend and talks to
//! its peers only through its [`Context`].
//!
//! DIB itself ([`crate::DibProcessor`]) is one such processor; control modules with their own
//! protocol (APHID's master and slaves) can implement [`Processor`] directly.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::context::{Context, Nanos, ProcId};

/// What a processor reports after a slice of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum Activity {
    /// It did work (and charged it) and wants to run again at once.
    Busy,
    /// It has nothing to do until a message arrives or, if given, until this time.
    Idle {
        /// When to run again even without a message.
        wake_at: Option<Nanos>,
    },
}

/// Application code run by every processor. The backend calls [`Processor::run`] repeatedly;
/// each call should do a bounded slice of work (a few thousand nodes at most), polling the
/// context for messages, so that requests are answered promptly.
pub trait Processor: Send + 'static {
    /// The messages processors exchange. Serializable so that they can cross machines (and so
    /// that the simulator can checksum them).
    type Msg: Clone + Debug + Send + Serialize + DeserializeOwned + 'static;

    /// Runs one slice.
    fn run(&mut self, ctx: &mut dyn Context<Self::Msg>) -> Activity;
}

/// Builds processor `id` from nothing: at the start of a run, and again when the simulator
/// restarts a crashed processor.
pub trait Factory<P>: Sync {
    /// A fresh processor number `id`.
    fn build(&self, id: ProcId) -> P;
}

impl<P, F: Fn(ProcId) -> P + Sync> Factory<P> for F {
    fn build(&self, id: ProcId) -> P {
        self(id)
    }
}
