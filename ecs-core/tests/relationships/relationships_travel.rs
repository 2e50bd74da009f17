//! Relationships through everything that moves entities: merges (both
//! sides remapped), snapshots, rollback restores, and despawns made from
//! inside observers and hooks.

use ecs_core::prelude::*;

#[derive(Component, Clone, Debug, PartialEq, Hash)]
struct Name(&'static str);

/// Every `ChildOf` is listed once under its parent, every listed child
/// points back, and no `Children` is empty.
fn assert_hierarchy_whole(world: &World) {
    let mut listed = 0;
    for (parent, children) in world.query_ref::<(Entity, &Children)>().iter() {
        assert!(!children.is_empty(), "{parent:?} keeps an empty Children");
        let mut unique = children.to_vec();
        unique.sort();
        unique.dedup();
        assert_eq!(
            unique.len(),
            children.len(),
            "{parent:?} lists a child twice"
        );
        for &child in children.iter() {
            assert_eq!(world.get::<ChildOf>(child).map(ChildOf::parent), Ok(parent));
            listed += 1;
        }
    }
    assert_eq!(listed, world.query_ref::<&ChildOf>().iter().count());
}

fn named(world: &World, name: &str) -> Entity {
    world
        .query_ref::<(Entity, &Name)>()
        .iter()
        .find(|(_, n)| n.0 == name)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no entity is named {name}"))
}

fn names(world: &World, entities: impl Iterator<Item = Entity>) -> Vec<&'static str> {
    entities.map(|e| world.get::<Name>(e).unwrap().0).collect()
}

fn solar_system(world: &mut World) -> Entity {
    world.spawn((
        Name("sun"),
        children![
            (Name("earth"), children![(Name("moon"),)]),
            (
                Name("mars"),
                children![(Name("phobos"),), (Name("deimos"),)]
            ),
        ],
    ))
}

#[test]
fn a_merge_remaps_both_sides_and_lists_each_child_once() -> Result<(), Error> {
    let mut world = World::new();
    let here = world.spawn(Name("here"));
    let local = world.spawn((Name("local"), ChildOf(here)));
    let mut level = World::new();
    // Ids in the level overlap the ids here.
    let sun = solar_system(&mut level);
    let moved = world.merge(level);
    let sun = moved.get(sun).unwrap();
    assert_hierarchy_whole(&world);
    assert_eq!(
        names(&world, world.descendants(sun)),
        ["earth", "moon", "mars", "phobos", "deimos"]
    );
    assert_eq!(world.get::<Children>(here)?.as_slice(), &[local]);
    // The merged lists work as any other: a child leaves in place.
    let mars = named(&world, "mars");
    world.despawn(named(&world, "phobos"))?;
    assert_eq!(names(&world, world.descendants(mars)), ["deimos"]);
    world.insert(mars, ChildOf(local))?;
    assert_eq!(
        names(&world, world.descendants(here)),
        ["local", "mars", "deimos"]
    );
    assert_hierarchy_whole(&world);
    Ok(())
}

#[test]
fn a_rollback_restore_puts_both_sides_back_and_later_changes_keep_them() -> Result<(), Error> {
    let mut rollback = PersistRegistry::new();
    rollback
        .register_relationship::<ChildOf>("ChildOf", "Children")
        .rollback();
    rollback.register::<Name>("Name").rollback_hashed();
    let mut world = World::new();
    let sun = solar_system(&mut world);
    let saved = rollback.save(&world);
    let before = names(&world, world.descendants(sun));

    let mars = named(&world, "mars");
    let moon = named(&world, "moon");
    world.insert(moon, ChildOf(mars))?;
    world.despawn(named(&world, "earth"))?;
    world.spawn((Name("comet"), ChildOf(sun)));
    assert_ne!(rollback.checksum(&world), saved.checksum());

    rollback.restore(&mut world, &saved)?;
    assert_eq!(rollback.checksum(&world), saved.checksum());
    assert_eq!(names(&world, world.descendants(sun)), before);
    assert_hierarchy_whole(&world);

    // The lists came back without their slots: removals still find each child.
    world
        .get_mut::<Children>(mars)?
        .sort_by_key(|e| core::cmp::Reverse(e.index()));
    world.despawn(named(&world, "deimos"))?;
    world.despawn(named(&world, "moon"))?;
    assert_eq!(
        names(&world, world.descendants(sun)),
        ["earth", "mars", "phobos"]
    );
    assert_hierarchy_whole(&world);
    Ok(())
}

/// The message of the panic `register` raises.
fn refusal(register: impl FnOnce(&mut PersistRegistry)) -> String {
    let mut rollback = PersistRegistry::new();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| register(&mut rollback)));
    let payload = caught.expect_err("one side alone is refused");
    payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn rollback_refuses_one_side_of_a_relationship_naming_register_relationship() {
    let refused = [
        refusal(|r| {
            r.register::<ChildOf>("ChildOf").rollback();
        }),
        refusal(|r| {
            r.register::<Children>("Children").rollback_hashed();
        }),
        refusal(|r| {
            r.register::<ChildOf>("ChildOf")
                .rollback_with_checksum(|_, _| {});
        }),
    ];
    for message in &refused {
        assert!(
            message.contains("register_relationship::<ChildOf>(..)"),
            "{message}"
        );
    }
    assert!(refused[1].contains("`Children`"), "{}", refused[1]);
    // Both sides through the one door: a restore puts the hierarchy back
    // even after the parent's id was reused by a later spawn.
    let mut rollback = PersistRegistry::new();
    rollback
        .register_relationship::<ChildOf>("ChildOf", "Children")
        .rollback();
    let mut world = World::new();
    let parent = world.spawn(());
    let saved = rollback.save(&world);
    let child = world.spawn(ChildOf(parent));
    world.despawn(parent).unwrap();
    rollback.restore(&mut world, &saved).unwrap();
    assert!(world.is_alive(parent) && !world.is_alive(child));
    let reused = world.spawn(());
    assert!(!world.contains::<Children>(reused) && !world.contains::<Children>(parent));
    assert_hierarchy_whole(&world);
}

#[test]
fn an_observer_and_a_hook_despawning_parents_take_their_subtrees() -> Result<(), Error> {
    #[derive(Component)]
    struct Doomed;

    #[derive(Component)]
    #[component(on_add = collapse)]
    struct Collapse;

    fn collapse(mut world: DeferredWorld, ctx: HookContext) {
        let parent = world.get::<ChildOf>(ctx.entity).unwrap().parent();
        world.commands().despawn(parent);
    }

    let mut world = World::new();
    world.observe(|trigger: OnAdd<Doomed>, mut commands: Commands| {
        commands.despawn(trigger.entity());
    });
    let sun = solar_system(&mut world);
    let earth = named(&world, "earth");
    world.insert(earth, Doomed)?;
    assert_eq!(
        names(&world, world.descendants(sun)),
        ["mars", "phobos", "deimos"]
    );
    assert_hierarchy_whole(&world);

    let deimos = named(&world, "deimos");
    world.insert(deimos, Collapse)?;
    assert_eq!(names(&world, world.descendants(sun)), Vec::<&str>::new());
    assert!(!world.contains::<Children>(sun));
    assert_eq!(world.len(), 1);
    assert!(world.take_observer_errors().is_empty());
    Ok(())
}

#[cfg(feature = "serde")]
mod snapshots {
    use super::*;

    #[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Label(String);

    fn registry() -> PersistRegistry {
        let mut registry = PersistRegistry::new();
        registry.register::<Label>("game::Label").snapshot();
        registry
            .register_relationship::<ChildOf>("ecs::ChildOf", "ecs::Children")
            .snapshot();
        registry
    }

    fn tree(world: &mut World) -> Entity {
        world.spawn((
            Label("root".into()),
            children![
                (Label("a".into()), children![(Label("a1".into()),)]),
                (Label("b".into()),)
            ],
        ))
    }

    fn labels(world: &World, root: Entity) -> Vec<String> {
        world
            .descendants(root)
            .map(|e| world.get::<Label>(e).unwrap().0.clone())
            .collect()
    }

    /// `world`'s snapshot, less the column named `dropped` (if any), loaded
    /// into a fresh world.
    fn round_trip(world: &World, dropped: Option<&str>) -> Result<World, Error> {
        let registry = registry();
        let mut json = serde_json::to_value(registry.snapshot(world)).unwrap();
        let columns = json["components"].as_array_mut().unwrap();
        columns.retain(|column| Some(column["name"].as_str().unwrap()) != dropped);
        let text = json.to_string();
        registry.world_from_snapshot(&mut serde_json::Deserializer::from_str(&text))
    }

    #[test]
    fn a_snapshot_of_both_sides_loads_whole() -> Result<(), Error> {
        let mut world = World::new();
        let root = tree(&mut world);
        let copy = round_trip(&world, None)?;
        assert_eq!(labels(&copy, root), ["a", "a1", "b"]);
        assert_hierarchy_whole(&copy);
        Ok(())
    }

    #[test]
    fn the_registry_refuses_one_side_alone() {
        let mut registry = PersistRegistry::new();
        for refused in [
            registry.try_register::<ChildOf>("ecs::ChildOf").err(),
            registry.try_register::<Children>("ecs::Children").err(),
        ] {
            let message = refused.expect("one side alone is refused").to_string();
            assert!(
                message.contains("register_relationship::<ChildOf>"),
                "{message}"
            );
        }
        assert_eq!(registry.names().count(), 0);
    }

    /// A snapshot made elsewhere may hold one side only: it still loads
    /// into a world whose two sides agree.
    #[test]
    fn a_snapshot_holding_one_side_loads_into_a_whole_pair() -> Result<(), Error> {
        let mut world = World::new();
        let root = tree(&mut world);
        // The relationships alone: the lists are rebuilt as they arrive.
        let copy = round_trip(&world, Some("ecs::Children"))?;
        let mut got = labels(&copy, root);
        got.sort();
        assert_eq!(got, ["a", "a1", "b"]);
        assert_hierarchy_whole(&copy);
        // The lists alone: nothing points back, so they go.
        let copy = round_trip(&world, Some("ecs::ChildOf"))?;
        assert_eq!(labels(&copy, root), Vec::<String>::new());
        assert_hierarchy_whole(&copy);
        Ok(())
    }

    #[test]
    fn a_snapshot_loaded_into_a_running_world_keeps_both_hierarchies() -> Result<(), Error> {
        let registry = registry();
        let mut level = World::new();
        let root = tree(&mut level);
        let text = serde_json::to_string(&registry.snapshot(&level)).unwrap();
        let mut world = World::new();
        let mine = tree(&mut world);
        let moved =
            registry.load_snapshot(&mut world, &mut serde_json::Deserializer::from_str(&text))?;
        let root = moved.get(root).unwrap();
        assert_eq!(labels(&world, root), ["a", "a1", "b"]);
        assert_eq!(labels(&world, mine), ["a", "a1", "b"]);
        assert_hierarchy_whole(&world);
        Ok(())
    }

    /// A snapshot of `a ChildOf root`, `b ChildOf a`, its JSON edited so
    /// that `a` points at `b` instead: a loop of two.
    fn looped_snapshot() -> (String, Entity, Entity) {
        let registry = registry();
        let mut world = World::new();
        let root = world.spawn(Label("root".into()));
        let a = world.spawn((Label("a".into()), ChildOf(root)));
        let b = world.spawn((Label("b".into()), ChildOf(a)));
        let mut json = serde_json::to_value(registry.snapshot(&world)).unwrap();
        let child_of = json["components"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|column| column["name"] == "ecs::ChildOf")
            .unwrap();
        let at = child_of["entities"]
            .as_array()
            .unwrap()
            .iter()
            .position(|bits| bits.as_u64() == Some(a.to_bits()))
            .unwrap();
        child_of["values"][at] = b.to_bits().into();
        let edited = json.to_string();
        (edited, a, b)
    }

    fn refused_as_a_loop(result: Result<impl Sized, Error>, a: Entity, b: Entity) {
        match result.map(|_| ()).unwrap_err() {
            Error::RelationshipCycle {
                entity,
                target,
                relationship,
            } => {
                let mut pair = [entity, target];
                pair.sort();
                assert_eq!(pair, [a, b], "the loop's two entities are named");
                assert!(relationship.ends_with("ChildOf"), "{relationship}");
            }
            other => panic!("expected a cycle error, got {other}"),
        }
    }

    #[test]
    fn a_snapshot_whose_hierarchy_loops_is_refused_whole() {
        let (text, a, b) = looped_snapshot();
        let registry = registry();
        let loaded = registry.world_from_snapshot(&mut serde_json::Deserializer::from_str(&text));
        refused_as_a_loop(loaded, a, b);

        let mut world = World::new();
        let mine = tree(&mut world);
        let before = world.len();
        let loaded =
            registry.load_snapshot(&mut world, &mut serde_json::Deserializer::from_str(&text));
        refused_as_a_loop(loaded, a, b);
        assert_eq!(world.len(), before, "nothing of the snapshot arrived");
        assert_eq!(labels(&world, mine), ["a", "a1", "b"]);
        assert_hierarchy_whole(&world);
    }

    #[test]
    fn the_error_says_which_entities_loop_and_through_what() {
        let (text, _, _) = looped_snapshot();
        let registry = registry();
        let error = registry
            .world_from_snapshot(&mut serde_json::Deserializer::from_str(&text))
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("ChildOf") && error.contains("cycle"),
            "{error}"
        );
    }
}
