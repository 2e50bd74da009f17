//! Game states: the values of a state machine (`Menu`, `Playing`, `Paused`)
//! held as the resource [`State<S>`], switched through [`NextState<S>`].
//!
//! The world holds both once [`World::init_state`](crate::World::init_state)
//! is called; a [`Schedule`](crate::Schedule) applies the switch once per
//! frame, right after `Stage::PreUpdate`, running the `OnExit` stage of the
//! state left and the `OnEnter` stage of the state entered.

use core::fmt;
use core::hash::Hash;

/// The values of a state machine. Derive it with `#[derive(States)]`
/// beside `Clone`, `PartialEq`, `Eq`, `Hash` and `Debug`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
/// enum GameState { #[default] Menu, Playing, Paused }
///
/// fn is_state<S: States>() {}
/// is_state::<GameState>();
/// ```
pub trait States: Clone + PartialEq + Eq + Hash + fmt::Debug + Send + Sync + 'static {}

/// The current value of the state machine `S`: a resource, with change
/// detection like any other (`Res<State<S>>::is_changed()` is true in the
/// frame it switched). Switch it through [`NextState<S>`].
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
/// enum GameState { #[default] Menu, Playing }
///
/// let mut world = World::new();
/// world.init_state::<GameState>();
/// let state = world.resource::<State<GameState>>()?;
/// assert_eq!(*state.get(), GameState::Menu);
/// assert!(*state == GameState::Menu);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State<S: States> {
    current: S,
    /// Whether the schedule has run the `OnEnter` stage of the first value.
    entered: bool,
}

impl<S: States> State<S> {
    /// The state machine at `value`, not entered yet: the next frame runs
    /// its `OnEnter` stage.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug)]
    /// # enum Mode { A }
    /// assert_eq!(*State::new(Mode::A).get(), Mode::A);
    /// ```
    pub fn new(value: S) -> Self {
        Self {
            current: value,
            entered: false,
        }
    }

    /// The current value.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug)]
    /// # enum Mode { A }
    /// assert_eq!(State::new(Mode::A).get(), &Mode::A);
    /// ```
    pub fn get(&self) -> &S {
        &self.current
    }

    /// Whether the state's first value still waits for its `OnEnter` stage.
    pub(crate) fn needs_enter(&self) -> bool {
        !self.entered
    }

    /// Records that the current value's `OnEnter` stage ran.
    pub(crate) fn mark_entered(&mut self) {
        self.entered = true;
    }

    /// Moves to `value`, returning the value left.
    pub(crate) fn replace(&mut self, value: S) -> S {
        self.entered = true;
        core::mem::replace(&mut self.current, value)
    }
}

impl<S: States> core::ops::Deref for State<S> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.current
    }
}

impl<S: States> PartialEq<S> for State<S> {
    fn eq(&self, other: &S) -> bool {
        self.current == *other
    }
}

/// The value the state machine `S` switches to at the next transition
/// point of a frame (right after `Stage::PreUpdate`). Set it from a system
/// through `ResMut<NextState<S>>`; the last value set before that point
/// wins, and setting the current value switches nothing.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
/// enum GameState { #[default] Menu, Playing }
///
/// fn start(mut next: ResMut<NextState<GameState>>) {
///     next.set(GameState::Playing);
/// }
///
/// let mut world = World::new();
/// world.init_state::<GameState>();
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, start)?;
/// schedule.run(&mut world)?; // `start` asks in Update: the switch waits for the next frame
/// assert_eq!(**world.resource::<State<GameState>>()?, GameState::Menu);
/// schedule.run(&mut world)?;
/// assert_eq!(**world.resource::<State<GameState>>()?, GameState::Playing);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextState<S: States> {
    pending: Option<S>,
}

impl<S: States> Default for NextState<S> {
    fn default() -> Self {
        Self { pending: None }
    }
}

impl<S: States> NextState<S> {
    /// Asks to switch to `value` at the next transition point.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug)]
    /// # enum Mode { A, B }
    /// let mut next = NextState::default();
    /// next.set(Mode::B);
    /// assert_eq!(next.pending(), Some(&Mode::B));
    /// ```
    pub fn set(&mut self, value: S) {
        self.pending = Some(value);
    }

    /// The value asked for, if any.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug)]
    /// # enum Mode { A }
    /// assert_eq!(NextState::<Mode>::default().pending(), None);
    /// ```
    pub fn pending(&self) -> Option<&S> {
        self.pending.as_ref()
    }

    /// Withdraws the value asked for.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug)]
    /// # enum Mode { A }
    /// let mut next = NextState::default();
    /// next.set(Mode::A);
    /// next.reset();
    /// assert_eq!(next.pending(), None);
    /// ```
    pub fn reset(&mut self) {
        self.pending = None;
    }

    /// Takes the value asked for, leaving none.
    pub(crate) fn take(&mut self) -> Option<S> {
        self.pending.take()
    }
}

/// A 64-bit key for one value of a state type: its hash under a fixed
/// hasher, so it is the same in every run of a build. Stages are keyed by
/// it (`OnEnter(value)`), which keeps [`Stage`](crate::Stage) `Copy`.
pub(crate) fn value_key<S: States>(value: &S) -> u64 {
    use core::hash::Hasher;
    let mut hasher = std::hash::DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}
