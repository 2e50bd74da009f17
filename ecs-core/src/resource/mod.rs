//! Resources: one value per type, owned by the world beside its entities
//! (a clock, a score, a spatial grid), with no entity attached.

use core::any::{Any, TypeId};
use core::hash::BuildHasherDefault;
use std::collections::HashMap;

use crate::util::{DeferredPanic, TypeIdHasher};

/// One resource, with the type name its errors and debug output give.
struct ResourceCell {
    value: Box<dyn Any + Send + Sync>,
    name: &'static str,
}

/// Every resource of a world, keyed by type.
///
/// Invariant: the cell under `TypeId::of::<R>()` holds an `R`.
#[derive(Default)]
pub(crate) struct Resources {
    cells: HashMap<TypeId, ResourceCell, BuildHasherDefault<TypeIdHasher>>,
}

impl Resources {
    /// Stores `value`, returning the `R` it replaces.
    pub(crate) fn insert<R: Send + Sync + 'static>(&mut self, value: R) -> Option<R> {
        let cell = ResourceCell {
            value: Box::new(value),
            name: core::any::type_name::<R>(),
        };
        let previous = self.cells.insert(TypeId::of::<R>(), cell)?;
        Some(unbox(previous.value))
    }

    /// The `R`, if there is one.
    #[inline]
    pub(crate) fn get<R: Send + Sync + 'static>(&self) -> Option<&R> {
        let cell = self.cells.get(&TypeId::of::<R>())?;
        cell.value.downcast_ref::<R>()
    }

    /// The `R`, mutably, if there is one.
    #[inline]
    pub(crate) fn get_mut<R: Send + Sync + 'static>(&mut self) -> Option<&mut R> {
        let cell = self.cells.get_mut(&TypeId::of::<R>())?;
        cell.value.downcast_mut::<R>()
    }

    /// Takes the `R` out, if there is one.
    pub(crate) fn remove<R: Send + Sync + 'static>(&mut self) -> Option<R> {
        let cell = self.cells.remove(&TypeId::of::<R>())?;
        Some(unbox(cell.value))
    }

    /// Whether there is an `R`.
    pub(crate) fn contains<R: Send + Sync + 'static>(&self) -> bool {
        self.cells.contains_key(&TypeId::of::<R>())
    }

    /// The full type names of every resource, sorted.
    pub(crate) fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<_> = self.cells.values().map(|cell| cell.name).collect();
        names.sort_unstable();
        names
    }
}

/// The value of a cell keyed by `R`'s type id.
fn unbox<R: 'static>(value: Box<dyn Any + Send + Sync>) -> R {
    *value
        .downcast::<R>()
        .unwrap_or_else(|_| unreachable!("a resource cell holds the type it is keyed by"))
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
