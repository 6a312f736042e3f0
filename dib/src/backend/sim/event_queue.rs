//! The simulator's event queue: events ordered by `(time, sequence number)`, so that events at
//! the same virtual time always run in the order they were scheduled.

use std::collections::BTreeMap;

use crate::context::Nanos;

/// A priority queue of events keyed by `(time, sequence)`.
#[derive(Debug)]
pub(crate) struct EventQueue<E> {
    events: BTreeMap<(Nanos, u64), E>,
    next_seq: u64,
}

impl<E> EventQueue<E> {
    pub(crate) fn new() -> Self {
        EventQueue {
            events: BTreeMap::new(),
            next_seq: 0,
        }
    }

    /// Schedules `event` at `time`.
    pub(crate) fn push(&mut self, time: Nanos, event: E) {
        self.events.insert((time, self.next_seq), event);
        self.next_seq += 1;
    }

    /// The time of the earliest event, if any.
    pub(crate) fn next_time(&self) -> Option<Nanos> {
        self.events.first_key_value().map(|((t, _), _)| *t)
    }

    /// The earliest event with its time and sequence number.
    pub(crate) fn pop(&mut self) -> Option<(Nanos, u64, E)> {
        self.events.pop_first().map(|((t, s), e)| (t, s, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_break_by_scheduling_order() {
        let mut q = EventQueue::new();
        q.push(5, 'a');
        q.push(3, 'b');
        q.push(5, 'c');
        let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, _, e)| e)).collect();
        assert_eq!(order, vec!['b', 'a', 'c']);
    }
}
