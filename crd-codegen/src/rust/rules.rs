//! Rust tokens for `x-kubernetes-validations` rules, in each module's `rules` module
//! (public but hidden from the docs, for benchmarks and tests that run one rule; not
//! an API). A root type with rules gets a `CustomResource::validate_rules` that walks
//! the admitted object (JSON, as the API server walks its unstructured object) with
//! the module's walk functions:
//!
//! - the walk: one function per generated struct with rules at or below it, running
//!   a node's own rules, its `allOf` branches' rules, then its children in sorted key
//!   order; `oldSelf` correlated like the API server does (properties and map values
//!   by key, items of `x-kubernetes-list-type: map` lists by their keys), ratcheting
//!   by `CachedDeepEqual` on the JSON (the admission code's equality);
//! - one function per rule and `messageExpression` ([`super::cel`]), with the rule's
//!   `rt::rules::RuleInfo`; `self` and `oldSelf` are views of their nodes;
//! - the views ([`View`]) of the object nodes rules read;
//! - `static` schemas (`rt::compiled::StaticSchema`) of the nodes whose values CEL
//!   reads through the runtime.
//!
//! The walk follows the reference engine's rule tree (`crate::engine::rules`), built
//! from the same schema, so both run the same rules in the same order.

use super::admit::{AdmitEmitter, Arm, match_arms, uses_ident};
use super::cel::{Compiler, PropKind, Repr, Types, View, ViewField};
use super::names;
use super::plan::{Module, TypeBody, TypeDef, TypeId};
use crate::cel::check::compile::SELF_TYPE_NAME;
use crate::cel::eval::Program;
use crate::engine::rules::{Compiled, NodeRule, RuleNode, build, has_cel_type};
use crate::ir::{self, Schema};
use crd_runtime::cel::escaping::escape;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

/// Emits the `rules` module of one generated module.
pub struct RulesEmitter<'a> {
    module: &'a Module<'a>,
    /// The rules' items go beside the types' impls rather than in a `rules` module
    /// (a derive's output, which must work in a function body, where a module cannot
    /// see the items around it).
    inline: bool,
    admit: AdmitEmitter<'a>,
    /// Schema node → the type generated for it.
    named: HashMap<*const Schema, TypeId>,
    /// The rule tree of every struct with rules at or below it.
    trees: HashMap<TypeId, RuleNode>,
    /// The walk function of every struct with a rule tree.
    walk_names: HashMap<TypeId, Ident>,
    /// The views, by the (non-alias) type they view.
    views: HashMap<TypeId, View>,
    /// Schema node → the name of its `static`.
    statics: RefCell<HashMap<*const Schema, Ident>>,
    /// The `static` definitions, by name.
    static_items: RefCell<Vec<(Ident, TokenStream)>>,
    /// A schema's definition text → its `static` (identical nodes share one).
    static_by_text: RefCell<HashMap<String, Ident>>,
    /// The functions and statics of the rules.
    items: RefCell<Vec<TokenStream>>,
    /// Statics named from outside the `rules` module (a derived type's schema).
    exported: RefCell<Vec<Ident>>,
    /// Spans of a derived type's field types, by alias name.
    spans: HashMap<String, Span>,
    /// Some node stands for a derived type (the derive direction): rules may see one.
    has_stand_ins: bool,
    /// The rule functions and `RuleInfo` statics emitted so far, by their definition
    /// without the name: the same rule at nodes of the same type (a CRD's copies of
    /// one struct, a type shared by several kinds) is emitted once.
    rule_items: RefCell<HashMap<String, Ident>>,
    /// How many rule items of each name prefix (`rule`, `message`, `RULE`) there are.
    rule_counts: RefCell<HashMap<&'static str, usize>>,
}

impl<'a> RulesEmitter<'a> {
    pub fn new(module: &'a Module<'a>) -> Self {
        Self::with_roots(module, false, false)
    }

    /// For a derived type's module (`crate::derive`): its first type is the derived
    /// type, whose rules are walked from its `ObjectSchema::walk_rules` (as a root's
    /// are from `validate_rules`); the others stand for its field types.
    pub fn for_derived(module: &'a Module<'a>, spans: HashMap<String, Span>) -> Self {
        let mut e = Self::with_roots(module, true, true);
        e.spans = spans;
        e
    }

    /// For a derived root type's module: the rules' items beside the impls, not in a
    /// `rules` module (see [`RulesEmitter::inline`](#structfield.inline)).
    pub fn for_derived_root(module: &'a Module<'a>) -> Self {
        Self::with_roots(module, false, true)
    }

    /// The path from the rules' items to the module's types: `super::`, or nothing
    /// when inline.
    fn parent(&self) -> TokenStream {
        if self.inline { quote!() } else { quote!(super::) }
    }

    /// The path from the module's impls to the rules' items: `rules::`, or nothing
    /// when inline.
    fn own(&self) -> TokenStream {
        if self.inline { quote!() } else { quote!(rules::) }
    }

    fn with_roots(module: &'a Module<'a>, first_is_root: bool, inline: bool) -> Self {
        let named = module
            .types
            .iter()
            .enumerate()
            .map(|(id, t)| (t.schema as *const Schema, id))
            .collect();
        let mut e = RulesEmitter {
            module,
            inline,
            admit: AdmitEmitter::new(module),
            named,
            trees: HashMap::new(),
            walk_names: HashMap::new(),
            views: HashMap::new(),
            statics: RefCell::new(HashMap::new()),
            static_items: RefCell::new(Vec::new()),
            static_by_text: RefCell::new(HashMap::new()),
            items: RefCell::new(Vec::new()),
            exported: RefCell::new(Vec::new()),
            spans: HashMap::new(),
            has_stand_ins: module.types.iter().any(|t| sees_derived(t.schema)),
            rule_items: RefCell::new(HashMap::new()),
            rule_counts: RefCell::new(HashMap::new()),
        };
        let mut taken = std::collections::HashSet::new();
        for (id, t) in module.types.iter().enumerate() {
            if let Some(tree) = e.rule_tree(t) {
                e.trees.insert(id, tree);
                // `walk_http_route_spec` for `HTTPRouteSpec`.
                let name = names::unique(format!("walk_{}", names::snake_case(&t.name)), &mut taken);
                e.walk_names.insert(id, Ident::new(&name, Span::call_site()));
            }
        }
        // Views: the object nodes at or below a node with rules.
        let mut wanted = BTreeSet::new();
        for (id, t) in module.types.iter().enumerate() {
            if matches!(t.body, TypeBody::Root(_)) || (first_is_root && id == 0) {
                e.mark_seen(t.schema, false, &mut wanted);
            }
        }
        for id in wanted {
            let view = e.view(id);
            e.views.insert(id, view);
        }
        e
    }

    /// Marks the structs of nodes at or below a node with rules.
    fn mark_seen(&self, s: &Schema, under_rule: bool, out: &mut BTreeSet<TypeId>) {
        let under = under_rule || !s.validations.is_empty() || s.all_of.iter().any(|b| !b.validations.is_empty());
        if under && let Some(id) = self.struct_of(s) {
            out.insert(id);
        }
        for c in s.properties.values() {
            self.mark_seen(c, under, out);
        }
        if let Some(i) = &s.items {
            self.mark_seen(i, under, out);
        }
        if let Some(a) = s.additional_properties_schema() {
            self.mark_seen(a, under, out);
        }
    }

    fn resolve(&self, mut id: TypeId) -> TypeId {
        while let TypeBody::Alias(target) = self.module.types[id].body {
            id = target;
        }
        id
    }

    /// The struct (or root) generated for an object node with properties.
    fn struct_of(&self, s: &Schema) -> Option<TypeId> {
        let id = self.resolve(*self.named.get(&(s as *const Schema))?);
        let is_struct = matches!(self.module.types[id].body, TypeBody::Struct(_) | TypeBody::Root(_));
        (is_struct && s.type_ == Some(ir::Type::Object) && !s.properties.is_empty()).then_some(id)
    }

    /// The rule tree of a struct's own schema.
    fn rule_tree(&self, t: &TypeDef) -> Option<RuleNode> {
        // A derived field type's node walks through the type's own impl.
        if !matches!(t.body, TypeBody::Root(_) | TypeBody::Struct(_)) || t.schema.rust_type.is_some() {
            return None;
        }
        let is_root = matches!(t.body, TypeBody::Root(_));
        let s = t.schema;
        build(s, s, is_root || s.embedded_resource, has_cel_type(s))
    }

    fn is_resource_root(&self, id: TypeId) -> bool {
        // (The root of a kind, or an embedded resource.)
        matches!(self.module.types[id].body, TypeBody::Root(_)) || self.module.types[id].schema.embedded_resource
    }

    /// The view of struct `id`.
    fn view(&self, id: TypeId) -> View {
        let t = &self.module.types[id];
        let s = t.schema;
        let mut fields: Vec<ViewField> = s
            .properties
            .iter()
            .map(|(name, p)| ViewField {
                json: name.clone(),
                ident: view_field_ident(name),
                kind: self.prop_kind(p),
                schema: {
                    let s = self.schema_static(p, false);
                    quote!(#s)
                },
            })
            .collect();
        // A resource root also shows `apiVersion`, `kind` and `metadata` with `name`
        // and `generateName`, unless its schema declares them all
        // (`WithTypeAndObjectMeta`).
        if self.is_resource_root(id) && !declares_type_and_object_meta(s) {
            for (name, kind, schema) in [
                ("apiVersion", PropKind::Str, quote!(rt::compiled::STRING)),
                ("kind", PropKind::Str, quote!(rt::compiled::STRING)),
                ("metadata", PropKind::Json, quote!(rt::compiled::OBJECT_META)),
            ] {
                fields.retain(|f| f.json != name);
                fields.push(ViewField {
                    json: name.to_string(),
                    ident: view_field_ident(name),
                    kind,
                    schema,
                });
            }
        }
        fields.sort_by(|a, b| a.json.cmp(&b.json));
        // Inline, a view beside the type it views needs a name of its own.
        let name = if self.inline {
            format!("__CrdView{}", t.name)
        } else {
            t.name.clone()
        };
        View {
            name: Ident::new(&name, Span::call_site()),
            schema: self.schema_static(s, self.is_resource_root(id)),
            fields,
        }
    }

    fn prop_kind(&self, p: &Schema) -> PropKind {
        if p.int_or_string {
            return PropKind::Json;
        }
        let format = p.format.as_deref().unwrap_or("");
        match p.type_ {
            Some(ir::Type::Integer) => PropKind::Int,
            Some(ir::Type::Number) => PropKind::Double,
            Some(ir::Type::Boolean) => PropKind::Bool,
            Some(ir::Type::String) if matches!(format, "duration" | "date" | "date-time" | "byte") => {
                PropKind::Formatted(format.to_string())
            }
            Some(ir::Type::String) => PropKind::Str,
            Some(ir::Type::Object) if !p.embedded_resource => match self.struct_of(p) {
                Some(id) => PropKind::Object(id),
                None => PropKind::Json,
            },
            // Lists of objects (not `null`, which no view holds).
            Some(ir::Type::Array) => match p.items.as_deref() {
                Some(i) if !i.embedded_resource && !i.nullable => match self.struct_of(i) {
                    Some(id) => PropKind::Items(id),
                    None => PropKind::Json,
                },
                _ => PropKind::Json,
            },
            _ => PropKind::Json,
        }
    }

    // ---- static schemas ----

    /// The `static` of a schema node (with its subtree); `resource_root` for the
    /// root of a kind.
    fn schema_static(&self, s: &Schema, resource_root: bool) -> Ident {
        if !resource_root && let Some(name) = self.statics.borrow().get(&(s as *const Schema)) {
            return name.clone();
        }
        if let Some(alias) = self.foreign_alias(s) {
            // A derived field type: its own static schema, with the field's `nullable`.
            let nullable = s.nullable;
            let parent = self.parent();
            let body = quote! {
                rt::compiled::StaticSchema {
                    nullable: #nullable,
                    ..<#parent #alias as rt::CrdSchema>::STATIC_SCHEMA
                }
            };
            return self.define_static(s, body, false);
        }
        let props = (!s.properties.is_empty())
            .then(|| {
                let mut entries: Vec<(&String, Ident)> = s
                    .properties
                    .iter()
                    .map(|(k, p)| (k, self.schema_static(p, false)))
                    .collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                let entries = entries.iter().map(|(k, v)| quote!((#k, &#v)));
                quote!(Some(&[ #( #entries ),* ]))
            })
            .unwrap_or(quote!(None));
        let opt = |x: Option<Ident>| match x {
            Some(i) => quote!(Some(&#i)),
            None => quote!(None),
        };
        let additional = opt(s.additional_properties_schema().map(|a| self.schema_static(a, false)));
        let items = opt(s.items.as_deref().map(|i| self.schema_static(i, false)));
        let type_ = s.type_.map(ir::Type::as_str).unwrap_or("");
        let format = s.format.as_deref().unwrap_or("");
        let (nullable, int_or_string, preserve, embedded) = (
            s.nullable,
            s.int_or_string,
            s.preserve_unknown_fields,
            s.embedded_resource,
        );
        let list_type = match s.list_type {
            Some(ir::ListType::Atomic) => "atomic",
            Some(ir::ListType::Set) => "set",
            Some(ir::ListType::Map) => "map",
            None => "",
        };
        let keys = &s.list_map_keys;
        let body = quote! {
            rt::compiled::StaticSchema {
                of_type: None,
                type_: #type_,
                format: #format,
                nullable: #nullable,
                int_or_string: #int_or_string,
                preserve_unknown_fields: #preserve,
                embedded_resource: #embedded,
                resource_root: #resource_root,
                properties: #props,
                additional_properties: #additional,
                items: #items,
                list_type: #list_type,
                list_map_keys: &[ #( #keys ),* ],
            }
        };
        self.define_static(s, body, resource_root)
    }

    /// The `static` holding `body`, one per distinct body.
    fn define_static(&self, s: &Schema, body: TokenStream, resource_root: bool) -> Ident {
        let text = body.to_string();
        let existing = self.static_by_text.borrow().get(&text).cloned();
        let name = match existing {
            Some(name) => name,
            None => {
                let n = self.static_items.borrow().len() + 1;
                let name = format_ident!("S{}", n);
                // Read by the impls beside the `rules` module.
                let vis = if self.inline { quote!() } else { quote!(pub(super)) };
                self.static_items.borrow_mut().push((
                    name.clone(),
                    quote!(#vis static #name: rt::compiled::StaticSchema = #body;),
                ));
                self.static_by_text.borrow_mut().insert(text, name.clone());
                name
            }
        };
        if !resource_root {
            self.statics.borrow_mut().insert(s as *const Schema, name.clone());
        }
        name
    }

    /// `validate_rules` of a root type with rules (in its `CustomResource` impl).
    pub fn root_validate_rules(&self, t: &TypeDef) -> Option<TokenStream> {
        let id = self.resolve(*self.named.get(&(t.schema as *const Schema))?);
        if !self.trees.contains_key(&id) {
            return None;
        }
        let walk = &self.walk_names[&id];
        let own = self.own();
        Some(quote! {
            fn validate_rules(object: &rt::Value, old: Option<&rt::Value>) -> rt::rules::Findings {
                rt::rules::validate_json(object, old, <Self as rt::schema::ObjectSchema>::ratchet_equal, #own #walk)
            }
        })
    }

    /// For a derived type (the module's first type): `walk_rules` for its
    /// `ObjectSchema` impl (empty without rules), and its `CrdSchema::STATIC_SCHEMA`.
    ///
    /// `first`: statements the walk runs before the type's own rules (the walks of the
    /// types flattened into it, whose rules come first in the node's list), each ending
    /// in `?;`.
    pub fn derived_items(&self, first: TokenStream) -> (TokenStream, TokenStream) {
        let t = &self.module.types[0];
        let own = self.own();
        let body = match self.walk_names.get(&0) {
            Some(walk) => Some(quote!(#first #own #walk(value, old, path, ratchet, budget, out))),
            None if first.is_empty() => None,
            None => Some(quote!(#first Ok(()))),
        };
        let walk = body.map(|body| {
            quote! {
                fn walk_rules(
                    value: &rt::Value,
                    old: Option<&rt::Value>,
                    path: &rt::Path,
                    ratchet: rt::rules::TypedRatchet<'_>,
                    budget: &mut rt::rules::Budget,
                    out: &mut rt::rules::Findings,
                ) -> rt::rules::Flow {
                    #body
                }
            }
        });
        let prefix = own;
        let own = self.schema_static(t.schema, false);
        self.exported.borrow_mut().push(own.clone());
        (
            walk.unwrap_or_default(),
            quote!(const STATIC_SCHEMA: rt::compiled::StaticSchema = #prefix #own;),
        )
    }

    /// The module's `rules` module: the walks, the rules, and the views and schema
    /// statics they use.
    pub fn rules_module(&self) -> TokenStream {
        if self.trees.is_empty() && self.exported.borrow().is_empty() {
            return TokenStream::new();
        }
        let mut ids: Vec<TypeId> = self.trees.keys().copied().collect();
        ids.sort();
        let mut code: Vec<TokenStream> = ids.iter().map(|id| self.walk_fn(*id)).collect();
        code.extend(self.items.take());
        let mut used = Names::default();
        for c in &code {
            used.scan(c);
        }
        let mut ids: Vec<TypeId> = self.views.keys().copied().collect();
        ids.sort();
        for id in ids {
            let view = &self.views[&id];
            let name = view.name.to_string();
            let parse = used.paths.contains(&(name.clone(), "parse".to_string()));
            let to_val = used.paths.contains(&(name.clone(), "to_val".to_string()));
            // A view is made by `parse` only (rule signatures name it too).
            if parse || to_val {
                let v = self.view_struct(view, parse, to_val);
                used.scan(&v);
                code.push(v);
            }
        }
        // The schema statics the code uses, and those they use.
        let statics = self.static_items.take();
        for name in self.exported.borrow().iter() {
            used.idents.insert(name.to_string());
        }
        let mut kept = vec![false; statics.len()];
        loop {
            let mut changed = false;
            for (i, (name, body)) in statics.iter().enumerate() {
                if !kept[i] && used.idents.contains(&name.to_string()) {
                    kept[i] = true;
                    used.scan(body);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let statics = statics
            .iter()
            .zip(&kept)
            .filter(|(_, k)| **k)
            .map(|((_, body), _)| body);
        if self.inline {
            return quote! {
                #( #code )*
                #( #statics )*
            };
        }
        quote! {
            /// The `x-kubernetes-validations` rules of this module's kinds, compiled.
            /// Public for benchmarks and tests that run one rule on a value read ahead
            /// of time; not an API (names follow the order of the rules).
            #[doc(hidden)]
            pub mod rules {
                #[allow(unused_imports)]
                use ::crd_runtime::__private as rt;
                #[allow(unused_imports)]
                use ::crd_runtime::schema::ObjectSchema as _;

                #( #code )*
                #( #statics )*
            }
        }
    }

    // ---- views ----

    /// A view's struct, with `parse` and `to_val` when the rules use them.
    fn view_struct(&self, v: &View, parse: bool, to_val: bool) -> TokenStream {
        let name = &v.name;
        let schema = &v.schema;
        let fields = v.fields.iter().map(|f| {
            let ident = &f.ident;
            quote!(#ident: rt::compiled::Prop<'a>,)
        });
        // The object itself is kept for `to_val` only.
        let json_field = to_val.then(|| quote!(json: &'a rt::JsonMap,));
        let json_init = to_val.then(|| quote!(json,));
        let inits = v.fields.iter().map(|f| {
            let ident = &f.ident;
            quote!(#ident: None,)
        });
        let arms: Vec<Arm> = v
            .fields
            .iter()
            .map(|f| {
                let ident = &f.ident;
                let json = &f.json;
                (quote!(#json), quote!({ view.#ident = Some(x); }))
            })
            .collect();
        let dispatch = match_arms(quote!(key.as_str()), arms, None);
        let doc = format!(" The rules' view of a `{}` object.", v.name);
        let parse_fn = parse.then(|| {
            quote! {
                impl<'a> #name<'a> {
                    /// Finds the properties of an object (a `null` one stays absent).
                    #[inline]
                    pub fn parse(json: &'a rt::JsonMap) -> Self {
                        let mut view = #name { #json_init #( #inits )* };
                        for (key, x) in json {
                            if x.is_null() {
                                continue;
                            }
                            #dispatch
                        }
                        view
                    }
                }
            }
        });
        let to_val_fn = to_val.then(|| {
            quote! {
                impl<'a> #name<'a> {
                    /// The object as a CEL value.
                    pub fn to_val(self) -> rt::cel::Val<'a> {
                        rt::compiled::object_val(self.json, &#schema)
                    }
                }
            }
        });
        quote! {
            #[doc = #doc]
            #[derive(Clone, Copy)]
            pub struct #name<'a> {
                #json_field
                #( #fields )*
            }

            #parse_fn
            #to_val_fn
        }
    }

    // ---- the walk ----

    /// The walk function of struct `id`: the walk at its node.
    fn walk_fn(&self, id: TypeId) -> TokenStream {
        let tree = &self.trees[&id];
        let t = &self.module.types[id];
        let name = &self.walk_names[&id];
        let body = self.node_walk(tree, t.schema, quote!(value), quote!(old), Some(id));
        let old = if uses_ident(&body, "old") {
            quote!(old)
        } else {
            quote!(_old)
        };
        let ratchet = if uses_ident(&body, "ratchet") {
            quote!(ratchet)
        } else {
            quote!(_ratchet)
        };
        let doc = format!(" The rules at and below a `{}`.", t.name);
        quote! {
            #[doc = #doc]
            pub fn #name(
                value: &rt::Value,
                #old: Option<&rt::Value>,
                path: &rt::Path,
                #ratchet: rt::rules::TypedRatchet<'_>,
                budget: &mut rt::rules::Budget,
                out: &mut rt::rules::Findings,
            ) -> rt::rules::Flow {
                #body
                Ok(())
            }
        }
    }

    /// The walk at a node (Go's `Validator.validate`): `v` the value (`&Value`, not
    /// `null`), `o` the correlated old value (`Option<&Value>`, not `null`), with
    /// `path`, `ratchet`, `budget` and `out` in scope. `id` is the node's struct when
    /// this is the struct's own walk function.
    fn node_walk(&self, n: &RuleNode, s: &Schema, v: TokenStream, o: TokenStream, id: Option<TypeId>) -> TokenStream {
        let own = self.own_rules(n, s, &v, &o, id);
        let all_of = n.all_of.iter().map(|b| {
            let code = self.own_rules(b, s, &v, &o, id).map(|b| b.code).unwrap_or_default();
            quote!({
                let ratchet = ratchet.all_of_branch();
                #code
            })
        });
        // The node's view, read for its own rules, also finds its children.
        let view = own.as_ref().and_then(|o| o.view);
        let children = self.children_walk(n, s, &v, &o, view);
        match own {
            Some(own) => {
                let code = own.code;
                quote!({
                    #code
                    #( #all_of )*
                    #children
                })
            }
            None => quote! {
                #( #all_of )*
                #children
            },
        }
    }

    /// The walk into a child node: through its struct's walk function, or inline.
    fn child_walk(&self, n: &RuleNode, s: &Schema, v: TokenStream, o: TokenStream) -> TokenStream {
        let equal = self.equality(s, quote!(x), quote!(o));
        // The function deciding whether the child is unchanged: a path when the
        // comparison is one call (most are), else a closure capturing nothing.
        let equal = call_path(&equal).unwrap_or_else(|| quote!(|x, o| #equal));
        let descend = quote! {
            let ratchet = ratchet.child(#v, #o, #equal);
        };
        if let Some(alias) = self.foreign_alias(s) {
            // A derived field type: the field's own rules, then the type's walk.
            let own = self.own_rules(n, s, &v, &o, None).map(|r| r.code);
            let parent = self.parent();
            return quote! {
                #descend
                #own
                <#parent #alias as rt::schema::ObjectSchema>::walk_rules(#v, #o, path, ratchet, budget, out)?;
            };
        }
        if let Some((equal, walk)) = self.struct_walk(s) {
            return quote!(rt::rules::walk_child(#v, #o, path, ratchet, budget, out, #equal, #walk)?;);
        }
        let body = self.node_walk(n, s, v, o, None);
        quote! {
            #descend
            #body
        }
    }

    /// For a node of a generated struct with its own walk function: the struct's
    /// `ratchet_equal` and that walk function.
    fn struct_walk(&self, s: &Schema) -> Option<(TokenStream, Ident)> {
        if self.foreign_alias(s).is_some() {
            return None;
        }
        let id = self.struct_of(s).filter(|id| self.trees.contains_key(id))?;
        let name = Ident::new(&self.module.types[id].name, Span::call_site());
        let parent = self.parent();
        let equal = quote!(<#parent #name as rt::schema::ObjectSchema>::ratchet_equal);
        Some((equal, self.walk_names[&id].clone()))
    }

    /// The children of a node: `additionalProperties` values and properties of an
    /// object (keys in sorted order), items of an array.
    fn children_walk(
        &self,
        n: &RuleNode,
        s: &Schema,
        v: &TokenStream,
        o: &TokenStream,
        view: Option<&View>,
    ) -> TokenStream {
        let mut object = Vec::new();
        if let (Some(child), Some(cs)) = (&n.additional, s.additional_properties_schema()) {
            let body = self.child_walk(child, cs, quote!(x), quote!(ox));
            object.push(quote! {
                for (key, x) in m {
                    if x.is_null() {
                        continue;
                    }
                    let ox = rt::compiled::old_prop(old_map, key);
                    let path = &path.key(key);
                    #body
                }
            });
        }
        let mut viewed = Vec::new();
        for (key, child) in &n.properties {
            let Some(cs) = s.properties.get(key) else { continue };
            let body = self.child_walk(child, cs, quote!(x), quote!(ox));
            match view.and_then(|v| v.fields.iter().find(|f| &f.json == key)) {
                Some(f) => {
                    let ident = &f.ident;
                    viewed.push(quote! {
                        if let Some(x) = view.#ident {
                            let ox = old_view.and_then(|o| o.#ident);
                            let path = &path.field(#key);
                            #body
                        }
                    });
                }
                None => object.push(match self.struct_walk(cs) {
                    Some((equal, walk)) => quote! {
                        rt::rules::walk_property(m, old_map, #key, path, ratchet, budget, out, #equal, #walk)?;
                    },
                    None => quote! {
                    if let Some(x) = rt::compiled::prop(m, #key) {
                        let ox = rt::compiled::old_prop(old_map, #key);
                        let path = &path.field(#key);
                        #body
                    }
                    },
                }),
            }
        }
        let old_map = |body: &TokenStream| {
            uses_ident(body, "old_map").then(|| quote!(let old_map = #o.and_then(rt::Value::as_object);))
        };
        let mut out = TokenStream::new();
        if !viewed.is_empty() {
            // `this` and `prev` are the views of the node and its old value (`Err`
            // when the value is not an object).
            let body = quote!(#( #viewed )*);
            let old_view = uses_ident(&body, "old_view")
                .then(|| quote!(let old_view = prev.as_ref().and_then(|p| p.as_ref().ok());));
            out.extend(quote! {
                if let Ok(view) = &this {
                    #old_view
                    #body
                }
            });
        }
        if !object.is_empty() {
            let body = quote!(#( #object )*);
            let old_map = old_map(&body);
            out.extend(quote! {
                if let rt::Value::Object(m) = #v {
                    #old_map
                    #body
                }
            });
        }
        if let (Some(child), Some(cs)) = (&n.items, s.items.as_deref()) {
            let body = self.child_walk(child, cs, quote!(x), quote!(ox));
            // Only the items of map lists correlate with old items (by their keys).
            let (old_items, old_item) = match &n.map_keys {
                Some(keys) => (
                    quote! {
                        let old_items = #o
                            .and_then(rt::Value::as_array)
                            .map(|o| rt::ratchet::MapList::with_keys(&[ #( #keys ),* ], o));
                    },
                    quote!(old_items.as_ref().and_then(|l| l.get(x)).filter(|x| !x.is_null())),
                ),
                None => (TokenStream::new(), quote!(None)),
            };
            out.extend(quote! {
                if let rt::Value::Array(items) = #v {
                    #old_items
                    for (i, x) in items.iter().enumerate() {
                        if x.is_null() {
                            continue;
                        }
                        let ox: Option<&rt::Value> = #old_item;
                        let path = &path.index(i);
                        #body
                    }
                }
            });
        }
        out
    }

    /// The alias naming a derived field type, for its node.
    fn foreign_alias(&self, s: &Schema) -> Option<Ident> {
        s.rust_type?;
        let id = self.named.get(&(s as *const Schema))?;
        let name = &self.module.types[*id].name;
        let span = self.spans.get(name).copied().unwrap_or_else(Span::call_site);
        Some(Ident::new(name, span))
    }

    /// The schema's `CachedDeepEqual` of JSON values `a` and `b` (a `bool`).
    fn equality(&self, schema: &Schema, a: TokenStream, b: TokenStream) -> TokenStream {
        if let Some(id) = self.named.get(&(schema as *const Schema))
            && matches!(self.module.types[self.resolve(*id)].body, TypeBody::Struct(_))
        {
            let name = Ident::new(&self.module.types[self.resolve(*id)].name, Span::call_site());
            let parent = self.parent();
            return quote!(<#parent #name as rt::schema::ObjectSchema>::ratchet_equal(#a, #b));
        }
        let equal = self.admit.equal_expr(schema, a, b);
        if self.inline {
            equal
        } else {
            qualify_super(equal, self.module)
        }
    }

    // ---- a node's own rules ----

    /// `validateExpressions` at a node: `v` the value, `o` the correlated old value.
    fn own_rules(
        &self,
        n: &RuleNode,
        s: &Schema,
        v: &TokenStream,
        o: &TokenStream,
        id: Option<TypeId>,
    ) -> Option<OwnRules<'_>> {
        let own = n.own.as_ref()?;
        let schema_type = match self.foreign_alias(s) {
            // A derived field type's rules print its type, known where it is defined.
            Some(alias) => {
                let parent = self.parent();
                quote!(<#parent #alias as rt::CrdSchema>::STATIC_SCHEMA.target().type_)
            }
            None => {
                let t = n.schema_type;
                quote!(#t)
            }
        };
        let value = if v.to_string() == "value" {
            quote!(value)
        } else {
            quote!(value: #v)
        };
        let site = quote! {
            let site = rt::rules::NodeSite {
                path,
                schema_type: #schema_type,
                #value,
                has_old: #o.is_some(),
            };
        };
        let rules = match own.rules() {
            Err(e) => {
                return Some(OwnRules {
                    code: quote! {
                        #site
                        rt::rules::node_compile_error(&site, #e, out);
                    },
                    view: None,
                });
            }
            Ok(r) => r,
        };
        let node = self.node_kind(s, id, own.is_resource_root);
        let compiled: Vec<TokenStream> = rules
            .iter()
            // The module's schema (not the rule tree's copy): views are found by node.
            .filter_map(|rule| self.rule_call(rule, s, &node))
            .collect();
        if compiled.is_empty() {
            return None;
        }
        let (this, prev) = (node.read(v.clone()), node.read(quote!(o)));
        let view = match node.kind {
            PropKind::Object(id) if node.view.is_some() => self.views.get(&id),
            _ => None,
        };
        Some(OwnRules {
            code: quote! {
                #site
                rt::rules::enter(&site, budget, out)?;
                let this = #this;
                let prev = #o.map(|o| #prev);
                #( #compiled )*
            },
            view,
        })
    }

    /// How `self` reads at a node.
    fn node_kind(&self, s: &Schema, id: Option<TypeId>, is_resource_root: bool) -> NodeKind {
        let struct_id = id.or_else(|| self.struct_of(s));
        match struct_id {
            Some(id) if self.views.contains_key(&id) => NodeKind {
                kind: PropKind::Object(id),
                view: Some(self.views[&id].name.clone()),
                schema: {
                    let s = self.schema_static(s, is_resource_root);
                    quote!(#s)
                },
            },
            _ => {
                let schema = self.schema_static(s, is_resource_root);
                NodeKind {
                    kind: self.prop_kind(s),
                    view: None,
                    schema: quote!(#schema),
                }
            }
        }
    }

    /// Running one rule at a node (with `site`, `this` and `prev` in scope).
    fn rule_call(&self, rule: &NodeRule, schema: &Schema, node: &NodeKind) -> Option<TokenStream> {
        let program = match &rule.compiled {
            Compiled::Empty => return None,
            Compiled::Error(e) => return Some(quote!(rt::rules::rule_compile_error(&site, #e, out);)),
            Compiled::Program(p) => p,
        };
        let info = rule.info();
        let message_fn = (program.message.as_ref()).map(|(_, p)| self.rule_fn("message", p, node, schema, &info, true));
        let fn_name = self.rule_fn("rule", &program.program, node, schema, &info, false);
        let info_name = self.rule_info(&info);
        let message = match message_fn {
            Some(m) => quote!(Some(&|| #m(&this, prev.as_ref()))),
            None => quote!(None),
        };
        Some(quote! {
            rt::rules::check(
                &#info_name,
                &site,
                &|| #fn_name(&this, prev.as_ref()),
                #message,
                ratchet,
                budget,
                out,
            )?;
        })
    }

    /// The `RuleInfo` static of a rule (shared by identical rules).
    fn rule_info(&self, info: &crd_runtime::rules::RuleInfo<'_>) -> Ident {
        let reason = match info.reason {
            crd_runtime::rules::Reason::Invalid => quote!(Invalid),
            crd_runtime::rules::Reason::Forbidden => quote!(Forbidden),
            crd_runtime::rules::Reason::Required => quote!(Required),
            crd_runtime::rules::Reason::Duplicate => quote!(Duplicate),
        };
        let opt = |s: Option<&str>| match s {
            Some(s) => quote!(Some(#s)),
            None => quote!(None),
        };
        let (rule_src, message, message_expression, field_path) = (
            info.rule,
            opt(info.message),
            opt(info.message_expression),
            opt(info.field_path),
        );
        let (uses_old_self, optional_old_self) = (info.uses_old_self, info.optional_old_self);
        let definition = quote! {
            rt::rules::RuleInfo<'static> = rt::rules::RuleInfo {
                rule: #rule_src,
                message: #message,
                message_expression: #message_expression,
                reason: rt::rules::Reason::#reason,
                field_path: #field_path,
                uses_old_self: #uses_old_self,
                optional_old_self: #optional_old_self,
            };
        };
        let info_doc = format!(" What is known of `{}` before it runs.", info.rule.trim());
        self.rule_item("RULE", definition, |name, definition| {
            quote! {
                #[doc = #info_doc]
                pub static #name: #definition
            }
        })
    }

    /// The name of the rule item (function or static) `definition` named with
    /// `prefix`: the existing one when an identical item was emitted, else a new one,
    /// emitted by `item` (given the name and the definition).
    fn rule_item(
        &self,
        prefix: &'static str,
        definition: TokenStream,
        item: impl FnOnce(&Ident, TokenStream) -> TokenStream,
    ) -> Ident {
        let key = format!("{prefix} {definition}");
        if let Some(name) = self.rule_items.borrow().get(&key) {
            return name.clone();
        }
        let mut counts = self.rule_counts.borrow_mut();
        let n = counts.entry(prefix).or_default();
        *n += 1;
        let name = format_ident!("{}_{}", prefix, *n);
        self.items.borrow_mut().push(item(&name, definition));
        self.rule_items.borrow_mut().insert(key, name.clone());
        name
    }

    /// A rule (or message expression) as a function of the node's value and old
    /// value, as read by [`NodeKind::read`].
    fn rule_fn(
        &self,
        prefix: &'static str,
        program: &Program,
        node: &NodeKind,
        schema: &Schema,
        info: &crd_runtime::rules::RuleInfo<'_>,
        message: bool,
    ) -> Ident {
        let types = Types {
            views: &self.views,
            structs: self.cel_struct_names(schema, node),
            // Only the derive's modules have stand-ins; the YAML path skips the walk.
            sees_derived: self.has_stand_ins && sees_derived(schema),
        };
        let mut compiler = Compiler::new(&types, program.plan());
        let repr = node.repr();
        compiler.bind_result("self", format_ident!("this"), repr, true);
        // `oldSelf`: the old value on update; an optional for `optionalOldSelf` rules
        // (`optional.none()` without an old value); unbound otherwise (an error where
        // it is read, as by a message expression on create).
        let old_bind = if info.optional_old_self && !message {
            compiler.bind_result("oldSelf", format_ident!("old_self"), Repr::Val, false);
            let to_val = super::cel::to_val_result(quote!(x), repr, &self.views);
            quote! {
                let old_self: rt::cel::Result<rt::cel::Val<'_>> = match prev.cloned() {
                    None => Ok(rt::cel::Val::Optional(None)),
                    Some(x) => (#to_val).map(rt::cel::Val::optional_of),
                };
            }
        } else {
            compiler.bind_result("oldSelf", format_ident!("old_self"), repr, false);
            quote! {
                let old_self = match prev {
                    Some(x) => x.clone(),
                    None => Err(rt::cel::Error::new("no such attribute(s): oldSelf")),
                };
            }
        };
        let (result_ty, body) = if message {
            let e = compiler.expression(Repr::Str);
            (quote!(Option<String>), quote!((#e).map(|s| Some(s.to_string()))))
        } else {
            (quote!(bool), compiler.expression(Repr::Bool))
        };
        let uses_old = uses_ident(&body, "old_self");
        let cost_decl = if uses_ident(&body, "cost") {
            quote!(let mut cost: u64 = 0;)
        } else {
            quote!(let cost: u64 = 0;)
        };
        let this = if uses_ident(&body, "this") {
            quote!(this)
        } else {
            quote!(_this)
        };
        let prev = if uses_old { quote!(prev) } else { quote!(_prev) };
        let old_bind = uses_old.then_some(old_bind);
        let ty = node.rust_type();
        let doc = if message {
            format!(" The `messageExpression` of `{}`.", info.rule.trim())
        } else {
            format!(" `{}`", info.rule.trim())
        };
        let lifetime = uses_lifetime(&ty).then(|| quote!(<'a>));
        let definition = quote! {
            #lifetime(
                #this: &rt::cel::Result<#ty>,
                #prev: Option<&rt::cel::Result<#ty>>,
            ) -> rt::rules::Evaluated<#result_ty, rt::cel::Error> {
                #cost_decl
                #old_bind
                let result = #body;
                rt::compiled::finish(result, cost)
            }
        };
        self.rule_item(prefix, definition, |name, definition| {
            quote! {
                #[doc = #doc]
                pub fn #name #definition
            }
        })
    }

    /// The CEL names of the object types a rule at `schema` can see, mapped to the
    /// views (`selfType0`, `selfType0.spec`, `selfType0.items.@idx`).
    fn cel_struct_names(&self, schema: &Schema, node: &NodeKind) -> HashMap<String, TypeId> {
        let mut out = HashMap::new();
        let root = match node.kind {
            PropKind::Object(id) => Some(id),
            _ => None,
        };
        // `self` is never null: a node's rules do not run on a null value.
        self.name_structs(schema, SELF_TYPE_NAME, root, false, &mut out);
        out
    }

    /// Names the views of `s` (its struct `id` when given) and the nodes below it.
    /// A node whose values `may_be_null` (nullable list items and map values) is
    /// left out: CEL sees such a value as `null`, which no view holds, so it is read
    /// as a CEL value. (A `null` property is absent to CEL, so properties keep their
    /// views.)
    fn name_structs(
        &self,
        s: &Schema,
        name: &str,
        id: Option<TypeId>,
        may_be_null: bool,
        out: &mut HashMap<String, TypeId>,
    ) {
        if let Some(id) = id.or_else(|| self.struct_of(s))
            && self.views.contains_key(&id)
            && !may_be_null
        {
            out.insert(name.to_string(), id);
        }
        for (k, c) in &s.properties {
            if let Some(e) = escape(k) {
                self.name_structs(c, &format!("{name}.{e}"), None, false, out);
            }
        }
        if let Some(i) = &s.items {
            self.name_structs(i, &format!("{name}.@idx"), None, i.nullable, out);
        }
        if let Some(a) = s.additional_properties_schema() {
            self.name_structs(a, &format!("{name}.@elem"), None, a.nullable, out);
        }
    }
}

/// The code of a node's own rules (statements: the node's `site`, `this` and `prev`
/// stay in scope after them), and the view `this` holds, if any.
struct OwnRules<'v> {
    code: TokenStream,
    view: Option<&'v View>,
}

/// How a node's value reads as `self`: its kind, its view, its schema static.
struct NodeKind {
    kind: PropKind,
    view: Option<Ident>,
    schema: TokenStream,
}

impl NodeKind {
    fn repr(&self) -> Repr {
        match &self.kind {
            PropKind::Int => Repr::Int,
            PropKind::Double => Repr::Double,
            PropKind::Bool => Repr::Bool,
            PropKind::Str => Repr::Str,
            PropKind::Object(id) => Repr::Struct(*id),
            PropKind::Items(id) => Repr::Items(*id),
            PropKind::Formatted(_) | PropKind::Json => Repr::Val,
        }
    }

    /// The Rust type of `self` in a rule function.
    fn rust_type(&self) -> TokenStream {
        match (&self.kind, &self.view) {
            (PropKind::Int, _) => quote!(i64),
            (PropKind::Double, _) => quote!(f64),
            (PropKind::Bool, _) => quote!(bool),
            (PropKind::Str, _) => quote!(rt::cel::Str<'a>),
            (PropKind::Object(_), Some(view)) => quote!(#view<'a>),
            (PropKind::Items(_), _) => quote!(rt::compiled::Items<'a>),
            _ => quote!(rt::cel::Val<'a>),
        }
    }

    /// `self` read from a node's JSON value `v` (`rt::cel::Result` of the type).
    fn read(&self, v: TokenStream) -> TokenStream {
        let s = &self.schema;
        let bad = quote!(.map_err(rt::compiled::Bad::error));
        match (&self.kind, &self.view) {
            (PropKind::Int, _) => quote!(rt::compiled::int(#v, &#s) #bad),
            (PropKind::Double, _) => quote!(rt::compiled::double(#v, &#s) #bad),
            (PropKind::Bool, _) => quote!(rt::compiled::boolean(#v, &#s) #bad),
            (PropKind::Str, _) => quote!(rt::compiled::string(#v, &#s).map(rt::cel::Str::Borrowed) #bad),
            (PropKind::Object(_), Some(view)) => quote!(rt::compiled::object(#v, &#s).map(#view::parse) #bad),
            (PropKind::Items(_), _) => quote!(rt::compiled::items(#v, &#s) #bad),
            _ => quote!(rt::compiled::json(#v, &#s)),
        }
    }
}

/// The identifiers and `A::b` paths of generated code (to keep only the items it
/// uses).
#[derive(Default)]
struct Names {
    idents: std::collections::HashSet<String>,
    paths: std::collections::HashSet<(String, String)>,
}

impl Names {
    fn scan(&mut self, tokens: &TokenStream) {
        use proc_macro2::TokenTree;
        let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Ident(id) => {
                    self.idents.insert(id.to_string());
                    if let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)), Some(TokenTree::Ident(m))) =
                        (tokens.get(i + 1), tokens.get(i + 2), tokens.get(i + 3))
                        && a.as_char() == ':'
                        && b.as_char() == ':'
                    {
                        self.paths.insert((id.to_string(), m.to_string()));
                    }
                }
                TokenTree::Group(g) => self.scan(&g.stream()),
                _ => {}
            }
        }
    }
}

/// `f` when `call` is `f(x, o)` with `f` a path (no call or block in it).
fn call_path(call: &TokenStream) -> Option<TokenStream> {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = call.clone().into_iter().collect();
    let (last, path) = tokens.split_last()?;
    let args = match last {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => g.stream().to_string(),
        _ => return None,
    };
    let is_path = !path.is_empty()
        && !path
            .iter()
            .any(|t| matches!(t, TokenTree::Group(_) | TokenTree::Literal(_)));
    (args == "x , o" && is_path).then(|| path.iter().cloned().collect())
}

/// Whether tokens mention the lifetime `'a`.
fn uses_lifetime(t: &TokenStream) -> bool {
    t.to_string().contains("'a")
}

/// Go's check in `WithTypeAndObjectMeta`: the schema declares `kind` and
/// `apiVersion` strings and a `metadata` object with `name` and `generateName`
/// strings.
fn declares_type_and_object_meta(s: &Schema) -> bool {
    let is = |p: Option<&Schema>, t: ir::Type| p.is_some_and(|p| p.type_ == Some(t));
    let metadata = s.properties.get("metadata");
    is(s.properties.get("kind"), ir::Type::String)
        && is(s.properties.get("apiVersion"), ir::Type::String)
        && is(metadata, ir::Type::Object)
        && metadata.is_some_and(|m| {
            is(m.properties.get("name"), ir::Type::String) && is(m.properties.get("generateName"), ir::Type::String)
        })
}

/// A view's field for a property (any JSON name; `p_` and a sanitized name).
fn view_field_ident(json: &str) -> Ident {
    let mut out = String::from("p_");
    for c in json.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.push('_');
        }
    }
    // Distinct JSON names can sanitize alike; a hash of the name keeps them apart.
    let sanitized_differs = json
        .chars()
        .any(|c| !c.is_ascii_alphanumeric() || c.is_ascii_uppercase());
    if sanitized_differs {
        let h = json
            .bytes()
            .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
        out.push_str(&format!("_{h:x}"));
    }
    Ident::new(&out, Span::call_site())
}

/// Type names of the parent module in admission code, seen from `rules`
/// (`Foo::ratchet_equal` becomes `super::Foo::ratchet_equal`).
fn qualify_super(tokens: TokenStream, m: &Module) -> TokenStream {
    use proc_macro2::TokenTree;
    let mut out = TokenStream::new();
    let mut prev_colon = false;
    for t in tokens {
        match t {
            TokenTree::Ident(i) if !prev_colon && m.types.iter().any(|t| i == t.name.as_str()) => {
                out.extend(quote!(super::#i));
                prev_colon = false;
            }
            TokenTree::Group(g) => {
                let inner = qualify_super(g.stream(), m);
                let mut ng = proc_macro2::Group::new(g.delimiter(), inner);
                ng.set_span(g.span());
                out.extend([TokenTree::Group(ng)]);
                prev_colon = false;
            }
            TokenTree::Punct(p) => {
                prev_colon = p.as_char() == ':';
                out.extend([TokenTree::Punct(p)]);
            }
            other => {
                prev_colon = false;
                out.extend([other]);
            }
        }
    }
    out
}

/// Whether a rule on this node sees a derived type (typed `dyn`, its schema unseen).
fn sees_derived(s: &Schema) -> bool {
    s.rust_type.is_some()
        || s.properties.values().any(sees_derived)
        || s.items.as_deref().is_some_and(sees_derived)
        || s.additional_properties_schema().is_some_and(sees_derived)
}
