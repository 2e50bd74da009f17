//! What orderings name and what they group: a system by name or by its
//! function (`SystemName`), tuples of systems (`IntoSystemConfigs`, with
//! `chain` and `in_set`), and a set's own orderings (`SetConfig`, `after`,
//! `before`).

use std::borrow::Cow;

use crate::world::World;

use super::condition::Condition;
use super::config::{ExclusiveMarker, FunctionMarker, IntoSystem, SystemConfig, function_name};
use super::function::SystemParamFunction;
use super::shared_condition::{SharedCondition, SharedMember};

/// What an ordering names: a system or set by name (`"movement"`), or a
/// system function or `&mut World` closure itself, which stands for the
/// name it gets when added without [`named`](IntoSystem::named).
///
/// ```
/// use ecs_core::system::SystemName;
///
/// fn move_ships() {}
/// assert_eq!(move_ships.system_name(), "move_ships");
/// assert_eq!("combat".system_name(), "combat");
/// ```
pub trait SystemName<Marker> {
    /// The name.
    fn system_name(self) -> Cow<'static, str>;
}

/// Marks the [`SystemName`] impls for names.
#[doc(hidden)]
pub enum NameMarker {}

impl SystemName<NameMarker> for &'static str {
    fn system_name(self) -> Cow<'static, str> {
        Cow::Borrowed(self)
    }
}

impl SystemName<NameMarker> for String {
    fn system_name(self) -> Cow<'static, str> {
        Cow::Owned(self)
    }
}

impl SystemName<NameMarker> for Cow<'static, str> {
    fn system_name(self) -> Cow<'static, str> {
        self
    }
}

impl<M: 'static, F: SystemParamFunction<M>> SystemName<FunctionMarker<M>> for F {
    fn system_name(self) -> Cow<'static, str> {
        function_name(core::any::type_name::<F>())
    }
}

impl<F: FnMut(&mut World) + Send + 'static> SystemName<ExclusiveMarker> for F {
    fn system_name(self) -> Cow<'static, str> {
        function_name(core::any::type_name::<F>())
    }
}

/// Several systems for [`Schedule::add_systems`](crate::Schedule::add_systems),
/// made from a tuple of systems (`(a, b, c)`) by the methods of
/// [`IntoSystemConfigs`].
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::SystemConfigs;
///
/// fn a() {}
/// fn b() {}
/// let configs: SystemConfigs = (a, b).chain();
/// assert_eq!(configs.len(), 2);
/// ```
#[derive(Debug)]
pub struct SystemConfigs(pub(crate) Vec<SystemConfig>);

impl SystemConfigs {
    /// How many systems it holds.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// fn a() {}
    /// assert_eq!((a,).in_set("s").len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it holds no system.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// fn a() {}
    /// assert!(!(a,).in_set("s").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A tuple of systems (each anything [`IntoSystem`], configured or not), or
/// [`SystemConfigs`]: what [`Schedule::add_systems`](crate::Schedule::add_systems) takes.
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn read_input() {}
/// fn steer() {}
/// fn move_ships() {}
///
/// let mut schedule = Schedule::new();
/// schedule.add_systems(Stage::Update, (move_ships, steer, read_input).chain())?;
/// let why = schedule.explain()?;
/// assert_eq!(why.stage(Stage::Update).unwrap().order, ["move_ships", "steer", "read_input"]);
/// # Ok::<(), Error>(())
/// ```
pub trait IntoSystemConfigs<Marker>: Sized {
    /// The systems, configured.
    fn into_configs(self) -> SystemConfigs;

    /// Orders the systems one after another, in the order given. Where a
    /// system has params that defer (`Commands`, ...), what it deferred
    /// applies before the next one runs: a sync point, as an exclusive
    /// system between them would make (shown by
    /// [`explain`](crate::Schedule::explain)). The same holds for every
    /// ordering (`after`, `before`, sets'); see
    /// [`chain_ignore_deferred`](Self::chain_ignore_deferred) to opt out.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Marker;
    /// #[derive(Default)]
    /// struct Seen(usize);
    ///
    /// fn trigger(mut commands: Commands) { commands.spawn(Marker); }
    /// fn evaluate(q: Query<&Marker>, mut seen: ResMut<Seen>) { seen.0 = q.iter().count(); }
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Seen>();
    /// let mut schedule = Schedule::new();
    /// schedule.add_systems(Stage::Update, (trigger, evaluate).chain())?;
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Seen>()?.0, 1, "the marker, in the same frame");
    /// # Ok::<(), Error>(())
    /// ```
    fn chain(self) -> SystemConfigs {
        let mut configs = self.into_configs();
        for config in configs.0.iter_mut().skip(1) {
            config.chained = Some(true);
        }
        configs
    }

    /// Orders the systems one after another, as [`chain`](Self::chain),
    /// without sync points: what a system defers applies where it would
    /// without the chain (at the stage's end, or an earlier sync point), so
    /// the next system may not see it yet. For chains that order only for
    /// data and would rather keep their systems' batches close.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Marker;
    /// #[derive(Default)]
    /// struct Seen(usize);
    ///
    /// fn trigger(mut commands: Commands) { commands.spawn(Marker); }
    /// fn evaluate(q: Query<&Marker>, mut seen: ResMut<Seen>) { seen.0 = q.iter().count(); }
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Seen>();
    /// let mut schedule = Schedule::new();
    /// schedule.add_systems(Stage::Update, (trigger, evaluate).chain_ignore_deferred())?;
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Seen>()?.0, 0, "applied at the stage's end");
    /// assert_eq!(world.query::<&Marker>().iter().count(), 1);
    /// # Ok::<(), Error>(())
    /// ```
    fn chain_ignore_deferred(self) -> SystemConfigs {
        let mut configs = self.into_configs();
        for config in configs.0.iter_mut().skip(1) {
            // A sync point asked for by another chain over the same pair
            // stays.
            config.chained.get_or_insert(false);
        }
        configs
    }

    /// Puts every system in the set `set` (see [`IntoSystem::in_set`]).
    fn in_set(self, set: impl Into<Cow<'static, str>>) -> SystemConfigs {
        let set = set.into();
        let mut configs = self.into_configs();
        for config in &mut configs.0 {
            config.sets.push(set.clone());
        }
        configs
    }

    /// Runs the systems only in frames where `condition` holds, asked once
    /// per frame for the whole group: by the first of them to be reached,
    /// whose answer the others take (so a condition that counts, or reads
    /// what an earlier member changed, answers alike for all of them). In
    /// `FixedUpdate`, the answer holds for every step of the frame. For a
    /// condition asked by each system on its own, see
    /// [`distributive_run_if`](Self::distributive_run_if).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Arena;
    /// #[derive(Default)]
    /// struct Ticks(u32);
    ///
    /// fn spawn_wave(mut t: ResMut<Ticks>) { t.0 += 1; }
    /// fn move_ships(mut t: ResMut<Ticks>) { t.0 += 10; }
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Ticks>();
    /// let mut schedule = Schedule::new();
    /// schedule.add_systems(
    ///     Stage::Update,
    ///     (spawn_wave, move_ships).chain().run_if(resource_exists::<Arena>),
    /// )?;
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Ticks>()?.0, 0, "no arena: neither ran");
    /// world.insert_resource(Arena);
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Ticks>()?.0, 11);
    /// # Ok::<(), Error>(())
    /// ```
    fn run_if<M>(self, condition: impl Condition<M>) -> SystemConfigs {
        let mut configs = self.into_configs();
        let handles = SharedMember::handles(condition.into_condition(), configs.0.len());
        for (config, handle) in configs.0.iter_mut().zip(handles) {
            config.conditions.push(handle);
        }
        configs
    }

    /// Gives every system its own copy of `condition`, asked by each right
    /// before it would run, as [`IntoSystem::run_if`] on each would.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct Ticks(u32);
    ///
    /// fn a(mut t: ResMut<Ticks>) { t.0 += 1; }
    /// fn b(mut t: ResMut<Ticks>) { t.0 += 1; }
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Ticks>();
    /// let mut schedule = Schedule::new();
    /// // Each asks for itself: `b` sees the tick `a` just added.
    /// let below_one = |t: Res<Ticks>| t.0 < 1;
    /// schedule.add_systems(Stage::Update, (a, b).chain().distributive_run_if(below_one))?;
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Ticks>()?.0, 1);
    /// # Ok::<(), Error>(())
    /// ```
    fn distributive_run_if<M>(self, condition: impl Condition<M> + Clone) -> SystemConfigs {
        let mut configs = self.into_configs();
        for config in &mut configs.0 {
            config.conditions.push(condition.clone().into_condition());
        }
        configs
    }
}

impl IntoSystemConfigs<()> for SystemConfigs {
    fn into_configs(self) -> SystemConfigs {
        self
    }
}

macro_rules! tuple_configs {
    () => {};
    ($(($system:ident, $marker:ident)),*) => {
        #[allow(non_snake_case, reason = "bindings are named after type parameters")]
        impl<$($marker, $system: IntoSystem<$marker>),*> IntoSystemConfigs<($($marker,)*)>
            for ($($system,)*)
        {
            fn into_configs(self) -> SystemConfigs {
                let ($($system,)*) = self;
                SystemConfigs(vec![$($system.into_config()),*])
            }
        }
    };
}

crate::util::macros::all_tuple_pairs!(tuple_configs:
    (S15, M15), (S14, M14), (S13, M13), (S12, M12), (S11, M11), (S10, M10), (S9, M9), (S8, M8),
    (S7, M7), (S6, M6), (S5, M5), (S4, M4), (S3, M3), (S2, M2), (S1, M1), (S0, M0));

/// How a set is ordered in its stage: the systems and sets it runs after
/// and before. Made with [`after`] or [`before`] and given to
/// [`Schedule::configure_set`](crate::Schedule::configure_set).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::SetConfig;
///
/// let config: SetConfig = after("physics").before("render");
/// assert!(format!("{config:?}").contains("physics"));
/// ```
#[derive(Clone, Default)]
pub struct SetConfig {
    pub(crate) after: Vec<Cow<'static, str>>,
    pub(crate) before: Vec<Cow<'static, str>>,
    /// Conditions every member must pass, each asked once per frame for the
    /// whole set.
    pub(crate) conditions: Vec<SharedCondition>,
}

impl core::fmt::Debug for SetConfig {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let conditions: Vec<&str> = self.conditions.iter().map(SharedCondition::name).collect();
        f.debug_struct("SetConfig")
            .field("after", &self.after)
            .field("before", &self.before)
            .field("conditions", &conditions)
            .finish()
    }
}

impl SetConfig {
    /// Also runs the set's systems only in frames where `condition` holds,
    /// asked once per frame for the whole set (see [`run_if`]).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Arena;
    /// fn physics() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, physics)?;
    /// let config = after(physics).run_if(resource_exists::<Arena>);
    /// schedule.configure_set(Stage::Update, "combat", config)?;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn run_if<M>(mut self, condition: impl Condition<M>) -> SetConfig {
        let condition = condition.into_condition();
        let name = format!("{} (once for its set)", condition.name());
        self.conditions.push(SharedCondition::new(condition, name));
        self
    }

    /// Also runs the set after `other`.
    pub fn after<M>(mut self, other: impl SystemName<M>) -> SetConfig {
        self.after.push(other.system_name());
        self
    }

    /// Also runs the set before `other`.
    pub fn before<M>(mut self, other: impl SystemName<M>) -> SetConfig {
        self.before.push(other.system_name());
        self
    }
}

/// A set ordering: the set runs after `other` (a system or set of its
/// stage, by name or as the function itself).
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn collide() {}
/// fn physics() {}
///
/// let mut schedule = Schedule::new();
/// schedule.add_systems(Stage::Update, (collide,).in_set("combat"))?;
/// schedule.add_system(Stage::Update, physics)?;
/// schedule.configure_set(Stage::Update, "combat", after(physics))?;
/// let why = schedule.explain()?;
/// assert_eq!(why.stage(Stage::Update).unwrap().order, ["physics", "collide"]);
/// # Ok::<(), Error>(())
/// ```
pub fn after<M>(other: impl SystemName<M>) -> SetConfig {
    SetConfig::default().after(other)
}

/// A set condition: the set's systems run only in frames where `condition`
/// holds, asked once per frame for the whole set by the first member
/// reached, whether the member was added before or after the condition.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Arena;
/// #[derive(Default)]
/// struct Hits(u32);
///
/// fn collide(mut hits: ResMut<Hits>) { hits.0 += 1; }
/// fn damage(mut hits: ResMut<Hits>) { hits.0 += 10; }
///
/// let mut world = World::new();
/// world.init_resource::<Hits>();
/// let mut schedule = Schedule::new();
/// schedule.add_systems(Stage::Update, (collide,).in_set("combat"))?;
/// schedule.configure_set(Stage::Update, "combat", run_if(resource_exists::<Arena>))?;
/// schedule.add_system(Stage::Update, damage.in_set("combat").after(collide))?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Hits>()?.0, 0, "no arena");
/// world.insert_resource(Arena);
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Hits>()?.0, 11);
/// # Ok::<(), Error>(())
/// ```
pub fn run_if<M>(condition: impl Condition<M>) -> SetConfig {
    SetConfig::default().run_if(condition)
}

/// A set ordering: the set runs before `other`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn hud() {}
/// fn render() {}
///
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Last, render)?;
/// schedule.add_systems(Stage::Last, (hud,).in_set("ui"))?;
/// schedule.configure_set(Stage::Last, "ui", before("render"))?;
/// let why = schedule.explain()?;
/// assert_eq!(why.stage(Stage::Last).unwrap().order, ["hud", "render"]);
/// # Ok::<(), Error>(())
/// ```
pub fn before<M>(other: impl SystemName<M>) -> SetConfig {
    SetConfig::default().before(other)
}
