//! `World::merge`: a staging world moved into a running one. Ids, values,
//! `#[entity]` rewrites, resources, events, observers, groups, change ticks,
//! drops, and a level built on a loader thread while frames run.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use ecs_core::EntityMapper;
use ecs_core::prelude::*;

#[derive(Component, Debug, Clone, PartialEq)]
struct Pos(i32, i32);

#[derive(Component, Debug, Clone, PartialEq)]
struct Name(String);

#[derive(Component, Debug, Clone, PartialEq)]
struct Enemy;

#[derive(MapEntities, Debug, Clone, PartialEq)]
struct Route {
    #[entity]
    stops: Vec<Entity>,
    loops: bool,
}

#[derive(MapEntities, Debug, Clone, PartialEq)]
enum Aim {
    Nowhere,
    At(#[entity] Entity),
    Between {
        #[entity]
        ends: [Entity; 2],
    },
}

/// Every shape of id a component can hold.
#[derive(Component, Debug, Clone, PartialEq)]
struct Links {
    #[entity]
    one: Entity,
    #[entity]
    maybe: Option<Entity>,
    #[entity]
    many: Vec<Entity>,
    #[entity]
    pair: [Entity; 2],
    #[entity]
    queue: VecDeque<Entity>,
    #[entity]
    route: Route,
    #[entity]
    aim: Aim,
    #[entity]
    boxed: Box<Option<Entity>>,
    /// Not marked: never rewritten.
    raw: Entity,
}

#[test]
fn entities_get_fresh_ids_and_keep_their_components() {
    let mut world = World::new();
    let kept = world.spawn((Pos(0, 0), Name("player".into())));
    let gone = world.spawn(Pos(9, 9));
    world.despawn(gone).unwrap();

    let mut level = World::new();
    let a = level.spawn((Pos(1, 2), Name("orc".into()), Enemy));
    let b = level.spawn(Pos(3, 4));
    let dead = level.spawn(Pos(5, 6));
    level.despawn(dead).unwrap();
    let c = level.spawn(()); // reuses `dead`'s slot

    let moved = world.merge(level);
    assert_eq!(moved.len(), 3);
    let pairs: Vec<(Entity, Entity)> = moved.iter().collect();
    let (na, nb, nc) = (
        moved.get(a).unwrap(),
        moved.get(b).unwrap(),
        moved.get(c).unwrap(),
    );
    // In the order of the level's indices: a (0), b (1), c (2, `dead`'s slot).
    assert_eq!(pairs, [(a, na), (b, nb), (c, nc)]);
    assert_eq!(
        moved.get(dead),
        None,
        "a stale id of the level maps to nothing"
    );
    // The freed slot of the main world is reused first.
    assert_eq!(na.index(), gone.index());
    assert_eq!(na.version(), gone.version() + 1);

    assert_eq!(world.len(), 4);
    assert_eq!(world.get::<Pos>(kept).unwrap(), &Pos(0, 0));
    assert_eq!(world.get::<Pos>(na).unwrap(), &Pos(1, 2));
    assert_eq!(world.get::<Name>(na).unwrap(), &Name("orc".into()));
    assert!(world.contains::<Enemy>(na));
    assert_eq!(world.get::<Pos>(nb).unwrap(), &Pos(3, 4));
    assert!(!world.contains::<Name>(nb));
    assert_eq!(world.components_of(nc).unwrap().count(), 0);
    let names: Vec<&str> = world
        .components_of(na)
        .unwrap()
        .map(|info| info.name())
        .collect();
    assert_eq!(names, ["Pos", "Name", "Enemy"]);

    // Merged entities behave like any other.
    let mut rows: Vec<(Entity, Pos)> = world
        .query::<(Entity, &Pos)>()
        .iter()
        .map(|(e, p)| (e, p.clone()))
        .collect();
    rows.sort_by_key(|(e, _)| *e);
    let mut expected = vec![(kept, Pos(0, 0)), (na, Pos(1, 2)), (nb, Pos(3, 4))];
    expected.sort_by_key(|(e, _)| *e);
    assert_eq!(rows, expected);
    world.remove::<Name>(na).unwrap();
    world.despawn(nb).unwrap();
    assert_eq!(world.len(), 3);
    assert_eq!(world.query::<&Pos>().iter().count(), 2);
}

#[test]
fn types_the_target_never_saw_are_registered() {
    let mut world = World::new();
    world.spawn(Pos(0, 0));
    let mut level = World::new();
    let e = level.spawn((Name("new".into()), Enemy));
    let moved = world.merge(level);
    let e = moved.get(e).unwrap();
    assert_eq!(world.query::<(&Name, &Enemy)>().iter().count(), 1);
    assert_eq!(world.get::<Name>(e).unwrap().0, "new");
    // And the next spawn of that type lands beside it.
    let f = world.spawn(Name("later".into()));
    let names: Vec<String> = world.query::<&Name>().iter().map(|n| n.0.clone()).collect();
    assert_eq!(names, ["new", "later"]);
    assert!(world.is_alive(f));
}

fn links_to(a: Entity, b: Entity, outside: Entity) -> Links {
    Links {
        one: a,
        maybe: Some(b),
        many: vec![a, b, outside],
        pair: [b, a],
        queue: VecDeque::from([outside, a]),
        route: Route {
            stops: vec![b, b],
            loops: true,
        },
        aim: Aim::Between { ends: [a, outside] },
        boxed: Box::new(Some(a)),
        raw: a,
    }
}

#[test]
fn entity_fields_follow_their_entities_and_other_ids_stay() {
    let mut world = World::new();
    let player = world.spawn(Name("player".into()));
    world.spawn(());
    world.spawn(());

    let mut level = World::new();
    let a = level.spawn(Pos(1, 1));
    let b = level.spawn(Pos(2, 2));
    // `player` (0v1) is also alive in the level as `a`; an id the level never
    // handed out (index 7) names the main world's entity on purpose.
    let outside = Entity::from_bits((1 << 32) | 7).unwrap();
    let holder = level.spawn(links_to(a, b, outside));
    let aimless = level.spawn(Links {
        aim: Aim::Nowhere,
        ..links_to(b, a, outside)
    });
    let pointer = level.spawn(Links {
        aim: Aim::At(b),
        ..links_to(a, a, outside)
    });

    let moved = world.merge(level);
    let (na, nb) = (moved.get(a).unwrap(), moved.get(b).unwrap());
    assert_ne!(na, a, "the main world's ids are taken");
    let expected = Links {
        raw: a,
        ..links_to(na, nb, outside)
    };
    assert_eq!(
        world.get::<Links>(moved.get(holder).unwrap()).unwrap(),
        &expected
    );
    let aimless = world.get::<Links>(moved.get(aimless).unwrap()).unwrap();
    assert_eq!(aimless.aim, Aim::Nowhere);
    assert_eq!(aimless.one, nb);
    let pointer = world.get::<Links>(moved.get(pointer).unwrap()).unwrap();
    assert_eq!(pointer.aim, Aim::At(nb));
    assert!(world.is_alive(player));
}

#[test]
fn the_target_keeps_its_resources_and_gains_the_absent_ones() {
    #[derive(Debug, PartialEq)]
    struct Score(u32);
    #[derive(Debug, PartialEq)]
    struct LevelName(&'static str);

    let mut world = World::new();
    world.insert_resource(Score(10));
    let mut level = World::new();
    level.insert_resource(Score(0));
    level.insert_resource(LevelName("cellar"));
    world.merge(level);
    assert_eq!(world.resource::<Score>().unwrap(), &Score(10));
    assert_eq!(world.resource::<LevelName>().unwrap(), &LevelName("cellar"));
}

#[test]
fn an_event_store_that_moves_keeps_ending_frames() {
    #[derive(Debug, PartialEq, Clone, Copy)]
    struct Opened(u32);
    #[derive(Debug, PartialEq, Clone, Copy)]
    struct Kept(u32);

    let mut world = World::new();
    world.send(Kept(1));
    let mut level = World::new();
    level.send(Opened(7));
    level.send(Kept(2));
    world.merge(level);
    let opened: Vec<Opened> = world.events::<Opened>().unwrap().iter().copied().collect();
    assert_eq!(opened, [Opened(7)]);
    let kept: Vec<Kept> = world.events::<Kept>().unwrap().iter().copied().collect();
    assert_eq!(kept, [Kept(1)], "the target's store stays");
    // The adopted store ends its frames with the world's: gone after two.
    world.update_events();
    world.update_events();
    assert_eq!(world.events::<Opened>().unwrap().iter().count(), 0);
}

#[test]
fn observers_fire_once_per_component_after_the_whole_merge() {
    let mut world = World::new();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    // `Name` moves after `Pos` (the level registers it second), yet the
    // observer of `Pos` already sees it: the merge is done when observers run.
    world.observe(move |trigger: OnAdd<Pos>, names: Query<&Name>| {
        let name = names.get(trigger.entity()).map(|n| n.0.clone()).ok();
        log.lock().unwrap().push((trigger.entity(), name));
    });
    let inserts = Arc::new(AtomicUsize::new(0));
    let count = inserts.clone();
    world.observe(move |_: OnInsert<Name>| {
        count.fetch_add(1, Ordering::Relaxed);
    });
    world.observe(|trigger: OnAdd<Enemy>, mut commands: Commands| {
        commands.insert(trigger.entity(), Pos(-1, -1));
    });

    let mut level = World::new();
    let a = level.spawn((Pos(1, 1), Name("a".into())));
    let b = level.spawn(Pos(2, 2));
    let c = level.spawn((Name("c".into()), Enemy));
    let moved = world.merge(level);
    let (a, b, c) = (
        moved.get(a).unwrap(),
        moved.get(b).unwrap(),
        moved.get(c).unwrap(),
    );
    let seen = seen.lock().unwrap().clone();
    // The merged `Pos` values, then the one an observer's command added.
    assert_eq!(
        seen,
        [
            (a, Some("a".to_owned())),
            (b, None),
            (c, Some("c".to_owned()))
        ]
    );
    assert_eq!(inserts.load(Ordering::Relaxed), 2);
    assert_eq!(world.get::<Pos>(c).unwrap(), &Pos(-1, -1));
}

#[test]
fn merged_entities_join_the_targets_groups() {
    let mut world = World::new();
    world.group::<(Pos, Name)>().unwrap();
    for i in 0..5 {
        world.spawn(Pos(i, i));
    }
    world.spawn((Pos(100, 100), Name("old".into())));

    let mut level = World::new();
    level.spawn(Pos(-1, -1));
    level.spawn((Name("x".into()), Pos(7, 7)));
    level.spawn(Name("alone".into()));
    level.spawn((Pos(8, 8), Name("y".into())));
    world.merge(level);

    let mut query = world.query::<(&Pos, &Name)>();
    let (positions, names) = query.slices().expect("the group serves its slices");
    let mut rows: Vec<(i32, String)> = positions
        .iter()
        .zip(names)
        .map(|(p, n)| (p.0, n.0.clone()))
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [(7, "x".into()), (8, "y".into()), (100, "old".into())]
    );
}

#[test]
fn tracked_values_arrive_as_added_and_changed() {
    #[derive(Component, Debug, PartialEq)]
    #[component(track_changes)]
    struct Health(u32);

    let mut world = World::new();
    world.spawn(Health(1));
    let since = world.change_tick();
    let mut level = World::new();
    let e = level.spawn(Health(2));
    let moved = world.merge(level);
    let added: Vec<Entity> = world
        .query_filtered::<Entity, Added<Health>>()
        .changed_since(since)
        .iter()
        .collect();
    assert_eq!(added, [moved.get(e).unwrap()]);
    assert!(world.change_tick() > since);
}

#[test]
fn every_value_drops_once_wherever_it_ends() {
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    #[derive(Component)]
    struct Counted(#[allow(dead_code, reason = "only its drop matters")] u32);
    impl Drop for Counted {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::Relaxed);
        }
    }
    struct CountedResource;
    impl Drop for CountedResource {
        fn drop(&mut self) {
            DROPS.fetch_add(100, Ordering::Relaxed);
        }
    }

    let mut world = World::new();
    world.spawn(Counted(0));
    world.insert_resource(CountedResource);
    let mut level = World::new();
    level.spawn_batch((1..=5).map(Counted));
    level.insert_resource(CountedResource);
    world.merge(level);
    assert_eq!(
        DROPS.load(Ordering::Relaxed),
        100,
        "the level's resource dropped, its components moved"
    );
    assert_eq!(world.query::<&Counted>().iter().count(), 6);
    drop(world);
    assert_eq!(DROPS.load(Ordering::Relaxed), 206);
}

#[test]
fn the_levels_pending_commands_apply_before_it_moves() {
    let mut level = World::new();
    let a = level.spawn(Pos(1, 1));
    let reserved = level.commands().spawn(Name("from a command".into()));
    level.commands().insert(a, Enemy);
    let mut world = World::new();
    let moved = world.merge(level);
    assert!(world.contains::<Enemy>(moved.get(a).unwrap()));
    assert_eq!(
        world.get::<Name>(moved.get(reserved).unwrap()).unwrap().0,
        "from a command"
    );
}

#[test]
fn merging_an_empty_world_or_into_an_empty_world() {
    let mut world = World::new();
    let e = world.spawn(Pos(1, 1));
    assert!(world.merge(World::new()).is_empty());
    assert_eq!(world.len(), 1);

    let mut empty = World::new();
    let moved = empty.merge(world);
    // Into an empty world, ids come out as the level had them (fresh slots).
    assert_eq!(moved.get(e), Some(e));
    assert_eq!(empty.get::<Pos>(e).unwrap(), &Pos(1, 1));
}

/// A level built on a loader thread while the main world runs frames, merged
/// when it arrives; the main loop never waits for it.
#[test]
fn a_level_built_on_a_loader_thread_merges_into_a_running_world() {
    #[derive(Component, Debug, PartialEq)]
    struct Door {
        #[entity]
        switch: Entity,
    }
    #[derive(Component)]
    struct Switch;
    #[derive(Component, Clone, Copy)]
    struct Velocity(i32);

    fn movement(mut q: Query<(&mut Pos, &Velocity)>) {
        for (p, v) in q.iter_mut() {
            p.0 += v.0;
        }
    }

    let (send, receive) = mpsc::channel();
    let (go, wait) = mpsc::channel::<()>();
    let loader = std::thread::spawn(move || {
        let mut level = World::new();
        for i in 0..100 {
            let switch = level.spawn((Switch, Pos(i, 0)));
            level.spawn((Door { switch }, Pos(i, 1), Velocity(1)));
        }
        // Held back until the main loop has run some frames.
        wait.recv().unwrap();
        send.send(level).unwrap();
    });

    let mut world = World::new();
    let player = world.spawn((Pos(0, 0), Velocity(1)));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, movement).unwrap();
    let mut merged_at = None;
    for frame in 0..20 {
        if frame == 5 {
            go.send(()).unwrap();
        }
        if merged_at.is_none() {
            // A real game polls; the test waits at frame 10 to be deterministic.
            let level = if frame >= 10 {
                Some(receive.recv().unwrap())
            } else {
                receive.try_recv().ok()
            };
            if let Some(level) = level {
                let moved = world.merge(level);
                assert_eq!(moved.len(), 200);
                merged_at = Some(frame);
            }
        }
        schedule.run(&mut world).unwrap();
    }
    loader.join().unwrap();
    let merged_at = merged_at.expect("the level arrived");
    assert_eq!(world.get::<Pos>(player).unwrap(), &Pos(20, 0));
    let frames_since = 20 - merged_at;
    let doors: Vec<(Entity, i32)> = world
        .query::<(&Door, &Pos)>()
        .iter()
        .map(|(d, p)| (d.switch, p.0))
        .collect();
    assert_eq!(doors.len(), 100);
    for (switch, x) in doors {
        // Each door points at a live switch of the main world, at its own column.
        let switch_x = world.get::<Pos>(switch).unwrap().0;
        assert!(world.contains::<Switch>(switch));
        assert_eq!(x, switch_x + frames_since);
    }
}

/// An `#[entity]` field whose hand-written `MapEntities` panics on a chosen id.
#[derive(Debug, Clone, PartialEq)]
struct Fragile(Entity);

impl MapEntities for Fragile {
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        assert!(self.0.index() != 2, "cannot map {:?}", self.0);
        self.0 = mapper.map_entity(self.0);
    }
}

#[derive(Component, Debug, Clone, PartialEq)]
struct Holds(#[entity] Fragile);

/// A merge whose `MapEntities` panics changes nothing in the target: no entity allocated, no
/// value moved, no resource adopted, no observer run; the next spawn gets the id it would have
/// got, and a later merge goes through.
#[test]
fn a_merge_whose_map_entities_panics_changes_nothing() {
    let mut world = World::new();
    let kept = world.spawn(Pos(1, 1));
    let gone = world.spawn(Pos(2, 2));
    world.despawn(gone).unwrap();
    world.observe(|_: OnAdd<Holds>| panic!("no observer runs for a merge that did not happen"));
    let make_level = |panics: bool| {
        let mut level = World::new();
        let a = level.spawn(Pos(10, 0));
        let b = level.spawn((Pos(11, 0), Holds(Fragile(a))));
        let c = level.spawn(Name(String::from("c")));
        let target = if panics { c } else { b };
        level.spawn(Holds(Fragile(target)));
        level.insert_resource(Name(String::from("level")));
        level
    };
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.merge(make_level(true))
    }));
    let message = ecs_testkit::ledger::panic_message(&*caught.expect_err("the mapping panics"));
    assert!(message.starts_with("cannot map 2v1"), "{message}");
    assert_eq!(world.len(), 1);
    assert_eq!(world.query::<&Pos>().iter().count(), 1);
    assert_eq!(world.get::<Pos>(kept), Ok(&Pos(1, 1)));
    assert!(!world.contains_resource::<Name>());
    let stats = world.stats();
    assert_eq!((stats.entity_slots, stats.free_slots), (2, 1));
    let next = world.spawn(());
    assert_eq!(
        (next.index(), next.version()),
        (1, 2),
        "the freed slot, as before"
    );
    world.despawn(next).unwrap();

    let mut quiet = World::new();
    quiet.spawn(Pos(1, 1));
    let map = quiet.merge(make_level(false));
    assert_eq!(quiet.len(), 5);
    let holds = Entity::from_bits((1 << 32) | 3).unwrap();
    assert!(quiet.contains::<Holds>(map.get(holds).unwrap()));
}
