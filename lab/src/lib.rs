//! `lab`: comparisons of parallel game-tree search algorithms, and the papers' experiments.
//!
//! The library behind the `runner` binary's `search`, `solve`, `compare`, `experiment`,
//! `calibrate` and `validate-sim` commands: test sets and the one position grammar
//! ([`testset`]), comparisons of algorithms over processor counts with their tables, plots and
//! HTML report ([`compare`]), the papers' figures and tables rerun beside the published numbers
//! ([`experiment`]), the simulator's calibration and validation ([`calibrate`],
//! [`validate_sim`]; the never-splitting control of real-thread timing, [`never_split`]), matches and strength per core ([`play`], [`strength`], [`openings`]).
//! Each command's inputs have a command-line form in [`cli`]; what the commands choose per
//! game (test sets, depths) is one table, [`per_game`].
//!
//! A comparison scripted from Rust: a [`cli::CompareArgs`] (from the command line, or
//! deserialised from a TOML table with the flags' long names as keys, as the experiments'
//! files are), checked by [`compare::plan::Plan::parse`], run by [`compare::execute`], which
//! returns the typed summaries and writes the files; `lab/tests/it/compare_in_process.rs` does
//! exactly that.
//!
//! The inputs are typed. Every value with names is an enum that clap lists in `--help` and
//! checks, and that serde reads by the same names from a table: the backend
//! ([`cli::BackendKind`]), the setting, the table mode and replacement rule, the sorting regime,
//! APHID's tables, the split engine's tables and each algorithm's options (control's enums,
//! with its `clap` feature). Lists (`procs`, `algos`, `games`) are comma-separated on the
//! command line, and a comma-separated string or an array in a table ([`cli::list`]).
//!
//! Errors are `anyhow` errors with context; an [`input_error::InputError`] among their causes
//! marks bad input (the binary's exit status 2).

pub mod calibrate;
pub mod cli;
pub mod compare;
pub mod dib_flags;
pub mod experiment;
pub mod input_error;
pub mod machine;
pub mod mpi;
pub mod never_split;
pub mod openings;
pub mod parallel_search;
pub mod per_game;
pub mod play;
pub mod progress;
pub mod search;
pub mod solve;
pub mod strength;
pub mod testset;
pub mod validate_sim;
