//! `runner search --algo aphid` with a hierarchy (from the thesis's `aphid.config` format or
//! TOML) and with `--aphid-tt distributed` (the shadow-table ring): values agree with the sequential
//! search, the mechanisms report their counters, and a file naming another processor count
//! than `--procs` is an input error.

use crate::common;

use common::{json_of, runner};

fn search(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["search", "--game", "othello6", "--depth", "5", "--json"];
    args.extend_from_slice(extra);
    if extra.contains(&"--procs") {
        args.extend_from_slice(&["--backend", "sim"]);
    }
    json_of(&args)
}

#[test]
fn hierarchies_from_both_formats_and_the_distributed_table_agree() {
    let seq = search(&["--algo", "alphabeta"]);
    let flat = search(&[
        "--algo",
        "aphid",
        "--procs",
        "6",
        "--aphid-config",
        "../testsets/aphid/figure-5.14.config",
    ]);
    assert_eq!(flat["value"], seq["value"]);
    let deep = search(&[
        "--algo",
        "aphid",
        "--procs",
        "15",
        "--aphid-config",
        "../testsets/aphid/figure-5.16.config",
    ]);
    assert_eq!(deep["value"], seq["value"]);
    assert!(deep["aphid"]["mids"]["jobs"].as_u64().is_some(), "{deep}");
    let dir = std::env::temp_dir().join(format!("aphid-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let toml = dir.join("two-levels.toml");
    std::fs::write(
        &toml,
        "# 0 -> {1, 3}; 1 -> {2}; 3 -> {4}\n[hierarchy]\nparents = [0, 1, 0, 3]\n",
    )
    .expect("written");
    let two = search(&[
        "--algo",
        "aphid",
        "--procs",
        "5",
        "--aphid-config",
        toml.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(two["value"], seq["value"]);
    let ring = search(&[
        "--algo",
        "aphid",
        "--procs",
        "5",
        "--aphid-tt",
        "distributed",
    ]);
    assert_eq!(ring["value"], seq["value"]);
    assert!(
        ring["aphid"]["shadow"]["tables_sent"]
            .as_u64()
            .is_some_and(|n| n > 0),
        "{ring}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs an aphid search on othello6 that must fail with exit status 2 naming `needle`.
fn refused(extra: &[&str], needle: &str) {
    let mut args = vec![
        "search", "--game", "othello6", "--depth", "3", "--algo", "aphid", "--procs", "4",
    ];
    args.extend_from_slice(extra);
    let out = runner(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn a_hierarchy_of_another_size_than_procs_exits_2() {
    refused(
        &["--aphid-config", "../testsets/aphid/figure-5.16.config"],
        "--procs 15",
    );
    refused(&["--aphid-tt", "everywhere"], "distributed");
}

/// APHID's table arrangement is `--aphid-tt` in `runner search` as in `runner compare`; the
/// old `--tt` is refused with the new spelling, and `--aphid-tt` needs `--algo aphid`.
#[test]
fn the_table_arrangement_is_aphid_tt_in_both_commands() {
    refused(&["--tt", "distributed"], "--aphid-tt");
    let out = runner(&[
        "search",
        "--game",
        "othello6",
        "--depth",
        "3",
        "--algo",
        "ybw",
        "--procs",
        "4",
        "--aphid-tt",
        "shared",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--aphid-tt") && err.contains("aphid only"),
        "{err}"
    );
}
