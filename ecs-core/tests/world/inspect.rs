//! Entity inspection: `World::inspect` and `World::inspect_all`, their exact
//! text, and that looking changes nothing.
#![expect(dead_code, reason = "the components' fields are only ever printed")]

use std::marker::PhantomData;

use ecs_core::diagnostics::{EntityInspection, WorldInspection};
use ecs_core::prelude::*;

#[derive(Component, Debug)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Component)]
struct Velocity {
    x: f32,
    y: f32,
}

#[derive(Component)]
struct Enemy;

/// A tag that shows itself differently from its name, so the test can tell
/// which of the two was printed.
#[derive(Component)]
struct Boss;

impl std::fmt::Debug for Boss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Boss!")
    }
}

#[derive(Component, Debug)]
#[component(debug)]
struct Shown<T>(T);

#[derive(Component, Debug)]
struct Hidden<T>(T);

#[derive(Component)]
struct Marker<T>(PhantomData<T>);

#[derive(Component, Debug)]
#[component(track_changes)]
struct Health(i32);

#[test]
fn one_line_shows_debug_values_names_and_ellipses() {
    let mut world = World::new();
    let e = world.spawn((
        Position { x: 1.0, y: 2.0 },
        Velocity { x: 0.0, y: 1.0 },
        Enemy,
        Boss,
        Shown(7u8),
        Hidden(3u8),
        Marker::<u8>(PhantomData),
    ));
    assert_eq!(
        world.inspect(e).unwrap().to_string(),
        "0v1 { Position { x: 1.0, y: 2.0 }, Velocity { .. }, Enemy, Boss!, Shown(7), \
         Hidden<u8> { .. }, Marker<u8> }"
    );
}

#[test]
fn a_generic_type_is_shown_only_with_component_debug() {
    let mut world = World::new();
    let e = world.spawn((Shown("text"), Hidden("text")));
    let inspection = world.inspect(e).unwrap();
    let [shown, hidden] = inspection.components() else {
        panic!("two components expected");
    };
    assert_eq!(format!("{:?}", shown.debug().unwrap()), "Shown(\"text\")");
    assert_eq!(shown.name(), "Shown<&str>");
    assert!(hidden.debug().is_none());
    assert_eq!(hidden.to_string(), "Hidden<&str> { .. }");
}

#[test]
fn an_empty_entity_prints_empty_braces() {
    let mut world = World::new();
    let e = world.spawn(());
    let inspection = world.inspect(e).unwrap();
    assert!(inspection.components().is_empty());
    assert_eq!(inspection.to_string(), "0v1 {}");
    assert_eq!(format!("{inspection:#}"), "0v1 {}");
}

#[test]
fn a_despawned_entity_gives_the_error_get_gives() {
    let mut world = World::new();
    let e = world.spawn(Enemy);
    world.despawn(e).unwrap();
    let error = world.inspect(e).unwrap_err();
    assert_eq!(error, Error::Despawned { entity: e });
    assert_eq!(error.to_string(), "entity 0v1 was despawned");
    assert_eq!(
        error.to_string(),
        world.get::<Enemy>(e).err().unwrap().to_string()
    );
}

#[test]
fn components_come_in_id_order_with_their_types() {
    let mut world = World::new();
    // The world first sees Enemy, then Velocity, then Position; `e` gets
    // them in the opposite order.
    world.spawn((Enemy, Velocity { x: 0.0, y: 0.0 }));
    let e = world.spawn(Position { x: 0.0, y: 0.0 });
    world.insert(e, Velocity { x: 0.0, y: 0.0 }).unwrap();
    world.insert(e, Enemy).unwrap();
    let inspection = world.inspect(e).unwrap();
    let described: Vec<_> = inspection
        .components()
        .iter()
        .map(|c| (c.name(), c.size(), c.is_tag(), c.info().id().index()))
        .collect();
    assert_eq!(
        described,
        [
            ("Enemy", 0, true, 0),
            ("Velocity", 8, false, 1),
            ("Position", 8, false, 2)
        ]
    );
    assert_eq!(
        inspection.components()[2].type_name(),
        std::any::type_name::<Position>()
    );
    assert_eq!(
        inspection.to_string(),
        "1v1 { Enemy, Velocity { .. }, Position { x: 0.0, y: 0.0 } }"
    );
}

#[test]
fn get_finds_a_component_by_short_name() {
    let mut world = World::new();
    let e = world.spawn((Shown(1.5f32), Enemy));
    let inspection = world.inspect(e).unwrap();
    assert_eq!(
        inspection.get("Shown<f32>").unwrap().to_string(),
        "Shown(1.5)"
    );
    assert!(inspection.get("Enemy").unwrap().is_tag());
    assert!(inspection.get("Shown").is_none());
    assert!(inspection.get("Velocity").is_none());
}

#[test]
fn alternate_prints_one_component_per_line_pretty() {
    let mut world = World::new();
    let e = world.spawn((
        Position { x: 1.0, y: 2.0 },
        Velocity { x: 0.0, y: 0.0 },
        Enemy,
    ));
    let inspection = world.inspect(e).unwrap();
    assert_eq!(
        format!("{inspection:#}"),
        "0v1 {\n    Position {\n        x: 1.0,\n        y: 2.0,\n    },\n    Velocity { .. },\n    \
         Enemy,\n}"
    );
    assert_eq!(
        format!("{:#}", inspection.components()[0]),
        "Position {\n    x: 1.0,\n    y: 2.0,\n}"
    );
}

#[test]
fn debug_names_the_entity_and_lists_components_as_shown() {
    let mut world = World::new();
    let e = world.spawn((Health(3), Enemy));
    let inspection = world.inspect(e).unwrap();
    assert_eq!(
        format!("{inspection:?}"),
        "EntityInspection { entity: 0v1, components: [Health(3), Enemy] }"
    );
    assert_eq!(
        format!("{:?}", inspection.components()[0]),
        "ComponentInspection { name: \"Health\", size: 4, value: Health(3) }"
    );
}

#[test]
fn inspect_all_prints_every_live_entity_in_index_order() {
    let mut world = World::new();
    let a = world.spawn((Position { x: 1.0, y: 2.0 }, Enemy));
    let b = world.spawn(Velocity { x: 3.0, y: 4.0 });
    let c = world.spawn(());
    let d = world.spawn(Health(5));
    world.despawn(b).unwrap();
    // Reuses index 1 with a new version, so index order is not spawn order.
    let b2 = world.spawn(Boss);

    let all: WorldInspection<'_> = world.inspect_all();
    assert_eq!(all.len(), 4);
    assert!(!all.is_empty());
    let entities: Vec<_> = all.iter().map(|i| i.entity()).collect();
    assert_eq!(entities, [a, b2, c, d]);
    assert_eq!(
        all.to_string(),
        "0v1 { Position { x: 1.0, y: 2.0 }, Enemy }\n\
         1v2 { Boss! }\n\
         2v1 {}\n\
         3v1 { Health(5) }"
    );
    assert_eq!(
        format!("{all:#}"),
        "0v1 {\n    Position {\n        x: 1.0,\n        y: 2.0,\n    },\n    Enemy,\n}\n\
         1v2 {\n    Boss!,\n}\n\
         2v1 {}\n\
         3v1 {\n    Health(\n        5,\n    ),\n}"
    );
    assert_eq!(
        format!("{all:?}"),
        "[EntityInspection { entity: 0v1, components: [Position { x: 1.0, y: 2.0 }, Enemy] }, \
         EntityInspection { entity: 1v2, components: [Boss!] }, \
         EntityInspection { entity: 2v1, components: [] }, \
         EntityInspection { entity: 3v1, components: [Health(5)] }]"
    );
}

#[test]
fn inspect_all_of_an_empty_world_prints_nothing() {
    let world = World::new();
    let all = world.inspect_all();
    assert!(all.is_empty());
    assert_eq!(all.iter().count(), 0);
    assert_eq!(all.to_string(), "");
}

#[test]
fn inspecting_changes_nothing() {
    let mut world = World::new();
    let e = world.spawn((Health(5), Position { x: 1.0, y: 2.0 }, Enemy));
    world.spawn(Health(1));
    let stats = world.stats();
    let tick = world.change_tick();
    let before = world.inspect_all().to_string();

    let inspection: EntityInspection<'_> = world.inspect(e).unwrap();
    assert_eq!(
        inspection.to_string(),
        "0v1 { Health(5), Position { x: 1.0, y: 2.0 }, Enemy }"
    );
    let _ = format!("{inspection:#} {inspection:?}");
    let _ = format!("{:#} {:?}", world.inspect_all(), world.inspect_all());

    assert_eq!(world.stats(), stats);
    assert_eq!(world.change_tick(), tick);
    assert_eq!(world.inspect_all().to_string(), before);
    assert_eq!(world.get::<Health>(e).unwrap().0, 5);
}

#[test]
fn a_deep_tree_prints_a_bounded_text_with_every_entity_listed() -> Result<(), Error> {
    let mut world = World::new();
    let root = world.spawn(());
    let mut at = root;
    for _ in 0..10_000 {
        at = world.spawn(ChildOf(at));
    }
    let tree = world.inspect_tree(root)?;
    assert_eq!(tree.len(), 10_001, "every entity is listed");
    assert_eq!(tree.iter().last().map(|(depth, _)| depth), Some(10_000));
    let text = tree.to_string();
    let shown = ecs_core::diagnostics::TreeInspection::SHOWN_DEPTH;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        shown + 2,
        "one line per shown level, one elision"
    );
    let elision = format!(
        "... {} more entities deeper than {shown} levels",
        10_000 - shown
    );
    assert_eq!(lines.last().map(|l| l.trim_start()), Some(elision.as_str()));
    // Indentation stops growing at the cut: every line is at most the
    // elision's indentation plus its words.
    let widest = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    assert!(
        widest <= 2 * (shown + 1) + elision.len(),
        "a line of {widest} bytes"
    );
    Ok(())
}
