//! Packing every group anew, after storages changed with no hook told (a
//! rollback restore rewrites whole storages).

use super::Groups;
use crate::storage::Storages;

impl Groups {
    /// Empties every group's prefix and packs again the entities that hold
    /// all of each group's owned types, whatever order the storages are in.
    pub(crate) fn repack_all(&mut self, storages: &mut Storages) {
        for index in 0..self.groups.len() {
            self.groups[index].len = 0;
            self.pack(index, storages);
        }
    }
}
