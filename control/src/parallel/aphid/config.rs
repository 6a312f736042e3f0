//! APHID's parameters (thesis section 5.2 and appendix B): the parallelization horizon `d'`,
//! the minimum granularity `g`, the user's advice for choosing them automatically, the report
//! buffer `m`, the slaves' window, load balancing and exemptions, and the transposition-table
//! arrangement; and their configuration file, read with serde from TOML into one typed group
//! per table ([`ConfigFile`]), or from the thesis's `aphid.config` format (`config_text.rs`).

use dib::TomlError;
use serde::Deserialize;
use toml::Spanned;

use super::config_text::{ConfigTextError, is_thesis_format};
use super::hierarchy::Hierarchy;
use crate::named_value::named_enum;

named_enum! {
    /// How the slaves' transposition tables are arranged (thesis section 6.4, table 6.8).
    TtSharing, flag "--aphid-tt", what "transposition-table arrangement",
    valid "local (a table per processor), shared (one table), distributed (local tables and the shadow-table ring)", {
        /// Every processor has its own table (the default).
        #[default]
        Local => "local",
        /// One table for every processor (shared memory; on the simulator one table that every
        /// simulated processor reads and writes, which models a shared-memory machine).
        Shared => "shared",
        /// Local tables plus the shadow-table ring of thesis 5.2.6: peer slaves forward small
        /// tables of deep-enough entries around a ring (`shadow.rs`).
        Distributed => "distributed",
    }
}

/// The order a slave picks its touched leaves in (thesis 5.2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PickOrder {
    /// The leaf furthest below its required depth first, the highest priority among equals
    /// (the default).
    #[default]
    Deficit,
    /// The thesis's rule (5.2.3): among the leaves below the iteration's required depth the
    /// highest priority first, until it reaches that depth; once all have, the shallowest
    /// run ahead, priority second.
    Priority,
}

/// How the master searches its tree in a pass (thesis 5.2.1, figure 5.10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MasterSearch {
    /// Fail-soft alpha-beta with an infinite window (the default).
    #[default]
    Alphabeta,
    /// The thesis's figure 5.10: NegaScout (null windows after the first child, a re-search
    /// when one fails high) inside the aspiration window of the iterative deepening (the
    /// master searcher's `aspiration` around the previous iteration's value), widened and
    /// passed again when a pass over certain leaves falls outside it.
    Negascout,
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
    /// itself. APHID's own: `ParallelOptions::min_split_depth`, the split engine's
    /// granularity, does not change it (a comparison that gives YBW a coarse granularity
    /// leaves APHID's alone).
    pub min_granularity: u32,
    /// `m` per 8 slaves: a slave sends buffered results only after searching this many nodes
    /// times `ceil(slaves / 8)` since its last report (the last required result and bad-bound
    /// answers go at once); without [`AphidOptions::scale_reports`], this many nodes whatever
    /// the number of slaves.
    pub report_nodes: u64,
    /// `report_nodes` grows with the number of slaves (`ceil(slaves / 8)` times), so that the
    /// master's inbox does not; off, every slave reports after `report_nodes` nodes, as Brockington
    /// and Schaeffer's `APHID_SLAVENODESTOCOMM` (a tenth of a second of search) does.
    pub scale_reports: bool,
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
    /// Guesses try the results of the required depth's parity first (`r`, `r - 2`, ..., then
    /// `r - 1`, ...), each scaled as usual: Brockington and Schaeffer's footnote 2, "we use the
    /// largest ply value with the same parity". Off by default (it lost on Othello, README); on in
    /// Brockington and Schaeffer's chess setting (`bs96.toml`).
    pub parity_guesses: bool,
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
    /// The order a slave picks its touched leaves in: `"deficit"` (the default) or
    /// `"priority"` (the thesis, section 5.2.3; README).
    pub pick: PickOrder,
    /// The master's pass: `"alphabeta"` (the default) or `"negascout"` with the iterative
    /// deepening's aspiration window (the thesis, figure 5.10; README).
    pub master_search: MasterSearch,
    /// The share of a slave's nodes per second, in percent, lost to the library's per-node
    /// calls (`aphid_intnode_*()`) when the slaves run the master's executable: "a slave
    /// process in APHID can incur a 10-20% slowdown on the number of nodes visited per second
    /// by calling the aphid_intnode_*() routines" (Brockington's thesis, section 6.2.2). 0 (the
    /// default): a slave-only executable without those calls, as the thesis's experiments ran.
    /// Charged as time at the node cost, not as nodes (`dib::Work::library`); at most 99.
    pub library_slowdown_percent: u32,
}

impl Default for AphidOptions {
    fn default() -> Self {
        AphidOptions {
            master_depth: None,
            min_pieces_per_slave: 4,
            min_piece_nodes: 0,
            min_granularity: 2,
            report_nodes: 1000,
            scale_reports: true,
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
            parity_guesses: false,
            tt_reseed_guesses: true,
            bad_bound_margin: 10,
            pick: PickOrder::Deficit,
            master_search: MasterSearch::Alphabeta,
            library_slowdown_percent: 0,
        }
    }
}

/// A bad APHID configuration file (TOML form); every variant names the 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Not TOML, an unknown group or key, or a value of the wrong type.
    #[error("line {line}, column {column} (`{text}`): {message}")]
    Toml {
        /// 1-based line number.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// The line.
        text: String,
        /// What is wrong, and what the group or key takes, on one line.
        message: String,
    },
    /// A value of the right type that APHID cannot use.
    #[error("line {line}: '{value}' is not a valid {key}: {expected}")]
    BadValue {
        /// 1-based line number.
        line: usize,
        /// The key.
        key: &'static str,
        /// The value.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
}

/// `[geometry]`: the master's tree (thesis 5.2.1).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeometryConfig {
    /// [`AphidOptions::master_depth`]: plies, or `"auto"`.
    pub master_depth: Option<Spanned<toml::Value>>,
    /// [`AphidOptions::min_pieces_per_slave`].
    pub min_pieces_per_slave: Option<u32>,
    /// [`AphidOptions::min_piece_nodes`].
    pub min_piece_nodes: Option<u64>,
    /// [`AphidOptions::min_granularity`].
    pub min_granularity: Option<u32>,
}

/// `[slaves]`: how a slave searches and reports (thesis 5.2.3).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlavesConfig {
    /// [`AphidOptions::window`].
    pub window: Option<Spanned<u32>>,
    /// [`AphidOptions::report_nodes`].
    pub report_nodes: Option<u64>,
    /// [`AphidOptions::scale_reports`].
    pub scale_reports: Option<bool>,
    /// [`AphidOptions::speculative_slice_nodes`].
    pub speculative_slice_nodes: Option<u64>,
    /// [`AphidOptions::required_slice_nodes`].
    pub required_slice_nodes: Option<u64>,
    /// [`AphidOptions::untouched_last`].
    pub untouched_last: Option<bool>,
    /// [`AphidOptions::pick`]: `"deficit"` or `"priority"`.
    pub pick: Option<PickOrder>,
    /// [`AphidOptions::library_slowdown_percent`].
    pub library_slowdown_percent: Option<Spanned<u32>>,
}

/// `[master]`: the master's passes, guesses and bad-bound requests.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MasterConfig {
    /// [`AphidOptions::first_uncertain`].
    pub first_uncertain: Option<u32>,
    /// [`AphidOptions::incremental_passes`].
    pub incremental_passes: Option<bool>,
    /// [`AphidOptions::anchored_guesses`].
    pub anchored_guesses: Option<bool>,
    /// [`AphidOptions::tt_seeded_guesses`].
    pub tt_seeded_guesses: Option<bool>,
    /// [`AphidOptions::parity_guesses`].
    pub parity_guesses: Option<bool>,
    /// [`AphidOptions::tt_reseed_guesses`].
    pub tt_reseed_guesses: Option<bool>,
    /// [`AphidOptions::bad_bound_margin`].
    pub bad_bound_margin: Option<u32>,
    /// [`AphidOptions::master_search`]: `"alphabeta"` or `"negascout"`.
    pub master_search: Option<MasterSearch>,
}

/// `[balance]`: load balancing, exemptions and tail splitting (thesis 5.2.5).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BalanceConfig {
    /// [`AphidOptions::load_balancing`].
    pub load_balancing: Option<bool>,
    /// [`AphidOptions::exemption_factor`].
    pub exemption_factor: Option<u32>,
    /// [`AphidOptions::split_tail`].
    pub split_tail: Option<u32>,
}

/// `[faults]`: how the master tells a slow slave from a dead one.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultsConfig {
    /// [`AphidOptions::heartbeat_ns`].
    pub heartbeat_ns: Option<u64>,
    /// [`AphidOptions::patience_ns`].
    pub patience_ns: Option<u64>,
    /// [`AphidOptions::dead_after_ns`].
    pub dead_after_ns: Option<u64>,
}

/// `[tables]`: the transposition tables (thesis 5.2.6, 6.4).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablesConfig {
    /// [`AphidOptions::tt`]: `"local"`, `"shared"` or `"distributed"`.
    pub tt: Option<TtSharing>,
    /// [`AphidOptions::shadow_entries`].
    pub shadow_entries: Option<usize>,
    /// [`AphidOptions::broadcast_keys`].
    pub broadcast_keys: Option<usize>,
    /// [`AphidOptions::shadow_min_depth`].
    pub shadow_min_depth: Option<u32>,
}

/// `[hierarchy]`: the process hierarchy (thesis 5.2.4).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HierarchyConfig {
    /// The master of processors 1, 2, 3, ... (each an earlier processor):
    /// [`AphidOptions::hierarchy`].
    pub parents: Option<Spanned<Vec<usize>>>,
}

/// A configuration file in TOML form: one table per group of options, every key optional
/// (left out: the default). Unknown groups and keys are refused.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// `[geometry]`.
    #[serde(default)]
    pub geometry: GeometryConfig,
    /// `[slaves]`.
    #[serde(default)]
    pub slaves: SlavesConfig,
    /// `[master]`.
    #[serde(default)]
    pub master: MasterConfig,
    /// `[balance]`.
    #[serde(default)]
    pub balance: BalanceConfig,
    /// `[faults]`.
    #[serde(default)]
    pub faults: FaultsConfig,
    /// `[tables]`.
    #[serde(default)]
    pub tables: TablesConfig,
    /// `[hierarchy]`.
    #[serde(default)]
    pub hierarchy: HierarchyConfig,
}

/// Sets `field` to `value` when the file gives one.
fn set<T>(field: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *field = v;
    }
}

/// The 1-based line of byte `offset` of `text`, and that line.
fn line_at(text: &str, offset: usize) -> (usize, String) {
    let offset = offset.min(text.len());
    let line = text[..offset].matches('\n').count() + 1;
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    (line, text[start..end].trim().to_string())
}

impl ConfigFile {
    /// The options this file sets over the defaults; `text` is the file (for line numbers).
    ///
    /// # Errors
    /// [`ConfigError::BadValue`] for a `master_depth`, `window`, `library_slowdown_percent` or
    /// `parents` APHID cannot use.
    pub fn options(self, text: &str) -> Result<AphidOptions, ConfigError> {
        let mut o = AphidOptions::default();
        let bad =
            |span: std::ops::Range<usize>, key, value: String, expected| ConfigError::BadValue {
                line: line_at(text, span.start).0,
                key,
                value,
                expected,
            };
        let g = self.geometry;
        if let Some(d) = g.master_depth {
            let expected = "a number of plies, at least 1, or \"auto\"";
            o.master_depth = match d.get_ref() {
                toml::Value::String(s) if s == "auto" => None,
                toml::Value::Integer(n) => Some(
                    u32::try_from(*n)
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| bad(d.span(), "master_depth", n.to_string(), expected))?,
                ),
                other => return Err(bad(d.span(), "master_depth", other.to_string(), expected)),
            };
        }
        set(&mut o.min_pieces_per_slave, g.min_pieces_per_slave);
        set(&mut o.min_piece_nodes, g.min_piece_nodes);
        set(&mut o.min_granularity, g.min_granularity);
        let s = self.slaves;
        if let Some(w) = s.window {
            o.window = i32::try_from(*w.get_ref()).map_err(|_| {
                bad(
                    w.span(),
                    "window",
                    w.get_ref().to_string(),
                    "an evaluation width below 2^31",
                )
            })?;
        }
        set(&mut o.report_nodes, s.report_nodes);
        set(&mut o.scale_reports, s.scale_reports);
        set(&mut o.speculative_slice_nodes, s.speculative_slice_nodes);
        set(&mut o.required_slice_nodes, s.required_slice_nodes);
        set(&mut o.untouched_last, s.untouched_last);
        set(&mut o.pick, s.pick);
        if let Some(p) = s.library_slowdown_percent {
            o.library_slowdown_percent =
                Some(*p.get_ref()).filter(|&p| p < 100).ok_or_else(|| {
                    bad(
                        p.span(),
                        "library_slowdown_percent",
                        p.get_ref().to_string(),
                        "a percentage of the node rate from 0 to 99",
                    )
                })?;
        }
        let m = self.master;
        set(&mut o.first_uncertain, m.first_uncertain);
        set(&mut o.incremental_passes, m.incremental_passes);
        set(&mut o.anchored_guesses, m.anchored_guesses);
        set(&mut o.tt_seeded_guesses, m.tt_seeded_guesses);
        set(&mut o.parity_guesses, m.parity_guesses);
        set(&mut o.tt_reseed_guesses, m.tt_reseed_guesses);
        set(&mut o.bad_bound_margin, m.bad_bound_margin);
        set(&mut o.master_search, m.master_search);
        let b = self.balance;
        set(&mut o.load_balancing, b.load_balancing);
        set(&mut o.exemption_factor, b.exemption_factor);
        set(&mut o.split_tail, b.split_tail);
        let f = self.faults;
        set(&mut o.heartbeat_ns, f.heartbeat_ns);
        set(&mut o.patience_ns, f.patience_ns);
        set(&mut o.dead_after_ns, f.dead_after_ns);
        let t = self.tables;
        set(&mut o.tt, t.tt);
        set(&mut o.shadow_entries, t.shadow_entries);
        set(&mut o.broadcast_keys, t.broadcast_keys);
        set(&mut o.shadow_min_depth, t.shadow_min_depth);
        if let Some(p) = self.hierarchy.parents {
            let span = p.span();
            let parents = p.into_inner();
            let shown = format!("{parents:?}");
            o.hierarchy = Some(Hierarchy::from_parents(parents).map_err(|_| {
                bad(
                    span,
                    "parents",
                    shown,
                    "a list of earlier processor numbers, [0, 0, 1, ...] (the master of processors 1, 2, 3, ...)",
                )
            })?);
        }
        Ok(o)
    }
}

impl AphidOptions {
    /// Reads a configuration in TOML form ([`ConfigFile`]: `[geometry]`, `[slaves]`,
    /// `[master]`, `[balance]`, `[faults]`, `[tables]`, `[hierarchy]`, keys named as the fields
    /// of [`AphidOptions`], except `parents` for the hierarchy). Keys left out keep their
    /// defaults.
    ///
    /// # Errors
    /// [`ConfigError`] naming the line that is wrong and what it should be.
    pub fn from_config(text: &str) -> Result<AphidOptions, ConfigError> {
        let file: ConfigFile = toml::from_str(text).map_err(|e| {
            let TomlError {
                line,
                column,
                mut message,
            } = TomlError::new(text, &e);
            let (_, text) = line_at(text, e.span().map_or(0, |s| s.start));
            if message.starts_with("unknown field") {
                if let Some(group) = group_of(&text) {
                    message.push_str(&format!("; this key belongs under [{group}]"));
                }
            }
            ConfigError::Toml {
                line,
                column,
                text,
                message,
            }
        })?;
        file.options(text)
    }
}

/// The tables of a configuration file, as [`ConfigFile`] names them.
const GROUPS: [&str; 7] = [
    "geometry",
    "slaves",
    "master",
    "balance",
    "faults",
    "tables",
    "hierarchy",
];

/// The group whose table accepts the `key = value` line `line`, if one does (for the hint on
/// a key given at the top or in the wrong table).
fn group_of(line: &str) -> Option<&'static str> {
    GROUPS
        .into_iter()
        .find(|g| toml::from_str::<ConfigFile>(&format!("[{g}]\n{line}")).is_ok())
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

    /// Every shipped file of testsets/aphid reads: the TOML ones by their name, the thesis's
    /// by theirs; the 16-processor Othello file sets exactly `master_depth` and the shared
    /// table.
    #[test]
    fn the_shipped_files_parse() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testsets/aphid");
        let mut read = 0;
        for entry in std::fs::read_dir(&dir).expect("testsets/aphid") {
            let path = entry.expect("an entry").path();
            let name = path.to_string_lossy().to_string();
            if !(name.ends_with(".toml") || name.ends_with(".config")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            AphidOptions::from_file_text(&name, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
            read += 1;
        }
        assert!(read >= 3, "{read} files in {}", dir.display());
        let text = include_str!("../../../../testsets/aphid/othello-16.toml");
        let o = AphidOptions::from_file_text("othello-16.toml", text).expect("valid");
        let expected = AphidOptions {
            master_depth: Some(5),
            tt: TtSharing::Shared,
            ..AphidOptions::default()
        };
        assert_eq!(o, expected);
        let text = include_str!("../../../../testsets/aphid/bs96.toml");
        let o = AphidOptions::from_file_text("bs96.toml", text).expect("valid");
        let expected = AphidOptions {
            master_depth: Some(3),
            min_granularity: 2,
            report_nodes: 250,
            scale_reports: false,
            untouched_last: false,
            parity_guesses: true,
            anchored_guesses: false,
            exemption_factor: 0,
            split_tail: 0,
            heartbeat_ns: 86_400_000_000_000,
            patience_ns: 86_400_000_000_000,
            dead_after_ns: 86_400_000_000_000,
            library_slowdown_percent: 15,
            ..AphidOptions::default()
        };
        assert_eq!(o, expected);
    }

    #[test]
    fn a_config_file_sets_the_keys_it_names() {
        let text = "# APHID for Othello\n[geometry]\nmaster_depth = 3\n[slaves]\nwindow = 20 # evaluation units\nrequired_slice_nodes = 0\n[tables]\ntt = \"shared\"\n[balance]\nload_balancing = false\nsplit_tail = 0\n[master]\nincremental_passes = false\nbad_bound_margin = 20\n[faults]\npatience_ns = 7\n";
        let o = AphidOptions::from_config(text).expect("valid");
        let d = AphidOptions::default();
        let expected = AphidOptions {
            master_depth: Some(3),
            window: 20,
            required_slice_nodes: 0,
            tt: TtSharing::Shared,
            load_balancing: false,
            split_tail: 0,
            incremental_passes: false,
            bad_bound_margin: 20,
            patience_ns: 7,
            ..d.clone()
        };
        assert_eq!(o, expected);
        assert_eq!(AphidOptions::from_config("").expect("empty"), d);
        let auto = AphidOptions::from_config("[geometry]\nmaster_depth = \"auto\"").expect("valid");
        assert_eq!(auto.master_depth, None);
        assert!(d.incremental_passes && d.tt_seeded_guesses && d.tt_reseed_guesses);
        assert_eq!((d.bad_bound_margin, d.required_slice_nodes), (10, 16_384));
        let thesis = "[slaves]\npick = \"priority\"\n[master]\nmaster_search = \"negascout\"\n";
        let o = AphidOptions::from_config(thesis).expect("valid");
        assert_eq!(
            (o.pick, o.master_search),
            (PickOrder::Priority, MasterSearch::Negascout)
        );
        assert_eq!(
            (d.pick, d.master_search),
            (PickOrder::Deficit, MasterSearch::Alphabeta)
        );
        let e = AphidOptions::from_config("[slaves]\npick = \"random\"").unwrap_err();
        assert!(matches!(e, ConfigError::Toml { line: 2, .. }), "{e}");
        assert_eq!(d.library_slowdown_percent, 0);
        let o =
            AphidOptions::from_config("[slaves]\nlibrary_slowdown_percent = 15").expect("valid");
        assert_eq!(o.library_slowdown_percent, 15);
        let e = AphidOptions::from_config("[slaves]\nlibrary_slowdown_percent = 100").unwrap_err();
        assert!(
            matches!(
                e,
                ConfigError::BadValue {
                    line: 2,
                    key: "library_slowdown_percent",
                    ..
                }
            ),
            "{e}"
        );
    }

    /// The options that lost in measurements are gone: a file naming one is refused (the
    /// README's "tried and rejected" table lists them).
    #[test]
    fn rejected_options_are_unknown_keys() {
        for (group, key) in [
            ("slaves", "priority_from_depth"),
            ("geometry", "master_leaf_cap"),
            ("master", "new_leaf_passes"),
            ("master", "leaf_probe_depth"),
            ("slaves", "required_slice_growth"),
            ("slaves", "speculative_slice_cap"),
            ("slaves", "catch_up_from"),
            ("slaves", "cut_keeps_window"),
            ("slaves", "exact_spare"),
            ("master", "bad_bound_hold"),
            ("master", "early_bad_bounds"),
            ("master", "master_hosts_slave"),
            ("master", "hosted_slave_laps"),
            ("slaves", "alternative_window"),
            ("slaves", "run_ahead_shift"),
            ("slaves", "pv_window"),
            ("master", "value_ordering"),
        ] {
            let e = AphidOptions::from_config(&format!("[{group}]\n{key} = 1")).unwrap_err();
            assert!(matches!(e, ConfigError::Toml { line: 2, .. }), "{key}: {e}");
            assert!(e.to_string().contains(key), "{key}: {e}");
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let e = AphidOptions::from_config("[slaves]\nwindow = 10\nwidth = 3").unwrap_err();
        assert!(matches!(e, ConfigError::Toml { line: 3, .. }), "{e}");
        assert!(e.to_string().contains("window"), "the keys are listed: {e}");
        let e = AphidOptions::from_config("master_depth = 5").unwrap_err();
        assert!(
            e.to_string().contains("under [geometry]"),
            "the group is named: {e}"
        );
        let e = AphidOptions::from_config("[slaves]\ntt = \"shared\"").unwrap_err();
        assert!(
            e.to_string().contains("under [tables]"),
            "the group is named: {e}"
        );
        let e = AphidOptions::from_config("[slaves]\nwidht = 3").unwrap_err();
        assert!(!e.to_string().contains("under ["), "no group takes it: {e}");
        for g in GROUPS {
            assert!(AphidOptions::from_config(&format!("[{g}]")).is_ok(), "{g}");
        }
        let e = AphidOptions::from_config("[geometry]\nmaster_depth = 0").unwrap_err();
        assert!(matches!(e, ConfigError::BadValue { line: 2, .. }), "{e}");
        assert!(e.to_string().contains("at least 1"), "{e}");
        let e = AphidOptions::from_config("just text").unwrap_err();
        assert!(matches!(e, ConfigError::Toml { line: 1, .. }), "{e}");
        let e = AphidOptions::from_config("[tables]\ntt = \"everywhere\"").unwrap_err();
        assert!(e.to_string().contains("distributed"), "{e}");
        let e = AphidOptions::from_config("[slaves]\nuntouched_last = 1").unwrap_err();
        assert!(e.to_string().contains("untouched_last"), "{e}");
        let e = AphidOptions::from_config("\n[hierarchy]\nparents = [0, 2]").unwrap_err();
        assert!(
            matches!(
                e,
                ConfigError::BadValue {
                    line: 3,
                    key: "parents",
                    ..
                }
            ),
            "{e}"
        );
        let e = AphidOptions::from_config("[slaves]\nwindow = -1").unwrap_err();
        assert!(matches!(e, ConfigError::Toml { line: 2, .. }), "{e}");
    }

    #[test]
    fn a_toml_hierarchy_and_the_shadow_ring_settings() {
        let text = "[hierarchy]\nparents = [0, 1, 1, 0, 4]\n[tables]\ntt = \"distributed\"\nshadow_entries = 64\n";
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
