//! Chunks of up to 64 driver positions decided at once: a filter answers for
//! a chunk with one `u64` whose bit `i` says whether the chunk's `i`-th
//! position passes, and a walk then visits only the set bits.
//!
//! A change filter on the driving storage compares a whole chunk of its tick
//! column in one branch-free loop, so a `Changed<T>` walk costs a few
//! instructions per entity it skips, and a loop turn per entity it keeps.

use crate::entity::Entity;

/// The most positions one chunk holds: the bits of a `u64`.
pub(crate) const CHUNK_BITS: usize = u64::BITS as usize;

/// The mask of a chunk of `len` positions (`len` at most 64) that all pass.
#[inline(always)]
pub(crate) fn full(len: usize) -> u64 {
    debug_assert!(len <= CHUNK_BITS, "a chunk holds at most 64 positions");
    u64::MAX.checked_shr((CHUNK_BITS - len) as u32).unwrap_or(0)
}

/// The bits of the `len` positions from `start` of `driver` for which
/// `passes(entity, index)` holds, asked in order.
#[inline(always)]
pub(crate) fn bits_where(
    driver: &[Entity],
    start: usize,
    len: usize,
    mut passes: impl FnMut(Entity, usize) -> bool,
) -> u64 {
    debug_assert!(len <= CHUNK_BITS, "a chunk holds at most 64 positions");
    let mut bits = 0;
    for (bit, (index, &entity)) in driver[start..start + len]
        .iter()
        .enumerate()
        .map(|(offset, entity)| (start + offset, entity))
        .enumerate()
    {
        bits |= u64::from(passes(entity, index)) << bit;
    }
    bits
}

/// The bits among `candidates`, positions of the chunk from `start` of
/// `driver`, for which `passes(entity, index)` holds, asked in order and only
/// for the candidates.
#[inline(always)]
pub(crate) fn bits_among(
    driver: &[Entity],
    start: usize,
    candidates: u64,
    mut passes: impl FnMut(Entity, usize) -> bool,
) -> u64 {
    let mut bits = 0;
    let mut rest = candidates;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        rest &= rest - 1;
        let index = start + bit as usize;
        bits |= u64::from(passes(driver[index], index)) << bit;
    }
    bits
}

/// The bits of the ticks newer than `since`, bit `i` for `ticks[i]`.
///
/// No branch depends on a tick. A whole chunk is built as four independent
/// 16-bit lanes, each doubled and topped up from its last tick down, so
/// the comparisons do not wait on one another.
#[inline(always)]
pub(crate) fn newer_than(ticks: &[u64], since: u64) -> u64 {
    debug_assert!(ticks.len() <= CHUNK_BITS, "a chunk holds at most 64 ticks");
    if let Ok(whole) = <&[u64; CHUNK_BITS]>::try_from(ticks) {
        const LANE: usize = CHUNK_BITS / 4;
        let mut lanes = [0u64; 4];
        for bit in (0..LANE).rev() {
            for (lane, acc) in lanes.iter_mut().enumerate() {
                *acc = *acc * 2 + u64::from(whole[lane * LANE + bit] > since);
            }
        }
        return lanes[0] | lanes[1] << LANE | lanes[2] << (2 * LANE) | lanes[3] << (3 * LANE);
    }
    ticks
        .iter()
        .rev()
        .fold(0, |bits, &tick| bits * 2 + u64::from(tick > since))
}

/// The positions of the set bits of a chunk's mask, from the chunk's
/// `start`, in increasing order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SetBits {
    bits: u64,
    start: usize,
}

impl SetBits {
    /// The set bits of `bits`, a mask of the chunk that begins at `start`.
    #[inline(always)]
    pub(crate) fn new(bits: u64, start: usize) -> Self {
        Self { bits, start }
    }
}

impl Iterator for SetBits {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.bits == 0 {
            return None;
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.start + bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.bits.count_ones() as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for SetBits {}

#[cfg(test)]
mod tests {
    use super::*;

    fn entities(n: u32) -> Vec<Entity> {
        (0..n)
            .map(|i| Entity::from_bits(u64::from(i) | (1 << 32)).expect("version 1"))
            .collect()
    }

    #[test]
    fn full_masks_have_one_bit_per_position() {
        assert_eq!(full(0), 0);
        assert_eq!(full(1), 1);
        assert_eq!(full(5), 0b1_1111);
        assert_eq!(full(63), u64::MAX >> 1);
        assert_eq!(full(64), u64::MAX);
    }

    #[test]
    fn bits_where_asks_each_position_of_the_chunk_in_order() {
        let driver = entities(100);
        let mut asked = Vec::new();
        let bits = bits_where(&driver, 30, 64, |entity, index| {
            assert_eq!(entity, driver[index]);
            asked.push(index);
            index % 3 == 0
        });
        assert_eq!(asked, (30..94).collect::<Vec<_>>());
        let kept: Vec<usize> = SetBits::new(bits, 30).collect();
        assert_eq!(kept, (30..94).filter(|i| i % 3 == 0).collect::<Vec<_>>());
    }

    #[test]
    fn bits_among_asks_only_the_candidates() {
        let driver = entities(70);
        let mut asked = Vec::new();
        let candidates = 0b1011_0001 | (1 << 63);
        let bits = bits_among(&driver, 6, candidates, |entity, index| {
            assert_eq!(entity, driver[index]);
            asked.push(index);
            index != 11
        });
        assert_eq!(asked, [6, 10, 11, 13, 69]);
        assert_eq!(bits, candidates & !(1 << 5));
    }

    #[test]
    fn newer_than_keeps_exactly_the_later_ticks() {
        let ticks: Vec<u64> = (0..64).map(|i| (i * 7) % 20).collect();
        let bits = newer_than(&ticks, 9);
        for (bit, tick) in ticks.iter().enumerate() {
            assert_eq!(bits >> bit & 1 == 1, *tick > 9, "tick {tick} at {bit}");
        }
        assert_eq!(newer_than(&[u64::MAX, 0, 5], 4), 0b101);
        let part: Vec<u64> = (0..40).map(|i| i % 5).collect();
        let bits = newer_than(&part, 2);
        for (bit, tick) in part.iter().enumerate() {
            assert_eq!(bits >> bit & 1 == 1, *tick > 2, "tick {tick} at {bit}");
        }
        assert_eq!(bits >> 40, 0, "no bit past the ticks");
        assert_eq!(newer_than(&[], 0), 0);
    }

    #[test]
    fn set_bits_walk_upwards_from_the_chunk_start() {
        let walked: Vec<usize> = SetBits::new(1 | 1 << 9 | 1 << 63, 128).collect();
        assert_eq!(walked, [128, 137, 191]);
        assert_eq!(SetBits::new(0, 5).next(), None);
        assert_eq!(SetBits::new(0b110, 0).size_hint(), (2, Some(2)));
    }
}
