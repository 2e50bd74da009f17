//! The `requires(A, B = expr)` option of `#[derive(Component)]`: the
//! components an entity gets with this one when it lacks them.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, Path};

/// The required types, each with the expression of its value (`Default`
/// when none is given), in the order given.
#[derive(Default)]
pub(crate) struct Requires(Vec<(Path, Option<Expr>)>);

impl Requires {
    /// Parses a `requires(...)` option if `meta` is one; returns whether it
    /// was. Mistakes are reported in `errors`, and parsing goes on.
    pub(crate) fn parse(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        errors: &mut Vec<syn::Error>,
    ) -> syn::Result<bool> {
        if !meta.path.is_ident("requires") {
            return Ok(false);
        }
        if !meta.input.peek(syn::token::Paren) {
            errors.push(meta.error(
                "the `requires` option lists component types, each with an optional value: \
                 `requires(Transform, Visibility = Visibility::Visible)`",
            ));
            crate::options::skip_value(meta)?;
            return Ok(true);
        }
        meta.parse_nested_meta(|inner| {
            let value = if inner.input.peek(syn::Token![=]) {
                Some(inner.value()?.parse::<Expr>()?)
            } else {
                None
            };
            if self.0.iter().any(|(given, _)| given == &inner.path) {
                errors.push(syn::Error::new_spanned(
                    &inner.path,
                    "this component is required twice: list each type once",
                ));
            } else {
                self.0.push((inner.path.clone(), value));
            }
            Ok(())
        })?;
        Ok(true)
    }

    /// The items of the `Component` impl that declare the requirements, if
    /// any. A type without `Default` and no value is reported at its name.
    pub(crate) fn expand(&self, krate: &Path) -> Option<TokenStream> {
        if self.0.is_empty() {
            return None;
        }
        let requires = self.0.iter().map(|(ty, value)| match value {
            Some(value) => quote_spanned! {value.span()=>
                __ecs_visitor.require::<#ty>(|| #value);
            },
            None => quote_spanned! {ty.span()=>
                __ecs_visitor.require::<#ty>(<#ty as ::core::default::Default>::default);
            },
        });
        Some(quote! {
            const REQUIRES: ::core::primitive::bool = true;
            fn visit_requirements<__EcsV: #krate::__private::RequirementVisitor>(
                __ecs_visitor: &mut __EcsV,
            ) {
                #(#requires)*
            }
        })
    }
}
