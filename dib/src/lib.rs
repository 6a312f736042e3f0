//! A DIB-style distributed backtracking runtime (Finkel & Manber, as extended by Rezaie &
//! Finkel for game-tree search): processors with tables of explicit work, work requests to
//! random peers, subdivision of the running search on request, combination of children's
//! values, information spreading and aborts, delayed evaluation, and fault tolerance by
//! redoing work whose result never came back.
//!
//! Two levels:
//!
//! - [`Processor`] + [`Context`]: the worker model. A processor runs in slices and talks to its
//!   peers only through its context (send, poll, now, a seeded RNG, node charging). Backends:
//!   [`backend::threads`] (one OS thread each) and [`backend::sim`] (a deterministic
//!   discrete-event simulator of 1 to hundreds of processors on one core, with a LogP-style
//!   cost model and injected faults).
//! - [`Application`] + [`Search`]: DIB itself ([`DibProcessor`]), driven by [`solve`].
//!
//! A third backend, `backend::mpi` (feature `mpi`), runs one processor per MPI rank across
//! machines; processors and applications do not change, since every message is
//! serde-serializable.
//!
//! This crate knows nothing about games. Its own examples ([`examples`]) are N-queens
//! counting and a synthetic random min/max tree. The protocol, the simulator's event order and
//! cost model, and the fault model are described in `dib/README.md`.
#![forbid(unsafe_code)]

pub mod accounting;
pub mod application;
pub mod backend;
pub mod context;
pub mod examples;
pub mod message;
pub mod processor;
pub mod request;
pub mod rng;
mod run;
pub mod toml_error;
pub mod trace;
mod work;
mod work_table;
mod worker;

pub use accounting::{BackendCounters, DibCounters, ProcAccounts};
pub use application::{Application, Effects, Piece, Search, Slot, Step};
pub use backend::sim::{
    CostModel, FaultPlan, GameCosts, Notice, PresetError, SETTABLE_KEYS, SimConfig, SimError,
    SimFigures, SlowLines, preset_list, preset_names,
};
pub use context::{Context, Envelope, Nanos, ProcId};
pub use message::{Message, TaskId};
pub use processor::{Activity, Factory, Processor};
pub use request::Answer;
pub use rng::{Ratio, Rng};
pub use run::{Backend, DibError, Report, run_processors, solve};
pub use toml_error::TomlError;
pub use work::Work;
pub use worker::{DibConfig, DibProcessor};
