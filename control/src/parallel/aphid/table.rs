//! The APHID table (thesis 5.2.2): one row per leaf of the master's tree, replicated on the
//! master and on the slave that owns the leaf, with split write ownership.
//!
//! - The master's part: the move path from the root, the priority, whether the last pass
//!   touched the leaf, and the owning slave. Only the master writes it; each write goes to the
//!   owner as a message.
//! - The slave's part: lower and upper bounds on the leaf's value for every depth searched.
//!   Only the owner writes it; each write goes to the master in a (buffered) report.
//!
//! Nobody asks for information: each side reads its own copy. Rows are created as leaves are
//! first visited (the table grows dynamically) and never deleted: a leaf the master no longer
//! visits keeps its results for later passes.

use std::collections::BTreeMap;

use games::score::INFINITY;
use serde::{Deserialize, Serialize};

use crate::search::shift_decisive;
use crate::search::tt::value_to_tt;

/// A leaf's number in the table (the order of first visits).
pub type LeafId = u32;

/// Bounds on a value: `lower <= value <= upper`; `±INFINITY` where nothing is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounds {
    /// Lower bound.
    pub lower: i32,
    /// Upper bound.
    pub upper: i32,
}

impl Bounds {
    /// Nothing known.
    pub const UNKNOWN: Bounds = Bounds {
        lower: -INFINITY,
        upper: INFINITY,
    };

    /// An exact value.
    #[must_use]
    pub const fn exact(v: i32) -> Bounds {
        Bounds { lower: v, upper: v }
    }

    /// What a fail-soft search with window `(alpha, beta)` that returned `value` proves.
    #[must_use]
    pub fn from_search(value: i32, alpha: i32, beta: i32) -> Bounds {
        if value <= alpha {
            Bounds {
                lower: -INFINITY,
                upper: value,
            }
        } else if value >= beta {
            Bounds {
                lower: value,
                upper: INFINITY,
            }
        } else {
            Bounds::exact(value)
        }
    }

    /// Both facts together. Inconsistent facts (possible only with window-dependent search
    /// extensions) let the newer one, `other`, override (thesis 5.2.1, footnote 4).
    #[must_use]
    pub fn merge(self, other: Bounds) -> Bounds {
        let m = Bounds {
            lower: self.lower.max(other.lower),
            upper: self.upper.min(other.upper),
        };
        if m.lower > m.upper { other } else { m }
    }

    /// Whether the value is known exactly.
    #[must_use]
    pub fn is_exact(self) -> bool {
        self.lower == self.upper
    }

    /// The value alpha-beta may use with window `(alpha, beta)`, if these bounds decide it:
    /// the exact value, a lower bound at or above `beta`, or an upper bound at or below
    /// `alpha`.
    #[must_use]
    pub fn decides(self, alpha: i32, beta: i32) -> Option<i32> {
        if self.is_exact() || self.lower >= beta {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }

    /// Each finite bound plus `delta` (decisive values are not scaled).
    #[must_use]
    pub fn scaled(self, delta: i32) -> Bounds {
        let f = |v: i32| {
            if v.abs() >= INFINITY || games::score::is_decisive(v) {
                v
            } else {
                v + delta
            }
        };
        Bounds {
            lower: f(self.lower),
            upper: f(self.upper),
        }
    }

    /// From a leaf's scale (decisive scores counting plies from the leaf) to the root's, for
    /// a leaf `ply` plies below the root.
    #[must_use]
    pub fn to_root_scale(self, ply: u32) -> Bounds {
        let f = |v: i32| {
            if v.abs() >= INFINITY {
                v
            } else {
                shift_decisive(v, ply)
            }
        };
        Bounds {
            lower: f(self.lower),
            upper: f(self.upper),
        }
    }
}

/// A window from the root's scale to a leaf's `ply` plies down.
#[must_use]
pub fn window_to_leaf_scale(alpha: i32, beta: i32, ply: u32) -> (i32, i32) {
    let f = |v: i32| {
        if v.abs() >= INFINITY {
            v
        } else {
            value_to_tt(v, ply as usize).clamp(-INFINITY, INFINITY)
        }
    };
    (f(alpha), f(beta))
}

/// The slave's part of a row: bounds for every depth searched (index = depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepthBounds {
    by_depth: Vec<Bounds>,
}

impl DepthBounds {
    /// The bounds at `depth`, if that depth was searched.
    #[must_use]
    pub fn get(&self, depth: u32) -> Option<Bounds> {
        self.by_depth
            .get(depth as usize)
            .copied()
            .filter(|b| *b != Bounds::UNKNOWN)
    }

    /// Records what a search to `depth` proved. Returns whether anything changed.
    pub fn record(&mut self, depth: u32, b: Bounds) -> bool {
        let i = depth as usize;
        if self.by_depth.len() <= i {
            self.by_depth.resize(i + 1, Bounds::UNKNOWN);
        }
        let merged = self.by_depth[i].merge(b);
        let changed = merged != self.by_depth[i];
        self.by_depth[i] = merged;
        changed
    }

    /// Every searched depth with its bounds, deepest first.
    pub fn deepest_first(&self) -> impl Iterator<Item = (u32, Bounds)> + '_ {
        self.by_depth
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, b)| **b != Bounds::UNKNOWN)
            .map(|(d, b)| (d as u32, *b))
    }
}

/// The master's part of a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MasterPart {
    /// Move indices (in `generate_moves` order) from the root to the leaf.
    pub path: Vec<u16>,
    /// The priority of the last pass (0: not touched).
    pub priority: u32,
    /// Whether the last pass visited the leaf.
    pub touched: bool,
    /// The owning slave (`None`: the master searches it, below the granularity).
    pub owner: Option<usize>,
    /// Whether the last load-balancing step moved it (it may not move twice in a row).
    pub moved_last: bool,
}

/// A row as the master holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The master's part.
    pub master: MasterPart,
    /// The slave's part, on the leaf's scale.
    pub slave: DepthBounds,
    /// Nodes the slaves reported for this leaf, by depth.
    pub nodes: Vec<u64>,
}

impl Row {
    /// Plies from the root.
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.master.path.len() as u32
    }

    /// Nodes reported for `depth`.
    #[must_use]
    pub fn nodes_at(&self, depth: u32) -> u64 {
        self.nodes.get(depth as usize).copied().unwrap_or(0)
    }
}

/// The master's copy of the whole table.
#[derive(Clone, Debug, Default)]
pub struct AphidTable {
    rows: Vec<Row>,
    index: BTreeMap<Vec<u16>, LeafId>,
}

impl AphidTable {
    /// The leaf at `path`, if it has a row.
    #[must_use]
    pub fn find(&self, path: &[u16]) -> Option<LeafId> {
        self.index.get(path).copied()
    }

    /// A new row for `path` (which must not have one).
    pub fn insert(&mut self, path: &[u16], owner: Option<usize>) -> LeafId {
        let id = self.rows.len() as LeafId;
        self.rows.push(Row {
            master: MasterPart {
                path: path.to_vec(),
                priority: 0,
                touched: false,
                owner,
                moved_last: false,
            },
            slave: DepthBounds::default(),
            nodes: Vec::new(),
        });
        self.index.insert(path.to_vec(), id);
        id
    }

    /// A row.
    #[must_use]
    pub fn row(&self, id: LeafId) -> Option<&Row> {
        self.rows.get(id as usize)
    }

    /// A row, to write.
    pub fn row_mut(&mut self, id: LeafId) -> Option<&mut Row> {
        self.rows.get_mut(id as usize)
    }

    /// Every row in order of creation.
    #[must_use]
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Every row, to write.
    pub fn rows_mut(&mut self) -> &mut [Row] {
        &mut self.rows
    }

    /// Number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no rows.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::score::win_in;

    #[test]
    fn fail_soft_results_become_bounds_and_merge() {
        let low = Bounds::from_search(-30, -10, 10);
        assert_eq!(
            low,
            Bounds {
                lower: -INFINITY,
                upper: -30
            }
        );
        assert_eq!(low.decides(-10, 10), Some(-30));
        let high = Bounds::from_search(25, -10, 10);
        assert_eq!(high.decides(-10, 10), Some(25));
        assert_eq!(high.decides(0, 30), None);
        let mut d = DepthBounds::default();
        assert!(d.record(3, Bounds::from_search(5, 0, 4)));
        assert!(d.record(3, Bounds::from_search(5, 4, 10)));
        assert_eq!(d.get(3), Some(Bounds::exact(5)));
        assert!(!d.record(3, Bounds::exact(5)));
        assert_eq!(d.get(2), None);
        assert_eq!(d.deepest_first().next(), Some((3, Bounds::exact(5))));
    }

    #[test]
    fn inconsistent_facts_let_the_newer_override() {
        let old = Bounds {
            lower: 10,
            upper: INFINITY,
        };
        let new = Bounds {
            lower: -INFINITY,
            upper: 5,
        };
        assert_eq!(old.merge(new), new);
    }

    #[test]
    fn decisive_scores_move_to_the_root_scale() {
        let b = Bounds::exact(win_in(3)).to_root_scale(2);
        assert_eq!(b, Bounds::exact(win_in(5)));
        assert_eq!(Bounds::UNKNOWN.to_root_scale(4), Bounds::UNKNOWN);
        assert_eq!(Bounds::exact(7).scaled(-3), Bounds::exact(4));
        assert_eq!(
            Bounds::exact(win_in(1)).scaled(-3),
            Bounds::exact(win_in(1))
        );
    }
}
