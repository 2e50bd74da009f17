//! What each field of a `#[derive(Query)]` struct fetches, and the mistakes caught before expansion.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Fields, GenericArgument, Lifetime, Member, PathArguments, Type};

/// How a field touches component data, as far as its written type shows.
#[derive(Clone, Copy, PartialEq, Eq)]
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

fn member_label(member: &Member) -> String {
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
fn option_argument(segment: &syn::PathSegment) -> Option<&Type> {
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
fn compact(ty: &Type) -> String {
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
