//! dib's MPI backend over rsmpi (the `mpi` crate, 0.8, without default features): the one
//! crate of the workspace that links an MPI library. It implements [`dib::backend::mpi::Wire`]
//! on MPI's world communicator, and `register` makes it the way
//! [`dib::backend::mpi::Session::init`] opens MPI. Everything else of the backend (the processor
//! loop, fragments, stop broadcast, drain and collectives) lives in dib and builds without MPI,
//! so linking MPI (the runner's `mpi` feature) rebuilds only this crate and the program.
//!
//! The MPI library is linked only with this crate's feature `mpi` (the runner's `mpi` feature
//! turns it on), so the workspace builds and tests on a machine without MPI. The
//! runner's MPI test (`runner/tests/it/mpi.rs`) exercises it end to end.

#[cfg(feature = "mpi")]
mod world;

#[cfg(feature = "mpi")]
pub use world::register;
