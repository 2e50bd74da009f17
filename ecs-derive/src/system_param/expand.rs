//! The code `#[derive(SystemParam)]` generates: `SystemParam` for the struct,
//! forwarding every method to the fields in order.
//!
//! The state is a tuple of the fields' states, each named with the world
//! lifetime replaced by `'static`, so it does not depend on the borrow. A run
//! fetches each field as its type with the world lifetime replaced by the
//! run's, which is the field's type in `Self::Item<'run>`.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericParam, Generics, Lifetime};

use super::ParamInput;
use super::fields::type_with_lifetime;

/// The lifetime of one run's borrow, in `Item<'_>` and `fetch`.
const RUN: &str = "__ecs_run";

pub(crate) fn expand(p: &ParamInput<'_>) -> TokenStream {
    let krate = &p.krate;
    let sp = quote!(#krate::system::SystemParam);
    let name = &p.input.ident;
    let (impl_generics, type_generics, where_clause) = p.input.generics.split_for_impl();
    let run = Lifetime::new(&format!("'{RUN}"), Span::call_site());
    let item_generics = generics_with_lifetime(&p.input.generics, &run);

    // Each field's type as a param, spanned at the field so that a type that
    // is no param is reported there: with `'static` for the world (state,
    // init, prepare, apply, discard) and with the run's lifetime (fetch).
    let as_static: Vec<_> = p
        .fields
        .iter()
        .map(|f| {
            let ty = type_with_lifetime(&f.ty, &p.world, "static");
            quote_spanned!(f.ty.span()=> <#ty as #sp>)
        })
        .collect();
    let as_run: Vec<_> = p
        .fields
        .iter()
        .map(|f| {
            let ty = type_with_lifetime(&f.ty, &p.world, RUN);
            quote_spanned!(f.ty.span()=> <#ty as #sp>)
        })
        .collect();
    let members: Vec<_> = p.fields.iter().map(|f| &f.member).collect();
    let states: Vec<_> = (0..p.fields.len())
        .map(|i| format_ident!("__ecs_state_{}", i))
        .collect();

    quote! {
        // SAFETY: `init` registers every field's access, `fetch` builds every
        // field from the same world under the caller's contract, and
        // `prepare`, `apply`, `discard` and `defer` reach each field's own state only.
        #[automatically_derived]
        unsafe impl #impl_generics #sp for #name #type_generics #where_clause {
            type State = ( #( #as_static::State, )* );
            type Item<#run> = #name #item_generics;

            const DEFERS: bool = false #( || #as_static::DEFERS )*;
            const PREPARES: bool = false #( || #as_static::PREPARES )*;

            fn init(__ecs_access: &mut #krate::system::SystemAccess) -> Self::State {
                ( #( #as_static::init(__ecs_access), )* )
            }

            #[inline]
            unsafe fn fetch<#run>(
                __ecs_state: &#run mut Self::State,
                __ecs_world: #krate::system::SystemWorld<#run>,
            ) -> ::core::result::Result<Self::Item<#run>, #krate::Error> {
                let ( #( #states, )* ) = __ecs_state;
                ::core::result::Result::Ok(#name {
                    #(
                        #members: {
                            // The item type is pinned: the field's type at this run's borrow.
                            let __ecs_field: #as_run::Item<#run> =
                                // SAFETY: `__ecs_world` was made for this run and no
                                // system conflicting with the struct's access runs
                                // meanwhile (the caller's contract); that access is
                                // every field's, as `init` registered them, and it
                                // has no clash, so this field's item aliases neither
                                // another system's nor another field's.
                                unsafe { #as_run::fetch(#states, __ecs_world)? };
                            __ecs_field
                        },
                    )*
                })
            }

            fn prepare(__ecs_state: &mut Self::State, __ecs_world: &mut #krate::World) {
                let ( #( #states, )* ) = __ecs_state;
                #( #as_static::prepare(#states, __ecs_world); )*
            }

            fn apply(
                __ecs_state: &mut Self::State,
                __ecs_world: &mut #krate::World,
                __ecs_failed: &mut dyn ::core::ops::FnMut(#krate::Error),
                __ecs_removals: &mut ::std::vec::Vec<::std::string::String>,
            ) {
                let ( #( #states, )* ) = __ecs_state;
                #( #as_static::apply(#states, __ecs_world, __ecs_failed, __ecs_removals); )*
            }

            fn discard(__ecs_state: &mut Self::State) {
                let ( #( #states, )* ) = __ecs_state;
                #[allow(unused_mut)]
                let mut __ecs_panics: #krate::system::DiscardEach =
                    ::core::default::Default::default();
                #( __ecs_panics.run(|| #as_static::discard(#states)); )*
                __ecs_panics.finish();
            }

            fn defer(
                __ecs_state: &mut Self::State,
                __ecs_queue: &mut #krate::CommandQueue,
            ) {
                let ( #( #states, )* ) = __ecs_state;
                #( #as_static::defer(#states, __ecs_queue); )*
            }
        }
    }
}

/// The struct's generic arguments with the world lifetime replaced by `lifetime`.
fn generics_with_lifetime(generics: &Generics, lifetime: &Lifetime) -> TokenStream {
    let args = generics.params.iter().map(|param| match param {
        GenericParam::Lifetime(_) => quote!(#lifetime),
        GenericParam::Type(ty) => {
            let ident = &ty.ident;
            quote!(#ident)
        }
        GenericParam::Const(constant) => {
            let ident = &constant.ident;
            quote!(#ident)
        }
    });
    quote!(<#(#args),*>)
}

#[cfg(test)]
mod tests {
    use super::super::derive_system_param;
    use crate::test_util::input;

    /// The expansion of `source`, as printed tokens without spaces.
    fn expanded(source: &str) -> String {
        derive_system_param(&input(source))
            .expect("valid")
            .to_string()
            .replace(' ', "")
    }

    #[test]
    fn state_names_fields_for_static_and_fetch_for_the_run() {
        let tokens = expanded(
            "struct Physics<'w> { movers: Query<'w, Mover<'w>, Without<Frozen>>, time: Res<'w, Time> }",
        );
        assert!(tokens.contains(
            "typeState=(<Query<'static,Mover<'static>,Without<Frozen>>as::ecs_core::system::\
             SystemParam>::State,<Res<'static,Time>as::ecs_core::system::SystemParam>::State,);"
        ));
        assert!(tokens.contains("typeItem<'__ecs_run>=Physics<'__ecs_run>;"));
        assert!(tokens.contains(
            "<Query<'__ecs_run,Mover<'__ecs_run>,Without<Frozen>>as::ecs_core::system::\
             SystemParam>::fetch(__ecs_state_0,__ecs_world)?"
        ));
        assert!(tokens.contains("unsafeimpl<'w>::ecs_core::system::SystemParamforPhysics<'w>"));
    }

    #[test]
    fn generics_and_the_crate_path_carry_over() {
        let tokens = expanded(
            r#"#[system_param(crate = "engine::ecs")]
               struct Pair<'p, R: Send + Sync + 'static, const N: usize>(Res<'p, R>, Local<'p, [u8; N]>)
               where R: Default;"#,
        );
        assert!(tokens.contains(
            "unsafeimpl<'p,R:Send+Sync+'static,constN:usize>engine::ecs::system::SystemParam\
             forPair<'p,R,N>whereR:Default"
        ));
        assert!(tokens.contains("typeItem<'__ecs_run>=Pair<'__ecs_run,R,N>;"));
        assert!(tokens.contains("Pair{0:{"));
        assert!(tokens.contains(
            "__ecs_panics.run(||<Local<'static,[u8;N]>asengine::ecs::system::SystemParam>::\
             discard(__ecs_state_1));"
        ));
        assert!(tokens.contains(
            "<Res<'static,R>asengine::ecs::system::SystemParam>::prepare(__ecs_state_0,__ecs_world);"
        ));
    }
}
