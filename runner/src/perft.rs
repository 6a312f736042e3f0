//! `runner perft`: leaf counts of the legal-move tree.

use std::time::Instant;

use anyhow::{Context as _, Result};
use control::parallel_perft::parallel_perft;
use dib::{Backend, CostModel, FaultPlan, Report, SimConfig};
use games::{Game, GameId, GameInfo, GameVisitor};
use serde_json::json;

use crate::cli::PerftArgs;
use crate::input_error::input;

/// The deepest perft accepted (deeper runs would not finish anyway).
const MAX_DEPTH: u32 = 64;

/// The most DIB processors accepted.
const MAX_PROCS: usize = 4096;

/// A parallel run as asked for on the command line.
struct Parallel {
    /// Processors; on MPI 0 until the world size is known.
    procs: usize,
    backend: Backend,
    seed: u64,
    preset: Option<String>,
    faults: Option<FaultPlan>,
}

/// Reads --procs, --backend, --seed, --sim-preset and --faults; `None` when --procs is absent
/// (the sequential path).
fn parallel_args(args: &PerftArgs) -> Result<Option<Parallel>> {
    let on_mpi = args.backend.as_deref() == Some("mpi");
    let Some(procs) = args.procs.or(on_mpi.then_some(0)) else {
        for (flag, given) in [
            ("--backend", args.backend.is_some()),
            ("--seed", args.seed.is_some()),
            ("--sim-preset", args.sim_preset.is_some()),
            ("--faults", args.faults.is_some()),
        ] {
            if given {
                return Err(input(flag, "needs --procs N (a parallel run)"));
            }
        }
        return Ok(None);
    };
    if (procs == 0 && !on_mpi) || procs > MAX_PROCS || args.procs == Some(0) {
        return Err(input(
            "--procs",
            format!("{procs} is out of range; use 1 to {MAX_PROCS}"),
        ));
    }
    if args.divide {
        return Err(input(
            "--divide",
            "is sequential only; drop --divide or --procs",
        ));
    }
    let seed = args.seed.unwrap_or(1);
    let backend_name = args.backend.as_deref().unwrap_or("threads");
    match backend_name {
        "threads" => {
            for (flag, given) in [
                ("--sim-preset", args.sim_preset.is_some()),
                ("--faults", args.faults.is_some()),
            ] {
                if given {
                    return Err(input(flag, "needs --backend sim"));
                }
            }
            Ok(Some(Parallel {
                procs,
                backend: Backend::Threads { seed },
                seed,
                preset: None,
                faults: None,
            }))
        }
        "sim" => {
            let preset = args.sim_preset.as_deref().unwrap_or("shared-memory");
            let cost: CostModel = preset.parse().map_err(|e| input("--sim-preset", e))?;
            let faults: FaultPlan = match &args.faults {
                Some(spec) => spec.parse().map_err(|e| input("--faults", e))?,
                None => FaultPlan::default(),
            };
            if let Some(c) = faults
                .crashes
                .iter()
                .find(|c| c.proc == 0 || c.proc >= procs)
            {
                return Err(input(
                    "--faults",
                    format!(
                        "cannot crash processor {}; use 1 to {} (processor 0 holds the root)",
                        c.proc,
                        procs.saturating_sub(1)
                    ),
                ));
            }
            let mut config = SimConfig::new(cost, seed);
            config.faults = faults.clone();
            Ok(Some(Parallel {
                procs,
                backend: Backend::Sim(config),
                seed,
                preset: Some(preset.to_string()),
                faults: Some(faults),
            }))
        }
        "mpi" => {
            for (flag, given) in [
                ("--sim-preset", args.sim_preset.is_some()),
                ("--faults", args.faults.is_some()),
            ] {
                if given {
                    return Err(input(flag, "needs --backend sim"));
                }
            }
            Ok(Some(Parallel {
                procs,
                backend: Backend::Mpi { seed },
                seed,
                preset: None,
                faults: None,
            }))
        }
        other => Err(input(
            "--backend",
            format!("unknown backend '{other}'; use threads, sim or mpi"),
        )),
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
        Some(par) if matches!(par.backend, Backend::Mpi { .. }) => {
            let session = crate::mpi::start()?;
            let world = crate::mpi::world_size(&session);
            if par.procs != 0 && par.procs != world {
                return Err(input(
                    "--procs",
                    format!(
                        "{} but the MPI launcher started {world} ranks; launch with `mpirun -n {}` or drop --procs",
                        par.procs, par.procs
                    ),
                ));
            }
            par.procs = world;
            Some(session)
        }
        _ => None,
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
        let root = match &args.position {
            Some(text) => G::parse_position(text)
                .map_err(|e| input(format!("--position for {}", info.name), e))?,
            None => G::start(),
        };
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
        let nps = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
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
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    let t = &report.total;
    let spent = (t.backend.busy_ns + t.backend.idle_ns + t.backend.messaging_ns).max(1) as f64;
    let pct = |x: u64| 100.0 * x as f64 / spent;
    if args.json {
        let mut out = json!({
            "game": info.name,
            "position": root.to_string(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": nps,
            "notes": info.notes,
            "backend": par.backend.name(),
            "procs": par.procs,
            "seed": par.seed,
            "virtual_time": matches!(par.backend, Backend::Sim(_)),
            "accounting": {
                "total": report.total,
                "per_processor": report.accounts,
                "sim": report.sim,
                "config": report.config,
            },
        });
        if let Some(p) = &par.preset {
            out["sim_preset"] = json!(p);
        }
        if let Some(f) = &par.faults {
            out["faults"] = json!(f.to_string());
        }
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
    println!(
        "dib: {} x{}, seed {}{}{}",
        par.backend.name(),
        par.procs,
        par.seed,
        par.preset
            .as_ref()
            .map(|p| format!(", preset {p}"))
            .unwrap_or_default(),
        par.faults
            .as_ref()
            .map(|f| format!(", faults {f}"))
            .unwrap_or_default(),
    );
    println!(
        "     nodes {}, messages {}, requests {} granted / {} refused / {} timed out, work redone {}",
        t.backend.nodes,
        t.backend.messages_sent,
        t.dib.requests_granted,
        t.dib.requests_refused,
        t.dib.requests_timed_out,
        t.dib.work_redone
    );
    println!(
        "     time: busy {:.1}%, idle {:.1}%, messaging {:.1}%",
        pct(t.backend.busy_ns),
        pct(t.backend.idle_ns),
        pct(t.backend.messaging_ns)
    );
    if let Some(f) = &report.sim {
        println!(
            "sim: trace {:016x}, {} events; injected: {} dropped, {} duplicated, {} delayed, {} corrupted, {} crashes",
            f.trace_hash, f.events, f.dropped, f.duplicated, f.delayed, f.corrupted, f.crashes
        );
    }
    if !info.notes.is_empty() {
        println!("convention: {}", info.notes);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input_error::InputError;

    fn args(extra: &[&str]) -> PerftArgs {
        use clap::Parser;
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
        assert!(input_error(&["--procs", "2", "--backend", "mpi2"]).starts_with("--backend"));
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
