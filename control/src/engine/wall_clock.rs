//! The wall-clock [`SearchContext`]: the only place a search's time comes from the real clock.

use std::time::{Duration, Instant};

use crate::search::SearchContext;

/// Time since construction, read from the monotonic clock.
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    start: Instant,
}

impl WallClock {
    /// A clock starting now.
    pub fn start() -> Self {
        WallClock {
            start: Instant::now(),
        }
    }
}

impl SearchContext for WallClock {
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
