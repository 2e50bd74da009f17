//! The values a fault-injection world holds, and the switch that makes one of them fail.
//!
//! [`Fuse`], [`Wick`] and [`Link`] each hold a [`Charge`]: a ledger token (so every value is
//! counted when made and when dropped) and the run's [`Faults`], which say whether this very
//! value panics in `Drop` (or, for a `Link`, in `MapEntities`). [`Glow`] and [`Ash`] are
//! plain values the observers write. Every charged value mirrors as `Value::U64` of its token
//! id, so the model knows exactly which value sits where.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use ecs_core::prelude::*;
use ecs_core::{EntityMapper, MapEntities};

use crate::component::{Key, Mirror, Value};
use crate::ledger::{Ledger, Token};

/// One of the three observers a fault-injection world registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Watcher {
    /// `OnInsert<Wick>`: records `insert(entity, Glow(wick))`.
    Glow,
    /// `OnRemove<Fuse>`: records `spawn(Ash(fuse))`.
    Ash,
    /// `OnAdd<Fuse>`: records nothing.
    Lit,
}

/// What is armed to fail during the current operation. Each arm fires once.
#[derive(Default, Debug)]
struct Armed {
    /// Token ids of values whose `Drop` panics.
    drops: BTreeSet<u64>,
    /// An observer, and how many of its runs from now on succeed before one panics.
    observer: Option<(Watcher, u32)>,
    /// The token id of a `Link` whose `MapEntities` panics.
    map: Option<u64>,
}

/// The switches of one run, shared by its values and observers (each test makes its own, so
/// tests run in parallel).
#[derive(Clone, Default)]
pub struct Faults(Arc<Mutex<Armed>>);

impl fmt::Debug for Faults {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.lock().fmt(f)
    }
}

/// The panic message of a fault, as the caller receives it.
pub fn drop_message(id: u64) -> String {
    format!("fault: Drop of #{id}")
}

/// The panic message of an armed observer.
pub fn observer_message(watcher: Watcher) -> String {
    format!("fault: observer {watcher:?}")
}

/// The panic message of an armed `MapEntities`.
pub fn map_message(id: u64) -> String {
    format!("fault: MapEntities of #{id}")
}

impl Faults {
    fn lock(&self) -> MutexGuard<'_, Armed> {
        // Nothing panics while holding the lock; stay usable if a failed test poisoned it.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value with token id `id` panics when it is next dropped.
    pub fn arm_drop(&self, id: u64) {
        self.lock().drops.insert(id);
    }

    /// `watcher` panics on its `run`-th run from now (1 = the next one), after recording its
    /// commands.
    pub fn arm_observer(&self, watcher: Watcher, run: u32) {
        assert!(run > 0, "runs count from 1");
        self.lock().observer = Some((watcher, run));
    }

    /// The `Link` with token id `id` panics when a merge maps its entity.
    pub fn arm_map(&self, id: u64) {
        self.lock().map = Some(id);
    }

    /// Disarms everything that did not fire.
    pub fn disarm(&self) {
        *self.lock() = Armed::default();
    }

    /// Whether the value `id`, being dropped, must panic (once).
    fn fire_drop(&self, id: u64) -> bool {
        self.lock().drops.remove(&id)
    }

    /// Counts a run of `watcher`; whether this run must panic.
    fn fire_observer(&self, watcher: Watcher) -> bool {
        let mut armed = self.lock();
        match &mut armed.observer {
            Some((w, run)) if *w == watcher => {
                *run -= 1;
                if *run == 0 {
                    armed.observer = None;
                    return true;
                }
                false
            }
            _ => false,
        }
    }

    /// Whether mapping the `Link` `id` must panic (once).
    fn fire_map(&self, id: u64) -> bool {
        let mut armed = self.lock();
        if armed.map == Some(id) {
            armed.map = None;
            return true;
        }
        false
    }

    /// Runs `watcher`'s fault: panics if this run is the armed one. Observers call this after
    /// recording their commands, so a panicking run leaves commands to abandon.
    pub fn observer_ran(&self, watcher: Watcher) {
        if self.fire_observer(watcher) {
            panic!("{}", observer_message(watcher));
        }
    }
}

/// What every charged value holds: its ledger token and the run's switches.
pub struct Charge {
    token: Token,
    faults: Faults,
}

impl Charge {
    /// A new value counted by `ledger`.
    pub fn new(ledger: &Ledger, faults: &Faults) -> Self {
        Charge {
            token: ledger.token(),
            faults: faults.clone(),
        }
    }

    /// The value's token id.
    pub fn id(&self) -> u64 {
        self.token.id
    }
}

impl fmt::Debug for Charge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.token.fmt(f)
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        // The token is dropped (and counted) after this, also when this panics. The panic is
        // raised even while another unwinds, as a game's own type would: should the world drop
        // an armed value outside its `catch_unwind`s during an unwind, the process aborts and
        // the test binary fails.
        if self.faults.fire_drop(self.token.id) {
            panic!("{}", drop_message(self.token.id));
        }
    }
}

/// A charged component with `OnAdd` and `OnRemove` observers.
#[derive(Component, Debug)]
pub struct Fuse(pub Charge);

/// A charged component with an `OnInsert` observer.
#[derive(Component, Debug)]
pub struct Wick(pub Charge);

/// An `#[entity]` field whose hand-written `MapEntities` panics when armed.
#[derive(Debug)]
pub struct Fragile {
    /// The entity it names.
    pub to: Entity,
    /// Its value, counted; the switch of its `MapEntities`.
    pub charge: Charge,
}

impl MapEntities for Fragile {
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        if self.charge.faults.fire_map(self.charge.id()) {
            panic!("{}", map_message(self.charge.id()));
        }
        self.to = mapper.map_entity(self.to);
    }
}

/// A charged component naming another entity, which a merge rewrites.
#[derive(Component, Debug)]
pub struct Link(#[entity] pub Fragile);

/// What the `OnInsert<Wick>` observer writes: the token id of the `Wick` it saw.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glow(pub u64);

/// What the `OnRemove<Fuse>` observer spawns: the token id of the `Fuse` that left.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ash(pub u64);

macro_rules! mirror_charged {
    ($($T:ident => $charge:expr),*) => {$(
        impl Mirror for $T {
            fn short_name() -> Cow<'static, str> {
                stringify!($T).into()
            }
            fn mirror(&self) -> Value {
                let charge: fn(&$T) -> &Charge = $charge;
                Value::U64(charge(self).id())
            }
        }
    )*};
}

mirror_charged!(Fuse => |f| &f.0, Wick => |w| &w.0, Link => |l| &l.0.charge);

macro_rules! mirror_plain {
    ($($T:ident),*) => {$(
        impl Mirror for $T {
            fn short_name() -> Cow<'static, str> {
                stringify!($T).into()
            }
            fn mirror(&self) -> Value {
                Value::U64(self.0)
            }
        }
    )*};
}

mirror_plain!(Glow, Ash);

/// The model's keys of the five types, in the order a fault-injection world registers them.
pub fn keys() -> [Key; 5] {
    [
        Key::of::<Fuse>(),
        Key::of::<Wick>(),
        Key::of::<Link>(),
        Key::of::<Glow>(),
        Key::of::<Ash>(),
    ]
}

/// Whether values of `key` hold a ledger token.
pub fn charged(key: Key) -> bool {
    key == Key::of::<Fuse>() || key == Key::of::<Wick>() || key == Key::of::<Link>()
}

/// The component types of a bundle, by the order its type writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `()`
    Empty,
    /// `(Fuse,)`
    Fuse,
    /// `(Wick,)`
    Wick,
    /// `(Fuse, Wick)`
    FuseWick,
    /// `(Wick, Fuse)`
    WickFuse,
    /// `(Fuse, Wick, Fuse)`: the second `Fuse` replaces the first, which is dropped inside
    /// the call.
    FuseWickFuse,
}

impl Shape {
    /// Every shape.
    pub const ALL: [Shape; 6] = [
        Shape::Empty,
        Shape::Fuse,
        Shape::Wick,
        Shape::FuseWick,
        Shape::WickFuse,
        Shape::FuseWickFuse,
    ];

    /// Whether the shape's type repeats a component type.
    pub fn repeats(self) -> bool {
        self == Shape::FuseWickFuse
    }

    /// The keys the shape writes, in order.
    pub fn keys(self) -> Vec<Key> {
        let (f, w) = (Key::of::<Fuse>(), Key::of::<Wick>());
        match self {
            Shape::Empty => vec![],
            Shape::Fuse => vec![f],
            Shape::Wick => vec![w],
            Shape::FuseWick => vec![f, w],
            Shape::WickFuse => vec![w, f],
            Shape::FuseWickFuse => vec![f, w, f],
        }
    }
}

/// One bundle's values, made for a shape.
#[derive(Debug)]
pub struct Made {
    shape: Shape,
    values: Vec<Charge>,
}

impl Made {
    /// Fresh values for `shape`.
    pub fn new(shape: Shape, ledger: &Ledger, faults: &Faults) -> Self {
        let values = shape
            .keys()
            .iter()
            .map(|_| Charge::new(ledger, faults))
            .collect();
        Made { shape, values }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// What the bundle writes, in order, as the model sees it.
    pub fn writes(&self) -> Vec<(Key, Value)> {
        self.shape
            .keys()
            .into_iter()
            .zip(&self.values)
            .map(|(key, charge)| (key, Value::U64(charge.id())))
            .collect()
    }

    /// The token ids of the values, in write order.
    pub fn ids(&self) -> Vec<u64> {
        self.values.iter().map(Charge::id).collect()
    }

    /// Hands the bundle, as its static type, to `to`.
    pub fn give<R>(self, to: impl GiveBundle<R>) -> R {
        let mut v = self.values.into_iter();
        let mut next = || v.next().expect("one value per key");
        match self.shape {
            Shape::Empty => to.give(()),
            Shape::Fuse => to.give((Fuse(next()),)),
            Shape::Wick => to.give((Wick(next()),)),
            Shape::FuseWick => to.give((Fuse(next()), Wick(next()))),
            Shape::WickFuse => to.give((Wick(next()), Fuse(next()))),
            Shape::FuseWickFuse => to.give((Fuse(next()), Wick(next()), Fuse(next()))),
        }
    }
}

/// Something that takes a bundle of any static type: `spawn`, `insert_bundle`, a command.
pub trait GiveBundle<R> {
    /// Takes `bundle`.
    fn give<B: Bundle + Send + 'static>(self, bundle: B) -> R;
}

/// Hands bundles of one shape, as a `Vec` of their static type, to `to`.
///
/// # Panics
/// When the bundles are not all of one shape.
pub fn give_batch<R>(shape: Shape, bundles: Vec<Made>, to: impl GiveBatch<R>) -> R {
    assert!(
        bundles.iter().all(|b| b.shape == shape),
        "one shape per batch"
    );
    fn each<B>(
        bundles: Vec<Made>,
        mut make: impl FnMut(&mut dyn FnMut() -> Charge) -> B,
    ) -> Vec<B> {
        bundles
            .into_iter()
            .map(|made| {
                let mut v = made.values.into_iter();
                make(&mut || v.next().expect("one value per key"))
            })
            .collect()
    }
    match shape {
        Shape::Empty => to.give(each(bundles, |_| ())),
        Shape::Fuse => to.give(each(bundles, |n| (Fuse(n()),))),
        Shape::Wick => to.give(each(bundles, |n| (Wick(n()),))),
        Shape::FuseWick => to.give(each(bundles, |n| (Fuse(n()), Wick(n())))),
        Shape::WickFuse => to.give(each(bundles, |n| (Wick(n()), Fuse(n())))),
        Shape::FuseWickFuse => to.give(each(bundles, |n| (Fuse(n()), Wick(n()), Fuse(n())))),
    }
}

/// Something that takes bundles of one static type: `spawn_batch`.
pub trait GiveBatch<R> {
    /// Takes `bundles`.
    fn give<B: Bundle + Send + 'static>(self, bundles: Vec<B>) -> R;
}
