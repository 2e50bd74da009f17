//! Commands that read like the world: `commands.entity(e).insert(x)`,
//! `spawn_batch`, `init_resource`.

use crate::bundle::Bundle;
use crate::component::Component;
use crate::entity::Entity;

use super::World;
use super::commands::Commands;
use super::from_world::FromWorld;

/// The commands of one entity, chained:
/// `commands.entity(e).insert(x).remove::<T>().despawn()`. Each call records
/// a command into the same buffer as [`Commands`]' own methods, in call
/// order; a command on an entity that died meanwhile fails like any other.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(i32);
/// #[derive(Component)]
/// struct Poisoned;
///
/// let mut world = World::new();
/// let e = world.spawn(Poisoned);
/// world.commands().entity(e).insert(Health(5)).remove::<Poisoned>();
/// world.flush();
/// assert_eq!(world.get::<Health>(e)?.0, 5);
/// assert!(!world.contains::<Poisoned>(e));
/// # Ok::<(), Error>(())
/// ```
pub struct EntityCommands<'c, 'w> {
    entity: Entity,
    commands: &'c mut Commands<'w>,
}

impl<'w> Commands<'w> {
    /// The commands of `entity`, to chain.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert_eq!(world.commands().entity(e).id(), e);
    /// ```
    pub fn entity(&mut self, entity: Entity) -> EntityCommands<'_, 'w> {
        EntityCommands {
            entity,
            commands: self,
        }
    }

    /// Records spawning one entity per bundle of `bundles`, in order; each
    /// gets its id now, as [`spawn`](Self::spawn) gives it.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Star(u32);
    ///
    /// let mut world = World::new();
    /// world.commands().spawn_batch((0..4).map(Star));
    /// world.flush();
    /// assert_eq!(world.query::<&Star>().iter().count(), 4);
    /// ```
    pub fn spawn_batch<B, I>(&mut self, bundles: I)
    where
        B: Bundle + Send + 'static,
        I: IntoIterator<Item = B>,
    {
        for bundle in bundles {
            self.spawn(bundle);
        }
    }

    /// Records making the resource `R` from its `Default` (or
    /// [`FromWorld`]) unless the world has one by then.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Default)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// world.commands().init_resource::<Score>();
    /// world.flush();
    /// assert_eq!(world.resource::<Score>()?.0, 0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn init_resource<R: FromWorld + Send + Sync + 'static>(&mut self) {
        self.add(|world: &mut World| world.init_resource::<R>());
    }
}

impl<'w> EntityCommands<'_, 'w> {
    /// The entity these commands are for.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert_eq!(world.commands().entity(e).id(), e);
    /// ```
    pub fn id(&self) -> Entity {
        self.entity
    }

    /// The commands these entity commands record into.
    pub(in crate::world) fn recorder(&mut self) -> &mut Commands<'w> {
        self.commands
    }

    /// Records giving the entity `value` (see [`Commands::insert`]).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Frozen;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.commands().entity(e).insert(Frozen);
    /// world.flush();
    /// assert!(world.contains::<Frozen>(e));
    /// ```
    pub fn insert<T: Component>(&mut self, value: T) -> &mut Self {
        self.commands.insert(self.entity, value);
        self
    }

    /// Records giving the entity every component of `bundle`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct A;
    /// #[derive(Component)]
    /// struct B;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.commands().entity(e).insert_bundle((A, B));
    /// world.flush();
    /// assert!(world.contains::<A>(e) && world.contains::<B>(e));
    /// ```
    pub fn insert_bundle<B: Bundle + Send + 'static>(&mut self, bundle: B) -> &mut Self {
        self.commands.insert_bundle(self.entity, bundle);
        self
    }

    /// Records taking the entity's `T` away (see [`Commands::remove`]).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Frozen;
    /// let mut world = World::new();
    /// let e = world.spawn(Frozen);
    /// world.commands().entity(e).remove::<Frozen>();
    /// world.flush();
    /// assert!(!world.contains::<Frozen>(e));
    /// ```
    pub fn remove<T: Component>(&mut self) -> &mut Self {
        self.commands.remove::<T>(self.entity);
        self
    }

    /// Records despawning the entity; commands chained after it fail when
    /// they apply, as the entity is gone.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.commands().entity(e).despawn();
    /// world.flush();
    /// assert!(!world.is_alive(e));
    /// ```
    pub fn despawn(&mut self) -> &mut Self {
        self.commands.despawn(self.entity);
        self
    }
}
