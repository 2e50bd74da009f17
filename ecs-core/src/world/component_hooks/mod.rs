//! Component hooks: functions a component type declares on itself
//! (`#[component(on_add = f, ...)]`) or a world sets for it
//! ([`World::register_component_hooks`]), run on every structural change of
//! the type, whichever path makes it.
//!
//! The table of each world's hooks lives here ([`HookRegistry`]); the
//! structural funnel records the arrivals that have a hook, and
//! `observe/dispatch.rs` runs them, with the departures, around the change.

mod deferred;
mod run;

use core::fmt;
use std::sync::Arc;

use crate::component::{Component, ComponentId};
use crate::entity::Entity;
use crate::error::Error;
use crate::storage::Storages;

use super::World;

pub use deferred::DeferredWorld;
pub(in crate::world) use run::HookCall;

/// A component hook: a plain function of the world, deferred, and the
/// context of the change.
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn announce(world: DeferredWorld, ctx: HookContext) {
///     let _ = (world, ctx.entity);
/// }
/// let _hook: ComponentHook = announce;
/// ```
pub type ComponentHook = for<'w> fn(DeferredWorld<'w>, HookContext);

/// Which hook runs.
///
/// ```
/// use ecs_core::prelude::*;
///
/// assert_eq!(HookKind::Add.to_string(), "on_add");
/// assert_eq!(HookKind::Despawn.name(), "on_despawn");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HookKind {
    /// `on_add`: the component arrived on an entity that held none.
    Add,
    /// `on_insert`: a value was inserted, arriving or replacing one.
    Insert,
    /// `on_replace`: a value is leaving, replaced by an insert or taken
    /// away; it can still be read.
    Replace,
    /// `on_remove`: the component is leaving the entity (`remove`,
    /// `despawn`, `clear`); it can still be read.
    Remove,
    /// `on_despawn`: the entity holding the component is despawned (`despawn`,
    /// `clear`); the component can still be read.
    Despawn,
}

impl HookKind {
    /// Every kind, in the order of [`ComponentHooks`]' table.
    const ALL: [HookKind; 5] = [
        HookKind::Add,
        HookKind::Insert,
        HookKind::Replace,
        HookKind::Remove,
        HookKind::Despawn,
    ];

    /// The hook's name as the `#[component(...)]` option spells it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// assert_eq!(HookKind::Replace.name(), "on_replace");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            HookKind::Add => "on_add",
            HookKind::Insert => "on_insert",
            HookKind::Replace => "on_replace",
            HookKind::Remove => "on_remove",
            HookKind::Despawn => "on_despawn",
        }
    }

    /// Whether the hook runs as the component arrives (before observers) or
    /// as it leaves (after them).
    fn arrives(self) -> bool {
        matches!(self, HookKind::Add | HookKind::Insert)
    }
}

impl fmt::Display for HookKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a hook is told about the change it runs for.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Default)]
/// struct Seen(Vec<(Entity, HookKind)>);
///
/// #[derive(Component)]
/// #[component(on_add = remember, on_remove = remember)]
/// struct Marked;
///
/// fn remember(mut world: DeferredWorld, ctx: HookContext) {
///     world.resource_mut::<Seen>().unwrap().0.push((ctx.entity, ctx.hook));
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Seen::default());
/// let e = world.spawn(Marked);
/// world.despawn(e)?;
/// assert_eq!(world.resource::<Seen>()?.0, [(e, HookKind::Add), (e, HookKind::Remove)]);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HookContext {
    /// The entity whose component arrives or leaves.
    pub entity: Entity,
    /// The component's id in this world.
    pub component_id: ComponentId,
    /// Which hook runs (one function may serve several).
    pub hook: HookKind,
}

/// The hooks of one component type in one world: at most one of each
/// [`HookKind`], declared on the type (`#[component(on_add = f, ...)]`) or
/// set through [`World::register_component_hooks`] for a type the game does
/// not own.
///
/// Hooks run on every structural path (`World` methods, entity handles,
/// typed views, commands, batch spawns, `despawn`, `clear`, `merge`,
/// snapshot loads), with a [`DeferredWorld`]: they read and write
/// components and resources, send events and queue commands, but change no
/// structure themselves; their commands apply once the call that ran them
/// has made its change, before it returns. In one call:
///
/// | the component | runs, in order | the value |
/// |---|---|---|
/// | arrives (`spawn`, `insert` of a new type, `merge`, ...) | `on_add`, then `on_insert`, then `OnAdd` / `OnInsert` observers | in place |
/// | is replaced (`insert` over a held value) | `on_replace` (before the write), then `on_insert`, then `OnInsert` observers | the old one, then the new one |
/// | is removed (`remove`) | `OnRemove` observers, then `on_replace`, then `on_remove` | still in place |
/// | leaves with its entity (`despawn`, `clear`) | `OnRemove` observers, then `on_replace`, `on_remove` and `on_despawn` (each for every component the entity holds, in id order) | still in place |
///
/// A bundle's components run their hooks component by component, all of
/// them before any observer. A bundle that names a type twice keeps the
/// later value; the earlier one is replaced without `on_replace`.
///
/// Under panics, a hook behaves as an observer does: the panic reaches the
/// caller; a departure hook's change (the removal, the despawn, the
/// overwriting insert) does not happen; an arrival hook's change stays;
/// the hooks and observers after it do not run, and every command the
/// call's hooks and observers recorded is dropped, the ids their spawns
/// reserved despawned.
///
/// ```
/// use ecs_core::prelude::*;
///
/// // A type from another crate, without hooks of its own.
/// struct Name(String);
/// impl Component for Name {
///     type Mut<'w> = &'w mut Self;
/// }
///
/// #[derive(Default)]
/// struct Named(usize);
///
/// fn count(mut world: DeferredWorld, _: HookContext) {
///     world.resource_mut::<Named>().unwrap().0 += 1;
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Named::default());
/// world.register_component_hooks::<Name>().on_add(count);
/// assert!(world.register_component_hooks::<Name>().try_on_add(count).is_err());
/// world.spawn(Name("orc".into()));
/// assert_eq!(world.resource::<Named>()?.0, 1);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone)]
pub struct ComponentHooks {
    /// The component type's short name, for errors.
    component: Arc<str>,
    /// One slot per kind, in [`HookKind::ALL`]'s order.
    hooks: [Option<ComponentHook>; 5],
}

impl fmt::Debug for ComponentHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set: Vec<&str> = HookKind::ALL
            .into_iter()
            .filter(|&kind| self.get(kind).is_some())
            .map(HookKind::name)
            .collect();
        f.debug_struct("ComponentHooks")
            .field("component", &self.component)
            .field("hooks", &set)
            .finish()
    }
}

impl ComponentHooks {
    fn new(component: &str) -> Self {
        Self {
            component: Arc::from(component),
            hooks: [None; 5],
        }
    }

    /// The hook of `kind`, if one is set.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_remove = bye)]
    /// struct Guest;
    /// fn bye(_: DeferredWorld, _: HookContext) {}
    ///
    /// let mut world = World::new();
    /// let hooks = world.register_component_hooks::<Guest>();
    /// assert!(hooks.get(HookKind::Remove).is_some());
    /// assert!(hooks.get(HookKind::Add).is_none());
    /// ```
    pub fn get(&self, kind: HookKind) -> Option<ComponentHook> {
        self.hooks[kind as usize]
    }

    /// Sets the hook of `kind`, or says that one is set already.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Guest;
    /// fn hello(_: DeferredWorld, _: HookContext) {}
    ///
    /// let mut world = World::new();
    /// let hooks = world.register_component_hooks::<Guest>();
    /// hooks.try_set(HookKind::Add, hello)?;
    /// assert_eq!(
    ///     hooks.try_set(HookKind::Add, hello).unwrap_err().to_string(),
    ///     "component `Guest` already has an `on_add` hook: a type has at most one hook of each kind"
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_set(&mut self, kind: HookKind, hook: ComponentHook) -> Result<&mut Self, Error> {
        let slot = &mut self.hooks[kind as usize];
        if slot.is_some() {
            return Err(Error::HookAlreadySet {
                component: self.component.to_string(),
                hook: kind.name(),
            });
        }
        *slot = Some(hook);
        Ok(self)
    }

    /// Sets the hook of `kind`.
    ///
    /// # Panics
    /// When the type has a hook of that kind already (see
    /// [`try_set`](Self::try_set), which returns the error instead).
    fn set(&mut self, kind: HookKind, hook: ComponentHook) -> &mut Self {
        match self.try_set(kind, hook) {
            Ok(_) => self,
            Err(error) => panic!("{error}"),
        }
    }

    /// Sets the `on_add` hook: it runs when the component arrives on an
    /// entity that held none, before `OnAdd` observers.
    ///
    /// # Panics
    /// When the type has an `on_add` hook already; [`try_on_add`](Self::try_on_add)
    /// returns the error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Guest;
    /// #[derive(Default)]
    /// struct Arrivals(u32);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Arrivals::default());
    /// world.register_component_hooks::<Guest>().on_add(|mut world, _| {
    ///     world.resource_mut::<Arrivals>().unwrap().0 += 1;
    /// });
    /// let e = world.spawn(Guest);
    /// world.insert(e, Guest)?; // a replacement: no `on_add`
    /// assert_eq!(world.resource::<Arrivals>()?.0, 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn on_add(&mut self, hook: ComponentHook) -> &mut Self {
        self.set(HookKind::Add, hook)
    }

    /// Sets the `on_insert` hook: it runs after every insert of the
    /// component, arriving or replacing a value, after `on_add` and before
    /// `OnInsert` observers.
    ///
    /// # Panics
    /// When the type has an `on_insert` hook already; [`try_on_insert`](Self::try_on_insert)
    /// returns the error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Level(u32);
    /// #[derive(Component)]
    /// struct Dirty;
    ///
    /// let mut world = World::new();
    /// world.register_component_hooks::<Level>().on_insert(|mut world, ctx| {
    ///     world.commands().insert(ctx.entity, Dirty);
    /// });
    /// let e = world.spawn(Level(1));
    /// assert!(world.contains::<Dirty>(e));
    /// ```
    pub fn on_insert(&mut self, hook: ComponentHook) -> &mut Self {
        self.set(HookKind::Insert, hook)
    }

    /// Sets the `on_replace` hook: it runs while a value is still in place
    /// and about to leave, replaced by an insert or taken away with its
    /// component or entity, after `OnRemove` observers.
    ///
    /// # Panics
    /// When the type has an `on_replace` hook already; [`try_on_replace`](Self::try_on_replace)
    /// returns the error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Score(u32);
    /// #[derive(Default)]
    /// struct Banked(u32);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Banked::default());
    /// world.register_component_hooks::<Score>().on_replace(|mut world, ctx| {
    ///     let old = world.get::<Score>(ctx.entity).unwrap().0;
    ///     world.resource_mut::<Banked>().unwrap().0 += old;
    /// });
    /// let e = world.spawn(Score(3));
    /// world.insert(e, Score(5))?;
    /// world.despawn(e)?;
    /// assert_eq!(world.resource::<Banked>()?.0, 8);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn on_replace(&mut self, hook: ComponentHook) -> &mut Self {
        self.set(HookKind::Replace, hook)
    }

    /// Sets the `on_remove` hook: it runs while the component is still in
    /// place and about to leave its entity (`remove`, `despawn`, `clear`),
    /// after `on_replace`.
    ///
    /// # Panics
    /// When the type has an `on_remove` hook already; [`try_on_remove`](Self::try_on_remove)
    /// returns the error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Lit;
    /// #[derive(Default)]
    /// struct Lights(i32);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Lights::default());
    /// world.register_component_hooks::<Lit>().on_remove(|mut world, _| {
    ///     world.resource_mut::<Lights>().unwrap().0 -= 1;
    /// });
    /// let e = world.spawn(Lit);
    /// world.remove::<Lit>(e)?;
    /// assert_eq!(world.resource::<Lights>()?.0, -1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn on_remove(&mut self, hook: ComponentHook) -> &mut Self {
        self.set(HookKind::Remove, hook)
    }

    /// Sets the `on_despawn` hook: it runs when the entity holding the
    /// component is despawned (`despawn`, `clear`), after `on_remove`, while
    /// the component is still in place.
    ///
    /// # Panics
    /// When the type has an `on_despawn` hook already; [`try_on_despawn`](Self::try_on_despawn)
    /// returns the error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Owns(Entity);
    ///
    /// let mut world = World::new();
    /// world.register_component_hooks::<Owns>().on_despawn(|mut world, ctx| {
    ///     let owned = world.get::<Owns>(ctx.entity).unwrap().0;
    ///     world.commands().despawn(owned);
    /// });
    /// let sword = world.spawn(());
    /// let hero = world.spawn(Owns(sword));
    /// world.despawn(hero)?;
    /// assert!(!world.is_alive(sword));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn on_despawn(&mut self, hook: ComponentHook) -> &mut Self {
        self.set(HookKind::Despawn, hook)
    }

    /// As [`on_add`](Self::on_add), returning [`Error::HookAlreadySet`]
    /// instead of panicking when the type has an `on_add` hook already.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Guest;
    /// fn hello(_: DeferredWorld, _: HookContext) {}
    ///
    /// let mut world = World::new();
    /// assert!(world.register_component_hooks::<Guest>().try_on_add(hello).is_ok());
    /// assert!(world.register_component_hooks::<Guest>().try_on_add(hello).is_err());
    /// ```
    pub fn try_on_add(&mut self, hook: ComponentHook) -> Result<&mut Self, Error> {
        self.try_set(HookKind::Add, hook)
    }

    /// As [`on_insert`](Self::on_insert), returning [`Error::HookAlreadySet`]
    /// instead of panicking when the type has an `on_insert` hook already.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(on_insert = noted)]
    /// struct Guest;
    /// fn noted(_: DeferredWorld, _: HookContext) {}
    ///
    /// let mut world = World::new();
    /// assert!(world.register_component_hooks::<Guest>().try_on_insert(noted).is_err());
    /// ```
    pub fn try_on_insert(&mut self, hook: ComponentHook) -> Result<&mut Self, Error> {
        self.try_set(HookKind::Insert, hook)
    }

    /// As [`on_replace`](Self::on_replace), returning [`Error::HookAlreadySet`]
    /// instead of panicking when the type has an `on_replace` hook already.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Guest;
    /// fn noted(_: DeferredWorld, _: HookContext) {}
    ///
    /// let mut world = World::new();
    /// assert!(world.register_component_hooks::<Guest>().try_on_replace(noted).is_ok());
    /// ```
    pub fn try_on_replace(&mut self, hook: ComponentHook) -> Result<&mut Self, Error> {
        self.try_set(HookKind::Replace, hook)
    }

    /// As [`on_remove`](Self::on_remove), returning [`Error::HookAlreadySet`]
    /// instead of panicking when the type has an `on_remove` hook already.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Guest;
    /// fn noted(_: DeferredWorld, _: HookContext) {}
    ///
    /// let mut world = World::new();
    /// assert!(world.register_component_hooks::<Guest>().try_on_remove(noted).is_ok());
    /// ```
    pub fn try_on_remove(&mut self, hook: ComponentHook) -> Result<&mut Self, Error> {
        self.try_set(HookKind::Remove, hook)
    }

    /// As [`on_despawn`](Self::on_despawn), returning [`Error::HookAlreadySet`]
    /// instead of panicking when the type has an `on_despawn` hook already.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Guest;
    /// fn noted(_: DeferredWorld, _: HookContext) {}
    ///
    /// let mut world = World::new();
    /// assert!(world.register_component_hooks::<Guest>().try_on_despawn(noted).is_ok());
    /// ```
    pub fn try_on_despawn(&mut self, hook: ComponentHook) -> Result<&mut Self, Error> {
        self.try_set(HookKind::Despawn, hook)
    }

    /// Whether any hook that runs as the component arrives is set.
    fn any_arriving(&self) -> bool {
        HookKind::ALL
            .into_iter()
            .any(|kind| kind.arrives() && self.get(kind).is_some())
    }

    /// Whether any hook that runs as a value leaves is set.
    fn any_leaving(&self) -> bool {
        HookKind::ALL
            .into_iter()
            .any(|kind| !kind.arrives() && self.get(kind).is_some())
    }
}

/// The world's side of [`Component::declare_hooks`]: the `dyn Any` the
/// world hands a type's declaration, turned back into the hooks it is.
/// Named by the derive's generated code only.
#[doc(hidden)]
pub fn declared_hooks(hooks: &mut dyn core::any::Any) -> &mut ComponentHooks {
    hooks
        .downcast_mut::<ComponentHooks>()
        .expect("`Component::declare_hooks` is given the world's `ComponentHooks` of the type")
}

/// Every component type's hooks in one world, by component id, and the
/// arrivals that have a hook, recorded by the funnel during a structural
/// call for the world to run once the call's change is made.
#[derive(Default)]
pub(crate) struct HookRegistry {
    /// The hooks of the first `table.len()` component ids. The rest
    /// declare no hook and were given none: the table is extended (with
    /// their declarations read) before a type's first arrival when the type
    /// declares hooks, and when hooks are registered for it.
    table: Vec<ComponentHooks>,
    /// Whether any type may have an `on_add` or `on_insert` hook: while
    /// not, the funnel records nothing and takes its unhooked paths.
    arriving: bool,
    /// Whether any type may have an `on_replace`, `on_remove` or
    /// `on_despawn` hook: while not, removals take the funnel's path alone.
    leaving: bool,
    /// Arrivals with a hook, recorded during the current call.
    pub(in crate::world) fired: Vec<HookCall>,
}

impl HookRegistry {
    /// Whether any component type may have a hook that runs on arrival.
    #[inline]
    pub(in crate::world) fn follow_arrivals(&self) -> bool {
        self.arriving
    }

    /// Whether any component type may have a hook that runs on departure.
    #[inline]
    pub(in crate::world) fn follow_departures(&self) -> bool {
        self.leaving
    }

    /// Whether component `id` has any hook at all.
    #[inline]
    pub(in crate::world) fn follow_component(&self, id: ComponentId) -> bool {
        (self.arriving || self.leaving)
            && HookKind::ALL
                .into_iter()
                .any(|kind| self.get(kind, id).is_some())
    }

    /// Whether component `id` has a hook that runs as its value is
    /// overwritten (`on_replace`).
    #[inline]
    pub(in crate::world) fn follow_replacements_of(&self, id: ComponentId) -> bool {
        self.leaving && self.get(HookKind::Replace, id).is_some()
    }

    /// Whether component `id` has a hook that runs as it is taken away
    /// (`on_replace`, `on_remove`; `on_despawn` runs for a despawn only).
    #[inline]
    pub(in crate::world) fn follow_removals_of(&self, id: ComponentId) -> bool {
        self.leaving
            && (self.get(HookKind::Replace, id).is_some()
                || self.get(HookKind::Remove, id).is_some())
    }

    /// Reads the hooks of every component type registered in `storages`
    /// since the last look. Called before the first arrival of a type that
    /// declares hooks: a type without any needs no entry.
    #[inline]
    pub(in crate::world) fn sync(&mut self, storages: &Storages) {
        if self.table.len() < storages.len() {
            self.sync_new(storages);
        }
    }

    #[cold]
    #[inline(never)]
    fn sync_new(&mut self, storages: &Storages) {
        for id in self.table.len()..storages.len() {
            let info = storages.info(ComponentId(id as u32));
            let mut hooks = ComponentHooks::new(info.name());
            if info.declares_hooks() {
                info.declare_hooks(&mut hooks);
                self.arriving |= hooks.any_arriving();
                self.leaving |= hooks.any_leaving();
            }
            self.table.push(hooks);
        }
    }

    /// The hook of `kind` of component `id`, if it has one.
    #[inline]
    pub(in crate::world) fn get(&self, kind: HookKind, id: ComponentId) -> Option<ComponentHook> {
        self.table.get(id.index())?.get(kind)
    }

    /// Component `id`'s short name, as its hooks' errors give it.
    pub(in crate::world) fn name(&self, id: ComponentId) -> Arc<str> {
        Arc::clone(&self.table[id.index()].component)
    }

    /// Records the arrival hooks of `kind` that component `id` has, for
    /// `entity`, to run once the call's change is made.
    #[inline]
    pub(in crate::world) fn record(&mut self, kind: HookKind, id: ComponentId, entity: Entity) {
        if self.get(kind, id).is_some() {
            self.fired.push(HookCall {
                hook: kind,
                component: id,
                entity,
            });
        }
    }
}

impl World {
    /// The hooks of component type `T` in this world, to set those `T`
    /// does not declare itself: the way to hook a type the game does not
    /// own. Each kind can be set once per type (the builder's `on_add`,
    /// `on_insert`, ... panic on a second, their `try_` forms return the
    /// error); see [`ComponentHooks`] for when each runs.
    ///
    /// # Panics
    /// When an entity holds a `T` already: its value would leave through
    /// hooks it never arrived through (see
    /// [`try_register_component_hooks`](Self::try_register_component_hooks),
    /// which returns [`Error::HooksInUse`] instead).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Enemy;
    /// #[derive(Default)]
    /// struct EnemyCount(i32);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(EnemyCount::default());
    /// world
    ///     .register_component_hooks::<Enemy>()
    ///     .on_add(|mut world, _| world.resource_mut::<EnemyCount>().unwrap().0 += 1)
    ///     .on_remove(|mut world, _| world.resource_mut::<EnemyCount>().unwrap().0 -= 1);
    /// let a = world.spawn(Enemy);
    /// world.spawn(Enemy);
    /// world.despawn(a)?;
    /// assert_eq!(world.resource::<EnemyCount>()?.0, 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn register_component_hooks<T: Component>(&mut self) -> &mut ComponentHooks {
        match self.try_register_component_hooks::<T>() {
            Ok(hooks) => hooks,
            Err(error) => panic!("{error}"),
        }
    }

    /// As [`register_component_hooks`](Self::register_component_hooks),
    /// returning [`Error::HooksInUse`] instead of panicking when an entity
    /// holds a `T` already.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// world.spawn(Enemy);
    /// assert_eq!(
    ///     world.try_register_component_hooks::<Enemy>().unwrap_err().to_string(),
    ///     "the hooks of component `Enemy` cannot change once entities hold it (1 does): \
    ///      register them before the first `Enemy` arrives"
    /// );
    /// ```
    pub fn try_register_component_hooks<T: Component>(
        &mut self,
    ) -> Result<&mut ComponentHooks, Error> {
        let id = self.data.storages.register::<T>();
        let holders = self.data.storages.erased_by_id(id).len();
        if holders > 0 {
            return Err(Error::HooksInUse {
                component: self.data.storages.info(id).name().to_owned(),
                holders,
            });
        }
        let registry = &mut self.component_hooks;
        registry.sync(&self.data.storages);
        // The caller may set any hook through the reference: from here on,
        // the funnel looks for hooks of every kind (finding none costs a
        // table look per change).
        registry.arriving = true;
        registry.leaving = true;
        Ok(&mut registry.table[id.index()])
    }
}
