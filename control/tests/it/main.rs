//! The control crate's integration tests, one binary (`cargo test -p control --test it`): each module
//! is one concern.

mod common;
mod custom_control;
mod differential;
mod limits;
mod node_kinds;
mod one_processor;
mod parallel_abdib_width;
mod parallel_agreement;
mod parallel_aphid;
mod parallel_cdsplit;
mod parallel_mwf;
mod parallel_perft;
mod parallel_pvsplit_er;
mod parallel_research_pvs;
mod play_values;
mod probcut;
mod rf_setup;
mod settings;
mod solve;
mod split_ab_policies;
mod table;
mod unsorted;
