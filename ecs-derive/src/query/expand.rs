//! The code `#[derive(Query)]` generates: `WorldQuery` and `QueryData` for the struct, and for a
//! struct that writes, the item it yields, `{Name}Item` (where a `&'w mut T`
//! field of a type that tracks changes is a `Mut<'w, T>`), and a read-only
//! twin `{Name}ReadOnly` with its own impl.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericParam, Ident, Lifetime};

use super::QueryInput;

pub(crate) fn expand(q: &QueryInput<'_>) -> TokenStream {
    let krate = &q.krate;
    let tys: Vec<_> = q.fields.iter().map(|f| &f.ty).collect();

    if !q.writes {
        // Read-only struct: it is its own read-only form. The fields are checked
        // to be read-only by a separate function, not by where-bounds on the
        // impls: a bound `&'w T: ReadOnlyQueryData` in the impl would shadow the
        // impl of `&'w T` and leave `<&'w T as QueryData>::Item<'q>` unnormalized
        // (rust-lang/rust#152409).
        let (impl_generics, _, where_clause) = q.input.generics.split_for_impl();
        let checks = tys
            .iter()
            .map(|ty| quote_spanned!(ty.span()=> __ecs_field_is_read_only::<#ty>();));
        let main = impl_query_data(
            q,
            &q.input.ident,
            &q.input.ident,
            &Fetch::Plain,
            &quote!(Self),
        );
        let read_only = marker_impl(q, &q.input.ident);
        return quote! {
            const _: () = {
                // Bounded on the very trait the `unsafe impl` below names, so no
                // `crate = "..."` path can stand in a look-alike check.
                fn __ecs_field_is_read_only<__EcsQ: #krate::query::ReadOnlyQueryData>() {}
                #[allow(dead_code, reason = "only type-checked")]
                fn __ecs_fields_are_read_only #impl_generics () #where_clause {
                    #( #checks )*
                }
            };
            #main
            #read_only
        };
    }

    let name = &q.input.ident;
    let item = format_ident!("{}Item", name);
    let item_def = item_struct(
        q,
        &item,
        &format!(
            "What [`{name}`] yields per entity where the query may write (`Query::iter_mut`, \
             `Query::get_mut`): each field is the item of its fetch, so a `&mut T` field \
             of a type that tracks changes is a `Mut<T>`."
        ),
        &Fetch::Plain,
    );
    let twin = format_ident!("{}ReadOnly", name);
    let twin_struct = item_struct(
        q,
        &twin,
        &format!(
            "The read-only form of [`{name}`], yielded by `Query::iter`, `Query::get` and \
             `Query::single`, where the query may only read."
        ),
        &Fetch::ReadOnlyOf,
    );
    let (_, type_generics, _) = q.input.generics.split_for_impl();
    let main = impl_query_data(q, name, &item, &Fetch::Plain, &quote!(#twin #type_generics));
    let twin_impl = impl_query_data(q, &twin, &twin, &Fetch::ReadOnlyOf, &quote!(Self));
    let twin_marker = marker_impl(q, &twin);
    let read = fields_read(q);
    quote!(#item_def #twin_struct #main #twin_impl #twin_marker #read)
}

/// A function that reads every field of the struct. A struct that writes
/// only describes its item and is never built, so without this its fields
/// would be reported as never read; an item kept with `allow(dead_code)` is
/// a root of the lint's walk, so the reads count.
fn fields_read(q: &QueryInput<'_>) -> TokenStream {
    let name = &q.input.ident;
    let (impl_generics, type_generics, where_clause) = q.input.generics.split_for_impl();
    let members = q.fields.iter().map(|f| &f.member);
    quote! {
        const _: () = {
            #[allow(dead_code, reason = "only makes the fields count as read")]
            fn __ecs_fields_are_read #impl_generics (__ecs_query: &#name #type_generics)
                #where_clause
            {
                #( let _ = &__ecs_query.#members; )*
            }
        };
    }
}

/// Whether an impl fetches each field's type itself or its read-only form.
enum Fetch {
    Plain,
    ReadOnlyOf,
}

impl Fetch {
    fn of(&self, krate: &syn::Path, ty: &syn::Type) -> TokenStream {
        match self {
            Fetch::Plain => quote!(#ty),
            Fetch::ReadOnlyOf => quote!(<#ty as #krate::query::QueryData>::ReadOnly),
        }
    }
}

/// `unsafe impl WorldQuery` and `unsafe impl QueryData` for `#name`, fetching
/// every field into an `#item`.
fn impl_query_data(
    q: &QueryInput<'_>,
    name: &Ident,
    item: &Ident,
    fetch: &Fetch,
    read_only: &TokenStream,
) -> TokenStream {
    let krate = &q.krate;
    let qd = quote!(#krate::query::QueryData);
    let wq = quote!(#krate::query::WorldQuery);
    let item_lt = Lifetime::new("'__ecs_q", Span::call_site());
    let state_lt = Lifetime::new("'__ecs_s", Span::call_site());
    let (impl_generics, type_generics, where_clause) = q.input.generics.split_for_impl();
    let item_generics = generics_with_lifetime(q, &item_lt);

    let members: Vec<_> = q.fields.iter().map(|f| &f.member).collect();
    let fetched: Vec<_> = q.fields.iter().map(|f| fetch.of(krate, &f.ty)).collect();
    let index: Vec<_> = (0..q.fields.len()).map(syn::Index::from).collect();

    quote! {
        // SAFETY: every method forwards to the field fetches, which uphold the
        // contract; a match of the struct is a match of every field.
        #[automatically_derived]
        unsafe impl #impl_generics #wq for #name #type_generics #where_clause {
            type State<#state_lt> = ( #( <#fetched as #wq>::State<#state_lt>, )* );
            type Prepared = ( #( <#fetched as #wq>::Prepared, )* );

            fn access(__ecs_access: &mut #krate::query::Access) {
                #( <#fetched as #wq>::access(__ecs_access); )*
            }

            #[inline]
            fn prepare(
                __ecs_view: #krate::query::WorldView<'_>,
            ) -> Self::Prepared {
                ( #( <#fetched as #wq>::prepare(__ecs_view), )* )
            }

            #[inline]
            unsafe fn state_prepared<#state_lt, __EcsMode: #krate::query::ViewMode>(
                __ecs_prepared: &Self::Prepared,
                __ecs_view: #krate::query::WorldView<#state_lt, __EcsMode>,
            ) -> Self::State<#state_lt> {
                (
                    #(
                        // SAFETY: each field's part of `__ecs_prepared` came
                        // from that field's own `prepare`, inside `prepare` above,
                        // on a view of the world `__ecs_view` borrows (the
                        // caller's contract), as its `state_prepared` requires.
                        unsafe { <#fetched as #wq>::state_prepared(&__ecs_prepared.#index, __ecs_view) },
                    )*
                )
            }

            fn for_each_required<#state_lt>(
                __ecs_state: &Self::State<#state_lt>,
                __ecs_f: &mut impl ::core::ops::FnMut(#krate::query::Required<#state_lt>),
            ) {
                #( <#fetched as #wq>::for_each_required(&__ecs_state.#index, __ecs_f); )*
            }
        }

        // SAFETY: every method forwards to the field fetches, which uphold the
        // contract; the fields were checked not to reach one component twice
        // where either writes, and `Query` checks the access again at run time.
        #[automatically_derived]
        unsafe impl #impl_generics #qd for #name #type_generics #where_clause {
            type Item<#item_lt> = #item #item_generics;
            type ReadOnly = #read_only;

            const LEAVES: ::core::primitive::usize =
                0usize #( .saturating_add(<#fetched as #qd>::LEAVES) )*;
            const WRITES: ::core::primitive::bool = false #( || <#fetched as #qd>::WRITES )*;

            fn readonly_state<#state_lt>(
                __ecs_state: &Self::State<#state_lt>,
            ) -> <Self::ReadOnly as #wq>::State<#state_lt> {
                ( #( <#fetched as #qd>::readonly_state(&__ecs_state.#index), )* )
            }

            type Location = ( #( <#fetched as #qd>::Location, )* );

            #[inline(always)]
            fn locate(
                __ecs_state: &Self::State<'_>,
                __ecs_entity: #krate::Entity,
            ) -> ::core::option::Option<Self::Location> {
                ::core::option::Option::Some((
                    #( <#fetched as #qd>::locate(&__ecs_state.#index, __ecs_entity)?, )*
                ))
            }

            #[inline(always)]
            unsafe fn fetch_located<#item_lt>(
                __ecs_state: &Self::State<'_>,
                __ecs_entity: #krate::Entity,
                __ecs_location: Self::Location,
            ) -> Self::Item<#item_lt> {
                #item {
                    #(
                        #members: {
                            // The item lifetime is pinned by the annotation: left to
                            // inference, a field borrowed for another lifetime
                            // (`&'static T`) would get an item outliving the borrow.
                            let __ecs_field: <#fetched as #qd>::Item<#item_lt> =
                                // SAFETY: the field's location is what its own
                                // `locate` returned for this entity inside `locate`
                                // above. The caller's guarantees (entity alive, world
                                // borrowed for the item's lifetime, no other writing
                                // item of it live) hold for every field, and the
                                // query's access check, which covered every field's
                                // registrations, keeps two fields from reaching one
                                // type where either writes.
                                unsafe {
                                    <#fetched as #qd>::fetch_located(
                                        &__ecs_state.#index,
                                        __ecs_entity,
                                        __ecs_location.#index,
                                    )
                                };
                            __ecs_field
                        },
                    )*
                }
            }

            #[inline(always)]
            fn aligned(
                __ecs_state: &Self::State<'_>,
                __ecs_driver: &[#krate::Entity],
                __ecs_range: ::core::ops::Range<::core::primitive::usize>,
            ) -> ::core::primitive::bool {
                true #( && <#fetched as #qd>::aligned(
                    &__ecs_state.#index,
                    __ecs_driver,
                    ::core::clone::Clone::clone(&__ecs_range),
                ) )*
            }

            #[inline(always)]
            fn realign(
                __ecs_state: &mut Self::State<'_>,
                __ecs_driver: &[#krate::Entity],
                __ecs_at: ::core::primitive::usize,
            ) {
                #( <#fetched as #qd>::realign(&mut __ecs_state.#index, __ecs_driver, __ecs_at); )*
            }

            #[inline(always)]
            fn record_shifts(
                __ecs_state: &Self::State<'_>,
                __ecs_out: &mut impl ::core::ops::FnMut(::core::primitive::usize),
            ) {
                #( <#fetched as #qd>::record_shifts(&__ecs_state.#index, __ecs_out); )*
            }

            #[inline(always)]
            fn replay_shifts(
                __ecs_state: &mut Self::State<'_>,
                __ecs_saved: &mut &[::core::primitive::usize],
                __ecs_driver: &[#krate::Entity],
                __ecs_at: ::core::primitive::usize,
            ) {
                #( <#fetched as #qd>::replay_shifts(&mut __ecs_state.#index, __ecs_saved, __ecs_driver, __ecs_at); )*
            }

            #[inline(always)]
            unsafe fn fetch_aligned<#item_lt>(
                __ecs_state: &Self::State<'_>,
                __ecs_entity: #krate::Entity,
                __ecs_index: ::core::primitive::usize,
            ) -> Self::Item<#item_lt> {
                #item {
                    #(
                        #members: {
                            // The item lifetime is pinned as in `fetch_located`.
                            let __ecs_field: <#fetched as #qd>::Item<#item_lt> =
                                // SAFETY: the struct's `aligned` holds only where
                                // every field's does, under the shifts `realign` gave
                                // each, so the caller's alignment guarantee holds per
                                // field; the rest (entity alive, world borrowed, no
                                // other writing item live) holds for each, and the
                                // query's access check keeps the fields from aliasing.
                                unsafe {
                                    <#fetched as #qd>::fetch_aligned(&__ecs_state.#index, __ecs_entity, __ecs_index)
                                };
                            __ecs_field
                        },
                    )*
                }
            }

            fn missing(
                __ecs_state: &Self::State<'_>,
                __ecs_entity: #krate::Entity,
            ) -> ::core::option::Option<&'static ::core::primitive::str> {
                ::core::option::Option::None
                    #( .or_else(|| <#fetched as #qd>::missing(&__ecs_state.#index, __ecs_entity)) )*
            }
        }
    }
}

/// `unsafe impl ReadOnlyQueryData for #name`.
fn marker_impl(q: &QueryInput<'_>, name: &Ident) -> TokenStream {
    let krate = &q.krate;
    let (impl_generics, type_generics, where_clause) = q.input.generics.split_for_impl();
    quote! {
        // SAFETY: every field's fetch is read-only (checked by
        // `__ecs_fields_are_read_only`, or the read-only form of the field), so
        // the struct's fetch never writes.
        #[automatically_derived]
        unsafe impl #impl_generics #krate::query::ReadOnlyQueryData for #name #type_generics
            #where_clause {}
    }
}

/// A struct of the same shape as the input, each field the item of its
/// fetch (`Fetch::Plain`) or of its read-only form (`Fetch::ReadOnlyOf`).
fn item_struct(q: &QueryInput<'_>, name: &Ident, doc: &str, fetch: &Fetch) -> TokenStream {
    let krate = &q.krate;
    let qd = quote!(#krate::query::QueryData);
    let world = &q.world;
    let vis = &q.input.vis;
    let generics = &q.input.generics;
    let where_clause = &generics.where_clause;
    let fields = q.fields.iter().map(|f| {
        let (docs, field_vis) = (&f.docs, &f.vis);
        let fetched = fetch.of(krate, &f.ty);
        let ty = quote!(<#fetched as #qd>::Item<#world>);
        match &f.member {
            syn::Member::Named(ident) => quote!(#(#docs)* #field_vis #ident: #ty),
            syn::Member::Unnamed(_) => quote!(#(#docs)* #field_vis #ty),
        }
    });
    let is_tuple = q
        .fields
        .first()
        .is_some_and(|f| matches!(f.member, syn::Member::Unnamed(_)));
    let body = if is_tuple {
        quote!(( #(#fields),* ) #where_clause;)
    } else {
        quote!(#where_clause { #(#fields),* })
    };
    quote! {
        #[doc = #doc]
        #[allow(dead_code, reason = "fields of a query's item may go unread")]
        #vis struct #name #generics #body
    }
}

/// The struct's generic arguments with the world lifetime replaced by `lifetime`.
fn generics_with_lifetime(q: &QueryInput<'_>, lifetime: &Lifetime) -> TokenStream {
    let args = q.input.generics.params.iter().map(|param| match param {
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
