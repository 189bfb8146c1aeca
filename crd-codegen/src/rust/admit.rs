//! Rust for admission: `impl ObjectSchema` for every generated object type (its
//! `fn shape()` written as text, see [`super::text`]) and `impl CustomResource` for
//! every root type.
//!
//! A type's schema is emitted as data: `ObjectSchema::shape` returns a tree of
//! `static` `crd_runtime::shape::Shape`s (a node of another generated type points at
//! that type's `shape`), and `crd_runtime::shape` walks it for pruning, defaulting,
//! validation, the fast validity check, ratchet equality and list-type checks: the
//! API server's algorithms compiled once in crd-runtime instead of a function per
//! type and step in the user's crate, whose build pays for every generated line.
//! The embedded-resource steps (`objectmeta.Coerce`/`Validate`), which few schemas
//! need, are still emitted per type as code.

use super::plan::{Module, TypeBody, TypeDef};
use super::text::{Expr, TextItems, Writer, string_literal};
use crate::ir::{self, AdditionalProperties, ListType, Schema};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;
use std::cell::Cell;
use std::collections::HashMap;

/// Emits the admission impls of one module's types.
pub struct AdmitEmitter<'a> {
    /// Schema node → name of the generated struct (or alias) for it.
    named: HashMap<*const Schema, (&'a str, Span)>,
    /// Counter for unique local names (statics).
    counter: Cell<usize>,
    /// `static`s of the function being emitted (as text), placed at its top.
    statics: std::cell::RefCell<Vec<String>>,
    /// The function's `Node` statics by their definition, to define each once.
    node_statics: std::cell::RefCell<HashMap<String, String>>,
    /// Whether [`AdmitEmitter::with_spans`] gave named types spans of their own.
    spanned: bool,
    /// `fn shape()` given by the caller, in place of the static data (a derived type
    /// whose schema is complete only at run time).
    shape: Option<TokenStream>,
}

/// How a named type's impl is called: a derived field type's through the trait, so
/// one without the impl is one error (the trait's), not one per missing method.
fn qualified(t: &Ident, s: &Schema) -> TokenStream {
    if s.rust_type.is_some() {
        quote!(<#t as rt::schema::ObjectSchema>)
    } else {
        quote!(#t)
    }
}

/// Generated modules import `::crd_runtime as rt`.
fn rt() -> TokenStream {
    quote!(rt)
}

impl<'a> AdmitEmitter<'a> {
    pub fn new(module: &'a Module<'a>) -> Self {
        let named = module
            .types
            .iter()
            .filter(|t| matches!(t.body, TypeBody::Struct(_) | TypeBody::Alias(_)))
            .filter(|t| !matches!(t.body, TypeBody::Alias(target) if matches!(module.types[target].body, TypeBody::Enum(_))))
            .map(|t| (t.schema as *const Schema, (t.name.as_str(), Span::call_site())))
            .collect();
        AdmitEmitter {
            named,
            counter: Cell::new(0),
            statics: Default::default(),
            node_statics: Default::default(),
            spanned: false,
            shape: None,
        }
    }

    /// Names the types in `spans` with those spans (a derived type's field types, so
    /// that errors about them point at the field).
    /// Uses `shape` (a `fn shape()`) instead of writing the schema as static data.
    pub fn with_shape(mut self, shape: TokenStream) -> Self {
        self.shape = Some(shape);
        self
    }

    pub fn with_spans(mut self, spans: &HashMap<String, Span>) -> Self {
        for (name, span) in self.named.values_mut() {
            if let Some(s) = spans.get(*name) {
                *span = *s;
            }
        }
        self.spanned = true;
        self
    }

    fn fresh(&self, prefix: &str) -> Ident {
        let n = self.counter.get();
        self.counter.set(n + 1);
        format_ident!("{}_{}", prefix, n)
    }

    /// The named type generated for `s`, if any (other than `this`).
    fn named_type(&self, s: &Schema, this: Option<*const Schema>) -> Option<Ident> {
        let ptr = s as *const Schema;
        if Some(ptr) == this {
            return None;
        }
        self.named.get(&ptr).map(|(n, span)| Ident::new(n, *span))
    }

    /// `impl ObjectSchema` (and `impl CustomResource` for roots) for one type;
    /// `rules` is a root's `validate_rules` when it has rules, `walk_rules` a derived
    /// type's `ObjectSchema::walk_rules` (or nothing).
    pub fn type_impls(
        &self,
        texts: &mut TextItems,
        t: &TypeDef,
        rules: Option<TokenStream>,
        walk_rules: TokenStream,
    ) -> TokenStream {
        let is_root = matches!(t.body, TypeBody::Root(_));
        if !matches!(t.body, TypeBody::Struct(_) | TypeBody::Root(_)) {
            return TokenStream::new();
        }
        let name = Ident::new(&t.name, Span::call_site());
        let s = t.schema;
        let this = Some(s as *const Schema);
        let rt = rt();
        let shape = match &self.shape {
            Some(shape) => shape.clone(),
            None => self.shape_fn(texts, s, this, is_root),
        };
        let coerce = if has_embedded_below(s) || (s.embedded_resource && !is_root) {
            let body = self.coerce_node(s, this, s.embedded_resource && !is_root);
            quote! {
                fn coerce_embedded(
                    value: &mut #rt::Value,
                    path: &#rt::Path,
                    cx: &mut #rt::objectmeta::Coercion,
                ) -> Result<(), #rt::FieldError> {
                    #body
                }
            }
        } else {
            TokenStream::new()
        };
        let embedded_fn = if has_embedded_below(s) || (s.embedded_resource && !is_root) {
            let body = self.embedded_node(s, quote!(value), quote!(path), this, is_root);
            quote! {
                fn validate_embedded(value: &#rt::Value, path: &#rt::Path, errs: &mut #rt::ErrorList) {
                    #body
                }
            }
        } else {
            TokenStream::new()
        };
        let root_impl = match &t.body {
            TypeBody::Root(root) => self.custom_resource_impl(&name, root.crd, root.version, rules),
            _ => TokenStream::new(),
        };
        quote! {
            impl #rt::schema::ObjectSchema for #name {
                #shape

                #coerce

                #embedded_fn

                #walk_rules
            }

            #root_impl
        }
    }

    // ---- the type's schema as static data ----

    /// `fn shape()`: the statics describing the type's schema, which the steps of
    /// `crd_runtime::shape` walk. The resource root is marked as one: it is pruned as
    /// an embedded resource, and its `apiVersion` and `kind` do not ratchet. Written
    /// as text (see [`super::text`]): it is about a third of the generated source.
    fn shape_fn(&self, texts: &mut TextItems, s: &Schema, this: Option<*const Schema>, is_root: bool) -> TokenStream {
        let mut defs = ShapeStatics::default();
        let root = self.shape_static(s, this, is_root, &mut defs);
        let node_statics = self.take_statics();
        let mut w = Writer::nested(1);
        w.open("fn shape() -> &'static rt::shape::Shape {");
        for text in node_statics.iter().chain(&defs.statics) {
            w.lines(text);
        }
        w.line(&format!("&{root}"));
        w.close("}");
        let tokens = texts.item(w.finish());
        self.respan(tokens)
    }

    /// `tokens` with the named types given spans by [`AdmitEmitter::with_spans`]
    /// spanned so (text parsed into tokens has none).
    fn respan(&self, tokens: TokenStream) -> TokenStream {
        if !self.spanned {
            return tokens;
        }
        let spans: HashMap<&str, Span> = self.named.values().map(|(name, span)| (*name, *span)).collect();
        respan_idents(tokens, &spans)
    }

    /// The static for node `s` (after those of its children): a shared shape of the
    /// runtime for a bare leaf, else a static, one per distinct definition. Returns
    /// what names it.
    fn shape_static(
        &self,
        s: &Schema,
        this: Option<*const Schema>,
        resource_root: bool,
        defs: &mut ShapeStatics,
    ) -> String {
        let named = self.named_type(s, this);
        // The type's own node, when it has properties, gets a compiled `is_valid`
        // (the hot step), which names the node's static: `ROOT`.
        let type_root = Some(s as *const Schema) == this && !s.properties.is_empty();
        let reference = |name: &str| Expr::atom(format!("&{name}"));
        // Everything but the node's value keywords.
        let mut fields: Vec<(&'static str, Expr)> = Vec::new();
        if named.is_none() {
            if !s.properties.is_empty() {
                // The runtime's lookup order: by length, then by name.
                let mut props: Vec<(&String, &Schema)> = s.properties.iter().collect();
                props.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| a.0.cmp(b.0)));
                let by_len = by_len(props.iter().map(|(k, _)| k.len()));
                let props: Vec<(&String, String, bool)> = props
                    .into_iter()
                    .map(|(k, c)| (k, self.shape_static(c, this, false, defs), s.required.contains(k)))
                    .collect();
                if type_root {
                    defs.statics.push(compiled_is_valid(&props));
                    fields.push(("is_valid", Expr::atom("Some(is_valid)")));
                }
                let props = props
                    .iter()
                    .map(|(k, c, required)| {
                        let args = vec![
                            Expr::atom(string_literal(k)),
                            reference(c),
                            Expr::atom(required.to_string()),
                        ];
                        Expr::call("rt::shape::Property::new", args)
                    })
                    .collect();
                fields.push(("properties", Expr::Array("&".into(), props)));
                if let Some(by_len) = by_len {
                    let counts = by_len.iter().map(|n| Expr::atom(n.to_string())).collect();
                    fields.push(("by_len", Expr::Array("&".into(), counts)));
                }
            }
            match &s.additional_properties {
                Some(AdditionalProperties::Bool(b)) => {
                    fields.push(("additional", Expr::atom(format!("rt::shape::Additional::Bool({b})"))))
                }
                Some(AdditionalProperties::Schema(c)) => {
                    let c = self.shape_static(c, this, false, defs);
                    fields.push((
                        "additional",
                        Expr::call("rt::shape::Additional::Schema", vec![reference(&c)]),
                    ));
                }
                None => {}
            }
            if let Some(items) = &s.items {
                let c = self.shape_static(items, this, false, defs);
                fields.push(("items", Expr::call("Some", vec![reference(&c)])));
            }
            if !s.required.is_empty() {
                fields.push(("required", string_slice(&s.required)));
            }
            for (name, branches) in [("all_of", &s.all_of), ("any_of", &s.any_of), ("one_of", &s.one_of)] {
                if !branches.is_empty() {
                    let branches = branches
                        .iter()
                        .map(|b| reference(&self.shape_static(b, this, false, defs)))
                        .collect();
                    fields.push((name, Expr::Array("&".into(), branches)));
                }
            }
            if let Some(not) = &s.not {
                let not = self.shape_static(not, this, false, defs);
                fields.push(("not", Expr::call("Some", vec![reference(&not)])));
            }
            if s.preserve_unknown_fields {
                fields.push(("preserve_unknown_fields", Expr::atom("true")));
            }
            if s.embedded_resource {
                fields.push(("embedded_resource", Expr::atom("true")));
            }
            if resource_root {
                fields.push(("resource_root", Expr::atom("true")));
            }
            if let Some(t) = s.list_type {
                fields.push(("list_type", Expr::atom(format!("Some(rt::listtype::ListType::{t:?})"))));
            }
            if !s.list_map_keys.is_empty() {
                fields.push(("list_map_keys", string_slice(&s.list_map_keys)));
            }
        }
        if s.nullable {
            fields.push(("nullable", Expr::atom("true")));
        }
        if let Some(d) = &s.default {
            fields.push(("default", Expr::call("Some", vec![lit_expr(d)])));
        }
        if has_defaults(s) {
            fields.push(("has_defaults", Expr::atom("true")));
        }
        if has_lists_at_or_below(s) {
            fields.push(("has_lists", Expr::atom("true")));
        }
        // What the static starts from: the other type's shape, or the node's value
        // keywords.
        let base = match &named {
            Some(t) => Expr::call(
                "rt::shape::Shape::typed",
                vec![Expr::atom(format!("<{t} as rt::schema::ObjectSchema>::shape"))],
            ),
            None => {
                let shared = shared_node(s);
                if let Some(shared) = shared.filter(|_| fields.is_empty()) {
                    return format!("rt::shape::Shape::{shared}");
                }
                match shared {
                    Some("ANY") => Expr::atom("rt::shape::Shape::EMPTY"),
                    Some("STRING" | "INTEGER" | "NUMBER" | "BOOLEAN" | "OBJECT" | "ARRAY") => {
                        Expr::call("rt::shape::Shape::bare", vec![reference(&self.node_static(s))])
                    }
                    _ => Expr::call("rt::shape::Shape::with_node", vec![reference(&self.node_static(s))]),
                }
            }
        };
        let body = if fields.is_empty() {
            base
        } else {
            Expr::Struct("rt::shape::Shape".into(), fields, Some(Box::new(base)))
        };
        if type_root {
            defs.statics.push(static_item("ROOT", "rt::shape::Shape", &body));
            return "ROOT".into();
        }
        let mut key = String::new();
        body.flat(&mut key);
        if let Some(existing) = defs.by_definition.get(&key) {
            return existing.clone();
        }
        let name = self.fresh("SHAPE").to_string();
        defs.statics.push(static_item(&name, "rt::shape::Shape", &body));
        defs.by_definition.insert(key, name.clone());
        name
    }

    fn custom_resource_impl(
        &self,
        name: &Ident,
        crd: &ir::Crd,
        v: &ir::Version,
        rules: Option<TokenStream>,
    ) -> TokenStream {
        let rt = rt();
        let namespaced = crd.scope == ir::Scope::Namespaced;
        let scale = match &v.subresources.scale {
            None => quote!(None),
            Some(sc) => {
                let spec = &sc.spec_replicas_path;
                let status = &sc.status_replicas_path;
                let selector = match &sc.label_selector_path {
                    Some(s) => quote!(Some(#s)),
                    None => quote!(None),
                };
                quote! {
                    Some(#rt::admission::ScalePaths {
                        spec_replicas: #spec,
                        status_replicas: #status,
                        label_selector: #selector,
                    })
                }
            }
        };
        let status = v.subresources.status;
        let printer_columns = (!v.printer_columns.is_empty()).then(|| {
            let columns = v.printer_columns.iter().map(|c| {
                let (name, type_, format, description, json_path) =
                    (&c.name, &c.type_, &c.format, &c.description, &c.json_path);
                let priority = proc_macro2::Literal::i32_unsuffixed(c.priority);
                quote! {
                    #rt::table::PrinterColumn {
                        name: #name,
                        type_: #type_,
                        format: #format,
                        description: #description,
                        priority: #priority,
                        json_path: #json_path,
                    }
                }
            });
            quote! {
                const PRINTER_COLUMNS: &'static [#rt::table::PrinterColumn<'static>] = &[#( #columns ),*];
            }
        });
        // A derived root says itself whether its types have rules (`has_rules` among
        // the tokens); a generated one knows.
        let rules = rules.map(|validate_rules| {
            if uses_ident(&validate_rules, "has_rules") {
                validate_rules
            } else {
                quote! {
                    fn has_rules() -> bool {
                        true
                    }

                    #validate_rules
                }
            }
        });
        quote! {
            impl #rt::schema::CustomResource for #name {
                const NAMESPACED: bool = #namespaced;
                const SCALE: Option<#rt::admission::ScalePaths<'static>> = #scale;
                const STATUS: bool = #status;
                #printer_columns
                #rules
            }
        }
    }

    // ---- value keywords ----

    fn take_statics(&self) -> Vec<String> {
        self.node_statics.borrow_mut().clear();
        std::mem::take(&mut *self.statics.borrow_mut())
    }

    /// The node's value keywords: a shared constant of the runtime when they are
    /// only a type, else a `static` added to the function's statics. Returns what
    /// names it.
    fn node_static(&self, s: &Schema) -> String {
        if let Some(shared) = shared_node(s) {
            return format!("rt::Node::{shared}");
        }
        let types_value = runtime_types(s);
        let types = match types_value {
            crd_runtime::openapi::Types::IntOrString => "rt::openapi::Types::IntOrString".to_string(),
            crd_runtime::openapi::Types::One(t) => format!("rt::openapi::Types::One(rt::openapi::JsonType::{t:?})"),
            crd_runtime::openapi::Types::None => "rt::openapi::Types::None".to_string(),
        };
        let mut fields: Vec<(&'static str, Expr)> = vec![("types", Expr::Atom(types))];
        if s.nullable {
            fields.push(("nullable", Expr::atom("true")));
        }
        if let Some(f) = s
            .format
            .as_deref()
            .filter(|f| crd_runtime::openapi::supported_format(f, types_value))
        {
            fields.push(("format", Expr::Atom(string_literal(f))));
        }
        let some = |v: String| Expr::call("Some", vec![Expr::Atom(v)]);
        for (name, v) in [("max_length", s.max_length), ("min_length", s.min_length)] {
            fields.extend(v.map(|v| (name, some(format!("{v}i64")))));
        }
        for (name, v) in [
            ("multiple_of", s.multiple_of),
            ("maximum", s.maximum),
            ("minimum", s.minimum),
        ] {
            fields.extend(v.map(|v| (name, some(format!("{v}f64")))));
        }
        if s.exclusive_maximum {
            fields.push(("exclusive_maximum", Expr::atom("true")));
        }
        if s.exclusive_minimum {
            fields.push(("exclusive_minimum", Expr::atom("true")));
        }
        for (name, v) in [("max_items", s.max_items), ("min_items", s.min_items)] {
            fields.extend(v.map(|v| (name, some(format!("{v}i64")))));
        }
        if s.unique_items {
            fields.push(("unique_items", Expr::atom("true")));
        }
        for (name, v) in [
            ("max_properties", s.max_properties),
            ("min_properties", s.min_properties),
        ] {
            fields.extend(v.map(|v| (name, some(format!("{v}i64")))));
        }
        let mut key = String::new();
        for (name, value) in &fields {
            key.push_str(name);
            value.flat(&mut key);
            key.push('|');
        }
        key.push_str(&format!("{:?}|{:?}", s.pattern, s.enum_));
        if let Some(existing) = self.node_statics.borrow().get(&key) {
            return existing.clone();
        }
        let name = self.fresh("NODE").to_string();
        self.node_statics.borrow_mut().insert(key, name.clone());
        let mut statics = self.statics.borrow_mut();
        if let Some(pattern) = &s.pattern {
            let pname = self.fresh("PATTERN").to_string();
            let new = Expr::call("rt::regex::Pattern::new", vec![Expr::Atom(string_literal(pattern))]);
            statics.push(static_item(&pname, "rt::regex::Pattern", &new));
            fields.push(("pattern", some(format!("&{pname}"))));
        }
        if !s.enum_.is_empty() {
            fields.push((
                "enum_values",
                Expr::Array("&".into(), s.enum_.iter().map(lit_expr).collect()),
            ));
            let strings: Vec<String> = s.enum_.iter().filter_map(Value::as_str).map(string_literal).collect();
            let matcher = if strings.is_empty() {
                Expr::atom("|_| false")
            } else {
                Expr::call("|s| matches!", vec![Expr::atom("s"), Expr::Alternatives(strings)])
            };
            fields.push(("enum_strings", Expr::call("Some", vec![matcher])));
        }
        let node = Expr::Struct("rt::Node".into(), fields, Some(Box::new(Expr::atom("rt::Node::EMPTY"))));
        statics.push(static_item(&name, "rt::Node", &node));
        name
    }

    /// A node whose `CachedDeepEqual` does not depend on its schema.
    fn is_equal_leaf(s: &Schema) -> bool {
        s.properties.is_empty()
            && s.additional_properties_schema().is_none()
            && !(s.items.is_some() && s.list_type == Some(ListType::Map) && !s.list_map_keys.is_empty())
    }

    // ---- ratchet equality ----

    /// [`Self::equal_node`] for any node of the module: `CachedDeepEqual` of `v` and
    /// `o` (both `&Value`) under `s`.
    pub fn equal_expr(&self, s: &Schema, v: TokenStream, o: TokenStream) -> TokenStream {
        self.equal_node(s, v, o, None)
    }

    /// A `bool` expression: `CachedDeepEqual` of `v` and `o` (both `&Value`) at `s`.
    fn equal_node(&self, s: &Schema, v: TokenStream, o: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        if let Some(t) = self.named_type(s, this) {
            let t = qualified(&t, s);
            return quote!(#t::ratchet_equal(#v, #o));
        }
        if Self::is_equal_leaf(s) {
            return quote!(#rt::schema::leaf_equal(#v, #o));
        }
        let has_keys = !s.properties.is_empty() || s.additional_properties_schema().is_some();
        let map_arm = has_keys.then(|| {
            let leaves: Vec<&String> = s
                .properties
                .iter()
                .filter(|(_, c)| self.named_type(c, this).is_none() && Self::is_equal_leaf(c))
                .map(|(k, _)| k)
                .collect();
            let leaf_arm =
                (!leaves.is_empty()).then(|| (quote!(#( #leaves )|*), quote!(#rt::schema::leaf_equal(nv, ov))));
            let prop_arms = s
                .properties
                .iter()
                .filter(|(k, _)| !leaves.contains(k))
                .map(|(k, prop)| {
                    let e = self.equal_node(prop, quote!(nv), quote!(ov), this);
                    (quote!(#k), e)
                });
            let prop_arms = leaf_arm.into_iter().chain(prop_arms).collect();
            let other = match s.additional_properties_schema() {
                Some(ap) => self.equal_node(ap, quote!(nv), quote!(ov), this),
                None => quote!(false),
            };
            // (`leaf_equal` of two objects is not the same: with no schema for their
            // keys, only empty objects are equal.)
            let body = match_arms(quote!(key), prop_arms, Some(other));
            let key_param = param("key", &body);
            quote! {
                (#rt::Value::Object(_), #rt::Value::Object(_)) => {
                    #rt::schema::fields_equal(#v, #o, &|#key_param, nv, ov| #body)
                }
            }
        });
        let array_arm = s
            .items
            .as_deref()
            .and_then(|items| match (s.list_type, s.list_map_keys.is_empty()) {
                (Some(ListType::Map), false) => {
                    let keys = &s.list_map_keys;
                    let e = self.equal_node(items, quote!(nv), quote!(ov), this);
                    Some(quote! {
                        (#rt::Value::Array(na), #rt::Value::Array(oa)) => {
                            na.len() == oa.len()
                                && na.iter().enumerate().all(|(i, nv)| {
                                    match #rt::ratchet::map_list_old(na, Some(#o), i, &[ #( #keys ),* ]) {
                                        None => false,
                                        Some(ov) => #e,
                                    }
                                })
                        }
                    })
                }
                _ => None,
            });
        if map_arm.is_none() && array_arm.is_none() {
            return quote!(#rt::schema::leaf_equal(#v, #o));
        }
        quote! {
            match (#v, #o) {
                #map_arm
                #array_arm
                _ => #rt::schema::leaf_equal(#v, #o),
            }
        }
    }

    // ---- embedded resources ----

    /// The body of `coerce_embedded` for node `s` at `value`/`path`: `objectmeta.Coerce`
    /// walks the keys (sorted), coercing an embedded resource's `apiVersion`, `kind`
    /// and `metadata` and descending into properties, map values and items.
    fn coerce_node(&self, s: &Schema, this: Option<*const Schema>, embedded: bool) -> TokenStream {
        let rt = rt();
        let child = |c: &Schema, var: TokenStream, path: TokenStream| -> TokenStream {
            match self.named_type(c, this) {
                Some(t) => {
                    let t = qualified(&t, c);
                    quote!(#t::coerce_embedded(#var, #path, cx)?;)
                }
                None => {
                    let body = self.coerce_node(c, this, c.embedded_resource);
                    quote! {
                        {
                            let value: &mut #rt::Value = #var;
                            let path: &#rt::Path = #path;
                            let _ = (&value, path);
                            { #body }?;
                        }
                    }
                }
            }
        };
        let own = embedded.then(|| {
            quote! {
                if matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                    #rt::objectmeta::coerce_embedded_field(path, map, &key, cx)?;
                    continue;
                }
            }
        });
        let prop_arms: Vec<Arm> = s
            .properties
            .iter()
            .filter(|(_, c)| has_embedded_at_or_below(c))
            .map(|(k, c)| {
                let code = child(c, quote!(child), quote!(&path.field(&key)));
                (quote!(#k), quote!({ if let Some(child) = map.get_mut(&key) { #code } }))
            })
            .collect();
        // additionalProperties never apply to declared properties.
        let ap = s
            .additional_properties_schema()
            .filter(|c| has_embedded_at_or_below(c))
            .map(|ap| {
                let code = child(ap, quote!(child), quote!(&path.key(&key)));
                let known: Vec<&String> = s.properties.keys().collect();
                let code = quote!(if let Some(child) = map.get_mut(&key) { #code });
                if known.is_empty() {
                    code
                } else {
                    quote!(if !matches!(key.as_str(), #( #known )|* ) { #code })
                }
            });
        let dispatch = match_arms(quote!(key.as_str()), prop_arms, ap);
        let items = s.items.as_deref().filter(|i| has_embedded_at_or_below(i)).map(|items| {
            let code = child(items, quote!(item), quote!(&path.index(i)));
            quote! {
                if let #rt::Value::Array(items) = value {
                    for (i, item) in items.iter_mut().enumerate() {
                        #code
                    }
                }
            }
        });
        let has_map_work = embedded
            || s.properties.values().any(has_embedded_at_or_below)
            || s.additional_properties_schema().is_some_and(has_embedded_at_or_below);
        let map_part = has_map_work.then(|| {
            quote! {
                if let #rt::Value::Object(map) = value {
                    let keys: Vec<String> = map.keys().cloned().collect();
                    for key in keys {
                        #own
                        #dispatch
                    }
                }
            }
        });
        quote! {
            #map_part
            #items
            Ok(())
        }
    }

    /// `objectmeta.Validate` at a node: its own embedded checks, then its children.
    fn embedded_node(
        &self,
        s: &Schema,
        v: TokenStream,
        p: TokenStream,
        this: Option<*const Schema>,
        is_root: bool,
    ) -> TokenStream {
        let rt = rt();
        let own = (s.embedded_resource && !is_root).then(|| {
            quote! {
                if let #rt::Value::Object(map) = #v {
                    errs.extend(#rt::objectmeta::validate_embedded_resource(#p, map));
                }
            }
        });
        let child = |c: &Schema, var: TokenStream, path: TokenStream| -> TokenStream {
            match self.named_type(c, this) {
                Some(t) if has_embedded_at_or_below(c) => {
                    let t = qualified(&t, c);
                    quote!(#t::validate_embedded(#var, #path, errs);)
                }
                Some(_) => TokenStream::new(),
                None if has_embedded_at_or_below(c) => self.embedded_node(c, var, path, this, false),
                None => TokenStream::new(),
            }
        };
        let prop_arms: Vec<Arm> = s
            .properties
            .iter()
            .filter(|(_, c)| has_embedded_at_or_below(c))
            .map(|(k, c)| {
                let code = child(c, quote!(child), quote!(child_path));
                (quote!(#k), quote!({ let child_path = &#p.field(#k); #code }))
            })
            .collect();
        // additionalProperties never apply to declared properties.
        let other = s
            .additional_properties_schema()
            .filter(|c| has_embedded_at_or_below(c))
            .map(|ap| {
                let code = child(ap, quote!(child), quote!(child_path));
                let code = quote!({ let child_path = &#p.key(key); #code });
                let known: Vec<&String> = s.properties.keys().collect();
                if known.is_empty() {
                    code
                } else {
                    quote!(if !matches!(key.as_str(), #( #known )|* ) #code)
                }
            });
        let object = (!prop_arms.is_empty() || other.is_some()).then(|| {
            let body = match_arms(quote!(key.as_str()), prop_arms, other);
            let child_param = param("child", &body);
            (
                quote!(#rt::Value::Object(map)),
                quote! {
                    for (key, #child_param) in map.iter() {
                        #body
                    }
                },
            )
        });
        let items = s.items.as_deref().filter(|i| has_embedded_at_or_below(i)).map(|items| {
            let code = child(items, quote!(child), quote!(child_path));
            (
                quote!(#rt::Value::Array(items)),
                quote!(for (i, child) in items.iter().enumerate() { let child_path = &#p.index(i); #code }),
            )
        });
        let children = match_arms(v, object.into_iter().chain(items).collect(), None);
        quote!(#own #children)
    }
}

/// The shape statics of one type, and their names by definition.
#[derive(Default)]
struct ShapeStatics {
    statics: Vec<String>,
    by_definition: HashMap<String, String>,
}

/// A match arm: a pattern and its body (an expression or a block).
pub(crate) type Arm = (TokenStream, TokenStream);

/// `match scrutinee { arms.. _ => default }`, written the way a person would write it:
/// only the default when there are no arms, and an `if` for a single arm when the
/// default does nothing (`default` is `None`: the statement `{}`).
pub(crate) fn match_arms(scrutinee: TokenStream, arms: Vec<Arm>, default: Option<TokenStream>) -> TokenStream {
    match (arms.len(), default) {
        (0, None) => TokenStream::new(),
        (0, Some(d)) => d,
        (1, None) => {
            let (pat, body) = &arms[0];
            let body = unbrace(body);
            let cond = if is_literal_pattern(pat) {
                quote!(matches!(#scrutinee, #pat))
            } else {
                quote!(let #pat = #scrutinee)
            };
            if_block(cond, body)
        }
        (_, default) => {
            let arms = arms.iter().map(|(pat, body)| quote!(#pat => #body,));
            let default = default.unwrap_or(quote!({}));
            quote! {
                match #scrutinee {
                    #( #arms )*
                    _ => #default,
                }
            }
        }
    }
}

/// `if cond { body }`, written `if cond && b { .. }` when the body is one `if b { .. }`
/// and neither condition is a `let` (let chains need edition 2024, and generated code
/// must compile in the user's edition, 2018 onwards).
fn if_block(cond: TokenStream, body: TokenStream) -> TokenStream {
    match lone_if(&body).filter(|inner| !has_let(&cond) && !has_let(inner)) {
        Some(inner) => quote!(if #cond && #inner),
        None => quote!(if #cond { #body }),
    }
}

/// Whether a condition has a `let` outside any group (`let P = v`, `a && let P = v`).
fn has_let(cond: &TokenStream) -> bool {
    cond.clone()
        .into_iter()
        .any(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "let"))
}

/// For a body that is one `if` without `else`, what follows the `if`.
fn lone_if(body: &TokenStream) -> Option<TokenStream> {
    let tokens: Vec<proc_macro2::TokenTree> = body.clone().into_iter().collect();
    let is_if = matches!(tokens.first(), Some(proc_macro2::TokenTree::Ident(i)) if i == "if");
    let ends_in_block = matches!(tokens.last(), Some(proc_macro2::TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Brace);
    let single = tokens.iter().all(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i != "else",
        proc_macro2::TokenTree::Punct(p) => p.as_char() != ';',
        _ => true,
    });
    // A brace group before the last one would be a second statement (`if a {} f();`
    // has a `;`, but `if a {} if b {}` has none).
    let blocks = tokens
        .iter()
        .filter(|t| matches!(t, proc_macro2::TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::Brace))
        .count();
    (is_if && ends_in_block && single && blocks == 1).then(|| tokens[1..].iter().cloned().collect())
}

/// The statements of a block (`{ a; b }` → `a; b`), or the expression itself.
fn unbrace(body: &TokenStream) -> TokenStream {
    let mut tokens = body.clone().into_iter();
    match (tokens.next(), tokens.next()) {
        (Some(proc_macro2::TokenTree::Group(g)), None) if g.delimiter() == proc_macro2::Delimiter::Brace => g.stream(),
        _ => body.clone(),
    }
}

/// Whether a pattern is only string literals (`"a" | "b"`).
fn is_literal_pattern(pat: &TokenStream) -> bool {
    pat.clone().into_iter().all(|t| match t {
        proc_macro2::TokenTree::Literal(_) => true,
        proc_macro2::TokenTree::Punct(p) => p.as_char() == '|',
        _ => false,
    })
}

/// A closure parameter named `name`, or `_` when `body` does not use it.
fn param(name: &str, body: &TokenStream) -> TokenStream {
    if uses_ident(body, name) {
        let ident = Ident::new(name, Span::call_site());
        quote!(#ident)
    } else {
        quote!(_)
    }
}

/// Whether `tokens` mention the identifier `name` (to leave closure parameters
/// unnamed when unused).
pub(crate) fn uses_ident(tokens: &TokenStream, name: &str) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => uses_ident(&g.stream(), name),
        _ => false,
    })
}

/// The node's `type` as the runtime's validator sees it.
fn runtime_types(s: &Schema) -> crd_runtime::openapi::Types {
    use crd_runtime::openapi::{JsonType, Types};
    if s.int_or_string {
        return Types::IntOrString;
    }
    match s.type_.and_then(|t| JsonType::parse(t.as_str())) {
        Some(t) => Types::One(t),
        None => Types::None,
    }
}

/// The runtime's shared `Node` constant for a node whose only keywords are a type
/// (and an integer format), if any.
fn shared_node(s: &Schema) -> Option<&'static str> {
    let bare = Schema {
        type_: s.type_,
        int_or_string: s.int_or_string,
        format: s.format.clone(),
        ..Default::default()
    };
    if s.own_keywords_for_validation() != bare.own_keywords_for_validation() {
        return None;
    }
    if s.int_or_string {
        return s.format.is_none().then_some("INT_OR_STRING");
    }
    let supported = |f: &str| crd_runtime::openapi::supported_format(f, runtime_types(s));
    let format = s.format.as_deref().filter(|f| supported(f));
    Some(match (s.type_, format) {
        (None, None) => "ANY",
        (Some(ir::Type::String), None) => "STRING",
        (Some(ir::Type::Integer), None) => "INTEGER",
        (Some(ir::Type::Integer), Some("int32")) => "INT32",
        (Some(ir::Type::Integer), Some("int64")) => "INT64",
        (Some(ir::Type::Number), None) => "NUMBER",
        (Some(ir::Type::Boolean), None) => "BOOLEAN",
        (Some(ir::Type::Object), None) => "OBJECT",
        (Some(ir::Type::Array), None) => "ARRAY",
        _ => return None,
    })
}

impl Schema {
    /// The keywords value validation reads at this node (not children, docs or
    /// extensions that only other steps use).
    fn own_keywords_for_validation(&self) -> (Option<ir::Type>, bool, bool, String, String) {
        let numbers = format!(
            "{:?}",
            (
                self.maximum,
                self.exclusive_maximum,
                self.minimum,
                self.exclusive_minimum,
                self.multiple_of,
                self.max_length,
                self.min_length,
                self.max_items,
                self.min_items,
                self.unique_items,
                self.max_properties,
                self.min_properties
            )
        );
        let others = format!("{:?}|{:?}|{:?}", self.pattern, self.enum_, self.format);
        (self.type_, self.nullable, self.int_or_string, numbers, others)
    }
}

/// Child schemas reached by the structural traversals (not junctors).
fn children(s: &Schema) -> impl Iterator<Item = &Schema> {
    s.properties
        .values()
        .chain(s.items.as_deref())
        .chain(s.additional_properties_schema())
}

// A derived type's node (`rust_type`) may have anything below it: the `has_*`
// functions say yes for it.

/// Whether `s` or a node below it (not counting derived types' nodes) has rules.
pub fn has_local_rules(s: &Schema) -> bool {
    !s.validations.is_empty() || children(s).any(has_local_rules) || s.all_of.iter().any(has_local_rules)
}

/// Whether any node of the structural spine at or below `s` has rules.
pub fn has_rules(s: &Schema) -> bool {
    s.rust_type.is_some() || !s.validations.is_empty() || children(s).any(has_rules)
}

/// Whether defaulting can change anything at or below `s`.
pub fn has_defaults(s: &Schema) -> bool {
    s.rust_type.is_some()
        || children(s).any(|c| c.default.is_some() || has_defaults(c))
        || s.items.as_deref().is_some_and(|i| !i.nullable && i.default.is_some())
}

fn has_embedded_at_or_below(s: &Schema) -> bool {
    s.rust_type.is_some() || s.embedded_resource || has_embedded_below(s)
}

fn has_embedded_below(s: &Schema) -> bool {
    children(s).any(has_embedded_at_or_below)
}

fn has_lists_at_or_below(s: &Schema) -> bool {
    s.rust_type.is_some() || matches!(s.list_type, Some(ListType::Set | ListType::Map)) || has_lists_below(s)
}

fn has_lists_below(s: &Schema) -> bool {
    children(s).any(has_lists_at_or_below)
}

/// An `openapi::Lit` for an enum or default value.
fn lit_expr(v: &Value) -> Expr {
    let lit =
        |variant: &str, value: String| Expr::call(format!("rt::openapi::Lit::{variant}"), vec![Expr::Atom(value)]);
    match v {
        Value::Null => Expr::atom("rt::openapi::Lit::Null"),
        Value::Bool(b) => lit("Bool", b.to_string()),
        Value::String(s) => lit("Str", string_literal(s)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => lit("Int", format!("{i}i64")),
            None => lit("Float", format!("{}f64", n.as_f64().unwrap_or_default())),
        },
        other => lit(
            "Json",
            string_literal(&serde_json::to_string(other).unwrap_or_default()),
        ),
    }
}

/// `&["a", "b"]`.
fn string_slice(strings: &[String]) -> Expr {
    Expr::Array(
        "&".into(),
        strings.iter().map(|s| Expr::Atom(string_literal(s))).collect(),
    )
}

/// `static name: ty = value;` as text inside `fn shape()` of an impl.
fn static_item(name: &str, ty: &str, value: &Expr) -> String {
    let mut w = Writer::nested(2);
    w.expr(&format!("static {name}: {ty} = "), value, ";");
    w.finish()
}

/// `tokens` with each identifier named in `spans` given that span.
fn respan_idents(tokens: TokenStream, spans: &HashMap<&str, Span>) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Ident(mut ident) => {
                if let Some(span) = spans.get(ident.to_string().as_str()) {
                    ident.set_span(*span);
                }
                TokenTree::Ident(ident)
            }
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), respan_idents(g.stream(), spans));
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            other => other,
        })
        .collect()
}

/// `Shape::by_len` for property names of these lengths, in ascending order: entry
/// `n` counts the names shorter than `n`, up to one past the longest. `None` when
/// the count does not fit the runtime's `u16` (the runtime then binary-searches).
fn by_len(lens: impl ExactSizeIterator<Item = usize> + Clone) -> Option<Vec<u16>> {
    u16::try_from(lens.len()).ok()?;
    let longest = lens.clone().max().unwrap_or(0);
    let table = (0..=longest + 1).map(|n| lens.clone().filter(|&l| l < n).count() as u16);
    Some(table.collect())
}

/// `fn is_valid` of a type's own node `ROOT` with these properties (name, shape,
/// required): `crd_runtime::shape::check` over the same data, with the lookup of
/// each key a `match`. Valid objects take this path on every request.
fn compiled_is_valid(props: &[(&String, String, bool)]) -> String {
    let seen = if props.iter().any(|p| p.2) { "seen" } else { "_" };
    let mut w = Writer::nested(2);
    w.open("fn is_valid(value: &rt::Value, trail: &mut rt::shape::Trail) -> bool {");
    w.open("rt::shape::object_valid(");
    w.line("&ROOT,");
    w.line("value,");
    w.line("trail,");
    w.open(&format!("|key, child, trail, {seen}| match key {{"));
    for (k, c, required) in props {
        let key = string_literal(k);
        let shape = format!("&{c}");
        if *required {
            w.call(
                &format!("{key} => rt::shape::check_required"),
                &[&shape, "child", "trail", "seen"],
                ",",
            );
        } else {
            w.call(&format!("{key} => rt::shape::check"), &[&shape, "child", "trail"], ",");
        }
    }
    w.line("_ => rt::shape::other_key_ok(&ROOT, child, trail),");
    w.close("},");
    w.close(")");
    w.close("}");
    w.finish()
}

#[cfg(test)]
mod tests {
    #[test]
    fn by_len_counts_the_names_shorter_than_each_length() {
        assert_eq!(super::by_len([1, 3, 3, 5].into_iter()), Some(vec![0, 0, 1, 1, 3, 3, 4]));
        assert_eq!(super::by_len([0usize; 0].into_iter()), Some(vec![0, 0]));
    }
}
