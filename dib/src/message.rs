//! The messages of the DIB protocol (see `dib/README.md`).

use serde::{Deserialize, Serialize};

use crate::application::Application;

/// A task's number in its owner's work table (unique per processor, never reused).
pub type TaskId = u64;

/// A DIB protocol message. Task ids name entries of the *giver's* table; the receiver of a
/// problem keys it by `(giver, task)`.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub enum Message<A: Application> {
    /// "Give me work."
    Request,
    /// The answer to a request: `problem`, which is task `task` of the sender's table.
    Grant {
        /// The task in the giver's table.
        task: TaskId,
        /// The problem to solve.
        problem: A::Problem,
    },
    /// The answer to a request: no work to give.
    Refuse,
    /// The value of task `task` of the receiver's table.
    Result {
        /// The task in the receiver's (the giver's) table.
        task: TaskId,
        /// Its value.
        value: A::Value,
    },
    /// Information for the problem the sender gave as `task`, and everything below it.
    Update {
        /// The task in the sender's table.
        task: TaskId,
        /// The information.
        update: A::Update,
    },
    /// The problem the sender gave as `task` is no longer needed.
    Abort {
        /// The task in the sender's table.
        task: TaskId,
    },
}

impl<A: Application> Clone for Message<A> {
    fn clone(&self) -> Self {
        match self {
            Message::Request => Message::Request,
            Message::Grant { task, problem } => Message::Grant {
                task: *task,
                problem: problem.clone(),
            },
            Message::Refuse => Message::Refuse,
            Message::Result { task, value } => Message::Result {
                task: *task,
                value: value.clone(),
            },
            Message::Update { task, update } => Message::Update {
                task: *task,
                update: update.clone(),
            },
            Message::Abort { task } => Message::Abort { task: *task },
        }
    }
}

impl<A: Application> std::fmt::Debug for Message<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Message::Request => f.write_str("Request"),
            Message::Grant { task, problem } => write!(f, "Grant({task}, {problem:?})"),
            Message::Refuse => f.write_str("Refuse"),
            Message::Result { task, value } => write!(f, "Result({task}, {value:?})"),
            Message::Update { task, update } => write!(f, "Update({task}, {update:?})"),
            Message::Abort { task } => write!(f, "Abort({task})"),
        }
    }
}
