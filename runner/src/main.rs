//! `runner`: the one binary of the workspace. It chooses game, algorithm, backend and processor
//! count, and prints results as text or (with `--json`) as exactly one JSON object on stdout.
//!
//! Exit status: 0 on success, 2 for usage or input errors (bad flag, unknown game, malformed
//! position), 1 for failures while running.

mod cli;
mod list;
mod mpi;
mod perft;
mod play;
mod uci;

use std::process::ExitCode;

use clap::Parser;

use lab::input_error::InputError;
use lab::{calibrate, compare, experiment, search, solve, validate_sim};

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help and version to stdout and usage errors to stderr, each with its
            // own exit status (0 or 2).
            let _ = err.print();
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    let result = match cli.command {
        Command::List(args) => list::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Experiment(args) => experiment::run(&args),
        Command::Uci => uci::run(),
        Command::Play(args) => play::run(&args),
        Command::Calibrate(args) => calibrate::run(&args),
        Command::ValidateSim(args) => validate_sim::run(&args),
        #[cfg(feature = "mpi")]
        Command::MpiBench(args) => mpi::run_bench(&args),
        #[cfg(feature = "mpi")]
        Command::MpiExample(args) => mpi::run_example(&args),
        #[cfg(feature = "mpi")]
        Command::MpiAgreement(args) => mpi::run_agreement(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let status = if err.downcast_ref::<InputError>().is_some() {
                2
            } else {
                1
            };
            eprintln!("error: {err:#}");
            ExitCode::from(status)
        }
    }
}
