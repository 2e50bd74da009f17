//! [`DeferredWorld`]: the world as a hook sees it, whole but for its
//! structure.

use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;

use super::super::{CommandQueue, Commands, EntityRef, World};

/// The world as a hook gets it: it reads and writes components and
/// resources, sends events and queues commands, but cannot add or remove
/// components or entities itself, for the call that runs the hook is in
/// the middle of one such change. Its commands apply once that change is
/// made, before the call returns.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Default)]
/// struct EnemyCount(u32);
///
/// #[derive(Component)]
/// #[component(on_add = count_up, on_remove = count_down)]
/// struct Enemy;
/// #[derive(Component)]
/// struct Loot;
///
/// fn count_up(mut world: DeferredWorld, ctx: HookContext) {
///     world.resource_mut::<EnemyCount>().unwrap().0 += 1;
///     world.commands().insert(ctx.entity, Loot);
/// }
/// fn count_down(mut world: DeferredWorld, _: HookContext) {
///     world.resource_mut::<EnemyCount>().unwrap().0 -= 1;
/// }
///
/// let mut world = World::new();
/// world.insert_resource(EnemyCount::default());
/// let e = world.spawn(Enemy);
/// assert!(world.contains::<Loot>(e), "the hook's command applied before `spawn` returned");
/// world.spawn(Enemy);
/// world.despawn(e)?;
/// assert_eq!(world.resource::<EnemyCount>()?.0, 1);
/// # Ok::<(), Error>(())
/// ```
pub struct DeferredWorld<'w> {
    world: &'w mut World,
    commands: &'w mut CommandQueue,
}

impl<'w> DeferredWorld<'w> {
    /// The world a hook runs on, its commands going to `commands`.
    pub(in crate::world) fn new(world: &'w mut World, commands: &'w mut CommandQueue) -> Self {
        Self { world, commands }
    }

    /// The whole world, read-only: queries (`query_ref`), inspection,
    /// anything that changes nothing.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_add = first)]
    /// struct Crown;
    /// #[derive(Default)]
    /// struct Crowned(usize);
    ///
    /// fn first(mut world: DeferredWorld, _: HookContext) {
    ///     let kings = world.world().view::<Crown>().len();
    ///     world.resource_mut::<Crowned>().unwrap().0 = kings;
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Crowned::default());
    /// world.spawn(Crown);
    /// assert_eq!(world.resource::<Crowned>()?.0, 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn world(&self) -> &World {
        self.world
    }

    /// `entity`'s `T`, as [`World::get`] gives it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_remove = last_words)]
    /// struct Name(&'static str);
    /// #[derive(Default)]
    /// struct Said(Vec<&'static str>);
    ///
    /// fn last_words(mut world: DeferredWorld, ctx: HookContext) {
    ///     let name = world.get::<Name>(ctx.entity).unwrap().0;
    ///     world.resource_mut::<Said>().unwrap().0.push(name);
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Said::default());
    /// let e = world.spawn(Name("orc"));
    /// world.despawn(e)?;
    /// assert_eq!(world.resource::<Said>()?.0, ["orc"]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn get<T: Component>(&self, entity: Entity) -> Result<&T, Error> {
        self.world.get(entity)
    }

    /// `entity`'s `T` to write, as [`World::get_mut`] gives it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_add = full_health)]
    /// struct Alive;
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// fn full_health(mut world: DeferredWorld, ctx: HookContext) {
    ///     if let Ok(health) = world.get_mut::<Health>(ctx.entity) {
    ///         health.0 = 100;
    ///     }
    /// }
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Health(1), Alive));
    /// assert_eq!(world.get::<Health>(e)?.0, 100);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn get_mut<T: Component>(&mut self, entity: Entity) -> Result<T::Mut<'_>, Error> {
        self.world.get_mut::<T>(entity)
    }

    /// Whether `entity` is alive and has a `T`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_add = check)]
    /// struct Armed;
    /// #[derive(Component)]
    /// struct Sword;
    /// #[derive(Default)]
    /// struct WithSword(bool);
    ///
    /// fn check(mut world: DeferredWorld, ctx: HookContext) {
    ///     let armed = world.contains::<Sword>(ctx.entity);
    ///     world.resource_mut::<WithSword>().unwrap().0 = armed;
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(WithSword::default());
    /// world.spawn((Sword, Armed));
    /// assert!(world.resource::<WithSword>()?.0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn contains<T: Component>(&self, entity: Entity) -> bool {
        self.world.contains::<T>(entity)
    }

    /// Whether `entity` is alive.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_add = check)]
    /// struct Follows(Entity);
    ///
    /// fn check(mut world: DeferredWorld, ctx: HookContext) {
    ///     let leader = world.get::<Follows>(ctx.entity).unwrap().0;
    ///     if !world.is_alive(leader) {
    ///         world.commands().remove::<Follows>(ctx.entity);
    ///     }
    /// }
    ///
    /// let mut world = World::new();
    /// let gone = world.spawn(());
    /// world.despawn(gone)?;
    /// let e = world.spawn(Follows(gone));
    /// assert!(!world.contains::<Follows>(e));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.world.is_alive(entity)
    }

    /// A read-only handle to a live entity, as [`World::entity`] gives it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_add = count)]
    /// struct Tagged;
    /// #[derive(Default)]
    /// struct Held(usize);
    ///
    /// fn count(mut world: DeferredWorld, ctx: HookContext) {
    ///     let held = world.entity(ctx.entity).unwrap().components().count();
    ///     world.resource_mut::<Held>().unwrap().0 = held;
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Held::default());
    /// world.spawn(Tagged);
    /// assert_eq!(world.resource::<Held>()?.0, 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn entity(&self, entity: Entity) -> Result<EntityRef<'_>, Error> {
        self.world.entity(entity)
    }

    /// The resource of type `R`, as [`World::resource`] gives it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Limit(usize);
    ///
    /// #[derive(Component)]
    /// #[component(on_add = cap)]
    /// struct Minion;
    ///
    /// fn cap(mut world: DeferredWorld, ctx: HookContext) {
    ///     if world.world().view::<Minion>().len() > world.resource::<Limit>().unwrap().0 {
    ///         world.commands().despawn(ctx.entity);
    ///     }
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Limit(1));
    /// let first = world.spawn(Minion);
    /// let second = world.spawn(Minion);
    /// assert!(world.is_alive(first) && !world.is_alive(second));
    /// ```
    pub fn resource<R: Send + Sync + 'static>(&self) -> Result<&R, Error> {
        self.world.resource()
    }

    /// The resource of type `R` to write, as [`World::resource_mut`] gives it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct Spawned(u32);
    ///
    /// #[derive(Component)]
    /// #[component(on_add = count)]
    /// struct Unit;
    ///
    /// fn count(mut world: DeferredWorld, _: HookContext) {
    ///     world.resource_mut::<Spawned>().unwrap().0 += 1;
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Spawned::default());
    /// world.spawn_batch((0..3).map(|_| Unit));
    /// assert_eq!(world.resource::<Spawned>()?.0, 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn resource_mut<R: Send + Sync + 'static>(&mut self) -> Result<&mut R, Error> {
        self.world.resource_mut()
    }

    /// Sends `event`, as [`World::send`] does.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Died(Entity);
    ///
    /// #[derive(Component)]
    /// #[component(on_despawn = report)]
    /// struct Mortal;
    ///
    /// fn report(mut world: DeferredWorld, ctx: HookContext) {
    ///     world.send(Died(ctx.entity));
    /// }
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Mortal);
    /// world.despawn(e)?;
    /// let died: Vec<Entity> = world.events::<Died>().unwrap().iter().map(|d| d.0).collect();
    /// assert_eq!(died, [e]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn send<E: Send + Sync + 'static>(&mut self, event: E) {
        self.world.send(event);
    }

    /// Commands that change structure once the call that runs the hook has
    /// made its change, before it returns: spawns, inserts, removals,
    /// despawns. They run the hooks and observers of what they change in
    /// turn.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_add = shadow)]
    /// struct Casts;
    /// #[derive(Component)]
    /// struct Shadow(Entity);
    ///
    /// fn shadow(mut world: DeferredWorld, ctx: HookContext) {
    ///     world.commands().spawn(Shadow(ctx.entity));
    /// }
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Casts);
    /// assert_eq!(world.len(), 2);
    /// # let _ = e;
    /// ```
    pub fn commands(&mut self) -> Commands<'_> {
        Commands::new(self.commands, &self.world.data.entities, None)
    }

    /// The world itself, for the hooks of `world/` that keep derived
    /// values in step (relationship lists): they change values, never
    /// structure, and queue their structural changes through
    /// [`commands`](Self::commands), whose queue is this hook's.
    pub(in crate::world) fn world_mut(&mut self) -> &mut World {
        self.world
    }
}
