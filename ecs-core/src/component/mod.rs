//! The `Component` trait, the ids a world gives component types, what it
//! records about each, and the per-entity mask of held components.

mod info;
mod mask;

pub use info::ComponentInfo;

use crate::change::ComponentMut;
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
/// - `crate = "path"`: the path of this crate, when it is renamed or re-exported
///   (the generated code names `::ecs_core` by default).
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
