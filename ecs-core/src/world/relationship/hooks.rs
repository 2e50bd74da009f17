//! The hooks `#[relationship]` and `#[relationship_target]` give their
//! types, and the commands they leave for changes of structure.
//!
//! A source's `on_insert` puts it in its target's list (the list is made
//! by a command when the target has none); its `on_replace`, which runs
//! before a value is overwritten, removed or despawned, takes it out (the
//! list goes, by a command, with its last source). A list's `on_insert`
//! writes its sources' slots and drops repeats (a merge or a load brings
//! lists whose sources arrive too); its `on_replace` hands the sources on,
//! by a command: despawned with a dead target when linked, otherwise
//! stripped of the relationship.

use std::collections::HashSet;

use crate::entity::Entity;

use super::super::{DeferredWorld, HookContext, World};
use super::{ListKey, Relationship, RelationshipTarget};

/// `on_insert` of every relationship `R`: lists the entity on its target.
/// Named by the derive's generated code.
#[doc(hidden)]
pub fn relationship_on_insert<R: Relationship>(mut world: DeferredWorld, ctx: HookContext) {
    let source = ctx.entity;
    let Ok(value) = world.get::<R>(source) else {
        return;
    };
    let target = value.target();
    if target == source || !world.is_alive(target) {
        // Only a path that does not check can bring such a value (a merge
        // of ids mapped to nothing): it leaves again.
        world.commands().remove::<R>(source);
        return;
    }
    if world.contains::<R::Target>(target) {
        add_source::<R>(world.world_mut(), target, source);
    } else {
        world
            .commands()
            .add(move |world: &mut World| link_later::<R>(world, target, source));
    }
}

/// `on_replace` of every relationship `R`: takes the entity off its
/// target's list while the value still says which. Named by the derive's
/// generated code.
#[doc(hidden)]
pub fn relationship_on_replace<R: Relationship>(mut world: DeferredWorld, ctx: HookContext) {
    let source = ctx.entity;
    let Ok(value) = world.get::<R>(source) else {
        return;
    };
    let target = value.target();
    if remove_source::<R>(world.world_mut(), target, source) == Some(0) {
        world
            .commands()
            .add(move |world: &mut World| drop_if_empty::<R>(world, target));
    }
}

/// `on_insert` of every relationship target `T`: keeps the sources that
/// point here, each once, and records where each sits. A list the world
/// makes holds one source that does; a merge or a load brings lists whose
/// sources arrive with them (and may already have listed themselves), or,
/// from a snapshot that saved the lists but not the relationships, none.
/// Named by the derive's generated code.
#[doc(hidden)]
pub fn target_on_insert<T: RelationshipTarget>(mut world: DeferredWorld, ctx: HookContext) {
    let target = ctx.entity;
    if keep_pointing::<T>(world.world_mut(), target) == Some(0) {
        world
            .commands()
            .add(move |world: &mut World| drop_if_empty::<T::Relationship>(world, target));
    }
}

/// Keeps on `target`'s list of `T` the sources that point at it, each
/// once, and records where each sits; returns how many are left, or `None`
/// when `target` has no list.
fn keep_pointing<T: RelationshipTarget>(world: &mut World, target: Entity) -> Option<usize> {
    let World {
        data,
        relationship_slots,
        ..
    } = world;
    let pointing = |source: Entity| {
        data.storages
            .get::<T::Relationship>()
            .and_then(|set| set.get(source))
            .is_some_and(|value| value.target() == target)
    };
    let sources = data.storages.get::<T>()?.get(target)?.sources();
    let mut seen = HashSet::with_capacity(sources.len());
    let whole = sources
        .iter()
        .all(|&source| pointing(source) && seen.insert(source));
    if !whole {
        let mut seen = HashSet::with_capacity(sources.len());
        let kept: Vec<Entity> = sources
            .iter()
            .copied()
            .filter(|&source| pointing(source) && seen.insert(source))
            .collect();
        let (list, _) = data.storages.get_mut::<T>()?.get_mut(target)?;
        *list.sources_mut(ListKey::KEY) = kept;
    }
    let sources = data.storages.get::<T>()?.get(target)?.sources();
    relationship_slots.set_all::<T::Relationship>(sources);
    Some(sources.len())
}

/// `on_replace` of every relationship target `T`: the list is leaving (by
/// hand, or with its despawned entity), so its sources are handed on once
/// the change is made. Named by the derive's generated code.
#[doc(hidden)]
pub fn target_on_replace<T: RelationshipTarget>(mut world: DeferredWorld, ctx: HookContext) {
    let target = ctx.entity;
    let Ok(list) = world.get::<T>(target) else {
        return;
    };
    if list.sources().is_empty() {
        return;
    }
    let sources = list.sources().to_vec();
    world
        .commands()
        .add(move |world: &mut World| release::<T>(world, target, sources));
}

/// Appends `source` to `target`'s list of `R`, which exists, unless it is
/// listed already (a merge brings both sides).
fn add_source<R: Relationship>(world: &mut World, target: Entity, source: Entity) {
    let World {
        data,
        relationship_slots,
        ..
    } = world;
    let Some((list, _)) = data
        .storages
        .get_mut::<R::Target>()
        .and_then(|set| set.get_mut(target))
    else {
        return;
    };
    let sources = list.sources_mut(ListKey::KEY);
    let hint = relationship_slots.get::<R>(source);
    if hint.is_some_and(|slot| sources.get(slot) == Some(&source)) {
        return;
    }
    sources.push(source);
    relationship_slots.set::<R>(source, sources.len() - 1);
}

/// Takes `source` off `target`'s list of `R`, moving the last source into
/// its place; returns how many sources are left, or `None` when `target`
/// has no list or `source` is not on it.
fn remove_source<R: Relationship>(
    world: &mut World,
    target: Entity,
    source: Entity,
) -> Option<usize> {
    let World {
        data,
        relationship_slots,
        ..
    } = world;
    let (list, _) = data.storages.get_mut::<R::Target>()?.get_mut(target)?;
    let sources = list.sources_mut(ListKey::KEY);
    let slot = relationship_slots.find::<R>(sources, source)?;
    sources.swap_remove(slot);
    if let Some(&moved) = sources.get(slot) {
        relationship_slots.set::<R>(moved, slot);
    }
    Some(sources.len())
}

/// Lists `source` on `target` once the call that gave it `R` is done, when
/// `target` had no list then: made here if it still has none.
fn link_later<R: Relationship>(world: &mut World, target: Entity, source: Entity) {
    let still = world
        .get::<R>(source)
        .is_ok_and(|value| value.target() == target);
    if !still || !world.is_alive(target) {
        return;
    }
    if world.contains::<R::Target>(target) {
        add_source::<R>(world, target, source);
    } else {
        world.relationship_slots.set::<R>(source, 0);
        world
            .transaction()
            .insert(target, R::Target::from_sources(vec![source], ListKey::KEY));
    }
}

/// Takes the list of `R` away from `target` if no source is left on it.
fn drop_if_empty<R: Relationship>(world: &mut World, target: Entity) {
    let empty = world
        .get::<R::Target>(target)
        .is_ok_and(|list| list.sources().is_empty());
    if empty {
        world.transaction().remove::<R::Target>(target);
    }
}

/// Hands on the `sources` that pointed at `target`, whose list of `T` is
/// gone: despawned, deepest first, when `target` is dead and the
/// relationship is linked; otherwise stripped of the relationship.
fn release<T: RelationshipTarget>(world: &mut World, target: Entity, sources: Vec<Entity>) {
    let pointing = |world: &World, source: Entity| {
        world
            .get::<T::Relationship>(source)
            .is_ok_and(|value| value.target() == target)
    };
    if T::LINKED_SPAWN && !world.is_alive(target) {
        let mut doomed = Vec::new();
        for source in sources {
            if pointing(world, source) {
                subtree::<T>(world, source, &mut doomed);
            }
        }
        // Deepest first: each leaves a list that still exists, and no
        // despawn below waits on another's commands.
        for entity in doomed.into_iter().rev() {
            if world.is_alive(entity) {
                world.transaction().despawn(entity);
            }
        }
    } else {
        for source in sources {
            if pointing(world, source) {
                world.transaction().remove::<T::Relationship>(source);
            }
        }
    }
}

/// Appends `root` and every entity below it through `T`'s lists, each
/// before the entities below it.
pub(super) fn subtree<T: RelationshipTarget>(world: &World, root: Entity, into: &mut Vec<Entity>) {
    let start = into.len();
    into.push(root);
    let mut next = start;
    while next < into.len() {
        let entity = into[next];
        next += 1;
        if let Ok(list) = world.get::<T>(entity) {
            into.extend_from_slice(list.sources());
        }
    }
}
