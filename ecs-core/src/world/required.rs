//! Required components (`#[component(requires(A, B = expr))]`): inserting
//! or spawning a type adds the components it requires that its entity
//! lacks, recursively, each through the structural transaction, so hooks
//! and observers see them arrive. The world remembers which components
//! arrived that way ([`World::components_of`] says so) until they leave.

use core::any::TypeId;
use core::ops::Deref;
use std::collections::{HashMap, HashSet};

use crate::bundle::{Bundle, RequirementRoots};
use crate::component::{Component, ComponentId, ComponentInfo, RequirementVisitor};
use crate::entity::Entity;
use crate::error::Error;

use super::World;

/// Which components of which entities arrived as requirements, and which
/// types' requirements are known to be free of cycles.
#[derive(Default)]
pub(in crate::world) struct RequirementMarks {
    by_entity: HashMap<Entity, Vec<ComponentId>>,
    acyclic: HashSet<TypeId>,
}

impl RequirementMarks {
    /// Whether `id` on `entity` arrived as a requirement.
    pub(in crate::world) fn is_marked(&self, entity: Entity, id: ComponentId) -> bool {
        self.by_entity
            .get(&entity)
            .is_some_and(|ids| ids.contains(&id))
    }
}

impl RequirementMarks {
    /// Whether no component is marked.
    #[inline]
    pub(in crate::world) fn is_empty(&self) -> bool {
        self.by_entity.is_empty()
    }

    /// Forgets the mark of `id` on `entity`, which is leaving.
    pub(in crate::world) fn forget(&mut self, id: ComponentId, entity: Entity) {
        if let Some(ids) = self.by_entity.get_mut(&entity) {
            ids.retain(|&marked| marked != id);
            if ids.is_empty() {
                self.by_entity.remove(&entity);
            }
        }
    }

    /// Forgets every mark of `entity`, which is despawned.
    pub(in crate::world) fn forget_entity(&mut self, entity: Entity) {
        self.by_entity.remove(&entity);
    }

    /// Forgets every mark: the world is cleared.
    pub(in crate::world) fn forget_all(&mut self) {
        self.by_entity.clear();
    }
}

/// One component an entity holds, as [`World::components_of`] lists it:
/// its type's [`ComponentInfo`] (through `Deref`), and whether it arrived
/// as another component's requirement.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Default)]
/// struct Transform(f32);
/// #[derive(Component)]
/// #[component(requires(Transform))]
/// struct Sprite;
///
/// let mut world = World::new();
/// let e = world.spawn(Sprite);
/// let held: Vec<_> = world
///     .components_of(e)?
///     .map(|c| (c.name().to_owned(), c.added_as_requirement()))
///     .collect();
/// assert_eq!(held, [("Sprite".to_owned(), false), ("Transform".to_owned(), true)]);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct HeldComponent<'w> {
    info: &'w ComponentInfo,
    required: bool,
}

impl<'w> HeldComponent<'w> {
    pub(in crate::world) fn new(info: &'w ComponentInfo, required: bool) -> Self {
        Self { info, required }
    }

    /// The type's information, for as long as the world is borrowed.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct A;
    /// let mut world = World::new();
    /// let e = world.spawn(A);
    /// assert_eq!(world.components_of(e)?.next().unwrap().info().name(), "A");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn info(&self) -> &'w ComponentInfo {
        self.info
    }

    /// The type's short name, borrowed from the world (not from this
    /// handle), as [`ComponentInfo::name`] gives it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct A;
    /// let mut world = World::new();
    /// let e = world.spawn(A);
    /// let names: Vec<&str> = world.components_of(e)?.map(|c| c.name()).collect();
    /// assert_eq!(names, ["A"]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn name(&self) -> &'w str {
        self.info.name()
    }

    /// Whether the component arrived because another component required
    /// it, rather than being given itself.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct A;
    /// let mut world = World::new();
    /// let e = world.spawn(A);
    /// assert!(!world.components_of(e)?.next().unwrap().added_as_requirement());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn added_as_requirement(&self) -> bool {
        self.required
    }
}

impl Deref for HeldComponent<'_> {
    type Target = ComponentInfo;

    fn deref(&self) -> &ComponentInfo {
        self.info
    }
}

impl World {
    /// Checks that the requirements of `B`'s types form no cycle: once per
    /// type and world, before its first insert or spawn.
    #[inline]
    pub(in crate::world) fn check_requirements<B: Bundle>(&mut self) -> Result<(), Error> {
        if !B::REQUIRES {
            return Ok(());
        }
        let mut walk = CycleWalk {
            acyclic: &mut self.requirement_marks.acyclic,
            path: Vec::new(),
            error: None,
        };
        B::visit_required_roots(&mut walk);
        walk.error.map_or(Ok(()), Err)
    }

    /// [`add_required`](Self::add_required) for each of `entities`.
    #[inline]
    pub(in crate::world) fn add_required_each<B: Bundle>(&mut self, entities: &[Entity]) {
        if B::REQUIRES {
            for &entity in entities {
                self.add_required::<B>(entity);
            }
        }
    }

    /// Gives the live `entity` every component `B`'s types require that it
    /// lacks, and theirs, in declaration order, depth first.
    #[inline]
    pub(in crate::world) fn add_required<B: Bundle>(&mut self, entity: Entity) {
        if B::REQUIRES {
            B::visit_required_roots(&mut AddRequired {
                world: self,
                entity,
            });
        }
    }
}

/// The requirement graph walked from the types of a bundle, stopping at
/// the first cycle.
struct CycleWalk<'a> {
    acyclic: &'a mut HashSet<TypeId>,
    path: Vec<(TypeId, &'static str)>,
    error: Option<Error>,
}

impl CycleWalk<'_> {
    fn enter<T: Component>(&mut self) {
        if self.error.is_some() || !T::REQUIRES {
            return;
        }
        let id = TypeId::of::<T>();
        if let Some(at) = self.path.iter().position(|&(seen, _)| seen == id) {
            let mut cycle: Vec<&'static str> = self.path[at..].iter().map(|&(_, n)| n).collect();
            cycle.push(core::any::type_name::<T>());
            self.error = Some(Error::RequirementCycle { cycle });
            return;
        }
        if self.acyclic.contains(&id) {
            return;
        }
        self.path.push((id, core::any::type_name::<T>()));
        T::visit_requirements(self);
        self.path.pop();
        if self.error.is_none() {
            self.acyclic.insert(id);
        }
    }
}

impl RequirementVisitor for CycleWalk<'_> {
    fn require<R: Component>(&mut self, _: impl FnOnce() -> R) {
        self.enter::<R>();
    }
}

impl RequirementRoots for CycleWalk<'_> {
    fn root<T: Component>(&mut self) {
        self.enter::<T>();
    }
}

/// Requirements added to one entity.
struct AddRequired<'w> {
    world: &'w mut World,
    entity: Entity,
}

impl RequirementVisitor for AddRequired<'_> {
    fn require<R: Component>(&mut self, make: impl FnOnce() -> R) {
        let world = &mut *self.world;
        if !world.is_alive(self.entity) || world.contains::<R>(self.entity) {
            return;
        }
        let value = make();
        if (R::IS_RELATIONSHIP || R::IS_RELATIONSHIP_TARGET)
            && world.check_relationship(Some(self.entity), &value).is_err()
        {
            // A requirement never breaks a relationship: it is left out.
            return;
        }
        let id = world.data.storages.register::<R>();
        world
            .requirement_marks
            .by_entity
            .entry(self.entity)
            .or_default()
            .push(id);
        world.transaction().insert_required(self.entity, value);
        if R::REQUIRES {
            R::visit_requirements(self);
        }
    }
}

impl RequirementRoots for AddRequired<'_> {
    fn root<T: Component>(&mut self) {
        T::visit_requirements(self);
    }
}
