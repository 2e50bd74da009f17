//! Required components: what `#[component(requires(..))]` adds on every
//! path, what hooks and observers see, what `components_of` says, and
//! requirement cycles refused.

use ecs_core::prelude::*;

#[derive(Component, Debug, Default, PartialEq)]
struct Transform(f32);

#[derive(Component, Debug, PartialEq)]
enum Visibility {
    Visible,
    Hidden,
}

#[derive(Component, Debug, Default, PartialEq)]
#[component(requires(Transform))]
struct GlobalTransform(f32);

#[derive(Component, Debug)]
#[component(requires(GlobalTransform, Visibility = Visibility::Visible))]
struct Sprite;

#[derive(Component, Debug)]
#[component(requires(Egg))]
struct Chicken;
#[derive(Component, Default)]
#[component(requires(Chicken2))]
struct Egg;
#[derive(Component, Default)]
#[component(requires(Egg))]
struct Chicken2;

fn required(world: &World, e: Entity) -> Vec<(String, bool)> {
    world
        .components_of(e)
        .unwrap()
        .map(|c| (c.name().to_owned(), c.added_as_requirement()))
        .collect()
}

#[test]
fn spawning_adds_requirements_recursively_with_their_values() -> Result<(), Error> {
    let mut world = World::new();
    let e = world.spawn(Sprite);
    assert_eq!(world.get::<Visibility>(e)?, &Visibility::Visible);
    assert_eq!(world.get::<GlobalTransform>(e)?, &GlobalTransform(0.0));
    assert_eq!(world.get::<Transform>(e)?, &Transform(0.0));
    assert_eq!(
        required(&world, e),
        [
            ("Sprite".to_owned(), false),
            ("GlobalTransform".to_owned(), true),
            ("Transform".to_owned(), true),
            ("Visibility".to_owned(), true),
        ]
    );
    Ok(())
}

#[test]
fn components_given_are_kept_and_not_marked() -> Result<(), Error> {
    let mut world = World::new();
    let e = world.spawn((Sprite, Visibility::Hidden, Transform(4.0)));
    assert_eq!(world.get::<Visibility>(e)?, &Visibility::Hidden);
    assert_eq!(world.get::<Transform>(e)?, &Transform(4.0));
    let marked: Vec<String> = required(&world, e)
        .into_iter()
        .filter(|(_, r)| *r)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(marked, ["GlobalTransform"]);
    Ok(())
}

#[test]
fn every_path_adds_them_and_observers_see_them_arrive() -> Result<(), Error> {
    #[derive(Default)]
    struct Arrived(u32);
    let mut world = World::new();
    world.insert_resource(Arrived::default());
    world.observe(|_: OnAdd<Transform>, mut arrived: ResMut<Arrived>| arrived.0 += 1);

    let a = world.spawn(());
    world.insert(a, Sprite)?;
    let b = world.spawn(());
    world.insert_bundle(b, (Sprite, Transform(1.0)))?;
    let c = world.spawn(());
    world.entity_mut(c)?.insert(GlobalTransform(2.0))?;
    let d = world.spawn(());
    world.view_mut::<Sprite>().insert(d, Sprite)?;
    let e = world.commands().spawn(Sprite);
    assert!(world.flush().is_empty());
    let batch = world.spawn_batch((0..3).map(|_| Sprite));
    for entity in [a, c, d, e].into_iter().chain(batch) {
        assert!(world.contains::<Transform>(entity), "{entity:?}");
    }
    assert_eq!(world.get::<Transform>(b)?, &Transform(1.0));
    assert!(world.contains::<Visibility>(d));
    // Every Transform arrived through the transaction: b's was given.
    assert_eq!(world.resource::<Arrived>()?.0, 8);
    Ok(())
}

/// The components a type requires arrive in the same round as the type:
/// when the observers of either run, the entity holds both, on every path.
#[test]
fn observers_of_a_type_see_its_requirements_in_place() -> Result<(), Error> {
    /// Per arrival of a `Sprite` or of its required `Transform`, whether
    /// the entity held the other one then.
    #[derive(Default)]
    struct Whole(Vec<(&'static str, bool)>);
    let mut world = World::new();
    world.insert_resource(Whole::default());
    world.observe(
        |trigger: OnAdd<Sprite>, transforms: Query<&Transform>, mut whole: ResMut<Whole>| {
            let held = transforms.get(trigger.entity()).is_ok();
            whole.0.push(("Sprite", held));
        },
    );
    world.observe(
        |trigger: OnAdd<Transform>, sprites: Query<&Sprite>, mut whole: ResMut<Whole>| {
            let held = sprites.get(trigger.entity()).is_ok();
            whole.0.push(("Transform", held));
        },
    );

    world.spawn(Sprite);
    let a = world.spawn(());
    world.insert(a, Sprite)?;
    let b = world.spawn(());
    world.insert_bundle(b, (Sprite, Visibility::Hidden))?;
    let c = world.spawn(());
    world.view_mut::<Sprite>().insert(c, Sprite)?;
    world.commands().spawn(Sprite);
    assert!(world.flush().is_empty());
    world.spawn_batch((0..2).map(|_| Sprite));

    let whole = &world.resource::<Whole>()?.0;
    // Seven sprites, each with its `Transform`: fourteen arrivals.
    assert_eq!(whole.len(), 14, "{whole:?}");
    assert!(whole.iter().all(|&(_, held)| held), "{whole:?}");
    Ok(())
}

#[test]
fn a_mark_leaves_with_its_component() -> Result<(), Error> {
    let mut world = World::new();
    let e = world.spawn(GlobalTransform(1.0));
    assert!(required(&world, e).contains(&("Transform".to_owned(), true)));
    world.remove::<Transform>(e)?;
    world.insert(e, Transform(3.0))?;
    assert!(required(&world, e).contains(&("Transform".to_owned(), false)));
    world.despawn(e)?;
    let again = world.spawn(Transform(0.0));
    assert_eq!(required(&world, again), [("Transform".to_owned(), false)]);
    Ok(())
}

#[test]
fn a_requirement_cycle_is_reported_and_nothing_changes() -> Result<(), Error> {
    let mut world = World::new();
    let e = world.spawn(());
    let error = world.insert(e, Chicken).unwrap_err();
    assert_eq!(
        error.to_string(),
        "component requirements form a cycle: `Egg` requires `Chicken2` requires `Egg`"
    );
    assert!(!world.contains::<Chicken>(e) && !world.contains::<Egg>(e));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.spawn(Egg)));
    assert!(caught.is_err());
    assert_eq!(world.len(), 1);
    Ok(())
}

/// `try_spawn` and `try_spawn_batch` return the error `spawn` panics with,
/// and spawn nothing; the view's insert refuses the cycle as `insert` does.
#[test]
fn the_fallible_spawns_return_a_requirement_cycle_and_spawn_nothing() {
    let mut world = World::new();
    let cycle = "component requirements form a cycle: `Egg` requires `Chicken2` requires `Egg`";
    assert_eq!(world.try_spawn(Egg).unwrap_err().to_string(), cycle);
    let batch = world.try_spawn_batch([(Transform(1.0), Egg), (Transform(2.0), Egg)]);
    assert_eq!(batch.unwrap_err().to_string(), cycle);
    assert_eq!(world.len(), 0);
    assert_eq!(world.query::<&Transform>().iter().count(), 0);

    let e = world.spawn(());
    let refused = world.view_mut::<Chicken>().insert(e, Chicken);
    assert_eq!(refused.unwrap_err().to_string(), cycle);
    assert!(!world.contains::<Chicken>(e) && !world.contains::<Egg>(e));
}
