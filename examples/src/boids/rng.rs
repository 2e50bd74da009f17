//! A small seeded generator: the same seed lays out the same world on every
//! machine, without a global generator or a dependency.

/// SplitMix64: one `u64` of state, a full period, and good enough mixing
/// for scattering boids.
///
/// ```
/// use examples::boids::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let x = a.range(2.0, 3.0);
/// assert!((2.0..3.0).contains(&x));
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A float in `[0, 1)`, from the top 24 bits: exactly the values an
    /// `f32` can space evenly there.
    pub fn next_f32(&mut self) -> f32 {
        const SCALE: f32 = 1.0 / (1u32 << 24) as f32;
        (self.next_u64() >> 40) as f32 * SCALE
    }

    /// A float in `[low, high)`.
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        let x = low + (high - low) * self.next_f32();
        // Rounding can land on `high` itself when the range is wide.
        if x < high { x } else { low }
    }
}
