//! Systems and schedules, small enough for miri: the unsafe paths a frame
//! takes (parallel batches on rayon's pool, resources written through root
//! pointers, reserved ids, a panicking system or command) on a few entities.
//!
//! Stacked Borrows rejects crossbeam-epoch, which rayon's pool uses, so the
//! tests that run a batch on the pool (named `pool_*`) run under Tree Borrows:
//!
//! ```text
//! cargo +nightly miri test -p ecs-core --test systems -- systems_miri:: --skip pool_
//! MIRIFLAGS="-Zmiri-tree-borrows -Zmiri-ignore-leaks -Zmiri-permissive-provenance" \
//!     cargo +nightly miri test -p ecs-core --test systems -- systems_miri::pool_
//! ```
//!
//! (The leaks and the integer-to-pointer casts are crossbeam-epoch's.) The
//! unit tests in `schedule/executor.rs` run the systems of a batch at once
//! on std threads, so that Stacked Borrows checks that path too.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use ecs_core::prelude::*;
use ecs_core::system::{ParamItem, System};

#[derive(Component, Debug, PartialEq)]
struct Health(u32);
#[derive(Component)]
struct Boss;
#[derive(Component, Debug, PartialEq)]
struct Tag(u32);

#[derive(Default)]
struct Score(u32);

/// Runs `f` with a pool of two threads, so that a batch of two heavy
/// systems really goes to rayon even where the global pool has one thread
/// (miri reports one CPU).
#[cfg(feature = "parallel")]
fn on_two_threads<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of two threads")
        .install(f)
}

/// A schedule that sends every batch of two or more systems to the pool.
#[cfg(feature = "parallel")]
fn eager() -> Schedule {
    let mut schedule = Schedule::new();
    schedule.set_parallel_threshold(0);
    schedule
}

/// The batches of `stage`, by system name.
fn batches(schedule: &Schedule, stage: Stage) -> Vec<Vec<String>> {
    schedule
        .explain()
        .unwrap()
        .stage(stage)
        .unwrap()
        .batches
        .clone()
}

/// Every live entity, checked distinct.
fn live(world: &World) -> HashSet<Entity> {
    let all: Vec<Entity> = world.query_ref::<Entity>().iter().collect();
    let set: HashSet<Entity> = all.iter().copied().collect();
    assert_eq!(set.len(), all.len());
    assert_eq!(set.len(), world.len());
    set
}

fn bosses(mut q: Query<&mut Health, With<Boss>>) {
    q.for_each(|h| h.0 += 1);
}

fn minions(mut q: Query<&mut Health, Without<Boss>>) {
    q.for_each(|h| h.0 += 10);
}

fn optional_bosses(mut q: Query<Option<&mut Health>, With<Boss>>) {
    for h in q.iter_mut().flatten() {
        h.0 += 100;
    }
}

/// Two systems write `Health` at once, on disjoint entities: `With<Boss>`
/// beside `Without<Boss>`, then `Option<&mut Health>` with `With<Boss>`
/// beside `Without<Boss>`.
fn disjoint_writers(schedule: &mut Schedule) {
    let mut world = World::new();
    let boss = world.spawn((Health(0), Boss));
    let minion = world.spawn(Health(0));
    schedule.add_system(Stage::Update, bosses).unwrap();
    schedule.add_system(Stage::Update, minions).unwrap();
    schedule
        .add_system(Stage::PostUpdate, optional_bosses)
        .unwrap();
    schedule
        .add_system(Stage::PostUpdate, minions.named("minions_again"))
        .unwrap();
    assert_eq!(batches(schedule, Stage::Update).len(), 1);
    assert_eq!(batches(schedule, Stage::PostUpdate).len(), 1);
    for _ in 0..2 {
        schedule.run(&mut world).unwrap();
    }
    assert_eq!(world.get::<Health>(boss).unwrap().0, 202);
    assert_eq!(world.get::<Health>(minion).unwrap().0, 40);
}

#[cfg(feature = "parallel")]
#[test]
fn pool_disjoint_writers_of_one_component() {
    let mut schedule = eager();
    on_two_threads(|| disjoint_writers(&mut schedule));
    assert_eq!(schedule.parallel_batches(), 4);
}

#[test]
fn disjoint_writers_of_one_component_single_threaded() {
    disjoint_writers(&mut Schedule::single_threaded());
}

fn add_score(mut score: ResMut<Score>) {
    score.0 += 1;
}

fn read_score(score: Res<Score>, mut seen: Local<Vec<u32>>, q: Query<&Health>) {
    seen.push(score.0);
    assert!(q.iter().count() <= 2);
}

/// A writer and a reader of one resource never share a batch, whether the
/// reader takes `Res` or a derived struct holding `Option<Res>`.
fn resource_users(schedule: &mut Schedule) {
    #[derive(SystemParam)]
    struct Reads<'w> {
        score: Option<Res<'w, Score>>,
        health: Query<'w, &'w Health>,
    }
    fn read_through_struct(reads: Reads) {
        assert!(reads.score.is_some() && reads.health.iter().count() <= 2);
    }
    let mut world = World::new();
    world.insert_resource(Score::default());
    world.spawn(Health(1));
    world.spawn(Health(2));
    schedule.add_system(Stage::Update, add_score).unwrap();
    schedule.add_system(Stage::Update, read_score).unwrap();
    schedule
        .add_system(Stage::Update, read_through_struct)
        .unwrap();
    let plan = batches(schedule, Stage::Update);
    assert_eq!(
        plan,
        [
            vec!["add_score".to_owned()],
            vec!["read_score".to_owned(), "read_through_struct".to_owned()],
        ]
    );
    for _ in 0..2 {
        schedule.run(&mut world).unwrap();
    }
    assert_eq!(world.resource::<Score>().unwrap().0, 2);
}

#[cfg(feature = "parallel")]
#[test]
fn pool_resource_writer_and_readers_are_ordered_apart() {
    let mut schedule = eager();
    on_two_threads(|| resource_users(&mut schedule));
    assert_eq!(schedule.parallel_batches(), 2, "the two readers, twice");
}

#[test]
fn resource_writer_and_readers_are_ordered_apart_single_threaded() {
    resource_users(&mut Schedule::single_threaded());
}

#[derive(Default)]
struct Made(Vec<(u32, Entity)>);

fn spawn_tags<const BASE: u32, const N: u32>(mut commands: Commands) {
    for i in 0..N {
        let e = commands.spawn(Tag(BASE + i));
        commands.add(move |world: &mut World| {
            world.resource_mut::<Made>().unwrap().0.push((BASE + i, e));
        });
    }
}

/// Two systems of one batch spawn through commands (one more than the
/// other), after ids were reserved through `world.commands()`: every id is
/// distinct, names its own bundle, and no hole is left alive.
fn spawners(schedule: &mut Schedule) -> Vec<(u32, Entity)> {
    let mut world = World::new();
    world.insert_resource(Made::default());
    let gone = world.spawn(());
    world.spawn(Tag(999));
    world.despawn(gone).unwrap();
    let early = world.commands().spawn(Tag(500));
    schedule
        .add_system(Stage::Update, spawn_tags::<0, 3>.named("three"))
        .unwrap();
    schedule
        .add_system(Stage::Update, spawn_tags::<10, 1>.named("one"))
        .unwrap();
    assert_eq!(batches(schedule, Stage::Update).len(), 1);
    schedule.run(&mut world).unwrap();
    assert!(world.is_alive(early), "made alive before the frame");
    assert!(world.flush().is_empty());
    assert_eq!(world.get::<Tag>(early).unwrap().0, 500);
    let made = world.resource::<Made>().unwrap().0.clone();
    assert_eq!(made.len(), 4);
    for &(tag, e) in &made {
        assert_eq!(world.get::<Tag>(e).unwrap().0, tag);
    }
    assert_eq!(live(&world).len(), 6, "999, 500, four spawned, no hole");
    made
}

#[cfg(feature = "parallel")]
#[test]
fn pool_commands_spawn_from_two_systems_of_one_batch() {
    let mut schedule = eager();
    let parallel = on_two_threads(|| spawners(&mut schedule));
    assert_eq!(schedule.parallel_batches(), 1);
    assert_eq!(parallel, spawners(&mut Schedule::single_threaded()));
}

#[test]
fn commands_spawn_from_two_systems_of_one_batch_single_threaded() {
    spawners(&mut Schedule::single_threaded());
}

fn spawn_and_panic(mut commands: Commands, _q: Query<&mut Health, With<Boss>>) {
    commands.spawn(Tag(1));
    panic!("this system fails");
}

fn spawn_and_finish(
    mut commands: Commands,
    mut q: Query<&mut Health, Without<Boss>>,
    mut runs: ResMut<Score>,
) {
    commands.spawn(Tag(2));
    q.for_each(|h| h.0 += 1);
    runs.0 += 1;
}

/// A system panics while the other system of its batch holds its params:
/// the other finishes, the panic reaches the caller, the stage's commands
/// and reserved ids are dropped, the world queue's are kept, and the next
/// frame runs normally.
fn panicking_batch(schedule: &mut Schedule) {
    let mut world = World::new();
    world.insert_resource(Score::default());
    world.spawn((Health(0), Boss));
    let minion = world.spawn(Health(0));
    let early = world.commands().spawn(Tag(500));
    schedule.add_system(Stage::Update, spawn_and_panic).unwrap();
    schedule
        .add_system(Stage::Update, spawn_and_finish)
        .unwrap();
    assert_eq!(batches(schedule, Stage::Update).len(), 1);
    let caught = catch_unwind(AssertUnwindSafe(|| schedule.run(&mut world)));
    let message = *caught.unwrap_err().downcast::<&str>().unwrap();
    assert_eq!(message, "this system fails");
    assert_eq!(
        world.resource::<Score>().unwrap().0,
        1,
        "the other system ran"
    );
    assert_eq!(world.get::<Health>(minion).unwrap().0, 1);
    assert!(world.query_ref::<&Tag>().iter().next().is_none());
    assert_eq!(live(&world).len(), 3, "two spawned, and the reserved one");
    assert!(world.flush().is_empty());
    assert_eq!(world.get::<Tag>(early).unwrap().0, 500);

    schedule.remove_system("spawn_and_panic").unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(world.query_ref::<&Tag>().iter().count(), 2);
    assert_eq!(live(&world).len(), 4);
}

#[cfg(feature = "parallel")]
#[test]
fn pool_a_panic_in_one_system_of_a_parallel_batch() {
    // The same pool and threshold send the batch to rayon in the tests
    // above; a frame that panics unwinds before its counts are added.
    on_two_threads(|| panicking_batch(&mut eager()));
}

#[test]
fn a_panic_in_one_system_of_a_batch_single_threaded() {
    panicking_batch(&mut Schedule::single_threaded());
}

/// A `System` keeps its state in `self`, with `Local` state beside it.
#[test]
fn a_system_type_and_local_state() {
    struct Waves {
        spawned: u32,
    }
    impl System for Waves {
        type Params = (
            Query<'static, &'static Tag>,
            Commands<'static>,
            ResMut<'static, Score>,
            Local<'static, u32>,
        );
        fn run(&mut self, (tags, mut commands, mut score, mut runs): ParamItem<'_, Self::Params>) {
            *runs += 1;
            if tags.iter().next().is_none() {
                commands.spawn(Tag(self.spawned));
                self.spawned += 1;
            }
            score.0 = *runs;
        }
    }
    let mut world = World::new();
    world.insert_resource(Score::default());
    let mut schedule = Schedule::single_threaded();
    schedule
        .add_system(Stage::Update, Waves { spawned: 0 })
        .unwrap();
    for _ in 0..3 {
        schedule.run(&mut world).unwrap();
    }
    assert_eq!(world.resource::<Score>().unwrap().0, 3);
    assert_eq!(world.len(), 1, "spawned once: the tag stayed");
}

/// A read-only query lends items from the world: built and read in one
/// expression, kept past the statement, copied freely.
#[test]
fn the_one_expression_read_only_query() {
    let mut world = World::new();
    let boss = world.spawn((Health(7), Boss));
    world.spawn(Health(1));
    let top = world.query::<&Health>().with::<Boss>().single().unwrap();
    assert_eq!(top.0, 7);
    let all: Vec<&Health> = world.query_ref::<&Health>().iter().collect();
    assert_eq!(all.len(), 2);
    let q = world.query_ref::<(Entity, &Health)>();
    let (copy, mut same) = (q, q);
    let got = copy.get(boss).unwrap();
    let first = same.iter_mut().find(|(e, _)| *e == boss).unwrap();
    assert!(core::ptr::eq(got.1, first.1));

    fn reads(q: Query<&Health>, mut kept: Local<u32>) {
        let best = q.iter().map(|h| h.0).max();
        *kept = best.unwrap_or(0);
        assert_eq!(*kept, 7);
    }
    let mut schedule = Schedule::single_threaded();
    schedule.add_system(Stage::Update, reads).unwrap();
    schedule.run(&mut world).unwrap();
}

/// Ids reserved through `world.commands()` stay distinct from every id the
/// world hands out meanwhile, whatever changes the allocator: spawns,
/// despawns, batches, clears, a schedule's frame, an exclusive system's own
/// reservations, and commands that record commands.
#[test]
fn reserved_ids_are_never_handed_out_twice() {
    fn spawn_one(mut commands: Commands) {
        let e = commands.spawn(Tag(20));
        // A command recording commands: applied by the next flush.
        commands.add(move |world: &mut World| {
            let inner = world.commands().spawn(Tag(21));
            assert_ne!(inner, e);
        });
    }
    let mut world = World::new();
    let a = world.commands().spawn(Tag(1));
    let b = world.spawn(Tag(2));
    assert_ne!(a, b);
    let c = world.commands().spawn(Tag(3));
    world.despawn(b).unwrap();
    let d = world.commands().spawn(Tag(4));
    let batch = world.spawn_batch((5..8).map(Tag));
    assert!(![a, c, d].iter().any(|r| batch.contains(r)));
    assert!(world.flush().is_empty());
    for (e, tag) in [(a, 1), (c, 3), (d, 4)] {
        assert_eq!(world.get::<Tag>(e).unwrap().0, tag);
    }

    let e = world.commands().spawn(Tag(9));
    world.clear();
    assert!(!world.is_alive(e));
    assert_eq!(world.flush().len(), 1, "the reserved entity was cleared");

    let f = world.commands().spawn(Tag(10));
    let mut schedule = Schedule::single_threaded();
    schedule.add_system(Stage::Update, spawn_one).unwrap();
    schedule
        .add_system(Stage::Update, |world: &mut World| {
            let g = world.commands().spawn(Tag(11));
            let h = world.spawn(Tag(12));
            assert_ne!(g, h);
        })
        .unwrap();
    schedule
        .add_system(Stage::Update, spawn_one.named("again"))
        .unwrap();
    schedule.run(&mut world).unwrap();
    assert!(world.flush().is_empty());
    let tags: Vec<u32> = {
        let mut tags: Vec<u32> = world.query_ref::<&Tag>().iter().map(|t| t.0).collect();
        tags.sort_unstable();
        tags
    };
    assert_eq!(tags, [10, 11, 12, 20, 20, 21, 21]);
    assert_eq!(world.get::<Tag>(f).unwrap().0, 10);
    assert_eq!(live(&world).len(), 7);
}

/// A command that panics while its stage applies drops the buffers not
/// applied yet, as a panicking system does: they hold ids reserved in this
/// world for this frame, and kept, they would apply next frame, naming
/// whatever entities hold those ids then, in whatever world the schedule
/// runs on.
#[test]
fn a_panicking_command_drops_the_stages_other_buffers() {
    fn fails(mut commands: Commands) {
        commands.add(|_: &mut World| panic!("this command fails"));
    }
    fn spawns(mut commands: Commands) {
        commands.spawn(Tag(7));
    }
    let mut first = World::new();
    let mut schedule = Schedule::single_threaded();
    schedule.add_system(Stage::Update, fails).unwrap();
    schedule.add_system(Stage::Update, spawns).unwrap();
    let caught = catch_unwind(AssertUnwindSafe(|| schedule.run(&mut first)));
    let message = *caught.unwrap_err().downcast::<&str>().unwrap();
    assert_eq!(message, "this command fails");
    assert!(first.query_ref::<&Tag>().iter().next().is_none());

    schedule.remove_system("fails").unwrap();
    let mut second = World::new();
    let before: Vec<Entity> = (0..3).map(|i| second.spawn(Tag(100 + i))).collect();
    schedule.run(&mut second).unwrap();
    assert!(schedule.command_errors().is_empty());
    for (i, &e) in before.iter().enumerate() {
        assert_eq!(second.get::<Tag>(e).unwrap().0, 100 + i as u32);
    }
    assert_eq!(
        second
            .query_ref::<&Tag>()
            .iter()
            .filter(|t| t.0 == 7)
            .count(),
        1
    );
}

/// Params that would alias inside one system are refused when it is added,
/// however they are grouped; systems that would alias are never batched
/// together, whatever filter hides the overlap.
#[test]
fn access_that_could_alias_is_refused_or_ordered_apart() {
    #[derive(SystemParam)]
    struct Bosses<'w> {
        health: Query<'w, &'w mut Health, With<Boss>>,
    }
    #[derive(SystemParam)]
    struct Nested<'w> {
        bosses: Bosses<'w>,
        score: ResMut<'w, Score>,
    }
    #[derive(SystemParam)]
    struct Generic<'w, R: Send + Sync + 'static> {
        write: ResMut<'w, R>,
        read: Res<'w, Score>,
    }
    fn tuple(_: (Query<&mut Health>, Query<&Health, With<Boss>>)) {}
    fn nested_query(_: Nested, _: Query<&Health>) {}
    fn nested_resource(_: (Local<u8>, Nested), _: Option<Res<Score>>) {}
    fn generic(g: Generic<Score>) {
        assert_eq!(g.write.0, g.read.0);
    }
    fn world_and_writer(_: &World, _: Commands, _: Query<&mut Health, With<Boss>>) {}
    fn writer_and_world(_: ResMut<Score>, _: Commands, _: &World) {}
    fn one_query(_: Query<(&mut Health, Option<&Health>)>) {}
    let mut schedule = Schedule::single_threaded();
    let refused = [
        schedule.add_system(Stage::Update, tuple),
        schedule.add_system(Stage::Update, nested_query),
        schedule.add_system(Stage::Update, nested_resource),
        schedule.add_system(Stage::Update, generic),
        schedule.add_system(Stage::Update, world_and_writer),
        schedule.add_system(Stage::Update, writer_and_world),
        schedule.add_system(Stage::Update, one_query),
    ];
    for result in refused {
        assert!(
            matches!(result, Err(Error::ConflictingAccess { .. })),
            "{result:?}"
        );
    }

    fn split(mut n: Nested, mut others: Query<&mut Health, Without<Boss>>) {
        n.bosses.health.for_each(|h| h.0 += 1);
        others.for_each(|h| h.0 += 1);
        n.score.0 += 1;
    }
    type Either = Or<(With<Boss>, With<Tag>)>;
    fn either(mut q: Query<&mut Health, Either>) {
        q.for_each(|h| h.0 += 1);
    }
    fn reads_world(world: &World, mut commands: Commands) {
        commands.spawn(Tag(world.len() as u32));
    }
    fn spawns(mut commands: Commands, _: Local<u8>) {
        commands.spawn(Tag(0));
    }
    schedule.add_system(Stage::Update, split).unwrap();
    schedule.add_system(Stage::Update, either).unwrap();
    schedule.add_system(Stage::Update, minions).unwrap();
    schedule.add_system(Stage::Update, reads_world).unwrap();
    schedule.add_system(Stage::Update, spawns).unwrap();
    let plan = batches(&schedule, Stage::Update);
    let batch_of = |name: &str| plan.iter().position(|b| b.iter().any(|s| s == name));
    assert_ne!(
        batch_of("either"),
        batch_of("minions"),
        "`Or` hides no overlap"
    );
    assert_ne!(batch_of("split"), batch_of("minions"));
    assert_ne!(batch_of("reads_world"), batch_of("minions"));
    assert_eq!(batch_of("spawns"), Some(0), "commands alone touch nothing");
    let mut world = World::new();
    world.insert_resource(Score::default());
    world.spawn((Health(0), Boss));
    world.spawn((Health(0), Tag(1)));
    schedule.run(&mut world).unwrap();
    assert_eq!(live(&world).len(), 4);
}
