//! Copying entities: [`World::clone_entity`], and a whole subtree with
//! [`World::clone_entity_recursive`]. Each type copies itself through
//! `Clone`, which `#[derive(Component)]` detects; types that cannot be
//! copied are named, never silently left out.

use std::panic::{self, AssertUnwindSafe};

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::error::Error;
use crate::util::DeferredPanic;

use super::relationship::TreeNode;
use super::{ChildOf, Children, World};

/// What a clone made: the copies, and the components that could not be
/// copied because their type does not implement `Clone`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Clone)]
/// struct Hull(u32);
/// #[derive(Component)]
/// struct Pilot(String);
///
/// let mut world = World::new();
/// let ship = world.spawn((Hull(100), Pilot("Ada".into())));
/// let report = world.clone_entity_report(ship)?;
/// assert_eq!(world.get::<Hull>(report.entity())?.0, 100);
/// assert!(!world.contains::<Pilot>(report.entity()));
/// assert_eq!(report.not_cloned(), &[(report.entity(), "Pilot".to_owned())]);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CloneReport {
    clones: Vec<(Entity, Entity)>,
    not_cloned: Vec<(Entity, String)>,
}

impl CloneReport {
    /// The copy of the entity the clone started from.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// let copy = world.clone_entity_report(e)?.entity();
    /// assert!(world.is_alive(copy) && copy != e);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn entity(&self) -> Entity {
        self.clones[0].1
    }

    /// Each original and its copy, the starting entity first, then its
    /// subtree depth first.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(children![()]);
    /// let report = world.clone_entity_recursive(root)?;
    /// assert_eq!(report.clones().len(), 2);
    /// assert_eq!(report.clones()[0], (root, report.entity()));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn clones(&self) -> &[(Entity, Entity)] {
        &self.clones
    }

    /// The copies that lack a component of their original, with that
    /// component's type name, because the type does not implement `Clone`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert!(world.clone_entity_report(e)?.not_cloned().is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn not_cloned(&self) -> &[(Entity, String)] {
        &self.not_cloned
    }
}

impl World {
    /// Spawns a copy of `entity`: every component, each through its
    /// `Clone`, with the hooks and observers of each arrival. A relationship
    /// is copied as any value, so a clone of a child is a child of the same
    /// parent; the clone has no children of its own (a target list follows
    /// from relationships, see [`clone_entity_recursive`](Self::clone_entity_recursive)).
    ///
    /// Fails, changing nothing, when `entity` is not alive or holds a
    /// component whose type does not implement `Clone`
    /// ([`Error::NotCloneable`], naming them; a generic type is cloned
    /// only with `#[component(clone)]`). [`clone_entity_report`](Self::clone_entity_report)
    /// copies what it can instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Debug, PartialEq)]
    /// struct Turret(u8);
    ///
    /// let mut world = World::new();
    /// let ship = world.spawn(());
    /// let turret = world.spawn((Turret(2), ChildOf(ship)));
    /// let copy = world.clone_entity(turret)?;
    /// assert_eq!(world.get::<Turret>(copy)?, &Turret(2));
    /// assert_eq!(world.get::<Children>(ship)?.as_slice(), &[turret, copy]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn clone_entity(&mut self, entity: Entity) -> Result<Entity, Error> {
        self.data.entities.check(entity)?;
        let blocked: Vec<String> = self
            .components_of(entity)?
            .filter(|held| !self.data.storages.erased_by_id(held.id()).can_clone(entity))
            .map(|held| held.name().to_owned())
            .collect();
        if !blocked.is_empty() {
            return Err(Error::NotCloneable {
                entity,
                components: blocked,
            });
        }
        Ok(self.clone_entity_report(entity)?.entity())
    }

    /// As [`clone_entity`](Self::clone_entity), copying the components that
    /// can be copied and naming the others in the report.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Handle(std::fs::File);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// let report = world.clone_entity_report(e)?;
    /// assert!(report.not_cloned().is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn clone_entity_report(&mut self, entity: Entity) -> Result<CloneReport, Error> {
        self.data.entities.check(entity)?;
        let mut report = CloneReport {
            clones: Vec::new(),
            not_cloned: Vec::new(),
        };
        self.clone_one(entity, &mut report);
        Ok(report)
    }

    /// Copies `entity` and its whole subtree of [`Children`]:
    /// each copy of a child is a child of its parent's copy, so the copies
    /// form the same tree, under the original's parent if it has one.
    /// Components that cannot be copied are named in the report. Linear in
    /// the subtree's size, however deep.
    ///
    /// The tree copied is the one the call starts with, whatever the hooks
    /// and observers of the copies' arrivals do to the originals. All or
    /// nothing: when one of them despawns an original not copied yet
    /// ([`Error::Despawned`]) or a copy, or panics, every copy made so far
    /// is despawned before the error or panic reaches the caller. A loop
    /// in the hierarchy is [`Error::RelationshipCycle`], with nothing copied.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone)]
    /// struct Name(&'static str);
    ///
    /// let mut world = World::new();
    /// let ship = world.spawn((Name("ship"), children![(Name("turret"), children![(Name("gun"),)])]));
    /// let report = world.clone_entity_recursive(ship)?;
    /// let copy = report.entity();
    /// let names: Vec<_> = world.descendants(copy).map(|e| world.get::<Name>(e).unwrap().0).collect();
    /// assert_eq!(names, ["turret", "gun"]);
    /// assert_eq!(world.descendants(ship).count(), 2, "the original keeps its own");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn clone_entity_recursive(&mut self, entity: Entity) -> Result<CloneReport, Error> {
        self.data.entities.check(entity)?;
        // The tree as it stands now is what gets copied: observers of the
        // copies' arrivals may move or despawn originals, and must not
        // change which copy becomes whose child.
        let tree = self.subtree::<Children>(entity)?;
        let mut report = CloneReport {
            clones: Vec::with_capacity(tree.len()),
            not_cloned: Vec::new(),
        };
        let copied = panic::catch_unwind(AssertUnwindSafe(|| self.clone_tree(&tree, &mut report)));
        match copied {
            Ok(Ok(())) => Ok(report),
            Ok(Err(error)) => {
                self.despawn_copies(&report).resume();
                Err(error)
            }
            Err(payload) => {
                // The copy's own panic is the one the caller gets; a later
                // one of the clean-up is dropped.
                drop(self.despawn_copies(&report));
                panic::resume_unwind(payload)
            }
        }
    }

    /// Copies each entity of `tree` in turn, each copy a child of its
    /// parent's copy. Stops at the first original an observer despawned, or
    /// copy it re-parented out of reach.
    fn clone_tree(&mut self, tree: &[TreeNode], report: &mut CloneReport) -> Result<(), Error> {
        for (at, node) in tree.iter().enumerate() {
            self.data.entities.check(node.entity)?;
            let copy = self.clone_one(node.entity, report);
            if at > 0 {
                // `clones` lists copies in `tree`'s order, so the parent's
                // copy sits at the parent's position.
                let parent_copy = report.clones[node.parent].1;
                self.adopt_copy(copy, parent_copy)?;
            }
        }
        Ok(())
    }

    /// Makes `copy` a child of `parent_copy`, as `insert(copy,
    /// ChildOf(parent_copy))` does. A copy that no entity points at (the
    /// usual case: its children are copied after it) cannot be above its
    /// parent, so the loop check, which walks every ancestor, is left out:
    /// a chain copies in linear time, however deep.
    fn adopt_copy(&mut self, copy: Entity, parent_copy: Entity) -> Result<(), Error> {
        if self.contains::<Children>(copy) {
            return self.insert(copy, ChildOf(parent_copy)).map(drop);
        }
        self.data.entities.check(copy)?;
        // Both alive, and the copy allocated after its parent's copy: two
        // distinct entities, so not the copy's own parent either.
        self.data.entities.check(parent_copy)?;
        self.transaction().insert(copy, ChildOf(parent_copy));
        Ok(())
    }

    /// Despawns the copies `report` lists, the deepest first, keeping the
    /// first panic of their departures for the caller to raise: a recursive
    /// clone that fails leaves none of its copies behind.
    fn despawn_copies(&mut self, report: &CloneReport) -> DeferredPanic {
        let mut panics = DeferredPanic::default();
        for &(_, copy) in report.clones.iter().rev() {
            if self.is_alive(copy) {
                panics.run(|| {
                    let _ = self.despawn(copy);
                });
            }
        }
        panics
    }

    /// Copies one live entity, recording it in `report`.
    fn clone_one(&mut self, entity: Entity, report: &mut CloneReport) -> Entity {
        let mut not_cloned: Vec<ComponentId> = Vec::new();
        self.transaction()
            .clone_entity(entity, &mut report.clones, &mut not_cloned);
        let copy = report.clones[report.clones.len() - 1].1;
        for id in not_cloned {
            let name = self.data.storages.info(id).name().to_owned();
            report.not_cloned.push((copy, name));
        }
        copy
    }
}
