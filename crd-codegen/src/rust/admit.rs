//! Rust tokens for admission: `impl ObjectSchema` for every generated object type and
//! `impl CustomResource` for every root type.
//!
//! Each traversal follows the API server's recursive algorithm over the schema
//! (`prune`/`skipPrune`, `PruneNonNullableNullsWithoutDefaults`, `Default`,
//! kube-openapi's `SchemaValidator`, ratcheting's `CachedDeepEqual`,
//! `objectmeta.Coerce`/`Validate`, `listtype.ValidateListSetsAndMaps`), specialised
//! to one schema: the structure is compiled into `match`es on keys and loops, a
//! nested named type is a call to its own impl, and what happens at one node is a
//! call into `crd_runtime::openapi` with that node's keywords as a `static`.

use super::plan::{Module, TypeBody, TypeDef};
use crate::ir::{self, AdditionalProperties, ListType, Schema};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;
use std::cell::Cell;
use std::collections::HashMap;

/// Emits the admission impls of one module's types.
pub struct AdmitEmitter<'a> {
    /// Schema node → name of the generated struct (or alias) for it.
    named: HashMap<*const Schema, &'a str>,
    /// Counter for unique local names (statics).
    counter: Cell<usize>,
    /// `static`s of the function being emitted, placed at its top.
    statics: std::cell::RefCell<Vec<TokenStream>>,
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
            .map(|t| (t.schema as *const Schema, t.name.as_str()))
            .collect();
        AdmitEmitter {
            named,
            counter: Cell::new(0),
            statics: Default::default(),
        }
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
        self.named.get(&ptr).map(|n| Ident::new(n, Span::call_site()))
    }

    /// `impl ObjectSchema` (and `impl CustomResource` for roots) for one type.
    pub fn type_impls(&self, t: &TypeDef) -> TokenStream {
        let is_root = matches!(t.body, TypeBody::Root(_));
        if !matches!(t.body, TypeBody::Struct(_) | TypeBody::Root(_)) {
            return TokenStream::new();
        }
        let name = Ident::new(&t.name, Span::call_site());
        let s = t.schema;
        let this = Some(s as *const Schema);
        let rt = rt();
        // The resource root is pruned, coerced and validated as an embedded resource.
        let embedded = is_root || s.embedded_resource;

        let prune = self.prune_object_body(s, this, embedded);
        let drop_nulls = self.drop_nulls_node(s, quote!(value), this);
        let default = if has_defaults(s) {
            let body = self.default_node(s, quote!(value), this);
            quote!(fn default_value(value: &mut #rt::Value) { #body })
        } else {
            quote!(fn default_value(_value: &mut #rt::Value) {})
        };
        let validate = {
            let node = self.node_expr(s, &quote!(value), &quote!(old), &quote!(path), None, is_root);
            let statics = self.take_statics();
            quote! {
                #( #statics )*
                let node_res = #node;
                #rt::schema::merge_ratcheted(res, node_res, old, |old| {
                    <Self as #rt::schema::ObjectSchema>::ratchet_equal(value, old)
                });
            }
        };
        let equal = self.equal_node(s, quote!(value), quote!(old), this);
        let coerce = if has_embedded_below(s) || (s.embedded_resource && !is_root) {
            let body = if is_root {
                self.coerce_children(s, quote!(value), this)
            } else {
                self.coerce_node(s, quote!(value), this)
            };
            quote! {
                fn coerce_embedded(value: &mut #rt::Value) {
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
        let lists_fn = if has_lists_below(s) {
            let body = self.lists_object(s, quote!(value), quote!(path), this);
            quote! {
                fn validate_lists(value: &#rt::Value, path: &#rt::Path, errs: &mut #rt::ErrorList) {
                    #body
                }
            }
        } else {
            TokenStream::new()
        };
        let root_impl = match &t.body {
            TypeBody::Root(root) => self.custom_resource_impl(&name, root.crd, root.version),
            _ => TokenStream::new(),
        };
        quote! {
            impl #rt::schema::ObjectSchema for #name {
                fn prune(value: &mut #rt::Value, path: &#rt::Path, pruned: &mut Vec<String>) {
                    #prune
                }

                fn drop_nulls(value: &mut #rt::Value) {
                    #drop_nulls
                }

                #coerce

                #default

                fn validate_value(
                    value: &#rt::Value,
                    old: Option<&#rt::Value>,
                    path: &#rt::Path,
                    res: &mut #rt::openapi::Res,
                ) {
                    #validate
                }

                fn ratchet_equal(value: &#rt::Value, old: &#rt::Value) -> bool {
                    #equal
                }

                #embedded_fn

                #lists_fn
            }

            #root_impl
        }
    }

    fn custom_resource_impl(&self, name: &Ident, crd: &ir::Crd, v: &ir::Version) -> TokenStream {
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
        quote! {
            impl #rt::schema::CustomResource for #name {
                const NAMESPACED: bool = #namespaced;
                const SCALE: Option<#rt::admission::ScalePaths<'static>> = #scale;
            }
        }
    }

    // ---- prune ----

    /// The body of `prune` for an object type's own node.
    fn prune_object_body(&self, s: &Schema, this: Option<*const Schema>, embedded: bool) -> TokenStream {
        if s.preserve_unknown_fields {
            self.skip_prune_node(s, quote!(value), quote!(path), this, embedded)
        } else {
            self.prune_map_array(s, quote!(value), quote!(path), this, embedded)
        }
    }

    /// `prune(v, s)` for a node reached through a property, item or map value.
    fn prune_node(&self, s: Option<&Schema>, v: TokenStream, p: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        let Some(s) = s else {
            return quote!(#rt::schema::prune_all(#v, #p, pruned););
        };
        if let Some(t) = self.named_type(s, this) {
            return quote!(<#t as #rt::schema::ObjectSchema>::prune(#v, #p, pruned););
        }
        if s.preserve_unknown_fields {
            return self.skip_prune_node(s, v, p, this, s.embedded_resource);
        }
        if s.properties.is_empty() && s.additional_properties.is_none() && s.items.is_none() && !s.embedded_resource {
            return quote!(#rt::schema::prune_leaf(#v, #p, pruned););
        }
        self.prune_map_array(s, v, p, this, s.embedded_resource)
    }

    fn prune_map_array(
        &self,
        s: &Schema,
        v: TokenStream,
        p: TokenStream,
        this: Option<*const Schema>,
        embedded: bool,
    ) -> TokenStream {
        let rt = rt();
        let meta_arm = embedded.then(|| quote!("apiVersion" | "kind" | "metadata" => true,));
        let prop_arms = s.properties.iter().filter(|(k, _)| !(embedded && is_meta_field(k))).map(|(k, prop)| {
            let child = self.prune_node(Some(prop), quote!(child), quote!(&child_path), this);
            quote! {
                #k => {
                    let child_path = #p.field(key);
                    #child
                    true
                }
            }
        });
        let other_arm = match &s.additional_properties {
            Some(ap) => {
                let ap_schema = match ap {
                    AdditionalProperties::Schema(ap) => Some(&**ap),
                    AdditionalProperties::Bool(_) => None,
                };
                let child = self.prune_node(ap_schema, quote!(child), quote!(&child_path), this);
                quote! {
                    _ => {
                        let child_path = #p.key(key);
                        #child
                        true
                    }
                }
            }
            None => quote! {
                _ => {
                    #rt::schema::record_pruned(pruned, #p, key);
                    false
                }
            },
        };
        let items = match &s.items {
            Some(items) => {
                let child = self.prune_node(Some(items), quote!(item), quote!(&item_path), this);
                quote! {
                    for (i, item) in items.iter_mut().enumerate() {
                        let item_path = #p.index(i);
                        #child
                    }
                }
            }
            None => quote!(#rt::schema::prune_items_unknown(items, #p, pruned);),
        };
        quote! {
            match #v {
                #rt::Value::Object(map) => map.retain(|key, child| match key.as_str() {
                    #meta_arm
                    #( #prop_arms )*
                    #other_arm
                }),
                #rt::Value::Array(items) => { #items }
                _ => {}
            }
        }
    }

    /// `skipPrune(v, s)`: unknown fields stay; known ones are pruned normally.
    fn skip_prune_node(
        &self,
        s: &Schema,
        v: TokenStream,
        p: TokenStream,
        this: Option<*const Schema>,
        embedded: bool,
    ) -> TokenStream {
        let rt = rt();
        let meta_arm = embedded.then(|| quote!("apiVersion" | "kind" | "metadata" => {}));
        let prop_arms = s.properties.iter().filter(|(k, _)| !(embedded && is_meta_field(k))).map(|(k, prop)| {
            let child = self.prune_node(Some(prop), quote!(child), quote!(&child_path), this);
            quote! {
                #k => {
                    let child_path = #p.field(key);
                    #child
                }
            }
        });
        let other_arm = match &s.additional_properties {
            Some(ap) => {
                let ap_schema = match ap {
                    AdditionalProperties::Schema(ap) => Some(&**ap),
                    AdditionalProperties::Bool(_) => None,
                };
                let child = self.prune_node(ap_schema, quote!(child), quote!(&child_path), this);
                quote! {
                    _ => {
                        let child_path = #p.key(key);
                        #child
                    }
                }
            }
            None => quote!(_ => {}),
        };
        let items = match &s.items {
            Some(items) => {
                let child = self.skip_prune_node(items, quote!(item), quote!(&item_path), this, items.embedded_resource);
                quote! {
                    for (i, item) in items.iter_mut().enumerate() {
                        let item_path = #p.index(i);
                        #child
                    }
                }
            }
            None => TokenStream::new(),
        };
        let has_map_work = !s.properties.is_empty() || s.additional_properties.is_some();
        let map_part = has_map_work.then(|| {
            quote! {
                #rt::Value::Object(map) => {
                    for (key, child) in map.iter_mut() {
                        match key.as_str() {
                            #meta_arm
                            #( #prop_arms )*
                            #other_arm
                        }
                    }
                }
            }
        });
        let array_part = s.items.is_some().then(|| quote!(#rt::Value::Array(items) => { #items }));
        if map_part.is_none() && array_part.is_none() {
            return quote! { let _ = (#v, #p, &pruned); };
        }
        quote! {
            match #v {
                #map_part
                #array_part
                _ => {}
            }
        }
    }

    // ---- drop nulls ----

    /// `PruneNonNullableNullsWithoutDefaults(v, s)`.
    fn drop_nulls_node(&self, s: &Schema, v: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        let child_code = |child: &Schema| -> TokenStream {
            match self.named_type(child, this) {
                Some(t) => quote!(<#t as #rt::schema::ObjectSchema>::drop_nulls(child);),
                None if has_maps_below(child) => self.drop_nulls_node(child, quote!(child), this),
                None => TokenStream::new(),
            }
        };
        let decision = |child: &Schema| -> TokenStream {
            let body = child_code(child);
            if !child.nullable && child.default.is_none() {
                quote! {
                    if child.is_null() {
                        return false;
                    }
                    #body
                    true
                }
            } else {
                quote! {
                    #body
                    true
                }
            }
        };
        let prop_arms = s.properties.iter().map(|(k, prop)| {
            let d = decision(prop);
            quote!(#k => { #d })
        });
        let other_arm = match s.additional_properties_schema() {
            Some(ap) => {
                let d = decision(ap);
                quote!(_ => { #d })
            }
            None => quote!(_ => true),
        };
        let items = s.items.as_deref().map(|items| {
            let body = child_code(items);
            quote! {
                #rt::Value::Array(items) => {
                    for child in items.iter_mut() {
                        #body
                    }
                }
            }
        });
        quote! {
            match #v {
                #rt::Value::Object(map) => map.retain(|key, child| {
                    let _ = &child;
                    match key.as_str() {
                        #( #prop_arms )*
                        #other_arm
                    }
                }),
                #items
                _ => {}
            }
        }
    }

    // ---- default ----

    /// `Default(v, s)`.
    fn default_node(&self, s: &Schema, v: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        let child_code = |child: &Schema, var: TokenStream| -> TokenStream {
            match self.named_type(child, this) {
                Some(t) if has_defaults(child) => quote!(<#t as #rt::schema::ObjectSchema>::default_value(#var);),
                Some(_) => TokenStream::new(),
                None if has_defaults(child) => self.default_node(child, var, this),
                None => TokenStream::new(),
            }
        };
        let mut props: Vec<(&String, &Schema)> = s.properties.iter().collect();
        props.sort_by(|a, b| a.0.cmp(b.0));
        let inserts = props.iter().filter_map(|(k, prop)| {
            let d = prop.default.as_ref()?;
            let value = json_tokens(d);
            let nullable = prop.nullable;
            Some(quote!(#rt::schema::insert_default(map, #k, #nullable, || #value);))
        });
        let prop_arms = props
            .iter()
            .filter(|(_, prop)| has_defaults(prop))
            .map(|(k, prop)| {
                let c = child_code(prop, quote!(child));
                quote!(#k => { #c })
            })
            .collect::<Vec<_>>();
        let ap_arm = s.additional_properties_schema().map(|ap| {
            let null_default = if ap.nullable {
                TokenStream::new()
            } else {
                let d = ap.default.as_ref().map(json_tokens).unwrap_or(quote!(#rt::Value::Null));
                quote!(if child.is_null() { *child = #d; })
            };
            let c = child_code(ap, quote!(child));
            quote!(_ => { #null_default #c })
        });
        let other_arm = ap_arm.unwrap_or_else(|| quote!(_ => {}));
        let map_loop = if prop_arms.is_empty() && s.additional_properties_schema().is_none_or(|ap| !has_defaults(ap) && (ap.nullable || ap.default.is_none())) {
            TokenStream::new()
        } else {
            quote! {
                for (key, child) in map.iter_mut() {
                    match key.as_str() {
                        #( #prop_arms )*
                        #other_arm
                    }
                }
            }
        };
        let items = s.items.as_deref().map(|items| {
            let null_default = if items.nullable || items.default.is_none() {
                TokenStream::new()
            } else {
                let d = json_tokens(items.default.as_ref().unwrap_or(&Value::Null));
                quote!(if item.is_null() { *item = #d; })
            };
            let c = child_code(items, quote!(item));
            quote! {
                #rt::Value::Array(items) => {
                    for item in items.iter_mut() {
                        #null_default
                        #c
                    }
                }
            }
        });
        quote! {
            match #v {
                #rt::Value::Object(map) => {
                    #( #inserts )*
                    #map_loop
                }
                #items
                _ => {}
            }
        }
    }

    // ---- validate ----

    fn take_statics(&self) -> Vec<TokenStream> {
        std::mem::take(&mut *self.statics.borrow_mut())
    }

    /// The `static` holding a node's value keywords (added to the function's
    /// statics); returns its name.
    fn node_static(&self, s: &Schema) -> Ident {
        let rt = rt();
        let name = self.fresh("NODE");
        let types_value = if s.int_or_string {
            crd_runtime::openapi::Types::IntOrString
        } else {
            match s.type_ {
                Some(t) => crd_runtime::openapi::Types::One(t.as_str()),
                None => crd_runtime::openapi::Types::None,
            }
        };
        let types = match types_value {
            crd_runtime::openapi::Types::IntOrString => quote!(#rt::openapi::Types::IntOrString),
            crd_runtime::openapi::Types::One(t) => quote!(#rt::openapi::Types::One(#t)),
            crd_runtime::openapi::Types::None => quote!(#rt::openapi::Types::None),
        };
        let mut fields = vec![quote!(types: #types)];
        if s.nullable {
            fields.push(quote!(nullable: true));
        }
        if let Some(f) = s.format.as_deref().filter(|f| crd_runtime::openapi::supported_format(f, types_value)) {
            fields.push(quote!(format: #f));
        }
        let opt_i64 = |name: &str, v: Option<i64>| {
            v.map(|v| {
                let n = format_ident!("{}", name);
                quote!(#n: Some(#v))
            })
        };
        let opt_f64 = |name: &str, v: Option<f64>| {
            v.map(|v| {
                let n = format_ident!("{}", name);
                quote!(#n: Some(#v))
            })
        };
        fields.extend(opt_i64("max_length", s.max_length));
        fields.extend(opt_i64("min_length", s.min_length));
        fields.extend(opt_f64("multiple_of", s.multiple_of));
        fields.extend(opt_f64("maximum", s.maximum));
        fields.extend(opt_f64("minimum", s.minimum));
        if s.exclusive_maximum {
            fields.push(quote!(exclusive_maximum: true));
        }
        if s.exclusive_minimum {
            fields.push(quote!(exclusive_minimum: true));
        }
        fields.extend(opt_i64("max_items", s.max_items));
        fields.extend(opt_i64("min_items", s.min_items));
        if s.unique_items {
            fields.push(quote!(unique_items: true));
        }
        fields.extend(opt_i64("max_properties", s.max_properties));
        fields.extend(opt_i64("min_properties", s.min_properties));
        let mut statics = self.statics.borrow_mut();
        if let Some(pattern) = &s.pattern {
            let pname = self.fresh("PATTERN");
            statics.push(quote!(static #pname: #rt::regex::Pattern = #rt::regex::Pattern::new(#pattern);));
            fields.push(quote!(pattern: Some(&#pname)));
        }
        if !s.enum_.is_empty() {
            let lits = s.enum_.iter().map(lit_tokens);
            fields.push(quote!(enum_values: &[ #( #lits ),* ]));
        }
        statics.push(quote! {
            static #name: #rt::openapi::Node<'static> = #rt::openapi::Node {
                #( #fields, )*
                ..#rt::openapi::Node::EMPTY
            };
        });
        name
    }

    fn is_leaf(s: &Schema) -> bool {
        s.properties.is_empty()
            && s.additional_properties.is_none()
            && s.items.is_none()
            && s.all_of.is_empty()
            && s.any_of.is_empty()
            && s.one_of.is_empty()
            && s.not.is_none()
    }

    /// A statement validating a child node (property, item or map value) into `r`,
    /// with ratcheting against `o` (an `Option<&Value>` expression).
    fn child_stmt(&self, s: &Schema, v: &TokenStream, o: &TokenStream, p: &TokenStream, r: &TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        if let Some(t) = self.named_type(s, this) {
            return quote!(<#t as #rt::schema::ObjectSchema>::validate_value(#v, #o, #p, #r););
        }
        if Self::is_leaf(s) {
            let node = self.node_static(s);
            return quote!(#rt::schema::leaf_child(#r, #v, #o, #p, &#node););
        }
        let node = self.node_expr(s, v, o, p, this, false);
        let e = self.equal_node(s, v.clone(), quote!(old), this);
        quote!(#rt::schema::merge_ratcheted(#r, #node, #o, |old| #e);)
    }

    /// An expression: the `Res` of validating node `s` at `v` (`&Value`), correlated
    /// old value `o`, path `p` (`&Path`). At the resource root, `apiVersion` and `kind`
    /// do not ratchet.
    fn node_expr(&self, s: &Schema, v: &TokenStream, o: &TokenStream, p: &TokenStream, this: Option<*const Schema>, is_root: bool) -> TokenStream {
        let rt = rt();
        let node = self.node_static(s);
        if Self::is_leaf(s) {
            return quote!(#rt::openapi::leaf(#v, #p, &#node));
        }
        let junctors = self.junctors_expr(s, o, this);
        let items = match &s.items {
            Some(items) => {
                let item_old = match (s.list_type, s.list_map_keys.is_empty()) {
                    (Some(ListType::Map), false) => {
                        let keys = &s.list_map_keys;
                        quote!(#rt::ratchet::map_list_old(items, #o, i, &[ #( #keys ),* ]))
                    }
                    _ => quote!(None),
                };
                let child = self.child_stmt(items, &quote!(item), &quote!(item_old), &quote!(&item_path), &quote!(r), this);
                quote! {
                    |items, r| {
                        for (i, item) in items.iter().enumerate() {
                            let item_path = #p.index(i);
                            let item_old = #item_old;
                            #child
                        }
                    }
                }
            }
            None => quote!(|_, _| {}),
        };
        let object = self.object_closure(s, o, p, this, is_root);
        quote!(#rt::openapi::node(#v, #p, &#node, #junctors, #items, #object))
    }

    fn junctors_expr(&self, s: &Schema, o: &TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        if s.all_of.is_empty() && s.any_of.is_empty() && s.one_of.is_empty() && s.not.is_none() {
            return quote!(None);
        }
        let branch = |b: &Schema| -> TokenStream {
            let node = self.node_expr(b, &quote!(bv), o, &quote!(bp), this, false);
            quote!(&|bv: &#rt::Value, bp: &#rt::Path, br: &mut #rt::openapi::Res| br.merge(#node))
        };
        let list = |bs: &[Schema]| -> TokenStream {
            let items = bs.iter().map(branch);
            quote!(&[ #( #items ),* ])
        };
        let all_of = list(&s.all_of);
        let any_of = list(&s.any_of);
        let one_of = list(&s.one_of);
        let not = match &s.not {
            Some(n) => {
                let b = branch(n);
                quote!(Some(#b))
            }
            None => quote!(None),
        };
        quote!(Some(&#rt::openapi::Junctors { all_of: #all_of, any_of: #any_of, one_of: #one_of, not: #not }))
    }

    /// The object validator's walk: additionalProperties values (keys that are not
    /// properties), then properties in name order (one pass over the sorted entries),
    /// then `required`.
    fn object_closure(&self, s: &Schema, o: &TokenStream, p: &TokenStream, this: Option<*const Schema>, is_root: bool) -> TokenStream {
        let rt = rt();
        let mut props: Vec<(&String, &Schema)> = s.properties.iter().collect();
        props.sort_by(|a, b| a.0.cmp(b.0));
        let names: Vec<&String> = props.iter().map(|(k, _)| *k).collect();
        let not_property = if names.is_empty() {
            quote!(true)
        } else {
            quote!(!matches!(key.as_str(), #( #names )|* ))
        };
        let additional = match &s.additional_properties {
            Some(AdditionalProperties::Bool(false)) => quote! {
                for key in map.keys() {
                    if #not_property {
                        #rt::openapi::forbidden_property(key, #p, r);
                    }
                }
            },
            Some(AdditionalProperties::Schema(ap)) => {
                let child = self.child_stmt(ap, &quote!(child), &quote!(#rt::schema::old_field(#o, key)), &quote!(&#p.key(key)), &quote!(r), this);
                quote! {
                    for (key, child) in map.iter() {
                        if #not_property {
                            #child
                        }
                    }
                }
            }
            _ => TokenStream::new(),
        };
        let properties = (!props.is_empty()).then(|| {
            let arms = props.iter().map(|(k, prop)| {
                let old = if is_root && (k.as_str() == "apiVersion" || k.as_str() == "kind") {
                    quote!(None)
                } else {
                    quote!(#rt::schema::old_field(#o, key))
                };
                let child = self.child_stmt(prop, &quote!(child), &old, &quote!(&#p.field(key)), &quote!(r), this);
                quote!(#k => { #child })
            });
            quote! {
                for (key, child) in map.iter() {
                    match key.as_str() {
                        #( #arms )*
                        _ => {}
                    }
                }
            }
        });
        let required = (!s.required.is_empty()).then(|| {
            let req = &s.required;
            quote!(#rt::openapi::required(map, &[ #( #req ),* ], #p, r);)
        });
        if additional.is_empty() && properties.is_none() && required.is_none() {
            return quote!(|_, _| {});
        }
        quote! {
            |map, r| {
                #additional
                #properties
                #required
            }
        }
    }

    // ---- ratchet equality ----

    /// A `bool` expression: `CachedDeepEqual` of `v` and `o` (both `&Value`) at `s`.
    fn equal_node(&self, s: &Schema, v: TokenStream, o: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        if let Some(t) = self.named_type(s, this) {
            return quote!(<#t as #rt::schema::ObjectSchema>::ratchet_equal(#v, #o));
        }
        let has_keys = !s.properties.is_empty() || s.additional_properties_schema().is_some();
        if !has_keys && s.items.is_none() {
            return quote!(#rt::schema::leaf_equal(#v, #o));
        }
        let map_arm = has_keys.then(|| {
            let prop_arms = s.properties.iter().map(|(k, prop)| {
                let e = self.equal_node(prop, quote!(nv), quote!(ov), this);
                quote!(#k => #e,)
            });
            let other = match s.additional_properties_schema() {
                Some(ap) => {
                    let e = self.equal_node(ap, quote!(nv), quote!(ov), this);
                    quote!(_ => #e,)
                }
                None => quote!(_ => false,),
            };
            quote! {
                (#rt::Value::Object(n), #rt::Value::Object(o)) => {
                    n.len() == o.len()
                        && n.iter().all(|(key, nv)| match o.get(key) {
                            None => false,
                            Some(ov) => match key.as_str() {
                                #( #prop_arms )*
                                #other
                            },
                        })
                }
            }
        });
        let array_arm = s.items.as_deref().and_then(|items| match (s.list_type, s.list_map_keys.is_empty()) {
            (Some(ListType::Map), false) => {
                let keys = &s.list_map_keys;
                let e = self.equal_node(items, quote!(nv), quote!(ov), this);
                Some(quote! {
                    (#rt::Value::Array(n), #rt::Value::Array(o)) => {
                        n.len() == o.len()
                            && (0..n.len()).all(|i| {
                                match #rt::ratchet::map_list_old(n, Some(#o), i, &[ #( #keys ),* ]) {
                                    None => false,
                                    Some(ov) => {
                                        let nv = &n[i];
                                        let _ = o;
                                        #e
                                    }
                                }
                            })
                    }
                })
            }
            _ => None,
        });
        quote! {
            match (#v, #o) {
                #map_arm
                #array_arm
                _ => #rt::schema::leaf_equal(#v, #o),
            }
        }
    }

    // ---- embedded resources ----

    /// `objectmeta.Coerce` below a node (its own apiVersion/kind/metadata handled by
    /// the caller for embedded nodes).
    fn coerce_children(&self, s: &Schema, v: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        let child = |c: &Schema| -> TokenStream {
            match self.named_type(c, this) {
                Some(t) if has_embedded_at_or_below(c) => quote!(<#t as #rt::schema::ObjectSchema>::coerce_embedded(child);),
                Some(_) => TokenStream::new(),
                None if has_embedded_at_or_below(c) => self.coerce_node(c, quote!(child), this),
                None => TokenStream::new(),
            }
        };
        let prop_arms = s.properties.iter().filter(|(_, c)| has_embedded_at_or_below(c)).map(|(k, c)| {
            let code = child(c);
            quote!(#k => { #code })
        });
        let other = match s.additional_properties_schema().filter(|c| has_embedded_at_or_below(c)) {
            Some(ap) => {
                let code = child(ap);
                let known: Vec<&String> = s.properties.keys().collect();
                if known.is_empty() {
                    quote!(_ => { #code })
                } else {
                    quote!(_ if !matches!(key.as_str(), #( #known )|* ) => { #code } _ => {})
                }
            }
            None => quote!(_ => {}),
        };
        let items = s.items.as_deref().filter(|i| has_embedded_at_or_below(i)).map(|items| {
            let code = child(items);
            quote!(#rt::Value::Array(items) => { for child in items.iter_mut() { #code } })
        });
        quote! {
            match #v {
                #rt::Value::Object(map) => {
                    for (key, child) in map.iter_mut() {
                        let _ = &child;
                        match key.as_str() {
                            #( #prop_arms )*
                            #other
                        }
                    }
                }
                #items
                _ => {}
            }
        }
    }

    fn coerce_node(&self, s: &Schema, v: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        let own = s.embedded_resource.then(|| {
            quote! {
                if let #rt::Value::Object(map) = &mut *#v {
                    #rt::objectmeta::coerce_embedded(map);
                }
            }
        });
        let children = if has_embedded_below(s) {
            self.coerce_children(s, v, this)
        } else {
            TokenStream::new()
        };
        quote!(#own #children)
    }

    /// `objectmeta.Validate` at a node: its own embedded checks, then its children.
    fn embedded_node(&self, s: &Schema, v: TokenStream, p: TokenStream, this: Option<*const Schema>, is_root: bool) -> TokenStream {
        let rt = rt();
        let own = (s.embedded_resource && !is_root).then(|| {
            quote! {
                if let #rt::Value::Object(map) = #v {
                    #rt::objectmeta::validate_embedded(map, #p, errs);
                }
            }
        });
        let child = |c: &Schema, var: TokenStream, path: TokenStream| -> TokenStream {
            match self.named_type(c, this) {
                Some(t) if has_embedded_at_or_below(c) => {
                    quote!(<#t as #rt::schema::ObjectSchema>::validate_embedded(#var, #path, errs);)
                }
                Some(_) => TokenStream::new(),
                None if has_embedded_at_or_below(c) => self.embedded_node(c, var, path, this, false),
                None => TokenStream::new(),
            }
        };
        let prop_arms = s.properties.iter().filter(|(_, c)| has_embedded_at_or_below(c)).map(|(k, c)| {
            let code = child(c, quote!(child), quote!(&#p.field(#k)));
            quote!(#k => { #code })
        });
        let other = match s.additional_properties_schema().filter(|c| has_embedded_at_or_below(c)) {
            Some(ap) => {
                let code = child(ap, quote!(child), quote!(&#p.key(key)));
                let known: Vec<&String> = s.properties.keys().collect();
                if known.is_empty() {
                    quote!(_ => { #code })
                } else {
                    quote!(_ if !matches!(key.as_str(), #( #known )|* ) => { #code } _ => {})
                }
            }
            None => quote!(_ => {}),
        };
        let items = s.items.as_deref().filter(|i| has_embedded_at_or_below(i)).map(|items| {
            let code = child(items, quote!(child), quote!(&#p.index(i)));
            quote!(#rt::Value::Array(items) => { for (i, child) in items.iter().enumerate() { #code } })
        });
        let children = has_embedded_below(s).then(|| {
            quote! {
                match #v {
                    #rt::Value::Object(map) => {
                        for (key, child) in map.iter() {
                            let _ = &child;
                            match key.as_str() {
                                #( #prop_arms )*
                                #other
                            }
                        }
                    }
                    #items
                    _ => {}
                }
            }
        });
        quote!(#own #children)
    }

    // ---- list sets and maps ----

    /// `ValidateListSetsAndMaps(path, s, obj)` for an object value: additionalProperties
    /// values first, then properties.
    fn lists_object(&self, s: &Schema, v: TokenStream, p: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        let ap = s.additional_properties_schema().filter(|c| has_lists_at_or_below(c)).map(|ap| {
            let code = self.lists_value(ap, quote!(child), quote!(&#p.key(key)), this);
            quote! {
                for (key, child) in map.iter() {
                    #code
                }
            }
        });
        let props = s.properties.iter().filter(|(_, c)| has_lists_at_or_below(c)).map(|(k, c)| {
            let code = self.lists_value(c, quote!(child), quote!(&#p.field(#k)), this);
            quote! {
                if let Some(child) = map.get(#k) {
                    #code
                }
            }
        });
        quote! {
            if let #rt::Value::Object(map) = #v {
                #ap
                #( #props )*
            }
        }
    }

    /// `validationListSetAndMaps(path, s, v)`: arrays get the list checks then their
    /// items, objects recurse.
    fn lists_value(&self, s: &Schema, v: TokenStream, p: TokenStream, this: Option<*const Schema>) -> TokenStream {
        let rt = rt();
        if let Some(t) = self.named_type(s, this) {
            return quote!(<#t as #rt::schema::ObjectSchema>::validate_lists(#v, #p, errs););
        }
        let list_check = match (s.list_type, &s.list_map_keys) {
            (Some(ListType::Set), _) => quote!(#rt::listtype::validate_set(items, #p, errs);),
            (Some(ListType::Map), keys) => quote!(#rt::listtype::validate_map(items, &[ #( #keys ),* ], #p, errs);),
            _ => TokenStream::new(),
        };
        let item_code = s.items.as_deref().filter(|i| has_lists_at_or_below(i)).map(|items| {
            let code = self.lists_value(items, quote!(item), quote!(&#p.index(i)), this);
            quote!(for (i, item) in items.iter().enumerate() { #code })
        });
        let array_arm = (!list_check.is_empty() || item_code.is_some()).then(|| {
            quote!(#rt::Value::Array(items) => { #list_check #item_code })
        });
        let object_arm = (s.properties.values().any(has_lists_at_or_below)
            || s.additional_properties_schema().is_some_and(has_lists_at_or_below))
        .then(|| {
            let body = self.lists_object(s, v.clone(), p.clone(), this);
            quote!(#rt::Value::Object(_) => { #body })
        });
        quote! {
            match #v {
                #array_arm
                #object_arm
                _ => {}
            }
        }
    }
}

fn is_meta_field(k: &str) -> bool {
    matches!(k, "apiVersion" | "kind" | "metadata")
}

/// Child schemas reached by the structural traversals (not junctors).
fn children(s: &Schema) -> impl Iterator<Item = &Schema> {
    s.properties
        .values()
        .chain(s.items.as_deref())
        .chain(s.additional_properties_schema())
}

/// Whether defaulting can change anything at or below `s`.
pub fn has_defaults(s: &Schema) -> bool {
    children(s).any(|c| c.default.is_some() || has_defaults(c))
        || s.items.as_deref().is_some_and(|i| !i.nullable && i.default.is_some())
}

fn has_maps_below(s: &Schema) -> bool {
    !s.properties.is_empty() || s.additional_properties.is_some() || s.items.is_some()
}

fn has_embedded_at_or_below(s: &Schema) -> bool {
    s.embedded_resource || has_embedded_below(s)
}

fn has_embedded_below(s: &Schema) -> bool {
    children(s).any(has_embedded_at_or_below)
}

fn has_lists_at_or_below(s: &Schema) -> bool {
    matches!(s.list_type, Some(ListType::Set | ListType::Map)) || has_lists_below(s)
}

fn has_lists_below(s: &Schema) -> bool {
    children(s).any(has_lists_at_or_below)
}

/// A `serde_json::json!` expression for a value.
fn json_tokens(v: &Value) -> TokenStream {
    let rt = rt();
    let text = serde_json::to_string(v).unwrap_or_else(|_| "null".into());
    match v {
        Value::Null => quote!(#rt::Value::Null),
        Value::Bool(b) => quote!(#rt::Value::Bool(#b)),
        Value::String(s) => quote!(#rt::Value::String(#s.to_string())),
        Value::Number(n) if n.is_i64() => {
            let i = n.as_i64().unwrap_or_default();
            quote!(#rt::Value::from(#i))
        }
        // Composite values and other numbers: parsed from JSON text, which keeps
        // them exactly as written (no float re-rendering).
        _ => quote!(#rt::serde_json::from_str::<#rt::Value>(#text).unwrap_or(#rt::Value::Null)),
    }
}

/// An `openapi::Lit` for an enum value.
fn lit_tokens(v: &Value) -> TokenStream {
    let rt = rt();
    match v {
        Value::Null => quote!(#rt::openapi::Lit::Null),
        Value::Bool(b) => quote!(#rt::openapi::Lit::Bool(#b)),
        Value::String(s) => quote!(#rt::openapi::Lit::Str(#s)),
        Value::Number(n) => match n.as_i64() {
            Some(i) => quote!(#rt::openapi::Lit::Int(#i)),
            None => {
                let f = n.as_f64().unwrap_or_default();
                quote!(#rt::openapi::Lit::Float(#f))
            }
        },
        other => {
            let text = serde_json::to_string(other).unwrap_or_default();
            quote!(#rt::openapi::Lit::Json(#text))
        }
    }
}
