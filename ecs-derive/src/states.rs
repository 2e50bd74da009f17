//! `#[derive(States)]`: marks a type as a game state machine's values.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput};

use crate::marker::marker_impl;

/// The `States` impl: the trait has no items, its supertraits (`Clone`,
/// `Eq`, `Hash`, `Debug`, `Default`) are derived or written beside it.
pub(crate) fn derive_states(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Vec::new();
    if let Data::Union(data) = &input.data {
        errors.push(syn::Error::new_spanned(
            data.union_token,
            "`States` cannot be derived for a union: a state is compared and hashed by value",
        ));
    }
    marker_impl(
        input,
        "states",
        errors,
        |krate| quote!(#krate::state::States),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{input, messages};

    #[test]
    fn enums_and_structs_get_the_marker_impl() {
        let tokens = derive_states(&input("enum Mode { A, B }")).expect("valid");
        assert!(
            tokens
                .to_string()
                .contains(":: ecs_core :: state :: States for Mode")
        );
        let tokens = derive_states(&input("#[states(crate = \"engine\")] struct Level(u8);"))
            .expect("valid");
        assert!(
            tokens
                .to_string()
                .contains("engine :: state :: States for Level")
        );
    }

    #[test]
    fn unions_are_refused() {
        let error = derive_states(&input("union U { a: u8 }")).unwrap_err();
        let messages = messages(error);
        assert_eq!(messages.len(), 1);
        assert_eq!(
            messages[0].0,
            "`States` cannot be derived for a union: a state is compared and hashed by value"
        );
    }
}
