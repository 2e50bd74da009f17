//! Macros shared by the tuple impls of bundles, fetches and filters.

/// Calls `$mac!` with every suffix of the list, down to the empty one, so a
/// trait gets impls for tuples of every length up to the list's.
macro_rules! all_tuples {
    ($mac:ident: $first:ident $(, $rest:ident)*) => {
        $mac!($first $(, $rest)*);
        crate::util::macros::all_tuples!($mac: $($rest),*);
    };
    ($mac:ident:) => {
        $mac!();
    };
}

pub(crate) use all_tuples;

/// Like [`all_tuples`], with a second identifier beside each type parameter,
/// for impls that need two bindings per element.
macro_rules! all_tuple_pairs {
    ($mac:ident: ($first:ident, $first_b:ident) $(, ($rest:ident, $rest_b:ident))*) => {
        $mac!(($first, $first_b) $(, ($rest, $rest_b))*);
        crate::util::macros::all_tuple_pairs!($mac: $(($rest, $rest_b)),*);
    };
    ($mac:ident:) => {
        $mac!();
    };
}

pub(crate) use all_tuple_pairs;
