//! Runs the missing cells of a simulated comparison on `--jobs` threads at once. A simulated
//! cell is one deterministic, single-threaded run of the simulator in virtual time, whose
//! result does not depend on what else the machine does, so any number of them may run side
//! by side and the results are those of one at a time, bit for bit.
//!
//! The jobs wait in one queue, in the order a serial run takes them (per position its
//! baseline, then every series, processor count and seed). A worker takes the first job that
//! is ready: a baseline always is; a run needs its position's depth, known from the start
//! with `--depth` or a stored baseline, and otherwise (`--time-ms`) chosen by the baseline's
//! job, which makes the position's runs ready when it finishes. A worker with nothing ready
//! waits for a baseline to finish. The workers send each finished cell to the calling thread,
//! which alone stores it (one line in the cell file, flushed at once), counts it for Ctrl-C
//! and moves the progress bar, so the store stays single-threaded and a cell is saved the
//! moment it finishes, in whatever order the cells finish. Everything read from the store
//! afterwards goes by the cells' keys, never by that order.
//!
//! The first error stops the queue: every worker finishes the job it holds, takes no other,
//! and the error is returned.

use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard};

use anyhow::{Result, anyhow};
use control::search::SearchContext as _;
use games::Game;
use indicatif::ProgressBar;

use super::engine::{Cell, Missing, baseline_run, choose_depth};
use super::plan::{DEFAULT_DEPTH, Plan, Series};
use super::store::{Key, Record, Store};
use control::engine::WallClock;

/// A worker's stack: as much as the main thread's usual 8 MiB, with room to spare, so that a
/// search deep enough to run on the main thread runs on a worker too.
const STACK_BYTES: usize = 16 << 20;

/// One job of the queue; `at` indexes the positions.
#[derive(Clone, Copy)]
enum Job<'a> {
    /// The position's baseline, stored when `keep` (else only its depth is needed: the
    /// baseline belongs to another shard).
    Baseline { at: usize, keep: bool },
    /// One series on `procs` processors with `seed`.
    Run {
        at: usize,
        series: &'a Series,
        procs: usize,
        seed: u64,
    },
}

/// The queue the workers share.
struct Queue<'a> {
    jobs: VecDeque<Job<'a>>,
    /// Each position's depth, once known.
    depths: Vec<Option<u32>>,
    /// Set by the first error: no job is taken after it.
    stop: bool,
}

impl Queue<'_> {
    fn ready(&self, job: &Job<'_>) -> bool {
        match job {
            Job::Baseline { .. } => true,
            Job::Run { at, .. } => self.depths[*at].is_some(),
        }
    }
}

/// What a worker sends back: a finished cell (stored when `keep`), or the error that stopped it.
type Done = Result<(Record, bool)>;

/// Runs the cells `missing` names (per position, in `positions`' order) on `plan.jobs`
/// threads, storing each in `store` as it finishes.
///
/// # Errors
/// The first cell that fails, or a cell that cannot be stored.
pub fn run<G: Game>(
    plan: &Plan,
    store: &mut Store,
    positions: &[(usize, G)],
    missing: &[Missing<'_>],
    bar: &ProgressBar,
) -> Result<()> {
    let mut queue = Queue {
        jobs: VecDeque::new(),
        depths: Vec::with_capacity(positions.len()),
        stop: false,
    };
    for (at, ((line, _), (base_missing, cells))) in positions.iter().zip(missing).enumerate() {
        let depth = known_depth(plan, store, *line);
        queue.depths.push(depth);
        if *base_missing || (depth.is_none() && !cells.is_empty()) {
            queue.jobs.push_back(Job::Baseline {
                at,
                keep: *base_missing,
            });
        }
        queue
            .jobs
            .extend(cells.iter().map(|&(series, procs, seed)| Job::Run {
                at,
                series,
                procs,
                seed,
            }));
    }
    bar.set_length(queue.jobs.len() as u64);
    let workers = plan.jobs.clamp(1, queue.jobs.len().max(1));
    let shared = (Mutex::new(queue), Condvar::new());
    let (tx, rx) = mpsc::channel::<Done>();
    std::thread::scope(|scope| -> Result<()> {
        for i in 0..workers {
            let (shared, tx) = (&shared, tx.clone());
            std::thread::Builder::new()
                .name(format!("cell-{i}"))
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || work(plan, positions, shared, &tx, bar))
                .map_err(|e| anyhow!("starting a worker thread: {e}"))?;
        }
        drop(tx);
        let mut failed: Option<anyhow::Error> = None;
        for done in rx {
            let stored = done.and_then(|(record, keep)| {
                if keep {
                    store.add(record)?;
                    super::interrupt::saved_one();
                }
                Ok(())
            });
            match stored {
                Ok(()) => bar.inc(1),
                Err(e) => {
                    stop(&shared);
                    failed.get_or_insert(e);
                }
            }
        }
        failed.map_or(Ok(()), Err)
    })
}

/// A position's depth before anything runs: its stored baseline's, or --depth; `None` when
/// --time-ms must choose it.
fn known_depth(plan: &Plan, store: &Store, line: usize) -> Option<u32> {
    let stored: Key = Key::baseline(line, plan.baseline.name());
    match (store.cells.get(&stored), plan.depth, plan.time_ms) {
        (Some(r), _, _) => Some(r.depth),
        (None, Some(d), _) => Some(d),
        (None, None, Some(_)) => None,
        (None, None, None) => Some(DEFAULT_DEPTH),
    }
}

fn lock<'q, 'a>(m: &'q Mutex<Queue<'a>>) -> MutexGuard<'q, Queue<'a>> {
    // A worker that panicked leaves the queue as it was: keep going, the scope re-raises it.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn stop(shared: &(Mutex<Queue<'_>>, Condvar)) {
    lock(&shared.0).stop = true;
    shared.1.notify_all();
}

/// One worker: takes ready jobs until the queue is empty or stopped.
fn work<G: Game>(
    plan: &Plan,
    positions: &[(usize, G)],
    shared: &(Mutex<Queue<'_>>, Condvar),
    tx: &mpsc::Sender<Done>,
    bar: &ProgressBar,
) {
    let (queue, wake) = shared;
    loop {
        let (job, depth) = {
            let mut q = lock(queue);
            loop {
                if q.stop {
                    return;
                }
                if let Some(i) = q.jobs.iter().position(|j| q.ready(j)) {
                    let Some(job) = q.jobs.remove(i) else {
                        return;
                    };
                    let at = match job {
                        Job::Baseline { at, .. } | Job::Run { at, .. } => at,
                    };
                    break (job, q.depths[at]);
                }
                if q.jobs.is_empty() {
                    return;
                }
                q = wake
                    .wait(q)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        let clock = WallClock::start();
        let done = match job {
            Job::Baseline { at, keep } => {
                let (line, root) = (positions[at].0, &positions[at].1);
                bar.set_message(format!("line {line}: baseline"));
                let record = match depth {
                    Some(d) => baseline_run(plan, line, root, d),
                    None => choose_depth(plan, line, root),
                };
                if let Ok(r) = &record {
                    lock(queue).depths[at] = Some(r.depth);
                    wake.notify_all();
                }
                record.map(|r| (r, keep))
            }
            Job::Run {
                at,
                series,
                procs,
                seed,
            } => {
                let (line, root) = (positions[at].0, &positions[at].1);
                bar.set_message(format!(
                    "line {line}: {} x{procs} seed {seed}",
                    series.label
                ));
                depth
                    .ok_or_else(|| anyhow!("internal error: a run taken before its depth"))
                    .and_then(|depth| {
                        let cell = Cell {
                            plan,
                            series,
                            line,
                            procs,
                            seed,
                            depth,
                        };
                        cell.run(root)
                    })
                    .map(|r| (r, true))
            }
        };
        let done = done.map(|(mut r, keep)| {
            r.host_seconds = Some(clock.elapsed().as_secs_f64());
            (r, keep)
        });
        if done.is_err() {
            stop(shared);
        }
        if tx.send(done).is_err() {
            stop(shared);
            return;
        }
    }
}
