//! The slave's scheduler (thesis 5.2.3): which piece of its part of the APHID table to search
//! next, to what depth and with what window (the order is in the module docs of `slave`).

use games::Game;
use games::score::INFINITY;

use crate::search::tt::value_to_tt;

use super::{PickOrder, SlaveLeaf, SlaveState, Work};

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

    /// The window centred on the root value `hyp`, on `ply`'s side and scale. A decisive
    /// `hyp` is centred too, on the leaf's distance to the end: an unbounded window there
    /// would make every required search find the leaf's exact value.
    fn window_at(&self, hyp: i32, ply: u32, width: i32) -> (i32, i32) {
        let centre = value_to_tt(if ply % 2 == 0 { hyp } else { -hyp }, ply as usize);
        (
            centre.saturating_sub(width).max(-INFINITY),
            centre.saturating_add(width).min(INFINITY),
        )
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
        // Deficit below the required depth (+1 = one ply of run-ahead; above 1: required
        // work). `deficit`: the largest deficit, then priority; `priority`: required work
        // before run-ahead, then priority, then the deficit.
        let by_priority = self.pick == PickOrder::Priority;
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
                let rank = if by_priority {
                    (i64::from(*d > 1), i64::from(l.priority), *d)
                } else {
                    (*d, i64::from(l.priority), 0)
                };
                (rank, std::cmp::Reverse(**id))
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
        let width = if deficit > 1 {
            self.window
        } else {
            2 * self.window
        };
        let (alpha, beta) = self.window_at(self.epoch.hypothesis, l.ply, width);
        Some(Work {
            leaf,
            depth: l.searched + 1,
            alpha,
            beta,
            required,
            bad: false,
            untouched,
        })
    }
}
