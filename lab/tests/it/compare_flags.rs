//! What `runner compare`'s flags do to a comparison, checked in this process through the
//! library: each spec is a TOML table (the form of the experiments' files), checked into a
//! plan and run on the simulator; refusals are the plan's input errors. The command line's own
//! behaviour (exit statuses, resuming, shards in separate processes) is `runner`'s tests'.

use std::path::{Path, PathBuf};

use lab::cli::CompareArgs;
use lab::compare::analysis::Row;
use lab::compare::plan::Plan;
use lab::compare::report::Addendum;
use lab::input_error::InputError;
use serde_json::Value;

/// A fresh folder for one comparison of this test process.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lab-flags-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The spec of the table `flags`, writing into `out`.
fn spec(flags: &str, out: &Path) -> CompareArgs {
    let mut args: CompareArgs = toml::from_str(flags).unwrap_or_else(|e| panic!("{flags}: {e}"));
    args.out = Some(out.to_path_buf());
    args
}

/// Runs the comparison of `flags` into a fresh folder named `name` (removed afterwards): its
/// settings fingerprint and its rows.
fn run(name: &str, flags: &str) -> (Value, Vec<Row>) {
    let out = temp_dir(name);
    let plan = Plan::parse(&spec(flags, &out)).unwrap_or_else(|e| panic!("{flags}: {e:#}"));
    let outcome = lab::compare::execute(&plan, name, &Addendum::default())
        .unwrap_or_else(|e| panic!("{flags}: {e:#}"));
    let _ = std::fs::remove_dir_all(&out);
    for row in &outcome.rows {
        assert_eq!(row.value, row.baseline_value, "{flags}: {row:?}");
    }
    (plan.fingerprint, outcome.rows)
}

/// The message of the input error that refuses the table `flags`, which must be one line.
fn refused(flags: &str) -> String {
    let err = Plan::parse(&spec(flags, Path::new("unused"))).expect_err(flags);
    assert!(
        err.downcast_ref::<InputError>().is_some(),
        "{flags}: {err:#}"
    );
    let text = err.to_string();
    assert_eq!(text.lines().count(), 1, "{text}");
    text
}

/// The nodes of the runs on `procs` processors, position by position.
fn nodes_on(rows: &[Row], procs: usize) -> Vec<u64> {
    rows.iter()
        .filter(|r| r.procs == procs)
        .map(|r| r.nodes)
        .collect()
}

#[test]
fn the_baseline_is_delay_splitting_on_one_processor() {
    // The simulator charges nodes, not wall time: the same code gives the same nodes and time.
    let (_, rows) = run(
        "baseline-n1",
        "game = \"tictactoe4\"\npositions = 4\nalgos = \"delaysplit\"\nprocs = \"1\"\ndepth = 7",
    );
    assert_eq!(rows.len(), 4);
    for row in &rows {
        assert_eq!(row.nodes, row.baseline_nodes, "{row:?}");
        assert_eq!(row.seconds, row.baseline_seconds, "{row:?}");
    }
}

#[test]
fn mwf_wait_reaches_the_comparison_and_its_fingerprint() {
    let with = |wait: bool| {
        run(
            &format!("mwf-wait-{wait}"),
            &format!(
                "game = \"tictactoe4\"\npositions = 2\nalgos = \"mwf\"\nprocs = \"4\"\ndepth = 5\n\
                 mwf-wait = {wait}\nunsorted = true"
            ),
        )
    };
    let (on_settings, on) = with(true);
    let (off_settings, off) = with(false);
    assert_eq!(on_settings["mwf_wait"], true);
    assert_eq!(off_settings["mwf_wait"], false);
    assert_ne!(
        nodes_on(&on, 4),
        nodes_on(&off, 4),
        "the rule changes the 4-processor trees"
    );
    let err = refused("algos = \"ybw\"\nmwf-wait = false\ndepth = 2");
    assert!(
        err.contains("applies to the mwf and dmwf series only"),
        "{err}"
    );
}

/// Rezaie and Finkel's setup: `unsorted` reaches the runs (the baseline searches another tree,
/// and the settings say so), `split-width` and `tt-sort-bug` are refused without a series they
/// apply to, and `unsorted` refuses a table.
#[test]
fn the_rezaie_finkel_setup_flags_reach_the_comparison() {
    let base = "game = \"tictactoe4\"\ntestset = \"tictactoe4\"\npositions = 2\n\
                algos = \"abdib,treesplit\"\nprocs = \"2\"\ndepth = 3\nseeds = 2";
    let (plain_settings, plain) = run("plain", base);
    let (unsorted_settings, unsorted) = run(
        "unsorted",
        &format!("{base}\nunsorted = true\nsplit-width = 3"),
    );
    assert_eq!(unsorted_settings["unsorted"], true);
    assert_eq!(unsorted_settings["split_width"], 3);
    assert!(plain_settings.get("unsorted").is_none());
    assert_ne!(plain[0].baseline_nodes, unsorted[0].baseline_nodes);
    assert_eq!(plain[0].baseline_value, unsorted[0].baseline_value);
    for (flags, needle) in [
        (
            "algos = \"mwf\"\nsplit-width = 4",
            "treesplit and pvsplit series only",
        ),
        ("algos = \"mwf@ec\"\ntt-sort-bug = true", "--tt-sort-bug"),
        ("algos = \"mwf\"\nunsorted = true\ntt = \"exact\"", "--tt"),
    ] {
        let err = refused(&format!("depth = 2\nprocs = \"2\"\n{flags}"));
        assert!(err.contains(needle), "{flags}: {err}");
    }
}

#[test]
fn sim_set_changes_the_machine_and_the_fingerprint() {
    let baseline_seconds = |name: &str, sim_set: &str| -> (f64, Value) {
        let (settings, rows) = run(
            name,
            &format!(
                "game = \"tictactoe4\"\npositions = 1\nalgos = \"ybw\"\nprocs = \"4\"\ndepth = 5\n\
                 sim-preset = \"origin2000\"\nsim-set = [{sim_set}]"
            ),
        );
        let row = rows
            .iter()
            .find(|r| r.procs == 4)
            .expect("a 4-processor row");
        (row.baseline_seconds, settings["sim_set"].clone())
    };
    let (plain, none) = baseline_seconds("sim-set-none", "");
    // Origin 2000's nodes at twice the cost: the baseline's nodes take twice as long (its
    // table probes do not).
    let (slow, set) = baseline_seconds("sim-set-node", "\"node_ns=15400\"");
    assert!(none.is_null());
    assert_eq!(set["node_ns"], 15_400);
    assert!(
        slow > 1.5 * plain && slow < 2.0 * plain,
        "slower nodes: {slow} vs {plain}"
    );
    // The per-frame and per-message costs, the table limit of one processor and the table's
    // home are set as the other numbers are, and the settings name them.
    let (_, every) = baseline_seconds(
        "sim-set-every",
        "\"frame_ns=4000\", \"message_handling_ns=9\", \"local_table_entries=4096\", \
         \"shared_table_home=0\"",
    );
    assert_eq!(every["frame_ns"], 4000, "{every}");
    assert_eq!(every["message_handling_ns"], 9, "{every}");
    assert_eq!(every["local_table_entries"], 4096, "{every}");
    assert_eq!(every["shared_table_home"], 0, "{every}");
    for (item, words) in [
        ("nodes_ns=3", "not a numeric cost-model key"),
        ("node_ns", "KEY=VALUE"),
        ("node_ns=-1", "not a whole number"),
    ] {
        let err = refused(&format!("depth = 2\nsim-set = [\"{item}\"]"));
        assert!(
            err.contains("--sim-set") && err.contains(words),
            "{item}: {err}"
        );
    }
}

/// `tt-leaf-ban-from = N` changes the runs on N processors and more, and nothing else: the
/// baseline and the runs on fewer processors are those of the same spec without it. A count
/// of one processor is refused in one line.
#[test]
fn the_leaf_ban_applies_from_its_processor_count() {
    let base = "game = \"othello6\"\npositions = 2\nalgos = \"delaysplit\"\nprocs = \"2,4\"\n\
                depth = 6\ntt-min-depth = 1\nmin-split-depth = 2";
    let (_, plain) = run("leafban-plain", base);
    let (_, banned) = run("leafban-4", &format!("{base}\ntt-leaf-ban-from = 4"));
    assert_eq!(plain.len(), banned.len());
    for (p, b) in plain.iter().zip(&banned) {
        assert_eq!((p.line, p.procs), (b.line, b.procs));
        assert_eq!(p.baseline_nodes, b.baseline_nodes);
        if p.procs >= 4 {
            assert_ne!(p.nodes, b.nodes, "{p:?}: the ban changes the tree");
        } else {
            assert_eq!(p.nodes, b.nodes, "{p:?}: no ban below 4");
        }
    }
    let err = refused("tt-leaf-ban-from = 1");
    assert!(err.contains("--tt-leaf-ban-from"), "{err}");
}
