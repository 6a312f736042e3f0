//! A DIB-style distributed backtracking runtime (Finkel & Manber): processors with work tables,
//! work-request stealing, subdivision on request, information spreading and fault tolerance,
//! on real threads and on a deterministic simulator.
//!
//! This crate knows nothing about games. It is being built issue by issue; see the workspace
//! README for what exists today.
#![forbid(unsafe_code)]
