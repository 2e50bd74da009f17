//! What a player presses, as one byte, and the seeded script that presses it.

/// Moves up.
pub const UP: u8 = 1;
/// Moves down.
pub const DOWN: u8 = 2;
/// Moves left.
pub const LEFT: u8 = 4;
/// Moves right.
pub const RIGHT: u8 = 8;
/// Shoots.
pub const FIRE: u8 = 16;

/// How many frames a scripted input is held before the next is drawn: long
/// enough to steer, short enough that a peer's prediction (the last input
/// repeated) is often wrong, so rollbacks happen.
pub const HOLD_FRAMES: u32 = 5;

/// What player `handle` presses at `frame` in the run seeded with `seed`:
/// the same on every machine, drawn anew every [`HOLD_FRAMES`] frames.
///
/// ```
/// use examples::arena::input::scripted;
///
/// assert_eq!(scripted(1, 0, 10), scripted(1, 0, 11));
/// assert!((0..100).map(|f| scripted(1, 0, f)).any(|i| i != scripted(1, 0, 0)));
/// ```
pub fn scripted(seed: u64, handle: usize, frame: u32) -> u8 {
    let block = u64::from(frame / HOLD_FRAMES);
    let mut z = seed
        ^ (handle as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
        ^ block.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z as u8) & (UP | DOWN | LEFT | RIGHT | FIRE)
}
