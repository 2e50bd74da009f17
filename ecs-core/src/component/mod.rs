//! The `Component` trait, the ids a world gives component types, what it
//! records about each, and the per-entity mask of held components.

mod info;
mod mask;

pub use info::ComponentInfo;
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
pub trait Component: Send + Sync + 'static {}

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
