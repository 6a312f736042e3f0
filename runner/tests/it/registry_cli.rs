//! Every registered game through every subcommand, from its registry entry alone (`runner list`
//! names them; nothing here names a game except to pick examples): `solve` with iterations and
//! a time limit, `compare` without a test set, one `--position` grammar for perft, search, solve,
//! compare and play; built-in test sets by name from any folder; EPD `bm` scoring; parallel
//! search output in the sequential shape.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output};

use common::{json_of, runner};
use serde_json::Value;

/// Every game name of `runner list --json`.
fn games() -> Vec<String> {
    json_of(&["list", "--json"])["games"]
        .as_array()
        .expect("a list of games")
        .iter()
        .map(|g| g["name"].as_str().expect("a name").to_string())
        .collect()
}

/// A fresh empty folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn succeeded(args: &[&str], out: &Output) -> String {
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn every_registered_game_is_solved_with_iterations_within_a_time_limit() {
    for game in games() {
        let args = ["solve", "--game", &game, "--time-ms", "300", "--json"];
        let v = json_of(&args);
        assert!(v.get("exact").is_some(), "{game}: {v}");
        if v["solver"]
            .as_str()
            .is_some_and(|s| s.starts_with("generic"))
        {
            let iterations = v["iterations"].as_array().expect("iterations");
            assert!(!iterations.is_empty(), "{game}: {v}");
            for it in iterations {
                for key in ["depth", "value", "nodes", "seconds"] {
                    assert!(it.get(key).is_some(), "{game}: {key} missing in {it}");
                }
            }
            assert!(v["best_move"].is_string(), "{game}: {v}");
        }
    }
    // A game that cannot be solved in time says so, and still exits 0.
    let args = ["solve", "--game", "chess", "--time-ms", "200"];
    let text = succeeded(&args, &runner(&args));
    assert!(
        text.contains("depth   1") && text.contains("not solved within 200 ms"),
        "{text}"
    );
    // A solvable one prints its iterations, then the search to the end and the exact value.
    let args = [
        "solve",
        "--game",
        "tictactoe4",
        "--position",
        "XXX-/OO--/O---/----",
    ];
    let text = succeeded(&args, &runner(&args));
    assert!(
        text.contains("depth   1")
            && text.contains("to the end")
            && text.contains("win in 1 plies"),
        "{text}"
    );
}

#[test]
fn compare_without_a_testset_falls_back_to_the_start_and_seeded_random_positions() {
    for game in games() {
        let out_dir = scratch(&format!("compare-fallback-{game}"));
        let out_text = out_dir.to_string_lossy().to_string();
        let args = [
            "compare",
            "--game",
            &game,
            "--depth",
            "2",
            "--algos",
            "alphabeta",
            "--procs",
            "2",
            "--positions",
            "3",
            "--out",
            &out_text,
        ];
        let out = runner(&args);
        succeeded(&args, &out);
        let err = String::from_utf8_lossy(&out.stderr);
        let has_own_set = ["tictactoe4", "checkers", "synthetic"].contains(&game.as_str());
        assert_eq!(
            err.contains("random positions (seed 1)"),
            !has_own_set,
            "{game}: {err}"
        );
    }
}

/// The start position of `game` as the runner prints it.
fn start_position(game: &str) -> String {
    json_of(&["perft", "--game", game, "--depth", "0", "--json"])["position"]
        .as_str()
        .expect("a position")
        .to_string()
}

#[test]
fn one_position_grammar_serves_perft_search_solve_compare_and_play() {
    let dir = scratch("one-grammar");
    for game in games() {
        let position = if game == "tictactoe4" {
            "----/----/----/----".to_string()
        } else {
            start_position(&game)
        };
        let file = dir.join(format!("{game}.txt"));
        std::fs::write(&file, format!("{position}\n")).expect("write the position");
        let file = file.to_string_lossy().to_string();
        let out = dir
            .join(format!("{game}-compare"))
            .to_string_lossy()
            .to_string();
        let at = ["--game", game.as_str(), "--position", position.as_str()];
        let mut runs: Vec<Vec<&str>> = [
            ["perft", "--depth", "1"],
            ["search", "--depth", "1"],
            ["solve", "--time-ms", "50"],
        ]
        .iter()
        .map(|[command, flag, value]| [&[*command][..], &at, &[*flag, *value]].concat())
        .collect();
        let files: [&[&str]; 2] = [
            &[
                "compare",
                "--game",
                &game,
                "--testset",
                &file,
                "--depth",
                "1",
                "--algos",
                "alphabeta",
                "--procs",
                "2",
                "--out",
                &out,
            ],
            &[
                "play",
                "--game",
                &game,
                "--a",
                "algo=pvs",
                "--b",
                "algo=alphabeta",
                "--games",
                "1",
                "--depth",
                "1",
                "--max-plies",
                "2",
                "--openings",
                &file,
            ],
        ];
        runs.extend(files.iter().map(|a| a.to_vec()));
        for args in &runs {
            succeeded(args, &runner(args));
        }
    }
}

#[test]
fn a_bare_name_is_the_embedded_test_set_from_any_folder() {
    let dir = scratch("elsewhere");
    let args = [
        "search",
        "--game",
        "othello6",
        "--testset",
        "othello6_roots",
        "--depth",
        "2",
        "--json",
    ];
    let out = Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("the runner runs");
    let v: Value = serde_json::from_str(&succeeded(&args, &out)).expect("one JSON object");
    assert_eq!(v["positions"].as_array().map(Vec::len), Some(4), "{v}");
    assert_eq!(v["testset"], "othello6_roots");
    let listed = json_of(&["list", "--json"])["testsets"].clone();
    assert!(
        listed.as_array().is_some_and(|l| l
            .iter()
            .any(|t| t["name"] == "othello6_roots" && t["positions"] == 4)),
        "{listed}"
    );
    // No source path is compiled in: the test sets are embedded (build.rs) or read by path.
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(!text.contains("CARGO_MANIFEST_DIR"), "{}", path.display());
        }
    }
}

#[test]
fn epd_best_moves_are_scored() {
    let dir = scratch("bm");
    let file = dir.join("mates.epd");
    std::fs::write(
        &file,
        "# a mate in one, once with its mate as bm and once with a quiet king move\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Kf1; id \"not the mate\";\n",
    )
    .expect("write the test set");
    let file = file.to_string_lossy().to_string();
    let args = [
        "search",
        "--game",
        "chess",
        "--testset",
        &file,
        "--depth",
        "2",
    ];
    let v = json_of(&[&args[..], &["--json"]].concat());
    assert_eq!(v["best_moves"]["found"], 1, "{v}");
    assert_eq!(v["best_moves"]["scored"], 2, "{v}");
    assert_eq!(v["positions"][0]["found"], true, "{v}");
    assert_eq!(v["positions"][1]["found"], false, "{v}");
    let text = succeeded(&args, &runner(&args));
    assert!(text.contains("1 of 2 best moves found"), "{text}");
    assert!(
        text.contains("bm Ra8#: found") || text.contains("bm a1a8: found"),
        "{text}"
    );
    assert!(text.contains(": not found"), "{text}");
    // The built-in Bratko-Kopec set, by name: all 24 positions are scored.
    let v = json_of(&[
        "search",
        "--game",
        "chess",
        "--testset",
        "bratko_kopec",
        "--depth",
        "1",
        "--json",
    ]);
    assert_eq!(v["best_moves"]["scored"], 24, "{v}");
}

#[test]
fn parallel_search_prints_like_the_sequential_search() {
    let depth = "5";
    let base = ["search", "--game", "tictactoe4", "--depth", depth];
    let sequential = json_of(&[&base[..], &["--json"]].concat());
    let v = json_of(&[&base[..], &["--procs", "2", "--algo", "ybw", "--json"]].concat());
    assert_eq!(v["value"], sequential["value"]);
    assert_eq!(v["pv"].as_array().map(Vec::len), Some(5), "{v}");
    let args = [
        "search",
        "--game",
        "othello",
        "--depth",
        "4",
        "--procs",
        "4",
        "--algo",
        "aphid",
        "--backend",
        "sim",
    ];
    let quiet = succeeded(&args, &runner(&args));
    let verbose_args = [&args[..], &["--verbose"]].concat();
    let verbose = succeeded(&verbose_args, &runner(&verbose_args));
    let six_decimals = |text: &str| {
        text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .any(|w| w.split_once('.').is_some_and(|(_, f)| f.len() >= 6))
    };
    assert!(!six_decimals(&quiet), "{quiet}");
    assert!(quiet.contains("time: ") && quiet.contains("pv: ") && quiet.contains("tree: "));
    // The quiet output names how many counters it hides; --verbose prints every one of them.
    let hidden: usize = quiet
        .lines()
        .find_map(|l| {
            l.split_once(" counters of ")
                .map(|(n, _)| n.trim().parse().ok())
        })
        .flatten()
        .unwrap_or_else(|| panic!("no hidden-counters line in\n{quiet}"));
    assert!(hidden > 10, "{quiet}");
    // The one line that names them gives way to one line per counter.
    assert!(
        quiet.lines().count() - 1 + hidden <= verbose.lines().count(),
        "{quiet}\n---\n{verbose}"
    );
    let pv_line = quiet
        .lines()
        .find(|l| l.starts_with("pv: "))
        .expect("a pv line");
    assert!(pv_line.split_whitespace().count() > 2, "{pv_line}");
    let sequential_verbose = runner(&[&base[..], &["--verbose"]].concat());
    assert_eq!(sequential_verbose.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&sequential_verbose.stderr).contains("--verbose"));
    let v = json_of(&[&args[..], &["--json"]].concat());
    // APHID's figures are one object in the JSON, beside the figures every algorithm has.
    assert!(v["aphid"].as_object().is_some_and(|a| a.len() > 10), "{v}");
    assert!(v["extra"]["hashfull"].is_number(), "{v}");
}
