//! `--backend mpi`: the MPI session of a run under `mpirun`/`srun`. MPI itself is linked by the
//! program (the runner's `mpi` feature registers `dib-mpi`); without it, starting a session is
//! an input error naming the feature.

use anyhow::Result;

/// MPI, initialized for this process (finalized when dropped).
pub type Session = dib::backend::mpi::Session;

/// Initializes MPI for `--backend mpi` (every rank of the launch runs this).
///
/// # Errors
/// An input error when the program has no MPI library linked or no launcher started the
/// process; MPI's own error when the MPI libraries do not match.
pub fn start() -> Result<Session> {
    use anyhow::Context as _;
    use dib::backend::mpi::MpiError;
    match Session::init() {
        Err(e @ MpiError::NotBuilt) => Err(crate::input_error::input("--backend", e)),
        Err(e @ MpiError::NoLauncher) => Err(crate::input_error::input("--backend mpi", e)),
        other => other.context("starting MPI"),
    }
}

/// The number of ranks of the session.
#[must_use]
pub fn world_size(session: &Session) -> usize {
    session.size()
}

/// This process's rank in the session (0 prints and writes).
#[must_use]
pub fn rank(session: &Session) -> usize {
    session.rank()
}

/// Rank 0's `value` on every rank (rank 0 passes `Some`, the others `None`). Every rank of the
/// session must call it, in the same order.
///
/// # Errors
/// A value that cannot be encoded or decoded (ranks running different builds).
pub fn share<T: serde::Serialize + serde::de::DeserializeOwned>(
    _session: &Session,
    value: Option<T>,
) -> Result<T> {
    use anyhow::Context as _;
    dib::backend::mpi::broadcast_from_root(value).context("sharing rank 0's value")
}
