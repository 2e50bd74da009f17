//! The component types the generated operations use, and how the model sees any component type.
//!
//! The model stores every value as a [`Value`] under the [`Key`] of its type. Any component type
//! can be mirrored ([`Mirror`]: its short name and its value as a [`Value`]); the types that
//! generated operations make and change also implement [`Generate`]. A test may mirror its own
//! types (a value holding a ledger token, a const-generic family of types) and still use the one
//! model.

use std::any::{TypeId, type_name};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::marker::PhantomData;

use ecs_core::prelude::*;

use crate::ledger::{Ledger, Token};

/// A component value as the model stores it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A zero-sized tag.
    Unit,
    /// A `u32`.
    U32(u32),
    /// A `u64`.
    U64(u64),
    /// An `i64`.
    I64(i64),
    /// Two `i32`s.
    Pair(i32, i32),
    /// A string.
    Text(String),
    /// A list of `u16`s.
    List(Vec<u16>),
}

impl Value {
    /// The change [`Generate::bump`] makes to a value of this form, applied to the model's copy.
    pub fn bump(&mut self, k: u8) {
        match self {
            Value::Unit => {}
            Value::U32(x) => *x = x.wrapping_add(u32::from(k)),
            Value::U64(x) => *x = x.wrapping_add(u64::from(k)),
            Value::I64(x) => *x = x.wrapping_add(i64::from(k)),
            Value::Pair(x, y) => {
                *x = x.wrapping_add(i32::from(k));
                *y ^= i32::from(k) << 3;
            }
            Value::Text(s) => s.push(bump_char(k)),
            Value::List(v) => v.push(u16::from(k)),
        }
    }
}

/// The character a bump by `k` appends to a string: mostly ASCII, sometimes two bytes long.
pub fn bump_char(k: u8) -> char {
    if k >= 250 {
        'é'
    } else {
        char::from(b'a' + k % 26)
    }
}

/// A component type the model can mirror.
pub trait Mirror: Component + Sized {
    /// What `ComponentInfo::name` reports for the type: its name without module paths.
    fn short_name() -> Cow<'static, str>;
    /// The model's copy of the value.
    fn mirror(&self) -> Value;
    /// Whether the model's copy is `value`; the checks call this on every value of every
    /// entity, so heap-owning types override it to compare without a copy.
    fn mirrors(&self, value: &Value) -> bool {
        self.mirror() == *value
    }
}

/// A component type that generated operations make from the model's description and change in
/// place.
pub trait Generate: Mirror {
    /// A value from the model's description (panics on a description of another form).
    fn make(value: &Value) -> Self;
    /// The change `get_mut`, `iter_mut` and the other writing paths apply: the same change
    /// [`Value::bump`] makes to the mirrored value.
    fn bump(&mut self, k: u8);
}

/// A component type, as the model keys its values: ordered by `TypeId`, and able to read the
/// type's values back out of a world.
#[derive(Clone, Copy)]
pub struct Key {
    // Kept beside the vtable: keys are compared far more often than anything else is called.
    id: TypeId,
    ops: &'static dyn Erased,
}

/// What the model needs of a component type without knowing it statically.
trait Erased: Send + Sync {
    fn type_name(&self) -> &'static str;
    fn short_name(&self) -> Cow<'static, str>;
    fn size(&self) -> usize;
    fn get(&self, world: &World, entity: Entity) -> Result<Value, Error>;
    fn holds(&self, world: &World, entity: Entity, expected: Option<&Value>) -> bool;
    fn contains(&self, world: &World, entity: Entity) -> bool;
    fn count(&self, world: &World) -> usize;
}

struct Of<T>(PhantomData<fn() -> T>);

impl<T: Mirror> Erased for Of<T> {
    fn type_name(&self) -> &'static str {
        type_name::<T>()
    }
    fn short_name(&self) -> Cow<'static, str> {
        T::short_name()
    }
    fn size(&self) -> usize {
        size_of::<T>()
    }
    fn get(&self, world: &World, entity: Entity) -> Result<Value, Error> {
        world.get::<T>(entity).map(T::mirror)
    }
    fn holds(&self, world: &World, entity: Entity, expected: Option<&Value>) -> bool {
        match (world.get::<T>(entity), expected) {
            (Ok(got), Some(value)) => got.mirrors(value),
            (
                Err(Error::MissingComponent {
                    entity: e,
                    component,
                }),
                None,
            ) => e == entity && component == type_name::<T>(),
            _ => false,
        }
    }
    fn contains(&self, world: &World, entity: Entity) -> bool {
        world.contains::<T>(entity)
    }
    fn count(&self, world: &World) -> usize {
        world.query_ref::<Entity>().with::<T>().iter().count()
    }
}

impl Key {
    /// The key of `T`.
    pub fn of<T: Mirror>() -> Key {
        Key {
            id: TypeId::of::<T>(),
            ops: &Of::<T>(PhantomData),
        }
    }

    /// `std::any::type_name` of the type, as errors name it.
    pub fn type_name(self) -> &'static str {
        self.ops.type_name()
    }

    /// The type's name without module paths, as `ComponentInfo::name` gives it.
    pub fn short_name(self) -> Cow<'static, str> {
        self.ops.short_name()
    }

    /// `size_of` the type.
    pub fn size(self) -> usize {
        self.ops.size()
    }

    /// `world.get::<T>(entity)`, mirrored.
    pub fn get(self, world: &World, entity: Entity) -> Result<Value, Error> {
        self.ops.get(world, entity)
    }

    /// Whether `world.get::<T>(entity)` gives `expected`, or `MissingComponent` for `None`
    /// (without copying the value).
    pub fn holds(self, world: &World, entity: Entity, expected: Option<&Value>) -> bool {
        self.ops.holds(world, entity, expected)
    }

    /// `world.contains::<T>(entity)`.
    pub fn contains(self, world: &World, entity: Entity) -> bool {
        self.ops.contains(world, entity)
    }

    /// How many entities a query `With<T>` yields.
    pub fn count(self, world: &World) -> usize {
        self.ops.count(world)
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        self.id.cmp(&other.id)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.short_name())
    }
}

// ---------------------------------------------------------------------------------------------
// The generated component types
// ---------------------------------------------------------------------------------------------

/// Plain-old-data component.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos(pub i32, pub i32);

/// Heap-owning component (`String`).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Name(pub String);

/// Heap-owning component (`Vec`).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Items(pub Vec<u16>);

/// Zero-sized tag.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag;

/// A second zero-sized tag.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark;

/// Plain-old-data component whose values reach `u64::MAX` and wrap.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count(pub u64);

/// A number that is also a value of this thread's drop ledger ([`Tracked::ledger`]), so the
/// tests can tell how many are alive and that none is dropped twice.
#[derive(Component, Debug, PartialEq)]
pub struct Tracked {
    value: u32,
    _token: Token,
}

thread_local! {
    static TRACKED: Ledger = Ledger::default();
}

impl Tracked {
    /// A tracked value.
    pub fn new(value: u32) -> Self {
        Tracked {
            value,
            _token: TRACKED.with(Ledger::token),
        }
    }

    /// The number it holds.
    pub fn value(&self) -> u32 {
        self.value
    }

    /// The ledger of the `Tracked` values made on this thread.
    pub fn ledger() -> Ledger {
        TRACKED.with(Ledger::clone)
    }
}

/// One of the generated component types, chosen at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Which {
    /// [`Pos`]
    Pos,
    /// [`Name`]
    Name,
    /// [`Items`]
    Items,
    /// [`Tag`]
    Tag,
    /// [`Tracked`]
    Tracked,
    /// [`Count`]
    Count,
    /// [`Mark`]
    Mark,
}

/// Runs `$body` with `$T` naming the component type `$w` stands for.
macro_rules! with_type {
    ($w:expr, $T:ident => $body:expr) => {
        match $w {
            $crate::Which::Pos => {
                type $T = $crate::Pos;
                $body
            }
            $crate::Which::Name => {
                type $T = $crate::Name;
                $body
            }
            $crate::Which::Items => {
                type $T = $crate::Items;
                $body
            }
            $crate::Which::Tag => {
                type $T = $crate::Tag;
                $body
            }
            $crate::Which::Tracked => {
                type $T = $crate::Tracked;
                $body
            }
            $crate::Which::Count => {
                type $T = $crate::Count;
                $body
            }
            $crate::Which::Mark => {
                type $T = $crate::Mark;
                $body
            }
        }
    };
}
pub(crate) use with_type;

impl Which {
    /// The types the byte decoder picks from, in its order.
    pub const FUZZ: [Which; 5] = [
        Which::Pos,
        Which::Name,
        Which::Items,
        Which::Tag,
        Which::Tracked,
    ];

    /// Every generated type.
    pub const ALL: [Which; 7] = [
        Which::Pos,
        Which::Name,
        Which::Items,
        Which::Tag,
        Which::Tracked,
        Which::Count,
        Which::Mark,
    ];

    /// The model's key of the type.
    pub fn key(self) -> Key {
        with_type!(self, T => Key::of::<T>())
    }

    /// `std::any::type_name` of the type.
    pub fn type_name(self) -> &'static str {
        with_type!(self, T => type_name::<T>())
    }
}

impl Mirror for Pos {
    fn short_name() -> Cow<'static, str> {
        "Pos".into()
    }
    fn mirror(&self) -> Value {
        Value::Pair(self.0, self.1)
    }
}

impl Generate for Pos {
    fn make(value: &Value) -> Self {
        match value {
            Value::Pair(x, y) => Pos(*x, *y),
            _ => unreachable!("not a Pos: {value:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.0 = self.0.wrapping_add(i32::from(k));
        self.1 ^= i32::from(k) << 3;
    }
}

impl Mirror for Name {
    fn short_name() -> Cow<'static, str> {
        "Name".into()
    }
    fn mirror(&self) -> Value {
        Value::Text(self.0.clone())
    }
    fn mirrors(&self, value: &Value) -> bool {
        matches!(value, Value::Text(s) if *s == self.0)
    }
}

impl Generate for Name {
    fn make(value: &Value) -> Self {
        match value {
            Value::Text(s) => Name(s.clone()),
            _ => unreachable!("not a Name: {value:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.0.push(bump_char(k));
    }
}

impl Mirror for Items {
    fn short_name() -> Cow<'static, str> {
        "Items".into()
    }
    fn mirror(&self) -> Value {
        Value::List(self.0.clone())
    }
    fn mirrors(&self, value: &Value) -> bool {
        matches!(value, Value::List(v) if *v == self.0)
    }
}

impl Generate for Items {
    fn make(value: &Value) -> Self {
        match value {
            Value::List(items) => Items(items.clone()),
            _ => unreachable!("not Items: {value:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.0.push(u16::from(k));
    }
}

impl Mirror for Tag {
    fn short_name() -> Cow<'static, str> {
        "Tag".into()
    }
    fn mirror(&self) -> Value {
        Value::Unit
    }
}

impl Generate for Tag {
    fn make(_: &Value) -> Self {
        Tag
    }
    fn bump(&mut self, _: u8) {}
}

impl Mirror for Mark {
    fn short_name() -> Cow<'static, str> {
        "Mark".into()
    }
    fn mirror(&self) -> Value {
        Value::Unit
    }
}

impl Generate for Mark {
    fn make(_: &Value) -> Self {
        Mark
    }
    fn bump(&mut self, _: u8) {}
}

impl Mirror for Count {
    fn short_name() -> Cow<'static, str> {
        "Count".into()
    }
    fn mirror(&self) -> Value {
        Value::U64(self.0)
    }
}

impl Generate for Count {
    fn make(value: &Value) -> Self {
        match value {
            Value::U64(x) => Count(*x),
            _ => unreachable!("not a Count: {value:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.0 = self.0.wrapping_add(u64::from(k));
    }
}

impl Mirror for Tracked {
    fn short_name() -> Cow<'static, str> {
        "Tracked".into()
    }
    fn mirror(&self) -> Value {
        Value::U32(self.value)
    }
}

impl Generate for Tracked {
    fn make(value: &Value) -> Self {
        match value {
            Value::U32(t) => Tracked::new(*t),
            _ => unreachable!("not Tracked: {value:?}"),
        }
    }
    fn bump(&mut self, k: u8) {
        self.value = self.value.wrapping_add(u32::from(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(w: Which, k: u8) -> Value {
        match w {
            Which::Pos => Value::Pair(-3, 77),
            Which::Name => Value::Text("ab".into()),
            Which::Items => Value::List(vec![k.into()]),
            Which::Tag | Which::Mark => Value::Unit,
            Which::Tracked => Value::U32(u32::MAX - 1),
            Which::Count => Value::U64(u64::MAX),
        }
    }

    /// Each type's `bump` changes the value exactly as `Value::bump` changes its mirror, and
    /// `make` / `mirror` round-trip: the model's predictions rest on both.
    #[test]
    fn bump_and_make_agree_with_the_mirror() {
        for w in Which::ALL {
            for k in [0, 1, 7, 250, 255] {
                let value = value_of(w, k);
                let (got, round_trip) = with_type!(w, T => {
                    let mut c = T::make(&value);
                    let round_trip = c.mirror();
                    c.bump(k);
                    (c.mirror(), round_trip)
                });
                let mut expected = value.clone();
                expected.bump(k);
                assert_eq!(round_trip, value, "{w:?}");
                assert_eq!(got, expected, "{w:?} bumped by {k}");
            }
        }
    }

    /// Keys compare by type, name the type as `ComponentInfo` does, and read values back.
    #[test]
    fn keys_identify_types_and_read_worlds() {
        assert_eq!(Key::of::<Pos>(), Which::Pos.key());
        assert_ne!(Key::of::<Tag>(), Key::of::<Mark>());
        let mut world = World::new();
        let e = world.spawn((Pos(1, 2), Tracked::new(4)));
        let infos: Vec<_> = world
            .components_of(e)
            .expect("alive")
            .map(|held| held.info().clone())
            .collect();
        for (info, w) in infos.iter().zip([Which::Pos, Which::Tracked]) {
            let key = w.key();
            assert_eq!(info.name(), key.short_name());
            assert_eq!(info.type_name(), key.type_name());
            assert_eq!(info.size(), key.size());
            assert_eq!(key.count(&world), 1);
        }
        assert_eq!(Which::Tracked.key().get(&world, e), Ok(Value::U32(4)));
        assert!(!Which::Name.key().contains(&world, e));
        let live = Tracked::ledger().live();
        drop(world);
        assert_eq!(Tracked::ledger().live(), live - 1);
    }
}
