//! `GET /api/events`: the event types with a store, the observers and what
//! they follow, and the resources.

use ecs_core::World;
use serde_json::json;

use crate::http::Response;

pub(super) fn answer(world: &World) -> Response {
    let events: Vec<_> = world
        .event_types()
        .iter()
        .map(|e| json!({ "name": e.name, "type_name": e.type_name, "queued": e.queued }))
        .collect();
    let observers: Vec<_> = world
        .observers()
        .map(|o| json!({ "kind": o.kind.to_string(), "component": o.component.name() }))
        .collect();
    Response::json(&json!({
        "events": events,
        "observers": observers,
        "resources": world.resource_names(),
    }))
}
