//! The snapshot half of the registry: which component and resource types a
//! snapshot holds, under which stable names, and how to write and read each.

use core::fmt;
use std::collections::HashMap;

use serde::Serialize;
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, SeqAccess, Visitor};

use super::failure::Failure;
use super::packed::{self, PackedSeed};
use super::tape::{RecordError, Tape};
use crate::component::Component;
use crate::entity::Entity;
use crate::resource::Resources;
use crate::storage::{SparseSet, Storages};

/// Records one column's values (see [`tape`](super::tape)).
pub(super) type RecordColumn = fn(&Storages, &mut Tape) -> Result<(), RecordError>;

/// Reads one column's values into `storages` for `entities`, in order.
pub(super) type LoadColumn = for<'de> fn(
    &'static str,
    &Failure,
    &[Entity],
    &mut Storages,
    &mut dyn erased_serde::Deserializer<'de>,
) -> Result<(), erased_serde::Error>;

/// Reads one resource's value into `resources`.
pub(super) type LoadResource = for<'de> fn(
    &mut Resources,
    &mut dyn erased_serde::Deserializer<'de>,
) -> Result<(), erased_serde::Error>;

/// Appends one column's packed values (see [`packed`](super::packed)).
pub(super) type PackColumn = fn(&Storages, &mut Vec<u8>) -> postcard::Result<()>;

/// Reads one column's packed values into `storages` for `entities`, in order.
pub(super) type UnpackColumn =
    fn(&'static str, &[Entity], &mut Storages, &[u8]) -> Result<(), String>;

/// One registered component type: its name and its monomorphised paths.
pub(super) struct ComponentEntry {
    pub(super) name: &'static str,
    /// Whether binary formats write the column packed, rather than through
    /// `record` and `load`.
    pub(super) packs: bool,
    /// The entities holding one, in the order of the values.
    pub(super) entities: for<'a> fn(&'a Storages) -> Option<&'a [Entity]>,
    pub(super) record: RecordColumn,
    pub(super) load: LoadColumn,
    pub(super) pack: PackColumn,
    pub(super) unpack: UnpackColumn,
}

/// One registered resource type, likewise.
pub(super) struct ResourceEntry {
    pub(super) name: &'static str,
    pub(super) save: for<'a> fn(&'a Resources) -> Option<Box<dyn erased_serde::Serialize + 'a>>,
    pub(super) load: LoadResource,
}

/// What a name stands for in a registry.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Named {
    Component(usize),
    Resource(usize),
}

/// The types a registry writes into snapshots and reads back, each by its
/// stable name: the snapshot half of a [`PersistRegistry`](super::super::PersistRegistry).
#[derive(Default)]
pub(crate) struct SnapshotTable {
    components: Vec<ComponentEntry>,
    resources: Vec<ResourceEntry>,
    by_name: HashMap<&'static str, Named>,
}

impl SnapshotTable {
    /// Writes and reads component type `T` under `name`; a type given again
    /// under its name replaces its entry.
    pub(crate) fn put_component<T: Component + Serialize + DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) {
        let entry = ComponentEntry {
            name,
            packs: packed::packs::<T>(),
            entities: column_entities::<T>,
            record: record_column::<T>,
            load: load_column::<T>,
            pack: pack_column::<T>,
            unpack: packed::unpack::<T>,
        };
        put(
            &mut self.by_name,
            &mut self.components,
            name,
            entry,
            Named::Component,
        );
    }

    /// Writes and reads resource type `R` under `name`, likewise.
    pub(crate) fn put_resource<R: Send + Sync + Serialize + DeserializeOwned + 'static>(
        &mut self,
        name: &'static str,
    ) {
        let entry = ResourceEntry {
            name,
            save: save_resource::<R>,
            load: load_resource::<R>,
        };
        put(
            &mut self.by_name,
            &mut self.resources,
            name,
            entry,
            Named::Resource,
        );
    }

    /// What `name` stands for, if anything.
    pub(super) fn named(&self, name: &str) -> Option<Named> {
        self.by_name.get(name).copied()
    }

    pub(super) fn components(&self) -> &[ComponentEntry] {
        &self.components
    }

    pub(super) fn resources(&self) -> &[ResourceEntry] {
        &self.resources
    }
}

/// Puts `entry` under `name` in `entries`, replacing the entry the name
/// has (the registry keeps each name to one type, so of the same kind), or
/// appending it; `kind` says which list a position is in.
fn put<E>(
    by_name: &mut HashMap<&'static str, Named>,
    entries: &mut Vec<E>,
    name: &'static str,
    entry: E,
    kind: fn(usize) -> Named,
) {
    match by_name.get(name) {
        Some(&Named::Component(at) | &Named::Resource(at)) => entries[at] = entry,
        None => {
            by_name.insert(name, kind(entries.len()));
            entries.push(entry);
        }
    }
}

/// The entities holding a `T`, if the world has a storage for it.
fn column_entities<T: Component>(storages: &Storages) -> Option<&[Entity]> {
    Some(storages.get::<T>()?.entities())
}

/// `T`'s values, recorded, if the world has a storage for it.
fn record_column<T: Component + Serialize>(
    storages: &Storages,
    tape: &mut Tape,
) -> Result<(), RecordError> {
    storages
        .get::<T>()
        .map_or(Ok(()), |set| tape.record(set.values()))
}

/// `T`'s values, packed, if the world has a storage for it.
fn pack_column<T: Component + Serialize>(
    storages: &Storages,
    out: &mut Vec<u8>,
) -> postcard::Result<()> {
    storages
        .get::<T>()
        .map_or(Ok(()), |set| packed::pack(set.values(), out))
}

fn save_resource<R: Send + Sync + Serialize + 'static>(
    resources: &Resources,
) -> Option<Box<dyn erased_serde::Serialize + '_>> {
    let value = resources.get::<R>()?;
    Some(Box::new(value))
}

/// Reads a sequence of `T` into `T`'s storage in `storages`, one per entity
/// of `entities`, in order: each entity is alive (the caller checked), and a
/// second value for one entity means the column listed it twice.
fn load_column<'de, T: Component + DeserializeOwned>(
    name: &'static str,
    failure: &Failure,
    entities: &[Entity],
    storages: &mut Storages,
    deserializer: &mut dyn erased_serde::Deserializer<'de>,
) -> Result<(), erased_serde::Error> {
    let id = storages.register::<T>();
    let set = storages.typed_mut::<T>(id);
    deserializer.deserialize_seq(ValuesVisitor {
        name,
        failure,
        entities,
        set,
    })
}

fn load_resource<'de, R: Send + Sync + DeserializeOwned + 'static>(
    resources: &mut Resources,
    deserializer: &mut dyn erased_serde::Deserializer<'de>,
) -> Result<(), erased_serde::Error> {
    let value: R = erased_serde::deserialize(deserializer)?;
    resources.insert(value);
    Ok(())
}

/// The values of one column, placed as they are read: no buffer whose size
/// the input chooses.
struct ValuesVisitor<'a, T> {
    name: &'static str,
    /// Where refusals are recorded: the error itself crosses the erased
    /// boundary, where a format may drop its words.
    failure: &'a Failure,
    entities: &'a [Entity],
    set: &'a mut SparseSet<T>,
}

impl<'de, T: Component + DeserializeOwned> Visitor<'de> for ValuesVisitor<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a sequence of {} values of `{}`",
            self.entities.len(),
            self.name
        )
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut placed = 0;
        let (name, failure) = (self.name, self.failure);
        let next = |seq: &mut A| {
            seq.next_element::<T>()
                .map_err(|error| failure.fail(format_args!("a value of `{name}`: {error}")))
        };
        while let Some(value) = next(&mut seq)? {
            let Some(&entity) = self.entities.get(placed) else {
                return Err(failure.fail(format_args!(
                    "`{}` has more values than its {} entities",
                    self.name,
                    self.entities.len()
                )));
            };
            // Ticks are stamped when the column moves into its world.
            if self.set.insert(entity, value, 0).is_some() {
                return Err(failure.fail(format_args!(
                    "it lists entity {entity:?} twice in `{}`",
                    self.name
                )));
            }
            placed += 1;
        }
        if placed != self.entities.len() {
            return Err(failure.fail(format_args!(
                "`{}` has {placed} values for {} entities",
                self.name,
                self.entities.len()
            )));
        }
        Ok(())
    }
}

/// A seed that reads one column's values through its registered paths:
/// packed in a binary format, else through the type-erased one.
pub(super) struct ColumnValues<'a> {
    pub(super) entry: &'a ComponentEntry,
    pub(super) failure: &'a Failure,
    pub(super) entities: &'a [Entity],
    pub(super) storages: &'a mut Storages,
}

impl<'de> DeserializeSeed<'de> for ColumnValues<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let entry = self.entry;
        if entry.packs && !deserializer.is_human_readable() {
            let (entities, storages) = (self.entities, self.storages);
            return PackedSeed {
                name: entry.name,
                failure: self.failure,
                unpack: &mut |bytes| (entry.unpack)(entry.name, entities, storages, bytes),
            }
            .deserialize(deserializer);
        }
        let mut erased = <dyn erased_serde::Deserializer<'de>>::erase(deserializer);
        (self.entry.load)(
            self.entry.name,
            self.failure,
            self.entities,
            self.storages,
            &mut erased,
        )
        .map_err(|error| self.failure.fail(error))
    }
}

/// A seed that reads one resource's value through its registered path.
pub(super) struct ResourceValue<'a> {
    pub(super) entry: &'a ResourceEntry,
    pub(super) failure: &'a Failure,
    pub(super) resources: &'a mut Resources,
}

impl<'de> DeserializeSeed<'de> for ResourceValue<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let mut erased = <dyn erased_serde::Deserializer<'de>>::erase(deserializer);
        (self.entry.load)(self.resources, &mut erased).map_err(|error| {
            (self.failure).fail(format_args!("resource `{}`: {error}", self.entry.name))
        })
    }
}
