//! Who does what in a comparison: the whole of it in this process (sim, threads), or one rank
//! of an `mpirun` launch (`--backend mpi`), where every rank walks the same cells in the same
//! order because each MPI cell is one search over all ranks. Rank 0 alone keeps the cells on
//! disk, runs the one-processor cells, shows the progress bar and prints; every decision it
//! takes alone (which cells are done, a baseline's record, whether a step failed) reaches the
//! other ranks through [`Ranks::on_root`], so they stay in step. See `README.md` ("Over MPI").

use anyhow::{Result, anyhow};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::mpi::Session;

/// This process's part in a comparison.
pub enum Ranks<'s> {
    /// Not on MPI: this process runs, stores and prints everything.
    Alone,
    /// One rank of an MPI launch.
    Mpi {
        /// The MPI session (alive for the whole comparison).
        session: &'s Session,
        /// This rank.
        rank: usize,
    },
}

impl<'s> Ranks<'s> {
    /// `Alone` without a session; this rank of `session` with one.
    #[must_use]
    pub fn new(session: Option<&'s Session>) -> Ranks<'s> {
        match session {
            None => Ranks::Alone,
            Some(session) => Ranks::Mpi {
                session,
                rank: crate::mpi::rank(session),
            },
        }
    }

    /// Whether this process keeps the cells, writes the files and prints (rank 0 or alone).
    #[must_use]
    pub fn is_root(&self) -> bool {
        match self {
            Ranks::Alone => true,
            Ranks::Mpi { rank, .. } => *rank == 0,
        }
    }

    /// Runs `step` on rank 0 only and gives its outcome to every rank, an error included, so
    /// that all ranks stop together (rank 0 keeps its own error, with its kind and exit status;
    /// the others get its text). Alone, it just runs `step`. Every rank must call it at the same
    /// point of the walk.
    ///
    /// # Errors
    /// `step`'s error, on every rank; a value that cannot cross between ranks.
    pub fn on_root<T: Serialize + DeserializeOwned>(
        &self,
        step: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        let Ranks::Mpi { session, rank, .. } = self else {
            return step();
        };
        if *rank != 0 {
            return crate::mpi::share::<Result<T, String>>(session, None)?
                .map_err(|text| anyhow!("rank 0 stopped the comparison: {text}"));
        }
        let (wire, kept) = match step() {
            Ok(v) => (Ok(v), None),
            Err(e) => (Err(format!("{e:#}")), Some(e)),
        };
        match (crate::mpi::share(session, Some(wire))?, kept) {
            (Ok(v), _) => Ok(v),
            (Err(_), Some(e)) => Err(e),
            (Err(text), None) => Err(anyhow!(text)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alone_runs_every_step_and_keeps_its_errors() {
        let r = Ranks::Alone;
        assert!(r.is_root());
        assert_eq!(r.on_root(|| Ok(3)).unwrap(), 3);
        let e = r
            .on_root::<u8>(|| Err(crate::input_error::input("--x", "bad")))
            .unwrap_err();
        assert!(e.downcast_ref::<crate::input_error::InputError>().is_some());
    }
}
