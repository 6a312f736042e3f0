//! `--shard K/N`: the K-th of N disjoint slices of a comparison's cells, so that N processes (a
//! Slurm array, or plain processes on any machines) compute one comparison together into one
//! shared folder, and `--assemble` then writes its report from every slice.
//!
//! The partition is a function of the cells alone (the plan's keys of the positions run), so
//! every shard of the same command computes the same one, and together the N slices hold each
//! cell exactly once. The unit given to a shard is one cell on the simulator at a fixed depth;
//! a whole position (its baseline and every run of it) where the baseline decides something
//! the runs need: with `--time-ms` the baseline chooses the position's depth, and on a wall
//! clock (threads, MPI) a position's runs are timed on the same machine as its baseline, after
//! its warm-up. The units are ordered by a hash of their keys (FNV-1a) and dealt round-robin,
//! so the slices differ by at most one unit and none holds all the costly cells of one kind
//! (the largest processor count, say).
//!
//! Each shard appends its cells to its own file, `cells.shard-K-of-N.jsonl` (`store.rs`), so
//! concurrent shards never write the same file; every shard reads all the cell files of the
//! folder when it starts, and computes only what is missing.

use std::collections::BTreeSet;
use std::fmt;

use anyhow::Result;

use super::plan::{Plan, fnv};
use super::store::Key;
use crate::input_error::input;

/// One slice of N: `index` counts from 1 to `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The most slices a comparison is cut into.
    pub const MAX: usize = 100_000;

    /// Parses `K/N` as given to the flag `flag`.
    ///
    /// # Errors
    /// An input error naming the flag and the accepted form.
    pub fn parse(flag: &str, text: &str) -> Result<Shard> {
        let bad = |why: String| input(format!("{flag} {text}"), why);
        let Some((k, n)) = text.split_once('/') else {
            return Err(bad(
                "give K/N, the K-th of N slices of the cells, such as 1/4 (K from 1 to N)".into(),
            ));
        };
        let number = |s: &str, what: &str| {
            s.trim().parse::<usize>().map_err(|_| {
                bad(format!(
                    "{what} '{}' is not a whole number; give K/N such as 1/4",
                    s.trim()
                ))
            })
        };
        let (index, count) = (number(k, "K")?, number(n, "N")?);
        if count == 0 || count > Self::MAX {
            return Err(bad(format!(
                "N is the number of slices, 1 to {}; give K/N such as 1/4",
                Self::MAX
            )));
        }
        if index == 0 || index > count {
            return Err(bad(format!(
                "K counts the slices from 1 to N; give 1/{count} to {count}/{count}"
            )));
        }
        Ok(Shard { index, count })
    }

    /// The file this shard appends its cells to.
    #[must_use]
    pub fn file_name(&self) -> String {
        format!("cells.shard-{}-of-{}.jsonl", self.index, self.count)
    }

    /// The cells of the positions on `lines` this shard computes (see the module's note for
    /// the units and how they are dealt).
    #[must_use]
    pub fn slice(&self, plan: &Plan, lines: &[usize]) -> BTreeSet<Key> {
        let whole_positions = plan.time_ms.is_some() || !plan.virtual_time();
        let mut units: Vec<Vec<Key>> = if whole_positions {
            lines.iter().map(|&line| plan.keys(line)).collect()
        } else {
            lines
                .iter()
                .flat_map(|&line| plan.keys(line))
                .map(|k| vec![k])
                .collect()
        };
        let hash = |unit: &Vec<Key>| fnv(unit[0].to_string().as_bytes());
        units.sort_by_cached_key(|u| (hash(u), u[0].clone()));
        units
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % self.count == self.index - 1)
            .flat_map(|(_, unit)| unit)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_from_k_of_n_and_bad_ones_say_why() {
        assert_eq!(
            Shard::parse("--shard", "2/3").unwrap(),
            Shard { index: 2, count: 3 }
        );
        assert_eq!(Shard::parse("--shard", "1/1").unwrap().to_string(), "1/1");
        for (text, words) in [
            ("0/2", "from 1 to N"),
            ("3/2", "give 1/2 to 2/2"),
            ("x", "give K/N"),
            ("1/x", "N 'x' is not a whole number"),
            ("1/0", "number of slices"),
            ("-1/2", "K '-1'"),
        ] {
            let e = Shard::parse("--shard", text).unwrap_err();
            assert!(
                e.downcast_ref::<crate::input_error::InputError>().is_some(),
                "{text}"
            );
            let m = e.to_string();
            assert!(
                m.starts_with(&format!("--shard {text}: ")) && m.contains(words),
                "{m}"
            );
            assert_eq!(m.lines().count(), 1, "{m}");
        }
        assert_eq!(
            Shard { index: 3, count: 8 }.file_name(),
            "cells.shard-3-of-8.jsonl"
        );
    }

    /// The plan of these flags and `extra` (a TOML line).
    fn plan(extra: &str) -> Plan {
        let text = format!(
            "algos = \"abdib,mwf\"\nprocs = \"1,2,4\"\nseeds = 2\n{extra}\ngame = \"tictactoe4\""
        );
        let flags = toml::from_str(&text).expect("a table");
        crate::experiment::flags::plan(&flags, std::path::Path::new("unused")).unwrap()
    }

    /// The slices of `count` shards: disjoint, together every key once, sizes within one unit.
    fn slices(plan: &Plan, lines: &[usize], count: usize) -> Vec<BTreeSet<Key>> {
        let all: BTreeSet<Key> = lines.iter().flat_map(|&l| plan.keys(l)).collect();
        let slices: Vec<BTreeSet<Key>> = (1..=count)
            .map(|index| Shard { index, count }.slice(plan, lines))
            .collect();
        assert_eq!(slices.iter().map(BTreeSet::len).sum::<usize>(), all.len());
        let union: BTreeSet<Key> = slices.iter().flatten().cloned().collect();
        assert_eq!(union, all, "together every cell");
        slices
    }

    #[test]
    fn slices_are_disjoint_balanced_and_the_same_in_every_shard() {
        let lines = [1, 2, 3, 5, 8];
        let p = plan("depth = 3");
        // 5 positions x (1 + 2 series x 3 counts x 2 seeds) = 65 cells, dealt one by one.
        let s = slices(&p, &lines, 4);
        let sizes: Vec<usize> = s.iter().map(BTreeSet::len).collect();
        assert!(sizes.iter().all(|&n| n == 16 || n == 17), "{sizes:?}");
        // Every slice has runs of several processor counts.
        for slice in &s {
            let counts: BTreeSet<usize> = slice.iter().map(|k| k.procs).collect();
            assert!(counts.len() > 1, "{slice:?}");
        }
        assert_eq!(Shard { index: 2, count: 4 }.slice(&p, &lines), s[1]);
        assert_eq!(slices(&p, &lines, 1)[0].len(), 65);
        // With --time-ms a position's cells stay together, with its baseline.
        let timed = plan("time-ms = 5");
        for slice in slices(&timed, &lines, 3) {
            let positions: BTreeSet<usize> = slice.iter().map(|k| k.line).collect();
            assert_eq!(slice.len(), positions.len() * 13, "{slice:?}");
        }
        // More shards than units: some slices are empty.
        let empty = slices(&timed, &lines, 7);
        assert_eq!(empty.iter().filter(|s| s.is_empty()).count(), 2);
    }
}
