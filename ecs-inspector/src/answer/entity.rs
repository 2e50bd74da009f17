//! One entity: `GET /api/entities/{id}` (every component, its `Debug` text
//! and, for editable types, its JSON), `DELETE` (despawn) and
//! `PUT .../components/{name}` (edit).

use ecs_core::{Entity, World};
use serde_json::json;

use crate::edit::Editors;
use crate::http::Response;

use super::component_named;

pub(super) fn answer(world: &World, entity: Entity, editors: &Editors) -> Response {
    let inspection = match world.inspect(entity) {
        Ok(inspection) => inspection,
        Err(error) => return Response::error(404, error.to_string()),
    };
    let components: Vec<_> = inspection
        .components()
        .iter()
        .map(|c| {
            let editor = editors.get(c.info().type_id());
            json!({
                "name": c.name(),
                "type_name": c.type_name(),
                "size": c.size(),
                "tag": c.is_tag(),
                "debug": c.debug().map(|v| format!("{v:?}")),
                "pretty": format!("{c:#}"),
                "shown": c.to_string(),
                "editable": editor.is_some(),
                "json": editor.and_then(|e| (e.read)(world, entity)),
            })
        })
        .collect();
    Response::json(&json!({
        "entity": entity.to_string(),
        "index": entity.index(),
        "version": entity.version(),
        "components": components,
    }))
}

pub(super) fn despawn(world: &mut World, entity: Entity) -> Response {
    match world.despawn(entity) {
        Ok(()) => Response::json(&json!({ "despawned": entity.to_string() })),
        Err(error) => Response::error(404, error.to_string()),
    }
}

pub(super) fn edit(
    world: &mut World,
    entity: Entity,
    component: &str,
    value: serde_json::Value,
    editors: &Editors,
) -> Response {
    if let Err(error) = world.entity(entity) {
        return Response::error(404, error.to_string());
    }
    let type_id = match component_named(world, component) {
        Ok(t) => t.info().type_id(),
        Err(response) => return response,
    };
    let Some(editor) = editors.get(type_id) else {
        return Response::error(
            409,
            format!(
                "`{}` is not editable: the game makes it so with `inspector.editable::<{0}>()`",
                crate::http::truncate(component)
            ),
        );
    };
    if let Err(response) = (editor.write)(world, entity, value) {
        return response;
    }
    answer(world, entity, editors)
}
