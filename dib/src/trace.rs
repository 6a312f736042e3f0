//! A running hash of the simulator's event trace (FNV-1a over 64-bit words), so that two runs
//! can be compared for bit-for-bit determinism without storing the trace.

/// FNV-1a 64-bit offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over `bytes`, used both for the trace and as the simulated link's checksum (a change
/// in any single byte always changes it: every step is a bijection of the state).
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

/// The hash of an event trace, fed one event at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceHash {
    state: u64,
    events: u64,
}

impl Default for TraceHash {
    fn default() -> Self {
        TraceHash {
            state: FNV_OFFSET,
            events: 0,
        }
    }
}

impl TraceHash {
    /// Adds one event made of `words`.
    pub fn record(&mut self, words: &[u64]) {
        for w in words {
            for b in w.to_le_bytes() {
                self.state ^= u64::from(b);
                self.state = self.state.wrapping_mul(FNV_PRIME);
            }
        }
        self.events += 1;
    }

    /// The hash so far.
    #[must_use]
    pub fn value(&self) -> u64 {
        self.state
    }

    /// Events recorded so far.
    #[must_use]
    pub fn events(&self) -> u64 {
        self.events
    }
}
