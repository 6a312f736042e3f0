//! `runner`: the one binary of the workspace. It chooses game, algorithm, backend and processor
//! count, and prints results as text or (with `--json`) as exactly one JSON object on stdout.
//!
//! Exit status: 0 on success, 2 for usage or input errors (bad flag, unknown game, malformed
//! position), 1 for failures while running.

mod cli;
mod gtp;
mod line;
mod list;
mod mpi;
mod perft;
mod served;
mod uci;

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use lab::input_error::InputError;
use lab::{calibrate, compare, experiment, openings, play, search, solve, strength, validate_sim};

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    // The MPI library of `--backend mpi` and the mpi-* commands, where this build links one.
    #[cfg(feature = "mpi")]
    dib_mpi::register();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // Help and version go to stdout as clap writes them; a usage error is one line, as
            // every other input error.
            if err.use_stderr() && err.kind() != ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            {
                eprintln!("{}", one_line(&err.render().to_string()));
            } else {
                let _ = err.print();
            }
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
        Command::Engine(args) => line::run(&args),
        Command::Gtp(args) => gtp::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Openings(args) => openings::run(&args),
        Command::Strength(args) => strength::run(&args),
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

/// clap's usage error on one line: what is wrong and its hints (the valid values, a similar
/// flag), without the usage synopsis.
fn one_line(rendered: &str) -> String {
    let parts: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:"))
        .filter(|l| !l.starts_with("For more information"))
        .collect();
    format!("{} (see --help)", parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_usage_error_is_one_line_with_its_hints() {
        let err = Cli::try_parse_from(["runner", "compare", "--sort", "ecc"])
            .expect_err("no such regime");
        let line = one_line(&err.render().to_string());
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(
            line.starts_with("error: invalid value 'ecc' for '--sort <SORT>'")
                && line.contains("[possible values: none, tn, pvr, ec, tt]"),
            "{line}"
        );
        let err =
            Cli::try_parse_from(["runner", "compare", "--dpeth", "3"]).expect_err("no such flag");
        let line = one_line(&err.render().to_string());
        assert!(
            line.contains("'--dpeth'") && line.contains("--depth") && !line.contains("Usage"),
            "{line}"
        );
    }
}
