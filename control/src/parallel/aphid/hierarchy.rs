//! The process hierarchy of thesis section 5.2.4: processor 0 is the absolute master; every
//! other processor has a parent (its master) and is a leaf slave or, when it has slaves of its
//! own, a mid-level process (a slave to its parent and a master to its slaves).
//!
//! A hierarchy is static for a run. Processors are numbered in depth-first order (the order
//! of the thesis's `aphid.config` lines), so a parent always has a smaller number than its
//! slaves. Slaves of the same master are *peers*: they form the shadow-table ring of
//! thesis 5.2.6 (`shadow.rs`).

use std::fmt;

/// A bad hierarchy (from the TOML `parents` key or built in code).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HierarchyError {
    /// A parent that is not an earlier processor.
    #[error(
        "processor {proc} has parent {parent}; a parent must be an earlier processor (0 to {})",
        proc - 1
    )]
    BadParent {
        /// The processor.
        proc: usize,
        /// Its parent as given.
        parent: usize,
    },
    /// No slaves at all.
    #[error("a hierarchy needs at least one slave besides the master (processor 0)")]
    Empty,
}

/// Who is whose master: `parent(p)` for every processor `p >= 1`.
#[derive(Clone, PartialEq, Eq)]
pub struct Hierarchy {
    /// `parents[p - 1]` is the master of processor `p`.
    parents: Vec<usize>,
    /// Host names (from `aphid.config`; labels only: hosts map to processor numbers).
    hosts: Vec<String>,
}

impl fmt::Debug for Hierarchy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hierarchy{:?}", self.parents)
    }
}

impl Hierarchy {
    /// A hierarchy from the master of every processor `1..=parents.len()`.
    ///
    /// # Errors
    /// [`HierarchyError`] when a parent is not an earlier processor, or there is no slave.
    pub fn from_parents(parents: Vec<usize>) -> Result<Hierarchy, HierarchyError> {
        if parents.is_empty() {
            return Err(HierarchyError::Empty);
        }
        for (i, &parent) in parents.iter().enumerate() {
            let proc = i + 1;
            if parent >= proc {
                return Err(HierarchyError::BadParent { proc, parent });
            }
        }
        Ok(Hierarchy {
            hosts: vec![String::new(); parents.len()],
            parents,
        })
    }

    /// The flat hierarchy: one master and `procs - 1` slaves.
    #[must_use]
    pub fn flat(procs: usize) -> Hierarchy {
        let parents = vec![0; procs.saturating_sub(1)];
        Hierarchy {
            hosts: vec![String::new(); parents.len()],
            parents,
        }
    }

    /// Names each processor's host (labels, as in `aphid.config`).
    #[must_use]
    pub fn with_hosts(mut self, hosts: Vec<String>) -> Hierarchy {
        if hosts.len() == self.parents.len() {
            self.hosts = hosts;
        }
        self
    }

    /// Processors, the master included.
    #[must_use]
    pub fn procs(&self) -> usize {
        self.parents.len() + 1
    }

    /// The master of processor `p` (`None` for processor 0 or a number out of range).
    #[must_use]
    pub fn parent(&self, p: usize) -> Option<usize> {
        p.checked_sub(1).and_then(|i| self.parents.get(i)).copied()
    }

    /// The slaves of processor `p`, in order.
    #[must_use]
    pub fn children(&self, p: usize) -> Vec<usize> {
        (1..self.procs())
            .filter(|&c| self.parent(c) == Some(p))
            .collect()
    }

    /// Processor `p` and its peers (the slaves of its master), in order; empty for 0.
    #[must_use]
    pub fn peers(&self, p: usize) -> Vec<usize> {
        self.parent(p).map_or_else(Vec::new, |m| self.children(m))
    }

    /// Levels below the absolute master (0 for the master, 1 for its slaves, ...).
    #[must_use]
    pub fn level(&self, p: usize) -> usize {
        let mut level = 0;
        let mut q = p;
        while let Some(m) = self.parent(q) {
            level += 1;
            q = m;
        }
        level
    }

    /// Whether every slave reports to processor 0.
    #[must_use]
    pub fn is_flat(&self) -> bool {
        self.parents.iter().all(|&m| m == 0)
    }

    /// The master of every processor `1..procs()`.
    #[must_use]
    pub fn parents(&self) -> &[usize] {
        &self.parents
    }

    /// The host label of processor `p` (empty when none was given).
    #[must_use]
    pub fn host(&self, p: usize) -> &str {
        p.checked_sub(1)
            .and_then(|i| self.hosts.get(i))
            .map_or("", String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_level_hierarchy_has_parents_children_and_peers() {
        // 0 -> {1, 4}; 1 -> {2, 3}; 4 -> {5}.
        let h = Hierarchy::from_parents(vec![0, 1, 1, 0, 4]).expect("valid");
        assert_eq!(h.procs(), 6);
        assert_eq!(h.children(0), vec![1, 4]);
        assert_eq!(h.children(1), vec![2, 3]);
        assert_eq!(h.peers(3), vec![2, 3]);
        assert_eq!(h.peers(0), Vec::<usize>::new());
        assert_eq!(h.level(5), 2);
        assert!(!h.is_flat());
        assert!(Hierarchy::flat(4).is_flat());
        assert_eq!(Hierarchy::flat(4).children(0), vec![1, 2, 3]);
    }

    #[test]
    fn parents_must_come_first() {
        assert_eq!(
            Hierarchy::from_parents(vec![0, 3, 0]),
            Err(HierarchyError::BadParent { proc: 2, parent: 3 })
        );
        assert_eq!(Hierarchy::from_parents(vec![]), Err(HierarchyError::Empty));
    }
}
