//! `runner play` and `runner uci` end to end through the binary: a match's JSON report and game
//! records, bad engine specs (exit status 2), and the UCI engine over real pipes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .output()
        .expect("the runner binary runs")
}

#[test]
fn perfect_tictactoe_matches_are_all_draws_with_records() {
    let dir = std::env::temp_dir().join(format!("runner-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.txt");
    let out = runner(&[
        "play",
        "--game",
        "tictactoe3",
        "--a",
        "algo=pvs,name=seq",
        "--b",
        "algo=ybw,procs=2,backend=sim,setting=research,name=par",
        "--games",
        "3",
        "--depth",
        "9",
        "--pgn",
        record.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["draws"], 3, "{v}");
    assert_eq!(v["wins"], 0);
    assert_eq!(v["losses"], 0);
    assert_eq!(v["score"], 0.5);
    assert_eq!(v["elo"]["diff"], 0.0);
    assert_eq!(v["a"]["method"], "pvs");
    assert_eq!(v["b"]["method"], "delaysplit/2/sim");
    let results = v["results"].as_array().unwrap();
    assert_eq!(results[0]["first"], "seq");
    assert_eq!(results[1]["first"], "par");
    assert_eq!(results[2]["first"], "seq");
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.matches("# ").count(), 3, "{text}");
    assert_eq!(text.matches("\nmoves ").count(), 3, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_play_arguments_exit_2_naming_the_problem() {
    for (args, needle) in [
        (
            vec!["--a", "algo=nope", "--b", "algo=pvs", "--depth", "2"],
            "--a: unknown parallel algorithm 'nope'",
        ),
        (
            vec!["--a", "algo=pvs", "--b", "tt-mb=0", "--depth", "2"],
            "--b: tt-mb=0",
        ),
        (
            vec![
                "--a", "algo=pvs", "--b", "algo=pvs", "--depth", "2", "--games", "0",
            ],
            "--games",
        ),
    ] {
        let mut all = vec!["play", "--game", "tictactoe3"];
        all.extend(args);
        let out = runner(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{all:?}: {err}");
    }
}

#[test]
fn a_record_file_that_cannot_be_written_exits_2_before_the_first_game() {
    let missing = std::env::temp_dir()
        .join(format!("runner-no-such-dir-{}", std::process::id()))
        .join("games.pgn");
    let dir = std::env::temp_dir();
    for path in [missing.to_str().unwrap(), dir.to_str().unwrap()] {
        let start = std::time::Instant::now();
        let out = runner(&[
            "play", "--game", "chess", "--a", "algo=pvs", "--b", "algo=pvs", "--games", "200",
            "--depth", "6", "--pgn", path,
        ]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--pgn: cannot write"), "{path}: {err}");
        assert!(
            out.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }
}

#[test]
fn chess_records_carry_the_full_pgn_headers() {
    let dir = std::env::temp_dir().join(format!("runner-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.pgn");
    let out = runner(&[
        "play",
        "--game",
        "chess",
        "--a",
        "algo=pvs,name=one",
        "--b",
        "algo=alphabeta,name=two",
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "4",
        "--pgn",
        record.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // No progress bar under --json.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    // Two draws: no variance, so the interval is the adjusted one, with a width.
    assert!(v["elo_method"].as_str().unwrap().contains("Wilson"), "{v}");
    assert_eq!(v["elo"]["adjusted"], true);
    assert!(v["elo"]["high"].as_f64().unwrap() > 0.0, "{v}");
    let text = std::fs::read_to_string(&record).unwrap();
    for tag in [
        "[Event \"one vs two (chess)\"]",
        "[Site \"runner play\"]",
        "[Round \"2\"]",
        "[White \"two\"]",
        "[Black \"one\"]",
        "[Result \"1/2-1/2\"]",
        "[TimeControl \"-\"]",
    ] {
        assert!(text.contains(tag), "{tag}: {text}");
    }
    let date = text
        .lines()
        .find_map(|l| l.strip_prefix("[Date \""))
        .and_then(|l| l.strip_suffix("\"]"))
        .unwrap();
    let parts: Vec<&str> = date.split('.').collect();
    assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [4, 2, 2]);
    assert!(parts[0] >= "2024", "{date}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_uci_engine_answers_over_pipes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_runner"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the runner binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nbogus\nposition startpos moves e2e4\ngo depth 3\nisready\n")
        .unwrap();
    // Closing stdin ends the session; the search of `go depth 3` is stopped and answers.
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("uciok\n"), "{text}");
    assert!(
        text.contains("info string unknown command 'bogus'"),
        "{text}"
    );
    // The second `isready` may be answered before or after the search ends (depth 3 is quick),
    // so the order of those two lines is not fixed; each must appear exactly once.
    let count = |prefix: &str| text.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("bestmove "), 1, "{text}");
    assert_eq!(count("readyok"), 2, "{text}");
}
