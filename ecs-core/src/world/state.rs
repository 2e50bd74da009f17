//! The world's state machines: `init_state`, `insert_state`, and applying
//! the switches `NextState` asked for, which the schedule does once a frame.

use core::any::TypeId;

use crate::state::{NextState, State, States, value_key};

use super::World;

/// One switch of a state machine: the keys of the value left (none on the
/// first entry) and of the value entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StateTransition {
    /// The state type.
    pub(crate) state: TypeId,
    /// The key of the value left, if one was.
    pub(crate) exited: Option<u64>,
    /// The key of the value entered.
    pub(crate) entered: u64,
}

/// Applies one state type's pending switch.
type Driver = fn(&mut World, &mut Vec<StateTransition>);

/// The state types of a world, in the order they were first inserted: the
/// order their switches apply in. Kept as a resource so that it travels
/// with the world's other resources.
#[derive(Default)]
struct StateDrivers(Vec<(TypeId, Driver)>);

impl World {
    /// Adds the state machine `S` at its `Default` value: the resources
    /// [`State<S>`] and [`NextState<S>`]. The next schedule run enters it
    /// (runs its `OnEnter` stage).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
    /// enum GameState { #[default] Menu, Playing }
    ///
    /// let mut world = World::new();
    /// world.init_state::<GameState>();
    /// assert_eq!(**world.resource::<State<GameState>>()?, GameState::Menu);
    /// assert!(world.resource::<NextState<GameState>>()?.pending().is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn init_state<S: States + Default>(&mut self) {
        self.insert_state(S::default());
    }

    /// Adds the state machine `S` at `value`, or starts it over at `value`
    /// if the world has it: the next schedule run enters `value` (its
    /// `OnEnter` stage runs; no `OnExit` stage does).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug)]
    /// enum Level { One, Two }
    ///
    /// let mut world = World::new();
    /// world.insert_state(Level::Two);
    /// assert_eq!(**world.resource::<State<Level>>()?, Level::Two);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert_state<S: States>(&mut self, value: S) {
        self.insert_resource(State::new(value));
        self.insert_resource(NextState::<S>::default());
        self.init_resource::<StateDrivers>();
        let drivers = &mut self
            .data
            .resources
            .get_mut::<StateDrivers>()
            .expect("inserted above")
            .0;
        if !drivers.iter().any(|(id, _)| *id == TypeId::of::<S>()) {
            drivers.push((TypeId::of::<S>(), drive::<S>));
        }
    }

    /// Applies every state machine's pending switch, in the order the
    /// state types were added, and returns the switches made.
    pub(crate) fn apply_state_transitions(&mut self) -> Vec<StateTransition> {
        let Some(drivers) = self.data.resources.get::<StateDrivers>() else {
            return Vec::new();
        };
        let drivers: Vec<Driver> = drivers.0.iter().map(|(_, driver)| *driver).collect();
        let mut transitions = Vec::new();
        for driver in drivers {
            driver(self, &mut transitions);
        }
        transitions
    }
}

/// Applies `S`'s pending switch: first the entry into its first value, if
/// not made yet, then the value `NextState<S>` holds if it differs from the
/// current one. `State<S>` is marked changed when its value changes.
fn drive<S: States>(world: &mut World, transitions: &mut Vec<StateTransition>) {
    let next = world
        .data
        .resources
        .get_mut::<NextState<S>>()
        .and_then(NextState::take);
    let Some(state) = world.data.resources.get_mut::<State<S>>() else {
        return;
    };
    if state.needs_enter() {
        state.mark_entered();
        transitions.push(StateTransition {
            state: TypeId::of::<S>(),
            exited: None,
            entered: value_key(state.get()),
        });
    }
    let Some(next) = next.filter(|next| next != state.get()) else {
        return;
    };
    let entered = value_key(&next);
    let left = state.replace(next);
    transitions.push(StateTransition {
        state: TypeId::of::<S>(),
        exited: Some(value_key(&left)),
        entered,
    });
    let tick = world.data.clock.advance();
    if let Some(ticks) = world.data.resources.ticks::<State<S>>() {
        ticks.mark_changed(tick);
    }
}
