//! `#[derive(SystemParam)]`: a struct of system params that a system takes as one.

mod expand;
mod fields;

use proc_macro2::TokenStream;
use syn::{Data, DeriveInput, Ident, Lifetime};

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};
use crate::world_lifetime::{Wording, world_lifetime};
use fields::ParamField;

const OPTIONS: &str = "`crate = \"path\"`";

/// Everything expansion needs, validated.
pub(crate) struct ParamInput<'a> {
    pub(crate) input: &'a DeriveInput,
    pub(crate) krate: syn::Path,
    pub(crate) world: Lifetime,
    pub(crate) fields: Vec<ParamField>,
}

pub(crate) fn derive_system_param(input: &DeriveInput) -> syn::Result<TokenStream> {
    analyse(input).map(|p| expand::expand(&p))
}

/// Validates the struct and reads its options, reporting every mistake at once.
fn analyse(input: &DeriveInput) -> syn::Result<ParamInput<'_>> {
    let mut errors = Vec::new();

    let mut krate = CratePath::new();
    parse_options(
        &input.attrs,
        "system_param",
        OPTIONS,
        &mut errors,
        |meta, errors| krate.parse(meta, errors),
    );

    let world = world_lifetime(input, &WORDING, &mut errors);
    let type_params: Vec<&Ident> = input.generics.type_params().map(|t| &t.ident).collect();

    let fields = match &input.data {
        Data::Struct(data) => {
            if data.fields.is_empty() {
                errors.push(syn::Error::new_spanned(
                    &input.ident,
                    format!(
                        "`{}` has no fields, so it would hand its system nothing: add the \
                         params it groups, e.g. `time: Res<'w, Time>`",
                        input.ident
                    ),
                ));
            }
            fields::analyse(&data.fields, world.as_ref(), &type_params, &mut errors)
        }
        Data::Enum(data) => {
            errors.push(syn::Error::new_spanned(
                data.enum_token,
                "`SystemParam` can only be derived for a struct: a system gets every one of \
                 its params at once, not one variant",
            ));
            Vec::new()
        }
        Data::Union(data) => {
            errors.push(syn::Error::new_spanned(
                data.union_token,
                "`SystemParam` can only be derived for a struct, not a union",
            ));
            Vec::new()
        }
    };

    combine(errors)?;
    Ok(ParamInput {
        input,
        krate: krate.get(),
        world: world.expect("no error means the lifetime was found"),
        fields,
    })
}

/// How lifetime errors name this derive's struct and fields.
const WORDING: Wording = Wording {
    kind: "a system param struct",
    each: "param",
    every: "param",
    example: "`time: Res<'w, Time>`",
};

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::*;
    use crate::test_util::{input, messages, spans};

    /// The errors `analyse` reports for `source`.
    fn errors(source: &str) -> Vec<(String, String)> {
        match analyse(&input(source)) {
            Ok(_) => Vec::new(),
            Err(error) => messages(error),
        }
    }

    #[test]
    fn a_valid_struct_yields_its_lifetime_path_and_fields() {
        let input = input(
            "struct Physics<'w> {
                movers: Query<'w, Mover<'w>, Without<Frozen>>,
                time: Res<'w, Time>,
            }",
        );
        let p = analyse(&input).expect("valid");
        assert_eq!(p.world.to_string(), "'w");
        assert_eq!(p.krate.to_token_stream().to_string(), ":: ecs_core");
        let members: Vec<_> = p
            .fields
            .iter()
            .map(|f| f.member.to_token_stream().to_string())
            .collect();
        assert_eq!(members, ["movers", "time"]);
    }

    #[test]
    fn tuple_structs_and_type_parameters_are_accepted() {
        let input = input("struct Pair<'p, R: Send + Sync + 'static>(Res<'p, R>, Commands<'p>);");
        let p = analyse(&input).expect("valid");
        assert_eq!(p.world.to_string(), "'p");
        let members: Vec<_> = p
            .fields
            .iter()
            .map(|f| f.member.to_token_stream().to_string())
            .collect();
        assert_eq!(members, ["0", "1"]);
    }

    #[test]
    fn the_crate_option_names_the_core_crate() {
        let input = input(r#"#[system_param(crate = "engine::ecs")] struct P<'w>(Res<'w, T>);"#);
        let p = analyse(&input).expect("valid");
        assert_eq!(p.krate.to_token_stream().to_string(), "engine :: ecs");
    }

    #[test]
    fn an_unknown_option_lists_the_options() {
        assert_eq!(
            errors("#[system_param(exclusive)] struct P<'w>(Res<'w, T>);"),
            [(
                "unknown `system_param` option `exclusive`; the options are: \
                 `crate = \"path\"`"
                    .to_owned(),
                "exclusive".to_owned(),
            )]
        );
    }

    #[test]
    fn other_derives_options_are_not_read() {
        assert_eq!(
            errors(r#"#[query(mutable)] #[component(crate = "x")] struct P<'w>(Res<'w, T>);"#),
            []
        );
    }

    #[test]
    fn a_missing_lifetime_is_reported_at_the_name() {
        assert_eq!(
            errors("struct Physics { time: Res<Time> }"),
            [(
                "`Physics` needs a lifetime parameter for the borrow of the world: write \
                 `struct Physics<'w>` and borrow each param for it, e.g. `time: Res<'w, Time>`"
                    .to_owned(),
                "Physics".to_owned(),
            )],
            "and without a world lifetime, no field is told to borrow for it"
        );
    }

    #[test]
    fn a_second_lifetime_is_reported_at_itself() {
        assert_eq!(
            errors("struct P<'w, T, 'x, 'y> { time: Res<'w, T> }"),
            [(
                "a system param struct takes exactly one lifetime parameter, the borrow of the \
                 world; borrow every param for that one"
                    .to_owned(),
                "'x".to_owned(),
            )]
        );
    }

    #[test]
    fn a_struct_without_fields_is_reported_at_its_name() {
        let message = "`Empty` has no fields, so it would hand its system nothing: add the \
                       params it groups, e.g. `time: Res<'w, Time>`";
        for source in [
            "struct Empty<'w>;",
            "struct Empty<'w> {}",
            "struct Empty<'w>();",
        ] {
            assert_eq!(
                errors(source),
                [(message.to_owned(), "Empty".to_owned())],
                "{source}"
            );
        }
    }

    #[test]
    fn an_enum_or_a_union_is_reported_at_its_keyword() {
        assert_eq!(
            errors("enum Either<'w> { A(Res<'w, T>), B(Commands<'w>) }"),
            [(
                "`SystemParam` can only be derived for a struct: a system gets every one of its \
                 params at once, not one variant"
                    .to_owned(),
                "enum".to_owned(),
            )]
        );
        assert_eq!(
            errors("union U<'w> { a: Res<'w, T> }"),
            [(
                "`SystemParam` can only be derived for a struct, not a union".to_owned(),
                "union".to_owned(),
            )]
        );
    }

    #[test]
    fn every_mistake_is_reported_at_once_options_first() {
        let found = analyse(&input(
            "#[system_param(crate = 3)] #[system_param(fast)]
             struct P<'w> { a: Res<Time>, b: ResMut<'w, S>, c: Res<'w, S> }",
        ))
        .err()
        .unwrap();
        assert_eq!(spans(found), ["3", "fast", "Res<Time>", "Res<'w, S>"]);
    }
}
