//! `runner search` and `runner solve` end to end: JSON output, agreement between algorithms,
//! and bad inputs (a clear one-line error and exit status 2).

use crate::common;

use common::{json_of, runner};

#[test]
fn search_json_has_the_common_keys() {
    let v = json_of(&["search", "--game", "tictactoe4", "--depth", "5", "--json"]);
    for key in [
        "game",
        "algo",
        "depth",
        "value",
        "best_move",
        "pv",
        "nodes",
        "seconds",
        "nodes_per_second",
        "iterations",
        "tt_probes",
        "sort_nodes",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["depth"], 5);
    assert_eq!(v["pv"][0], v["best_move"]);
    assert_eq!(v["iterations"].as_array().map(Vec::len), Some(5));
}

#[test]
fn every_algorithm_table_mode_and_sorting_regime_gives_the_same_value() {
    let position = "X---/-O--/--X-/----";
    let base = [
        "search",
        "--game",
        "tictactoe4",
        "--position",
        position,
        "--depth",
        "4",
        "--json",
    ];
    let reference = json_of(&[&base[..], &["--algo", "minimax"]].concat())["value"].clone();
    for extra in [
        &["--algo", "alphabeta", "--tt-mode", "off"][..],
        &["--algo", "pvs", "--tt-mode", "exact"],
        &["--algo", "pvs", "--sort", "tt", "--no-ordering"],
        &[
            "--algo",
            "alphabeta",
            "--sort",
            "ec",
            "--expansion-depth",
            "2",
        ],
        &["--sort", "pvr", "--no-aspiration"],
    ] {
        let v = json_of(&[&base[..], extra].concat());
        assert_eq!(v["value"], reference, "{extra:?}");
    }
}

#[test]
fn a_time_limited_search_returns_a_move() {
    let v = json_of(&[
        "search",
        "--game",
        "tictactoe4",
        "--time-ms",
        "50",
        "--setting",
        "play",
        "--json",
    ]);
    assert!(v["best_move"].is_string(), "{v}");
    assert!(v["depth"].as_u64().is_some_and(|d| d >= 1), "{v}");
}

#[test]
fn solve_finds_the_draw_and_known_wins() {
    let v = json_of(&["solve", "--game", "tictactoe3", "--json"]);
    assert_eq!(v["result"], "draw");
    assert_eq!(v["exact"], true);
    let v = json_of(&[
        "solve",
        "--game",
        "tictactoe3",
        "--position",
        "XX-/OO-/---",
        "--json",
    ]);
    assert_eq!(v["result"], "win");
    assert_eq!(v["plies_to_end"], 1);
    assert_eq!(v["best_move"], "c1");
}

#[test]
fn bad_inputs_exit_with_status_2_and_name_the_flag() {
    let cases: &[(&[&str], &str)] = &[
        (&["search", "--game", "nogame", "--depth", "3"], "--game"),
        (&["search", "--game", "tictactoe4"], "--depth"),
        (
            &["search", "--game", "tictactoe4", "--depth", "0"],
            "--depth",
        ),
        (
            &["search", "--game", "tictactoe4", "--depth", "101"],
            "--depth",
        ),
        (
            &["search", "--game", "tictactoe4", "--depth", "x"],
            "--depth",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe4",
                "--depth",
                "3",
                "--algo",
                "mtdf",
            ],
            "--algo",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe4",
                "--depth",
                "3",
                "--tt-mode",
                "on",
            ],
            "--tt-mode",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe4",
                "--depth",
                "3",
                "--tt-mb",
                "0",
            ],
            "--tt-mb",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe4",
                "--depth",
                "3",
                "--setting",
                "blitz",
            ],
            "--setting",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe4",
                "--depth",
                "3",
                "--sort",
                "best",
            ],
            "--sort",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe4",
                "--depth",
                "3",
                "--expansion-depth",
                "0",
            ],
            "--expansion-depth",
        ),
        (
            &[
                "search",
                "--game",
                "tictactoe4",
                "--depth",
                "3",
                "--position",
                "XX",
            ],
            "--position",
        ),
        (
            &["search", "--game", "tictactoe4", "--time-ms", "0"],
            "--time-ms",
        ),
        (&["solve", "--game", "tictactoe9"], "--game"),
        (
            &["solve", "--game", "tictactoe3", "--position", "XXX/XXX/OOO"],
            "--position",
        ),
        (
            &["solve", "--game", "tictactoe3", "--tt-mb", "0"],
            "--tt-mb",
        ),
    ];
    for (args, flag) in cases {
        let out = runner(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_test_set_is_searched_position_by_position_with_totals() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testsets/search/tictactoe4.txt"
    );
    let v = json_of(&[
        "search",
        "--game",
        "tictactoe4",
        "--testset",
        file,
        "--depth",
        "3",
        "--json",
    ]);
    let rows = v["positions"].as_array().expect("positions");
    assert_eq!(rows.len(), 12);
    let sum: u64 = rows.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(v["nodes"].as_u64(), Some(sum));
    assert!(rows.iter().all(|r| r["depth"] == 3));

    let out = runner(&[
        "search",
        "--game",
        "tictactoe4",
        "--testset",
        "/nonexistent/file",
        "--depth",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--testset"));
    let out = runner(&[
        "search",
        "--game",
        "tictactoe3",
        "--testset",
        file,
        "--depth",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(2), "4x4 positions are not 3x3 ones");
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 3"));
}

/// An Othello position `empties` empty squares before the end of a seeded random game.
fn othello_near_the_end(seed: u64, empties: u32) -> String {
    use games::Game;
    let mut pos = games::othello::Othello8::start();
    let mut moves = Vec::new();
    let mut state = seed;
    loop {
        let filled = pos
            .to_string()
            .chars()
            .filter(|c| *c == 'X' || *c == 'O')
            .count() as u32;
        pos.generate_moves(&mut moves);
        if moves.is_empty() || 64 - filled <= empties {
            return pos.to_string();
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = moves[((state >> 33) % moves.len() as u64) as usize];
        let _ = pos.make_move(mv);
    }
}

#[test]
fn othello_is_solved_by_its_endgame_solver_and_agrees_with_the_generic_search() {
    for seed in 1..=3 {
        let position = othello_near_the_end(seed, 10);
        let solved = json_of(&[
            "solve",
            "--game",
            "othello",
            "--position",
            &position,
            "--json",
        ]);
        assert_eq!(solved["exact"], true);
        let value = solved["value"].as_i64().expect("value");
        assert!(value.abs() <= 64);
        assert!(solved["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
        // The generic search to the end gives the same result (win, loss or draw).
        let searched = json_of(&[
            "search",
            "--game",
            "othello",
            "--position",
            &position,
            "--depth",
            "30",
            "--json",
        ]);
        let v = searched["value"].as_i64().expect("value");
        assert_eq!(
            v.signum(),
            value.signum(),
            "{position}: {solved} vs {searched}"
        );
        if value != 0 {
            assert!(
                v.abs() >= i64::from(games::score::WIN_THRESHOLD),
                "{searched}"
            );
        }
    }
}

/// `--unsorted`: the sequential alpha-beta at one depth and the parallel algorithms on one
/// simulated processor visit the same tree (generation order, no table); without it the
/// sequential search visits another. A sorting regime beside it sorts; a table is refused.
#[test]
fn unsorted_gives_one_tree_to_sequential_and_parallel_alpha_beta() {
    let base = [
        "search",
        "--game",
        "tictactoe4",
        "--depth",
        "1",
        "--algo",
        "alphabeta",
        "--json",
    ];
    // Depth 1: one iteration, so the sequential count is one tree's.
    let seq = json_of(&[&base[..], &["--unsorted"]].concat());
    let par = json_of(&[
        "search",
        "--game",
        "tictactoe4",
        "--depth",
        "1",
        "--algo",
        "mwf",
        "--procs",
        "1",
        "--backend",
        "sim",
        "--min-split-depth",
        "1",
        "--unsorted",
        "--json",
    ]);
    assert_eq!(seq["nodes"], par["nodes"]);
    assert_eq!(seq["value"], par["value"]);
    assert_eq!(seq["nodes"], 17);
    // Without --algo, --unsorted searches with alpha-beta.
    let default = json_of(&[
        "search",
        "--game",
        "tictactoe4",
        "--depth",
        "1",
        "--unsorted",
        "--json",
    ]);
    assert_eq!(default["algo"], "alphabeta");
    assert_eq!(seq["tt_probes"], 0);
    let deeper = |extra: &[&str]| {
        let mut args = base.to_vec();
        args[4] = "4";
        json_of(&[&args[..], extra].concat())
    };
    assert_eq!(deeper(&["--unsorted"])["tt_probes"], 0);
    assert!(deeper(&[])["tt_probes"].as_u64().unwrap() > 0);
    // A sorting regime is then the only ordering: it changes the tree.
    let sorted = json_of(&[&base[..], &["--unsorted", "--sort", "ec"]].concat());
    assert_eq!(sorted["value"], seq["value"]);
    assert!(sorted["sort_nodes"].as_u64().unwrap() > 0);
    for bad in [&["--tt-mode", "exact"][..], &["--tt-mode", "normal"]] {
        let out = runner(&[&base[..], &["--unsorted"], bad].concat());
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(bad[0]) && err.contains("--unsorted"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// `--tt-sort-bug` needs TT sorting, where it searches fewer nodes than correct TT sorting.
#[test]
fn tt_sort_bug_changes_tt_sorting_and_needs_it() {
    let base = [
        "search",
        "--game",
        "tictactoe4",
        "--depth",
        "6",
        "--algo",
        "mwf",
        "--procs",
        "1",
        "--backend",
        "sim",
        "--min-split-depth",
        "2",
        "--unsorted",
        "--sort",
        "tt",
        "--json",
    ];
    let right = json_of(&base);
    let wrong = json_of(&[&base[..], &["--tt-sort-bug"]].concat());
    assert!(
        wrong["nodes"].as_u64() < right["nodes"].as_u64(),
        "{wrong} {right}"
    );
    let out = runner(&[
        "search",
        "--game",
        "tictactoe4",
        "--depth",
        "3",
        "--sort",
        "ec",
        "--tt-sort-bug",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--tt-sort-bug") && err.contains("--sort tt"),
        "{err}"
    );
}
