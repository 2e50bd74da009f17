//! Hostile snapshots: truncated, bit-flipped, random and crafted input is an
//! error (or a valid world), never a panic; no allocation is larger than the
//! input justifies, nor all of a load's memory together; and a running world
//! loaded into is unchanged by an error.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use crate::snapshot_common::*;
use ecs_core::prelude::*;
use ecs_testkit::strategy::cases_from_env;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Records, per thread, the largest single allocation while a load runs and
/// the most bytes its allocations held at once, so tests running at once on
/// other threads do not count.
struct Measuring;

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
    /// Bytes allocated minus bytes freed since measuring began (a free of
    /// memory allocated before makes it negative).
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

// SAFETY: every call forwards to `System` unchanged; the thread-locals are
// `const`-initialised cells, which never allocate.
unsafe impl GlobalAlloc for Measuring {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size(), layout.size() as isize);
        // SAFETY: forwarded from the caller.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(0, -(layout.size() as isize));
        // SAFETY: forwarded from the caller.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size, new_size as isize - layout.size() as isize);
        // SAFETY: forwarded from the caller.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Notes an allocation of `size` bytes that changes the bytes held by `change`.
fn note(size: usize, change: isize) {
    let _ = MEASURING.try_with(|measuring| {
        if measuring.get() {
            let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
            let _ = HELD.try_with(|held| {
                held.set(held.get() + change);
                let _ = PEAK.try_with(|peak| peak.set(peak.get().max(held.get())));
            });
        }
    });
}

#[global_allocator]
static ALLOCATOR: Measuring = Measuring;

/// Runs `load` and checks that no single allocation in it exceeds a fixed
/// budget (a sparse page, the capped first reservations) plus a small
/// multiple of the input's length.
fn measured<R>(input_len: usize, load: impl FnOnce() -> R) -> R {
    measured_with_peak(input_len, load).0
}

/// As [`measured`], and also returns the most bytes the load held at once
/// (what it returns included).
fn measured_with_peak<R>(input_len: usize, load: impl FnOnce() -> R) -> (R, usize) {
    LARGEST.with(|largest| largest.set(0));
    HELD.with(|held| held.set(0));
    PEAK.with(|peak| peak.set(0));
    MEASURING.with(|measuring| measuring.set(true));
    let result = load();
    MEASURING.with(|measuring| measuring.set(false));
    let largest = LARGEST.with(Cell::get);
    let peak = PEAK.with(Cell::get) as usize;
    let budget = 128 * 1024 + 32 * input_len;
    assert!(
        largest <= budget,
        "a load of {input_len} bytes made an allocation of {largest} bytes"
    );
    (result, peak)
}

/// Whether the bytes are JSON (else postcard).
#[derive(Clone, Copy, Debug)]
enum Format {
    Json,
    Postcard,
}

fn load_fresh(registry: &PersistRegistry, format: Format, bytes: &[u8]) -> Result<World, Error> {
    measured(bytes.len(), || match format {
        Format::Json => {
            registry.world_from_snapshot(&mut serde_json::Deserializer::from_slice(bytes))
        }
        Format::Postcard => from_postcard(registry, bytes),
    })
}

fn load_running(
    registry: &PersistRegistry,
    format: Format,
    bytes: &[u8],
    world: &mut World,
) -> Result<EntityMap, Error> {
    measured(bytes.len(), || match format {
        Format::Json => {
            registry.load_snapshot(world, &mut serde_json::Deserializer::from_slice(bytes))
        }
        Format::Postcard => {
            registry.load_snapshot(world, &mut postcard::Deserializer::from_bytes(bytes))
        }
    })
}

/// A world a load returned is whole: every component's owner is alive, the
/// entity count agrees, and it spawns and despawns normally.
fn assert_valid(world: &mut World) {
    let print = fingerprint(world);
    let owners = (print.positions.iter().map(|p| p.0))
        .chain(print.names.iter().map(|p| p.0))
        .chain(print.inventories.iter().map(|p| p.0))
        .chain(print.health.iter().map(|p| p.0))
        .chain(print.links.iter().map(|p| p.0))
        .chain(print.frozen.iter().copied());
    for owner in owners {
        assert!(world.is_alive(owner), "a value for dead {owner:?}");
    }
    let fresh = world.spawn(Position { x: 0.0, y: 0.0 });
    assert!(!print.alive.contains(&fresh), "{fresh:?} handed out twice");
    for e in alive_sorted(world) {
        world.despawn(e).unwrap();
    }
    assert!(world.is_empty());
}

fn alive_sorted(world: &mut World) -> Vec<Entity> {
    let mut alive: Vec<Entity> = world.query::<Entity>().iter().collect();
    alive.sort();
    alive
}

/// Loads `bytes` fresh and into a running world: each either fails, leaving
/// the running world exactly as it was (values, count, next id), or gives a
/// valid world. Returns the fresh load's result.
fn check_input(format: Format, bytes: &[u8]) -> Result<(), Error> {
    let registry = registry();
    let fresh = load_fresh(&registry, format, bytes);
    if let Ok(mut world) = load_fresh(&registry, format, bytes) {
        assert_valid(&mut world);
    }
    let mut target = sample_world();
    let mut twin = sample_world();
    let before = fingerprint(&mut target);
    match load_running(&registry, format, bytes, &mut target) {
        Ok(_) => assert_valid(&mut target),
        Err(_) => {
            assert_eq!(
                fingerprint(&mut target),
                before,
                "an error changed the world"
            );
            assert_eq!(next_ids(&mut target, 3), next_ids(&mut twin, 3));
        }
    }
    fresh.map(drop)
}

/// `check_input`, expecting an error whose words contain `words`.
fn assert_refused(format: Format, bytes: &[u8], words: &str) {
    match check_input(format, bytes) {
        Ok(()) => panic!("accepted: {}", String::from_utf8_lossy(bytes)),
        Err(error) => {
            let text = error.to_string();
            assert!(
                matches!(error, Error::Snapshot { .. }) && text.contains(words),
                "expected an error about {words:?}, got: {text}"
            );
        }
    }
}

/// A JSON snapshot with these parts.
fn doc(slots: Value, free: Value, components: Value, resources: Value) -> Vec<u8> {
    json!({
        "format_version": 1,
        "allocator": { "slots": slots, "free": free },
        "components": components,
        "resources": resources,
    })
    .to_string()
    .into_bytes()
}

fn bits(index: u32, version: u32) -> u64 {
    (u64::from(version) << 32) | u64::from(index)
}

fn position_column(entities: &[u64]) -> Value {
    let values: Vec<Value> = entities
        .iter()
        .map(|_| json!({"x": 1.0, "y": 2.0}))
        .collect();
    json!([{ "name": "game::Position", "entities": entities, "values": values }])
}

#[test]
fn a_crafted_document_is_accepted_when_consistent() {
    let good = doc(
        json!([[1, true], [2, false], [u32::MAX, false]]),
        json!([1]),
        position_column(&[bits(0, 1)]),
        json!([{ "name": "game::Score", "value": 5 }]),
    );
    check_input(Format::Json, &good).expect("a consistent document loads");
    let mut world = from_json(&registry(), std::str::from_utf8(&good).unwrap()).unwrap();
    assert_eq!(world.resource::<Score>().unwrap(), &Score(5));
    let next = world.spawn(());
    assert_eq!(
        (next.index(), next.version()),
        (1, 3),
        "the free slot, then slot 3"
    );
    assert_eq!(world.spawn(()).index(), 3, "the retired slot 2 is skipped");
}

#[test]
fn crafted_allocator_states_are_refused() {
    let cases = [
        (
            json!([[0, true]]),
            json!([]),
            "slot 0 is alive with version 0",
        ),
        (
            json!([[0, false]]),
            json!([]),
            "slot 0 is vacant (version 0, never handed out) but not on the free list",
        ),
        (json!([[1, true]]), json!([0]), "where entity 0v1 is alive"),
        (
            json!([[1, false]]),
            json!([4]),
            "names slot 4, but there are only 1 slots",
        ),
        (json!([[1, false]]), json!([0, 0]), "names slot 0 twice"),
        (json!([[u32::MAX, false]]), json!([0]), "which is retired"),
        (
            json!([[1, true], [2, false]]),
            json!([]),
            "neither on the free list nor retired",
        ),
    ];
    for (slots, free, words) in cases {
        assert_refused(Format::Json, &doc(slots, free, json!([]), json!([])), words);
    }
}

#[test]
fn crafted_columns_are_refused() {
    let slots = json!([[1, true], [3, true], [2, false]]);
    let free = json!([2]);
    let refuse = |components: Value, words: &str| {
        assert_refused(
            Format::Json,
            &doc(slots.clone(), free.clone(), components, json!([])),
            words,
        );
    };
    refuse(
        position_column(&[bits(0, 1), bits(0, 1)]),
        "lists entity 0v1 twice in `game::Position`",
    );
    refuse(position_column(&[bits(1, 0)]), "whose version is 0");
    refuse(
        position_column(&[bits(2, 2)]),
        "marks entity 2v2 dead, but `game::Position` holds a value",
    );
    refuse(position_column(&[bits(1, 2)]), "marks entity 1v2 dead");
    refuse(position_column(&[bits(9, 1)]), "marks entity 9v1 dead");
    refuse(
        json!([{ "name": "game::Mana", "entities": [], "values": [] }]),
        "names component type `game::Mana`, which the registry does not know",
    );
    refuse(
        json!([{ "name": "game::Position", "entities": [bits(0, 1)], "values": ["north"] }]),
        "a value of `game::Position`",
    );
    refuse(
        json!([{ "name": "game::Name", "entities": [bits(0, 1)], "values": [{"x": 1}] }]),
        "a value of `game::Name`",
    );
    refuse(
        json!([{ "name": "game::Frozen", "entities": [bits(0, 1)], "values": [null, null] }]),
        "more values than its 1 entities",
    );
    refuse(
        json!([{ "name": "game::Frozen", "entities": [bits(0, 1), bits(1, 3)], "values": [null] }]),
        "has 1 values for 2 entities",
    );
    let twice = json!([
        { "name": "game::Frozen", "entities": [bits(0, 1)], "values": [null] },
        { "name": "game::Frozen", "entities": [bits(1, 3)], "values": [null] },
    ]);
    refuse(twice, "lists component type `game::Frozen` twice");
    refuse(
        json!([{ "name": "game::Score", "entities": [], "values": [] }]),
        "lists the resource `game::Score` among its component types",
    );
    refuse(
        json!([{ "entities": [], "name": "game::Frozen", "values": [] }]),
        "expected the field `name`, found `entities`",
    );
}

#[test]
fn crafted_resources_and_headers_are_refused() {
    let empty = || (json!([]), json!([]), json!([]));
    let (slots, free, components) = empty();
    let refuse = |bytes: Vec<u8>, words: &str| assert_refused(Format::Json, &bytes, words);
    refuse(
        doc(
            slots.clone(),
            free.clone(),
            components.clone(),
            json!([{ "name": "game::Gold", "value": 1 }]),
        ),
        "names resource `game::Gold`",
    );
    refuse(
        doc(
            slots.clone(),
            free.clone(),
            components.clone(),
            json!([{ "name": "game::Score", "value": "many" }]),
        ),
        "resource `game::Score`",
    );
    refuse(
        doc(
            slots.clone(),
            free.clone(),
            components.clone(),
            json!([{ "name": "game::Score", "value": 1 }, { "name": "game::Score", "value": 2 }]),
        ),
        "lists resource `game::Score` twice",
    );
    refuse(
        doc(
            slots.clone(),
            free.clone(),
            components.clone(),
            json!([{ "name": "game::Position", "value": 1 }]),
        ),
        "lists the component type `game::Position` among its resources",
    );
    let mut other_version: Value =
        serde_json::from_slice(&doc(json!([]), json!([]), json!([]), json!([]))).unwrap();
    other_version["format_version"] = json!(2);
    refuse(
        other_version.to_string().into_bytes(),
        "format version is 2",
    );
    refuse(b"{}".to_vec(), "missing field `format_version`");
    refuse(b"[1]".to_vec(), "missing field `allocator`");
    refuse(b"\"snapshot\"".to_vec(), "invalid type");
    let extra = br#"{"format_version":1,"allocator":{"slots":[],"free":[]},"components":[],"resources":[],"more":0}"#;
    refuse(extra.to_vec(), "a field follows the last one");
}

/// Postcard bytes for the head of a snapshot: format version 1, then `rest`.
fn postcard_with(rest: &[u8]) -> Vec<u8> {
    let mut bytes = vec![1];
    bytes.extend_from_slice(rest);
    bytes
}

/// A postcard varint of `n`.
fn varint(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

#[test]
fn lengths_of_two_to_the_sixty_allocate_nothing_and_fail() {
    let huge = varint(1 << 60);
    let mut slots = postcard_with(&huge);
    slots.extend_from_slice(&[1, 1]);
    assert_refused(Format::Postcard, &slots, "");
    // An empty allocator, then 2^60 columns.
    let mut columns = postcard_with(&[0, 0]);
    columns.extend_from_slice(&huge);
    assert_refused(Format::Postcard, &columns, "");
    // One live slot, then a column whose name claims 2^60 bytes.
    let mut name = postcard_with(&[1, 1, 1, 0, 1]);
    name.extend_from_slice(&huge);
    assert_refused(Format::Postcard, &name, "");
    // A tag column: one entity, then 2^60 values, which cost no bytes each.
    let mut tags = postcard_with(&[1, 1, 1, 0, 1]);
    tags.extend_from_slice(&varint(12));
    tags.extend_from_slice(b"game::Frozen");
    tags.extend_from_slice(&[1]);
    tags.extend_from_slice(&varint(bits(0, 1)));
    tags.extend_from_slice(&huge);
    assert_refused(Format::Postcard, &tags, "more values than its 1 entities");
}

/// Postcard bytes of a snapshot whose slots 0 and 1 are alive (version 1)
/// and whose one column, `name`, lists `entities` with `packed` as its
/// values: binary formats carry a column's values as one byte string.
fn one_packed_column(name: &str, entities: &[u64], packed: &[u8]) -> Vec<u8> {
    let mut bytes = postcard_with(&[2, 1, 1, 1, 1, 0, 1]);
    bytes.extend(varint(name.len() as u64));
    bytes.extend_from_slice(name.as_bytes());
    bytes.extend(varint(entities.len() as u64));
    for &entity in entities {
        bytes.extend(varint(entity));
    }
    bytes.extend(varint(packed.len() as u64));
    bytes.extend_from_slice(packed);
    bytes.push(0);
    bytes
}

#[test]
fn crafted_packed_columns_are_refused() {
    let position = |x: f32, y: f32| [x.to_le_bytes(), y.to_le_bytes()].concat();
    let one = position(1.0, 2.0);
    let (first, second) = (bits(0, 1), bits(1, 1));
    let good = one_packed_column("game::Position", &[first], &one);
    check_input(Format::Postcard, &good).expect("a consistent column loads");
    let world = from_postcard(&registry(), &good).unwrap();
    assert_eq!(
        world.get::<Position>(Entity::from_bits(first).unwrap()),
        Ok(&Position { x: 1.0, y: 2.0 })
    );

    let refuse = |column: Vec<u8>, words: &str| assert_refused(Format::Postcard, &column, words);
    refuse(
        one_packed_column("game::Position", &[first], &[one.clone(), vec![0]].concat()),
        "`game::Position` has more values than its 1 entities (1 bytes left over)",
    );
    refuse(
        one_packed_column("game::Position", &[first, second], &one),
        "`game::Position` has 1 values for 2 entities",
    );
    refuse(
        one_packed_column("game::Position", &[first], &one[..5]),
        "a value of `game::Position`",
    );
    refuse(
        one_packed_column(
            "game::Position",
            &[first, first],
            &[one.clone(), one].concat(),
        ),
        "lists entity 0v1 twice in `game::Position`",
    );
    // A name of 2 bytes that are not UTF-8.
    refuse(
        one_packed_column("game::Name", &[first], &[2, 0xff, 0xfe]),
        "a value of `game::Name`",
    );
    // An inventory that claims 2^60 numbers and holds one.
    let mut inventory = varint(1 << 60);
    inventory.push(7);
    refuse(
        one_packed_column("game::Inventory", &[first], &inventory),
        "a value of `game::Inventory`",
    );
}

/// Tag types for a registry of many columns.
mod tags {
    use ecs_core::prelude::*;
    use serde::{Deserialize, Serialize};

    macro_rules! tags {
        ($($name:ident)*) => {
            $(#[derive(Component, Serialize, Deserialize)] pub struct $name;)*

            /// Every tag type, registered as `tag::<name>`, and their names.
            pub fn registry() -> (PersistRegistry, Vec<&'static str>) {
                let mut registry = PersistRegistry::new();
                $(registry.register::<$name>(concat!("tag::", stringify!($name))).snapshot();)*
                (registry, vec![$(concat!("tag::", stringify!($name))),*])
            }
        };
    }

    tags!(T0 T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15);
}

/// A postcard snapshot of `pages * 4096` slots in which only the first slot
/// of each page is alive (the rest are free), and a column of every tag type
/// holding every live entity: the most entities sparse pages can be spread
/// over for the bytes.
fn spread_one_per_page(pages: u32, tag_names: &[&str]) -> Vec<u8> {
    let slots = pages * 4096;
    let alive = |index: u32| index.is_multiple_of(4096);
    let mut bytes = postcard_with(&varint(u64::from(slots)));
    for index in 0..slots {
        bytes.extend_from_slice(&[1, u8::from(alive(index))]);
    }
    bytes.extend(varint(u64::from(slots - pages)));
    for index in (0..slots).rev().filter(|&index| !alive(index)) {
        bytes.extend(varint(u64::from(index)));
    }
    bytes.extend(varint(tag_names.len() as u64));
    for name in tag_names {
        bytes.extend(varint(name.len() as u64));
        bytes.extend_from_slice(name.as_bytes());
        bytes.extend(varint(u64::from(pages)));
        for page in 0..pages {
            bytes.extend(varint(bits(page * 4096, 1)));
        }
        bytes.extend(varint(u64::from(pages)));
    }
    bytes.push(0);
    bytes
}

#[test]
fn entities_spread_over_sparse_pages_cost_memory_in_proportion_to_the_input() {
    let (registry, names) = tags::registry();
    let pages = 48;
    let bytes = spread_one_per_page(pages, &names);
    // A fixed part: two pages of 32 KiB per type's index (the first full page
    // it may take, and the stand-in page its loose pages are reached
    // through), in the loaded storages and in a running world's. The rest grows
    // with the slots the input lists, whatever the number of types: the
    // allocator read and rebuilt, and a component mask per slot. A full sparse
    // page per entity and type would be 32 KiB for every 5 bytes of a column.
    let fixed = names.len() * 2 * 2 * 32 * 1024;
    let budget = |input: usize| fixed + 10 * input;

    let (world, peak) = measured_with_peak(bytes.len(), || from_postcard(&registry, &bytes));
    let world = world.expect("a consistent snapshot loads");
    assert_eq!(world.len(), pages as usize);
    assert!(
        peak <= budget(bytes.len()),
        "loading {} bytes held {peak} bytes at once, over {}",
        bytes.len(),
        budget(bytes.len())
    );

    let mut running = World::new();
    running.spawn_batch((0..100).map(|_| (tags::T0,)));
    let (map, peak) = measured_with_peak(bytes.len(), || {
        registry.load_snapshot(
            &mut running,
            &mut postcard::Deserializer::from_bytes(&bytes),
        )
    });
    assert_eq!(
        map.expect("a consistent snapshot loads").len(),
        pages as usize
    );
    assert_eq!(running.len(), 100 + pages as usize);
    assert!(
        peak <= budget(bytes.len()),
        "loading {} bytes into a running world held {peak} bytes at once, over {}",
        bytes.len(),
        budget(bytes.len())
    );
}

#[test]
fn every_truncation_of_a_snapshot_is_refused() {
    let registry = registry();
    let world = sample_world();
    let bytes = to_postcard(&world, &registry);
    for end in 0..bytes.len() {
        assert!(
            check_input(Format::Postcard, &bytes[..end]).is_err(),
            "{end} bytes"
        );
    }
    let json = to_json(&world, &registry).into_bytes();
    for end in (0..json.len()).step_by(7) {
        assert!(
            check_input(Format::Json, &json[..end]).is_err(),
            "{end} bytes"
        );
    }
}

/// A small world built from `ops`: spawns of each kind, despawns, writes.
fn world_from(ops: &[(u8, u16)]) -> World {
    let mut world = World::new();
    world.insert_resource(Score(7));
    let mut ids: Vec<Entity> = Vec::new();
    for &(op, n) in ops {
        let pick = |ids: &[Entity]| ids.get(n as usize % ids.len().max(1)).copied();
        match op % 6 {
            0 => ids.push(world.spawn(Position {
                x: f32::from(n),
                y: 0.5,
            })),
            1 => ids.push(world.spawn((Name(n.to_string()), Frozen, Health(i32::from(n))))),
            2 => ids.push(world.spawn(Inventory(vec![u32::from(n); usize::from(n % 4)]))),
            3 => {
                if let Some(e) = pick(&ids) {
                    let _ = world.despawn(e);
                }
            }
            4 => {
                if let (Some(e), Some(target)) = (pick(&ids), ids.first().copied()) {
                    let _ = world.insert(
                        e,
                        Links {
                            target,
                            maybe: Some(e),
                            all: vec![target],
                        },
                    );
                }
            }
            _ => ids.push(world.spawn(())),
        }
    }
    world
}

fn encoded(format: Format, world: &World) -> Vec<u8> {
    match format {
        Format::Json => to_json(world, &registry()).into_bytes(),
        Format::Postcard => to_postcard(world, &registry()),
    }
}

fn format() -> impl Strategy<Value = Format> {
    prop_oneof![Just(Format::Json), Just(Format::Postcard)]
}

fn ops() -> impl Strategy<Value = Vec<(u8, u16)>> {
    prop::collection::vec((any::<u8>(), any::<u16>()), 0..24)
}

/// A crafted JSON document with small numbers, so that its ids, versions
/// and free slots collide: some are consistent, most are not.
fn crafted() -> impl Strategy<Value = Vec<u8>> {
    let slot = (
        prop_oneof![Just(0u32), 1u32..4, Just(u32::MAX)],
        any::<bool>(),
    );
    let entity = (0u32..6, 0u32..4).prop_map(|(index, version)| bits(index, version));
    let column = (0usize..4, prop::collection::vec(entity, 0..5), 0usize..6);
    (
        prop::collection::vec(slot, 0..6),
        prop::collection::vec(0u32..7, 0..5),
        prop::collection::vec(column, 0..3),
        prop::option::of(any::<u64>()),
    )
        .prop_map(|(slots, free, columns, score)| {
            let names = [
                "game::Position",
                "game::Frozen",
                "game::Health",
                "game::Links",
            ];
            let value = |name: &str| match name {
                "game::Position" => json!({"x": 1.0, "y": 2.0}),
                "game::Frozen" => json!(null),
                "game::Health" => json!(3),
                _ => json!({"target": bits(0, 1), "maybe": null, "all": [bits(1, 1)]}),
            };
            let components: Vec<Value> = columns
                .into_iter()
                .map(|(kind, entities, values)| {
                    let name = names[kind];
                    let values: Vec<Value> = (0..values).map(|_| value(name)).collect();
                    json!({ "name": name, "entities": entities, "values": values })
                })
                .collect();
            let resources = match score {
                Some(score) => json!([{ "name": "game::Score", "value": score }]),
                None => json!([]),
            };
            doc(json!(slots), json!(free), json!(components), resources)
        })
}

proptest! {
    #![proptest_config(cases_from_env("SNAPSHOT_CASES", 64))]

    #[test]
    fn a_valid_snapshot_loads(format in format(), ops in ops()) {
        let mut world = world_from(&ops);
        let bytes = encoded(format, &world);
        prop_assert!(check_input(format, &bytes).is_ok());
        let mut copy = load_fresh(&registry(), format, &bytes).unwrap();
        prop_assert_eq!(fingerprint(&mut copy), fingerprint(&mut world));
    }

    #[test]
    fn a_truncated_snapshot_is_refused(format in format(), ops in ops(), cut in any::<prop::sample::Index>()) {
        let bytes = encoded(format, &world_from(&ops));
        let end = cut.index(bytes.len());
        prop_assert!(check_input(format, &bytes[..end]).is_err());
    }

    #[test]
    fn a_bit_flipped_snapshot_never_panics(
        format in format(),
        ops in ops(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8), 1..4),
    ) {
        let mut bytes = encoded(format, &world_from(&ops));
        for (at, bit) in flips {
            let at = at.index(bytes.len());
            bytes[at] ^= 1 << bit;
        }
        let _ = check_input(format, &bytes);
    }

    #[test]
    fn spliced_and_random_bytes_never_panic(
        format in format(),
        ops in ops(),
        at in any::<prop::sample::Index>(),
        noise in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut bytes = encoded(format, &world_from(&ops));
        let at = at.index(bytes.len() + 1);
        bytes.splice(at..(at + noise.len() / 2).min(bytes.len()), noise.iter().copied());
        let _ = check_input(format, &bytes);
        let _ = check_input(format, &noise);
    }

    #[test]
    fn a_crafted_document_is_refused_or_loads_whole(bytes in crafted()) {
        let _ = check_input(Format::Json, &bytes);
    }
}
