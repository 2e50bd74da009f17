//! Whether a whole set of storages keeps every relationship a forest: what
//! a world built outside the checked inserts (a snapshot's columns) passes
//! before any world adopts it.

use crate::entity::Entity;
use crate::error::Error;
use crate::storage::{ErasedStorage, Storages};

/// Where a walk up a relationship has been, per dense position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Unseen,
    /// On the walk now in progress: meeting it again closes a loop.
    OnPath,
    /// Walked before, up to a root: no loop starts here.
    Done,
}

/// The first relationship of `storages` whose values make a loop: an
/// entity that reaches itself by following its relationship from target to
/// target. Linear in the relationship values: each is walked once.
pub(in crate::world) fn find_relationship_cycle(storages: &Storages) -> Result<(), Error> {
    for (id, storage) in storages.erased() {
        if storage.is_relationship() {
            check_storage(storage, storages.info(id).type_name())?;
        }
    }
    Ok(())
}

/// One relationship type's storage, as [`find_relationship_cycle`].
fn check_storage(storage: &dyn ErasedStorage, relationship: &'static str) -> Result<(), Error> {
    let entities = storage.entities();
    let mut marks = vec![Mark::Unseen; entities.len()];
    let mut path: Vec<usize> = Vec::new();
    for start in 0..entities.len() {
        let mut at = start;
        loop {
            match marks[at] {
                Mark::Done => break,
                Mark::OnPath => {
                    // `at` reached itself: name the loop's entity and the
                    // one it points at, as a refused insert would.
                    let entity = entities[at];
                    let target = storage.relationship_target_at(at).unwrap_or(entity);
                    return Err(Error::RelationshipCycle {
                        entity,
                        target,
                        relationship,
                    });
                }
                Mark::Unseen => {}
            }
            marks[at] = Mark::OnPath;
            path.push(at);
            let up = storage
                .relationship_target_at(at)
                .and_then(|target: Entity| storage.dense_index(target));
            match up {
                Some(next) => at = next,
                None => break,
            }
        }
        for done in path.drain(..) {
            marks[done] = Mark::Done;
        }
    }
    Ok(())
}
