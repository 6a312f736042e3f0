//! The named experiments, read once from the TOML files of `lab/experiments` (built into the
//! binary by `build.rs`): per experiment the paper's figure or table, the `runner compare`
//! flags that reproduce it (full, `--quick` and per variant, as [`Flags`] tables), and which
//! published numbers of `testsets/published` it is held against under which of our series
//! labels ([`Against`]; the numbers themselves are read by `published.rs`). `README.md` here
//! gives the file format.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer};

use super::flags::{self, Flags};
use super::ours::Reading;
use super::published::{Point, Quantity};

/// The experiment files of `lab/experiments`: (file name without `.toml`, text), the order
/// file [`ORDER`] among them.
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/experiments.rs"));

/// The shared settings of `lab/experiments/shared`, named by the experiments' `shared` key.
const SHARED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/experiments_shared.rs"));

/// The file of `lab/experiments` that lists the experiments in `--list` order.
const ORDER: &str = "catalog";

/// A named experiment.
#[derive(Debug)]
pub struct Experiment {
    /// Its name on the command line (its file's name).
    pub name: String,
    /// The figure or table.
    pub reproduces: String,
    /// What is compared.
    pub what: String,
    /// What the paper found, in a sentence without numbers (the numbers are in
    /// `testsets/published`).
    pub finding: Option<String>,
    /// The claims of the paper's text it checks (`claims` in its file).
    pub claims: Option<super::claims::Claims>,
    /// How it runs.
    pub kind: Kind,
}

impl Experiment {
    /// Its variants (each its own comparison in a subfolder); empty for one comparison.
    #[must_use]
    pub fn variants(&self) -> &[Variant] {
        match &self.kind {
            Kind::Compare { variants, .. } => variants,
            Kind::Model { .. } | Kind::CommonDepth(_) | Kind::Sweep { .. } => &[],
        }
    }
}

/// How an experiment runs.
#[derive(Debug)]
pub enum Kind {
    /// One comparison, or one per variant.
    Compare {
        /// The comparison's flags.
        settings: Settings,
        /// Variants (each its own comparison in a subfolder); empty for one comparison.
        variants: Vec<Variant>,
        /// The published numbers it is held against.
        against: Vec<Against>,
    },
    /// The analytical model of thesis chapter 4, with a simulated comparison on synthetic
    /// trees (`settings`; the run adds the trees' file as `testset`).
    Model {
        /// The simulated comparison's flags.
        settings: Settings,
    },
    /// The two-PDP-11 thesis's runs of common-depth splitting on its two unequal machines
    /// (`pdp11.rs`), set up by the file's `[common-depth]` table.
    CommonDepth(super::pdp11::Setup),
    /// One comparison per value of a cost-model key (`sim-set`), for each key swept.
    Sweep {
        /// The comparison's flags.
        settings: Settings,
        /// The keys swept, one after the other.
        swept: Vec<Swept>,
    },
}

/// An experiment's `runner compare` flags: the full run's, and those laid over them under
/// `--quick`.
#[derive(Debug)]
pub struct Settings {
    /// The full run's flags (`[compare]`, then the shared files' `[compare]`).
    pub base: Flags,
    /// The flags replaced under `--quick` (`[quick]`, then the shared files' `[quick]`).
    pub quick: Flags,
}

impl Settings {
    /// The flags of one comparison: the base, a variant's overlay, then under `--quick` the
    /// quick overlay (which wins, so that a quick run stays small in every variant).
    #[must_use]
    pub fn merged(&self, variant: &Flags, quick: bool) -> Flags {
        let mut merged = self.base.clone();
        flags::overlay(&mut merged, variant);
        if quick {
            flags::overlay(&mut merged, &self.quick);
        }
        merged
    }
}

/// One variant of an experiment: a subfolder and the flags laid over the experiment's.
#[derive(Debug)]
pub struct Variant {
    /// Its name (the subfolder).
    pub name: String,
    /// Its overlay.
    pub flags: Flags,
}

/// One swept quantity of a sweep experiment.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Swept {
    /// The cost-model keys set together (comma-separated), such as both message overheads.
    pub keys: String,
    /// Their values in the full run.
    pub values: Vec<u64>,
    /// Their values under `--quick`.
    pub quick: Vec<u64>,
    /// What the key models.
    pub why: String,
}

/// A view across items: numbers of one quantity shown and ranked under another name beside
/// other items' (figure 6.4 plots table 6.4's YBW speedups with table 6.1's APHID ones).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// The view's name, in place of the item's.
    pub name: String,
    /// The quantity it shows.
    pub quantity: Quantity,
}

/// Published numbers an experiment is held against: an item of `testsets/published` ("figure
/// 5", "table 6.1"), the rows of it that apply (context column and value, such as ("depth",
/// "12")), the variant whose comparison gives our numbers ("" without variants), and for
/// each published series the label of our series in `results.csv`.
#[derive(Clone, Debug)]
pub struct Against {
    /// The figure or table.
    pub item: String,
    /// The variant (subfolder) whose comparison gives ours; "" for the only one.
    pub variant: String,
    /// Only the published rows with these context values.
    pub only: Vec<(String, String)>,
    /// Published series to our labels.
    pub series: Vec<(String, String)>,
    /// The numbers of one quantity shown and ranked as a view; `None` for the item itself.
    pub view: Option<View>,
    /// How ours is read from the comparison ([`Reading::Compare`] but for Brockington and
    /// Schaeffer's thirds and summed overheads).
    pub reading: Reading,
}

impl Against {
    /// Whether `p` is one of the published numbers this mapping compares: of its item, with
    /// its context values, of a series it maps.
    #[must_use]
    pub fn selects(&self, p: &Point) -> bool {
        p.item == self.item
            && self
                .only
                .iter()
                .all(|(c, v)| p.context(c) == Some(v.as_str()))
            && self.series.iter().any(|(s, _)| *s == p.series)
            && self.view.as_ref().is_none_or(|v| p.quantity == v.quantity)
    }

    /// Whether this mapping shows its item's own published numbers in the comparison
    /// `variant` (a view re-presents numbers its items already show).
    #[must_use]
    pub fn shows_published_in(&self, variant: &str) -> bool {
        self.variant == variant && self.view.is_none()
    }
}

/// A file of the catalog that does not read, or does not fit the others: the file (as
/// `lab/experiments/NAME.toml`) and what is wrong, on one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogError {
    /// The file, relative to the repository.
    pub file: String,
    /// What is wrong (the place in the file first where known).
    pub message: String,
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for CatalogError {}

/// Every experiment, in `--list` order (read on first use).
///
/// # Errors
/// The first file of the catalog that does not read.
pub fn all() -> Result<&'static [Experiment], CatalogError> {
    static ALL: OnceLock<Result<Vec<Experiment>, CatalogError>> = OnceLock::new();
    ALL.get_or_init(|| read(FILES, SHARED))
        .as_deref()
        .map_err(Clone::clone)
}

/// The path of an experiment file in messages.
fn file_of(name: &str) -> String {
    format!("lab/experiments/{name}.toml")
}

/// The path of a shared file in messages.
fn shared_file_of(name: &str) -> String {
    format!("lab/experiments/shared/{name}.toml")
}

/// Reads the catalog from its files: `files` (the experiments and the order file) and
/// `shared` (the shared settings), each (file name without `.toml`, text).
///
/// # Errors
/// The first file that does not read, or that names what is not there.
fn read(files: &[(&str, &str)], shared: &[(&str, &str)]) -> Result<Vec<Experiment>, CatalogError> {
    let order_file = file_of(ORDER);
    let at = |file: &str, message: String| CatalogError {
        file: file.to_string(),
        message,
    };
    let Some((_, order_text)) = files.iter().find(|(n, _)| *n == ORDER) else {
        return Err(at(&order_file, "missing".into()));
    };
    let order: OrderFile = parse(&order_file, order_text)?;
    if let Some((name, _)) = files
        .iter()
        .find(|(n, _)| *n != ORDER && !order.order.iter().any(|o| o == n))
    {
        return Err(at(
            &file_of(name),
            format!("not in the order of {order_file}; add '{name}' there"),
        ));
    }
    let shared: Vec<(&str, SharedFile)> = shared
        .iter()
        .map(|(name, text)| Ok((*name, parse(&shared_file_of(name), text)?)))
        .collect::<Result<_, CatalogError>>()?;
    let mut experiments: Vec<Experiment> = Vec::new();
    for name in &order.order {
        if experiments.iter().any(|e| e.name == *name) {
            return Err(at(
                &order_file,
                format!("order: experiment name '{name}' is listed twice"),
            ));
        }
        let Some((_, text)) = files.iter().find(|(n, _)| n == name && n != &ORDER) else {
            return Err(at(
                &order_file,
                format!("order: '{name}' has no file {}", file_of(name)),
            ));
        };
        let file = file_of(name);
        experiments.push(experiment(name, parse(&file, text)?, &shared).map_err(|m| at(&file, m))?);
    }
    Ok(experiments)
}

/// Reads `text` (the file `file`) as a `T`; the error in one line, with its place.
fn parse<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> Result<T, CatalogError> {
    toml::from_str(text).map_err(|e| CatalogError {
        file: file.to_string(),
        message: dib::TomlError::new(text, &e).to_string(),
    })
}

/// `catalog.toml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OrderFile {
    /// The experiments' names in `--list` order.
    order: Vec<String>,
}

/// A file of `lab/experiments/shared`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SharedFile {
    /// Keys following an experiment's `[compare]`.
    #[serde(default)]
    compare: Flags,
    /// Keys following an experiment's `[quick]`.
    #[serde(default)]
    quick: Flags,
}

/// An experiment's kind as its file names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum KindName {
    #[default]
    Compare,
    Sweep,
    Model,
    CommonDepth,
}

impl KindName {
    /// The name in a file.
    fn name(self) -> &'static str {
        match self {
            KindName::Compare => "compare",
            KindName::Sweep => "sweep",
            KindName::Model => "model",
            KindName::CommonDepth => "common-depth",
        }
    }
}

/// An experiment file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExperimentFile {
    reproduces: String,
    what: String,
    finding: Option<String>,
    claims: Option<super::claims::Claims>,
    #[serde(default)]
    kind: KindName,
    #[serde(default)]
    shared: Vec<String>,
    compare: Option<Flags>,
    #[serde(default)]
    quick: Flags,
    #[serde(default)]
    variants: Flags,
    #[serde(default)]
    against: Vec<AgainstEntry>,
    #[serde(default)]
    swept: Vec<Swept>,
    #[serde(rename = "common-depth")]
    common_depth: Option<super::pdp11::Setup>,
}

/// One `[[against]]` entry as written: `item` is one item or a list of items mapped alike.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgainstEntry {
    item: Items,
    #[serde(default)]
    variant: String,
    #[serde(default, deserialize_with = "pairs")]
    only: Vec<(String, String)>,
    #[serde(deserialize_with = "pairs")]
    series: Vec<(String, String)>,
    view: Option<View>,
    #[serde(default)]
    read: Reading,
}

/// One item, or several.
#[derive(Deserialize)]
#[serde(untagged)]
enum Items {
    One(String),
    Many(Vec<String>),
}

/// A table of strings as (key, value) pairs in the file's order.
fn pairs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    Flags::deserialize(d)?
        .into_iter()
        .map(|(k, v)| match v {
            toml::Value::String(s) => Ok((k, s)),
            other => Err(serde::de::Error::custom(format!(
                "`{k}`: expected a string, found {}",
                other.type_str()
            ))),
        })
        .collect()
}

/// Appends `extra`'s keys to `flags`; a key both set is an error (one place for each).
fn append(flags: &mut Flags, extra: &Flags, table: &str, shared: &str) -> Result<(), String> {
    for (k, v) in extra {
        if flags.contains_key(k) {
            return Err(format!(
                "[{table}] sets `{k}`, which {} sets; set it in one place",
                shared_file_of(shared)
            ));
        }
        flags.insert(k.clone(), v.clone());
    }
    Ok(())
}

/// Checks one experiment file and builds the experiment.
fn experiment(
    name: &str,
    file: ExperimentFile,
    shared: &[(&str, SharedFile)],
) -> Result<Experiment, String> {
    let kind = file.kind;
    let only_for = |key: &str, present: bool, allowed: &[KindName]| -> Result<(), String> {
        if present && !allowed.contains(&kind) {
            Err(format!(
                "`{key}` does not apply to kind = \"{}\"",
                kind.name()
            ))
        } else {
            Ok(())
        }
    };
    use KindName::{Compare, Model, Sweep};
    only_for("variants", !file.variants.is_empty(), &[Compare])?;
    only_for("against", !file.against.is_empty(), &[Compare])?;
    only_for("swept", !file.swept.is_empty(), &[Sweep])?;
    only_for("quick", !file.quick.is_empty(), &[Compare, Sweep, Model])?;
    only_for("shared", !file.shared.is_empty(), &[Compare, Sweep, Model])?;
    only_for("compare", file.compare.is_some(), &[Compare, Sweep, Model])?;
    only_for(
        "common-depth",
        file.common_depth.is_some(),
        &[KindName::CommonDepth],
    )?;
    let mut settings = Settings {
        base: file.compare.unwrap_or_default(),
        quick: file.quick,
    };
    for s in &file.shared {
        let Some((_, extra)) = shared.iter().find(|(n, _)| n == s) else {
            return Err(format!("shared: no file {}", shared_file_of(s)));
        };
        append(&mut settings.base, &extra.compare, "compare", s)?;
        append(&mut settings.quick, &extra.quick, "quick", s)?;
    }
    let mut variants = Vec::new();
    for (v, over) in file.variants {
        let toml::Value::Table(flags) = over else {
            return Err(format!("[variants] `{v}`: expected a table of flags"));
        };
        variants.push(Variant { name: v, flags });
    }
    let mut against = Vec::new();
    for a in file.against {
        if !(a.variant.is_empty() && variants.is_empty()
            || variants.iter().any(|v| v.name == a.variant))
        {
            return Err(format!(
                "[[against]] variant = '{}': no such variant of {name}",
                a.variant
            ));
        }
        let items = match a.item {
            Items::One(i) => vec![i],
            Items::Many(is) => is,
        };
        for item in items {
            against.push(Against {
                item,
                variant: a.variant.clone(),
                only: a.only.clone(),
                series: a.series.clone(),
                view: a.view.clone(),
                reading: a.read,
            });
        }
    }
    let kind = match kind {
        KindName::CommonDepth => Kind::CommonDepth(
            file.common_depth
                .ok_or_else(|| "[common-depth]: missing".to_string())?,
        ),
        _ if settings.base.is_empty() => return Err("[compare]: missing".into()),
        KindName::Compare => {
            check_flags(&settings, &variants)?;
            Kind::Compare {
                settings,
                variants,
                against,
            }
        }
        KindName::Model => {
            check_flags(&settings, &[])?;
            Kind::Model { settings }
        }
        KindName::Sweep if file.swept.is_empty() => return Err("[[swept]]: missing".into()),
        KindName::Sweep => {
            check_flags(&settings, &[])?;
            Kind::Sweep {
                settings,
                swept: file.swept,
            }
        }
    };
    Ok(Experiment {
        name: name.to_string(),
        reproduces: file.reproduces,
        what: file.what,
        finding: file.finding,
        claims: file.claims,
        kind,
    })
}

/// Every comparison the settings give (each variant, full and quick) reads as `runner
/// compare`'s flags; the error names the table.
fn check_flags(settings: &Settings, variants: &[Variant]) -> Result<(), String> {
    let tables = std::iter::once(("compare".to_string(), &settings.base))
        .chain(std::iter::once(("quick".to_string(), &settings.quick)))
        .chain(
            variants
                .iter()
                .map(|v| (format!("variants.{}", v.name), &v.flags)),
        );
    for (table, flags) in tables {
        // The folder of each comparison is the experiment's `--out` (and its variant's
        // subfolder).
        if flags.contains_key("out") {
            return Err(format!(
                "[{table}] `out`: the folder is runner experiment's --out; leave it out"
            ));
        }
    }
    let none = Flags::new();
    let mut each: Vec<(String, &Flags)> = vec![(String::new(), &none)];
    each.extend(
        variants
            .iter()
            .map(|v| (format!("variants.{}", v.name), &v.flags)),
    );
    for (table, over) in each {
        for quick in [false, true] {
            let merged = settings.merged(over, quick);
            flags::compare_args(&merged, std::path::Path::new("")).map_err(|e| {
                let place = match (table.as_str(), quick) {
                    ("", false) => "[compare]".to_string(),
                    ("", true) => "[compare] with [quick]".to_string(),
                    (t, false) => format!("[{t}]"),
                    (t, true) => format!("[{t}] with [quick]"),
                };
                format!("{place}: {}", dib::toml_error::one_line(e.message()))
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::experiment::{Scope, planned, published};

    /// Every experiment, read from the built-in files.
    fn every() -> &'static [Experiment] {
        all().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The files with `name`'s text replaced by `text` (or added).
    fn with<'a>(name: &'a str, text: &'a str) -> Vec<(&'a str, &'a str)> {
        let mut files: Vec<(&str, &str)> =
            FILES.iter().filter(|(n, _)| *n != name).copied().collect();
        files.push((name, text));
        files
    }

    /// The algorithms a comparison's `algos` names.
    fn algos_of(flags: &Flags) -> Vec<String> {
        flags
            .get("algos")
            .and_then(toml::Value::as_str)
            .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
            .unwrap_or_default()
    }

    /// Every comparison of every experiment, full and quick, into a folder below `out`.
    fn every_comparison(
        out: &Path,
    ) -> Vec<(&'static Experiment, bool, crate::experiment::Planned)> {
        let mut each = Vec::new();
        for e in every() {
            for quick in [false, true] {
                for p in planned(e, &Scope::whole(quick), &out.join(&e.name)) {
                    each.push((e, quick, p));
                }
            }
        }
        each
    }

    /// Every file reads, in the order file's order, each name once and every file listed.
    #[test]
    fn every_file_reads_and_every_name_is_unique() {
        let names: Vec<&str> = every().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names.len(), FILES.len() - 1, "{names:?}");
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "{n} twice");
        }
        assert_eq!(names.first(), Some(&"bs96-fig7-9"));
        let listed: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
        let twice = format!("order = [{}, \"rf-fig7\"]", listed.join(", "));
        let err = read(&with(ORDER, &twice), SHARED).expect_err("a name listed twice");
        assert_eq!(
            err.to_string(),
            "lab/experiments/catalog.toml: order: experiment name 'rf-fig7' is listed twice"
        );
        let missing = format!("order = [{}, \"nowhere\"]", listed.join(", "));
        let err = read(&with(ORDER, &missing), SHARED).expect_err("a name without a file");
        assert_eq!(
            err.to_string(),
            "lab/experiments/catalog.toml: order: 'nowhere' has no file lab/experiments/nowhere.toml"
        );
        let unlisted = with(
            "extra",
            "reproduces = \"x\"\nwhat = \"y\"\nkind = \"model\"",
        );
        let err = read(&unlisted, SHARED).expect_err("a file not in the order");
        assert!(
            err.to_string().starts_with(
                "lab/experiments/extra.toml: not in the order of lab/experiments/catalog.toml"
            ),
            "{err}"
        );
    }

    /// A malformed file is one line naming it, the place, and what is wrong.
    #[test]
    fn a_malformed_file_is_one_line_naming_it() {
        let cases: [(&'static str, &str); 8] = [
            (
                "reproduces = \"x\"\nwhat = \"y\"\n[compare\ngame = \"chess\"",
                "line 3, column 9: ",
            ),
            (
                "reproduces = \"x\"\nwhat = \"y\"\ncolour = 1",
                "line 3, column 1: unknown field `colour`",
            ),
            (
                "reproduces = \"x\"\nwhat = \"y\"\n[compare]\ndepht = 5",
                "[compare]: unknown field `depht`",
            ),
            (
                "reproduces = \"x\"\nwhat = \"y\"\n[compare]\ndepth = 5\n[variants]\na = { depth = \"deep\" }",
                "[variants.a]: invalid type: string \"deep\", expected u32",
            ),
            (
                "reproduces = \"x\"\nwhat = \"y\"\n[compare]\ndepth = 5\n[[against]]\nitem = \"figure 5\"\nvariant = \"b\"\nseries = {}",
                "[[against]] variant = 'b': no such variant of mp-t2",
            ),
            (
                "reproduces = \"x\"\nwhat = \"y\"\nshared = [\"nowhere\"]\n[compare]\ndepth = 5",
                "shared: no file lab/experiments/shared/nowhere.toml",
            ),
            (
                "reproduces = \"x\"\nwhat = \"y\"\nkind = \"common-depth\"\n[compare]\ndepth = 5",
                "`compare` does not apply to kind = \"common-depth\"",
            ),
            (
                "reproduces = \"x\"\nwhat = \"y\"\nshared = [\"thesis-table\"]\n[compare]\ntt-mb = 5",
                "[compare] sets `tt-mb`, which lab/experiments/shared/thesis-table.toml sets; set it in one place",
            ),
        ];
        for (text, says) in cases {
            let err = read(&with("mp-t2", text), SHARED)
                .expect_err(text)
                .to_string();
            assert!(err.starts_with("lab/experiments/mp-t2.toml: "), "{err}");
            assert!(err.contains(says), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }

    /// Every mapping names a published item with rows under its filters, every published
    /// series it names is in them, and every label is one of the experiment's series: a typo
    /// in a label or a name fails here, not silently in a run with nothing compared (the
    /// variants are checked when the catalog is read).
    #[test]
    fn every_mapping_names_published_rows_and_our_series() {
        let points = published::all().expect("the published files parse");
        for e in every() {
            let Kind::Compare {
                settings, against, ..
            } = &e.kind
            else {
                continue;
            };
            let ours = algos_of(&settings.base);
            // Every published series named anywhere in the experiment, found or not.
            let mut named: Vec<(&str, bool)> = Vec::new();
            for a in against {
                let rows: Vec<&published::Point> = points
                    .iter()
                    .filter(|p| {
                        p.item == a.item
                            && a.only.iter().all(|(c, v)| p.context(c) == Some(v.as_str()))
                    })
                    .collect();
                assert!(!rows.is_empty(), "{}: no rows of {}", e.name, a.item);
                let mut any = false;
                for (theirs, label) in &a.series {
                    let found = rows.iter().any(|p| p.series == *theirs);
                    any |= found;
                    match named.iter_mut().find(|(n, _)| n == theirs) {
                        Some(slot) => slot.1 |= found,
                        None => named.push((theirs, found)),
                    }
                    // `S#k`: series S on the k-th position.
                    let (series, position) = match label.split_once('#') {
                        Some((s, k)) => (s, k.parse::<usize>().ok()),
                        None => (label.as_str(), Some(1)),
                    };
                    assert!(
                        ours.iter().any(|o| o == series) && position.is_some_and(|k| k >= 1),
                        "{}: no series '{label}'",
                        e.name
                    );
                }
                assert!(any, "{}: {} has none of its series", e.name, a.item);
            }
            for (theirs, found) in named {
                assert!(found, "{}: no published series '{theirs}'", e.name);
            }
        }
    }

    /// Every full run on the thesis's machine asks for the thesis's table, the largest the
    /// `origin2000` preset allows: a smaller one fills at the thesis's depths and changes the
    /// speedups it is compared with.
    #[test]
    fn the_thesis_machine_runs_with_the_thesis_table() {
        let cap = dib::CostModel::preset("origin2000")
            .expect("the preset")
            .max_table_mib(control::search::TT_ENTRY_BYTES)
            .expect("a table limit");
        let mut checked = 0;
        for (e, quick, p) in every_comparison(Path::new("out")) {
            if quick
                || p.flags.get("sim-preset").and_then(toml::Value::as_str) != Some("origin2000")
            {
                continue;
            }
            let mb = p.flags.get("tt-mb").and_then(toml::Value::as_integer);
            assert_eq!(mb, i64::try_from(cap).ok(), "{} {}", e.name, p.label);
            checked += 1;
        }
        assert!(
            checked >= 20,
            "{checked} comparisons on the thesis's machine"
        );
    }

    /// A quick run's depth replaces a variant's time per position (`runner compare` takes one
    /// of the two), in every variant of every experiment.
    #[test]
    fn a_quick_depth_replaces_a_time_limit() {
        let t68 = every()
            .iter()
            .find(|e| e.name == "thesis-t6.8")
            .expect("thesis-t6.8");
        let quick = planned(t68, &Scope::whole(true), Path::new("out"));
        let checkers = quick
            .iter()
            .find(|p| p.label == "checkers-local")
            .expect("the row");
        assert!(
            checkers.flags.contains_key("depth") && !checkers.flags.contains_key("time-ms"),
            "{}",
            checkers.command
        );
        let full = planned(t68, &Scope::whole(false), Path::new("out"));
        let checkers = full
            .iter()
            .find(|p| p.label == "checkers-local")
            .expect("the row");
        assert!(
            !checkers.flags.contains_key("depth"),
            "{}",
            checkers.command
        );
    }

    /// Every algorithm an experiment names (in its flags, its quick flags and its variants'
    /// overlays) is one this build registers, so every experiment `--list` shows runs.
    #[test]
    fn every_algorithm_an_experiment_names_is_registered() {
        let mut checked = 0;
        for (e, _, p) in every_comparison(Path::new("out")) {
            for item in algos_of(&p.flags) {
                let name = item.split('@').next().unwrap_or(&item);
                assert!(
                    name.parse::<control::parallel::ParallelAlgo>().is_ok(),
                    "{}: '{name}' is not a registered algorithm",
                    e.name
                );
                checked += 1;
            }
        }
        assert!(checked >= every().len(), "{checked} algorithms checked");
    }

    /// Every comparison of every experiment, full and quick, is a plan `runner compare`
    /// accepts, and the command the pages print reads (clap) as the table reads (serde).
    #[test]
    fn every_comparison_parses_and_its_command_reads_as_its_table() {
        let out = std::env::temp_dir().join("runner-catalog-test");
        let mut checked = 0;
        for (e, quick, p) in every_comparison(&out) {
            let what = format!("{} {} (quick: {quick})", e.name, p.label);
            let parsed = crate::cli::parse_compare(p.command.split_whitespace().skip(1))
                .unwrap_or_else(|err| panic!("{what}: {err}"));
            let read =
                flags::compare_args(&p.flags, &p.dir).unwrap_or_else(|err| panic!("{what}: {err}"));
            assert_eq!(format!("{parsed:?}"), format!("{read:?}"), "{what}");
            // The model's test set is the file its run writes.
            if !matches!(e.kind, Kind::Model { .. }) {
                flags::plan(&p.flags, &p.dir).unwrap_or_else(|err| panic!("{what}: {err:#}"));
            }
            checked += 1;
        }
        assert!(checked >= 100, "{checked} comparisons");
    }

    /// The repository's root.
    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// The scope and folder of a recorded `runner experiment NAME ... --out DIR` command.
    fn scope_of(command: &str) -> (Scope, PathBuf) {
        let mut scope = Scope::default();
        let mut out = PathBuf::new();
        let mut words = command.split_whitespace().skip(3);
        while let Some(w) = words.next() {
            let mut value = || words.next().unwrap_or_else(|| panic!("{command}"));
            match w {
                "--quick" => scope.quick = true,
                "--assemble" => scope.assemble = true,
                "--variant" => scope.variants = value().split(',').map(str::to_string).collect(),
                "--positions" => scope.positions = Some(value().parse().expect("a count")),
                "--out" => out = PathBuf::from(value()),
                other => panic!("{command}: {other}"),
            }
        }
        (scope, out)
    }

    /// The committed pages are what the files give: for every experiment of
    /// `docs/results/NAME/verdict.json`, its recorded `compare_commands` are exactly the
    /// commands the files give for the recorded run, and every comparison folder there
    /// (`results.json`, a variant or a sweep's value, whichever run wrote it) holds the
    /// command the files give for it.
    #[test]
    fn an_experiment_names_claims_exactly_where_its_committed_verdict_checks_some() {
        let results = root().join("docs/results");
        let mut checked = 0;
        // The comparisons' claims; pdp11-t5's own run checks its thesis's (`pdp11.rs`).
        for e in every()
            .iter()
            .filter(|e| matches!(e.kind, Kind::Compare { .. }))
        {
            let Ok(text) = std::fs::read_to_string(results.join(&e.name).join("verdict.json"))
            else {
                continue;
            };
            let v: serde_json::Value = serde_json::from_str(&text).expect("a verdict");
            let has = v["claims"].as_array().is_some_and(|c| !c.is_empty());
            assert_eq!(e.claims.is_some(), has, "{}", e.name);
            checked += usize::from(has);
        }
        assert!(checked >= 1, "no committed verdict checks claims");
    }

    #[test]
    fn the_files_reproduce_the_committed_pages() {
        let results = root().join("docs/results");
        let mut verdicts = 0;
        let mut folders = 0;
        for e in every() {
            let path = results.join(&e.name).join("verdict.json");
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let v: serde_json::Value = serde_json::from_str(&text).expect("a verdict");
            let (scope, out) = scope_of(v["command"].as_str().expect("its command"));
            let recorded: Vec<&str> = v["compare_commands"]
                .as_array()
                .expect("compare_commands")
                .iter()
                .filter_map(serde_json::Value::as_str)
                .collect();
            if matches!(e.kind, Kind::Compare { .. }) {
                let ours: Vec<String> = planned(e, &scope, &out)
                    .into_iter()
                    .map(|p| p.command)
                    .collect();
                assert_eq!(ours, recorded, "{}", path.display());
            }
            verdicts += 1;
            // Every folder of the experiment, whichever of its variants the verdict's run named.
            let every_variant = Scope {
                variants: Vec::new(),
                ..scope
            };
            for p in planned(e, &every_variant, &out) {
                let Ok(text) = std::fs::read_to_string(root().join(&p.dir).join("results.json"))
                else {
                    continue;
                };
                let r: serde_json::Value = serde_json::from_str(&text).expect("results.json");
                assert_eq!(
                    r["command"].as_str(),
                    Some(p.command.as_str()),
                    "{}",
                    p.dir.display()
                );
                folders += 1;
            }
        }
        assert!(verdicts >= 18, "{verdicts} verdicts");
        assert!(folders >= 50, "{folders} comparison folders");
    }
}
