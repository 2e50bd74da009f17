//! Differential property test: every way of spelling one query answers as
//! probing each live entity does.
//!
//! A query can be written as `world.query_filtered`, `world.query().filter()`
//! (or `.with()` / `.without()`), `world.query_ref().filter()`, a `QueryState`
//! kept across frames (read through `iter` or written through `query_mut`), a
//! system's `Query` param run by a `Schedule`, and walked by `next`,
//! `for_each`, `fold`, half `next` then `fold`, or `par_for_each`. Some of
//! these keep cached matches, plans or storages between calls; the others
//! build them each time. After every random structural step (spawns, batch
//! spawns, inserts, removals, despawns, value writes, layout passes, a group
//! declared part-way), every spelling of every shape must yield exactly the
//! entities and values that probing every live entity with `Query::get`
//! finds, which reads no cached matches.
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 64).

#[cfg(feature = "parallel")]
use std::sync::Mutex;

use ecs_core::prelude::*;
use ecs_core::query::{QueryData, QueryState};
use ecs_testkit::strategy::cases_from_env;
use proptest::collection::vec;
use proptest::prelude::*;

#[derive(Component, Clone, Copy, Debug)]
struct A(u32);
#[derive(Component, Clone, Copy, Debug)]
struct B(u32);
#[derive(Component, Clone, Copy, Debug)]
struct C(u32);
/// Held by some entities and named by no shape: it splits storages' runs.
#[derive(Component, Clone, Copy, Debug)]
struct D;

/// What one item shows: the entity, then the values of `A`, `B`, `C` it fetched.
type Row = (Entity, [Option<u32>; 3]);

/// Rows in entity order, so that walks in different orders compare.
fn sorted(mut rows: Vec<Row>) -> Vec<Row> {
    rows.sort_by_key(|(entity, _)| entity.to_bits());
    rows
}

/// Builds, for one query shape, everything that keeps state across steps
/// and every spelling of it.
macro_rules! shape {
    (
        $module:ident: $q:ty, $f:ty,
        row: $row:expr,
        also: [$($also:expr),* $(,)?]
    ) => {
        mod $module {
            use super::*;

            /// This shape's item as a row.
            fn row(item: <$q as QueryData>::Item<'_>) -> Row {
                let show = $row;
                show(item)
            }

            /// What the system saw on its last run.
            #[derive(Default)]
            struct Seen(Vec<Row>);

            fn system(query: Query<$q, $f>, mut seen: ResMut<Seen>) {
                seen.0 = query.iter().map(row).collect();
            }

            /// What outlives one step: a prepared state and a schedule.
            pub struct Kept {
                state: QueryState<$q, $f>,
                schedule: Schedule,
            }

            impl Kept {
                pub fn new(world: &mut World) -> Self {
                    world.insert_resource(Seen::default());
                    let mut schedule = Schedule::new();
                    schedule
                        .add_system(Stage::Update, system)
                        .expect("the system's params do not conflict");
                    Kept {
                        state: world.query_state_filtered::<$q, $f>(),
                        schedule,
                    }
                }

                /// Every spelling's rows, each named, against the probed reference.
                pub fn check(&mut self, world: &mut World, step: usize) {
                    // The reference walks no cached matches: every live
                    // entity (a query requiring no storage walks the
                    // allocator), each probed through `get`.
                    let fresh = {
                        let all: Vec<Entity> = world.query::<Entity>().iter().collect();
                        let query = world.query_filtered::<$q, $f>();
                        sorted(all.into_iter().filter_map(|e| query.get(e).ok().map(row)).collect())
                    };
                    let mut answers: Vec<(&str, Vec<Row>)> = Vec::new();
                    answers.push(("query_filtered, next", {
                        let query = world.query_filtered::<$q, $f>();
                        let mut iter = query.iter();
                        let mut rows = Vec::new();
                        while let Some(item) = iter.next() {
                            rows.push(row(item));
                        }
                        rows
                    }));
                    answers.push(("query_filtered, for_each", {
                        let mut rows = Vec::new();
                        world
                            .query_filtered::<$q, $f>()
                            .for_each(|item| rows.push(row(item)));
                        rows
                    }));
                    answers.push(("query_filtered, fold", {
                        world
                            .query_filtered::<$q, $f>()
                            .iter()
                            .fold(Vec::new(), |mut rows, item| {
                                rows.push(row(item));
                                rows
                            })
                    }));
                    answers.push(("query_filtered, half next then fold", {
                        let query = world.query_filtered::<$q, $f>();
                        let mut iter = query.iter();
                        let half = iter.size_hint().1.unwrap_or(0) / 2;
                        let mut rows: Vec<Row> = iter.by_ref().take(half).map(row).collect();
                        rows.extend(iter.map(row));
                        rows
                    }));
                    answers.push(("query().filter()", {
                        world.query::<$q>().filter::<$f>().iter().map(row).collect()
                    }));
                    answers.push(("query_ref().filter()", {
                        world.query_ref::<$q>().filter::<$f>().iter().map(row).collect()
                    }));
                    answers.push(("kept state, iter", {
                        self.state.iter(world).map(row).collect()
                    }));
                    answers.push(("kept state, query_mut().for_each", {
                        let mut rows = Vec::new();
                        self.state
                            .query_mut(world)
                            .for_each(|item| rows.push(row(item)));
                        rows
                    }));
                    answers.push(("a system's Query", {
                        self.schedule.run(world).expect("the system runs");
                        core::mem::take(&mut world.resource_mut::<Seen>().expect("inserted").0)
                    }));
                    #[cfg(feature = "parallel")]
                    answers.push(("par_for_each", {
                        let rows = Mutex::new(Vec::new());
                        world
                            .query_filtered::<$q, $f>()
                            .par_for_each(|item| rows.lock().unwrap().push(row(item)));
                        rows.into_inner().unwrap()
                    }));
                    $(
                        answers.push(("also", {
                            let spell: fn(&mut World) -> Vec<Row> = $also;
                            spell(world)
                        }));
                    )*
                    for (spelling, rows) in answers {
                        assert_eq!(
                            sorted(rows),
                            fresh,
                            "shape `{}`, spelled `{spelling}`, after step {step}",
                            stringify!($module)
                        );
                    }
                }
            }
        }
    };
}

shape!(
    pair: (Entity, &'static A, &'static B), (),
    row: |(e, a, b): (Entity, &A, &B)| (e, [Some(a.0), Some(b.0), None]),
    also: []
);

shape!(
    without: (Entity, &'static A, Option<&'static C>), Without<B>,
    row: |(e, a, c): (Entity, &A, Option<&C>)| (e, [Some(a.0), None, c.map(|c| c.0)]),
    also: [
        |world| world.query::<(Entity, &A, Option<&C>)>().without::<B>().iter().map(row).collect(),
        |world| world.query_ref::<(Entity, &A, Option<&C>)>().without::<B>().iter().map(row).collect(),
    ]
);

shape!(
    with_two: (Entity, &'static B), (With<A>, With<C>),
    row: |(e, b): (Entity, &B)| (e, [None, Some(b.0), None]),
    also: [
        |world| world.query::<(Entity, &B)>().with::<A>().with::<C>().iter().map(row).collect(),
    ]
);

shape!(
    either: (Entity, Option<&'static A>, Option<&'static B>), Or<(With<A>, With<B>)>,
    row: |(e, a, b): (Entity, Option<&A>, Option<&B>)| {
        (e, [a.map(|a| a.0), b.map(|b| b.0), None])
    },
    also: []
);

shape!(
    everyone: Entity, (),
    row: |e: Entity| (e, [None, None, None]),
    also: []
);

/// One structural step. Entity positions index the live entities, modulo.
#[derive(Clone, Debug)]
enum Step {
    Spawn { mask: u8, value: u32 },
    SpawnBatch { mask: u8, count: u8 },
    Insert { at: u16, which: u8, value: u32 },
    Remove { at: u16, which: u8 },
    Despawn { at: u16 },
    Write { at: u16, value: u32 },
    OptimizeLayout,
    Group,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (any::<u8>(), any::<u32>()).prop_map(|(mask, value)| Step::Spawn { mask, value }),
        1 => (any::<u8>(), 1..90u8).prop_map(|(mask, count)| Step::SpawnBatch { mask, count }),
        3 => (any::<u16>(), any::<u8>(), any::<u32>())
            .prop_map(|(at, which, value)| Step::Insert { at, which, value }),
        3 => (any::<u16>(), any::<u8>()).prop_map(|(at, which)| Step::Remove { at, which }),
        2 => any::<u16>().prop_map(|at| Step::Despawn { at }),
        1 => (any::<u16>(), any::<u32>()).prop_map(|(at, value)| Step::Write { at, value }),
        1 => Just(Step::OptimizeLayout),
        1 => Just(Step::Group),
    ]
}

/// Gives `entity` the components of `mask`'s low four bits.
fn give(world: &mut World, entity: Entity, mask: u8, value: u32) {
    for which in 0..4 {
        if mask & (1 << which) != 0 {
            insert(world, entity, which, value.wrapping_add(which as u32));
        }
    }
}

fn insert(world: &mut World, entity: Entity, which: u8, value: u32) {
    let result = match which % 4 {
        0 => world.insert(entity, A(value)).map(drop),
        1 => world.insert(entity, B(value)).map(drop),
        2 => world.insert(entity, C(value)).map(drop),
        _ => world.insert(entity, D).map(drop),
    };
    result.expect("the entity is alive");
}

/// Takes one component type off `entity`, if it holds one.
fn remove(world: &mut World, entity: Entity, which: u8) {
    fn take<T: Component>(world: &mut World, entity: Entity) {
        if world.contains::<T>(entity) {
            world.remove::<T>(entity).expect("the entity holds one");
        }
    }
    match which % 4 {
        0 => take::<A>(world, entity),
        1 => take::<B>(world, entity),
        2 => take::<C>(world, entity),
        _ => take::<D>(world, entity),
    }
}

fn apply(world: &mut World, alive: &mut Vec<Entity>, step: &Step) {
    let pick = |at: u16, alive: &[Entity]| (!alive.is_empty()).then(|| at as usize % alive.len());
    match *step {
        Step::Spawn { mask, value } => {
            let entity = world.spawn(());
            give(world, entity, mask, value);
            alive.push(entity);
        }
        Step::SpawnBatch { mask, count } => {
            // One shape per batch: the storages it touches hold its entities
            // at the same positions, the aligned path of every walk.
            let spawned: Vec<Entity> = match mask % 4 {
                0 => world.spawn_batch((0..count as u32).map(|i| (A(i), B(i)))),
                1 => world.spawn_batch((0..count as u32).map(|i| (A(i), B(i), C(i)))),
                2 => world.spawn_batch((0..count as u32).map(|i| (B(i), C(i), D))),
                _ => world.spawn_batch((0..count as u32).map(|i| (A(i), C(i)))),
            };
            alive.extend(spawned);
        }
        Step::Insert { at, which, value } => {
            if let Some(i) = pick(at, alive) {
                insert(world, alive[i], which, value);
            }
        }
        Step::Remove { at, which } => {
            if let Some(i) = pick(at, alive) {
                remove(world, alive[i], which);
            }
        }
        Step::Despawn { at } => {
            if let Some(i) = pick(at, alive) {
                world
                    .despawn(alive.swap_remove(i))
                    .expect("the entity is alive");
            }
        }
        Step::Write { at, value } => {
            if let Some(i) = pick(at, alive)
                && let Ok(a) = world.get_mut::<A>(alive[i])
            {
                a.0 = value;
            }
        }
        Step::OptimizeLayout => {
            world.optimize_layout();
        }
        Step::Group => {
            // Declared once; later declarations of the same group are refused.
            let _ = world.group::<(A, B)>();
        }
    }
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 64))]

    #[test]
    fn every_spelling_answers_as_probing_does(steps in vec(step(), 1..60)) {
        let mut world = World::new();
        let mut alive = Vec::new();
        let mut pair = pair::Kept::new(&mut world);
        let mut without = without::Kept::new(&mut world);
        let mut with_two = with_two::Kept::new(&mut world);
        let mut either = either::Kept::new(&mut world);
        let mut everyone = everyone::Kept::new(&mut world);
        for (at, step) in steps.iter().enumerate() {
            apply(&mut world, &mut alive, step);
            pair.check(&mut world, at);
            without.check(&mut world, at);
            with_two.check(&mut world, at);
            either.check(&mut world, at);
            everyone.check(&mut world, at);
        }
    }
}
