//! Proc-macros over `crd-codegen`.
//!
//! `#[derive(CustomResource)]` on a kind's spec struct gives the root type named after
//! the kind, its CRD (`Kind::crd()`) and the admission code the YAML direction
//! generates; `#[derive(CrdSchema)]` does the same for the types nested in a spec.
//! Both read `#[crd(...)]` (controller-gen's markers, kube-derive's spelling) and
//! `#[serde(...)]`. See `crd_codegen::derive` for how the work is split.
//!
//! `crd_types!("crds/crontab.yaml")` expands to the same Rust types that
//! `crd_codegen::Builder` writes from a build script: one module per API group and
//! version. The path is relative to the crate's `Cargo.toml` and may name a file or
//! a directory. An invalid CRD is a compile error listing every problem with its file
//! and line.

#![warn(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::quote;
use std::path::PathBuf;
use syn::{LitStr, parse_macro_input};

/// The root type of a kind, its CRD and its admission, from the spec struct.
///
/// Reads `#[crd(...)]` (controller-gen's markers) and kube-derive's `#[kube(...)]` and
/// `#[x_kube(...)]`; both may be mixed on one type.
#[proc_macro_derive(CustomResource, attributes(crd, kube, x_kube))]
pub fn derive_custom_resource(input: TokenStream) -> TokenStream {
    crd_codegen::derive::custom_resource(input.into()).into()
}

/// kube-derive's `KubeSchema`: the type's schema and admission in kube-derive's
/// conventions (as `CrdSchema` gives them in controller-gen's), its
/// `schemars::JsonSchema`, and with `#[x_kube(cel)]` a `validate_cel(value, old)` running
/// its rules, compiled.
///
/// On the type and its fields, `#[x_kube(validation = ...)]` adds a CEL rule, written as
/// kube-derive takes it: a string, a `(rule, message)` pair, or `Rule::new("...")` with
/// `.message(..)` (a string, `Message::Message(..)` or `Message::Expression(..)`),
/// `.reason(Reason::...)`, `.field_path(..)` and `.optional_old_self(..)`. The rule is
/// compiled to Rust and checked against the type's schema when the crate compiles (a
/// rule naming a field the type does not have is a compile error at the rule). On a
/// field, `#[x_kube(merge_strategy = ...)]` sets its list or map type:
/// `ListMerge::Atomic`, `ListMerge::Set`, `ListMerge::Map(vec!["name".into()])`,
/// `MapMerge::Atomic`, `MapMerge::Granular`. `#[schemars(...)]`, `#[validate(...)]` and
/// `#[garde(...)]` on a field give it the schema schemars gives it, as kube-derive does.
/// Needs crd-runtime's `schemars` feature (its `kube` feature enables it).
///
/// ```
/// use crd_derive::KubeSchema;
/// use serde::{Deserialize, Serialize};
///
/// /// Where to send.
/// #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
/// #[x_kube(validation = Rule::new("self.port != 22").message("not the SSH port"))]
/// pub struct Endpoint {
///     pub host: String,
///     pub port: u16,
///     #[x_kube(merge_strategy = ListMerge::Set)]
///     pub tags: Vec<String>,
/// }
///
/// let schema = <Endpoint as crd_runtime::CrdSchema>::crd_schema();
/// assert_eq!(schema["properties"]["port"]["format"], "uint16");
/// assert_eq!(schema["properties"]["tags"]["x-kubernetes-list-type"], "set");
/// ```
#[proc_macro_derive(KubeSchema, attributes(x_kube, crd, schemars, validate, garde))]
pub fn derive_kube_schema(input: TokenStream) -> TokenStream {
    crd_codegen::derive::kube_schema(input.into()).into()
}

/// kube-derive's `Resource`: `#[resource(inherit = "ConfigMap")]` makes the type a
/// `kube::Resource` of that kind (its `metadata` field is the object's), for a typed
/// view of another kind's data: it implements k8s-openapi's `Resource` and `Metadata`
/// as the inherited kind does, and kube-rs's blanket impl does the rest.
/// `crates(...)` is accepted and not needed.
///
/// ```
/// use crd_derive::Resource;
/// use k8s_openapi::api::core::v1::ConfigMap;
///
/// #[derive(Resource, Default)]
/// #[resource(inherit = "ConfigMap")]
/// struct Settings {
///     metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
/// }
///
/// use k8s_openapi::Resource as _;
/// assert_eq!(Settings::KIND, "ConfigMap");
/// ```
#[proc_macro_derive(Resource, attributes(resource))]
pub fn derive_resource(input: TokenStream) -> TokenStream {
    crd_codegen::derive::inherited_resource(input.into()).into()
}

/// The schema and admission impls of a type nested in a spec.
#[proc_macro_derive(CrdSchema, attributes(crd))]
pub fn derive_crd_schema(input: TokenStream) -> TokenStream {
    crd_codegen::derive::crd_schema(input.into()).into()
}

/// The derives' call back for `#[serde(flatten)]` structs (what a derived struct's
/// hand-over macro calls); not for use by hand.
#[doc(hidden)]
#[proc_macro]
pub fn __flattened(input: TokenStream) -> TokenStream {
    crd_codegen::derive::flattened(input.into()).into()
}

/// The types generated from CRD YAML at a path (file or directory) relative to the
/// crate's `Cargo.toml`. Errors are compile errors, one per problem; warnings (such
/// as an unknown schema field, a misspelt `maxLenght`) are compiler warnings at the
/// path. Every file read is tracked, so editing one rebuilds; a file *added* to a
/// directory is seen on the crate's next rebuild (stable Rust cannot track a
/// directory; the build.rs route can).
#[proc_macro]
pub fn crd_types(input: TokenStream) -> TokenStream {
    let path = parse_macro_input!(input as LitStr);
    expand_crd_types(&path).unwrap_or_else(|e| e.to_compile_error()).into()
}

fn expand_crd_types(path: &LitStr) -> syn::Result<proc_macro2::TokenStream> {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| syn::Error::new(Span::call_site(), "CARGO_MANIFEST_DIR is not set"))?;
    let full = manifest_dir.join(path.value());
    // `a/../b` read as `b` in messages.
    let full = std::fs::canonicalize(&full).unwrap_or(full);
    let loaded = crd_codegen::load::load(&[&full]);
    let mut errors = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| syn::Error::new(path.span(), d.located_message()));
    if let Some(mut first) = errors.next() {
        errors.for_each(|e| first.combine(e));
        return Err(first);
    }
    // Stable proc-macros cannot warn; a deprecated item used at the path can.
    let warnings = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == crd_codegen::diagnostic::Severity::Warning)
        .map(|d| {
            let note = d.located_message();
            let used = syn::Ident::new("crd_types_warning", path.span());
            quote! {
                const _: () = {
                    #[deprecated(note = #note)]
                    #[allow(non_camel_case_types)]
                    struct crd_types_warning;
                    let _ = #used;
                };
            }
        });
    let types = crd_codegen::rust::generate_tokens(&loaded.irs());
    // Make the compiler rebuild when an input file changes.
    let tracked = loaded.files.iter().map(|f| {
        let f = f.to_string_lossy().into_owned();
        quote!(
            const _: &[u8] = include_bytes!(#f);
        )
    });
    Ok(quote! {
        #( #warnings )*
        #( #tracked )*
        #types
    })
}
