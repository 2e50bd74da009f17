//! The hasher behind rollback checksums: the same bits on every machine.

use core::hash::Hasher;

/// A 64-bit hasher whose result depends only on the values written, never on
/// the machine: every integer is fed as little-endian, `usize` and `isize`
/// as 64 bits, and floats by their bits ([`write_f32`](Self::write_f32),
/// [`write_f64`](Self::write_f64)). There is no random seed.
///
/// It detects desyncs, nothing more: it is not a cryptographic hash.
///
/// ```
/// use core::hash::{Hash, Hasher};
/// use ecs_core::persist::ChecksumHasher;
///
/// let mut a = ChecksumHasher::new();
/// a.write_f32(1.5);
/// 7_u32.hash(&mut a);
/// let mut b = ChecksumHasher::new();
/// b.write_u32(1.5_f32.to_bits());
/// b.write_u32(7);
/// assert_eq!(a.finish(), b.finish());
/// ```
#[derive(Clone, Debug)]
pub struct ChecksumHasher {
    state: u64,
}

/// The golden ratio's 64-bit constant: an odd multiplier whose bits are spread.
const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

impl Default for ChecksumHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl ChecksumHasher {
    /// A hasher that has seen nothing yet.
    pub fn new() -> Self {
        Self {
            state: 0x243F_6A88_85A3_08D3,
        }
    }

    /// Feeds an `f32` by its bits, so `-0.0` and `0.0` differ and every NaN
    /// is its own payload: equal bits, equal checksum.
    pub fn write_f32(&mut self, value: f32) {
        self.write_u32(value.to_bits());
    }

    /// Feeds an `f64` by its bits.
    pub fn write_f64(&mut self, value: f64) {
        self.write_u64(value.to_bits());
    }

    #[inline]
    fn mix(&mut self, word: u64) {
        self.state = (self.state ^ word).wrapping_mul(MULTIPLIER);
        self.state ^= self.state >> 29;
    }
}

impl Hasher for ChecksumHasher {
    /// The state run through a final avalanche (splitmix64's), so that
    /// nearby inputs give far-apart results.
    fn finish(&self) -> u64 {
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Bytes in 8-byte little-endian words, the last one padded with zeros,
    /// after their count.
    fn write(&mut self, bytes: &[u8]) {
        self.mix(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.mix(u64::from(value));
    }
    fn write_u16(&mut self, value: u16) {
        self.mix(u64::from(value));
    }
    fn write_u32(&mut self, value: u32) {
        self.mix(u64::from(value));
    }
    fn write_u64(&mut self, value: u64) {
        self.mix(value);
    }
    fn write_u128(&mut self, value: u128) {
        self.mix(value as u64);
        self.mix((value >> 64) as u64);
    }
    fn write_usize(&mut self, value: usize) {
        self.mix(value as u64);
    }
    fn write_i8(&mut self, value: i8) {
        self.write_u8(value as u8);
    }
    fn write_i16(&mut self, value: i16) {
        self.write_u16(value as u16);
    }
    fn write_i32(&mut self, value: i32) {
        self.write_u32(value as u32);
    }
    fn write_i64(&mut self, value: i64) {
        self.write_u64(value as u64);
    }
    fn write_i128(&mut self, value: i128) {
        self.write_u128(value as u128);
    }
    fn write_isize(&mut self, value: isize) {
        self.write_u64(value as i64 as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED: u64 = 0x0593_5733_6CD8_48D4;

    #[test]
    fn integers_hash_the_same_whatever_their_width_on_this_machine() {
        let mut a = ChecksumHasher::new();
        a.write_usize(7);
        a.write_isize(-1);
        let mut b = ChecksumHasher::new();
        b.write_u64(7);
        b.write_u64(u64::MAX);
        assert_eq!(a.finish(), b.finish());
    }

    #[test]
    fn floats_hash_by_bits() {
        let hash = |value: f32| {
            let mut hasher = ChecksumHasher::new();
            hasher.write_f32(value);
            hasher.finish()
        };
        assert_ne!(hash(0.0), hash(-0.0));
        assert_eq!(hash(f32::NAN), hash(f32::NAN));
        assert_ne!(hash(1.0), hash(1.0 + f32::EPSILON));
    }

    /// The value is pinned: peers on other machines (other endianness, other
    /// pointer width) must get these very bits, and a change to the mixing
    /// changes every checksum they compare, which must be deliberate.
    #[test]
    fn the_result_is_fixed_by_the_definition() {
        let mut hasher = ChecksumHasher::new();
        hasher.write(b"rollback");
        hasher.write_u32(42);
        hasher.write_f64(-1.5);
        assert_eq!(hasher.finish(), PINNED);
    }
}
