//! `#[crd(convert_from = "super::v1::WidgetSpec")]`: a derived type built field by
//! field from the corresponding type of another version (`crd_runtime::ConvertFrom`),
//! and, on a kind's spec struct, `crd_runtime::Convert` between the two root types.
//!
//! The mapping is left to the compiler, in the spirit of conversion-gen: each field is
//! converted from the source's field of the same name, so a field the source does not
//! have, or whose type does not convert, is a compile error at that field. The field's
//! `#[crd(convert(from = "...", field = "old_name"))]` maps a renamed field, and
//! `#[crd(convert(from = "...", with = "a_function"))]` computes it from the whole
//! source struct (a hook). Versions convert through the hub: the storage version
//! names each other version in `convert_from`, and each of them names the hub.

use super::attrs::{ConvertAttr, FieldInput, TypeInput, VariantInput};
use darling::util::SpannedValue;
use darling::{Error, Result};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// The root type's fields besides `metadata`, for the root conversion.
pub struct RootFields<'a> {
    pub name: &'a syn::Ident,
    /// `fields_at_root`: one flattened `fields`, else `spec` and maybe `status`.
    pub fields_at_root: bool,
    pub status: bool,
}

/// The `ConvertFrom` impls of `input` (and the root's `Convert` impls when `root` is
/// given). Every mistake found is in the error.
pub fn convert_impls(input: &TypeInput, root: Option<&RootFields>) -> Result<TokenStream> {
    let mut errors = Error::accumulator();
    let sources: Vec<(String, syn::Path)> = input
        .convert_from
        .iter()
        .filter_map(|s| errors.handle(parse_path(s)).map(|p| (s.as_str().to_string(), p)))
        .collect();
    let mut out = TokenStream::new();
    match &input.data {
        darling::ast::Data::Struct(fields) => {
            errors.handle(check_field_attrs(&fields.fields, &sources));
            for (written, path) in &sources {
                out.extend(struct_impl(&input.ident, written, path, &fields.fields, &mut errors));
                if let Some(root) = root {
                    out.extend(root_impl(root, path));
                }
            }
        }
        darling::ast::Data::Enum(variants) => {
            for (_, path) in &sources {
                match enum_impl(&input.ident, path, variants) {
                    Ok(tokens) => out.extend(tokens),
                    Err(e) => errors.push(e),
                }
            }
        }
    }
    errors.finish_with(out)
}

fn parse_path(s: &SpannedValue<String>) -> Result<syn::Path> {
    syn::LitStr::new(s, s.span())
        .parse::<syn::Path>()
        .map_err(|e| Error::custom(format!("expected a type path: {e}")).with_span(&s.span()))
}

/// Each field's `convert(from = ...)` names one of the type's `convert_from`s.
fn check_field_attrs(fields: &[FieldInput], sources: &[(String, syn::Path)]) -> Result<()> {
    let mut errors = Error::accumulator();
    for f in fields {
        for c in &f.convert {
            if sources.is_empty() {
                errors.push(
                    Error::custom("`convert` needs `#[crd(convert_from = \"...\")]` on the type").with_span(&c.span()),
                );
            } else if let Some(from) = &c.from
                && !sources.iter().any(|(s, _)| s == from.as_str())
            {
                errors.push(
                    Error::custom(format!(
                        "`{}` is not among the type's `convert_from` ({})",
                        from.as_str(),
                        sources.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join(", ")
                    ))
                    .with_span(&from.span()),
                );
            } else if c.from.is_none() && sources.len() > 1 {
                errors.push(
                    Error::custom("the type has several `convert_from`: say which with `from = \"...\"`")
                        .with_span(&c.span()),
                );
            }
            match (&c.field, &c.with) {
                (Some(_), Some(w)) => {
                    errors.push(Error::custom("give `field` or `with`, not both").with_span(&w.span()));
                }
                (None, None) => {
                    errors.push(Error::custom("expected `field = \"...\"` or `with = \"...\"`").with_span(&c.span()))
                }
                _ => {}
            }
        }
    }
    errors.finish()
}

/// The attribute of field `f` for the source written `written`, if any.
fn attr_for<'f>(f: &'f FieldInput, written: &str) -> Option<&'f ConvertAttr> {
    f.convert
        .iter()
        .map(|c| &**c)
        .find(|c| c.from.as_ref().is_none_or(|from| from.as_str() == written))
}

fn struct_impl(
    ident: &syn::Ident,
    written: &str,
    source: &syn::Path,
    fields: &[FieldInput],
    errors: &mut darling::error::Accumulator,
) -> TokenStream {
    let inits = fields.iter().filter_map(|f| {
        let name = f.ident.as_ref()?;
        let span = name.span();
        let value = match attr_for(f, written) {
            Some(ConvertAttr { with: Some(with), .. }) => match parse_path(with) {
                Ok(function) => quote_spanned!(with.span()=> #function(from)),
                Err(e) => {
                    errors.push(e);
                    return None;
                }
            },
            Some(ConvertAttr { field: Some(old), .. }) => {
                let old_ident = match syn::LitStr::new(old, old.span()).parse::<syn::Ident>() {
                    Ok(i) => i,
                    Err(e) => {
                        errors.push(Error::custom(format!("expected a field name: {e}")).with_span(&old.span()));
                        return None;
                    }
                };
                quote_spanned!(old.span()=> ::crd_runtime::ConvertFrom::convert_from(&from.#old_ident))
            }
            _ => quote_spanned!(span=> ::crd_runtime::ConvertFrom::convert_from(&from.#name)),
        };
        Some(quote!(#name: #value))
    });
    quote_spanned! {source.span()=>
        #[automatically_derived]
        impl ::crd_runtime::ConvertFrom<#source> for #ident {
            fn convert_from(from: &#source) -> Self {
                Self { #( #inits, )* }
            }
        }
    }
}

/// A unit-only enum: each variant from the source's variant of the same name.
fn enum_impl(ident: &syn::Ident, source: &syn::Path, variants: &[VariantInput]) -> Result<TokenStream> {
    let mut arms = Vec::new();
    for v in variants {
        if !v.fields.is_empty() {
            return Err(Error::custom("`convert_from` on an enum needs unit variants").with_span(&v.ident));
        }
        let name = &v.ident;
        arms.push(quote_spanned!(name.span()=> #source::#name => Self::#name));
    }
    Ok(quote_spanned! {source.span()=>
        #[automatically_derived]
        impl ::crd_runtime::ConvertFrom<#source> for #ident {
            fn convert_from(from: &#source) -> Self {
                match from { #( #arms, )* }
            }
        }
    })
}

/// `Convert<Root> for <the source's root>`: the source spec's path with its last
/// segment replaced by the kind.
fn root_impl(root: &RootFields, source_spec: &syn::Path) -> TokenStream {
    let name = root.name;
    let mut source = source_spec.clone();
    if let Some(last) = source.segments.last_mut() {
        last.ident = syn::Ident::new(&name.to_string(), last.ident.span());
        last.arguments = syn::PathArguments::None;
    }
    let fields = if root.fields_at_root {
        quote!(fields: ::crd_runtime::ConvertFrom::convert_from(&from.fields),)
    } else {
        let status = root
            .status
            .then(|| quote!(status: ::crd_runtime::ConvertFrom::convert_from(&from.status),));
        quote!(spec: ::crd_runtime::ConvertFrom::convert_from(&from.spec), #status)
    };
    quote_spanned! {source_spec.span()=>
        #[automatically_derived]
        impl ::crd_runtime::Convert<#name> for #source {
            fn convert(&self) -> ::crd_runtime::conversion::Result<#name> {
                ::crd_runtime::conversion::derived(self, |from| #name {
                    metadata: ::std::clone::Clone::clone(&from.metadata),
                    #fields
                })
            }
        }
    }
}
