//! The component types of the workloads, shared by every library.
//!
//! With the `peers` feature each type also implements the component traits of
//! the libraries that need one (bevy_ecs, shipyard, specs); hecs, sparsey and
//! legion take any `Send + Sync + 'static` type.

use ecs_core::prelude::*;

/// Declares component structs with our derive and, under `peers`, the peers' traits.
macro_rules! components {
    ($($(#[$meta:meta])* pub struct $name:ident($ty:ty);)*) => {
        $(
            $(#[$meta])*
            #[derive(
                ecs_core::Component,
                Clone,
                Copy,
                Debug,
                PartialEq,
                serde::Serialize,
                serde::Deserialize
            )]
            #[cfg_attr(
                feature = "peers",
                derive(bevy_ecs::component::Component, shipyard::Component)
            )]
            pub struct $name(pub $ty);

            #[cfg(feature = "peers")]
            impl specs::Component for $name {
                type Storage = specs::VecStorage<Self>;
            }
        )*
    };
}

components! {
    /// A 4x4 matrix: the heavy, rarely touched component of simple_iter, and
    /// the matrix heavy_compute inverts.
    pub struct Transform([[f32; 4]; 4]);
    /// A position in 3D.
    pub struct Position([f32; 3]);
    /// A rotation in 3D.
    pub struct Rotation([f32; 3]);
    /// A velocity in 3D.
    pub struct Velocity([f32; 3]);
    /// The component of add_remove that comes and goes.
    pub struct Extra(f32);
    /// The shared component of frag_iter.
    pub struct Data(f32);
    /// A node's offset from its parent, in the hierarchy workloads.
    pub struct LocalOffset([f32; 3]);
    /// A node's position in the world, written by the hierarchy's propagation.
    pub struct GlobalPosition([f32; 3]);
}

/// The four components of simple_iter's and simple_insert's entities, for entity `i`.
pub fn four_components(i: usize) -> (Transform, Position, Rotation, Velocity) {
    let f = i as f32;
    (
        Transform([[f; 4]; 4]),
        Position([f; 3]),
        Rotation([f; 3]),
        Velocity([1.0; 3]),
    )
}

/// Position and velocity of big_iter's and despawn_churn's entities, for entity `i`.
pub fn moving(i: usize) -> (Position, Velocity) {
    (Position([i as f32; 3]), Velocity([1.0; 3]))
}

/// Calls `$callback!($world ; T)` once for each of frag_iter's 26 types `A` to `Z`,
/// so each library's frag_iter can spawn and register them without listing them.
macro_rules! for_each_frag_type {
    ($callback:ident!($world:ident)) => {
        $crate::components::for_each_frag_type!(@each $callback $world
            A B C D E F G H I J K L M N O P Q R S T U V W X Y Z);
    };
    (@each $callback:ident $world:ident $($name:ident)*) => {
        $( $callback!($world ; $crate::components::$name); )*
    };
}
pub(crate) use for_each_frag_type;

components! {
    /// frag_iter's fragmenting component `A`.
    pub struct A(f32);
    /// frag_iter's fragmenting component `B`.
    pub struct B(f32);
    /// frag_iter's fragmenting component `C`.
    pub struct C(f32);
    /// frag_iter's fragmenting component `D`.
    pub struct D(f32);
    /// frag_iter's fragmenting component `E`.
    pub struct E(f32);
    /// frag_iter's fragmenting component `F`.
    pub struct F(f32);
    /// frag_iter's fragmenting component `G`.
    pub struct G(f32);
    /// frag_iter's fragmenting component `H`.
    pub struct H(f32);
    /// frag_iter's fragmenting component `I`.
    pub struct I(f32);
    /// frag_iter's fragmenting component `J`.
    pub struct J(f32);
    /// frag_iter's fragmenting component `K`.
    pub struct K(f32);
    /// frag_iter's fragmenting component `L`.
    pub struct L(f32);
    /// frag_iter's fragmenting component `M`.
    pub struct M(f32);
    /// frag_iter's fragmenting component `N`.
    pub struct N(f32);
    /// frag_iter's fragmenting component `O`.
    pub struct O(f32);
    /// frag_iter's fragmenting component `P`.
    pub struct P(f32);
    /// frag_iter's fragmenting component `Q`.
    pub struct Q(f32);
    /// frag_iter's fragmenting component `R`.
    pub struct R(f32);
    /// frag_iter's fragmenting component `S`.
    pub struct S(f32);
    /// frag_iter's fragmenting component `T`.
    pub struct T(f32);
    /// frag_iter's fragmenting component `U`.
    pub struct U(f32);
    /// frag_iter's fragmenting component `V`.
    pub struct V(f32);
    /// frag_iter's fragmenting component `W`.
    pub struct W(f32);
    /// frag_iter's fragmenting component `X`.
    pub struct X(f32);
    /// frag_iter's fragmenting component `Y`.
    pub struct Y(f32);
    /// frag_iter's fragmenting component `Z`.
    pub struct Z(f32);
}

/// Entities per fragmenting type in frag_iter.
pub const FRAG_ENTITIES_PER_TYPE: usize = 20;

/// Spawns frag_iter's world: for each of the 26 types, 20 entities holding it and `Data`.
pub fn spawn_fragmented(world: &mut World) {
    macro_rules! spawn_type {
        ($world:ident ; $ty:path) => {
            $world.spawn_batch((0..FRAG_ENTITIES_PER_TYPE).map(|_| ($ty(0.0), Data(1.0))));
        };
    }
    for_each_frag_type!(spawn_type!(world));
}

/// A component that is one `f32`: the lettered components `A` to `Z`. Lets
/// generic systems (schedule's, schedule_many's) reach the value.
pub trait Scalar: Copy + Send + Sync + 'static {
    /// The letter's place in the alphabet, from 0 for `A`.
    const INDEX: usize;

    /// The component holding `value`.
    fn new(value: f32) -> Self;

    /// The value.
    fn value(&self) -> f32;

    /// The value, to change it.
    fn value_mut(&mut self) -> &mut f32;
}

/// Implements [`Scalar`] for each letter with its index.
macro_rules! scalars {
    ($($name:ident $index:literal)*) => {
        $(
            impl Scalar for $name {
                const INDEX: usize = $index;

                #[inline]
                fn new(value: f32) -> Self {
                    Self(value)
                }

                #[inline]
                fn value(&self) -> f32 {
                    self.0
                }

                #[inline]
                fn value_mut(&mut self) -> &mut f32 {
                    &mut self.0
                }
            }
        )*
    };
}

scalars! {
    A 0 B 1 C 2 D 3 E 4 F 5 G 6 H 7 I 8 J 9 K 10 L 11 M 12
    N 13 O 14 P 15 Q 16 R 17 S 18 T 19 U 20 V 21 W 22 X 23 Y 24 Z 25
}
