//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::sync::Arc;

use dib::{Application, Backend, CostModel, FaultPlan, Report, SimConfig, solve};

/// A simulated backend with `preset` and `seed`.
pub fn sim(preset: &str, seed: u64, faults: &str) -> Backend {
    let mut c = SimConfig::new(preset.parse::<CostModel>().unwrap(), seed);
    c.faults = faults.parse::<FaultPlan>().unwrap();
    c.max_events = 5_000_000;
    Backend::Sim(c)
}

/// Solves and panics with the seed on failure.
pub fn run<A: Application>(
    app: A,
    root: A::Problem,
    procs: usize,
    backend: &Backend,
) -> Report<A::Value> {
    match solve(Arc::new(app), root, procs, backend, None) {
        Ok(r) => r,
        Err(e) => panic!("{procs} processors on {backend:?}: {e}"),
    }
}
