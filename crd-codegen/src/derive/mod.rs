//! The derive direction: `#[derive(CustomResource)]` and `#[derive(CrdSchema)]` on Rust
//! types → the same IR as the YAML direction → the same admission emitter.
//!
//! A derive sees only its own item. Each annotated type therefore contributes its own
//! schema node and admission impls, calling its field types' impls for what is below
//! them ([`crate::ir::Schema::rust_type`]); the CRD is composed at run time from those
//! parts (`crd_runtime::derived`). What can be checked from one item is checked here,
//! at the offending span: attributes, and the API server's CRD checks on the item's
//! schema with its field types' schemas left open.
//!
//! `crd-derive` is a thin shell over [`custom_resource`] and [`crd_schema`].

mod attrs;
mod check;
mod convert;
mod dev_dependency;
mod expand;
mod flatten;
mod k8s;
mod kube;
mod lower;
mod partial;

pub use k8s::{k8s_core_v1_source, k8s_types_source};

use attrs::{ResourceAttrs, TypeInput};
pub use check::check_crd_value;
use darling::{Error, FromDeriveInput};
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// What the test `#[derive(CustomResource)]` emits calls: the API server's checks on
/// the whole derived CRD (the field types' schemas in place, so rules are type-checked
/// and costed against them and every default is checked), panicking with the API
/// server's messages. A version with `storage = false` is checked as if it were the
/// storage version (`merge_crds` checks there is exactly one). Needs `crd-codegen`
/// among the user's dev-dependencies.
pub fn assert_valid_crd(crd: &serde_json::Value) {
    let name = crd["metadata"]["name"].as_str().unwrap_or("").to_string();
    let errors = check::check_derived_version(crd);
    assert!(
        errors.is_empty(),
        "the CustomResourceDefinition {name} derived from Rust types fails the API server's checks:\n{}",
        errors.join("\n")
    );
}

/// `#[derive(CrdSchema)]`: the schema and admission impls of a nested type.
pub fn crd_schema(input: TokenStream) -> TokenStream {
    expand(flatten::Mode::CrdSchema, input, Vec::new()).unwrap_or_else(Error::write_errors)
}

/// `#[derive(KubeSchema)]`: `CrdSchema`'s impls in kube-derive's conventions, and the
/// `schemars::JsonSchema` and `validate_cel` kube-derive's `KubeSchema` gives.
pub fn kube_schema(input: TokenStream) -> TokenStream {
    expand(flatten::Mode::KubeSchema, input, Vec::new()).unwrap_or_else(Error::write_errors)
}

/// `#[derive(CustomResource)]` on a kind's spec struct: the spec's impls, the root
/// type named after the kind, its CRD and its admission.
pub fn custom_resource(input: TokenStream) -> TokenStream {
    match expand(flatten::Mode::CustomResource, input.clone(), Vec::new()) {
        Ok(tokens) => tokens,
        Err(e) => {
            let mut out = e.write_errors();
            out.extend(error_stub(&input));
            out
        }
    }
}

/// After errors, a `CrdSchema` impl with nothing in it for a spec that also derives
/// `KubeSchema` (whose `JsonSchema` calls it), so that the errors are the derive's
/// only (serde's derives do the same).
fn error_stub(input: &TokenStream) -> TokenStream {
    let Ok(di) = syn::parse2::<syn::DeriveInput>(input.clone()) else {
        return TokenStream::new();
    };
    if !di.attrs.iter().any(|a| a.path().is_ident("kube")) || !di.generics.params.is_empty() {
        return TokenStream::new();
    }
    let ident = &di.ident;
    quote! {
        const _: () = {
            use ::crd_runtime::__private as rt;
            impl rt::CrdSchema for #ident {
                fn crd_schema() -> rt::Value {
                    rt::Value::Null
                }
                const STATIC_SCHEMA: rt::compiled::StaticSchema = rt::compiled::StaticSchema::typed("");
                fn has_rules() -> bool {
                    false
                }
            }
        };
    }
}

/// `#[derive(Resource)]` with `#[resource(inherit = "Kind")]`: k8s-openapi's `Resource`
/// and `Metadata` of the inherited kind, which make the type a `kube::Resource`.
pub fn inherited_resource(input: TokenStream) -> TokenStream {
    let di: syn::DeriveInput = match syn::parse2(input) {
        Ok(di) => di,
        Err(e) => return e.to_compile_error(),
    };
    if let syn::Data::Union(_) = di.data {
        return Error::custom("Unions can not #[derive(Resource)]")
            .with_span(&di.ident)
            .write_errors();
    }
    let kube::Inherit {
        ident,
        generics,
        inherit,
        ..
    } = match kube::Inherit::from_derive_input(&di) {
        Ok(i) => i,
        Err(e) => return e.write_errors(),
    };
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let k8s = quote!(::crd_runtime::k8s_openapi);
    quote! {
        impl #impl_generics #k8s::Resource for #ident #ty_generics #where_clause {
            const API_VERSION: &'static str = <#inherit as #k8s::Resource>::API_VERSION;
            const GROUP: &'static str = <#inherit as #k8s::Resource>::GROUP;
            const KIND: &'static str = <#inherit as #k8s::Resource>::KIND;
            const VERSION: &'static str = <#inherit as #k8s::Resource>::VERSION;
            const URL_PATH_SEGMENT: &'static str = <#inherit as #k8s::Resource>::URL_PATH_SEGMENT;
            type Scope = <#inherit as #k8s::Resource>::Scope;
        }

        impl #impl_generics #k8s::Metadata for #ident #ty_generics #where_clause {
            type Ty = #k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta;

            fn metadata(&self) -> &Self::Ty {
                &self.metadata
            }

            fn metadata_mut(&mut self) -> &mut Self::Ty {
                &mut self.metadata
            }
        }
    }
}

/// `crd_derive::__flattened!`: a derive called back with the definitions of the
/// structs its `#[serde(flatten)]` fields and generic field types name (see the
/// `flatten` module).
pub fn flattened(input: TokenStream) -> TokenStream {
    match flatten::split(input) {
        Ok((mode, holder, items)) => expand(mode, holder, items).unwrap_or_else(Error::write_errors),
        Err(e) => e.to_compile_error(),
    }
}

/// A mirror's impls (`k8s.rs`): `#[derive(CrdSchema)]` without the hand-over macro,
/// which is for the user's own structs.
fn mirror_impls(input: TokenStream) -> TokenStream {
    let parsed = syn::parse2::<syn::DeriveInput>(input)
        .map_err(Error::from)
        .and_then(|di| TypeInput::from_derive_input(&di));
    parsed
        .and_then(|p| {
            let mut errors = Error::accumulator();
            let tokens = expand_crd_schema(&p, Vec::new(), true, &mut errors);
            errors.finish_with(tokens)
        })
        .unwrap_or_else(Error::write_errors)
}

fn expand(mode: flatten::Mode, input: TokenStream, items: Vec<TokenStream>) -> darling::Result<TokenStream> {
    let di: syn::DeriveInput = syn::parse2(input.clone())?;
    if let syn::Data::Union(_) = di.data {
        let what = match mode {
            flatten::Mode::CustomResource => "CustomResource",
            flatten::Mode::CrdSchema => "CrdSchema",
            flatten::Mode::KubeSchema => "KubeSchema",
        };
        return Err(Error::custom(format!("Unions can not #[derive({what})]")).with_span(&di.ident));
    }
    // A `KubeSchema` beside `CustomResource` on a kind's spec: the spec's impls are
    // `CustomResource`'s; this adds the `JsonSchema` kube-derive's `KubeSchema` gives.
    if matches!(mode, flatten::Mode::KubeSchema) && di.attrs.iter().any(|a| a.path().is_ident("kube")) {
        return kube_schema_extras(&di);
    }
    // Every mistake of the type goes to `errors`, and the expansion goes on with what
    // is left, so that one build reports them all (see `partial`).
    let mut errors = Error::accumulator();
    let (mut parsed, parse_errors) = partial::parse(&di)?;
    // The first expansion reports the attributes' mistakes; those that follow with
    // the handed-over definitions (see `flatten`) parse the same attributes again.
    if items.is_empty() {
        errors.extend(parse_errors);
    }
    if matches!(mode, flatten::Mode::KubeSchema) {
        parsed.convention = attrs::Convention::Kube;
    }
    let kube = kube::read(&di, &mut parsed, &mut errors);
    if di.attrs.iter().any(|a| a.path().is_ident("kube")) && !matches!(mode, flatten::Mode::CustomResource) {
        errors.push(Error::custom("`#[kube(...)]` goes with `#[derive(CustomResource)]`").with_span(&di.ident));
        return Err(Error::multiple(errors.into_inner()));
    }
    let is_struct = matches!(parsed.data, darling::ast::Data::Struct(_));
    if !parsed.generics.params.is_empty() && is_struct && !matches!(mode, flatten::Mode::CustomResource) {
        // No schema of its own: each use with arguments derives the instance's.
        return Ok(with_errors(errors, flatten::handover_macro(&di.ident, &input)));
    }
    if let Some(request) = flatten::request(mode, &parsed, &input, &items)? {
        return Ok(with_errors(errors, request));
    }
    let sources = flatten::parse_items(&items)?;
    let tokens = match mode {
        flatten::Mode::CrdSchema | flatten::Mode::KubeSchema => {
            let handover = if is_struct {
                flatten::handover_macro(&di.ident, &input)
            } else {
                TokenStream::new()
            };
            let impls = expand_crd_schema(&parsed, sources, false, &mut errors);
            let extras = match mode {
                flatten::Mode::KubeSchema => errors.handle(kube_schema_extras(&di)),
                _ => None,
            };
            if any(&mut errors) {
                // The handover macro goes out even after mistakes: a struct that
                // flattens this one needs it to find its own.
                return Ok(with_errors(errors, handover));
            }
            quote!(#impls #handover #extras)
        }
        flatten::Mode::CustomResource => expand_custom_resource(&di, &parsed, sources, kube, &mut errors),
    };
    errors.finish_with(tokens)
}

/// `tokens` after the errors found so far, which are compile errors in them: for an
/// expansion that must go on while reporting them (a request for definitions,
/// which the next expansion needs to find the rest).
fn with_errors(errors: darling::error::Accumulator, tokens: TokenStream) -> TokenStream {
    let errors = errors.into_inner();
    if errors.is_empty() {
        return tokens;
    }
    let mut out = Error::multiple(errors).write_errors();
    out.extend(tokens);
    out
}

/// What `#[derive(KubeSchema)]` adds to a type's impls, as kube-derive's does: its
/// `schemars::JsonSchema` (the schema of its `CrdSchema`), and with `#[x_kube(cel)]`
/// `validate_cel(value, old)`.
fn kube_schema_extras(di: &syn::DeriveInput) -> darling::Result<TokenStream> {
    let ident = &di.ident;
    let name = ident.to_string();
    let cel = di.attrs.iter().filter(|a| a.path().is_ident("x_kube")).any(|a| {
        let mut found = false;
        let _ = a.parse_nested_meta(|meta| {
            found |= meta.path.is_ident("cel");
            if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                content.parse::<TokenStream>()?;
            }
            Ok(())
        });
        found
    });
    let validate_cel = cel.then(|| {
        quote! {
            impl #ident {
                /// Runs this type's CEL rules (`x-kubernetes-validations`, compiled) on a
                /// serialized value of it, `old` the value before an update (transition
                /// rules run only with it), as kube-derive's `validate_cel` does.
                pub fn validate_cel(
                    value: &::crd_runtime::Value,
                    old: ::core::option::Option<&::crd_runtime::Value>,
                ) -> ::core::result::Result<(), ::crd_runtime::ValidationErrors> {
                    ::crd_runtime::__private::rules::validate_cel::<Self>(value, old)
                }
            }
        }
    });
    Ok(quote! {
        ::crd_runtime::__json_schema!(#ident, #name);
        #validate_cel
    })
}

/// `known_field_types`: see [`lower::Lowered::known_field_types`]. The impls, or
/// nothing when `errors` holds a mistake.
fn expand_crd_schema(
    parsed: &TypeInput,
    sources: Vec<syn::DeriveInput>,
    known_field_types: bool,
    errors: &mut darling::error::Accumulator,
) -> TokenStream {
    for (name, span) in resource_attr_spans(&parsed.resource) {
        errors.push(
            Error::custom(format!(
                "`{name}` is a CRD attribute: use it with `#[derive(CustomResource)]`"
            ))
            .with_span(&span),
        );
    }
    let mut lowered = lower::lower_type(parsed, sources, errors);
    lowered.known_field_types = known_field_types;
    let warnings = if lowered.unchecked {
        None
    } else {
        errors.handle(check::check_type(&lowered))
    };
    let conversions = errors.handle(convert::convert_impls(parsed, None));
    if any(errors) {
        return TokenStream::new();
    }
    let impls = expand::type_impls(&lowered);
    quote! {
        #warnings
        #impls
        #conversions
    }
}

fn expand_custom_resource(
    di: &syn::DeriveInput,
    parsed: &TypeInput,
    sources: Vec<syn::DeriveInput>,
    kube: Option<kube::KubeResource>,
    errors: &mut darling::error::Accumulator,
) -> TokenStream {
    let flat = parsed.resource.fields_at_root.is_present();
    let kube_spelled = di.attrs.iter().any(|a| a.path().is_ident("kube"));
    if let darling::ast::Data::Enum(_) = parsed.data {
        if flat {
            let message = if kube_spelled {
                "#[derive(CustomResource)] `kube(no_spec)` requires a struct with named fields; an enum has no properties to lift onto the root"
            } else {
                "`fields_at_root` requires a struct with named fields; an enum has no properties to lift onto the root"
            };
            errors.push(Error::custom(message).with_span(&di.ident));
            return TokenStream::new();
        }
        if !kube_spelled {
            errors.push(Error::custom("`CustomResource` derives from the kind's spec struct").with_span(&di.ident));
            return TokenStream::new();
        }
    }
    if let Some(k) = &kube {
        let root = k
            .root
            .as_ref()
            .map(|r| r.to_string())
            .or_else(|| parsed.resource.kind.as_ref().map(|k| k.to_string()));
        if root.is_some_and(|r| di.ident == r) {
            errors.push(
                Error::custom(
                    r#"#[derive(CustomResource)] `kind = "..."` must not equal the struct name (this is generated)"#,
                )
                .with_span(&di.ident),
            );
        }
        if k.no_spec
            && let darling::ast::Data::Struct(fields) = &parsed.data
        {
            for f in fields.iter() {
                if let Some(ident) = &f.ident
                    && ["apiVersion", "api_version", "kind", "metadata", "status"]
                        .iter()
                        .any(|r| ident == r)
                {
                    errors.push(
                        Error::custom(format!(
                            "#[derive(CustomResource)] `kube(no_spec)` lifts this field onto the root object, where `{ident}` is already taken"
                        ))
                        .with_span(ident),
                    );
                }
            }
        }
    }
    let lowered = lower::lower_type(parsed, sources, errors);
    // `#[kube(...)]` that did not parse (its mistakes reported) leaves no CRD to build.
    let kube_broken = kube_spelled && kube.is_none();
    let mut resource_errors = Error::accumulator();
    let resource = (!kube_broken).then(|| {
        resource::resource(
            &parsed.resource,
            &parsed.broken,
            &di.ident,
            &lowered,
            kube.as_ref(),
            &mut resource_errors,
        )
    });
    let resource_errors = resource_errors.into_inner();
    let crd_built = resource_errors.is_empty();
    errors.extend(resource_errors);
    let column_spans: Vec<Span> = parsed.resource.printcolumn.iter().map(|c| c.span()).collect();
    // A schema that is not derived is not ours to check.
    let derived = kube.as_ref().is_none_or(|k| k.schema == kube::SchemaMode::Derived);
    let warnings = match &resource {
        _ if !derived || kube_broken || lowered.unchecked => None,
        Some((crd, _)) if crd_built => {
            let root_rules: Vec<Span> = parsed.resource.root_rule.iter().map(|r| r.rule.span()).collect();
            errors.handle(check::check_resource(crd, &lowered, &column_spans, &root_rules, flat))
        }
        // Without its CRD (a CRD attribute's mistake), the spec is checked as a
        // nested type is.
        _ => errors.handle(check::check_type(&lowered)),
    };
    let Some((crd, parts)) = resource else {
        return TokenStream::new();
    };
    let parts = expand::RootParts {
        vis: di.vis.clone(),
        ..parts
    };
    let conversions = errors.handle(convert::convert_impls(
        parsed,
        Some(&convert::RootFields {
            name: &parts.name,
            fields_at_root: flat && kube.is_none(),
            status: parts.status.is_some(),
        }),
    ));
    if any(errors) {
        return TokenStream::new();
    }
    // A kind whose schema is disabled has no schema for its spec to give.
    let spec_impls = match &kube {
        Some(k) if k.schema == kube::SchemaMode::Disabled => TokenStream::new(),
        _ => expand::type_impls(&lowered),
    };
    let root = expand::root_items(&parts, &crd);
    quote! {
        #warnings
        #spec_impls
        #root
        #conversions
    }
}

/// Whether `errors` holds a mistake (then no impls are built: the expansion is the
/// errors).
fn any(errors: &mut darling::error::Accumulator) -> bool {
    let found = std::mem::take(errors).into_inner();
    let any = !found.is_empty();
    errors.extend(found);
    any
}

/// The CRD-level attributes given, with their spans.
fn resource_attr_spans(r: &ResourceAttrs) -> Vec<(&'static str, Span)> {
    let mut out = Vec::new();
    let mut opt = |name, s: Option<Span>| {
        if let Some(s) = s {
            out.push((name, s));
        }
    };
    opt("group", r.group.as_ref().map(|v| v.span()));
    opt("version", r.version.as_ref().map(|v| v.span()));
    opt("kind", r.kind.as_ref().map(|v| v.span()));
    opt("namespaced", r.namespaced.is_present().then(|| r.namespaced.span()));
    opt("plural", r.plural.as_ref().map(|v| v.span()));
    opt("singular", r.singular.as_ref().map(|v| v.span()));
    opt("shortname", r.shortname.first().map(|v| v.span()));
    opt("category", r.category.first().map(|v| v.span()));
    opt("status", r.status.as_ref().map(|v| v.span()));
    opt("scale", r.scale.as_ref().map(|v| v.span()));
    opt("printcolumn", r.printcolumn.first().map(|v| v.span()));
    opt("selectable", r.selectable.first().map(|v| v.span()));
    opt(
        "optional_spec",
        r.optional_spec.is_present().then(|| r.optional_spec.span()),
    );
    opt("deprecated", r.deprecated.is_present().then(|| r.deprecated.span()));
    opt("doc", r.doc.as_ref().map(|v| v.span()));
    opt(
        "fields_at_root",
        r.fields_at_root.is_present().then(|| r.fields_at_root.span()),
    );
    opt("root_rule", r.root_rule.first().map(|v| v.rule.span()));
    opt("type_meta", r.type_meta.is_present().then(|| r.type_meta.span()));
    opt("root_properties", r.root_properties.as_ref().map(|v| v.span()));
    opt(
        "metadata_required",
        r.metadata_required.is_present().then(|| r.metadata_required.span()),
    );
    opt("list_kind", r.list_kind.as_ref().map(|v| v.span()));
    opt("status_default", r.status_default.as_ref().map(|v| v.span()));
    opt("status_subresource", r.status_subresource.as_ref().map(|v| v.span()));
    opt("conversion_webhook", r.conversion_webhook.as_ref().map(|v| v.span()));
    out
}

mod resource {
    //! The CRD of a kind from its CRD-level attributes.

    use super::attrs::ResourceAttrs;
    use super::expand::RootParts;
    use super::lower::Lowered;
    use crate::conventions::{pluralize, type_meta};
    use crate::ir::{self, Schema, Type};
    use darling::Error;
    use proc_macro2::Span;
    use quote::format_ident;

    /// The kind's CRD and root type. `broken` names the CRD attributes that did not
    /// parse (reported already, so not missing); every other mistake goes to `errors`.
    pub fn resource(
        r: &ResourceAttrs,
        broken: &[String],
        spec: &syn::Ident,
        lowered: &Lowered,
        kube: Option<&super::kube::KubeResource>,
        errors: &mut darling::error::Accumulator,
    ) -> (ir::Crd, RootParts) {
        let flat = r.fields_at_root.is_present();
        if flat && kube.is_none() {
            let misplaced = [
                ("status", r.status.as_ref().map(|s| s.span())),
                ("status_default", r.status_default.as_ref().map(|s| s.span())),
                (
                    "optional_spec",
                    r.optional_spec.is_present().then(|| r.optional_spec.span()),
                ),
            ];
            for (name, span) in misplaced {
                if let Some(span) = span {
                    errors.push(
                        Error::custom(format!(
                            "`{name}` is about `spec` and `status`; with `fields_at_root` they are fields of the struct"
                        ))
                        .with_span(&span),
                    );
                }
            }
        }
        let required =
            |v: &Option<darling::util::SpannedValue<String>>, name: &str, errors: &mut darling::error::Accumulator| {
                match v {
                    Some(v) => v.to_string(),
                    None if broken.iter().any(|b| b == name) => String::new(),
                    None => {
                        // At the derive, as kube-derive reports it.
                        errors.push(Error::custom(format!(
                            "Missing field `{name}`: `#[kube({name} = \"...\")]` (or `#[crd({name} = \"...\")]`)"
                        )));
                        String::new()
                    }
                }
            };
        let group = required(&r.group, "group", errors);
        let version = required(&r.version, "version", errors);
        let kind = required(&r.kind, "kind", errors);
        if let Some(v) = &r.kind
            && syn::parse_str::<syn::Ident>(v).is_err()
        {
            errors
                .push(Error::custom("the kind names the root type: it must be a Rust identifier").with_span(&v.span()));
        }
        let plural = r
            .plural
            .as_ref()
            .map(|p| p.to_string())
            .unwrap_or_else(|| pluralize(&kind.to_lowercase()));
        let singular = r
            .singular
            .as_ref()
            .map(|p| p.to_string())
            .unwrap_or_else(|| kind.to_lowercase());
        let status = match &r.status {
            Some(lit) => match lit.parse::<syn::Type>() {
                Ok(t) => Some(t),
                Err(e) => {
                    errors.push(Error::from(e).with_span(lit));
                    None
                }
            },
            None => None,
        };
        // The columns are checked with the CRD (`check::check_resource`), their
        // errors reported at their attribute.
        let printer_columns = r
            .printcolumn
            .iter()
            .map(|c| ir::PrinterColumn {
                name: c.name.clone(),
                type_: c.type_.clone(),
                format: c.format.clone(),
                description: c.description.clone(),
                priority: c.priority,
                json_path: c.json_path.clone(),
            })
            .collect();
        // Root schema: `spec` and `status` are the foreign types 0 and 1; with
        // `fields_at_root`, the struct's own properties (and foreign types).
        let mut root = Schema {
            type_: Some(Type::Object),
            description: r.doc.as_ref().map(|d| d.to_string()),
            ..Default::default()
        };
        for rule in &r.root_rule {
            match super::lower::rule(rule) {
                Ok(rule) => root.validations.push(rule),
                Err(e) => errors.push(e),
            }
        }
        if flat {
            // The struct's own schema is the root's: its doc, rules and fields.
            root.description = root.description.or_else(|| lowered.schema.description.clone());
            let mut rules = lowered.schema.validations.clone();
            rules.append(&mut root.validations);
            root.validations = rules;
            root.required = lowered.schema.required.clone();
        }
        if r.type_meta.is_present() {
            root.properties = type_meta();
        }
        if let Some(props) = &r.root_properties {
            match root_properties(&props.0) {
                Ok(p) => root.properties.extend(p),
                Err(m) => errors.push(Error::custom(m).with_span(&props.span())),
            }
        }
        if r.metadata_required.is_present() {
            // First, where `metadata` is among the root's properties.
            root.required.insert(0, "metadata".into());
        }
        if flat {
            root.properties
                .extend(lowered.schema.properties.iter().map(|(k, v)| (k.clone(), v.clone())));
        } else {
            root.properties.insert(
                "spec".into(),
                Schema {
                    rust_type: Some(0),
                    ..Default::default()
                },
            );
        }
        if status.is_some() {
            // After the spec (or with `no_spec`, after the struct's field types).
            let index = if flat { lowered.foreign.len() } else { 1 };
            root.properties.insert(
                "status".into(),
                Schema {
                    rust_type: Some(index),
                    default: r.status_default.as_ref().map(|d| d.0.clone()),
                    // kube-derive's `Option<Status>`, made nullable as schemars does.
                    nullable: kube.is_some(),
                    ..Default::default()
                },
            );
        }
        if !r.optional_spec.is_present() && !flat {
            root.required.push("spec".into());
        }
        let root_name = kube
            .and_then(|k| k.root.as_ref())
            .map(|r| r.to_string())
            .unwrap_or_else(|| kind.clone());
        if kube.is_some() {
            // What schemars gives kube-derive's root type: its name as the title, its
            // doc (kube-derive's own when none is given) as the description.
            root.title = Some(root_name.clone());
            root.description = Some(
                r.doc
                    .as_ref()
                    .map(|d| d.to_string())
                    .unwrap_or_else(|| format!("Auto-generated derived type for {spec} via `CustomResource`")),
            );
            root.required.sort();
        }
        let v = ir::Version {
            name: version.clone(),
            served: r.served.unwrap_or(true),
            // `storage = false` on all but one version of a kind merged with
            // `merge_crds`; a single version must be the storage version (the emitted
            // test says so otherwise).
            storage: r.storage.unwrap_or(true),
            deprecated: r.deprecated.is_present() || r.deprecation_warning.is_some(),
            deprecation_warning: r.deprecation_warning.clone(),
            schema: root,
            subresources: ir::Subresources {
                status: r.status_subresource.as_ref().map_or(status.is_some(), |s| **s),
                // kube-derive writes the scale subresource only beside the status one.
                scale: r
                    .scale
                    .as_ref()
                    .filter(|_| kube.is_none() || status.is_some())
                    .map(|s| ir::Scale {
                        spec_replicas_path: s.spec_replicas_path.clone(),
                        status_replicas_path: s.status_replicas_path.clone(),
                        label_selector_path: s.label_selector_path.clone(),
                    }),
            },
            printer_columns,
            selectable_fields: r.selectable.iter().map(|s| s.to_string()).collect(),
        };
        let crd = ir::Crd {
            name: format!("{plural}.{group}"),
            group,
            names: ir::Names {
                plural,
                singular,
                list_kind: r
                    .list_kind
                    .as_ref()
                    .map(|l| l.to_string())
                    .unwrap_or_else(|| format!("{kind}List")),
                kind: kind.clone(),
                short_names: r.shortname.iter().map(|s| s.to_string()).collect(),
                categories: r.category.iter().map(|s| s.to_string()).collect(),
            },
            scope: if r.namespaced.is_present() {
                ir::Scope::Namespaced
            } else {
                ir::Scope::Cluster
            },
            all_versions: ir::VersionSummary::of(std::slice::from_ref(&v)),
            versions: vec![v],
            conversion: match &r.conversion_webhook {
                None => ir::Conversion::None,
                Some(w) => match conversion_webhook(&w.0) {
                    Ok(c) => c,
                    Err(m) => {
                        errors.push(Error::custom(m).with_span(&w.span()));
                        ir::Conversion::None
                    }
                },
            },
            annotations: r.annotation.iter().map(|a| (a.key.clone(), a.value.clone())).collect(),
            labels: r.label.iter().map(|a| (a.key.clone(), a.value.clone())).collect(),
        };
        let doc = r.doc.as_ref().map(|d| d.to_string()).unwrap_or_else(|| {
            if kube.is_some() {
                format!("Auto-generated derived type for {spec} via `CustomResource`")
            } else if flat {
                format!(
                    "`{kind}` ({}/{version}): the resource whose fields are [`{spec}`].",
                    crd.group
                )
            } else {
                format!(
                    "`{kind}` ({}/{version}): the resource whose `spec` is [`{spec}`].",
                    crd.group
                )
            }
        });
        let name_span = kube
            .and_then(|k| k.root.as_ref())
            .map(|r| r.span())
            .or_else(|| r.kind.as_ref().map(|k| k.span()))
            .unwrap_or_else(Span::call_site);
        let name = if root_name.is_empty() || syn::parse_str::<syn::Ident>(&root_name).is_err() {
            if let Some(root) = kube.and_then(|k| k.root.as_ref()) {
                errors.push(
                    Error::custom("`root` names the root type: it must be a Rust identifier").with_span(&root.span()),
                );
            }
            format_ident!("Unnamed")
        } else {
            format_ident!("{}", root_name, span = name_span)
        };
        let mut derives = Vec::new();
        for d in &r.derive {
            match syn::parse_str::<syn::Path>(d) {
                Ok(p) => derives.push(p),
                Err(_) => errors
                    .push(Error::custom("`derive` names a trait to derive, e.g. \"PartialEq\"").with_span(&d.span())),
            }
        }
        let kube_root = kube.map(|k| super::expand::KubeRoot {
            schema: k.schema,
            attrs: k.attrs.clone(),
            default: k.default,
            cel: k.cel.is_some(),
            annotations: r.annotation.iter().map(|a| (a.key.clone(), a.value.clone())).collect(),
            labels: r.label.iter().map(|a| (a.key.clone(), a.value.clone())).collect(),
        });
        (
            crd,
            RootParts {
                name,
                vis: syn::Visibility::Inherited,
                spec: spec.clone(),
                optional_spec: r.optional_spec.is_present(),
                fields_at_root: flat.then(|| super::expand::FlatFields {
                    foreign: lowered.foreign.clone(),
                    shadows: lowered.shadows.clone(),
                    runtime_defaults: lowered.runtime_defaults.clone(),
                    published: lowered.published.clone(),
                }),
                status,
                derives,
                doc,
                kube: kube_root,
            },
        )
    }

    /// `root_properties`: schemas for `apiVersion`, `kind` and `metadata` only (the
    /// root's other properties are `spec` and `status`, from their types).
    fn root_properties(v: &serde_json::Value) -> std::result::Result<indexmap::IndexMap<String, Schema>, String> {
        let map = v
            .as_object()
            .ok_or("`root_properties` is an object of schemas: `json!({\"apiVersion\": {...}})`")?;
        let mut out = indexmap::IndexMap::new();
        for (name, schema) in map {
            if !matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
                return Err(format!(
                    "`root_properties` holds only `apiVersion`, `kind` and `metadata`, not {name:?}"
                ));
            }
            let props: crate::model::JsonSchemaProps = serde_json::from_value(schema.clone())
                .map_err(|e| format!("`root_properties`: {name:?} is not a schema: {e}"))?;
            out.insert(name.clone(), crate::lower::lower_schema(&props));
        }
        Ok(out)
    }

    /// `conversion_webhook`: `spec.conversion.webhook` as the CRD writes it.
    fn conversion_webhook(v: &serde_json::Value) -> std::result::Result<ir::Conversion, String> {
        let shape =
            "`conversion_webhook` is `json!({\"clientConfig\": {...}, \"conversionReviewVersions\": [\"v1\"]})`";
        let map = v.as_object().ok_or(shape)?;
        if map
            .keys()
            .any(|k| !matches!(k.as_str(), "clientConfig" | "conversionReviewVersions"))
        {
            return Err(shape.into());
        }
        let review_versions = match map.get("conversionReviewVersions") {
            None => Vec::new(),
            Some(v) => serde_json::from_value(v.clone()).map_err(|_| shape.to_string())?,
        };
        Ok(ir::Conversion::Webhook {
            review_versions,
            client_config: map.get("clientConfig").cloned().unwrap_or(serde_json::Value::Null),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages of the `compile_error!`s in an expansion, in order.
    fn errors(tokens: TokenStream) -> Vec<String> {
        let mut out = Vec::new();
        let mut after_compile_error = false;
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Ident(i) if i == "compile_error" => after_compile_error = true,
                proc_macro2::TokenTree::Group(g) if after_compile_error => {
                    let lit: syn::LitStr = syn::parse2(g.stream()).unwrap();
                    out.push(lit.value());
                    after_compile_error = false;
                }
                proc_macro2::TokenTree::Group(g) => out.extend(errors(g.stream())),
                _ => {}
            }
        }
        out
    }

    /// The second expansion of a struct that flattens another (with its definition).
    fn with_flattened(holder: TokenStream, flattened: TokenStream) -> Vec<String> {
        errors(super::flattened(quote!(CrdSchema { #holder } [ #flattened ])))
    }

    #[test]
    fn a_flattened_field_named_like_a_field_of_the_holder_is_the_holders_mistake() {
        let found = with_flattened(
            quote!(
                struct Holder {
                    name: String,
                    #[serde(flatten)]
                    part: Part,
                }
            ),
            quote!(
                struct Part {
                    name: String,
                }
            ),
        );
        assert_eq!(found, [r#"two fields have the JSON name "name""#]);
    }

    #[test]
    fn a_flattened_structs_own_mistakes_are_its_derives_to_report() {
        let found = with_flattened(
            quote!(
                struct Holder {
                    #[crd(min_items = 1)]
                    title: String,
                    #[serde(flatten)]
                    part: Part,
                }
            ),
            quote!(
                struct Part {
                    pair: (String, String),
                    #[crd(max_items = "x")]
                    tags: Vec<String>,
                }
            ),
        );
        assert_eq!(
            found,
            [
                "`min_items` applies to arrays, not to a field of type string (the API server ignores it there; \
              to write it into the CRD anyway, put it in `ignored(...)`)"
            ]
        );
    }

    #[test]
    fn one_expansion_reports_mistakes_of_every_stage() {
        let found = errors(custom_resource(quote! {
            #[crd(group = "example.com", version = "v1", kind = "Widget", rule(rule = "self.nope > 0"))]
            struct WidgetSpec {
                #[crd(max_items = 2.5, pattern = "^a")]
                items: Vec<String>,
                #[crd(minimum = "one")]
                replicas: i32,
            }
        }));
        let found: Vec<&str> = found.iter().map(|e| e.lines().next().unwrap_or("")).collect();
        assert_eq!(
            found,
            [
                "Unexpected type `float`",
                "`pattern` applies to strings, not to a field of type array (the API server ignores it there; \
                 to write it into the CRD anyway, put it in `ignored(...)`)",
                "`minimum` must be a number",
                "rule `self.nope > 0` does not compile: at 1:5: undefined field 'nope'",
            ]
        );
    }
}
