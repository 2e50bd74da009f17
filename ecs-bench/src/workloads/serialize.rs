//! serialize_text and serialize_binary (ecs_bench_suite's): 1,000 entities
//! with Transform, Position, Rotation and Velocity, saved with serde (JSON
//! text, postcard binary) and loaded back into a new world. One run is the
//! save and the load.

use ecs_core::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserializer, Serialize};

use crate::components::{Position, Rotation, Transform, Velocity, four_components};
use crate::harness::{Bench, Contender, Workload};

#[cfg(feature = "peers")]
mod peers;

/// Entities in the saved world.
pub const ENTITIES: usize = 1_000;

/// The text workload: JSON through `serde_json`.
pub fn text() -> Workload {
    Workload {
        name: "serialize_text",
        summary: "save 1,000 entities with 4 components as JSON and load them back",
        items: None,
        contenders: contenders::<Json>,
    }
}

/// The binary workload: `postcard`.
pub fn binary() -> Workload {
    Workload {
        name: "serialize_binary",
        summary: "save 1,000 entities with 4 components with postcard and load them back",
        items: None,
        contenders: contenders::<Postcard>,
    }
}

fn contenders<F: Format>() -> Vec<Contender> {
    let list = vec![
        Contender::of::<Ideal<F>>("ideal", "Vec of tuples, serialized whole"),
        Contender::of::<Ours<F>>("ours", "registry.snapshot + world_from_snapshot"),
    ];
    #[cfg(feature = "peers")]
    let list = [list, peers::contenders::<F>()].concat();
    list
}

/// Reads a value out of any deserializer: one per library.
pub trait Loader {
    /// What the load makes.
    type Output;
    /// Loads from `deserializer`.
    fn load<'de, D: Deserializer<'de>>(&mut self, deserializer: D) -> Self::Output;
}

/// A serde format, as the workloads use it.
pub trait Format: 'static {
    /// `value`'s bytes.
    fn save<T: Serialize + ?Sized>(value: &T) -> Vec<u8>;
    /// `loader`'s output from `bytes`, which must be read to the end.
    fn load<L: Loader>(bytes: &[u8], loader: &mut L) -> L::Output;
}

/// JSON, through `serde_json`.
pub struct Json;

impl Format for Json {
    fn save<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
        serde_json::to_vec(value).expect("JSON takes every value here")
    }

    fn load<L: Loader>(bytes: &[u8], loader: &mut L) -> L::Output {
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let output = loader.load(&mut deserializer);
        deserializer.end().expect("nothing after the document");
        output
    }
}

/// postcard: compact, not self-describing.
pub struct Postcard;

impl Format for Postcard {
    fn save<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
        postcard::to_allocvec(value).expect("postcard takes every value here")
    }

    fn load<L: Loader>(bytes: &[u8], loader: &mut L) -> L::Output {
        let mut deserializer = postcard::Deserializer::from_bytes(bytes);
        loader.load(&mut deserializer)
    }
}

/// The checksum: entities loaded, plus the sum of their x positions.
fn checksum<'a>(positions: impl Iterator<Item = &'a Position>) -> f64 {
    positions.map(|p| 1.0 + f64::from(p.0[0])).sum()
}

type Row = (Transform, Position, Rotation, Velocity);

/// Loads anything serde can.
struct Plain<T>(core::marker::PhantomData<T>);

impl<T: DeserializeOwned> Loader for Plain<T> {
    type Output = T;
    fn load<'de, D: Deserializer<'de>>(&mut self, deserializer: D) -> T {
        T::deserialize(deserializer).expect("the bytes just saved")
    }
}

/// A `Vec` of rows, saved and loaded whole: the format's own cost.
struct Ideal<F> {
    rows: Vec<Row>,
    loaded: Vec<Row>,
    _format: core::marker::PhantomData<F>,
}

impl<F: Format> Bench for Ideal<F> {
    fn setup() -> Self {
        Self {
            rows: (0..ENTITIES).map(four_components).collect(),
            loaded: Vec::new(),
            _format: core::marker::PhantomData,
        }
    }

    fn run(&mut self) {
        let bytes = F::save(&self.rows);
        self.loaded = F::load(&bytes, &mut Plain(core::marker::PhantomData));
    }

    fn checksum(&mut self) -> f64 {
        checksum(self.loaded.iter().map(|(_, p, _, _)| p))
    }
}

/// Loads a world from a snapshot.
struct Snapshots<'r>(&'r PersistRegistry);

impl Loader for Snapshots<'_> {
    type Output = World;
    fn load<'de, D: Deserializer<'de>>(&mut self, deserializer: D) -> World {
        self.0
            .world_from_snapshot(deserializer)
            .expect("the bytes just saved")
    }
}

struct Ours<F> {
    world: World,
    registry: PersistRegistry,
    loaded: World,
    _format: core::marker::PhantomData<F>,
}

impl<F: Format> Bench for Ours<F> {
    fn setup() -> Self {
        let mut registry = PersistRegistry::new();
        registry
            .register::<Transform>("bench::Transform")
            .snapshot();
        registry.register::<Position>("bench::Position").snapshot();
        registry.register::<Rotation>("bench::Rotation").snapshot();
        registry.register::<Velocity>("bench::Velocity").snapshot();
        let mut world = World::new();
        world.spawn_batch((0..ENTITIES).map(four_components));
        Self {
            world,
            registry,
            loaded: World::new(),
            _format: core::marker::PhantomData,
        }
    }

    fn run(&mut self) {
        let bytes = F::save(&self.registry.snapshot(&self.world));
        self.loaded = F::load(&bytes, &mut Snapshots(&self.registry));
    }

    fn checksum(&mut self) -> f64 {
        let query = self
            .loaded
            .query::<(&Transform, &Position, &Rotation, &Velocity)>();
        checksum(query.iter().map(|(_, p, _, _)| p))
    }
}
