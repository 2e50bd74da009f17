//! Answering routes on the game's thread, between frames: each file builds
//! the JSON of one view from what the world and the schedule report.

mod control;
mod entities;
mod entity;
mod events;
mod schedule;
mod world;

use ecs_core::{Schedule, World};

use crate::control::Control;
use crate::edit::Editors;
use crate::http::Response;
use crate::route::Route;

/// What an answer may read or change besides the world and the schedule.
pub(crate) struct Context<'a> {
    pub(crate) editors: &'a Editors,
    pub(crate) control: &'a mut Control,
    pub(crate) writes: bool,
}

/// The answer to `route`. Read-only routes take `&World`; writes, which the
/// server let through only when the game allowed them, go through the
/// world's own API.
pub(crate) fn answer(
    route: Route,
    world: &mut World,
    schedule: &Schedule,
    context: &mut Context<'_>,
) -> Response {
    match route {
        // Files are answered on the connection's thread; one here would be
        // a mistake of the server, answered all the same.
        Route::File(content_type, body) => Response::file(content_type, body),
        Route::World => world::answer(world, schedule, context),
        Route::Entities(table) => entities::answer(world, &table),
        Route::Entity(entity) => entity::answer(world, entity, context.editors),
        Route::Despawn(entity) => entity::despawn(world, entity),
        Route::Edit {
            entity,
            component,
            value,
        } => entity::edit(world, entity, &component, value, context.editors),
        Route::Schedule => schedule::explain(schedule),
        Route::Systems => schedule::systems(schedule),
        Route::Events => events::answer(world),
        Route::Control => control::state(schedule, context),
        Route::Pause => {
            context.control.pause();
            control::state(schedule, context)
        }
        Route::Resume => {
            context.control.resume();
            control::state(schedule, context)
        }
        Route::Step => {
            context.control.step();
            control::state(schedule, context)
        }
    }
}

/// The component type of `world` whose short name is `name`.
pub(crate) fn component_named<'w>(
    world: &'w World,
    name: &str,
) -> Result<ecs_core::diagnostics::ComponentType<'w>, Response> {
    world
        .component_types()
        .find(|t| t.info().name() == name)
        .ok_or_else(|| {
            Response::error(
                404,
                format!(
                    "the world has no component type named `{}`",
                    crate::http::truncate(name)
                ),
            )
        })
}
