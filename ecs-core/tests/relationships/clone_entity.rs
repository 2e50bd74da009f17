//! Cloning entities: every copyable component, relationships by their
//! rule, subtrees, and the types that cannot be copied named.

use ecs_core::prelude::*;

#[derive(Component, Clone, Debug, PartialEq)]
struct Name(&'static str);

#[derive(Component, Clone, Debug, PartialEq)]
#[component(track_changes)]
struct Health(u32);

#[derive(Component, Debug)]
struct Socket;

#[derive(Component, Debug, Clone, PartialEq)]
#[component(clone)]
struct Slot<T>(T);

#[derive(Component, Debug, Clone)]
struct NotDetected<T>(T);

#[test]
fn a_clone_copies_every_component_and_observers_see_it_arrive() -> Result<(), Error> {
    #[derive(Default)]
    struct Seen(Vec<Entity>);
    let mut world = World::new();
    world.insert_resource(Seen::default());
    world.observe(|t: OnAdd<Name>, mut seen: ResMut<Seen>| seen.0.push(t.entity()));
    let e = world.spawn((Name("orc"), Health(7), Slot(3u8)));
    let copy = world.clone_entity(e)?;
    assert_ne!(copy, e);
    assert_eq!(world.get::<Name>(copy)?, &Name("orc"));
    assert_eq!(world.get::<Health>(copy)?, &Health(7));
    assert_eq!(world.get::<Slot<u8>>(copy)?, &Slot(3));
    assert_eq!(world.resource::<Seen>()?.0, [e, copy]);
    world.get_mut::<Health>(copy)?.0 = 1;
    assert_eq!(world.get::<Health>(e)?, &Health(7), "copies, not shared");
    Ok(())
}

#[test]
fn types_that_cannot_be_copied_are_refused_or_reported() -> Result<(), Error> {
    let mut world = World::new();
    let e = world.spawn((Name("door"), Socket, NotDetected(1u8)));
    let before = world.len();
    let error = world.clone_entity(e).unwrap_err();
    assert_eq!(
        error.to_string(),
        "entity 0v1 cannot be cloned: components `Socket`, `NotDetected<u8>` do not implement \
         `Clone` (a generic type needs `#[component(clone)]`); `clone_entity_report` copies the rest"
    );
    assert_eq!(world.len(), before, "nothing changed");
    let report = world.clone_entity_report(e)?;
    let copy = report.entity();
    assert_eq!(world.get::<Name>(copy)?, &Name("door"));
    assert_eq!(
        report.not_cloned(),
        &[
            (copy, "Socket".to_owned()),
            (copy, "NotDetected<u8>".to_owned())
        ]
    );
    let gone = world.spawn(());
    world.despawn(gone)?;
    assert_eq!(
        world.clone_entity(gone),
        Err(Error::Despawned { entity: gone })
    );
    Ok(())
}

#[test]
fn a_clone_of_a_child_is_a_child_of_the_same_parent_with_no_children() -> Result<(), Error> {
    let mut world = World::new();
    let ship = world.spawn(Name("ship"));
    let turret = world.spawn((Name("turret"), ChildOf(ship), children![(Name("gun"),)]));
    let copy = world.clone_entity(turret)?;
    assert_eq!(world.get::<ChildOf>(copy)?.parent(), ship);
    assert_eq!(world.get::<Children>(ship)?.as_slice(), &[turret, copy]);
    assert!(
        !world.contains::<Children>(copy),
        "its children stay with the original"
    );
    assert_eq!(world.descendants(turret).count(), 1);
    Ok(())
}

#[test]
fn a_recursive_clone_copies_the_subtree_pointing_the_copies_at_each_other() -> Result<(), Error> {
    let mut world = World::new();
    let (fleet, ship) = fleet_with_ship(&mut world);
    world.insert(named(&world, "radar")[0], Socket)?;
    let report = world.clone_entity_recursive(ship)?;
    let copy = report.entity();
    assert_eq!(world.get::<ChildOf>(copy)?.parent(), fleet);
    let names = |world: &World, root| -> Vec<&str> {
        world
            .descendants(root)
            .map(|e| world.get::<Name>(e).unwrap().0)
            .collect()
    };
    assert_eq!(names(&world, copy), ["turret", "gun", "radar"]);
    assert_eq!(names(&world, ship), ["turret", "gun", "radar"]);
    let originals: Vec<Entity> = world.descendants(ship).collect();
    for e in world.descendants(copy) {
        assert!(!originals.contains(&e), "{e:?} is a copy");
    }
    assert_eq!(report.clones().len(), 4);
    let radar_copy = report.clones()[3].1;
    assert_eq!(report.not_cloned(), &[(radar_copy, "Socket".to_owned())]);
    world.despawn(ship)?;
    assert_eq!(
        names(&world, copy),
        ["turret", "gun", "radar"],
        "the copies stand alone"
    );
    Ok(())
}

/// A ship with a turret (holding a gun) and a radar, under a fleet; the
/// names of the ship's copy's subtree, depth first.
fn fleet_with_ship(world: &mut World) -> (Entity, Entity) {
    let fleet = world.spawn(Name("fleet"));
    let ship = world.spawn((
        Name("ship"),
        ChildOf(fleet),
        children![
            (Name("turret"), children![(Name("gun"),)]),
            (Name("radar"),)
        ],
    ));
    (fleet, ship)
}

fn subtree_names(world: &World, root: Entity) -> Vec<&'static str> {
    world
        .descendants(root)
        .map(|e| world.get::<Name>(e).unwrap().0)
        .collect()
}

fn named(world: &World, name: &str) -> Vec<Entity> {
    world
        .query_ref::<(Entity, &Name)>()
        .iter()
        .filter(|(_, n)| n.0 == name)
        .map(|(e, _)| e)
        .collect()
}

#[test]
fn observers_moving_originals_mid_copy_do_not_change_the_copy() -> Result<(), Error> {
    for unparent in [false, true] {
        let mut world = World::new();
        let (fleet, ship) = fleet_with_ship(&mut world);
        let gun = named(&world, "gun")[0];
        let radar = named(&world, "radar")[0];
        // When the turret's copy arrives, the original gun moves under the
        // radar (or leaves the tree), before the copy reaches it.
        world.observe(
            move |t: OnAdd<Name>, names: Query<&Name>, mut commands: Commands| {
                if names.get(t.entity()).map(|n| n.0) == Ok("turret") {
                    if unparent {
                        commands.entity(gun).remove::<ChildOf>();
                    } else {
                        commands.entity(gun).insert(ChildOf(radar));
                    }
                }
            },
        );
        let report = world.clone_entity_recursive(ship)?;
        let copy = report.entity();
        assert_eq!(world.get::<ChildOf>(copy)?.parent(), fleet);
        assert_eq!(
            subtree_names(&world, copy),
            ["turret", "gun", "radar"],
            "the tree as the call found it"
        );
        assert_eq!(report.clones().len(), 4);
        for name in ["ship", "turret", "gun", "radar"] {
            assert_eq!(named(&world, name).len(), 2, "one copy of {name}");
        }
        let want: &[&str] = if unparent {
            &["turret", "radar"]
        } else {
            &["turret", "radar", "gun"]
        };
        assert_eq!(subtree_names(&world, ship), want, "the originals moved");
    }
    Ok(())
}

#[test]
fn an_observer_despawning_an_original_mid_copy_leaves_no_copy() -> Result<(), Error> {
    let mut world = World::new();
    let (_, ship) = fleet_with_ship(&mut world);
    let radar = named(&world, "radar")[0];
    world.observe(
        move |t: OnAdd<Name>, names: Query<&Name>, mut commands: Commands| {
            if names.get(t.entity()).map(|n| n.0) == Ok("gun") {
                commands.entity(radar).despawn();
            }
        },
    );
    let before = world.len();
    let err = world.clone_entity_recursive(ship).unwrap_err();
    assert_eq!(err, Error::Despawned { entity: radar });
    assert_eq!(
        world.len(),
        before - 1,
        "only the radar went; no copy stays"
    );
    for name in ["ship", "turret", "gun"] {
        assert_eq!(named(&world, name).len(), 1, "no copy of {name}");
    }
    assert_eq!(subtree_names(&world, ship), ["turret", "gun"]);
    Ok(())
}

#[test]
fn a_panicking_observer_mid_copy_leaves_no_copy() -> Result<(), Error> {
    let mut world = World::new();
    let (fleet, ship) = fleet_with_ship(&mut world);
    world.observe(|t: OnAdd<Name>, names: Query<&Name>| {
        if names.get(t.entity()).map(|n| n.0) == Ok("gun") {
            panic!("the gun jams");
        }
    });
    let before = world.len();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.clone_entity_recursive(ship)
    }));
    let message = caught.unwrap_err();
    assert_eq!(message.downcast_ref::<&str>(), Some(&"the gun jams"));
    assert_eq!(world.len(), before);
    assert_eq!(world.get::<Children>(fleet)?.as_slice(), &[ship]);
    assert_eq!(subtree_names(&world, ship), ["turret", "gun", "radar"]);
    Ok(())
}

#[test]
fn a_deep_chain_clones_whole() -> Result<(), Error> {
    let mut world = World::new();
    let root = world.spawn(Name("link"));
    let mut at = root;
    for _ in 0..2_000 {
        at = world.spawn((Name("link"), ChildOf(at)));
    }
    let report = world.clone_entity_recursive(root)?;
    assert_eq!(report.clones().len(), 2_001);
    // Each copy is the child of the copy made just before it.
    for pair in report.clones().windows(2) {
        assert_eq!(world.get::<ChildOf>(pair[1].1)?.parent(), pair[0].1);
    }
    assert_eq!(world.descendants(report.entity()).count(), 2_000);
    Ok(())
}
