//! A hasher for maps keyed by a value that writes one `u64` of plain bits
//! (an entity id): fast, and spread over the whole word.

use core::hash::Hasher;

/// Hashes one `u64` by multiplying it by 2^64 / φ (Fibonacci hashing), so
/// that the low bits (an entity's index) reach the top bits a `HashMap`
/// groups by. Anything else written is folded in byte by byte, so the map
/// stays correct for any key.
#[derive(Default)]
pub(crate) struct BitsHasher(u64);

impl Hasher for BitsHasher {
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::BitsHasher;
    use core::hash::Hasher;

    #[test]
    fn neighbouring_keys_differ_in_their_top_bits() {
        let top = |n: u64| {
            let mut h = BitsHasher::default();
            h.write_u64(n);
            h.finish() >> 57
        };
        let tops: std::collections::HashSet<u64> = (0..64).map(top).collect();
        assert!(
            tops.len() > 32,
            "only {} of 128 top-7-bit groups used",
            tops.len()
        );
    }
}
