//! The DIB flags shared by `runner perft` and `runner search`: --procs, --backend, --seed,
//! --sim-preset and --faults, checked once, and the runtime's accounting printed once.

use anyhow::Result;
use dib::{Backend, CostModel, FaultPlan, ProcAccounts, SimConfig, SimFigures};
use serde_json::{Value, json};

use crate::cli::{BackendKind, DibArgs};
use crate::input_error::input;

/// The most DIB processors accepted.
pub const MAX_PROCS: usize = 4096;

/// A parallel run as asked for on the command line.
pub struct Parallel {
    /// Processors.
    pub procs: usize,
    /// Where they run.
    pub backend: Backend,
    /// The master seed.
    pub seed: u64,
    /// The simulator preset (sim only).
    pub preset: Option<String>,
    /// The injected faults (sim only).
    pub faults: Option<FaultPlan>,
}

/// Checks the flags; `None` when --procs is absent (the sequential path), after checking that
/// no other DIB flag was given. With `--backend mpi`, --procs may be absent: `procs` is then 0
/// until [`Parallel::join_mpi`] learns the world size.
pub fn parse(flags: &DibArgs) -> Result<Option<Parallel>> {
    let on_mpi = flags.backend == Some(BackendKind::Mpi);
    let Some(procs) = flags.procs.or(on_mpi.then_some(0)) else {
        for (flag, given) in [
            ("--backend", flags.backend.is_some()),
            ("--seed", flags.seed.is_some()),
            ("--sim-preset", flags.sim_preset.is_some()),
            ("--faults", flags.faults.is_some()),
        ] {
            if given {
                return Err(input(flag, "needs --procs N (a parallel run)"));
            }
        }
        return Ok(None);
    };
    if (procs == 0 && !on_mpi) || procs > MAX_PROCS || flags.procs == Some(0) {
        return Err(input(
            "--procs",
            format!("{procs} is out of range; use 1 to {MAX_PROCS}"),
        ));
    }
    let seed = flags.seed.unwrap_or(1);
    match flags.backend.unwrap_or(BackendKind::Threads) {
        kind @ (BackendKind::Threads | BackendKind::Mpi) => {
            for (flag, given) in [
                ("--sim-preset", flags.sim_preset.is_some()),
                ("--faults", flags.faults.is_some()),
            ] {
                if given {
                    return Err(input(flag, "needs --backend sim"));
                }
            }
            let backend = if kind == BackendKind::Mpi {
                Backend::Mpi { seed }
            } else {
                Backend::Threads { seed }
            };
            Ok(Some(Parallel {
                procs,
                backend,
                seed,
                preset: None,
                faults: None,
            }))
        }
        BackendKind::Sim => {
            let preset = flags.sim_preset.as_deref().unwrap_or("shared-memory");
            let cost = cost_model(preset)?;
            let faults: FaultPlan = match flags.faults.as_deref() {
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
    }
}

/// The cost model `--sim-preset` names: a built-in preset, or a TOML file (a path ending in
/// `.toml`, or any existing file) in the format of `dib/presets/*.toml`.
///
/// # Errors
/// An unknown name, an unreadable file or a bad model, as an input error naming the flag.
pub fn cost_model(preset: &str) -> Result<CostModel> {
    let path = std::path::Path::new(preset);
    if preset.ends_with(".toml") || path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| {
            input(
                "--sim-preset",
                format!("cannot read cost-model file {preset}: {e}"),
            )
        })?;
        return CostModel::from_toml(&text)
            .map_err(|e| input("--sim-preset", format!("{preset}: {e}")));
    }
    CostModel::preset(preset).map_err(|e| input("--sim-preset", e))
}

impl Parallel {
    /// On `--backend mpi`: starts MPI (every rank runs the command), checks --procs against the
    /// world size and sets `procs` to it. The returned session must live until the run has been
    /// printed. Other backends: `None`.
    ///
    /// # Errors
    /// No MPI launcher, an MPI library mismatch, or --procs different from the world size.
    pub fn join_mpi(&mut self) -> Result<Option<crate::mpi::Session>> {
        if !matches!(self.backend, Backend::Mpi { .. }) {
            return Ok(None);
        }
        let session = crate::mpi::start()?;
        let world = crate::mpi::world_size(&session);
        if self.procs != 0 && self.procs != world {
            return Err(input(
                "--procs",
                format!(
                    "{} but the MPI launcher started {world} ranks; launch with `mpirun -n {}` or drop --procs",
                    self.procs, self.procs
                ),
            ));
        }
        self.procs = world;
        Ok(Some(session))
    }

    /// Adds `backend`, `procs`, `seed`, `virtual_time`, `sim_preset` and `faults` to `out`.
    pub fn add_json(&self, out: &mut Value) {
        out["backend"] = json!(self.backend.name());
        out["procs"] = json!(self.procs);
        out["seed"] = json!(self.seed);
        out["virtual_time"] = json!(matches!(self.backend, Backend::Sim(_)));
        if let Some(p) = &self.preset {
            out["sim_preset"] = json!(p);
        }
        if let Some(f) = &self.faults {
            out["faults"] = json!(f.to_string());
        }
    }

    /// Prints the run's accounting as text (after the result lines).
    pub fn print_accounting(
        &self,
        total: &ProcAccounts,
        per: &[ProcAccounts],
        sim: Option<&SimFigures>,
    ) {
        println!(
            "dib: {} x{}, seed {}{}{}",
            self.backend.name(),
            self.procs,
            self.seed,
            self.preset
                .as_ref()
                .map(|p| format!(", preset {p}"))
                .unwrap_or_default(),
            self.faults
                .as_ref()
                .map(|f| format!(", faults {f}"))
                .unwrap_or_default(),
        );
        let t = total;
        println!(
            "     nodes {}, messages {}, requests {} granted / {} refused / {} timed out, work redone {}",
            t.backend.nodes,
            t.backend.messages_sent,
            t.dib.requests_granted,
            t.dib.requests_refused,
            t.dib.requests_timed_out,
            t.dib.work_redone
        );
        let pct = percent_of_time(t);
        println!(
            "     time: busy {:.1}%, idle {:.1}%, messaging {:.1}%",
            pct(t.backend.busy_ns),
            pct(t.backend.idle_ns),
            pct(t.backend.messaging_ns)
        );
        if per.len() > 1 {
            for (i, a) in per.iter().enumerate() {
                let pct = percent_of_time(a);
                println!(
                    "     proc {i:>3}: nodes {:>12}, busy {:>5.1}%, idle {:>5.1}%, messaging {:>5.1}%, problems received {}, splits {}",
                    a.backend.nodes,
                    pct(a.backend.busy_ns),
                    pct(a.backend.idle_ns),
                    pct(a.backend.messaging_ns),
                    a.dib.problems_received,
                    a.dib.splits
                );
            }
        }
        if let Some(f) = sim {
            println!(
                "sim: trace {:016x}, {} events; injected: {} dropped, {} duplicated, {} delayed, {} corrupted, {} crashes",
                f.trace_hash, f.events, f.dropped, f.duplicated, f.delayed, f.corrupted, f.crashes
            );
        }
    }
}

/// Percent of `a`'s accounted time.
fn percent_of_time(a: &ProcAccounts) -> impl Fn(u64) -> f64 {
    let spent = (a.backend.busy_ns + a.backend.idle_ns + a.backend.messaging_ns).max(1) as f64;
    move |x| 100.0 * x as f64 / spent
}
