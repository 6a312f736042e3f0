//! `runner experiment thesis-ch4-model`: the figures 4.2-4.7 of the analytical model
//! ([`super::model`]), the speedups at 10^7 sequential leaves beside the thesis's, and a
//! simulated comparison of a synchronous and an asynchronous algorithm on synthetic trees of
//! the same branching factors (perfectly ordered, then imperfectly ordered).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};
use serde_json::json;

use super::catalog::{Experiment, Settings};
use super::flags::{self, Flags};
use super::model::{Point, Sync, Tree, curve, efficiency_at};
use super::{Planned, Provenance, Scope};
use crate::compare::report::Addendum;
use crate::compare::svg::{self, Chart, Line, escape};
use crate::compare::{self, table};

/// Branching factors of the thesis (chess, Othello, checkers).
const BRANCHING: [f64; 3] = [38.0, 10.0, 3.0];

/// The thesis's speedups at 10^7 leaves on 256 processors for b = 38, 10, 3 (sections 4.4.1,
/// 4.4.2, 4.5.1, 4.5.2).
const PUBLISHED: [(Sync, Tree, [f64; 3]); 4] = [
    (Sync::Synchronous, Tree::Perfect, [222.0, 200.0, 91.0]),
    (Sync::Synchronous, Tree::Realistic, [71.0, 67.0, 22.0]),
    (Sync::Asynchronous, Tree::Perfect, [94.0, 161.0, 133.0]),
    (Sync::Asynchronous, Tree::Realistic, [92.0, 145.0, 121.0]),
];

/// The synthetic trees of the simulated part: perfectly ordered (q = 1) and imperfectly
/// ordered (q = 0.9), with the thesis's branching factors.
const TREES: &str =
    "# Synthetic trees for thesis-ch4-model (games::synthetic): the chapter 4 branching factors,
# perfectly ordered (q=1, the perfect critical tree's shape) and imperfectly ordered (q=0.9).
# Parameters chosen by this repository; no external source.
b=38 d=4 q=1 noise=0 seed=1 path=-
b=10 d=7 q=1 noise=0 seed=2 path=-
b=3 d=14 q=1 noise=0 seed=3 path=-
b=38 d=4 q=0.9 noise=50 seed=4 path=-
b=10 d=7 q=0.9 noise=50 seed=5 path=-
b=3 d=14 q=0.9 noise=50 seed=6 path=-
";

/// The file of the synthetic trees in the experiment's folder.
const TREES_FILE: &str = "synthetic_trees.txt";

/// The simulated comparison: the experiment's flags on the synthetic trees written into
/// `out`, into `out/simulated`.
#[must_use]
pub fn planned(settings: &Settings, scope: &Scope, out: &Path) -> Planned {
    let mut flags = settings.merged(&Flags::new(), scope.quick);
    let trees = out.join(TREES_FILE).display().to_string();
    flags.insert("testset".into(), toml::Value::String(trees));
    Planned::new(String::new(), flags, out.join("simulated"))
}

fn name(sync: Sync, tree: Tree) -> &'static str {
    match (sync, tree) {
        (Sync::Synchronous, Tree::Perfect) => "synchronous, perfect critical tree",
        (Sync::Synchronous, Tree::Realistic) => "synchronous, realistic critical tree",
        (Sync::Asynchronous, Tree::Perfect) => "asynchronous, perfect critical tree",
        (Sync::Asynchronous, Tree::Realistic) => "asynchronous, realistic critical tree",
    }
}

fn line(label: String, points: &[Point]) -> Line {
    Line {
        name: label,
        points: points
            .iter()
            .map(|p| svg::Point::bare(p.sequential.log10(), p.efficiency))
            .collect(),
    }
}

/// Runs the experiment into `out`; returns where its simulated comparison's numbers come from.
pub fn run(exp: &Experiment, settings: &Settings, out: &Path, scope: &Scope) -> Result<Provenance> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let max = 1e9;
    let mut figures = Vec::new();
    let mut fig = 2;
    for sync in [Sync::Synchronous, Sync::Asynchronous] {
        for tree in [Tree::Perfect, Tree::Realistic] {
            let mut lines = Vec::new();
            for n in [16, 256] {
                for b in BRANCHING {
                    lines.push(line(format!("n={n}, b={b}"), &curve(b, n, sync, tree, max)));
                }
            }
            figures.push((
                format!("figure4.{fig}.svg"),
                format!("Figure 4.{fig}: {}", name(sync, tree)),
                lines,
            ));
            fig += 1;
        }
    }
    for tree in [Tree::Perfect, Tree::Realistic] {
        let mut lines = Vec::new();
        for sync in [Sync::Synchronous, Sync::Asynchronous] {
            for b in BRANCHING {
                let s = if sync == Sync::Synchronous {
                    "sync"
                } else {
                    "async"
                };
                lines.push(line(format!("{s}, b={b}"), &curve(b, 256, sync, tree, max)));
            }
        }
        let t = if tree == Tree::Perfect {
            "perfect"
        } else {
            "realistic"
        };
        figures.push((
            format!("figure4.{fig}.svg"),
            format!("Figure 4.{fig}: comparing the models on the {t} critical tree, n=256"),
            lines,
        ));
        fig += 1;
    }
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>{n}</title>\
         <style>body{{font-family:sans-serif;margin:2em;max-width:1200px}}table{{border-collapse:collapse;font-size:12px}}\
         td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}td:first-child,th:first-child{{text-align:left}}th{{background:#f0f0f0}}figure{{display:inline-block;margin:1em}}</style></head><body>\
         <h1>{n}: {r}</h1><p>{w}. Leaf-evaluation model of thesis chapter 4 (see lab/src/experiment/model.rs for every assumption). \
         x axis: log10 of the sequential leaves of the iterated search; y axis: efficiency (speedup / n).</p>\n",
        n = escape(&exp.name),
        r = escape(&exp.reproduces),
        w = escape(&exp.what)
    );
    html.push_str(&crate::compare::report::environment_html(
        &crate::compare::environment::Environment::now(crate::cli::BackendKind::Sim, None),
    ));
    let head = ["model", "b", "ours (speedup)", "thesis (speedup)"];
    let mut rows = Vec::new();
    let mut published_json = Vec::new();
    for (sync, tree, numbers) in PUBLISHED {
        for (b, thesis) in BRANCHING.iter().zip(numbers) {
            let ours = efficiency_at(&curve(*b, 256, sync, tree, max), 1e7).map(|e| e * 256.0);
            rows.push(vec![
                name(sync, tree).to_string(),
                b.to_string(),
                ours.map_or_else(|| "-".into(), |s| format!("{s:.0}")),
                format!("{thesis:.0}"),
            ]);
            published_json
                .push(json!({"model": name(sync, tree), "b": b, "ours": ours, "thesis": thesis}));
        }
    }
    println!("Speedups at 10^7 sequential leaves on 256 processors:");
    print!("{}", table::text(&head, &rows));
    let _ = write!(
        html,
        "<h2>Speedups at 10^7 sequential leaves, n = 256</h2>{}",
        table::html(&head, &rows)
    );
    for (file, caption, lines) in &figures {
        let mut chart = Chart::new(caption, "log10 sequential leaves", "efficiency");
        chart.y_range = Some((0.0, 1.0));
        let svg = svg::chart(&chart, lines);
        std::fs::write(out.join(file), &svg).with_context(|| format!("writing {file}"))?;
        let _ = writeln!(
            html,
            "<figure>{svg}<figcaption>{}</figcaption></figure>",
            escape(caption)
        );
    }
    std::fs::write(
        out.join("model.json"),
        format!("{:#}\n", json!({"at_1e7_n256": published_json})),
    )?;
    // The simulated part.
    let trees = out.join(TREES_FILE);
    std::fs::write(&trees, TREES).with_context(|| format!("writing {}", trees.display()))?;
    let mut provenance = Provenance::default();
    let _ = write!(html, "<h2>Simulated runs on synthetic trees</h2>");
    let Planned {
        flags,
        dir,
        command,
        ..
    } = planned(settings, scope, out);
    println!("\n$ {command}");
    let mut plan = flags::plan(&flags, &dir)?;
    scope.fit(&mut plan);
    let addendum = Addendum {
        title: format!("{}: simulated runs on synthetic trees", exp.name),
        html: "<p>delaysplit (YBW) is the synchronous algorithm, aphid the asynchronous one. Lines 4-6 of the test set are perfectly ordered trees (the perfect critical tree's shape), lines 7-9 imperfectly ordered ones.</p>".into(),
        json: json!({"name": exp.name}),
        published: Vec::new(),
    };
    let outcome = compare::execute(&plan, &command, &addendum)?;
    provenance.add(&outcome);
    let _ = write!(
        html,
        "<p><a href=\"simulated/report.html\">Simulated comparison</a>: <code>{}</code></p>{}",
        escape(&command),
        table::html(
            &table::HEAD,
            &table::summary_rows(&outcome.summaries, table::Average::PerPosition)
        )
    );
    html.push_str("</body></html>\n");
    let report = out.join("report.html");
    std::fs::write(&report, html).with_context(|| format!("writing {}", report.display()))?;
    println!("report: {}", report.display());
    Ok(provenance)
}
