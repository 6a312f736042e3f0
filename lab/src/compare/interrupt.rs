//! Ctrl-C (SIGINT) during a comparison: every finished cell is already on disk
//! (`store.rs`), so the process says how many and exits with status 130 (128 + SIGINT, the
//! shell's convention) instead of dying silently. The handler is a thread of `signal-hook`
//! waiting for the signal; the engine keeps the tally it prints.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The exit status after Ctrl-C.
pub const EXIT_STATUS: i32 = 130;

static SAVED: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);

/// Sets the tally of the comparison now running: `saved` of its `total` cells are on disk.
pub fn tally(saved: usize, total: usize) {
    SAVED.store(saved, Ordering::SeqCst);
    TOTAL.store(total, Ordering::SeqCst);
}

/// Counts one more cell on disk.
pub fn saved_one() {
    SAVED.fetch_add(1, Ordering::SeqCst);
}

/// What Ctrl-C prints.
#[must_use]
pub fn message() -> String {
    format!(
        "interrupted: {} of {} cells saved; rerun the same command to resume",
        SAVED.load(Ordering::SeqCst),
        TOTAL.load(Ordering::SeqCst)
    )
}

/// Installs the handler (once per process): on SIGINT it prints [`message`] on stderr and
/// exits with [`EXIT_STATUS`]. Where the handler cannot be installed, Ctrl-C keeps its default
/// effect (the cells on disk are kept all the same).
pub fn install() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT])
        else {
            return;
        };
        std::thread::spawn(move || {
            if signals.forever().next().is_some() {
                eprintln!("\n{}", message());
                std::process::exit(EXIT_STATUS);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_counts_the_saved_cells() {
        tally(3, 10);
        saved_one();
        assert_eq!(
            message(),
            "interrupted: 4 of 10 cells saved; rerun the same command to resume"
        );
    }
}
