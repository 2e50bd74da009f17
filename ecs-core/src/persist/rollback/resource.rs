//! One registered resource type: how it is saved, restored and hashed,
//! monomorphised once per type and reached without the type.

use core::any::TypeId;

use super::checksum::ChecksumHasher;
use super::saved::SavedValue;
use crate::resource::Resources;

/// What a registry does with one resource type, without naming it.
pub(crate) trait RollbackResource: Send + Sync {
    fn type_id(&self) -> TypeId;
    fn type_name(&self) -> &'static str;
    /// The resource as it is now (`None` when the world has none).
    fn save(&self, resources: &Resources) -> Box<dyn SavedValue>;
    /// Overwrites `into`, a saved resource of this type, with the resource now.
    fn save_into(&self, resources: &Resources, into: &mut dyn SavedValue);
    /// Puts the saved resource back, or removes the world's when there was none.
    fn restore(&self, resources: &mut Resources, saved: &dyn SavedValue);
    /// Feeds the resource now to `hasher`.
    fn hash_live(&self, resources: &Resources, hasher: &mut ChecksumHasher);
    /// Feeds the saved resource to `hasher`, as `hash_live` would feed it.
    fn hash_saved(&self, saved: &dyn SavedValue, hasher: &mut ChecksumHasher);
}

/// The registry's entry for resource type `R`.
pub(crate) struct TypedResource<R> {
    /// How the value enters the checksum; `None` leaves it out (whether
    /// the world has an `R` still counts).
    pub(crate) hash: Option<fn(&R, &mut ChecksumHasher)>,
}

fn saved_resource<R: Clone + Send + Sync + 'static>(saved: &dyn SavedValue) -> &Option<R> {
    saved
        .as_any()
        .downcast_ref()
        .expect("a registry restores each resource with its own type")
}

impl<R: Clone + Send + Sync + 'static> TypedResource<R> {
    fn hash(&self, value: Option<&R>, hasher: &mut ChecksumHasher) {
        use core::hash::Hasher;
        hasher.write_u8(u8::from(value.is_some()));
        if let (Some(value), Some(hash)) = (value, self.hash) {
            hash(value, hasher);
        }
    }
}

impl<R: Clone + Send + Sync + 'static> RollbackResource for TypedResource<R> {
    fn type_id(&self) -> TypeId {
        TypeId::of::<R>()
    }

    fn type_name(&self) -> &'static str {
        core::any::type_name::<R>()
    }

    fn save(&self, resources: &Resources) -> Box<dyn SavedValue> {
        Box::new(resources.get::<R>().cloned())
    }

    fn save_into(&self, resources: &Resources, into: &mut dyn SavedValue) {
        let into: &mut Option<R> = into
            .as_any_mut()
            .downcast_mut()
            .expect("a registry saves each resource into its own type");
        match (into.as_mut(), resources.get::<R>()) {
            (Some(saved), Some(now)) => saved.clone_from(now),
            (_, now) => *into = now.cloned(),
        }
    }

    fn restore(&self, resources: &mut Resources, saved: &dyn SavedValue) {
        match (saved_resource::<R>(saved), resources.get_mut::<R>()) {
            (Some(saved), Some(now)) => now.clone_from(saved),
            (Some(saved), None) => {
                resources.insert(saved.clone());
            }
            (None, _) => drop(resources.remove::<R>()),
        }
    }

    fn hash_live(&self, resources: &Resources, hasher: &mut ChecksumHasher) {
        self.hash(resources.get::<R>(), hasher);
    }

    fn hash_saved(&self, saved: &dyn SavedValue, hasher: &mut ChecksumHasher) {
        self.hash(saved_resource::<R>(saved).as_ref(), hasher);
    }
}
