//! What `runner search`'s algorithm options do to a parallel search, checked in this process
//! through the library: the flags are read by clap into [`SearchArgs`], checked by
//! [`lab::parallel_search::parse`] into the options [`control::parallel::search`] takes, and the
//! search runs on the simulator. Each option reaches the algorithm (it changes the simulated
//! tree or schedule) and keeps the sequential value; a misplaced or misspelt one is refused in
//! one line. The binary's exit statuses are `runner/tests/it/parallel_cli.rs`'s.

use clap::Parser;
use control::parallel::{self, ParallelResult};
use control::search::Unlimited;
use control::{Limits, SearchConfig, Searcher};
use games::Game;
use games::othello::Othello8;
use games::tictactoe::TicTacToe4;
use lab::cli::SearchArgs;
use lab::input_error::InputError;
use lab::parallel_search::ParallelSearch;

#[derive(Parser)]
struct Search {
    #[command(flatten)]
    args: SearchArgs,
}

/// `runner search`'s flags `argv` as clap reads them.
fn args(argv: &[&str]) -> Result<SearchArgs, clap::Error> {
    Search::try_parse_from(std::iter::once("search").chain(argv.iter().copied())).map(|s| s.args)
}

/// The checked parallel search of `argv`, which must be one.
fn checked(argv: &[&str]) -> ParallelSearch {
    let args = args(argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
    lab::parallel_search::parse(&args)
        .unwrap_or_else(|e| panic!("{argv:?}: {e:#}"))
        .unwrap_or_else(|| panic!("{argv:?}: not a parallel search"))
}

/// Runs the parallel search of `argv` from `G`'s start position.
fn run<G: Game>(argv: &[&str]) -> ParallelResult<G::Move> {
    let par = checked(argv);
    parallel::search(par.algo(), &G::start(), par.options())
        .unwrap_or_else(|e| panic!("{argv:?}: {e}"))
}

/// The sequential value of `G`'s start position at `depth` plies.
fn sequential<G: Game>(depth: u32) -> i32 {
    let mut searcher = Searcher::<G>::new(SearchConfig::research()).expect("a table");
    searcher
        .search(&G::start(), &Limits::depth(depth), &mut Unlimited)
        .value
}

/// The one-line message that refuses `argv` on tic-tac-toe at depth 3: clap's (a value that is
/// none of a flag's names) or the library's input error (a flag for another algorithm).
fn refused(extra: &[&str], needle: &str) {
    let argv: Vec<&str> = ["--game", "tictactoe4", "--depth", "3"]
        .iter()
        .chain(extra)
        .copied()
        .collect();
    let text = match args(&argv) {
        Err(e) => e.to_string(),
        Ok(a) => {
            let err = lab::search::run(&a).expect_err("refused");
            assert!(
                err.downcast_ref::<InputError>().is_some(),
                "{argv:?}: {err:#}"
            );
            let text = err.to_string();
            assert_eq!(text.lines().count(), 1, "{argv:?}: {text}");
            text
        }
    };
    assert!(text.contains(needle), "{argv:?}: {text}");
}

/// Rezaie and Finkel's unsorted 4x4 tic-tac-toe tree, 5 plies, on 4 simulated processors.
const UNSORTED: [&str; 10] = [
    "--game",
    "tictactoe4",
    "--depth",
    "5",
    "--unsorted",
    "--procs",
    "4",
    "--backend",
    "sim",
    "--algo",
];

/// [`UNSORTED`] with `algo` and the flags `extra`, run.
fn unsorted(algo: &str, extra: &[&str]) -> ParallelResult<<TicTacToe4 as Game>::Move> {
    let argv: Vec<&str> = UNSORTED
        .iter()
        .chain([&algo])
        .chain(extra)
        .copied()
        .collect();
    run::<TicTacToe4>(&argv)
}

#[test]
fn mwf_wait_reaches_the_search_and_keeps_the_value() {
    // MWF's type-2 "wait for finite beta" rule, on (the default) and off, on Rezaie and Finkel's
    // unsorted tree (with move ordering this small search opens no type-2 frame that waits).
    let seq = sequential::<TicTacToe4>(5);
    for algo in ["mwf", "dmwf"] {
        assert!(
            checked(&[&UNSORTED[..], &[algo]].concat())
                .options()
                .algo
                .mwf
                .wait()
        );
        let on = unsorted(algo, &["--mwf-wait", "on"]);
        let off = unsorted(algo, &["--mwf-wait", "off"]);
        assert_eq!(
            unsorted(algo, &[]).nodes,
            on.nodes,
            "{algo}: on is the default"
        );
        assert_ne!(on.nodes, off.nodes, "{algo}: the rule changes the tree");
        assert_eq!((on.value, off.value), (seq, seq), "{algo}");
    }
}

#[test]
fn mwf_cutoffs_and_dmwf_promote_reach_the_search_and_keep_the_value() {
    // Rezaie and Finkel's readings of MWF (no deep cutoffs, the default) and DMWF (the children
    // strictly above the percentile instead of the eldest, the default) against the others.
    let seq = sequential::<TicTacToe4>(5);
    let shallow = unsorted("mwf", &[]);
    let deep = unsorted("mwf", &["--mwf-cutoffs", "deep"]);
    assert_ne!(shallow.nodes, deep.nodes, "the cutoffs change the tree");
    let replace = unsorted("dmwf", &["--dmwf-promote", "replace"]);
    let beside = unsorted("dmwf", &["--dmwf-promote", "beside"]);
    for r in [&shallow, &deep, &replace, &beside] {
        assert_eq!(r.value, seq);
    }
}

#[test]
fn tree_root_and_pv_form_reach_the_search_and_keep_the_value() {
    // Rezaie and Finkel's readings of tree splitting (the root's processor only a master) and
    // PV splitting (tree splitting below the type-1 nodes).
    let seq = sequential::<TicTacToe4>(5);
    let worker = unsorted("treesplit", &[]);
    let master = unsorted("treesplit", &["--tree-root", "master"]);
    assert_ne!(worker.seconds, master.seconds, "the master changes the run");
    let mp = unsorted("pvsplit", &[]);
    let rf = unsorted("pvsplit", &["--pv-form", "rf"]);
    assert_ne!(mp.nodes, rf.nodes, "the form changes the tree");
    for r in [&worker, &master, &mp, &rf] {
        assert_eq!(r.value, seq);
    }
}

#[test]
fn ybw_rule_reaches_the_search_and_keeps_the_value() {
    // YBWC* splits type-3 nodes before their eldest child is done: another schedule than
    // plain YBW's on 8 simulated processors, the sequential value.
    let base = [
        "--game",
        "othello",
        "--depth",
        "6",
        "--algo",
        "ybw",
        "--procs",
        "8",
        "--backend",
        "sim",
        "--min-split-depth",
        "2",
    ];
    let seq = sequential::<Othello8>(6);
    let plain = run::<Othello8>(&base);
    let star = run::<Othello8>(&[&base[..], &["--ybw-rule", "star"]].concat());
    assert_ne!(plain.nodes, star.nodes, "the rule changes the schedule");
    assert_eq!((plain.value, star.value), (seq, seq));
}

#[test]
fn ybw_windows_and_er_e_children_reach_the_search_and_keep_the_value() {
    // Rezaie and Finkel's readings of delay splitting (windows by value) and ER (always one
    // active e-child): another schedule than the defaults' on the unsorted tree.
    let seq = sequential::<TicTacToe4>(5);
    let split2 = ["--min-split-depth", "2"];
    let spread = unsorted("delaysplit", &split2);
    let by_value = unsorted(
        "delaysplit",
        &[&split2[..], &["--ybw-windows", "by-value"]].concat(),
    );
    let split = unsorted("er", &split2);
    let active = unsorted(
        "er",
        &[&split2[..], &["--er-e-children", "active"]].concat(),
    );
    for (a, b) in [(&spread, &by_value), (&split, &active)] {
        assert_ne!(a.nodes, b.nodes, "the reading changes the schedule");
    }
    for r in [&spread, &by_value, &split, &active] {
        assert_eq!(r.value, seq);
    }
}

/// `--split-width`: a narrower processor tree searches another tree on 8 simulated processors
/// of tree splitting and PV splitting, with the sequential value; the default is 10; out of
/// range, for another algorithm or without `--procs` it is refused.
#[test]
fn split_width_reaches_treesplit_and_pvsplit() {
    let seq = sequential::<TicTacToe4>(6);
    for algo in ["treesplit", "pvsplit"] {
        let argv = |width: &[&'static str]| -> Vec<&str> {
            [
                "--game",
                "tictactoe4",
                "--depth",
                "6",
                "--unsorted",
                "--procs",
                "8",
                "--backend",
                "sim",
                "--min-split-depth",
                "2",
                "--algo",
                algo,
            ]
            .iter()
            .chain(width)
            .copied()
            .collect()
        };
        assert_eq!(
            checked(&argv(&[])).options().algo.tree.width(),
            10,
            "{algo}"
        );
        let ten = run::<TicTacToe4>(&argv(&["--split-width", "10"]));
        let default = run::<TicTacToe4>(&argv(&[]));
        let one = run::<TicTacToe4>(&argv(&["--split-width", "1"]));
        assert_eq!(default.nodes, ten.nodes, "{algo}");
        assert_ne!(default.seconds, one.seconds, "{algo}");
        assert_eq!((default.value, one.value), (seq, seq), "{algo}");
    }
}

/// Each option named for an algorithm it does not apply to, with a value that is none of its
/// names, or without `--procs`, is refused in one line that names the problem.
#[test]
fn misplaced_or_misspelt_options_are_refused_in_one_line() {
    let two = |algo: &'static str, flag: &'static str, value: &'static str| {
        vec![
            "--procs",
            "2",
            "--backend",
            "sim",
            "--algo",
            algo,
            flag,
            value,
        ]
    };
    for (argv, needle) in [
        (two("ybw", "--mwf-wait", "off"), "mwf and dmwf only"),
        (two("ybw", "--mwf-cutoffs", "deep"), "mwf and dmwf only"),
        (two("mwf", "--dmwf-promote", "beside"), "dmwf only"),
        (
            two("mwf", "--tree-root", "master"),
            "treesplit and pvsplit only",
        ),
        (two("treesplit", "--pv-form", "rf"), "pvsplit only"),
        (two("mwf", "--ybw-rule", "star"), "delaysplit only"),
        (two("er", "--ybw-windows", "by-value"), "delaysplit only"),
        (two("ybw", "--er-e-children", "active"), "er only"),
        (
            two("mwf", "--split-width", "4"),
            "treesplit and pvsplit only",
        ),
        (two("treesplit", "--split-width", "0"), "out of range"),
        (
            two("mwf", "--mwf-cutoffs", "none"),
            "[possible values: shallow, deep]",
        ),
        (
            two("pvsplit", "--pv-form", "pvs"),
            "[possible values: mp, rf]",
        ),
        (
            two("treesplit", "--tree-root", "slave"),
            "[possible values: worker, master]",
        ),
        (
            two("ybw", "--ybw-rule", "yes"),
            "[possible values: plain, star]",
        ),
        (
            two("ybw", "--ybw-windows", "value"),
            "[possible values: spread, by-value]",
        ),
        (
            two("er", "--er-e-children", "all"),
            "[possible values: split, active]",
        ),
    ] {
        refused(&argv, needle);
    }
    for (flag, value) in [
        ("--mwf-wait", "off"),
        ("--mwf-cutoffs", "deep"),
        ("--ybw-rule", "star"),
        ("--ybw-windows", "by-value"),
        ("--split-width", "4"),
    ] {
        refused(&["--algo", "alphabeta", flag, value], "needs --procs");
    }
}

/// The two-PDP-11 thesis's common-depth strategy by its letter, either case, or its word.
#[test]
fn the_common_depth_strategy_takes_its_letter_or_its_word() {
    use control::parallel::cdsplit::CdStrategy;
    let strategy = |given: &str| {
        args(&[
            "--game",
            "tictactoe4",
            "--depth",
            "3",
            "--cd-strategy",
            given,
        ])
        .map(|a| a.cd_strategy)
        .map_err(|e| e.to_string())
    };
    for (given, expected) in [
        ("a", CdStrategy::Variable),
        ("A", CdStrategy::Variable),
        ("variable", CdStrategy::Variable),
        ("b", CdStrategy::Fixed),
        ("fixed", CdStrategy::Fixed),
    ] {
        assert_eq!(strategy(given), Ok(Some(expected)), "{given}");
    }
    let err = strategy("c").expect_err("no such strategy");
    assert!(err.contains("[possible values: a, b]"), "{err}");
    let par = checked(&[
        "--game",
        "tictactoe4",
        "--depth",
        "3",
        "--procs",
        "2",
        "--backend",
        "sim",
        "--algo",
        "cdsplit",
        "--cd-strategy",
        "B",
    ]);
    assert_eq!(par.options().cd_strategy, CdStrategy::Fixed);
}
