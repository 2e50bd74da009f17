//! `#[derive(Event)]`: marks a type as an event a game triggers for its
//! observers (`world.trigger(..)`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};

/// The `Event` impl: the trait has no items; `Send + Sync + 'static` is
/// checked by the impl itself.
pub(crate) fn derive_event(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Vec::new();
    let mut krate = CratePath::new();
    parse_options(
        &input.attrs,
        "event",
        "`crate = \"path\"`",
        &mut errors,
        |meta, errors| krate.parse(meta, errors),
    );
    combine(errors)?;
    let krate = krate.get();
    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics #krate::Event for #name #type_generics #where_clause {}
    })
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
