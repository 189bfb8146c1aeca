//! Tokens for a lowered type: its `CrdSchema` and `ObjectSchema` impls (the latter
//! from the YAML direction's admission emitter, [`crate::rust::admit`]), and for a
//! kind its root type, `k8s_openapi` impls, `CustomResource` impl and `crd()`.

use super::lower::Lowered;
use crate::ir::{self, Schema};
use crate::rust::admit::AdmitEmitter;
use crate::rust::emit::{resource_impls, struct_serialize};
use crate::rust::plan::{FieldDef, Module, Presence, RootDef, StructDef, Ty, TypeBody, TypeDef};
use crate::rust::rules::RulesEmitter;
use crate::rust::text::TextItems;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
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

/// `rt::derived::splice(JSON, &[...])`: the schema with the foreign types' schemas in place.
fn splice_call(json: &str, foreign: &[syn::Type], func: &str) -> TokenStream {
    let types = foreign.iter().enumerate().map(|(n, t)| {
        let a = Ident::new(&alias(n).to_string(), t.span());
        quote!(<#a as rt::CrdSchema>::crd_schema)
    });
    let func = format_ident!("{}", func);
    let json = crate::rust::emit::raw_string(json);
    quote!(rt::derived::#func(#json, &[ #( #types ),* ]))
}

fn aliases(foreign: &[syn::Type]) -> TokenStream {
    let items = foreign.iter().enumerate().map(|(n, ty)| {
        let a = alias(n);
        let ty = from_child_module(ty);
        quote!(type #a = #ty;)
    });
    quote!(#( #items )*)
}

/// A type path as written in the user's module, as seen from the module the derive
/// adds inside it (which imports the user's module with `use super::*`).
fn from_child_module(ty: &syn::Type) -> syn::Type {
    let mut ty = ty.clone();
    if let syn::Type::Path(p) = &mut ty
        && p.qself.is_none()
        && p.path.leading_colon.is_none()
        && let Some(first) = p.path.segments.first()
    {
        if first.ident == "self" {
            p.path.segments[0].ident = syn::Ident::new("super", first.ident.span());
        } else if first.ident == "super" {
            p.path.segments.insert(0, syn::parse_quote!(super));
        }
    }
    ty
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
    let (walk_rules, static_schema) = rules.derived_items();
    let admit =
        AdmitEmitter::new(&m)
            .with_spans(&spans)
            .type_impls(&mut TextItems::AsTokens, &m.types[0], None, walk_rules);
    let rules_module = rules.rules_module();
    let ident = &l.ident;
    #[allow(
        clippy::expect_used,
        reason = "the CRD model serializes to JSON: its maps have string keys"
    )]
    let json = serde_json::to_string(&crate::write::schema(&l.schema)).expect("JSON");
    let schema = splice_call(&json, &l.foreign, "splice");
    let has_rules = has_rules_expr(crate::rust::admit::has_local_rules(&l.schema), &l.foreign);
    let aliases = aliases(&l.foreign);
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

                const HAS_RULES: bool = #has_rules;
            }

            #[automatically_derived]
            #admit

            #rules_module
        },
    )
}

/// `local || <field type>::HAS_RULES || ...`.
fn has_rules_expr(local: bool, foreign: &[syn::Type]) -> TokenStream {
    let types = foreign.iter().enumerate().map(|(n, t)| {
        let a = Ident::new(&alias(n).to_string(), t.span());
        quote!(<#a as rt::CrdSchema>::HAS_RULES)
    });
    quote!(#local #( || #types )*)
}

/// What the root type holds besides `metadata`.
pub struct RootParts {
    pub name: Ident,
    pub vis: syn::Visibility,
    pub spec: Ident,
    pub optional_spec: bool,
    /// `fields_at_root`: the struct's field types (the root schema's foreign types),
    /// the struct flattened into the root as `fields`.
    pub fields_at_root: Option<Vec<syn::Type>>,
    pub status: Option<syn::Type>,
    pub derives: Vec<syn::Path>,
    pub doc: String,
}

/// The kind's root type and its impls. `crd` holds the root schema, whose `spec` and
/// `status` are foreign nodes 0 and 1.
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
    } = parts;
    let version = &crd.versions[0];
    let foreign: Vec<syn::Type> = match fields_at_root {
        Some(types) => types.clone(),
        None => {
            let mut foreign: Vec<syn::Type> = vec![syn::parse_quote!(#spec)];
            foreign.extend(status.clone());
            foreign
        }
    };

    let spec_field = if *optional_spec {
        quote! {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub spec: Option<#spec>,
        }
    } else {
        quote!(pub spec: #spec,)
    };
    let status_field = status.as_ref().map(|s| {
        quote! {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub status: Option<#s>,
        }
    });
    let fields = match fields_at_root {
        Some(_) => quote! {
            /// The fields beside `metadata`.
            #[serde(flatten)]
            pub fields: #spec,
        },
        None => quote!(#spec_field #status_field),
    };
    let struct_def = quote! {
        #[doc = #doc]
        #[derive(Clone, Debug, ::crd_runtime::serde::Deserialize #( , #derives )*)]
        #[serde(crate = "::crd_runtime::serde")]
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
        Some(_) => flat_serialize(name, spec, &api_version, &crd.names.kind),
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
    let rules = RulesEmitter::new(&m);
    let has_rules = has_rules_expr(crate::rust::admit::has_local_rules(&version.schema), &foreign);
    let validate_rules = rules.root_validate_rules(&m.types[0]).map(|validate_rules| {
        quote! {
            const HAS_RULES: bool = #has_rules;

            #validate_rules
        }
    });
    let admit = AdmitEmitter::new(&m).with_spans(&alias_spans(&foreign)).type_impls(
        &mut TextItems::AsTokens,
        &m.types[0],
        validate_rules,
        TokenStream::new(),
    );
    let rules_module = rules.rules_module();

    #[allow(
        clippy::expect_used,
        reason = "the CRD model serializes to JSON: its maps have string keys"
    )]
    let crd_json = serde_json::to_string(&crate::write::crd(crd)).expect("JSON");
    let crd_call = splice_call(&crd_json, &foreign, "crd");
    let aliases = aliases(&foreign);
    let new = if fields_at_root.is_some() {
        quote!(fields: spec,)
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
    let crd_fns = crate::rust::emit::crd_impl(name, crd, crd_call);
    let storage = version.storage;
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
                            name: Some(name.to_string()),
                            ..Default::default()
                        },
                        #new
                        #status_init
                    }
                }
            }

            #crd_fns

            #[automatically_derived]
            impl rt::derived::DerivedVersion for #name {
                const STORAGE: bool = #storage;
            }

            #[automatically_derived]
            #admit

            #rules_module

            /// The whole CRD passes the API server's checks (what the derive could not
            /// check alone: rules against the field types, their defaults).
            #[cfg(test)]
            #[test]
            fn crd_passes_the_api_server_checks() {
                ::crd_codegen::derive::assert_valid_crd(
                    &::crd_runtime::serde_json::to_value(#name::crd()).expect("a CRD is JSON"),
                );
            }
        },
    );
    quote! {
        #struct_def
        #items
    }
}

/// `Serialize` for a root holding its fields flattened: `apiVersion`, `kind`,
/// `metadata`, then the fields as their struct serializes them (serde's own flatten,
/// no intermediate value).
fn flat_serialize(name: &Ident, fields: &Ident, api_version: &str, kind: &str) -> TokenStream {
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
                }
                Wire {
                    api_version: #api_version,
                    kind: #kind,
                    metadata: &self.metadata,
                    fields: &self.fields,
                }
                .serialize(serializer)
            }
        }
    }
}

/// Everything but the root struct goes in a hidden module of the user's module, named
/// after the type, with the runtime and the field type aliases in scope.
fn wrap(ident: &Ident, items: TokenStream) -> TokenStream {
    let module = format_ident!("__crd_{}", crate::rust::names::snake_case(&ident.to_string()));
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, non_snake_case, unused_imports, clippy::all)]
        mod #module {
            use super::*;
            use ::crd_runtime::{ObjectMeta, __private as rt};
            use ::crd_runtime::schema::ObjectSchema as _;

            #items
        }
    }
}
