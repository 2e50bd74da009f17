//! The ids `Commands::spawn` hands out in a schedule: systems of one batch
//! number their spawns apart so that every thread count gives the same ids,
//! and that numbering spends nothing on systems that spawn nothing or on
//! numbers a system did not use: no slot is made for them, no version
//! climbs for an id nobody was given.

use std::collections::HashSet;

use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Wave(u32);
#[derive(Component)]
struct Dust;
#[derive(Component)]
struct Rock;

/// The ids spawner `LIST` spawned so far, in spawn order.
#[derive(Default)]
struct Spawned<const LIST: u32>(Vec<Entity>);

/// Spawns `N` entities a frame and despawns the ones it spawned the frame
/// before, so the live count stays flat while ids keep being handed out.
fn spawner<const LIST: u32, const N: u32>(
    mut commands: Commands,
    waves: Query<(Entity, &Wave)>,
    mut spawned: ResMut<Spawned<LIST>>,
) {
    for (e, wave) in waves.iter() {
        if wave.0 == LIST {
            commands.despawn(e);
        }
    }
    for _ in 0..N {
        let e = commands.spawn(Wave(LIST));
        spawned.0.push(e);
    }
}

/// A system that spawns nothing and reads what the spawners do not touch,
/// so that it shares their batch.
fn bystander(dust: Query<&Dust>, rocks: Query<&Rock>, mut seen: Local<usize>) {
    *seen += dust.iter().count() + rocks.iter().count();
}

fn world() -> World {
    let mut world = World::new();
    world.insert_resource(Spawned::<0>::default());
    world.insert_resource(Spawned::<1>::default());
    world.spawn_batch((0..8).map(|_| Dust));
    world.spawn(Rock);
    world
}

/// Every id handed out is distinct, and no version was spent on an id
/// nobody was given: the slots hold at most the live entities plus one
/// frame's spawns, and no slot's version passes the number of times an id
/// of that index was handed out.
fn assert_nothing_burned(world: &World, frames: usize, per_frame: usize) {
    let all: Vec<Entity> = spawned(world).into_iter().flatten().collect();
    assert_eq!(all.len(), frames * per_frame);
    assert_eq!(
        all.iter().collect::<HashSet<_>>().len(),
        all.len(),
        "an id handed out twice"
    );
    let stats = world.stats();
    assert_eq!(stats.live_entities, 9 + per_frame, "one frame's spawns");
    assert!(
        stats.entity_slots <= 9 + 2 * per_frame,
        "{} slots for {} live entities and {per_frame} spawns a frame",
        stats.entity_slots,
        stats.live_entities
    );
    let mut handed_out = std::collections::HashMap::<u32, u32>::new();
    for e in &all {
        *handed_out.entry(e.index()).or_default() += 1;
    }
    for e in &all {
        assert!(
            e.version() <= handed_out[&e.index()] + 1,
            "{e:?} after {} ids of that index were handed out",
            handed_out[&e.index()]
        );
    }
}

/// What each spawner spawned, in spawn order.
fn spawned(world: &World) -> [Vec<Entity>; 2] {
    [
        world.resource::<Spawned<0>>().unwrap().0.clone(),
        world.resource::<Spawned<1>>().unwrap().0.clone(),
    ]
}

/// A schedule of one batch: the busy spawner, the idle one if `both`, and
/// fifteen bystanders, sent to the pool or run on one thread.
fn schedule_with(both: bool, busy: u32, pool: bool) -> Schedule {
    let mut schedule = if pool {
        let mut schedule = Schedule::new();
        schedule.set_parallel_threshold(0);
        schedule
    } else {
        Schedule::single_threaded()
    };
    match busy {
        100 => schedule.add_system(Stage::Update, spawner::<0, 100>),
        _ => schedule.add_system(Stage::Update, spawner::<0, 30>),
    }
    .unwrap();
    if both {
        schedule.add_system(Stage::Update, spawner::<1, 1>).unwrap();
    }
    for i in 0..15 {
        schedule
            .add_system(Stage::Update, bystander.named(format!("bystander_{i}")))
            .unwrap();
    }
    let explained = schedule.explain().unwrap();
    let batches = &explained.stage(Stage::Update).unwrap().batches;
    assert_eq!(batches.len(), 1, "one batch: {batches:?}");
    schedule
}

/// One spawner beside fifteen systems that spawn nothing.
#[test]
fn systems_without_commands_reserve_no_ids() {
    let mut world = world();
    let mut schedule = schedule_with(false, 100, true);
    for _ in 0..50 {
        schedule.run(&mut world).unwrap();
    }
    assert_nothing_burned(&world, 50, 100);
}

/// Two spawners of one batch, one busy and one nearly idle: the numbers the
/// idle one did not use are never made alive.
#[test]
fn numbers_a_spawner_did_not_use_are_never_made_alive() {
    let mut world = world();
    let mut schedule = schedule_with(true, 100, true);
    for _ in 0..50 {
        schedule.run(&mut world).unwrap();
    }
    assert_nothing_burned(&world, 50, 101);
}

/// The same frames on one thread and on a pool of two give the same ids.
#[cfg(feature = "parallel")]
#[test]
fn the_ids_do_not_depend_on_the_thread_count() {
    let run = |pool: bool| {
        let mut world = world();
        let mut schedule = schedule_with(true, 30, pool);
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(|| {
                for _ in 0..20 {
                    schedule.run(&mut world).unwrap();
                }
            });
        assert_eq!(schedule.parallel_batches(), if pool { 20 } else { 0 });
        assert_nothing_burned(&world, 20, 31);
        spawned(&world)
    };
    assert_eq!(run(false), run(true));
}
