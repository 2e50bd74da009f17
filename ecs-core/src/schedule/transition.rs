//! `OnEnter` / `OnExit`: the stages a state switch runs.

use core::any::TypeId;

use crate::state::{States, value_key};

use crate::util::ShortName;

use super::stage::{IntoStage, Stage, StateKey};

/// The stage that runs when the state machine `S` enters the value held:
/// once per switch into it, at the frame's transition point (right after
/// `Stage::PreUpdate`), after the `OnExit` stage of the value left.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
/// enum GameState { #[default] Menu, Playing }
/// #[derive(Default)]
/// struct Entered(u32);
///
/// fn count(mut entered: ResMut<Entered>) { entered.0 += 1; }
///
/// let mut world = World::new();
/// world.init_state::<GameState>();
/// world.init_resource::<Entered>();
/// let mut schedule = Schedule::new();
/// schedule.add_system(OnEnter(GameState::Playing), count)?;
/// schedule.run(&mut world)?;
/// world.resource_mut::<NextState<GameState>>()?.set(GameState::Playing);
/// schedule.run(&mut world)?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Entered>()?.0, 1, "once per switch");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OnEnter<S: States>(pub S);

/// The stage that runs when the state machine `S` leaves the value held:
/// once per switch out of it, before the `OnEnter` stage of the value
/// entered.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
/// enum GameState { #[default] Playing, Over }
/// #[derive(Default)]
/// struct Trace(Vec<&'static str>);
///
/// let mut world = World::new();
/// world.init_state::<GameState>();
/// world.init_resource::<Trace>();
/// let mut schedule = Schedule::new();
/// fn exit(mut t: ResMut<Trace>) { t.0.push("exit"); }
/// fn enter(mut t: ResMut<Trace>) { t.0.push("enter"); }
/// schedule.add_system(OnExit(GameState::Playing), exit)?;
/// schedule.add_system(OnEnter(GameState::Over), enter)?;
/// world.resource_mut::<NextState<GameState>>()?.set(GameState::Over);
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Trace>()?.0, ["exit", "enter"]);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OnExit<S: States>(pub S);

fn key<S: States>(value: &S) -> StateKey {
    StateKey {
        state: TypeId::of::<S>(),
        value: value_key(value),
        type_name: core::any::type_name::<S>(),
    }
}

impl<S: States> From<OnEnter<S>> for Stage {
    fn from(OnEnter(value): OnEnter<S>) -> Stage {
        Stage::OnEnter(key(&value))
    }
}

impl<S: States> From<OnExit<S>> for Stage {
    fn from(OnExit(value): OnExit<S>) -> Stage {
        Stage::OnExit(key(&value))
    }
}

impl<S: States> IntoStage for OnEnter<S> {
    fn into_stage(self) -> Stage {
        self.into()
    }

    fn label(&self) -> String {
        format!(
            "OnEnter({}::{:?})",
            ShortName(core::any::type_name::<S>()),
            self.0
        )
    }
}

impl<S: States> IntoStage for OnExit<S> {
    fn into_stage(self) -> Stage {
        self.into()
    }

    fn label(&self) -> String {
        format!(
            "OnExit({}::{:?})",
            ShortName(core::any::type_name::<S>()),
            self.0
        )
    }
}
