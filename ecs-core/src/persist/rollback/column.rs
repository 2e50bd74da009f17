//! One registered component type: how its storage is saved, restored and
//! hashed, monomorphised once per type and reached without the type.

use core::any::TypeId;
use core::hash::Hasher;

use super::checksum::ChecksumHasher;
use super::saved::SavedValue;
use crate::component::Component;
use crate::entity::Entity;
use crate::storage::{ColumnCopy, Storages};
use crate::world::RestoreParts;

/// What a registry does with one component type, without naming it.
pub(crate) trait RollbackColumn: Send + Sync {
    fn type_id(&self) -> TypeId;
    fn type_name(&self) -> &'static str;
    /// An empty saved column of this type.
    fn empty(&self) -> Box<dyn SavedValue>;
    /// Copies the type's storage (nothing, if it has none) into `into`,
    /// a saved column of this type.
    fn save(&self, storages: &Storages, into: &mut dyn SavedValue);
    /// Makes the storage hold what `saved` holds, through the door's
    /// restore, which keeps the masks in step.
    fn restore(&self, parts: &mut RestoreParts<'_>, saved: &dyn SavedValue);
    /// The hash of what the storage holds now.
    fn checksum_live(&self, storages: &Storages) -> u64;
    /// The hash of what `saved` holds.
    fn checksum_saved(&self, saved: &dyn SavedValue) -> u64;
}

/// How a value of `T` is fed to a checksum.
pub(crate) type HashValue<T> = fn(&T, &mut ChecksumHasher);

/// The registry's entry for component type `T`.
pub(crate) struct TypedColumn<T> {
    /// How each value enters the checksum; `None` leaves values out (which
    /// entities hold a `T` still counts).
    pub(crate) hash: Option<HashValue<T>>,
}

fn saved_column<T: Component + Clone>(saved: &dyn SavedValue) -> &ColumnCopy<T> {
    saved
        .as_any()
        .downcast_ref()
        .expect("a registry restores each column with its own type")
}

impl<T: Component + Clone> RollbackColumn for TypedColumn<T> {
    fn type_id(&self) -> TypeId {
        TypeId::of::<T>()
    }

    fn type_name(&self) -> &'static str {
        core::any::type_name::<T>()
    }

    fn empty(&self) -> Box<dyn SavedValue> {
        Box::new(ColumnCopy::<T>::default())
    }

    fn save(&self, storages: &Storages, into: &mut dyn SavedValue) {
        let copy: &mut ColumnCopy<T> = into
            .as_any_mut()
            .downcast_mut()
            .expect("a registry saves each column into its own type");
        match storages.get::<T>() {
            Some(set) => set.copy_into(copy),
            None => copy.clear(),
        }
    }

    fn restore(&self, parts: &mut RestoreParts<'_>, saved: &dyn SavedValue) {
        parts.restore_column(saved_column::<T>(saved));
    }

    fn checksum_live(&self, storages: &Storages) -> u64 {
        match storages.get::<T>() {
            Some(set) => column_sum(set.entities(), set.values(), self.hash),
            None => column_sum::<T>(&[], &[], self.hash),
        }
    }

    fn checksum_saved(&self, saved: &dyn SavedValue) -> u64 {
        let copy = saved_column::<T>(saved);
        column_sum(copy.entities(), copy.values(), self.hash)
    }
}

/// A hash of a column that does not depend on its dense order: the sum of
/// one hash per entity (its id, then its value when `hash` is given), and the
/// count.
fn column_sum<T>(entities: &[Entity], values: &[T], hash: Option<HashValue<T>>) -> u64 {
    let mut sum = 0_u64;
    for (entity, value) in entities.iter().zip(values) {
        let mut hasher = ChecksumHasher::new();
        hasher.write_u64(entity.to_bits());
        if let Some(hash) = hash {
            hash(value, &mut hasher);
        }
        sum = sum.wrapping_add(hasher.finish());
    }
    let mut hasher = ChecksumHasher::new();
    hasher.write_u64(entities.len() as u64);
    hasher.write_u64(sum);
    hasher.finish()
}
