//! A comparison scripted from Rust, in this process: the spec read from a TOML table (the
//! form of the experiments' files), checked into a plan, run, and its summaries read as typed
//! values; no `runner` binary involved.

use lab::cli::CompareArgs;
use lab::compare::metrics::Metric;
use lab::compare::plan::Plan;
use lab::compare::report::Addendum;

#[test]
fn a_comparison_runs_in_process_and_returns_typed_summaries() {
    let out = std::env::temp_dir().join(format!("lab-in-process-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let spec: CompareArgs = toml::from_str(&format!(
        "game = \"tictactoe4\"\npositions = 2\nalgos = \"delaysplit,mwf\"\nprocs = \"2,4\"\n\
         depth = 4\nout = {:?}\n",
        out.to_str().expect("a UTF-8 temp path")
    ))
    .expect("a valid spec");
    let plan = Plan::parse(&spec).expect("a valid plan");
    assert_eq!(plan.procs, vec![1, 2, 4], "one processor is always added");
    let outcome =
        lab::compare::execute(&plan, "in-process test", &Addendum::default()).expect("it runs");
    for series in ["delaysplit", "mwf"] {
        for procs in [1, 2, 4] {
            let s = outcome
                .summaries
                .iter()
                .find(|s| s.series == series && s.procs == procs)
                .unwrap_or_else(|| panic!("no summary of {series} on {procs}"));
            assert_eq!(s.samples, 2, "{series} x{procs}");
            assert_eq!(
                s.disagreements, 0,
                "{series} x{procs} agrees with alpha-beta"
            );
            let speedup = s.per_position[&Metric::Speedup].mean;
            assert!(
                speedup > 0.0 && speedup.is_finite(),
                "{series} x{procs}: {speedup}"
            );
        }
    }
    // Two positions, two series on three counts (the baseline's cells are not rows).
    assert_eq!(outcome.rows.len(), 12);
    assert!(out.join("results.csv").is_file() && outcome.report.is_file());
    let _ = std::fs::remove_dir_all(&out);
}
