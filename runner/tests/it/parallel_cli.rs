//! `runner search --procs N` end to end: every parallel algorithm listed by `runner list`
//! agrees with the sequential search, the JSON object carries the runtime's accounting, sim
//! runs repeat exactly, and bad flags give a one-line error with exit status 2. What each
//! algorithm option does to the search is checked in-process by `lab/tests/it/search_flags.rs`.

use crate::common;

use common::{json_of, runner};

fn parallel_names() -> Vec<String> {
    let list = json_of(&["list", "--json"]);
    let algos = list["parallel_algorithms"]
        .as_array()
        .expect("list --json has parallel_algorithms");
    for a in algos {
        for key in ["name", "description", "paper", "aliases"] {
            assert!(!a[key].is_null(), "{key} missing in {a}");
        }
    }
    algos
        .iter()
        .map(|a| a["name"].as_str().expect("a name").to_string())
        .collect()
}

#[test]
fn every_parallel_algorithm_agrees_with_the_sequential_search() {
    let names = parallel_names();
    assert!(names.iter().any(|n| n == "delaysplit"));
    for (game, depth) in [("tictactoe4", "5"), ("othello6", "4")] {
        let seq = json_of(&[
            "search",
            "--game",
            game,
            "--depth",
            depth,
            "--algo",
            "alphabeta",
            "--json",
        ]);
        for name in &names {
            for backend in ["sim", "threads"] {
                let v = json_of(&[
                    "search",
                    "--game",
                    game,
                    "--depth",
                    depth,
                    "--algo",
                    name,
                    "--procs",
                    "3",
                    "--backend",
                    backend,
                    "--seed",
                    "7",
                    "--json",
                ]);
                assert_eq!(v["value"], seq["value"], "{name} on {backend}, {game}");
                assert_eq!(v["algo"], name.as_str());
                assert_eq!(v["backend"], backend);
                assert_eq!(v["procs"], 3);
                assert_eq!(v["seed"], 7);
                // No --min-split-depth: the algorithm's own granularity.
                let granularity = match name.as_str() {
                    "delaysplit" | "alphabeta" => 5,
                    "abdib" | "mwf" | "dmwf" | "treesplit" | "pvsplit" | "er" => 4,
                    _ => 2,
                };
                assert_eq!(v["min_split_depth"], granularity, "{name}");
                assert!(v["best_move"].is_string(), "{v}");
                assert!(v["nodes"].as_u64().is_some_and(|n| n > 0));
                assert!(v["seconds"].as_f64().is_some());
                let per = v["accounting"]["per_processor"]
                    .as_array()
                    .expect("per-processor accounting");
                assert_eq!(per.len(), 3);
                let sum: u64 = per.iter().map(|p| p["nodes"].as_u64().unwrap_or(0)).sum();
                assert_eq!(sum, v["nodes"].as_u64().unwrap_or(0), "{name}");
            }
        }
    }
}

#[test]
fn simulated_searches_repeat_exactly_and_accept_faults() {
    let args = [
        "search",
        "--game",
        "tictactoe4",
        "--depth",
        "6",
        "--algo",
        "ybw",
        "--procs",
        "8",
        "--backend",
        "sim",
        "--sim-preset",
        "sun4-pvm",
        "--seed",
        "3",
        "--json",
    ];
    let (a, b) = (json_of(&args), json_of(&args));
    assert_eq!(a["algo"], "delaysplit");
    assert_eq!(
        a["accounting"]["sim"]["trace_hash"],
        b["accounting"]["sim"]["trace_hash"]
    );
    assert_eq!(a["seconds"], b["seconds"]);
    assert_eq!(a["nodes"], b["nodes"]);
    let mut faulty = args.to_vec();
    faulty.extend_from_slice(&["--faults", "crash=2@100,drop=1/20,dup=1/20"]);
    let f = json_of(&faulty);
    assert_eq!(f["value"], a["value"]);
    assert!(f["faults"].is_string());
    let text = runner(&args[..args.len() - 1]);
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("virtual s") && text.contains("proc   7"),
        "{text}"
    );
}

#[test]
fn bad_parallel_flags_exit_2_with_one_line() {
    let base = ["search", "--game", "tictactoe4"];
    for (extra, needle) in [
        (&["--depth", "3", "--backend", "sim"][..], "--backend"),
        (&["--depth", "3", "--algo", "ybw"][..], "--procs"),
        (
            &["--depth", "3", "--algo", "nosuch", "--procs", "2"][..],
            "--algo",
        ),
        (
            &["--nodes", "100", "--algo", "ybw", "--procs", "2"][..],
            "--nodes",
        ),
        (
            &["--depth", "3", "--algo", "ybw", "--procs", "0"][..],
            "--procs",
        ),
        (
            &[
                "--depth", "3", "--algo", "ybw", "--procs", "2", "--faults", "drop=1/2",
            ][..],
            "--backend sim",
        ),
        (
            &["--depth", "3", "--min-split-depth", "2"][..],
            "--min-split-depth",
        ),
        (
            &[
                "--depth",
                "3",
                "--algo",
                "ybw",
                "--procs",
                "2",
                "--min-split-depth",
                "0",
            ][..],
            "--min-split-depth",
        ),
        (
            &["--algo", "ybw", "--procs", "2", "--setting", "play"][..],
            "--time-ms",
        ),
        (
            &[
                "--time-ms",
                "100",
                "--algo",
                "ybw",
                "--procs",
                "2",
                "--setting",
                "play",
                "--backend",
                "mpi",
            ][..],
            "--backend",
        ),
        (
            &[
                "--depth",
                "3",
                "--algo",
                "ybw",
                "--procs",
                "2",
                "--backend",
                "mpi",
            ][..],
            "--backend",
        ),
        (
            &[
                "--depth",
                "3",
                "--algo",
                "treesplit",
                "--procs",
                "2",
                "--tree-root",
                "slave",
            ][..],
            "[possible values: worker, master]",
        ),
        (
            &[
                "--depth",
                "3",
                "--algo",
                "mwf",
                "--procs",
                "2",
                "--ybw-rule",
                "star",
            ][..],
            "delaysplit only",
        ),
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let out = runner(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_cost_model_file_drives_the_simulator() {
    let dir = std::env::temp_dir().join(format!("runner-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let slow = dir.join("slow.toml");
    std::fs::write(
        &slow,
        "name = \"slow\"\nnode_ns = 1000000\nsend_overhead_ns = 5000\n\
         recv_overhead_ns = 5000\nlatency_ns = 2000\n",
    )
    .expect("write the model");
    let search = |preset: &str| {
        json_of(&[
            "search",
            "--game",
            "tictactoe4",
            "--depth",
            "4",
            "--algo",
            "delaysplit",
            "--procs",
            "2",
            "--backend",
            "sim",
            "--sim-preset",
            preset,
            "--json",
        ])
    };
    let base = search("shared-memory");
    let slow_run = search(slow.to_str().expect("a UTF-8 path"));
    let sequent = search("sequent");
    assert_eq!(slow_run["value"], base["value"]);
    assert_eq!(sequent["value"], base["value"]);
    let seconds = |v: &serde_json::Value| v["seconds"].as_f64().expect("seconds");
    // 100 times the node cost, the same messages: far slower.
    assert!(seconds(&slow_run) > 20.0 * seconds(&base), "{slow_run}");

    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"bad\"\nnode_ns = 1\nwarp = 3\n").expect("write");
    for (preset, says) in [
        (bad.to_str().expect("UTF-8"), "warp"),
        ("missing-file.toml", "cannot read"),
        ("cray", "unknown simulator preset"),
    ] {
        let out = runner(&[
            "search",
            "--game",
            "tictactoe4",
            "--depth",
            "3",
            "--algo",
            "delaysplit",
            "--procs",
            "2",
            "--backend",
            "sim",
            "--sim-preset",
            preset,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{preset}: {err}");
        assert!(err.contains("--sim-preset") && err.contains(says), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_play_setting_deepens_under_a_clock_on_threads_and_in_virtual_time() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "search",
            "--game",
            "checkers",
            "--setting",
            "play",
            "--procs",
            "2",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = runner(&args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("one JSON object")
    };
    for algo in ["delaysplit", "lazysmp", "abdada", "aphid"] {
        let v = run(&["--algo", algo, "--time-ms", "150"]);
        assert!(v["depth"].as_u64().unwrap() >= 3, "{algo}: {v}");
        assert!(v["seconds"].as_f64().unwrap() < 0.5, "{algo}: {v}");
        assert!(v["best_move"].is_string(), "{algo}: {v}");
        let its = v["iterations"].as_array().unwrap();
        assert_eq!(
            its.len() as u64,
            v["depth"].as_u64().unwrap(),
            "{algo}: {v}"
        );
    }
    // Virtual time: the same run twice, within its budget of simulated time.
    let sim = ["--algo", "ybw", "--backend", "sim", "--time-ms", "40"];
    let (a, b) = (run(&sim), run(&sim));
    assert_eq!(a["nodes"], b["nodes"]);
    assert_eq!(a["pv"], b["pv"]);
    assert!(a["seconds"].as_f64().unwrap() <= 0.041, "{a}");
}
