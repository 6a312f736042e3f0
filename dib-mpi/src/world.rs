//! The rsmpi [`Wire`]: MPI's world communicator, and the opener that initializes MPI.

use ::mpi::Threading;
use ::mpi::environment::Universe;
use ::mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use ::mpi::topology::{Communicator, SimpleCommunicator};
use ::mpi::traits::CommunicatorCollectives;
use dib::backend::mpi::{self, MpiError, Received, SEND_BUFFER_BYTES, Wire};

/// Makes rsmpi the MPI library of [`dib::backend::mpi::Session`]: call once at the program's
/// start, before any session.
pub fn register() {
    mpi::register(open);
}

/// MPI's world, initialized; dropping it finalizes MPI.
struct World {
    /// Declared first: dropped before the universe that finalizes MPI.
    world: SimpleCommunicator,
    _universe: Universe,
}

/// Initializes MPI with `MPI_THREAD_FUNNELED` and attaches the send buffer.
fn open() -> Result<Box<dyn Wire>, MpiError> {
    let Some((mut universe, _threading)) = ::mpi::initialize_with_threading(Threading::Funneled)
    else {
        return Err(MpiError::AlreadyInitialized);
    };
    universe.set_buffer_size(SEND_BUFFER_BYTES);
    let world = universe.world();
    Ok(Box::new(World {
        world,
        _universe: universe,
    }))
}

/// A rank as MPI numbers it.
fn rank_of(r: usize) -> i32 {
    i32::try_from(r).unwrap_or(i32::MAX)
}

/// A rank as the backend numbers it.
fn index_of(r: i32) -> usize {
    usize::try_from(r).unwrap_or(usize::MAX)
}

impl Wire for World {
    fn rank(&self) -> usize {
        usize::try_from(self.world.rank()).unwrap_or(0)
    }

    fn size(&self) -> usize {
        usize::try_from(self.world.size()).unwrap_or(1)
    }

    fn library(&self) -> String {
        ::mpi::environment::library_version()
            // Open MPI's string ends in a NUL byte: keep it out of printed text and JSON.
            .map(|s| {
                s.lines()
                    .next()
                    .unwrap_or_default()
                    .trim_matches(|c: char| c == '\0' || c.is_whitespace())
                    .to_string()
            })
            .unwrap_or_else(|_| "unknown MPI library".to_string())
    }

    fn buffered_send(&self, to: usize, tag: i32, bytes: &[u8]) {
        self.world
            .process_at_rank(rank_of(to))
            .buffered_send_with_tag(bytes, tag);
    }

    fn send(&self, to: usize, tag: i32, bytes: &[u8]) {
        self.world
            .process_at_rank(rank_of(to))
            .send_with_tag(bytes, tag);
    }

    fn pending(&self) -> bool {
        self.world.any_process().immediate_probe().is_some()
    }

    fn pending_from(&self, from: usize, tag: i32) -> bool {
        self.world
            .process_at_rank(rank_of(from))
            .immediate_probe_with_tag(tag)
            .is_some()
    }

    fn try_receive(&self) -> Option<Received> {
        let (message, status) = self.world.any_process().immediate_matched_probe()?;
        let (bytes, status) = (message, status).matched_receive_vec::<u8>();
        Some(Received {
            from: index_of(status.source_rank()),
            tag: status.tag(),
            bytes,
        })
    }

    fn receive(&self) -> Received {
        let (bytes, status) = self.world.any_process().receive_vec::<u8>();
        Received {
            from: index_of(status.source_rank()),
            tag: status.tag(),
            bytes,
        }
    }

    fn receive_from(&self, from: usize, tag: i32) -> Vec<u8> {
        self.world
            .process_at_rank(rank_of(from))
            .receive_vec_with_tag::<u8>(tag)
            .0
    }

    fn barrier(&self) {
        self.world.barrier();
    }

    fn all_to_all(&self, sent: &[u64]) -> Vec<u64> {
        let mut incoming = vec![0u64; sent.len()];
        self.world.all_to_all_into(sent, &mut incoming[..]);
        incoming
    }
}
