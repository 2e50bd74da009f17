//! The component types the game lets the page edit, as JSON through serde.

use core::any::TypeId;

use ecs_core::{Component, Entity, World};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::http::Response;

/// One editable type: how to read its value as JSON, and write one back.
#[derive(Clone, Copy)]
pub(crate) struct Editor {
    pub(crate) type_id: TypeId,
    pub(crate) read: fn(&World, Entity) -> Option<serde_json::Value>,
    pub(crate) write: fn(&mut World, Entity, serde_json::Value) -> Result<(), Response>,
}

impl Editor {
    pub(crate) fn of<T: Component + Serialize + DeserializeOwned>() -> Self {
        Self {
            type_id: TypeId::of::<T>(),
            read: read::<T>,
            write: write::<T>,
        }
    }
}

/// Every editable type, by `TypeId`.
#[derive(Clone, Default)]
pub(crate) struct Editors(Vec<Editor>);

impl Editors {
    pub(crate) fn add(&mut self, editor: Editor) {
        if self.get(editor.type_id).is_none() {
            self.0.push(editor);
        }
    }

    pub(crate) fn get(&self, type_id: TypeId) -> Option<&Editor> {
        self.0.iter().find(|e| e.type_id == type_id)
    }
}

fn read<T: Component + Serialize>(world: &World, entity: Entity) -> Option<serde_json::Value> {
    let value = world.get::<T>(entity).ok()?;
    serde_json::to_value(value).ok()
}

/// Replaces `entity`'s `T` in place (a change, as `get_mut` makes one), so
/// observers of insertion do not run and change detection sees a write.
fn write<T: Component + DeserializeOwned>(
    world: &mut World,
    entity: Entity,
    json: serde_json::Value,
) -> Result<(), Response> {
    let value: T = serde_json::from_value(json).map_err(|e| {
        Response::error(
            422,
            format!(
                "the value does not fit `{}`: {e}",
                core::any::type_name::<T>()
            ),
        )
    })?;
    let mut slot = world
        .get_mut::<T>(entity)
        .map_err(|e| Response::error(404, e.to_string()))?;
    *slot = value;
    Ok(())
}
