//! `runner experiment --all`: every experiment of the catalog into its own subfolder of one
//! output folder (checked writable before anything runs), then the results page
//! (`index.rs`). An experiment this build cannot run (its algorithms not registered) is
//! skipped with a note; one that fails is named at the end (exit status 1) after the others
//! have run.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::catalog::{self, Experiment, Kind};
use super::{Scope, flags_for, index, missing_algos, names, run_one};
use crate::input_error::input;

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

/// Whether an experiment runs in this build (a comparison needs a registered algorithm).
fn runnable(exp: &Experiment) -> bool {
    match &exp.kind {
        Kind::Compare { args, .. } | Kind::Sweep { args, .. } => {
            flags_for(args, &[], &[], false).is_some()
        }
        Kind::Model | Kind::CommonDepth => true,
    }
}

/// `runner experiment --all`: every experiment into `out/<name>`, then the results page.
pub fn run(out: Option<&Path>, quick: bool) -> Result<()> {
    let out = out.map_or_else(|| PathBuf::from("target/experiments"), Path::to_path_buf);
    check_writable(&out)?;
    let mut failed = Vec::new();
    for exp in catalog::ALL {
        if !runnable(exp) {
            eprintln!(
                "note: {} skipped: it needs {}, not registered in this build",
                exp.name,
                match &exp.kind {
                    Kind::Compare { args, .. } | Kind::Sweep { args, .. } => {
                        missing_algos(args).join(", ")
                    }
                    Kind::Model | Kind::CommonDepth => String::new(),
                }
            );
            continue;
        }
        if let Err(e) = run_one(exp, &out.join(exp.name), &Scope::whole(quick)) {
            eprintln!("error: {}: {e:#}", exp.name);
            failed.push(exp.name);
        }
    }
    let page = index::write(&out, &names())?;
    println!("results page: {}", page.display());
    if !failed.is_empty() {
        bail!(
            "{} of {} experiments failed: {}",
            failed.len(),
            catalog::ALL.len(),
            failed.join(", ")
        );
    }
    Ok(())
}
