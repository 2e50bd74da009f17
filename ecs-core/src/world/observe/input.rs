//! What an observer's first argument is made from: the structural event on
//! an entity it was run for, or the custom event value being triggered.

use core::any::{Any, TypeId};

use crate::entity::Entity;
use crate::observer::{Follows, Trigger, TriggerKind};

use super::super::World;
use super::event::Event;
use super::on::On;

/// What an observer runs for, handed to its runner: the entity of a
/// structural event, or the value of a custom event, which the observer
/// may change for those after it, with where an entity event is now and
/// where it started, and whether it travels on.
#[doc(hidden)]
pub struct ObserverFire<'a> {
    entity: Option<Entity>,
    original: Option<Entity>,
    event: Option<&'a mut dyn Any>,
    propagate: bool,
}

impl<'a> ObserverFire<'a> {
    /// A structural event on `entity`.
    pub(in crate::world) fn structural(entity: Entity) -> Self {
        Self {
            entity: Some(entity),
            original: Some(entity),
            event: None,
            propagate: false,
        }
    }

    /// The custom event `event`, aimed at `entity` now (for an entity
    /// event) after starting at `original`, travelling on if `propagate`
    /// stays true.
    pub(in crate::world) fn event(
        event: &'a mut dyn Any,
        entity: Option<Entity>,
        original: Option<Entity>,
        propagate: bool,
    ) -> Self {
        Self {
            entity,
            original,
            event: Some(event),
            propagate,
        }
    }

    /// Whether the event travels on, as its observers left it.
    pub(in crate::world) fn propagates(&self) -> bool {
        self.propagate
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
        let ObserverFire {
            entity,
            original,
            event,
            propagate,
        } = fire;
        let event = event
            .as_deref_mut()
            .and_then(|event| event.downcast_mut::<E>())
            .expect("an observer of `E` runs for an `E`");
        On::new(event, *entity, *original, propagate)
    }
}
