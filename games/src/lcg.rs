//! [`Lcg`]: the small generator of the games' tests and of the Othello training tools. Its
//! sequences are part of what the tests check and of how the committed evaluation weights were
//! made, so it stays as it is; the runtime's generator (seeded per subsystem, for the
//! simulator and the parallel searches) is `dib::Rng`.

/// A linear congruential generator with Knuth's MMIX constants; each draw uses the state's top
/// 31 bits.
#[derive(Clone, Debug)]
pub struct Lcg(pub u64);

impl Lcg {
    /// The next 31 random bits.
    pub fn next_bits(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number in `0..n` (`n` at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_bits() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Lcg;

    #[test]
    fn the_sequence_is_knuths_mmix_generator_from_the_seed() {
        let mut a = Lcg(1);
        let first = 6_364_136_223_846_793_005u64.wrapping_add(1_442_695_040_888_963_407);
        assert_eq!(a.next_bits(), first >> 33);
        let mut b = Lcg(1);
        assert_eq!(b.below(10), (first >> 33) as usize % 10);
        assert!((0..1000).all(|_| a.below(7) < 7));
    }
}
