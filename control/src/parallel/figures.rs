//! What an algorithm counted beside its value, nodes and time: [`Figures`], the result's
//! `ParallelResult::figures` (APHID's own figures are apart, in `ParallelResult::aphid`).
//!
//! Every figure is optional: an algorithm fills those it counts and leaves the others `None`.
//!
//! | who | figures |
//! | --- | --- |
//! | every alpha-beta split policy | `splits_type1`, `splits_other`, and with sorting `sort_nodes` (`sort_seconds` on the simulator) |
//! | the split engine (iterative deepening) | `iterations` |
//! | MWF, DMWF | `type2_waits` |
//! | PV splitting | `minimal_windows`, `researches`, `retests` (not the `rf` form), `widest_split` |
//! | tree splitting | `widest_split`, `root_children_here` |
//! | ER | `elder_grandchildren`, `refuted_by_grandchild`, `extra_e_children`, `later_e_children` |
//! | delay splitting (YBW) | `splits_type2_early`, `splits_type3_unstarted`, `window_updates` |
//! | lazy SMP, ABDADA | `main_nodes`, `helper_nodes`, `main_tt_cutoffs`, `entries_received` |
//! | ABDADA | `main_deferred` |
//! | an algorithm with a table its processors share (split family, lazy SMP, APHID's engines) | `hashfull` |
//!
//! Serialized (the `extra` object of a comparison's `cells.jsonl` and of `runner search --json`),
//! the present figures appear under their field names in alphabetical order, every value a JSON
//! float (`222.0`, not `222`): the fields are declared in that order, and counts are written
//! as `f64` and read back from any whole non-negative number. A name no field has is ignored
//! when read, so that a cell file still loads when a figure is no longer counted.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The algorithm-specific figures of one parallel search. Fields are in alphabetical order,
/// which is their order when serialized.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// ER: elder grandchildren searched (the first phase of an e-node, which orders its
    /// children).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub elder_grandchildren: Option<u64>,
    /// Lazy SMP: table entries the processors took in from other ranks (MPI; 0 elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub entries_received: Option<u64>,
    /// ER: children made e-children in their e-node's second phase (multiple e-children).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub extra_e_children: Option<u64>,
    /// The fill of the table the processors share at the end of the search, in permille of
    /// its entries (the UCI `hashfull`); the mean over the tables where each processor has
    /// its own, hence fractional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashfull: Option<f64>,
    /// Lazy SMP and ABDADA: nodes of the helper processors.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub helper_nodes: Option<u64>,
    /// The split engine: depths searched by iterative deepening (1 without deepening).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub iterations: Option<u64>,
    /// ER: e-children started after an extra e-child of the same e-node was done.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub later_e_children: Option<u64>,
    /// ABDADA: younger children the main processor put off to a second pass because another
    /// processor was searching them.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub main_deferred: Option<u64>,
    /// Lazy SMP and ABDADA: nodes of the main processor (processor 0).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub main_nodes: Option<u64>,
    /// Lazy SMP and ABDADA: the main processor's cutoffs by a table entry.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub main_tt_cutoffs: Option<u64>,
    /// PV splitting: children started with a minimal window.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub minimal_windows: Option<u64>,
    /// ER: children refuted by their elder grandchild's value alone, without a search.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub refuted_by_grandchild: Option<u64>,
    /// PV splitting: full-window re-searches after a minimal-window search failed high.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub researches: Option<u64>,
    /// PV splitting: minimal-window tests of a fail high again at an alpha risen since the
    /// piece started.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub retests: Option<u64>,
    /// Tree splitting: children of the run's root searched by the root's own processor.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub root_children_here: Option<u64>,
    /// Nodes of the sorting look-ahead, summed over processors: charged as time, not counted
    /// in the result's nodes. Present only when the look-ahead ran.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub sort_nodes: Option<u64>,
    /// Virtual seconds of the sorting look-ahead, summed over processors (`sort_nodes` at the
    /// static-evaluation node cost); the simulator only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_seconds: Option<f64>,
    /// Frames split (pieces handed out) that are not type-1 (PV) nodes.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub splits_other: Option<u64>,
    /// Type-1 (PV) frames split (pieces handed out).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub splits_type1: Option<u64>,
    /// Delay splitting: splits of type-2 frames before their reasonable moves were done.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub splits_type2_early: Option<u64>,
    /// Delay splitting: splits of type-3 frames none of whose children was done.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub splits_type3_unstarted: Option<u64>,
    /// MWF, DMWF (with `mwf_wait`): times a type-2 node whose eldest child is done waited for
    /// a finite beta before starting another child.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub type2_waits: Option<u64>,
    /// Tree and PV splitting: the most pieces one frame had out at once.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub widest_split: Option<u64>,
    /// Delay splitting: window updates sent to pieces (information spreading).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "count")]
    pub window_updates: Option<u64>,
}

/// One figure's value, for printing.
#[derive(Clone, Copy, Debug)]
enum Value {
    Count(u64),
    Real(f64),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Count(n) => write!(f, "{n}"),
            Value::Real(x) => write!(f, "{x}"),
        }
    }
}

impl Figures {
    /// The present figures by name, in printing order: the engine's iterations, the split
    /// counts, the policy's own, sorting, lazy SMP's, the table's fill.
    fn present(&self) -> impl Iterator<Item = (&'static str, Value)> {
        let count = |name, v: Option<u64>| v.map(|v| (name, Value::Count(v)));
        let real = |name, v: Option<f64>| v.map(|v| (name, Value::Real(v)));
        [
            count("iterations", self.iterations),
            count("splits_type1", self.splits_type1),
            count("splits_other", self.splits_other),
            count("type2_waits", self.type2_waits),
            count("minimal_windows", self.minimal_windows),
            count("researches", self.researches),
            count("retests", self.retests),
            count("widest_split", self.widest_split),
            count("elder_grandchildren", self.elder_grandchildren),
            count("refuted_by_grandchild", self.refuted_by_grandchild),
            count("extra_e_children", self.extra_e_children),
            count("later_e_children", self.later_e_children),
            count("root_children_here", self.root_children_here),
            count("splits_type2_early", self.splits_type2_early),
            count("splits_type3_unstarted", self.splits_type3_unstarted),
            count("window_updates", self.window_updates),
            count("sort_nodes", self.sort_nodes),
            real("sort_seconds", self.sort_seconds),
            count("main_nodes", self.main_nodes),
            count("helper_nodes", self.helper_nodes),
            count("main_tt_cutoffs", self.main_tt_cutoffs),
            count("main_deferred", self.main_deferred),
            count("entries_received", self.entries_received),
            real("hashfull", self.hashfull),
        ]
        .into_iter()
        .flatten()
    }

    /// How many figures are present.
    #[must_use]
    pub fn len(&self) -> usize {
        self.present().count()
    }

    /// Whether no figure is present.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.present().next().is_none()
    }
}

/// One `name: value` line per present figure (the `runner search --verbose` lines).
impl fmt::Display for Figures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in self.present() {
            writeln!(f, "{name}: {value}")?;
        }
        Ok(())
    }
}

/// A count serialized as an `f64` (as the figures have always been written) and read from any
/// whole non-negative JSON number.
mod count {
    use serde::de::Error as _;
    use serde::{Deserialize as _, Deserializer, Serializer};

    /// The largest count read back: 2^64, the first `f64` past `u64::MAX`.
    const LIMIT: f64 = 18_446_744_073_709_551_616.0;

    // Counts past 2^53 round to the nearest `f64`, as they always did in this form.
    pub(super) fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(n) => s.serialize_f64(*n as f64),
            None => s.serialize_none(),
        }
    }

    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        let x = f64::deserialize(d)?;
        if (0.0..LIMIT).contains(&x) && x.fract() == 0.0 {
            Ok(Some(x as u64))
        } else {
            Err(D::Error::custom(format!(
                "a count must be a whole number from 0 to 2^64, not {x}"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every figure present, with distinct values.
    fn all() -> Figures {
        Figures {
            elder_grandchildren: Some(1),
            entries_received: Some(2),
            extra_e_children: Some(3),
            hashfull: Some(988.666_666_666_666_6),
            helper_nodes: Some(5),
            iterations: Some(6),
            later_e_children: Some(7),
            main_deferred: Some(24),
            main_nodes: Some(8),
            main_tt_cutoffs: Some(9),
            minimal_windows: Some(10),
            refuted_by_grandchild: Some(11),
            researches: Some(12),
            retests: Some(13),
            root_children_here: Some(14),
            sort_nodes: Some(15),
            sort_seconds: Some(7661.1975),
            splits_other: Some(17),
            splits_type1: Some(18),
            splits_type2_early: Some(19),
            splits_type3_unstarted: Some(20),
            type2_waits: Some(21),
            widest_split: Some(22),
            window_updates: Some(23),
        }
    }

    #[test]
    fn figures_serialize_sorted_by_name_as_floats_and_print_under_the_same_names() {
        let f = all();
        let json = serde_json::to_value(f).expect("serializes");
        let object = json.as_object().expect("an object");
        let names: Vec<&str> = object.keys().map(String::as_str).collect();
        let text = serde_json::to_string(&f).expect("serializes");
        // serde_json's map sorts its keys; the text keeps the field order, so both agree
        // only if the fields are declared in alphabetical order.
        let mut positions: Vec<usize> = names
            .iter()
            .map(|n| text.find(&format!("\"{n}\":")).expect("named"))
            .collect();
        assert!(positions.is_sorted(), "{text}");
        positions.dedup();
        assert_eq!(positions.len(), f.len());
        assert!(text.starts_with("{\"elder_grandchildren\":1.0,"), "{text}");
        assert!(text.contains("\"hashfull\":988.6666666666666,"), "{text}");
        // Printing names the same figures as the serialized form.
        let mut printed: Vec<&str> = f.present().map(|(name, _)| name).collect();
        printed.sort_unstable();
        assert_eq!(printed, names);
        assert_eq!(serde_json::from_str::<Figures>(&text).expect("reads"), f);
    }

    #[test]
    fn absent_figures_are_left_out_and_printed_in_the_runners_order() {
        let f = Figures {
            iterations: Some(3),
            splits_type1: Some(40),
            splits_other: Some(2),
            hashfull: Some(222.0),
            ..Figures::default()
        };
        assert_eq!(
            serde_json::to_string(&f).expect("serializes"),
            r#"{"hashfull":222.0,"iterations":3.0,"splits_other":2.0,"splits_type1":40.0}"#
        );
        assert_eq!(
            f.to_string(),
            "iterations: 3\nsplits_type1: 40\nsplits_other: 2\nhashfull: 222\n"
        );
        assert_eq!(f.len(), 4);
        assert!(Figures::default().is_empty());
        assert_eq!(serde_json::to_string(&Figures::default()).unwrap(), "{}");
    }

    #[test]
    fn counts_are_read_from_whole_numbers_only_and_unknown_names_are_ignored() {
        let read = |text: &str| serde_json::from_str::<Figures>(text);
        assert_eq!(read(r#"{"sort_nodes":7}"#).unwrap().sort_nodes, Some(7));
        assert_eq!(read(r#"{"sort_nodes":7.0}"#).unwrap().sort_nodes, Some(7));
        for bad in [
            r#"{"sort_nodes":7.5}"#,
            r#"{"sort_nodes":-1.0}"#,
            r#"{"sort_nodes":1e30}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
        assert_eq!(
            read(r#"{"no_such_figure":1.0,"retests":2.0}"#).unwrap(),
            Figures {
                retests: Some(2),
                ..Figures::default()
            }
        );
    }
}
