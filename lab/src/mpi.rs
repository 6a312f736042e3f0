//! `--backend mpi` (feature `mpi`): the MPI session of a run under `mpirun`/`srun`.

use anyhow::Result;

/// MPI, initialized for this process (finalized when dropped).
#[cfg(feature = "mpi")]
pub type Session = dib::backend::mpi::Session;

/// A stand-in in builds without MPI (never created).
#[cfg(not(feature = "mpi"))]
#[derive(Debug)]
pub enum Session {}

/// Initializes MPI for `--backend mpi` (every rank of the launch runs this).
///
/// # Errors
/// An input error when the runner was built without the `mpi` feature; MPI's own error when
/// no launcher started the process or the MPI libraries do not match.
#[cfg(feature = "mpi")]
pub fn start() -> Result<Session> {
    use anyhow::Context as _;
    use dib::backend::mpi::{MpiError, Session};
    match Session::init() {
        Err(e @ MpiError::NoLauncher) => Err(crate::input_error::input("--backend mpi", e)),
        other => other.context("starting MPI"),
    }
}

/// Initializes MPI for `--backend mpi`: impossible in this build.
///
/// # Errors
/// Always: an input error naming the feature to build with.
#[cfg(not(feature = "mpi"))]
pub fn start() -> Result<Session> {
    Err(crate::input_error::input(
        "--backend",
        "mpi needs a runner built with `cargo build --release -p runner --features mpi` (and an MPI library)",
    ))
}

/// The number of ranks of the session.
#[must_use]
pub fn world_size(session: &Session) -> usize {
    #[cfg(feature = "mpi")]
    {
        session.size()
    }
    #[cfg(not(feature = "mpi"))]
    match *session {}
}

/// This process's rank in the session (0 prints and writes).
#[must_use]
pub fn rank(session: &Session) -> usize {
    #[cfg(feature = "mpi")]
    {
        session.rank()
    }
    #[cfg(not(feature = "mpi"))]
    match *session {}
}

/// Rank 0's `value` on every rank (rank 0 passes `Some`, the others `None`). Every rank of the
/// session must call it, in the same order.
///
/// # Errors
/// A value that cannot be encoded or decoded (ranks running different builds).
pub fn share<T: serde::Serialize + serde::de::DeserializeOwned>(
    session: &Session,
    value: Option<T>,
) -> Result<T> {
    #[cfg(feature = "mpi")]
    {
        let _ = session;
        use anyhow::Context as _;
        dib::backend::mpi::broadcast_from_root(value).context("sharing rank 0's value")
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = value;
        match *session {}
    }
}
