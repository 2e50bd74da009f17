//! Which observers follow which (event, component type) or which custom
//! event type, in registration order, and the events waiting for them.

use core::any::TypeId;
use core::hash::BuildHasherDefault;
use std::collections::HashMap;

use slotmap::SlotMap;

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::util::{BitsHasher, TypeIdHasher};

use super::{ObserverId, TriggerKind};

/// What an observer follows: a structural event on a component type, or a
/// custom event type that a game triggers.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follows {
    /// A structural event on a component type.
    Component(TriggerKind, ComponentId),
    /// A custom event type.
    Event(TypeId),
}

/// One structural event that observers follow, recorded when it happened
/// and dispatched once the call that made it is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fired {
    pub(crate) kind: TriggerKind,
    pub(crate) component: ComponentId,
    pub(crate) entity: Entity,
}

/// For each component id and event kind, the observers that follow it, in
/// registration order.
///
/// Invariant: `counts[k]` is the total length of every list of kind `k`, and
/// `additions` the sum of the `Add` and `Insert` counts, so "does anyone
/// follow this at all" is one load on the structural funnel's path.
#[derive(Debug, Default)]
pub(crate) struct ObserverIndex {
    by_component: Vec<[Vec<ObserverId>; 3]>,
    counts: [usize; 3],
    additions: usize,
    /// The observers of each custom event type; a type nobody observes has
    /// no entry.
    by_event: HashMap<TypeId, Vec<ObserverId>, BuildHasherDefault<TypeIdHasher>>,
    /// The observers registered on one entity, with what each follows, in
    /// registration order; an entity nobody observes has no entry.
    scoped: HashMap<Entity, Vec<(Follows, ObserverId)>, BuildHasherDefault<BitsHasher>>,
    /// Per component id and kind, how many observers on one entity follow
    /// it (counted in `counts` and `additions` too).
    scoped_by_component: Vec<[usize; 3]>,
}

impl ObserverIndex {
    /// Whether any observer follows `kind` on `component`.
    #[inline]
    pub(crate) fn follows(&self, kind: TriggerKind, component: ComponentId) -> bool {
        self.by_component
            .get(component.index())
            .is_some_and(|lists| !lists[kind.index()].is_empty())
            || self
                .scoped_by_component
                .get(component.index())
                .is_some_and(|counts| counts[kind.index()] != 0)
    }

    /// The `at`-th observer registered on `entity` that follows `follows`,
    /// in registration order.
    #[inline]
    pub(crate) fn scoped_at(
        &self,
        entity: Entity,
        follows: Follows,
        at: usize,
    ) -> Option<ObserverId> {
        if self.scoped.is_empty() {
            return None;
        }
        self.scoped
            .get(&entity)?
            .iter()
            .filter(|(followed, _)| *followed == follows)
            .nth(at)
            .map(|&(_, id)| id)
    }

    /// Whether any observer is registered on one entity.
    #[inline]
    pub(crate) fn any_scoped(&self) -> bool {
        !self.scoped.is_empty()
    }

    /// Every observer registered on one entity.
    pub(crate) fn all_scoped(&self) -> Vec<ObserverId> {
        self.scoped
            .values()
            .flat_map(|list| list.iter().map(|&(_, id)| id))
            .collect()
    }

    /// The observers registered on `entity`.
    pub(crate) fn scoped_on(&self, entity: Entity) -> Vec<ObserverId> {
        self.scoped
            .get(&entity)
            .map_or_else(Vec::new, |list| list.iter().map(|&(_, id)| id).collect())
    }

    fn add_scoped(&mut self, entity: Entity, follows: Follows, id: ObserverId) {
        self.scoped.entry(entity).or_default().push((follows, id));
        if let Follows::Component(kind, component) = follows {
            if self.scoped_by_component.len() <= component.index() {
                self.scoped_by_component
                    .resize(component.index() + 1, [0; 3]);
            }
            self.scoped_by_component[component.index()][kind.index()] += 1;
            self.count(kind, 1);
        }
    }

    fn remove_scoped(&mut self, entity: Entity, follows: Follows, id: ObserverId) {
        let list = self
            .scoped
            .get_mut(&entity)
            .expect("an observer on an entity is in the index");
        let at = list
            .iter()
            .position(|&(_, listed)| listed == id)
            .expect("an observer on an entity is in its list");
        list.remove(at);
        if list.is_empty() {
            self.scoped.remove(&entity);
        }
        if let Follows::Component(kind, component) = follows {
            self.scoped_by_component[component.index()][kind.index()] -= 1;
            self.count(kind, -1);
        }
    }

    /// Moves the counts of `kind` by `by` observers.
    fn count(&mut self, kind: TriggerKind, by: isize) {
        self.counts[kind.index()] = self.counts[kind.index()].wrapping_add_signed(by);
        if kind != TriggerKind::Remove {
            self.additions = self.additions.wrapping_add_signed(by);
        }
    }

    /// Whether any observer follows `kind` on any component.
    #[inline]
    pub(crate) fn follows_any(&self, kind: TriggerKind) -> bool {
        self.counts[kind.index()] != 0
    }

    /// Whether any observer follows additions (`OnAdd` or `OnInsert`) at all.
    #[inline]
    pub(crate) fn follows_additions(&self) -> bool {
        self.additions != 0
    }

    /// The observers following `kind` on `component`, in registration order.
    pub(crate) fn observers(&self, kind: TriggerKind, component: ComponentId) -> &[ObserverId] {
        self.by_component
            .get(component.index())
            .map_or(&[], |lists| &lists[kind.index()])
    }

    /// The observers of the custom event type `event`, in registration
    /// order.
    #[inline]
    pub(crate) fn event_observers(&self, event: TypeId) -> &[ObserverId] {
        self.by_event.get(&event).map_or(&[], Vec::as_slice)
    }

    fn add(&mut self, follows: Follows, id: ObserverId) {
        match follows {
            Follows::Component(kind, component) => self.add_component(kind, component, id),
            Follows::Event(event) => self.by_event.entry(event).or_default().push(id),
        }
    }

    fn remove(&mut self, follows: Follows, id: ObserverId) {
        match follows {
            Follows::Component(kind, component) => self.remove_component(kind, component, id),
            Follows::Event(event) => {
                let list = self
                    .by_event
                    .get_mut(&event)
                    .expect("a registered event observer is in the index");
                remove_in_order(list, id);
                if list.is_empty() {
                    self.by_event.remove(&event);
                }
            }
        }
    }

    fn add_component(&mut self, kind: TriggerKind, component: ComponentId, id: ObserverId) {
        if self.by_component.len() <= component.index() {
            self.by_component
                .resize_with(component.index() + 1, Default::default);
        }
        self.by_component[component.index()][kind.index()].push(id);
        self.count(kind, 1);
    }

    fn remove_component(&mut self, kind: TriggerKind, component: ComponentId, id: ObserverId) {
        remove_in_order(&mut self.by_component[component.index()][kind.index()], id);
        self.count(kind, -1);
    }
}

/// Takes `id` out of `list`, keeping the others' order: the registration
/// order.
fn remove_in_order(list: &mut Vec<ObserverId>, id: ObserverId) {
    let at = list
        .iter()
        .position(|&listed| listed == id)
        .expect("a registered observer is in the index");
    list.remove(at);
}

/// What a registry keeps per observer: what it follows, and `R`, the
/// observer itself (a boxed runner, for the world).
#[derive(Debug)]
struct Entry<R> {
    follows: Follows,
    /// The entity the observer watches, or `None` for every entity.
    scope: Option<Entity>,
    /// `None` only while the observer runs.
    runner: Option<R>,
}

/// Every observer of a world, with the index that finds them by event.
#[derive(Debug)]
pub(crate) struct ObserverRegistry<R> {
    entries: SlotMap<ObserverId, Entry<R>>,
    pub(crate) index: ObserverIndex,
}

impl<R> Default for ObserverRegistry<R> {
    fn default() -> Self {
        Self {
            entries: SlotMap::with_key(),
            index: ObserverIndex::default(),
        }
    }
}

impl<R> ObserverRegistry<R> {
    /// Registers `runner` as following `follows` (on `scope` alone, when
    /// given), after every observer registered before it.
    pub(crate) fn insert(
        &mut self,
        follows: Follows,
        scope: Option<Entity>,
        runner: R,
    ) -> ObserverId {
        let id = self.entries.insert(Entry {
            follows,
            scope,
            runner: Some(runner),
        });
        match scope {
            None => self.index.add(follows, id),
            Some(entity) => self.index.add_scoped(entity, follows, id),
        }
        id
    }

    /// Unregisters `id`, returning its runner (`None` for a stale id, or
    /// the runner of an observer that is running and removes itself: it is
    /// dropped when its run ends).
    pub(crate) fn remove(&mut self, id: ObserverId) -> Option<Option<R>> {
        let entry = self.entries.remove(id)?;
        match entry.scope {
            None => self.index.remove(entry.follows, id),
            Some(entity) => self.index.remove_scoped(entity, entry.follows, id),
        }
        Some(entry.runner)
    }

    /// Takes `id`'s runner out to run it; `None` for a stale id or one
    /// already running.
    pub(crate) fn take(&mut self, id: ObserverId) -> Option<R> {
        self.entries.get_mut(id)?.runner.take()
    }

    /// Puts back a runner taken with [`take`](Self::take); it is dropped if
    /// its observer was removed meanwhile.
    pub(crate) fn put_back(&mut self, id: ObserverId, runner: R) {
        if let Some(entry) = self.entries.get_mut(id) {
            entry.runner = Some(runner);
        }
    }

    /// How many observers are registered.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// What each observer follows, and the entity it watches if any, in
    /// registration order.
    pub(crate) fn follows(&self) -> impl Iterator<Item = (Follows, Option<Entity>)> + '_ {
        self.entries
            .values()
            .map(|entry| (entry.follows, entry.scope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> ComponentId {
        ComponentId(n)
    }

    #[test]
    fn the_index_keeps_registration_order_through_removals() {
        let mut registry = ObserverRegistry::<&str>::default();
        let a = registry.insert(Follows::Component(TriggerKind::Add, id(2)), None, "a");
        let b = registry.insert(Follows::Component(TriggerKind::Add, id(2)), None, "b");
        let c = registry.insert(Follows::Component(TriggerKind::Add, id(2)), None, "c");
        registry.insert(Follows::Component(TriggerKind::Remove, id(0)), None, "r");
        assert_eq!(registry.index.observers(TriggerKind::Add, id(2)), [a, b, c]);
        assert_eq!(registry.remove(b), Some(Some("b")));
        assert_eq!(registry.index.observers(TriggerKind::Add, id(2)), [a, c]);
        assert!(registry.index.follows(TriggerKind::Remove, id(0)));
        assert!(!registry.index.follows(TriggerKind::Remove, id(2)));
        assert!(!registry.index.follows(TriggerKind::Insert, id(9)));
        assert!(!registry.index.follows_any(TriggerKind::Insert));
        assert!(registry.index.follows_additions());
        registry.remove(a);
        registry.remove(c);
        assert!(!registry.index.follows_additions());
        assert!(registry.index.follows_any(TriggerKind::Remove));
        assert_eq!(registry.remove(b), None, "a stale id finds nothing");
        assert_eq!(registry.len(), 1);
    }

    #[test]
    fn event_observers_keep_registration_order_and_leave_no_empty_entry() {
        struct Boom;
        struct Hush;
        let mut registry = ObserverRegistry::<&str>::default();
        let boom = TypeId::of::<Boom>();
        let a = registry.insert(Follows::Event(boom), None, "a");
        let b = registry.insert(Follows::Event(boom), None, "b");
        let h = registry.insert(Follows::Event(TypeId::of::<Hush>()), None, "h");
        assert_eq!(registry.index.event_observers(boom), [a, b]);
        registry.remove(a);
        assert_eq!(registry.index.event_observers(boom), [b]);
        registry.remove(b);
        assert!(registry.index.event_observers(boom).is_empty());
        assert!(!registry.index.by_event.contains_key(&boom));
        assert_eq!(registry.index.event_observers(TypeId::of::<Hush>()), [h]);
        assert!(
            !registry.index.follows_any(TriggerKind::Add),
            "events are not components"
        );
    }

    #[test]
    fn a_running_observer_is_out_of_its_slot() {
        let mut registry = ObserverRegistry::<String>::default();
        let a = registry.insert(
            Follows::Component(TriggerKind::Insert, id(0)),
            None,
            "a".into(),
        );
        let runner = registry.take(a).unwrap();
        assert_eq!(registry.take(a), None);
        registry.put_back(a, runner);
        assert_eq!(registry.remove(a), Some(Some("a".into())));
        registry.put_back(a, "late".into());
        assert_eq!(
            registry.len(),
            0,
            "putting back into a removed slot drops the runner"
        );
    }

    #[test]
    fn observers_on_an_entity_count_for_their_component_and_leave_no_empty_entry() {
        let mut registry = ObserverRegistry::<&str>::default();
        let e = Entity::new(3, core::num::NonZeroU32::MIN);
        let on_add = Follows::Component(TriggerKind::Add, id(4));
        let a = registry.insert(on_add, Some(e), "a");
        let b = registry.insert(on_add, Some(e), "b");
        assert!(registry.index.follows(TriggerKind::Add, id(4)));
        assert!(registry.index.follows_additions());
        assert_eq!(
            registry.index.observers(TriggerKind::Add, id(4)),
            [],
            "not global"
        );
        assert_eq!(registry.index.scoped_at(e, on_add, 1), Some(b));
        assert_eq!(registry.index.scoped_on(e), [a, b]);
        registry.remove(a);
        registry.remove(b);
        assert!(!registry.index.follows(TriggerKind::Add, id(4)));
        assert!(!registry.index.follows_additions());
        assert!(!registry.index.any_scoped());
    }
}
