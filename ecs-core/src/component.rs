//! The `Component` trait and what a world records about each component type.

use core::any::TypeId;
use core::fmt;

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

/// What a world knows about one component type.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Velocity { x: f32, y: f32 }
///
/// let mut world = World::new();
/// let e = world.spawn(Velocity { x: 1.0, y: 0.0 });
/// let info = world.components_of(e)?.next().unwrap();
/// assert_eq!(info.name(), "Velocity");
/// assert_eq!(info.size(), 8);
/// assert!(info.type_name().ends_with("::Velocity"));
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ComponentInfo {
    id: ComponentId,
    type_id: TypeId,
    type_name: &'static str,
    name: Box<str>,
    size: usize,
    align: usize,
}

impl ComponentInfo {
    pub(crate) fn of<T: Component>(id: ComponentId) -> Self {
        let type_name = core::any::type_name::<T>();
        Self {
            id,
            type_id: TypeId::of::<T>(),
            type_name,
            name: ShortName(type_name).to_string().into_boxed_str(),
            size: size_of::<T>(),
            align: align_of::<T>(),
        }
    }

    /// The type's name without module paths, e.g. `Health<f32>`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health<T>(T);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(1.5f32));
    /// let info = world.components_of(e)?.next().unwrap();
    /// assert_eq!(info.name(), "Health<f32>");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The type's full name as `std::any::type_name` gives it, e.g. `game::Health<f32>`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health<T>(T);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(1.5f32));
    /// let info = world.components_of(e)?.next().unwrap();
    /// assert!(info.type_name().ends_with("::Health<f32>"));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    /// The size of one value in bytes; zero for tags.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health<T>(T);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(1.5f32));
    /// let info = world.components_of(e)?.next().unwrap();
    /// assert_eq!(info.size(), 4);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn size(&self) -> usize {
        self.size
    }

    /// The alignment of the type in bytes.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health<T>(T);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(1.5f32));
    /// let info = world.components_of(e)?.next().unwrap();
    /// assert_eq!(info.align(), 4);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn align(&self) -> usize {
        self.align
    }

    /// The type's `TypeId`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health<T>(T);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(1.5f32));
    /// let info = world.components_of(e)?.next().unwrap();
    /// assert_eq!(info.type_id(), std::any::TypeId::of::<Health<f32>>());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn type_id(&self) -> TypeId {
        self.type_id
    }

    /// The id this world gave the type.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health<T>(T);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(1.5f32));
    /// let info = world.components_of(e)?.next().unwrap();
    /// assert_eq!(info.id().index(), 0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn id(&self) -> ComponentId {
        self.id
    }
}

/// Formats a type name without its module paths: `alloc::vec::Vec<game::Pos>` as `Vec<Pos>`.
pub(crate) struct ShortName<'a>(pub(crate) &'a str);

impl fmt::Display for ShortName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while !rest.is_empty() {
            // A path is a run of identifier characters and `::` separators.
            let path_len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let (path, tail) = rest.split_at(path_len);
            f.write_str(path.rsplit("::").next().unwrap_or(path))?;
            let punct_len = tail
                .find(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
                .unwrap_or(tail.len());
            f.write_str(&tail[..punct_len])?;
            rest = &tail[punct_len..];
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::ShortName;

    fn short(name: &str) -> String {
        ShortName(name).to_string()
    }

    #[test]
    fn short_names_strip_every_path() {
        assert_eq!(short("game::Position"), "Position");
        assert_eq!(short("Position"), "Position");
        assert_eq!(short("alloc::vec::Vec<game::Pos>"), "Vec<Pos>");
        assert_eq!(
            short("core::option::Option<(a::B, &'static str, [c::D; 3])>"),
            "Option<(B, &'static str, [D; 3])>"
        );
        assert_eq!(
            short("alloc::boxed::Box<dyn core::ops::Fn() + core::marker::Send>"),
            "Box<dyn Fn() + Send>"
        );
    }
}
