//! A stop request shared by the thread that asks for it (`stop`, `quit` or the end of the input
//! in `runner uci`) and the threads that search or wait. A search polls [`Stop::is_raised`]
//! (one atomic load, every 1024 nodes). A thread with nothing to do but wait blocks:
//! [`Stop::wait`] alone, or [`Stop::raised`] beside other channels in a `select!`. It wakes
//! when the stop is raised, not before: raising drops the only sender of a channel that never
//! carries a message, and a channel without senders is ready for every receiver at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crossbeam_channel::{Receiver, Sender};

/// A stop request: clones share it; once raised it stays raised.
#[derive(Clone)]
pub struct Stop(Arc<Inner>);

struct Inner {
    /// Raised: what a search polls.
    flag: AtomicBool,
    /// The channel's only sender, dropped when the stop is raised.
    sender: Mutex<Option<Sender<()>>>,
    /// Disconnected once the stop is raised: what a waiting thread blocks on.
    receiver: Receiver<()>,
}

impl Stop {
    /// A stop not raised yet.
    pub fn new() -> Self {
        let (sender, receiver) = crossbeam_channel::bounded(0);
        Stop(Arc::new(Inner {
            flag: AtomicBool::new(false),
            sender: Mutex::new(Some(sender)),
            receiver,
        }))
    }

    /// Raises the stop: every poll sees it from now on and every waiting thread wakes.
    pub fn raise(&self) {
        self.0.flag.store(true, Ordering::Release);
        let sender = self
            .0
            .sender
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        drop(sender);
    }

    /// Whether the stop is raised.
    pub fn is_raised(&self) -> bool {
        self.0.flag.load(Ordering::Acquire)
    }

    /// Blocks until the stop is raised (at once if it is).
    pub fn wait(&self) {
        // Nothing is ever sent: `recv` returns only when the sender is dropped.
        let _ = self.0.receiver.recv();
    }

    /// A channel that is ready (disconnected) once the stop is raised, for `select!`.
    pub fn raised(&self) -> &Receiver<()> {
        &self.0.receiver
    }
}

impl Default for Stop {
    fn default() -> Self {
        Stop::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_waiting_thread_wakes_when_the_stop_is_raised_and_not_before() {
        let stop = Stop::new();
        assert!(!stop.is_raised());
        assert!(stop.raised().try_recv().is_err_and(|e| e.is_empty()));
        let waiter = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                stop.wait();
                stop.is_raised()
            })
        };
        stop.raise();
        assert!(waiter.join().expect("the waiter returns"));
        assert!(stop.is_raised());
        // Raised stays raised: a later wait returns at once, and raising again is harmless.
        stop.wait();
        stop.raise();
        assert!(stop.raised().try_recv().is_err_and(|e| e.is_disconnected()));
    }
}
