//! serialize_text and serialize_binary in the other libraries that save a
//! whole world through serde: hecs (`column-serialize`, a context naming the
//! four types) and legion (`serialize`, a `Registry` and `Canon` entity ids).
//! bevy_ecs saves worlds only through bevy_scene and reflection, shipyard,
//! sparsey and specs through hand-written per-storage code: their rows are
//! absent rather than emulated.

use core::any::TypeId;
use core::marker::PhantomData;

use hecs::serialize::column::{
    DeserializeContext, SerializeContext, deserialize_column, try_serialize, try_serialize_id,
};
use serde::de::DeserializeSeed;
use serde::{Deserialize, Deserializer, Serialize};

use super::{ENTITIES, Format, Loader, checksum};
use crate::components::{Position, Rotation, Transform, Velocity, four_components};
use crate::harness::{Bench, Contender};

pub(super) fn contenders<F: Format>() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs<F>>("hecs", "serialize::column with a context"),
        Contender::of::<Legion<F>>("legion", "world.as_serializable + registry.as_deserialize"),
    ]
}

/// hecs's name for each saved type.
#[derive(Serialize, Deserialize, Clone, Copy)]
enum Kind {
    Transform,
    Position,
    Rotation,
    Velocity,
}

/// What hecs asks of a saver: which of an archetype's types to save, and how.
struct HecsSave;

impl SerializeContext for HecsSave {
    fn component_count(&self, archetype: &hecs::Archetype) -> usize {
        archetype
            .component_types()
            .filter(|&t| {
                t == TypeId::of::<Transform>()
                    || t == TypeId::of::<Position>()
                    || t == TypeId::of::<Rotation>()
                    || t == TypeId::of::<Velocity>()
            })
            .count()
    }

    fn serialize_component_ids<S: serde::ser::SerializeTuple>(
        &mut self,
        archetype: &hecs::Archetype,
        mut out: S,
    ) -> Result<S::Ok, S::Error> {
        try_serialize_id::<Transform, _, _>(archetype, &Kind::Transform, &mut out)?;
        try_serialize_id::<Position, _, _>(archetype, &Kind::Position, &mut out)?;
        try_serialize_id::<Rotation, _, _>(archetype, &Kind::Rotation, &mut out)?;
        try_serialize_id::<Velocity, _, _>(archetype, &Kind::Velocity, &mut out)?;
        out.end()
    }

    fn serialize_components<S: serde::ser::SerializeTuple>(
        &mut self,
        archetype: &hecs::Archetype,
        mut out: S,
    ) -> Result<S::Ok, S::Error> {
        try_serialize::<Transform, _>(archetype, &mut out)?;
        try_serialize::<Position, _>(archetype, &mut out)?;
        try_serialize::<Rotation, _>(archetype, &mut out)?;
        try_serialize::<Velocity, _>(archetype, &mut out)?;
        out.end()
    }
}

/// What hecs asks of a loader: the types of each archetype, then its columns.
#[derive(Default)]
struct HecsLoad {
    kinds: Vec<Kind>,
}

impl DeserializeContext for HecsLoad {
    fn deserialize_component_ids<'de, A: serde::de::SeqAccess<'de>>(
        &mut self,
        mut seq: A,
    ) -> Result<hecs::ColumnBatchType, A::Error> {
        self.kinds.clear();
        let mut batch = hecs::ColumnBatchType::new();
        while let Some(kind) = seq.next_element()? {
            match kind {
                Kind::Transform => batch.add::<Transform>(),
                Kind::Position => batch.add::<Position>(),
                Kind::Rotation => batch.add::<Rotation>(),
                Kind::Velocity => batch.add::<Velocity>(),
            };
            self.kinds.push(kind);
        }
        Ok(batch)
    }

    fn deserialize_components<'de, A: serde::de::SeqAccess<'de>>(
        &mut self,
        entity_count: u32,
        mut seq: A,
        batch: &mut hecs::ColumnBatchBuilder,
    ) -> Result<(), A::Error> {
        for kind in &self.kinds {
            match kind {
                Kind::Transform => {
                    deserialize_column::<Transform, _>(entity_count, &mut seq, batch)
                }
                Kind::Position => deserialize_column::<Position, _>(entity_count, &mut seq, batch),
                Kind::Rotation => deserialize_column::<Rotation, _>(entity_count, &mut seq, batch),
                Kind::Velocity => deserialize_column::<Velocity, _>(entity_count, &mut seq, batch),
            }?;
        }
        Ok(())
    }
}

/// Saves a hecs world through [`HecsSave`].
struct HecsWorld<'a>(&'a hecs::World);

impl Serialize for HecsWorld<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        hecs::serialize::column::serialize(self.0, &mut HecsSave, serializer)
    }
}

impl Loader for HecsLoad {
    type Output = hecs::World;
    fn load<'de, D: Deserializer<'de>>(&mut self, deserializer: D) -> hecs::World {
        hecs::serialize::column::deserialize(self, deserializer)
            .unwrap_or_else(|_| panic!("hecs loads the bytes it just saved"))
    }
}

struct Hecs<F> {
    world: hecs::World,
    loaded: hecs::World,
    _format: PhantomData<F>,
}

impl<F: Format> Bench for Hecs<F> {
    fn setup() -> Self {
        let mut world = hecs::World::new();
        world.spawn_batch((0..ENTITIES).map(four_components));
        Self {
            world,
            loaded: hecs::World::new(),
            _format: PhantomData,
        }
    }

    fn run(&mut self) {
        let bytes = F::save(&HecsWorld(&self.world));
        self.loaded = F::load(&bytes, &mut HecsLoad::default());
    }

    fn checksum(&mut self) -> f64 {
        let mut query = self
            .loaded
            .query::<(&Transform, &Position, &Rotation, &Velocity)>();
        checksum(query.iter().map(|(_, p, _, _)| p))
    }
}

/// Loads a legion world through its registry.
struct LegionLoad<'a> {
    registry: &'a legion::Registry<String>,
    ids: &'a legion::serialize::Canon,
}

impl Loader for LegionLoad<'_> {
    type Output = legion::World;
    fn load<'de, D: Deserializer<'de>>(&mut self, deserializer: D) -> legion::World {
        self.registry
            .as_deserialize(self.ids)
            .deserialize(deserializer)
            .unwrap_or_else(|_| panic!("legion loads the bytes it just saved"))
    }
}

struct Legion<F> {
    world: legion::World,
    registry: legion::Registry<String>,
    ids: legion::serialize::Canon,
    loaded: legion::World,
    _format: PhantomData<F>,
}

impl<F: Format> Bench for Legion<F> {
    fn setup() -> Self {
        let mut registry = legion::Registry::<String>::default();
        registry.register::<Transform>("transform".to_owned());
        registry.register::<Position>("position".to_owned());
        registry.register::<Rotation>("rotation".to_owned());
        registry.register::<Velocity>("velocity".to_owned());
        let mut world = legion::World::default();
        world.extend((0..ENTITIES).map(four_components));
        Self {
            world,
            registry,
            ids: legion::serialize::Canon::default(),
            loaded: legion::World::default(),
            _format: PhantomData,
        }
    }

    fn run(&mut self) {
        let bytes = F::save(&self.world.as_serializable(
            legion::query::any(),
            &self.registry,
            &self.ids,
        ));
        self.loaded = F::load(
            &bytes,
            &mut LegionLoad {
                registry: &self.registry,
                ids: &self.ids,
            },
        );
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        let mut query = <(&Transform, &Position, &Rotation, &Velocity)>::query();
        checksum(query.iter(&self.loaded).map(|(_, p, _, _)| p))
    }
}
