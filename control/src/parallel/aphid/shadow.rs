//! The distributed transposition table of thesis section 5.2.6 (`--tt distributed`): a ring
//! of *shadow tables* among peer slaves (slaves of the same master).
//!
//! Every slave keeps its own transposition table and, beside it, a small shadow table
//! (`shadow_entries`, 128 by default) of the entries most worth sharing: those searched at
//! least `shadow_min_depth` plies deep (closer to the root), the deeper replacing the
//! shallower in a slot. When the slave reports to its master it may send its shadow table to
//! the next peer in the ring (the last peer sends to the first) and clear it, but only when
//! its previous table has come back: each slave has at most one table travelling. A slave that
//! receives a peer's table inserts the entries into its own transposition table (never over a
//! deeper entry of the same position), remembers their keys, and forwards the message to the
//! next peer at its next chance (every poll of its search). The sender recognises its own
//! table when it returns.
//!
//! The keys that peers broadcast are kept in a second, larger table (`broadcast_keys`, 64K
//! by default): a position whose key is there is likely searched by another slave too, so
//! every update of it goes to the shadow table, whatever its depth.
//!
//! A table lost on the way (a dead peer, a dropped message) would block its sender forever;
//! the sender may send again after `dead_after_ns` without it.

use std::sync::Arc;

use dib::{Context, Nanos};
use serde::{Deserialize, Serialize};

use super::config::AphidOptions;
use super::message::Msg;
use crate::search::{Bound, TranspositionTable, TtEntry};

/// One shared entry, as it travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShadowEntry {
    /// The position's 64-bit hash.
    pub hash: u64,
    /// The stored value (decisive scores relative to the position).
    pub value: i32,
    /// The depth searched.
    pub depth: u8,
    /// 0 lower, 1 upper, 2 exact.
    pub bound: u8,
    /// The best move's index, if any.
    pub move_index: Option<u16>,
}

impl ShadowEntry {
    fn new(hash: u64, e: &TtEntry) -> ShadowEntry {
        ShadowEntry {
            hash,
            value: e.value,
            depth: e.depth,
            bound: match e.bound {
                Bound::Lower => 0,
                Bound::Upper => 1,
                Bound::Exact => 2,
            },
            move_index: e.move_index,
        }
    }

    fn entry(&self) -> Option<TtEntry> {
        let bound = match self.bound {
            0 => Bound::Lower,
            1 => Bound::Upper,
            2 => Bound::Exact,
            _ => return None,
        };
        Some(TtEntry {
            value: self.value,
            depth: self.depth,
            bound,
            move_index: self.move_index,
        })
    }
}

super::stats::counters! {
    /// What the ring did on one slave (reported summed over the slaves as
    /// `aphid_shadow_<counter>`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct ShadowStats, prefix "aphid_shadow_" {
        /// Own shadow tables sent into the ring.
        pub tables_sent,
        /// Entries in them.
        pub entries_sent,
        /// Own tables that came back around the ring.
        pub tables_returned,
        /// Peers' tables received (and forwarded).
        pub tables_received,
        /// Peers' entries written into the local transposition table.
        pub entries_inserted,
        /// Updates that went to the shadow table only because a peer had broadcast the key.
        pub flagged_updates,
    }
}

/// A slave's end of the ring.
#[derive(Debug)]
pub struct ShadowRing {
    me: usize,
    next: usize,
    table: Arc<TranspositionTable>,
    slots: Vec<Option<ShadowEntry>>,
    filled: usize,
    broadcast: Vec<u64>,
    min_depth: u8,
    outstanding: Option<Nanos>,
    give_up_ns: u64,
    forward: Vec<(usize, Vec<ShadowEntry>)>,
    /// What happened.
    pub stats: ShadowStats,
}

impl ShadowRing {
    /// The ring end of processor `me` among `peers` (in ring order, `me` included), writing
    /// peers' entries into `table` (the slave's own). `None` when `me` has no other peer.
    #[must_use]
    pub fn new(
        me: usize,
        peers: &[usize],
        table: Arc<TranspositionTable>,
        opts: &AphidOptions,
    ) -> Option<ShadowRing> {
        let at = peers.iter().position(|&p| p == me)?;
        if peers.len() < 2 {
            return None;
        }
        let next = peers[(at + 1) % peers.len()];
        Some(ShadowRing {
            me,
            next,
            table,
            slots: vec![None; opts.shadow_entries.max(1)],
            filled: 0,
            broadcast: vec![0; opts.broadcast_keys.max(1)],
            min_depth: u8::try_from(opts.shadow_min_depth).unwrap_or(u8::MAX),
            outstanding: None,
            give_up_ns: opts.dead_after_ns.max(1),
            forward: Vec::new(),
            stats: ShadowStats::default(),
        })
    }

    fn slot(hash: u64, n: usize) -> usize {
        ((u128::from(hash) * n as u128) >> 64) as usize
    }

    fn flagged(&self, hash: u64) -> bool {
        hash != 0 && self.broadcast[Self::slot(hash, self.broadcast.len())] == hash
    }

    /// The local search stored `entry`: keep it if it is deep enough or its key was
    /// broadcast by a peer.
    pub fn offer(&mut self, hash: u64, entry: &TtEntry) {
        let deep = entry.depth >= self.min_depth;
        if !deep {
            if !self.flagged(hash) {
                return;
            }
            self.stats.flagged_updates += 1;
        }
        let i = Self::slot(hash, self.slots.len());
        let e = ShadowEntry::new(hash, entry);
        match self.slots[i] {
            None => {
                self.slots[i] = Some(e);
                self.filled += 1;
            }
            Some(old) if old.hash == hash || old.depth <= e.depth || !deep => {
                self.slots[i] = Some(e);
            }
            Some(_) => {}
        }
    }

    /// A shadow table arrived: the own one back, or a peer's to insert and forward.
    pub fn receive(&mut self, origin: usize, entries: Vec<ShadowEntry>) {
        if origin == self.me {
            if self.outstanding.take().is_some() {
                self.stats.tables_returned += 1;
            }
            return;
        }
        self.stats.tables_received += 1;
        for e in &entries {
            let Some(entry) = e.entry() else {
                continue;
            };
            let n = self.broadcast.len();
            self.broadcast[Self::slot(e.hash, n)] = e.hash;
            if self
                .table
                .probe(e.hash)
                .is_some_and(|old| old.depth > entry.depth)
            {
                continue;
            }
            self.table.store(e.hash, entry);
            self.stats.entries_inserted += 1;
        }
        self.forward.push((origin, entries));
    }

    /// Sends on what arrived (time-critical: called at every poll).
    pub fn pass_on(&mut self, ctx: &mut dyn Context<Msg>) {
        for (origin, entries) in self.forward.drain(..) {
            ctx.send(self.next, Msg::Shadow { origin, entries });
        }
    }

    /// The slave reports to its master: send the own shadow table if none is travelling.
    pub fn on_report(&mut self, ctx: &mut dyn Context<Msg>) {
        self.pass_on(ctx);
        let now = ctx.now();
        if let Some(since) = self.outstanding {
            if now.saturating_sub(since) < self.give_up_ns {
                return;
            }
        }
        if self.filled == 0 {
            return;
        }
        let entries: Vec<ShadowEntry> = self.slots.iter_mut().filter_map(Option::take).collect();
        self.filled = 0;
        self.stats.tables_sent += 1;
        self.stats.entries_sent += entries.len() as u64;
        self.outstanding = Some(now);
        ctx.send(
            self.next,
            Msg::Shadow {
                origin: self.me,
                entries,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: u8) -> TtEntry {
        TtEntry {
            value: 7,
            depth,
            bound: Bound::Exact,
            move_index: Some(2),
        }
    }

    fn ring(me: usize) -> ShadowRing {
        let opts = AphidOptions {
            shadow_entries: 4,
            broadcast_keys: 64,
            shadow_min_depth: 3,
            ..AphidOptions::default()
        };
        let table = Arc::new(TranspositionTable::new(1).expect("a table"));
        ShadowRing::new(me, &[1, 2, 3], table, &opts).expect("a ring")
    }

    #[test]
    fn only_deep_entries_or_broadcast_keys_are_kept() {
        let mut a = ring(1);
        a.offer(11, &entry(1));
        assert_eq!(a.filled, 0);
        a.offer(12, &entry(5));
        assert_eq!(a.filled, 1);
        // Peer 2's table names key 13: from now on its shallow updates are shared too.
        let mut b = ring(2);
        b.offer(13, &entry(4));
        let sent: Vec<ShadowEntry> = b.slots.iter().flatten().copied().collect();
        a.receive(2, sent);
        assert_eq!(a.table.probe(13), Some(entry(4)));
        assert_eq!(a.stats.entries_inserted, 1);
        a.offer(13, &entry(1));
        assert_eq!(a.stats.flagged_updates, 1);
        assert!(a.slots.iter().flatten().any(|e| e.hash == 13));
    }

    #[test]
    fn a_deeper_local_entry_is_not_overwritten() {
        let mut a = ring(1);
        a.table.store(21, entry(9));
        a.receive(3, vec![ShadowEntry::new(21, &entry(4))]);
        assert_eq!(a.table.probe(21).map(|e| e.depth), Some(9));
        assert_eq!(a.stats.entries_inserted, 0);
        assert_eq!(a.next, 2);
        assert_eq!(ring(3).next, 1);
    }
}
