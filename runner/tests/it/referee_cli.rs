//! `runner play` with outside engines through the binary: fake engines (small bash scripts
//! written here) that crash, hang or play an illegal move lose their games by forfeit, the
//! match goes on and records each; and the project's own engine over the line protocol
//! (`runner engine`) and GTP (`runner gtp`) plays whole games against the in-process engine.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// A fresh folder for one test's scripts and records.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("runner-referee-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes an executable bash script.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/bash\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_string()
}

fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .output()
        .expect("the runner binary runs")
}

/// Plays `games` chess games of the in-process engine (A) against `b` at 50 ms a move and
/// returns the JSON report and the PGN.
fn chess_match(dir: &Path, b: &str, games: &str) -> (Value, String) {
    let pgn = dir.join("games.pgn");
    let out = runner(&[
        "play",
        "--game",
        "chess",
        "--a",
        "algo=pvs,name=own",
        "--b",
        b,
        "--games",
        games,
        "--time-ms",
        "50",
        "--max-plies",
        "6",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    (v, std::fs::read_to_string(pgn).unwrap())
}

/// A UCI engine that answers the handshake and `isready`, and does `on_go` for `go`.
fn uci_engine(on_go: &str) -> String {
    format!(
        r#"while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name fake"; echo "option name Hash type spin default 1 min 1 max 8"; echo uciok;;
    isready) echo readyok;;
    go) {on_go};;
    quit) exit 0;;
  esac
done
"#
    )
}

#[test]
fn engines_that_crash_hang_or_play_illegal_moves_forfeit_and_the_match_goes_on() {
    let dir = folder("faults");
    let crash = script(&dir, "crash.sh", "read -r cmd\necho 'dying' >&2\nexit 3\n");
    // It reads and ignores everything after `go`: no answer until it is killed.
    let hang = script(
        &dir,
        "hang.sh",
        &uci_engine("while read -r ignored; do :; done"),
    );
    let illegal = script(&dir, "illegal.sh", &uci_engine("echo 'bestmove e2e5'"));
    for (engine, kind, termination) in [
        (&crash, "crash", "abandoned"),
        (&hang, "hang", "time forfeit"),
        (&illegal, "illegal", "rules infraction"),
    ] {
        let start = std::time::Instant::now();
        let (v, pgn) = chess_match(&dir, &format!("uci:{engine},name=fake"), "2");
        // Two games, both lost by the fake engine, each with its forfeit recorded.
        assert_eq!(
            (&v["wins"], &v["losses"]),
            (&Value::from(2), &Value::from(0)),
            "{v}"
        );
        for row in v["results"].as_array().unwrap() {
            assert_eq!(row["forfeit"]["kind"], kind, "{v}");
            assert_eq!(row["forfeit"]["seat"], "b", "{v}");
            assert_eq!(row["forfeit"]["engine"], "fake", "{v}");
            assert!(
                row["reason"]
                    .as_str()
                    .unwrap()
                    .starts_with("fake forfeits: "),
                "{v}"
            );
        }
        assert_eq!(
            pgn.matches(&format!("[Termination \"{termination}\"]"))
                .count(),
            2,
            "{pgn}"
        );
        assert_eq!(pgn.matches("{fake forfeits:").count(), 2, "{pgn}");
        let b = &v["b"];
        assert_eq!(b["method"], "uci:".to_string() + kind + ".sh", "{v}");
        match kind {
            "crash" => {
                assert_eq!(b["crashes"], 2, "{v}");
                // Started at the match's start and before each game.
                assert_eq!(b["restarts"], 2, "{v}");
                let detail = v["results"][0]["forfeit"]["detail"].as_str().unwrap();
                assert!(
                    detail.contains("exit status 3") && detail.contains("dying"),
                    "{detail}"
                );
            }
            "hang" => {
                assert_eq!(b["hangs"], 2, "{v}");
                // Killed after each hang, started again for the next game.
                assert_eq!(b["restarts"], 1, "{v}");
                let detail = v["results"][0]["forfeit"]["detail"].as_str().unwrap();
                assert!(detail.contains("no answer within 1.05 s"), "{detail}");
            }
            _ => {
                assert_eq!(b["illegal"], 2, "{v}");
                assert_eq!(b["restarts"], 0, "{v}");
                assert_eq!(b["moves"], 2, "{v}");
            }
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "{kind}: {:?}",
            start.elapsed()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_outside_engines_exit_2_before_the_first_game() {
    let dir = folder("bad");
    let uci = script(&dir, "uci.sh", &uci_engine("echo 'bestmove e2e4'"));
    for (game, b, needle) in [
        (
            "chess",
            "uci:/no/such/engine".to_string(),
            "--b: cannot start '/no/such/engine'",
        ),
        (
            "othello",
            format!("uci:{uci}"),
            "--b: refuses the match: uci engines play chess, not othello",
        ),
        (
            "checkers",
            "gtp:/bin/true".to_string(),
            "--b: refuses the match: gtp engines play othello, othello6, not checkers",
        ),
        (
            "chess",
            format!("uci:{uci},option.Skill=3"),
            "--b: refuses the match: it has no option 'Skill'; its options are: Hash",
        ),
        ("chess", "uci:".to_string(), "--b: uci: give the program"),
        (
            "chess",
            "telnet:host".to_string(),
            "--b: unknown protocol 'telnet:'",
        ),
    ] {
        let out = runner(&[
            "play", "--game", game, "--a", "algo=pvs", "--b", &b, "--depth", "1",
        ]);
        assert_eq!(out.status.code(), Some(2), "{b}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{b}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Plays the in-process engine against `b` on `game` and checks that every game ended by the
/// rules or the ply limit, without a forfeit; returns the record file.
fn own_engine_match(dir: &Path, game: &str, b: &str, openings: Option<&str>) -> String {
    let record = dir.join(format!("{game}.txt"));
    let mut args = vec![
        "play",
        "--game",
        game,
        "--a",
        "algo=pvs,name=inproc",
        "--b",
        b,
        "--games",
        "2",
        "--depth",
        "2",
        "--max-plies",
        "40",
        "--pgn",
        record.to_str().unwrap(),
        "--json",
    ];
    if let Some(o) = openings {
        args.extend(["--openings", o]);
    }
    let out = runner(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap(),
        2
    );
    for row in v["results"].as_array().unwrap() {
        assert!(row["forfeit"].is_null(), "{v}");
        assert!(row["plies"].as_u64().unwrap() > 4, "{v}");
    }
    for seat in ["a", "b"] {
        for count in ["illegal", "crashes", "hangs", "protocol", "restarts"] {
            assert_eq!(v[seat][count], 0, "{seat} {count}: {v}");
        }
    }
    std::fs::read_to_string(record).unwrap()
}

#[test]
fn the_own_engine_plays_over_the_line_protocol_and_gtp() {
    let dir = folder("own");
    let exe = env!("CARGO_BIN_EXE_runner");
    let pdn = own_engine_match(
        &dir,
        "checkers",
        &format!("line:{exe} engine --game checkers,option.Hash=4,name=line"),
        None,
    );
    assert_eq!(pdn.matches("[GameType \"21\"]").count(), 2, "{pdn}");
    assert!(pdn.contains("[Black \"line\"]"), "{pdn}");
    assert!(pdn.contains("\n1. "), "{pdn}");
    // GTP replays every game from the start: the openings' moves come from `c0`.
    let transcripts = own_engine_match(
        &dir,
        "othello",
        &format!("gtp:{exe} gtp --game othello --depth 2,name=gtp"),
        Some("openings_othello"),
    );
    let lines: Vec<&str> = transcripts
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(lines.len(), 2, "{transcripts}");
    for l in lines {
        let (moves, result) = l.split_once(' ').unwrap();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{l}");
        assert_eq!(moves.len() % 2, 0, "{l}");
        assert!(moves.len() / 2 > 10, "{l}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
