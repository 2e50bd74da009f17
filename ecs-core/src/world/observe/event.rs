//! Custom events: values a game triggers (`world.trigger(..)`) for the
//! observers that take them (`On<E>`), as opposed to the structural events
//! a world reports by itself (`OnAdd`, `OnInsert`, `OnRemove`); and entity
//! events, aimed at one entity and carried up a relationship.

use crate::entity::Entity;

use super::super::World;
use super::super::relationship::Relationship;

/// A value a game triggers for its observers: `world.trigger(event)`,
/// `commands.trigger(event)`, or `DeferredWorld::trigger` from a hook. Each
/// observer taking [`On<E>`](crate::On) runs at once, in registration
/// order, and may change the event for those after it. Derive it:
/// `#[derive(Event)]` (or `#[derive(EntityEvent)]` for an event aimed at an
/// entity, [`EntityEvent`]).
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
/// fn is_event<E: Event>() {}
/// is_event::<Explosion>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an event observers can take",
    label = "not an `Event`",
    note = "derive it: `#[derive(Event)]`, or `#[derive(EntityEvent)]` for an event aimed at an \
            entity"
)]
pub trait Event: Send + Sync + 'static {
    /// The entity the event is aimed at now, for an entity event.
    #[doc(hidden)]
    fn current_target(&self) -> Option<Entity> {
        None
    }

    /// Aims the event at `entity`, as it travels up its relationship.
    #[doc(hidden)]
    fn retarget(&mut self, entity: Entity) {
        let _ = entity;
    }

    /// Whether the event travels on unless an observer stops it.
    #[doc(hidden)]
    const AUTO_PROPAGATE: bool = false;

    /// Where the event goes after `entity`: its target along the
    /// relationship the event travels (its parent, for `ChildOf`).
    #[doc(hidden)]
    fn next_target(world: &World, entity: Entity) -> Option<Entity> {
        let _ = (world, entity);
        None
    }
}

/// An event aimed at one entity: observers of the event everywhere run,
/// then the ones registered on that entity (`entity_mut(e).observe(..)`).
/// With `#[entity_event(propagate)]` it then travels to the entity's parent
/// (along `ChildOf`; `propagate = R` for another relationship), and so on up,
/// each step running the observers everywhere and those on the entity it
/// reached, until an observer stops it (`ev.propagate(false)`) or it reaches
/// an entity with no parent. Without `auto_propagate`, it travels only when
/// an observer asks (`ev.propagate(true)`).
///
/// Derive it: `#[derive(EntityEvent)]` on a struct with a field `entity`
/// (or one marked `#[event_target]`), which the event's travel updates.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(EntityEvent)]
/// #[entity_event(propagate, auto_propagate)]
/// struct Attack { entity: Entity, damage: u16 }
///
/// let mut world = World::new();
/// let knight = world.spawn(());
/// let shield = world.spawn(ChildOf(knight));
/// let attack = Attack { entity: shield, damage: 3 };
/// assert_eq!(attack.event_target(), shield);
/// ```
pub trait EntityEvent: Event {
    /// The entity the event is aimed at.
    fn event_target(&self) -> Entity;

    /// The entity the event is aimed at, to change.
    fn event_target_mut(&mut self) -> &mut Entity;
}

/// Where an event travelling along `R` goes after `entity`: the target of
/// its `R`. What `#[entity_event(propagate = R)]` writes.
#[doc(hidden)]
pub fn relationship_target<R: Relationship>(world: &World, entity: Entity) -> Option<Entity> {
    world.get::<R>(entity).ok().map(R::target)
}
