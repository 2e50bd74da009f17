//! Listing what entities hold, as text: `world.inspect(e)` and
//! `world.inspect_all()`, for logs and debugging.
//!
//! An inspection borrows the world instead of formatting up front, so taking
//! one costs a walk over the entity's components and nothing more; the text is
//! only made when it is printed.

use core::fmt;

use crate::component::ComponentInfo;
use crate::entity::Entity;
use crate::error::Error;

use super::World;
use super::structural::held_components;

impl World {
    /// What `entity` holds: each component's type and, where the type shows
    /// it (see [`Component::as_debug`](crate::Component::as_debug)), its
    /// value. Printed, it is one line:
    /// `5v2 { Position { x: 1.0, y: 2.0 }, Velocity { .. }, Enemy }`.
    ///
    /// Fails, as [`get`](Self::get) does, when `entity` is not alive.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Debug)]
    /// struct Position { x: f32, y: f32 }
    /// #[derive(Component)]
    /// struct Velocity { x: f32, y: f32 }
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Position { x: 1.0, y: 2.0 }, Velocity { x: 0.0, y: 1.0 }, Enemy));
    /// assert_eq!(
    ///     world.inspect(e)?.to_string(),
    ///     "0v1 { Position { x: 1.0, y: 2.0 }, Velocity { .. }, Enemy }"
    /// );
    /// world.despawn(e)?;
    /// assert_eq!(world.inspect(e).unwrap_err().to_string(), "entity 0v1 was despawned");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn inspect(&self, entity: Entity) -> Result<EntityInspection<'_>, Error> {
        self.data.entities.check(entity)?;
        Ok(self.inspect_live(entity))
    }

    /// Every live entity's [`EntityInspection`], in index order; printed, one
    /// line per entity. Meant for small worlds: it prints them all.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Debug)]
    /// struct Health(i32);
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// world.spawn(Health(3));
    /// world.spawn((Health(1), Enemy));
    /// assert_eq!(world.inspect_all().to_string(), "0v1 { Health(3) }\n1v1 { Health(1), Enemy }");
    /// ```
    pub fn inspect_all(&self) -> WorldInspection<'_> {
        WorldInspection { world: self }
    }

    fn inspect_live(&self, entity: Entity) -> EntityInspection<'_> {
        let storages = &self.data.storages;
        let components = held_components(storages, &self.data.masks, entity)
            .map(|id| ComponentInspection {
                info: storages.info(id),
                value: storages.erased_by_id(id).debug_value(entity),
            })
            .collect();
        EntityInspection { entity, components }
    }
}

/// What one entity holds, from [`World::inspect`]: its components in
/// component id order (the order the world first saw their types).
///
/// `Display` prints one line, `5v2 { Position { x: 1.0, y: 2.0 }, Enemy }`
/// (each component as [`ComponentInspection`] prints it); `{:#}` prints one
/// component per line, values pretty-printed.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug)]
/// struct Position { x: f32, y: f32 }
/// #[derive(Component)]
/// struct Enemy;
///
/// let mut world = World::new();
/// let e = world.spawn((Position { x: 1.0, y: 2.0 }, Enemy));
/// let inspection = world.inspect(e)?;
/// assert_eq!(inspection.entity(), e);
/// assert_eq!(inspection.to_string(), "0v1 { Position { x: 1.0, y: 2.0 }, Enemy }");
/// assert_eq!(
///     format!("{inspection:#}"),
///     "0v1 {\n    Position {\n        x: 1.0,\n        y: 2.0,\n    },\n    Enemy,\n}"
/// );
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone)]
pub struct EntityInspection<'w> {
    entity: Entity,
    components: Vec<ComponentInspection<'w>>,
}

impl<'w> EntityInspection<'w> {
    /// The entity inspected.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert_eq!(world.inspect(e)?.entity(), e);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn entity(&self) -> Entity {
        self.entity
    }

    /// The components the entity holds, in component id order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32, f32);
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Position(1.0, 2.0), Enemy));
    /// let inspection = world.inspect(e)?;
    /// let names: Vec<_> = inspection.components().iter().map(|c| c.name()).collect();
    /// assert_eq!(names, ["Position", "Enemy"]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn components(&self) -> &[ComponentInspection<'w>] {
        &self.components
    }

    /// The component whose short [`name`](ComponentInspection::name) is
    /// `name` (`"Health<f32>"` for a generic type), if the entity holds one.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(7));
    /// let inspection = world.inspect(e)?;
    /// assert_eq!(format!("{:?}", inspection.get("Health").unwrap().debug().unwrap()), "Health(7)");
    /// assert!(inspection.get("Mana").is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn get(&self, name: &str) -> Option<&ComponentInspection<'w>> {
        self.components.iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for EntityInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.entity)?;
        if f.alternate() {
            // A set's pretty form indents nested lines, which is what a
            // pretty-printed value inside a list needs.
            return f
                .debug_set()
                .entries(self.components.iter().map(Shown))
                .finish();
        }
        if self.components.is_empty() {
            return f.write_str("{}");
        }
        f.write_str("{ ")?;
        for (i, component) in self.components.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{component}")?;
        }
        f.write_str(" }")
    }
}

impl fmt::Debug for EntityInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EntityInspection")
            .field("entity", &self.entity)
            .field(
                "components",
                &self.components.iter().map(Shown).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// One component of an inspected entity: its type, and its value where the
/// type shows it.
///
/// `Display` prints the value's `Debug` text (`{:#}`: pretty-printed); for a
/// type without `Debug`, a tag (zero-sized) prints its short name, `Enemy`,
/// and any other type its name and an ellipsis, `Velocity { .. }`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug)]
/// struct Health(i32);
/// #[derive(Component)]
/// struct Velocity(f32);
/// #[derive(Component)]
/// struct Enemy;
///
/// let mut world = World::new();
/// let e = world.spawn((Health(3), Velocity(1.0), Enemy));
/// let inspection = world.inspect(e)?;
/// let shown: Vec<String> = inspection.components().iter().map(|c| c.to_string()).collect();
/// assert_eq!(shown, ["Health(3)", "Velocity { .. }", "Enemy"]);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct ComponentInspection<'w> {
    info: &'w ComponentInfo,
    value: Option<&'w dyn fmt::Debug>,
}

impl<'w> ComponentInspection<'w> {
    /// What the world knows about the component's type.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(3));
    /// assert_eq!(world.inspect(e)?.components()[0].info().align(), 4);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn info(&self) -> &'w ComponentInfo {
        self.info
    }

    /// The type's name without module paths, e.g. `Health<f32>`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health<T>(T);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(3.0f32));
    /// assert_eq!(world.inspect(e)?.components()[0].name(), "Health<f32>");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn name(&self) -> &'w str {
        self.info.name()
    }

    /// The type's full name, as `std::any::type_name` gives it.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(3));
    /// assert!(world.inspect(e)?.components()[0].type_name().ends_with("::Health"));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn type_name(&self) -> &'static str {
        self.info.type_name()
    }

    /// The size of one value in bytes.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(3));
    /// assert_eq!(world.inspect(e)?.components()[0].size(), 4);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn size(&self) -> usize {
        self.info.size()
    }

    /// Whether the type is zero-sized: a marker that holds no data.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Health(3), Enemy));
    /// let tags: Vec<_> = world.inspect(e)?.components().iter().map(|c| c.is_tag()).collect();
    /// assert_eq!(tags, [false, true]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn is_tag(&self) -> bool {
        self.info.size() == 0
    }

    /// The value as `dyn Debug`, if its type shows it
    /// (see [`Component::as_debug`](crate::Component::as_debug)).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug)]
    /// struct Health(i32);
    /// #[derive(Component)]
    /// struct Secret(u64);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Health(3), Secret(42)));
    /// let inspection = world.inspect(e)?;
    /// assert_eq!(format!("{:?}", inspection.components()[0].debug().unwrap()), "Health(3)");
    /// assert!(inspection.components()[1].debug().is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn debug(&self) -> Option<&'w dyn fmt::Debug> {
        self.value
    }
}

impl fmt::Display for ComponentInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            // Written out rather than forwarded, so width or precision asked
            // of the inspection never reaches the value's fields.
            Some(value) if f.alternate() => write!(f, "{value:#?}"),
            Some(value) => write!(f, "{value:?}"),
            None if self.is_tag() => f.write_str(self.name()),
            None => write!(f, "{} {{ .. }}", self.name()),
        }
    }
}

impl fmt::Debug for ComponentInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ComponentInspection")
            .field("name", &self.name())
            .field("size", &self.size())
            .field("value", &Shown(self))
            .finish()
    }
}

/// Every live entity of a world, from [`World::inspect_all`]: iterate it for
/// each [`EntityInspection`] in index order, or print it, one line per entity
/// (`{:#}`: each entity as its own `{:#}` prints it).
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug)]
/// struct Health(i32);
///
/// let mut world = World::new();
/// let a = world.spawn(Health(3));
/// world.spawn(());
/// let all = world.inspect_all();
/// assert_eq!(all.len(), 2);
/// assert_eq!(all.iter().next().unwrap().entity(), a);
/// assert_eq!(all.to_string(), "0v1 { Health(3) }\n1v1 {}");
/// ```
#[derive(Clone, Copy)]
pub struct WorldInspection<'w> {
    world: &'w World,
}

impl<'w> WorldInspection<'w> {
    /// Each live entity's inspection, in index order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let (a, b) = (world.spawn(Enemy), world.spawn(()));
    /// let all = world.inspect_all();
    /// let held: Vec<_> = all.iter().map(|i| (i.entity(), i.components().len())).collect();
    /// assert_eq!(held, [(a, 1), (b, 0)]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = EntityInspection<'w>> + 'w {
        let world = self.world;
        world
            .data
            .entities
            .iter_alive()
            .map(move |entity| world.inspect_live(entity))
    }

    /// The number of live entities.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.spawn(());
    /// assert_eq!(world.inspect_all().len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.world.len()
    }

    /// Whether the world has no live entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert!(World::new().inspect_all().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.world.is_empty()
    }
}

impl fmt::Display for WorldInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, entity) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            if f.alternate() {
                write!(f, "{entity:#}")?;
            } else {
                write!(f, "{entity}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for WorldInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A component as its `Display` prints it, for `Debug` lists and sets.
struct Shown<'a, 'w>(&'a ComponentInspection<'w>);

impl fmt::Debug for Shown<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.0, f)
    }
}
