//! Ticks near the end of the counter's range: `Added` and `Changed` still
//! see exactly the right entities, and the counter refuses to wrap, with a
//! message, instead of making old ticks look new.

use std::sync::{Arc, Mutex};

use ecs_core::change::Tick;
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Health(i32);

type Seen = Arc<Mutex<Vec<(Vec<Entity>, Vec<Entity>)>>>;

/// A schedule whose Update system takes one from every positive `Health`,
/// and whose PostUpdate system records (added, changed).
fn schedule(seen: &Seen) -> Schedule {
    let out = Arc::clone(seen);
    let mut schedule = Schedule::new();
    schedule
        .add_system(
            Stage::Update,
            (|mut q: Query<&mut Health>| {
                q.for_each(|mut h| {
                    if h.0 > 0 {
                        h.0 -= 1;
                    }
                });
            })
            .named("hurt"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::PostUpdate,
            (move |added: Query<Entity, Added<Health>>,
                   changed: Query<Entity, Changed<Health>>| {
                let mut a: Vec<Entity> = added.iter().collect();
                let mut c: Vec<Entity> = changed.iter().collect();
                a.sort();
                c.sort();
                out.lock().unwrap().push((a, c));
            })
            .named("watch"),
        )
        .unwrap();
    schedule
}

#[test]
fn filters_stay_exact_in_the_last_ticks_before_the_limit() {
    let seen = Seen::default();
    let mut world = World::new();
    world.set_change_tick(Tick::new(u64::MAX - 40));
    let a = world.spawn(Health(2));
    let b = world.spawn(Health(0));
    let mut schedule = schedule(&seen);
    let outside = world.change_tick();

    schedule.run(&mut world).unwrap(); // a: 2 -> 1
    let c = world.spawn(Health(0));
    schedule.run(&mut world).unwrap(); // a: 1 -> 0, c added
    schedule.run(&mut world).unwrap(); // nothing
    world.get_mut::<Health>(b).unwrap().0 = 5;
    schedule.run(&mut world).unwrap(); // b written outside, then 5 -> 4

    assert_eq!(
        *seen.lock().unwrap(),
        [
            (vec![a, b], vec![a, b]),
            (vec![c], vec![a, c]),
            (vec![], vec![]),
            (vec![], vec![b]),
        ]
    );
    assert!(world.change_tick().get() > u64::MAX - 40 && world.change_tick().get() < u64::MAX);
    let since_outside: Vec<Entity> = world
        .query_filtered::<Entity, Changed<Health>>()
        .changed_since(outside)
        .iter()
        .collect();
    assert_eq!(since_outside.len(), 3);
}

#[test]
fn the_counter_panics_at_the_limit_instead_of_wrapping() {
    let seen = Seen::default();
    let mut world = World::new();
    let e = world.spawn(Health(1));
    let mut schedule = schedule(&seen);
    world.set_change_tick(Tick::new(u64::MAX - 1));
    world.get_mut::<Health>(e).unwrap().0 = 3; // takes the last tick
    assert_eq!(world.change_tick().get(), u64::MAX);
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| schedule.run(&mut world)));
    let payload = run.expect_err("a system run past the limit panics");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default();
    assert!(
        message.contains("cannot advance without wrapping"),
        "{message}"
    );
    let again = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = world.get_mut::<Health>(e);
    }));
    assert!(
        again.is_err(),
        "a write through the world past the limit panics too"
    );
}

#[test]
#[should_panic(expected = "can only move forward")]
fn the_counter_cannot_be_moved_back() {
    let mut world = World::new();
    world.spawn(Health(1));
    world.set_change_tick(Tick::new(0));
}
