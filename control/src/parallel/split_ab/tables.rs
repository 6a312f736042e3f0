//! Where the split engine's processors keep their transposition table: one global table
//! every processor probes and stores (the default), or one local table per processor
//! (Marsland and Popowich table 3: each processor remembers only its own
//! subtrees). Local tables share the global table's memory: with `n` processors each holds
//! `1/n` of it (at least 1 MiB), so both arrangements use the same memory, as in thesis 6.2.5.

use crate::named_value::named_enum;

named_enum! {
    /// The split engine's table arrangement.
    SplitTables, flag "--split-tables", what "split-engine table arrangement",
    valid "global (one table every processor shares), local (one per processor)", {
        /// One table shared by every processor; its probes at the engine's frames are charged
        /// as shared-table probes on the simulator.
        #[default]
        Global => "global",
        /// One table per processor; every probe is a probe of the processor's own table.
        Local => "local",
    }
}

impl SplitTables {
    /// How many tables `procs` processors use.
    #[must_use]
    pub fn count(self, procs: usize) -> usize {
        match self {
            SplitTables::Global => 1,
            SplitTables::Local => procs.max(1),
        }
    }

    /// The size in MiB of each of the tables of `procs` processors, from the size of the one
    /// global table (`mib`, 0 when the table is off).
    #[must_use]
    pub fn mib_each(self, mib: usize, procs: usize) -> usize {
        if mib == 0 {
            0
        } else {
            (mib / self.count(procs)).max(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_local_tables_split_the_memory() {
        for t in [SplitTables::Global, SplitTables::Local] {
            assert_eq!(t.name().parse::<SplitTables>(), Ok(t));
        }
        assert!("shared".parse::<SplitTables>().is_err());
        assert_eq!(SplitTables::Global.mib_each(64, 4), 64);
        assert_eq!(SplitTables::Local.mib_each(64, 4), 16);
        assert_eq!(SplitTables::Local.mib_each(2, 64), 1);
        assert_eq!(SplitTables::Local.mib_each(0, 4), 0);
        assert_eq!(SplitTables::Local.count(3), 3);
    }
}
