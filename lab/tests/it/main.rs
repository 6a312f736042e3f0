//! The lab crate's integration tests, one binary (`cargo test -p lab --test it`): each module is one
//! concern.

mod build_git_watch;
mod compare_flags;
mod compare_in_process;
mod search_flags;
