//! `runner experiment --all`: every experiment of the catalog into its own subfolder of one
//! output folder (checked writable before anything runs), then the results page
//! (`index.rs`). An experiment that fails is named at the end (exit status 1) after the
//! others have run. At the end it prints its wall time beside the summed time of the cells it
//! computed, and keeps both in `all.json`, which the results page shows.
//!
//! With `--shard K/N` every comparison computes its slice and no page is written; the model
//! experiment, which runs in one process, runs whole in shard 1. `--assemble` then writes
//! every page from the shards' cells (the model experiment keeps the pages shard 1 wrote).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use serde::{Deserialize, Serialize};

use super::catalog::{self, Kind};
use super::{Scope, index, names, run_one, times};
use crate::compare::store::Cost;
use crate::input_error::input;

/// What the last whole `runner experiment --all` into a folder took (`all.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllRun {
    /// The command.
    pub command: String,
    /// The source commit of the runner.
    pub commit: String,
    /// Simulated cells at the same time (`--jobs`).
    pub jobs: usize,
    /// The machine's cores.
    pub cores: usize,
    /// The run's wall time, seconds.
    pub wall_seconds: f64,
    /// The cells it computed (not those it found on disk) and their summed time.
    pub computed: Cost,
}

/// The file in an `--all` folder.
pub const FILE: &str = "all.json";

/// Reads `dir`'s `all.json`, if there is one.
///
/// # Errors
/// A file that cannot be read or is no record.
pub fn read(dir: &Path) -> Result<Option<AllRun>> {
    let path = dir.join(FILE);
    if !path.exists() {
        return Ok(None);
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text)
        .map(Some)
        .with_context(|| format!("{} is not a record of a run of --all", path.display()))
}

/// Fails with an input error unless `dir` can be created and written to.
fn check_writable(dir: &Path) -> Result<()> {
    let flag = format!("--out {}", dir.display());
    if dir.exists() && !dir.is_dir() {
        return Err(input(flag, "is a file, not a folder; name a folder"));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        input(
            &flag,
            format!("cannot be created ({e}); name a folder you can write to"),
        )
    })?;
    let probe = dir.join(".runner-write-check");
    std::fs::write(&probe, b"").map_err(|e| {
        input(
            &flag,
            format!("is not writable ({e}); name a folder you can write to"),
        )
    })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// `runner experiment --all`: every experiment into `out/<name>`, then the results page.
pub fn run(out: Option<&Path>, scope: &Scope) -> Result<()> {
    let out = out.map_or_else(|| PathBuf::from("target/experiments"), Path::to_path_buf);
    let all = catalog::all()?;
    check_writable(&out)?;
    let start = Instant::now();
    let mut computed = Cost::default();
    let mut failed = Vec::new();
    for exp in all {
        let mut this = scope.clone();
        if matches!(exp.kind, Kind::Model { .. }) {
            // One process runs it whole: shard 1; --assemble keeps its pages.
            match scope.shard {
                Some(s) if s.index != 1 => continue,
                _ if scope.assemble => continue,
                _ => this.shard = None,
            }
        }
        match run_one(exp, &out.join(&exp.name), &this) {
            Ok(c) => computed.add(c),
            Err(e) => {
                eprintln!("error: {}: {e:#}", exp.name);
                failed.push(exp.name.as_str());
            }
        }
    }
    let wall_seconds = start.elapsed().as_secs_f64();
    let jobs = scope.jobs.unwrap_or_else(crate::machine::cores);
    if scope.shard.is_none() {
        if !scope.assemble {
            let run = AllRun {
                command: command(&out, scope, jobs),
                commit: env!("RUNNER_COMMIT").to_string(),
                jobs,
                cores: crate::machine::cores(),
                wall_seconds,
                computed,
            };
            let path = out.join(FILE);
            std::fs::write(&path, format!("{:#}\n", serde_json::json!(run)))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        let page = index::write(&out, &names(all))?;
        println!("results page: {}", page.display());
    }
    println!("--all: {}", times(wall_seconds, computed, jobs));
    if !failed.is_empty() {
        bail!(
            "{} of {} experiments failed: {}",
            failed.len(),
            all.len(),
            failed.join(", ")
        );
    }
    Ok(())
}

/// The command line of a run of --all.
fn command(out: &Path, scope: &Scope, jobs: usize) -> String {
    format!(
        "runner experiment --all{} --jobs {jobs} --out {}",
        if scope.quick { " --quick" } else { "" },
        out.display()
    )
}
