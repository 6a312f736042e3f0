//! The runner's integration tests, one binary (`cargo test -p runner --test it`): each module is one
//! concern, most of them running the built `runner` binary.

mod aphid_cli;
mod cli;
mod common;
mod compare_cli;
mod experiment_cli;
mod markup;
mod model_cli;
mod mpi;
mod othello6_rezaie_finkel;
mod parallel_cli;
mod play_cli;
mod referee_cli;
mod registry_cli;
mod report_render;
mod search_cli;
mod sim_reproducible;
mod strength_cli;
mod workspace_deps;
