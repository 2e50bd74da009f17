//! [`On<E>`]: what an observer of a custom event receives.

use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::observer::Event;

/// The first argument of an observer of the custom event `E`: the event
/// being triggered, which the observer reads (`ev.radius`, through `Deref`)
/// and may change for the observers after it (`ev.damage -= 1`).
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
}

impl<'t, E: Event> On<'t, E> {
    pub(in crate::world) fn new(event: &'t mut E) -> Self {
        Self { event }
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
