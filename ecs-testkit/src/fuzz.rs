//! The operation-stream fuzzer: arbitrary bytes decoded into [`Op`]s over the whole `World`
//! API, run by a [`Harness`].
//!
//! Used by the `cargo fuzz` targets in `fuzz/fuzz_targets/` (libFuzzer, nightly, for long local
//! runs) and by the stable harness `ecs-core/tests/world/fuzz_ops.rs` (proptest-driven, bounded, run by
//! `cargo test`), which also replays the targets' crash files on stable.
//!
//! Every byte string is a valid program: past the end of the input every read is 0. Operations
//! cover spawn (192 bundle types: every subset of five component types, nested and with
//! repeated types), spawn_batch (exact, unknown, inflated and lying size hints, once per run
//! across a sparse page), despawn, insert, insert_bundle, remove, get, get_mut, contains,
//! is_alive, `entity` / `entity_mut` handles and every handle method, components_of, clear,
//! group declarations (new, repeated, too small, conflicting), `Query::slices`, ten query types
//! through every query method (`iter`, `iter_mut`, `for_each`, `fold`, `get`, `get_mut`,
//! `single`, `single_mut`, `contains`, the three `IntoIterator`s, `query_ref`,
//! `par_for_each`) and `World::stats`. Entity operands ([`Target`]) are live ids, recently
//! spawned or despawned ids, arbitrary `u64`s through `Entity::from_bits`, fixed edge values, ids
//! next to the allocator's frontier and live ids with a neighbouring version.
//!
//! Each operation runs inside `catch_unwind`; any panic (from the world or from a failed check)
//! is reported with the step and the operation, then resumed, so proptest shrinks it and
//! libFuzzer records a crash (its panic hook aborts before the step is printed: replay the crash
//! file on stable with `ECS_FUZZ_REPLAY`).

use crate::bundle::{Hint, Spec};
use crate::component::{Pos, Tracked, Value, Which, bump_char};
use crate::harness::{HandleOp, Harness, Op, Target, ViewStep};

/// Longest program decoded from one input.
pub const MAX_OPS: usize = 2048;

/// The fixed edge values of `u64` handles, each tried by the edge test and the decoder.
pub const EDGE_BITS: [u64; 16] = [
    0,
    1,
    u32::MAX as u64,
    1 << 32,
    (1 << 32) | 1,
    2 << 32,
    u64::MAX,
    u64::MAX - 1,
    (u32::MAX as u64) << 32,
    ((u32::MAX as u64 - 1) << 32) | 1,
    (1 << 32) | u32::MAX as u64,
    (2 << 32) | (u32::MAX as u64 - 1),
    (1 << 32) | 4095,
    (1 << 32) | 4096,
    (1 << 63) | 7,
    0x8000_0000_8000_0000,
];

/// Reads bytes as numbers; past the end every read is 0, so any input decodes.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn done(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn u8(&mut self) -> u8 {
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    fn u64(&mut self) -> u64 {
        let mut b = [0; 8];
        for byte in &mut b {
            *byte = self.u8();
        }
        u64::from_le_bytes(b)
    }

    fn which(&mut self) -> Which {
        Which::FUZZ[usize::from(self.u8()) % Which::FUZZ.len()]
    }

    fn pos(&mut self) -> Pos {
        Pos(i32::from(self.u8() as i8), i32::from(self.u16() as i16))
    }

    fn string(&mut self) -> String {
        let len = self.u8() % 6;
        (0..len).map(|_| bump_char(self.u8())).collect()
    }

    fn items(&mut self) -> Vec<u16> {
        let len = self.u8() % 5;
        (0..len).map(|_| u16::from(self.u8())).collect()
    }

    fn value(&mut self) -> (Which, Value) {
        let w = self.which();
        let value = match w {
            Which::Pos => {
                let p = self.pos();
                Value::Pair(p.0, p.1)
            }
            Which::Name => Value::Text(self.string()),
            Which::Items => Value::List(self.items()),
            Which::Tracked => Value::U32(u32::from(self.u8())),
            Which::Tag | Which::Count | Which::Mark => Value::Unit,
        };
        (w, value)
    }

    fn spec(&mut self) -> Spec {
        let flags = self.u8();
        let shape = self.u8() % 6;
        Spec {
            pos: (flags & 1 != 0).then(|| self.pos()),
            name: (flags & 2 != 0).then(|| self.string()),
            items: (flags & 4 != 0).then(|| self.items()),
            tag: flags & 8 != 0,
            tracked: (flags & 16 != 0).then(|| u32::from(self.u8())),
            shape,
            dup_pos: if matches!(shape, 3 | 5) {
                self.pos()
            } else {
                Pos(0, 0)
            },
            dup_tracked: if shape == 4 { u32::from(self.u8()) } else { 0 },
        }
    }

    fn hint(&mut self) -> Hint {
        match self.u8() % 5 {
            0 => Hint::Exact,
            1 => Hint::Vec,
            2 => Hint::Unknown,
            3 => Hint::Over(self.u8() % 64),
            _ => Hint::Lying,
        }
    }

    fn target(&mut self) -> Target {
        match self.u8() % 10 {
            0..=2 => Target::Live(usize::from(self.u16())),
            3 => Target::Spawned(self.u8()),
            4 | 5 => Target::Dead(self.u8()),
            6 => Target::Bits(self.u64()),
            7 => Target::Edge(self.u8(), self.u8()),
            8 => Target::NearLive(usize::from(self.u16()), self.u8()),
            _ => Target::Bits(EDGE_BITS[usize::from(self.u8()) % EDGE_BITS.len()]),
        }
    }

    fn view_step(&mut self) -> ViewStep {
        match self.u8() % 5 {
            0 => ViewStep::Insert(self.target(), self.u8()),
            1 => ViewStep::Remove(self.target()),
            2 => ViewStep::Get(self.target()),
            3 => ViewStep::GetMut(self.target(), self.u8()),
            _ => ViewStep::Contains(self.target()),
        }
    }

    fn handle_op(&mut self) -> HandleOp {
        match self.u8() % 10 {
            0 => HandleOp::Get(self.which()),
            1 => HandleOp::GetMut(self.which(), self.u8()),
            2 => HandleOp::Contains(self.which()),
            3 | 4 => {
                let (w, value) = self.value();
                HandleOp::Insert(w, value)
            }
            5 => HandleOp::InsertBundle(self.spec()),
            6 => HandleOp::Remove(self.which()),
            7 => HandleOp::Components,
            8 => HandleOp::AsRef,
            _ => HandleOp::Despawn,
        }
    }

    fn op(&mut self) -> Op {
        match self.u8() % 34 {
            0..=3 | 31 => Op::Spawn(self.spec()),
            4 => Op::SpawnBatch(self.spec(), self.u8(), self.hint()),
            5..=7 => Op::Despawn(self.target()),
            8 | 9 => {
                let target = self.target();
                let (w, value) = self.value();
                Op::Insert(target, w, value)
            }
            10 => Op::InsertBundle(self.target(), self.spec()),
            11 | 12 => Op::Remove(self.target(), self.which()),
            13 => Op::Get(self.target(), self.which()),
            14 => Op::GetMut(self.target(), self.which(), self.u8()),
            15 => Op::Contains(self.target(), self.which()),
            16 => Op::IsAlive(self.target()),
            17 => Op::EntityRef(self.target()),
            18 | 19 => {
                let target = self.target();
                let n = self.u8() % 6;
                Op::EntityMut(target, (0..n).map(|_| self.handle_op()).collect())
            }
            20 => Op::ComponentsOf(self.target()),
            21 => match self.u8() % 8 {
                0 | 4 => Op::Clear,
                1 => Op::OptimizeLayout,
                _ => Op::Stats,
            },
            22..=27 => Op::Query {
                shape: self.u8(),
                method: self.u8(),
                target: self.target(),
                k: self.u8(),
            },
            28 => Op::Bits(self.u64()),
            29 => Op::Probe(self.target()),
            30 => {
                let w = self.which();
                if self.u8().is_multiple_of(2) {
                    let n = self.u8() % 8;
                    Op::ViewMut(w, (0..n).map(|_| self.view_step()).collect())
                } else {
                    let n = self.u8() % 6;
                    Op::View(w, (0..n).map(|_| self.target()).collect())
                }
            }
            // Groups are for good, so declaring one is rare: about once in 500 ops.
            32 if self.u8() < 16 => Op::Group(self.u8()),
            33 => Op::Slices(self.u8(), self.u8()),
            _ => Op::Stats,
        }
    }
}

/// Decodes `bytes` into at most [`MAX_OPS`] operations. Every input decodes.
pub fn decode(bytes: &[u8]) -> Vec<Op> {
    let mut reader = Reader { bytes, pos: 0 };
    let mut ops = Vec::new();
    while !reader.done() && ops.len() < MAX_OPS {
        ops.push(reader.op());
    }
    ops
}

/// Asserts that every `Tracked` value made since `base` (the ledger's live count then) was
/// dropped exactly once.
fn assert_tracked_balanced(base: usize, errors: usize) {
    let ledger = Tracked::ledger();
    assert_eq!(
        ledger.live(),
        base,
        "Tracked values leaked or dropped twice"
    );
    assert_eq!(
        ledger.errors().len(),
        errors,
        "Tracked values dropped twice"
    );
}

/// Decodes `bytes` into operations and runs them against a fresh world and model; then drops
/// the world and checks that every `Tracked` value was dropped exactly once.
pub fn run_ops(bytes: &[u8]) {
    let ops = decode(bytes);
    let ledger = Tracked::ledger();
    let (base, errors) = (ledger.live(), ledger.errors().len());
    let mut h = Harness::new();
    h.run(&ops);
    drop(h);
    assert_tracked_balanced(base, errors);
}

/// Sets up a world from the first bytes (spawns, despawns, maybe a clear), then probes every
/// following 8-byte `u64` and every [`EDGE_BITS`] value as an entity handle.
pub fn run_entity_bits(bytes: &[u8]) {
    let ledger = Tracked::ledger();
    let (base, errors) = (ledger.live(), ledger.errors().len());
    let mut h = Harness::new();
    let setup = bytes.first().copied().unwrap_or(0);
    let mut ops = setup_ops(setup);
    let mut chunks = bytes.get(1..).unwrap_or_default().chunks(8);
    for chunk in chunks.by_ref().take(MAX_OPS) {
        let mut b = [0; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        ops.push(Op::Bits(u64::from_le_bytes(b)));
    }
    ops.extend(EDGE_BITS.iter().map(|&bits| Op::Bits(bits)));
    h.run(&ops);
    drop(h);
    assert_tracked_balanced(base, errors);
}

/// A small world: `setup % 32` entities of mixed contents, every third despawned, respawns, and
/// a clear when bit 5 is set.
pub fn setup_ops(setup: u8) -> Vec<Op> {
    let mut ops = Vec::new();
    for i in 0..setup % 32 {
        ops.push(Op::Spawn(Spec {
            pos: (i % 2 == 0).then_some(Pos(i32::from(i), 0)),
            name: (i % 3 == 0).then(|| format!("n{i}")),
            items: (i % 5 == 0).then(|| vec![u16::from(i)]),
            tag: i % 4 == 1,
            tracked: (i % 3 == 1).then_some(u32::from(i)),
            shape: i % 6,
            dup_pos: Pos(-1, -1),
            dup_tracked: 1000,
        }));
    }
    for i in (0..setup % 32).step_by(3) {
        ops.push(Op::Despawn(Target::Live(usize::from(i))));
    }
    if setup & 32 != 0 {
        ops.push(Op::Clear);
    }
    for _ in 0..setup / 64 {
        ops.push(Op::Spawn(Spec {
            pos: None,
            name: None,
            items: None,
            tag: true,
            tracked: Some(7),
            shape: 0,
            dup_pos: Pos(0, 0),
            dup_tracked: 0,
        }));
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decoding is part of what a crash file means: the same bytes must keep giving the same
    /// program, and any bytes give one.
    #[test]
    fn decoding_is_stable_and_total() {
        let ops = decode(&[0, 24, 0, 4, 1, 2, 3, 200]);
        let [Op::Spawn(first), Op::Spawn(second)] = &ops[..] else {
            panic!("two spawns: {ops:?}");
        };
        assert!(first.tag && first.tracked == Some(4) && first.pos.is_none());
        assert_eq!((second.name.as_deref(), second.shape), (Some("aa"), 3));
        let ops = decode(&[4, 0, 0, 3, 3, 5]);
        assert!(
            matches!(ops[..], [Op::SpawnBatch(_, 3, Hint::Over(5))]),
            "{ops:?}"
        );
        assert!(decode(&[]).is_empty());
        assert_eq!(decode(&[0xFF; 100_000]).len(), MAX_OPS);
        run_ops(&[0, 24, 0, 4, 1, 2, 3, 200]);
        run_entity_bits(&[5, 1, 0, 0, 0, 1, 0, 0, 0]);
    }
}
