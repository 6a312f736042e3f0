//! DIB's own example applications (no games): N-queens solution counting and a synthetic
//! random min/max tree. Tests, benchmarks and the runner use them to exercise the runtime.

pub mod nqueens;
pub mod random_tree;
