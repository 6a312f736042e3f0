//! The transposition table: fixed size in MiB, buckets of four entries, and an entry layout that
//! threads can share without locks.
//!
//! # Entry layout
//! An entry is two `AtomicU64`: `data` and `check = key ^ data`. A reader loads both and accepts
//! the entry only if `check ^ data` equals the full 64-bit hash of its position, so an entry torn
//! by two writers racing (one word from each) fails validation instead of returning a wrong
//! value (Hyatt and Mann's lockless hashing). Relaxed atomics compile to plain loads and stores.
//!
//! `data` packs, from the low bits: value (32 bits, two's complement), depth (8), bound (2, where
//! 0 means empty), generation (6), and move index plus one (16; 0 means no move). Moves are
//! stored as their index in the game's `generate_moves` order, which keeps the table independent
//! of the game's move type.
//!
//! # Replacement
//! A position goes to bucket `hash * buckets >> 64`. A store overwrites the entry holding the
//! same position (keeping its move when the new result has none) or else the entry of least
//! worth, where worth is depth minus eight times the entry's age in searches; empty entries go
//! first. A table made with [`TtReplace::Deeper`](super::TtReplace) keeps a position's entry
//! when the new result is shallower than the stored one (the thesis's programs store only
//! `if (h_length <= plytogo)`), so that a position searched again from a shallower depth does
//! not erase its own deeper result.
//!
//! # Sharing stores
//! The table itself records nothing about its stores. A search that stores an entry also hands
//! it to its context ([`SearchContext::stored`](super::SearchContext::stored)), which is where
//! runtimes that share entries with other machines collect them (APHID's shadow ring, Lazy SMP
//! over MPI); entries received from elsewhere are written with [`TranspositionTable::store`].

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

/// Entries per bucket (four entries of 16 bytes fill a 64-byte cache line).
pub(crate) const BUCKET_ENTRIES: usize = 4;

/// Bytes one entry takes in the table (a bucket of four fills a 64-byte cache line).
pub const TT_ENTRY_BYTES: u64 = 16;

/// The largest table accepted, in MiB.
pub const MAX_TT_MIB: usize = 1 << 16;

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bound {
    /// The true value is at least the stored value (the search failed high).
    Lower,
    /// The true value is at most the stored value (the search failed low).
    Upper,
    /// The stored value is exact.
    Exact,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TtEntry {
    /// The value, with decisive scores relative to the stored position (see
    /// `value_to_tt`).
    pub value: i32,
    /// The depth that was searched.
    pub depth: u8,
    /// What the value means.
    pub bound: Bound,
    /// The best move as an index into the position's `generate_moves` order.
    pub move_index: Option<u16>,
}

/// Errors of building a table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TtError {
    /// The size asked for is too large.
    #[error("transposition table of {mib} MiB is too large; use at most {MAX_TT_MIB} MiB")]
    TooLarge {
        /// The size asked for.
        mib: usize,
    },
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; BUCKET_ENTRIES]);

/// A transposition table shareable between threads (`Sync`): every method takes `&self`.
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
    /// A position's entry takes only results at least as deep as the stored one.
    keep_deeper: bool,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.buckets.len())
            .field("generation", &self.generation.load(Ordering::Relaxed))
            .finish()
    }
}

const GEN_MASK: u8 = 0x3F;

fn pack(e: &TtEntry, generation: u8) -> u64 {
    let bound = match e.bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    let mv = e.move_index.map_or(0, |m| u64::from(m) + 1);
    u64::from(e.value as u32)
        | u64::from(e.depth) << 32
        | bound << 40
        | u64::from(generation & GEN_MASK) << 42
        | mv << 48
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = (data >> 48) as u16;
    Some(TtEntry {
        value: data as u32 as i32,
        depth: (data >> 32) as u8,
        bound,
        move_index: mv.checked_sub(1),
    })
}

fn generation_of(data: u64) -> u8 {
    ((data >> 42) as u8) & GEN_MASK
}

impl TranspositionTable {
    /// A table of `mib` MiB (at least one bucket).
    ///
    /// # Errors
    /// [`TtError::TooLarge`] above [`MAX_TT_MIB`].
    pub fn new(mib: usize) -> Result<Self, TtError> {
        if mib > MAX_TT_MIB {
            return Err(TtError::TooLarge { mib });
        }
        let count = (mib << 20) / std::mem::size_of::<Bucket>();
        Ok(Self::with_buckets(count.max(1)))
    }

    /// The table `config` asks for: none (one bucket, never used) when the table is off, else
    /// `tt_mib` MiB, or `tt_entries` entries (whole buckets, at least one) when that is fewer.
    ///
    /// # Errors
    /// [`TtError::TooLarge`] above [`MAX_TT_MIB`].
    pub fn for_config(config: &super::SearchConfig) -> Result<Self, TtError> {
        if config.tt_mode == super::TtMode::Off {
            return Self::new(0);
        }
        let full = Self::new(config.tt_mib)?;
        let mut table = match config.tt_entries {
            Some(entries) if entries < full.capacity() => {
                Self::with_buckets((entries / BUCKET_ENTRIES).max(1))
            }
            _ => full,
        };
        table.keep_deeper = config.tt_replace == super::TtReplace::Deeper;
        Ok(table)
    }

    fn with_buckets(count: usize) -> Self {
        let buckets: Box<[Bucket]> = (0..count).map(|_| Bucket::default()).collect();
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
            keep_deeper: false,
        }
    }

    /// Number of entries the table holds.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * BUCKET_ENTRIES
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub(crate) fn new_generation(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GEN_MASK, Ordering::Relaxed);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for bucket in &*self.buckets {
            for e in &bucket.0 {
                e.check.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        let i = ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// The entry stored for the position with this hash, if any.
    #[must_use]
    pub fn probe(&self, hash: u64) -> Option<TtEntry> {
        for e in &self.bucket(hash).0 {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if check ^ data == hash {
                if let Some(entry) = unpack(data) {
                    return Some(entry);
                }
            }
        }
        None
    }

    /// Stores a result for the position with this hash (see the module docs for which entry it
    /// replaces).
    pub fn store(&self, hash: u64, entry: TtEntry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(hash);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.0 {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            let Some(old) = unpack(data) else {
                if victim_worth > i32::MIN {
                    victim = e;
                    victim_worth = i32::MIN;
                }
                continue;
            };
            if check ^ data == hash {
                if self.keep_deeper && old.depth > entry.depth {
                    return;
                }
                let mut entry = entry;
                if entry.move_index.is_none() {
                    entry.move_index = old.move_index;
                }
                Self::write(e, hash, &entry, generation);
                return;
            }
            let age = i32::from(generation.wrapping_sub(generation_of(data)) & GEN_MASK);
            let worth = i32::from(old.depth) - 8 * age;
            if worth < victim_worth {
                victim = e;
                victim_worth = worth;
            }
        }
        Self::write(victim, hash, &entry, generation);
    }

    fn write(e: &Entry, hash: u64, entry: &TtEntry, generation: u8) {
        let data = pack(entry, generation);
        e.data.store(data, Ordering::Relaxed);
        e.check.store(hash ^ data, Ordering::Relaxed);
    }

    /// Occupied entries of the current generation among the first thousand buckets, per mille.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(1000);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.0 {
                let data = e.data.load(Ordering::Relaxed);
                used += u32::from(unpack(data).is_some() && generation_of(data) == generation);
            }
        }
        (u64::from(used) * 1000 / (sample * BUCKET_ENTRIES) as u64) as u32
    }
}

/// Converts a value found `ply` plies below the root into one relative to its own position:
/// decisive scores count plies from the stored position, so a hit found at another ply reads the
/// right distance.
#[must_use]
pub(crate) fn value_to_tt(value: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if value >= games::score::WIN_THRESHOLD {
        value + ply
    } else if value <= -games::score::WIN_THRESHOLD {
        value - ply
    } else {
        value
    }
}

/// The inverse of [`value_to_tt`] at `ply`.
#[must_use]
pub(crate) fn value_from_tt(value: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if value >= games::score::WIN_THRESHOLD {
        value - ply
    } else if value <= -games::score::WIN_THRESHOLD {
        value + ply
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: i32, depth: u8, bound: Bound, mv: Option<u16>) -> TtEntry {
        TtEntry {
            value,
            depth,
            bound,
            move_index: mv,
        }
    }

    #[test]
    fn store_then_probe_round_trips_every_field() {
        let tt = TranspositionTable::new(1).unwrap();
        for (i, e) in [
            entry(-1_000_000, 0, Bound::Upper, None),
            entry(123, 7, Bound::Exact, Some(0)),
            entry(999_990, 255, Bound::Lower, Some(u16::MAX - 1)),
        ]
        .into_iter()
        .enumerate()
        {
            let hash = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
            tt.store(hash, e);
            assert_eq!(tt.probe(hash), Some(e));
            assert_eq!(tt.probe(hash ^ 1), None);
        }
    }

    #[test]
    fn a_torn_entry_fails_validation() {
        let tt = TranspositionTable::with_buckets(1);
        tt.store(42, entry(5, 3, Bound::Exact, Some(2)));
        // Simulate a racing writer that replaced only the data word.
        let e = &tt.buckets[0].0[0];
        e.data.store(
            pack(&entry(-7, 9, Bound::Lower, None), 0),
            Ordering::Relaxed,
        );
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn the_zero_hash_is_not_found_in_an_empty_table() {
        let tt = TranspositionTable::with_buckets(4);
        assert_eq!(tt.probe(0), None);
        tt.store(0, entry(1, 1, Bound::Exact, None));
        assert_eq!(tt.probe(0).map(|e| e.value), Some(1));
    }

    #[test]
    fn an_entry_takes_the_bytes_the_cost_models_assume() {
        assert_eq!(
            std::mem::size_of::<Bucket>() as u64,
            BUCKET_ENTRIES as u64 * TT_ENTRY_BYTES
        );
    }

    #[test]
    fn replacement_keeps_the_deeper_and_newer_entries() {
        let tt = TranspositionTable::with_buckets(1);
        for h in 1..=4u64 {
            tt.store(h, entry(0, h as u8 * 2, Bound::Exact, None));
        }
        // A fifth position replaces the shallowest (hash 1, depth 2).
        tt.store(5, entry(0, 3, Bound::Exact, None));
        assert_eq!(tt.probe(1), None);
        assert!((2..=5).all(|h| tt.probe(h).is_some()));
        // After three more searches, old deep entries are worth less than a fresh shallow one.
        for _ in 0..3 {
            tt.new_generation();
        }
        tt.store(6, entry(0, 1, Bound::Exact, None));
        assert_eq!(tt.probe(5), None, "the shallowest old entry goes first");
        tt.store(7, entry(0, 1, Bound::Exact, None));
        assert_eq!(tt.probe(2), None, "then the next shallowest old one");
        assert!(tt.probe(6).is_some() && tt.probe(7).is_some() && tt.probe(4).is_some());
    }

    #[test]
    fn storing_without_a_move_keeps_the_old_move() {
        let tt = TranspositionTable::with_buckets(2);
        tt.store(77, entry(1, 2, Bound::Lower, Some(4)));
        tt.store(77, entry(3, 4, Bound::Upper, None));
        assert_eq!(tt.probe(77), Some(entry(3, 4, Bound::Upper, Some(4))));
    }

    #[test]
    fn a_deeper_table_keeps_a_positions_deeper_result() {
        let deeper = crate::search::SearchConfig {
            tt_replace: crate::search::TtReplace::Deeper,
            tt_mib: 1,
            ..crate::search::SearchConfig::research()
        };
        let tt = TranspositionTable::for_config(&deeper).unwrap();
        tt.store(77, entry(5, 6, Bound::Exact, Some(1)));
        tt.store(77, entry(3, 2, Bound::Lower, Some(2)));
        assert_eq!(tt.probe(77), Some(entry(5, 6, Bound::Exact, Some(1))));
        tt.store(77, entry(4, 6, Bound::Upper, None));
        assert_eq!(
            tt.probe(77),
            Some(entry(4, 6, Bound::Upper, Some(1))),
            "as deep: stored"
        );
        // Other positions still replace the least worth entry.
        tt.store(78, entry(0, 1, Bound::Exact, None));
        assert!(tt.probe(78).is_some());
        // The default table takes every result of the position.
        let always = TranspositionTable::for_config(&crate::search::SearchConfig {
            tt_mib: 1,
            ..crate::search::SearchConfig::research()
        })
        .unwrap();
        always.store(77, entry(5, 6, Bound::Exact, Some(1)));
        always.store(77, entry(3, 2, Bound::Lower, Some(2)));
        assert_eq!(always.probe(77), Some(entry(3, 2, Bound::Lower, Some(2))));
    }

    /// The entry every writer stores for `key` in the concurrency tests: each field is a
    /// function of the key, so a probe can tell whether what it got belongs to its key.
    fn entry_for(key: u64) -> TtEntry {
        let bound = match key % 3 {
            0 => Bound::Lower,
            1 => Bound::Upper,
            _ => Bound::Exact,
        };
        entry(
            (key >> 7) as i32 % 100_000,
            (key >> 40) as u8,
            bound,
            (key % 5 != 0).then_some((key >> 20) as u16 % 1000),
        )
    }

    /// `threads` threads store and probe keys of a small key set in a table of `buckets`
    /// buckets (so writers keep colliding on the same entries); every probe must return
    /// nothing or the entry of its own key. Returns how many probes found an entry.
    fn hammer(threads: u64, buckets: usize, rounds: u64) -> u64 {
        let tt = TranspositionTable::with_buckets(buckets);
        let keys: Vec<u64> = (1..=64u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
            .collect();
        let found = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for t in 0..threads {
                let (tt, keys, found) = (&tt, &keys, &found);
                scope.spawn(move || {
                    let mut x = t.wrapping_add(1).wrapping_mul(0x2545_F491_4F6C_DD1D);
                    let mut hits = 0;
                    for _ in 0..rounds {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = keys[(x % keys.len() as u64) as usize];
                        if (x >> 40) & 1 == 0 {
                            tt.store(key, entry_for(key));
                        } else if let Some(got) = tt.probe(key) {
                            hits += 1;
                            assert_eq!(
                                got,
                                entry_for(key),
                                "key {key:#x}: the entry belongs to another key"
                            );
                        }
                    }
                    found.fetch_add(hits, std::sync::atomic::Ordering::Relaxed);
                });
            }
        });
        found.into_inner()
    }

    #[test]
    fn concurrent_writers_never_produce_a_torn_entry() {
        for threads in 2..=4 {
            for buckets in [1, 4] {
                let hits = hammer(threads, buckets, 200_000);
                assert!(
                    hits > 0,
                    "{threads} threads, {buckets} buckets: no probe hit"
                );
            }
        }
    }

    #[test]
    fn torn_writes_are_rejected_not_misread() {
        // Interleave the two words of two writers by hand, both ways.
        let tt = TranspositionTable::with_buckets(1);
        let (a, b) = (0x1234_5678_9ABC_DEF0u64, 0x0FED_CBA9_8765_4321u64);
        let e = &tt.buckets[0].0[0];
        let (da, db) = (pack(&entry_for(a), 0), pack(&entry_for(b), 0));
        for (data, check) in [(da, b ^ db), (db, a ^ da)] {
            e.data.store(data, Ordering::Relaxed);
            e.check.store(check, Ordering::Relaxed);
            assert_eq!(tt.probe(a), None);
            assert_eq!(tt.probe(b), None);
        }
        e.check.store(a ^ da, Ordering::Relaxed);
        e.data.store(da, Ordering::Relaxed);
        assert_eq!(tt.probe(a), Some(entry_for(a)));
    }

    #[test]
    fn decisive_values_are_stored_relative_to_the_position() {
        let win = games::score::win_in(9);
        assert_eq!(value_to_tt(win, 4), games::score::win_in(5));
        assert_eq!(
            value_from_tt(value_to_tt(win, 4), 6),
            games::score::win_in(11)
        );
        assert_eq!(value_to_tt(-win, 4), -games::score::win_in(5));
        assert_eq!(value_to_tt(17, 4), 17);
        assert!(TranspositionTable::new(MAX_TT_MIB + 1).is_err());
    }
}
