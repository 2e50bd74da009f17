//! What kinds of things a world holds, read without knowing their types:
//! its component types (with who holds each), its event types and its
//! observers. Tools that look into a running world (an inspector, a debug
//! overlay) read these; a game itself names its types.

use crate::component::ComponentInfo;
use crate::entity::Entity;
use crate::event::EventType;
use crate::observer::{Follows, TriggerKind};
use crate::storage::ErasedStorage;

use super::World;

impl World {
    /// Every component type the world has seen, in component id order, each
    /// with the entities that hold it now.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Position(f32, f32);
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let a = world.spawn((Position(0.0, 0.0), Enemy));
    /// world.spawn(Position(1.0, 0.0));
    /// let types: Vec<_> = world.component_types().map(|t| (t.info().name().to_owned(), t.len())).collect();
    /// assert_eq!(types, [("Position".to_owned(), 2), ("Enemy".to_owned(), 1)]);
    /// let enemy = world.component_types().nth(1).unwrap();
    /// assert_eq!(enemy.entities(), [a]);
    /// assert!(enemy.contains(a));
    /// ```
    pub fn component_types(&self) -> impl Iterator<Item = ComponentType<'_>> + '_ {
        let storages = &self.data.storages;
        storages.erased().map(|(id, storage)| ComponentType {
            info: storages.info(id),
            storage,
        })
    }

    /// Every event type the world has a store of (sent or read at least
    /// once), in the order the world first met them.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Collision;
    ///
    /// let mut world = World::new();
    /// world.send(Collision);
    /// world.send(Collision);
    /// let types = world.event_types();
    /// assert_eq!(types.len(), 1);
    /// assert_eq!((types[0].name.as_str(), types[0].queued), ("Collision", 2));
    /// ```
    pub fn event_types(&self) -> Vec<EventType> {
        self.events.describe(&self.data.resources)
    }

    /// Every observer of a structural event on every entity, in
    /// registration order: which event on which component type it follows.
    /// (Observers of custom events, `On<E>`, and observers registered on
    /// one entity are not listed.)
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::observer::TriggerKind;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// world.observe(|_: OnRemove<Health>| {});
    /// let observers: Vec<_> = world.observers().map(|o| (o.kind, o.component.name())).collect();
    /// assert_eq!(observers, [(TriggerKind::Remove, "Health")]);
    /// ```
    pub fn observers(&self) -> impl Iterator<Item = ObserverEntry<'_>> + '_ {
        let storages = &self.data.storages;
        self.observers
            .registry
            .follows()
            .filter_map(|follows| match follows {
                (Follows::Component(kind, id), None) => Some(ObserverEntry {
                    kind,
                    component: storages.info(id),
                }),
                _ => None,
            })
    }
}

/// One component type of a world, from [`World::component_types`]: what the
/// world knows of the type, and who holds it now.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// let mut world = World::new();
/// world.spawn_batch((0..10).map(Health));
/// let health = world.component_types().next().unwrap();
/// assert_eq!((health.info().name(), health.len()), ("Health", 10));
/// assert!(health.heap_bytes() >= 10 * size_of::<Health>());
/// ```
#[derive(Clone, Copy)]
pub struct ComponentType<'w> {
    info: &'w ComponentInfo,
    storage: &'w dyn ErasedStorage,
}

impl<'w> ComponentType<'w> {
    /// The type's name, size, alignment and id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// world.spawn(Health(1));
    /// assert_eq!(world.component_types().next().unwrap().info().size(), 4);
    /// ```
    pub fn info(&self) -> &'w ComponentInfo {
        self.info
    }

    /// How many entities hold a value of the type.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..3).map(|_| Enemy));
    /// assert_eq!(world.component_types().next().unwrap().len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.storage.len()
    }

    /// Whether no entity holds a value of the type.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Enemy);
    /// world.despawn(e)?;
    /// assert!(world.component_types().next().unwrap().is_empty(), "the type stays known");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.storage.len() == 0
    }

    /// The entities that hold the type, in storage order (unspecified, and
    /// changed by structural change).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let (a, b) = (world.spawn(Enemy), world.spawn(Enemy));
    /// let mut held = world.component_types().next().unwrap().entities().to_vec();
    /// held.sort();
    /// assert_eq!(held, [a, b]);
    /// ```
    pub fn entities(&self) -> &'w [Entity] {
        self.storage.entities()
    }

    /// Whether `entity` holds the type. A stale handle holds nothing.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let (a, b) = (world.spawn(Enemy), world.spawn(()));
    /// let enemy = world.component_types().next().unwrap();
    /// assert!(enemy.contains(a) && !enemy.contains(b));
    /// ```
    pub fn contains(&self, entity: Entity) -> bool {
        self.storage.contains(entity)
    }

    /// Bytes the type's storage holds on the heap: sparse index, entity
    /// ids, values and change ticks (capacity, not length), not counting
    /// memory the values themselves own.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..100).map(Health));
    /// assert!(world.component_types().next().unwrap().heap_bytes() >= 100 * 4);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        let heap = self.storage.heap_bytes();
        heap.sparse + heap.ids + heap.data + heap.ticks
    }
}

impl core::fmt::Debug for ComponentType<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ComponentType")
            .field("name", &self.info.name())
            .field("len", &self.len())
            .finish()
    }
}

/// One observer of a world, from [`World::observers`]: the event it follows
/// on which component type.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::observer::TriggerKind;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// let mut world = World::new();
/// world.observe(|_: OnAdd<Health>| {});
/// let entry = world.observers().next().unwrap();
/// assert_eq!((entry.kind, entry.component.name()), (TriggerKind::Add, "Health"));
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ObserverEntry<'w> {
    /// The event it follows.
    pub kind: TriggerKind,
    /// The component type it follows the event on.
    pub component: &'w ComponentInfo,
}
