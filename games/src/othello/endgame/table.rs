//! The solver's transposition table: buckets of three entries packed into one 64-byte cache
//! line (so a probe costs at most one cache miss), each entry holding the full position (both
//! bitboards, so a hit is never false), a lower and an upper bound on its exact score, the best
//! move found and the number of empties (the cost of the search that produced it).
//!
//! Replacement: a position already in the bucket is updated in place; otherwise the entry
//! with the fewest empties (the cheapest one to recompute) is replaced. Entries are facts
//! about positions, valid for any window and any later solve.

/// One entry, as [`Table::probe`] returns it.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// A lower bound on the exact score.
    pub(crate) lower: i8,
    /// An upper bound on the exact score.
    pub(crate) upper: i8,
    /// The best move found (a square), or 64 for none.
    pub(crate) best: u8,
    /// The table's level when the entry was stored (see [`Table::set_level`]).
    pub(crate) level: u8,
}

/// Three entries in one cache line, stored as arrays of fields (60 bytes, aligned to 64).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket {
    /// Discs of the side to move.
    player: [u64; 3],
    /// Discs of the opponent.
    opponent: [u64; 3],
    /// Lower bounds.
    lower: [i8; 3],
    /// Upper bounds.
    upper: [i8; 3],
    /// Best moves.
    best: [u8; 3],
    /// Empties of the position (0 marks an unused entry: positions with no empties are
    /// never stored).
    empties: [u8; 3],
    /// The table's level when the entry was stored.
    level: [u8; 3],
}

impl Bucket {
    /// The slot holding `(p, o)`, if any.
    #[inline(always)]
    fn find(&self, p: u64, o: u64) -> Option<usize> {
        (0..3).find(|&i| self.player[i] == p && self.opponent[i] == o && self.empties[i] != 0)
    }
}

/// The table: about `2^bits` entries, in buckets of three.
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    shift: u32,
    /// Stored with each entry; bounds of an entry of another level are not merged.
    level: u8,
}

/// A cheap mixing of the two bitboards into 64 bits.
#[inline]
fn mix(p: u64, o: u64) -> u64 {
    (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .rotate_left(29)
        .wrapping_mul(0x1656_67B1_9E37_79F9)
}

impl Table {
    /// A table of `2^(bits - 1)` buckets of three entries (`bits` at least 2): `1.5 * 2^bits`
    /// entries, `32 * 2^bits` bytes.
    pub(crate) fn new(bits: u32) -> Self {
        Table {
            buckets: vec![Bucket::default(); 1 << (bits - 1)],
            shift: 64 - (bits - 1),
            level: 0,
        }
    }

    /// Empties every bucket (a new game).
    pub(crate) fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.level = 0;
    }

    /// Sets the level stored with later entries (the selective pre-search's passes each
    /// have their own: bounds of an earlier pass are not used by a later one).
    pub(crate) fn set_level(&mut self, level: u8) {
        self.level = level;
    }

    /// The level stored with later entries.
    pub(crate) fn level(&self) -> u8 {
        self.level
    }

    #[inline]
    fn bucket(&self, p: u64, o: u64) -> usize {
        (mix(p, o) >> self.shift) as usize
    }

    /// Loads the bucket of `(p, o)` without using it, so that a later [`Table::probe`] of
    /// the same position finds it in the cache (a batch of touches overlaps the misses).
    #[inline]
    pub(crate) fn touch(&self, p: u64, o: u64) -> u64 {
        self.buckets[self.bucket(p, o)].player[0]
    }

    /// The entry of position `(p, o)`, if stored.
    #[inline]
    pub(crate) fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let b = &self.buckets[self.bucket(p, o)];
        b.find(p, o).map(|i| Entry {
            lower: b.lower[i],
            upper: b.upper[i],
            best: b.best[i],
            level: b.level[i],
        })
    }

    /// Stores bounds for `(p, o)` (`empties` > 0), tightened with what an existing entry of
    /// the same position knew.
    #[inline]
    pub(crate) fn store(&mut self, p: u64, o: u64, empties: u32, lower: i32, upper: i32, best: u8) {
        let i = self.bucket(p, o);
        let b = &mut self.buckets[i];
        let (slot, lower, upper) = match b.find(p, o) {
            Some(k) if b.level[k] == self.level => (
                k,
                lower.max(i32::from(b.lower[k])),
                upper.min(i32::from(b.upper[k])),
            ),
            Some(k) => (k, lower, upper),
            None => {
                let mut k = 0;
                for j in 1..3 {
                    if b.empties[j] < b.empties[k] {
                        k = j;
                    }
                }
                (k, lower, upper)
            }
        };
        b.player[slot] = p;
        b.opponent[slot] = o;
        b.lower[slot] = lower as i8;
        b.upper[slot] = upper as i8;
        b.best[slot] = best;
        b.empties[slot] = empties as u8;
        b.level[slot] = self.level;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn store_probe_and_tighten() {
        let mut t = Table::new(4);
        assert_eq!(t.probe(1, 2), None);
        t.store(1, 2, 10, -64, 8, 3);
        t.store(1, 2, 10, 4, 64, 5);
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (4, 8, 5, 0));
        // Another level replaces the bounds instead of tightening them.
        t.set_level(1);
        t.store(1, 2, 10, -10, 10, 6);
        let e = t.probe(1, 2).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-10, 10, 6, 1));
        t.set_level(0);
        // Many positions into a 24-entry table: every probe that answers is right.
        let mut known = std::collections::HashMap::new();
        for k in 0..200u64 {
            let (lower, upper) = (-(k as i32 % 30), (k as i32 % 17));
            t.store(k << 8, k, 5 + (k % 7) as u32, lower, upper, k as u8);
            known.insert(k, (lower as i8, upper as i8, k as u8));
        }
        let mut hits = 0;
        for k in 0..200u64 {
            if let Some(e) = t.probe(k << 8, k) {
                assert_eq!((e.lower, e.upper, e.best), known[&k]);
                hits += 1;
            }
        }
        assert!(hits > 0);
    }
}
