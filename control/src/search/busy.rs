//! ABDADA's count of the processors searching each node (Weill 1996: the transposition-table
//! entry's `nproc`), kept beside the transposition table in a small table of its own.
//!
//! A slot is one `AtomicU64`: the position's hash with its low byte replaced by the count. Only
//! the nodes being searched right now hold a slot (a few per processor and ply), so a table of
//! [`BUSY_SLOTS`] slots sees few collisions; a position whose slot holds another position is not
//! counted (it is never deferred, which costs parallelism, never correctness). Every operation
//! is one compare-and-swap loop, without locks.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of a busy table.
pub const BUSY_SLOTS: usize = 1 << 14;

/// How many processors search each node.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl std::fmt::Debug for BusyTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BusyTable")
            .field("slots", &self.slots.len())
            .finish()
    }
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable::new()
    }
}

/// The slot's tag of `hash` (never 0: an empty slot reads 0).
fn tag(hash: u64) -> u64 {
    (hash & !0xff) | 0x100
}

impl BusyTable {
    /// An empty table.
    #[must_use]
    pub fn new() -> Self {
        BusyTable {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, hash: u64) -> &AtomicU64 {
        // The high bits pick the slot, as the transposition table picks its bucket.
        &self.slots[((u128::from(hash) * BUSY_SLOTS as u128) >> 64) as usize]
    }

    /// How many processors search the position with `hash` now.
    #[must_use]
    pub fn count(&self, hash: u64) -> u32 {
        let v = self.slot(hash).load(Ordering::Acquire);
        if v & !0xff == tag(hash) {
            (v & 0xff) as u32
        } else {
            0
        }
    }

    /// One more processor searches the position with `hash`; `false` when its slot holds
    /// another position (then it is not counted, and [`BusyTable::leave`] must not be called).
    pub fn enter(&self, hash: u64) -> bool {
        let slot = self.slot(hash);
        let t = tag(hash);
        let mut cur = slot.load(Ordering::Acquire);
        loop {
            let next = if cur == 0 {
                t | 1
            } else if cur & !0xff == t && cur & 0xff < 0xff {
                cur + 1
            } else {
                return false;
            };
            match slot.compare_exchange_weak(cur, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return true,
                Err(now) => cur = now,
            }
        }
    }

    /// A processor that [`BusyTable::enter`]ed the position with `hash` is done with it.
    pub fn leave(&self, hash: u64) {
        let slot = self.slot(hash);
        let t = tag(hash);
        let mut cur = slot.load(Ordering::Acquire);
        loop {
            if cur & !0xff != t || cur & 0xff == 0 {
                return;
            }
            let next = if cur & 0xff == 1 { 0 } else { cur - 1 };
            match slot.compare_exchange_weak(cur, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return,
                Err(now) => cur = now,
            }
        }
    }

    /// Forgets every count (no search runs).
    pub fn clear(&self) {
        for s in &*self.slots {
            s.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_rise_and_fall_per_position_and_a_taken_slot_counts_nothing() {
        let b = BusyTable::new();
        let h = 0x1234_5678_9abc_def0;
        assert_eq!(b.count(h), 0);
        assert!(b.enter(h));
        assert!(b.enter(h));
        assert_eq!(b.count(h), 2);
        // Another position in the same slot (same high bits, another low word).
        let other = h ^ 0x0000_0000_0001_0000;
        assert_eq!(b.count(other), 0);
        assert!(!b.enter(other));
        b.leave(h);
        assert_eq!(b.count(h), 1);
        b.leave(h);
        assert_eq!(b.count(h), 0);
        assert!(b.enter(other));
        assert_eq!(b.count(other), 1);
        b.clear();
        assert_eq!(b.count(other), 0);
    }

    #[test]
    fn threads_entering_and_leaving_leave_every_count_at_zero() {
        let b = std::sync::Arc::new(BusyTable::new());
        let hashes: Vec<u64> = (0..64u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let b = std::sync::Arc::clone(&b);
                let hashes = hashes.clone();
                std::thread::spawn(move || {
                    for _ in 0..1000 {
                        for &h in &hashes {
                            if b.enter(h) {
                                assert!(b.count(h) >= 1);
                                b.leave(h);
                            }
                        }
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        assert!(hashes.iter().all(|&h| b.count(h) == 0));
    }
}
