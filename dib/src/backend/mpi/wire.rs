//! The MPI calls the backend makes, as a trait: the `dib-mpi` crate implements it with rsmpi,
//! so the backend's logic (the processor loop, fragments, the stop broadcast, the drain, the
//! collectives) compiles and is linted in every build, and only that crate needs an MPI
//! library.
//!
//! Every call happens on the thread that opened the wire (`MPI_THREAD_FUNNELED`); the trait is
//! not `Send`.

use super::MpiError;

/// One message taken off the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    /// The sending rank.
    pub from: usize,
    /// Its tag.
    pub tag: i32,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Opens MPI for this process (`MPI_Init_thread` with `MPI_THREAD_FUNNELED`, the send buffer
/// of [`super::SEND_BUFFER_BYTES`] attached); [`MpiError::AlreadyInitialized`] when MPI was
/// initialized before. Dropping the wire finalizes MPI.
pub type Opener = fn() -> Result<Box<dyn Wire>, MpiError>;

/// The world communicator of an initialized MPI.
pub trait Wire {
    /// This process's rank, `0..size()`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// The linked MPI library's version line.
    fn library(&self) -> String;
    /// Sends `bytes` with `tag` to rank `to` from the attached buffer (`MPI_Bsend`): never
    /// waits for the receiver.
    fn buffered_send(&self, to: usize, tag: i32, bytes: &[u8]);
    /// Sends `bytes` with `tag` to rank `to` (`MPI_Send`).
    fn send(&self, to: usize, tag: i32, bytes: &[u8]);
    /// Whether a message from any rank is pending (`MPI_Iprobe`).
    fn pending(&self) -> bool;
    /// Whether a message with `tag` from rank `from` is pending.
    fn pending_from(&self, from: usize, tag: i32) -> bool;
    /// A pending message from any rank, taken (`MPI_Improbe` and `MPI_Mrecv`), or `None`.
    fn try_receive(&self) -> Option<Received>;
    /// The next message from any rank, waiting for it.
    fn receive(&self) -> Received;
    /// The next message with `tag` from rank `from`, waiting for it.
    fn receive_from(&self, from: usize, tag: i32) -> Vec<u8>;
    /// Waits until every rank has called it.
    fn barrier(&self);
    /// All to all, one number per rank: `sent[r]` goes to rank `r`; the result's `r` is what
    /// rank `r` sent here.
    fn all_to_all(&self, sent: &[u64]) -> Vec<u64>;
}
