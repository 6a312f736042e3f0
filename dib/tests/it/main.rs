//! The dib crate's integration tests, one binary (`cargo test -p dib --test it`): each module is one
//! concern.

mod alphabeta_tree;
mod common;
mod notice;
mod nqueens;
mod random_tree;
mod table_home;
mod worker_model;
