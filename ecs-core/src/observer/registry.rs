//! Which observers follow which (event, component type) or which custom
//! event type, in registration order, and the events waiting for them.

use core::any::TypeId;
use core::hash::BuildHasherDefault;
use std::collections::HashMap;

use slotmap::SlotMap;

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::util::TypeIdHasher;

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
}

impl ObserverIndex {
    /// Whether any observer follows `kind` on `component`.
    #[inline]
    pub(crate) fn follows(&self, kind: TriggerKind, component: ComponentId) -> bool {
        self.by_component
            .get(component.index())
            .is_some_and(|lists| !lists[kind.index()].is_empty())
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
        self.counts[kind.index()] += 1;
        if kind != TriggerKind::Remove {
            self.additions += 1;
        }
    }

    fn remove_component(&mut self, kind: TriggerKind, component: ComponentId, id: ObserverId) {
        remove_in_order(&mut self.by_component[component.index()][kind.index()], id);
        self.counts[kind.index()] -= 1;
        if kind != TriggerKind::Remove {
            self.additions -= 1;
        }
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
    /// Registers `runner` as following `follows`, after every observer
    /// registered before it.
    pub(crate) fn insert(&mut self, follows: Follows, runner: R) -> ObserverId {
        let id = self.entries.insert(Entry {
            follows,
            runner: Some(runner),
        });
        self.index.add(follows, id);
        id
    }

    /// Unregisters `id`, returning its runner (`None` for a stale id, or
    /// the runner of an observer that is running and removes itself: it is
    /// dropped when its run ends).
    pub(crate) fn remove(&mut self, id: ObserverId) -> Option<Option<R>> {
        let entry = self.entries.remove(id)?;
        self.index.remove(entry.follows, id);
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

    /// What each observer follows, in registration order.
    pub(crate) fn follows(&self) -> impl Iterator<Item = Follows> + '_ {
        self.entries.values().map(|entry| entry.follows)
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
        let a = registry.insert(Follows::Component(TriggerKind::Add, id(2)), "a");
        let b = registry.insert(Follows::Component(TriggerKind::Add, id(2)), "b");
        let c = registry.insert(Follows::Component(TriggerKind::Add, id(2)), "c");
        registry.insert(Follows::Component(TriggerKind::Remove, id(0)), "r");
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
        let a = registry.insert(Follows::Event(boom), "a");
        let b = registry.insert(Follows::Event(boom), "b");
        let h = registry.insert(Follows::Event(TypeId::of::<Hush>()), "h");
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
        let a = registry.insert(Follows::Component(TriggerKind::Insert, id(0)), "a".into());
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
}
