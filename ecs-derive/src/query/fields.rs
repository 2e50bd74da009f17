//! What each field of a `#[derive(Query)]` struct fetches, and the mistakes caught before expansion.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Fields, GenericArgument, Lifetime, Member, PathArguments, Type};

/// How a field touches component data, as far as its written type shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mutability {
    /// Only reads (`&T`, `Entity`, `Option<&T>`).
    ReadOnly,
    /// Writes (`&mut T` somewhere in the type).
    Writes,
    /// A nested query type; whether it writes is for the type system to say.
    Nested,
}

/// One field of the struct.
pub(crate) struct QueryField {
    pub(crate) member: Member,
    pub(crate) ty: Type,
    pub(crate) docs: Vec<syn::Attribute>,
    pub(crate) vis: syn::Visibility,
    pub(crate) mutability: Mutability,
}

/// A component reached directly by a field, for the aliasing check.
struct Reach {
    component: String,
    writes: bool,
}

/// Analyses every field, collecting every mistake into `errors`.
pub(crate) fn analyse(
    fields: &Fields,
    world: Option<&Lifetime>,
    errors: &mut Vec<syn::Error>,
) -> Vec<QueryField> {
    let mut analysed = Vec::new();
    let mut reached: Vec<(String, Reach)> = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let member = match &field.ident {
            Some(ident) => Member::Named(ident.clone()),
            None => Member::Unnamed(syn::Index::from(index)),
        };
        let label = member_label(&member);
        if let Some(world) = world
            && let Some(other) = foreign_lifetime(field.ty.to_token_stream(), world)
        {
            errors.push(syn::Error::new_spanned(
                &other,
                format!(
                    "field `{label}` borrows for `{other}`, but a query item only lives as \
                     long as its borrow of the world: borrow for `{world}` instead"
                ),
            ));
        }
        let mut reaches = Vec::new();
        let mutability = match classify(&field.ty, &mut reaches) {
            Ok(mutability) => mutability,
            Err(problem) => {
                errors.push(problem.into_error(&label));
                Mutability::ReadOnly
            }
        };
        for reach in reaches {
            let clash = reached.iter().find(|(_, earlier)| {
                earlier.component == reach.component && (earlier.writes || reach.writes)
            });
            if let Some((other, earlier)) = clash {
                let message = if *other == label {
                    format!(
                        "field `{label}` reaches `{component}` twice, and changes it: one entity \
                         would hand out two references to the same value; fetch it once as \
                         `&'w mut {component}` and read the value through it",
                        component = reach.component,
                    )
                } else {
                    let writer = if earlier.writes { other } else { &label };
                    format!(
                        "fields `{other}` and `{label}` both reach `{component}`, and `{writer}` \
                         changes it: one entity would hand out two references to the same value; \
                         keep one field `&'w mut {component}` and read the value through it",
                        component = reach.component,
                    )
                };
                errors.push(syn::Error::new_spanned(&field.ty, message));
            }
            reached.push((label.clone(), reach));
        }
        analysed.push(QueryField {
            member,
            ty: field.ty.clone(),
            docs: field
                .attrs
                .iter()
                .filter(|attr| attr.path().is_ident("doc"))
                .cloned()
                .collect(),
            vis: field.vis.clone(),
            mutability,
        });
    }
    analysed
}

/// A field's name, or its index in a tuple struct, for messages.
pub(crate) fn member_label(member: &Member) -> String {
    match member {
        Member::Named(ident) => ident.to_string(),
        Member::Unnamed(index) => index.index.to_string(),
    }
}

/// A field type that no query can fetch.
enum Problem {
    /// A component named by value: `Position` instead of `&'w Position`.
    ByValue {
        tokens: TokenStream,
        ty: String,
        in_option: bool,
    },
    /// A type that is not a reference, an option, a tuple, `Entity` or a query.
    Unsupported { tokens: TokenStream, ty: String },
    /// `&'w Entity`: ids are fetched by value.
    EntityByRef { tokens: TokenStream },
    /// A reference to something that cannot be a component: `&'w [T]`, `&'w dyn Trait`, ...
    BorrowsNonComponent { tokens: TokenStream, ty: String },
}

impl Problem {
    fn into_error(self, field: &str) -> syn::Error {
        match self {
            Problem::ByValue {
                tokens,
                ty,
                in_option: false,
            } => syn::Error::new_spanned(
                tokens,
                format!(
                    "field `{field}` names `{ty}` by value, but a query borrows components \
                     from the world: write `&'w {ty}` to read it or `&'w mut {ty}` to change it"
                ),
            ),
            Problem::ByValue {
                tokens,
                ty,
                in_option: true,
            } => syn::Error::new_spanned(
                tokens,
                format!(
                    "field `{field}` names `{ty}` by value, but a query borrows components \
                     from the world: write `Option<&'w {ty}>` or `Option<&'w mut {ty}>`"
                ),
            ),
            Problem::EntityByRef { tokens } => syn::Error::new_spanned(
                tokens,
                format!(
                    "field `{field}` borrows `Entity`, but a query yields entity ids by value: \
                     write `{field}: Entity`"
                ),
            ),
            Problem::BorrowsNonComponent { tokens, ty } => syn::Error::new_spanned(
                tokens,
                format!(
                    "field `{field}` borrows `{ty}`, which cannot be a component: a query \
                     borrows one component per entity, e.g. `&'w Position`"
                ),
            ),
            Problem::Unsupported { tokens, ty } => syn::Error::new_spanned(
                tokens,
                format!(
                    "field `{field}` has type `{ty}`, which a query cannot fetch: use `&'w T`, \
                     `&'w mut T`, `Option<&'w T>`, `Option<&'w mut T>`, `Entity`, a tuple of \
                     these, or another `#[derive(Query)]` struct"
                ),
            ),
        }
    }
}

fn classify(ty: &Type, reaches: &mut Vec<Reach>) -> Result<Mutability, Problem> {
    match ty {
        Type::Reference(reference) => {
            match &*reference.elem {
                Type::Path(path) if path.qself.is_none() => {
                    let last = path.path.segments.last().expect("a path has a segment");
                    if last.ident == "Entity" && last.arguments.is_none() {
                        return Err(Problem::EntityByRef {
                            tokens: ty.to_token_stream(),
                        });
                    }
                }
                Type::Paren(_) | Type::Group(_) | Type::Macro(_) => {}
                other => {
                    return Err(Problem::BorrowsNonComponent {
                        tokens: ty.to_token_stream(),
                        ty: compact(other),
                    });
                }
            }
            let writes = reference.mutability.is_some();
            reaches.push(Reach {
                component: compact(&reference.elem),
                writes,
            });
            Ok(if writes {
                Mutability::Writes
            } else {
                Mutability::ReadOnly
            })
        }
        Type::Paren(inner) => classify(&inner.elem, reaches),
        Type::Group(inner) => classify(&inner.elem, reaches),
        Type::Tuple(tuple) => {
            let mut combined = Mutability::ReadOnly;
            for elem in &tuple.elems {
                combined = combine(combined, classify(elem, reaches)?);
            }
            Ok(combined)
        }
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last().expect("a path has a segment");
            if let Some(inner) = option_argument(last) {
                return match classify(inner, reaches) {
                    Err(Problem::ByValue { tokens, ty, .. }) => Err(Problem::ByValue {
                        tokens,
                        ty,
                        in_option: true,
                    }),
                    other => other,
                };
            }
            if last.ident == "Entity" && last.arguments.is_none() {
                return Ok(Mutability::ReadOnly);
            }
            if has_lifetime(&last.arguments) {
                return Ok(Mutability::Nested);
            }
            Err(Problem::ByValue {
                tokens: ty.to_token_stream(),
                ty: compact(ty),
                in_option: false,
            })
        }
        _ => Err(Problem::Unsupported {
            tokens: ty.to_token_stream(),
            ty: compact(ty),
        }),
    }
}

fn combine(a: Mutability, b: Mutability) -> Mutability {
    match (a, b) {
        (Mutability::Writes, _) | (_, Mutability::Writes) => Mutability::Writes,
        (Mutability::Nested, _) | (_, Mutability::Nested) => Mutability::Nested,
        _ => Mutability::ReadOnly,
    }
}

/// The `T` of `Option<T>`, if `segment` is one.
pub(crate) fn option_argument(segment: &syn::PathSegment) -> Option<&Type> {
    if segment.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(arguments) = &segment.arguments else {
        return None;
    };
    match arguments.args.first() {
        Some(GenericArgument::Type(inner)) if arguments.args.len() == 1 => Some(inner),
        _ => None,
    }
}

fn has_lifetime(arguments: &PathArguments) -> bool {
    let PathArguments::AngleBracketed(arguments) = arguments else {
        return false;
    };
    arguments
        .args
        .iter()
        .any(|argument| matches!(argument, GenericArgument::Lifetime(_)))
}

/// A type as written, without the spaces `to_token_stream` puts between tokens.
pub(crate) fn compact(ty: &Type) -> String {
    let spaced = ty.to_token_stream().to_string();
    let mut out = String::with_capacity(spaced.len());
    let mut chars = spaced.chars().peekable();
    while let Some(c) = chars.next() {
        if c != ' ' {
            out.push(c);
            continue;
        }
        // Keep a space between two word characters, as in `dyn Trait`, and
        // after a separator, as in `[u8; 4]` and `(A, B)`.
        let last = out.chars().last();
        let before = last.is_some_and(is_word);
        let after = chars
            .peek()
            .is_some_and(|&next| is_word(next) || next == '\'');
        if (before && after) || matches!(last, Some(';' | ',')) {
            out.push(' ');
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first lifetime in `tokens` other than `world`.
fn foreign_lifetime(tokens: TokenStream, world: &Lifetime) -> Option<Lifetime> {
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            TokenTree::Punct(punct) if punct.as_char() == '\'' => {
                if let Some(TokenTree::Ident(ident)) = tokens.peek()
                    && *ident != world.ident
                {
                    let mut lifetime = Lifetime::new(&format!("'{ident}"), ident.span());
                    lifetime.apostrophe = punct.span();
                    return Some(lifetime);
                }
            }
            TokenTree::Group(group) => {
                if let Some(found) = foreign_lifetime(group.stream(), world) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use syn::{Data, Visibility, parse_quote};

    use super::*;
    use crate::options::combine as combine_errors;
    use crate::test_util::{input, messages};

    /// Analyses the fields of the struct in `source`, borrowing for its first
    /// lifetime parameter, if any.
    fn analysed(source: &str) -> (Vec<QueryField>, Vec<(String, String)>) {
        let input = input(source);
        let Data::Struct(data) = &input.data else {
            panic!("a struct");
        };
        let world = input.generics.lifetimes().next().map(|def| &def.lifetime);
        let mut errors = Vec::new();
        let fields = analyse(&data.fields, world, &mut errors);
        let errors = combine_errors(errors)
            .err()
            .map(messages)
            .unwrap_or_default();
        (fields, errors)
    }

    /// The errors of the struct in `source`.
    fn errors(source: &str) -> Vec<(String, String)> {
        analysed(source).1
    }

    fn classified(ty: Type) -> (Result<Mutability, String>, Vec<(String, bool)>) {
        let mut reaches = Vec::new();
        let result =
            classify(&ty, &mut reaches).map_err(|problem| problem.into_error("f").to_string());
        let reaches = reaches
            .into_iter()
            .map(|reach| (reach.component, reach.writes))
            .collect();
        (result, reaches)
    }

    #[test]
    fn each_fetchable_type_is_classified_by_what_it_writes() {
        use Mutability::{Nested, ReadOnly, Writes};
        let cases: [(Type, Mutability); 16] = [
            (parse_quote!(&'w P), ReadOnly),
            (parse_quote!(&'w mut P), Writes),
            (parse_quote!(Option<&'w P>), ReadOnly),
            (parse_quote!(Option<&'w mut P>), Writes),
            (parse_quote!(::core::option::Option<&'w mut P>), Writes),
            (parse_quote!(Entity), ReadOnly),
            (parse_quote!(ecs_core::Entity), ReadOnly),
            (parse_quote!(Option<Entity>), ReadOnly),
            (parse_quote!(()), ReadOnly),
            (parse_quote!((&'w P)), ReadOnly),
            (parse_quote!((&'w A, &'w B)), ReadOnly),
            (parse_quote!((&'w A, (Entity, &'w mut B))), Writes),
            (parse_quote!(Mover<'w>), Nested),
            (parse_quote!(Generic<'w, T>), Nested),
            (parse_quote!((Mover<'w>, &'w A)), Nested),
            (parse_quote!((Mover<'w>, &'w mut A)), Writes),
        ];
        for (ty, expected) in cases {
            let printed = compact(&ty);
            assert_eq!(classified(ty).0, Ok(expected), "{printed}");
        }
    }

    #[test]
    fn references_reach_their_component_nested_queries_reach_nothing() {
        let (_, reaches) = classified(parse_quote!((&'w A, Option<&'w mut B>, Mover<'w>, Entity)));
        assert_eq!(reaches, [("A".to_owned(), false), ("B".to_owned(), true)]);
        let (_, reaches) = classified(parse_quote!(&'w path::to::C<u8>));
        assert_eq!(reaches, [("path::to::C<u8>".to_owned(), false)]);
    }

    #[test]
    fn writes_outweigh_nested_which_outweighs_read_only() {
        use Mutability::{Nested, ReadOnly, Writes};
        let all = [ReadOnly, Nested, Writes];
        for a in all {
            for b in all {
                let expected = if a == Writes || b == Writes {
                    Writes
                } else if a == Nested || b == Nested {
                    Nested
                } else {
                    ReadOnly
                };
                assert_eq!(combine(a, b), expected, "{a:?} with {b:?}");
            }
        }
    }

    #[test]
    fn a_component_by_value_is_reported_with_the_borrows_to_write() {
        assert_eq!(
            errors("struct Q<'w> { pos: Position }"),
            [(
                "field `pos` names `Position` by value, but a query borrows components from \
                 the world: write `&'w Position` to read it or `&'w mut Position` to change it"
                    .to_owned(),
                "Position".to_owned(),
            )]
        );
    }

    #[test]
    fn a_component_by_value_in_an_option_is_reported_at_the_component() {
        assert_eq!(
            errors("struct Q<'w> { pos: Option<path::Position> }"),
            [(
                "field `pos` names `path::Position` by value, but a query borrows components \
                 from the world: write `Option<&'w path::Position>` or \
                 `Option<&'w mut path::Position>`"
                    .to_owned(),
                "path::Position".to_owned(),
            )]
        );
    }

    #[test]
    fn a_by_value_component_inside_a_tuple_is_found_and_labelled_by_its_field() {
        assert_eq!(
            errors("struct Q<'w>(&'w mut A, (Entity, B));"),
            [(
                "field `1` names `B` by value, but a query borrows components from the world: \
                 write `&'w B` to read it or `&'w mut B` to change it"
                    .to_owned(),
                "B".to_owned(),
            )]
        );
    }

    #[test]
    fn a_borrowed_entity_is_reported_with_the_field_to_write() {
        assert_eq!(
            errors("struct Q<'w> { id: &'w Entity }"),
            [(
                "field `id` borrows `Entity`, but a query yields entity ids by value: write \
                 `id: Entity`"
                    .to_owned(),
                "&'w Entity".to_owned(),
            )]
        );
    }

    #[test]
    fn a_borrow_of_a_non_component_is_reported() {
        for (ty, shown) in [
            ("&'w [u8]", "[u8]"),
            ("&'w dyn Debug", "dyn Debug"),
            ("&'w (A, B)", "(A, B)"),
            ("&'w <T as Tr>::Out", "<T as Tr>::Out"),
        ] {
            assert_eq!(
                errors(&format!("struct Q<'w> {{ f: {ty} }}")),
                [(
                    format!(
                        "field `f` borrows `{shown}`, which cannot be a component: a query \
                         borrows one component per entity, e.g. `&'w Position`"
                    ),
                    ty.to_owned(),
                )],
            );
        }
    }

    #[test]
    fn a_type_no_query_fetches_is_reported() {
        for ty in [
            "[u8; 4]",
            "fn()",
            "<T as Tr>::Out",
            "*const P",
            "impl Trait",
        ] {
            let found = errors(&format!("struct Q<'w> {{ f: {ty}, ok: &'w P }}"));
            assert_eq!(found.len(), 1, "{ty}: {found:?}");
            assert!(
                found[0].0.starts_with("field `f` has type `"),
                "{ty}: {}",
                found[0].0
            );
            assert!(
                found[0].0.ends_with(
                    "`, which a query cannot fetch: use `&'w T`, `&'w mut T`, \
                     `Option<&'w T>`, `Option<&'w mut T>`, `Entity`, a tuple of these, or \
                     another `#[derive(Query)]` struct"
                ),
                "{ty}: {}",
                found[0].0
            );
            assert_eq!(found[0].1, ty);
        }
        assert!(
            errors("struct Q<'w> { f: [u8; 4] }")[0]
                .0
                .contains("`[u8; 4]`")
        );
    }

    #[test]
    fn a_field_with_a_problem_is_still_analysed_as_read_only() {
        let (fields, errors) = analysed("struct Q<'w> { bad: (P, &'w mut V), good: &'w mut W }");
        assert_eq!(errors.len(), 1);
        let mutability: Vec<_> = fields.iter().map(|f| f.mutability).collect();
        assert_eq!(mutability, [Mutability::ReadOnly, Mutability::Writes]);
    }

    #[test]
    fn a_component_written_by_one_field_and_read_by_a_later_one_is_reported_there() {
        assert_eq!(
            errors("struct Q<'w> { a: &'w mut P, b: &'w P }"),
            [(
                "fields `a` and `b` both reach `P`, and `a` changes it: one entity would hand \
                 out two references to the same value; keep one field `&'w mut P` and read \
                 the value through it"
                    .to_owned(),
                "&'w P".to_owned(),
            )]
        );
    }

    #[test]
    fn a_component_read_then_written_names_the_later_field_as_writer() {
        let found = errors("struct Q<'w> { a: Option<&'w P>, b: (Entity, &'w mut P) }");
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .0
                .starts_with("fields `a` and `b` both reach `P`, and `b` changes it"),
            "{}",
            found[0].0
        );
        assert_eq!(found[0].1, "(Entity, &'w mut P)");
    }

    #[test]
    fn every_later_clash_is_reported_against_the_first_writer() {
        let found = errors("struct Q<'w>(&'w mut P, &'w P, &'w P);");
        let starts: Vec<_> = found
            .iter()
            .map(|(message, _)| message.split(':').next().unwrap())
            .collect();
        assert_eq!(
            starts,
            [
                "fields `0` and `1` both reach `P`, and `0` changes it",
                "fields `0` and `2` both reach `P`, and `0` changes it",
            ]
        );
    }

    #[test]
    fn a_field_reaching_a_component_twice_and_writing_it_is_reported() {
        assert_eq!(
            errors("struct Q<'w> { pair: (&'w mut P, &'w P) }"),
            [(
                "field `pair` reaches `P` twice, and changes it: one entity would hand out two \
                 references to the same value; fetch it once as `&'w mut P` and read the value \
                 through it"
                    .to_owned(),
                "(&'w mut P, &'w P)".to_owned(),
            )]
        );
    }

    #[test]
    fn shared_reads_distinct_writes_and_nested_queries_do_not_clash() {
        for source in [
            "struct Q<'w> { a: &'w P, b: &'w P, c: Option<&'w P>, d: (&'w P, &'w P) }",
            "struct Q<'w> { a: &'w mut P, b: &'w mut V, c: Option<&'w mut W> }",
            "struct Q<'w> { a: &'w mut P, inner: Mover<'w> }",
        ] {
            assert_eq!(errors(source), [], "{source}");
        }
    }

    #[test]
    fn a_borrow_for_another_lifetime_is_reported_at_that_lifetime() {
        assert_eq!(
            errors("struct Q<'w, 'a> { a: &'a P }"),
            [(
                "field `a` borrows for `'a`, but a query item only lives as long as its \
                 borrow of the world: borrow for `'w` instead"
                    .to_owned(),
                "'a".to_owned(),
            )]
        );
    }

    #[test]
    fn a_foreign_lifetime_is_found_inside_groups_and_arguments_first_one_only() {
        let found =
            errors("struct Q<'w> { a: (&'w P, (Option<&'static V>, &'b W)), b: Mover<'c> }");
        let spans: Vec<_> = found.iter().map(|(_, span)| span.as_str()).collect();
        assert_eq!(spans, ["'static", "'c"]);
        assert!(found[0].0.starts_with("field `a` borrows for `'static`"));
        assert!(found[1].0.starts_with("field `b` borrows for `'c`"));
    }

    #[test]
    fn without_a_world_lifetime_no_borrow_is_foreign() {
        assert_eq!(errors("struct Q { a: &'a P, b: Mover<'static> }"), []);
    }

    #[test]
    fn foreign_lifetime_skips_the_world_and_keeps_the_name() {
        let world: Lifetime = parse_quote!('w);
        let ty: Type = parse_quote!(Mover<'w, 'w2>);
        let found = foreign_lifetime(ty.to_token_stream(), &world).unwrap();
        assert_eq!(found.to_string(), "'w2");
        let ty: Type = parse_quote!((&'w P, [&'w V; 2]));
        assert!(foreign_lifetime(ty.to_token_stream(), &world).is_none());
    }

    #[test]
    fn fields_keep_their_member_visibility_and_doc_comments_only() {
        let (fields, errors) = analysed(
            "struct Q<'w> {
                /// Where it is.
                #[allow(unused)]
                /// In metres.
                pub(crate) pos: &'w mut P,
                vel: &'w V,
            }",
        );
        assert_eq!(errors, []);
        let pos = &fields[0];
        assert_eq!(pos.member, parse_quote!(pos));
        assert_eq!(pos.ty, parse_quote!(&'w mut P));
        assert_eq!(pos.vis, parse_quote!(pub(crate)));
        let docs: Vec<_> = pos
            .docs
            .iter()
            .map(|a| a.to_token_stream().to_string())
            .collect();
        assert_eq!(
            docs,
            [r#"# [doc = " Where it is."]"#, r#"# [doc = " In metres."]"#]
        );
        assert_eq!(fields[1].vis, Visibility::Inherited);
        assert_eq!(fields[1].mutability, Mutability::ReadOnly);

        let (fields, _) = analysed("struct Q<'w>(pub &'w P, Entity);");
        let members: Vec<_> = fields.iter().map(|f| f.member.clone()).collect();
        assert_eq!(members, [Member::from(0), Member::from(1)]);
    }

    #[test]
    fn option_argument_takes_the_one_type_of_any_option_path() {
        let arg = |ty: Type| {
            let Type::Path(path) = ty else {
                panic!("a path")
            };
            let last = path.path.segments.last().unwrap().clone();
            option_argument(&last).map(compact)
        };
        assert_eq!(arg(parse_quote!(Option<&'w P>)), Some("&'w P".to_owned()));
        assert_eq!(
            arg(parse_quote!(std::option::Option<P>)),
            Some("P".to_owned())
        );
        assert_eq!(arg(parse_quote!(Option)), None);
        assert_eq!(arg(parse_quote!(Option<P, Q>)), None);
        assert_eq!(arg(parse_quote!(Option<'w>)), None);
        assert_eq!(arg(parse_quote!(Maybe<P>)), None);
    }

    #[test]
    fn has_lifetime_looks_at_angle_bracketed_arguments() {
        let arguments = |ty: Type| {
            let Type::Path(path) = ty else {
                panic!("a path")
            };
            has_lifetime(&path.path.segments.last().unwrap().arguments)
        };
        assert!(arguments(parse_quote!(Mover<'w>)));
        assert!(arguments(parse_quote!(Mover<T, 'w>)));
        assert!(!arguments(parse_quote!(Mover<T>)));
        assert!(!arguments(parse_quote!(Mover)));
        let parenthesized = PathArguments::Parenthesized(parse_quote!((&'w P) -> &'w V));
        assert!(!has_lifetime(&parenthesized));
    }

    #[test]
    fn compact_prints_types_as_written() {
        let cases: [(Type, &str); 8] = [
            (parse_quote!(&'w mut Position), "&'w mut Position"),
            (parse_quote!(Option<&'w Position>), "Option<&'w Position>"),
            (
                parse_quote!(::core::option::Option<T>),
                "::core::option::Option<T>",
            ),
            (parse_quote!(Vec<Vec<u8>>), "Vec<Vec<u8>>"),
            (parse_quote!([u8; 4]), "[u8; 4]"),
            (parse_quote!((A, B)), "(A, B)"),
            (parse_quote!(&'w dyn Debug), "&'w dyn Debug"),
            (parse_quote!(<T as Tr>::Out), "<T as Tr>::Out"),
        ];
        for (ty, expected) in cases {
            assert_eq!(compact(&ty), expected);
        }
    }

    #[test]
    fn member_label_is_the_name_or_the_index() {
        assert_eq!(member_label(&parse_quote!(pos)), "pos");
        assert_eq!(member_label(&Member::from(3)), "3");
    }
}
