//! The impl of a marker trait (no items), for a derive whose only option is
//! `crate = "path"`: `States`, `Event`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, Path};

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};

/// `impl Trait for Name {}`, `Trait` being `path` of the core crate's path,
/// after the options of `#[attr(..)]` are read; `errors` found before are
/// reported with theirs.
pub(crate) fn marker_impl(
    input: &DeriveInput,
    attr: &str,
    mut errors: Vec<syn::Error>,
    path: impl FnOnce(&Path) -> TokenStream,
) -> syn::Result<TokenStream> {
    let mut krate = CratePath::new();
    parse_options(
        &input.attrs,
        attr,
        "`crate = \"path\"`",
        &mut errors,
        |meta, errors| krate.parse(meta, errors),
    );
    combine(errors)?;
    let krate = krate.get();
    let trait_path = path(&krate);
    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics #trait_path for #name #type_generics #where_clause {}
    })
}
