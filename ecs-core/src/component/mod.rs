//! The `Component` trait, the ids a world gives component types, what it
//! records about each, and the per-entity mask of held components.

mod clone;
mod debug;
mod info;
mod mask;

pub use clone::{CloneProbe, ViaClone, WithoutClone};
pub use debug::{DebugProbe, ViaDebug, WithoutDebug};
pub use info::ComponentInfo;

use core::fmt;

use crate::change::ComponentMut;
use crate::entity::{Entity, EntityMapper};
pub(crate) use mask::{ComponentMasks, MASKED_COMPONENTS, mask_bit, masked_ids};

/// A type that can be stored on entities.
///
/// Implement it with `#[derive(Component)]` on a struct (named, tuple or unit) or an
/// enum, generic or not. There is deliberately no blanket implementation: the
/// derive is where per-type options live, and it keeps stray types (a `&str`, a
/// tuple meant as a bundle) from becoming components by accident.
///
/// A component is any `Send + Sync + 'static` type, plain data or not: `String`,
/// `Vec`, `Box<dyn Fn() + Send + Sync>` all work, and every value is dropped exactly
/// once. A unit struct is a *tag*: it stores no data at all.
///
/// Options, written as `#[component(...)]` on the type:
/// - `track_changes`: the type's storage keeps, per value, the tick it was
///   added at and the tick it was last written at, so the filters
///   [`Added`](crate::query::Added) and [`Changed`](crate::query::Changed)
///   work for it; `&mut T` in a query (and `get_mut`) then yields a
///   [`Mut<T>`](crate::change::Mut) that marks the value changed when it is
///   written. A type without the option stores and pays nothing for this.
/// - `debug`: [`World::inspect`](crate::World::inspect) shows the type's
///   values through `Debug`; the impl is bounded by `Self: Debug`. Needed
///   only for generic types: for any other type the derive finds out by itself
///   whether it implements `Debug` (see [`as_debug`](Self::as_debug)).
/// - `on_add = f`, `on_insert = f`, `on_replace = f`, `on_remove = f`,
///   `on_despawn = f`: the type's [hooks](crate::ComponentHooks), functions
///   `fn(DeferredWorld, HookContext)` that run on every structural change of
///   the type, whichever path makes it (see [`ComponentHooks`](crate::ComponentHooks)
///   for when each runs).
/// - `crate = "path"`: the path of this crate, when it is renamed or re-exported
///   (the generated code names `::ecs_core` by default).
///
/// Fields marked `#[entity]` hold entity ids (`Entity`, `Option<Entity>`,
/// `Vec<Entity>`, arrays, or any [`MapEntities`](crate::MapEntities) type):
/// the derive implements [`map_entities`](Self::map_entities) for them, so the
/// ids follow their entities through [`World::merge`](crate::World::merge) and
/// snapshot loads.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug, PartialEq)]
/// struct Name(String);
///
/// #[derive(Component)]
/// struct Frozen; // a tag
///
/// #[derive(Component)]
/// enum Team { Red, Blue }
///
/// #[derive(Component)]
/// struct Health<T: Copy>(T);
///
/// let mut world = World::new();
/// let e = world.spawn((Name("orc".into()), Frozen, Team::Red, Health(3u8)));
/// assert_eq!(world.get::<Name>(e)?, &Name("orc".into()));
/// assert!(world.contains::<Frozen>(e));
/// # Ok::<(), Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a component",
    label = "not a component",
    note = "add `#[derive(Component)]` to the definition of `{Self}`"
)]
pub trait Component: Send + Sync + 'static {
    /// Whether the type tracks changes (`#[component(track_changes)]`): its
    /// storage then keeps an added and a changed tick per value. A constant,
    /// so the code for types that do not track compiles the ticks away.
    const TRACK_CHANGES: bool = false;

    /// What a query's `&mut T` (and `World::get_mut`) yields: `&'w mut Self`
    /// for a type that does not track changes, [`Mut<'w, Self>`](crate::change::Mut)
    /// for one that does. The derive sets it to match
    /// [`TRACK_CHANGES`](Self::TRACK_CHANGES).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Plain(u8);
    /// #[derive(Component)]
    /// #[component(track_changes)]
    /// struct Tracked(u8);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Plain(1), Tracked(2)));
    /// let _: &mut Plain = world.get_mut::<Plain>(e)?;
    /// let _: Mut<'_, Tracked> = world.get_mut::<Tracked>(e)?;
    /// # Ok::<(), Error>(())
    /// ```
    type Mut<'w>: ComponentMut<'w, Self>;

    /// Whether [`map_entities`](Self::map_entities) does anything: set by the
    /// derive when a field is marked `#[entity]`. A merge skips the values of
    /// a type that holds no ids.
    const MAPS_ENTITIES: bool = false;

    /// Replaces every entity id this value holds by `mapper`'s answer for it.
    /// The derive implements it for the fields marked `#[entity]`; by default
    /// it does nothing.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Door {
    ///     #[entity]
    ///     switch: Entity,
    ///     open: bool,
    /// }
    ///
    /// let mut world = World::new();
    /// let (a, b) = (world.spawn(()), world.spawn(()));
    /// let mut door = Door { switch: a, open: false };
    /// door.map_entities(&mut |_| b);
    /// assert_eq!(door.switch, b);
    /// ```
    #[inline]
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        let _ = mapper;
    }

    /// This value as `dyn Debug`, if its type implements `Debug`: what
    /// [`World::inspect`](crate::World::inspect) prints.
    ///
    /// `#[derive(Component)]` answers it by autoref detection at the type's
    /// definition: for a type without generic parameters, `Debug` is used
    /// exactly when the type implements it there. For a generic type that
    /// detection cannot see through the parameters, so the derive answers
    /// `None` unless the type carries `#[component(debug)]`, which bounds
    /// the impl by `Self: Debug` (so `Generic<T>` is a component for the `T`s
    /// it can be shown with). By default, `None`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Debug)]
    /// struct Shown(u8);
    /// #[derive(Component)]
    /// struct Hidden(u8);
    /// #[derive(Component, Debug)]
    /// #[component(debug)]
    /// struct Generic<T>(T);
    ///
    /// assert_eq!(format!("{:?}", Shown(1).as_debug().unwrap()), "Shown(1)");
    /// assert!(Hidden(1).as_debug().is_none());
    /// assert_eq!(format!("{:?}", Generic(2u8).as_debug().unwrap()), "Generic(2)");
    /// ```
    #[inline]
    fn as_debug(&self) -> Option<&dyn fmt::Debug> {
        None
    }

    /// A copy of this value, if its type implements `Clone`: what
    /// [`World::clone_entity`](crate::World::clone_entity) copies.
    /// `#[derive(Component)]` finds out by itself for a type without generic
    /// parameters; a generic type answers `None` unless it carries
    /// `#[component(clone)]`, which bounds the impl by `Self: Clone`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, PartialEq, Debug)]
    /// struct Copied(u8);
    /// #[derive(Component)]
    /// struct Unique(u8);
    ///
    /// assert_eq!(Copied(1).clone_value(), Some(Copied(1)));
    /// assert!(Unique(1).clone_value().is_none());
    /// ```
    #[inline]
    fn clone_value(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// Whether the type declares hooks (`#[component(on_add = f, ...)]`):
    /// a world then reads them with [`declare_hooks`](Self::declare_hooks)
    /// before the type's first arrival. A constant, so a type without hooks
    /// compiles that look away. Set by the derive.
    #[doc(hidden)]
    const DECLARES_HOOKS: bool = false;

    /// Sets the hooks the type declares on `hooks`, the world's
    /// [`ComponentHooks`](crate::ComponentHooks) of the type. Components
    /// sit below the world, which defines that type, so it arrives as
    /// `dyn Any`; the derive's code turns it back with one check, once per
    /// type and world. Implemented by the derive; a hand-written component
    /// sets its hooks with
    /// [`World::register_component_hooks`](crate::World::register_component_hooks).
    #[doc(hidden)]
    fn declare_hooks(hooks: &mut dyn core::any::Any) {
        let _ = hooks;
    }

    /// Whether the type is a relationship (`#[relationship(target = ..)]`):
    /// every insert of it is checked before it is made (its target alive,
    /// not the entity itself, no cycle), and its hooks keep its target's
    /// list in step. A constant, so other types compile the check away.
    /// Set by the derive.
    #[doc(hidden)]
    const IS_RELATIONSHIP: bool = false;

    /// Whether the type is a relationship's target list
    /// (`#[relationship_target(relationship = ..)]`): the world keeps it
    /// and refuses it from a game's inserts and spawns. Set by the derive.
    #[doc(hidden)]
    const IS_RELATIONSHIP_TARGET: bool = false;

    /// Whether the type requires other components
    /// (`#[component(requires(..))]`): inserting or spawning it adds those
    /// its entity lacks. A constant, so other types never look. Set by the
    /// derive.
    #[doc(hidden)]
    const REQUIRES: bool = false;

    /// Shows `visitor` each component type this type requires, with how to
    /// make its value, in the order declared. Implemented by the derive.
    #[doc(hidden)]
    fn visit_requirements<V: RequirementVisitor>(visitor: &mut V) {
        let _ = visitor;
    }

    /// For a relationship, its target list's type name; for a target list,
    /// its relationship's: what errors name. Set by the derive.
    #[doc(hidden)]
    const RELATIONSHIP_PARTNER: &'static str = "";

    /// For a relationship, the entity this value points at; `None` for
    /// every other type. Implemented by the derive.
    #[doc(hidden)]
    #[inline]
    fn relationship_target(&self) -> Option<Entity> {
        None
    }
}

/// What looks at a component type's requirements: the world, adding those
/// an entity lacks, and checking for cycles. Named by the derive's
/// generated code.
#[doc(hidden)]
pub trait RequirementVisitor {
    /// Component `R` is required; `make` gives its value.
    fn require<R: Component>(&mut self, make: impl FnOnce() -> R);
}

/// A component type that tracks changes: implemented by
/// `#[derive(Component)]` for types with `#[component(track_changes)]`, and
/// asked for by the filters [`Added`](crate::query::Added) and
/// [`Changed`](crate::query::Changed).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::TrackedComponent;
///
/// #[derive(Component)]
/// #[component(track_changes)]
/// struct Health(i32);
///
/// fn tracked<T: TrackedComponent>() -> bool {
///     T::TRACK_CHANGES
/// }
/// assert!(tracked::<Health>());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not track changes, so `Added` and `Changed` cannot ask about it",
    label = "change ticks are not kept for this type",
    note = "add `#[component(track_changes)]` to the definition of `{Self}`, beside `#[derive(Component)]`"
)]
pub trait TrackedComponent: Component {}

/// The dense id a world gives a component type, in the order types are first seen.
///
/// Ids are per world: the same type may have different ids in two worlds.
///
/// ```
/// use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct A;
/// let mut world = World::new();
/// let e = world.spawn(A);
/// let info = world.components_of(e)?.next().unwrap();
/// assert_eq!(info.id().index(), 0);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ComponentId(pub(crate) u32);

impl ComponentId {
    /// The id as an index into per-component tables.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct A;
    /// #[derive(Component)]
    /// struct B;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((A, B));
    /// let ids: Vec<usize> = world.components_of(e)?.map(|c| c.id().index()).collect();
    /// assert_eq!(ids, [0, 1]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
