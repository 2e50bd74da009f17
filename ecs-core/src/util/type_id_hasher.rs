//! A hasher for maps keyed by `TypeId`.

use core::hash::Hasher;

/// Hashes a `TypeId` by taking the 64 bits it writes: they are already a hash.
#[derive(Default)]
pub(crate) struct TypeIdHasher(u64);

impl Hasher for TypeIdHasher {
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn write(&mut self, bytes: &[u8]) {
        // `TypeId` writes one u64 today; fold anything else so the map stays correct.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}
