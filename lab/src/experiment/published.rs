//! The papers' published numbers, read from the `.tsv` files of `testsets/published` (built into
//! the binary): every number becomes one [`Point`] (an item such as "figure 5", a series named
//! as the paper names it, a [`Quantity`], a processor count and the value) with the context of
//! its row (setup, program, setting, depth, table kind, storage rule, position). Brockington and
//! Schaeffer's figures 7-9 have the names of Rezaie and Finkel's figures 7-9; their curves' names
//! differ, and so does their context (`what` against Rezaie and Finkel's `setup`).
//!
//! Values keep the papers' units: overheads in percent, nodes in thousands where the figure
//! plots thousands. Two conversions, so that every [`Quantity::Seconds`] is elapsed seconds per
//! position: Marsland and Popowich's table 4 prints minutes per position (times 60), and the thesis
//! prints seconds summed over its test set (divided by its 20 positions, 24 in chess).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The embedded files: (file name without `.tsv`, text).
pub const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/published.rs"));

/// What a published number measures, and so how ours is computed (`ours.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// T1 of the same series / (N x T_N).
    RelativeEfficiency,
    /// Baseline time / T_N.
    Speedup,
    /// Nodes on N processors / nodes of the same series on 1.
    NodesRelative,
    /// Search nodes per position, in thousands.
    NodesThousands,
    /// Time over all machines: N x elapsed seconds per position.
    TotalSeconds,
    /// The static-evaluation (look-ahead sorting) share of the total seconds.
    SortSeconds,
    /// Elapsed seconds per position.
    Seconds,
    /// Elapsed seconds summed over the positions run (no published number is read as this
    /// quantity; records that compared the thesis's test-set totals with it stay readable).
    TestSetSeconds,
    /// Total overhead, percent (thesis 6.2.6).
    TotalOverhead,
    /// Master overhead, percent.
    MasterOverhead,
    /// Search overhead, percent.
    SearchOverhead,
    /// Speculative search, percent.
    SpeculativeSearch,
    /// Parallelization overhead, percent.
    ParallelizationOverhead,
    /// Synchronization overhead, percent.
    SynchronizationOverhead,
    /// Time spent idle, percent of the processor time.
    Idle,
    /// Time overhead, percent: (N x T_N - T_1) / T_1 with the mean times over the positions
    /// (Marsland and Popowich, equation 17).
    TimeOverhead,
    /// Leaf nodes searched by all processors, per position.
    LeafNodes,
    /// Search overhead from the leaf nodes, percent: mean leaves on N / mean leaves on 1 - 1
    /// (Marsland and Popowich's "node search overhead", section 7.2).
    LeafSearchOverhead,
    /// Time over the ideal combination of unequal machines, percent: (T - T0) / T0, with
    /// 1/T0 = 1/T1 + 1/T2 (the two-PDP-11 thesis).
    TotalIncreasePct,
    /// Subroutine (search work) time over T0, percent (the two-PDP-11 thesis's dsub).
    DsubPct,
    /// Time beyond the search work over T0, percent (the two-PDP-11 thesis's dcomm).
    DcommPct,
    /// Factor by which the communication overhead grows per unit of common depth (the two-PDP-11
    /// thesis).
    CommGrowth,
}

impl Quantity {
    /// The name in `verdict.json` (snake case).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Quantity::RelativeEfficiency => "relative_efficiency",
            Quantity::Speedup => "speedup",
            Quantity::NodesRelative => "nodes_relative",
            Quantity::NodesThousands => "nodes_thousands",
            Quantity::TotalSeconds => "total_seconds",
            Quantity::SortSeconds => "sort_seconds",
            Quantity::Seconds => "seconds",
            Quantity::TestSetSeconds => "test_set_seconds",
            Quantity::TotalOverhead => "total_overhead",
            Quantity::MasterOverhead => "master_overhead",
            Quantity::SearchOverhead => "search_overhead",
            Quantity::SpeculativeSearch => "speculative_search",
            Quantity::ParallelizationOverhead => "parallelization_overhead",
            Quantity::SynchronizationOverhead => "synchronization_overhead",
            Quantity::Idle => "idle",
            Quantity::TimeOverhead => "time_overhead",
            Quantity::LeafNodes => "leaf_nodes",
            Quantity::LeafSearchOverhead => "leaf_search_overhead",
            Quantity::TotalIncreasePct => "total_increase_pct",
            Quantity::DsubPct => "dsub_pct",
            Quantity::DcommPct => "dcomm_pct",
            Quantity::CommGrowth => "comm_growth_per_cd",
        }
    }

    /// The axis label of a plot of this quantity.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Quantity::RelativeEfficiency => "relative efficiency",
            Quantity::Speedup => "speedup",
            Quantity::NodesRelative => "nodes relative to 1 processor",
            Quantity::NodesThousands => "nodes (thousands)",
            Quantity::TotalSeconds => "total time over all processors (s)",
            Quantity::SortSeconds => "sort time (s)",
            Quantity::Seconds => "elapsed time (s)",
            Quantity::TestSetSeconds => "elapsed time, positions summed (s)",
            Quantity::TotalOverhead => "total overhead (%)",
            Quantity::MasterOverhead => "master overhead (%)",
            Quantity::SearchOverhead => "search overhead (%)",
            Quantity::SpeculativeSearch => "speculative search (%)",
            Quantity::ParallelizationOverhead => "parallelization overhead (%)",
            Quantity::SynchronizationOverhead => "synchronization overhead (%)",
            Quantity::Idle => "idle (%)",
            Quantity::TimeOverhead => "time overhead (%)",
            Quantity::LeafNodes => "leaf nodes",
            Quantity::LeafSearchOverhead => "search overhead, leaf nodes (%)",
            Quantity::TotalIncreasePct => "time over T0 (%)",
            Quantity::DsubPct => "dsub: search work over T0 (%)",
            Quantity::DcommPct => "dcomm: the rest over T0 (%)",
            Quantity::CommGrowth => "communication growth per unit CD (x)",
        }
    }
}

/// One published number.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The figure or table: "figure 5", "table 6.1", "Marsland and Popowich table 3".
    pub item: String,
    /// The series as the paper names it ("MWF EC-sorting", "APHID").
    pub series: String,
    /// What the number measures.
    pub quantity: Quantity,
    /// Processors.
    pub procs: usize,
    /// The number.
    pub value: f64,
    /// The row's other columns: (column, value), such as ("depth", "12").
    pub context: Vec<(String, String)>,
}

impl Point {
    /// The value of a context column.
    #[must_use]
    pub fn context(&self, column: &str) -> Option<&str> {
        self.context
            .iter()
            .find(|(c, _)| c == column)
            .map(|(_, v)| v.as_str())
    }
}

/// A line of a published file that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The file.
    pub file: String,
    /// The line (1-based).
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "testsets/published/{}.tsv line {}: {}",
            self.file, self.line, self.what
        )
    }
}

impl std::error::Error for ParseError {}

/// How a wide table's columns read: the item's prefix and column, the series, the processors'
/// column, the context columns and the value columns with their quantity and factor.
struct Layout {
    item_prefix: &'static str,
    item_column: &'static str,
    series: fn(&Row<'_>) -> Result<String, String>,
    procs_column: &'static str,
    context: &'static [&'static str],
    values: &'static [(&'static str, Quantity)],
    /// A factor applied to a (column, item) pair's values.
    scale: fn(&str, &str) -> f64,
}

/// A data line with its header.
struct Row<'a> {
    head: &'a [&'a str],
    cells: Vec<&'a str>,
}

impl Row<'_> {
    fn get(&self, column: &str) -> Result<&str, String> {
        self.head
            .iter()
            .position(|h| *h == column)
            .and_then(|i| self.cells.get(i).copied())
            .ok_or_else(|| format!("no column '{column}'"))
    }
}

/// The data lines of a file (no comments, no blank lines), numbered from 1.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
}

fn number(cell: &str) -> Result<Option<f64>, String> {
    if cell == "-" {
        return Ok(None);
    }
    cell.parse::<f64>()
        .map(Some)
        .map_err(|_| format!("'{cell}' is not a number"))
}

fn wide(file: &str, text: &str, layout: &Layout) -> Result<Vec<Point>, ParseError> {
    let err = |line: usize, what: String| ParseError {
        file: file.to_string(),
        line,
        what,
    };
    let mut lines = data_lines(text);
    let (_, head) = lines
        .next()
        .ok_or_else(|| err(1, "no header line".into()))?;
    let head: Vec<&str> = head.split('\t').collect();
    let mut out = Vec::new();
    for (n, line) in lines {
        let row = Row {
            head: &head,
            cells: line.split('\t').collect(),
        };
        if row.cells.len() != head.len() {
            return Err(err(
                n,
                format!("{} cells, the header has {}", row.cells.len(), head.len()),
            ));
        }
        let read = || -> Result<Vec<Point>, String> {
            let item_key = row.get(layout.item_column)?;
            let item = format!("{}{item_key}", layout.item_prefix);
            let series = (layout.series)(&row)?;
            let procs_cell = row.get(layout.procs_column)?;
            let procs: usize = procs_cell
                .parse()
                .map_err(|_| format!("processors '{procs_cell}' is not a count"))?;
            let mut context = Vec::new();
            for c in layout.context {
                context.push(((*c).to_string(), row.get(c)?.to_string()));
            }
            let mut points = Vec::new();
            for (column, quantity) in layout.values {
                if let Some(v) = number(row.get(column)?)? {
                    points.push(Point {
                        item: item.clone(),
                        series: series.clone(),
                        quantity: *quantity,
                        procs,
                        value: v * (layout.scale)(column, item_key),
                        context: context.clone(),
                    });
                }
            }
            Ok(points)
        };
        out.extend(read().map_err(|w| err(n, w))?);
    }
    Ok(out)
}

const BROCKINGTON: Layout = Layout {
    item_prefix: "table ",
    item_column: "table",
    series: |r| r.get("algorithm").map(str::to_string),
    procs_column: "n",
    context: &["program", "setting", "depth"],
    values: &[
        ("speedup", Quantity::Speedup),
        ("total_time_s", Quantity::Seconds),
        ("total_overhead_pct", Quantity::TotalOverhead),
        ("master_overhead_pct", Quantity::MasterOverhead),
        ("search_overhead_pct", Quantity::SearchOverhead),
        ("speculative_search_pct", Quantity::SpeculativeSearch),
        (
            "parallelization_overhead_pct",
            Quantity::ParallelizationOverhead,
        ),
        (
            "synchronization_overhead_pct",
            Quantity::SynchronizationOverhead,
        ),
        ("idle_pct", Quantity::Idle),
    ],
    // The thesis prints time summed over its test set; per position, to compare with a run
    // of any number of positions: 24 Bratko-Kopec positions (tables 6.6, 6.7), else 20.
    scale: |column, table| match (column, table) {
        ("total_time_s", "6.6" | "6.7") => 1.0 / 24.0,
        ("total_time_s", _) => 1.0 / 20.0,
        _ => 1.0,
    },
};

const MARSLAND_POPOWICH: Layout = Layout {
    item_prefix: "Marsland and Popowich table ",
    item_column: "table",
    // The means are PV splitting's series; table 4's positions each their own.
    series: |r| {
        Ok(match r.get("position")? {
            "mean" => "PV splitting".to_string(),
            p => format!("PV splitting, position {p}"),
        })
    },
    procs_column: "procs",
    context: &["depth", "tt", "storage", "position"],
    values: &[
        ("leaf_nodes", Quantity::LeafNodes),
        ("time", Quantity::Seconds),
        ("speedup", Quantity::Speedup),
        ("search_overhead_pct", Quantity::LeafSearchOverhead),
        ("time_overhead_pct", Quantity::TimeOverhead),
    ],
    // Table 4 prints minutes per position.
    scale: |column, table| {
        if column == "time" && table == "4" {
            60.0
        } else {
            1.0
        }
    },
};

/// The quantity of a Rezaie and Finkel curve from its figure's quantity text and its series name.
fn rf_quantity(quantity: &str, series: &str) -> Result<Quantity, String> {
    if series.contains("sort time") {
        return Ok(Quantity::SortSeconds);
    }
    let q = [
        ("efficiency", Quantity::RelativeEfficiency),
        ("nodes relative", Quantity::NodesRelative),
        ("nodes examined, thousands", Quantity::NodesThousands),
        ("total time", Quantity::TotalSeconds),
    ];
    q.iter()
        .find(|(prefix, _)| quantity.starts_with(prefix))
        .map(|(_, q)| *q)
        .ok_or_else(|| format!("unknown quantity '{quantity}'"))
}

/// How a file of curves reads: one row per curve, `lead` named columns, one column
/// `<prefix><count>` per processor count, then `trail` named columns.
struct CurveLayout {
    lead: &'static [&'static str],
    prefix: &'static str,
    trail: &'static [&'static str],
    /// A row's curve from its named cells (lead, then trail).
    row: fn(&[&str]) -> Result<Curve, String>,
}

/// What every point of one curve row shares.
struct Curve {
    item: String,
    series: String,
    quantity: Quantity,
    context: Vec<(String, String)>,
}

fn curves(file: &str, text: &str, layout: &CurveLayout) -> Result<Vec<Point>, ParseError> {
    let err = |line: usize, what: String| ParseError {
        file: file.to_string(),
        line,
        what,
    };
    let mut lines = data_lines(text);
    let (hn, head) = lines
        .next()
        .ok_or_else(|| err(1, "no header line".into()))?;
    let head: Vec<&str> = head.split('\t').collect();
    let (l, t) = (layout.lead.len(), layout.trail.len());
    if head.len() <= l + t || head[..l] != *layout.lead || head[head.len() - t..] != *layout.trail {
        return Err(err(
            hn,
            format!(
                "the header is not {}, {}<count>...{}",
                layout.lead.join(", "),
                layout.prefix,
                layout
                    .trail
                    .iter()
                    .map(|c| format!(", {c}"))
                    .collect::<String>()
            ),
        ));
    }
    let counts = &head[l..head.len() - t];
    let procs: Vec<usize> = counts
        .iter()
        .map(|h| h.strip_prefix(layout.prefix).and_then(|n| n.parse().ok()))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            err(
                hn,
                format!("processor columns are not all {}<count>", layout.prefix),
            )
        })?;
    let mut out = Vec::new();
    for (n, line) in lines {
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() != head.len() {
            return Err(err(
                n,
                format!("{} cells, the header has {}", cells.len(), head.len()),
            ));
        }
        let named: Vec<&str> = cells[..l]
            .iter()
            .chain(&cells[cells.len() - t..])
            .copied()
            .collect();
        let curve = (layout.row)(&named).map_err(|w| err(n, w))?;
        for (&p, cell) in procs.iter().zip(&cells[l..cells.len() - t]) {
            if let Some(value) = number(cell).map_err(|w| err(n, w))? {
                out.push(Point {
                    item: curve.item.clone(),
                    series: curve.series.clone(),
                    quantity: curve.quantity,
                    procs: p,
                    value,
                    context: curve.context.clone(),
                });
            }
        }
    }
    Ok(out)
}

/// Rezaie and Finkel's curves: figure, setup, quantity, series, then one column `N=k` per processor
/// count.
const REZAIE_FINKEL: CurveLayout = CurveLayout {
    lead: &["figure", "setup", "quantity", "series"],
    prefix: "N=",
    trail: &[],
    row: |c| {
        Ok(Curve {
            item: format!("figure {}", c[0]),
            series: c[3].to_string(),
            quantity: rf_quantity(c[2], c[3])?,
            context: vec![("setup".into(), c[1].to_string())],
        })
    },
};

/// The quantity of a Brockington and Schaeffer (1996) curve: figures 7 and 8 plot speedups, figure
/// 9 one overhead per curve (percent of the sequential time), named by the curve.
fn bs_quantity(quantity: &str, series: &str) -> Result<Quantity, String> {
    match (quantity, series) {
        ("speedup", _) => Ok(Quantity::Speedup),
        ("overhead_percent", "Search Overhead") => Ok(Quantity::SearchOverhead),
        ("overhead_percent", "Speculative Search") => Ok(Quantity::SpeculativeSearch),
        ("overhead_percent", "Parallelization Overhead") => Ok(Quantity::ParallelizationOverhead),
        ("overhead_percent", "Master Overhead") => Ok(Quantity::MasterOverhead),
        ("overhead_percent", "Total Overhead") => Ok(Quantity::TotalOverhead),
        _ => Err(format!(
            "unknown quantity '{quantity}' of series '{series}'"
        )),
    }
}

/// Brockington and Schaeffer's curves: figure, quantity, series, one column `n<k>` per processor
/// count, and the curve's description (`what`, kept as context).
const BROCKINGTON_SCHAEFFER: CurveLayout = CurveLayout {
    lead: &["figure", "quantity", "series"],
    prefix: "n",
    trail: &["what"],
    row: |c| {
        Ok(Curve {
            item: c[0].to_string(),
            series: c[2].to_string(),
            quantity: bs_quantity(c[1], c[2])?,
            context: vec![("what".into(), c[3].to_string())],
        })
    },
};
/// The two-PDP-11 thesis's position label from its row: "chess endgame position 1" is `end 1`,
/// "chess middle game position 48b" is `48b` (the thesis's own labels).
fn pdp11_position(program: &str) -> Option<String> {
    if let Some(n) = program.strip_prefix("chess endgame position ") {
        return Some(format!("end {n}"));
    }
    program
        .strip_prefix("chess middle game position ")
        .map(str::to_string)
}

/// The two-PDP-11 thesis's numbers (long format: one number per row): tables 5.1 and 5.2 as items
/// of one series per position and depth (`end 1 MAXD 8`, `31 MAXD 4`), on 2 processors; appendix
/// A's parallel runs read with confidence A or B (time over T0, dsub, dcomm) as item `appendix A`,
/// one series per position, depth, strategy and common depth (`end 1 MAXD 8, A CD 2`); and the
/// chapter 5 table of communication growth per unit of common depth (series `middle game,
/// A`). Rows of other tables (facts of the machines, single-machine times) and `NA` values give
/// no point.
fn two_pdp11(file: &str, text: &str) -> Result<Vec<Point>, ParseError> {
    let err = |line: usize, what: String| ParseError {
        file: file.to_string(),
        line,
        what,
    };
    let mut lines = data_lines(text);
    let (hn, head) = lines
        .next()
        .ok_or_else(|| err(1, "no header line".into()))?;
    let head: Vec<&str> = head.split('\t').collect();
    if head.len() != 9 || head[..2] != ["paper", "table"] {
        return Err(err(
            hn,
            "the header is not the long format (paper, table, ...)".into(),
        ));
    }
    let mut out = Vec::new();
    for (n, line) in lines {
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() != head.len() {
            return Err(err(
                n,
                format!("{} cells, the header has {}", cells.len(), head.len()),
            ));
        }
        let (table, program, config, quantity) = (cells[1], cells[2], cells[3], cells[5]);
        let quantity = match quantity {
            "total_increase_pct" => Quantity::TotalIncreasePct,
            "dsub_pct" => Quantity::DsubPct,
            "dcomm_pct" => Quantity::DcommPct,
            "comm_overhead_growth_per_unit_CD" => Quantity::CommGrowth,
            _ => continue,
        };
        let appendix = table.starts_with("Appendix A")
            && (cells[8].starts_with("conf A") || cells[8].starts_with("conf B"));
        let item = if table.starts_with("Table 5.1") {
            "table 5.1"
        } else if table.starts_with("Table 5.2") {
            "table 5.2"
        } else if appendix {
            "appendix A"
        } else if quantity == Quantity::CommGrowth {
            "chapter 5 communication growth"
        } else {
            continue;
        };
        let Some(value) = (if cells[6] == "NA" {
            None
        } else {
            number(cells[6]).map_err(|w| err(n, w))?
        }) else {
            continue;
        };
        let series = if quantity == Quantity::CommGrowth {
            let phase = program.strip_prefix("chess ").unwrap_or(program);
            let strategy = if config.contains("strategy A") {
                "A"
            } else {
                "B"
            };
            format!("{phase}, {strategy}")
        } else {
            let position = pdp11_position(program)
                .ok_or_else(|| err(n, format!("unknown position '{program}'")))?;
            let maxd = config
                .split_whitespace()
                .find_map(|w| w.strip_prefix("MAXD="))
                .ok_or_else(|| err(n, format!("no MAXD= in '{config}'")))?;
            let setting = |key: &str| {
                config
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix(key))
                    .ok_or_else(|| err(n, format!("no {key} in '{config}'")))
            };
            if item == "appendix A" {
                let strategy = if setting("VARCD=")? == "1" { "A" } else { "B" };
                format!("{position} MAXD {maxd}, {strategy} CD {}", setting("CD=")?)
            } else {
                format!("{position} MAXD {maxd}")
            }
        };
        out.push(Point {
            item: item.to_string(),
            series,
            quantity,
            procs: 2,
            value,
            context: vec![("configuration".into(), config.to_string())],
        });
    }
    Ok(out)
}

/// The layouts of the published files. A file names its own in a comment line
/// `# layout: NAME` (words after the name are a comment), so that the file, not its name, says how it reads.
const LAYOUTS: &[(&str, Reader)] = &[
    ("two-pdp11", |f, t| two_pdp11(f, t)),
    ("rezaie-finkel-curves", |f, t| curves(f, t, &REZAIE_FINKEL)),
    ("brockington-wide", |f, t| wide(f, t, &BROCKINGTON)),
    ("marsland-popowich-wide", |f, t| {
        wide(f, t, &MARSLAND_POPOWICH)
    }),
    ("brockington-schaeffer-curves", |f, t| {
        curves(f, t, &BROCKINGTON_SCHAEFFER)
    }),
];

/// A layout's reader: (file name for messages, text) to points.
type Reader = fn(&str, &str) -> Result<Vec<Point>, ParseError>;

/// Reads one file (`file` names it in messages) by the layout its `# layout:` line names.
///
/// # Errors
/// No layout line, an unknown layout, or a line the layout does not read.
pub fn parse(file: &str, text: &str) -> Result<Vec<Point>, ParseError> {
    let names = || {
        LAYOUTS
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some((line, name)) = text.lines().enumerate().find_map(|(i, l)| {
        l.strip_prefix("# layout:")
            .map(|rest| (i + 1, rest.split_whitespace().next().unwrap_or("")))
    }) else {
        return Err(ParseError {
            file: file.to_string(),
            line: 0,
            what: format!("no `# layout: NAME` line; name one of {}", names()),
        });
    };
    match LAYOUTS.iter().find(|(n, _)| *n == name) {
        Some((_, read)) => read(file, text),
        None => Err(ParseError {
            file: file.to_string(),
            line,
            what: format!(
                "unknown layout '{name}'; use one of {} (or add a reader to published.rs)",
                names()
            ),
        }),
    }
}

/// Every published point of every embedded file, read once per process.
///
/// # Errors
/// The first line of the files that does not read.
pub fn all() -> Result<&'static [Point], ParseError> {
    static ALL: std::sync::OnceLock<Result<Vec<Point>, ParseError>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for (name, text) in FILES {
            out.extend(parse(name, text)?);
        }
        Ok(out)
    })
    .as_deref()
    .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points() -> Vec<Point> {
        all().expect("the published files parse").to_vec()
    }

    fn count(points: &[Point], item: &str) -> usize {
        points.iter().filter(|p| p.item == item).count()
    }

    fn value(points: &[Point], item: &str, series: &str, q: Quantity, procs: usize) -> f64 {
        let found: Vec<f64> = points
            .iter()
            .filter(|p| p.item == item && p.series == series && p.quantity == q && p.procs == procs)
            .map(|p| p.value)
            .collect();
        assert_eq!(found.len(), 1, "{item} {series} {q:?} {procs}: {found:?}");
        found[0]
    }

    #[test]
    fn every_file_is_embedded_and_parses() {
        let names: Vec<&str> = FILES.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "brockington_schaeffer_figures",
                "brockington_tables",
                "marsland_popowich_tables",
                "rezaie_finkel_figures",
                "two_pdp11_tables"
            ]
        );
        let p = points();
        // The two-PDP-11 thesis: table 5.1's 20 rows of three numbers, table 5.2's 19 legible
        // cells, the four growth factors.
        assert_eq!(count(&p, "table 5.1"), 60);
        assert_eq!(count(&p, "table 5.2"), 19);
        assert_eq!(count(&p, "chapter 5 communication growth"), 4);
        let a = value(
            &p,
            "appendix A",
            "end 4 MAXD 9, A CD 0",
            Quantity::TotalIncreasePct,
            2,
        );
        assert!((a - 81.0).abs() < 1e-12);
        assert!(count(&p, "appendix A") > 300);
        let t = value(&p, "table 5.1", "55a MAXD 5", Quantity::TotalIncreasePct, 2);
        assert!((t + 3.0).abs() < 1e-12);
        let g = value(
            &p,
            "chapter 5 communication growth",
            "middle game, B",
            Quantity::CommGrowth,
            2,
        );
        assert!((g - 5.0).abs() < 1e-12);
        // Rezaie and Finkel: 6 curves of 11 points in figures 5, 6 and 7; two in 8; three in 9.
        // Brockington and Schaeffer (1996) adds 4 curves of 4 points to figure 7, 3 to figure 8 and
        // 5 to figure 9.
        let figures_7_to_9 = |p: &&Point| p.context("what").is_some();
        for fig in ["figure 5", "figure 6", "figure 7"] {
            assert_eq!(
                count(&p, fig) - 16 * usize::from(fig == "figure 7"),
                66,
                "{fig}"
            );
        }
        assert_eq!(count(&p, "figure 8"), 22 + 12);
        assert_eq!(count(&p, "figure 9"), 33 + 20);
        assert_eq!(p.iter().filter(figures_7_to_9).count(), 16 + 12 + 20);
        assert_eq!(count(&p, "figure 13"), 44);
        // Thesis table 6.1: 4 rows of 7 numbers and the 1-processor time.
        assert_eq!(count(&p, "table 6.1"), 29);
        // Table 6.3: 4 depths x (5 times + 4 speedups).
        assert_eq!(count(&p, "table 6.3"), 36);
        // Table 6.8: 15 rows of speedup and total overhead.
        assert_eq!(count(&p, "table 6.8"), 30);
        // Marsland and Popowich table 2: 4 rows of 5 numbers.
        assert_eq!(count(&p, "Marsland and Popowich table 2"), 20);
    }

    #[test]
    fn spot_values_and_quantities() {
        let p = points();
        let q = Quantity::RelativeEfficiency;
        assert!((value(&p, "figure 5", "MWF", q, 20) - 0.97).abs() < 1e-12);
        assert!((value(&p, "figure 18", "DMWF", q, 12) - 0.42).abs() < 1e-12);
        let n = value(&p, "figure 6", "treesplit", Quantity::NodesRelative, 20);
        assert!((n - 2.75).abs() < 1e-12);
        let s = value(
            &p,
            "figure 9",
            "sort time of MWF EC-sorting",
            Quantity::SortSeconds,
            1,
        );
        assert!((s - 76.46).abs() < 1e-12);
        let t = value(
            &p,
            "figure 16",
            "MWF total time",
            Quantity::TotalSeconds,
            20,
        );
        assert!((t - 1487.04).abs() < 1e-9);
        let k = value(
            &p,
            "figure 12",
            "MWF EC-sorting",
            Quantity::NodesThousands,
            2,
        );
        assert!((k - 208.95).abs() < 1e-9);
        let y = value(
            &p,
            "table 6.4",
            "YBWC",
            Quantity::SynchronizationOverhead,
            64,
        );
        assert!((y - 109.5).abs() < 1e-12);
        let a = value(&p, "table 6.1", "APHID", Quantity::Speedup, 64);
        assert!((a - 37.44).abs() < 1e-12);
        // The thesis's test-set totals per position: 53526 s over 20 Othello positions, 71596
        // s over 24 chess positions.
        let o = value(&p, "table 6.1", "APHID", Quantity::Seconds, 1);
        assert!((o - 53526.0 / 20.0).abs() < 1e-9);
        let c = value(&p, "table 6.7", "APHID", Quantity::Seconds, 1);
        assert!((c - 71596.0 / 24.0).abs() < 1e-9);
        let row = p
            .iter()
            .find(|x| x.item == "table 6.3" && x.procs == 32 && x.context("depth") == Some("12"))
            .expect("table 6.3 at 12 ply");
        assert_eq!(row.quantity, Quantity::Speedup);
        assert!((row.value - 6.44).abs() < 1e-12);
        // Marsland and Popowich table 4 prints minutes: read as seconds.
        let i = p
            .iter()
            .find(|x| {
                x.item == "Marsland and Popowich table 4"
                    && x.context("position") == Some("I")
                    && x.procs == 2
                    && x.quantity == Quantity::Seconds
            })
            .expect("position I on 2");
        assert!((i.value - 58.0 * 60.0).abs() < 1e-9);
        // Brockington and Schaeffer (1996): figure 7 at 8 ply on 16, figure 9's overheads by their
        // curve's name.
        assert!((value(&p, "figure 7", "8 ply", Quantity::Speedup, 16) - 6.02).abs() < 1e-12);
        assert!((value(&p, "figure 8", "Large", Quantity::Speedup, 4) - 1.53).abs() < 1e-12);
        let so = value(
            &p,
            "figure 9",
            "Search Overhead",
            Quantity::SearchOverhead,
            4,
        );
        assert!((so - 72.98).abs() < 1e-12);
        let m = value(
            &p,
            "figure 9",
            "Master Overhead",
            Quantity::MasterOverhead,
            16,
        );
        assert!((m - 16.62).abs() < 1e-12);
    }

    #[test]
    fn bad_lines_name_the_file_and_line() {
        let text = "# layout: marsland-popowich-wide\ntable\tdepth\ttt\tstorage\tposition\tprocs\tleaf_nodes\ttime\tspeedup\tsearch_overhead_pct\ttime_overhead_pct\n2\t5\tnone\t-\tmean\t1\tmany\t1\t1\t0\t0\n";
        let e = parse("marsland_popowich_tables", text).expect_err("not a number");
        assert_eq!(e.line, 3);
        assert!(e.to_string().contains("'many' is not a number"), "{e}");
        let e = parse(
            "rezaie_finkel_figures",
            "# layout: rezaie-finkel-curves\nfigure\tsetup\tquantity\tseries\tN=1\n5\ts\tspeed\tX\t1\n",
        )
        .expect_err("unknown quantity");
        assert!(e.what.contains("unknown quantity"), "{e}");
        assert!(parse("other", "").is_err());
        let e = parse("other", "# layout: tables\n").expect_err("no such layout");
        assert_eq!(e.line, 1);
        assert!(e.what.contains("unknown layout 'tables'"), "{e}");
        // The layout line, not the file's name, chooses the reader.
        let renamed = format!(
            "# layout: rezaie-finkel-curves\n{}",
            "figure\tsetup\tquantity\tseries\tN=1\n5\ts\tspeed\tX\t1\n"
        );
        let e = parse("marsland_popowich_tables", &renamed).expect_err("read as curves");
        assert!(e.what.contains("unknown quantity"), "{e}");
        let e = parse(
            "brockington_schaeffer_figures",
            "# layout: brockington-schaeffer-curves\nfigure\tquantity\tseries\tn4\twhat\nfigure 9\toverhead_percent\tIdle\t3\tx\n",
        )
        .expect_err("unknown overhead");
        assert!(e.what.contains("unknown quantity"), "{e}");
    }
}
