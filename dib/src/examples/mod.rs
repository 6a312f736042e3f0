//! DIB's own example applications (no games): N-queens solution counting and a synthetic
//! random min/max tree, searched exhaustively and with alpha-beta (window updates and aborts). Tests, benchmarks and the runner use them to exercise the runtime.

pub mod alphabeta_tree;
pub mod nqueens;
pub mod random_tree;
