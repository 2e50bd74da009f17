//! Prepared queries (`QueryState`) and the state function systems keep for their `Query`
//! params: a state sees types and entities that arrived after it was made, keeps working
//! across merges, clears and swaps of whole worlds, and refuses a world it was not made from.

use ecs_core::prelude::*;
use ecs_core::query::QueryState;

#[derive(Component, Debug, PartialEq)]
struct Pos(i32);

#[derive(Component, Debug, PartialEq)]
struct Vel(i32);

#[derive(Component)]
struct Frozen;

#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Health(i32);

fn sorted_pos(state: &mut QueryState<&Pos>, world: &World) -> Vec<i32> {
    let mut xs: Vec<i32> = state.iter(world).map(|p| p.0).collect();
    xs.sort_unstable();
    xs
}

/// A state made before its types exist finds their storages once they do, and sees every
/// entity added between uses.
#[test]
fn sees_types_and_entities_that_arrive_later() -> Result<(), Error> {
    let mut world = World::new();
    let mut moving = world.query_state::<(&mut Pos, &Vel)>();
    let mut positions = world.query_state::<&Pos>();
    assert_eq!(moving.iter_mut(&mut world).count(), 0);
    assert!(sorted_pos(&mut positions, &world).is_empty());

    let a = world.spawn((Pos(0), Vel(1)));
    world.spawn(Pos(10));
    moving.query_mut(&mut world).for_each(|(p, v)| p.0 += v.0);
    assert_eq!(sorted_pos(&mut positions, &world), [1, 10]);

    // Enough entities that every storage grows (and its arrays move) between uses.
    let more: Vec<Entity> = world.spawn_batch((0..1000).map(|i| (Pos(i), Vel(2))));
    moving.query_mut(&mut world).for_each(|(p, v)| p.0 += v.0);
    assert_eq!(world.get::<Pos>(a)?, &Pos(2));
    assert_eq!(world.get::<Pos>(more[999])?, &Pos(1001));
    assert_eq!(moving.iter_mut(&mut world).count(), 1001);
    Ok(())
}

/// Filters on types registered after the state was made: `With` starts matching, `Without`
/// starts excluding.
#[test]
fn filters_on_types_that_arrive_later() {
    let mut world = World::new();
    world.spawn(Pos(1));
    let mut frozen = world.query_state_filtered::<&Pos, With<Frozen>>();
    let mut thawed = world.query_state_filtered::<&Pos, Without<Frozen>>();
    assert_eq!(frozen.iter(&world).count(), 0);
    assert_eq!(thawed.iter(&world).count(), 1);

    world.spawn((Pos(2), Frozen));
    let got: Vec<i32> = frozen.iter(&world).map(|p| p.0).collect();
    assert_eq!(got, [2]);
    let got: Vec<i32> = thawed.iter(&world).map(|p| p.0).collect();
    assert_eq!(got, [1]);
}

/// Change filters through a state, with `changed_since` on the query it builds.
#[test]
fn change_filters_through_a_state() -> Result<(), Error> {
    let mut world = World::new();
    let mut changed = world.query_state_filtered::<Entity, Changed<Health>>();
    let a = world.spawn(Health(1));
    let b = world.spawn(Health(1));
    assert_eq!(changed.iter(&world).count(), 2);
    let since = world.change_tick();
    world.get_mut::<Health>(b)?.0 += 1;
    let got: Vec<Entity> = changed.query(&world).changed_since(since).iter().collect();
    assert_eq!(got, [b]);
    let _ = a;
    Ok(())
}

/// A state keeps working when other worlds' entities (and types it had not seen) are merged
/// in, and after the world is cleared.
#[test]
fn survives_merge_and_clear() {
    let mut world = World::new();
    let mut positions = world.query_state::<&Pos>();
    let mut other = World::new();
    other.spawn_batch((0..3).map(Pos));
    world.merge(other);
    assert_eq!(sorted_pos(&mut positions, &world), [0, 1, 2]);
    world.clear();
    assert!(sorted_pos(&mut positions, &world).is_empty());
    world.spawn(Pos(7));
    assert_eq!(sorted_pos(&mut positions, &world), [7]);
}

/// A state belongs to the world's data, not to the variable holding it: swapping two worlds
/// moves each state's world along.
#[test]
fn follows_its_world_through_a_swap() {
    let mut first = World::new();
    let mut second = World::new();
    first.spawn(Pos(1));
    second.spawn(Pos(2));
    let mut of_first = first.query_state::<&Pos>();
    std::mem::swap(&mut first, &mut second);
    assert_eq!(sorted_pos(&mut of_first, &second), [1]);
}

#[test]
#[should_panic(expected = "was used with a world other than the one it was made from")]
fn refuses_another_world() {
    let mut first = World::new();
    let mut second = World::new();
    first.spawn(Pos(1));
    second.spawn(Pos(2));
    let mut positions = first.query_state::<&mut Pos>();
    positions.query_mut(&mut second).for_each(|p| p.0 += 1);
}

/// A world made after the state's world was dropped is still another world, even if it is
/// built the same way (and could land at the same address).
#[test]
#[should_panic(expected = "was used with a world other than the one it was made from")]
fn refuses_a_newer_world_in_place_of_a_dropped_one() {
    let mut world = World::new();
    world.spawn(Pos(1));
    let mut positions = world.query_state::<&Pos>();
    drop(world);
    let mut world = World::new();
    world.spawn(Pos(1));
    let _ = positions.iter(&world).count();
}

#[test]
#[should_panic(expected = "asks for `Pos` mutably and also reads or writes it elsewhere")]
fn a_state_that_aliases_panics_when_made() {
    let world = World::new();
    let _ = world.query_state::<(&mut Pos, &Pos)>();
}

/// The state agrees with the one-off query, item for item, `get` included.
#[test]
fn agrees_with_the_one_off_query() -> Result<(), Error> {
    let mut world = World::new();
    let mut state = world.query_state_filtered::<(Entity, &Pos, Option<&Vel>), Without<Frozen>>();
    for i in 0..200 {
        let e = world.spawn(Pos(i));
        if i % 3 == 0 {
            world.insert(e, Vel(i))?;
        }
        if i % 7 == 0 {
            world.insert(e, Frozen)?;
        }
        if i % 11 == 0 {
            world.despawn(e)?;
        }
        let fresh: Vec<_> = world
            .query_filtered::<(Entity, &Pos, Option<&Vel>), Without<Frozen>>()
            .iter()
            .map(|(e, p, v)| (e, p.0, v.map(|v| v.0)))
            .collect();
        let prepared: Vec<_> = state
            .iter(&world)
            .map(|(e, p, v)| (e, p.0, v.map(|v| v.0)))
            .collect();
        assert_eq!(fresh, prepared);
        let query = state.query(&world);
        assert_eq!(query.get(e).is_ok(), world.is_alive(e) && i % 7 != 0);
    }
    Ok(())
}

#[derive(Default)]
struct Seen(Vec<i32>);

/// A function system keeps its query's storages between runs; it still sees a type that was
/// first spawned after its first run.
#[test]
fn a_system_sees_types_registered_after_its_first_run() -> Result<(), Error> {
    fn collect(q: Query<&Pos>, mut seen: ResMut<Seen>) {
        seen.0 = q.iter().map(|p| p.0).collect();
        seen.0.sort_unstable();
    }
    let mut world = World::new();
    world.insert_resource(Seen::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, collect)?;
    schedule.run(&mut world)?;
    assert!(world.resource::<Seen>()?.0.is_empty());
    world.spawn(Pos(4));
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Seen>()?.0, [4]);
    world.spawn_batch((5..8).map(Pos));
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Seen>()?.0, [4, 5, 6, 7]);
    Ok(())
}

/// A schedule run on one world and then another finds each world's storages for its systems'
/// queries: a system's kept state is not tied to the first world it ran on.
#[test]
fn a_schedule_runs_on_several_worlds() -> Result<(), Error> {
    fn step(mut q: Query<&mut Pos, Without<Frozen>>) {
        q.for_each(|p| p.0 += 1);
    }
    let mut first = World::new();
    let mut second = World::new();
    let a = first.spawn(Pos(0));
    second.spawn(Frozen);
    let b = second.spawn(Pos(100));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, step)?;
    for _ in 0..3 {
        schedule.run(&mut first)?;
        schedule.run(&mut second)?;
    }
    assert_eq!(first.get::<Pos>(a)?, &Pos(3));
    assert_eq!(second.get::<Pos>(b)?, &Pos(103));
    Ok(())
}
