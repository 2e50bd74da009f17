//! The fields of a `#[derive(SystemParam)]` struct, and the mistakes caught
//! before expansion: a param not borrowed for the struct's lifetime, and a
//! resource written by one field and taken by another.
//!
//! A field's type is read at "param level": through parentheses, tuples and
//! `Option<..>`, down to each param. What is not recognised is left to the
//! compiler, which reports a type that is no param through the trait's own
//! diagnostic.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{
    Fields, GenericArgument, Ident, Lifetime, Member, PathArguments, Type, TypePath, TypeReference,
    parse_quote,
};

use crate::query::fields::{compact, member_label, option_argument};

/// The params that borrow the world, each with the world lifetime as its
/// first generic argument.
const BORROWING_PARAMS: [&str; 5] = ["Res", "ResMut", "Local", "Commands", "Query"];

/// One field of the struct.
pub(crate) struct ParamField {
    pub(crate) member: Member,
    pub(crate) ty: Type,
}

/// A resource a field takes through `Res` or `ResMut`, for the clash check.
struct ResourceUse {
    /// The resource type as written.
    resource: String,
    writes: bool,
    /// The `Res<..>` or `ResMut<..>` type, where a clash is reported.
    tokens: TokenStream,
}

/// What the walk over one field's type found.
struct Walk<'a> {
    label: &'a str,
    world: Option<&'a Lifetime>,
    type_params: &'a [&'a Ident],
    errors: &'a mut Vec<syn::Error>,
    resources: Vec<ResourceUse>,
}

/// Analyses every field, collecting every mistake into `errors`.
pub(crate) fn analyse(
    fields: &Fields,
    world: Option<&Lifetime>,
    type_params: &[&Ident],
    errors: &mut Vec<syn::Error>,
) -> Vec<ParamField> {
    let mut analysed = Vec::new();
    let mut taken: Vec<(String, ResourceUse)> = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let member = match &field.ident {
            Some(ident) => Member::Named(ident.clone()),
            None => Member::Unnamed(syn::Index::from(index)),
        };
        let label = member_label(&member);
        let mut walk = Walk {
            label: &label,
            world,
            type_params,
            errors,
            resources: Vec::new(),
        };
        walk.param_level(&field.ty);
        let resources = walk.resources;
        for resource in resources {
            let clash = taken.iter().find(|(_, earlier)| {
                earlier.resource == resource.resource && (earlier.writes || resource.writes)
            });
            if let Some((other, earlier)) = clash {
                errors.push(syn::Error::new_spanned(
                    &resource.tokens,
                    clash_message(other, earlier, &label, world),
                ));
            }
            taken.push((label.clone(), resource));
        }
        analysed.push(ParamField {
            member,
            ty: field.ty.clone(),
        });
    }
    analysed
}

/// Why the field `second` may not take a resource the field `first` took as `earlier`.
fn clash_message(
    first: &str,
    earlier: &ResourceUse,
    second: &str,
    world: Option<&Lifetime>,
) -> String {
    let resource = &earlier.resource;
    let world = world.map_or_else(|| "'w".to_owned(), ToString::to_string);
    let clash = if first == second {
        format!("field `{first}` takes the resource `{resource}` twice, and writes it")
    } else {
        let writer = if earlier.writes { first } else { second };
        format!(
            "fields `{first}` and `{second}` both take the resource `{resource}`, and \
             `{writer}` writes it"
        )
    };
    format!(
        "{clash}: a system that writes a resource may borrow it only once; keep one \
         `ResMut<{world}, {resource}>` and read through it. The derive sees only `Res` and `ResMut` \
         of the same written type; other clashes (two queries, a nested param struct) are \
         caught when the system is added: `add_system` returns `Error::ConflictingAccess`"
    )
}

impl Walk<'_> {
    /// Checks one param, descending through parentheses, tuples and `Option`.
    fn param_level(&mut self, ty: &Type) {
        match ty {
            Type::Paren(inner) => self.param_level(&inner.elem),
            Type::Group(inner) => self.param_level(&inner.elem),
            Type::Tuple(tuple) => {
                for elem in &tuple.elems {
                    self.param_level(elem);
                }
            }
            Type::Reference(reference) => self.reference(ty, reference),
            Type::Path(path) if path.qself.is_none() => {
                let last = path.path.segments.last().expect("a path has a segment");
                if let Some(inner) = option_argument(last) {
                    return self.param_level(inner);
                }
                if path.path.segments.len() == 1
                    && last.arguments.is_none()
                    && self.type_params.iter().any(|p| **p == last.ident)
                {
                    self.errors.push(syn::Error::new_spanned(
                        ty,
                        format!(
                            "field `{label}` has the type parameter `{param}` as its type, so \
                             the derive cannot name its borrow of the world: write the param \
                             with the struct's lifetime, e.g. `Res<'w, {param}>` or \
                             `Query<'w, &'w {param}>`",
                            label = self.label,
                            param = last.ident,
                        ),
                    ));
                    return;
                }
                self.path(ty, path);
            }
            // Anything else is no param; the compiler says so.
            _ => {}
        }
    }

    /// `&'w World`: borrowed for the world lifetime.
    fn reference(&mut self, ty: &Type, reference: &TypeReference) {
        let Some(world) = self.world else {
            return;
        };
        let mut fixed = reference.clone();
        fixed.lifetime = Some(world.clone());
        let fixed = compact(&Type::Reference(fixed));
        match &reference.lifetime {
            None => self.errors.push(syn::Error::new_spanned(
                ty,
                missing_message(self.label, &compact(ty), world, &fixed),
            )),
            Some(lifetime) if lifetime.ident != world.ident => {
                self.errors.push(syn::Error::new_spanned(
                    lifetime,
                    foreign_message(self.label, lifetime, world, &fixed),
                ))
            }
            Some(_) => {}
        }
    }

    /// A named param: a known one must take the world lifetime first; any
    /// other may take no lifetime but the world's.
    fn path(&mut self, ty: &Type, path: &TypePath) {
        let last = path.path.segments.last().expect("a path has a segment");
        let name = last.ident.to_string();
        let lifetimes: Vec<&Lifetime> = match &last.arguments {
            PathArguments::AngleBracketed(arguments) => arguments
                .args
                .iter()
                .filter_map(|argument| match argument {
                    GenericArgument::Lifetime(lifetime) => Some(lifetime),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        if (name == "Res" || name == "ResMut")
            && let PathArguments::AngleBracketed(arguments) = &last.arguments
            && let Some(resource) = arguments.args.iter().find_map(|argument| match argument {
                GenericArgument::Type(resource) => Some(resource),
                _ => None,
            })
        {
            self.resources.push(ResourceUse {
                resource: compact(resource),
                writes: name == "ResMut",
                tokens: ty.to_token_stream(),
            });
        }
        let Some(world) = self.world else {
            return;
        };
        let known = BORROWING_PARAMS.contains(&name.as_str());
        if known && lifetimes.is_empty() {
            let fixed = compact(&with_world_lifetime(path, world));
            self.errors.push(syn::Error::new_spanned(
                ty,
                missing_message(self.label, &compact(ty), world, &fixed),
            ));
            return;
        }
        if let Some(foreign) = lifetimes.iter().find(|l| l.ident != world.ident) {
            let fixed = compact(&with_world_lifetime(path, world));
            self.errors.push(syn::Error::new_spanned(
                foreign,
                foreign_message(self.label, foreign, world, &fixed),
            ));
        }
    }
}

fn missing_message(label: &str, written: &str, world: &Lifetime, fixed: &str) -> String {
    format!(
        "field `{label}` takes `{written}` without the struct's lifetime: a system param \
         borrows the world for `{world}`; write `{fixed}`"
    )
}

fn foreign_message(label: &str, foreign: &Lifetime, world: &Lifetime, fixed: &str) -> String {
    format!(
        "field `{label}` borrows for `{foreign}`, but a system param only lives as long as \
         its borrow of the world, `{world}`: write `{fixed}`"
    )
}

/// `path` with every lifetime of its last segment replaced by `world`, or
/// `world` put first when it names none.
fn with_world_lifetime(path: &TypePath, world: &Lifetime) -> Type {
    let mut path = path.clone();
    let last = path.path.segments.last_mut().expect("a path has a segment");
    let world_argument = GenericArgument::Lifetime(world.clone());
    match &mut last.arguments {
        PathArguments::AngleBracketed(arguments) => {
            let mut replaced = false;
            for argument in &mut arguments.args {
                if let GenericArgument::Lifetime(lifetime) = argument {
                    *lifetime = world.clone();
                    replaced = true;
                }
            }
            if !replaced {
                arguments.args.insert(0, world_argument);
            }
        }
        arguments => *arguments = PathArguments::AngleBracketed(parse_quote!(<#world_argument>)),
    }
    Type::Path(path)
}

/// `tokens` with the lifetime `from` renamed `to` wherever it appears,
/// spans kept.
pub(crate) fn replace_lifetime(tokens: TokenStream, from: &Lifetime, to: &str) -> TokenStream {
    let mut out = Vec::new();
    let mut after_apostrophe = false;
    for token in tokens {
        let token = match token {
            proc_macro2::TokenTree::Ident(ident) if after_apostrophe && ident == from.ident => {
                proc_macro2::TokenTree::Ident(Ident::new(to, ident.span()))
            }
            proc_macro2::TokenTree::Group(group) => {
                let mut replaced = proc_macro2::Group::new(
                    group.delimiter(),
                    replace_lifetime(group.stream(), from, to),
                );
                replaced.set_span(group.span());
                proc_macro2::TokenTree::Group(replaced)
            }
            other => other,
        };
        after_apostrophe =
            matches!(&token, proc_macro2::TokenTree::Punct(p) if p.as_char() == '\'');
        out.push(token);
    }
    out.into_iter().collect()
}

/// `ty` with the world lifetime renamed `to`.
pub(crate) fn type_with_lifetime(ty: &Type, world: &Lifetime, to: &str) -> TokenStream {
    replace_lifetime(ty.to_token_stream(), world, to)
}

#[cfg(test)]
mod tests {
    use syn::Data;

    use super::*;
    use crate::options::combine;
    use crate::test_util::{input, messages};

    /// Analyses the fields of the struct in `source`, borrowing for its first
    /// lifetime parameter, if any.
    fn analysed(source: &str) -> (Vec<ParamField>, Vec<(String, String)>) {
        let input = input(source);
        let Data::Struct(data) = &input.data else {
            panic!("a struct");
        };
        let world = input.generics.lifetimes().next().map(|def| &def.lifetime);
        let type_params: Vec<_> = input.generics.type_params().map(|t| &t.ident).collect();
        let mut errors = Vec::new();
        let fields = analyse(&data.fields, world, &type_params, &mut errors);
        let errors = combine(errors).err().map(messages).unwrap_or_default();
        (fields, errors)
    }

    /// The errors of the struct in `source`.
    fn errors(source: &str) -> Vec<(String, String)> {
        analysed(source).1
    }

    /// The errors of a struct `P<'w>` with one field of type `ty`.
    fn field_errors(ty: &str) -> Vec<(String, String)> {
        errors(&format!("struct P<'w> {{ f: {ty} }}"))
    }

    #[test]
    fn every_param_borrowed_for_the_world_is_accepted() {
        for ty in [
            "Res<'w, Time>",
            "ResMut<'w, Time>",
            "Option<Res<'w, Time>>",
            "::core::option::Option<ResMut<'w, Time>>",
            "Local<'w, u32>",
            "Commands<'w>",
            "&'w World",
            "Query<'w, &'w Position>",
            "Query<'w, &'static Position, Without<Frozen>>",
            "Query<'w, Mover<'w>, (With<A>, Without<B>)>",
            "ecs_core::system::Res<'w, path::Time>",
            "Inner<'w>",
            "(Res<'w, A>, (Commands<'w>, Local<'w, u8>))",
            "()",
            "u32",
            "[Res<'w, A>; 2]",
            "fn() -> u8",
        ] {
            assert_eq!(field_errors(ty), [], "{ty}");
        }
    }

    #[test]
    fn a_known_param_without_the_lifetime_is_told_where_to_put_it() {
        let cases = [
            ("Res<Time>", "Res<'w, Time>"),
            ("ResMut<Time>", "ResMut<'w, Time>"),
            ("Local<u32>", "Local<'w, u32>"),
            ("Commands", "Commands<'w>"),
            ("Query<&'w P, With<F>>", "Query<'w, &'w P, With<F>>"),
            (
                "ecs_core::system::Res<Time>",
                "ecs_core::system::Res<'w, Time>",
            ),
            ("&World", "&'w World"),
        ];
        for (ty, fixed) in cases {
            assert_eq!(
                field_errors(ty),
                [(
                    format!(
                        "field `f` takes `{ty}` without the struct's lifetime: a system param \
                         borrows the world for `'w`; write `{fixed}`"
                    ),
                    ty.to_owned(),
                )],
                "{ty}"
            );
        }
    }

    #[test]
    fn a_param_without_the_lifetime_is_found_in_options_and_tuples() {
        let found = errors("struct P<'w> { pair: (Res<'w, A>, Option<Res<B>>) }");
        assert_eq!(
            found,
            [(
                "field `pair` takes `Res<B>` without the struct's lifetime: a system param \
                 borrows the world for `'w`; write `Res<'w, B>`"
                    .to_owned(),
                "Res<B>".to_owned(),
            )]
        );
    }

    #[test]
    fn a_param_borrowed_for_another_lifetime_is_reported_at_that_lifetime() {
        let cases = [
            ("Res<'static, Time>", "'static", "Res<'w, Time>"),
            ("Inner<'static>", "'static", "Inner<'w>"),
            ("&'static World", "'static", "&'w World"),
            ("Commands<'a>", "'a", "Commands<'w>"),
        ];
        for (ty, foreign, fixed) in cases {
            assert_eq!(
                field_errors(ty),
                [(
                    format!(
                        "field `f` borrows for `{foreign}`, but a system param only lives as \
                         long as its borrow of the world, `'w`: write `{fixed}`"
                    ),
                    foreign.to_owned(),
                )],
                "{ty}"
            );
        }
    }

    #[test]
    fn lifetimes_inside_a_params_arguments_are_left_alone() {
        assert_eq!(field_errors("Query<'w, &'static P>"), []);
        assert_eq!(field_errors("Res<'w, Cache<'static>>"), []);
    }

    #[test]
    fn without_a_world_lifetime_no_lifetime_is_checked() {
        assert_eq!(
            errors("struct P { a: Res<Time>, b: Res<'static, T>, c: &World }"),
            []
        );
    }

    #[test]
    fn a_bare_type_parameter_is_reported() {
        assert_eq!(
            errors("struct P<'w, T: SystemParam> { inner: T, ok: Res<'w, Vec<T>> }"),
            [(
                "field `inner` has the type parameter `T` as its type, so the derive cannot \
                 name its borrow of the world: write the param with the struct's lifetime, \
                 e.g. `Res<'w, T>` or `Query<'w, &'w T>`"
                    .to_owned(),
                "T".to_owned(),
            )]
        );
        assert_eq!(field_errors("T"), [], "`T` is a type here, not a parameter");
    }

    #[test]
    fn a_resource_written_by_one_field_and_taken_by_another_is_reported_there() {
        let tail = ": a system that writes a resource may borrow it only once; keep one \
                    `ResMut<'w, Score>` and read through it. The derive sees only `Res` and \
                    `ResMut` of the same written type; other clashes (two queries, a nested \
                    param struct) are caught when the system is added: `add_system` returns \
                    `Error::ConflictingAccess`";
        assert_eq!(
            errors("struct P<'w> { score: ResMut<'w, Score>, shown: Res<'w, Score> }"),
            [(
                format!(
                    "fields `score` and `shown` both take the resource `Score`, and `score` \
                     writes it{tail}"
                ),
                "Res<'w, Score>".to_owned(),
            )]
        );
        assert_eq!(
            errors("struct P<'w>(Option<Res<'w, Score>>, ResMut<'w, Score>);"),
            [(
                format!(
                    "fields `0` and `1` both take the resource `Score`, and `1` writes it{tail}"
                ),
                "ResMut<'w, Score>".to_owned(),
            )]
        );
        assert_eq!(
            errors("struct P<'w> { pair: (ResMut<'w, Score>, ResMut<'w, Score>) }"),
            [(
                format!("field `pair` takes the resource `Score` twice, and writes it{tail}"),
                "ResMut<'w, Score>".to_owned(),
            )]
        );
    }

    #[test]
    fn a_clash_suggests_the_structs_own_lifetime() {
        let found = errors("struct P<'p> { a: ResMut<'p, S>, b: Res<'p, S> }");
        assert!(
            found[0].0.contains("keep one `ResMut<'p, S>`"),
            "{}",
            found[0].0
        );
    }

    #[test]
    fn every_later_clash_is_reported_against_the_first_user() {
        let found = errors(
            "struct P<'w> { a: ResMut<'w, S>, b: Res<'w, S>, c: Res<'w, S>, d: Res<'w, T> }",
        );
        let starts: Vec<_> = found
            .iter()
            .map(|(message, _)| message.split(':').next().unwrap())
            .collect();
        assert_eq!(
            starts,
            [
                "fields `a` and `b` both take the resource `S`, and `a` writes it",
                "fields `a` and `c` both take the resource `S`, and `a` writes it",
            ]
        );
    }

    #[test]
    fn shared_reads_and_different_resources_do_not_clash() {
        for source in [
            "struct P<'w> { a: Res<'w, S>, b: Res<'w, S>, c: Option<Res<'w, S>> }",
            "struct P<'w> { a: ResMut<'w, S>, b: ResMut<'w, T>, c: Res<'w, path::S> }",
            "struct P<'w> { a: ResMut<'w, S>, b: Local<'w, S>, c: Query<'w, &'w mut S> }",
        ] {
            assert_eq!(errors(source), [], "{source}");
        }
    }

    #[test]
    fn resources_are_recorded_as_written() {
        let resources = |ty: &str| {
            let input = input(&format!("struct P<'w> {{ f: {ty} }}"));
            let Data::Struct(data) = &input.data else {
                panic!("a struct");
            };
            let mut errors = Vec::new();
            let world: Lifetime = parse_quote!('w);
            let mut walk = Walk {
                label: "f",
                world: Some(&world),
                type_params: &[],
                errors: &mut errors,
                resources: Vec::new(),
            };
            walk.param_level(&data.fields.iter().next().unwrap().ty);
            walk.resources
                .into_iter()
                .map(|r| (r.resource, r.writes))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            resources("(Res<'w, a::B<u8>>, Option<ResMut<'w, C>>, Local<'w, D>)"),
            [("a::B<u8>".to_owned(), false), ("C".to_owned(), true)]
        );
        assert_eq!(resources("Query<'w, &'w mut Res<'w, S>>"), []);
    }

    #[test]
    fn fields_keep_their_member_and_type() {
        let (fields, errors) = analysed("struct P<'w> { pub time: Res<'w, Time> }");
        assert_eq!(errors, []);
        assert_eq!(fields[0].member, parse_quote!(time));
        assert_eq!(fields[0].ty, parse_quote!(Res<'w, Time>));
        let (fields, _) = analysed("struct P<'w>(Res<'w, A>, Commands<'w>);");
        let members: Vec<_> = fields.iter().map(|f| f.member.clone()).collect();
        assert_eq!(members, [Member::from(0), Member::from(1)]);
    }

    #[test]
    fn the_world_lifetime_is_renamed_everywhere_and_only_it() {
        let world: Lifetime = parse_quote!('w);
        let ty: Type = parse_quote!(Query<'w, (Mover<'w>, &'w mut P, &'static V), Without<F<'w2>>>);
        let renamed = type_with_lifetime(&ty, &world, "static");
        let renamed: Type = syn::parse2(renamed).unwrap();
        assert_eq!(
            compact(&renamed),
            "Query<'static, (Mover<'static>, &'static mut P, &'static V), Without<F<'w2>>>"
        );
        let renamed = type_with_lifetime(&parse_quote!(&'w World), &world, "__ecs_w");
        assert_eq!(renamed.to_string(), "& '__ecs_w World");
    }
}
