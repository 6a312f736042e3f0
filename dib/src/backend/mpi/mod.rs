//! The MPI backend: one processor per MPI rank, so the same processors and DIB applications
//! that run on threads and on the simulator run across the machines of a cluster, launched with
//! `mpirun` or `srun`.
//!
//! - [`Session`] initializes MPI for the process (once; it finalizes MPI when dropped) and checks
//!   that the process was started by a launcher whose world size MPI agrees with. MPI itself
//!   is reached through a [`Wire`]: the `dib-mpi` crate implements it with rsmpi and
//!   [`register`]s it, so this crate (and every crate built on it) compiles without an MPI
//!   library, and linking MPI rebuilds only that crate and the program.
//! - [`run`] runs this rank's [`Processor`](crate::Processor) until some rank calls
//!   [`Context::finish`](crate::Context::finish), then drains every message still in flight so
//!   that the next run in the same process starts clean. Every rank must call it (SPMD).
//! - [`broadcast_from_root`] and [`gather_at_root`] move serde values between ranks, as
//!   [`crate::run_processors`] (and through it [`crate::solve`]) does with
//!   [`crate::Backend::Mpi`]: each rank summarizes its processor, and every rank gets every
//!   rank's summary and counters.
//!
//! Messages are serialized with postcard (a compact, non-self-describing serde format) and sent
//! with `MPI_Bsend` into a buffer attached by the session, so a send never waits for its
//! receiver and two ranks sending to each other cannot deadlock. Polling uses `MPI_Improbe`;
//! an idle rank probes with a short back-off sleep (MPI has no probe with a timeout). All MPI
//! calls happen on the thread that created the [`Session`] (`MPI_THREAD_FUNNELED`): the
//! communicator is not `Send` under Open MPI, and the processor loop runs right there.
//!
//! See the "MPI" section of `dib/README.md` for building against a cluster's MPI, launching, and
//! what happens when a rank dies.

mod collect;
pub(crate) mod gathered;
mod transport;
mod wire;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::OnceLock;

pub use collect::{broadcast_from_root, gather_at_root};
pub use transport::{RankOutcome, run};
pub use wire::{Opener, Received, Wire};

/// Bytes of the buffer attached for `MPI_Bsend`: the messages a rank may have sent and not yet
/// seen delivered. DIB messages are tens to hundreds of bytes; 64 MiB leaves room for bursts.
pub const SEND_BUFFER_BYTES: usize = 64 << 20;

/// Environment variables through which launchers announce the world size: Open MPI's
/// `mpirun`, and the PMI interface of MPICH's Hydra, Intel MPI and Slurm's `srun --mpi=pmi2`.
const SIZE_VARIABLES: [&str; 2] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"];

/// Variables that only say a launcher started the process (PMIx: Open MPI 5, `srun --mpi=pmix`).
const LAUNCH_VARIABLES: [&str; 2] = ["PMIX_RANK", "PMI_RANK"];

/// Why the MPI backend cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MpiError {
    /// No MPI library is linked into this program: nothing called [`register`].
    #[error(
        "mpi needs a runner built with `cargo build --release -p runner --features mpi` (and an MPI library): this program has no MPI library linked"
    )]
    NotBuilt,
    /// The process was not started by an MPI launcher.
    #[error(
        "the MPI backend needs an MPI launcher: start the program with `mpirun -n N ...` or `srun -n N ...` (no launcher variable such as OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK is set)"
    )]
    NoLauncher,
    /// MPI was already initialized in this process (a second [`Session`]).
    #[error("MPI is already initialized in this process: create one MPI session and keep it")]
    AlreadyInitialized,
    /// A run was asked for without a live [`Session`].
    #[error("MPI is not initialized (or already finalized): create a dib MPI session first")]
    NotInitialized,
    /// The launcher started `launcher` processes but MPI sees a world of `world`: the program
    /// was linked against another MPI library than the launcher's.
    #[error(
        "the launcher started {launcher} processes but MPI sees a world of {world}: the program's MPI library ({library}) is not the one of this mpirun; use the mpirun of that library, or rebuild against yours (MPICC=<your mpicc> after cargo clean -p mpi-sys)"
    )]
    WorldMismatch {
        /// Processes the launcher announced.
        launcher: usize,
        /// Ranks in MPI's world.
        world: usize,
        /// The linked MPI library's version line.
        library: String,
    },
    /// A message could not be encoded or decoded (ranks running different builds, or a type
    /// that postcard cannot encode).
    #[error("MPI rank {rank}: {detail}")]
    Codec {
        /// The rank where it happened.
        rank: usize,
        /// What failed.
        detail: String,
    },
    /// Another rank failed and stopped the run.
    #[error("MPI rank {rank} failed and stopped the run: {detail}")]
    PeerFailed {
        /// The rank that failed.
        rank: usize,
        /// Its error.
        detail: String,
    },
}

/// The MPI library's opener, once a program registers one.
static OPENER: OnceLock<Opener> = OnceLock::new();

thread_local! {
    /// The wire of this thread's live [`Session`].
    static WIRE: RefCell<Option<Rc<dyn Wire>>> = const { RefCell::new(None) };
}

/// Makes `opener` the way [`Session::init`] initializes MPI: a program that links an MPI
/// library calls this once at its start (the runner built with `--features mpi` does, through
/// the `dib-mpi` crate). A second call keeps the first opener.
pub fn register(opener: Opener) {
    let _ = OPENER.set(opener);
}

/// MPI initialized for this process, with the send buffer attached. Dropping it finalizes MPI
/// (after which MPI cannot be used again in this process). Not `Send`: keep it on the thread
/// that made it, and make every MPI run from that thread.
pub struct Session {
    /// Makes the type `!Send` and `!Sync`.
    _not_send: std::marker::PhantomData<*const ()>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Session(rank {} of {})", self.rank(), self.size())
    }
}

impl Session {
    /// Initializes MPI (`MPI_THREAD_FUNNELED`) through the registered [`Opener`] and attaches
    /// the send buffer.
    ///
    /// # Errors
    /// [`MpiError::NotBuilt`] when no MPI library is registered, [`MpiError::NoLauncher`] when
    /// no MPI launcher started this process, [`MpiError::AlreadyInitialized`] on a second
    /// session, and [`MpiError::WorldMismatch`] when the launcher's process count differs from
    /// MPI's world size (mismatched MPI libraries).
    pub fn init() -> Result<Session, MpiError> {
        let opener = OPENER.get().ok_or(MpiError::NotBuilt)?;
        let announced = launcher_size();
        if announced.is_none()
            && !LAUNCH_VARIABLES
                .iter()
                .any(|v| std::env::var_os(v).is_some())
        {
            return Err(MpiError::NoLauncher);
        }
        if WIRE.with(|w| w.borrow().is_some()) {
            return Err(MpiError::AlreadyInitialized);
        }
        let wire: Rc<dyn Wire> = Rc::from(opener()?);
        if let Some(launcher) = announced {
            if launcher != wire.size() {
                return Err(MpiError::WorldMismatch {
                    launcher,
                    world: wire.size(),
                    library: wire.library(),
                });
            }
        }
        WIRE.with(|w| *w.borrow_mut() = Some(wire));
        Ok(Session {
            _not_send: std::marker::PhantomData,
        })
    }

    /// This process's rank, `0..size()`.
    #[must_use]
    pub fn rank(&self) -> usize {
        world().map_or(0, |w| w.rank())
    }

    /// The number of ranks.
    #[must_use]
    pub fn size(&self) -> usize {
        world().map_or(1, |w| w.size())
    }

    /// Whether this is rank 0 (the one that should print).
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.rank() == 0
    }

    /// The linked MPI library's version line.
    #[must_use]
    pub fn library(&self) -> String {
        world().map_or_else(|_| "no MPI library".to_string(), |w| w.library())
    }
}

impl Drop for Session {
    /// Drops the wire, which finalizes MPI.
    fn drop(&mut self) {
        WIRE.with(|w| w.borrow_mut().take());
    }
}

/// The wire of this thread's live session; [`MpiError::NotBuilt`] when no MPI library is
/// registered, else [`MpiError::NotInitialized`] without a session.
fn world() -> Result<Rc<dyn Wire>, MpiError> {
    WIRE.with(|w| w.borrow().clone())
        .ok_or(if OPENER.get().is_some() {
            MpiError::NotInitialized
        } else {
            MpiError::NotBuilt
        })
}

/// This process's rank and the world size, if MPI is initialized.
///
/// # Errors
/// [`MpiError::NotInitialized`] without a live [`Session`].
pub fn rank_and_size() -> Result<(usize, usize), MpiError> {
    let w = world()?;
    Ok((w.rank(), w.size()))
}

/// The process count the launcher announced, if it did.
fn launcher_size() -> Option<usize> {
    SIZE_VARIABLES
        .iter()
        .find_map(|v| std::env::var(v).ok()?.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_needs_a_registered_library_and_a_launcher() {
        let launched = SIZE_VARIABLES
            .iter()
            .chain(&LAUNCH_VARIABLES)
            .any(|v| std::env::var_os(v).is_some());
        let err = Session::init().expect_err("no MPI library registered here");
        assert_eq!(err, MpiError::NotBuilt);
        assert!(err.to_string().contains("--features mpi"), "{err}");
        if !launched {
            register(|| panic!("a session without a launcher opens nothing"));
            let err = Session::init().expect_err("no launcher");
            assert_eq!(err, MpiError::NoLauncher);
            assert!(err.to_string().contains("mpirun -n N"));
        }
    }
}
