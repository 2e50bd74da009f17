//! `GET /api/world`: counts, memory, and every component type with how many
//! entities hold it and the bytes its storage takes.

use ecs_core::{Schedule, World};
use serde_json::json;

use crate::http::Response;

use super::Context;

pub(super) fn answer(world: &World, schedule: &Schedule, context: &Context<'_>) -> Response {
    let stats = world.stats();
    let components: Vec<_> = world
        .component_types()
        .map(|t| {
            let info = t.info();
            json!({
                "id": info.id().index(),
                "name": info.name(),
                "type_name": info.type_name(),
                "size": info.size(),
                "count": t.len(),
                "bytes": t.heap_bytes(),
                "editable": context.editors.get(info.type_id()).is_some(),
            })
        })
        .collect();
    Response::json(&json!({
        "entities": world.len(),
        "frame": schedule.frames(),
        "paused": context.control.is_paused(),
        "writes": context.writes,
        "stats": {
            "live_entities": stats.live_entities,
            "entity_slots": stats.entity_slots,
            "free_slots": stats.free_slots,
            "retired_slots": stats.retired_slots,
            "component_types": stats.component_types,
            "components": stats.components,
            "sparse_pages": stats.sparse_pages,
            "heap_bytes": stats.heap_bytes,
        },
        "components": components,
        "resources": world.resource_names(),
    }))
}
