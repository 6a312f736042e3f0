//! The published numbers beside ours as text: `published_vs_ours.csv` (one row per
//! comparison) and markdown sections per item (the verdict lines, a table per quantity with
//! one row per series and processor count, links to the item's plots), used by
//! `published_vs_ours.md` and the results page (`index.rs`); [`write`] saves them with
//! `verdict.json`.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};

use super::verdict::{Comparison, Record, Verdict};
use crate::compare::report::csv_field as field;

/// The CSV head of `published_vs_ours.csv`.
pub const CSV_HEAD: &str = "item,quantity,series,published_series,procs,published,ours,difference";

/// `published_vs_ours.csv`.
#[must_use]
pub fn csv(comparisons: &[Comparison]) -> String {
    let mut out = format!("{CSV_HEAD}\n");
    for c in comparisons {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            field(&c.item),
            c.quantity.name(),
            field(&c.series),
            field(&c.published_series),
            c.procs,
            c.published,
            c.ours,
            c.ours - c.published
        );
    }
    out
}

/// A number for a table: three significant decimals for small values, fewer for large.
#[must_use]
pub fn num(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 10.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// The verdict as one line of text.
#[must_use]
pub fn verdict_line(v: &Verdict) -> String {
    let tau = v
        .kendall_tau
        .map_or_else(|| "n/a (fewer than two ranked series)".to_string(), num);
    format!(
        "{} {}: Kendall tau-b at N={} {tau}; mean |ours - published| {} (largest {}, {} points)",
        v.item,
        v.quantity.name(),
        v.kendall_tau_at,
        num(v.mean_abs_diff),
        num(v.max_abs_diff),
        v.n_points
    )
}

/// The file name stem of an item's plots: "figure 5" is `figure-5`.
#[must_use]
pub fn slug(item: &str) -> String {
    let mut out = String::new();
    for c in item.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The items of `record` in order of first appearance.
fn items(record: &Record) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for c in &record.comparisons {
        if !out.contains(&c.item.as_str()) {
            out.push(&c.item);
        }
    }
    out
}

/// Markdown sections, one per item, with `heading` hashes; plot links are prefixed with
/// `link` (the experiment's folder as seen from the page, "" beside it).
#[must_use]
pub fn sections(record: &Record, heading: &str, link: &str) -> String {
    let mut out = super::claims::markdown(&record.claims);
    for item in items(record) {
        let _ = writeln!(out, "{heading} {item}\n");
        for v in record.verdicts.iter().filter(|v| v.item == item) {
            let _ = writeln!(out, "- {}", verdict_line(v));
        }
        out.push('\n');
        let plots: Vec<&String> = record
            .svgs
            .iter()
            .filter(|s| {
                let stem = slug(item);
                s.as_str() == format!("{stem}.svg") || s.starts_with(&format!("{stem}-"))
            })
            .collect();
        for p in &plots {
            let _ = write!(out, "![{p}]({link}{p}) ");
        }
        if !plots.is_empty() {
            out.push_str("\n\n");
        }
        let mut quantities = Vec::new();
        for c in record.comparisons.iter().filter(|c| c.item == item) {
            if !quantities.contains(&c.quantity) {
                quantities.push(c.quantity);
            }
        }
        for q in quantities {
            let _ = writeln!(
                out,
                "{}:\n\n| series (ours) | published series | N | published | ours | difference |\n| --- | --- | ---: | ---: | ---: | ---: |",
                q.label()
            );
            for c in record
                .comparisons
                .iter()
                .filter(|c| c.item == item && c.quantity == q)
            {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} |",
                    c.series,
                    c.published_series,
                    c.procs,
                    num(c.published),
                    num(c.ours),
                    num(c.ours - c.published)
                );
            }
            out.push('\n');
        }
    }
    if !record.details.is_empty() {
        // The details' own headings ("## ") take the level of this section's.
        let details = format!("\n{}", record.details).replace("\n## ", &format!("\n{heading} "));
        out.push_str(details.trim_start_matches('\n'));
        out.push('\n');
    }
    if !record.not_compared.is_empty() {
        let _ = writeln!(out, "Not compared:\n");
        for n in &record.not_compared {
            let _ = writeln!(out, "- {n}");
        }
        out.push('\n');
    }
    out
}

/// `published_vs_ours.md`.
#[must_use]
pub fn page(record: &Record) -> String {
    let mut out = format!(
        "# {}: {}, published against ours\n\n{}\n\n`{}` (commit {})\n\n",
        record.experiment, record.reproduces, record.what, record.command, record.commit
    );
    if !record.cells_built_by.is_empty() {
        let _ = writeln!(
            out,
            "Cells computed by another build of runner (build.txt: {}), assembled here.\n",
            record.cells_built_by.join(", ")
        );
    }
    out.push_str(&sections(record, "##", ""));
    out
}

/// Writes `verdict.json`, `published_vs_ours.md` and `published_vs_ours.csv` into `out`.
pub fn write(out: &Path, record: &Record) -> Result<()> {
    let save = |name: &str, text: String| -> Result<()> {
        let path = out.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    };
    save(
        "verdict.json",
        format!("{:#}\n", serde_json::to_value(record)?),
    )?;
    save("published_vs_ours.md", page(record))?;
    save("published_vs_ours.csv", csv(&record.comparisons))?;
    if !record.verdicts.is_empty() {
        println!(
            "\npublished against ours ({}):",
            out.join("published_vs_ours.md").display()
        );
        for v in &record.verdicts {
            println!("  {}", verdict_line(v));
        }
    }
    for n in &record.not_compared {
        println!("  not compared: {n}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn slugs_keep_letters_digits_and_dots_and_join_the_rest_with_one_hyphen() {
        assert_eq!(slug("figure 5"), "figure-5");
        assert_eq!(slug("table 6.1"), "table-6.1");
        assert_eq!(slug("table 6.8, chess (Crafty)"), "table-6.8-chess-crafty");
    }
}
