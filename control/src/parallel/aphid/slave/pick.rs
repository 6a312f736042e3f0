//! The slave's scheduler (thesis 5.2.3): which piece of its part of the APHID table to search
//! next, to what depth and with what window (the order is in the module docs of `slave`).

use games::Game;
use games::score::{INFINITY, is_decisive};

use crate::search::tt::value_to_tt;

use super::{SlaveLeaf, SlaveState, Work};

impl<G: Game> SlaveState<G> {
    /// The depth the current iteration requires of leaf `l` (at least 1).
    fn required(&self, l: &SlaveLeaf<G>) -> u32 {
        self.epoch.iteration.saturating_sub(l.ply).max(1)
    }

    /// Every touched leaf searched to the required depth and no bad bound outstanding.
    pub(super) fn is_done(&self) -> bool {
        self.leaves
            .values()
            .all(|l| l.bad.is_none() && (l.priority == 0 || l.searched >= self.required(l)))
    }

    /// The window centred on the root value `hyp`, on `ply`'s side and scale.
    fn window_at(&self, hyp: i32, ply: u32, width: i32) -> (i32, i32) {
        if is_decisive(hyp) {
            return (-INFINITY, INFINITY);
        }
        let centre = value_to_tt(if ply % 2 == 0 { hyp } else { -hyp }, ply as usize);
        (
            centre.saturating_sub(width).max(-INFINITY),
            centre.saturating_add(width).min(INFINITY),
        )
    }

    /// The half-width of `l`'s window: `alternative_window` for a touched leaf off the
    /// master's principal variation (a path with fewer type-1 nodes than nodes: priority / 4
    /// counts them, `priority.rs`), `window` otherwise.
    fn half_width(&self, l: &SlaveLeaf<G>) -> i32 {
        let off_pv = l.priority > 0 && l.priority / 4 <= l.ply;
        let on_pv = l.priority > 0 && !off_pv;
        if self.pv_window > 0 && on_pv {
            self.pv_window
        } else if self.alternative_window > 0 && off_pv {
            self.alternative_window
        } else {
            self.window
        }
    }

    /// The scheduler (see the module docs).
    pub(in crate::parallel::aphid) fn pick(&self) -> Option<Work> {
        if let Some((&leaf, l, bad)) = self
            .leaves
            .iter()
            .filter_map(|(id, l)| l.bad.map(|b| (id, l, b)))
            .max_by_key(|(id, l, _)| (l.priority, std::cmp::Reverse(**id)))
        {
            let _ = l;
            return Some(Work {
                leaf,
                depth: bad.depth,
                alpha: bad.alpha,
                beta: bad.beta,
                required: true,
                bad: true,
                untouched: false,
            });
        }
        // Deficit below the required depth (+1 = one ply of run-ahead), then priority.
        let touched = self
            .leaves
            .iter()
            .filter(|(_, l)| l.priority > 0)
            .map(|(id, l)| {
                (
                    id,
                    l,
                    i64::from(self.required(l)) + 1 - i64::from(l.searched),
                )
            })
            .filter(|(_, _, d)| *d > 0)
            .max_by_key(|(id, l, d)| {
                // With `priority_from_depth`, required leaves past that depth go by priority
                // first (after those still below it, shallowest first).
                let by_priority =
                    self.priority_from > 0 && *d > 1 && l.searched >= self.priority_from;
                let (first, second) = if by_priority {
                    (i64::from(l.priority), *d)
                } else {
                    (*d, i64::from(l.priority))
                };
                (*d > 1, !by_priority, first, second, std::cmp::Reverse(**id))
            });
        // In the last iteration run-ahead is useless: an untouched leaf below its required
        // depth (a pass touches it when the principal variation moves) goes first, shallowest
        // first, then the highest priority it ever had. It is not required work (it yields
        // like speculative work) but gets the required window.
        let last = self.untouched_last && self.epoch.iteration >= self.target;
        let untouched = || {
            self.leaves
                .iter()
                .filter(|(_, l)| l.priority == 0 && l.searched < self.required(l))
                .map(|(id, l)| {
                    (
                        id,
                        l,
                        i64::from(self.required(l)) + 1 - i64::from(l.searched),
                    )
                })
                .max_by_key(|(id, l, d)| (*d, l.known, std::cmp::Reverse(**id)))
        };
        if last && self.exact_spare && touched.is_none_or(|t| t.2 <= 1) {
            if let Some(w) = self.exact_work() {
                return Some(w);
            }
        }
        let (&leaf, l, deficit) = match touched {
            Some(t) if t.2 > 1 || !last => t,
            _ if !last => return None,
            _ => match untouched() {
                Some(u) => u,
                None => touched?,
            },
        };
        let untouched = l.priority == 0;
        let required = deficit > 1 && l.priority > 0;
        let half = self.half_width(l);
        let width = if deficit > 1 { half } else { 2 * half };
        // Run-ahead (the next iteration's depth) centres on the value expected there.
        let shift = if deficit > 1 || untouched {
            0
        } else {
            self.epoch.shift
        };
        let (alpha, beta) =
            self.window_at(self.epoch.hypothesis.saturating_add(shift), l.ply, width);
        Some(Work {
            leaf,
            depth: catch_up_depth(l.searched, self.required(l), self.catch_up_from),
            alpha,
            beta,
            required,
            bad: false,
            untouched,
        })
    }

    /// `exact_spare`: the touched leaf of highest priority whose result at its required depth
    /// is only a bound, searched again at that depth with a window beyond the bound (from
    /// just inside it to `2 window` past it; between two finite bounds, just outside both),
    /// so that the master finds it decided for the next windows it needs. Decisive bounds are
    /// left alone.
    fn exact_work(&self) -> Option<Work> {
        let width = 2 * self.window;
        self.leaves
            .iter()
            .filter(|(_, l)| l.priority > 0 && l.bad.is_none())
            .filter_map(|(&id, l)| {
                let r = self.required(l);
                let b = l.bounds.get(r)?;
                let window = exact_window(b.lower, b.upper, width)?;
                Some((id, l.priority, r, window))
            })
            .max_by_key(|&(id, priority, _, _)| (priority, std::cmp::Reverse(id)))
            .map(|(leaf, _, depth, (alpha, beta))| Work {
                leaf,
                depth,
                alpha,
                beta,
                required: false,
                bad: false,
                untouched: false,
            })
    }
}

/// The window that makes a leaf's bounds `[lower, upper]` at a depth more exact
/// (`AphidOptions::exact_spare`): none when they are exact or a finite one is decisive;
/// between two finite bounds, just outside both (the search is then exact); past a lower
/// bound only, from just below it to `width` above it; below an upper bound only, from
/// `width` below it to just above it.
pub(super) fn exact_window(lower: i32, upper: i32, width: i32) -> Option<(i32, i32)> {
    let low = lower > -INFINITY;
    let high = upper < INFINITY;
    if lower >= upper || (low && is_decisive(lower)) || (high && is_decisive(upper)) {
        return None;
    }
    match (low, high) {
        (true, true) => Some((lower - 1, upper + 1)),
        (true, false) => Some((lower - 1, lower + width)),
        (false, true) => Some((upper - width, upper + 1)),
        (false, false) => None,
    }
}

/// The depth a leaf searched to `searched` plies is searched to next when it needs `required`
/// (`AphidOptions::catch_up_from`): one ply deeper, or `required - skip` when that is deeper
/// and `skip` is not 0 (the shallower iterations are skipped).
pub(super) fn catch_up_depth(searched: u32, required: u32, skip: u32) -> u32 {
    let next = searched + 1;
    if skip == 0 || next >= required {
        next
    } else {
        next.max(required.saturating_sub(skip))
    }
}
