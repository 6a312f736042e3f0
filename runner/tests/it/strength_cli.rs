//! `runner strength` end to end on the simulator with small settings: the cells, the page,
//! resuming, shards that together give the whole run, and bad input.

use std::path::Path;

use crate::common::runner;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("runner-strength-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The small run: 6x6 Othello, ABDADA on 2 simulated processors, 2 games at 5 virtual ms.
fn args(out: &Path) -> Vec<String> {
    [
        "strength",
        "--games",
        "othello6,checkers",
        "--algos",
        "abdada",
        "--procs",
        "2",
        "--match-games",
        "2",
        "--time-ms",
        "5",
        "--no-ttd",
        "--jobs",
        "2",
        "--out",
    ]
    .iter()
    .map(ToString::to_string)
    .chain([out.display().to_string()])
    .collect()
}

fn run(args: &[String]) -> std::process::Output {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    runner(&refs)
}

#[test]
fn a_small_run_writes_its_cells_and_page_and_a_rerun_computes_nothing() {
    let out = temp("run");
    let first = run(&args(&out));
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    for id in ["match-othello6-abdada-2", "match-checkers-abdada-2"] {
        assert!(
            out.join("cells").join(format!("{id}.json")).is_file(),
            "{id}"
        );
    }
    let page = std::fs::read_to_string(out.join("README.md")).expect("the page");
    assert!(page.contains("| `abdada` |"), "{page}");
    assert!(page.contains("cells | 2 of 2 finished"), "{page}");
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let rows = results["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    for row in rows {
        let games = ["wins", "draws", "losses"].map(|k| row[k].as_u64().unwrap());
        assert_eq!(games.iter().sum::<u64>(), 2, "{row}");
        assert_eq!(row["illegal"], 0, "{row}");
    }
    let again = run(&args(&out));
    assert!(again.status.success());
    assert!(
        !String::from_utf8_lossy(&again.stdout).contains("cell "),
        "a rerun computes no cell: {}",
        String::from_utf8_lossy(&again.stdout)
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn shards_together_compute_every_cell_once_and_assemble_writes_the_page() {
    let out = temp("shards");
    let mut computed = 0;
    for k in 1..=2 {
        let mut a = args(&out);
        a.extend(["--shard".to_string(), format!("{k}/2")]);
        let o = run(&a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        computed += String::from_utf8_lossy(&o.stdout).matches("cell ").count();
    }
    assert_eq!(computed, 2, "each cell in exactly one shard");
    let mut a = args(&out);
    a.push("--assemble".to_string());
    let o = run(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(out.join("README.md")).expect("the page");
    assert!(page.contains("cells | 2 of 2 finished"), "{page}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let out = temp("bad");
    for (flag, value) in [
        ("--procs", "1"),
        ("--time-ms", "0"),
        ("--games", "go"),
        ("--match-games", "0"),
    ] {
        let mut a = args(&out);
        let i = a.iter().position(|x| x == flag).map(|i| i + 1);
        match i {
            Some(i) => a[i] = value.to_string(),
            None => a.extend([flag.to_string(), value.to_string()]),
        }
        let o = run(&a);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(flag), "{flag}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{flag}: {err}");
    }
    let _ = std::fs::remove_dir_all(&out);
}
