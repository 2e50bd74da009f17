//! The params bevy users reach for: `ParamSet`, `Single`, `RemovedComponents`,
//! and the query methods `iter_many` and `get_many_mut`.

use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Health(i32);
#[derive(Component)]
struct Boss;
#[derive(Component)]
struct Player;

/// Bosses' health, and everyone's.
type Healths<'w> = ParamSet<
    'w,
    (
        Query<'static, &'static mut Health, With<Boss>>,
        Query<'static, &'static mut Health>,
    ),
>;

#[test]
fn param_set_hands_out_conflicting_queries_one_at_a_time() -> Result<(), Error> {
    fn balance(mut set: Healths) {
        set.p0().for_each(|h| h.0 *= 2);
        set.p1().for_each(|h| h.0 += 1);
        let total: i32 = set.p1().iter().map(|h| h.0).sum();
        assert_eq!(total, 23);
    }
    let mut world = World::new();
    let boss = world.spawn((Health(10), Boss));
    let minion = world.spawn(Health(1));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, balance)?;
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Health>(boss)?, &Health(21));
    assert_eq!(world.get::<Health>(minion)?, &Health(2));
    Ok(())
}

#[test]
fn param_set_members_are_checked_against_the_other_params() {
    fn before(_: Query<&Health>, _: ParamSet<(Query<&mut Health>, Query<&Boss>)>) {}
    fn after(_: ParamSet<(Query<&Boss>, Query<&mut Health>)>, _: Query<&mut Health>) {}
    fn resources(_: ResMut<u32>, _: ParamSet<(Res<u32>, Res<u64>)>) {}
    let mut schedule = Schedule::new();
    for error in [
        schedule.add_system(Stage::Update, before).unwrap_err(),
        schedule.add_system(Stage::Update, after).unwrap_err(),
        schedule.add_system(Stage::Update, resources).unwrap_err(),
    ] {
        assert!(matches!(error, Error::ConflictingAccess { .. }), "{error}");
    }
    type Overlapping<'w> = ParamSet<
        'w,
        (
            ResMut<'static, u32>,
            Res<'static, u32>,
            Query<'static, &'static mut Health>,
            Query<'static, &'static Health>,
        ),
    >;
    fn fine(_: Overlapping) {}
    schedule.add_system(Stage::Update, fine).unwrap();
}

#[test]
fn param_set_is_scheduled_with_every_member_access() -> Result<(), Error> {
    fn set(_: ParamSet<(Query<&Boss>, Query<&mut Health>)>) {}
    fn reader(_: Query<&Health>) {}
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, set)?;
    schedule.add_system(Stage::Update, reader)?;
    let why = schedule.explain()?;
    assert_eq!(why.stage(Stage::Update).unwrap().batches.len(), 2);
    Ok(())
}

#[test]
fn param_set_fails_its_run_when_a_member_cannot_be_fetched() {
    struct Missing;
    fn needs(_: ParamSet<(Res<Missing>, Query<&Health>)>) {}
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, needs).unwrap();
    let error = schedule.run(&mut World::new()).unwrap_err();
    assert!(matches!(error, Error::InSystem { .. }), "{error}");
}

#[test]
fn single_runs_only_when_exactly_one_entity_matches() -> Result<(), Error> {
    #[derive(Default)]
    struct Seen(Vec<i32>);
    fn watch(player: Single<&Health, With<Player>>, mut seen: ResMut<Seen>) {
        seen.0.push(player.0);
    }
    let mut world = World::new();
    world.init_resource::<Seen>();
    world.spawn((Health(99), Boss));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, watch)?;
    schedule.run(&mut world)?;
    let p = world.spawn((Health(5), Player));
    schedule.run(&mut world)?;
    let other = world.spawn((Health(6), Player));
    schedule.run(&mut world)?;
    world.despawn(other)?;
    world.get_mut::<Health>(p)?.0 = 7;
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Seen>()?.0, [5, 7]);
    let stats = &schedule.stats()[0];
    assert_eq!((stats.runs, stats.skipped), (2, 2));
    Ok(())
}

#[test]
fn single_in_a_one_shot_system_reports_the_skip_and_a_command_skips_quietly() -> Result<(), Error> {
    let mut world = World::new();
    let id = world.register_system(|mut p: Single<&mut Health>| p.0 += 1);
    assert!(matches!(
        world.run_system(id),
        Err(Error::SkipSystem { .. })
    ));
    world.commands().run_system(id);
    assert_eq!(world.flush(), []);
    let e = world.spawn(Health(1));
    world.run_system(id)?;
    assert_eq!(world.get::<Health>(e)?, &Health(2));
    Ok(())
}

#[test]
fn iter_many_yields_the_matching_items_in_the_order_given() {
    let mut world = World::new();
    let a = world.spawn(Health(1));
    let b = world.spawn((Health(2), Boss));
    let gone = world.spawn(Health(3));
    world.despawn(gone).unwrap();
    let query = world.query_filtered::<&Health, Without<Boss>>();
    let found: Vec<i32> = query.iter_many([gone, b, a, a]).map(|h| h.0).collect();
    assert_eq!(found, [1, 1]);
}

#[test]
fn get_many_mut_gives_distinct_entities_at_once() -> Result<(), Error> {
    let mut world = World::new();
    let ids: Vec<Entity> = (0..4).map(|i| world.spawn(Health(i))).collect();
    let mut query = world.query::<(Entity, &mut Health)>();
    let [(ea, a), (eb, b), (ec, c)] = query.get_many_mut([ids[3], ids[0], ids[2]])?;
    assert_eq!((ea, eb, ec), (ids[3], ids[0], ids[2]));
    core::mem::swap(&mut a.0, &mut b.0);
    c.0 += 10;
    assert_eq!(
        query.get_many_mut([ids[1], ids[2], ids[1]]).err(),
        Some(Error::RepeatedEntity { entity: ids[1] })
    );
    let gone = ids[1];
    world.despawn(gone)?;
    let mut query = world.query::<&mut Health>();
    assert_eq!(
        query.get_many_mut([ids[0], gone]).err(),
        Some(Error::Despawned { entity: gone })
    );
    let values: Vec<i32> = [ids[0], ids[2], ids[3]]
        .iter()
        .map(|&e| world.get::<Health>(e).unwrap().0)
        .collect();
    assert_eq!(values, [3, 12, 0]);
    Ok(())
}

#[test]
fn get_many_mut_marks_each_tracked_value_changed() -> Result<(), Error> {
    #[derive(Component)]
    #[component(track_changes)]
    struct Armor(i32);
    let mut world = World::new();
    let a = world.spawn(Armor(1));
    let b = world.spawn(Armor(2));
    let c = world.spawn(Armor(3));
    let since = world.change_tick();
    {
        let mut query = world.query::<&mut Armor>();
        let [mut x, mut y] = query.get_many_mut([a, c])?;
        x.0 += 1;
        y.0 += 1;
    }
    let mut changed: Vec<Entity> = world
        .query_filtered::<Entity, Changed<Armor>>()
        .changed_since(since)
        .iter()
        .collect();
    changed.sort_unstable();
    assert_eq!(changed, [a, c]);
    let _ = b;
    Ok(())
}

#[test]
fn removed_components_lists_each_loss_once_per_reader() -> Result<(), Error> {
    #[derive(Default)]
    struct Seen(Vec<(&'static str, Entity)>);
    fn early(mut gone: RemovedComponents<Health>, mut seen: ResMut<Seen>) {
        let lost: Vec<Entity> = gone.read().collect();
        seen.0.extend(lost.into_iter().map(|e| ("early", e)));
    }
    fn late(mut gone: RemovedComponents<Health>, mut seen: ResMut<Seen>) {
        let lost: Vec<Entity> = gone.read().collect();
        seen.0.extend(lost.into_iter().map(|e| ("late", e)));
    }
    fn reap(q: Query<(Entity, &Health)>, mut commands: Commands) {
        for (e, h) in q.iter() {
            if h.0 <= 0 {
                commands.entity(e).remove::<Health>();
            }
        }
    }
    let mut world = World::new();
    world.init_resource::<Seen>();
    let before = world.spawn(Health(1));
    world.remove::<Health>(before)?; // before any reader: not logged
    let dying = world.spawn(Health(0));
    let despawned = world.spawn(Health(5));
    let cleared = world.spawn(Health(5));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::First, early)?;
    schedule.add_system(Stage::Update, reap)?;
    schedule.add_system(Stage::Last, late.run_if(|| true))?;
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Seen>()?.0, [("late", dying)]);
    world.resource_mut::<Seen>()?.0.clear();
    world.despawn(despawned)?;
    world.clear();
    schedule.run(&mut world)?;
    let seen = &world.resource::<Seen>()?.0;
    assert_eq!(
        seen,
        &[
            ("early", dying),
            ("early", despawned),
            ("early", cleared),
            ("late", despawned),
            ("late", cleared)
        ]
    );
    Ok(())
}

#[test]
fn single_in_an_observer_skips_it_without_an_error() -> Result<(), Error> {
    #[derive(Default)]
    struct Hits(u32);
    let mut world = World::new();
    world.init_resource::<Hits>();
    world.observe(
        |_: OnAdd<Boss>, player: Single<&Health, With<Player>>, mut hits: ResMut<Hits>| {
            hits.0 += u32::try_from(player.0).unwrap();
        },
    );
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, |mut commands: Commands| {
        commands.spawn(Boss);
    })?;
    schedule.run(&mut world)?; // no player: the observer does not run
    assert!(schedule.command_errors().is_empty());
    world.spawn((Health(3), Player));
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Hits>()?.0, 3);
    Ok(())
}
