//! `runner experiment` against the published numbers, end to end: every Rezaie and Finkel
//! experiment under `--quick` writes its comparison, `verdict.json` (fields, non-empty comparisons,
//! finite numbers), `published_vs_ours.md` and `.csv`, and one overlay plot per published
//! item with a dashed published curve and a solid curve of ours, in the same colour, per
//! series; `--all` runs every experiment and writes the results page with a section each, and
//! refuses an output folder it cannot write before running anything; a run into a folder with
//! a results page rebuilds the page keeping the other experiments.

// `json_of` serves the tests of commands that print JSON.
#[allow(dead_code)]
use crate::common;
use crate::markup;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::runner;
use markup::balanced;
use serde_json::Value;

/// One `runner experiment --all --quick` for the whole test binary, so that every quick
/// experiment runs once in the test suite: its folder and what it printed. The tests read
/// their experiment's folder from it.
fn all_quick() -> &'static (PathBuf, String) {
    static ALL: OnceLock<(PathBuf, String)> = OnceLock::new();
    ALL.get_or_init(|| {
        let dir = temp_dir("all");
        let o = runner(&[
            "experiment",
            "--all",
            "--quick",
            "--out",
            dir.to_str().expect("utf-8"),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (dir, String::from_utf8_lossy(&o.stdout).into_owned())
    })
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("runner-exp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `runner experiment NAME --quick --assemble --out OUT`: the pages from the cells in `out`.
fn assemble_quick(name: &str, out: &Path) {
    let o = runner(&[
        "experiment",
        name,
        "--quick",
        "--assemble",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Copies the folder `from` (files and folders) to `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("a readable folder") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("a copy");
        }
    }
}

/// The `stroke` colours of the polylines of `svg` with (or without) a `class` attribute.
fn strokes(svg: &str, dashed: bool) -> Vec<String> {
    svg.split("<polyline ")
        .skip(1)
        .filter(|p| p.starts_with("class=\"published-curve\"") == dashed)
        .filter(|p| dashed || !p.starts_with("class="))
        .map(|p| {
            let at = p.find("stroke=\"").expect("a stroke") + 8;
            p[at..at + 7].to_string()
        })
        .collect()
}

fn check(name: &str) {
    let out = all_quick().0.join(name);
    // One comparison writes results.csv in the experiment's folder; variants each in theirs.
    let csv_path = std::iter::once(out.clone())
        .chain(
            std::fs::read_dir(&out)
                .expect("the experiment's folder")
                .filter_map(|e| e.ok().map(|e| e.path())),
        )
        .map(|d| d.join("results.csv"))
        .find(|p| p.is_file())
        .expect("a results.csv");
    let csv = std::fs::read_to_string(&csv_path).expect("results.csv");
    assert!(csv.starts_with("line,series,procs,seed,"), "{name}");
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("verdict.json")).expect("verdict.json"),
    )
    .expect("verdict.json parses");
    assert_eq!(json["experiment"], name);
    assert_eq!(json["quick"], true);
    for key in ["command", "commit", "preset", "reproduces"] {
        assert!(
            json[key].as_str().is_some_and(|s| !s.is_empty()),
            "{name}: {key}"
        );
    }
    assert!(json["command"].as_str().is_some_and(|c| c.contains(name)));
    assert!(!json["seeds"].as_array().expect("seeds").is_empty());
    let comparisons = json["comparisons"].as_array().expect("comparisons");
    assert!(!comparisons.is_empty(), "{name}: nothing compared");
    for c in comparisons {
        for key in ["published", "ours"] {
            assert!(c[key].as_f64().is_some_and(f64::is_finite), "{name}: {c}");
        }
        for key in ["item", "series", "published_series", "quantity"] {
            assert!(c[key].as_str().is_some(), "{name}: {key} in {c}");
        }
        assert!(c["procs"].as_u64().is_some_and(|n| n >= 1));
    }
    let verdicts = json["verdicts"].as_array().expect("verdicts");
    assert!(!verdicts.is_empty());
    for v in verdicts {
        for key in ["mean_abs_diff", "max_abs_diff"] {
            assert!(v[key].as_f64().is_some_and(f64::is_finite), "{name}: {v}");
        }
        assert!(v["kendall_tau"].is_null() || v["kendall_tau"].as_f64().is_some());
        assert!(v["n_points"].as_u64().is_some_and(|n| n > 0));
        assert!(v["kendall_tau_at"].as_u64().is_some_and(|n| n >= 1));
    }
    // The report shows the published numbers the experiment is held against, as tables.
    // (With variants, in each variant's report; the experiment's own page links them.)
    let html =
        std::fs::read_to_string(csv_path.with_file_name("report.html")).expect("report.html");
    assert!(
        html.contains("<table class=\"published\"><caption>figure "),
        "{name}: no published table in the report"
    );
    let md = std::fs::read_to_string(out.join("published_vs_ours.md")).expect("markdown");
    assert!(md.contains("| published | ours | difference |"), "{name}");
    let side = std::fs::read_to_string(out.join("published_vs_ours.csv")).expect("csv");
    assert_eq!(side.lines().count(), comparisons.len() + 1);
    // Per item a main overlay, and over the item's plots (the elapsed one aside) per
    // compared curve a dashed published line and a solid one of ours in its colour.
    let svgs: Vec<&str> = json["svgs"]
        .as_array()
        .expect("svgs")
        .iter()
        .map(|s| s.as_str().expect("a name"))
        .collect();
    let items: BTreeSet<&str> = comparisons
        .iter()
        .map(|c| c["item"].as_str().expect("item"))
        .collect();
    for item in items {
        let stem = item.replace(' ', "-");
        assert!(
            svgs.contains(&format!("{stem}.svg").as_str()),
            "{name} {item}"
        );
        let curves: BTreeSet<(&str, &str, &str)> = comparisons
            .iter()
            .filter(|c| c["item"] == item)
            .map(|c| {
                (
                    c["series"].as_str().expect("s"),
                    c["published_series"].as_str().expect("p"),
                    c["quantity"].as_str().expect("q"),
                )
            })
            .collect();
        let mut drawn = 0;
        for file in svgs.iter().filter(|s| {
            (**s == format!("{stem}.svg") || s.starts_with(&format!("{stem}-")))
                && !s.ends_with("-elapsed.svg")
        }) {
            let svg = std::fs::read_to_string(out.join(file))
                .unwrap_or_else(|e| panic!("{name}: {file}: {e}"));
            let (dashed, solid) = (strokes(&svg, true), strokes(&svg, false));
            assert!(!dashed.is_empty(), "{name} {file}");
            assert_eq!(
                dashed, solid,
                "{name} {file}: the same colours in the same order"
            );
            assert!(svg.contains("stroke-dasharray") && svg.ends_with("</svg>\n"));
            drawn += dashed.len();
        }
        assert_eq!(drawn, curves.len(), "{name} {item}");
    }
}

#[test]
fn rf_fig5_6() {
    check("rf-fig5-6");
}

#[test]
fn rf_fig7() {
    check("rf-fig7");
}

#[test]
fn rf_fig8_10() {
    check("rf-fig8-10");
}

#[test]
fn rf_fig11_12() {
    check("rf-fig11-12");
}

#[test]
fn rf_fig13_15() {
    check("rf-fig13-15");
}

#[test]
fn rf_fig16_18() {
    check("rf-fig16-18");
}

#[test]
fn all_refuses_an_output_folder_it_cannot_write() {
    let dir = temp_dir("all-bad");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").expect("a file");
    let bad = file.join("results");
    let o = runner(&[
        "experiment",
        "--all",
        "--quick",
        "--out",
        bad.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--out") && err.lines().count() == 1, "{err}");
    // Nothing ran: no comparison printed.
    assert!(!String::from_utf8_lossy(&o.stdout).contains("=="));
    let o = runner(&["experiment", "--all", "rf-fig7"]);
    assert_eq!(o.status.code(), Some(2), "--all and a name conflict");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_into_a_folder_with_a_results_page_rebuilds_it() {
    let dir = temp_dir("page");
    // The first line of a generated page (lab/src/experiment/README.md).
    std::fs::write(
        dir.join("README.md"),
        "<!-- generated by runner experiment from */verdict.json; rerun it rather than edit -->\n",
    )
    .expect("a page");
    // The quick run's folders, assembled again (computing nothing) into a folder with a page.
    for name in ["rf-fig16-18", "rf-fig7"] {
        copy_dir(&all_quick().0.join(name), &dir.join(name));
        assemble_quick(name, &dir.join(name));
    }
    let page = std::fs::read_to_string(dir.join("README.md")).expect("the page");
    for section in [
        "## rf-fig7",
        "## rf-fig16-18",
        "![figure-17.svg](rf-fig16-18/figure-17.svg)",
    ] {
        assert!(page.contains(section), "{section} missing:\n{page}");
    }
    // Catalog order: figure 7 before figures 16-18.
    assert!(page.find("## rf-fig7") < page.find("## rf-fig16-18"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn all_runs_every_experiment_and_writes_the_results_page() {
    let (dir, stdout) = all_quick();
    // The wall time beside the cells' summed time, printed and on the page.
    assert!(
        stdout.lines().any(|l| l.starts_with("--all: wall time ")
            && l.contains(" cells computed, ")
            && l.contains(" s of cell time summed")),
        "{stdout}"
    );
    let all: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("all.json")).expect("all.json"))
            .expect("parses");
    assert!(
        all["wall_seconds"].as_f64().is_some_and(|s| s > 0.0),
        "{all}"
    );
    assert!(
        all["computed"]["seconds"].as_f64().is_some_and(|s| s > 0.0),
        "{all}"
    );
    let list = runner(&["experiment", "--list"]);
    let names: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .skip(1)
        // A name line starts with two spaces, its description line with more.
        .filter_map(|l| l.strip_prefix("  ").filter(|r| !r.starts_with(' ')))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    assert!(names.len() >= 14, "{names:?}");
    let page = std::fs::read_to_string(dir.join("README.md")).expect("the results page");
    assert!(page.starts_with("<!-- generated by runner experiment"));
    assert!(
        page.contains(
            "The last run of every experiment here, `runner experiment --all --quick --jobs "
        ),
        "{page}"
    );
    for name in &names {
        let json: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(name).join("verdict.json")).expect("verdict.json"),
        )
        .expect("parses");
        assert_eq!(json["experiment"], name.as_str());
        assert!(json["wall_seconds"].as_f64().is_some_and(|s| s > 0.0));
        assert!(
            page.contains(&format!("\n## {name}\n")),
            "{name} has no section"
        );
        assert!(page.contains(&format!("`runner experiment {name} --quick --out ")));
    }
    // Brockington and Schaeffer's experiment checks the text's claims, shown on the page, and reads
    // figure 8 per third of the positions and figure 9 from the summed runs.
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("bs96-fig7-9").join("verdict.json"))
            .expect("verdict.json"),
    )
    .expect("parses");
    let claims = json["claims"].as_array().expect("claims");
    assert_eq!(claims.len(), 6, "{claims:?}");
    for c in claims {
        assert!(c["holds"].is_boolean() && c["ours"].as_str().is_some_and(|o| !o.is_empty()));
    }
    assert!(page.contains("| claim | ours | holds |"));
    let series: BTreeSet<&str> = json["comparisons"]
        .as_array()
        .expect("comparisons")
        .iter()
        .filter_map(|c| c["series"].as_str())
        .collect();
    for s in [
        "aphid (depth8, smallest third)",
        "aphid (depth8, summed)",
        "aphid (depth5)",
    ] {
        assert!(series.contains(s), "{series:?}");
    }
}

/// `thesis-t6.8 --quick`, its shared-table Othello row alone on one position, into `out`.
fn quick_shared_othello(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "experiment",
        "thesis-t6.8",
        "--quick",
        "--variant",
        "othello-shared",
        "--positions",
        "1",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    runner(&args)
}

#[test]
fn variant_and_positions_narrow_a_run_and_are_recorded() {
    let dir = temp_dir("scope");
    let out = dir.join("t68");
    let scoped = || {
        let o = quick_shared_othello(&out, &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    scoped();
    let ran: Vec<String> = std::fs::read_dir(&out)
        .expect("the folder")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(ran, ["othello-shared"], "only the named variant runs");
    // The experiment's own page, which the results page links, lists the variant that ran.
    let index = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(index.contains("othello-shared/report.html"), "{index}");
    let verdict_of = || -> Value {
        serde_json::from_str(
            &std::fs::read_to_string(out.join("verdict.json")).expect("verdict.json"),
        )
        .expect("json")
    };
    let verdict = verdict_of();
    let command = verdict["command"].as_str().expect("command");
    assert!(
        command.contains("--variant othello-shared") && command.contains("--positions 1"),
        "{command}"
    );
    let compare = verdict["compare_commands"][0]
        .as_str()
        .expect("compare command");
    assert!(compare.contains("--positions 1"), "{compare}");
    // The cells' cost is the run's; a resumed run computes nothing and reports the same cost.
    let cost = verdict["cost"].clone();
    assert!(cost["seconds"].as_f64().is_some_and(|s| s > 0.0), "{cost}");
    assert_eq!(cost["untimed"], 0, "{cost}");
    scoped();
    assert_eq!(
        verdict_of()["cost"],
        cost,
        "a resumed run keeps the cells' cost"
    );
    let o = runner(&[
        "experiment",
        "thesis-t6.8",
        "--variant",
        "origin2000",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.lines().count() == 1 && err.contains("checkers-local"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--assemble` rebuilds an experiment's pages from finished cells of another build, naming
/// it, and computes nothing: another build's folder is otherwise refused, and a missing cell
/// is an error.
#[test]
fn assemble_builds_the_pages_from_another_builds_cells_and_computes_nothing() {
    let dir = temp_dir("assemble");
    let out = dir.join("t68");
    let run =
        |assemble: bool| quick_shared_othello(&out, if assemble { &["--assemble"] } else { &[] });
    let o = run(true);
    assert_eq!(o.status.code(), Some(2), "nothing to assemble yet");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--assemble"));
    assert!(run(false).status.success());
    let cells = out.join("othello-shared").join("cells.jsonl");
    let verdict_of = || -> Value {
        serde_json::from_str(&std::fs::read_to_string(out.join("verdict.json")).expect("read"))
            .expect("json")
    };
    let computed = verdict_of();
    // The cells now belong to another build.
    let stamp = out.join("othello-shared").join("build.txt");
    std::fs::write(&stamp, "0123456789abcdef\n").expect("stamp");
    let o = run(false);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.lines().count() == 1 && err.contains("--assemble"),
        "{err}"
    );
    let before = std::fs::read_to_string(&cells).expect("cells");
    let o = run(true);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&cells).expect("cells"), before);
    assert_eq!(
        std::fs::read_to_string(&stamp).expect("stamp").trim(),
        "0123456789abcdef",
        "the folder still names the build that computed it"
    );
    let assembled = verdict_of();
    assert_eq!(assembled["cells_built_by"][0], "0123456789abcdef");
    assert_eq!(assembled["comparisons"], computed["comparisons"]);
    assert_eq!(assembled["cost"], computed["cost"]);
    assert!(
        assembled["command"]
            .as_str()
            .is_some_and(|c| c.contains("--assemble"))
    );
    let page = std::fs::read_to_string(out.join("published_vs_ours.md")).expect("page");
    assert!(page.contains("another build of runner (build.txt: 0123456789abcdef)"));
    // A missing cell is not computed but named.
    let kept: Vec<&str> = before.lines().skip(1).collect();
    std::fs::write(&cells, kept.join("\n") + "\n").expect("cut");
    let o = run(true);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not computed yet"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An experiment split in two shards, run at the same time as separate processes into one
/// folder, writes no page; `--assemble` then writes the pages of one whole run.
#[test]
fn an_experiment_in_two_shards_assembles_to_the_pages_of_one_run() {
    let dir = temp_dir("shards");
    let (whole, split) = (dir.join("whole"), dir.join("split"));
    let o = quick_shared_othello(&whole, &["--jobs", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shards: Vec<std::process::Child> = ["1/2", "2/2"]
        .iter()
        .map(|k| {
            std::process::Command::new(env!("CARGO_BIN_EXE_runner"))
                .args([
                    "experiment",
                    "thesis-t6.8",
                    "--quick",
                    "--variant",
                    "othello-shared",
                    "--positions",
                    "1",
                    "--shard",
                    k,
                    "--out",
                    split.to_str().expect("utf-8"),
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("the runner starts")
        })
        .collect();
    for child in shards {
        let o = child.wait_with_output().expect("a shard ends");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(
        !split.join("verdict.json").exists(),
        "a shard writes no page"
    );
    let o = quick_shared_othello(&split, &["--assemble"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).expect(f);
    assert_eq!(
        read(&split, "othello-shared/results.csv"),
        read(&whole, "othello-shared/results.csv")
    );
    let verdict =
        |d: &Path| -> Value { serde_json::from_str(&read(d, "verdict.json")).expect("json") };
    assert_eq!(
        verdict(&split)["comparisons"],
        verdict(&whole)["comparisons"]
    );
    assert_eq!(
        read(&split, "published_vs_ours.csv"),
        read(&whole, "published_vs_ours.csv")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Table 6.4's experiment ranks YBW (table 6.4) against APHID (table 6.1) as the thesis's
/// figure 6.4 does: one view holding both series' speedups, with a Kendall tau, and its own
/// plot; the published tables are not repeated for it.
#[test]
fn a_view_ranks_series_of_two_tables_together() {
    let dir = temp_dir("view");
    let o = runner(&[
        "experiment",
        "thesis-t6.4",
        "--quick",
        "--variant",
        "origin2000",
        "--positions",
        "1",
        "--out",
        dir.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let verdict: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("verdict.json")).expect("verdict.json"),
    )
    .expect("json");
    let view: Vec<&Value> = verdict["verdicts"]
        .as_array()
        .expect("verdicts")
        .iter()
        .filter(|v| v["item"] == "figure 6.4")
        .collect();
    assert_eq!(view.len(), 1, "{view:?}");
    assert_eq!(view[0]["quantity"], "speedup");
    assert!(view[0]["kendall_tau"].as_f64().is_some(), "{view:?}");
    let series: std::collections::BTreeSet<&str> = verdict["comparisons"]
        .as_array()
        .expect("comparisons")
        .iter()
        .filter(|c| c["item"] == "figure 6.4")
        .filter_map(|c| c["series"].as_str())
        .collect();
    assert_eq!(series.len(), 2, "{series:?}");
    assert!(dir.join("figure-6.4.svg").exists());
    let report = std::fs::read_to_string(dir.join("origin2000").join("report.html"))
        .expect("the comparison's report");
    assert_eq!(
        report.matches("<caption>table 6.4: speedup").count(),
        1,
        "the view repeats a published table"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pdp11-t5 --quick`: the two-PDP-11 thesis's own runs (no comparison folder): `verdict.json`
/// holds table 5.1's rows (each held against the published row of its position), the checked
/// findings and the measurements; the page shows them with the plot of communication by common
/// depth.
#[test]
fn pdp11_t5_quick_checks_the_findings() {
    let out = all_quick().0.join("pdp11-t5");
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("verdict.json")).expect("verdict.json"),
    )
    .expect("parses");
    assert_eq!(json["preset"], "pdp11");
    let comparisons = json["comparisons"].as_array().expect("comparisons");
    let t51 = comparisons
        .iter()
        .filter(|c| c["item"] == "table 5.1" && c["quantity"] == "total_increase_pct")
        .count();
    assert_eq!(t51, 3, "three quick rows");
    for c in comparisons {
        assert!(c["ours"].as_f64().is_some_and(f64::is_finite), "{c}");
    }
    let claims = json["claims"].as_array().expect("claims");
    assert_eq!(claims.len(), 6);
    for f in claims {
        assert!(f["holds"].is_boolean() && f["ours"].as_str().is_some_and(|m| !m.is_empty()));
    }
    assert!(
        json["details"]
            .as_str()
            .is_some_and(|d| d.contains("## Every setting"))
    );
    let md = std::fs::read_to_string(out.join("published_vs_ours.md")).expect("markdown");
    assert!(
        md.contains("Claims of the text:") && md.contains("## Every setting"),
        "{md}"
    );
    // Every departure of the setup table carries its measured effect, finite.
    assert!(
        md.contains("| the thesis | ours | effect (measured) |"),
        "{md}"
    );
    assert!(!md.contains("NaN") && !md.contains("inf "), "{md}");
    let svg =
        std::fs::read_to_string(out.join("chapter-5-communication-growth.svg")).expect("the plot");
    assert!(svg.ends_with("</svg>\n"));
}

#[test]
fn quick_experiments_write_their_reports() {
    let model = all_quick().0.join("thesis-ch4-model");
    for fig in 2..=7 {
        let svg = std::fs::read_to_string(model.join(format!("figure4.{fig}.svg"))).expect("svg");
        assert!(balanced(&svg), "figure 4.{fig}");
    }
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(model.join("model.json")).expect("json"))
            .expect("model.json parses");
    assert_eq!(json["at_1e7_n256"].as_array().expect("rows").len(), 12);
    let html = std::fs::read_to_string(model.join("report.html")).expect("html");
    assert!(balanced(&html) && html.contains("Figure 4.7"));
    assert!(html.contains("<h2>Environment</h2>") && html.contains("<th>rustc</th>"));

    // A Rezaie and Finkel figure with the published numbers in its report.
    let fig = all_quick().0.join("rf-fig16-18");
    let html = std::fs::read_to_string(fig.join("report.html")).expect("html");
    assert!(html.contains("Published") && balanced(&html));
    assert!(
        !html.contains("<pre>"),
        "published numbers are text and tables"
    );
}

#[test]
fn quick_marsland_popowich_tables_run_pv_splitting_with_and_without_tables() {
    let (all, stdout) = all_quick();
    let dir = all.join("mp-t3");
    let settings = |variant: &str| -> Value {
        let text = std::fs::read_to_string(dir.join(variant).join("results.json")).expect("json");
        let json: Value = serde_json::from_str(&text).expect("results.json parses");
        for row in json["rows"].as_array().expect("rows") {
            assert_eq!(row["value"], row["baseline_value"], "{variant}: {row}");
        }
        json["settings"].clone()
    };
    assert!(
        stdout.contains("== mp-t3 global-all (1/4)") && stdout.contains("local-gt2 (4/4)"),
        "{stdout}"
    );
    let local = settings("local-gt2");
    assert_eq!(local["split_tables"], "local");
    assert_eq!(local["tt_min_depth"], 3);
    assert_eq!(local["sim_preset"], "sun68k");
    assert!(settings("global-all")["tt_min_depth"] == 0);
    let html = std::fs::read_to_string(dir.join("report.html")).expect("html");
    assert!(html.contains("global-gt2") && balanced(&html));

    // Table 2: no table at all.
    let t2 = all.join("mp-t2");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(t2.join("results.json")).expect("json"))
            .expect("results.json parses");
    assert_eq!(json["settings"]["tt"], "off");
    assert_eq!(json["settings"]["baseline"], "pvsplit");
}
