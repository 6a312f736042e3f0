//! The git files `build.rs` watches (`build/git_watch.rs`): every one exists, since cargo
//! rebuilds the runner on every command while a watched path is missing, and together they
//! change with every new commit.

#[path = "../../build/git_watch.rs"]
mod git_watch;

use std::path::{Path, PathBuf};

use git_watch::watched;

/// A fresh folder under the temp dir.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("runner-git-watch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
    std::fs::write(path, text).expect("the file is written");
}

const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567\n";

#[test]
fn a_checkout_without_packed_refs_watches_head_and_its_branch_only() {
    let root = temp_dir("plain");
    let git = root.join(".git");
    write(&git.join("HEAD"), "ref: refs/heads/main\n");
    write(&git.join("refs/heads/main"), COMMIT);
    assert_eq!(
        watched(&git),
        [git.join("HEAD"), git.join("refs/heads/main")]
    );
    // With packed refs, they are watched too.
    write(
        &git.join("packed-refs"),
        &format!("{COMMIT} refs/heads/old\n"),
    );
    assert_eq!(
        watched(&git),
        [
            git.join("HEAD"),
            git.join("refs/heads/main"),
            git.join("packed-refs")
        ]
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_packed_branch_watches_the_folder_its_next_commit_writes_to() {
    let root = temp_dir("packed");
    let git = root.join(".git");
    write(&git.join("HEAD"), "ref: refs/heads/feature/x\n");
    std::fs::create_dir_all(git.join("refs/heads")).expect("refs/heads");
    write(
        &git.join("packed-refs"),
        &format!("{COMMIT} refs/heads/feature/x\n"),
    );
    assert_eq!(
        watched(&git),
        [
            git.join("HEAD"),
            git.join("refs/heads"),
            git.join("packed-refs")
        ]
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_detached_head_is_watched_alone_and_no_git_folder_watches_nothing() {
    let root = temp_dir("detached");
    let git = root.join(".git");
    write(&git.join("HEAD"), COMMIT);
    assert_eq!(watched(&git), [git.join("HEAD")]);
    assert!(watched(&root.join("missing")).is_empty());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_linked_worktree_watches_its_head_and_the_shared_branch() {
    let root = temp_dir("worktree");
    let common = root.join("main/.git");
    let linked = common.join("worktrees/wt");
    write(&linked.join("HEAD"), "ref: refs/heads/wt\n");
    write(&linked.join("commondir"), "../..\n");
    write(&common.join("HEAD"), "ref: refs/heads/main\n");
    write(&common.join("refs/heads/wt"), COMMIT);
    let common = common.canonicalize().expect("the common folder");
    let paths = watched(&linked);
    assert_eq!(paths, [linked.join("HEAD"), common.join("refs/heads/wt")]);
    assert!(paths.iter().all(|p| p.exists()), "{paths:?}");
    let _ = std::fs::remove_dir_all(&root);
}
