//! `#[derive(Component)]`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, parse_quote};

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};

const OPTIONS: &str = "`crate = \"path\"`";

pub(crate) fn derive_component(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Vec::new();
    if let Data::Union(data) = &input.data {
        errors.push(syn::Error::new_spanned(
            data.union_token,
            "`Component` cannot be derived for a union: a union's active field is unknown, \
             so its value could not be dropped correctly; wrap it in a struct that knows \
             which field is active and derive `Component` on that",
        ));
    }

    let mut krate = CratePath::new();
    parse_options(
        &input.attrs,
        "component",
        OPTIONS,
        &mut errors,
        |meta, errors| krate.parse(meta, errors),
    );
    combine(errors)?;

    let krate = krate.get();
    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let mut where_clause = where_clause.cloned();
    if !input.generics.params.is_empty() {
        // Generic parameters must make the type storable; a non-generic type is
        // checked by the trait's own supertraits, with the clearer message.
        where_clause
            .get_or_insert_with(|| parse_quote!(where))
            .predicates
            .push(parse_quote!(
                Self: ::core::marker::Send + ::core::marker::Sync + 'static
            ));
    }
    Ok(quote! {
        impl #impl_generics #krate::Component for #name #type_generics #where_clause {}
    })
}
