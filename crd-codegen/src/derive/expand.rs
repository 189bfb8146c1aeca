//! Tokens for a lowered type: its `CrdSchema` and `ObjectSchema` impls (the latter
//! from the YAML direction's admission emitter, [`crate::rust::admit`]), and for a
//! kind its root type, `k8s_openapi` impls, `CustomResource` impl and `crd()`.

use super::attrs::Convention;
use super::kube::SchemaMode;
use super::lower::Lowered;
use crate::ir::{self, Schema};
use crate::rust::admit::AdmitEmitter;
use crate::rust::emit::{resource_impls, struct_serialize};
use crate::rust::plan::{FieldDef, Module, Presence, RootDef, StructDef, Ty, TypeBody, TypeDef};
use crate::rust::rules::RulesEmitter;
use crate::rust::text::TextItems;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// The alias a foreign field type gets inside the generated block, so the admission
/// emitter can name it like a generated type.
fn alias(n: usize) -> Ident {
    format_ident!("__CrdField{}", n)
}

/// Every node of `s` that stands for a foreign type, with its index.
fn foreign_nodes<'a>(s: &'a Schema, out: &mut Vec<(usize, &'a Schema)>) {
    if let Some(n) = s.rust_type {
        out.push((n, s));
    }
    let children = s
        .properties
        .values()
        .chain(s.items.as_deref())
        .chain(s.additional_properties_schema())
        .chain(&s.all_of)
        .chain(&s.any_of)
        .chain(&s.one_of)
        .chain(s.not.as_deref());
    for c in children {
        foreign_nodes(c, out);
    }
}

fn empty_struct<'a>() -> StructDef<'a> {
    StructDef {
        fields: Vec::new(),
        additional_fields: false,
        derives_default: false,
    }
}

/// The module the admission emitter sees: `first`, then one alias per foreign node.
fn module<'a>(first: TypeDef<'a>, schema: &'a Schema) -> Module<'a> {
    let mut nodes = Vec::new();
    foreign_nodes(schema, &mut nodes);
    let mut types = vec![first];
    for (n, node) in nodes {
        types.push(TypeDef {
            name: alias(n).to_string(),
            schema: node,
            path: String::new(),
            body: TypeBody::Struct(empty_struct()),
        });
    }
    Module {
        group: String::new(),
        version: String::new(),
        group_mod: String::new(),
        version_mod: String::new(),
        types,
    }
}

/// Each field type's alias name → the span of the type as written, where errors
/// about it (no schema) point.
fn alias_spans(foreign: &[syn::Type]) -> std::collections::HashMap<String, Span> {
    foreign
        .iter()
        .enumerate()
        .map(|(n, t)| (alias(n).to_string(), t.span()))
        .collect()
}

/// `rt::derived::splice(JSON, &[...])` (or `crd`): the schema with the foreign types'
/// schemas in place, and the defaults known only at run time. `published`: the field
/// types whose node is schemars' property schema (see `Lowered::published`).
fn splice_call(
    json: &str,
    foreign: &[syn::Type],
    defaults: &[TokenStream],
    published: &[(usize, syn::Type, Option<String>, bool)],
    func: &str,
) -> TokenStream {
    let types = foreign.iter().enumerate().map(|(n, t)| {
        let a = Ident::new(&alias(n).to_string(), t.span());
        quote!(<#a as rt::CrdSchema>::crd_schema)
    });
    let json = crate::rust::emit::raw_string(json);
    if defaults.is_empty() && published.is_empty() && func != "splice_value" {
        let func = format_ident!("{}", func);
        return quote!(rt::derived::#func(#json, &[ #( #types ),* ]));
    }
    let published = (0..foreign.len()).map(|n| match published.iter().find(|p| p.0 == n) {
        Some((_, ty, doc, optional)) => {
            let ty = ty.clone();
            let doc = match doc {
                Some(d) => quote!(Some(#d)),
                None => quote!(None),
            };
            quote!(|| (&rt::field::Publish::<#ty>::NEW).published(#doc, #optional))
        }
        None => quote!(|| rt::Value::Null),
    });
    let value = quote!(rt::derived::splice_published(
        #json,
        &[ #( #types ),* ],
        &[ #( || #defaults ),* ],
        &[ #( #published ),* ],
    ));
    match func {
        "crd" => quote!(rt::derived::crd_from_value(#value)),
        _ => value,
    }
}

fn aliases(foreign: &[syn::Type]) -> TokenStream {
    let items = foreign.iter().enumerate().map(|(n, ty)| {
        let a = alias(n);
        let ty = ty.clone();
        quote!(type #a = #ty;)
    });
    quote!(#( #items )*)
}

/// For each field type, an adapter in place of an alias: a type whose `CrdSchema` and
/// `ObjectSchema` call the field type's own when it derives them, else interpret the
/// schema its `schemars::JsonSchema` gives (see `crd_runtime::field`), in the order
/// the holder's convention gives (kube-derive's prefers a type's `JsonSchema` to
/// controller-gen's schemas, which crd-runtime gives k8s-openapi's types). A shadowed
/// field (see `Lowered::shadows`) is a one-field struct deriving `JsonSchema`. The
/// calls carry the type's span: a type with neither is an error there.
fn adapters(
    foreign: &[syn::Type],
    shadows: &[(usize, TokenStream)],
    convention: Convention,
    own_json_schema: bool,
) -> TokenStream {
    let items = foreign.iter().enumerate().map(|(n, ty)| {
        let a = alias(n);
        let shadow = shadows.iter().find(|(i, _)| *i == n).map(|(_, field)| field);
        let span = ty.span();
        let (definition, probe) = match shadow {
            // The type itself, by its `JsonSchema` (see `Lowered::own_json_schema`).
            None if own_json_schema => (
                TokenStream::new(),
                quote_spanned!(span=> (&rt::field::OwnJsonSchema::<#ty>::NEW)),
            ),
            Some(field) => (
                quote! {
                    #[derive(rt::schemars::JsonSchema)]
                    #[schemars(crate = "::crd_runtime::__private::schemars")]
                    #[allow(dead_code, missing_docs)]
                    pub struct #ty {
                        #field
                    }
                },
                quote_spanned!(span=> (&rt::field::Shadow::<#ty>::NEW)),
            ),
            None => {
                let ty = ty.clone();
                let probe = match convention {
                    Convention::Kube => quote_spanned!(span=> (&&rt::field::KubeProbe::<#ty>::NEW)),
                    Convention::ControllerGen => quote_spanned!(span=> (&rt::field::Probe::<#ty>::NEW)),
                };
                (TokenStream::new(), probe)
            }
        };
        // The one call carries the type's span: a type with no schema is one error,
        // there.
        let impls = quote_spanned!(span=> #probe.impls());
        quote! {
            #definition

            pub struct #a;

            impl #a {
                fn impls() -> &'static rt::field::FieldImpls {
                    #impls
                }

                fn static_schema() -> &'static rt::compiled::StaticSchema {
                    (Self::impls().static_schema)()
                }
            }

            impl rt::CrdSchema for #a {
                fn crd_schema() -> rt::Value {
                    (Self::impls().crd_schema)()
                }

                const STATIC_SCHEMA: rt::compiled::StaticSchema = rt::compiled::StaticSchema {
                    of_type: Some(#a::static_schema),
                    ..rt::compiled::StaticSchema::typed("")
                };

                fn has_rules() -> bool {
                    (Self::impls().has_rules)()
                }
            }

            impl rt::schema::ObjectSchema for #a {
                fn shape() -> &'static rt::shape::Shape {
                    (Self::impls().shape)()
                }

                fn coerce_embedded(
                    value: &mut rt::Value,
                    path: &rt::Path,
                    cx: &mut rt::objectmeta::Coercion,
                ) -> Result<(), rt::FieldError> {
                    (Self::impls().coerce_embedded)(value, path, cx)
                }

                fn validate_embedded(value: &rt::Value, path: &rt::Path, errs: &mut rt::ErrorList) {
                    (Self::impls().validate_embedded)(value, path, errs)
                }

                fn walk_rules(
                    value: &rt::Value,
                    old: Option<&rt::Value>,
                    path: &rt::Path,
                    ratchet: rt::rules::TypedRatchet<'_>,
                    budget: &mut rt::rules::Budget,
                    out: &mut rt::rules::Findings,
                ) -> rt::rules::Flow {
                    (Self::impls().walk_rules)(value, old, path, ratchet, budget, out)
                }
            }
        }
    });
    quote!(#( #items )*)
}

/// The impls of one annotated type: `CrdSchema` and `ObjectSchema`, and the compiled
/// rules at and below its node.
pub fn type_impls(l: &Lowered) -> TokenStream {
    let name = l.ident.to_string();
    let first = TypeDef {
        name: name.clone(),
        schema: &l.schema,
        path: name,
        body: TypeBody::Struct(empty_struct()),
    };
    let m = module(first, &l.schema);
    let spans = alias_spans(&l.foreign);
    let rules = RulesEmitter::for_derived(&m, spans.clone());
    // The rules of the types flattened into it, whose schemas join its own at run time.
    let flattened_walks = (!l.flattened.is_empty()).then(|| {
        let aliases: Vec<Ident> = (l.flattened.iter())
            .map(|n| Ident::new(&alias(*n).to_string(), l.foreign[*n].span()))
            .collect();
        let walks = aliases.iter().zip(&l.flattened).enumerate().map(|(i, (a, n))| {
            let ty = &l.foreign[*n];
            let name = quote!(#ty).to_string().replace(' ', "");
            quote!(rt::derived::walk_flattened::<#a>((!published[#i]).then_some(#name), value, old, path, ratchet, budget, out)?;)
        });
        quote! {
            static PUBLISHED: ::std::sync::OnceLock<::std::vec::Vec<bool>> = ::std::sync::OnceLock::new();
            let published = PUBLISHED.get_or_init(|| {
                rt::derived::flattened_rules_published(&[ #( <#aliases as rt::CrdSchema>::crd_schema ),* ])
            });
            #( #walks )*
        }
    });
    let (walk_rules, static_schema) = rules.derived_items(flattened_walks.unwrap_or_default());
    let mut admit = AdmitEmitter::new(&m).with_spans(&spans);
    if !l.runtime_defaults.is_empty() || !l.flattened.is_empty() {
        // Its schema is complete only at run time: the static data is built from it
        // then, once.
        admit = admit.with_shape(runtime_shape(false, &format_ident!("crd")));
    }
    let admit = admit.type_impls(&mut TextItems::AsTokens, &m.types[0], None, walk_rules);
    let rules_module = rules.rules_module();
    let ident = &l.ident;
    #[allow(
        clippy::expect_used,
        reason = "the CRD model serializes to JSON: its maps have string keys"
    )]
    let json = serde_json::to_string(&with_flattened(crate::write::schema(&l.schema), &l.flattened)).expect("JSON");
    let schema = splice_call(&json, &l.foreign, &l.runtime_defaults, &l.published, "splice");
    let has_rules = has_rules_expr(crate::rust::admit::has_local_rules(&l.schema), &l.foreign);
    let aliases = if l.known_field_types {
        aliases(&l.foreign)
    } else {
        adapters(&l.foreign, &l.shadows, l.convention, !l.own_json_schema.is_empty())
    };
    // Why a kube-convention enum's schema is its `JsonSchema`'s: warnings at the
    // reasons' spans (stable proc-macros cannot warn; a deprecated item used there can).
    let own_json_schema_warnings = l.own_json_schema.iter().map(|(reason, span)| {
        let note = format!(
            "no structural schema holds this enum, so its schema is its `JsonSchema`'s, \
             on which `crd()` panics as kube-derive's does: {reason}"
        );
        quote_spanned! {*span=>
            const _: () = {
                #[deprecated(note = #note)]
                #[allow(non_camel_case_types)]
                struct crd_enum_without_structural_schema;
                let _ = crd_enum_without_structural_schema;
            };
        }
    });
    let convention = (l.convention == Convention::Kube).then(|| {
        quote! {
            impl rt::field::KubeConvention for #ident {}
        }
    });
    wrap(
        ident,
        quote! {
            #aliases

            #[automatically_derived]
            impl rt::CrdSchema for #ident {
                fn crd_schema() -> rt::Value {
                    #schema
                }

                #static_schema

                fn has_rules() -> bool {
                    #has_rules
                }
            }

            #[automatically_derived]
            #admit

            #convention

            #rules_module

            #( #own_json_schema_warnings )*
        },
    )
}

/// A type's written schema marked with the field types flattened into it (see
/// `Lowered::flattened`), which `rt::derived::splice` merges in.
fn with_flattened(mut schema: serde_json::Value, flattened: &[usize]) -> serde_json::Value {
    if let (Some(map), false) = (schema.as_object_mut(), flattened.is_empty()) {
        map.insert(crate::write::RUST_FLATTEN_KEY.into(), serde_json::json!(flattened));
    }
    schema
}

/// `local || <field type>::has_rules() || ...`.
fn has_rules_expr(local: bool, foreign: &[syn::Type]) -> TokenStream {
    let types = foreign.iter().enumerate().map(|(n, t)| {
        let a = Ident::new(&alias(n).to_string(), t.span());
        quote!(<#a as rt::CrdSchema>::has_rules())
    });
    quote!(#local #( || #types )*)
}

/// What the root type holds besides `metadata`.
pub struct RootParts {
    pub name: Ident,
    pub vis: syn::Visibility,
    pub spec: Ident,
    pub optional_spec: bool,
    /// `fields_at_root` (kube-derive's `no_spec`): the struct's field types (the root
    /// schema's foreign types, before the status), the struct flattened into the root
    /// (as `fields`; as `spec` with kube-derive).
    pub fields_at_root: Option<FlatFields>,
    pub status: Option<syn::Type>,
    pub derives: Vec<syn::Path>,
    pub doc: String,
    /// Written with `#[kube(...)]`.
    pub kube: Option<KubeRoot>,
}

/// The struct's own schema parts, for a root holding them at its top level.
pub struct FlatFields {
    pub foreign: Vec<syn::Type>,
    pub shadows: Vec<(usize, TokenStream)>,
    pub runtime_defaults: Vec<TokenStream>,
    pub published: Vec<(usize, syn::Type, Option<String>, bool)>,
}

/// What kube-derive's root has beside ours.
pub struct KubeRoot {
    /// `schema = "manual"`: the root's schema is its `JsonSchema` (the user's);
    /// `"disabled"`: the CRD has none.
    pub schema: super::kube::SchemaMode,
    /// `attr = "..."`.
    pub attrs: Vec<syn::Meta>,
    /// `derive = "Default"`, written by hand as kube-derive does.
    pub default: bool,
    /// `cel`: `validate_cel` and `validate_cel_update`.
    pub cel: bool,
    /// Set on a new object's metadata by `new()`, as on the CRD's.
    pub annotations: Vec<(String, String)>,
    pub labels: Vec<(String, String)>,
}

/// The kind's root type and its impls. `crd` holds the root schema, whose `spec` and
/// `status` are foreign nodes 0 and 1 (with `fields_at_root`, the struct's field types
/// and then the status).
pub fn root_items(parts: &RootParts, crd: &ir::Crd) -> TokenStream {
    let RootParts {
        name,
        vis,
        spec,
        optional_spec,
        fields_at_root,
        status,
        derives,
        doc,
        kube,
    } = parts;
    // With the schema disabled the CRD has none (kube-derive's), so nothing is asked of
    // the spec's and the status's types: the root is an object that keeps any field.
    let disabled = kube.as_ref().is_some_and(|k| k.schema == SchemaMode::Disabled);
    let opaque_crd;
    let crd = if disabled {
        let mut c = crd.clone();
        c.versions[0].schema = Schema {
            type_: Some(ir::Type::Object),
            preserve_unknown_fields: true,
            ..Default::default()
        };
        opaque_crd = c;
        &opaque_crd
    } else {
        crd
    };
    let version = &crd.versions[0];
    let (shadows, runtime_defaults, published) = match fields_at_root {
        Some(flat) => (
            flat.shadows.as_slice(),
            flat.runtime_defaults.as_slice(),
            flat.published.as_slice(),
        ),
        None => (&[][..], &[][..], &[][..]),
    };
    let mut foreign: Vec<syn::Type> = match fields_at_root {
        Some(flat) => flat.foreign.clone(),
        None => vec![syn::parse_quote!(#spec)],
    };
    foreign.extend(status.clone());
    if disabled {
        foreign.clear();
    }
    let convention = if kube.is_some() {
        Convention::Kube
    } else {
        Convention::ControllerGen
    };
    // kube-derive's roots have only `CustomResourceExt::crd()`.
    let crd_fn = if kube.is_some() {
        format_ident!("__crd")
    } else {
        format_ident!("crd")
    };
    // kube-derive names the flattened struct `spec`, so `HasSpec` and `.spec` work.
    let flat_name = if kube.is_some() {
        format_ident!("spec")
    } else {
        format_ident!("fields")
    };

    let spec_field = if *optional_spec {
        quote! {
            /// The desired state.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub spec: Option<#spec>,
        }
    } else {
        quote! {
            /// The desired state.
            pub spec: #spec,
        }
    };
    let status_field = status.as_ref().map(|s| {
        quote! {
            /// The observed state.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub status: Option<#s>,
        }
    });
    let fields = match fields_at_root {
        Some(_) => quote! {
            /// The fields beside `metadata`.
            #[serde(flatten)]
            pub #flat_name: #spec,
            #status_field
        },
        None => quote!(#spec_field #status_field),
    };
    let root_attrs = kube.iter().flat_map(|k| &k.attrs);
    let struct_def = quote! {
        #[doc = #doc]
        #[derive(Clone, Debug, ::crd_runtime::serde::Deserialize #( , #derives )*)]
        #[serde(crate = "::crd_runtime::serde")]
        #( #[#root_attrs] )*
        #vis struct #name {
            /// Standard object metadata.
            #[serde(default)]
            pub metadata: ::crd_runtime::ObjectMeta,
            #fields
        }
    };

    // Serialize (apiVersion and kind first) and the k8s-openapi impls, as for
    // generated roots.
    let placeholder = Schema::default();
    let field = |json: &str, presence| FieldDef {
        name: json.to_string(),
        json: json.to_string(),
        ty: Ty::Value,
        presence,
        schema: &placeholder,
        doc: None,
    };
    let mut fields = vec![
        field("metadata", Presence::Required),
        field(
            "spec",
            if *optional_spec {
                Presence::Optional
            } else {
                Presence::Required
            },
        ),
    ];
    if status.is_some() {
        fields.push(field("status", Presence::Optional));
    }
    let serialize_fields = StructDef {
        fields,
        additional_fields: false,
        derives_default: false,
    };
    let api_version = format!("{}/{}", crd.group, version.name);
    let serialize = match fields_at_root {
        Some(_) => flat_serialize(name, spec, &flat_name, status.as_ref(), &api_version, &crd.names.kind),
        None => struct_serialize(name, &serialize_fields, Some((&api_version, &crd.names.kind))),
    };
    let resource = resource_impls(name, crd, version);

    let name_str = name.to_string();
    let root = TypeDef {
        name: name_str.clone(),
        schema: &version.schema,
        path: name_str,
        body: TypeBody::Root(Box::new(RootDef {
            crd,
            version,
            fields: empty_struct(),
        })),
    };
    let m = module(root, &version.schema);
    let rules = RulesEmitter::for_derived_root(&m);
    let has_rules = has_rules_expr(crate::rust::admit::has_local_rules(&version.schema), &foreign);
    let validate_rules = rules.root_validate_rules(&m.types[0]).map(|validate_rules| {
        quote! {
            fn has_rules() -> bool {
                #has_rules
            }

            #validate_rules
        }
    });
    let schema_mode = kube.as_ref().map_or(SchemaMode::Derived, |k| k.schema);
    let mut admit = AdmitEmitter::new(&m).with_spans(&alias_spans(&foreign));
    if !runtime_defaults.is_empty() || schema_mode != SchemaMode::Derived {
        admit = admit.with_shape(runtime_shape(true, &crd_fn));
    }
    let admit = admit.type_impls(
        &mut TextItems::AsTokens,
        &m.types[0],
        validate_rules,
        TokenStream::new(),
    );
    let rules_module = rules.rules_module();

    let mut crd_value = crate::write::crd(crd);
    if kube.is_some() {
        // kube-derive leaves to the API server what it fills in.
        if let Some(spec) = crd_value.get_mut("spec").and_then(serde_json::Value::as_object_mut) {
            spec.remove("conversion");
            if let Some(names) = spec.get_mut("names").and_then(serde_json::Value::as_object_mut) {
                names.remove("listKind");
            }
        }
    }
    #[allow(
        clippy::expect_used,
        reason = "the CRD model serializes to JSON: its maps have string keys"
    )]
    let crd_json = serde_json::to_string(&crd_value).expect("JSON");
    let crd_call = match schema_mode {
        SchemaMode::Derived => splice_call(&crd_json, &foreign, runtime_defaults, published, "crd"),
        mode => {
            let value = splice_call(&crd_json, &foreign, runtime_defaults, published, "splice_value");
            let schema = match mode {
                SchemaMode::Manual => quote!(rt::from_schemars::root_schema_for::<Self>()),
                _ => quote!(rt::Value::Null),
            };
            quote! {{
                let mut crd = #value;
                rt::derived::set_root_schema(&mut crd, #schema);
                rt::derived::crd_from_value(crd)
            }}
        }
    };
    let aliases = adapters(&foreign, shadows, convention, false);
    let new = if fields_at_root.is_some() {
        quote!(#flat_name: spec,)
    } else if *optional_spec {
        quote!(spec: Some(spec),)
    } else {
        quote!(spec,)
    };
    let status_init = status.as_ref().map(|_| quote!(status: None,));
    let new_doc = if fields_at_root.is_some() {
        "A new object with this name and these fields; every other field unset."
    } else {
        "A new object with this name and spec; every other field unset."
    };
    let map = |pairs: &[(String, String)]| {
        if pairs.is_empty() {
            return quote!(None);
        }
        let (k, v): (Vec<&String>, Vec<&String>) = pairs.iter().map(|(k, v)| (k, v)).unzip();
        quote!(Some(::std::collections::BTreeMap::from([ #( (#k.to_string(), #v.to_string()) ),* ])))
    };
    let (annotations, labels) = match kube {
        Some(k) => (map(&k.annotations), map(&k.labels)),
        None => (quote!(None), quote!(None)),
    };
    let default_impl = kube.as_ref().filter(|k| k.default).map(|_| {
        let spec_init = if fields_at_root.is_some() {
            quote!(#flat_name: ::core::default::Default::default(),)
        } else {
            quote!(spec: ::core::default::Default::default(),)
        };
        quote! {
            impl ::core::default::Default for #name {
                fn default() -> Self {
                    Self {
                        metadata: ::core::default::Default::default(),
                        #spec_init
                        #status_init
                    }
                }
            }
        }
    });
    let spec_access = if fields_at_root.is_some() {
        quote!(#flat_name)
    } else {
        quote!(spec)
    };
    let has_spec = (!*optional_spec).then(|| quote!(::crd_runtime::__has_spec!(#name, #spec, #spec_access);));
    let has_status = status
        .as_ref()
        .map(|s| quote!(::crd_runtime::__has_status!(#name, #s);));
    // kube-derive's root types derive `JsonSchema` when their schema is derived.
    let json_schema = kube.as_ref().filter(|k| k.schema == SchemaMode::Derived).map(|_| {
        let name_str = name.to_string();
        quote!(::crd_runtime::__json_schema!(root #name, #name_str, #crd_fn);)
    });
    let validate_cel = kube.as_ref().filter(|k| k.cel).map(|_| {
        quote! {
            impl #name {
                /// Runs this object's CEL rules (`x-kubernetes-validations`, compiled) as
                /// on a create, as kube-derive's `validate_cel` does.
                pub fn validate_cel(&self) -> ::core::result::Result<(), ::crd_runtime::ValidationErrors> {
                    rt::rules::validate_cel_object::<Self>(self, None)
                }

                /// The same on an update from `old`: transition rules run too.
                pub fn validate_cel_update(&self, old: &Self) -> ::core::result::Result<(), ::crd_runtime::ValidationErrors> {
                    rt::rules::validate_cel_object::<Self>(self, Some(old))
                }
            }
        }
    });
    let crd_fns = crate::rust::emit::crd_impl_named(name, crd, crd_call, &crd_fn);
    let storage = version.storage;
    // kube-derive users do not have crd-codegen among their dev-dependencies. The
    // test is outside the block the rest goes in: the test harness finds only items
    // it can name.
    let crd_test = kube.is_none().then(|| {
        let test = format_ident!(
            "{}_crd_passes_the_api_server_checks",
            crate::rust::names::snake_case(&name.to_string())
        );
        if !super::dev_dependency::manifest_names_crd_codegen() {
            return super::dev_dependency::missing(&test.to_string());
        }
        quote! {
            /// The whole CRD passes the API server's checks (what the derive could not
            /// check alone: rules against the field types, their defaults).
            #[cfg(test)]
            #[allow(non_snake_case, unnameable_test_items)]
            #[test]
            fn #test() {
                ::crd_codegen::derive::assert_valid_crd(
                    &::crd_runtime::serde_json::to_value(#name::crd()).expect("a CRD is JSON"),
                );
            }
        }
    });
    let items = wrap(
        name,
        quote! {
            #aliases

            use ::crd_runtime::serde::Serialize;

            #serialize

            #resource

            impl #name {
                #[doc = #new_doc]
                pub fn new(name: &str, spec: #spec) -> Self {
                    Self {
                        metadata: ::crd_runtime::ObjectMeta {
                            annotations: #annotations,
                            labels: #labels,
                            name: Some(name.to_string()),
                            ..Default::default()
                        },
                        #new
                        #status_init
                    }
                }
            }

            #default_impl

            #has_spec
            #has_status
            #json_schema

            #validate_cel

            #crd_fns

            #[automatically_derived]
            impl rt::derived::DerivedVersion for #name {
                const STORAGE: bool = #storage;
            }

            #[automatically_derived]
            #admit

            #rules_module
        },
    );
    quote! {
        #struct_def
        #items
        #crd_test
    }
}

/// `fn shape()` of a type whose schema is complete only at run time (it has defaults
/// from functions): built from the schema once. A root's is its CRD's (`crd_fn` the
/// root's inherent function giving it).
fn runtime_shape(resource_root: bool, crd_fn: &Ident) -> TokenStream {
    let schema = if resource_root {
        quote!(rt::derived::root_schema(&Self::#crd_fn()))
    } else {
        quote!(<Self as rt::CrdSchema>::crd_schema())
    };
    quote! {
        fn shape() -> &'static rt::shape::Shape {
            static SHAPE: ::std::sync::OnceLock<&'static rt::shape::Shape> = ::std::sync::OnceLock::new();
            SHAPE.get_or_init(|| rt::interpreted::shape(#schema, #resource_root))
        }
    }
}

/// `Serialize` for a root holding its fields flattened: `apiVersion`, `kind`,
/// `metadata`, then the fields as their struct serializes them (serde's own flatten,
/// no intermediate value).
fn flat_serialize(
    name: &Ident,
    fields: &Ident,
    field_name: &Ident,
    status: Option<&syn::Type>,
    api_version: &str,
    kind: &str,
) -> TokenStream {
    let (status_field, status_init) = match status {
        Some(s) => (
            quote! {
                #[serde(skip_serializing_if = "Option::is_none")]
                status: Option<&'a #s>,
            },
            quote!(status: self.status.as_ref(),),
        ),
        None => (TokenStream::new(), TokenStream::new()),
    };
    quote! {
        impl Serialize for #name {
            fn serialize<S: ::crd_runtime::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                #[derive(::crd_runtime::serde::Serialize)]
                #[serde(crate = "::crd_runtime::serde")]
                struct Wire<'a> {
                    #[serde(rename = "apiVersion")]
                    api_version: &'static str,
                    kind: &'static str,
                    metadata: &'a ::crd_runtime::ObjectMeta,
                    #[serde(flatten)]
                    fields: &'a #fields,
                    #status_field
                }
                Wire {
                    api_version: #api_version,
                    kind: #kind,
                    metadata: &self.metadata,
                    fields: &self.#field_name,
                    #status_init
                }
                .serialize(serializer)
            }
        }
    }
}

/// Everything but the root struct goes in an anonymous constant's block, with the
/// runtime in scope: items there see the scope of the derived type, a function body's
/// included (a module would not see a function's items).
fn wrap(_ident: &Ident, items: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, non_snake_case, unused_imports, clippy::all)]
        const _: () = {
            use ::crd_runtime::{ObjectMeta, __private as rt};
            use ::crd_runtime::schema::ObjectSchema as _;
            use ::crd_runtime::__private::field::{Compiled as _, Interpreted as _, Published as _, Unpublished as _};

            #items
        };
    }
}
