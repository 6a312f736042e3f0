//! The MPI backend end to end: `mpirun --oversubscribe` launches the runner on 2 to 4 ranks, and
//! parallel perft of every game, every registered parallel search algorithm on positions of
//! every game (`runner mpi-agreement`), and dib's own examples (N-queens, alpha-beta on the
//! random tree) must give the sequential values. Needs `mpirun` on the PATH (Open MPI); run with
//! `cargo test -p runner --features mpi --test it mpi::`.
#![cfg(feature = "mpi")]

use std::process::{Command, Output};

use serde_json::Value;

const RUNNER: &str = env!("CARGO_BIN_EXE_runner");

/// Runs the runner under `mpirun -n ranks --oversubscribe`.
fn mpirun(ranks: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        .args(["-n", &ranks.to_string(), "--oversubscribe", RUNNER])
        .args(args)
        // Open MPI refuses root without these (CI containers run as root).
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        // A run whose rank died while the others wait fails here within 5 minutes, not at
        // CI's limit (each run takes seconds).
        .env("MPIEXEC_TIMEOUT", "300")
        .output()
        .expect("mpirun starts: install Open MPI (openmpi-bin) to run this test")
}

/// Runs `runner <command> --game <game> --depth <depth> --backend mpi <extra...>` on `ranks`
/// ranks.
fn on_mpi(ranks: usize, command: &str, game: &str, depth: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        command,
        "--game",
        game,
        "--depth",
        depth,
        "--backend",
        "mpi",
    ];
    args.extend_from_slice(extra);
    mpirun(ranks, &args)
}

fn runner(args: &[&str]) -> Output {
    Command::new(RUNNER)
        .args(args)
        .env_remove("OMPI_COMM_WORLD_SIZE")
        .env_remove("PMI_SIZE")
        .env_remove("PMIX_RANK")
        .env_remove("PMI_RANK")
        .output()
        .expect("runner starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The one JSON object that rank 0 printed (and only rank 0: one line).
fn json_of(out: &Output, what: &str) -> Value {
    assert!(
        out.status.success(),
        "{what} failed: {}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{what}: rank 0 alone prints:\n{stdout}");
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{what}: {e}: {stdout}"))
}

#[test]
fn parallel_perft_over_mpi_equals_sequential_for_every_game() {
    let depth = "5";
    for game in games::GameId::ALL.iter().map(|g| g.name()) {
        let seq = runner(&["perft", "--game", game, "--depth", depth, "--json"]);
        let want = json_of(&seq, game)["nodes"].clone();
        assert!(want.as_u64().is_some_and(|n| n > 0), "{game}: {want}");
        for ranks in [2, 3, 4] {
            let what = format!("{game} on {ranks} ranks");
            let v = json_of(&on_mpi(ranks, "perft", game, depth, &["--json"]), &what);
            assert_eq!(v["nodes"], want, "{what}");
            assert_eq!(v["backend"], "mpi", "{what}");
            assert_eq!(v["procs"], ranks, "{what}");
            let per = v["accounting"]["per_processor"]
                .as_array()
                .expect("accounts");
            assert_eq!(per.len(), ranks, "{what}: one account per rank");
        }
    }
}

#[test]
fn every_parallel_algorithm_agrees_with_sequential_search_over_mpi() {
    // Every registered algorithm runs over MPI.
    let algos: Vec<&str> = control::parallel::ParallelAlgo::ALL
        .iter()
        .map(|a| a.name())
        .collect();
    let games: Vec<&str> = games::GameId::ALL.iter().map(|g| g.name()).collect();
    let (mut moved, mut shared) = (0, 0.0);
    for ranks in [2, 3, 4] {
        let what = format!("mpi-agreement on {ranks} ranks");
        // One launch per rank count runs every algorithm on every case.
        let seed = (10 + ranks).to_string();
        let v = json_of(
            &mpirun(
                ranks,
                &["mpi-agreement", "--positions", "2", "--seed", &seed],
            ),
            &what,
        );
        assert_eq!(v["procs"], ranks, "{what}");
        assert_eq!(v["algos"], serde_json::json!(algos), "{what}");
        assert_eq!(v["games"], serde_json::json!(games), "{what}");
        let cases = v["cases"].as_u64().expect("cases");
        // At least one searchable position per game.
        assert!(cases >= games.len() as u64, "{what}: {v}");
        assert_eq!(v["runs"], cases * algos.len() as u64, "{what}");
        assert_eq!(v["disagreements"], serde_json::json!([]), "{what}");
        moved += v["runs_with_work_moved"].as_u64().unwrap_or(0);
        shared += v["lazysmp_entries_received"].as_f64().unwrap_or(0.0);
    }
    // Work really crossed ranks (whether it does in a given run depends on timing, but over
    // all the runs it always has: dozens of the 2-rank runs alone), and so did Lazy SMP's
    // table entries.
    assert!(moved > 0, "no work ever moved between ranks");
    assert!(
        shared > 0.0,
        "Lazy SMP never shared a table entry between ranks"
    );
}

#[test]
fn parallel_search_over_mpi_prints_once_on_rank_0() {
    let seq = runner(&[
        "search",
        "--game",
        "othello",
        "--depth",
        "4",
        "--algo",
        "alphabeta",
        "--json",
    ]);
    let want = json_of(&seq, "sequential search")["value"].clone();
    for algo in control::parallel::ParallelAlgo::ALL {
        let what = format!("search --algo {algo} on 2 ranks");
        let out = on_mpi(
            2,
            "search",
            "othello",
            "4",
            &["--algo", algo.name(), "--json"],
        );
        let v = json_of(&out, &what);
        assert_eq!(v["value"], want, "{what}");
        assert_eq!(v["backend"], "mpi", "{what}");
        assert_eq!(v["procs"], 2, "{what}");
        let per = v["accounting"]["per_processor"].as_array();
        assert_eq!(
            per.map(Vec::len),
            Some(2),
            "{what}: one account per rank: {v}"
        );
    }
    // APHID's shared table needs shared memory: refused, naming the fix.
    let out = on_mpi(
        2,
        "search",
        "tictactoe3",
        "3",
        &["--algo", "aphid", "--aphid-tt", "shared"],
    );
    assert!(
        !out.status.success(),
        "aphid --aphid-tt shared over MPI is refused"
    );
    assert!(
        text(&out.stderr).contains("--aphid-tt local"),
        "{}",
        text(&out.stderr)
    );
    // Text output: one result, from rank 0.
    for algo in ["ybw", "aphid", "lazysmp"] {
        let out = on_mpi(3, "search", "tictactoe4", "3", &["--algo", algo]);
        assert!(out.status.success(), "{algo}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert_eq!(stdout.matches("best move:").count(), 1, "{algo}: {stdout}");
        assert!(stdout.contains("on mpi x3"), "{algo}: {stdout}");
    }
}

#[test]
fn dib_examples_over_three_ranks_equal_sequential() {
    for size in ["6", "8", "9"] {
        let what = format!("{size} queens");
        let v = json_of(
            &mpirun(3, &["mpi-example", "--example", "nqueens", "--size", size]),
            &what,
        );
        assert_eq!(v["value"], v["sequential"], "{what}: {v}");
        assert!(v["value"].as_u64().is_some_and(|n| n > 0), "{what}: {v}");
    }
    for seed in ["0", "1", "2", "3"] {
        let what = format!("alpha-beta tree, seed {seed}");
        let v = json_of(
            &mpirun(
                3,
                &[
                    "mpi-example",
                    "--example",
                    "alphabeta",
                    "--size",
                    "7",
                    "--seed",
                    seed,
                    "--repeat",
                    "3",
                ],
            ),
            &what,
        );
        assert_eq!(v["value"], v["sequential"], "{what}: {v}");
        assert_eq!(v["procs"], 3, "{what}");
        // Three runs in one session: each starts clean after the last one's drain.
        let values = v["values"].as_array().expect("values");
        assert_eq!(values.len(), 3, "{what}: {v}");
        assert!(values.iter().all(|x| *x == v["sequential"]), "{what}: {v}");
    }
}

#[test]
fn mpi_bench_reports_latency_and_throughput() {
    let v = json_of(
        &mpirun(
            2,
            &[
                "mpi-bench",
                "--sizes",
                "0,10000",
                "--round-trips",
                "50",
                "--burst",
                "8",
                "--json",
            ],
        ),
        "mpi-bench",
    );
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2, "{v}");
    for r in rows {
        assert!(
            r["round_trip_median_ns"].as_u64().is_some_and(|t| t > 0),
            "{r}"
        );
        assert!(r["messages_per_s"].as_f64().is_some_and(|m| m > 0.0), "{r}");
    }
}

#[test]
fn usage_errors_are_one_line_with_status_2() {
    // No launcher: a pointer to mpirun, before MPI starts.
    let out = runner(&[
        "perft",
        "--game",
        "tictactoe3",
        "--depth",
        "3",
        "--backend",
        "mpi",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("mpirun"),
        "{}",
        text(&out.stderr)
    );
    // --procs must match the world size (every rank says so and exits 2).
    let out = on_mpi(2, "perft", "tictactoe3", "3", &["--procs", "3"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--procs: 3 but the MPI launcher started 2 ranks"));
    // Another MPI's launcher (MPICH's Hydra sets PMI_SIZE): this binary's Open MPI starts as a
    // singleton, and the runner says the libraries differ.
    let out = Command::new(RUNNER)
        .args([
            "perft",
            "--game",
            "tictactoe3",
            "--depth",
            "3",
            "--backend",
            "mpi",
        ])
        .env("PMI_SIZE", "3")
        .env("PMI_RANK", "0")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("runner starts");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("started 3 processes but MPI sees a world of 1"),
        "{}",
        text(&out.stderr)
    );
    // Simulator flags do not apply.
    let out = runner(&[
        "perft",
        "--game",
        "tictactoe3",
        "--depth",
        "3",
        "--backend",
        "mpi",
        "--faults",
        "drop=1/2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--backend sim"));
}

/// `runner compare --backend mpi` on 2 and then 3 ranks into one folder: rank 0 alone prints
/// and writes (each cell once), every value equals sequential search's, a rerun resumes every
/// cell, a launch of another size adds only its own cells, and a processor count other than
/// the world size is refused naming it.
#[test]
fn compare_over_mpi_writes_each_cell_once_and_agrees_with_sequential() {
    let algos: Vec<&str> = control::parallel::ParallelAlgo::ALL
        .iter()
        .take(2)
        .map(|a| a.name())
        .collect();
    let algos = algos.join(",");
    let dir = std::env::temp_dir().join(format!("runner-mpi-compare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out_dir = dir.to_str().expect("utf-8 temp path");
    let args = [
        "compare",
        "--game",
        "tictactoe4",
        "--testset",
        "tictactoe4",
        "--positions",
        "2",
        "--algos",
        &algos,
        "--depth",
        "3",
        "--backend",
        "mpi",
        "--out",
        out_dir,
    ];
    let cells = || -> Vec<Value> {
        std::fs::read_to_string(dir.join("cells.jsonl"))
            .expect("cells.jsonl")
            .lines()
            .map(|l| serde_json::from_str(l).expect("a cell per line"))
            .collect()
    };
    let keys = |cells: &[Value]| -> Vec<String> {
        let mut k: Vec<String> = cells
            .iter()
            .map(|c| {
                format!(
                    "{} {} {} {} {}",
                    c["kind"], c["line"], c["series"], c["procs"], c["seed"]
                )
            })
            .collect();
        k.sort();
        k
    };

    let out = mpirun(2, &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("per-position mean").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("report: ").count(), 1, "{stdout}");
    // 2 baselines, and 2 positions x 2 series x processors {1, 2}: each cell written once.
    let first = cells();
    assert_eq!(first.len(), 10, "{first:?}");
    let mut unique = keys(&first);
    unique.dedup();
    assert_eq!(unique.len(), 10, "a cell written twice: {first:?}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).expect("json"))
            .expect("results.json parses");
    assert_eq!(json["procs"], serde_json::json!([1, 2]));
    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 8);
    for row in rows {
        assert_eq!(row["value"], row["baseline_value"], "{row}");
    }
    // The values are sequential search's (the plain search core, no DIB at all).
    for p in json["positions"].as_array().expect("positions") {
        let position = p["position"].as_str().expect("position");
        let seq = runner(&[
            "search",
            "--game",
            "tictactoe4",
            "--position",
            position,
            "--depth",
            "3",
            "--algo",
            "alphabeta",
            "--json",
        ]);
        let want = &json_of(&seq, position)["value"];
        for row in rows.iter().filter(|r| r["line"] == p["line"]) {
            assert_eq!(&row["value"], want, "{row}");
        }
    }
    // Over MPI: the 2-processor runs have an account per rank.
    for c in first.iter().filter(|c| c["procs"] == 2) {
        assert_eq!(c["busy_ns"].as_array().map(Vec::len), Some(2), "{c}");
    }

    // The same launch again: every cell resumed (said once, by rank 0), nothing recomputed.
    let again = mpirun(2, &args);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let stderr = text(&again.stderr);
    assert_eq!(
        stderr.matches("resuming: 10 finished cells").count(),
        1,
        "{stderr}"
    );
    assert_eq!(keys(&cells()), keys(&first));

    // Three ranks: the baselines and 1-processor runs are resumed, the 3-rank cells added.
    let three = mpirun(3, &args);
    assert!(three.status.success(), "{}", text(&three.stderr));
    let after = cells();
    assert_eq!(after.len(), 14, "{after:?}");
    let mut unique = keys(&after);
    unique.dedup();
    assert_eq!(unique.len(), 14, "a cell written twice: {after:?}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).expect("json"))
            .expect("results.json parses");
    assert_eq!(json["procs"], serde_json::json!([1, 3]));
    for row in json["rows"].as_array().expect("rows") {
        assert_eq!(row["value"], row["baseline_value"], "{row}");
    }

    // A processor count the launch cannot run: refused, naming the world size.
    let mut four = args.to_vec();
    four.extend(["--procs", "4"]);
    let refused = mpirun(2, &four);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("this MPI launch has 2 ranks"),
        "{}",
        text(&refused.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
