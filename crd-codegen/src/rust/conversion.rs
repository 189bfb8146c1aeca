//! What generated code says about a kind's versions: the version constants of each
//! root type, and the conversions between the versions of a kind.
//!
//! With the `None` strategy the API server converts by rewriting `apiVersion` and
//! pruning with the target's schema; each ordered pair of generated versions of such
//! a kind gets `impl Convert<to::Kind> for from::Kind`, calling the runtime's one
//! implementation (`crd_runtime::conversion::none`).

use super::emit::ident;
use super::names;
use super::plan::{FieldDef, Module, Presence, StructDef, Ty, TypeBody, TypeDef, TypeId};
use crate::ir;
use crd_runtime::versions;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `SERVED_VERSIONS`, `STORAGE_VERSION` and `DEPRECATION_WARNING` of the root type
/// `name` of `version`, from every version the CRD lists.
pub fn version_consts(name: &proc_macro2::Ident, crd: &ir::Crd, version: &ir::Version) -> TokenStream {
    let mut served: Vec<&str> = crd
        .all_versions
        .iter()
        .filter(|v| v.served)
        .map(|v| v.name.as_str())
        .collect();
    versions::sort_by_priority(&mut served);
    let storage = crd
        .all_versions
        .iter()
        .find(|v| v.storage)
        .map_or("", |v| v.name.as_str());
    let warning = crd.deprecation_warning(version);
    let warning = match &warning {
        Some(w) => quote!(Some(#w)),
        None => quote!(None),
    };
    quote! {
        impl #name {
            /// The versions of this kind the API server serves, highest priority first:
            /// the first is the one `kubectl` uses when none is named.
            pub const SERVED_VERSIONS: &'static [&'static str] = &[ #( #served ),* ];
            /// The version objects of this kind are stored at.
            pub const STORAGE_VERSION: &'static str = #storage;
            /// The warning the API server returns with every request for this version,
            /// when it is deprecated.
            pub const DEPRECATION_WARNING: Option<&'static str> = #warning;
        }
    }
}

/// The conversions between the versions of each kind of one API group (`modules` are
/// the group's version modules), for the group's module.
pub fn group_conversions(modules: &[Module]) -> TokenStream {
    let mut out = none_conversions(modules);
    out.extend(hub_conversions(modules));
    out
}

/// `impl Convert` between every two generated versions of each `None`-strategy kind.
fn none_conversions(modules: &[Module]) -> TokenStream {
    let mut out = TokenStream::new();
    for (crd, roots) in kinds(modules) {
        if crd.conversion != ir::Conversion::None {
            continue;
        }
        for from in &roots {
            for to in roots.iter().filter(|to| !std::ptr::eq(*to, from)) {
                let (from, to) = (root_in_group(from), root_in_group(to));
                // `#[inline]`: the conversion serializes and deserializes the
                // whole object, which instantiates serde's `Value` code for every
                // type of both versions; inline, that is compiled only in a crate
                // that converts, not in every crate that holds the types.
                out.extend(quote! {
                    impl ::crd_runtime::Convert<#to> for #from {
                        #[inline]
                        fn convert(&self) -> ::crd_runtime::conversion::Result<#to> {
                            ::crd_runtime::conversion::none(self)
                        }
                    }
                });
            }
        }
    }
    out
}

/// The root types of the group's modules, by CRD (a project may define a kind twice,
/// in variants of one name: each CRD is its own kind here).
fn kinds<'p, 'a>(modules: &'p [Module<'a>]) -> Vec<(&'a ir::Crd, Vec<Root<'p, 'a>>)> {
    let mut kinds: Vec<(&ir::Crd, Vec<Root>)> = Vec::new();
    for m in modules {
        for (id, t) in m.types.iter().enumerate() {
            let TypeBody::Root(root) = &t.body else { continue };
            let r = Root {
                module: m,
                id,
                version: root.version,
            };
            match kinds.iter_mut().find(|(crd, _)| std::ptr::eq(*crd, root.crd)) {
                Some((_, roots)) => roots.push(r),
                None => kinds.push((root.crd, vec![r])),
            }
        }
    }
    kinds
}

/// A root type of a version module.
struct Root<'p, 'a> {
    module: &'p Module<'a>,
    id: TypeId,
    version: &'a ir::Version,
}

/// For each `Webhook`-strategy kind whose storage version (the hub) is generated, a
/// module `<kind>_conversion` with the hooks trait, the field maps and the conversion
/// functions (see `crd_runtime::conversion::hub`).
fn hub_conversions(modules: &[Module]) -> TokenStream {
    let kinds = kinds(modules);
    let mut taken = std::collections::HashSet::new();
    kinds
        .iter()
        .filter(|(crd, _)| matches!(crd.conversion, ir::Conversion::Webhook { .. }))
        .filter_map(|(crd, roots)| {
            let hub = roots.iter().find(|r| r.version.storage)?;
            let module = names::unique(format!("{}_conversion", names::snake_case(&crd.names.kind)), &mut taken);
            Some(kind_conversion(crd, hub, roots, &module))
        })
        .collect()
}

/// One unmapped field: the hook that fills it.
struct HookSpec {
    method: proc_macro2::Ident,
    from: String,
    to: String,
    /// The JSON path of the field in the target (`spec.containers[*].hostPort`).
    path: String,
    /// The Rust type of the object holding the field in the source.
    parent: TokenStream,
    /// The field's Rust type in the target (with its `Option`s).
    returns: TokenStream,
    /// Whether `None` leaves the field unset (else the value is written as it is).
    optional: bool,
}

/// The field maps of one direction, with their hooks.
struct Direction {
    map: TokenStream,
    hooks: Vec<HookSpec>,
}

fn kind_conversion(crd: &ir::Crd, hub: &Root, roots: &[Root], module: &str) -> TokenStream {
    let kind = &crd.names.kind;
    let mut methods = std::collections::HashSet::new();
    let mut spokes = Vec::new();
    for spoke in roots.iter().filter(|r| !std::ptr::eq(*r, hub)) {
        let to_hub = direction(spoke, hub, &mut methods);
        let from_hub = direction(hub, spoke, &mut methods);
        spokes.push((spoke, to_hub, from_hub));
    }
    let hooks: Vec<&HookSpec> = spokes
        .iter()
        .flat_map(|(_, a, b)| a.hooks.iter().chain(&b.hooks))
        .collect();
    let trait_methods = hooks.iter().map(|h| {
        let doc = format!(
            " `{}` of {} ({}), which {} does not have with the same schema, from the {} object that holds it.",
            h.path,
            h.to,
            if h.to == hub.version.name { "the hub" } else { "a spoke" },
            h.from,
            h.from,
        );
        let (method, parent, returns) = (&h.method, &h.parent, &h.returns);
        quote! {
            #[doc = #doc]
            fn #method(from: &#parent) -> #returns;
        }
    });
    let unmapped = hooks.iter().map(|h| {
        let (from, to, path) = (&h.from, &h.to, &h.path);
        quote!((#from, #to, #path))
    });
    let hub_ty = root_path(hub);
    let spoke_items = spokes.iter().enumerate().map(|(i, (spoke, to_hub, from_hub))| {
        let ty = root_path(spoke);
        let (to_map, from_map) = (&to_hub.map, &from_hub.map);
        let to_hooks = hook_fns(&to_hub.hooks);
        let from_hooks = hook_fns(&from_hub.hooks);
        let (to_static, from_static) = (format_ident!("TO_HUB_{i}"), format_ident!("FROM_HUB_{i}"));
        let to_n = proc_macro2::Literal::usize_unsuffixed(to_hub.hooks.len());
        let from_n = proc_macro2::Literal::usize_unsuffixed(from_hub.hooks.len());
        let statics = quote! {
            static #to_static: FieldMap = #to_map;
            static #from_static: FieldMap = #from_map;
        };
        let spoke = quote! {
            Spoke {
                schema: &Compiled::<#ty>::new(),
                to_hub: (&#to_static, &{ let hooks: [Hook; #to_n] = [#( #to_hooks ),*]; hooks }),
                from_hub: (&#from_static, &{ let hooks: [Hook; #from_n] = [#( #from_hooks ),*]; hooks }),
            }
        };
        (statics, spoke)
    });
    let (statics, spoke_values): (Vec<_>, Vec<_>) = spoke_items.unzip();
    let unimplemented = format!("`{{Self}}` does not implement the conversion hooks of `{kind}`");
    let module = ident(module);
    let hub_name = &hub.version.name;
    let module_doc = format!(
        " Conversion of `{kind}` between its versions, through the storage version `{hub_name}` (the hub), for a conversion webhook: every field with the same JSON path and schema is copied, and [`Hooks`] fills the others."
    );
    let no_hooks = hooks.is_empty().then(|| {
        quote! {
            /// Every field maps: there is nothing to implement.
            impl Hooks for () {}
        }
    });
    quote! {
        #[doc = #module_doc]
        pub mod #module {
            // Used or not as the crate converts (see `version_module`).
            #![allow(dead_code)]
            #[allow(unused_imports)]
            use ::crd_runtime::__private::conversion::hub::{self, FieldMap, Hook, Spoke};
            #[allow(unused_imports)]
            use ::crd_runtime::__private::schema::Compiled;

            /// The fields the generated mapping cannot convert, one method each: implement
            /// them on a type of yours and pass it to [`convert`] or [`convert_value`].
            /// A method gets the source object that holds its field; at the root, that is
            /// the object without its `metadata`, which the conversion carries over as it is.
            #[diagnostic::on_unimplemented(
                message = #unimplemented,
                note = "implement the trait's methods, one per field the versions do not share (see `UNMAPPED`)"
            )]
            pub trait Hooks {
                #( #trait_methods )*
            }

            #no_hooks

            /// The fields [`Hooks`] fills: (from version, to version, JSON path).
            pub const UNMAPPED: &[(&str, &str, &str)] = &[ #( #unmapped ),* ];

            /// Converts `object`, at any version of this kind, to `desired`
            /// (`group/version`) through the hub; what the target's schema has no place
            /// for is pruned and listed in `dropped`.
            pub fn convert_value<H: Hooks>(
                object: ::crd_runtime::Value,
                desired: &str,
            ) -> ::crd_runtime::conversion::Result<::crd_runtime::Value> {
                #( #statics )*
                hub::via_hub(
                    object,
                    desired,
                    &Compiled::<#hub_ty>::new(),
                    &[ #( #spoke_values ),* ],
                )
            }

            /// Answers a conversion webhook's `ConversionReview` request with
            /// [`convert_value`]: `crd_runtime::review::respond(request, convert_value::<H>)`,
            /// less the checks of each object's `metadata`, which this conversion carries
            /// over untouched.
            pub fn respond<H: Hooks>(
                request: ::crd_runtime::review::ConversionRequest,
            ) -> ::crd_runtime::Value {
                ::crd_runtime::__private::review::respond_keeping_metadata(request, convert_value::<H>)
            }

            /// [`convert_value`] between the generated types.
            pub fn convert<H: Hooks, To: ::crd_runtime::CustomResource>(
                from: &impl ::crd_runtime::serde::Serialize,
            ) -> ::crd_runtime::conversion::Result<To> {
                hub::typed(from, convert_value::<H>)
            }
        }
    }
}

/// `super::version::Kind`.
fn root_path(r: &Root) -> TokenStream {
    let in_group = root_in_group(r);
    quote!(super::#in_group)
}

/// `version::Kind`, from the group's module.
fn root_in_group(r: &Root) -> TokenStream {
    let (m, t) = (ident(&r.module.version_mod), ident(&r.module.types[r.id].name));
    quote!(#m::#t)
}

fn hook_fns(hooks: &[HookSpec]) -> Vec<TokenStream> {
    hooks
        .iter()
        .map(|h| {
            let method = &h.method;
            let wrap = if h.optional { quote!(optional) } else { quote!(required) };
            quote! {
                |parent| hub::#wrap(H::#method(&hub::read(parent)?))
            }
        })
        .collect()
}

/// The field map from `from` to `to`, and the hooks it needs.
fn direction(from: &Root, to: &Root, methods: &mut std::collections::HashSet<String>) -> Direction {
    let mut walk = Walk {
        from,
        to,
        hooks: Vec::new(),
        methods,
    };
    let entries = walk.properties(&from.version.schema, &to.version.schema, Src::Root, Src::Root, "");
    Direction {
        map: quote!(FieldMap::Object(&[ #( #entries ),* ])),
        hooks: walk.hooks,
    }
}

/// A node's Rust type on one side of a conversion: the root type, a planned field
/// type, or plain JSON (below a node the plan keeps as JSON).
#[derive(Clone, Copy)]
enum Src<'t> {
    Root,
    Ty(&'t Ty),
    Json,
}

impl<'p, 'a> Root<'p, 'a> {
    fn rust_type(&self, src: Src) -> TokenStream {
        match src {
            Src::Root => root_path(self),
            Src::Ty(ty) => qualified_type(self.module, strip_option(ty)),
            Src::Json => quote!(::crd_runtime::Value),
        }
    }

    /// The struct of an object node.
    fn struct_def(&self, src: Src<'p>) -> Option<&'p StructDef<'a>> {
        match src {
            Src::Root => self.struct_by_id(self.id),
            Src::Ty(ty) => match strip_option(ty) {
                Ty::Named(id) => self.struct_by_id(*id),
                _ => None,
            },
            Src::Json => None,
        }
    }

    fn struct_by_id(&self, id: TypeId) -> Option<&'p StructDef<'a>> {
        let types: &'p [TypeDef<'a>] = &self.module.types;
        match &types[id].body {
            TypeBody::Struct(s) => Some(s),
            TypeBody::Root(root) => Some(&root.fields),
            TypeBody::Alias(target) => self.struct_by_id(*target),
            TypeBody::Enum(_) => None,
        }
    }

    /// The type of property `json` of an object node.
    fn field(&self, src: Src<'p>, json: &str) -> Option<&'p FieldDef<'a>> {
        self.struct_def(src)?.fields.iter().find(|f| f.json == json)
    }
}

/// The item or value type of an array or map node.
fn inner(src: Src<'_>) -> Src<'_> {
    match src {
        Src::Ty(ty) => match strip_option(ty) {
            Ty::Vec(inner) | Ty::Map(inner) => Src::Ty(strip_option(inner)),
            _ => Src::Json,
        },
        _ => Src::Json,
    }
}

struct Walk<'w, 'p, 'a> {
    from: &'w Root<'p, 'a>,
    to: &'w Root<'p, 'a>,
    hooks: Vec<HookSpec>,
    methods: &'w mut std::collections::HashSet<String>,
}

/// A schema node's shape, for deciding whether values copy between versions.
fn shape(s: &ir::Schema) -> (Option<ir::Type>, bool, bool, bool) {
    (
        s.type_,
        s.int_or_string,
        s.preserve_unknown_fields && s.properties.is_empty(),
        s.embedded_resource,
    )
}

impl<'p> Walk<'_, 'p, '_> {
    /// The map of a node: `Ok(None)` when the value copies as it is, `Err(())` when
    /// the source cannot give the target's value (its schema has another shape).
    fn node(
        &mut self,
        f: &ir::Schema,
        t: &ir::Schema,
        from: Src<'p>,
        to: Src<'p>,
        path: &str,
    ) -> Result<Option<TokenStream>, ()> {
        // A target that keeps anything takes any value.
        let keeps_anything = t.preserve_unknown_fields
            && t.properties.is_empty()
            && t.additional_properties.is_none()
            && t.items.is_none();
        if keeps_anything {
            return Ok(None);
        }
        if shape(f) != shape(t) {
            return Err(());
        }
        match t.type_ {
            Some(ir::Type::Object) if !t.properties.is_empty() => {
                if f.properties.is_empty() {
                    return Err(());
                }
                let entries = self.properties(f, t, from, to, path);
                Ok((!entries.is_empty()).then(|| quote!(FieldMap::Object(&[ #( #entries ),* ]))))
            }
            Some(ir::Type::Object) => match (&f.additional_properties, &t.additional_properties) {
                (Some(ir::AdditionalProperties::Schema(fa)), Some(ir::AdditionalProperties::Schema(ta))) => {
                    let map = self.node(fa, ta, inner(from), inner(to), &format!("{path}[*]"))?;
                    Ok(map.map(|m| quote!(FieldMap::Values(&#m))))
                }
                (_, Some(ir::AdditionalProperties::Schema(_))) => Err(()),
                _ => Ok(None),
            },
            Some(ir::Type::Array) => match (&f.items, &t.items) {
                (Some(fi), Some(ti)) => {
                    let map = self.node(fi, ti, inner(from), inner(to), &format!("{path}[*]"))?;
                    Ok(map.map(|m| quote!(FieldMap::Items(&#m))))
                }
                (None, None) => Ok(None),
                _ => Err(()),
            },
            _ => Ok(None),
        }
    }

    /// The map entries of an object with properties: the properties that do not
    /// copy as they are (at the root, not `apiVersion`, `kind` and `metadata`).
    fn properties(
        &mut self,
        f: &ir::Schema,
        t: &ir::Schema,
        from: Src<'p>,
        to: Src<'p>,
        path: &str,
    ) -> Vec<TokenStream> {
        let mut entries = Vec::new();
        for (name, tp) in &t.properties {
            if path.is_empty() && matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            let child_path = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            let to_field = self.to.field(to, name);
            let from_child = self.from.field(from, name).map_or(Src::Json, |fd| Src::Ty(&fd.ty));
            let to_child = to_field.map_or(Src::Json, |fd| Src::Ty(&fd.ty));
            let mapped = match f.properties.get(name) {
                Some(fp) => self.node(fp, tp, from_child, to_child, &child_path),
                None => Err(()),
            };
            match mapped {
                Ok(None) => {}
                Ok(Some(map)) => entries.push(quote!((#name, #map))),
                Err(()) => {
                    let n = proc_macro2::Literal::usize_unsuffixed(self.hook(from, to_field, &child_path));
                    entries.push(quote!((#name, FieldMap::Hook(#n))));
                }
            }
        }
        entries
    }

    /// Adds the hook for the target field at `path`, read from the source object
    /// that holds it.
    fn hook(&mut self, parent: Src<'p>, field: Option<&FieldDef>, path: &str) -> usize {
        let (from, to) = (&self.from.version.name, &self.to.version.name);
        let words: Vec<String> = path
            .split(['.', '[', ']', '*'])
            .filter(|s| !s.is_empty())
            .map(names::snake_case)
            .collect();
        let method = names::unique(
            format!(
                "{}_{}_from_{}",
                names::snake_case(to),
                words.join("_"),
                names::snake_case(from)
            ),
            self.methods,
        );
        let (returns, optional) = match field {
            Some(fd) => {
                let ty = qualified_type(self.to.module, &fd.ty);
                match fd.presence {
                    Presence::Required => (ty, false),
                    Presence::RequiredNullable => (quote!(Option<#ty>), false),
                    Presence::Optional => (quote!(Option<#ty>), true),
                    Presence::OptionalNullable => (quote!(Option<Option<#ty>>), true),
                }
            }
            // A property inside a node the plan keeps as JSON.
            None => (quote!(Option<::crd_runtime::Value>), true),
        };
        self.hooks.push(HookSpec {
            method: ident(&method),
            from: from.clone(),
            to: to.clone(),
            path: path.to_string(),
            parent: self.from.rust_type(parent),
            returns,
            optional,
        });
        self.hooks.len() - 1
    }
}

fn strip_option(ty: &Ty) -> &Ty {
    match ty {
        Ty::Option(inner) => strip_option(inner),
        ty => ty,
    }
}

fn named_path(m: &Module, name: &str) -> TokenStream {
    let (v, t) = (ident(&m.version_mod), ident(name));
    quote!(super::#v::#t)
}

/// A field type written from a module beside the version modules.
fn qualified_type(m: &Module, ty: &Ty) -> TokenStream {
    match ty {
        Ty::String => quote!(String),
        Ty::I32 => quote!(i32),
        Ty::I64 => quote!(i64),
        Ty::F32 => quote!(f32),
        Ty::F64 => quote!(f64),
        Ty::Bool => quote!(bool),
        Ty::IntOrString => quote!(::crd_runtime::IntOrString),
        Ty::Value => quote!(::crd_runtime::Value),
        Ty::JsonMap => quote!(::crd_runtime::JsonMap),
        Ty::EmptyObject => quote!(::crd_runtime::EmptyObject),
        Ty::ObjectMeta => quote!(::crd_runtime::ObjectMeta),
        Ty::Vec(inner) => {
            let inner = qualified_type(m, inner);
            quote!(Vec<#inner>)
        }
        Ty::Map(inner) => {
            let inner = qualified_type(m, inner);
            quote!(::std::collections::BTreeMap<String, #inner>)
        }
        Ty::Option(inner) => {
            let inner = qualified_type(m, inner);
            quote!(Option<#inner>)
        }
        Ty::Named(id) => named_path(m, &m.types[*id].name),
    }
}
