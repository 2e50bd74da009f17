//! Macros shared by the tuple impls of bundles, fetches and filters.

/// Calls `$mac!` with every suffix of the list, down to the empty one, so a
/// trait gets impls for tuples of every length up to the list's.
macro_rules! all_tuples {
    ($mac:ident: $first:ident $(, $rest:ident)*) => {
        $mac!($first $(, $rest)*);
        crate::macros::all_tuples!($mac: $($rest),*);
    };
    ($mac:ident:) => {
        $mac!();
    };
}

pub(crate) use all_tuples;
