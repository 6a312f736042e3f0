//! `runner perft`: leaf counts of the legal-move tree.

use std::time::Instant;

use anyhow::{Context as _, Result};
use control::parallel_perft::parallel_perft;
use dib::Report;
use games::{Game, GameId, GameInfo, GameVisitor};
use serde_json::json;

use crate::cli::PerftArgs;
use lab::dib_flags::{self, Parallel};
use lab::input_error::input;

/// The deepest perft accepted (deeper runs would not finish anyway).
const MAX_DEPTH: u32 = 64;

/// Reads the DIB flags; `None` when --procs is absent (the sequential path).
fn parallel_args(args: &PerftArgs) -> Result<Option<Parallel>> {
    let par = dib_flags::parse(&args.dib)?;
    if par.is_some() && args.divide {
        return Err(input(
            "--divide",
            "is sequential only; drop --divide or --procs",
        ));
    }
    Ok(par)
}

/// Leaves per second (0 for a run too short to time).
fn per_second(nodes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    }
}

/// Runs `runner perft`.
pub fn run(args: &PerftArgs) -> Result<()> {
    let game: GameId = args.game.parse().map_err(|e| input("--game", e))?;
    if args.depth > MAX_DEPTH {
        return Err(input(
            "--depth",
            format!("{} is too deep; use 0 to {MAX_DEPTH}", args.depth),
        ));
    }
    let mut parallel = parallel_args(args)?;
    // On MPI every rank runs this; the session lives until the count is printed.
    let _session = match &mut parallel {
        Some(par) => par.join_mpi()?,
        None => None,
    };
    game.visit(PerftVisitor {
        args,
        parallel: parallel.as_ref(),
    })
}

struct PerftVisitor<'a> {
    args: &'a PerftArgs,
    parallel: Option<&'a Parallel>,
}

impl GameVisitor for PerftVisitor<'_> {
    type Output = Result<()>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<()> {
        let args = self.args;
        let root: G = args.position.parse(info)?;
        if let Some(par) = self.parallel {
            return run_parallel(info, &root, args, par);
        }
        let started = Instant::now();
        let (nodes, divide) = if args.divide {
            let rows = games::perft::divide(&root, args.depth);
            (rows.iter().map(|(_, n)| n).sum(), Some(rows))
        } else {
            (root.clone().perft(args.depth), None)
        };
        let seconds = started.elapsed().as_secs_f64();
        let nps = per_second(nodes, seconds);
        if args.json {
            let mut out = json!({
                "game": info.name,
                "position": root.to_string(),
                "depth": args.depth,
                "nodes": nodes,
                "seconds": seconds,
                "nodes_per_second": nps,
                "notes": info.notes,
            });
            if let Some(rows) = &divide {
                out["divide"] = rows
                    .iter()
                    .map(|(m, n)| json!({ "move": m, "nodes": n }))
                    .collect();
            }
            println!("{out}");
        } else {
            if let Some(rows) = &divide {
                for (m, n) in rows {
                    println!("{m}: {n}");
                }
            }
            println!(
                "perft {} depth {}: {nodes} leaves in {seconds:.3} s ({:.1} M leaves/s)",
                info.name,
                args.depth,
                nps / 1e6
            );
            if !info.notes.is_empty() {
                println!("convention: {}", info.notes);
            }
        }
        Ok(())
    }
}

/// `runner perft --procs N`: the count through the DIB runtime, with its accounting.
fn run_parallel<G: Game>(
    info: &GameInfo,
    root: &G,
    args: &PerftArgs,
    par: &Parallel,
) -> Result<()> {
    let report: Report<u64> = parallel_perft(root, args.depth, par.procs, &par.backend, None)
        .with_context(|| format!("parallel perft of {} on {}", info.name, par.backend.name()))?;
    if !report.is_root() {
        // Another MPI rank: rank 0 prints.
        return Ok(());
    }
    let nodes = report.value;
    let seconds = report.seconds();
    let nps = per_second(nodes, seconds);
    if args.json {
        let mut out = json!({
            "game": info.name,
            "position": root.to_string(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": nps,
            "notes": info.notes,
            "accounting": {
                "total": report.total,
                "per_processor": report.accounts,
                "sim": report.sim,
                "config": report.config,
            },
        });
        par.add_json(&mut out);
        println!("{out}");
        return Ok(());
    }
    let clock = if report.sim.is_some() { "virtual " } else { "" };
    println!(
        "perft {} depth {}: {nodes} leaves in {seconds:.3} {clock}s ({:.1} M leaves/s)",
        info.name,
        args.depth,
        nps / 1e6
    );
    par.print_accounting(&report.total, &report.accounts, report.sim.as_ref());
    if !info.notes.is_empty() {
        println!("convention: {}", info.notes);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use lab::input_error::InputError;

    fn args(extra: &[&str]) -> PerftArgs {
        let mut argv = vec!["runner", "perft", "--game", "tictactoe3", "--depth", "3"];
        argv.extend_from_slice(extra);
        match crate::cli::Cli::parse_from(argv).command {
            crate::cli::Command::Perft(a) => a,
            _ => unreachable!("parsed perft"),
        }
    }

    fn input_error(extra: &[&str]) -> String {
        match parallel_args(&args(extra)) {
            Err(e) => {
                assert!(e.downcast_ref::<InputError>().is_some(), "{e}");
                e.to_string()
            }
            Ok(_) => panic!("{extra:?} was accepted"),
        }
    }

    #[test]
    fn parallel_flags_are_checked_with_one_line_errors() {
        assert!(parallel_args(&args(&[])).unwrap().is_none());
        let p = parallel_args(&args(&["--procs", "3", "--backend", "sim", "--seed", "9"]))
            .unwrap()
            .unwrap();
        assert_eq!((p.procs, p.seed, p.backend.name()), (3, 9, "sim"));
        assert!(input_error(&["--seed", "1"]).starts_with("--seed"));
        assert!(input_error(&["--procs", "0"]).starts_with("--procs"));
        let unknown = crate::cli::Cli::try_parse_from([
            "runner",
            "perft",
            "--game",
            "tictactoe3",
            "--procs",
            "2",
            "--backend",
            "mpi2",
        ]);
        assert!(unknown.is_err(), "clap knows the backends");
        assert!(input_error(&["--procs", "2", "--faults", "drop=1/2"]).contains("--backend sim"));
        assert!(
            input_error(&["--procs", "2", "--backend", "sim", "--faults", "drop=3/2"])
                .starts_with("--faults")
        );
        assert!(
            input_error(&["--procs", "2", "--backend", "sim", "--faults", "crash=0@1"])
                .contains("processor 0")
        );
        assert!(
            input_error(&["--procs", "2", "--backend", "sim", "--sim-preset", "x"])
                .starts_with("--sim-preset")
        );
        let e = input_error(&["--procs", "2", "--divide"]);
        assert!(e.starts_with("--divide") && !e.contains('\n'), "{e}");
    }
}
