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

/// A malformed cost-model or APHID configuration file is bad input: exit status 2 and one
/// line of error that names the flag, the file, the line and column, and what is wrong.
#[test]
fn a_malformed_toml_file_is_one_line_naming_the_file_and_the_place() {
    let dir = std::env::temp_dir().join(format!("runner-cli-bad-toml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let search = [
        "search", "--game", "chess", "--depth", "1", "--procs", "2", "--algo", "aphid",
    ];
    // (flag and its companions, the file's text, where it is wrong, words of the message)
    let cases: [(&[&str], &str, &str, &str); 4] = [
        (
            &["--backend", "sim", "--sim-preset"],
            "name = \"x\"\n[games\nnode_ns = 1\n",
            "line 2, column 7",
            "invalid table header",
        ),
        (
            &["--backend", "sim", "--sim-preset"],
            "name = \"x\"\nnode_ns = \n",
            "line 2, column 11",
            "invalid string",
        ),
        (
            &["--aphid-config"],
            "[geometry\nmaster_depth = 2\n",
            "line 1, column 10",
            "invalid table header",
        ),
        (
            &["--aphid-config"],
            "[geometry]\nmaster_depth = \n",
            "line 2, column 16",
            "invalid string",
        ),
    ];
    for (i, (flags, text, place, words)) in cases.into_iter().enumerate() {
        let file = dir.join(format!("bad-{i}.toml"));
        std::fs::write(&file, text).expect("the file is written");
        let path = file.to_str().expect("a UTF-8 temp path");
        let args: Vec<&str> = search.iter().chain(flags).copied().chain([path]).collect();
        let out = runner(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        let flag = flags.last().expect("a flag");
        for part in [*flag, path, place, words] {
            assert!(err.contains(part), "{args:?}: '{part}' missing from {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
