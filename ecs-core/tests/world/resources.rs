//! Resources: one value per type, exactly-once drop, errors that name the type.

use std::panic::{self, AssertUnwindSafe};

use ecs_core::prelude::*;
use ecs_testkit::ledger::{Ledger, Token};

struct Held(#[expect(dead_code, reason = "held only to be dropped")] Token);
struct Other(#[expect(dead_code, reason = "held only to be dropped")] Token);

#[derive(Component)]
struct Health(i32);

#[test]
fn replaced_removed_and_world_dropped_values_drop_once() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let first = ledger.token();
    let first_id = first.id();
    assert!(world.insert_resource(Held(first)).is_none());
    let replaced = world.insert_resource(Held(ledger.token())).unwrap();
    assert!(
        ledger.is_live(first_id),
        "the replaced value is handed back, not dropped"
    );
    drop(replaced);
    assert!(!ledger.is_live(first_id));
    world.insert_resource(Other(ledger.token()));
    let removed = world.remove_resource::<Other>().unwrap();
    assert_eq!(ledger.live(), 2);
    drop(removed);
    world.insert_resource(Other(ledger.token()));
    drop(world);
    ledger.assert_no_errors();
    ledger.assert_all_dropped();
}

#[test]
fn a_panicking_drop_does_not_leak_the_other_resources() {
    let ledger = Ledger::default();
    let mut world = World::new();
    world.insert_resource(Held(ledger.bomb()));
    world.insert_resource(Other(ledger.token()));
    world.insert_resource(ledger.token());
    let result = panic::catch_unwind(AssertUnwindSafe(|| drop(world)));
    assert!(result.is_err(), "the panic reaches the caller");
    ledger.assert_no_errors();
    ledger.assert_all_dropped();
}

#[test]
fn missing_resources_are_errors_naming_the_type() {
    struct Time {
        dt: f32,
    }
    let mut world = World::new();
    let err = world.resource::<Time>().err().unwrap();
    assert_eq!(
        err,
        Error::MissingResource {
            resource: std::any::type_name::<Time>()
        }
    );
    assert_eq!(
        err.to_string(),
        "the world has no resource `Time`: add it with `world.insert_resource(..)`"
    );
    assert_eq!(err.entity(), None);
    assert!(world.resource_mut::<Time>().is_err());
    assert!(world.remove_resource::<Time>().is_err());
    world.insert_resource(Time { dt: 0.5 });
    world.resource_mut::<Time>().unwrap().dt *= 2.0;
    assert_eq!(world.resource::<Time>().unwrap().dt, 1.0);
}

#[test]
fn resources_live_beside_entities_and_survive_clear() {
    let mut world = World::new();
    world.insert_resource(10u32);
    let e = world.spawn(Health(3));
    let bonus = *world.resource::<u32>().unwrap() as i32;
    world.get_mut::<Health>(e).unwrap().0 += bonus;
    assert_eq!(world.get::<Health>(e).unwrap().0, 13);
    world.clear();
    assert!(world.is_empty());
    assert_eq!(world.resource::<u32>().unwrap(), &10);
    assert_eq!(world.resource_names(), ["u32"]);
}

#[test]
fn each_world_has_its_own_resources() {
    let mut a = World::new();
    let b = World::new();
    a.insert_resource(1u8);
    assert!(a.contains_resource::<u8>());
    assert!(!b.contains_resource::<u8>());
}
