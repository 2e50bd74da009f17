//! `#[derive(Event)]`: marks a type as an event a game triggers for its
//! observers (`world.trigger(..)`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::marker::marker_impl;

/// The `Event` impl: the trait's items all have defaults (those of an event
/// aimed at no entity); `Send + Sync + 'static` is checked by the impl
/// itself.
pub(crate) fn derive_event(input: &DeriveInput) -> syn::Result<TokenStream> {
    marker_impl(input, "event", Vec::new(), |krate| quote!(#krate::Event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{input, messages};

    #[test]
    fn structs_and_enums_get_the_marker_impl() {
        let tokens = derive_event(&input("struct Explosion { radius: f32 }")).expect("valid");
        assert!(
            tokens
                .to_string()
                .contains(":: ecs_core :: Event for Explosion")
        );
        let tokens = derive_event(&input(
            "#[event(crate = \"engine\")] enum Alarm { On, Off }",
        ))
        .expect("valid");
        assert!(tokens.to_string().contains("engine :: Event for Alarm"));
    }

    #[test]
    fn an_unknown_option_is_refused() {
        let error = derive_event(&input("#[event(loud)] struct Bang;")).unwrap_err();
        assert_eq!(
            messages(error),
            [(
                "unknown `event` option `loud`; the options are: `crate = \"path\"`".to_owned(),
                "loud".to_owned()
            )]
        );
    }
}
