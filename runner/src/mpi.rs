//! The `runner mpi-bench`, `runner mpi-example` and (hidden, for the tests)
//! `runner mpi-agreement` subcommands (feature `mpi`).

#[cfg(feature = "mpi")]
mod agreement;
#[cfg(feature = "mpi")]
mod bench;
#[cfg(feature = "mpi")]
mod example;

#[cfg(feature = "mpi")]
pub use agreement::{AgreementArgs, run as run_agreement};
#[cfg(feature = "mpi")]
pub use bench::{BenchArgs, run as run_bench};
#[cfg(feature = "mpi")]
pub use example::{ExampleArgs, run as run_example};
