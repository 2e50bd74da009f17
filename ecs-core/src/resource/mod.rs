//! Resources: one value per type, owned by the world beside its entities
//! (a clock, a score, a spatial grid), with no entity attached.

use core::any::{Any, TypeId};
use core::hash::BuildHasherDefault;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU64, Ordering};
use std::collections::HashMap;

use crate::util::{DeferredPanic, TypeIdHasher};

/// One resource, owned through the root raw pointer of its box, with the
/// type name its errors and debug output give.
///
/// Invariant: `root` comes from `Box::into_raw` and is freed only by `Drop`
/// or `into_value`; every pointer to the value that outlives one call (a
/// system's `ResMut`) is a copy of `root`, never derived from a `&mut`.
struct ResourceCell {
    root: NonNull<dyn Any + Send + Sync>,
    /// The value's type, kept apart so checking it never touches the value,
    /// which a system may be writing on another thread.
    type_id: TypeId,
    name: &'static str,
    ticks: ResourceTicks,
}

/// When a resource was inserted and last written, in change ticks.
///
/// Atomics, because a `ResMut` stamps its write through `&Resources` while
/// other systems of its batch read other cells of the same map; only the
/// system holding the resource's write access stores to them during a frame.
#[derive(Debug, Default)]
pub(crate) struct ResourceTicks {
    added: AtomicU64,
    changed: AtomicU64,
}

impl ResourceTicks {
    fn new(tick: u64) -> Self {
        Self {
            added: AtomicU64::new(tick),
            changed: AtomicU64::new(tick),
        }
    }

    /// The tick the value was inserted at.
    #[inline]
    pub(crate) fn added(&self) -> u64 {
        self.added.load(Ordering::Relaxed)
    }

    /// The tick the value was last written at.
    #[inline]
    pub(crate) fn changed(&self) -> u64 {
        self.changed.load(Ordering::Relaxed)
    }

    /// Records a write at `tick`.
    #[inline]
    pub(crate) fn mark_changed(&self, tick: u64) {
        self.changed.store(tick, Ordering::Relaxed);
    }
}

// SAFETY: the cell owns a `Send + Sync` value, as a `Box` of it would.
unsafe impl Send for ResourceCell {}
// SAFETY: through `&ResourceCell` only `type_id`, `name` and copies of `root`
// are read; the value is `Sync`, so threads may read it at once, and a copy of
// the root is written through only by a `ResMut` or `EventWriter` param,
// whose system runs beside no other user of that resource (the schedule
// checks their access), or whose observer runs with the world to itself.
unsafe impl Sync for ResourceCell {}

impl ResourceCell {
    fn new<R: Send + Sync + 'static>(value: R, tick: u64) -> Self {
        let boxed: Box<dyn Any + Send + Sync> = Box::new(value);
        Self {
            root: NonNull::from(Box::leak(boxed)),
            type_id: TypeId::of::<R>(),
            name: core::any::type_name::<R>(),
            ticks: ResourceTicks::new(tick),
        }
    }

    /// The value as an `R`, through a copy of the root pointer.
    fn typed<R: 'static>(&self) -> NonNull<R> {
        assert!(
            self.type_id == TypeId::of::<R>(),
            "a resource cell holds the type it is keyed by"
        );
        self.root.cast::<R>()
    }

    fn into_value<R: 'static>(self) -> R {
        let root = self.typed::<R>();
        core::mem::forget(self);
        // SAFETY: `root` came from `Box::into_raw` of an `R` (checked by
        // `typed`), and forgetting the cell hands its ownership to this box.
        *unsafe { Box::from_raw(root.as_ptr()) }
    }
}

impl Drop for ResourceCell {
    fn drop(&mut self) {
        // SAFETY: the cell owns the box behind `root`; `into_value` forgets
        // the cell, so this is the only other place it is freed.
        drop(unsafe { Box::from_raw(self.root.as_ptr()) });
    }
}

/// Every resource of a world, keyed by type.
///
/// Invariant: the cell under `TypeId::of::<R>()` holds an `R`.
#[derive(Default)]
pub(crate) struct Resources {
    cells: HashMap<TypeId, ResourceCell, BuildHasherDefault<TypeIdHasher>>,
}

impl Resources {
    /// Stores `value`, returning the `R` it replaces; its added and changed
    /// ticks are 0, older than any system's run.
    pub(crate) fn insert<R: Send + Sync + 'static>(&mut self, value: R) -> Option<R> {
        self.insert_at(value, 0)
    }

    /// Stores `value` as added and changed at `tick`, returning the `R` it
    /// replaces.
    pub(crate) fn insert_at<R: Send + Sync + 'static>(&mut self, value: R, tick: u64) -> Option<R> {
        let previous = self
            .cells
            .insert(TypeId::of::<R>(), ResourceCell::new(value, tick))?;
        Some(previous.into_value())
    }

    /// The `R`'s root pointer with its ticks, if there is one.
    #[inline]
    pub(crate) fn lookup_ticked<R: Send + Sync + 'static>(
        &self,
    ) -> Option<(NonNull<R>, &ResourceTicks)> {
        let cell = self.cells.get(&TypeId::of::<R>())?;
        Some((cell.typed::<R>(), &cell.ticks))
    }

    /// The ticks of the `R`, if there is one.
    #[inline]
    pub(crate) fn ticks<R: Send + Sync + 'static>(&self) -> Option<&ResourceTicks> {
        Some(&self.cells.get(&TypeId::of::<R>())?.ticks)
    }

    /// The root pointer to the `R`, if there is one: what systems keep for a
    /// frame. Reading or writing through it is sound only while the world
    /// stays borrowed and no other access to the `R` conflicts with it.
    #[inline]
    pub(crate) fn lookup<R: Send + Sync + 'static>(&self) -> Option<NonNull<R>> {
        Some(self.cells.get(&TypeId::of::<R>())?.typed::<R>())
    }

    /// The `R`, if there is one.
    #[inline]
    pub(crate) fn get<R: Send + Sync + 'static>(&self) -> Option<&R> {
        // SAFETY: the cell lives while `self` is borrowed; `&self` rules out
        // writers through `&mut self`, and system writers are ordered apart
        // from readers by their access.
        self.lookup::<R>().map(|root| unsafe { root.as_ref() })
    }

    /// The `R`, mutably, if there is one.
    #[inline]
    pub(crate) fn get_mut<R: Send + Sync + 'static>(&mut self) -> Option<&mut R> {
        // SAFETY: `&mut self` makes this the only access to every cell.
        self.lookup::<R>().map(|mut root| unsafe { root.as_mut() })
    }

    /// Takes the `R` out, if there is one.
    pub(crate) fn remove<R: Send + Sync + 'static>(&mut self) -> Option<R> {
        Some(self.cells.remove(&TypeId::of::<R>())?.into_value())
    }

    /// Whether there is an `R`.
    pub(crate) fn contains<R: Send + Sync + 'static>(&self) -> bool {
        self.cells.contains_key(&TypeId::of::<R>())
    }

    /// Moves every resource of `other` whose type this world lacks here,
    /// leaving the rest in `other` (to drop with it); returns the types moved.
    pub(crate) fn adopt_absent(&mut self, other: &mut Resources) -> Vec<TypeId> {
        let absent: Vec<TypeId> = other
            .cells
            .keys()
            .filter(|type_id| !self.cells.contains_key(type_id))
            .copied()
            .collect();
        for type_id in &absent {
            let cell = other.cells.remove(type_id).expect("listed above");
            self.cells.insert(*type_id, cell);
        }
        absent
    }

    /// The full type names of every resource, sorted.
    pub(crate) fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<_> = self.cells.values().map(|cell| cell.name).collect();
        names.sort_unstable();
        names
    }
}

impl Drop for Resources {
    /// Drops every resource even if one's `Drop` panics, then resumes the
    /// first panic: one bad value never leaks the rest.
    fn drop(&mut self) {
        let mut panics = DeferredPanic::default();
        for (_, cell) in self.cells.drain() {
            panics.run(|| drop(cell));
        }
        panics.resume();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value_per_type() {
        let mut resources = Resources::default();
        assert_eq!(resources.insert(3u32), None);
        assert_eq!(resources.insert(4u32), Some(3));
        assert_eq!(resources.insert("text"), None);
        *resources.get_mut::<u32>().unwrap() += 1;
        assert_eq!(resources.get::<u32>(), Some(&5));
        assert_eq!(resources.names(), ["&str", "u32"]);
        assert_eq!(resources.remove::<u32>(), Some(5));
        assert!(!resources.contains::<u32>() && resources.contains::<&str>());
        assert_eq!(resources.get::<u64>(), None);
    }
}
