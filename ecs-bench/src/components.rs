//! The component types of the workloads.

use ecs_core::prelude::*;

/// A 4x4 matrix: the heavy, rarely touched component of simple_iter.
#[derive(Component, Clone, Copy, Debug)]
pub struct Transform(pub [[f32; 4]; 4]);

/// A position in 3D.
#[derive(Component, Clone, Copy, Debug)]
pub struct Position(pub [f32; 3]);

/// A rotation in 3D.
#[derive(Component, Clone, Copy, Debug)]
pub struct Rotation(pub [f32; 3]);

/// A velocity in 3D.
#[derive(Component, Clone, Copy, Debug)]
pub struct Velocity(pub [f32; 3]);

/// The component of add_remove that comes and goes.
#[derive(Component, Clone, Copy, Debug)]
pub struct Extra(pub f32);

/// The shared component of frag_iter.
#[derive(Component, Clone, Copy, Debug)]
pub struct Data(pub f32);

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

/// Declares the 26 tag-like components of frag_iter, `A` to `Z`, each holding an f32.
macro_rules! frag_types {
    ($($name:ident),*) => {
        $(
            #[doc = concat!("frag_iter's fragmenting component `", stringify!($name), "`.")]
            #[derive(Component, Clone, Copy, Debug)]
            pub struct $name(pub f32);
        )*

        /// Spawns frag_iter's world: for each of the 26 types, 20 entities holding it and `Data`.
        pub fn spawn_fragmented(world: &mut World) {
            $(
                world.spawn_batch((0..20).map(|_| ($name(0.0), Data(1.0))));
            )*
        }
    };
}

frag_types!(
    A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z
);
