//! The search thread: `go` starts one, `stop` raises its [`Stop`] (the search context polls it
//! every 1024 nodes), and the thread itself writes the `info` lines and the `bestmove`. A
//! `go infinite` whose search ends by itself sleeps on the [`Stop`] until it is raised.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use games::Game;
use games::chess::Chess;

use super::info;
use control::engine::Stop;
use control::engine::WallClock;
use control::engine::{Budget, Event, Player};

/// Where the engine writes: shared by the command loop and the search thread, one whole line
/// at a time, flushed at once.
#[derive(Clone)]
pub struct Output(Arc<Mutex<dyn Write + Send>>);

impl Output {
    /// Writes to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Self {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line. Write errors are ignored: a GUI that closed the pipe is gone.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// Writes `info string <text>`, one line per line of `text`.
    pub fn note(&self, text: &str) {
        for l in text.lines() {
            self.line(&format!("info string {l}"));
        }
    }
}

/// A search running on its own thread.
pub struct Running {
    stop: Stop,
    /// Raised by the search thread just before it writes `bestmove`: from then on the search is
    /// over for the GUI, which may send the next `go` before the thread has returned.
    answered: Arc<AtomicBool>,
    /// How often the search thread woke while it held a finished `go infinite` for `stop`
    /// (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    wakeups: Arc<AtomicU64>,
    handle: JoinHandle<Player<Chess>>,
}

/// What a search is asked to do.
pub struct Job {
    /// The position.
    pub root: Chess,
    /// The limits.
    pub budget: Budget,
    /// `go infinite` / `go ponder`: hold `bestmove` back until `stop`, even after the search
    /// ended by itself.
    pub infinite: bool,
    /// `go mate N`: say whether a mate in at most N moves was found.
    pub mate: Option<u32>,
    /// Started when `go` was read, so the time to set up counts.
    pub clock: WallClock,
}

impl Running {
    /// Starts `job` with `player` on a new thread.
    ///
    /// # Errors
    /// When the thread cannot be started (the player is then lost; the caller rebuilds one).
    pub fn start(player: Player<Chess>, job: Job, out: Output) -> std::io::Result<Running> {
        let stop = Stop::new();
        let answered = Arc::new(AtomicBool::new(false));
        let wakeups = Arc::new(AtomicU64::new(0));
        let (flag, done, woke) = (stop.clone(), Arc::clone(&answered), Arc::clone(&wakeups));
        let handle = std::thread::Builder::new()
            .name("uci search".into())
            .spawn(move || search(player, &job, &flag, &done, &woke, &out))?;
        Ok(Running {
            stop,
            answered,
            wakeups,
            handle,
        })
    }

    /// How often the search thread has woken while holding a finished `go infinite`.
    #[cfg(test)]
    pub fn wakeups(&self) -> u64 {
        self.wakeups.load(Ordering::Relaxed)
    }

    /// Whether the search has answered (or is about to write its `bestmove`): joining it then
    /// waits only for the thread to hand the player back. A GUI may send the next `go` as soon
    /// as it reads `bestmove`, before the thread has returned; that `go` must not be refused.
    pub fn has_answered(&self) -> bool {
        self.answered.load(Ordering::Acquire) || self.handle.is_finished()
    }

    /// Asks the search to stop (it answers `bestmove` at once) and waits for it.
    pub fn stop(self) -> Option<Player<Chess>> {
        self.stop.raise();
        self.join()
    }

    /// Waits for the thread and takes the player back (`None` if the thread panicked).
    pub fn join(self) -> Option<Player<Chess>> {
        self.handle.join().ok()
    }
}

fn search(
    mut player: Player<Chess>,
    job: &Job,
    stop: &Stop,
    answered: &AtomicBool,
    wakeups: &AtomicU64,
    out: &Output,
) -> Player<Chess> {
    let root = &job.root;
    let result = player.think(
        root,
        &job.budget,
        job.clock,
        stop,
        &mut |event| match event {
            Event::Depth(report) => out.line(&info::iteration(root, &report)),
            Event::CurrMove { mv, number } => out.line(&info::currmove(root, mv, number)),
        },
    );
    if let (Some(n), Ok(t)) = (job.mate, &result) {
        if t.best_move.is_some() {
            let limit = job.budget.depth.unwrap_or(t.depth);
            out.note(&info::mate_verdict(t.value, n, t.depth, limit));
        }
    }
    let (best, pv) = match result {
        Ok(t) => (t.best_move, t.pv),
        Err(e) => {
            out.note(&format!(
                "search failed: {e:#}; playing the first legal move"
            ));
            let mut moves = Vec::new();
            root.generate_moves(&mut moves);
            (moves.first().copied(), Vec::new())
        }
    };
    if job.infinite {
        // Asleep until `stop` (or `quit`, or the end of the input) raises it.
        while !stop.is_raised() {
            stop.wait();
            wakeups.fetch_add(1, Ordering::Relaxed);
        }
    }
    answered.store(true, Ordering::Release);
    out.line(&info::bestmove(root, best, &pv));
    player
}
