//! What an observer's first argument is made from: the structural event on
//! an entity it was run for, or the custom event value being triggered.

use core::any::{Any, TypeId};

use crate::entity::Entity;
use crate::observer::{Event, Follows, Trigger, TriggerKind};

use super::super::World;
use super::on::On;

/// What an observer runs for, handed to its runner: the entity of a
/// structural event, or the value of a custom event, which the observer
/// may change for those after it.
#[doc(hidden)]
pub struct ObserverFire<'a> {
    entity: Option<Entity>,
    event: Option<&'a mut dyn Any>,
}

impl<'a> ObserverFire<'a> {
    /// A structural event on `entity`.
    pub(in crate::world) fn structural(entity: Entity) -> Self {
        Self {
            entity: Some(entity),
            event: None,
        }
    }

    /// The custom event `event`.
    pub(in crate::world) fn event(event: &'a mut dyn Any) -> Self {
        Self {
            entity: None,
            event: Some(event),
        }
    }
}

/// The first argument of an observer: a structural trigger
/// ([`OnAdd`](crate::observer::OnAdd), [`OnInsert`](crate::observer::OnInsert),
/// [`OnRemove`](crate::observer::OnRemove)) or [`On<E>`] for a custom event.
/// `Item` is what the observer's function receives for one run.
#[doc(hidden)]
pub trait ObserverInput: Send + 'static {
    /// What the observer's function receives, borrowing the event for `'t`.
    type Item<'t>;

    /// The structural event followed, or `None` for a custom event.
    const KIND: Option<TriggerKind>;

    /// What observers taking this follow, registering the component type
    /// with `world` if needed.
    fn follows(world: &mut World) -> Follows;

    /// The argument for one run. The registry hands an observer only what
    /// it follows, so `fire` holds what `follows` names.
    fn item<'t>(fire: &'t mut ObserverFire<'_>) -> Self::Item<'t>;
}

impl<T: Trigger> ObserverInput for T {
    type Item<'t> = T;

    const KIND: Option<TriggerKind> = Some(T::KIND);

    fn follows(world: &mut World) -> Follows {
        Follows::Component(T::KIND, world.data.storages.register::<T::Component>())
    }

    fn item(fire: &mut ObserverFire<'_>) -> T {
        T::new(
            fire.entity
                .expect("a structural observer runs for an entity"),
        )
    }
}

impl<E: Event> ObserverInput for On<'static, E> {
    type Item<'t> = On<'t, E>;

    const KIND: Option<TriggerKind> = None;

    fn follows(_: &mut World) -> Follows {
        Follows::Event(TypeId::of::<E>())
    }

    fn item<'t>(fire: &'t mut ObserverFire<'_>) -> On<'t, E> {
        let event = fire
            .event
            .as_deref_mut()
            .and_then(|event| event.downcast_mut::<E>())
            .expect("an observer of `E` runs for an `E`");
        On::new(event)
    }
}
