//! The solver's transposition table: buckets of two entries, each holding the full position
//! (both bitboards, so a hit is never false), a lower and an upper bound on its exact score,
//! the best move found and the number of empties (the cost of the search that produced it).
//!
//! Replacement: a position already in the bucket is updated in place; otherwise the entry
//! with fewer empties (the cheaper one to recompute) is replaced. Entries are facts about
//! positions, valid for any window and any later solve.

/// One entry.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Discs of the side to move.
    pub(crate) player: u64,
    /// Discs of the opponent.
    pub(crate) opponent: u64,
    /// A lower bound on the exact score.
    pub(crate) lower: i8,
    /// An upper bound on the exact score.
    pub(crate) upper: i8,
    /// The best move found (a square), or 64 for none.
    pub(crate) best: u8,
    /// Empties of the position (0 marks an unused entry: positions with no empties are
    /// never stored).
    pub(crate) empties: u8,
}

/// The table: `2^bits` entries in buckets of two.
pub(crate) struct Table {
    entries: Vec<Entry>,
    shift: u32,
}

/// A cheap mixing of the two bitboards into 64 bits.
#[inline]
fn mix(p: u64, o: u64) -> u64 {
    (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .rotate_left(29)
        .wrapping_mul(0x1656_67B1_9E37_79F9)
}

impl Table {
    /// A table of `2^bits` entries (`bits` at least 1).
    pub(crate) fn new(bits: u32) -> Self {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            shift: 64 - (bits - 1),
        }
    }

    #[inline]
    fn bucket(&self, p: u64, o: u64) -> usize {
        ((mix(p, o) >> self.shift) as usize) * 2
    }

    /// The entry of position `(p, o)`, if stored.
    #[inline]
    pub(crate) fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let b = self.bucket(p, o);
        let pair = &self.entries[b..b + 2];
        pair.iter()
            .find(|e| e.player == p && e.opponent == o && e.empties != 0)
            .copied()
    }

    /// Stores bounds for `(p, o)` (`empties` > 0), tightened with what an existing entry of
    /// the same position knew.
    #[inline]
    pub(crate) fn store(&mut self, p: u64, o: u64, empties: u32, lower: i32, upper: i32, best: u8) {
        let b = self.bucket(p, o);
        let pair = &mut self.entries[b..b + 2];
        let new = |lower: i32, upper: i32| Entry {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
        };
        for e in pair.iter_mut() {
            if e.player == p && e.opponent == o && e.empties != 0 {
                let (l, u) = (lower.max(i32::from(e.lower)), upper.min(i32::from(e.upper)));
                *e = new(l, u);
                return;
            }
        }
        let victim = if pair[0].empties <= pair[1].empties {
            0
        } else {
            1
        };
        pair[victim] = new(lower, upper);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_and_tighten() {
        let mut t = Table::new(4);
        assert_eq!(t.probe(1, 2), None);
        t.store(1, 2, 10, -64, 8, 3);
        t.store(1, 2, 10, 4, 64, 5);
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best), (4, 8, 5));
        // Many positions into a 16-entry table: every probe that answers is right.
        for k in 0..200u64 {
            t.store(k << 8, k, 5 + (k % 7) as u32, -2, 2, 0);
        }
        for k in 0..200u64 {
            if let Some(e) = t.probe(k << 8, k) {
                assert_eq!((e.player, e.opponent), (k << 8, k));
            }
        }
    }
}
