//! Rust tokens for a [`Plan`]: modules, structs, enums and aliases, their `Serialize` and
//! `Deserialize` (written out, not derived), and the root types' `k8s_openapi` impls.
//!
//! Generated code names only `::crd_runtime` (which re-exports serde, serde_json and
//! k8s-openapi), so a crate using it needs that one dependency.

use super::docs::doc_attrs;
use super::plan::{EnumDef, FieldDef, Module, Plan, Presence, RootDef, StructDef, Ty, TypeBody, TypeDef};
use super::text::{Expr, TextItems, Writer, string_literal};
use crate::ir;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Names each generated module imports; no generated type may take them.
pub const IMPORTED_NAMES: &[&str] = &[
    "BTreeMap",
    "Deserialize",
    "EmptyObject",
    "IntOrString",
    "JsonMap",
    "ObjectMeta",
    "Serialize",
    "Value",
];

pub fn emit(plan: &Plan) -> TokenStream {
    let mut out = groups(plan);
    out.extend(resources(plan));
    out
}

/// `RESOURCES`: every root type, for dispatching on `apiVersion` and `kind`.
pub fn resources(plan: &Plan) -> TokenStream {
    let entries = plan.modules.iter().flat_map(|m| {
        let group_mod = ident(&m.group_mod);
        let version_mod = ident(&m.version_mod);
        m.types
            .iter()
            .filter(|t| matches!(t.body, TypeBody::Root(_)))
            .map(move |t| {
                let name = ident(&t.name);
                quote!(::crd_runtime::schema::Resource::of::<#group_mod::#version_mod::#name>())
            })
    });
    quote! {
        /// Every kind generated here, to look one up by `apiVersion` and `kind`.
        #[allow(dead_code)]
        pub static RESOURCES: &[::crd_runtime::schema::Resource] = &[ #( #entries ),* ];
    }
}

/// One `pub mod group { pub mod version { ... } }` per API group.
fn groups(plan: &Plan) -> TokenStream {
    let mut out = TokenStream::new();
    for (group, modules) in group_runs(&plan.modules) {
        let group_mod = ident(&modules[0].group_mod);
        let versions = modules.iter().map(|m| version_module(m, &mut TextItems::AsTokens));
        let conversions = super::conversion::group_conversions(modules);
        let doc = group_doc(group);
        out.extend(quote! {
            #[doc = #doc]
            pub mod #group_mod {
                #( #versions )*
                #conversions
            }
        });
    }
    out
}

/// The modules in runs of the same API group (the plan keeps a group's versions together).
pub fn group_runs<'p, 'a>(modules: &'p [Module<'a>]) -> impl Iterator<Item = (&'p str, &'p [Module<'a>])> {
    let mut rest = modules;
    std::iter::from_fn(move || {
        let group = rest.first()?.group.as_str();
        let n = rest.iter().take_while(|m| m.group == group).count();
        let (run, tail) = rest.split_at(n);
        rest = tail;
        Some((group, run))
    })
}

/// The doc comment of a group's module.
pub fn group_doc(group: &str) -> String {
    format!(" API group `{group}`.")
}

/// `pub mod version { ... }`: a version's types, their impls and its rules.
/// The lints that descriptions written for Go and OpenAPI trip as doc comments
/// (clippy's, and rustdoc's on `[x]`, bare URLs and `<quantity>`, which would fail
/// `cargo doc` in a crate that denies warnings), and that type names derived from
/// schema paths trip, allowed in a version module.
pub fn doc_allows() -> TokenStream {
    quote! {
        #![allow(
            rustdoc::broken_intra_doc_links,
            rustdoc::bare_urls,
            rustdoc::invalid_html_tags,
            clippy::doc_lazy_continuation,
            clippy::doc_overindented_list_items,
            clippy::tabs_in_doc_comments,
            clippy::too_long_first_doc_paragraph,
            clippy::empty_docs,
            clippy::enum_variant_names,
            clippy::large_enum_variant
        )]
    }
}

/// A version module's items; those written as text go to `texts`.
pub fn version_module(m: &Module, texts: &mut TextItems) -> TokenStream {
    let doc_allows = doc_allows();
    let version_mod = ident(&m.version_mod);
    let doc = format!(" `{}/{}`.", m.group, m.version);
    let admit = super::admit::AdmitEmitter::new(m);
    let rules = super::rules::RulesEmitter::new(m);
    let types: Vec<TokenStream> = m
        .types
        .iter()
        .map(|t| {
            let def = type_def(m, texts, t);
            let impls = admit.type_impls(texts, t, rules.root_validate_rules(t), TokenStream::new());
            quote!(#def #impls)
        })
        .collect();
    let rules_module = rules.rules_module();
    quote! {
        #[doc = #doc]
        pub mod #version_mod {
            #doc_allows
            #![allow(
                // A binary crate that includes the generated source uses part of it
                // (one kind, not its `crd()` or version constants): the rest is API
                // of the generated code, not the user's dead code. `crd_types!` is
                // not linted for it either.
                dead_code,
                // Nested `if let`s stay nested: let chains need edition 2024.
                clippy::collapsible_if
            )]
            #[allow(unused_imports)]
            use ::crd_runtime::{EmptyObject, IntOrString, JsonMap, ObjectMeta, Value, __private as rt};
            #[allow(unused_imports)]
            use ::crd_runtime::schema::ObjectSchema as _;
            #[allow(unused_imports)]
            use ::crd_runtime::serde::{Deserialize, Serialize};
            #[allow(unused_imports)]
            use ::std::collections::BTreeMap;

            #( #types )*

            #rules_module
        }
    }
}

pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

fn type_def(m: &Module, texts: &mut TextItems, t: &TypeDef) -> TokenStream {
    let name = ident(&t.name);
    match &t.body {
        TypeBody::Root(root) => root_type(m, texts, t, root),
        TypeBody::Struct(s) => {
            let docs = doc_attrs(t.schema.description.as_deref());
            struct_type(m, texts, &name, docs, s, None)
        }
        TypeBody::Enum(e) => enum_type(&name, doc_attrs(t.schema.description.as_deref()), e),
        TypeBody::Alias(target) => {
            let target = ident(&m.types[*target].name);
            let docs = doc_attrs(t.schema.description.as_deref());
            quote! {
                #docs
                pub type #name = #target;
            }
        }
    }
}

fn rust_type(m: &Module, ty: &Ty) -> TokenStream {
    rust_type_noting(m, ty, &mut |_| {})
}

/// A field's Rust type, telling `import` each name it uses from the module's imports
/// (`IntOrString`, `BTreeMap`, ...).
pub(crate) fn rust_type_noting(m: &Module, ty: &Ty, import: &mut dyn FnMut(&'static str)) -> TokenStream {
    let mut imported = |name: &'static str| {
        import(name);
        let i = ident(name);
        quote!(#i)
    };
    match ty {
        Ty::String => quote!(String),
        Ty::I32 => quote!(i32),
        Ty::I64 => quote!(i64),
        Ty::F32 => quote!(f32),
        Ty::F64 => quote!(f64),
        Ty::Bool => quote!(bool),
        Ty::IntOrString => imported("IntOrString"),
        Ty::Value => imported("Value"),
        Ty::JsonMap => imported("JsonMap"),
        Ty::EmptyObject => imported("EmptyObject"),
        Ty::ObjectMeta => imported("ObjectMeta"),
        Ty::Vec(inner) => {
            let inner = rust_type_noting(m, inner, import);
            quote!(Vec<#inner>)
        }
        Ty::Map(inner) => {
            import("BTreeMap");
            let inner = rust_type_noting(m, inner, import);
            quote!(BTreeMap<String, #inner>)
        }
        Ty::Option(inner) => {
            let inner = rust_type_noting(m, inner, import);
            quote!(Option<#inner>)
        }
        Ty::Named(id) => {
            let name = ident(&m.types[*id].name);
            quote!(#name)
        }
    }
}

/// serde's `rename_all = "camelCase"` applied to a snake_case field name (the rule the
/// derive reads back).
pub(crate) fn serde_camel_case(field: &str) -> String {
    crate::conventions::rename_field(field.trim_start_matches("r#"), Some("camelCase")).unwrap_or_default()
}

fn field_tokens(m: &Module, f: &FieldDef) -> TokenStream {
    let name = ident(&f.name);
    let ty = presence_type(f, rust_type(m, &f.ty));
    let docs = doc_attrs(f.doc.as_deref());
    quote! {
        #docs
        pub #name: #ty,
    }
}

/// A field's type for its presence: `T`, `Option<T>`, or `Option<Option<T>>` (absent,
/// null, a value).
pub(crate) fn presence_type(f: &FieldDef, ty: TokenStream) -> TokenStream {
    match f.presence {
        Presence::Required => ty,
        Presence::RequiredNullable | Presence::Optional => quote!(Option<#ty>),
        Presence::OptionalNullable => quote!(Option<Option<#ty>>),
    }
}

/// A struct with its `Serialize` and `Deserialize`, written out rather than derived
/// (see crd-runtime's `codec` for why); `root` is a root type's `apiVersion` and `kind`.
fn struct_type(
    m: &Module,
    texts: &mut TextItems,
    name: &Ident,
    docs: TokenStream,
    s: &StructDef,
    root: Option<(&str, &str)>,
) -> TokenStream {
    let fields = s.fields.iter().map(|f| field_tokens(m, f));
    let additional = additional_fields(s);
    let default = s.derives_default.then(|| quote!(Default,));
    let type_name = name.to_string();
    let serde = texts.item(struct_serialize_text(&type_name, s, root) + "\n" + &struct_deserialize_text(&type_name, s));
    quote! {
        #docs
        #[derive(Clone, Debug, #default PartialEq)]
        pub struct #name {
            #( #fields )*
            #additional
        }

        #serde
    }
}

/// `Deserialize` and `FromMap` through crd-runtime's `codec` (see there why not serde's
/// derive), as text: a slot per field, filled by the position of each key read.
fn struct_deserialize_text(name: &str, s: &StructDef) -> String {
    let mut w = Writer::default();
    w.open(&format!("impl<'de> Deserialize<'de> for {name} {{"));
    w.open("fn deserialize<D: ::crd_runtime::serde::Deserializer<'de>>(");
    w.line("deserializer: D,");
    w.reopen(") -> Result<Self, D::Error> {");
    w.line("rt::codec::deserialize_struct(deserializer)");
    w.close("}");
    w.close("}");
    w.line("");

    let others = s.additional_fields.then(|| additional_fields_name(s).to_string());
    w.open(&format!("impl<'de> rt::codec::FromMap<'de> for {name} {{"));
    w.line(&format!("const NAME: &'static str = {};", string_literal(name)));
    let names = s.fields.iter().map(|f| Expr::Atom(string_literal(&f.json))).collect();
    w.expr(
        "const FIELDS: &'static [&'static str] = ",
        &Expr::Array("&".into(), names),
        ";",
    );
    w.open("fn from_map<A: ::crd_runtime::serde::de::MapAccess<'de>>(");
    w.line("access: A,");
    w.reopen(") -> Result<Self, A::Error> {");
    let fields = if others.is_some() { "keeping_others" } else { "new" };
    w.line(&format!(
        "let mut __map = rt::codec::Fields::{fields}(access, Self::FIELDS);"
    ));
    // The slots' types are inferred from the fields they fill.
    for f in &s.fields {
        w.line(&format!("let mut {} = None;", f.name));
    }
    if let Some(others) = &others {
        w.line(&format!("let mut {others} = BTreeMap::new();"));
    }
    w.open("while let Some(__field) = __map.next_field()? {");
    w.open("let read = match __field {");
    for (i, f) in s.fields.iter().enumerate() {
        w.call(&format!("{i} => __map.value"), &[&format!("&mut {}", f.name)], ",");
    }
    match &others {
        Some(others) => w.line(&format!("_ => __map.other(&mut {others}),")),
        None => w.line("_ => __map.skip(),"),
    }
    w.close("};");
    w.line("read?;");
    w.close("}");
    w.open("Ok(Self {");
    for f in &s.fields {
        let field = &f.name;
        match f.presence {
            Presence::Required if f.ty == Ty::ObjectMeta => {
                w.call(&format!("{field}: rt::codec::or_default"), &[field], ",")
            }
            Presence::Required => w.call(
                &format!("{field}: __map.required"),
                &[field, &string_literal(&f.json)],
                "?,",
            ),
            Presence::RequiredNullable | Presence::Optional => {
                w.call(&format!("{field}: rt::codec::optional"), &[field], ",")
            }
            Presence::OptionalNullable => w.line(&format!("{field},")),
        }
    }
    if let Some(others) = &others {
        w.line(&format!("{others},"));
    }
    w.close("})");
    w.close("}");
    w.close("}");
    w.finish()
}

fn additional_fields(s: &StructDef) -> TokenStream {
    if !s.additional_fields {
        return TokenStream::new();
    }
    let name = additional_fields_name(s);
    quote! {
        /// Fields not named in the schema, kept because of
        /// `x-kubernetes-preserve-unknown-fields`.
        pub #name: BTreeMap<String, Value>,
    }
}

/// The field holding unknown fields: `additional_fields`, unless a property took it.
pub fn additional_fields_name(s: &StructDef) -> Ident {
    let mut name = "additional_fields".to_string();
    while s.fields.iter().any(|f| f.name == name) {
        name.push('_');
    }
    ident(&name)
}

fn enum_type(name: &Ident, docs: TokenStream, e: &EnumDef) -> TokenStream {
    let type_name = name.to_string();
    let variants: Vec<Ident> = e.variants.iter().map(|(variant, _)| ident(variant)).collect();
    let values: Vec<&String> = e.variants.iter().map(|(_, value)| value).collect();
    quote! {
        #docs
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum #name {
            #( #variants, )*
        }

        impl #name {
            /// The value as written in JSON.
            pub fn as_str(self) -> &'static str {
                match self {
                    #( #name::#variants => #values, )*
                }
            }
        }

        impl Serialize for #name {
            fn serialize<S: ::crd_runtime::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for #name {
            fn deserialize<D: ::crd_runtime::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                rt::codec::unit_variant(deserializer, #type_name, &[ #( #values ),* ], &[ #( #name::#variants ),* ])
            }
        }
    }
}

fn root_type(m: &Module, texts: &mut TextItems, t: &TypeDef, root: &RootDef) -> TokenStream {
    let name = ident(&t.name);
    let crd = root.crd;
    let v = root.version;
    let api_version = format!("{}/{}", crd.group, v.name);
    let mut doc = format!(
        "`{}` ({api_version}), from the CustomResourceDefinition `{}`.",
        crd.names.kind, crd.name
    );
    if v.deprecated {
        doc.push_str(&format!(
            "\n\n**Deprecated**{}",
            v.deprecation_warning
                .as_deref()
                .map(|w| format!(": {w}"))
                .unwrap_or_default()
        ));
    }
    if let Some(d) = &t.schema.description {
        doc.push_str("\n\n");
        doc.push_str(d);
    }
    let docs = doc_attrs(Some(&doc));
    let def = struct_type(
        m,
        texts,
        &name,
        docs,
        &root.fields,
        Some((&api_version, &crd.names.kind)),
    );
    let resource = resource_impls(&name, crd, v);
    let constructor = root_constructor(m, &name, &root.fields);
    #[allow(
        clippy::expect_used,
        reason = "the CRD model serializes to JSON: its maps have string keys"
    )]
    let json = serde_json::to_string(&crate::write::crd(crd)).expect("JSON");
    let json = raw_string(&json);
    let crd_fns = crd_impl(&name, crd, quote!(::crd_runtime::derived::crd(#json, &[])));
    let versions = super::conversion::version_consts(&name, crd, v);
    quote! {
        #def
        #resource
        #constructor
        #crd_fns
        #versions
    }
}

/// A raw string literal (`r#"..."#`, with as many `#` as the text needs), so JSON
/// reads as JSON in generated source.
#[allow(clippy::expect_used, reason = "a raw string literal with enough hashes always lexes")]
pub(crate) fn raw_string(text: &str) -> TokenStream {
    let mut hashes = String::from("#");
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .expect("a raw string literal")
}

/// `Kind::CRD_NAME` and `Kind::crd()`, whose body is `crd`, and with crd-runtime's
/// `kube` feature `kube::CustomResourceExt`.
pub(crate) fn crd_impl(name: &Ident, crd: &ir::Crd, body: TokenStream) -> TokenStream {
    crd_impl_named(name, crd, body, &Ident::new("crd", Span::call_site()))
}

/// [`crd_impl`] with the inherent function named `function`: kube-derive's roots have
/// only the trait's `crd()` (an inherent one would leave their users' imports of the
/// trait unused).
pub(crate) fn crd_impl_named(name: &Ident, crd: &ir::Crd, body: TokenStream, function: &Ident) -> TokenStream {
    let crd_name = &crd.name;
    let short_names = &crd.names.short_names;
    let doc = (function == "crd").then(|| {
        quote! {
            /// The CustomResourceDefinition of this kind, as the API server stores it:
            /// pass it to `Api::<CustomResourceDefinition>::create` to install it.
        }
    });
    let hidden = (function != "crd").then(|| quote!(#[doc(hidden)]));
    quote! {
        ::crd_runtime::__custom_resource_ext!(#name, #crd_name, [#( #short_names ),*], #function);

        impl #name {
            /// The name of the CustomResourceDefinition: `plural.group`.
            pub const CRD_NAME: &'static str = #crd_name;

            #doc
            #hidden
            pub fn #function() -> ::crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
                #body
            }
        }
    }
}

/// `Serialize`, written out rather than derived (through crd-runtime's `codec`): a map
/// entry per field, an optional field's only when set (`Some(None)` of a nullable one
/// as `null`), then the unknown fields kept. A root type's map starts with its
/// `apiVersion` and `kind` (`root`), as `kubectl` shows objects.
pub(crate) fn struct_serialize(name: &Ident, s: &StructDef, root: Option<(&str, &str)>) -> TokenStream {
    TextItems::AsTokens.item(struct_serialize_text(&name.to_string(), s, root))
}

/// [`struct_serialize`] as text.
fn struct_serialize_text(name: &str, s: &StructDef, root: Option<(&str, &str)>) -> String {
    let mut w = Writer::default();
    w.open(&format!("impl Serialize for {name} {{"));
    w.open("fn serialize<S: ::crd_runtime::serde::Serializer>(");
    w.line("&self,");
    w.line("serializer: S,");
    w.reopen(") -> Result<S::Ok, S::Error> {");
    w.line("let mut map = rt::codec::Entries::new(serializer);");
    if let Some((api_version, kind)) = root {
        w.call("map.entry", &["\"apiVersion\"", &string_literal(api_version)], ";");
        w.call("map.entry", &["\"kind\"", &string_literal(kind)], ";");
    }
    for f in &s.fields {
        let method = match f.presence {
            Presence::Required | Presence::RequiredNullable => "map.entry",
            Presence::Optional | Presence::OptionalNullable => "map.optional",
        };
        w.call(method, &[&string_literal(&f.json), &format!("&self.{}", f.name)], ";");
    }
    if s.additional_fields {
        let extra = additional_fields_name(s);
        let skip = if root.is_some() {
            "&[\"apiVersion\", \"kind\"]"
        } else {
            "&[]"
        };
        w.call("map.others", &[&format!("&self.{extra}"), skip], ";");
    }
    w.line("map.end()");
    w.close("}");
    w.close("}");
    w.finish()
}

/// `k8s_openapi::Resource`, `ListableResource` and `Metadata`: with them, kube-rs's
/// blanket impl makes the type a `kube::Resource`, so `Api::<T>` works unchanged.
pub(crate) fn resource_impls(name: &Ident, crd: &ir::Crd, v: &ir::Version) -> TokenStream {
    let api_version = format!("{}/{}", crd.group, v.name);
    let group = &crd.group;
    let kind = &crd.names.kind;
    let version = &v.name;
    let plural = &crd.names.plural;
    let list_kind = &crd.names.list_kind;
    let scope = match crd.scope {
        ir::Scope::Namespaced => quote!(::crd_runtime::k8s_openapi::NamespaceResourceScope),
        ir::Scope::Cluster => quote!(::crd_runtime::k8s_openapi::ClusterResourceScope),
    };
    quote! {
        impl ::crd_runtime::k8s_openapi::Resource for #name {
            const API_VERSION: &'static str = #api_version;
            const GROUP: &'static str = #group;
            const KIND: &'static str = #kind;
            const VERSION: &'static str = #version;
            const URL_PATH_SEGMENT: &'static str = #plural;
            type Scope = #scope;
        }

        impl ::crd_runtime::k8s_openapi::ListableResource for #name {
            const LIST_KIND: &'static str = #list_kind;
        }

        impl ::crd_runtime::k8s_openapi::Metadata for #name {
            type Ty = ObjectMeta;

            fn metadata(&self) -> &ObjectMeta {
                &self.metadata
            }

            fn metadata_mut(&mut self) -> &mut ObjectMeta {
                &mut self.metadata
            }
        }
    }
}

/// `Kind::new(name, spec)` when every field but `metadata` and `spec` is optional.
fn root_constructor(m: &Module, name: &Ident, s: &StructDef) -> TokenStream {
    let Some(spec) = s.fields.iter().find(|f| f.json == "spec") else {
        return TokenStream::new();
    };
    let others_optional = s
        .fields
        .iter()
        .filter(|f| f.json != "spec" && f.json != "metadata")
        .all(|f| matches!(f.presence, Presence::Optional | Presence::OptionalNullable));
    if !others_optional || s.additional_fields {
        return TokenStream::new();
    }
    let spec_ty = rust_type(m, &spec.ty);
    let spec_field = ident(&spec.name);
    // The field is `spec`, so a required one is written `spec` (not `spec: spec`).
    let spec_init = match spec.presence {
        Presence::Required => quote!(#spec_field),
        Presence::RequiredNullable | Presence::Optional => quote!(#spec_field: Some(spec)),
        Presence::OptionalNullable => quote!(#spec_field: Some(Some(spec))),
    };
    let others = s
        .fields
        .iter()
        .filter(|f| f.json != "spec" && f.json != "metadata")
        .map(|f| {
            let n = ident(&f.name);
            quote!(#n: None,)
        });
    let doc = " A new object with this name and spec; every other field unset.".to_string();
    quote! {
        impl #name {
            #[doc = #doc]
            pub fn new(name: &str, spec: #spec_ty) -> Self {
                Self {
                    metadata: ObjectMeta {
                        name: Some(name.to_string()),
                        ..Default::default()
                    },
                    #spec_init,
                    #( #others )*
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_like_serde() {
        assert_eq!(serde_camel_case("cron_spec"), "cronSpec");
        assert_eq!(serde_camel_case("r#type"), "type");
        assert_eq!(serde_camel_case("pod_ips"), "podIps");
        assert_eq!(serde_camel_case("_3d"), "3d");
    }
}
