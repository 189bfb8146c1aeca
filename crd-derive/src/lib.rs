//! Proc-macros over `crd-codegen`: typed Kubernetes custom resources with the API
//! server's pruning, defaulting, validation and CEL rules compiled in.
//!
//! - [`CustomResource`](derive@CustomResource) on a kind's spec struct gives the root
//!   type named after the kind, its CRD (`Kind::crd()`) and its admission;
//!   [`CrdSchema`](derive@CrdSchema) does the same for the types nested in a spec.
//!   Both read `#[crd(...)]` (controller-gen's markers, kube-derive's spelling) and
//!   `#[serde(...)]`; the reference of the attributes is
//!   [`CustomResource`](derive@CustomResource)'s.
//! - [`crd_types!`] turns CRD YAML into the same types that `crd_codegen::Builder`
//!   writes from a build script.
//!
//! The generated code names `::crd_runtime`, which every crate using these macros
//! depends on (with `serde` for the derives' `Serialize` and `Deserialize`):
//!
//! ```
//! use crd_derive::CustomResource;
//! use crd_runtime::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A CronTab runs an image on a schedule.
//! #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
//! #[crd(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced)]
//! #[serde(rename_all = "camelCase")]
//! pub struct CronTabSpec {
//!     #[crd(default = "5 0 * * *")]
//!     pub cron_spec: Option<String>,
//!     #[crd(minimum = 1, maximum = 10)]
//!     pub replicas: i64,
//! }
//!
//! fn main() {
//!     let object = crd_runtime::serde_json::json!({
//!         "apiVersion": "stable.example.com/v1", "kind": "CronTab",
//!         "metadata": {"name": "my-new-cron-object"},
//!         "spec": {"replicas": 15},
//!     });
//!     let admission = CronTab::admit_value(object, "default");
//!     assert_eq!(admission.object["spec"]["cronSpec"], "5 0 * * *");
//!     assert_eq!(
//!         admission.errors[0].to_string(),
//!         "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"
//!     );
//!     assert_eq!(CronTab::crd().metadata.name.as_deref(), Some("crontabs.stable.example.com"));
//! }
//! ```
//!
//! (The derives define helper modules beside the type, so they go on items of a
//! module, not of a function body.)
#![warn(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::quote;
use std::path::PathBuf;
use syn::{LitStr, parse_macro_input};

/// The root type of a kind, its CRD and its admission, from the spec struct.
///
/// ```
/// use crd_derive::{CrdSchema, CustomResource};
/// use serde::{Deserialize, Serialize};
///
/// /// A CronTab runs an image on a schedule.
/// #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
/// #[crd(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced,
///       shortname = "ct", status = "CronTabStatus",
///       rule(rule = "self.minReplicas <= self.replicas", message = "replicas below minimum"))]
/// #[serde(rename_all = "camelCase")]
/// pub struct CronTabSpec {
///     #[crd(pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$", default = "5 0 * * *")]
///     pub cron_spec: Option<String>,
///     #[crd(minimum = 1, maximum = 10, default = 1)]
///     pub replicas: Option<i64>,
///     #[serde(default)]
///     pub min_replicas: i64,
/// }
///
/// /// What the controller saw.
/// #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, Default)]
/// pub struct CronTabStatus {
///     pub replicas: Option<i64>,
/// }
///
/// fn main() {
///     use crd_runtime::prelude::*;
///     let spec = CronTabSpec { cron_spec: None, replicas: Some(2), min_replicas: 3 };
///     let mut tab = CronTab::new("nightly", spec);
///     tab.apply_defaults(); // cronSpec: "5 0 * * *"
///     assert_eq!(
///         tab.validate().unwrap_err().to_string(),
///         "The CronTab \"nightly\" is invalid:\n* spec: Invalid value: replicas below minimum"
///     );
///     print!("{}", crd_runtime::to_yaml(&CronTab::crd()));
/// }
/// ```
///
/// gives the root type `CronTab` (`metadata: ObjectMeta`, `spec: CronTabSpec`,
/// `status: Option<CronTabStatus>`, `CronTab::new(name, spec)`), `CronTab::crd()` (a
/// k8s-openapi `CustomResourceDefinition`), and the admission the YAML route
/// generates: `crd_runtime::CustomResource` with `admit_value`, `admit_update_value`,
/// `validate`, `validate_update` and `apply_defaults`. Nested types derive
/// [`CrdSchema`](derive@CrdSchema). Root types are `kube::Resource`s, and with
/// crd-runtime's `kube` feature they implement `kube::CustomResourceExt`.
///
/// # Attributes
///
/// `#[crd(...)]`, in kube-derive's spelling where it has one; values of schema
/// keywords are JSON written as Rust: literals (`1`, `-2.5`, `"x"`, `true`), arrays
/// (`["a", "b"]`), `null`, or `json!({...})` for anything.
///
/// **On the spec struct, for the CRD**: `group`, `version`, `kind` (required);
/// `namespaced` (else cluster-scoped, as in kube-derive); `plural`, `singular`;
/// `shortname = "ct"` and `category = "all"` (repeatable); `status = "Type"` (the
/// status type, and the status subresource on); `status_subresource = false`;
/// `status_default = <JSON>`; `scale(spec_replicas_path = "...",
/// status_replicas_path = "...", label_selector_path = "...")`; `printcolumn(name,
/// type, json_path, description, format, priority)` (repeatable; clippy's
/// `duplicated_attributes` lint mistakes two columns with an equal `key = value` for a
/// repeated attribute: allow it on the struct); `selectable = ".spec.x"`
/// (repeatable); `served = false`, `storage = false`, `deprecated`,
/// `deprecation_warning = "..."`; `annotation("k", "v")`, `label("k", "v")`;
/// `derive = "PartialEq"` (more derives on the root type); `optional_spec` (the
/// root's `spec` may be absent, `Option<Spec>`; by default it is required, as in
/// kube-derive); `conversion_webhook = json!({"clientConfig": {...},
/// "conversionReviewVersions": ["v1"]})` (the `Webhook` conversion strategy);
/// `list_kind = "..."`.
///
/// **The root schema**: `doc = "..."` (its description and the root type's doc);
/// `root_rule(...)` (rules on the whole object, as `rule` below); `type_meta` (the
/// root lists `apiVersion` and `kind` with controller-gen's descriptions and
/// `metadata` as an object); `root_properties = json!({...})` (those three written
/// out); `metadata_required`; `fields_at_root` (the struct's fields are the root's
/// own, beside `metadata`, not a `spec`: for kinds without `spec` or with more root
/// fields than `spec` and `status`; the root type holds them flattened as `fields`).
///
/// **On a type (struct or unit enum) or a field**, controller-gen's markers:
/// `minimum`, `maximum`, `exclusive_minimum`, `exclusive_maximum`, `multiple_of`,
/// `min_length`, `max_length`, `min_items`, `max_items`, `min_properties`,
/// `max_properties`, `pattern`, `format`, `enum = [..]`, `nullable`,
/// `preserve_unknown_fields`, `embedded_resource`, `int_or_string`, `schemaless`,
/// `list_type = "atomic" | "set" | "map"`, `list_map_keys = [..]`, `map_type`,
/// `title`, `example`, `external_docs = json!({...})`; `rule(rule = "...", message,
/// message_expression, reason, field_path, optional_old_self)` (repeatable: an
/// `x-kubernetes-validations` entry, type-checked and compiled to Rust at build time);
/// `items(...)` and `values(...)` (the same keywords for a list's items and a map's
/// values, with `description = "..."` for what a doc comment says on a field); the
/// junctors `all_of`, `any_of`, `one_of` (lists of schemas) and `not` (a schema), in
/// the CRD's own JSON: `one_of = json!([{"required": ["a"]}, {"required": ["b"]}])`.
/// A keyword must apply to the node's type (`pattern` on an integer is a compile
/// error), except in `ignored(...)`, which holds value keywords of another type than
/// the node's: the API server accepts them and never applies them, so elsewhere they
/// are refused as the mistake they usually are; in `ignored(...)` they are written into
/// the CRD as given (`crdgen generate --derive` writes them there, and `crdgen check`
/// warns about each). On a field whose type derives its own schema, only `default`, `nullable`,
/// `rule` and the description apply; the others go on that type.
///
/// **On a field only**: `default = <JSON>`; `required`, `optional`; `immutable`
/// (controller-gen's `self == oldSelf`, and `field f is immutable once set` on the
/// parent for an optional field); `convert(field = "old_name")` or
/// `convert(with = "path::to::function")` (see `convert_from`).
///
/// **On a type only**: `exactly_one_of`, `at_most_one_of`, `at_least_one_of =
/// ["a", "b"]` (controller-gen's rules and messages); `required_order("b", "a")`
/// (`required` in this order instead of the fields'); `convert_from =
/// "super::v1::WidgetSpec"` (this version's type is built from that one field by
/// field: `crd_runtime::ConvertFrom`, and for the root `crd_runtime::Convert`; a
/// field the source lacks or whose type changed is a compile error at the field).
///
/// # What else is read
///
/// `#[serde(...)]`: `rename`, `rename_all`, `rename_all_fields`, `default` (makes a
/// field optional), `skip`, `flatten`, `tag`, `content`, `untagged`. Doc comments
/// become `description`.
///
/// **Field types**, as controller-gen maps Go's: `bool`, `String`, integers (`format:
/// int32` for 32-bit and smaller), `f32`/`f64`, `Vec<T>`, `BTreeMap`/`HashMap<String,
/// T>`, `Option<T>` (optional), `Option<Option<T>>` (optional and nullable),
/// `Box<T>`, `serde_json::Value` (unknown fields kept), `crd_runtime::EmptyObject`,
/// `crd_runtime::IntOrString` and k8s-openapi's `IntOrString`, `Quantity`, `Time`,
/// `MicroTime`, `Duration`, `ObjectMeta`, `Condition`, `LabelSelector`; with
/// crd-runtime's `core-v1` feature, k8s-openapi's core/v1 types (`PodTemplateSpec`,
/// `PodSpec`, `Container`, ...). Any other type derives [`CrdSchema`](derive@CrdSchema).
///
/// **`#[serde(flatten)]`** of a struct deriving `CrdSchema` makes its fields the
/// holder's (the flattened type must be in scope where the holder is); of a map, on a
/// type with `preserve_unknown_fields`, it holds the unknown fields. **Generic
/// structs** get a schema per instance (`Range<i32>`). **Enums**: unit variants are a
/// string `enum`; externally, internally (`tag`) and adjacently (`tag`, `content`)
/// tagged enums and `untagged` enums of struct variants (or of an integer and a string:
/// int-or-string) have the structural schemas kube-derive gives them; other mixes are
/// compile errors.
///
/// # Several versions
///
/// One module per version, `storage = false` on all but one, joined with
/// `crd_runtime::merge_crds!(v1::Widget, v2::Widget)` (a compile error unless exactly
/// one is the storage version) or `crd_runtime::merge_crds(vec![...])`.
///
/// # Mistakes
///
/// Attribute mistakes are compile errors at the attribute, all of a type's in one
/// build (an argument that does not parse is left out and the rest is still lowered
/// and checked; a mistake in the type's own arguments holds the API server's checks
/// back until it is fixed); the API server's CRD checks run at compile time on the
/// type's own schema, reported at the field or rule in Rust terms, with the API
/// server's message after. What needs the nested types
/// (a rule reaching into them, their defaults) runs in the test the derive emits,
/// `<kind>_crd_passes_the_api_server_checks`, which needs `crd-codegen` among the
/// dev-dependencies (without it, `cargo test` stops at the derive with an error saying
/// what to add; `cargo build` is not affected). With `debug = true` under
/// `[profile.dev.build-override]` in your `Cargo.toml`, the proc-macro's `crd-codegen`
/// and the test's are one compile; by default cargo builds a proc-macro's dependencies
/// without debug information, and the test's again with it.
///
/// # kube-derive's spelling
///
/// kube-derive's `#[kube(...)]` on the spec struct (every key of kube-derive 5:
/// `group`, `version`, `kind`, `doc`, `root`, `plural`, `singular`, `namespaced`,
/// `no_spec`, `derive`, `attr`, `schema`, `status`, `category`, `shortname`,
/// `printcolumn`, `selectable`, `scale`, `crates`, `annotation`, `label`,
/// `validation`, `cel`, `storage`, `served`, `deprecated`) and `#[x_kube(...)]` on its
/// fields are read too, and both spellings may be mixed on one type. A type written
/// with `#[kube(...)]` gets kube-derive's conventions (the CRD kube-derive emits:
/// `nullable` optional fields, schemars' formats and titles, sorted `required`), its
/// fields may be types deriving schemars' `JsonSchema`, and the root implements what
/// kube-derive's does (`HasSpec`, `HasStatus`, `Default`, `validate_cel`); one written
/// with `#[crd(...)]` only gets controller-gen's. README's "Coming from kube-derive"
/// lists the differences.
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

/// The schema and admission impls of a type nested in a spec: a struct or an enum
/// held by a [`CustomResource`](derive@CustomResource)'s spec (or by another such
/// type), with the same `#[crd(...)]` keywords on the type and its fields.
///
/// A derive sees only its own item, so each type contributes its own schema node and
/// admission, calling its field types' (as serde composes `Serialize`); the kind's
/// `crd()` composes the schema when it runs.
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
/// crate's `Cargo.toml`: what `crd_codegen::Builder` writes from a build script, one
/// module per API group and version.
///
/// ```ignore
/// mod crontab {
///     crd_derive::crd_types!("crds/crontab.yaml");
/// }
/// use crontab::stable_example_com::v1::CronTab;
/// ```
///
/// Errors are compile errors, one per problem; warnings (such as an unknown schema
/// field, a misspelt `maxLenght`) are compiler warnings at the path. Every file read
/// is tracked, so editing one rebuilds; a file *added* to a directory is seen on the
/// crate's next rebuild (stable Rust cannot track a directory; the build.rs route
/// can).
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
