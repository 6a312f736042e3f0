//! The git files whose change means a new commit, for `build.rs` to watch: cargo rebuilds a
//! crate whenever a watched path is missing, so only paths that exist are named.
//!
//! - `HEAD` of the checkout's git folder: a detached commit, or the branch checked out;
//! - the loose ref `HEAD` names, in the common git folder (which linked worktrees share, named
//!   by their `commondir` file), or, while the branch is packed only, the nearest existing
//!   folder above where its loose file will be written (a commit writes it there);
//! - `packed-refs` of the common git folder, where one exists.

use std::path::{Path, PathBuf};

/// The paths to watch for a checkout whose git folder (where its `HEAD` is) is `git_dir`.
pub fn watched(git_dir: &Path) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let head = git_dir.join("HEAD");
    let Ok(text) = std::fs::read_to_string(&head) else {
        return paths;
    };
    paths.push(head);
    let common = common_dir(git_dir);
    if let Some(branch) = text.trim().strip_prefix("ref:") {
        let loose = common.join(branch.trim());
        if let Some(found) = loose
            .ancestors()
            .find(|p| p.exists())
            .filter(|p| p.starts_with(&common))
        {
            paths.push(found.to_path_buf());
        }
    }
    let packed = common.join("packed-refs");
    if packed.is_file() {
        paths.push(packed);
    }
    paths
}

/// The common git folder of `git_dir`: the folder its `commondir` file names (a linked
/// worktree), else `git_dir` itself.
fn common_dir(git_dir: &Path) -> PathBuf {
    std::fs::read_to_string(git_dir.join("commondir"))
        .ok()
        .and_then(|rel| git_dir.join(rel.trim()).canonicalize().ok())
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| git_dir.to_path_buf())
}
