//! The operation-stream fuzzer: decodes arbitrary bytes into operations over the whole `World`
//! API, runs each one against a world and a plain model, and fails on any disagreement or any
//! panic.
//!
//! Shared, unchanged, by the stable harness `ecs-core/tests/fuzz_ops.rs` (proptest-driven,
//! bounded, run by `cargo test`) and by the `cargo fuzz` targets in `fuzz/fuzz_targets/`
//! (libFuzzer, nightly, for long local runs); both include this file with
//! `#[path = ...] mod harness;`, so the decoder, the model and every check are the same code in
//! both.
//!
//! - **Decoding** ([`decode`]): every byte string is a valid program. Past the end of the input
//!   every read is 0. Operations ([`Op`]) cover spawn (192 bundle types: every subset of five
//!   component types, nested and with repeated types), spawn_batch (exact, unknown, inflated and
//!   lying size hints, once per run across a sparse page), despawn, insert, insert_bundle,
//!   remove, get, get_mut, contains, is_alive, `entity` / `entity_mut` handles and every handle
//!   method, components_of, clear, group declarations (new, repeated, too small, conflicting),
//!   `Query::slices`, ten query types through every query method (`iter`, `iter_mut`,
//!   `for_each`, `fold`, `get`, `get_mut`, `single`, `single_mut`, `contains`, the three
//!   `IntoIterator`s, `query_ref`, `par_for_each`) and `World::stats`. Entity operands
//!   ([`Target`]) are live ids, recently spawned or despawned ids, arbitrary `u64`s through
//!   `Entity::from_bits`, fixed edge values, ids next to the allocator's frontier and live ids
//!   with a neighbouring version.
//! - **The model** ([`Model`]): live entities and their components in a `BTreeMap`, a copy of the
//!   allocator rules (LIFO free list, version bump, retirement at `u32::MAX`) so spawned ids are
//!   predicted exactly, the order in which component types were first registered, the sparse
//!   pages each type must have allocated, and the declared groups.
//! - **Checks**: every call's answer is compared with the model's (values and exact `Error`s);
//!   after every operation `World::stats` is compared field by field and the live count of the
//!   drop-counted [`Tracked`] component must equal what the model holds; the whole observable
//!   state (every live entity's components, dead ids, the next id, per-type counts through
//!   queries, and every group's packed rows through `Query::slices`) is compared after every
//!   operation while the world is small and every [`FULL_CHECK_EVERY`] operations otherwise.
//! - **Panics**: each operation runs inside `catch_unwind`; any panic (from the world or from a
//!   failed check) is reported with the step and the operation, then resumed, so proptest shrinks
//!   it and libFuzzer records a crash (its panic hook aborts before the step is printed: replay
//!   the crash file on stable with `ECS_FUZZ_REPLAY`). The decoder never builds a query that
//!   aliases a `&mut T` (the one documented panic of the API).

#![allow(
    dead_code,
    reason = "each includer (the stable test, each cargo-fuzz target) uses a different part"
)]

use std::any::type_name;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
#[cfg(feature = "parallel")]
use std::sync::Mutex;

use ecs_core::prelude::*;
use ecs_core::query::{QueryData, QueryFilter, QueryItem, ReadOnlyItem};
use ecs_core::{ComponentInfo, WorldStats};

/// Longest program decoded from one input.
pub const MAX_OPS: usize = 2048;

/// The whole state is compared after every op while at most this many entities live.
pub const FULL_CHECK_LIVE: usize = 24;

/// Otherwise the whole state is compared every this many ops (and at the end).
pub const FULL_CHECK_EVERY: usize = 32;

/// Size of one spawn_batch that crosses a sparse page (4096 slots); decoded at most once per run.
pub const BIG_BATCH: u32 = 4100;

// ---------------------------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------------------------

/// Plain-old-data component.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos(pub i32, pub i32);

/// Heap-owning component (`String`).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Name(pub String);

/// Heap-owning component (`Vec`).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Items(pub Vec<u16>);

/// Zero-sized tag.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag;

/// A component whose live instances are counted per thread: made only by [`Tracked::new`],
/// so `tracked_live()` is exactly the number of values not yet dropped.
#[derive(Component, Debug, PartialEq, Eq)]
pub struct Tracked(u32);

thread_local! {
    static TRACKED_LIVE: Cell<i64> = const { Cell::new(0) };
}

impl Tracked {
    /// A counted value.
    pub fn new(value: u32) -> Self {
        TRACKED_LIVE.with(|c| c.set(c.get() + 1));
        Tracked(value)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        TRACKED_LIVE.with(|c| c.set(c.get() - 1));
    }
}

/// How many [`Tracked`] values made on this thread are not dropped yet.
pub fn tracked_live() -> i64 {
    TRACKED_LIVE.with(Cell::get)
}

/// One of the component types, chosen at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Which {
    /// [`Pos`]
    Pos,
    /// [`Name`]
    Name,
    /// [`Items`]
    Items,
    /// [`Tag`]
    Tag,
    /// [`Tracked`]
    Tracked,
}

/// Every component type.
pub const ALL: [Which; 5] = [
    Which::Pos,
    Which::Name,
    Which::Items,
    Which::Tag,
    Which::Tracked,
];

/// Runs `$body` with `$T` naming the component type `$w` stands for.
macro_rules! with_type {
    ($w:expr, $T:ident => $body:expr) => {
        match $w {
            Which::Pos => {
                type $T = Pos;
                $body
            }
            Which::Name => {
                type $T = Name;
                $body
            }
            Which::Items => {
                type $T = Items;
                $body
            }
            Which::Tag => {
                type $T = Tag;
                $body
            }
            Which::Tracked => {
                type $T = Tracked;
                $body
            }
        }
    };
}

impl Which {
    fn type_name(self) -> &'static str {
        with_type!(self, T => type_name::<T>())
    }

    fn short_name(self) -> &'static str {
        match self {
            Which::Pos => "Pos",
            Which::Name => "Name",
            Which::Items => "Items",
            Which::Tag => "Tag",
            Which::Tracked => "Tracked",
        }
    }

    fn size(self) -> usize {
        with_type!(self, T => size_of::<T>())
    }
}

/// A component value, as the model stores it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    /// A `Pos`.
    Pos(Pos),
    /// A `Name`'s string.
    Name(String),
    /// An `Items`' vector.
    Items(Vec<u16>),
    /// The tag.
    Tag,
    /// A `Tracked`'s number.
    Tracked(u32),
}

impl Value {
    fn which(&self) -> Which {
        match self {
            Value::Pos(_) => Which::Pos,
            Value::Name(_) => Which::Name,
            Value::Items(_) => Which::Items,
            Value::Tag => Which::Tag,
            Value::Tracked(_) => Which::Tracked,
        }
    }

    /// The model's copy of [`Comp::bump`].
    fn bump(&mut self, k: u8) {
        match self {
            Value::Pos(p) => p.bump(k),
            Value::Name(s) => s.push(bump_char(k)),
            Value::Items(v) => v.push(u16::from(k)),
            Value::Tag => {}
            Value::Tracked(t) => *t = t.wrapping_add(u32::from(k)),
        }
    }
}

fn bump_char(k: u8) -> char {
    if k >= 250 {
        'é'
    } else {
        char::from(b'a' + k % 26)
    }
}

/// What the harness needs of each component type.
trait Comp: Component + Sized {
    /// The model's copy of the value.
    fn val(&self) -> Value;
    /// A new value from the model's description (counted, for `Tracked`).
    fn make(v: &Value) -> Self;
    /// An in-place change that `get_mut`, `iter_mut` and friends apply.
    fn bump(&mut self, k: u8);
}

impl Comp for Pos {
    fn val(&self) -> Value {
        Value::Pos(*self)
    }
    fn make(v: &Value) -> Self {
        match v {
            Value::Pos(p) => *p,
            _ => unreachable!("not a Pos: {v:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.0 = self.0.wrapping_add(i32::from(k));
        self.1 ^= i32::from(k) << 3;
    }
}

impl Comp for Name {
    fn val(&self) -> Value {
        Value::Name(self.0.clone())
    }
    fn make(v: &Value) -> Self {
        match v {
            Value::Name(s) => Name(s.clone()),
            _ => unreachable!("not a Name: {v:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.0.push(bump_char(k));
    }
}

impl Comp for Items {
    fn val(&self) -> Value {
        Value::Items(self.0.clone())
    }
    fn make(v: &Value) -> Self {
        match v {
            Value::Items(items) => Items(items.clone()),
            _ => unreachable!("not Items: {v:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.0.push(u16::from(k));
    }
}

impl Comp for Tag {
    fn val(&self) -> Value {
        Value::Tag
    }
    fn make(_: &Value) -> Self {
        Tag
    }
    fn bump(&mut self, _: u8) {}
}

impl Comp for Tracked {
    fn val(&self) -> Value {
        Value::Tracked(self.0)
    }
    fn make(v: &Value) -> Self {
        match v {
            Value::Tracked(t) => Tracked::new(*t),
            _ => unreachable!("not Tracked: {v:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.0 = self.0.wrapping_add(u32::from(k));
    }
}

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

/// What the model says one live entity holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ent {
    pos: Option<Pos>,
    name: Option<String>,
    items: Option<Vec<u16>>,
    tag: bool,
    tracked: Option<u32>,
}

impl Ent {
    fn get(&self, w: Which) -> Option<Value> {
        match w {
            Which::Pos => self.pos.map(Value::Pos),
            Which::Name => self.name.clone().map(Value::Name),
            Which::Items => self.items.clone().map(Value::Items),
            Which::Tag => self.tag.then_some(Value::Tag),
            Which::Tracked => self.tracked.map(Value::Tracked),
        }
    }

    fn has(&self, w: Which) -> bool {
        match w {
            Which::Pos => self.pos.is_some(),
            Which::Name => self.name.is_some(),
            Which::Items => self.items.is_some(),
            Which::Tag => self.tag,
            Which::Tracked => self.tracked.is_some(),
        }
    }

    /// Stores `v`, returning the value it replaces.
    fn set(&mut self, v: Value) -> Option<Value> {
        let old = self.get(v.which());
        match v {
            Value::Pos(p) => self.pos = Some(p),
            Value::Name(s) => self.name = Some(s),
            Value::Items(items) => self.items = Some(items),
            Value::Tag => self.tag = true,
            Value::Tracked(t) => self.tracked = Some(t),
        }
        old
    }

    fn take(&mut self, w: Which) -> Option<Value> {
        let old = self.get(w);
        match w {
            Which::Pos => self.pos = None,
            Which::Name => self.name = None,
            Which::Items => self.items = None,
            Which::Tag => self.tag = false,
            Which::Tracked => self.tracked = None,
        }
        old
    }

    fn count(&self) -> usize {
        ALL.iter().filter(|&&w| self.has(w)).count()
    }
}

/// How the model classifies a handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Alive now.
    Alive,
    /// Was alive once.
    Despawned,
    /// Never handed out by this world.
    NeverSpawned,
}

/// The reference model of a world.
#[derive(Debug, Default)]
pub struct Model {
    live: BTreeMap<Entity, Ent>,
    /// One `(version, alive)` per slot ever used.
    slots: Vec<(u32, bool)>,
    /// LIFO free list of slot indices.
    free: Vec<u32>,
    /// Component types in the order the world first registered them (= `ComponentId` order).
    order: Vec<Which>,
    /// `(type, page)` for every sparse page each storage must have allocated.
    pages: BTreeSet<(Which, u32)>,
    /// Declared groups: the group's type name and its distinct types in declaration order.
    groups: Vec<(&'static str, Vec<Which>)>,
    /// The last ids spawned (alive or not).
    spawned: VecDeque<Entity>,
    /// The last ids despawned.
    dead: VecDeque<Entity>,
}

/// How many recent ids the model remembers for operands.
const RECENT: usize = 32;

/// Builds a handle from its parts.
pub fn ent(index: u32, version: u32) -> Entity {
    Entity::from_bits((u64::from(version) << 32) | u64::from(index)).expect("version is non-zero")
}

fn remember(ring: &mut VecDeque<Entity>, e: Entity) {
    if ring.len() == RECENT {
        ring.pop_front();
    }
    ring.push_back(e);
}

impl Model {
    /// The id the next spawn returns.
    fn peek_next(&self) -> Entity {
        match self.free.last() {
            Some(&index) => ent(index, self.slots[index as usize].0 + 1),
            None => ent(self.slot_count(), 1),
        }
    }

    fn slot_count(&self) -> u32 {
        u32::try_from(self.slots.len()).expect("fewer than 2^32 slots")
    }

    fn alloc(&mut self) -> Entity {
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            assert!(!slot.1 && slot.0 < u32::MAX, "model free list is broken");
            slot.0 += 1;
            slot.1 = true;
            return ent(index, slot.0);
        }
        let index = self.slot_count();
        self.slots.push((1, true));
        ent(index, 1)
    }

    fn free_slot(&mut self, index: u32) {
        let slot = &mut self.slots[index as usize];
        assert!(slot.1, "model frees a dead slot");
        slot.1 = false;
        if slot.0 < u32::MAX {
            self.free.push(index);
        }
    }

    /// Notes that the world registered these types (in this order) if it had not yet.
    fn register(&mut self, types: &[Which]) {
        for &w in types {
            if !self.order.contains(&w) {
                self.order.push(w);
            }
        }
    }

    /// Notes that `e`'s `w` was written: its storage has the page for `e`'s index.
    fn write(&mut self, e: Entity, w: Which) {
        assert!(self.order.contains(&w), "{w:?} written before registration");
        self.pages.insert((w, e.index() >> 12));
    }

    fn spawn(&mut self, contents: Ent) -> Entity {
        let e = self.alloc();
        for w in ALL {
            if contents.has(w) {
                self.write(e, w);
            }
        }
        assert!(self.live.insert(e, contents).is_none());
        remember(&mut self.spawned, e);
        e
    }

    fn despawn(&mut self, e: Entity) {
        assert!(self.live.remove(&e).is_some(), "model despawns a dead id");
        self.free_slot(e.index());
        remember(&mut self.dead, e);
    }

    fn clear(&mut self) {
        for index in 0..self.slot_count() {
            if self.slots[index as usize].1 {
                self.free_slot(index);
            }
        }
        for e in std::mem::take(&mut self.live).into_keys() {
            remember(&mut self.dead, e);
        }
    }

    /// The slot rule: the live occupant is alive; a version at or below the slot's is despawned;
    /// a higher version, or an index past every slot, was never spawned.
    pub fn status(&self, e: Entity) -> Status {
        match self.slots.get(e.index() as usize) {
            None => Status::NeverSpawned,
            Some(&(version, alive)) if e.version() == version && alive => Status::Alive,
            Some(&(version, _)) if e.version() <= version => Status::Despawned,
            Some(_) => Status::NeverSpawned,
        }
    }

    fn check(&self, e: Entity) -> Result<(), Error> {
        match self.status(e) {
            Status::Alive => Ok(()),
            Status::Despawned => Err(Error::Despawned { entity: e }),
            Status::NeverSpawned => Err(Error::NeverSpawned { entity: e }),
        }
    }

    fn lookup(&self, e: Entity, w: Which) -> Result<Value, Error> {
        self.check(e)?;
        self.live[&e].get(w).ok_or_else(|| missing(e, w))
    }

    fn ent_mut(&mut self, e: Entity) -> &mut Ent {
        self.live.get_mut(&e).expect("model entity is alive")
    }

    /// Short names of `e`'s types in registration order, as `components_of` lists them.
    fn names(&self, e: Entity) -> Vec<&'static str> {
        let m = &self.live[&e];
        self.order
            .iter()
            .filter(|&&w| m.has(w))
            .map(|w| w.short_name())
            .collect()
    }

    fn tracked_count(&self) -> i64 {
        self.live.values().filter(|m| m.tracked.is_some()).count() as i64
    }

    /// What `World::group` answers for a group named `name` of the types `order` (in write
    /// order, repeats included), and the group it declares.
    fn group(&mut self, name: &'static str, order: &[Which]) -> Result<(), Error> {
        self.register(order);
        let mut distinct: Vec<Which> = Vec::new();
        for &w in order {
            if !distinct.contains(&w) {
                distinct.push(w);
            }
        }
        if distinct.len() < 2 {
            return Err(Error::GroupTooSmall { group: name });
        }
        let set: BTreeSet<Which> = distinct.iter().copied().collect();
        for &w in &distinct {
            if let Some((other, owned)) = self.groups.iter().find(|(_, owned)| owned.contains(&w)) {
                if owned.iter().copied().collect::<BTreeSet<_>>() == set {
                    return Ok(());
                }
                return Err(Error::GroupConflict {
                    group: name,
                    other,
                    component: w.type_name(),
                });
            }
        }
        self.groups.push((name, distinct));
        Ok(())
    }

    /// Whether some group owns exactly `types`.
    fn grouped(&self, types: &[Which]) -> bool {
        let set: BTreeSet<Which> = types.iter().copied().collect();
        self.groups
            .iter()
            .any(|(_, owned)| owned.iter().copied().collect::<BTreeSet<_>>() == set)
    }
}

fn missing(e: Entity, w: Which) -> Error {
    Error::MissingComponent {
        entity: e,
        component: w.type_name(),
    }
}

fn missing_t<T: Component>(e: Entity) -> Error {
    Error::MissingComponent {
        entity: e,
        component: type_name::<T>(),
    }
}

fn excluded_t<T: Component>(e: Entity) -> Error {
    Error::ExcludedComponent {
        entity: e,
        component: type_name::<T>(),
    }
}

// ---------------------------------------------------------------------------------------------
// Operations and their decoding
// ---------------------------------------------------------------------------------------------

/// Which entity an op is aimed at, resolved against the model when it runs.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// The `n % len`-th live entity in id order.
    Live(u16),
    /// One of the last ids spawned, alive or not.
    Spawned(u8),
    /// One of the last ids despawned.
    Dead(u8),
    /// `Entity::from_bits` of any `u64` (version 0 becomes version 1: `from_bits` rejects it).
    Bits(u64),
    /// An index near the allocator's frontier, a page boundary or `u32::MAX`, with a version
    /// near that slot's or at an extreme.
    Edge(u8, u8),
    /// A live entity's index with a neighbouring version.
    NearLive(u16, u8),
}

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

impl Target {
    fn resolve(self, model: &Model) -> Entity {
        match self {
            Target::Live(n) if !model.live.is_empty() => *model
                .live
                .keys()
                .nth(usize::from(n) % model.live.len())
                .expect("in range"),
            Target::Spawned(n) if !model.spawned.is_empty() => {
                model.spawned[usize::from(n) % model.spawned.len()]
            }
            Target::Dead(n) if !model.dead.is_empty() => {
                model.dead[usize::from(n) % model.dead.len()]
            }
            Target::Bits(bits) => Entity::from_bits(bits).unwrap_or_else(|| ent(bits as u32, 1)),
            Target::NearLive(n, d) if !model.live.is_empty() => {
                let e = *model
                    .live
                    .keys()
                    .nth(usize::from(n) % model.live.len())
                    .expect("in range");
                let version = match d % 4 {
                    0 => e.version().saturating_add(1),
                    1 => e.version().saturating_sub(1).max(1),
                    2 => e.version().saturating_add(2),
                    _ => u32::MAX,
                };
                ent(e.index(), version)
            }
            Target::Edge(a, b) => {
                let slots = model.slot_count();
                let index = match a % 8 {
                    0 => slots,
                    1 => slots.saturating_add(1),
                    2 => slots.saturating_sub(1),
                    3 => 4095,
                    4 => 4096,
                    5 => u32::MAX,
                    6 => u32::MAX - 1,
                    _ => 0,
                };
                let slot_version = model.slots.get(index as usize).map_or(1, |s| s.0);
                let version = match b % 7 {
                    0 => 1,
                    1 => 2,
                    2 => slot_version,
                    3 => slot_version.saturating_add(1),
                    4 => slot_version.saturating_sub(1).max(1),
                    5 => u32::MAX,
                    _ => u32::MAX - 1,
                };
                ent(index, version)
            }
            // Nothing to pick from: an index past every slot.
            Target::Live(n) | Target::NearLive(n, _) => {
                ent(model.slot_count() + u32::from(n % 4), 1)
            }
            Target::Spawned(n) | Target::Dead(n) => ent(model.slot_count() + u32::from(n % 4), 1),
        }
    }
}

/// A set of components given as one bundle, and the shape of the bundle's type.
#[derive(Clone, Debug)]
pub struct Spec {
    pos: Option<Pos>,
    name: Option<String>,
    items: Option<Vec<u16>>,
    tag: bool,
    tracked: Option<u32>,
    /// `shape % 6`: `(a, b)`, `(b, a)`, `(a, (b, ()))`, `(Pos, a, b)`, `(Tracked, (a, b))`,
    /// `(a, b, Pos)`, where `a` holds the `Pos`/`Name`/`Items` part and `b` the `Tag`/`Tracked`
    /// part; the extra `Pos` / `Tracked` repeat a type, so one of the two values is dropped.
    shape: u8,
    dup_pos: Pos,
    dup_tracked: u32,
}

fn pos_at(p: Pos, i: u32) -> Pos {
    Pos(p.0.wrapping_add(i as i32), p.1)
}

impl Spec {
    /// The components the `i`-th entity made from this spec ends up with.
    fn at(&self, i: u32) -> Ent {
        let mut m = Ent {
            pos: self.pos.map(|p| pos_at(p, i)),
            name: self.name.clone(),
            items: self.items.clone(),
            tag: self.tag,
            tracked: self.tracked.map(|t| t.wrapping_add(i)),
        };
        match self.shape % 6 {
            3 => m.pos = m.pos.or(Some(self.dup_pos)),
            4 => m.tracked = m.tracked.or(Some(self.dup_tracked)),
            5 => m.pos = Some(self.dup_pos),
            _ => {}
        }
        m
    }

    /// The bundle's component types in write (= registration) order.
    fn order(&self) -> Vec<Which> {
        let mut a = Vec::new();
        if self.pos.is_some() {
            a.push(Which::Pos);
        }
        if self.name.is_some() {
            a.push(Which::Name);
        }
        if self.items.is_some() {
            a.push(Which::Items);
        }
        let mut b = Vec::new();
        if self.tag {
            b.push(Which::Tag);
        }
        if self.tracked.is_some() {
            b.push(Which::Tracked);
        }
        match self.shape % 6 {
            1 => [b, a].concat(),
            3 => [vec![Which::Pos], a, b].concat(),
            4 => [vec![Which::Tracked], a, b].concat(),
            5 => [a, b, vec![Which::Pos]].concat(),
            _ => [a, b].concat(),
        }
    }
}

/// How `spawn_batch` gets its iterator.
#[derive(Clone, Copy, Debug)]
pub enum Hint {
    /// A mapped range: exact size hint.
    Exact,
    /// A `Vec` of bundles built up front.
    Vec,
    /// A size hint of `(0, None)`.
    Unknown,
    /// A lower bound above the real length (a buggy but safe iterator).
    Over(u8),
    /// A lower bound below the real length and an upper bound of 0 (also buggy).
    Lying,
}

/// An operation on an `EntityMut` handle.
#[derive(Clone, Debug)]
pub enum HandleOp {
    /// `get::<T>()`
    Get(Which),
    /// `get_mut::<T>()` and a change through it
    GetMut(Which, u8),
    /// `contains::<T>()`
    Contains(Which),
    /// `insert(value)`
    Insert(Value),
    /// `insert_bundle(bundle)`
    InsertBundle(Spec),
    /// `remove::<T>()`
    Remove(Which),
    /// `components()`
    Components,
    /// `as_ref()` and reads through it
    AsRef,
    /// `despawn()`, consuming the handle: later handle ops of the same op are skipped
    Despawn,
}

/// One decoded operation.
#[derive(Clone, Debug)]
pub enum Op {
    /// `spawn(bundle)`
    Spawn(Spec),
    /// `spawn_batch` of `n` bundles (`n % 12`, or [`BIG_BATCH`] once per run for `n == 255`)
    SpawnBatch(Spec, u8, Hint),
    /// `despawn`
    Despawn(Target),
    /// `insert`
    Insert(Target, Value),
    /// `insert_bundle`
    InsertBundle(Target, Spec),
    /// `remove::<T>`
    Remove(Target, Which),
    /// `get::<T>`
    Get(Target, Which),
    /// `get_mut::<T>` and a change through it
    GetMut(Target, Which, u8),
    /// `contains::<T>`
    Contains(Target, Which),
    /// `is_alive`
    IsAlive(Target),
    /// `entity` and every read through the handle
    EntityRef(Target),
    /// `entity_mut` and a sequence of handle operations
    EntityMut(Target, Vec<HandleOp>),
    /// `components_of`
    ComponentsOf(Target),
    /// `clear`
    Clear,
    /// A query of shape `shape % SHAPES`, read or written by `method % METHODS`
    Query {
        /// which query type
        shape: u8,
        /// which query method
        method: u8,
        /// the entity for `get` / `get_mut` / `contains`
        target: Target,
        /// the change applied through `&mut` items
        k: u8,
    },
    /// `Entity::from_bits(bits)` round trip, then every entity API on the handle
    Bits(u64),
    /// Every entity API on one handle (failing mutators too, when it is not alive)
    Probe(Target),
    /// `World::group` of group shape `g % GROUPS`
    Group(u8),
    /// `Query::slices` of slice shape `n % SLICES`, writing `k` through the `&mut` slices
    Slices(u8, u8),
    /// `World::stats` (also checked after every op)
    Stats,
}

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
        ALL[usize::from(self.u8()) % ALL.len()]
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

    fn value(&mut self) -> Value {
        match self.which() {
            Which::Pos => Value::Pos(self.pos()),
            Which::Name => Value::Name(self.string()),
            Which::Items => Value::Items(self.items()),
            Which::Tag => Value::Tag,
            Which::Tracked => Value::Tracked(u32::from(self.u8())),
        }
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
            0..=2 => Target::Live(self.u16()),
            3 => Target::Spawned(self.u8()),
            4 | 5 => Target::Dead(self.u8()),
            6 => Target::Bits(self.u64()),
            7 => Target::Edge(self.u8(), self.u8()),
            8 => Target::NearLive(self.u16(), self.u8()),
            _ => Target::Bits(EDGE_BITS[usize::from(self.u8()) % EDGE_BITS.len()]),
        }
    }

    fn handle_op(&mut self) -> HandleOp {
        match self.u8() % 10 {
            0 => HandleOp::Get(self.which()),
            1 => HandleOp::GetMut(self.which(), self.u8()),
            2 => HandleOp::Contains(self.which()),
            3 | 4 => HandleOp::Insert(self.value()),
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
            8 | 9 => Op::Insert(self.target(), self.value()),
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
            21 => {
                if self.u8().is_multiple_of(4) {
                    Op::Clear
                } else {
                    Op::Stats
                }
            }
            22..=27 => Op::Query {
                shape: self.u8(),
                method: self.u8(),
                target: self.target(),
                k: self.u8(),
            },
            28 => Op::Bits(self.u64()),
            29 => Op::Probe(self.target()),
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

// ---------------------------------------------------------------------------------------------
// Bundles: one `Spec` becomes one of 192 bundle types
// ---------------------------------------------------------------------------------------------

/// Something done with a bundle type chosen at run time: `make(i)` builds the `i`-th bundle.
trait Sink {
    type Out;
    fn take<B: Bundle, M: Fn(u32) -> B>(self, make: M) -> Self::Out;
}

/// Calls `sink` with the bundle type and values `spec` describes.
fn build<S: Sink>(spec: &Spec, sink: S) -> S::Out {
    let (name, items) = (spec.name.clone(), spec.items.clone());
    match (spec.pos, name, items) {
        (None, None, None) => build_b(spec, |_| (), sink),
        (Some(p), None, None) => build_b(spec, move |i| pos_at(p, i), sink),
        (None, Some(n), None) => build_b(spec, move |_| (Name(n.clone()),), sink),
        (None, None, Some(v)) => build_b(spec, move |_| Items(v.clone()), sink),
        (Some(p), Some(n), None) => build_b(spec, move |i| (pos_at(p, i), Name(n.clone())), sink),
        (Some(p), None, Some(v)) => {
            build_b(spec, move |i| ((pos_at(p, i),), Items(v.clone())), sink)
        }
        (None, Some(n), Some(v)) => {
            build_b(spec, move |_| (Name(n.clone()), (Items(v.clone()),)), sink)
        }
        (Some(p), Some(n), Some(v)) => build_b(
            spec,
            move |i| (pos_at(p, i), Name(n.clone()), Items(v.clone())),
            sink,
        ),
    }
}

fn build_b<S: Sink, A: Bundle>(spec: &Spec, a: impl Fn(u32) -> A, sink: S) -> S::Out {
    match (spec.tag, spec.tracked) {
        (false, None) => build_shape(spec, a, |_| (), sink),
        (true, None) => build_shape(spec, a, |_| Tag, sink),
        (false, Some(t)) => build_shape(spec, a, move |i| Tracked::new(t.wrapping_add(i)), sink),
        (true, Some(t)) => build_shape(
            spec,
            a,
            move |i| (Tag, Tracked::new(t.wrapping_add(i))),
            sink,
        ),
    }
}

fn build_shape<S: Sink, A: Bundle, B: Bundle>(
    spec: &Spec,
    a: impl Fn(u32) -> A,
    b: impl Fn(u32) -> B,
    sink: S,
) -> S::Out {
    let (dup_pos, dup_tracked) = (spec.dup_pos, spec.dup_tracked);
    match spec.shape % 6 {
        0 => sink.take(move |i| (a(i), b(i))),
        1 => sink.take(move |i| (b(i), a(i))),
        2 => sink.take(move |i| (a(i), (b(i), ()))),
        3 => sink.take(move |i| (dup_pos, a(i), b(i))),
        4 => sink.take(move |i| (Tracked::new(dup_tracked), (a(i), b(i)))),
        _ => sink.take(move |i| (a(i), b(i), dup_pos)),
    }
}

struct SpawnOne<'w>(&'w mut World);

impl Sink for SpawnOne<'_> {
    type Out = Entity;
    fn take<B: Bundle, M: Fn(u32) -> B>(self, make: M) -> Entity {
        self.0.spawn(make(0))
    }
}

struct SpawnMany<'w> {
    world: &'w mut World,
    n: u32,
    hint: Hint,
}

/// An iterator that reports whatever size hint it is told to.
struct Hinted<I> {
    inner: I,
    hint: (usize, Option<usize>),
}

impl<I: Iterator> Iterator for Hinted<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        self.inner.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.hint
    }
}

impl Sink for SpawnMany<'_> {
    type Out = Vec<Entity>;
    fn take<B: Bundle, M: Fn(u32) -> B>(self, make: M) -> Vec<Entity> {
        let n = self.n;
        let len = n as usize;
        let hinted = |hint| Hinted {
            inner: (0..n).map(&make),
            hint,
        };
        match self.hint {
            Hint::Exact => self.world.spawn_batch((0..n).map(&make)),
            Hint::Vec => self
                .world
                .spawn_batch((0..n).map(&make).collect::<Vec<B>>()),
            Hint::Unknown => self.world.spawn_batch(hinted((0, None))),
            Hint::Over(extra) => self
                .world
                .spawn_batch(hinted((len + usize::from(extra), None))),
            Hint::Lying => self.world.spawn_batch(hinted((len / 2, Some(0)))),
        }
    }
}

struct InsertBundle<'w> {
    world: &'w mut World,
    entity: Entity,
}

impl Sink for InsertBundle<'_> {
    type Out = Result<(), Error>;
    fn take<B: Bundle, M: Fn(u32) -> B>(self, make: M) -> Result<(), Error> {
        self.world.insert_bundle(self.entity, make(0))
    }
}

struct HandleInsertBundle<'a, 'w>(&'a mut EntityMut<'w>);

impl Sink for HandleInsertBundle<'_, '_> {
    type Out = ();
    fn take<B: Bundle, M: Fn(u32) -> B>(self, make: M) {
        self.0.insert_bundle(make(0));
    }
}

// ---------------------------------------------------------------------------------------------
// World-side helpers, dispatched on `Which`
// ---------------------------------------------------------------------------------------------

fn world_get(world: &World, e: Entity, w: Which) -> Result<Value, Error> {
    with_type!(w, T => world.get::<T>(e).map(Comp::val))
}

fn world_contains(world: &World, e: Entity, w: Which) -> bool {
    with_type!(w, T => world.contains::<T>(e))
}

fn world_get_mut(world: &mut World, e: Entity, w: Which, k: u8) -> Result<Value, Error> {
    with_type!(w, T => world.get_mut::<T>(e).map(|c| {
        c.bump(k);
        c.val()
    }))
}

fn world_insert(world: &mut World, e: Entity, v: &Value) -> Result<Option<Value>, Error> {
    with_type!(v.which(), T => world.insert(e, T::make(v)).map(|old| old.map(|c| c.val())))
}

fn world_remove(world: &mut World, e: Entity, w: Which) -> Result<Value, Error> {
    with_type!(w, T => world.remove::<T>(e).map(|c| c.val()))
}

/// Checks one `ComponentInfo` against the model's registration order.
fn check_info(model: &Model, info: &ComponentInfo) -> &'static str {
    let w = model.order[info.id().index()];
    assert_eq!(info.name(), w.short_name(), "ComponentInfo::name");
    assert_eq!(info.type_name(), w.type_name(), "ComponentInfo::type_name");
    assert_eq!(info.size(), w.size(), "ComponentInfo::size");
    w.short_name()
}

fn info_names<'a>(
    model: &Model,
    infos: impl Iterator<Item = &'a ComponentInfo>,
) -> Vec<&'static str> {
    infos.map(|info| check_info(model, info)).collect()
}

/// An entity error names the entity, in `Debug` form, in its message.
fn check_error_text(err: &Error, e: Entity) {
    let text = err.to_string();
    match err {
        Error::NoMatch { .. } | Error::MultipleMatches { .. } => assert!(err.entity().is_none()),
        _ => {
            assert_eq!(err.entity(), Some(e), "Error::entity of {err:?}");
            assert!(
                text.starts_with(&format!("entity {e:?} ")),
                "message {text:?} should name {e:?}"
            );
        }
    }
}

/// `Entity::from_bits` accepts exactly the non-zero versions and round-trips.
pub fn check_bits(bits: u64) -> Option<Entity> {
    let e = Entity::from_bits(bits);
    assert_eq!(e.is_none(), bits >> 32 == 0, "from_bits({bits:#x})");
    let e = e?;
    assert_eq!(e.to_bits(), bits);
    assert_eq!(e.index(), bits as u32);
    assert_eq!(u64::from(e.version()), bits >> 32);
    let shown = format!("{}v{}", bits as u32, bits >> 32);
    assert_eq!(format!("{e:?}"), shown);
    assert_eq!(format!("{e}"), shown);
    Some(e)
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/// One flattened value of a query item.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Val {
    /// An `Entity` fetch.
    E(Entity),
    /// A component (or a tag).
    V(Value),
    /// An `Option` fetch that found nothing.
    Absent,
}

fn v<T: Comp>(c: &T) -> Val {
    Val::V(c.val())
}

fn opt<T: Comp>(c: Option<&T>) -> Val {
    c.map_or(Val::Absent, v)
}

fn m_opt(value: Option<Value>) -> Val {
    value.map_or(Val::Absent, Val::V)
}

/// One query type the decoder can build, with its model.
trait Shape {
    type Q: QueryData;
    type F: QueryFilter;
    /// Builds the query (through `query`, `query_filtered`, or narrowing).
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F>;
    /// Flattens a read-only item.
    fn ro(item: ReadOnlyItem<'_, Self::Q>) -> Vec<Val>;
    /// Applies `k` through a full item's `&mut` parts, then flattens it.
    fn rw(item: QueryItem<'_, Self::Q>, k: u8) -> Vec<Val>;
    /// Whether a live entity with these components matches.
    fn matches(m: &Ent) -> bool;
    /// The flattened item the model expects for a matching entity.
    fn expect(e: Entity, m: &Ent) -> Vec<Val>;
    /// What `rw` does, applied to the model.
    fn bump(m: &mut Ent, k: u8);
    /// The error `get` gives for a live entity that does not match: the filter's first, then
    /// the fetch's first missing component.
    fn error(e: Entity, m: &Ent) -> Error;
    /// `par_for_each` applying [`rw`](Self::rw) to every match; the rows it saw.
    fn par(world: &mut World, k: u8) -> Vec<Vec<Val>>;
}

/// Implements [`Shape::par`] in each impl, where the query's concrete types meet the bounds of
/// `par_for_each`.
/// Without the `parallel` feature there is no `par_for_each`; the same check then
/// runs through `for_each`, so the harness still builds and covers everything else.
macro_rules! par_impl {
    () => {
        #[cfg(feature = "parallel")]
        fn par(world: &mut World, k: u8) -> Vec<Vec<Val>> {
            let rows = Mutex::new(Vec::new());
            Self::build(world).par_for_each(|item| {
                let row = Self::rw(item, k);
                rows.lock().expect("no panic while locked").push(row);
            });
            rows.into_inner().expect("no panic while locked")
        }

        #[cfg(not(feature = "parallel"))]
        fn par(world: &mut World, k: u8) -> Vec<Vec<Val>> {
            let mut rows = Vec::new();
            Self::build(world).for_each(|item| rows.push(Self::rw(item, k)));
            rows
        }
    };
}

/// A derived query: an entity, a write, two optional reads.
#[derive(Query)]
struct View<'w> {
    entity: Entity,
    pos: &'w mut Pos,
    name: Option<&'w Name>,
    tracked: Option<&'w Tracked>,
}

/// `&Pos`
struct S0;
impl Shape for S0 {
    type Q = &'static Pos;
    type F = ();
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query()
    }
    fn ro(p: &Pos) -> Vec<Val> {
        vec![v(p)]
    }
    fn rw(p: &Pos, _: u8) -> Vec<Val> {
        vec![v(p)]
    }
    fn matches(m: &Ent) -> bool {
        m.has(Which::Pos)
    }
    fn expect(_: Entity, m: &Ent) -> Vec<Val> {
        vec![m_opt(m.get(Which::Pos))]
    }
    fn bump(_: &mut Ent, _: u8) {}
    fn error(e: Entity, _: &Ent) -> Error {
        missing_t::<Pos>(e)
    }
}

/// `(Entity, &mut Pos, Option<&Name>)`
struct S1;
impl Shape for S1 {
    type Q = (Entity, &'static mut Pos, Option<&'static Name>);
    type F = ();
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query()
    }
    fn ro((e, p, n): (Entity, &Pos, Option<&Name>)) -> Vec<Val> {
        vec![Val::E(e), v(p), opt(n)]
    }
    fn rw((e, p, n): (Entity, &mut Pos, Option<&Name>), k: u8) -> Vec<Val> {
        p.bump(k);
        vec![Val::E(e), v(p), opt(n)]
    }
    fn matches(m: &Ent) -> bool {
        m.has(Which::Pos)
    }
    fn expect(e: Entity, m: &Ent) -> Vec<Val> {
        vec![
            Val::E(e),
            m_opt(m.get(Which::Pos)),
            m_opt(m.get(Which::Name)),
        ]
    }
    fn bump(m: &mut Ent, k: u8) {
        m.pos.as_mut().expect("matched").bump(k);
    }
    fn error(e: Entity, _: &Ent) -> Error {
        missing_t::<Pos>(e)
    }
}

/// `(&mut Name, &Items)` filtered `Without<Tag>`
struct S2;
impl Shape for S2 {
    type Q = (&'static mut Name, &'static Items);
    type F = Without<Tag>;
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query_filtered()
    }
    fn ro((n, i): (&Name, &Items)) -> Vec<Val> {
        vec![v(n), v(i)]
    }
    fn rw((n, i): (&mut Name, &Items), k: u8) -> Vec<Val> {
        n.bump(k);
        vec![v(n), v(i)]
    }
    fn matches(m: &Ent) -> bool {
        !m.tag && m.name.is_some() && m.items.is_some()
    }
    fn expect(_: Entity, m: &Ent) -> Vec<Val> {
        vec![m_opt(m.get(Which::Name)), m_opt(m.get(Which::Items))]
    }
    fn bump(m: &mut Ent, k: u8) {
        m.name.as_mut().expect("matched").push(bump_char(k));
    }
    fn error(e: Entity, m: &Ent) -> Error {
        if m.tag {
            excluded_t::<Tag>(e)
        } else if m.name.is_none() {
            missing_t::<Name>(e)
        } else {
            missing_t::<Items>(e)
        }
    }
}

/// `Entity` narrowed with `.filter::<Or<(With<Tag>, With<Items>)>>()`
struct S3;
type TagOrItems = Or<(With<Tag>, With<Items>)>;
impl Shape for S3 {
    type Q = Entity;
    type F = ((), TagOrItems);
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query().filter::<TagOrItems>()
    }
    fn ro(e: Entity) -> Vec<Val> {
        vec![Val::E(e)]
    }
    fn rw(e: Entity, _: u8) -> Vec<Val> {
        vec![Val::E(e)]
    }
    fn matches(m: &Ent) -> bool {
        m.tag || m.items.is_some()
    }
    fn expect(e: Entity, _: &Ent) -> Vec<Val> {
        vec![Val::E(e)]
    }
    fn bump(_: &mut Ent, _: u8) {}
    fn error(e: Entity, _: &Ent) -> Error {
        Error::FilteredOut {
            entity: e,
            filter: type_name::<TagOrItems>(),
        }
    }
}

/// `(Option<&mut Pos>, &Tag)` narrowed with `.without::<Name>()`
struct S4;
impl Shape for S4 {
    type Q = (Option<&'static mut Pos>, &'static Tag);
    type F = ((), Without<Name>);
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query().without::<Name>()
    }
    fn ro((p, t): (Option<&Pos>, &Tag)) -> Vec<Val> {
        vec![opt(p), v(t)]
    }
    fn rw((p, t): (Option<&mut Pos>, &Tag), k: u8) -> Vec<Val> {
        let p = p.map(|p| {
            p.bump(k);
            &*p
        });
        vec![opt(p), v(t)]
    }
    fn matches(m: &Ent) -> bool {
        m.tag && m.name.is_none()
    }
    fn expect(_: Entity, m: &Ent) -> Vec<Val> {
        vec![m_opt(m.get(Which::Pos)), Val::V(Value::Tag)]
    }
    fn bump(m: &mut Ent, k: u8) {
        if let Some(p) = m.pos.as_mut() {
            p.bump(k);
        }
    }
    fn error(e: Entity, m: &Ent) -> Error {
        if m.name.is_some() {
            excluded_t::<Name>(e)
        } else {
            missing_t::<Tag>(e)
        }
    }
}

/// `(&Tracked, Option<&mut Items>)` filtered `With<Pos>`
struct S5;
impl Shape for S5 {
    type Q = (&'static Tracked, Option<&'static mut Items>);
    type F = With<Pos>;
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query_filtered()
    }
    fn ro((t, i): (&Tracked, Option<&Items>)) -> Vec<Val> {
        vec![v(t), opt(i)]
    }
    fn rw((t, i): (&Tracked, Option<&mut Items>), k: u8) -> Vec<Val> {
        let i = i.map(|i| {
            i.bump(k);
            &*i
        });
        vec![v(t), opt(i)]
    }
    fn matches(m: &Ent) -> bool {
        m.pos.is_some() && m.tracked.is_some()
    }
    fn expect(_: Entity, m: &Ent) -> Vec<Val> {
        vec![m_opt(m.get(Which::Tracked)), m_opt(m.get(Which::Items))]
    }
    fn bump(m: &mut Ent, k: u8) {
        if let Some(i) = m.items.as_mut() {
            i.push(u16::from(k));
        }
    }
    fn error(e: Entity, m: &Ent) -> Error {
        if m.pos.is_none() {
            missing_t::<Pos>(e)
        } else {
            missing_t::<Tracked>(e)
        }
    }
}

/// The derived [`View`] narrowed with `.filter::<Or<(With<Tag>, Without<Items>)>>()`
struct S6;
type TagOrNoItems = Or<(With<Tag>, Without<Items>)>;
impl Shape for S6 {
    type Q = View<'static>;
    type F = ((), TagOrNoItems);
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query().filter::<TagOrNoItems>()
    }
    fn ro(item: ViewReadOnly<'_>) -> Vec<Val> {
        vec![
            Val::E(item.entity),
            v(item.pos),
            opt(item.name),
            opt(item.tracked),
        ]
    }
    fn rw(item: View<'_>, k: u8) -> Vec<Val> {
        item.pos.bump(k);
        vec![
            Val::E(item.entity),
            v(item.pos),
            opt(item.name),
            opt(item.tracked),
        ]
    }
    fn matches(m: &Ent) -> bool {
        (m.tag || m.items.is_none()) && m.pos.is_some()
    }
    fn expect(e: Entity, m: &Ent) -> Vec<Val> {
        vec![
            Val::E(e),
            m_opt(m.get(Which::Pos)),
            m_opt(m.get(Which::Name)),
            m_opt(m.get(Which::Tracked)),
        ]
    }
    fn bump(m: &mut Ent, k: u8) {
        m.pos.as_mut().expect("matched").bump(k);
    }
    fn error(e: Entity, m: &Ent) -> Error {
        if !(m.tag || m.items.is_none()) {
            Error::FilteredOut {
                entity: e,
                filter: type_name::<TagOrNoItems>(),
            }
        } else {
            missing_t::<Pos>(e)
        }
    }
}

/// `Option<&Tag>`: requires no storage, so it walks every live entity.
struct S7;
impl Shape for S7 {
    type Q = Option<&'static Tag>;
    type F = ();
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query()
    }
    fn ro(t: Option<&Tag>) -> Vec<Val> {
        vec![opt(t)]
    }
    fn rw(t: Option<&Tag>, _: u8) -> Vec<Val> {
        vec![opt(t)]
    }
    fn matches(_: &Ent) -> bool {
        true
    }
    fn expect(_: Entity, m: &Ent) -> Vec<Val> {
        vec![m_opt(m.get(Which::Tag))]
    }
    fn bump(_: &mut Ent, _: u8) {}
    fn error(_: Entity, _: &Ent) -> Error {
        unreachable!("every live entity matches Option<&Tag>")
    }
}

/// `(Entity, &mut Tracked)` filtered `(With<Name>, Without<Pos>)`
struct S8;
impl Shape for S8 {
    type Q = (Entity, &'static mut Tracked);
    type F = (With<Name>, Without<Pos>);
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query_filtered()
    }
    fn ro((e, t): (Entity, &Tracked)) -> Vec<Val> {
        vec![Val::E(e), v(t)]
    }
    fn rw((e, t): (Entity, &mut Tracked), k: u8) -> Vec<Val> {
        t.bump(k);
        vec![Val::E(e), v(t)]
    }
    fn matches(m: &Ent) -> bool {
        m.name.is_some() && m.pos.is_none() && m.tracked.is_some()
    }
    fn expect(e: Entity, m: &Ent) -> Vec<Val> {
        vec![Val::E(e), m_opt(m.get(Which::Tracked))]
    }
    fn bump(m: &mut Ent, k: u8) {
        let t = m.tracked.as_mut().expect("matched");
        *t = t.wrapping_add(u32::from(k));
    }
    fn error(e: Entity, m: &Ent) -> Error {
        if m.name.is_none() {
            missing_t::<Name>(e)
        } else if m.pos.is_some() {
            excluded_t::<Pos>(e)
        } else {
            missing_t::<Tracked>(e)
        }
    }
}

/// `(&Items, &Name, &Pos, Entity)`: three required storages, zipped where they line up.
struct S9;
impl Shape for S9 {
    type Q = (&'static Items, &'static Name, &'static Pos, Entity);
    type F = ();
    par_impl!();
    fn build(world: &mut World) -> Query<'_, Self::Q, Self::F> {
        world.query()
    }
    fn ro((i, n, p, e): (&Items, &Name, &Pos, Entity)) -> Vec<Val> {
        vec![v(i), v(n), v(p), Val::E(e)]
    }
    fn rw(item: (&Items, &Name, &Pos, Entity), _: u8) -> Vec<Val> {
        Self::ro(item)
    }
    fn matches(m: &Ent) -> bool {
        m.items.is_some() && m.name.is_some() && m.pos.is_some()
    }
    fn expect(e: Entity, m: &Ent) -> Vec<Val> {
        vec![
            m_opt(m.get(Which::Items)),
            m_opt(m.get(Which::Name)),
            m_opt(m.get(Which::Pos)),
            Val::E(e),
        ]
    }
    fn bump(_: &mut Ent, _: u8) {}
    fn error(e: Entity, m: &Ent) -> Error {
        if m.items.is_none() {
            missing_t::<Items>(e)
        } else if m.name.is_none() {
            missing_t::<Name>(e)
        } else {
            missing_t::<Pos>(e)
        }
    }
}

/// Number of query shapes.
pub const SHAPES: u8 = 10;
/// Number of query methods.
pub const METHODS: u8 = 15;

// ---------------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------------

/// A world, its model, and the bookkeeping of one run.
pub struct Harness {
    world: World,
    model: Model,
    /// Whether the one page-crossing batch of this run was spawned.
    big_done: bool,
    /// `tracked_live()` when the harness was made: the world's values count from here.
    tracked_base: i64,
    /// How often each kind of op ran, by the status of its target, when recording (see
    /// [`Harness::coverage`]; off by default: it formats strings on every op).
    coverage: Option<BTreeMap<String, usize>>,
}

impl Default for Harness {
    fn default() -> Self {
        Self::new()
    }
}

impl Harness {
    /// An empty world and model.
    pub fn new() -> Self {
        Harness {
            world: World::new(),
            model: Model::default(),
            big_done: false,
            tracked_base: tracked_live(),
            coverage: None,
        }
    }

    /// An empty world and model that records [`coverage`](Self::coverage).
    pub fn with_coverage() -> Self {
        Harness {
            coverage: Some(BTreeMap::new()),
            ..Harness::new()
        }
    }

    /// How often each kind of op ran, keyed `kind/status` (`status` being the target's
    /// `Alive` / `Despawned` / `NeverSpawned`, or `-`), plus `query{shape}.{method}/rows` when a
    /// query matched something and `batch/big` for the page-crossing batch.
    pub fn coverage(&self) -> &BTreeMap<String, usize> {
        self.coverage
            .as_ref()
            .expect("made by Harness::with_coverage")
    }

    /// Records what `op` is about to exercise.
    fn note(&mut self, op: &Op) {
        if self.coverage.is_none() {
            return;
        }
        let target = match op {
            Op::Despawn(t)
            | Op::Insert(t, _)
            | Op::InsertBundle(t, _)
            | Op::Remove(t, _)
            | Op::Get(t, _)
            | Op::GetMut(t, _, _)
            | Op::Contains(t, _)
            | Op::IsAlive(t)
            | Op::EntityRef(t)
            | Op::EntityMut(t, _)
            | Op::ComponentsOf(t)
            | Op::Probe(t)
            | Op::Query { target: t, .. } => Some(t.resolve(&self.model)),
            Op::Bits(bits) => Entity::from_bits(*bits),
            _ => None,
        };
        let kind = format!("{op:?}");
        let kind = kind.split(['(', ' ']).next().unwrap_or_default();
        let status = target.map_or("-".to_owned(), |e| format!("{:?}", self.model.status(e)));
        let mut keys = vec![format!("{kind}/{status}")];
        if let Op::Query { shape, method, .. } = op {
            let (shape, method) = (shape % SHAPES, method % METHODS);
            let matched = with_shape(shape, |rows| rows(&self.model).len());
            if matched > 0 {
                keys.push(format!("query{shape}.{method}/rows"));
            }
        }
        if let Op::Slices(n, _) = op
            && n % SLICES != 6
            && self.model.grouped(slice_types(*n))
        {
            keys.push(format!("slices{}/ok", n % SLICES));
        }
        if let (Op::SpawnBatch(_, 255, _), false) = (op, self.big_done) {
            keys.push("batch/big".to_owned());
        }
        if let Op::EntityMut(_, handle_ops) = op {
            for hop in handle_ops {
                let name = format!("{hop:?}");
                keys.push(format!(
                    "handle.{}",
                    name.split('(').next().unwrap_or_default()
                ));
            }
        }
        let coverage = self.coverage.as_mut().expect("checked above");
        for key in keys {
            *coverage.entry(key).or_default() += 1;
        }
    }

    /// The world, for tests that change it behind the model's back (to prove the checks fail).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Number of allocator slots.
    pub fn slot_count(&self) -> u32 {
        self.model.slot_count()
    }

    /// The version of slot `index`, if it exists.
    pub fn slot_version(&self, index: u32) -> Option<u32> {
        self.model.slots.get(index as usize).map(|s| s.0)
    }

    /// Runs one op and checks its answers against the model.
    pub fn apply(&mut self, op: &Op) {
        let Harness {
            world,
            model,
            big_done,
            ..
        } = self;
        match op {
            Op::Spawn(spec) => {
                let id = build(spec, SpawnOne(world));
                model.register(&spec.order());
                assert_eq!(id, model.spawn(spec.at(0)), "spawned id");
            }
            Op::SpawnBatch(spec, n, hint) => {
                let n = if *n == 255 && !*big_done {
                    *big_done = true;
                    BIG_BATCH
                } else {
                    u32::from(*n % 12)
                };
                let ids = build(
                    spec,
                    SpawnMany {
                        world,
                        n,
                        hint: *hint,
                    },
                );
                model.register(&spec.order());
                let expected: Vec<Entity> = (0..n).map(|i| model.spawn(spec.at(i))).collect();
                assert_eq!(ids, expected, "spawn_batch ids");
            }
            Op::Despawn(t) => {
                let e = t.resolve(model);
                assert_eq!(world.despawn(e), model.check(e), "despawn({e:?})");
                if model.status(e) == Status::Alive {
                    model.despawn(e);
                }
            }
            Op::Insert(t, value) => {
                let e = t.resolve(model);
                let got = world_insert(world, e, value);
                let expected = model.check(e).map(|()| {
                    model.register(&[value.which()]);
                    model.write(e, value.which());
                    model.ent_mut(e).set(value.clone())
                });
                assert_eq!(got, expected, "insert({e:?}, {value:?})");
            }
            Op::InsertBundle(t, spec) => {
                let e = t.resolve(model);
                let got = build(spec, InsertBundle { world, entity: e });
                let expected = model.check(e);
                if expected.is_ok() {
                    model.register(&spec.order());
                    let values = spec.at(0);
                    for w in ALL {
                        if let Some(value) = values.get(w) {
                            model.write(e, w);
                            model.ent_mut(e).set(value);
                        }
                    }
                }
                assert_eq!(got, expected, "insert_bundle({e:?})");
            }
            Op::Remove(t, w) => {
                let e = t.resolve(model);
                let got = world_remove(world, e, *w);
                let expected = model.lookup(e, *w);
                if expected.is_ok() {
                    model.ent_mut(e).take(*w);
                }
                assert_eq!(got, expected, "remove::<{w:?}>({e:?})");
            }
            Op::Get(t, w) => {
                let e = t.resolve(model);
                assert_eq!(
                    world_get(world, e, *w),
                    model.lookup(e, *w),
                    "get::<{w:?}>({e:?})"
                );
            }
            Op::GetMut(t, w, k) => {
                let e = t.resolve(model);
                let got = world_get_mut(world, e, *w, *k);
                let expected = model.lookup(e, *w).map(|mut value| {
                    value.bump(*k);
                    model.ent_mut(e).set(value.clone());
                    value
                });
                assert_eq!(got, expected, "get_mut::<{w:?}>({e:?})");
            }
            Op::Contains(t, w) => {
                let e = t.resolve(model);
                assert_eq!(
                    world_contains(world, e, *w),
                    model.lookup(e, *w).is_ok(),
                    "contains::<{w:?}>({e:?})"
                );
            }
            Op::IsAlive(t) => {
                let e = t.resolve(model);
                assert_eq!(
                    world.is_alive(e),
                    model.status(e) == Status::Alive,
                    "is_alive({e:?})"
                );
            }
            Op::EntityRef(t) => {
                let e = t.resolve(model);
                check_entity_ref(world, model, e);
            }
            Op::EntityMut(t, handle_ops) => {
                let e = t.resolve(model);
                run_entity_mut(world, model, e, handle_ops);
            }
            Op::ComponentsOf(t) => {
                let e = t.resolve(model);
                let got = world.components_of(e).map(|infos| info_names(model, infos));
                assert_eq!(
                    got,
                    model.check(e).map(|()| model.names(e)),
                    "components_of({e:?})"
                );
            }
            Op::Clear => {
                world.clear();
                model.clear();
            }
            Op::Query {
                shape,
                method,
                target,
                k,
            } => {
                let e = target.resolve(model);
                run_shape(world, model, *shape, *method, e, *k);
            }
            Op::Bits(bits) => {
                if let Some(e) = check_bits(*bits) {
                    self.probe(e);
                }
            }
            Op::Probe(t) => {
                let e = t.resolve(&self.model);
                self.probe(e);
            }
            Op::Group(g) => {
                let (got, name, order) = declare_group(world, *g);
                assert_eq!(got, model.group(name, &order), "group {name}");
            }
            Op::Slices(n, k) => run_slices(world, model, *n, *k),
            Op::Stats => {}
        }
    }

    /// Every entity API on `e`: reads always; when `e` is not alive, every mutator too, which
    /// must fail with the liveness error and change nothing (stats, drop counts).
    pub fn probe(&mut self, e: Entity) {
        let Harness { world, model, .. } = self;
        let dead = model.check(e).err();
        assert_eq!(world.is_alive(e), dead.is_none(), "is_alive({e:?})");
        for w in ALL {
            let expected = model.lookup(e, w);
            if let Err(err) = &expected {
                check_error_text(err, e);
            }
            assert_eq!(world_get(world, e, w), expected, "get::<{w:?}>({e:?})");
            assert_eq!(
                world_contains(world, e, w),
                expected.is_ok(),
                "contains::<{w:?}>({e:?})"
            );
            // k = 0 leaves every type but Name and Items unchanged; mirror it.
            let got = world_get_mut(world, e, w, 0);
            let expected = expected.map(|mut value| {
                value.bump(0);
                model.ent_mut(e).set(value.clone());
                value
            });
            assert_eq!(got, expected, "get_mut::<{w:?}>({e:?})");
        }
        let got = world.components_of(e).map(|infos| info_names(model, infos));
        assert_eq!(
            got,
            model.check(e).map(|()| model.names(e)),
            "components_of({e:?})"
        );
        check_entity_ref(world, model, e);
        run_entity_mut(world, model, e, &[HandleOp::Components]);
        run_shape(world, model, 1, 5, e, 0); // get
        run_shape(world, model, 3, 9, e, 0); // contains
        run_shape(world, model, 7, 5, e, 0); // get, no required storage
        run_shape(world, model, 6, 13, e, 0); // query_ref get
        run_shape(world, model, 8, 6, e, 1); // get_mut

        if let Some(err) = dead {
            let stats = world.stats();
            let tracked = tracked_live();
            assert_eq!(world.despawn(e), Err(err.clone()), "despawn({e:?})");
            for w in ALL {
                let value = match w {
                    Which::Pos => Value::Pos(Pos(1, 2)),
                    Which::Name => Value::Name("x".into()),
                    Which::Items => Value::Items(vec![1]),
                    Which::Tag => Value::Tag,
                    Which::Tracked => Value::Tracked(9),
                };
                assert_eq!(
                    world_insert(world, e, &value),
                    Err(err.clone()),
                    "insert({e:?})"
                );
                assert_eq!(world_remove(world, e, w), Err(err.clone()), "remove({e:?})");
            }
            let bundle = (Pos(3, 4), Tracked::new(5), (Tag, Name("y".into())));
            assert_eq!(world.insert_bundle(e, bundle), Err(err.clone()));
            assert_eq!(world.entity_mut(e).map(|h| h.id()), Err(err.clone()));
            assert_eq!(world.entity(e).map(|h| h.id()), Err(err));
            assert_eq!(
                world.stats(),
                stats,
                "a failed call on {e:?} changed the world"
            );
            assert_eq!(
                tracked_live(),
                tracked,
                "a rejected Tracked was not dropped exactly once"
            );
        }
    }

    /// Compares `World::stats` and the drop count of `Tracked` with the model.
    pub fn check_stats(&self) {
        let Harness {
            world,
            model,
            tracked_base,
            ..
        } = self;
        let s: WorldStats = world.stats();
        assert_eq!(s.live_entities, model.live.len(), "stats.live_entities");
        assert_eq!(s.entity_slots, model.slots.len(), "stats.entity_slots");
        assert_eq!(s.free_slots, model.free.len(), "stats.free_slots");
        let retired = model
            .slots
            .iter()
            .filter(|&&(v, alive)| !alive && v == u32::MAX)
            .count();
        assert_eq!(s.retired_slots, retired, "stats.retired_slots");
        assert_eq!(
            s.live_entities + s.free_slots + s.retired_slots,
            s.entity_slots,
            "stats: live + free + retired == slots"
        );
        assert_eq!(
            s.component_types,
            model.order.len(),
            "stats.component_types"
        );
        let per_type: Vec<usize> = ALL
            .iter()
            .map(|&w| model.live.values().filter(|m| m.has(w)).count())
            .collect();
        assert_eq!(
            s.components,
            per_type.iter().sum::<usize>(),
            "stats.components"
        );
        assert_eq!(s.sparse_pages, model.pages.len(), "stats.sparse_pages");
        // Capacity is at least length: slots (8 bytes), free list (4), pages (32 KiB), and per
        // type the dense entity ids (8) and values.
        let floor = model.slots.len() * 8
            + model.free.len() * 4
            + model.pages.len() * 4096 * 8
            + ALL
                .iter()
                .zip(&per_type)
                .map(|(w, n)| n * (8 + w.size()))
                .sum::<usize>();
        assert!(
            s.heap_bytes >= floor,
            "stats.heap_bytes {} < {floor}",
            s.heap_bytes
        );
        assert_eq!(world.len(), model.live.len(), "len");
        assert_eq!(world.is_empty(), model.live.is_empty(), "is_empty");
        assert_eq!(
            tracked_live() - tracked_base,
            model.tracked_count(),
            "live Tracked values vs the model"
        );
    }

    /// Compares everything observable with the model: every live entity's components and
    /// component list, the recent dead ids, the next id.
    pub fn check_all(&mut self) {
        let Harness { world, model, .. } = self;
        for (&e, m) in &model.live {
            assert!(world.is_alive(e), "{e:?} should be alive");
            for w in ALL {
                assert_eq!(
                    world_get(world, e, w),
                    model.lookup(e, w),
                    "get::<{w:?}>({e:?})"
                );
                assert_eq!(
                    world_contains(world, e, w),
                    m.has(w),
                    "contains::<{w:?}>({e:?})"
                );
            }
            let names = info_names(model, world.components_of(e).expect("alive"));
            assert_eq!(names, model.names(e), "components_of({e:?})");
        }
        for &e in &model.dead {
            if model.status(e) != Status::Alive {
                assert!(!world.is_alive(e), "dead {e:?} is alive");
                assert_eq!(world.get::<Pos>(e), Err(Error::Despawned { entity: e }));
                assert!(!world.contains::<Tag>(e));
            }
        }
        let next = model.peek_next();
        assert_eq!(
            world.get::<Tag>(next),
            Err(Error::NeverSpawned { entity: next }),
            "next id"
        );
        // Group invariant: each group's packed prefix is exactly its full holders, row-aligned.
        for n in 0..SLICES {
            if model.grouped(slice_types(n)) {
                run_slices(world, model, n, 0);
            }
        }
        // Per-type counts through the query path too.
        for (w, n) in ALL
            .iter()
            .map(|&w| (w, model.live.values().filter(|m| m.has(w)).count()))
        {
            let got = with_type!(w, T => world.query_ref::<Entity>().with::<T>().iter().count());
            assert_eq!(got, n, "entities with {w:?}");
        }
    }

    /// Runs `ops`, checking after each one; any panic is reported with its step and resumed.
    pub fn run(&mut self, ops: &[Op]) {
        for (step, op) in ops.iter().enumerate() {
            let result = catch_unwind(AssertUnwindSafe(|| {
                self.note(op);
                self.apply(op);
                self.check_stats();
                if self.model.live.len() <= FULL_CHECK_LIVE || step % FULL_CHECK_EVERY == 0 {
                    self.check_all();
                }
            }));
            if let Err(payload) = result {
                eprintln!("fuzz: step {step} of {} failed: {op:?}", ops.len());
                resume_unwind(payload);
            }
        }
        self.check_all();
    }
}

fn check_entity_ref(world: &World, model: &Model, e: Entity) {
    match world.entity(e) {
        Err(err) => assert_eq!(Err(err), model.check(e), "entity({e:?})"),
        Ok(r) => {
            assert_eq!(model.check(e), Ok(()), "entity({e:?}) should fail");
            assert_eq!(r.id(), e);
            for w in ALL {
                let got = with_type!(w, T => r.get::<T>().map(Comp::val));
                assert_eq!(got, model.lookup(e, w), "EntityRef::get::<{w:?}>({e:?})");
                let has = with_type!(w, T => r.contains::<T>());
                assert_eq!(has, model.live[&e].has(w), "EntityRef::contains::<{w:?}>");
            }
            assert_eq!(info_names(model, r.components()), model.names(e));
        }
    }
}

fn run_entity_mut(world: &mut World, model: &mut Model, e: Entity, handle_ops: &[HandleOp]) {
    let mut handle = match world.entity_mut(e) {
        Err(err) => {
            assert_eq!(Err(err), model.check(e), "entity_mut({e:?})");
            return;
        }
        Ok(handle) => handle,
    };
    assert_eq!(model.check(e), Ok(()), "entity_mut({e:?}) should fail");
    assert_eq!(handle.id(), e);
    for hop in handle_ops {
        match hop {
            HandleOp::Get(w) => {
                let got = with_type!(*w, T => handle.get::<T>().map(Comp::val));
                assert_eq!(got, model.lookup(e, *w), "EntityMut::get::<{w:?}>");
            }
            HandleOp::GetMut(w, k) => {
                let got = with_type!(*w, T => handle.get_mut::<T>().map(|c| {
                    c.bump(*k);
                    c.val()
                }));
                let expected = model.lookup(e, *w).map(|mut value| {
                    value.bump(*k);
                    model.ent_mut(e).set(value.clone());
                    value
                });
                assert_eq!(got, expected, "EntityMut::get_mut::<{w:?}>");
            }
            HandleOp::Contains(w) => {
                let has = with_type!(*w, T => handle.contains::<T>());
                assert_eq!(has, model.live[&e].has(*w), "EntityMut::contains::<{w:?}>");
            }
            HandleOp::Insert(value) => {
                let got =
                    with_type!(value.which(), T => handle.insert(T::make(value)).map(|c| c.val()));
                model.register(&[value.which()]);
                model.write(e, value.which());
                assert_eq!(
                    got,
                    model.ent_mut(e).set(value.clone()),
                    "EntityMut::insert"
                );
            }
            HandleOp::InsertBundle(spec) => {
                build(spec, HandleInsertBundle(&mut handle));
                model.register(&spec.order());
                let values = spec.at(0);
                for w in ALL {
                    if let Some(value) = values.get(w) {
                        model.write(e, w);
                        model.ent_mut(e).set(value);
                    }
                }
            }
            HandleOp::Remove(w) => {
                let got = with_type!(*w, T => handle.remove::<T>().map(|c| c.val()));
                let expected = model.lookup(e, *w);
                if expected.is_ok() {
                    model.ent_mut(e).take(*w);
                }
                assert_eq!(got, expected, "EntityMut::remove::<{w:?}>");
            }
            HandleOp::Components => {
                assert_eq!(info_names(model, handle.components()), model.names(e));
            }
            HandleOp::AsRef => {
                let r = handle.as_ref();
                assert_eq!(r.id(), e);
                for w in ALL {
                    let got = with_type!(w, T => r.get::<T>().map(Comp::val));
                    assert_eq!(got, model.lookup(e, w), "as_ref().get::<{w:?}>");
                }
                assert_eq!(info_names(model, r.components()), model.names(e));
            }
            HandleOp::Despawn => {
                handle.despawn();
                model.despawn(e);
                return;
            }
        }
    }
}

fn run_shape(world: &mut World, model: &mut Model, shape: u8, method: u8, e: Entity, k: u8) {
    match shape % SHAPES {
        0 => run_query::<S0>(world, model, method, e, k),
        1 => run_query::<S1>(world, model, method, e, k),
        2 => run_query::<S2>(world, model, method, e, k),
        3 => run_query::<S3>(world, model, method, e, k),
        4 => run_query::<S4>(world, model, method, e, k),
        5 => run_query::<S5>(world, model, method, e, k),
        6 => run_query::<S6>(world, model, method, e, k),
        7 => run_query::<S7>(world, model, method, e, k),
        8 => run_query::<S8>(world, model, method, e, k),
        _ => run_query::<S9>(world, model, method, e, k),
    }
}

/// Calls `f` with the model's row function of shape `shape`.
fn with_shape<R>(shape: u8, f: impl FnOnce(fn(&Model) -> Vec<Vec<Val>>) -> R) -> R {
    match shape % SHAPES {
        0 => f(rows::<S0>),
        1 => f(rows::<S1>),
        2 => f(rows::<S2>),
        3 => f(rows::<S3>),
        4 => f(rows::<S4>),
        5 => f(rows::<S5>),
        6 => f(rows::<S6>),
        7 => f(rows::<S7>),
        8 => f(rows::<S8>),
        _ => f(rows::<S9>),
    }
}

/// Number of group shapes the decoder declares.
pub const GROUPS: u8 = 8;

/// Declares group shape `g % GROUPS`; returns the answer, the group's type name and its types
/// in write order.
fn declare_group(world: &mut World, g: u8) -> (Result<(), Error>, &'static str, Vec<Which>) {
    use Which::{Items as I, Name as N, Pos as P, Tag as T, Tracked as K};
    macro_rules! declare {
        ($G:ty, $order:expr) => {
            (world.group::<$G>(), type_name::<$G>(), $order.to_vec())
        };
    }
    match g % GROUPS {
        0 => declare!((Pos, Items), [P, I]),
        1 => declare!((Items, Pos), [I, P]),
        2 => declare!((Name, Tag), [N, T]),
        3 => declare!((Pos, Tracked, Tag), [P, K, T]),
        4 => declare!((Pos,), [P]),
        5 => declare!((Tag, Tag), [T, T]),
        6 => declare!((Tracked, Name), [K, N]),
        _ => declare!(((Pos,), (Items, Pos)), [P, I, P]),
    }
}

/// Number of slice shapes.
pub const SLICES: u8 = 7;

/// The component types of slice shape `n`: `Query::slices` succeeds iff a group owns exactly
/// these (and the query has no filter).
fn slice_types(n: u8) -> &'static [Which] {
    use Which::{Items as I, Name as N, Pos as P, Tag as T, Tracked as K};
    match n % SLICES {
        0 | 1 | 6 => &[P, I],
        2 => &[N, T],
        3 => &[K, P, T],
        4 => &[K, N],
        _ => &[P],
    }
}

/// `Query::slices` of slice shape `n % SLICES`, bumping the `&mut` slice by `k`; the rows must be
/// the model's holders of the shape's types (row `i` of every slice one entity), or the error
/// `NotGrouped` when no group owns exactly those types or the query has a filter.
fn run_slices(world: &mut World, model: &mut Model, n: u8, k: u8) {
    let n = n % SLICES;
    let types = slice_types(n);
    let filtered = n == 6;
    let ok = !filtered && model.grouped(types);
    let (got, query): (Result<Vec<Vec<Val>>, Error>, &'static str) = match n {
        0 => {
            let mut q = world.query::<(&mut Pos, &Items)>();
            let got = q.slices().map(|(ps, is)| {
                assert_eq!(ps.len(), is.len(), "slice lengths");
                ps.iter_mut()
                    .zip(is.iter())
                    .map(|(p, i)| {
                        p.bump(k);
                        vec![v(&*p), v(i)]
                    })
                    .collect()
            });
            (got, type_name::<(&mut Pos, &Items)>())
        }
        1 => {
            let mut q = world.query::<(Entity, &Items, &Pos)>();
            let got = q.slices().map(|(es, is, ps)| {
                assert!(
                    es.len() == is.len() && is.len() == ps.len(),
                    "slice lengths"
                );
                es.iter()
                    .zip(is)
                    .zip(ps)
                    .map(|((&e, i), p)| vec![Val::E(e), v(i), v(p)])
                    .collect()
            });
            (got, type_name::<(Entity, &Items, &Pos)>())
        }
        2 => {
            let mut q = world.query::<(&Name, &mut Tag)>();
            let got = q.slices().map(|(ns, ts)| {
                assert_eq!(ns.len(), ts.len(), "slice lengths");
                ns.iter()
                    .zip(ts.iter())
                    .map(|(n, t)| vec![v(n), v(t)])
                    .collect()
            });
            (got, type_name::<(&Name, &mut Tag)>())
        }
        3 => {
            let mut q = world.query::<(&mut Tracked, &Pos, &Tag)>();
            let got = q.slices().map(|(ks, ps, ts)| {
                assert!(
                    ks.len() == ps.len() && ps.len() == ts.len(),
                    "slice lengths"
                );
                ks.iter_mut()
                    .zip(ps)
                    .map(|(t, p)| {
                        t.bump(k);
                        vec![v(&*t), v(p), Val::V(Value::Tag)]
                    })
                    .collect()
            });
            (got, type_name::<(&mut Tracked, &Pos, &Tag)>())
        }
        4 => {
            let mut q = world.query::<(&Tracked, &mut Name)>();
            let got = q.slices().map(|(ks, ns)| {
                assert_eq!(ks.len(), ns.len(), "slice lengths");
                ks.iter()
                    .zip(ns.iter_mut())
                    .map(|(t, name)| {
                        name.bump(k);
                        vec![v(t), v(&*name)]
                    })
                    .collect()
            });
            (got, type_name::<(&Tracked, &mut Name)>())
        }
        5 => {
            let mut q = world.query::<&Pos>();
            let got = q.slices().map(|ps| ps.iter().map(|p| vec![v(p)]).collect());
            (got, type_name::<&Pos>())
        }
        _ => {
            let mut q = world.query_filtered::<(&Pos, &Items), With<Tag>>();
            let got = q
                .slices()
                .map(|(ps, is)| ps.iter().zip(is).map(|(p, i)| vec![v(p), v(i)]).collect());
            (got, type_name::<(&Pos, &Items)>())
        }
    };
    let expected = if ok {
        let mut rows = Vec::new();
        for (&e, m) in &mut model.live {
            if !types.iter().all(|&w| m.has(w)) {
                continue;
            }
            match n {
                0 => m.pos.as_mut().expect("holds Pos").bump(k),
                3 => {
                    let t = m.tracked.as_mut().expect("holds Tracked");
                    *t = t.wrapping_add(u32::from(k));
                }
                4 => m.name.as_mut().expect("holds Name").push(bump_char(k)),
                _ => {}
            }
            let value = |w: Which| m_opt(m.get(w));
            let row = match n {
                0 => vec![value(Which::Pos), value(Which::Items)],
                1 => vec![Val::E(e), value(Which::Items), value(Which::Pos)],
                2 => vec![value(Which::Name), value(Which::Tag)],
                3 => vec![value(Which::Tracked), value(Which::Pos), value(Which::Tag)],
                _ => vec![value(Which::Tracked), value(Which::Name)],
            };
            rows.push(row);
        }
        rows.sort();
        Ok(rows)
    } else {
        Err(Error::NotGrouped { query })
    };
    assert_eq!(got.map(sorted), expected, "slices #{n}");
}

/// The model's rows for shape `S`, sorted.
fn rows<S: Shape>(model: &Model) -> Vec<Vec<Val>> {
    let mut rows: Vec<Vec<Val>> = model
        .live
        .iter()
        .filter(|(_, m)| S::matches(m))
        .map(|(&e, m)| S::expect(e, m))
        .collect();
    rows.sort();
    rows
}

fn bump_all<S: Shape>(model: &mut Model, k: u8) {
    for m in model.live.values_mut() {
        if S::matches(m) {
            S::bump(m, k);
        }
    }
}

/// What `get(e)` must answer.
fn expected_get<S: Shape>(model: &Model, e: Entity) -> Result<Vec<Val>, Error> {
    model.check(e)?;
    let m = &model.live[&e];
    if S::matches(m) {
        Ok(S::expect(e, m))
    } else {
        Err(S::error(e, m))
    }
}

fn expected_single(rows: &[Vec<Val>], query: &'static str) -> Result<Vec<Val>, Error> {
    match rows {
        [row] => Ok(row.clone()),
        [] => Err(Error::NoMatch { query }),
        _ => Err(Error::MultipleMatches { query }),
    }
}

fn sorted(mut rows: Vec<Vec<Val>>) -> Vec<Vec<Val>> {
    rows.sort();
    rows
}

/// Runs query method `method % METHODS` of shape `S` and compares it with the model.
fn run_query<S: Shape>(world: &mut World, model: &mut Model, method: u8, e: Entity, k: u8) {
    let before = rows::<S>(model);
    let name = type_name::<S::Q>();
    match method % METHODS {
        0 => {
            let q = S::build(world);
            assert_eq!(sorted(q.iter().map(S::ro).collect()), before, "iter");
            assert_eq!(q.iter().count(), before.len(), "count");
            assert_eq!(q.is_empty(), before.is_empty(), "is_empty");
            let (low, high) = q.iter().size_hint();
            assert!(
                low <= before.len() && high.is_none_or(|h| h >= before.len()),
                "size_hint"
            );
        }
        1 => {
            let mut q = S::build(world);
            let got = sorted(q.iter_mut().map(|item| S::rw(item, k)).collect());
            bump_all::<S>(model, k);
            assert_eq!(got, rows::<S>(model), "iter_mut");
        }
        2 => {
            let mut got = Vec::new();
            S::build(world).for_each(|item| got.push(S::rw(item, k)));
            bump_all::<S>(model, k);
            assert_eq!(sorted(got), rows::<S>(model), "for_each");
        }
        3 => {
            let mut q = S::build(world);
            let got = q.iter_mut().fold(Vec::new(), |mut acc, item| {
                acc.push(S::rw(item, k));
                acc
            });
            bump_all::<S>(model, k);
            assert_eq!(sorted(got), rows::<S>(model), "iter_mut().fold");
        }
        4 => {
            let q = S::build(world);
            let mut it = q.iter();
            let mut got = Vec::new();
            for _ in 0..usize::from(k) % (before.len() + 1) {
                got.push(S::ro(it.next().expect("fewer items than the model")));
            }
            let got = it.fold(got, |mut acc, item| {
                acc.push(S::ro(item));
                acc
            });
            assert_eq!(sorted(got), before, "next then fold");
        }
        5 => {
            let q = S::build(world);
            let got = q.get(e).map(S::ro);
            let expected = expected_get::<S>(model, e);
            if let Err(err) = &expected {
                check_error_text(err, e);
            }
            assert_eq!(got, expected, "Query::get({e:?})");
        }
        6 => {
            let mut q = S::build(world);
            let got = q.get_mut(e).map(|item| S::rw(item, k));
            let mut expected = expected_get::<S>(model, e);
            if expected.is_ok() {
                S::bump(model.ent_mut(e), k);
                expected = expected_get::<S>(model, e);
            }
            assert_eq!(got, expected, "Query::get_mut({e:?})");
        }
        7 => {
            let q = S::build(world);
            assert_eq!(
                q.single().map(S::ro),
                expected_single(&before, name),
                "single"
            );
        }
        8 => {
            let mut q = S::build(world);
            let got = q.single_mut().map(|item| S::rw(item, k));
            if before.len() == 1 {
                bump_all::<S>(model, k);
            }
            let after = rows::<S>(model);
            assert_eq!(got, expected_single(&after, name), "single_mut");
        }
        9 => {
            let q = S::build(world);
            let expected = expected_get::<S>(model, e).is_ok();
            assert_eq!(q.contains(e), expected, "Query::contains({e:?})");
        }
        10 => {
            let q = S::build(world);
            let mut got = Vec::new();
            for item in &q {
                got.push(S::ro(item));
            }
            assert_eq!(sorted(got), before, "&Query");
        }
        11 => {
            let mut q = S::build(world);
            let mut got = Vec::new();
            for item in &mut q {
                got.push(S::rw(item, k));
            }
            bump_all::<S>(model, k);
            assert_eq!(sorted(got), rows::<S>(model), "&mut Query");
        }
        12 => {
            let mut got = Vec::new();
            for item in S::build(world) {
                got.push(S::rw(item, k));
            }
            bump_all::<S>(model, k);
            assert_eq!(sorted(got), rows::<S>(model), "Query::into_iter");
        }
        14 => {
            let got = sorted(S::par(world, k));
            bump_all::<S>(model, k);
            assert_eq!(got, rows::<S>(model), "par_for_each");
        }
        _ => {
            let q = world
                .query_ref::<<S::Q as QueryData>::ReadOnly>()
                .filter::<S::F>();
            let twin = world
                .query_ref::<<S::Q as QueryData>::ReadOnly>()
                .filter::<S::F>();
            assert_eq!(
                sorted(q.iter().map(S::ro).collect()),
                before,
                "query_ref iter"
            );
            assert_eq!(
                q.get(e).map(S::ro),
                expected_get::<S>(model, e),
                "query_ref get"
            );
            assert_eq!(twin.iter().count(), before.len(), "two query_refs at once");
            let ro_name = type_name::<<S::Q as QueryData>::ReadOnly>();
            assert_eq!(
                q.single().map(S::ro),
                expected_single(&before, ro_name),
                "query_ref single"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

/// Decodes `bytes` into operations and runs them against a fresh world and model; then drops
/// the world and checks that every `Tracked` value was dropped exactly once.
pub fn run_ops(bytes: &[u8]) {
    let ops = decode(bytes);
    let base = tracked_live();
    let mut h = Harness::new();
    h.run(&ops);
    drop(h);
    assert_eq!(
        tracked_live(),
        base,
        "Tracked values leaked or dropped twice"
    );
}

/// Sets up a world from the first bytes (spawns, despawns, maybe a clear), then probes every
/// following 8-byte `u64` and every [`EDGE_BITS`] value as an entity handle.
pub fn run_entity_bits(bytes: &[u8]) {
    let base = tracked_live();
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
    assert_eq!(
        tracked_live(),
        base,
        "Tracked values leaked or dropped twice"
    );
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
        ops.push(Op::Despawn(Target::Live(u16::from(i))));
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
