//! Iterative deepening with aspiration windows over runtime runs, for any alpha-beta split
//! engine: one run of the runtime per depth, each given a root window, the iterations' work
//! summed into one result (`split_ab/README.md`, "Engine frames").

use dib::{Backend, DibConfig, ProcAccounts};
use games::score::{INFINITY, WIN_THRESHOLD, is_decisive};

use super::ab_frames::Window;
use super::{ParallelError, ParallelOptions, ParallelResult};

/// Searches depth 1 to `options.depth` (only `options.depth` when `deepening` is off) with
/// `search_at(depth, root window)`, as the sequential iterative deepening does: from the second
/// iteration on, the window is `options.search.aspiration` around the previous value (unless
/// that value is decisive), and a value outside it is only a bound, so the failing side is moved
/// out (by four times the last step) and the depth searched again until the value falls inside.
/// The result is the last iteration's with the nodes, times and accounts of all runs added in,
/// and the `iterations` figure set.
///
/// # Errors
/// The first error of `search_at`.
pub(super) fn deepen<M>(
    options: &ParallelOptions,
    deepening: bool,
    mut search_at: impl FnMut(u32, Window) -> Result<ParallelResult<M>, ParallelError>,
) -> Result<ParallelResult<M>, ParallelError> {
    let first = if deepening { 1 } else { options.depth };
    let mut sum: Option<ParallelResult<M>> = None;
    let mut previous: Option<i32> = None;
    for depth in first..=options.depth {
        let mut aspiration =
            Aspiration::around(options.search.aspiration, previous.filter(|_| deepening));
        loop {
            let r = search_at(depth, aspiration.window)?;
            let v = r.value;
            sum = Some(match sum {
                None => r,
                Some(before) => add_iteration(before, r),
            });
            if aspiration.after(v).is_none() {
                previous = Some(v);
                break;
            }
        }
    }
    let mut r = sum.ok_or(dib::DibError::NoValue { seed: None })?;
    r.figures.iterations = Some(u64::from(options.depth + 1 - first));
    Ok(r)
}

/// An aspiration window and how far its failing side moves when a value falls outside it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Aspiration {
    /// The window to search.
    pub(crate) window: Window,
    step: i32,
}

impl Aspiration {
    /// The infinite window.
    pub(crate) fn full() -> Self {
        Aspiration {
            window: Window::FULL,
            step: 0,
        }
    }

    /// `delta` on each side of `previous` (a value that is not decisive), else the infinite
    /// window.
    pub(crate) fn around(delta: Option<i32>, previous: Option<i32>) -> Self {
        match (delta.filter(|&d| d > 0), previous) {
            (Some(d), Some(p)) if !is_decisive(p) => Aspiration {
                window: Window {
                    alpha: widen(p - d),
                    beta: widen(p + d),
                },
                step: d,
            },
            _ => Aspiration::full(),
        }
    }

    /// After a search of the window gave `v`: `None` when `v` lies inside it (the value is
    /// exact), else the window to search again, its failing side moved out by four times the
    /// last step.
    pub(crate) fn after(&mut self, v: i32) -> Option<Window> {
        self.step = self.step.saturating_mul(4);
        let w = &mut self.window;
        if v <= w.alpha && w.alpha > -INFINITY {
            w.alpha = widen(v.saturating_sub(self.step).max(-INFINITY));
        } else if v >= w.beta && w.beta < INFINITY {
            w.beta = widen(v.saturating_add(self.step).min(INFINITY));
        } else {
            return None;
        }
        Some(*w)
    }
}

/// Nodes a search runs between two looks at its inbox on real threads (the runtime's default
/// is 1,024; the steps end only between children, so a step is a few leaf searches anyway).
const THREADS_QUANTUM: u64 = 256;

/// The runtime settings of the engine setting: `options.dib` when given; on threads a search
/// looks at its inbox after every few leaf searches (an empty inbox costs one atomic load), so
/// that a work request waits less (see `split_ab/README.md`); else the backend's defaults.
pub(super) fn engine_dib_config(options: &ParallelOptions) -> Option<DibConfig> {
    options.dib.or_else(|| {
        matches!(options.backend, Backend::Threads { .. }).then(|| DibConfig {
            quantum: THREADS_QUANTUM,
            ..DibConfig::for_threads()
        })
    })
}

/// An aspiration bound, or the infinite one once it reaches the decisive scores.
fn widen(bound: i32) -> i32 {
    if bound.abs() >= WIN_THRESHOLD {
        bound.signum() * INFINITY
    } else {
        bound
    }
}

/// The result of a later iteration with the work of the earlier ones added in.
fn add_iteration<M>(before: ParallelResult<M>, mut r: ParallelResult<M>) -> ParallelResult<M> {
    r.nodes += before.nodes;
    r.seconds += before.seconds;
    for (a, b) in r.accounts.iter_mut().zip(&before.accounts) {
        *a = ProcAccounts::total(&[*a, *b]);
    }
    r.total = ProcAccounts::total(&r.accounts);
    if let (Some(s), Some(b)) = (r.sim, before.sim) {
        r.sim = Some(s.after(&b));
    }
    r
}
