//! What a world knows about each bundle type it has spawned: the component ids
//! in write order, their mask bits, and whether the types are distinct.

use core::any::TypeId;
use core::hash::BuildHasherDefault;
use std::collections::HashMap;

use crate::component::{ComponentId, mask_bit};
use crate::storage::Storages;
use crate::util::TypeIdHasher;

use super::Bundle;

/// What a world knows about one bundle type.
pub(crate) struct BundleInfo {
    /// The component ids, in write order.
    pub(crate) ids: Box<[ComponentId]>,
    /// The bits of those ids in an entity's component mask.
    pub(crate) mask: u64,
    /// Whether no type appears twice, so a fresh entity can take the bundle
    /// by appending to each storage.
    pub(crate) distinct: bool,
}

/// The [`BundleInfo`] of every bundle type a world has spawned.
#[derive(Default)]
pub(crate) struct BundleRegistry {
    infos: Vec<BundleInfo>,
    index: HashMap<TypeId, usize, BuildHasherDefault<TypeIdHasher>>,
    /// The bundle type looked up last: loops that spawn one kind of entity skip
    /// the hash map.
    recent: Option<(TypeId, usize)>,
}

impl BundleRegistry {
    /// `B`'s info, registering its types on first sight.
    #[inline]
    pub(crate) fn of<B: Bundle>(&mut self, storages: &mut Storages) -> &BundleInfo {
        let type_id = TypeId::of::<B>();
        let at = match self.recent {
            Some((recent, at)) if recent == type_id => at,
            _ => {
                let at = match self.index.get(&type_id) {
                    Some(&at) => at,
                    None => self.register::<B>(storages),
                };
                self.recent = Some((type_id, at));
                at
            }
        };
        &self.infos[at]
    }

    #[cold]
    fn register<B: Bundle>(&mut self, storages: &mut Storages) -> usize {
        let mut ids = Vec::new();
        B::register(storages, &mut ids);
        let mask = ids.iter().fold(0, |mask, &id| mask | mask_bit(id));
        let distinct = ids.iter().enumerate().all(|(i, id)| !ids[..i].contains(id));
        self.infos.push(BundleInfo {
            ids: ids.into_boxed_slice(),
            mask,
            distinct,
        });
        self.index.insert(TypeId::of::<B>(), self.infos.len() - 1);
        self.infos.len() - 1
    }
}
