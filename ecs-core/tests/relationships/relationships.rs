//! Relationships: `ChildOf` / `Children`, custom pairs, their checks, and
//! the paths that keep both sides in step.

use ecs_core::MAX_OBSERVER_DEPTH;
use ecs_core::prelude::*;

#[derive(Component, Debug)]
struct Name(&'static str);

#[derive(Component)]
#[relationship(target = Followers)]
struct Follows(#[entity] Entity);

#[derive(Component, Debug)]
#[relationship_target(relationship = Follows)]
struct Followers(Vec<Entity>);

#[derive(Component)]
#[relationship(target = Crew)]
struct CrewOf {
    #[entity]
    ship: Entity,
}

#[derive(Component)]
#[relationship_target(relationship = CrewOf, linked_spawn)]
struct Crew {
    members: Vec<Entity>,
}

/// Every `ChildOf` is listed once in its parent's `Children`, and every
/// listed child points back; no `Children` is empty.
fn assert_hierarchy_whole(world: &World) {
    let mut listed = 0;
    for (parent, children) in world.query_ref::<(Entity, &Children)>().iter() {
        assert!(!children.is_empty(), "{parent:?} keeps an empty Children");
        for &child in children.iter() {
            assert_eq!(
                world.get::<ChildOf>(child).map(ChildOf::parent),
                Ok(parent),
                "{child:?} is listed under {parent:?}"
            );
            listed += 1;
        }
        let mut unique = children.to_vec();
        unique.sort();
        unique.dedup();
        assert_eq!(
            unique.len(),
            children.len(),
            "{parent:?} lists a child twice"
        );
    }
    assert_eq!(listed, world.query_ref::<&ChildOf>().iter().count());
}

#[test]
fn the_scene_graph_walkthrough_behaves_as_written() -> Result<(), Error> {
    let mut world = World::new();
    let ship = world.spawn(Name("ship"));
    let turret = world.spawn((Name("turret"), ChildOf(ship)));
    let radar = world.spawn((Name("radar"), ChildOf(ship)));
    assert_eq!(world.get::<Children>(ship)?.as_slice(), &[turret, radar]);
    assert_eq!(world.get::<ChildOf>(turret)?.parent(), ship);

    let fleet = world.spawn((
        Name("fleet"),
        children![(Name("a"),), (Name("b"), children![(Name("c"),)])],
    ));
    assert_eq!(world.descendants(fleet).count(), 3);
    let c = world.descendants(fleet).last().unwrap();
    assert_eq!(world.get::<Name>(c)?.0, "c");
    assert_eq!(world.ancestors(c).collect::<Vec<_>>().last(), Some(&fleet));

    world.insert(turret, ChildOf(radar))?;
    assert_eq!(world.get::<Children>(ship)?.as_slice(), &[radar]);
    assert_eq!(world.get::<Children>(radar)?.as_slice(), &[turret]);
    assert!(world.insert(ship, ChildOf(turret)).is_err());
    assert!(!world.contains::<ChildOf>(ship));
    assert_hierarchy_whole(&world);

    world.despawn(ship)?;
    assert!(!world.is_alive(turret) && !world.is_alive(radar));
    assert_eq!(world.len(), 4, "the fleet's four entities stay");
    assert_hierarchy_whole(&world);
    Ok(())
}

#[test]
fn a_cycle_is_refused_naming_both_entities_and_nothing_changes() -> Result<(), Error> {
    let mut world = World::new();
    let root = world.spawn(());
    let mid = world.spawn(ChildOf(root));
    let leaf = world.spawn(ChildOf(mid));
    let error = world.insert(root, ChildOf(leaf)).unwrap_err();
    assert_eq!(
        error,
        Error::RelationshipCycle {
            entity: root,
            target: leaf,
            relationship: core::any::type_name::<ChildOf>(),
        }
    );
    assert_eq!(
        error.to_string(),
        "entity 0v1 cannot have the relationship `ChildOf` to 2v1: 2v1 already reaches 0v1 \
         through `ChildOf`, which would make a cycle"
    );
    assert!(!world.contains::<ChildOf>(root));
    // Re-parenting `mid` under `leaf`, its own child, is a cycle too: the
    // old parent keeps it.
    assert!(world.insert(mid, ChildOf(leaf)).is_err());
    assert_eq!(world.get::<ChildOf>(mid)?.parent(), root);
    assert_eq!(world.get::<Children>(root)?.as_slice(), &[mid]);
    assert_hierarchy_whole(&world);
    Ok(())
}

#[test]
fn a_relationship_to_itself_and_to_a_dead_target_are_refused() -> Result<(), Error> {
    let mut world = World::new();
    let e = world.spawn(());
    let error = world.insert(e, ChildOf(e)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "entity 0v1 cannot have the relationship `ChildOf` to itself"
    );
    let gone = world.spawn(());
    world.despawn(gone)?;
    assert_eq!(
        world.insert(e, ChildOf(gone)),
        Err(Error::Despawned { entity: gone })
    );
    assert_eq!(
        world.insert_bundle(e, (Name("x"), ChildOf(gone))),
        Err(Error::Despawned { entity: gone })
    );
    assert!(
        !world.contains::<Name>(e),
        "a refused bundle inserts nothing"
    );
    assert!(world.entity_mut(e)?.insert(ChildOf(gone)).is_err());
    assert!(world.view_mut::<ChildOf>().insert(e, ChildOf(e)).is_err());
    assert_eq!(world.len(), 1);
    Ok(())
}

#[test]
#[should_panic(expected = "cannot spawn: entity 0v1 was despawned")]
fn spawning_under_a_dead_parent_panics_with_the_error() {
    let mut world = World::new();
    let gone = world.spawn(());
    world.despawn(gone).unwrap();
    world.spawn(ChildOf(gone));
}

#[test]
fn a_target_list_cannot_be_given_by_hand() -> Result<(), Error> {
    let mut world = World::new();
    let star = world.spawn(());
    let fan = world.spawn(());
    let error = world.insert(star, Followers(vec![fan])).unwrap_err();
    assert_eq!(
        error.to_string(),
        "component `Followers` cannot be given to entity 0v1 by hand: the world keeps it from \
         the `Follows` relationships that point at the entity; insert `Follows` on those \
         entities instead"
    );
    assert!(
        world
            .insert_bundle(star, (Name("s"), Followers(vec![])))
            .is_err()
    );
    world.commands().insert(star, Followers(vec![fan]));
    let failed = world.flush();
    assert_eq!(failed, [error]);
    assert!(!world.contains::<Followers>(star));
    Ok(())
}

#[test]
fn despawning_one_child_swaps_the_last_into_its_place() -> Result<(), Error> {
    let mut world = World::new();
    let parent = world.spawn(());
    let kids: Vec<Entity> = (0..5).map(|_| world.spawn(ChildOf(parent))).collect();
    world.despawn(kids[1])?;
    assert_eq!(
        world.get::<Children>(parent)?.as_slice(),
        &[kids[0], kids[4], kids[2], kids[3]]
    );
    world.remove::<ChildOf>(kids[0])?;
    assert_eq!(
        world.get::<Children>(parent)?.as_slice(),
        &[kids[3], kids[4], kids[2]]
    );
    world
        .get_mut::<Children>(parent)?
        .sort_by_key(|e| e.index());
    world.despawn(kids[4])?;
    assert_eq!(
        world.get::<Children>(parent)?.as_slice(),
        &[kids[2], kids[3]],
        "a sorted list is searched once, then taken from in O(1) again"
    );
    for kid in [kids[2], kids[3]] {
        world.remove::<ChildOf>(kid)?;
    }
    assert!(
        !world.contains::<Children>(parent),
        "the list leaves with the last child"
    );
    assert_hierarchy_whole(&world);
    Ok(())
}

#[test]
fn without_linked_spawn_the_sources_stay_and_lose_the_relationship() -> Result<(), Error> {
    let mut world = World::new();
    let star = world.spawn(());
    let fans: Vec<Entity> = (0..3).map(|_| world.spawn(Follows(star))).collect();
    assert_eq!(world.get::<Followers>(star)?.sources(), fans.as_slice());
    world.despawn(star)?;
    for fan in fans {
        assert!(world.is_alive(fan));
        assert!(!world.contains::<Follows>(fan));
    }
    Ok(())
}

#[test]
fn named_fields_and_linked_spawn_on_a_custom_pair() -> Result<(), Error> {
    let mut world = World::new();
    let ship = world.spawn(());
    let pilot = world.spawn(CrewOf { ship });
    let cook = world.spawn(CrewOf { ship });
    assert_eq!(world.get::<Crew>(ship)?.sources(), &[pilot, cook]);
    assert_eq!(world.get::<CrewOf>(cook)?.target(), ship);
    world.despawn(ship)?;
    assert!(!world.is_alive(pilot) && !world.is_alive(cook));
    Ok(())
}

#[test]
fn removing_children_by_hand_releases_every_child() -> Result<(), Error> {
    let mut world = World::new();
    let parent = world.spawn(());
    let a = world.spawn(ChildOf(parent));
    let b = world.spawn(ChildOf(parent));
    world.remove::<Children>(parent)?;
    assert!(world.is_alive(a) && world.is_alive(b));
    assert!(!world.contains::<ChildOf>(a) && !world.contains::<ChildOf>(b));
    assert_hierarchy_whole(&world);
    Ok(())
}

#[test]
fn a_deep_chain_despawns_whole_past_the_nesting_limit() -> Result<(), Error> {
    let mut world = World::new();
    let root = world.spawn(());
    let mut at = root;
    for _ in 0..(MAX_OBSERVER_DEPTH * 3) {
        at = world.spawn(ChildOf(at));
    }
    assert_eq!(world.ancestors(at).count(), MAX_OBSERVER_DEPTH * 3);
    world.despawn(root)?;
    assert!(world.is_empty());
    assert!(world.take_observer_errors().is_empty());
    Ok(())
}

#[test]
fn commands_re_parent_spawn_with_children_and_fail_softly() -> Result<(), Error> {
    let mut world = World::new();
    let a = world.spawn(());
    let b = world.spawn(ChildOf(a));
    let mut commands = world.commands();
    let tree = commands.spawn((Name("tree"), children![(Name("leaf"),)]));
    commands.entity(a).insert(ChildOf(b));
    commands.entity(b).insert(ChildOf(tree));
    let failed = world.flush();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(
        matches!(failed[0], Error::RelationshipCycle { entity, target, .. } if entity == a && target == b)
    );
    assert_eq!(world.get::<ChildOf>(b)?.parent(), tree);
    assert_eq!(world.get::<Children>(tree)?.len(), 2);
    assert_eq!(world.descendants(tree).count(), 2);
    assert_hierarchy_whole(&world);
    Ok(())
}

#[test]
fn queries_read_both_sides_and_walk_the_tree() -> Result<(), Error> {
    let mut world = World::new();
    let root = world.spawn(children![(), children![(), ()]]);
    let down: Vec<Entity> = world.query::<&Children>().iter_descendants(root).collect();
    assert_eq!(down, world.descendants(root).collect::<Vec<_>>());
    assert_eq!(down.len(), 4);
    let leaf = *down.last().unwrap();
    let up: Vec<Entity> = world.query::<&ChildOf>().iter_ancestors(leaf).collect();
    assert_eq!(up.last(), Some(&root));
    assert_eq!(up.len(), 2);

    fn count(parents: Query<&Children>, children: Query<&ChildOf>, mut out: ResMut<Counted>) {
        out.0 = parents.iter().count();
        out.1 = children.iter().count();
    }
    #[derive(Default)]
    struct Counted(usize, usize);
    world.insert_resource(Counted::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, count)?;
    schedule.run(&mut world)?;
    let counted = world.resource::<Counted>()?;
    assert_eq!((counted.0, counted.1), (2, 4));
    Ok(())
}

#[test]
fn spawn_batch_of_children_lists_each_once() -> Result<(), Error> {
    let mut world = World::new();
    let parent = world.spawn(());
    let kids = world.spawn_batch((0..100).map(|_| ChildOf(parent)));
    assert_eq!(world.get::<Children>(parent)?.as_slice(), kids.as_slice());
    assert_hierarchy_whole(&world);
    Ok(())
}

#[test]
fn clear_leaves_no_relationship_behind() -> Result<(), Error> {
    let mut world = World::new();
    let root = world.spawn(children![(), children![()]]);
    world.clear();
    assert!(world.is_empty() && !world.is_alive(root));
    let parent = world.spawn(());
    let kid = world.spawn(ChildOf(parent));
    assert_eq!(world.get::<Children>(parent)?.as_slice(), &[kid]);
    assert_hierarchy_whole(&world);
    Ok(())
}

/// The fallible spawns refuse what `spawn` panics on (a dead parent, a
/// target list given by hand) with the error in words, and spawn nothing:
/// a batch is checked whole before its first entity.
#[test]
fn the_fallible_spawns_refuse_a_broken_relationship_and_spawn_nothing() -> Result<(), Error> {
    let mut world = World::new();
    let parent = world.spawn(());
    let gone = world.spawn(());
    world.despawn(gone)?;

    let dead = world.try_spawn(ChildOf(gone)).unwrap_err();
    assert!(
        matches!(dead, Error::Despawned { entity } if entity == gone),
        "{dead:?}"
    );
    let batch = world.try_spawn_batch([ChildOf(parent), ChildOf(gone), ChildOf(parent)]);
    assert!(batch.is_err());
    assert_eq!(world.len(), 1, "nothing of the refused batch was spawned");
    assert!(
        world.get::<Children>(parent).is_err(),
        "no child was listed"
    );

    let children = world.try_spawn_batch([ChildOf(parent), ChildOf(parent)])?;
    assert_eq!(world.get::<Children>(parent)?.len(), 2);
    assert!(
        children
            .iter()
            .all(|&c| world.get::<ChildOf>(c).is_ok_and(|p| p.0 == parent))
    );

    let list = world.get::<Children>(parent)?.clone();
    let by_hand = world.try_spawn(list).unwrap_err();
    assert!(
        matches!(by_hand, Error::RelationshipTargetByHand { .. }),
        "{by_hand:?}"
    );
    assert_eq!(world.len(), 3);
    Ok(())
}
