//! Writing a snapshot: a borrowed view of a world that serializes itself.

use serde::Serialize;
use serde::ser::{Error as _, SerializeStruct, Serializer};

use super::FORMAT_VERSION;
use super::table::{ComponentEntry, Named, SnapshotTable};
use super::tape::Tape;
use crate::entity::{Entities, Entity};
use crate::error::Error;
use crate::resource::Resources;
use crate::storage::Storages;

/// A world's registered components and resources and its allocator state,
/// ready to write with any serde format; made by
/// [`PersistRegistry::snapshot`](crate::persist::PersistRegistry::snapshot).
///
/// It borrows the world, so it costs nothing until serialized. Layout, read
/// and written in this order (a sequence in formats like postcard, a map in
/// JSON):
///
/// ```text
/// { format_version: u32,
///   allocator:  { slots: [(version: u32, alive: bool)], free: [u32] },
///   components: [ { name: str, entities: [u64 (Entity::to_bits)], values: [T] or bytes } ],
///   resources:  [ { name: str, value: R } ] }
/// ```
///
/// A column's `values` are a sequence of values in a human-readable format
/// (JSON, RON, ...), and for a zero-sized type. In a binary format (postcard,
/// bincode, ...) they are one byte string: each value in turn in
/// [postcard's wire format](https://postcard.jamesmunns.com/wire-format),
/// with no count (the column's entities give it), encoded and decoded by
/// code made for its type. A human-readable format is written the same way
/// (the column recorded once, then played into the format), and read value
/// by value through a type-erased deserializer.
///
/// Every registered component type the world holds gets a column; types
/// nobody registered are left out, as are ids reserved through commands
/// and not yet flushed.
///
/// ```
/// use ecs_core::prelude::*;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Component, Serialize, Deserialize)]
/// struct Health(i32);
///
/// let mut registry = PersistRegistry::new();
/// registry.register::<Health>("game::Health").snapshot();
/// let mut world = World::new();
/// world.spawn(Health(3));
/// let json = serde_json::to_string(&registry.snapshot(&world)).unwrap();
/// assert_eq!(
///     json,
///     r#"{"format_version":1,"allocator":{"slots":[[1,true]],"free":[]},"#.to_owned()
///         + r#""components":[{"name":"game::Health","entities":[4294967296],"values":[3]}],"#
///         + r#""resources":[]}"#
/// );
/// ```
pub struct Snapshot<'w> {
    table: &'w SnapshotTable,
    entities: &'w Entities,
    storages: &'w Storages,
    resources: &'w Resources,
    /// The chosen types, or `None` for every registered one.
    only: Option<Vec<Named>>,
}

impl<'w> Snapshot<'w> {
    pub(crate) fn new(
        table: &'w SnapshotTable,
        entities: &'w Entities,
        storages: &'w Storages,
        resources: &'w Resources,
    ) -> Self {
        Self {
            table,
            entities,
            storages,
            resources,
            only: None,
        }
    }

    /// Keeps only the component and resource types named in `names` (their
    /// registered names); every other type is left out.
    ///
    /// The allocator state is kept whole, so that the ids in the snapshot
    /// stay meaningful: loaded into a fresh world, every entity keeps its id,
    /// and entities that hold none of the chosen types come back empty.
    ///
    /// Fails with [`Error::UnknownSnapshotName`] for a name the registry
    /// does not know.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Position(f32, f32);
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Health(i32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Position>("game::Position").snapshot();
    /// registry.register::<Health>("game::Health").snapshot();
    /// let mut world = World::new();
    /// world.spawn((Position(1.0, 2.0), Health(3)));
    ///
    /// let snapshot = registry.snapshot(&world).only(&["game::Position"])?;
    /// let json = serde_json::to_string(&snapshot).unwrap();
    /// assert!(json.contains("game::Position") && !json.contains("game::Health"));
    /// assert!(registry.snapshot(&world).only(&["game::Mana"]).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn only(mut self, names: &[&str]) -> Result<Self, Error> {
        let chosen = names
            .iter()
            .map(|&name| {
                self.table
                    .named(name)
                    .ok_or_else(|| Error::UnknownSnapshotName {
                        name: name.to_owned(),
                    })
            })
            .collect::<Result<_, _>>()?;
        self.only = Some(chosen);
        Ok(self)
    }

    fn chosen(&self, named: Named) -> bool {
        self.only.as_ref().is_none_or(|only| only.contains(&named))
    }
}

impl Serialize for Snapshot<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Lengths are known up front: formats like postcard write them first.
        let columns: Vec<(&ComponentEntry, &[Entity])> =
            (self.table.components().iter().enumerate())
                .filter(|&(index, _)| self.chosen(Named::Component(index)))
                .filter_map(|(_, entry)| Some((entry, (entry.entities)(self.storages)?)))
                .filter(|(_, entities)| !entities.is_empty())
                .collect();
        let resources: Vec<_> = (self.table.resources().iter().enumerate())
            .filter(|&(index, _)| self.chosen(Named::Resource(index)))
            .filter_map(|(_, entry)| Some(ResourceOut(entry.name, (entry.save)(self.resources)?)))
            .collect();
        let mut out = serializer.serialize_struct("Snapshot", 4)?;
        out.serialize_field("format_version", &FORMAT_VERSION)?;
        out.serialize_field("allocator", &AllocatorOut(self.entities))?;
        out.serialize_field("components", &ColumnsOut(&columns, self.storages))?;
        out.serialize_field("resources", &resources)?;
        out.end()
    }
}

struct AllocatorOut<'a>(&'a Entities);

impl Serialize for AllocatorOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Allocator", 2)?;
        out.serialize_field("slots", &SlotsOut(self.0))?;
        out.serialize_field("free", self.0.free_list())?;
        out.end()
    }
}

struct SlotsOut<'a>(&'a Entities);

impl Serialize for SlotsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.slot_states())
    }
}

struct ColumnsOut<'a>(&'a [(&'a ComponentEntry, &'a [Entity])], &'a Storages);

impl Serialize for ColumnsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|&(entry, entities)| ColumnOutRef {
            entry,
            entities,
            values: ValuesOut {
                entry,
                storages: self.1,
            },
        }))
    }
}

struct ColumnOutRef<'a> {
    entry: &'a ComponentEntry,
    entities: &'a [Entity],
    values: ValuesOut<'a>,
}

impl Serialize for ColumnOutRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Column", 3)?;
        out.serialize_field("name", self.entry.name)?;
        out.serialize_field("entities", &EntityBits(self.entities))?;
        out.serialize_field("values", &self.values)?;
        out.end()
    }
}

/// A column's values: packed into one byte string in a binary format (see
/// [`packed`](super::packed)), else a sequence, recorded and played (see
/// [`tape`](super::tape)).
struct ValuesOut<'a> {
    entry: &'a ComponentEntry,
    storages: &'a Storages,
}

impl Serialize for ValuesOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let name = self.entry.name;
        let readable = serializer.is_human_readable();
        if self.entry.packs && !readable {
            let mut bytes = Vec::new();
            (self.entry.pack)(self.storages, &mut bytes)
                .map_err(|error| S::Error::custom(format_args!("a value of `{name}`: {error}")))?;
            return serializer.serialize_bytes(&bytes);
        }
        let mut tape = Tape::new(readable);
        (self.entry.record)(self.storages, &mut tape)
            .map_err(|error| S::Error::custom(format_args!("a value of `{name}`: {error}")))?;
        tape.as_seq().serialize(serializer)
    }
}

struct EntityBits<'a>(&'a [Entity]);

impl Serialize for EntityBits<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|entity| entity.to_bits()))
    }
}

struct ResourceOut<'a>(&'a str, Box<dyn erased_serde::Serialize + 'a>);

impl Serialize for ResourceOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Resource", 2)?;
        out.serialize_field("name", self.0)?;
        out.serialize_field("value", self.1.as_ref())?;
        out.end()
    }
}
