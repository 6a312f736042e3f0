//! The runner as a user sees it: outputs, JSON, and errors with exit status 2.

use std::process::{Command, Output};

fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .output()
        .expect("runner starts")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn list_names_every_game() {
    let out = runner(&["list"]);
    assert!(out.status.success());
    for name in games::GameId::ALL.iter().map(|g| g.name()) {
        assert!(stdout(&out).contains(name), "{name} missing from list");
    }
    let out = runner(&["list", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert_eq!(
        v["games"].as_array().unwrap().len(),
        games::GameId::ALL.len()
    );
    // Every simulator preset, with the numbers `--sim-preset` would use.
    let presets = v["sim_presets"].as_array().expect("sim_presets");
    let names: Vec<&str> = presets.iter().filter_map(|p| p["name"].as_str()).collect();
    assert_eq!(names, dib::preset_names().collect::<Vec<_>>());
    for p in presets {
        assert!(p["model"]["node_ns"].as_u64().is_some_and(|n| n > 0), "{p}");
        assert!(stdout(&runner(&["list"])).contains(p["name"].as_str().unwrap_or("?")));
    }
}

/// The help of `--sim-preset` names every built-in preset (it is made from dib's table).
#[test]
fn sim_preset_help_names_every_preset() {
    for command in ["search", "compare"] {
        let out = runner(&[command, "--help"]);
        assert!(out.status.success());
        let help = stdout(&out);
        for name in dib::preset_names() {
            assert!(help.contains(name), "{command} --help lacks {name}: {help}");
        }
    }
}

#[test]
fn perft_json_is_one_object_with_the_common_keys() {
    let out = runner(&["perft", "--game", "tictactoe3", "--depth", "4", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(v["nodes"], 3024);
    assert_eq!(v["game"], "tictactoe3");
    assert_eq!(v["depth"], 4);
    assert!(v["seconds"].is_number() && v["nodes_per_second"].is_number());
}

#[test]
fn perft_divide_lists_root_moves() {
    let out = runner(&[
        "perft",
        "--game",
        "synthetic",
        "--position",
        "b=3 d=4",
        "--depth",
        "3",
        "--divide",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in ["0: 9", "1: 9", "2: 9", "27 leaves"] {
        assert!(text.contains(line), "missing '{line}' in:\n{text}");
    }
}

#[test]
fn bad_input_gives_one_line_and_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "--game", "go", "--depth", "2"],
            "unknown game 'go'",
        ),
        (
            &["perft", "--game", "tictactoe3", "--depth", "99"],
            "--depth",
        ),
        (
            &["perft", "--game", "tictactoe3", "--depth", "x"],
            "--depth",
        ),
        (
            &[
                "perft",
                "--game",
                "tictactoe3",
                "--depth",
                "2",
                "--position",
                "XXXX",
            ],
            "--position",
        ),
        (&["perft", "--game", "tictactoe4"], "--depth"),
        (
            &[
                "perft",
                "--game",
                "synthetic",
                "--depth",
                "2",
                "--position",
                "b=0",
            ],
            "'b' is out of range",
        ),
        (&["frobnicate"], "frobnicate"),
    ];
    for (args, needle) in cases {
        let out = runner(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?} printed to stdout");
    }
}
