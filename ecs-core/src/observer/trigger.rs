//! What an observer reacts to: the three structural events, as the typed
//! triggers its first argument names.

use core::fmt;
use core::marker::PhantomData;

use crate::component::Component;
use crate::entity::Entity;
use crate::util::ShortName;

/// Which structural event an observer follows.
///
/// ```
/// use ecs_core::observer::TriggerKind;
///
/// assert_eq!(TriggerKind::Add.to_string(), "OnAdd");
/// assert_eq!(TriggerKind::ALL.len(), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TriggerKind {
    /// A component arrives on an entity that did not hold one of its type.
    Add,
    /// A component is inserted, whether it arrives or replaces one.
    Insert,
    /// A component leaves its entity: removed, despawned, or cleared.
    Remove,
}

impl TriggerKind {
    /// Every kind, in the order they are numbered.
    pub const ALL: [TriggerKind; 3] = [TriggerKind::Add, TriggerKind::Insert, TriggerKind::Remove];

    /// The kind as an index into per-kind tables.
    #[inline]
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for TriggerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TriggerKind::Add => "OnAdd",
            TriggerKind::Insert => "OnInsert",
            TriggerKind::Remove => "OnRemove",
        })
    }
}

/// The first argument of an observer: which event on which component type
/// it follows. [`OnAdd`], [`OnInsert`] and [`OnRemove`] are the triggers;
/// this trait is the machinery `World::observe` reads them through.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::observer::{Trigger, TriggerKind};
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// assert_eq!(<OnRemove<Health> as Trigger>::KIND, TriggerKind::Remove);
/// let e = World::new().spawn(());
/// assert_eq!(<OnAdd<Health> as Trigger>::new(e).entity(), e);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an observer trigger",
    label = "an observer's first argument must be a trigger",
    note = "an observer's first argument is `OnAdd<T>`, `OnInsert<T>` or `OnRemove<T>`; \
            the rest are system params (`Query<..>`, `Res<R>`, `Commands`, ...)"
)]
pub trait Trigger: Send + 'static {
    /// The component type the trigger follows.
    type Component: Component;

    /// The event the trigger follows.
    const KIND: TriggerKind;

    /// The trigger for one event on `entity`.
    fn new(entity: Entity) -> Self;
}

macro_rules! trigger {
    ($(#[$doc:meta])* $name:ident, $kind:ident) => {
        $(#[$doc])*
        pub struct $name<T: Component> {
            entity: Entity,
            _component: PhantomData<fn() -> T>,
        }

        impl<T: Component> $name<T> {
            /// The entity the event happened to.
            #[inline]
            pub fn entity(&self) -> Entity {
                self.entity
            }
        }

        impl<T: Component> Trigger for $name<T> {
            type Component = T;
            const KIND: TriggerKind = TriggerKind::$kind;

            #[inline]
            fn new(entity: Entity) -> Self {
                Self { entity, _component: PhantomData }
            }
        }

        impl<T: Component> Clone for $name<T> {
            fn clone(&self) -> Self {
                *self
            }
        }

        impl<T: Component> Copy for $name<T> {}

        impl<T: Component> fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(
                    f,
                    "{}<{}>({:?})",
                    stringify!($name),
                    ShortName(core::any::type_name::<T>()),
                    self.entity
                )
            }
        }
    };
}

trigger!(
    /// An observer's trigger: a `T` arrived on an entity that held none:
    /// through `spawn`, `spawn_batch`, `insert`, a bundle, an entity handle
    /// or a command. Observers run once the call that added it is done, so
    /// they see every component the call added.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    /// #[derive(Component)]
    /// struct Alive;
    ///
    /// let mut world = World::new();
    /// world.observe(|trigger: OnAdd<Health>, mut commands: Commands| {
    ///     commands.insert(trigger.entity(), Alive);
    /// });
    /// let e = world.spawn(Health(3));
    /// assert!(world.contains::<Alive>(e), "the observer's commands applied before spawn returned");
    /// ```
    OnAdd,
    Add
);

trigger!(
    /// An observer's trigger: a `T` was inserted on an entity, whether it
    /// arrived or replaced one (replacing fires `OnInsert` but neither
    /// `OnAdd` nor `OnRemove`).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    /// #[derive(Default)]
    /// struct Writes(u32);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Writes::default());
    /// world.observe(|_: OnInsert<Health>, mut writes: ResMut<Writes>| writes.0 += 1);
    /// let e = world.spawn(Health(3));
    /// world.insert(e, Health(4))?;
    /// assert_eq!(world.resource::<Writes>()?.0, 2);
    /// # Ok::<(), Error>(())
    /// ```
    OnInsert,
    Insert
);

trigger!(
    /// An observer's trigger: a `T` is leaving its entity, through `remove`,
    /// `despawn` or `clear` (a replacing insert does not count). Observers
    /// run *before* it leaves, so a query or `world.get` in the observer
    /// still reads it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    /// #[derive(Default)]
    /// struct LastWords(Vec<i32>);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(LastWords::default());
    /// world.observe(
    ///     |trigger: OnRemove<Health>, health: Query<&Health>, mut words: ResMut<LastWords>| {
    ///         words.0.push(health.get(trigger.entity()).unwrap().0);
    ///     },
    /// );
    /// let e = world.spawn(Health(7));
    /// world.despawn(e)?;
    /// assert_eq!(world.resource::<LastWords>()?.0, [7]);
    /// # Ok::<(), Error>(())
    /// ```
    OnRemove,
    Remove
);
