//! Helpers shared by the runner's end-to-end tests: run the binary, read its JSON output.

use std::process::{Command, Output};

use serde_json::Value;

/// Runs the runner binary with `args`.
pub fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runner"))
        .args(args)
        .output()
        .expect("the runner binary runs")
}

/// Runs the runner with `args`, which must succeed, and parses its one JSON object.
pub fn json_of(args: &[&str]) -> Value {
    let out = runner(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}
