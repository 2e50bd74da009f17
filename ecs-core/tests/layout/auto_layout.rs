//! The layout kept by the schedule: `Schedule::run` starts each frame with
//! `World::maintain_layout`, which re-sorts the storages once the signature
//! changes since the last pass reach half the live entities. What it sorts,
//! when it does not, how to turn it off, and that a rollback re-simulation
//! sorts at the frames the original did, so order-dependent systems give the
//! same ids and values.

use ecs_core::prelude::*;
use ecs_core::tuning::MIN_LAYOUT_DEBT;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct B(u32);
#[derive(Component)]
struct Tag;

/// `n` entities holding `A`, every third one given `B` afterwards, so the two
/// storages do not line up until a pass sorts them.
fn mixed(world: &mut World, n: u32) -> Vec<Entity> {
    (0..n)
        .map(|i| {
            let e = world.spawn(A(i));
            if i % 3 == 0 {
                world.insert(e, B(i)).expect("alive");
            }
            e
        })
        .collect()
}

fn touch(q: Query<(&A, &mut B)>) {
    let mut q = q;
    q.for_each(|(a, b)| b.0 = b.0.wrapping_add(a.0));
}

#[test]
fn the_first_frame_sorts_a_world_built_out_of_order() {
    let mut world = World::new();
    mixed(&mut world, 3_000);
    assert_eq!(world.layout_debt(), 4_000, "3,000 spawns and 1,000 inserts");
    assert!(!world.layout_stats().is_optimized());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, touch).expect("new");
    schedule.run(&mut world).expect("runs");
    assert!(world.layout_stats().is_optimized());
    assert_eq!(world.layout_debt(), 0);
}

#[test]
fn changes_below_the_due_debt_leave_the_layout_alone() {
    let mut world = World::new();
    let ids = mixed(&mut world, 3_000);
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, touch).expect("new");
    schedule.run(&mut world).expect("runs");
    // 1,000 changes: below half of the 3,000 live entities.
    for &e in ids.iter().filter(|e| e.index() % 3 != 0).take(1_000) {
        world.insert(e, B(0)).expect("alive");
    }
    schedule.run(&mut world).expect("runs");
    assert_eq!(world.layout_debt(), 1_000, "no pass: the debt is kept");
    assert!(!world.layout_stats().is_optimized());
    // 500 more reach 1,500, half the live entities: the next frame sorts.
    for &e in ids
        .iter()
        .filter(|e| e.index() % 3 != 0)
        .skip(1_000)
        .take(500)
    {
        world.insert(e, B(0)).expect("alive");
    }
    schedule.run(&mut world).expect("runs");
    assert_eq!(world.layout_debt(), 0);
    assert!(world.layout_stats().is_optimized());
}

#[test]
fn a_small_world_waits_for_the_minimum_debt() {
    let mut world = World::new();
    let ids = mixed(&mut world, 30);
    world.optimize_layout();
    for &e in &ids[..10] {
        world.remove::<A>(e).expect("alive");
    }
    assert!(!world.maintain_layout(), "10 changes among 30 entities");
    assert_eq!(world.layout_debt(), 10);
    // A tag put on and taken off one entity: each is a signature change.
    let mut on = false;
    while world.layout_debt() < MIN_LAYOUT_DEBT - 1 {
        if on {
            world.remove::<Tag>(ids[10]).expect("alive");
        } else {
            world.insert(ids[10], Tag).expect("alive");
        }
        on = !on;
    }
    assert!(!world.maintain_layout(), "one change short");
    world.insert(ids[11], Tag).expect("alive");
    assert!(world.maintain_layout());
}

#[test]
fn a_schedule_without_auto_layout_keeps_the_order() {
    let mut world = World::new();
    mixed(&mut world, 3_000);
    let before: Vec<Entity> = world
        .query::<(Entity, &A)>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    let mut schedule = Schedule::new();
    schedule.set_auto_layout(false);
    schedule.add_system(Stage::Update, touch).expect("new");
    schedule.run(&mut world).expect("runs");
    let after: Vec<Entity> = world
        .query::<(Entity, &A)>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(before, after);
    assert_eq!(world.layout_debt(), 4_000);
}

/// The frame number, rolled back with the world.
#[derive(Clone, Copy, Default)]
struct Frame(u32);

/// What `record` saw, frame by frame; not rolled back.
#[derive(Default)]
struct Visits(Vec<Vec<(Entity, u32)>>);

/// Spawns a varied crowd each frame and thins it, so the layout decays
/// and passes come every few frames.
fn churn(mut commands: Commands, q: Query<(Entity, &A)>, mut frame: ResMut<Frame>) {
    frame.0 += 1;
    for i in 0..400 {
        let value = frame.0 * 1_000 + i;
        match i % 4 {
            0 => commands.spawn(A(value)),
            1 => commands.spawn((A(value), B(i))),
            _ => commands.spawn(B(value)),
        };
    }
    for (e, a) in q.iter() {
        if (a.0 + frame.0).is_multiple_of(3) {
            commands.entity(e).despawn();
        }
    }
}

/// Order-dependent: each visited entity's `B` takes a running count, and the
/// order of visits is recorded.
fn record(q: Query<(Entity, &A, &mut B)>, mut visits: ResMut<Visits>) {
    let mut q = q;
    let mut seen = Vec::new();
    let mut count = 0;
    q.for_each(|(e, _, b)| {
        count += 1;
        b.0 = count;
        seen.push((e, count));
    });
    visits.0.push(seen);
}

#[test]
fn a_rolled_back_world_sorts_at_the_frames_it_sorted_before() {
    let mut rollback = PersistRegistry::new();
    rollback.register::<A>("A").rollback();
    rollback.register::<B>("B").rollback();
    rollback.register_resource::<Frame>("Frame").rollback();
    let mut world = World::new();
    world.insert_resource(Frame::default());
    world.insert_resource(Visits::default());
    let mut schedule = Schedule::single_threaded();
    schedule.add_system(Stage::Update, churn).expect("new");
    schedule.add_system(Stage::PostUpdate, record).expect("new");
    // Saved right after a frame that sorted, so the frames after the save
    // start with a debt too small for another pass: a restore that lost the
    // debt would sort at once and visit in another order.
    let mut debt = 0;
    loop {
        schedule.run(&mut world).expect("runs");
        let sorted = world.layout_debt() < debt;
        debt = world.layout_debt();
        if sorted {
            break;
        }
    }
    let saved = rollback.save(&world);
    let before = world.resource::<Visits>().expect("inserted").0.len();
    let mut debts = Vec::new();
    for _ in 0..12 {
        schedule.run(&mut world).expect("runs");
        debts.push(world.layout_debt());
    }
    let passes = debts.windows(2).filter(|d| d[1] < d[0]).count();
    assert!(passes >= 2, "the frames re-sorted: debts {debts:?}");
    let first: Vec<_> = world
        .resource_mut::<Visits>()
        .expect("inserted")
        .0
        .split_off(before);

    rollback.restore(&mut world, &saved).expect("same registry");
    for _ in 0..12 {
        schedule.run(&mut world).expect("runs");
    }
    let again: Vec<_> = world
        .resource_mut::<Visits>()
        .expect("inserted")
        .0
        .split_off(before);
    assert_eq!(first.len(), again.len());
    for (frame, (a, b)) in first.iter().zip(&again).enumerate() {
        assert!(
            a == b,
            "frame {frame} after the save visited in another order"
        );
    }
}
