//! [`On<E>`]: what an observer of a custom event receives.

use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::entity::Entity;

use super::event::{EntityEvent, Event};

/// The first argument of an observer of the custom event `E`: the event
/// being triggered, which the observer reads (`ev.radius`, through `Deref`)
/// and may change for the observers after it (`ev.damage -= 1`). For an
/// [`EntityEvent`], also where it is ([`entity`](Self::entity)), where it
/// started ([`original_entity`](Self::original_entity)), and whether it
/// travels on ([`propagate`](Self::propagate)).
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Event)]
/// struct Hit { damage: u32 }
/// #[derive(Default)]
/// struct Taken(Vec<u32>);
///
/// let mut world = World::new();
/// world.init_resource::<Taken>();
/// world.observe(|mut hit: On<Hit>| hit.damage /= 2);               // armour first
/// world.observe(|hit: On<Hit>, mut taken: ResMut<Taken>| taken.0.push(hit.damage));
/// world.trigger(Hit { damage: 10 });
/// assert_eq!(world.resource::<Taken>()?.0, [5]);
/// # Ok::<(), Error>(())
/// ```
pub struct On<'t, E: Event> {
    event: &'t mut E,
    entity: Option<Entity>,
    original: Option<Entity>,
    propagate: &'t mut bool,
}

impl<'t, E: Event> On<'t, E> {
    pub(in crate::world) fn new(
        event: &'t mut E,
        entity: Option<Entity>,
        original: Option<Entity>,
        propagate: &'t mut bool,
    ) -> Self {
        Self {
            event,
            entity,
            original,
            propagate,
        }
    }

    /// The event.
    pub fn event(&self) -> &E {
        self.event
    }

    /// The event, to change for the observers after this one.
    pub fn event_mut(&mut self) -> &mut E {
        self.event
    }
}

impl<E: EntityEvent> On<'_, E> {
    /// The entity the event has reached: its target, then each entity it
    /// travelled to.
    pub fn entity(&self) -> Entity {
        self.entity
            .expect("an entity event is dispatched with its target")
    }

    /// The entity the event was aimed at when it was triggered.
    pub fn original_entity(&self) -> Entity {
        self.original
            .expect("an entity event is dispatched with its target")
    }

    /// Whether the event goes on to the next entity along its relationship
    /// once this entity's observers ran: `false` stops it (the absorbed
    /// hit), `true` sends on an event that does not travel by itself.
    /// The last observer to say decides.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(EntityEvent)]
    /// #[entity_event(propagate, auto_propagate)]
    /// struct Attack { entity: Entity, damage: u16 }
    /// #[derive(Default)]
    /// struct Reached(Vec<Entity>);
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Reached>();
    /// let knight = world.spawn(());
    /// let shield = world.spawn(ChildOf(knight));
    /// world.observe(|ev: On<Attack>, mut reached: ResMut<Reached>| reached.0.push(ev.entity()));
    /// world.entity_mut(shield)?.observe(|mut ev: On<Attack>| {
    ///     if ev.damage < 10 { ev.propagate(false); }     // absorbed
    /// });
    /// world.trigger(Attack { entity: shield, damage: 3 });
    /// assert_eq!(world.resource::<Reached>()?.0, [shield]);
    /// world.trigger(Attack { entity: shield, damage: 30 });
    /// assert_eq!(world.resource::<Reached>()?.0, [shield, shield, knight]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn propagate(&mut self, on: bool) {
        *self.propagate = on;
    }
}

impl<E: Event> Deref for On<'_, E> {
    type Target = E;

    fn deref(&self) -> &E {
        self.event
    }
}

impl<E: Event> DerefMut for On<'_, E> {
    fn deref_mut(&mut self) -> &mut E {
        self.event
    }
}

impl<E: Event + fmt::Debug> fmt::Debug for On<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("On").field(&self.event).finish()
    }
}
