//! Results measured under the `shared-memory` preset before the cost model had node kinds,
//! shared tables and presets as files stay exactly reproducible: the same cells give the same
//! nodes and the same virtual seconds. A change of an algorithm changes its row (delaysplit's
//! follows the split engine's rule of re-testing a stale fail high with a minimal window before
//! any full re-search, and delaysplit's and mwf's the engine frames' sequential ordering and
//! iterative deepening); a change of the cost model must not.

// Not every helper is used here.
#[allow(dead_code)]
use crate::common;

use common::runner;

#[test]
fn shared_memory_results_are_reproduced_exactly() {
    let out = std::env::temp_dir().join(format!("runner-sim-repro-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = runner(&[
        "compare",
        "--positions",
        "1",
        "--algos",
        "delaysplit,lazysmp,mwf",
        "--procs",
        "4",
        "--sim-preset",
        "shared-memory",
        "--out",
        out.to_str().expect("a UTF-8 path"),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let csv = std::fs::read_to_string(out.join("results.csv")).expect("results.csv");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("column {name}"))
    };
    let (series, procs, nodes, seconds) =
        (col("series"), col("procs"), col("nodes"), col("seconds"));
    // Line 3 of testsets/search/tictactoe4.txt, depth 7, seed 1: (series, nodes, seconds).
    let expected = [
        ("delaysplit", "66380", "0.322069"),
        ("lazysmp", "86730", "0.371265"),
        ("mwf", "196926", "0.634023"),
    ];
    for (name, want_nodes, want_seconds) in expected {
        let row: Vec<&str> = lines
            .clone()
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|r| r[series] == name && r[procs] == "4")
            .unwrap_or_else(|| panic!("a row for {name} on 4 processors in\n{csv}"));
        assert_eq!(
            (row[nodes], row[seconds]),
            (want_nodes, want_seconds),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}
