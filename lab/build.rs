//! Build-time facts of the `lab` library (and so of the `runner` binary):
//! - the built-in test sets: every `.txt` and `.epd` file of `testsets/search` becomes one
//!   `(name, text)` entry of `$OUT_DIR/testsets.rs` (read by `src/testset.rs`), so the binary
//!   finds them by name wherever it runs;
//! - the published numbers: every `.tsv` file of `testsets/published` becomes one entry of
//!   `$OUT_DIR/published.rs` the same way (read by `src/experiment/published.rs`);
//! - the APHID configuration files of `testsets/aphid` (`.toml`, `.config`), in
//!   `$OUT_DIR/aphid_configs.rs`, so that `--aphid-config NAME` finds them by name;
//! - the experiments: every `.toml` file of `experiments` in `$OUT_DIR/experiments.rs`, and of
//!   `experiments/shared` in `$OUT_DIR/experiments_shared.rs` (read by
//!   `src/experiment/catalog.rs`);
//! - the compiler that builds it (`rustc --version`, as `RUNNER_RUSTC_VERSION`) and the source
//!   commit it is built from (`RUNNER_COMMIT`, `+changes` when tracked files other than the
//!   generated `docs/results` differ from it), for the reports' environment block; a new
//!   commit builds again (`build/git_watch.rs` chooses the git files to watch).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "build/git_watch.rs"]
mod git_watch;

fn main() {
    embed("../testsets/search", &["txt", "epd"], "testsets.rs");
    embed("../testsets/published", &["tsv"], "published.rs");
    embed("../testsets/aphid", &["toml", "config"], "aphid_configs.rs");
    embed("experiments", &["toml"], "experiments.rs");
    embed("experiments/shared", &["toml"], "experiments_shared.rs");
    record_rustc();
    record_commit();
    println!("cargo:rerun-if-changed=build.rs");
}

/// Writes `$OUT_DIR/<target>`: a `&[(name, text)]` of every file of `dir` (relative to this
/// crate) whose extension is one of `extensions`, sorted by file name.
fn embed(dir: &str, extensions: &[&str], target: &str) {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = manifest.join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x))
        })
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for path in &files {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("file names are UTF-8");
        let full = path.canonicalize().expect("the file exists");
        println!("cargo:rerun-if-changed={}", full.display());
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            full.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("]\n");
    let target = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join(target);
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

fn record_rustc() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(
            || "unknown".to_string(),
            |o| String::from_utf8_lossy(&o.stdout).trim().to_string(),
        );
    println!("cargo:rustc-env=RUNNER_RUSTC_VERSION={version}");
}

/// Runs `git` in the workspace; `None` without git or outside a repository.
fn git(args: &[&str]) -> Option<String> {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    let out = Command::new("git")
        .arg("-C")
        .arg(&manifest)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn record_commit() {
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        // The generated results pages are left out: experiments rewrite them while they
        // run, and the binary does not read them.
        Some(head) => match git(&[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ":/",
            ":(top,exclude)docs/results",
        ]) {
            Some(s) if !s.is_empty() => format!("{head}+changes"),
            _ => head,
        },
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=RUNNER_COMMIT={commit}");
    // A new commit (HEAD or the branch it names moving) builds again.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        for path in git_watch::watched(Path::new(&dir)) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
}
