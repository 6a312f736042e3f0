//! `runner compare` and `runner experiment` end to end: a tiny comparison writes valid CSV,
//! JSON, SVG and HTML; a rerun with the same --out resumes instead of recomputing; an
//! interrupted run (cells missing) computes only the missing cells; bad arguments exit 2 with a
//! message naming the problem. The experiments' quick runs are `experiment_cli`'s; what the
//! flags do to a comparison is checked in-process by `lab/tests/it/compare_flags.rs`.

use crate::markup;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use markup::balanced;
use serde_json::Value;

fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .output()
        .expect("the runner binary runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("runner-compare-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The first two registered parallel algorithms (the test never names one).
fn two_algos() -> String {
    let out = runner(&["list", "--json"]);
    let list: Value = serde_json::from_slice(&out.stdout).expect("list --json");
    let names: Vec<String> = list["parallel_algorithms"]
        .as_array()
        .expect("parallel_algorithms")
        .iter()
        .take(2)
        .map(|a| a["name"].as_str().expect("name").to_string())
        .collect();
    names.join(",")
}

fn compare_args<'a>(algos: &'a str, out: &'a Path) -> Vec<&'a str> {
    vec![
        "compare",
        "--game",
        "tictactoe4",
        "--testset",
        "tictactoe4",
        "--positions",
        "2",
        "--algos",
        algos,
        "--procs",
        "2",
        "--depth",
        "3",
        "--seeds",
        "2",
        "--out",
        out.to_str().expect("utf-8 temp path"),
    ]
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("readable")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_report_opens_with_the_ranking_and_the_speedup_plot_and_leaves_out_idle_processors() {
    let dir = temp_dir("opening");
    let out = runner(&compare_args("alphabeta,delaysplit", &dir));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(dir.join("report.html")).expect("html");
    let at = |what: &str| {
        html.find(what)
            .unwrap_or_else(|| panic!("{what} is not in the report"))
    };
    // The summary comes first: the ranking line, then the speedup plot, then the tables.
    assert!(at("<h2 id=\"s1\">Summary</h2>") < at("Mean speedup over the positions on 2"));
    assert!(at("Mean speedup over the positions on 2") < at("<svg"));
    assert!(at("<svg") < at("Per-position mean (± sample standard deviation)</h2>"));
    let ranking = &html[at("Mean speedup over the positions")..];
    let ranking = &ranking[..ranking.find("</p>").expect("one paragraph")];
    assert!(ranking.contains("delaysplit"), "{ranking}");
    assert!(!ranking.contains("alphabeta"), "{ranking}");
    // The never-splitting baseline on 2 processors is in results.csv, not in the tables.
    assert!(html.contains("<tr><td>alphabeta</td><td>1</td>"));
    assert!(!html.contains("<tr><td>alphabeta</td><td>2</td>"));
    assert!(html.contains("<tr><td>delaysplit</td><td>2</td>"));
    let csv = std::fs::read_to_string(dir.join("results.csv")).expect("csv");
    assert!(csv.lines().any(|l| l.contains(",alphabeta,2,")), "{csv}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("alphabeta") && l.split_whitespace().nth(1) == Some("2")),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tiny_comparison_writes_valid_files_and_resumes() {
    let algos = two_algos();
    let dir = temp_dir("tiny");
    let args = compare_args(&algos, &dir);
    let out = runner(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("per-position mean") && stdout.contains("aggregate"));
    assert!(stdout.contains(&format!("report: {}", dir.join("report.html").display())));

    // 2 positions x 2 series x processors {1, 2} x 2 seeds, and 2 baselines.
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).expect("json"))
            .expect("results.json parses");
    assert_eq!(json["runs"].as_array().expect("runs").len(), 16);
    assert_eq!(json["baselines"].as_array().expect("baselines").len(), 2);
    assert_eq!(json["seeds"], serde_json::json!([1, 2]));
    assert!(
        json["command"]
            .as_str()
            .expect("command")
            .contains("compare")
    );
    assert!(json["version"].is_string());
    for row in json["rows"].as_array().expect("rows") {
        assert_eq!(row["value"], row["baseline_value"], "{row}");
        let speedup = row["metrics"]["speedup"].as_f64().expect("speedup");
        assert!(speedup > 0.0);
    }
    for s in json["summaries"].as_array().expect("summaries") {
        assert_eq!(s["samples"], 4);
    }

    let csv = lines(&dir.join("results.csv"));
    assert_eq!(csv.len(), 17, "a header and 16 rows");
    let width = csv[0].split(',').count();
    assert!(csv[0].starts_with("line,series,procs,seed"));
    assert!(csv.iter().all(|l| l.split(',').count() == width));

    for svg in [
        "speedup",
        "efficiency",
        "relative_nodes",
        "time",
        "overheads",
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{svg}.svg"))).expect("svg");
        assert!(text.starts_with("<svg") && balanced(&text), "{svg}.svg");
    }
    let html = std::fs::read_to_string(dir.join("report.html")).expect("html");
    assert!(html.starts_with("<!DOCTYPE html>") && balanced(&html));
    assert_eq!(html.matches("<svg").count(), 5, "the plots are embedded");
    // Contents linking every section; the environment; what each column means.
    assert!(html.contains("<nav>") && html.contains("<a href=\"#s2\">Environment</a>"));
    assert!(html.contains("<th>CPU</th>") && html.contains("<th>commit</th>"));
    assert!(html.contains("What the columns mean") && html.contains("Negative values"));

    // Same --out: every cell is resumed, nothing recomputed.
    let cells = lines(&dir.join("cells.jsonl"));
    assert_eq!(cells.len(), 18);
    let again = runner(&args);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("resuming: 18 finished cells"));
    assert_eq!(lines(&dir.join("cells.jsonl")), cells);

    // As after Ctrl-C: only the first cells on disk, the last one cut in the middle.
    let kept = 7;
    let mut text = cells[..kept].join("\n");
    text.push('\n');
    text.push_str(&cells[kept][..10]);
    std::fs::write(dir.join("cells.jsonl"), text).expect("truncate");
    let resumed = runner(&args);
    assert!(resumed.status.success());
    assert!(
        String::from_utf8_lossy(&resumed.stderr)
            .contains(&format!("resuming: {kept} finished cells"))
    );
    let after = lines(&dir.join("cells.jsonl"));
    assert_eq!(
        &after[..kept],
        &cells[..kept],
        "finished cells are kept as they were"
    );
    let valid = after
        .iter()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok())
        .count();
    assert_eq!(valid, 18, "the missing cells were computed once");

    // Other settings in the same folder are refused, not mixed.
    let mut other = args.clone();
    let depth = other.iter().position(|a| *a == "3").expect("depth");
    other[depth] = "4";
    let refused = runner(&other);
    assert_eq!(refused.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `args`, which must fail on bad input: exit status 2 and one line containing `words`.
fn fails_with(args: &[&str], words: &str) {
    let out = runner(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(words), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
}

#[test]
fn bad_arguments_exit_2_with_a_clear_message() {
    fails_with(
        &["compare", "--algos", "no-such-algo", "--depth", "2"],
        "unknown parallel algorithm 'no-such-algo'",
    );
    fails_with(
        &["compare", "--procs", ",", "--depth", "2"],
        "'' is not a processor count",
    );
    fails_with(
        &["compare", "--backend", "gpu", "--depth", "2"],
        "[possible values: threads, sim, mpi]",
    );
    fails_with(&["compare", "--procs", "0", "--depth", "2"], "out of range");
    fails_with(
        &["compare", "--testset", "/no/such/file.txt", "--depth", "2"],
        "--testset /no/such/file.txt",
    );
    let dir = temp_dir("unreadable");
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "this is no tic-tac-toe position\n").expect("write");
    fails_with(
        &[
            "compare",
            "--testset",
            bad.to_str().expect("utf-8"),
            "--depth",
            "2",
            "--out",
            dir.join("out").to_str().expect("utf-8"),
        ],
        "line 1",
    );
    fails_with(
        &[
            "compare",
            "--testset",
            dir.to_str().expect("utf-8"),
            "--depth",
            "2",
        ],
        "is a folder",
    );
    fails_with(
        &[
            "compare",
            "--depth",
            "2",
            "--out",
            bad.to_str().expect("utf-8"),
        ],
        "not a folder",
    );
    fails_with(&["compare", "--game", "go", "--depth", "2"], "--game");
    fails_with(&["experiment", "no-such-experiment"], "no such experiment");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad `--shard` and `--jobs` values: one line naming the flag and the fix, exit status 2,
/// before anything is computed.
#[test]
fn bad_shards_and_jobs_exit_2_in_one_line() {
    for (args, words) in [
        (&["compare", "--shard", "0/2"][..], "--shard 0/2: K counts"),
        (&["compare", "--shard", "3/2"], "--shard 3/2: K counts"),
        (&["compare", "--shard", "x"], "--shard x: give K/N"),
        (&["compare", "--shard", "1/0"], "--shard 1/0: N is"),
        (
            &["experiment", "rf-fig5-6", "--shard", "3/2"],
            "--shard 3/2",
        ),
        (&["experiment", "--all", "--shard", "0/2"], "--shard 0/2"),
        (&["compare", "--jobs", "0"], "--jobs 0: give at least 1"),
        (
            &["compare", "--jobs", "2", "--backend", "threads"],
            "one at a time",
        ),
        (
            &["experiment", "thesis-ch4-model", "--shard", "1/2"],
            "one process",
        ),
    ] {
        let out = runner(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

/// Runs `runner` with `args`, which must succeed, and reads the `results.csv` it writes into
/// `out`.
fn csv_of(args: &[String], out: &Path) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = runner(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out.join("results.csv")).expect("results.csv")
}

/// `--jobs` and `--shard` change how the cells are computed, never what they are: two jobs,
/// and two shards run at the same time as separate processes into one folder and then
/// assembled, give the results.csv of one job byte for byte, at a fixed depth and with a
/// depth per position chosen by the baseline (`--time-ms`, whose runs wait for it).
#[test]
fn jobs_and_shards_give_the_results_of_one_serial_run() {
    let algos = two_algos();
    for limit in [["--depth", "4"], ["--time-ms", "2"]] {
        let dir = temp_dir(&format!("jobs{}", limit[0]));
        let args = |out: &Path, extra: &[&str]| -> Vec<String> {
            [
                "compare",
                "--game",
                "tictactoe4",
                "--positions",
                "3",
                "--algos",
                &algos,
                "--procs",
                "2,4",
                "--seeds",
                "2",
                limit[0],
                limit[1],
                "--out",
                out.to_str().expect("utf-8"),
            ]
            .iter()
            .chain(extra)
            .map(|s| (*s).to_string())
            .collect()
        };
        let (one, two) = (dir.join("one"), dir.join("two"));
        let serial = csv_of(&args(&one, &["--jobs", "1"]), &one);
        let parallel = csv_of(&args(&two, &["--jobs", "2"]), &two);
        assert_eq!(parallel, serial, "{limit:?}: --jobs 2 against --jobs 1");
        // Two shards at the same time, each a process of its own, into one folder.
        let shared = dir.join("shards");
        let shards: Vec<std::process::Child> = ["1/2", "2/2"]
            .iter()
            .map(|k| {
                Command::new(env!("CARGO_BIN_EXE_runner"))
                    .args(args(&shared, &["--shard", k, "--jobs", "1"]))
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("the runner starts")
            })
            .collect();
        for child in shards {
            let out = child.wait_with_output().expect("a shard ends");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(String::from_utf8_lossy(&out.stdout).contains("--assemble"));
        }
        assert!(
            !shared.join("results.csv").exists(),
            "a shard writes no report"
        );
        // Every cell once, in one of the two files: the runs and the 3 baselines.
        let mut keys = BTreeSet::new();
        for k in 1..=2 {
            let file = shared.join(format!("cells.shard-{k}-of-2.jsonl"));
            let cells = lines(&file);
            assert!(!cells.is_empty(), "{}", file.display());
            for line in cells {
                let v: Value = serde_json::from_str(&line).expect("a cell");
                let key = format!(
                    "{} {} {} {} {}",
                    v["kind"], v["line"], v["series"], v["procs"], v["seed"]
                );
                assert!(keys.insert(key.clone()), "{key} twice");
            }
        }
        assert_eq!(keys.len(), serial.lines().count() - 1 + 3);
        let assembled = csv_of(&args(&shared, &["--assemble"]), &shared);
        assert_eq!(assembled, serial, "{limit:?}: two shards against one run");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `--list` names every experiment once (a name line is indented by two spaces, its
/// description under it by more), and the names are exactly those `runner experiment` knows:
/// the ones its answer to an unknown name offers.
#[test]
fn every_listed_experiment_is_one_runner_experiment_knows() {
    let out = runner(&["experiment", "--list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for name in [
        "rf-fig5-6",
        "rf-fig13-15",
        "thesis-t6.4",
        "thesis-ch4-model",
    ] {
        assert!(listed.contains(&name), "{name} missing from {listed:?}");
    }
    let unique: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(unique.len(), listed.len(), "a name twice in {listed:?}");

    let out = runner(&["experiment", "no-such-experiment"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let known: BTreeSet<&str> = err
        .split_once("the experiments are: ")
        .and_then(|(_, rest)| rest.split_once(" (see"))
        .map(|(names, _)| names.split(", ").collect())
        .unwrap_or_else(|| panic!("no list of names in: {err}"));
    assert_eq!(unique, known);
}

#[test]
fn mpi_comparisons_check_their_flags_before_starting_mpi() {
    // Outside mpirun (or in a build without MPI) the launch is refused with a pointer to
    // what is missing; the flags are checked first.
    let dir = temp_dir("mpi-flags");
    let out = dir.to_str().expect("utf-8 temp path");
    let base = ["compare", "--backend", "mpi", "--depth", "2", "--out", out];
    let refused = runner(&base);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("mpirun") || stderr.contains("--features mpi"),
        "{stderr}"
    );
    assert!(!dir.exists(), "nothing is written before MPI has started");
    fails_with(
        &["compare", "--backend", "mpi", "--sim-preset", "sun4-pvm"],
        "--backend sim",
    );
}

/// Thesis table 6.2's mechanism: `--setting play` (variable depth) runs against the sequential
/// program (`--baseline lazysmp`), records the setting and its enhancements in results.json and
/// never calls a differing value wrong; `--aphid-tt` reaches APHID; split-engine algorithms,
/// which have none of the play setting's reductions, are refused in it; bad values of the flags
/// exit 2 naming the flag.
#[test]
fn the_play_setting_and_aphids_table_flag() {
    let dir = temp_dir("play");
    let mut args = compare_args("aphid", &dir);
    args.extend([
        "--setting",
        "play",
        "--play-features",
        "lmr,probcut",
        "--baseline",
        "lazysmp",
        "--aphid-tt",
        "shared",
    ]);
    let out = runner(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("WRONG"), "{stdout}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).expect("json"))
            .expect("results.json parses");
    let text = json.to_string();
    assert!(text.contains("\"setting\":\"play\""), "{text}");
    assert!(text.contains("\"aphid_tt\":\"shared\""), "{text}");
    assert!(text.contains("probcut: true"), "{text}");
    fails_with(
        &["compare", "--setting", "blitz", "--depth", "2"],
        "--setting",
    );
    fails_with(
        &[
            "compare",
            "--setting",
            "play",
            "--algos",
            "aphid",
            "--depth",
            "2",
        ],
        "--baseline",
    );
    fails_with(
        &[
            "compare",
            "--setting",
            "play",
            "--algos",
            "aphid,ybw",
            "--baseline",
            "lazysmp",
            "--depth",
            "2",
        ],
        "--algos",
    );
    fails_with(
        &["compare", "--play-features", "probcut", "--depth", "2"],
        "--play-features",
    );
    fails_with(
        &[
            "compare",
            "--setting",
            "play",
            "--play-features",
            "probcut,futility",
            "--baseline",
            "lazysmp",
            "--algos",
            "aphid",
            "--depth",
            "2",
        ],
        "--play-features",
    );
    fails_with(
        &["compare", "--aphid-tt", "everywhere", "--depth", "2"],
        "--aphid-tt",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--aphid-config` reaches the aphid series (a master depth of 1 against 3 changes the
/// 4-processor trees, every value still the baseline's) and the fingerprint (the file's
/// bytes); a file with host lines, a bad key and a missing file exit 2 naming the flag.
#[test]
fn an_aphid_configuration_reaches_the_comparison() {
    let dir = temp_dir("aphid-config");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let run = |depth: u32| -> (Vec<Value>, Value) {
        let file = dir.join(format!("d{depth}.toml"));
        std::fs::write(&file, format!("[geometry]\nmaster_depth = {depth}\n")).expect("write");
        let out_dir = dir.join(format!("out{depth}"));
        let out = runner(&[
            "compare",
            "--game",
            "othello6",
            "--testset",
            "othello6_roots",
            "--positions",
            "2",
            "--algos",
            "aphid",
            "--procs",
            "4",
            "--depth",
            "6",
            "--aphid-config",
            file.to_str().expect("utf-8 temp path"),
            "--out",
            out_dir.to_str().expect("utf-8 temp path"),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: Value = serde_json::from_str(
            &std::fs::read_to_string(out_dir.join("results.json")).expect("json"),
        )
        .expect("results.json parses");
        let rows = json["rows"].as_array().expect("rows").clone();
        for row in &rows {
            assert_eq!(row["value"], row["baseline_value"], "{row}");
        }
        (rows, json["settings"]["aphid_config"].clone())
    };
    let (one, one_hash) = run(1);
    let (three, three_hash) = run(3);
    assert!(one_hash.is_string() && three_hash.is_string());
    assert_ne!(one_hash, three_hash, "the fingerprint follows the file");
    let four = |rows: &[Value]| -> Vec<Value> {
        rows.iter()
            .filter(|r| r["procs"] == 4)
            .map(|r| r["nodes"].clone())
            .collect()
    };
    assert_eq!(four(&one).len(), 2);
    assert_ne!(four(&one), four(&three), "d' changes the 4-processor trees");
    let hosts = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testsets/aphid/figure-5.14.config"
    );
    fails_with(
        &["compare", "--aphid-config", hosts, "--depth", "2"],
        "hierarchy",
    );
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[geometry]\nmaster_depht = 4\n").expect("write");
    fails_with(
        &[
            "compare",
            "--aphid-config",
            bad.to_str().expect("utf-8 temp path"),
            "--depth",
            "2",
        ],
        "master_depht",
    );
    fails_with(
        &[
            "compare",
            "--aphid-config",
            "/nonexistent/aphid.toml",
            "--depth",
            "2",
        ],
        "--aphid-config",
    );
    let cfg = dir.join("one.toml");
    std::fs::write(&cfg, "[geometry]\nmaster_depth = 1\n").expect("write");
    let cfg = cfg.to_str().expect("utf-8 temp path");
    for flags in [["--aphid-config", cfg], ["--aphid-tt", "shared"]] {
        let mut args = vec!["compare", "--algos", "delaysplit", "--depth", "2"];
        args.extend(flags);
        fails_with(&args, "applies to the aphid series only");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first registered parallel algorithm.
fn one_algo() -> String {
    two_algos()
        .split(',')
        .next()
        .expect("an algorithm")
        .to_string()
}

#[test]
fn wall_clock_cells_are_medians_of_interleaved_repeats_with_intervals() {
    let algo = one_algo();
    let dir = temp_dir("repeat");
    let out_dir = dir.display().to_string();
    let args = [
        "compare",
        "--game",
        "tictactoe4",
        "--positions",
        "2",
        "--algos",
        &algo,
        "--procs",
        "2",
        "--depth",
        "3",
        "--backend",
        "threads",
        "--repeat",
        "3",
        "--out",
        &out_dir,
    ];
    let out = runner(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Depth 3 takes well under 50 ms.
    assert!(stderr.contains("cells ran under 50 ms"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("each cell the median of 3 repeats"),
        "{stdout}"
    );
    assert!(stdout.contains("time 95% CI") && stdout.contains("spd 95% CI"));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).expect("json"))
            .expect("results.json parses");
    assert_eq!(json["repeat"], 3);
    for cell in json["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .chain(json["baselines"].as_array().expect("baselines"))
    {
        let mut times: Vec<f64> = cell["times"]
            .as_array()
            .expect("times")
            .iter()
            .map(|t| t.as_f64().expect("a time"))
            .collect();
        assert_eq!(times.len(), 3, "{cell}");
        times.sort_by(f64::total_cmp);
        assert_eq!(
            cell["seconds"].as_f64(),
            Some(times[1]),
            "the median: {cell}"
        );
    }
    for s in json["summaries"].as_array().expect("summaries") {
        let (lo, hi) = (
            s["speedup_ci"]["lo"].as_f64().expect("an interval"),
            s["speedup_ci"]["hi"].as_f64().expect("an interval"),
        );
        assert!(lo <= hi && lo > 0.0, "{s}");
    }
    assert!(
        json["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .any(|w| w.as_str().is_some_and(|w| w.contains("under 50 ms")))
    );
    let csv = lines(&dir.join("results.csv"));
    assert!(csv[0].starts_with(
        "line,series,procs,seed,depth,value,baseline_value,nodes,seconds,baseline_nodes,baseline_seconds,one_proc_seconds,speedup,"
    ));
    assert!(
        csv[0].ends_with(
            ",repeats,seconds_ci_lo,seconds_ci_hi,seconds_ci_level,times,baseline_times"
        )
    );
    let width = csv[0].split(',').count();
    assert!(csv.iter().all(|l| l.split(',').count() == width));
    let html = std::fs::read_to_string(dir.join("report.html")).expect("html");
    assert!(html.contains("median of 3 timed repeats") && html.contains("class=\"warning\""));
    // The never-splitting control runs beside the series and is reported everywhere.
    assert!(
        stdout.contains("control alphabeta x2 on") && stdout.contains("measurement "),
        "{stdout}"
    );
    let controls = json["controls"].as_array().expect("controls");
    assert_eq!(controls.len(), 1, "{controls:?}");
    assert_eq!(controls[0]["procs"], 2);
    assert!(controls[0]["speedup"].as_f64().is_some_and(f64::is_finite));
    assert!(
        ["trusted", "not_trusted", "undecided"].contains(&json["trust"].as_str().unwrap_or("")),
        "{}",
        json["trust"]
    );
    assert!(html.contains("Never-splitting control"), "{html}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn more_threads_than_cores_are_warned_about_on_threads_only() {
    let algo = one_algo();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let procs = (cores + 1).to_string();
    let dir = temp_dir("cores");
    let out_dir = dir.display().to_string();
    let mut args = vec![
        "compare",
        "--game",
        "tictactoe4",
        "--positions",
        "1",
        "--algos",
        &algo,
        "--procs",
        &procs,
        "--depth",
        "2",
        "--repeat",
        "1",
        "--out",
        &out_dir,
        "--backend",
        "threads",
    ];
    let out = runner(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("up to {procs} threads on {cores} cores")),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    args.truncate(args.len() - 2);
    args.extend(["--backend", "sim"]);
    let sim = runner(&args);
    assert!(sim.status.success());
    assert!(!String::from_utf8_lossy(&sim.stderr).contains("cores"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn repeats_are_checked() {
    fails_with(
        &["compare", "--repeat", "0", "--backend", "threads"],
        "--repeat: give at least 1",
    );
    fails_with(
        &["compare", "--repeat", "3"],
        "the simulator, whose runs are deterministic",
    );
}

#[test]
fn ctrl_c_says_how_many_cells_are_saved_and_exits_130() {
    let dir = temp_dir("sigint");
    let out_dir = dir.display().to_string();
    // Thousands of cells: far more than the test waits for.
    let child = Command::new(env!("CARGO_BIN_EXE_runner"))
        .args([
            "compare",
            "--game",
            "tictactoe4",
            "--procs",
            "2",
            "--depth",
            "4",
            "--seeds",
            "500",
            "--out",
            &out_dir,
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the runner starts");
    let cells = dir.join("cells.jsonl");
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&cells).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            start.elapsed().as_secs() < 60,
            "no cell was stored within a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let out = child.wait_with_output().expect("the runner ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let message = stderr
        .lines()
        .find(|l| l.contains("cells saved"))
        .unwrap_or_else(|| panic!("no message: {stderr}"));
    // "interrupted: K of N cells saved; rerun the same command to resume"
    let words: Vec<&str> = message.split_whitespace().collect();
    let saved: usize = words[1].parse().expect("K");
    let total: usize = words[3].parse().expect("N");
    assert!(saved >= 2 && saved < total, "{message}");
    assert!(message.ends_with("cells saved; rerun the same command to resume"));
    let on_disk = lines(&cells)
        .iter()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok())
        .count();
    assert!(on_disk >= saved, "{on_disk} cells on disk, {saved} said");
    let _ = std::fs::remove_dir_all(&dir);
}
