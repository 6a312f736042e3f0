//! The answer to a work request, shaped like crossbeam's `Steal`: it must be looked at.

use crate::message::TaskId;

/// How a processor answers a peer's work request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub enum Answer {
    /// Task `0` of the table is handed over.
    Granted(TaskId),
    /// Nothing to give: the table has no unassigned work and the running search will not be
    /// subdivided (below the granularity threshold, or delayed).
    Refused,
}

impl Answer {
    /// This answer if granted, else the one `f` gives (try the next source of work).
    pub fn or_else(self, f: impl FnOnce() -> Answer) -> Answer {
        match self {
            Answer::Granted(_) => self,
            Answer::Refused => f(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn or_else_keeps_the_first_grant() {
        assert_eq!(
            Answer::Refused.or_else(|| Answer::Granted(3)),
            Answer::Granted(3)
        );
        assert_eq!(
            Answer::Granted(1).or_else(|| Answer::Granted(3)),
            Answer::Granted(1)
        );
        assert_eq!(Answer::Refused.or_else(|| Answer::Refused), Answer::Refused);
    }
}
