//! The derive's input when some `#[crd(...)]` arguments do not parse. darling's parse
//! of a type fails as a whole, which would hide every later mistake (a keyword on the
//! wrong type, a rule that does not compile) until the next build. So the type is
//! parsed again without the arguments that do not parse: each holder of arguments (the
//! type, a variant, a field) keeps those that parse on their own and together.
//! Lowering and the checks run on that, and one build reports every mistake it can
//! find. The holders that lost arguments are marked ([`TypeInput::broken`],
//! [`FieldInput::broken`]), so that nothing is reported because of what they lost.

use super::attrs::{FieldInput, TypeInput, VariantInput};
use darling::ast::NestedMeta;
use darling::{Error, FromDeriveInput, FromField, FromVariant};
use syn::{Attribute, DeriveInput};

/// The type's input, and darling's errors when it does not parse whole (exactly those
/// of a whole parse, in its order). `Err` when not even the arguments that parse give
/// an input (a shape the derive does not support).
pub fn parse(di: &DeriveInput) -> darling::Result<(TypeInput, Option<Error>)> {
    let error = match TypeInput::from_derive_input(di) {
        Ok(parsed) => return Ok((parsed, None)),
        Err(e) => e,
    };
    let mut kept = di.clone();
    // Whether each field lost arguments, in the order darling lists the fields.
    let mut broken_fields = Vec::new();
    let mut field = |f: &mut syn::Field| {
        let probe = f.clone();
        let lost = keep_parsing(&mut f.attrs, |attrs| {
            FieldInput::from_field(&syn::Field {
                attrs: attrs.to_vec(),
                ..probe.clone()
            })
            .is_ok()
        });
        broken_fields.push(!lost.is_empty());
    };
    match &mut kept.data {
        syn::Data::Struct(s) => s.fields.iter_mut().for_each(&mut field),
        syn::Data::Enum(e) => {
            for v in e.variants.iter_mut() {
                v.fields.iter_mut().for_each(&mut field);
                let probe = syn::Variant {
                    fields: without_crd(&v.fields),
                    ..v.clone()
                };
                keep_parsing(&mut v.attrs, |attrs| {
                    VariantInput::from_variant(&syn::Variant {
                        attrs: attrs.to_vec(),
                        ..probe.clone()
                    })
                    .is_ok()
                });
            }
        }
        syn::Data::Union(_) => return Err(error),
    }
    // The type's own arguments, tried on the type without any field's.
    let mut bare = kept.clone();
    match &mut bare.data {
        syn::Data::Struct(s) => s.fields = without_crd(&s.fields),
        syn::Data::Enum(e) => {
            for v in e.variants.iter_mut() {
                v.attrs.retain(|a| !is_crd(a));
                v.fields = without_crd(&v.fields);
            }
        }
        syn::Data::Union(_) => {}
    }
    let lost = keep_parsing(&mut kept.attrs, |attrs| {
        TypeInput::from_derive_input(&DeriveInput {
            attrs: attrs.to_vec(),
            ..bare.clone()
        })
        .is_ok()
    });
    let Ok(mut parsed) = TypeInput::from_derive_input(&kept) else {
        return Err(error);
    };
    parsed.broken = lost;
    let fields: Vec<&mut FieldInput> = match &mut parsed.data {
        darling::ast::Data::Struct(fields) => fields.fields.iter_mut().collect(),
        darling::ast::Data::Enum(variants) => variants.iter_mut().flat_map(|v| v.fields.fields.iter_mut()).collect(),
    };
    for (f, broken) in fields.into_iter().zip(broken_fields) {
        f.broken = broken;
    }
    Ok((parsed, Some(error)))
}

fn is_crd(a: &Attribute) -> bool {
    a.path().is_ident("crd")
}

fn without_crd(fields: &syn::Fields) -> syn::Fields {
    let mut fields = fields.clone();
    for f in fields.iter_mut() {
        f.attrs.retain(|a| !is_crd(a));
    }
    fields
}

/// Leaves in `attrs` the `#[crd(...)]` arguments that `parses` accepts alone, as one
/// `#[crd(...)]` after the other attributes; none when those do not parse together
/// (an argument given twice). Returns the names of the arguments left out.
fn keep_parsing(attrs: &mut Vec<Attribute>, parses: impl Fn(&[Attribute]) -> bool) -> Vec<String> {
    let (crd, other): (Vec<Attribute>, Vec<Attribute>) = attrs.drain(..).partition(is_crd);
    let with = |items: &[NestedMeta]| {
        let mut attrs = other.clone();
        if !items.is_empty() {
            attrs.push(syn::parse_quote!(#[crd( #( #items ),* )]));
        }
        attrs
    };
    let mut lost = Vec::new();
    let mut kept = Vec::new();
    for attr in &crd {
        let items = match &attr.meta {
            syn::Meta::List(list) => NestedMeta::parse_meta_list(list.tokens.clone()).ok(),
            _ => None,
        };
        let Some(items) = items else {
            lost.push("crd".to_string());
            continue;
        };
        for item in items {
            if parses(&with(std::slice::from_ref(&item))) {
                kept.push(item);
            } else {
                lost.push(name(&item));
            }
        }
    }
    if parses(&with(&kept)) {
        *attrs = with(&kept);
    } else {
        lost.extend(kept.iter().map(name));
        *attrs = other;
    }
    lost
}

/// An argument's name (`pattern` of `pattern = "..."`).
fn name(item: &NestedMeta) -> String {
    let path = match item {
        NestedMeta::Meta(m) => m.path(),
        NestedMeta::NameValueInvalidExpr(m) => &m.path,
        NestedMeta::Lit(_) => return String::new(),
    };
    path.get_ident()
        .map(|i| i.to_string())
        .unwrap_or_else(|| quote::quote!(#path).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(src: &str) -> (TypeInput, Option<Error>) {
        let di: DeriveInput = syn::parse_str(src).unwrap();
        parse(&di).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_whole_parse_is_unchanged() {
        let (parsed, error) =
            parse_str(r#"#[crd(group = "g", version = "v1")] struct S { #[crd(max_length = 3)] a: String }"#);
        assert!(error.is_none());
        assert!(parsed.broken.is_empty());
        let darling::ast::Data::Struct(fields) = &parsed.data else {
            panic!("a struct")
        };
        assert!(!fields.fields[0].broken);
        assert_eq!(fields.fields[0].keywords.value_keywords.max_length.as_deref(), Some(&3));
    }

    #[test]
    fn keeps_what_parses_and_marks_what_lost_arguments() {
        let (parsed, error) = parse_str(
            r#"
            #[crd(group = "g", namespaced = "yes", colour = "red")]
            struct S {
                #[crd(max_items = 2.5, pattern = "^a")] a: Vec<String>,
                #[crd(max_length = 3)] b: String,
                #[crd(min_length = 1, min_length = 2)] c: String,
            }"#,
        );
        // darling's own errors, all of them.
        let messages: Vec<String> = error.unwrap().flatten().into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert_eq!(parsed.broken, ["namespaced", "colour"]);
        assert_eq!(parsed.resource.group.as_deref().map(String::as_str), Some("g"));
        let darling::ast::Data::Struct(fields) = &parsed.data else {
            panic!("a struct")
        };
        let [a, b, c] = &fields.fields[..] else {
            panic!("three fields")
        };
        assert!(a.broken && !b.broken && c.broken);
        assert!(a.keywords.value_keywords.max_items.is_none());
        assert_eq!(
            a.keywords.value_keywords.pattern.as_deref().map(String::as_str),
            Some("^a")
        );
        assert_eq!(b.keywords.value_keywords.max_length.as_deref(), Some(&3));
        // Given twice: neither is kept.
        assert!(c.keywords.value_keywords.min_length.is_none());
    }

    #[test]
    fn an_unsupported_shape_is_an_error() {
        let di: DeriveInput = syn::parse_str(r#"#[crd(colour = 1)] struct S(String);"#).unwrap();
        assert!(parse(&di).is_err());
    }
}
