//! Reading a snapshot into plain parts (an allocator, storages, resources),
//! checking everything before any world sees it.
//!
//! Nothing here sizes a buffer by a length the input states: sequences grow
//! as their elements arrive ([`CappedVec`]), and column values go straight
//! into their storage.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::FORMAT_VERSION;
use super::capped::{CappedVec, first_capacity};
use super::failure::Failure;
use super::fields::{Fields, InMap, InSeq, expecting_struct};
use super::table::{ColumnValues, Named, ResourceValue, SnapshotTable};
use crate::entity::{AllocatorState, Entities, Entity};
use crate::error::Error;
use crate::resource::Resources;
use crate::storage::Storages;

/// A snapshot read and checked: every column's entities are alive in
/// `entities`, each at most once per column.
pub(crate) struct Loaded {
    pub(crate) entities: Entities,
    pub(crate) storages: Storages,
    pub(crate) resources: Resources,
}

/// Reads a snapshot written by [`Snapshot`](super::Snapshot) with `registry`'s types.
pub(crate) fn load<'de, D: Deserializer<'de>>(
    registry: &SnapshotTable,
    deserializer: D,
) -> Result<Loaded, Error> {
    let failure = Failure::default();
    let loaded = deserializer.deserialize_struct(
        "Snapshot",
        &["format_version", "allocator", "components", "resources"],
        SnapshotVisitor {
            registry,
            failure: &failure,
        },
    );
    loaded.map_err(|error| Error::Snapshot {
        reason: failure.reason(error),
    })
}

/// Implements a struct visitor's two entry points with one `read`.
macro_rules! struct_visitor {
    ($name:literal) => {
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            expecting_struct(f, $name)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            self.read(InSeq(seq))
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            self.read(InMap(map))
        }
    };
}

struct SnapshotVisitor<'r> {
    registry: &'r SnapshotTable,
    failure: &'r Failure,
}

impl<'de> Visitor<'de> for SnapshotVisitor<'_> {
    type Value = Loaded;
    struct_visitor!("whole");
}

impl SnapshotVisitor<'_> {
    fn read<'de, F: Fields<'de>>(self, mut fields: F) -> Result<Loaded, F::Error> {
        let version: u32 = fields.field("format_version", PhantomData)?;
        if version != FORMAT_VERSION {
            return Err(self.failure.fail(format_args!(
                "its format version is {version}, and this build reads version {FORMAT_VERSION}"
            )));
        }
        let entities = fields.field(
            "allocator",
            AllocatorSeed {
                failure: self.failure,
            },
        )?;
        let mut storages = Storages::default();
        fields.field(
            "components",
            ComponentsSeed {
                registry: self.registry,
                failure: self.failure,
                entities: &entities,
                storages: &mut storages,
            },
        )?;
        let mut resources = Resources::default();
        fields.field(
            "resources",
            ResourcesSeed {
                registry: self.registry,
                failure: self.failure,
                resources: &mut resources,
            },
        )?;
        fields.end()?;
        Ok(Loaded {
            entities,
            storages,
            resources,
        })
    }
}

/// The allocator: every slot as `(version, alive)`, then the free list.
struct AllocatorSeed<'a> {
    failure: &'a Failure,
}

impl<'de> DeserializeSeed<'de> for AllocatorSeed<'_> {
    type Value = Entities;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Entities, D::Error> {
        deserializer.deserialize_struct("Allocator", &["slots", "free"], self)
    }
}

impl<'de> Visitor<'de> for AllocatorSeed<'_> {
    type Value = Entities;
    struct_visitor!("allocator");
}

impl AllocatorSeed<'_> {
    fn read<'de, F: Fields<'de>>(self, mut fields: F) -> Result<Entities, F::Error> {
        let slots: Vec<(u32, bool)> = fields.field("slots", CappedVec::new())?;
        let free: Vec<u32> = fields.field("free", CappedVec::new())?;
        fields.end()?;
        Entities::import(AllocatorState::from_parts(&slots, free)).map_err(|error| {
            (self.failure).fail(format_args!("its allocator state is broken: {error}"))
        })
    }
}

/// The sequence of columns, each of a distinct registered component type.
struct ComponentsSeed<'a> {
    registry: &'a SnapshotTable,
    failure: &'a Failure,
    entities: &'a Entities,
    storages: &'a mut Storages,
}

impl<'de> DeserializeSeed<'de> for ComponentsSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ComponentsSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of component columns")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut seen = vec![false; self.registry.components().len()];
        while seq
            .next_element_seed(ColumnSeed {
                registry: self.registry,
                failure: self.failure,
                entities: self.entities,
                storages: &mut *self.storages,
                seen: &mut seen,
            })?
            .is_some()
        {}
        Ok(())
    }
}

/// One column: the type's name, its entities, their values.
struct ColumnSeed<'a> {
    registry: &'a SnapshotTable,
    failure: &'a Failure,
    entities: &'a Entities,
    storages: &'a mut Storages,
    /// Per registered component type, whether a column of it was read.
    seen: &'a mut [bool],
}

impl<'de> DeserializeSeed<'de> for ColumnSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_struct("Column", &["name", "entities", "values"], self)
    }
}

impl<'de> Visitor<'de> for ColumnSeed<'_> {
    type Value = ();
    struct_visitor!("component column");
}

impl ColumnSeed<'_> {
    fn read<'de, F: Fields<'de>>(self, mut fields: F) -> Result<(), F::Error> {
        let name: String = fields.field("name", PhantomData)?;
        let index = match self.registry.named(&name) {
            Some(Named::Component(index)) => index,
            Some(Named::Resource(_)) => {
                return Err(self.failure.fail(format_args!(
                    "it lists the resource `{name}` among its component types"
                )));
            }
            None => {
                return Err(self.failure.fail(format_args!(
                    "it names component type `{name}`, which the registry does not know"
                )));
            }
        };
        if core::mem::replace(&mut self.seen[index], true) {
            return Err(self
                .failure
                .fail(format_args!("it lists component type `{name}` twice")));
        }
        let listed = fields.field(
            "entities",
            ColumnEntities {
                name: &name,
                failure: self.failure,
                entities: self.entities,
            },
        )?;
        let entry = &self.registry.components()[index];
        fields.field(
            "values",
            ColumnValues {
                entry,
                failure: self.failure,
                entities: &listed,
                storages: self.storages,
            },
        )?;
        fields.end()
    }
}

/// A column's entities, each checked as it is read: a real id, alive in the
/// snapshot's allocator.
struct ColumnEntities<'a> {
    name: &'a str,
    failure: &'a Failure,
    entities: &'a Entities,
}

impl<'de> DeserializeSeed<'de> for ColumnEntities<'_> {
    type Value = Vec<Entity>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<Entity>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ColumnEntities<'_> {
    type Value = Vec<Entity>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the entity ids of `{}`", self.name)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Entity>, A::Error> {
        let name = self.name;
        let mut listed = Vec::with_capacity(first_capacity(seq.size_hint()));
        while let Some(bits) = seq.next_element::<u64>()? {
            let Some(entity) = Entity::from_bits(bits) else {
                return Err(self.failure.fail(format_args!(
                    "`{name}` lists the id {bits:#x}, whose version is 0, which no entity has"
                )));
            };
            if !self.entities.is_alive(entity) {
                return Err(self.failure.fail(format_args!(
                    "its allocator marks entity {entity:?} dead, but `{name}` holds a value for it"
                )));
            }
            listed.push(entity);
        }
        Ok(listed)
    }
}

/// The sequence of resources, each of a distinct registered resource type.
struct ResourcesSeed<'a> {
    registry: &'a SnapshotTable,
    failure: &'a Failure,
    resources: &'a mut Resources,
}

impl<'de> DeserializeSeed<'de> for ResourcesSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ResourcesSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of resources")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut seen = vec![false; self.registry.resources().len()];
        while seq
            .next_element_seed(ResourceSeed {
                registry: self.registry,
                failure: self.failure,
                resources: &mut *self.resources,
                seen: &mut seen,
            })?
            .is_some()
        {}
        Ok(())
    }
}

/// One resource: its type's name, then its value.
struct ResourceSeed<'a> {
    registry: &'a SnapshotTable,
    failure: &'a Failure,
    resources: &'a mut Resources,
    seen: &'a mut [bool],
}

impl<'de> DeserializeSeed<'de> for ResourceSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_struct("Resource", &["name", "value"], self)
    }
}

impl<'de> Visitor<'de> for ResourceSeed<'_> {
    type Value = ();
    struct_visitor!("resource");
}

impl ResourceSeed<'_> {
    fn read<'de, F: Fields<'de>>(self, mut fields: F) -> Result<(), F::Error> {
        let name: String = fields.field("name", PhantomData)?;
        let index = match self.registry.named(&name) {
            Some(Named::Resource(index)) => index,
            Some(Named::Component(_)) => {
                return Err(self.failure.fail(format_args!(
                    "it lists the component type `{name}` among its resources"
                )));
            }
            None => {
                return Err(self.failure.fail(format_args!(
                    "it names resource `{name}`, which the registry does not know"
                )));
            }
        };
        if core::mem::replace(&mut self.seen[index], true) {
            return Err(self
                .failure
                .fail(format_args!("it lists resource `{name}` twice")));
        }
        let entry = &self.registry.resources()[index];
        fields.field(
            "value",
            ResourceValue {
                entry,
                failure: self.failure,
                resources: self.resources,
            },
        )?;
        fields.end()
    }
}
