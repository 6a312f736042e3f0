//! APHID's parameters (thesis section 5.2 and appendix B): the parallelization horizon `d'`,
//! the minimum granularity `g`, the user's advice for choosing them automatically, the report
//! buffer `m`, the slaves' window, load balancing and exemptions, and the transposition-table
//! arrangement.

use std::fmt;
use std::str::FromStr;

use super::config_text::{ConfigTextError, is_thesis_format};
use super::hierarchy::Hierarchy;

/// How the slaves' transposition tables are arranged (thesis section 6.4, table 6.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TtSharing {
    /// Every processor has its own table (the default).
    #[default]
    Local,
    /// One table for every processor (shared memory; on the simulator one table that every
    /// simulated processor reads and writes, which models a shared-memory machine).
    Shared,
    /// Local tables plus the shadow-table ring of thesis 5.2.6: peer slaves forward small
    /// tables of deep-enough entries around a ring (`shadow.rs`).
    Distributed,
}

impl TtSharing {
    /// The command-line name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TtSharing::Local => "local",
            TtSharing::Shared => "shared",
            TtSharing::Distributed => "distributed",
        }
    }
}

impl fmt::Display for TtSharing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown table arrangement.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown transposition-table arrangement '{0}'; use local, shared or distributed")]
pub struct UnknownTtSharing(pub String);

impl FromStr for TtSharing {
    type Err = UnknownTtSharing;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "local" => Ok(TtSharing::Local),
            "shared" => Ok(TtSharing::Shared),
            "distributed" => Ok(TtSharing::Distributed),
            other => Err(UnknownTtSharing(other.to_string())),
        }
    }
}

/// APHID's options (part of [`crate::parallel::ParallelOptions`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AphidOptions {
    /// The parallelization horizon `d'` (plies of the master's tree); `None` chooses it from
    /// the node statistics of the first, sequential iterations (thesis 5.2.1).
    pub master_depth: Option<u32>,
    /// Advice for the automatic `d'`: the horizon is the shallowest ply with at least this many
    /// nodes per slave.
    pub min_pieces_per_slave: u32,
    /// Advice for the automatic `g`: the search goes parallel once an iteration searches at
    /// least this many nodes per piece of work (pieces = `min_pieces_per_slave` x slaves).
    pub min_piece_nodes: u64,
    /// The minimum granularity `g`: leaves needing fewer plies are searched by the master
    /// itself. At least `ParallelOptions::min_split_depth` is used.
    pub min_granularity: u32,
    /// `m` per 8 slaves: a slave sends buffered results only after searching this many nodes
    /// times `ceil(slaves / 8)` since its last report (the last required result and bad-bound
    /// answers go at once).
    pub report_nodes: u64,
    /// A speculative search yields after this many nodes so that required work can go first
    /// (it resumes with twice the budget).
    pub speculative_slice_nodes: u64,
    /// Half-width of the window the slaves centre on the master's hypothetical root value, in
    /// evaluation units (doubled for speculative searches).
    pub window: i32,
    /// Load balancing (thesis 5.2.5): strip uncertain work from the most overworked slave.
    pub load_balancing: bool,
    /// Exemptions: a piece of work at least this many times the average size gets its horizon
    /// extended by 2 plies from the next iteration on; 0 turns exemptions off.
    pub exemption_factor: u32,
    /// How many of the first uncertain leaves of a pass get the +1 priority.
    pub first_uncertain: u32,
    /// How the slaves' transposition tables are arranged.
    pub tt: TtSharing,
    /// A slave sends an (empty) report when it has sent nothing for this long while searching
    /// (nanoseconds; virtual on the simulator), so that the master can tell it is alive.
    pub heartbeat_ns: u64,
    /// The master re-sends what a silent slave may have lost after this long.
    pub patience_ns: u64,
    /// A slave silent for this long is presumed dead and its work goes to the others.
    pub dead_after_ns: u64,
    /// The process hierarchy (thesis 5.2.4); `None`: flat, one master and `procs - 1` slaves.
    pub hierarchy: Option<Hierarchy>,
    /// `--tt distributed`: entries of a slave's shadow table (thesis 5.2.6: 128 served 15
    /// slaves).
    pub shadow_entries: usize,
    /// `--tt distributed`: entries of the table of keys other peers broadcast (thesis: 64K).
    pub broadcast_keys: usize,
    /// `--tt distributed`: the least remaining depth of an entry worth sharing (entries of
    /// broadcast keys are shared at any depth).
    pub shadow_min_depth: u32,
    /// In the last iteration a slave searches its untouched leaves (priority 0) to their
    /// required depth before it runs ahead, which a fixed-depth search never uses: a pass
    /// touches them when the principal variation moves.
    pub untouched_last: bool,
    /// Tail splitting: when at most `slaves / split_tail` leaves are uncertain, every uncertain
    /// leaf not yet searched to its required depth and needing at least `g + 6` plies is
    /// exempted at once (its horizon 2 plies deeper), so that the next pass hands its
    /// grandchildren to all slaves instead of waiting on one; 0 turns it off.
    pub split_tail: u32,
    /// Incremental passes: the master keeps the bounds each interior node of its tree has
    /// proven in the current iteration (a subtree whose leaves were all certain), and a later
    /// pass whose window those bounds decide takes the value without descending, as
    /// alpha-beta with a transposition table does; its leaves keep their priorities.
    pub incremental_passes: bool,
    /// Guesses are scaled (thesis table 5.1) to the root value of the last pass whose
    /// principal variation ended in a certain leaf, not to a root value that a guess itself
    /// produced (which makes the guess and the hypothetical value drift together, one pass
    /// after another, when the principal variation ends in a guessed leaf, and the slaves'
    /// windows with them).
    pub anchored_guesses: bool,
    /// A required search (not a bad-bound answer) yields after this many nodes, resuming with
    /// twice the budget when the slave picks it again, so that a leaf the master stopped
    /// touching meanwhile (priority 0) is left where it is and a more urgent one goes first
    /// (on the simulator a slice cannot see the messages that arrive during it); 0: required
    /// searches run to the end. 16,384 gained 6 % at depth 13 on 16 and 64 processors.
    pub required_slice_nodes: u64,
    /// A new leaf's guesses also draw on the master's transposition table (the shared one
    /// with `tt = "shared"`): an entry for the leaf's position of depth `k` is a result of
    /// depth `k`, used for guesses (where no slave result of that depth has come) but never to
    /// make the leaf certain. On by default, with `tt_reseed_guesses`.
    pub tt_seeded_guesses: bool,
    /// Every pass that finds a leaf uncertain reads the transposition table again for it
    /// (as `tt_seeded_guesses` does when the leaf is created): results of other leaves with
    /// the same position, and the leaf's own finished depths before their buffered report
    /// arrives, become guesses (never certainty). On by default: with table seeds it gained
    /// 4 % at 16 and 7 % at 64 processors at depth 13, 13 % and 23 % at depth 14.
    pub tt_reseed_guesses: bool,
    /// A bad-bound request asks for the pass's window widened by this many evaluation units
    /// on both sides (the score range's ends at most; a huge value asks for the exact value),
    /// and a request already out whose window contains a later pass's is not sent again. 0:
    /// the pass's own window (the thesis). 10 by default (the slaves' `window`): it removes
    /// most second requests for the same leaf and depth at no cost in nodes, and gave a median
    /// of 11.08 at 16 processors over three schedule samples at depth 14 (10.45 without), 31.33
    /// at 64 (31.66).
    pub bad_bound_margin: u32,
}

impl Default for AphidOptions {
    fn default() -> Self {
        AphidOptions {
            master_depth: None,
            min_pieces_per_slave: 4,
            min_piece_nodes: 0,
            min_granularity: 1,
            report_nodes: 1000,
            speculative_slice_nodes: 2048,
            window: 10,
            load_balancing: true,
            exemption_factor: 4,
            first_uncertain: 4,
            tt: TtSharing::Local,
            heartbeat_ns: 10_000_000,
            patience_ns: 50_000_000,
            dead_after_ns: 400_000_000,
            hierarchy: None,
            shadow_entries: 128,
            broadcast_keys: 1 << 16,
            shadow_min_depth: 3,
            untouched_last: true,
            split_tail: 4,
            incremental_passes: true,
            anchored_guesses: true,
            required_slice_nodes: 16_384,
            tt_seeded_guesses: true,
            tt_reseed_guesses: true,
            bad_bound_margin: 10,
        }
    }
}

/// A bad APHID configuration file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A line that is not `key = value`, a comment, or `[aphid]`.
    #[error("line {line}: expected `key = value` (or `# comment`, `[aphid]`), found '{text}'")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A key APHID does not have.
    #[error("line {line}: unknown key '{key}'; the keys are: {}", KEYS.join(", "))]
    UnknownKey {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: String,
    },
    /// A value of the wrong kind.
    #[error("line {line}: '{value}' is not a valid {key}: {expected}")]
    BadValue {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
}

/// The keys of a configuration file.
pub const KEYS: &[&str] = &[
    "master_depth",
    "min_pieces_per_slave",
    "min_piece_nodes",
    "min_granularity",
    "report_nodes",
    "speculative_slice_nodes",
    "window",
    "load_balancing",
    "exemption_factor",
    "first_uncertain",
    "tt",
    "heartbeat_ns",
    "patience_ns",
    "dead_after_ns",
    "parents",
    "shadow_entries",
    "broadcast_keys",
    "shadow_min_depth",
    "untouched_last",
    "split_tail",
    "incremental_passes",
    "anchored_guesses",
    "required_slice_nodes",
    "tt_seeded_guesses",
    "tt_reseed_guesses",
    "bad_bound_margin",
];

impl AphidOptions {
    /// Reads a configuration in TOML's simple form: `key = value` lines (the keys of
    /// [`KEYS`], named as the fields of [`AphidOptions`]), `#` comments, an optional `[aphid]`
    /// table header; integers, `true`/`false`, and `"local"`/`"shared"` for `tt`;
    /// `master_depth = "auto"` for the automatic horizon. Keys left out keep their defaults.
    ///
    /// # Errors
    /// [`ConfigError`] naming the line that is wrong and what it should be.
    pub fn from_config(text: &str) -> Result<AphidOptions, ConfigError> {
        let mut o = AphidOptions::default();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let body = raw.split('#').next().unwrap_or("").trim();
            if body.is_empty() || body == "[aphid]" {
                continue;
            }
            let Some((key, value)) = body.split_once('=') else {
                return Err(ConfigError::Syntax {
                    line,
                    text: raw.to_string(),
                });
            };
            let (key, value) = (key.trim(), value.trim().trim_matches('"'));
            let bad = |expected: &'static str| ConfigError::BadValue {
                line,
                key: key.to_string(),
                value: value.to_string(),
                expected,
            };
            let int = || {
                value
                    .replace('_', "")
                    .parse::<u64>()
                    .map_err(|_| bad("a non-negative integer"))
            };
            let small =
                || int().and_then(|v| u32::try_from(v).map_err(|_| bad("an integer below 2^32")));
            let flag = || value.parse::<bool>().map_err(|_| bad("true or false"));
            match key {
                "master_depth" => {
                    o.master_depth = if value == "auto" {
                        None
                    } else {
                        Some(small().and_then(|v| {
                            if v == 0 {
                                Err(bad("at least 1, or \"auto\""))
                            } else {
                                Ok(v)
                            }
                        })?)
                    };
                }
                "min_pieces_per_slave" => o.min_pieces_per_slave = small()?,
                "min_piece_nodes" => o.min_piece_nodes = int()?,
                "min_granularity" => o.min_granularity = small()?,
                "report_nodes" => o.report_nodes = int()?,
                "speculative_slice_nodes" => o.speculative_slice_nodes = int()?,
                "window" => {
                    o.window = i32::try_from(small()?).map_err(|_| bad("an evaluation width"))?;
                }
                "load_balancing" => o.load_balancing = flag()?,
                "exemption_factor" => o.exemption_factor = small()?,
                "first_uncertain" => o.first_uncertain = small()?,
                "tt" => {
                    o.tt = value
                        .parse()
                        .map_err(|_| bad("\"local\", \"shared\" or \"distributed\""))?;
                }
                "heartbeat_ns" => o.heartbeat_ns = int()?,
                "patience_ns" => o.patience_ns = int()?,
                "dead_after_ns" => o.dead_after_ns = int()?,
                "parents" => {
                    let expected = "a list of earlier processor numbers, [0, 0, 1, ...] (the master of processors 1, 2, 3, ...)";
                    let inner = value
                        .strip_prefix('[')
                        .and_then(|v| v.strip_suffix(']'))
                        .ok_or_else(|| bad(expected))?;
                    let parents = inner
                        .split(',')
                        .map(str::trim)
                        .filter(|v| !v.is_empty())
                        .map(|v| v.parse::<usize>().map_err(|_| bad(expected)))
                        .collect::<Result<Vec<_>, _>>()?;
                    o.hierarchy =
                        Some(Hierarchy::from_parents(parents).map_err(|_| bad(expected))?);
                }
                "shadow_entries" => o.shadow_entries = small()? as usize,
                "broadcast_keys" => o.broadcast_keys = small()? as usize,
                "shadow_min_depth" => o.shadow_min_depth = small()?,
                "untouched_last" => o.untouched_last = flag()?,
                "split_tail" => o.split_tail = small()?,
                "incremental_passes" => o.incremental_passes = flag()?,
                "anchored_guesses" => o.anchored_guesses = flag()?,
                "required_slice_nodes" => o.required_slice_nodes = int()?,
                "tt_seeded_guesses" => o.tt_seeded_guesses = flag()?,
                "tt_reseed_guesses" => o.tt_reseed_guesses = flag()?,
                "bad_bound_margin" => o.bad_bound_margin = small()?,
                _ => {
                    return Err(ConfigError::UnknownKey {
                        line,
                        key: key.to_string(),
                    });
                }
            }
        }
        Ok(o)
    }
}

/// A configuration file in either form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigFileError {
    /// The TOML form is wrong.
    #[error("{0}")]
    Toml(#[from] ConfigError),
    /// The thesis's `aphid.config` form is wrong.
    #[error("(aphid.config format) {0}")]
    Thesis(#[from] ConfigTextError),
}

impl AphidOptions {
    /// Reads a configuration file in either form: the thesis's `aphid.config` when `name`
    /// ends in `.config` (or, for other names than `*.toml`, when the first line is two
    /// numbers), else TOML ([`AphidOptions::from_config`]).
    ///
    /// # Errors
    /// [`ConfigFileError`] naming the line that is wrong.
    pub fn from_file_text(name: &str, text: &str) -> Result<AphidOptions, ConfigFileError> {
        let thesis = if name.ends_with(".config") {
            true
        } else if name.ends_with(".toml") {
            false
        } else {
            is_thesis_format(text)
        };
        if thesis {
            Ok(AphidOptions::from_thesis_config(text)?)
        } else {
            Ok(AphidOptions::from_config(text)?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped 16-processor Othello file (testsets/aphid/othello-16.toml) reads as TOML
    /// by its name and sets exactly `master_depth` and the shared table.
    #[test]
    fn the_shipped_othello_file_parses() {
        let text = include_str!("../../../../testsets/aphid/othello-16.toml");
        let o = AphidOptions::from_file_text("othello-16.toml", text).expect("valid");
        let expected = AphidOptions {
            master_depth: Some(5),
            tt: TtSharing::Shared,
            ..AphidOptions::default()
        };
        assert_eq!(o, expected);
    }

    #[test]
    fn a_config_file_sets_the_keys_it_names() {
        let text = "# APHID for Othello\n[aphid]\nmaster_depth = 3\nwindow = 20 # evaluation units\ntt = \"shared\"\nload_balancing = false\n";
        let o = AphidOptions::from_config(text).expect("valid");
        assert_eq!(o.master_depth, Some(3));
        assert_eq!(o.window, 20);
        assert_eq!(o.tt, TtSharing::Shared);
        assert!(!o.load_balancing);
        assert_eq!(o.report_nodes, AphidOptions::default().report_nodes);
        let tail =
            AphidOptions::from_config("split_tail = 0\nuntouched_last = false").expect("valid");
        assert_eq!((tail.split_tail, tail.untouched_last), (0, false));
        let full = AphidOptions::from_config("incremental_passes = false").expect("valid");
        assert!(!full.incremental_passes);
        assert!(AphidOptions::default().incremental_passes);
        assert!(AphidOptions::from_config("incremental_passes = yes").is_err());
        let drift = AphidOptions::from_config("anchored_guesses = false").expect("valid");
        assert!(!drift.anchored_guesses && AphidOptions::default().anchored_guesses);
        assert!(AphidOptions::from_config("untouched_last = 1").is_err());
        let slices = AphidOptions::from_config("required_slice_nodes = 0").expect("valid");
        assert_eq!(slices.required_slice_nodes, 0);
        assert_eq!(AphidOptions::default().required_slice_nodes, 16_384);
        let g = AphidOptions::from_config("tt_seeded_guesses = false\ntt_reseed_guesses = false")
            .expect("valid");
        assert!(!g.tt_seeded_guesses && !g.tt_reseed_guesses);
        let d = AphidOptions::default();
        assert!(d.tt_seeded_guesses && d.tt_reseed_guesses);
        let bb = AphidOptions::from_config("bad_bound_margin = 20").expect("valid");
        assert_eq!((bb.bad_bound_margin, d.bad_bound_margin), (20, 10));
        let auto = AphidOptions::from_config("master_depth = \"auto\"").expect("valid");
        assert_eq!(auto.master_depth, None);
        let e = AphidOptions::from_config("untouched_last = 1").unwrap_err();
        assert!(matches!(e, ConfigError::BadValue { line: 1, .. }), "{e}");
    }

    /// The options that lost in measurements are gone: a file naming one is refused (the
    /// README's "tried and rejected" table lists them).
    #[test]
    fn rejected_options_are_unknown_keys() {
        for key in [
            "priority_from_depth",
            "master_leaf_cap",
            "new_leaf_passes",
            "parity_guesses",
            "leaf_probe_depth",
            "required_slice_growth",
            "speculative_slice_cap",
            "catch_up_from",
            "cut_keeps_window",
            "exact_spare",
            "bad_bound_hold",
            "early_bad_bounds",
            "master_hosts_slave",
            "hosted_slave_laps",
            "alternative_window",
            "run_ahead_shift",
            "pv_window",
            "value_ordering",
        ] {
            let e = AphidOptions::from_config(&format!("{key} = 1")).unwrap_err();
            assert!(e.to_string().contains(key), "{key}: {e}");
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let e = AphidOptions::from_config("window = 10\nwidth = 3").unwrap_err();
        assert!(matches!(e, ConfigError::UnknownKey { line: 2, .. }), "{e}");
        let e = AphidOptions::from_config("master_depth = 0").unwrap_err();
        assert!(e.to_string().contains("at least 1"), "{e}");
        let e = AphidOptions::from_config("just text").unwrap_err();
        assert!(matches!(e, ConfigError::Syntax { line: 1, .. }), "{e}");
        let e = AphidOptions::from_config("tt = everywhere").unwrap_err();
        assert!(e.to_string().contains("distributed"), "{e}");
        let e = AphidOptions::from_config("parents = [0, 2]").unwrap_err();
        assert!(matches!(e, ConfigError::BadValue { line: 1, .. }), "{e}");
    }

    #[test]
    fn a_toml_hierarchy_and_the_shadow_ring_settings() {
        let text = "parents = [0, 1, 1, 0, 4]\ntt = \"distributed\"\nshadow_entries = 64\n";
        let o = AphidOptions::from_config(text).expect("valid");
        let h = o.hierarchy.expect("a hierarchy");
        assert_eq!(h.children(1), vec![2, 3]);
        assert_eq!(o.tt, TtSharing::Distributed);
        assert_eq!(o.shadow_entries, 64);
        let both = AphidOptions::from_file_text("x.cfg", "5 10\na\n\tb\n").expect("thesis");
        assert_eq!(
            both.hierarchy.map(|h| h.parents().to_vec()),
            Some(vec![0, 1])
        );
        let e = AphidOptions::from_file_text("a.config", "window = 3").unwrap_err();
        assert!(matches!(e, ConfigFileError::Thesis(_)), "{e}");
    }
}
