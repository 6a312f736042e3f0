//! `runner calibrate` and `runner validate-sim` end to end: a quick calibration writes a cost
//! model that reads back with positive costs; a bad --out exits 2 before measuring; a quick
//! validation prints rows with the documented keys and finite numbers.

use crate::common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{json_of, runner};
use dib::CostModel;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("runner-model-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn calibrate_writes_a_cost_model_that_reads_back() {
    let dir = temp_dir("calibrate");
    let path = dir.join("x.toml");
    let p = path.to_str().expect("utf-8 path");
    let out = json_of(&[
        "calibrate",
        "--quick",
        "--games",
        "tictactoe4",
        "--out",
        p,
        "--json",
    ]);
    let text = std::fs::read_to_string(&path).expect("the file is written");
    let model = CostModel::from_toml(&text).expect("a cost model");
    assert_eq!(model.name, "calibrated");
    assert!(model.about.contains("cores"), "{}", model.about);
    let game = model
        .games
        .get("tictactoe4")
        .expect("a [games.tictactoe4] section");
    assert!(game.node_ns.is_some_and(|n| n > 0) && game.static_eval_ns.is_some_and(|n| n > 0));
    assert!(game.frame_ns.is_some_and(|n| n > 0) && model.frame_ns == game.frame_ns);
    assert!(model.node_ns > 0 && model.table_probe_ns > 0 && model.shared_probe_ns > 0);
    assert!(model.send_overhead_ns > 0 && model.recv_overhead_ns > 0);
    assert!(model.message_handling_ns > 0);
    assert_eq!(out["message_handling"]["repeats"], 3);
    assert!(out["games"]["tictactoe4"]["frame"]["frames"].as_u64() > Some(0));
    assert!((1..=64).contains(&model.shared_table_ports));
    // The JSON carries the measurements with their spread, and the same model.
    let search = &out["games"]["tictactoe4"]["search"];
    let (min, median, max) = (
        search["min"].as_f64().expect("min"),
        search["median"].as_f64().expect("median"),
        search["max"].as_f64().expect("max"),
    );
    assert!(0.0 < min && min <= median && median <= max, "{search}");
    assert_eq!(out["cost_model"]["node_ns"], model.node_ns);
    // Text output: a table of every quantity.
    let text = runner(&["calibrate", "--quick", "--games", "tictactoe4", "--out", p]);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(text.status.success());
    for row in [
        "tictactoe4 search node",
        "table probe, alone",
        "channel latency",
        "tictactoe4 split-engine frame",
        "DIB message handling (each end)",
    ] {
        assert!(stdout.contains(row), "{row} missing from:\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_out_path_exits_2_before_measuring() {
    let dir = temp_dir("bad-out");
    let missing = dir.join("no-such-folder").join("x.toml");
    for (out, says) in [
        (missing.to_str().expect("utf-8"), "does not exist"),
        (dir.to_str().expect("utf-8"), "is a folder"),
    ] {
        let start = Instant::now();
        let r = runner(&["calibrate", "--out", out]);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("--out") && stderr.contains(says),
            "{stderr}"
        );
        // A full calibration takes a minute: this one stopped before measuring.
        assert!(start.elapsed() < Duration::from_secs(10));
    }
    assert!(!missing.exists());
    let r = runner(&["calibrate", "--quick", "--games", "go", "--out", "x.toml"]);
    assert_eq!(r.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn validate_sim_prints_rows_with_the_documented_keys() {
    let out = json_of(&[
        "validate-sim",
        "--quick",
        "--games",
        "tictactoe4",
        "--algos",
        "delaysplit",
        "--sim-preset",
        "shared-memory",
        "--json",
    ]);
    assert_eq!(out["preset"], "shared-memory");
    let all = out["rows"].as_array().expect("rows");
    let cores = out["cores"].as_u64().expect("cores") as usize;
    let counts = cores.max(2);
    // The never-splitting control runs first, whatever --algos says.
    assert_eq!(all.len(), 2 * counts, "two algorithms, 1..cores each");
    assert!(all[..counts].iter().all(|r| r["algo"] == "alphabeta"));
    let rows = &all[counts..];
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["game"], "tictactoe4");
        assert_eq!(row["algo"], "delaysplit");
        assert_eq!(row["procs"], i + 1);
        assert!(row["pairs"].as_u64().is_some_and(|p| p >= 2), "{row}");
        assert!(
            ["within", "outside", "undecided"].contains(&row["verdict"].as_str().unwrap_or("")),
            "{row}"
        );
        assert!(row["control"].is_null(), "{row}");
        for key in [
            "measured_speedup",
            "predicted_speedup",
            "error_percent",
            "measured_seconds",
            "predicted_seconds",
        ] {
            let x = row[key].as_f64().unwrap_or(f64::NAN);
            assert!(x.is_finite(), "{key} in {row}");
        }
        assert!(
            row["measured_nodes"].as_u64().is_some_and(|n| n > 0),
            "{row}"
        );
        assert!(
            row["simulated_nodes"].as_u64().is_some_and(|n| n > 0),
            "{row}"
        );
        for key in [
            "measured_requests",
            "simulated_requests",
            "measured_refusals",
            "simulated_refusals",
        ] {
            assert!(row[key].as_u64().is_some(), "{key} in {row}");
        }
    }
    let capacity = out["capacity"]["tictactoe4"]["median"]
        .as_f64()
        .unwrap_or(0.0);
    assert!(
        capacity > 0.0 && capacity.is_finite(),
        "{}",
        out["capacity"]
    );
    // The one-processor row is the baseline of both speedups.
    assert_eq!(rows[0]["measured_speedup"], 1.0);
    assert_eq!(rows[0]["predicted_speedup"], 1.0);
    // Each control has its interval, and the run its verdict on trust.
    let controls = out["controls"].as_array().expect("controls");
    assert_eq!(controls.len(), counts - 1, "{controls:?}");
    for c in controls {
        assert_eq!(c["on"], "tictactoe4");
        let (lo, hi) = (c["lo"].as_f64(), c["hi"].as_f64());
        assert!(
            lo.zip(hi).is_some_and(|(lo, hi)| 0.0 < lo && lo <= hi),
            "{c}"
        );
    }
    assert!(
        ["trusted", "not_trusted", "undecided"].contains(&out["trust"].as_str().unwrap_or("")),
        "{}",
        out["trust"]
    );
    assert_eq!(out["summary"][0]["procs"], 2);
    assert_eq!(out["method"]["min_rounds"], 2);
}

#[test]
fn validate_sim_rejects_bad_flags_with_status_2() {
    for (args, says) in [
        (&["--sim-preset", "cray"][..], "--sim-preset"),
        (&["--sim-preset", "/no/such/model.toml"][..], "--sim-preset"),
        (&["--algos", "nope"][..], "--algos"),
        (&["--depth", "0"][..], "--depth"),
        (&["--repeat", "0"][..], "--repeat"),
        (&["--repeat", "4", "--max-repeat", "3"][..], "--max-repeat"),
        (&["--procs", "1"][..], "--procs"),
        (&["--min-seconds", "0"][..], "--min-seconds"),
        (&["--min-seconds", "1", "--depth", "3"][..], "--min-seconds"),
        (&["--out", "/no/such/folder/page.md"][..], "--out"),
    ] {
        let mut all = vec!["validate-sim", "--quick", "--games", "tictactoe4"];
        all.extend_from_slice(args);
        let r = runner(&all);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn validate_sim_writes_its_page_when_asked() {
    let dir = std::env::temp_dir().join(format!("runner-validate-page-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let page = dir.join("validate-sim.md");
    let r = runner(&[
        "validate-sim",
        "--quick",
        "--games",
        "tictactoe4",
        "--algos",
        "alphabeta,delaysplit",
        "--sim-preset",
        "shared-memory",
        "--out",
        page.to_str().expect("a UTF-8 temp path"),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&page).expect("the page is written");
    assert!(
        text.starts_with("<!-- generated by runner validate-sim"),
        "{text}"
    );
    assert!(
        text.contains("- command: `runner validate-sim --quick"),
        "{text}"
    );
    assert!(text.contains("- cost model: shared-memory"), "{text}");
    assert!(text.contains("| game | algo | procs |"), "{text}");
    assert!(text.contains("**Measurement "), "{text}");
    assert!(
        text.contains("- control alphabeta x2 on tictactoe4: "),
        "{text}"
    );
    assert!(
        text.contains("predicted speedups are within 10 % of the measured"),
        "{text}"
    );
    for algo in ["alphabeta", "delaysplit"] {
        assert!(
            text.contains(&format!("| tictactoe4 | {algo} | 1 |")),
            "{algo}: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
