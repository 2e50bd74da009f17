//! The hook options of `#[derive(Component)]`: `on_add = f`, `on_insert = f`,
//! `on_replace = f`, `on_remove = f`, `on_despawn = f`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, ExprPath, Ident, Path};

use crate::options::skip_value;

/// The hook options, in the order a world runs them on one change.
const KINDS: [&str; 5] = [
    "on_add",
    "on_insert",
    "on_replace",
    "on_remove",
    "on_despawn",
];

/// The hooks a type declares: for each option given, its name and the path
/// of the function.
#[derive(Default)]
pub(crate) struct Hooks(Vec<(Ident, Path)>);

impl Hooks {
    /// Parses a hook option if `meta` is one; returns whether it was. A
    /// malformed value is reported in `errors` and parsing goes on.
    pub(crate) fn parse(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        errors: &mut Vec<syn::Error>,
    ) -> syn::Result<bool> {
        let Some(kind) = meta
            .path
            .get_ident()
            .filter(|name| KINDS.iter().any(|k| name == k))
        else {
            return Ok(false);
        };
        let takes = format!(
            "the `{kind}` option takes the path of a function \
             `fn(DeferredWorld, HookContext)`, e.g. `{kind} = my_hook`"
        );
        if !meta.input.peek(syn::Token![=]) {
            errors.push(meta.error(takes));
            skip_value(meta)?;
            return Ok(true);
        }
        let value: Expr = meta.value()?.parse()?;
        let Expr::Path(ExprPath {
            qself: None, path, ..
        }) = value
        else {
            errors.push(syn::Error::new_spanned(&value, takes));
            return Ok(true);
        };
        if self.0.iter().any(|(given, _)| given == kind) {
            errors.push(syn::Error::new_spanned(
                &meta.path,
                format!("`{kind}` is given twice: a type has at most one hook of each kind"),
            ));
            return Ok(true);
        }
        self.0.push((kind.clone(), path));
        Ok(true)
    }

    /// The path given for the hook `kind`, if any.
    pub(crate) fn get(&self, kind: &str) -> Option<&Path> {
        self.0
            .iter()
            .find(|(given, _)| given == kind)
            .map(|(_, path)| path)
    }

    /// Declares the hook `kind` as `path`, after those given.
    pub(crate) fn add(&mut self, kind: &str, path: Path) {
        self.0
            .push((Ident::new(kind, proc_macro2::Span::call_site()), path));
    }

    /// The items of the `Component` impl that declare the hooks, if any
    /// are given. Each hook is set at its path's span, so a function of
    /// the wrong shape is reported where it is named.
    pub(crate) fn expand(&self, krate: &Path) -> Option<TokenStream> {
        if self.0.is_empty() {
            return None;
        }
        let sets = self.0.iter().map(|(kind, path)| {
            quote_spanned! {path.span()=>
                __ecs_hooks.#kind(#path);
            }
        });
        Some(quote! {
            const DECLARES_HOOKS: ::core::primitive::bool = true;
            fn declare_hooks(__ecs_hooks: &mut dyn ::core::any::Any) {
                let __ecs_hooks = #krate::__private::declared_hooks(__ecs_hooks);
                #(#sets)*
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;
    use syn::parse_quote;

    use super::*;
    use crate::options::{combine, parse_options};
    use crate::test_util::{input, messages};

    /// Pairs of texts: (hook, path), or (message, the text it points at).
    type Texts = Vec<(String, String)>;

    /// The hooks the `#[demo(...)]` attributes of `source` declare, as
    /// (kind, path) texts, or every error with the text it points at.
    fn hooks_of(source: &str) -> Result<Texts, Texts> {
        let input = input(source);
        let mut errors = Vec::new();
        let mut hooks = Hooks::default();
        parse_options(
            &input.attrs,
            "demo",
            "hooks",
            &mut errors,
            |meta, errors| hooks.parse(meta, errors),
        );
        combine(errors).map_err(messages)?;
        Ok(hooks
            .0
            .iter()
            .map(|(kind, path)| (kind.to_string(), path.to_token_stream().to_string()))
            .collect())
    }

    #[test]
    fn every_kind_takes_a_path_in_the_order_given() {
        let hooks = hooks_of(
            "#[demo(on_despawn = d, on_add = a, on_insert = self::b, on_replace = ::m::c, \
             on_remove = e::<u8>)] struct S;",
        )
        .unwrap();
        let expected = [
            ("on_despawn", "d"),
            ("on_add", "a"),
            ("on_insert", "self :: b"),
            ("on_replace", ":: m :: c"),
            ("on_remove", "e :: < u8 >"),
        ];
        let expected: Vec<_> = expected
            .iter()
            .map(|(k, p)| (k.to_string(), p.to_string()))
            .collect();
        assert_eq!(hooks, expected);
    }

    #[test]
    fn a_value_that_is_not_a_path_is_reported_at_the_value() {
        let errors =
            hooks_of(r#"#[demo(on_add = "count_up", on_remove = 1 + 2)] struct S;"#).unwrap_err();
        assert_eq!(
            errors,
            [
                (
                    "the `on_add` option takes the path of a function \
                     `fn(DeferredWorld, HookContext)`, e.g. `on_add = my_hook`"
                        .to_owned(),
                    r#""count_up""#.to_owned(),
                ),
                (
                    "the `on_remove` option takes the path of a function \
                     `fn(DeferredWorld, HookContext)`, e.g. `on_remove = my_hook`"
                        .to_owned(),
                    "1 + 2".to_owned(),
                ),
            ]
        );
    }

    #[test]
    fn a_hook_without_a_value_is_reported_at_its_name() {
        let errors = hooks_of("#[demo(on_insert, on_add = a)] struct S;").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].1, "on_insert");
    }

    #[test]
    fn a_hook_given_twice_is_reported_at_the_second() {
        let errors = hooks_of("#[demo(on_add = a)] #[demo(on_add = b)] struct S;").unwrap_err();
        assert_eq!(
            errors,
            [(
                "`on_add` is given twice: a type has at most one hook of each kind".to_owned(),
                "on_add".to_owned(),
            )]
        );
    }

    #[test]
    fn other_options_are_left_to_the_caller() {
        let errors = hooks_of("#[demo(on_spawn = a)] struct S;").unwrap_err();
        assert_eq!(
            errors,
            [(
                "unknown `demo` option `on_spawn`; the options are: hooks".to_owned(),
                "on_spawn".to_owned()
            )]
        );
    }

    #[test]
    fn no_hooks_expand_to_nothing_and_hooks_to_their_declaration() {
        let krate: Path = parse_quote!(::ecs_core);
        assert!(Hooks::default().expand(&krate).is_none());
        let hooks = Hooks(vec![
            (parse_quote!(on_add), parse_quote!(count_up)),
            (parse_quote!(on_remove), parse_quote!(counts::down)),
        ]);
        let expected = quote! {
            const DECLARES_HOOKS: ::core::primitive::bool = true;
            fn declare_hooks(__ecs_hooks: &mut dyn ::core::any::Any) {
                let __ecs_hooks = ::ecs_core::__private::declared_hooks(__ecs_hooks);
                __ecs_hooks.on_add(count_up);
                __ecs_hooks.on_remove(counts::down);
            }
        };
        assert_eq!(
            hooks.expand(&krate).unwrap().to_string(),
            expected.to_string()
        );
    }
}
