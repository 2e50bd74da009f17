//! The snapshot registry: which component and resource types a snapshot
//! holds, under which stable names, and how to write and read each.

use core::any::TypeId;
use core::fmt;
use std::collections::HashMap;

use serde::Serialize;
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, SeqAccess, Visitor};

use super::failure::Failure;
use super::packed::{self, PackedSeed};
use super::tape::{RecordError, Tape};
use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;
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

/// The component and resource types a snapshot holds, each under a stable
/// name of your choosing.
///
/// A snapshot names each type by this name, never by its Rust path, so it
/// survives a recompile, a move to another module, or a rename of the type:
/// keep the name. A type must implement `Serialize` and `Deserialize`;
/// component and resource types nobody registered are left out of
/// snapshots. One name stands for one type, and a type has one name as a
/// component (and one as a resource, if it is both).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::snapshot::SnapshotRegistry;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Component, Serialize, Deserialize)]
/// struct Position { x: f32, y: f32 }
/// #[derive(Serialize, Deserialize)]
/// struct Score(u32);
///
/// let mut registry = SnapshotRegistry::new();
/// registry
///     .register::<Position>("game::Position")
///     .register_resource::<Score>("game::Score");
/// assert_eq!(registry.names().collect::<Vec<_>>(), ["game::Position", "game::Score"]);
/// ```
#[derive(Default)]
pub struct SnapshotRegistry {
    components: Vec<ComponentEntry>,
    resources: Vec<ResourceEntry>,
    by_name: HashMap<&'static str, Named>,
    /// Per type and kind (`true` for a resource), its name.
    by_type: HashMap<(TypeId, bool), &'static str>,
    /// Per name, the full Rust type name, for error messages.
    type_names: HashMap<&'static str, &'static str>,
}

impl SnapshotRegistry {
    /// An empty registry.
    ///
    /// ```
    /// use ecs_core::snapshot::SnapshotRegistry;
    ///
    /// assert_eq!(SnapshotRegistry::new().names().count(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers the component type `T` under `name`, for chaining.
    ///
    /// # Panics
    /// When `name` is taken, or `T` is already registered as a component
    /// (under any name); [`try_register`](Self::try_register) returns the
    /// error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::snapshot::SnapshotRegistry;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Health(i32);
    ///
    /// let mut registry = SnapshotRegistry::new();
    /// registry.register::<Health>("game::Health");
    /// ```
    pub fn register<T: Component + Serialize + DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) -> &mut Self {
        if let Err(error) = self.try_register::<T>(name) {
            panic!("{error}");
        }
        self
    }

    /// Registers the component type `T` under `name`, or says why not.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::snapshot::SnapshotRegistry;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Health(i32);
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Armor(i32);
    ///
    /// let mut registry = SnapshotRegistry::new();
    /// registry.try_register::<Health>("game::Health")?;
    /// assert!(matches!(
    ///     registry.try_register::<Armor>("game::Health"),
    ///     Err(Error::SnapshotNameTaken { name: "game::Health", .. })
    /// ));
    /// assert!(matches!(
    ///     registry.try_register::<Health>("game::Life"),
    ///     Err(Error::SnapshotTypeRegistered { name: "game::Health", .. })
    /// ));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_register<T: Component + Serialize + DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) -> Result<&mut Self, Error> {
        self.claim::<T>(name, false)?;
        self.by_name
            .insert(name, Named::Component(self.components.len()));
        self.components.push(ComponentEntry {
            name,
            packs: packed::packs::<T>(),
            entities: column_entities::<T>,
            record: record_column::<T>,
            load: load_column::<T>,
            pack: pack_column::<T>,
            unpack: packed::unpack::<T>,
        });
        Ok(self)
    }

    /// Registers the resource type `R` under `name`, for chaining.
    ///
    /// # Panics
    /// When `name` is taken, or `R` is already registered as a resource;
    /// [`try_register_resource`](Self::try_register_resource) returns the
    /// error instead.
    ///
    /// ```
    /// use ecs_core::snapshot::SnapshotRegistry;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Serialize, Deserialize)]
    /// struct Score(u32);
    ///
    /// let mut registry = SnapshotRegistry::new();
    /// registry.register_resource::<Score>("game::Score");
    /// ```
    pub fn register_resource<R: Send + Sync + Serialize + DeserializeOwned + 'static>(
        &mut self,
        name: &'static str,
    ) -> &mut Self {
        if let Err(error) = self.try_register_resource::<R>(name) {
            panic!("{error}");
        }
        self
    }

    /// Registers the resource type `R` under `name`, or says why not.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::snapshot::SnapshotRegistry;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Serialize, Deserialize)]
    /// struct Score(u32);
    ///
    /// let mut registry = SnapshotRegistry::new();
    /// registry.try_register_resource::<Score>("game::Score")?;
    /// assert!(registry.try_register_resource::<Score>("game::Points").is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_register_resource<R: Send + Sync + Serialize + DeserializeOwned + 'static>(
        &mut self,
        name: &'static str,
    ) -> Result<&mut Self, Error> {
        self.claim::<R>(name, true)?;
        self.by_name
            .insert(name, Named::Resource(self.resources.len()));
        self.resources.push(ResourceEntry {
            name,
            save: save_resource::<R>,
            load: load_resource::<R>,
        });
        Ok(self)
    }

    /// Every registered name: components in registration order, then resources.
    ///
    /// ```
    /// use ecs_core::snapshot::SnapshotRegistry;
    ///
    /// let mut registry = SnapshotRegistry::new();
    /// registry.register_resource::<u64>("game::Seed");
    /// assert!(registry.names().eq(["game::Seed"]));
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        let components = self.components.iter().map(|entry| entry.name);
        components.chain(self.resources.iter().map(|entry| entry.name))
    }

    /// Checks that `name` is free and `T` unregistered as this kind, then
    /// records both.
    fn claim<T: 'static>(&mut self, name: &'static str, resource: bool) -> Result<(), Error> {
        if let Some(registered) = self.type_names.get(name) {
            return Err(Error::SnapshotNameTaken { name, registered });
        }
        let key = (TypeId::of::<T>(), resource);
        if let Some(&name) = self.by_type.get(&key) {
            return Err(Error::SnapshotTypeRegistered {
                type_name: core::any::type_name::<T>(),
                name,
            });
        }
        self.by_type.insert(key, name);
        self.type_names.insert(name, core::any::type_name::<T>());
        Ok(())
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

impl fmt::Debug for SnapshotRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SnapshotRegistry")
            .field(
                "components",
                &self.components.iter().map(|e| e.name).collect::<Vec<_>>(),
            )
            .field(
                "resources",
                &self.resources.iter().map(|e| e.name).collect::<Vec<_>>(),
            )
            .finish()
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
