//! Filling a schedule: `add_systems` (a tuple, all or none), the checks
//! every added system passes (param clashes, duplicate names, writing
//! conditions, orderings across stages; `add_system` in `mod.rs` runs them
//! too), and configuring sets.

use std::borrow::Cow;

use crate::error::Error;
use crate::system::{
    AnySystem, Conditional, IntoSystem, IntoSystemConfigs, LastRun, SetConfig, SharedCondition,
    SystemConfig,
};
use crate::world::ReservationLane;

use super::stats::Timing;
use super::{IntoStage, Schedule, Stage, SystemSlot};

impl Schedule {
    /// Adds several systems to `stage` at once: a tuple of systems (each
    /// configured or not), ordered one after another with
    /// [`.chain()`](crate::system::IntoSystemConfigs::chain) or put in a set
    /// with [`.in_set(..)`](crate::system::IntoSystemConfigs::in_set). All
    /// are added, or none.
    ///
    /// # Errors
    /// As [`add_system`](Self::add_system), for any of them (two of them
    /// with one name included).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// fn read_input() {}
    /// fn steer() {}
    /// fn move_ships() {}
    /// fn spawn_wave() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_systems(Stage::Update, (read_input, steer, move_ships).chain())?;
    /// schedule.add_system(Stage::Update, spawn_wave.before(read_input))?;
    /// let why = schedule.explain()?;
    /// assert_eq!(
    ///     why.stage(Stage::Update).unwrap().order,
    ///     ["spawn_wave", "read_input", "steer", "move_ships"]
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn add_systems<M>(
        &mut self,
        stage: impl IntoStage,
        systems: impl IntoSystemConfigs<M>,
    ) -> Result<(), Error> {
        let label = stage.label();
        self.add_configs(stage.into_stage(), label, systems.into_configs().0)
    }

    /// Orders the set `set` of `stage` (see [`IntoSystem::in_set`]): every
    /// system in it runs after and before what `config` names, and only in
    /// frames where its conditions ([`run_if`](crate::system::run_if)) hold.
    /// Configuring a set again adds to its orderings and conditions.
    ///
    /// # Errors
    /// [`Error::UnknownStage`] if the schedule has no such stage;
    /// [`Error::OrderingAcrossStages`] if `config` names a system of
    /// another stage. A name no system or set of the stage has is an error
    /// of the next [`run`](Self::run).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// fn collide() {}
    /// fn damage() {}
    /// fn physics() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_systems(Stage::Update, (collide, damage).in_set("combat"))?;
    /// schedule.add_system(Stage::Update, physics.in_set("physics_done"))?;
    /// schedule.configure_set(Stage::Update, "combat", after("physics_done"))?;
    /// let why = schedule.explain()?;
    /// assert_eq!(why.stage(Stage::Update).unwrap().order, ["physics", "collide", "damage"]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn configure_set(
        &mut self,
        stage: impl IntoStage,
        set: impl Into<Cow<'static, str>>,
        config: SetConfig,
    ) -> Result<(), Error> {
        let set = set.into();
        let label = stage.label();
        let stage = stage.into_stage();
        for name in config.after.iter().chain(&config.before) {
            self.check_same_stage(&stage, &format!("set {set}"), name, &[])?;
        }
        for condition in &config.conditions {
            if let Some((param, type_name)) = condition.access().first_change() {
                return Err(Error::WritingCondition {
                    system: format!("set {set}"),
                    condition: condition.name().to_owned(),
                    param,
                    type_name,
                });
            }
        }
        let slot = self.stage_slot(stage, label)?;
        // The members already added take the set's new conditions now; those
        // added later, in `add_configs`.
        for member in slot.systems.iter_mut().filter(|s| s.sets.contains(&set)) {
            let mut conditions = (config.conditions.iter())
                .map(|c| c.member().into_inner())
                .collect();
            member.system.add_conditions(&mut conditions);
            if !conditions.is_empty() {
                let system = core::mem::replace(&mut member.system, idle());
                member.system = Box::new(Conditional::new(system, conditions));
            }
        }
        match slot.sets.iter_mut().find(|(name, _)| *name == set) {
            Some((_, existing)) => {
                existing.after.extend(config.after);
                existing.before.extend(config.before);
                existing.conditions.extend(config.conditions);
            }
            None => slot.sets.push((set, config)),
        }
        slot.plan = None;
        Ok(())
    }

    /// Checks and adds `configs` to `stage`, all or none.
    pub(super) fn add_configs(
        &mut self,
        stage: Stage,
        label: String,
        configs: Vec<SystemConfig>,
    ) -> Result<(), Error> {
        let mut slots = Vec::with_capacity(configs.len());
        let mut configs = configs;
        let mut names: Vec<Cow<'static, str>> = Vec::with_capacity(configs.len());
        for config in &mut configs {
            if config.anonymous
                && let Some(free) = self.free_name(&config.name, &names)
            {
                config.name = Cow::Owned(free);
            }
            names.push(config.name.clone());
        }
        // A chain orders each system after the one before it, by the names
        // they have now.
        for (at, config) in configs.iter_mut().enumerate().skip(1) {
            if let Some(synced) = config.chained.take() {
                let previous = names[at - 1].clone();
                if !synced {
                    config.unsynced_after.push(previous.clone());
                }
                config.after.push(previous);
            }
        }
        // The conditions of the sets the new systems join.
        if let Some(slot) = self.stage_slots().find(|s| s.stage == stage) {
            for config in &mut configs {
                for (set, set_config) in &slot.sets {
                    if config.sets.contains(set) {
                        let members = set_config.conditions.iter().map(SharedCondition::member);
                        config.conditions.extend(members);
                    }
                }
            }
        }
        for (at, config) in configs.into_iter().enumerate() {
            if let Some(error) = config
                .system
                .access()
                .clash_error(config.name.clone(), false)
            {
                return Err(error);
            }
            if self.contains_system(&config.name) || names[..at].contains(&config.name) {
                return Err(Error::DuplicateSystem {
                    system: config.name.into_owned(),
                });
            }
            for condition in &config.conditions {
                if let Some((param, type_name)) = condition.access().first_change() {
                    return Err(Error::WritingCondition {
                        system: config.name.into_owned(),
                        condition: condition.name(),
                        param,
                        type_name,
                    });
                }
            }
            for name in config.after.iter().chain(&config.before) {
                self.check_same_stage(&stage, &config.name, name, &names)?;
            }
            slots.push(Self::system_slot(config));
        }
        let slot = self.stage_slot(stage, label)?;
        slot.systems.extend(slots);
        slot.plan = None;
        Ok(())
    }

    /// Every stage slot, the state stages' included.
    fn stage_slots(&self) -> impl Iterator<Item = &super::StageSlot> {
        self.stages.iter().chain(&self.state_stages)
    }

    /// The slot of a checked system: wrapped with its conditions, if any.
    fn system_slot(config: SystemConfig) -> SystemSlot {
        let reserves_ids = config.system.access().reserves_ids();
        let system: Box<dyn AnySystem> = if config.conditions.is_empty() {
            config.system
        } else {
            let conditions = config.conditions.into_iter().map(|c| c.into_inner());
            Box::new(Conditional::new(config.system, conditions.collect()))
        };
        SystemSlot {
            defers: system.defers(),
            name: config.name,
            after: config.after,
            before: config.before,
            unsynced_after: config.unsynced_after,
            sets: config.sets,
            system,
            timing: Timing::default(),
            lane: ReservationLane::default(),
            reserves_ids,
            last_run: LastRun::new(config.sees_earlier_changes),
        }
    }

    /// `None` if no system of the schedule has `name` and `adding` does not
    /// list it, else the first of `name#2`, `name#3`, ... that is free: the
    /// name of a closure added beside another from the same function.
    fn free_name(&self, name: &str, adding: &[Cow<'static, str>]) -> Option<String> {
        let taken = |candidate: &str| {
            self.contains_system(candidate) || adding.iter().any(|other| other == candidate)
        };
        if !taken(name) {
            return None;
        }
        let free = (2u32..)
            .map(|n| format!("{name}#{n}"))
            .find(|candidate| !taken(candidate));
        Some(free.expect("fewer than 2^32 systems share a closure's name"))
    }

    /// Refuses an ordering of `who` (in `stage`) against `name` when no
    /// system or set of `stage` (nor one of `adding`) has the name but a
    /// system of another stage does: that ordering can never hold.
    fn check_same_stage(
        &self,
        stage: &Stage,
        who: &str,
        name: &str,
        adding: &[Cow<'static, str>],
    ) -> Result<(), Error> {
        if adding.iter().any(|n| n == name)
            || self
                .all_stages()
                .any(|s| s.stage == *stage && s.knows(name))
        {
            return Ok(());
        }
        match self
            .all_stages()
            .find(|s| s.stage != *stage && s.systems.iter().any(|sys| sys.name == name))
        {
            Some(other) => Err(Error::OrderingAcrossStages {
                system: who.to_owned(),
                stage: stage.to_string(),
                other: name.to_owned(),
                other_stage: other.label.clone(),
            }),
            None => Ok(()),
        }
    }
}

/// A system that does nothing: what a slot holds for the moment its system
/// is taken out to be wrapped with more conditions.
fn idle() -> Box<dyn AnySystem> {
    (|| {}).into_config().system
}
