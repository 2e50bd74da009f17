//! Model-based property test of typed queries.
//!
//! Proptest generates a sequence of world operations (spawn a random subset of six component
//! types, despawn, insert, remove) interleaved with queries. Every operation is mirrored in a
//! plain `BTreeMap<Entity, ModelEntity>` keyed by the ids the world hands out, so storages get
//! holes, swap-removes, and indices reused with bumped versions.
//!
//! Queries are types, so the test enumerates a fixed set of query *shapes* ([`run_shape`]): fetch
//! tuples of `&T`, `&mut T`, `Option<&T>`, `Option<&mut T>`, `Entity`, nested tuples and
//! `#[derive(Query)]` structs (one nesting another), combined with `With`, `Without`, `Or`, tuple
//! filters, and `.with()` / `.without()` / `.filter()` chaining. Each shape is run through
//! [`run`], which answers the query from the model by brute force over every live entity and
//! compares, exactly:
//!
//! - the items of `iter` (via `next`, via `fold`, and half `next` / half `fold`), `&Query` as
//!   `IntoIterator`, `count`, a `map(..).sum()` checksum, `is_empty`, `size_hint`;
//! - `get` / `contains` / `get_mut` for every id ever handed out (live or stale) and made-up ids,
//!   including the exact `Error` variant: liveness first, then the filter, then the fetch;
//! - `single` / `single_mut`, with `Error::NoMatch` / `Error::MultipleMatches`;
//! - the same read-side answers through `World::query_ref` of the read-only form;
//! - mutation through `get_mut`, then through `iter_mut`, `for_each`, `&mut Query`, the consuming
//!   `IntoIterator` or `iter_mut().fold` (chosen by the op), mirrored in the model and checked
//!   afterwards against every stored value.
//!
//! Items are flattened to `Vec<Val>` by the [`ModelFetch`] trait, implemented for the same types
//! the query uses; [`ModelFilter`] does the same for filters.
//!
//! Each case starts with a `spawn_batch` of up to 200 entities, so several storages hold the same
//! entities at the same positions over several 64-entity chunks of the iterator (its aligned fast
//! path); the ops that follow break that line-up in places (swap-removes in one storage only,
//! inserts appended to one storage).
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 256).

use std::any::type_name;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

use ecs_core::prelude::*;
use ecs_core::query::{QueryData, QueryFilter, ReadOnlyItem};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::Config as ProptestConfig;

/// Plain-old-data component.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct A(u32);

/// Heap-owning component.
#[derive(Component, Clone, Debug, PartialEq)]
struct B(String);

/// Heap-owning component.
#[derive(Component, Clone, Debug, PartialEq)]
struct C(Vec<u16>);

/// Plain-old-data component.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct D(u64);

/// Tag (zero-sized).
#[derive(Component, Clone, Debug, PartialEq)]
struct T1;

/// Tag (zero-sized).
#[derive(Component, Clone, Debug, PartialEq)]
struct T2;

/// A derived query with an entity, a write, a read and an optional read.
#[derive(Query)]
struct Mover<'w> {
    entity: Entity,
    a: &'w mut A,
    b: &'w B,
    c: Option<&'w C>,
}

/// A derived query that nests [`Mover`] and writes through an option.
#[derive(Query)]
#[query(mutable)]
struct Outer<'w> {
    entity: Entity,
    mover: Mover<'w>,
    d: Option<&'w mut D>,
    t1: &'w T1,
}

/// Longest generated op sequence.
const MAX_OPS: usize = 120;

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

/// What the model says one live entity holds.
#[derive(Clone, Debug, Default, PartialEq)]
struct ModelEntity {
    a: Option<A>,
    b: Option<B>,
    c: Option<C>,
    d: Option<D>,
    t1: Option<T1>,
    t2: Option<T2>,
}

/// One flattened value of a query item.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Val {
    Entity(Entity),
    A(u32),
    B(String),
    C(Vec<u16>),
    D(u64),
    T1,
    T2,
    /// An `Option<..>` fetch that found nothing.
    Absent,
}

/// A component type the model knows how to store, show and change.
trait ModelComp: Component + Clone + Debug + PartialEq {
    fn slot(m: &ModelEntity) -> &Option<Self>;
    fn slot_mut(m: &mut ModelEntity) -> &mut Option<Self>;
    fn val(&self) -> Val;
    /// The change every writing query applies (tags cannot change).
    fn bump(&mut self);
}

impl ModelComp for A {
    fn slot(m: &ModelEntity) -> &Option<Self> {
        &m.a
    }
    fn slot_mut(m: &mut ModelEntity) -> &mut Option<Self> {
        &mut m.a
    }
    fn val(&self) -> Val {
        Val::A(self.0)
    }
    fn bump(&mut self) {
        self.0 = self.0.wrapping_add(1);
    }
}

impl ModelComp for B {
    fn slot(m: &ModelEntity) -> &Option<Self> {
        &m.b
    }
    fn slot_mut(m: &mut ModelEntity) -> &mut Option<Self> {
        &mut m.b
    }
    fn val(&self) -> Val {
        Val::B(self.0.clone())
    }
    fn bump(&mut self) {
        self.0.push('+');
    }
}

impl ModelComp for C {
    fn slot(m: &ModelEntity) -> &Option<Self> {
        &m.c
    }
    fn slot_mut(m: &mut ModelEntity) -> &mut Option<Self> {
        &mut m.c
    }
    fn val(&self) -> Val {
        Val::C(self.0.clone())
    }
    fn bump(&mut self) {
        self.0.push(7);
    }
}

impl ModelComp for D {
    fn slot(m: &ModelEntity) -> &Option<Self> {
        &m.d
    }
    fn slot_mut(m: &mut ModelEntity) -> &mut Option<Self> {
        &mut m.d
    }
    fn val(&self) -> Val {
        Val::D(self.0)
    }
    fn bump(&mut self) {
        self.0 = self.0.wrapping_add(1);
    }
}

impl ModelComp for T1 {
    fn slot(m: &ModelEntity) -> &Option<Self> {
        &m.t1
    }
    fn slot_mut(m: &mut ModelEntity) -> &mut Option<Self> {
        &mut m.t1
    }
    fn val(&self) -> Val {
        Val::T1
    }
    fn bump(&mut self) {}
}

impl ModelComp for T2 {
    fn slot(m: &ModelEntity) -> &Option<Self> {
        &m.t2
    }
    fn slot_mut(m: &mut ModelEntity) -> &mut Option<Self> {
        &mut m.t2
    }
    fn val(&self) -> Val {
        Val::T2
    }
    fn bump(&mut self) {}
}

/// The model's reading of a fetch type: what it requires, yields and writes.
trait ModelFetch: QueryData {
    /// The full type name of the first required component `m` lacks, in field order.
    fn model_missing(m: &ModelEntity) -> Option<&'static str>;
    /// The flattened item of a matching entity.
    fn expect(e: Entity, m: &ModelEntity, out: &mut Vec<Val>);
    /// Applies [`ModelComp::bump`] to what this fetch writes, on a matching entity.
    fn bump_model(m: &mut ModelEntity);
    /// Flattens a full item.
    fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>);
    /// Flattens a read-only item.
    fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>);
    /// Applies [`ModelComp::bump`] through a full item's mutable references.
    fn bump_item(item: &mut Self::Item<'_>);
}

impl<T: ModelComp> ModelFetch for &T {
    fn model_missing(m: &ModelEntity) -> Option<&'static str> {
        T::slot(m).is_none().then(type_name::<T>)
    }
    fn expect(_: Entity, m: &ModelEntity, out: &mut Vec<Val>) {
        out.push(T::slot(m).as_ref().expect("matching").val());
    }
    fn bump_model(_: &mut ModelEntity) {}
    fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>) {
        out.push(item.val());
    }
    fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>) {
        out.push(item.val());
    }
    fn bump_item(_: &mut Self::Item<'_>) {}
}

impl<T: ModelComp> ModelFetch for &mut T {
    fn model_missing(m: &ModelEntity) -> Option<&'static str> {
        T::slot(m).is_none().then(type_name::<T>)
    }
    fn expect(_: Entity, m: &ModelEntity, out: &mut Vec<Val>) {
        out.push(T::slot(m).as_ref().expect("matching").val());
    }
    fn bump_model(m: &mut ModelEntity) {
        T::slot_mut(m).as_mut().expect("matching").bump();
    }
    fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>) {
        out.push(item.val());
    }
    fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>) {
        out.push(item.val());
    }
    fn bump_item(item: &mut Self::Item<'_>) {
        item.bump();
    }
}

impl<Q: ModelFetch> ModelFetch for Option<Q> {
    fn model_missing(_: &ModelEntity) -> Option<&'static str> {
        None
    }
    fn expect(e: Entity, m: &ModelEntity, out: &mut Vec<Val>) {
        if Q::model_missing(m).is_none() {
            Q::expect(e, m, out);
        } else {
            out.push(Val::Absent);
        }
    }
    fn bump_model(m: &mut ModelEntity) {
        if Q::model_missing(m).is_none() {
            Q::bump_model(m);
        }
    }
    fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>) {
        match item {
            Some(inner) => Q::item_vals(inner, out),
            None => out.push(Val::Absent),
        }
    }
    fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>) {
        match item {
            Some(inner) => Q::ro_item_vals(inner, out),
            None => out.push(Val::Absent),
        }
    }
    fn bump_item(item: &mut Self::Item<'_>) {
        if let Some(inner) = item {
            Q::bump_item(inner);
        }
    }
}

impl ModelFetch for Entity {
    fn model_missing(_: &ModelEntity) -> Option<&'static str> {
        None
    }
    fn expect(e: Entity, _: &ModelEntity, out: &mut Vec<Val>) {
        out.push(Val::Entity(e));
    }
    fn bump_model(_: &mut ModelEntity) {}
    fn item_vals(item: &Entity, out: &mut Vec<Val>) {
        out.push(Val::Entity(*item));
    }
    fn ro_item_vals(item: &Entity, out: &mut Vec<Val>) {
        out.push(Val::Entity(*item));
    }
    fn bump_item(_: &mut Entity) {}
}

macro_rules! model_fetch_tuple {
    ($($q:ident $i:tt),*) => {
        impl<$($q: ModelFetch),*> ModelFetch for ($($q,)*) {
            fn model_missing(m: &ModelEntity) -> Option<&'static str> {
                None $(.or_else(|| $q::model_missing(m)))*
            }
            fn expect(e: Entity, m: &ModelEntity, out: &mut Vec<Val>) {
                $($q::expect(e, m, out);)*
            }
            fn bump_model(m: &mut ModelEntity) {
                $($q::bump_model(m);)*
            }
            fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>) {
                $($q::item_vals(&item.$i, out);)*
            }
            fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>) {
                $($q::ro_item_vals(&item.$i, out);)*
            }
            fn bump_item(item: &mut Self::Item<'_>) {
                $($q::bump_item(&mut item.$i);)*
            }
        }
    };
}

model_fetch_tuple!(Q0 0);
model_fetch_tuple!(Q0 0, Q1 1);
model_fetch_tuple!(Q0 0, Q1 1, Q2 2);
model_fetch_tuple!(Q0 0, Q1 1, Q2 2, Q3 3);
model_fetch_tuple!(Q0 0, Q1 1, Q2 2, Q3 3, Q4 4);
model_fetch_tuple!(Q0 0, Q1 1, Q2 2, Q3 3, Q4 4, Q5 5);
model_fetch_tuple!(Q0 0, Q1 1, Q2 2, Q3 3, Q4 4, Q5 5, Q6 6);

/// `Mover` fetches what this tuple fetches, in this order.
type MoverTuple<'w> = (Entity, &'w mut A, &'w B, Option<&'w C>);

impl<'w> ModelFetch for Mover<'w> {
    fn model_missing(m: &ModelEntity) -> Option<&'static str> {
        MoverTuple::<'w>::model_missing(m)
    }
    fn expect(e: Entity, m: &ModelEntity, out: &mut Vec<Val>) {
        MoverTuple::<'w>::expect(e, m, out);
    }
    fn bump_model(m: &mut ModelEntity) {
        MoverTuple::<'w>::bump_model(m);
    }
    fn item_vals(item: &Mover<'_>, out: &mut Vec<Val>) {
        out.push(Val::Entity(item.entity));
        out.push(item.a.val());
        out.push(item.b.val());
        out.push(item.c.map_or(Val::Absent, C::val));
    }
    fn ro_item_vals(item: &MoverReadOnly<'_>, out: &mut Vec<Val>) {
        out.push(Val::Entity(item.entity));
        out.push(item.a.val());
        out.push(item.b.val());
        out.push(item.c.map_or(Val::Absent, C::val));
    }
    fn bump_item(item: &mut Mover<'_>) {
        item.a.bump();
    }
}

/// `Outer` fetches what this tuple fetches, in this order.
type OuterTuple<'w> = (Entity, Mover<'w>, Option<&'w mut D>, &'w T1);

impl<'w> ModelFetch for Outer<'w> {
    fn model_missing(m: &ModelEntity) -> Option<&'static str> {
        OuterTuple::<'w>::model_missing(m)
    }
    fn expect(e: Entity, m: &ModelEntity, out: &mut Vec<Val>) {
        OuterTuple::<'w>::expect(e, m, out);
    }
    fn bump_model(m: &mut ModelEntity) {
        OuterTuple::<'w>::bump_model(m);
    }
    fn item_vals(item: &Outer<'_>, out: &mut Vec<Val>) {
        out.push(Val::Entity(item.entity));
        Mover::item_vals(&item.mover, out);
        out.push(item.d.as_deref().map_or(Val::Absent, D::val));
        out.push(item.t1.val());
    }
    fn ro_item_vals(item: &OuterReadOnly<'_>, out: &mut Vec<Val>) {
        out.push(Val::Entity(item.entity));
        Mover::ro_item_vals(&item.mover, out);
        out.push(item.d.map_or(Val::Absent, D::val));
        out.push(item.t1.val());
    }
    fn bump_item(item: &mut Outer<'_>) {
        Mover::bump_item(&mut item.mover);
        if let Some(d) = item.d.as_deref_mut() {
            d.bump();
        }
    }
}

/// The model's reading of a filter type.
trait ModelFilter: QueryFilter {
    /// `Ok` if `m` passes, otherwise the error `Query::get` must give (checked in order).
    fn model_check(e: Entity, m: &ModelEntity) -> Result<(), Error>;
}

impl ModelFilter for () {
    fn model_check(_: Entity, _: &ModelEntity) -> Result<(), Error> {
        Ok(())
    }
}

impl<T: ModelComp> ModelFilter for With<T> {
    fn model_check(entity: Entity, m: &ModelEntity) -> Result<(), Error> {
        match T::slot(m) {
            Some(_) => Ok(()),
            None => Err(Error::MissingComponent {
                entity,
                component: type_name::<T>(),
            }),
        }
    }
}

impl<T: ModelComp> ModelFilter for Without<T> {
    fn model_check(entity: Entity, m: &ModelEntity) -> Result<(), Error> {
        match T::slot(m) {
            None => Ok(()),
            Some(_) => Err(Error::ExcludedComponent {
                entity,
                component: type_name::<T>(),
            }),
        }
    }
}

macro_rules! model_filter_tuple {
    ($($f:ident),*) => {
        impl<$($f: ModelFilter),*> ModelFilter for ($($f,)*) {
            fn model_check(e: Entity, m: &ModelEntity) -> Result<(), Error> {
                $($f::model_check(e, m)?;)*
                Ok(())
            }
        }

        impl<$($f: ModelFilter),*> ModelFilter for Or<($($f,)*)> {
            fn model_check(entity: Entity, m: &ModelEntity) -> Result<(), Error> {
                if false $(|| $f::model_check(entity, m).is_ok())* {
                    Ok(())
                } else {
                    Err(Error::FilteredOut { entity, filter: type_name::<Self>() })
                }
            }
        }
    };
}

model_filter_tuple!(F0);
model_filter_tuple!(F0, F1);
model_filter_tuple!(F0, F1, F2);

// ---------------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------------

/// The world under test and its model.
#[derive(Default)]
struct Harness {
    world: World,
    /// Live entities and what they hold.
    live: BTreeMap<Entity, ModelEntity>,
    /// Every id the world ever handed out.
    known: BTreeSet<Entity>,
}

/// Builds a handle from its parts.
fn ent(index: u32, version: u32) -> Entity {
    Entity::from_bits((u64::from(version) << 32) | u64::from(index)).expect("version is non-zero")
}

impl Harness {
    /// The live entity at position `index` of the model's (sorted) live set.
    fn pick(&self, index: &Index) -> Option<Entity> {
        if self.live.is_empty() {
            return None;
        }
        self.live.keys().nth(index.index(self.live.len())).copied()
    }

    fn spawn(&mut self, m: ModelEntity) -> Result<(), TestCaseError> {
        let e = match (&m.a, &m.b, &m.c, &m.d) {
            // Every data component present: spawn them as one bundle, tags as a second one.
            (Some(a), Some(b), Some(c), Some(d)) => {
                let e = self.world.spawn((*a, b.clone(), c.clone(), *d));
                match (&m.t1, &m.t2) {
                    (Some(_), Some(_)) => self.world.insert_bundle(e, (T1, T2))?,
                    (Some(_), None) => self.world.insert_bundle(e, T1)?,
                    (None, Some(_)) => self.world.insert_bundle(e, (T2,))?,
                    (None, None) => {}
                }
                e
            }
            _ => {
                let e = self.world.spawn(());
                insert_opt(&mut self.world, e, &m.a)?;
                insert_opt(&mut self.world, e, &m.b)?;
                insert_opt(&mut self.world, e, &m.c)?;
                insert_opt(&mut self.world, e, &m.d)?;
                insert_opt(&mut self.world, e, &m.t1)?;
                insert_opt(&mut self.world, e, &m.t2)?;
                e
            }
        };
        prop_assert!(self.known.insert(e), "spawn returned a used id {e:?}");
        self.live.insert(e, m);
        Ok(())
    }

    fn spawn_batch(&mut self, shape: u8, n: usize, seed: u32) -> Result<(), TestCaseError> {
        let a = |i: usize| A(seed.wrapping_add(i as u32) % 4);
        let b = |i: usize| B("ab".repeat((seed as usize + i) % 3));
        let c = |i: usize| C(vec![i as u16; (seed as usize + i) % 3]);
        let d = |i: usize| D(u64::from(seed) + i as u64);
        let full = |i: usize| ModelEntity {
            a: Some(a(i)),
            b: Some(b(i)),
            c: Some(c(i)),
            d: Some(d(i)),
            t1: Some(T1),
            t2: Some(T2),
        };
        let (ids, models): (Vec<Entity>, Vec<ModelEntity>) = match shape % 5 {
            0 => (
                self.world.spawn_batch((0..n).map(|i| (a(i), b(i)))),
                (0..n)
                    .map(|i| ModelEntity {
                        c: None,
                        d: None,
                        t1: None,
                        t2: None,
                        ..full(i)
                    })
                    .collect(),
            ),
            1 => (
                self.world
                    .spawn_batch((0..n).map(|i| (a(i), b(i), c(i), d(i)))),
                (0..n)
                    .map(|i| ModelEntity {
                        t1: None,
                        t2: None,
                        ..full(i)
                    })
                    .collect(),
            ),
            2 => (
                self.world
                    .spawn_batch((0..n).map(|i| (a(i), b(i), c(i), d(i), T1, T2))),
                (0..n).map(full).collect(),
            ),
            3 => (
                self.world.spawn_batch((0..n).map(|i| (a(i), d(i), T1))),
                (0..n)
                    .map(|i| ModelEntity {
                        b: None,
                        c: None,
                        t2: None,
                        ..full(i)
                    })
                    .collect(),
            ),
            _ => (
                self.world.spawn_batch((0..n).map(|i| (T2, c(i), b(i)))),
                (0..n)
                    .map(|i| ModelEntity {
                        a: None,
                        d: None,
                        t1: None,
                        ..full(i)
                    })
                    .collect(),
            ),
        };
        prop_assert_eq!(ids.len(), n);
        for (e, m) in ids.into_iter().zip(models) {
            prop_assert!(self.known.insert(e), "spawn_batch returned a used id {e:?}");
            self.live.insert(e, m);
        }
        Ok(())
    }

    fn despawn(&mut self, e: Entity) -> Result<(), TestCaseError> {
        prop_assert_eq!(self.world.despawn(e), Ok(()));
        prop_assert_eq!(self.world.despawn(e), Err(Error::Despawned { entity: e }));
        self.live.remove(&e);
        Ok(())
    }

    fn insert<T: ModelComp>(&mut self, e: Entity, value: T) -> Result<(), TestCaseError> {
        let m = self.live.get_mut(&e).expect("live");
        let old = T::slot_mut(m).replace(value.clone());
        prop_assert_eq!(self.world.insert(e, value), Ok(old));
        Ok(())
    }

    fn remove<T: ModelComp>(&mut self, e: Entity) -> Result<(), TestCaseError> {
        let m = self.live.get_mut(&e).expect("live");
        let want = T::slot_mut(m).take().ok_or(Error::MissingComponent {
            entity: e,
            component: type_name::<T>(),
        });
        prop_assert_eq!(self.world.remove::<T>(e), want);
        Ok(())
    }

    /// Every stored value of `T` matches the model.
    fn check_comp<T: ModelComp>(&self) -> Result<(), TestCaseError> {
        for (&e, m) in &self.live {
            prop_assert_eq!(self.world.get::<T>(e).ok(), T::slot(m).as_ref(), "{:?}", e);
        }
        Ok(())
    }

    /// The whole world matches the model.
    fn check_state(&self) -> Result<(), TestCaseError> {
        prop_assert_eq!(self.world.len(), self.live.len());
        self.check_comp::<A>()?;
        self.check_comp::<B>()?;
        self.check_comp::<C>()?;
        self.check_comp::<D>()?;
        self.check_comp::<T1>()?;
        self.check_comp::<T2>()?;
        Ok(())
    }

    /// Every id ever handed out, plus made-up ids this world never handed out: the next version
    /// of every slot, the first index past the slots, and the largest index.
    fn probes(&self) -> Vec<Entity> {
        let mut top: BTreeMap<u32, u32> = BTreeMap::new();
        for e in &self.known {
            let v = top.entry(e.index()).or_default();
            *v = (*v).max(e.version());
        }
        let mut probes: Vec<Entity> = self.known.iter().copied().collect();
        probes.extend(top.iter().map(|(&i, &v)| ent(i, v + 1)));
        let past = top.keys().next_back().map_or(0, |&i| i + 1);
        probes.push(ent(past, 1));
        probes.push(ent(u32::MAX, 1));
        probes
    }

    /// The model's answer to `Query<Q, F>::get(e)`: liveness, then the filter, then the fetch.
    fn expected_get<Q: ModelFetch, F: ModelFilter>(&self, e: Entity) -> Result<Vec<Val>, Error> {
        match self.live.get(&e) {
            Some(m) => {
                F::model_check(e, m)?;
                if let Some(component) = Q::model_missing(m) {
                    return Err(Error::MissingComponent {
                        entity: e,
                        component,
                    });
                }
                let mut out = Vec::new();
                Q::expect(e, m, &mut out);
                Ok(out)
            }
            None if self.known.contains(&e) => Err(Error::Despawned { entity: e }),
            None => Err(Error::NeverSpawned { entity: e }),
        }
    }

    /// The entities `Query<Q, F>` matches, brute force over the model.
    fn matching<Q: ModelFetch, F: ModelFilter>(&self) -> Vec<Entity> {
        self.live
            .iter()
            .filter(|&(&e, m)| F::model_check(e, m).is_ok() && Q::model_missing(m).is_none())
            .map(|(&e, _)| e)
            .collect()
    }

    /// The sorted flattened items of `Query<Q, F>`, brute force over the model.
    fn expected_rows<Q: ModelFetch, F: ModelFilter>(&self) -> Vec<Vec<Val>> {
        let mut rows: Vec<Vec<Val>> = self
            .matching::<Q, F>()
            .into_iter()
            .map(|e| {
                let mut out = Vec::new();
                Q::expect(e, &self.live[&e], &mut out);
                out
            })
            .collect();
        rows.sort();
        rows
    }

    /// Mirrors a write of `Q` to every entity in `entities`.
    fn bump<Q: ModelFetch>(&mut self, entities: &[Entity]) {
        for e in entities {
            Q::bump_model(self.live.get_mut(e).expect("live"));
        }
    }
}

fn insert_opt<T: ModelComp>(world: &mut World, e: Entity, value: &Option<T>) -> Result<(), Error> {
    if let Some(value) = value {
        assert!(world.insert(e, value.clone())?.is_none());
    }
    Ok(())
}

fn ro_row<Q: ModelFetch>(item: &ReadOnlyItem<'_, Q>) -> Vec<Val> {
    let mut out = Vec::new();
    Q::ro_item_vals(item, &mut out);
    out
}

fn row<Q: ModelFetch>(item: &Q::Item<'_>) -> Vec<Val> {
    let mut out = Vec::new();
    Q::item_vals(item, &mut out);
    out
}

/// A number that depends on every value of a row, for sum-style folds.
fn checksum(row: &[Val]) -> u64 {
    row.iter()
        .map(|v| match v {
            Val::Entity(e) => e.to_bits(),
            Val::A(x) => u64::from(*x) * 3,
            Val::B(s) => s.len() as u64 * 5,
            Val::C(c) => c.iter().map(|&x| u64::from(x)).sum::<u64>() * 7,
            Val::D(x) => x.wrapping_mul(11),
            Val::T1 => 13,
            Val::T2 => 17,
            Val::Absent => 19,
        })
        .fold(0u64, u64::wrapping_add)
}

fn sum_rows(rows: &[Vec<Val>]) -> u64 {
    rows.iter().map(|r| checksum(r)).fold(0, u64::wrapping_add)
}

/// What `single` / `single_mut` must return for a query named `query` with `rows` as its items.
fn expected_single(rows: &[Vec<Val>], query: &'static str) -> Result<Vec<Val>, Error> {
    match rows {
        [] => Err(Error::NoMatch { query }),
        [one] => Ok(one.clone()),
        _ => Err(Error::MultipleMatches { query }),
    }
}

/// How a query is built from the world (`query`, `query_filtered`, chained filters).
type Build<Q, F> = for<'w> fn(&'w mut World) -> Query<'w, Q, F>;

/// Runs the query `build` makes through every read and write path and compares with the model.
/// `mode` picks the path that writes to every match.
fn run<Q: ModelFetch, F: ModelFilter>(
    h: &mut Harness,
    build: Build<Q, F>,
    mode: u8,
) -> Result<(), TestCaseError> {
    let expected = h.expected_rows::<Q, F>();
    let probes = h.probes();
    let expected_get: Vec<_> = probes.iter().map(|&e| h.expected_get::<Q, F>(e)).collect();

    // The read side, through the exclusive query.
    {
        let q = build(&mut h.world);
        let mut it = q.iter();
        prop_assert!(it.size_hint().1.is_some_and(|hi| hi >= expected.len()));
        let mut rows = Vec::new();
        // A `for` loop calls `next`, the one-at-a-time path (`fold` is checked below).
        for item in it.by_ref() {
            rows.push(ro_row::<Q>(&item));
        }
        prop_assert!(it.next().is_none(), "not fused");
        rows.sort();
        prop_assert_eq!(&rows, &expected, "iter().next()");

        let mut folded = q.iter().fold(Vec::new(), |mut acc, item| {
            acc.push(ro_row::<Q>(&item));
            acc
        });
        folded.sort();
        prop_assert_eq!(&folded, &expected, "iter().fold()");

        let mut it = q.iter();
        let mut split: Vec<_> = it
            .by_ref()
            .take(expected.len() / 2)
            .map(|i| ro_row::<Q>(&i))
            .collect();
        split = it.fold(split, |mut acc, item| {
            acc.push(ro_row::<Q>(&item));
            acc
        });
        split.sort();
        prop_assert_eq!(&split, &expected, "half next, half fold");

        let mut by_ref: Vec<_> = (&q).into_iter().map(|i| ro_row::<Q>(&i)).collect();
        by_ref.sort();
        prop_assert_eq!(&by_ref, &expected, "&Query as IntoIterator");

        prop_assert_eq!(q.iter().count(), expected.len());
        let sum: u64 = q
            .iter()
            .map(|i| checksum(&ro_row::<Q>(&i)))
            .fold(0, u64::wrapping_add);
        prop_assert_eq!(sum, sum_rows(&expected));
        prop_assert_eq!(q.is_empty(), expected.is_empty());
        prop_assert_eq!(
            q.single().map(|i| ro_row::<Q>(&i)),
            expected_single(&expected, type_name::<Q>())
        );

        for (&e, want) in probes.iter().zip(&expected_get) {
            prop_assert_eq!(&q.get(e).map(|i| ro_row::<Q>(&i)), want, "get({:?})", e);
            prop_assert_eq!(q.contains(e), want.is_ok(), "contains({:?})", e);
        }
    }

    // The read side through a shared borrow: `query_ref` of the read-only form, `.filter::<F>()`.
    {
        let q = h.world.query_ref::<Q::ReadOnly>().filter::<F>();
        let other = h.world.query_ref::<Q::ReadOnly>().filter::<F>();
        let mut rows: Vec<_> = q.iter().map(|i| ro_row::<Q>(&i)).collect();
        rows.sort();
        prop_assert_eq!(&rows, &expected, "query_ref");
        prop_assert_eq!(other.iter().count(), expected.len(), "second query_ref");
        prop_assert_eq!(
            q.single().map(|i| ro_row::<Q>(&i)),
            expected_single(&expected, type_name::<Q::ReadOnly>())
        );
        for (&e, want) in probes.iter().zip(&expected_get) {
            prop_assert_eq!(&q.get(e).map(|i| ro_row::<Q>(&i)), want, "query_ref get");
        }
    }

    // Writes through `get_mut`: every probe, each matching entity changed once.
    {
        let mut q = build(&mut h.world);
        for (&e, want) in probes.iter().zip(&expected_get) {
            let got = q.get_mut(e).map(|mut item| {
                let vals = row::<Q>(&item);
                Q::bump_item(&mut item);
                vals
            });
            prop_assert_eq!(&got, want, "get_mut({:?})", e);
        }
    }
    let matching = h.matching::<Q, F>();
    h.bump::<Q>(&matching);

    // Writes through iteration, by the path `mode` picks.
    let expected = h.expected_rows::<Q, F>();
    let mut rows = Vec::new();
    {
        let mut q = build(&mut h.world);
        let mut visit = |mut item: Q::Item<'_>| {
            rows.push(row::<Q>(&item));
            Q::bump_item(&mut item);
        };
        match mode % 5 {
            0 => {
                for item in q.iter_mut() {
                    visit(item);
                }
            }
            1 => q.for_each(visit),
            2 => {
                for item in &mut q {
                    visit(item);
                }
            }
            3 => {
                for item in q {
                    visit(item);
                }
            }
            _ => q.iter_mut().fold((), |(), item| visit(item)),
        }
    }
    rows.sort();
    prop_assert_eq!(&rows, &expected, "mutable iteration, mode {}", mode % 5);
    h.bump::<Q>(&matching);

    // `single_mut`: writes when exactly one entity matches.
    let expected = h.expected_rows::<Q, F>();
    {
        let mut q = build(&mut h.world);
        let got = q.single_mut().map(|mut item| {
            let vals = row::<Q>(&item);
            Q::bump_item(&mut item);
            vals
        });
        prop_assert_eq!(got, expected_single(&expected, type_name::<Q>()));
    }
    if matching.len() == 1 {
        h.bump::<Q>(&matching);
    }

    h.check_state()
}

/// How many query shapes [`run_shape`] knows.
const SHAPES: usize = 30;

/// Runs query shape `shape` (mod [`SHAPES`]).
fn run_shape(h: &mut Harness, shape: usize, mode: u8) -> Result<(), TestCaseError> {
    match shape % SHAPES {
        0 => run::<Entity, ()>(h, |w| w.query(), mode),
        1 => run::<(Entity, &A), ()>(h, |w| w.query(), mode),
        2 => run::<(Entity, &A, &B), ()>(h, |w| w.query(), mode),
        3 => run::<(Entity, Option<&B>, &D), ()>(h, |w| w.query(), mode),
        4 => run::<(Entity, &T1), ()>(h, |w| w.query(), mode),
        5 => run::<(Entity, Option<&T2>, &C), ()>(h, |w| w.query(), mode),
        6 => run::<(Entity, &mut A), ()>(h, |w| w.query(), mode),
        7 => run::<(Entity, Option<&mut B>), ()>(h, |w| w.query(), mode),
        8 => run::<(Entity, &A), With<T1>>(h, |w| w.query_filtered(), mode),
        9 => run::<(Entity, &B, &C), Without<T2>>(h, |w| w.query_filtered(), mode),
        10 => run::<(Entity, &D), (With<A>, Without<B>)>(h, |w| w.query_filtered(), mode),
        11 => run::<(Entity, Option<&A>), Or<(With<T1>, With<D>)>>(h, |w| w.query_filtered(), mode),
        12 => run::<(Entity, &mut C, Option<&T1>), Or<(With<T1>, Without<C>)>>(
            h,
            |w| w.query_filtered(),
            mode,
        ),
        13 => run::<Entity, _>(h, |w| w.query().with::<T2>().without::<A>(), mode),
        14 => run::<(Entity, &mut D, &A), _>(h, |w| w.query().without::<T1>(), mode),
        15 => run::<Mover, ()>(h, |w| w.query(), mode),
        16 => run::<Mover, _>(h, |w| w.query().with::<T2>(), mode),
        17 => run::<(Entity, Option<&mut A>, Option<&mut C>, &T2), ()>(h, |w| w.query(), mode),
        18 => run::<(Entity, &A), Without<A>>(h, |w| w.query_filtered(), mode),
        19 => run::<(Entity, (&A, Option<&B>), (&mut D,)), ()>(h, |w| w.query(), mode),
        20 => run::<(Entity, &mut T1, &B), Or<(With<A>, With<C>, Without<D>)>>(
            h,
            |w| w.query_filtered(),
            mode,
        ),
        21 => run::<Entity, _>(h, |w| w.query().filter::<Or<(With<T1>, With<T2>)>>(), mode),
        22 => {
            run::<(Entity, &B), (With<T1>, (Without<T2>, With<C>))>(h, |w| w.query_filtered(), mode)
        }
        23 => run::<(Entity, &mut B, &mut C, &mut A, &mut D), ()>(h, |w| w.query(), mode),
        24 => run::<(Entity, &T1, &T2), ()>(h, |w| w.query(), mode),
        25 => run::<
            (
                Entity,
                Option<&A>,
                Option<&B>,
                Option<&C>,
                Option<&D>,
                Option<&T1>,
                Option<&T2>,
            ),
            (),
        >(h, |w| w.query(), mode),
        26 => run::<(&A, Option<&T1>), Without<B>>(h, |w| w.query_filtered(), mode),
        27 => run::<Outer, ()>(h, |w| w.query(), mode),
        28 => run::<(Entity, &mut A), _>(
            h,
            |w| {
                w.query_filtered::<_, Or<(Without<A>, With<T2>)>>()
                    .with::<A>()
                    .without::<C>()
            },
            mode,
        ),
        _ => run::<(&mut B, Option<&D>), Or<(Without<T1>, Without<T2>)>>(
            h,
            |w| w.query_filtered(),
            mode,
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

/// One value of one component type.
#[derive(Clone, Debug)]
enum CompVal {
    A(A),
    B(B),
    C(C),
    D(D),
    T1,
    T2,
}

/// One step of a test case.
#[derive(Clone, Debug)]
enum Op {
    Spawn(ModelEntity),
    /// `spawn_batch` of `usize` entities with bundle shape `u8 % 5` and values from `u32`, so
    /// that several storages hold the same entities at the same positions.
    SpawnBatch(u8, usize, u32),
    Despawn(Index),
    Insert(Index, CompVal),
    /// Removes component number `u8 % 6` (A, B, C, D, T1, T2).
    Remove(Index, u8),
    /// Runs shape `usize` with write path `u8`.
    Query(usize, u8),
}

fn a() -> impl Strategy<Value = A> {
    (0u32..4).prop_map(A)
}

fn b() -> impl Strategy<Value = B> {
    vec(b'a'..=b'c', 0..3).prop_map(|bytes| B(String::from_utf8(bytes).expect("ascii")))
}

fn c() -> impl Strategy<Value = C> {
    vec(0u16..5, 0..3).prop_map(C)
}

fn d() -> impl Strategy<Value = D> {
    prop_oneof![Just(u64::MAX), 0u64..4].prop_map(D)
}

fn model_entity() -> impl Strategy<Value = ModelEntity> {
    (
        option::of(a()),
        option::of(b()),
        option::of(c()),
        option::of(d()),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(a, b, c, d, t1, t2)| ModelEntity {
            a,
            b,
            c,
            d,
            t1: t1.then_some(T1),
            t2: t2.then_some(T2),
        })
}

fn comp_val() -> impl Strategy<Value = CompVal> {
    prop_oneof![
        a().prop_map(CompVal::A),
        b().prop_map(CompVal::B),
        c().prop_map(CompVal::C),
        d().prop_map(CompVal::D),
        Just(CompVal::T1),
        Just(CompVal::T2),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => model_entity().prop_map(Op::Spawn),
        1 => (any::<u8>(), 0usize..90, any::<u32>()).prop_map(|(s, n, v)| Op::SpawnBatch(s, n, v)),
        2 => any::<Index>().prop_map(Op::Despawn),
        3 => (any::<Index>(), comp_val()).prop_map(|(i, v)| Op::Insert(i, v)),
        2 => (any::<Index>(), any::<u8>()).prop_map(|(i, w)| Op::Remove(i, w)),
        3 => (0..SHAPES, any::<u8>()).prop_map(|(s, m)| Op::Query(s, m)),
    ]
}

fn apply(h: &mut Harness, op: &Op) -> Result<(), TestCaseError> {
    let target = match op {
        Op::Spawn(m) => return h.spawn(m.clone()),
        Op::SpawnBatch(shape, n, seed) => return h.spawn_batch(*shape, *n, *seed),
        Op::Query(shape, mode) => return run_shape(h, *shape, *mode),
        Op::Despawn(i) | Op::Insert(i, _) | Op::Remove(i, _) => i,
    };
    let Some(e) = h.pick(target) else {
        return Ok(());
    };
    match op {
        Op::Spawn(_) | Op::SpawnBatch(..) | Op::Query(..) => unreachable!("handled above"),
        Op::Despawn(_) => h.despawn(e),
        Op::Insert(_, v) => match v.clone() {
            CompVal::A(v) => h.insert(e, v),
            CompVal::B(v) => h.insert(e, v),
            CompVal::C(v) => h.insert(e, v),
            CompVal::D(v) => h.insert(e, v),
            CompVal::T1 => h.insert(e, T1),
            CompVal::T2 => h.insert(e, T2),
        },
        Op::Remove(_, which) => match which % 6 {
            0 => h.remove::<A>(e),
            1 => h.remove::<B>(e),
            2 => h.remove::<C>(e),
            3 => h.remove::<D>(e),
            4 => h.remove::<T1>(e),
            _ => h.remove::<T2>(e),
        },
    }
}

fn cases() -> u32 {
    std::env::var("ECS_MODEL_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Random worlds and random query shapes agree with a brute-force scan of the model on every
    /// read path, write path and error; at the end of each case every shape runs once more.
    #[test]
    fn queries_agree_with_the_model(
        first in (any::<u8>(), 0usize..200, any::<u32>()),
        ops in vec(op(), 0..MAX_OPS),
        mode in any::<u8>(),
    ) {
        let mut h = Harness::default();
        // A first batch lines several storages up (same entities at the same positions, in
        // several chunks of the iterator); the ops that follow break that up in places.
        h.spawn_batch(first.0, first.1, first.2)?;
        for op in &ops {
            apply(&mut h, op)?;
        }
        h.check_state()?;
        for shape in 0..SHAPES {
            run_shape(&mut h, shape, mode.wrapping_add(shape as u8))?;
        }
    }
}

/// A fixed world with every kind of hole and reuse, run through every shape and every write
/// path: a deterministic smoke test of the harness itself (it must see matches, not only
/// empty results).
#[test]
fn every_shape_on_a_fixed_world() -> Result<(), TestCaseError> {
    let mut h = Harness::default();
    for i in 0..24u32 {
        h.spawn(ModelEntity {
            a: (i % 2 == 0).then_some(A(i)),
            b: (i % 3 != 0).then(|| B(format!("b{i}"))),
            c: (i % 4 != 1).then(|| C(vec![i as u16; (i % 3) as usize])),
            d: (i % 5 != 2).then_some(D(u64::from(i) * 10)),
            t1: (i % 3 == 1).then_some(T1),
            t2: (i % 2 == 1 || i % 7 == 0).then_some(T2),
        })?;
    }
    for i in [3usize, 8, 0, 15, 11] {
        let e = *h.live.keys().nth(i).expect("enough live entities");
        h.despawn(e)?;
    }
    let reused = ModelEntity {
        a: Some(A(99)),
        b: Some(B("reused".into())),
        c: Some(C(vec![1, 2])),
        d: Some(D(5)),
        t1: Some(T1),
        t2: Some(T2),
    };
    for _ in 0..3 {
        h.spawn(reused.clone())?;
    }
    prop_assert!(h.live.keys().any(|e| e.version() == 2), "indices reused");
    for mode in 0..5 {
        for shape in 0..SHAPES {
            run_shape(&mut h, shape, mode)?;
        }
    }
    // Shapes that must have matched something here, so the comparisons above were not vacuous.
    prop_assert!(!h.expected_rows::<Mover, ()>().is_empty());
    prop_assert!(!h.expected_rows::<Outer, ()>().is_empty());
    prop_assert!(!h.expected_rows::<(Entity, &A), With<T1>>().is_empty());
    Ok(())
}
