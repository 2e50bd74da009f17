//! `#[relationship(target = List)]` and
//! `#[relationship_target(relationship = R, linked_spawn)]` beside
//! `#[derive(Component)]`: a type that points its entity at another, and
//! the list the other holds of those pointing at it.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Member, Path, Type, Visibility, parse_quote};

use crate::hooks::Hooks;
use crate::options::{parse_options, skip_value};

/// Which side of a relationship a type is, and its partner type.
pub(crate) enum Relation {
    /// `#[relationship(target = List)]`.
    Source { target: Path },
    /// `#[relationship_target(relationship = R, linked_spawn)]`.
    Target { relationship: Path, linked: bool },
}

/// A relationship type with the field it keeps its entity (or list) in.
pub(crate) struct RelationField {
    relation: Relation,
    member: Member,
}

/// Reads the relationship attributes of `input`, if any, with the shape
/// of the type checked, every mistake reported in `errors`.
pub(crate) fn parse(input: &DeriveInput, errors: &mut Vec<syn::Error>) -> Option<RelationField> {
    let mut relation = None;
    let before = errors.len();
    parse_options(
        &input.attrs,
        "relationship",
        "`target = List`",
        errors,
        |meta, errors| {
            if !meta.path.is_ident("target") {
                return Ok(false);
            }
            match meta.value().and_then(|value| value.parse::<Path>()) {
                Ok(target) => relation = Some(Relation::Source { target }),
                Err(_) => {
                    errors.push(meta.error(
                        "the `target` option takes the path of the target list's type, \
                         e.g. `#[relationship(target = Followers)]`",
                    ));
                    skip_value(meta)?;
                }
            }
            Ok(true)
        },
    );
    let source_attr = input
        .attrs
        .iter()
        .find(|a| a.path().is_ident("relationship"));
    if let Some(attr) = source_attr
        && relation.is_none()
        && errors.len() == before
    {
        errors.push(syn::Error::new_spanned(
            attr,
            "a relationship names its target list's type: write \
             `#[relationship(target = Followers)]`",
        ));
    }
    let mut relationship = None;
    let mut linked = false;
    parse_options(
        &input.attrs,
        "relationship_target",
        "`relationship = R`, `linked_spawn`",
        errors,
        |meta, errors| {
            if meta.path.is_ident("linked_spawn") {
                linked = true;
                return Ok(true);
            }
            if !meta.path.is_ident("relationship") {
                return Ok(false);
            }
            match meta.value().and_then(|value| value.parse::<Path>()) {
                Ok(path) => relationship = Some(path),
                Err(_) => {
                    errors.push(meta.error(
                        "the `relationship` option takes the path of the relationship's \
                         type, e.g. `#[relationship_target(relationship = Follows)]`",
                    ));
                    skip_value(meta)?;
                }
            }
            Ok(true)
        },
    );
    let target_attr = input
        .attrs
        .iter()
        .find(|a| a.path().is_ident("relationship_target"));
    if let Some(attr) = target_attr {
        if let Some(source_attr) = source_attr {
            let mut both = syn::Error::new_spanned(
                source_attr,
                "a type is either a relationship or a relationship target, not both",
            );
            both.combine(syn::Error::new_spanned(attr, "the other attribute is here"));
            errors.push(both);
            return None;
        }
        match relationship {
            Some(relationship) => {
                relation = Some(Relation::Target {
                    relationship,
                    linked,
                })
            }
            None => errors.push(syn::Error::new_spanned(
                attr,
                "a relationship target names its relationship's type: write \
                 `#[relationship_target(relationship = Follows)]`",
            )),
        }
    }
    let relation = relation?;
    let member = field(input, &relation, errors)?;
    Some(RelationField { relation, member })
}

/// The one field of a relationship type: an `Entity` for a source, a
/// private `Vec<Entity>` for a target.
fn field(input: &DeriveInput, relation: &Relation, errors: &mut Vec<syn::Error>) -> Option<Member> {
    let (what, shape) = match relation {
        Relation::Source { .. } => ("a relationship", "`struct Follows(#[entity] Entity);`"),
        Relation::Target { .. } => ("a relationship target", "`struct Followers(Vec<Entity>);`"),
    };
    let one = match &input.data {
        Data::Struct(data) if data.fields.len() == 1 => data.fields.iter().next(),
        _ => None,
    };
    let Some(field) = one else {
        errors.push(syn::Error::new(
            input.ident.span(),
            format!("{what} is a struct of exactly one field, e.g. {shape}"),
        ));
        return None;
    };
    let member = match &field.ident {
        Some(name) => Member::Named(name.clone()),
        None => Member::Unnamed(0.into()),
    };
    if let Relation::Target { .. } = relation {
        if !matches!(field.vis, Visibility::Inherited) {
            errors.push(syn::Error::new_spanned(
                &field.vis,
                "the list of a relationship target must be private: the world keeps it in \
                 step with the relationships that point at the entity, and code outside this \
                 module must not change which entities it holds",
            ));
        }
        if !is_vec(&field.ty) {
            errors.push(syn::Error::new_spanned(
                &field.ty,
                "the list of a relationship target is a `Vec<Entity>`",
            ));
        }
    }
    Some(member)
}

/// Whether `ty` is written `Vec<..>` (any path ending in `Vec`).
fn is_vec(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.qself.is_none()
        && path.path.segments.last().is_some_and(|last| last.ident == "Vec"))
}

impl RelationField {
    /// Adds the relationship's hooks to `hooks`, refusing the kinds it
    /// needs for itself.
    pub(crate) fn add_hooks(&self, hooks: &mut Hooks, krate: &Path, errors: &mut Vec<syn::Error>) {
        let (insert, replace): (Path, Path) = match self.relation {
            Relation::Source { .. } => (
                parse_quote!(#krate::__private::relationship_on_insert::<Self>),
                parse_quote!(#krate::__private::relationship_on_replace::<Self>),
            ),
            Relation::Target { .. } => (
                parse_quote!(#krate::__private::target_on_insert::<Self>),
                parse_quote!(#krate::__private::target_on_replace::<Self>),
            ),
        };
        for (kind, path) in [("on_insert", insert), ("on_replace", replace)] {
            if let Some(given) = hooks.get(kind) {
                errors.push(syn::Error::new_spanned(
                    given,
                    format!(
                        "a relationship type cannot declare `{kind}`: its `{kind}` hook keeps \
                         the pair in step; use `on_add`, `on_remove` or `on_despawn`, or an \
                         observer"
                    ),
                ));
            } else {
                hooks.add(kind, path);
            }
        }
    }

    /// The items of the `Component` impl: the constants and the mapping.
    pub(crate) fn component_items(&self, krate: &Path) -> TokenStream {
        let member = &self.member;
        let mapping = quote! {
            const MAPS_ENTITIES: ::core::primitive::bool = true;
            fn map_entities<__EcsM: #krate::EntityMapper + ?::core::marker::Sized>(
                &mut self,
                mapper: &mut __EcsM,
            ) {
                #krate::MapEntities::map_entities(&mut self.#member, mapper);
            }
        };
        match &self.relation {
            Relation::Source { target } => {
                let partner = quote!(#target).to_string().replace(' ', "");
                quote! {
                    #mapping
                    const IS_RELATIONSHIP: ::core::primitive::bool = true;
                    const RELATIONSHIP_PARTNER: &'static ::core::primitive::str = #partner;
                    #[inline]
                    fn relationship_target(&self) -> ::core::option::Option<#krate::Entity> {
                        ::core::option::Option::Some(self.#member)
                    }
                }
            }
            Relation::Target { relationship, .. } => {
                let partner = quote!(#relationship).to_string().replace(' ', "");
                quote! {
                    #mapping
                    const IS_RELATIONSHIP_TARGET: ::core::primitive::bool = true;
                    const RELATIONSHIP_PARTNER: &'static ::core::primitive::str = #partner;
                }
            }
        }
    }

    /// The `Relationship` or `RelationshipTarget` impl of `input`.
    pub(crate) fn trait_impl(&self, input: &DeriveInput, krate: &Path) -> TokenStream {
        let name = &input.ident;
        let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
        let member = &self.member;
        let build = |value: TokenStream| match member {
            Member::Named(field) => quote!(Self { #field: #value }),
            Member::Unnamed(_) => quote!(Self(#value)),
        };
        match &self.relation {
            Relation::Source { target } => {
                let make = build(quote!(target));
                quote! {
                    impl #impl_generics #krate::Relationship for #name #type_generics #where_clause {
                        type Target = #target;
                        #[inline]
                        fn target(&self) -> #krate::Entity {
                            self.#member
                        }
                        #[inline]
                        fn from_target(target: #krate::Entity) -> Self {
                            #make
                        }
                    }
                }
            }
            Relation::Target {
                relationship,
                linked,
            } => {
                let make = build(quote!(sources));
                quote! {
                    impl #impl_generics #krate::RelationshipTarget for #name #type_generics #where_clause {
                        type Relationship = #relationship;
                        const LINKED_SPAWN: ::core::primitive::bool = #linked;
                        #[inline]
                        fn sources(&self) -> &[#krate::Entity] {
                            &self.#member
                        }
                        #[inline]
                        fn sources_mut(
                            &mut self,
                            _: #krate::__private::ListKey,
                        ) -> &mut ::std::vec::Vec<#krate::Entity> {
                            &mut self.#member
                        }
                        #[inline]
                        fn from_sources(
                            sources: ::std::vec::Vec<#krate::Entity>,
                            _: #krate::__private::ListKey,
                        ) -> Self {
                            #make
                        }
                    }
                }
            }
        }
    }
}
