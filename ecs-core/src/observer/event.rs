//! Custom events: values a game triggers (`world.trigger(..)`) for the
//! observers that take them (`On<E>`), as opposed to the structural events
//! a world reports by itself (`OnAdd`, `OnInsert`, `OnRemove`).

/// A value a game triggers for its observers: `world.trigger(event)`,
/// `commands.trigger(event)`, or `DeferredWorld::trigger` from a hook. Each
/// observer taking [`On<E>`](crate::system::On) runs at once, in
/// registration order, and may change the event for those after it.
/// Derive it: `#[derive(Event)]`.
///
/// Use an observed event for something that happens now and wants an answer
/// now (an explosion, a hit); use a buffered event ([`EventWriter`](crate::system::EventWriter)
/// / [`EventReader`](crate::system::EventReader)) for a stream systems read
/// at their own place in the frame.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Event)]
/// struct Explosion { radius: f32 }
///
/// fn is_event<E: ecs_core::observer::Event>() {}
/// is_event::<Explosion>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an event observers can take",
    label = "not an `Event`",
    note = "derive it: `#[derive(Event)]` on the type"
)]
pub trait Event: Send + Sync + 'static {}
