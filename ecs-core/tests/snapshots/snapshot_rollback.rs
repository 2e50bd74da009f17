//! Rollback: a world restored from a mid-game snapshot replays the same
//! frames to exactly the same ids and values as the original, because the
//! snapshot keeps the allocator's free list, versions and retired slots.

use crate::snapshot_common::*;
use ecs_core::prelude::*;

/// splitmix64: a seeded generator the test owns, so a replay draws the same numbers.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What one frame did: the ids it spawned and despawned, and the world after it.
#[derive(Debug, PartialEq)]
struct Frame {
    spawned: Vec<Entity>,
    despawned: Vec<Entity>,
    after: Fingerprint,
}

/// The live entities in id order: choices made from it depend on the world
/// alone, not on storage order.
fn alive(world: &mut World) -> Vec<Entity> {
    let mut alive: Vec<Entity> = world.query::<Entity>().iter().collect();
    alive.sort();
    alive
}

/// One frame of seeded spawns, despawns and writes.
fn frame(world: &mut World, rng: &mut Rng) -> Frame {
    let mut spawned = Vec::new();
    for _ in 0..rng.below(4) {
        let x = rng.below(1000) as f32;
        let e = match rng.below(4) {
            0 => world.spawn(Position { x, y: -x }),
            1 => world.spawn((Position { x, y: 1.0 }, Health(rng.below(100) as i32))),
            2 => world.spawn((Name(format!("n{x}")), Inventory(vec![x as u32]), Frozen)),
            _ => world.spawn(()),
        };
        spawned.push(e);
    }
    let mut despawned = Vec::new();
    for _ in 0..rng.below(3) {
        let alive = alive(world);
        if alive.is_empty() {
            break;
        }
        let e = alive[rng.below(alive.len())];
        world.despawn(e).unwrap();
        despawned.push(e);
    }
    let alive = alive(world);
    if !alive.is_empty() {
        for _ in 0..3 {
            let e = alive[rng.below(alive.len())];
            match rng.below(5) {
                0 => {
                    if let Ok(p) = world.get_mut::<Position>(e) {
                        p.x += 1.5;
                    }
                }
                1 => {
                    if let Ok(mut h) = world.get_mut::<Health>(e) {
                        h.0 -= 7;
                    }
                }
                2 => {
                    let item = rng.below(50) as u32;
                    if let Ok(inventory) = world.get_mut::<Inventory>(e) {
                        inventory.0.push(item);
                    }
                }
                3 => {
                    let target = alive[rng.below(alive.len())];
                    world
                        .insert(
                            e,
                            Links {
                                target,
                                maybe: None,
                                all: vec![target, e],
                            },
                        )
                        .unwrap();
                }
                _ => {
                    let _ = world.remove::<Frozen>(e);
                }
            }
        }
    }
    world.resource_mut::<Score>().unwrap().0 += spawned.len() as u64;
    Frame {
        spawned,
        despawned,
        after: fingerprint(world),
    }
}

fn play(world: &mut World, rng: &mut Rng, frames: usize) -> Vec<Frame> {
    (0..frames).map(|_| frame(world, rng)).collect()
}

fn rollback_replays_exactly(
    save: impl Fn(&World, &PersistRegistry) -> Vec<u8>,
    load: impl Fn(&PersistRegistry, &[u8]) -> Result<World, Error>,
) {
    let registry = registry();
    let mut world = sample_world();
    let mut rng = Rng(0x5EED);
    play(&mut world, &mut rng, 30);

    let saved = save(&world, &registry);
    let rng_at_save = rng.clone();
    let original = play(&mut world, &mut rng, 100);

    let mut restored = load(&registry, &saved).expect("the snapshot loads");
    let replayed = play(&mut restored, &mut rng_at_save.clone(), 100);
    assert!(
        original.iter().any(|f| !f.despawned.is_empty())
            && original.iter().any(|f| !f.spawned.is_empty()),
        "the frames exercise both spawns and despawns"
    );
    for (n, (a, b)) in original.iter().zip(&replayed).enumerate() {
        assert_eq!(a, b, "frame {n} differs after the rollback");
    }
    assert_eq!(next_ids(&mut restored, 8), next_ids(&mut world, 8));
}

#[test]
fn rollback_with_postcard_replays_every_id_and_value() {
    rollback_replays_exactly(to_postcard, from_postcard);
}

#[test]
fn rollback_with_json_replays_every_id_and_value() {
    rollback_replays_exactly(
        |world, registry| to_json(world, registry).into_bytes(),
        |registry, bytes| from_json(registry, std::str::from_utf8(bytes).unwrap()),
    );
}
