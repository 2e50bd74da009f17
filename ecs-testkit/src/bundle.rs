//! Bundles chosen at run time: one [`Spec`] becomes one of 192 bundle types (every subset of
//! five component types, nested, and with repeated types), spawned, batched or inserted.

use ecs_core::prelude::*;

use crate::component::{Items, Name, Pos, Tag, Tracked, Value, Which};

/// A set of components given as one bundle, and the shape of the bundle's type.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// A `Pos` (the `i`-th entity of a batch gets `x + i`).
    pub pos: Option<Pos>,
    /// A `Name`.
    pub name: Option<String>,
    /// An `Items`.
    pub items: Option<Vec<u16>>,
    /// A `Tag`.
    pub tag: bool,
    /// A `Tracked` (the `i`-th entity of a batch gets `t + i`).
    pub tracked: Option<u32>,
    /// `shape % 6`: `(a, b)`, `(b, a)`, `(a, (b, ()))`, `(Pos, a, b)`, `(Tracked, (a, b))`,
    /// `(a, b, Pos)`, where `a` holds the `Pos`/`Name`/`Items` part and `b` the `Tag`/`Tracked`
    /// part; the extra `Pos` / `Tracked` repeat a type, so one of the two values is dropped.
    pub shape: u8,
    /// The extra `Pos` of shapes 3 and 5.
    pub dup_pos: Pos,
    /// The extra `Tracked` of shape 4.
    pub dup_tracked: u32,
}

fn pos_at(p: Pos, i: u32) -> Pos {
    Pos(p.0.wrapping_add(i as i32), p.1)
}

impl Spec {
    /// What the `i`-th bundle made from this spec writes, in write (= registration) order,
    /// repeated types included: the later value stays.
    pub fn writes(&self, i: u32) -> Vec<(Which, Value)> {
        let mut a = Vec::new();
        if let Some(p) = self.pos {
            let p = pos_at(p, i);
            a.push((Which::Pos, Value::Pair(p.0, p.1)));
        }
        if let Some(name) = &self.name {
            a.push((Which::Name, Value::Text(name.clone())));
        }
        if let Some(items) = &self.items {
            a.push((Which::Items, Value::List(items.clone())));
        }
        let mut b = Vec::new();
        if self.tag {
            b.push((Which::Tag, Value::Unit));
        }
        if let Some(t) = self.tracked {
            b.push((Which::Tracked, Value::U32(t.wrapping_add(i))));
        }
        let dup_pos = vec![(Which::Pos, Value::Pair(self.dup_pos.0, self.dup_pos.1))];
        match self.shape % 6 {
            1 => [b, a].concat(),
            3 => [dup_pos, a, b].concat(),
            4 => [vec![(Which::Tracked, Value::U32(self.dup_tracked))], a, b].concat(),
            5 => [a, b, dup_pos].concat(),
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
    /// An exact size hint, but asked for item `k` (`k <= n`: the item past the last one
    /// included) the iterator panics; with `k > n` it never does.
    PanicsAt(u8),
}

impl Hint {
    /// How many bundles a batch of `n` through this iterator yields before it panics, if it
    /// panics.
    pub fn panics_after(self, n: u32) -> Option<u32> {
        match self {
            Hint::PanicsAt(k) if u32::from(k) <= n => Some(u32::from(k)),
            _ => None,
        }
    }
}

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
            Hint::PanicsAt(k) => {
                let mut next = 0;
                let panicking = core::iter::from_fn(|| {
                    let i = next;
                    next += 1;
                    assert!(i != u32::from(k), "spawn_batch iterator panics at item {k}");
                    (i < n).then(|| make(i))
                });
                self.world.spawn_batch(Hinted {
                    inner: panicking,
                    hint: (len, Some(len)),
                })
            }
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
        self.0
            .insert_bundle(make(0))
            .expect("the handle's entity is alive");
    }
}

/// `world.spawn` of the bundle `spec` describes.
pub fn spawn(world: &mut World, spec: &Spec) -> Entity {
    build(spec, SpawnOne(world))
}

/// `world.spawn_batch` of `n` bundles `spec` describes, through an iterator of kind `hint`.
pub fn spawn_batch(world: &mut World, spec: &Spec, n: u32, hint: Hint) -> Vec<Entity> {
    build(spec, SpawnMany { world, n, hint })
}

/// `world.insert_bundle` of the bundle `spec` describes.
pub fn insert_bundle(world: &mut World, entity: Entity, spec: &Spec) -> Result<(), Error> {
    build(spec, InsertBundle { world, entity })
}

/// `EntityMut::insert_bundle` of the bundle `spec` describes.
pub fn handle_insert_bundle(handle: &mut EntityMut<'_>, spec: &Spec) {
    build(spec, HandleInsertBundle(handle));
}
