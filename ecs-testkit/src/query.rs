//! Typed queries against the model.
//!
//! Queries are types, so the model reads them through traits implemented for the same types
//! the query uses: [`ModelFetch`] for fetches (`&T`, `&mut T`, `Option<..>`, `Entity`, tuples,
//! derived query structs) and [`ModelFilter`] for filters (`With`, `Without`, `Or`, tuples). An
//! item is flattened to a row of [`Val`]s on both sides; the model answers every query by brute
//! force over its live entities, with the exact `Error` of `get`: liveness first, then the
//! filter, then the fetch.
//!
//! One table holds every query shape the tests build ([`SHAPES`]): the first [`OP_SHAPES`] are
//! the ones `Op::Query` picks (one query method per operation, see [`check_method`]), the rest
//! the ones `Op::QuerySweep` runs through every read and write path ([`check_sweep`]).

use std::any::{Any, type_name};
use std::collections::BTreeMap;
#[cfg(feature = "parallel")]
use std::sync::Mutex;

use ecs_core::prelude::*;
use ecs_core::query::{QueryData, QueryFilter, QueryState, ReadOnlyItem};

use crate::component::{Count, Generate, Items, Key, Mark, Mirror, Name, Pos, Tag, Tracked, Value};
use crate::model::{Model, Record, missing};

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

/// The model's reading of a fetch type: what it requires, yields and writes.
pub trait ModelFetch: QueryData {
    /// The full type name of the first required component `m` lacks, in field order.
    fn model_missing(m: &Record) -> Option<&'static str>;
    /// The flattened item of a matching entity.
    fn expect(e: Entity, m: &Record, out: &mut Vec<Val>);
    /// Applies [`Generate::bump`] to what this fetch writes, on a matching entity.
    fn bump_model(m: &mut Record, k: u8);
    /// Flattens a full item.
    fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>);
    /// Flattens a read-only item.
    fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>);
    /// Applies [`Generate::bump`] through a full item's mutable references.
    fn bump_item(item: &mut Self::Item<'_>, k: u8);
}

fn held<T: Mirror>(m: &Record) -> Option<&Value> {
    m.get(&Key::of::<T>())
}

impl<T: Mirror> ModelFetch for &T {
    fn model_missing(m: &Record) -> Option<&'static str> {
        held::<T>(m).is_none().then(type_name::<T>)
    }
    fn expect(_: Entity, m: &Record, out: &mut Vec<Val>) {
        out.push(Val::V(held::<T>(m).expect("matching").clone()));
    }
    fn bump_model(_: &mut Record, _: u8) {}
    fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>) {
        out.push(Val::V(item.mirror()));
    }
    fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>) {
        out.push(Val::V(item.mirror()));
    }
    fn bump_item(_: &mut Self::Item<'_>, _: u8) {}
}

impl<T: Generate> ModelFetch for &mut T {
    fn model_missing(m: &Record) -> Option<&'static str> {
        held::<T>(m).is_none().then(type_name::<T>)
    }
    fn expect(_: Entity, m: &Record, out: &mut Vec<Val>) {
        out.push(Val::V(held::<T>(m).expect("matching").clone()));
    }
    fn bump_model(m: &mut Record, k: u8) {
        m.get_mut(&Key::of::<T>()).expect("matching").bump(k);
    }
    fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>) {
        out.push(Val::V(item.mirror()));
    }
    fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>) {
        out.push(Val::V(item.mirror()));
    }
    fn bump_item(item: &mut Self::Item<'_>, k: u8) {
        item.bump(k);
    }
}

impl<Q: ModelFetch> ModelFetch for Option<Q> {
    fn model_missing(_: &Record) -> Option<&'static str> {
        None
    }
    fn expect(e: Entity, m: &Record, out: &mut Vec<Val>) {
        if Q::model_missing(m).is_none() {
            Q::expect(e, m, out);
        } else {
            out.push(Val::Absent);
        }
    }
    fn bump_model(m: &mut Record, k: u8) {
        if Q::model_missing(m).is_none() {
            Q::bump_model(m, k);
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
    fn bump_item(item: &mut Self::Item<'_>, k: u8) {
        if let Some(inner) = item {
            Q::bump_item(inner, k);
        }
    }
}

impl ModelFetch for Entity {
    fn model_missing(_: &Record) -> Option<&'static str> {
        None
    }
    fn expect(e: Entity, _: &Record, out: &mut Vec<Val>) {
        out.push(Val::E(e));
    }
    fn bump_model(_: &mut Record, _: u8) {}
    fn item_vals(item: &Entity, out: &mut Vec<Val>) {
        out.push(Val::E(*item));
    }
    fn ro_item_vals(item: &Entity, out: &mut Vec<Val>) {
        out.push(Val::E(*item));
    }
    fn bump_item(_: &mut Entity, _: u8) {}
}

macro_rules! model_fetch_tuple {
    ($($q:ident $i:tt),*) => {
        impl<$($q: ModelFetch),*> ModelFetch for ($($q,)*) {
            fn model_missing(m: &Record) -> Option<&'static str> {
                None $(.or_else(|| $q::model_missing(m)))*
            }
            fn expect(e: Entity, m: &Record, out: &mut Vec<Val>) {
                $($q::expect(e, m, out);)*
            }
            fn bump_model(m: &mut Record, k: u8) {
                $($q::bump_model(m, k);)*
            }
            fn item_vals(item: &Self::Item<'_>, out: &mut Vec<Val>) {
                $($q::item_vals(&item.$i, out);)*
            }
            fn ro_item_vals(item: &ReadOnlyItem<'_, Self>, out: &mut Vec<Val>) {
                $($q::ro_item_vals(&item.$i, out);)*
            }
            fn bump_item(item: &mut Self::Item<'_>, k: u8) {
                $($q::bump_item(&mut item.$i, k);)*
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

/// The model's reading of a filter type.
pub trait ModelFilter: QueryFilter {
    /// `Ok` if `m` passes, otherwise the error `Query::get` must give (checked in order).
    fn model_check(e: Entity, m: &Record) -> Result<(), Error>;
}

impl ModelFilter for () {
    fn model_check(_: Entity, _: &Record) -> Result<(), Error> {
        Ok(())
    }
}

impl<T: Mirror> ModelFilter for With<T> {
    fn model_check(entity: Entity, m: &Record) -> Result<(), Error> {
        match held::<T>(m) {
            Some(_) => Ok(()),
            None => Err(missing(entity, Key::of::<T>())),
        }
    }
}

impl<T: Mirror> ModelFilter for Without<T> {
    fn model_check(entity: Entity, m: &Record) -> Result<(), Error> {
        match held::<T>(m) {
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
            fn model_check(e: Entity, m: &Record) -> Result<(), Error> {
                $($f::model_check(e, m)?;)*
                Ok(())
            }
        }

        impl<$($f: ModelFilter),*> ModelFilter for Or<($($f,)*)> {
            fn model_check(entity: Entity, m: &Record) -> Result<(), Error> {
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
// Derived queries
// ---------------------------------------------------------------------------------------------

/// A derived query: an entity, a write, two optional reads.
#[derive(Query)]
struct View<'w> {
    entity: Entity,
    pos: &'w mut Pos,
    name: Option<&'w Name>,
    tracked: Option<&'w Tracked>,
}

/// `View` fetches what this tuple fetches, in this order.
type ViewTuple<'w> = (Entity, &'w mut Pos, Option<&'w Name>, Option<&'w Tracked>);

/// A derived query with an entity, a write, a read and an optional read.
#[derive(Query)]
struct Mover<'w> {
    entity: Entity,
    pos: &'w mut Pos,
    name: &'w Name,
    items: Option<&'w Items>,
}

/// `Mover` fetches what this tuple fetches, in this order.
type MoverTuple<'w> = (Entity, &'w mut Pos, &'w Name, Option<&'w Items>);

/// A derived query that nests [`Mover`] and writes through an option.
#[derive(Query)]
#[query(mutable)]
struct Outer<'w> {
    entity: Entity,
    mover: Mover<'w>,
    count: Option<&'w mut Count>,
    tag: &'w Tag,
}

/// `Outer` fetches what this tuple fetches, in this order.
type OuterTuple<'w> = (Entity, Mover<'w>, Option<&'w mut Count>, &'w Tag);

fn opt<T: Mirror>(c: Option<&T>) -> Val {
    c.map_or(Val::Absent, |c| Val::V(c.mirror()))
}

/// Implements the model side of a derived query through the tuple it fetches like.
macro_rules! model_side_as {
    ($Tuple:ident) => {
        fn model_missing(m: &Record) -> Option<&'static str> {
            $Tuple::<'w>::model_missing(m)
        }
        fn expect(e: Entity, m: &Record, out: &mut Vec<Val>) {
            $Tuple::<'w>::expect(e, m, out);
        }
        fn bump_model(m: &mut Record, k: u8) {
            $Tuple::<'w>::bump_model(m, k);
        }
    };
}

impl<'w> ModelFetch for View<'w> {
    model_side_as!(ViewTuple);
    fn item_vals(item: &ViewItem<'_>, out: &mut Vec<Val>) {
        out.extend([
            Val::E(item.entity),
            Val::V(item.pos.mirror()),
            opt(item.name),
            opt(item.tracked),
        ]);
    }
    fn ro_item_vals(item: &ViewReadOnly<'_>, out: &mut Vec<Val>) {
        out.extend([
            Val::E(item.entity),
            Val::V(item.pos.mirror()),
            opt(item.name),
            opt(item.tracked),
        ]);
    }
    fn bump_item(item: &mut ViewItem<'_>, k: u8) {
        item.pos.bump(k);
    }
}

impl<'w> ModelFetch for Mover<'w> {
    model_side_as!(MoverTuple);
    fn item_vals(item: &MoverItem<'_>, out: &mut Vec<Val>) {
        out.extend([
            Val::E(item.entity),
            Val::V(item.pos.mirror()),
            Val::V(item.name.mirror()),
            opt(item.items),
        ]);
    }
    fn ro_item_vals(item: &MoverReadOnly<'_>, out: &mut Vec<Val>) {
        out.extend([
            Val::E(item.entity),
            Val::V(item.pos.mirror()),
            Val::V(item.name.mirror()),
            opt(item.items),
        ]);
    }
    fn bump_item(item: &mut MoverItem<'_>, k: u8) {
        item.pos.bump(k);
    }
}

impl<'w> ModelFetch for Outer<'w> {
    model_side_as!(OuterTuple);
    fn item_vals(item: &OuterItem<'_>, out: &mut Vec<Val>) {
        out.push(Val::E(item.entity));
        Mover::item_vals(&item.mover, out);
        out.push(opt(item.count.as_deref()));
        out.push(Val::V(item.tag.mirror()));
    }
    fn ro_item_vals(item: &OuterReadOnly<'_>, out: &mut Vec<Val>) {
        out.push(Val::E(item.entity));
        Mover::ro_item_vals(&item.mover, out);
        out.push(opt(item.count));
        out.push(Val::V(item.tag.mirror()));
    }
    fn bump_item(item: &mut OuterItem<'_>, k: u8) {
        Mover::bump_item(&mut item.mover, k);
        if let Some(count) = item.count.as_deref_mut() {
            count.bump(k);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The model's answers
// ---------------------------------------------------------------------------------------------

/// Room for the longest row of the shape table, so building one allocates once.
const ROW: usize = 10;

/// The flattened read-only item.
pub fn ro_row<Q: ModelFetch>(item: &ReadOnlyItem<'_, Q>) -> Vec<Val> {
    let mut out = Vec::with_capacity(ROW);
    Q::ro_item_vals(item, &mut out);
    out
}

/// The flattened full item.
pub fn row<Q: ModelFetch>(item: &Q::Item<'_>) -> Vec<Val> {
    let mut out = Vec::with_capacity(ROW);
    Q::item_vals(item, &mut out);
    out
}

/// Applies `k` through the item's `&mut` parts, then flattens it.
fn rw_row<Q: ModelFetch>(mut item: Q::Item<'_>, k: u8) -> Vec<Val> {
    Q::bump_item(&mut item, k);
    row::<Q>(&item)
}

fn sorted(mut rows: Vec<Vec<Val>>) -> Vec<Vec<Val>> {
    rows.sort();
    rows
}

/// The entities `Query<Q, F>` matches.
pub fn matching<Q: ModelFetch, F: ModelFilter>(model: &Model) -> Vec<Entity> {
    model
        .live
        .iter()
        .filter(|&(&e, m)| F::model_check(e, m).is_ok() && Q::model_missing(m).is_none())
        .map(|(&e, _)| e)
        .collect()
}

/// The sorted flattened items of `Query<Q, F>`.
pub fn expected_rows<Q: ModelFetch, F: ModelFilter>(model: &Model) -> Vec<Vec<Val>> {
    sorted(
        matching::<Q, F>(model)
            .into_iter()
            .map(|e| {
                let mut out = Vec::with_capacity(ROW);
                Q::expect(e, &model.live[&e], &mut out);
                out
            })
            .collect(),
    )
}

/// What `Query<Q, F>::get(e)` must answer: liveness, then the filter, then the fetch.
pub fn expected_get<Q: ModelFetch, F: ModelFilter>(
    model: &Model,
    e: Entity,
) -> Result<Vec<Val>, Error> {
    model.check(e)?;
    let m = &model.live[&e];
    F::model_check(e, m)?;
    if let Some(component) = Q::model_missing(m) {
        return Err(Error::MissingComponent {
            entity: e,
            component,
        });
    }
    let mut out = Vec::with_capacity(ROW);
    Q::expect(e, m, &mut out);
    Ok(out)
}

/// What `single` / `single_mut` must return for a query named `query` with `rows` as its items.
pub fn expected_single(rows: &[Vec<Val>], query: &'static str) -> Result<Vec<Val>, Error> {
    match rows {
        [one] => Ok(one.clone()),
        [] => Err(Error::NoMatch { query }),
        _ => Err(Error::MultipleMatches { query }),
    }
}

/// Mirrors a write of `Q` by `k` to every entity in `entities`.
fn bump<Q: ModelFetch>(model: &mut Model, entities: &[Entity], k: u8) {
    for e in entities {
        Q::bump_model(model.live.get_mut(e).expect("live"), k);
    }
}

fn bump_all<Q: ModelFetch, F: ModelFilter>(model: &mut Model, k: u8) {
    let entities = matching::<Q, F>(model);
    bump::<Q>(model, &entities, k);
}

/// An entity error names the entity, in `Debug` form, in its message.
pub fn check_error_text(err: &Error, e: Entity) {
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

/// A number that depends on every value of a row, for sum-style folds.
fn checksum(row: &[Val]) -> u64 {
    row.iter()
        .map(|v| match v {
            Val::E(e) => e.to_bits(),
            Val::V(Value::Unit) => 13,
            Val::V(Value::U32(x)) => u64::from(*x) * 3,
            Val::V(Value::U64(x)) => x.wrapping_mul(11),
            Val::V(Value::I64(x)) => (*x as u64).wrapping_mul(23),
            Val::V(Value::Pair(x, y)) => (*x as u64).wrapping_mul(29) ^ (*y as u64),
            Val::V(Value::Text(s)) => s.len() as u64 * 5,
            Val::V(Value::List(c)) => c.iter().map(|&x| u64::from(x)).sum::<u64>() * 7,
            Val::Absent => 19,
        })
        .fold(0u64, u64::wrapping_add)
}

fn sum_rows(rows: &[Vec<Val>]) -> u64 {
    rows.iter().map(|r| checksum(r)).fold(0, u64::wrapping_add)
}

// ---------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------

/// How a query is built from the world (`query`, `query_filtered`, chained filters).
pub type Build<Q, F> = for<'w> fn(&'w mut World) -> Query<'w, Q, F>;

/// Number of query methods [`check_method`] knows.
pub const METHODS: u8 = 15;

/// Runs `par_for_each` writing `k` through every match; the rows it saw. Without the
/// `parallel` feature there is no `par_for_each`, and the same check runs through `for_each`.
fn par_rows<Q: ModelFetch, F: ModelFilter>(
    world: &mut World,
    build: Build<Q, F>,
    k: u8,
) -> Vec<Vec<Val>>
where
    for<'w> Q::State<'w>: Sync,
    for<'w> F::State<'w>: Sync,
{
    #[cfg(feature = "parallel")]
    {
        let rows = Mutex::new(Vec::new());
        build(world).par_for_each(|item| {
            let row = rw_row::<Q>(item, k);
            rows.lock().expect("no panic while locked").push(row);
        });
        rows.into_inner().expect("no panic while locked")
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut rows = Vec::new();
        build(world).for_each(|item| rows.push(rw_row::<Q>(item, k)));
        rows
    }
}

/// Runs query method `method % METHODS` of the query `build` makes (aimed at `e` where it
/// takes an entity, writing `k` where it writes) and compares it with the model.
pub fn check_method<Q: ModelFetch, F: ModelFilter>(
    world: &mut World,
    model: &mut Model,
    build: Build<Q, F>,
    method: u8,
    e: Entity,
    k: u8,
) where
    for<'w> Q::State<'w>: Sync,
    for<'w> F::State<'w>: Sync,
{
    let before = expected_rows::<Q, F>(model);
    let name = type_name::<Q>();
    match method % METHODS {
        0 => {
            let q = build(world);
            assert_eq!(
                sorted(q.iter().map(|i| ro_row::<Q>(&i)).collect()),
                before,
                "iter"
            );
            assert_eq!(q.iter().count(), before.len(), "count");
            assert_eq!(q.is_empty(), before.is_empty(), "is_empty");
            let (low, high) = q.iter().size_hint();
            assert!(
                low <= before.len() && high.is_none_or(|h| h >= before.len()),
                "size_hint"
            );
        }
        1 => {
            let mut q = build(world);
            let got = sorted(q.iter_mut().map(|item| rw_row::<Q>(item, k)).collect());
            bump_all::<Q, F>(model, k);
            assert_eq!(got, expected_rows::<Q, F>(model), "iter_mut");
        }
        2 => {
            let mut got = Vec::new();
            build(world).for_each(|item| got.push(rw_row::<Q>(item, k)));
            bump_all::<Q, F>(model, k);
            assert_eq!(sorted(got), expected_rows::<Q, F>(model), "for_each");
        }
        3 => {
            let mut q = build(world);
            let got = q.iter_mut().fold(Vec::new(), |mut acc, item| {
                acc.push(rw_row::<Q>(item, k));
                acc
            });
            bump_all::<Q, F>(model, k);
            assert_eq!(sorted(got), expected_rows::<Q, F>(model), "iter_mut().fold");
        }
        4 => {
            let q = build(world);
            let mut it = q.iter();
            let mut got = Vec::new();
            for _ in 0..usize::from(k) % (before.len() + 1) {
                got.push(ro_row::<Q>(&it.next().expect("fewer items than the model")));
            }
            let got = it.fold(got, |mut acc, item| {
                acc.push(ro_row::<Q>(&item));
                acc
            });
            assert_eq!(sorted(got), before, "next then fold");
        }
        5 => {
            let q = build(world);
            let got = q.get(e).map(|i| ro_row::<Q>(&i));
            let expected = expected_get::<Q, F>(model, e);
            if let Err(err) = &expected {
                check_error_text(err, e);
            }
            assert_eq!(got, expected, "Query::get({e:?})");
        }
        6 => {
            let mut q = build(world);
            let got = q.get_mut(e).map(|item| rw_row::<Q>(item, k));
            let mut expected = expected_get::<Q, F>(model, e);
            if expected.is_ok() {
                bump::<Q>(model, &[e], k);
                expected = expected_get::<Q, F>(model, e);
            }
            assert_eq!(got, expected, "Query::get_mut({e:?})");
        }
        7 => {
            let q = build(world);
            assert_eq!(
                q.single().map(|i| ro_row::<Q>(&i)),
                expected_single(&before, name),
                "single"
            );
        }
        8 => {
            let mut q = build(world);
            let got = q.single_mut().map(|item| rw_row::<Q>(item, k));
            if before.len() == 1 {
                bump_all::<Q, F>(model, k);
            }
            let after = expected_rows::<Q, F>(model);
            assert_eq!(got, expected_single(&after, name), "single_mut");
        }
        9 => {
            let q = build(world);
            let expected = expected_get::<Q, F>(model, e).is_ok();
            assert_eq!(q.contains(e), expected, "Query::contains({e:?})");
        }
        10 => {
            let q = build(world);
            let mut got = Vec::new();
            for item in &q {
                got.push(ro_row::<Q>(&item));
            }
            assert_eq!(sorted(got), before, "&Query");
        }
        11 => {
            let mut q = build(world);
            let mut got = Vec::new();
            for item in &mut q {
                got.push(rw_row::<Q>(item, k));
            }
            bump_all::<Q, F>(model, k);
            assert_eq!(sorted(got), expected_rows::<Q, F>(model), "&mut Query");
        }
        12 => {
            let mut got = Vec::new();
            for item in build(world) {
                got.push(rw_row::<Q>(item, k));
            }
            bump_all::<Q, F>(model, k);
            assert_eq!(
                sorted(got),
                expected_rows::<Q, F>(model),
                "Query::into_iter"
            );
        }
        14 => {
            let got = sorted(par_rows(world, build, k));
            bump_all::<Q, F>(model, k);
            assert_eq!(got, expected_rows::<Q, F>(model), "par_for_each");
        }
        _ => {
            let q = world.query_ref::<Q::ReadOnly>().filter::<F>();
            let twin = world.query_ref::<Q::ReadOnly>().filter::<F>();
            assert_eq!(
                sorted(q.iter().map(|i| ro_row::<Q>(&i)).collect()),
                before,
                "query_ref iter"
            );
            assert_eq!(
                q.get(e).map(|i| ro_row::<Q>(&i)),
                expected_get::<Q, F>(model, e),
                "query_ref get"
            );
            assert_eq!(twin.iter().count(), before.len(), "two query_refs at once");
            assert_eq!(
                q.single().map(|i| ro_row::<Q>(&i)),
                expected_single(&before, type_name::<Q::ReadOnly>()),
                "query_ref single"
            );
        }
    }
}

/// Runs the query `build` makes through every read and write path and compares it with the
/// model: `iter` by `next`, by `fold` and half and half, `&Query`, `count`, a checksum,
/// `is_empty`, `size_hint`, `single`; `get` / `contains` / `get_mut` for every id the world
/// handed out and for made-up ids (exact errors); the same reads through `query_ref`; writes by
/// `k` through `get_mut`, then through the path `mode` picks (`iter_mut`, `for_each`,
/// `&mut Query`, the consuming `IntoIterator` or `iter_mut().fold`), then `single_mut`.
pub fn check_sweep<Q: ModelFetch, F: ModelFilter>(
    world: &mut World,
    model: &mut Model,
    mut build: impl QuerySource<Q, F>,
    mode: u8,
    k: u8,
) {
    let expected = expected_rows::<Q, F>(model);
    let probes = model.probes();
    let expected_gets: Vec<_> = probes
        .iter()
        .map(|&e| expected_get::<Q, F>(model, e))
        .collect();

    // The read side, through the exclusive query.
    {
        let q = build.build(world);
        let mut it = q.iter();
        assert!(it.size_hint().1.is_some_and(|hi| hi >= expected.len()));
        let mut rows = Vec::new();
        // A `for` loop calls `next`, the one-at-a-time path (`fold` is checked below).
        for item in it.by_ref() {
            rows.push(ro_row::<Q>(&item));
        }
        assert!(it.next().is_none(), "not fused");
        assert_eq!(sorted(rows), expected, "iter().next()");

        let folded = q.iter().fold(Vec::new(), |mut acc, item| {
            acc.push(ro_row::<Q>(&item));
            acc
        });
        assert_eq!(sorted(folded), expected, "iter().fold()");

        let mut it = q.iter();
        let split: Vec<_> = it
            .by_ref()
            .take(expected.len() / 2)
            .map(|i| ro_row::<Q>(&i))
            .collect();
        let split = it.fold(split, |mut acc, item| {
            acc.push(ro_row::<Q>(&item));
            acc
        });
        assert_eq!(sorted(split), expected, "half next, half fold");

        let by_ref: Vec<_> = (&q).into_iter().map(|i| ro_row::<Q>(&i)).collect();
        assert_eq!(sorted(by_ref), expected, "&Query as IntoIterator");

        assert_eq!(q.iter().count(), expected.len());
        let sum: u64 = q
            .iter()
            .map(|i| checksum(&ro_row::<Q>(&i)))
            .fold(0, u64::wrapping_add);
        assert_eq!(sum, sum_rows(&expected));
        assert_eq!(q.is_empty(), expected.is_empty());
        assert_eq!(
            q.single().map(|i| ro_row::<Q>(&i)),
            expected_single(&expected, type_name::<Q>())
        );

        for (&e, want) in probes.iter().zip(&expected_gets) {
            assert_eq!(&q.get(e).map(|i| ro_row::<Q>(&i)), want, "get({e:?})");
            assert_eq!(q.contains(e), want.is_ok(), "contains({e:?})");
        }
    }

    // The read side through a shared borrow: `query_ref` of the read-only form, `.filter::<F>()`.
    {
        let q = world.query_ref::<Q::ReadOnly>().filter::<F>();
        let other = world.query_ref::<Q::ReadOnly>().filter::<F>();
        let rows: Vec<_> = q.iter().map(|i| ro_row::<Q>(&i)).collect();
        assert_eq!(sorted(rows), expected, "query_ref");
        assert_eq!(other.iter().count(), expected.len(), "second query_ref");
        assert_eq!(
            q.single().map(|i| ro_row::<Q>(&i)),
            expected_single(&expected, type_name::<Q::ReadOnly>())
        );
        for (&e, want) in probes.iter().zip(&expected_gets) {
            assert_eq!(&q.get(e).map(|i| ro_row::<Q>(&i)), want, "query_ref get");
        }
    }

    // Writes through `get_mut`: every probe, each matching entity changed once.
    {
        let mut q = build.build(world);
        for (&e, want) in probes.iter().zip(&expected_gets) {
            let got = q.get_mut(e).map(|mut item| {
                let vals = row::<Q>(&item);
                Q::bump_item(&mut item, k);
                vals
            });
            assert_eq!(&got, want, "get_mut({e:?})");
        }
    }
    let matches = matching::<Q, F>(model);
    bump::<Q>(model, &matches, k);

    // Writes through iteration, by the path `mode` picks.
    let expected = expected_rows::<Q, F>(model);
    let mut rows = Vec::new();
    {
        let mut q = build.build(world);
        let mut visit = |mut item: Q::Item<'_>| {
            rows.push(row::<Q>(&item));
            Q::bump_item(&mut item, k);
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
    assert_eq!(
        sorted(rows),
        expected,
        "mutable iteration, mode {}",
        mode % 5
    );
    bump::<Q>(model, &matches, k);

    // `single_mut`: writes when exactly one entity matches.
    let expected = expected_rows::<Q, F>(model);
    {
        let mut q = build.build(world);
        let got = q.single_mut().map(|mut item| {
            let vals = row::<Q>(&item);
            Q::bump_item(&mut item, k);
            vals
        });
        assert_eq!(got, expected_single(&expected, type_name::<Q>()));
    }
    if matches.len() == 1 {
        bump::<Q>(model, &matches, k);
    }
}

/// Where [`check_sweep`] gets its queries: a function of the world, or a kept [`QueryState`]
/// ([`FromState`]), whose query borrows it.
pub trait QuerySource<Q: QueryData, F: QueryFilter> {
    /// The query over `world`.
    fn build<'w>(&'w mut self, world: &'w mut World) -> Query<'w, Q, F>;
}

impl<Q: QueryData, F: QueryFilter, B> QuerySource<Q, F> for B
where
    B: for<'w> FnMut(&'w mut World) -> Query<'w, Q, F>,
{
    fn build<'w>(&'w mut self, world: &'w mut World) -> Query<'w, Q, F> {
        self(world)
    }
}

/// Queries built from a kept [`QueryState`].
pub struct FromState<'s, Q: QueryData, F: QueryFilter>(pub &'s mut QueryState<Q, F>);

impl<Q: QueryData, F: QueryFilter> QuerySource<Q, F> for FromState<'_, Q, F> {
    fn build<'w>(&'w mut self, world: &'w mut World) -> Query<'w, Q, F> {
        self.0.query_mut(world)
    }
}

// ---------------------------------------------------------------------------------------------
// The shapes
// ---------------------------------------------------------------------------------------------

/// Number of query shapes in the table.
pub const SHAPES: usize = 40;

/// The shapes `Op::Query` picks from: the first ones of the table.
pub const OP_SHAPES: u8 = 10;

/// Something done with one query shape of the table.
pub(crate) trait ShapeVisitor {
    type Out;
    fn visit<Q: ModelFetch + 'static, F: ModelFilter + 'static>(
        self,
        build: Build<Q, F>,
    ) -> Self::Out
    where
        for<'w> Q::State<'w>: Sync,
        for<'w> F::State<'w>: Sync;
}

type TagOrItems = Or<(With<Tag>, With<Items>)>;
type TagOrNoItems = Or<(With<Tag>, Without<Items>)>;

/// Calls `v` with query shape `shape % SHAPES`. Shapes 0 to 9 mix the fuzzed types (`Tracked`
/// included, and the derived `View`); shapes 10 to 39 combine six types (`Pos`, `Name`, `Items`,
/// `Count`, `Tag`, `Mark`) in fetch tuples, nested tuples, derived structs (one nesting another),
/// `With`, `Without`, `Or`, tuple filters and `.with()` / `.without()` / `.filter()` chaining.
pub(crate) fn with_shape<V: ShapeVisitor>(shape: usize, v: V) -> V::Out {
    match shape % SHAPES {
        0 => v.visit::<&Pos, ()>(|w| w.query()),
        1 => v.visit::<(Entity, &mut Pos, Option<&Name>), ()>(|w| w.query()),
        2 => v.visit::<(&mut Name, &Items), Without<Tag>>(|w| w.query_filtered()),
        3 => v.visit::<Entity, _>(|w| w.query().filter::<TagOrItems>()),
        4 => v.visit::<(Option<&mut Pos>, &Tag), _>(|w| w.query().without::<Name>()),
        5 => v.visit::<(&Tracked, Option<&mut Items>), With<Pos>>(|w| w.query_filtered()),
        6 => v.visit::<View, _>(|w| w.query().filter::<TagOrNoItems>()),
        7 => v.visit::<Option<&Tag>, ()>(|w| w.query()),
        8 => v.visit::<(Entity, &mut Tracked), (With<Name>, Without<Pos>)>(|w| w.query_filtered()),
        9 => v.visit::<(&Items, &Name, &Pos, Entity), ()>(|w| w.query()),
        10 => v.visit::<Entity, ()>(|w| w.query()),
        11 => v.visit::<(Entity, &Pos), ()>(|w| w.query()),
        12 => v.visit::<(Entity, &Pos, &Name), ()>(|w| w.query()),
        13 => v.visit::<(Entity, Option<&Name>, &Count), ()>(|w| w.query()),
        14 => v.visit::<(Entity, &Tag), ()>(|w| w.query()),
        15 => v.visit::<(Entity, Option<&Mark>, &Items), ()>(|w| w.query()),
        16 => v.visit::<(Entity, &mut Pos), ()>(|w| w.query()),
        17 => v.visit::<(Entity, Option<&mut Name>), ()>(|w| w.query()),
        18 => v.visit::<(Entity, &Pos), With<Tag>>(|w| w.query_filtered()),
        19 => v.visit::<(Entity, &Name, &Items), Without<Mark>>(|w| w.query_filtered()),
        20 => v.visit::<(Entity, &Count), (With<Pos>, Without<Name>)>(|w| w.query_filtered()),
        21 => {
            v.visit::<(Entity, Option<&Pos>), Or<(With<Tag>, With<Count>)>>(|w| w.query_filtered())
        }
        22 => v.visit::<(Entity, &mut Items, Option<&Tag>), Or<(With<Tag>, Without<Items>)>>(|w| {
            w.query_filtered()
        }),
        23 => v.visit::<Entity, _>(|w| w.query().with::<Mark>().without::<Pos>()),
        24 => v.visit::<(Entity, &mut Count, &Pos), _>(|w| w.query().without::<Tag>()),
        25 => v.visit::<Mover, ()>(|w| w.query()),
        26 => v.visit::<Mover, _>(|w| w.query().with::<Mark>()),
        27 => v.visit::<(Entity, Option<&mut Pos>, Option<&mut Items>, &Mark), ()>(|w| w.query()),
        28 => v.visit::<(Entity, &Pos), Without<Pos>>(|w| w.query_filtered()),
        29 => v.visit::<(Entity, (&Pos, Option<&Name>), (&mut Count,)), ()>(|w| w.query()),
        30 => v.visit::<(Entity, &mut Tag, &Name), Or<(With<Pos>, With<Items>, Without<Count>)>>(
            |w| w.query_filtered(),
        ),
        31 => v.visit::<Entity, _>(|w| w.query().filter::<Or<(With<Tag>, With<Mark>)>>()),
        32 => v.visit::<(Entity, &Name), (With<Tag>, (Without<Mark>, With<Items>))>(|w| {
            w.query_filtered()
        }),
        33 => v.visit::<(Entity, &mut Name, &mut Items, &mut Pos, &mut Count), ()>(|w| w.query()),
        34 => v.visit::<(Entity, &Tag, &Mark), ()>(|w| w.query()),
        35 => v.visit::<(
            Entity,
            Option<&Pos>,
            Option<&Name>,
            Option<&Items>,
            Option<&Count>,
            Option<&Tag>,
            Option<&Mark>,
        ), ()>(|w| w.query()),
        36 => v.visit::<(&Pos, Option<&Tag>), Without<Name>>(|w| w.query_filtered()),
        37 => v.visit::<Outer, ()>(|w| w.query()),
        38 => v.visit::<(Entity, &mut Pos), _>(|w| {
            w.query_filtered::<_, Or<(Without<Pos>, With<Mark>)>>()
                .with::<Pos>()
                .without::<Items>()
        }),
        _ => v.visit::<(&mut Name, Option<&Count>), Or<(Without<Tag>, Without<Mark>)>>(|w| {
            w.query_filtered()
        }),
    }
}

/// Runs [`check_method`] on a shape.
pub(crate) struct Method<'a> {
    pub(crate) world: &'a mut World,
    pub(crate) model: &'a mut Model,
    pub(crate) method: u8,
    pub(crate) target: Entity,
    pub(crate) k: u8,
}

impl ShapeVisitor for Method<'_> {
    type Out = ();
    fn visit<Q: ModelFetch + 'static, F: ModelFilter + 'static>(self, build: Build<Q, F>)
    where
        for<'w> Q::State<'w>: Sync,
        for<'w> F::State<'w>: Sync,
    {
        check_method(
            self.world,
            self.model,
            build,
            self.method,
            self.target,
            self.k,
        );
    }
}

/// Runs [`check_sweep`] on a shape.
pub(crate) struct Sweep<'a> {
    pub(crate) world: &'a mut World,
    pub(crate) model: &'a mut Model,
    pub(crate) mode: u8,
    pub(crate) k: u8,
}

impl ShapeVisitor for Sweep<'_> {
    type Out = ();
    fn visit<Q: ModelFetch + 'static, F: ModelFilter + 'static>(self, build: Build<Q, F>)
    where
        for<'w> Q::State<'w>: Sync,
        for<'w> F::State<'w>: Sync,
    {
        check_sweep(self.world, self.model, build, self.mode, self.k);
    }
}

/// Runs [`check_sweep`] on a shape through a [`QueryState`] kept in `states` (keyed by shape,
/// made on first use): every query of the sweep is built from storages found when the state
/// was made, however the world changed since.
pub(crate) struct PreparedSweep<'a> {
    pub(crate) world: &'a mut World,
    pub(crate) model: &'a mut Model,
    pub(crate) states: &'a mut PreparedStates,
    pub(crate) shape: usize,
    pub(crate) mode: u8,
    pub(crate) k: u8,
}

/// The [`QueryState`]s a harness keeps between ops, by shape: each a `QueryState<Q, F>` of the
/// shape's types.
pub type PreparedStates = BTreeMap<usize, Box<dyn Any>>;

/// The state of shape `shape` in `states`, made from `world` if it has none.
fn prepared_state<'s, Q: ModelFetch + 'static, F: ModelFilter + 'static>(
    states: &'s mut PreparedStates,
    shape: usize,
    world: &World,
) -> &'s mut QueryState<Q, F> {
    states
        .entry(shape)
        .or_insert_with(|| Box::new(world.query_state_filtered::<Q, F>()))
        .downcast_mut()
        .expect("one query type per shape")
}

impl ShapeVisitor for PreparedSweep<'_> {
    type Out = ();
    fn visit<Q: ModelFetch + 'static, F: ModelFilter + 'static>(self, build: Build<Q, F>)
    where
        for<'w> Q::State<'w>: Sync,
        for<'w> F::State<'w>: Sync,
    {
        // `F` is the whole filter the shape's builder ends with, chained ones included, so a
        // state of `Q` and `F` builds the same query.
        let _ = build;
        let state = prepared_state::<Q, F>(self.states, self.shape, self.world);
        check_sweep(self.world, self.model, FromState(state), self.mode, self.k);
    }
}

/// Makes, in `states`, the state of every shape from `first` on that has none, from `world`
/// as it is now.
pub(crate) struct Prepare<'a> {
    pub(crate) world: &'a World,
    pub(crate) states: &'a mut PreparedStates,
    pub(crate) shape: usize,
}

impl ShapeVisitor for Prepare<'_> {
    type Out = ();
    fn visit<Q: ModelFetch + 'static, F: ModelFilter + 'static>(self, _: Build<Q, F>)
    where
        for<'w> Q::State<'w>: Sync,
        for<'w> F::State<'w>: Sync,
    {
        prepared_state::<Q, F>(self.states, self.shape, self.world);
    }
}

/// Counts the model's matches of a shape.
struct Matches<'a>(&'a Model);

impl ShapeVisitor for Matches<'_> {
    type Out = usize;
    fn visit<Q: ModelFetch + 'static, F: ModelFilter + 'static>(self, _: Build<Q, F>) -> usize
    where
        for<'w> Q::State<'w>: Sync,
        for<'w> F::State<'w>: Sync,
    {
        matching::<Q, F>(self.0).len()
    }
}

/// How many live entities of `model` query shape `shape` matches.
pub fn shape_matches(model: &Model, shape: usize) -> usize {
    with_shape(shape, Matches(model))
}
