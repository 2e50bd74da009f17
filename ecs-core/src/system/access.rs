//! What a system touches, computed from its params when it is added, and
//! the rule that decides whether two systems may run at once.

use core::any::TypeId;
use core::fmt;

use crate::access::{Access, AccessMode};
use crate::error::{AccessClash, Error};
use crate::util::ShortName;

/// One param's access: a query's components (with its filters), or a
/// resource param's one resource.
#[derive(Clone)]
struct ParamUse {
    param: &'static str,
    access: Access,
}

/// The first of `uses` whose access clashes with `access`: (its param, the
/// type's full name).
fn clash_among(uses: &[ParamUse], access: &Access) -> Option<(&'static str, &'static str)> {
    uses.iter().find_map(|earlier| {
        let (name, ..) = earlier.access.conflict_with(access)?;
        Some((earlier.param, name))
    })
}

/// The first param of `uses` that writes, and the type it writes.
fn first_writer(uses: &[ParamUse]) -> Option<(&'static str, &'static str)> {
    uses.iter()
        .find_map(|u| Some((u.param, u.access.first_write()?)))
}

/// The first type that a param of `mine` and one of `theirs` both touch,
/// one writing: (full name, mine's mode, theirs' mode).
fn conflict_among(
    mine: &[ParamUse],
    theirs: &[ParamUse],
) -> Option<(&'static str, AccessMode, AccessMode)> {
    mine.iter().find_map(|m| {
        theirs
            .iter()
            .find_map(|t| m.access.conflict_with(&t.access))
    })
}

/// Everything a system reads and writes: components per query param (with
/// the filters that tell two queries apart), resources, the whole world for
/// `&World`, or everything at once for an exclusive system.
///
/// Each param registers itself when the system is added; the first clash
/// between two params of one system is kept for
/// [`Error::ConflictingAccess`](crate::Error::ConflictingAccess).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::{SystemAccess, SystemParam};
///
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Player;
///
/// let mut players = SystemAccess::new();
/// <Query<&mut Position, With<Player>>>::init(&mut players);
/// let mut others = SystemAccess::new();
/// <Query<&mut Position, Without<Player>>>::init(&mut others);
/// assert!(players.conflict_with(&others).is_none(), "no entity matches both");
///
/// let mut all = SystemAccess::new();
/// <Query<&Position>>::init(&mut all);
/// let why = players.conflict_with(&all).unwrap();
/// assert_eq!(why.to_string(), "both reach `Position` (one writes, one reads)");
/// ```
#[derive(Clone, Default)]
pub struct SystemAccess {
    queries: Vec<ParamUse>,
    /// One use per resource param, each an `Access` of that one resource.
    resources: Vec<ParamUse>,
    /// The `&World` param, if any: it reads every component and resource.
    world_reader: Option<&'static str>,
    exclusive: bool,
    /// Whether a param reserves entity ids while the system runs
    /// (`Commands`): only such systems get a reservation lane in a batch.
    reserves_ids: bool,
    /// The first clash between two params: (first, second, type name), and
    /// where it lies.
    clash: Option<(&'static str, &'static str, &'static str, Site)>,
}

/// Where a recorded clash lies (see [`AccessClash`]).
#[derive(Clone, Copy, Debug)]
enum Site {
    Queries,
    Resource,
    /// Against `&World`.
    WorldRead,
    /// Inside one query: how its two fetches touch the type.
    WithinQuery(AccessMode, AccessMode),
}

impl fmt::Debug for SystemAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params: Vec<_> = self.queries.iter().map(|q| q.param).collect();
        let resources: Vec<_> = self.resources.iter().map(|r| r.param).collect();
        f.debug_struct("SystemAccess")
            .field("queries", &params)
            .field("resources", &resources)
            .field("reads_world", &self.world_reader.is_some())
            .field("exclusive", &self.exclusive)
            .finish()
    }
}

/// Why two systems may not run at once.
///
/// ```
/// use ecs_core::system::Conflict;
///
/// let why = Conflict::Exclusive;
/// assert_eq!(why.to_string(), "one of them is exclusive (takes `&mut World`)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Conflict {
    /// Both reach the component type, and at least one writes it.
    Component {
        /// The full type name.
        type_name: &'static str,
        /// How the first system touches it.
        first: AccessMode,
        /// How the second system touches it.
        second: AccessMode,
    },
    /// Both reach the resource type, and at least one writes it.
    Resource {
        /// The full type name.
        type_name: &'static str,
        /// How the first system touches it.
        first: AccessMode,
        /// How the second system touches it.
        second: AccessMode,
    },
    /// One reads the whole world (`&World`) and the other writes something.
    WorldRead,
    /// One of them takes `&mut World`.
    Exclusive,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let modes = |f: &mut fmt::Formatter<'_>, first: AccessMode, second: AccessMode| {
            let word = |mode| match mode {
                AccessMode::Read => "reads",
                AccessMode::Write => "writes",
            };
            if first == second {
                write!(
                    f,
                    "both {}",
                    if first == AccessMode::Write {
                        "write"
                    } else {
                        "read"
                    }
                )
            } else {
                write!(f, "one {}, one {}", word(first), word(second))
            }
        };
        match *self {
            Conflict::Component {
                type_name,
                first,
                second,
            } => {
                write!(f, "both reach `{}` (", ShortName(type_name))?;
                modes(f, first, second)?;
                f.write_str(")")
            }
            Conflict::Resource {
                type_name,
                first,
                second,
            } => {
                write!(f, "both reach the resource `{}` (", ShortName(type_name))?;
                modes(f, first, second)?;
                f.write_str(")")
            }
            Conflict::WorldRead => {
                f.write_str("one reads the whole world (`&World`), the other writes")
            }
            Conflict::Exclusive => f.write_str("one of them is exclusive (takes `&mut World`)"),
        }
    }
}

impl SystemAccess {
    /// No access at all: a system with no params, or only `Local` and `Commands`.
    ///
    /// ```
    /// # use ecs_core::system::SystemAccess;
    /// let none = SystemAccess::new();
    /// assert!(none.conflict_with(&SystemAccess::new()).is_none());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a query param: `access` holds its fetch's component access
    /// and the types its fetch and filters require or exclude. A query
    /// param calls it from [`SystemParam::init`](super::SystemParam::init).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::system::{SystemAccess, SystemParam};
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut system = SystemAccess::new();
    /// <Query<&Health>>::init(&mut system);
    /// <Query<&mut Health>>::init(&mut system);
    /// let (first, second, _) = system.clash().unwrap();
    /// assert!(!first.contains("&mut") && second.contains("&mut"), "the reader came first");
    /// ```
    #[doc(hidden)]
    pub fn add_query(&mut self, param: &'static str, access: Access) {
        self.add_use(Kind::Query, ParamUse { param, access });
    }

    /// Records a resource param that touches `R` in `mode`.
    ///
    /// ```
    /// use ecs_core::system::{AccessMode, SystemAccess};
    ///
    /// struct Score(u32);
    ///
    /// let mut system = SystemAccess::new();
    /// system.add_resource::<Score>("Res<Score>", AccessMode::Read);
    /// system.add_resource::<Score>("Res<Score>", AccessMode::Read);
    /// assert!(system.clash().is_none(), "two readers never clash");
    /// system.add_resource::<Score>("ResMut<Score>", AccessMode::Write);
    /// assert!(system.clash().is_some());
    /// ```
    pub fn add_resource<R: 'static>(&mut self, param: &'static str, mode: AccessMode) {
        let mut access = Access::new();
        access.add_type::<R>(mode);
        self.add_use(Kind::Resource, ParamUse { param, access });
    }

    /// Records one param's use, noting its first clash with an earlier param
    /// (its own fetch, an earlier param of its kind, or `&World`).
    fn add_use(&mut self, kind: Kind, added: ParamUse) {
        let uses = match kind {
            Kind::Query => &mut self.queries,
            Kind::Resource => &mut self.resources,
        };
        if self.clash.is_none() {
            let param = added.param;
            let among = match kind {
                Kind::Query => Site::Queries,
                Kind::Resource => Site::Resource,
            };
            self.clash = added
                .access
                .conflict_type_name()
                .zip(added.access.conflict_modes())
                .map(|(name, (a, b))| (param, param, name, Site::WithinQuery(a, b)))
                .or_else(|| {
                    clash_among(uses, &added.access)
                        .map(|(earlier, name)| (earlier, param, name, among))
                })
                .or_else(|| {
                    let name = added.access.first_write()?;
                    Some((self.world_reader?, param, name, Site::WorldRead))
                });
        }
        uses.push(added);
    }

    /// Records a param that reads every component and resource (`&World`).
    ///
    /// ```
    /// use ecs_core::system::{AccessMode, SystemAccess};
    ///
    /// struct Score(u32);
    ///
    /// let mut system = SystemAccess::new();
    /// system.add_resource::<Score>("ResMut<Score>", AccessMode::Write);
    /// system.add_world_read("&World");
    /// let (first, second, _) = system.clash().unwrap();
    /// assert_eq!((first, second), ("ResMut<Score>", "&World"));
    /// ```
    pub fn add_world_read(&mut self, param: &'static str) {
        if self.clash.is_none()
            && let Some((writer, name)) = self.first_writer()
        {
            self.clash = Some((writer, param, name, Site::WorldRead));
        }
        self.world_reader.get_or_insert(param);
    }

    /// The first param that writes a component or a resource, and what.
    fn first_writer(&self) -> Option<(&'static str, &'static str)> {
        first_writer(&self.queries).or_else(|| first_writer(&self.resources))
    }

    /// Marks the system exclusive: it takes `&mut World` and runs alone.
    pub(crate) fn set_exclusive(&mut self) {
        self.exclusive = true;
    }

    /// Whether the system takes `&mut World`.
    ///
    /// ```
    /// # use ecs_core::system::SystemAccess;
    /// assert!(!SystemAccess::new().is_exclusive());
    /// ```
    pub fn is_exclusive(&self) -> bool {
        self.exclusive
    }

    /// Marks the system as one that reserves entity ids while it runs.
    pub(crate) fn set_reserves_ids(&mut self) {
        self.reserves_ids = true;
    }

    /// Whether the system reserves entity ids while it runs: it has
    /// [`Commands`](crate::prelude::Commands), whose `spawn` hands out an id
    /// at once. The schedule numbers such systems' spawns apart within a
    /// batch, so every thread count gives the same ids; other systems take
    /// no part in it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::system::{SystemAccess, SystemParam};
    ///
    /// let mut spawner = SystemAccess::new();
    /// <Commands>::init(&mut spawner);
    /// assert!(spawner.reserves_ids() && !SystemAccess::new().reserves_ids());
    /// ```
    pub fn reserves_ids(&self) -> bool {
        self.reserves_ids
    }

    /// The first clash between two params of this system: (first param,
    /// second param, full type name).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::system::{SystemAccess, SystemParam};
    ///
    /// struct Score(u32);
    ///
    /// let mut access = SystemAccess::new();
    /// <(ResMut<Score>, Res<Score>)>::init(&mut access);
    /// let (_, _, type_name) = access.clash().unwrap();
    /// assert!(type_name.ends_with("Score"));
    /// ```
    pub fn clash(&self) -> Option<(&'static str, &'static str, &'static str)> {
        self.clash
            .map(|(first, second, type_name, _)| (first, second, type_name))
    }

    /// Records the members of a [`ParamSet`](super::ParamSet): each is
    /// checked against the params recorded before the set (its own clash
    /// kept), never against another member, as the set hands out one
    /// member at a time. Params recorded after the set are checked against
    /// every member.
    pub(crate) fn add_param_set(&mut self, members: &[SystemAccess]) {
        let (queries_before, resources_before) = (self.queries.len(), self.resources.len());
        let reader_before = self.world_reader;
        for member in members {
            if self.clash.is_none() {
                self.clash = member.clash;
            }
            let kinds = [
                (&member.queries, queries_before, Site::Queries),
                (&member.resources, resources_before, Site::Resource),
            ];
            for (uses, before, site) in kinds {
                for added in uses {
                    if self.clash.is_some() {
                        break;
                    }
                    let earlier = match site {
                        Site::Queries => &self.queries[..before],
                        _ => &self.resources[..before],
                    };
                    self.clash = clash_among(earlier, &added.access)
                        .map(|(first, name)| (first, added.param, name, site))
                        .or_else(|| {
                            let name = added.access.first_write()?;
                            Some((reader_before?, added.param, name, Site::WorldRead))
                        });
                }
            }
            if let Some(reader) = member.world_reader
                && self.clash.is_none()
            {
                let writer = first_writer(&self.queries[..queries_before])
                    .or_else(|| first_writer(&self.resources[..resources_before]));
                self.clash = writer.map(|(param, name)| (param, reader, name, Site::WorldRead));
            }
        }
        for member in members {
            self.queries.extend(member.queries.iter().cloned());
            self.resources.extend(member.resources.iter().cloned());
            self.world_reader = self.world_reader.or(member.world_reader);
            self.reserves_ids |= member.reserves_ids;
        }
    }

    /// Adds everything `other` touches to this access, for scheduling only:
    /// no clash between the two is recorded. A run condition's access joins
    /// its system's this way; the condition runs before the system fetches
    /// its params, so the two never hold the same data at once.
    pub(crate) fn extend_for_scheduling(&mut self, other: &SystemAccess) {
        self.queries.extend(other.queries.iter().cloned());
        self.resources.extend(other.resources.iter().cloned());
        self.world_reader = self.world_reader.or(other.world_reader);
        self.exclusive |= other.exclusive;
        self.reserves_ids |= other.reserves_ids;
    }

    /// Adds everything `other` touches to this access, for a system whose
    /// parts fetch their params one after the other, each dropping its own
    /// before the next fetches (a pipe): no clash between the two is
    /// recorded, but a clash within `other` is kept as this access's.
    pub(crate) fn extend_in_sequence(&mut self, other: &SystemAccess) {
        self.extend_for_scheduling(other);
        if self.clash.is_none() {
            self.clash = other.clash;
        }
    }

    /// The first param that writes, and what it writes (a component or
    /// resource type name; for an exclusive system or a param that spawns,
    /// a word for it): what makes a run condition not read-only.
    pub(crate) fn first_change(&self) -> Option<(&'static str, &'static str)> {
        if self.exclusive {
            return Some(("&mut World", "the whole world"));
        }
        if self.reserves_ids {
            return Some(("Commands", "entities"));
        }
        self.first_writer()
    }

    /// The error for the first clash between two params, if there is one,
    /// for the system (or, if `observer`, the observer) named `name`.
    pub(crate) fn clash_error(&self, name: impl Into<String>, observer: bool) -> Option<Error> {
        let (first, second, type_name, site) = self.clash?;
        let clash = match site {
            Site::Queries => AccessClash::Queries,
            Site::Resource => AccessClash::Resource,
            Site::WorldRead => AccessClash::WorldRead,
            Site::WithinQuery(earlier, later) => AccessClash::WithinQuery {
                first_writes: earlier == AccessMode::Write,
                second_writes: later == AccessMode::Write,
            },
        };
        Some(Error::ConflictingAccess {
            system: name.into(),
            observer,
            first: ShortName::param(first),
            second: ShortName::param(second),
            type_name,
            clash,
        })
    }

    /// Why a system with this access and one with `other` may not run at
    /// once, or `None` when they may.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::system::{Conflict, SystemAccess, SystemParam};
    ///
    /// struct Score(u32);
    ///
    /// let (mut reader, mut world) = (SystemAccess::new(), SystemAccess::new());
    /// <Res<Score>>::init(&mut reader);
    /// <&World>::init(&mut world);
    /// assert_eq!(reader.conflict_with(&world), None, "readers never conflict");
    /// let mut writer = SystemAccess::new();
    /// <ResMut<Score>>::init(&mut writer);
    /// assert_eq!(writer.conflict_with(&world), Some(Conflict::WorldRead));
    /// ```
    pub fn conflict_with(&self, other: &SystemAccess) -> Option<Conflict> {
        if self.exclusive || other.exclusive {
            return Some(Conflict::Exclusive);
        }
        if (self.world_reader.is_some() && other.writes_anything())
            || (other.world_reader.is_some() && self.writes_anything())
        {
            return Some(Conflict::WorldRead);
        }
        if let Some((type_name, first, second)) = conflict_among(&self.queries, &other.queries) {
            return Some(Conflict::Component {
                type_name,
                first,
                second,
            });
        }
        let (type_name, first, second) = conflict_among(&self.resources, &other.resources)?;
        Some(Conflict::Resource {
            type_name,
            first,
            second,
        })
    }

    /// Whether the system writes any component or resource.
    fn writes_anything(&self) -> bool {
        self.first_writer().is_some()
    }

    /// The component types each query param requires, per param: how the
    /// executor estimates a system's work from storage lengths.
    #[cfg_attr(
        not(feature = "parallel"),
        allow(
            dead_code,
            reason = "the executor estimates work only to decide on threads"
        )
    )]
    pub(crate) fn required_per_query(&self) -> impl Iterator<Item = &[TypeId]> {
        self.queries.iter().map(|q| q.access.required())
    }
}

/// Which list a param's use joins.
#[derive(Clone, Copy)]
enum Kind {
    Query,
    Resource,
}
