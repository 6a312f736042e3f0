//! Zobrist keys generated at compile time.
//!
//! Every game draws its keys from [`keys`], a `const fn` over the SplitMix64 generator
//! (Steele, Lea and Flood, 2014), so the tables are `static`s with no lazy initialisation and
//! the same on every machine (hashes can travel in messages between processes).

/// One step of SplitMix64: advances `state` and returns the next 64-bit output.
#[must_use]
pub const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `N` pseudo-random keys from `seed`. Use a different seed per game (and per table).
#[must_use]
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        out[i] = splitmix64(&mut state);
        i += 1;
    }
    out
}

/// A stateless 64-bit mix of one value (the SplitMix64 finaliser); used for seeded hashes such
/// as the leaf values of synthetic trees.
#[must_use]
pub const fn mix64(x: u64) -> u64 {
    let mut s = x;
    splitmix64(&mut s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_seed_dependent() {
        const A: [u64; 64] = keys(1);
        const B: [u64; 64] = keys(2);
        let mut sorted = A.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
        assert_ne!(A[0], B[0]);
        assert_ne!(mix64(1), mix64(2));
    }
}
