//! The checks every insert and spawn of a relationship passes before
//! anything changes, so a refused one leaves the world as it was.

use crate::bundle::{Bundle, RelationshipVisitor};
use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;

use super::super::World;

impl World {
    /// Checks giving `entity` the `value` of a relationship or target type
    /// `T`: a target list is never given by hand; a relationship's target
    /// must be alive and must not be `entity` or reach it through `T`.
    /// `entity` is `None` for an entity not spawned yet, which nothing
    /// reaches.
    pub(in crate::world) fn check_relationship<T: Component>(
        &self,
        entity: Option<Entity>,
        value: &T,
    ) -> Result<(), Error> {
        if T::IS_RELATIONSHIP_TARGET {
            return Err(Error::RelationshipTargetByHand {
                entity: entity.unwrap_or_else(|| self.data.entities.peek_alloc(0)),
                component: core::any::type_name::<T>(),
                relationship: T::RELATIONSHIP_PARTNER,
            });
        }
        let Some(target) = value.relationship_target() else {
            return Ok(());
        };
        self.data.entities.check(target)?;
        let Some(entity) = entity else {
            return Ok(());
        };
        let cycle = Error::RelationshipCycle {
            entity,
            target,
            relationship: core::any::type_name::<T>(),
        };
        if target == entity {
            return Err(cycle);
        }
        let Some(set) = self.data.storages.get::<T>() else {
            return Ok(());
        };
        // The relationship is a forest, so the walk up ends; the bound
        // keeps it finite even if something broke that.
        let mut at = target;
        for _ in 0..=self.len() {
            match set.get(at).and_then(Component::relationship_target) {
                Some(up) if up == entity => return Err(cycle),
                Some(up) => at = up,
                None => return Ok(()),
            }
        }
        Ok(())
    }

    /// Checks every relationship and target in `bundle`, as
    /// [`check_relationship`](Self::check_relationship) does.
    #[inline]
    pub(in crate::world) fn check_bundle<B: Bundle>(
        &self,
        entity: Option<Entity>,
        bundle: &B,
    ) -> Result<(), Error> {
        if !B::RELATIONSHIPS {
            return Ok(());
        }
        bundle.visit_relationships(&mut RelationshipCheck {
            world: self,
            entity,
        })
    }
}

/// A bundle's relationships checked against a world, for `entity` (`None`
/// before a spawn).
pub(in crate::world) struct RelationshipCheck<'w> {
    world: &'w World,
    entity: Option<Entity>,
}

impl RelationshipVisitor for RelationshipCheck<'_> {
    fn visit<T: Component>(&mut self, value: &T) -> Result<(), Error> {
        self.world.check_relationship(self.entity, value)
    }
}
