//! A fixed pseudo-random sequence, so every run of a bench touches the same entities.

/// xorshift64: tiny, fast, and the same on every machine.
pub struct XorShift(u64);

impl XorShift {
    /// A generator with a fixed seed.
    pub fn new() -> Self {
        Self(0x9e37_79b9_7f4a_7c15)
    }

    /// The next number in `0..bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

impl Default for XorShift {
    fn default() -> Self {
        Self::new()
    }
}
