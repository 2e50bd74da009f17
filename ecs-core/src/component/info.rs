//! What a world records about one component type.

use core::any::TypeId;

use crate::util::ShortName;

use super::{Component, ComponentId};

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
    /// The type's [`Component::DECLARES_HOOKS`].
    declares_hooks: bool,
    /// The type's [`Component::declare_hooks`].
    declare_hooks: fn(&mut dyn core::any::Any),
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
            declares_hooks: T::DECLARES_HOOKS,
            declare_hooks: T::declare_hooks,
        }
    }

    /// Whether the type declares hooks on itself ([`Component::DECLARES_HOOKS`]).
    pub(crate) fn declares_hooks(&self) -> bool {
        self.declares_hooks
    }

    /// Sets the hooks the type declares on `hooks` (the world's
    /// `ComponentHooks` of the type): [`Component::declare_hooks`].
    pub(crate) fn declare_hooks(&self, hooks: &mut dyn core::any::Any) {
        (self.declare_hooks)(hooks);
    }

    /// The same description under the id another world gives the type.
    pub(crate) fn with_id(&self, id: ComponentId) -> Self {
        Self { id, ..self.clone() }
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
