//! `GET /api/control` and the answer to pause, step and resume.

use ecs_core::Schedule;
use serde_json::json;

use crate::http::Response;

use super::Context;

pub(super) fn state(schedule: &Schedule, context: &Context<'_>) -> Response {
    Response::json(&json!({
        "paused": context.control.is_paused(),
        "writes": context.writes,
        "frame": schedule.frames(),
    }))
}
