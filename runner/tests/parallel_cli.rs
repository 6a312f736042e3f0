//! `runner search --procs N` end to end: every parallel algorithm listed by `runner list`
//! agrees with the sequential search, the JSON object carries the runtime's accounting, sim
//! runs repeat exactly, and bad flags give a one-line error with exit status 2.

mod common;

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
            &[
                "--depth",
                "3",
                "--algo",
                "ybw",
                "--procs",
                "2",
                "--setting",
                "play",
            ][..],
            "--setting",
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

/// A search of Rezaie and Finkel's unsorted 4x4 tic-tac-toe tree, 5 plies, in JSON.
const UNSORTED_SEARCH: [&str; 7] = [
    "search",
    "--game",
    "tictactoe4",
    "--depth",
    "5",
    "--unsorted",
    "--json",
];

#[test]
fn mwf_wait_reaches_the_search_and_keeps_the_value() {
    // MWF's type-2 "wait for finite beta" rule, on (the default) and off: the option is in the
    // JSON, the simulated runs search different trees (so the flag reached the algorithm),
    // and both return the sequential value. On Rezaie and Finkel's unsorted tree, the rule's
    // setting: with move ordering this small search opens no type-2 frame that waits.
    let base = UNSORTED_SEARCH;
    let seq = json_of(&[&base[..], &["--algo", "alphabeta"]].concat());
    for algo in ["mwf", "dmwf"] {
        let run = |wait: Option<&str>| {
            let mut args = base.to_vec();
            args.extend(["--algo", algo, "--procs", "4", "--backend", "sim"]);
            if let Some(w) = wait {
                args.extend(["--mwf-wait", w]);
            }
            json_of(&args)
        };
        let (default, on, off) = (run(None), run(Some("on")), run(Some("off")));
        assert_eq!(default["mwf_wait"], true, "{algo}");
        assert_eq!(on["mwf_wait"], true, "{algo}");
        assert_eq!(off["mwf_wait"], false, "{algo}");
        assert_eq!(default["nodes"], on["nodes"], "{algo}");
        assert_ne!(
            on["nodes"], off["nodes"],
            "{algo}: the rule changes the tree"
        );
        for v in [&on, &off] {
            assert_eq!(v["value"], seq["value"], "{algo}: {v}");
        }
    }
    // Only MWF and DMWF have the rule, and only parallel runs.
    for (extra, needle) in [
        (&["--algo", "ybw", "--procs", "2"][..], "mwf and dmwf only"),
        (&["--algo", "alphabeta"][..], "needs --procs"),
    ] {
        let mut args = vec![
            "search",
            "--game",
            "tictactoe4",
            "--depth",
            "3",
            "--mwf-wait",
            "off",
        ];
        args.extend_from_slice(extra);
        let out = runner(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn mwf_cutoffs_and_dmwf_promote_reach_the_search_and_keep_the_value() {
    // Rezaie and Finkel's readings of MWF (no deep cutoffs, the default) and DMWF (the children
    // strictly above the percentile instead of the eldest, the default) against the former ones:
    // each is in the JSON, changes the tree on the unsorted tree, and keeps the sequential value.
    let base = UNSORTED_SEARCH;
    let seq = json_of(&[&base[..], &["--algo", "alphabeta"]].concat());
    let run = |algo: &str, extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend(["--algo", algo, "--procs", "4", "--backend", "sim"]);
        args.extend_from_slice(extra);
        json_of(&args)
    };
    let shallow = run("mwf", &[]);
    let deep = run("mwf", &["--mwf-cutoffs", "deep"]);
    assert_eq!(shallow["mwf_cutoffs"], "shallow");
    assert_eq!(deep["mwf_cutoffs"], "deep");
    assert_ne!(
        shallow["nodes"], deep["nodes"],
        "the cutoffs change the tree"
    );
    let replace = run("dmwf", &["--dmwf-promote", "replace"]);
    let beside = run("dmwf", &["--dmwf-promote", "beside"]);
    assert_eq!(replace["dmwf_promote"], "replace");
    assert_eq!(beside["dmwf_promote"], "beside");
    for v in [&shallow, &deep, &replace, &beside] {
        assert_eq!(v["value"], seq["value"], "{v}");
    }
    // Bad input: one line, exit status 2.
    for (extra, needle) in [
        (
            &["--algo", "ybw", "--procs", "2", "--mwf-cutoffs", "deep"][..],
            "mwf and dmwf only",
        ),
        (
            &["--algo", "mwf", "--procs", "2", "--dmwf-promote", "beside"][..],
            "dmwf only",
        ),
        (
            &["--algo", "mwf", "--procs", "2", "--mwf-cutoffs", "none"][..],
            "shallow",
        ),
        (
            &["--algo", "alphabeta", "--mwf-cutoffs", "deep"][..],
            "needs --procs",
        ),
    ] {
        let err = refused(extra, needle);
        assert_eq!(err.trim().lines().count(), 1, "{extra:?}: {err}");
    }
}

#[test]
fn tree_root_and_pv_form_reach_the_search_and_keep_the_value() {
    // Rezaie and Finkel's readings of tree splitting (the root's processor only a master) and PV
    // splitting (tree splitting below the type-1 nodes): each is in the JSON, changes the
    // search, and keeps the sequential value.
    let base = UNSORTED_SEARCH;
    let seq = json_of(&[&base[..], &["--algo", "alphabeta"]].concat());
    let run = |algo: &str, extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend(["--algo", algo, "--procs", "4", "--backend", "sim"]);
        args.extend_from_slice(extra);
        json_of(&args)
    };
    let worker = run("treesplit", &[]);
    let master = run("treesplit", &["--tree-root", "master"]);
    assert_eq!(worker["tree_root"], "worker");
    assert_eq!(master["tree_root"], "master");
    assert_ne!(
        worker["seconds"], master["seconds"],
        "the master changes the run"
    );
    let mp = run("pvsplit", &[]);
    let rf = run("pvsplit", &["--pv-form", "rf"]);
    assert_eq!(mp["pv_form"], "mp");
    assert_eq!(rf["pv_form"], "rf");
    assert_ne!(mp["nodes"], rf["nodes"], "the form changes the tree");
    for v in [&worker, &master, &mp, &rf] {
        assert_eq!(v["value"], seq["value"], "{v}");
    }
    for (extra, needle) in [
        (
            &["--algo", "mwf", "--procs", "2", "--tree-root", "master"][..],
            "treesplit and pvsplit only",
        ),
        (
            &["--algo", "treesplit", "--procs", "2", "--pv-form", "rf"][..],
            "pvsplit only",
        ),
        (
            &["--algo", "pvsplit", "--procs", "2", "--pv-form", "pvs"][..],
            "[possible values: mp, rf]",
        ),
        (
            &[
                "--algo",
                "treesplit",
                "--procs",
                "2",
                "--tree-root",
                "slave",
            ][..],
            "[possible values: worker, master]",
        ),
    ] {
        let err = refused(extra, needle);
        assert_eq!(err.trim().lines().count(), 1, "{extra:?}: {err}");
    }
}

/// `runner search` on tic-tac-toe at depth 3 with `extra`: exit status 2 and a message that
/// contains `needle`, which is returned.
fn refused(extra: &[&str], needle: &str) -> String {
    let mut args = vec!["search", "--game", "tictactoe4", "--depth", "3"];
    args.extend_from_slice(extra);
    let out = runner(&args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    err
}

#[test]
fn ybw_rule_reaches_the_search_and_keeps_the_value() {
    // YBWC* splits type-3 nodes before their eldest child is done: in the JSON, another
    // schedule than plain YBW's on 8 simulated processors, the sequential value.
    let base = [
        "search",
        "--game",
        "othello",
        "--depth",
        "6",
        "--json",
        "--algo",
        "ybw",
        "--procs",
        "8",
        "--backend",
        "sim",
        "--min-split-depth",
        "2",
    ];
    let seq = json_of(&["search", "--game", "othello", "--depth", "6", "--json"]);
    let plain = json_of(&base);
    let star = json_of(&[&base[..], &["--ybw-rule", "star"]].concat());
    assert_eq!(plain["ybw_rule"], "plain");
    assert_eq!(star["ybw_rule"], "star");
    assert_ne!(
        plain["nodes"], star["nodes"],
        "the rule changes the schedule"
    );
    for v in [&plain, &star] {
        assert_eq!(v["value"], seq["value"], "{v}");
    }
    for (extra, needle) in [
        (
            &["--algo", "mwf", "--procs", "2", "--ybw-rule", "star"][..],
            "delaysplit only",
        ),
        (
            &["--algo", "ybw", "--procs", "2", "--ybw-rule", "yes"][..],
            "star",
        ),
        (
            &["--algo", "alphabeta", "--ybw-rule", "star"][..],
            "needs --procs",
        ),
    ] {
        refused(extra, needle);
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

/// `--split-width`: reaches tree splitting and PV splitting (in the JSON, and a narrower
/// processor tree searches another tree on 8 simulated processors) and keeps the value;
/// out of range or for another algorithm it is refused.
#[test]
fn split_width_reaches_treesplit_and_pvsplit() {
    let base = [
        "search",
        "--game",
        "tictactoe4",
        "--depth",
        "6",
        "--unsorted",
        "--json",
    ];
    let seq = json_of(&[&base[..], &["--algo", "alphabeta"]].concat());
    for algo in ["treesplit", "pvsplit"] {
        let run = |width: Option<&str>| {
            let mut args = base.to_vec();
            args.extend(["--algo", algo, "--procs", "8", "--backend", "sim"]);
            args.extend(["--min-split-depth", "2"]);
            if let Some(w) = width {
                args.extend(["--split-width", w]);
            }
            json_of(&args)
        };
        let (default, ten, one) = (run(None), run(Some("10")), run(Some("1")));
        assert_eq!(default["split_width"], 10, "{algo}");
        assert_eq!(default["unsorted"], true, "{algo}");
        assert_eq!(one["split_width"], 1, "{algo}");
        assert_eq!(default["nodes"], ten["nodes"], "{algo}");
        assert_ne!(default["seconds"], one["seconds"], "{algo}");
        for v in [&default, &one] {
            assert_eq!(v["value"], seq["value"], "{algo}: {v}");
        }
    }
    for (extra, needle) in [
        (
            &["--algo", "mwf", "--split-width", "4"][..],
            "treesplit and pvsplit only",
        ),
        (
            &["--algo", "treesplit", "--split-width", "0"][..],
            "out of range",
        ),
    ] {
        let mut args = vec![
            "search",
            "--game",
            "tictactoe4",
            "--depth",
            "3",
            "--procs",
            "2",
            "--backend",
            "sim",
        ];
        args.extend_from_slice(extra);
        let out = runner(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(needle) && err.contains("--split-width"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn ybw_windows_and_er_e_children_reach_the_search_and_keep_the_value() {
    // Rezaie and Finkel's readings of delay splitting (windows by value) and ER (always one active
    // e-child): in the JSON, another schedule than the defaults' on 4 simulated processors of
    // the unsorted tree, the sequential value.
    let base = UNSORTED_SEARCH;
    let seq = json_of(&[&base[..], &["--algo", "alphabeta"]].concat());
    let run = |algo: &str, extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend(["--algo", algo, "--procs", "4", "--backend", "sim"]);
        args.extend(["--min-split-depth", "2"]);
        args.extend_from_slice(extra);
        json_of(&args)
    };
    let spread = run("delaysplit", &[]);
    let by_value = run("delaysplit", &["--ybw-windows", "by-value"]);
    assert_eq!(spread["ybw_windows"], "spread");
    assert_eq!(by_value["ybw_windows"], "by-value");
    let split = run("er", &[]);
    let active = run("er", &["--er-e-children", "active"]);
    assert_eq!(split["er_e_children"], "split");
    assert_eq!(active["er_e_children"], "active");
    for (a, b) in [(&spread, &by_value), (&split, &active)] {
        assert_ne!(a["nodes"], b["nodes"], "the reading changes the schedule");
    }
    for v in [&spread, &by_value, &split, &active] {
        assert_eq!(v["value"], seq["value"], "{v}");
    }
    for (extra, needle) in [
        (
            &["--algo", "er", "--procs", "2", "--ybw-windows", "by-value"][..],
            "delaysplit only",
        ),
        (
            &["--algo", "ybw", "--procs", "2", "--er-e-children", "active"][..],
            "er only",
        ),
        (
            &["--algo", "ybw", "--procs", "2", "--ybw-windows", "value"][..],
            "by-value",
        ),
        (
            &["--algo", "er", "--procs", "2", "--er-e-children", "all"][..],
            "active",
        ),
        (
            &["--algo", "alphabeta", "--ybw-windows", "by-value"][..],
            "needs --procs",
        ),
    ] {
        let err = refused(extra, needle);
        assert_eq!(err.trim().lines().count(), 1, "{extra:?}: {err}");
    }
}
