//! [`History`]: the hashes of the positions before the current one, for threefold repetition,
//! in a fixed ring without heap allocation.
//!
//! A repetition can only reach back to the last irreversible move (capture or pawn move), that
//! is `halfmove_clock` plies, and the game is drawn by the 50-move rule once the clock reaches
//! 100. So the last [`History::CAPACITY`] = 128 hashes always suffice: make pushes one hash
//! (one store), unmake pops it (a decrement), and nothing is ever erased. The price is that the
//! position is 1 KiB larger, which rules out copy-make of the whole position (see the module
//! docs of [`super`]).

/// Hashes of earlier positions of the game, most recent last.
#[derive(Clone)]
pub(crate) struct History {
    hashes: [u64; History::CAPACITY],
    /// How many hashes were pushed in all (the ring index is `len % CAPACITY`).
    len: usize,
}

impl History {
    /// Positions remembered; more than the 100 plies the 50-move rule allows.
    pub(crate) const CAPACITY: usize = 128;

    pub(crate) const fn new() -> History {
        History {
            hashes: [0; History::CAPACITY],
            len: 0,
        }
    }

    /// Records the hash of the position a move is being made from.
    #[inline]
    pub(crate) fn push(&mut self, hash: u64) {
        self.hashes[self.len % History::CAPACITY] = hash;
        self.len += 1;
    }

    /// Forgets the most recent hash (on unmake).
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// How many remembered hashes can be read back.
    pub(crate) fn available(&self) -> usize {
        self.len.min(History::CAPACITY)
    }

    /// The hash `plies_back` plies before the current position (1 = the previous position);
    /// `plies_back` must be in `1..=available()`.
    #[inline]
    pub(crate) fn back(&self, plies_back: usize) -> u64 {
        self.hashes[(self.len - plies_back) % History::CAPACITY]
    }

    /// Whether the current position (`hash`, with `halfmove` plies since the last irreversible
    /// move) occurred at least twice before, i.e. it is the third occurrence. Only positions
    /// with the same side to move (even distances, at least 4) can repeat.
    #[inline]
    pub(crate) fn is_threefold(&self, hash: u64, halfmove: u16) -> bool {
        let limit = usize::from(halfmove).min(self.available());
        let mut seen = 0;
        let mut back = 4;
        while back <= limit {
            if self.back(back) == hash {
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// The last `n` hashes (at most [`History::available`]), oldest first.
    pub(crate) fn recent(&self, n: usize) -> Vec<u64> {
        let n = n.min(self.available());
        (1..=n).rev().map(|b| self.back(b)).collect()
    }
}
