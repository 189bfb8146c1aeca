//! Which Rust types to generate for a set of CRDs, and their names.
//!
//! One module per API group and version. Each kind gets a root struct named after
//! the kind; nested objects become structs named by their path
//! (`CronTab` + `spec` → `CronTabSpec`, + `containers` → `CronTabSpecContainers`,
//! array items and map values take the name of their property), string enums become
//! Rust enums. Names depend only on the path, so renaming one property renames only
//! the types below it; clashes get a number (`Foo2`), given in a fixed order.
//!
//! Identical nested types are generated once: a node whose schema (everything but
//! its own description) equals an earlier one in the same module becomes a type
//! alias of it, which keeps every path-derived name while the compiler sees one type.

use super::names;
use crate::ir::{self, Schema, Type};
use std::collections::{HashMap, HashSet};

/// Everything to generate.
pub struct Plan<'a> {
    pub modules: Vec<Module<'a>>,
}

/// One API group and version.
pub struct Module<'a> {
    pub group: String,
    pub version: String,
    pub group_mod: String,
    pub version_mod: String,
    /// Root types first (sorted by kind), then nested types in the order met.
    pub types: Vec<TypeDef<'a>>,
}

pub type TypeId = usize;

pub struct TypeDef<'a> {
    pub name: String,
    pub schema: &'a Schema,
    /// Where the type sits, e.g. `CronTab.spec.containers[*]`; for messages.
    pub path: String,
    pub body: TypeBody<'a>,
}

pub enum TypeBody<'a> {
    /// The kind's root type.
    Root(Box<RootDef<'a>>),
    Struct(StructDef<'a>),
    Enum(EnumDef),
    /// `pub type Name = Target;` for a node identical to an earlier one.
    Alias(TypeId),
}

pub struct RootDef<'a> {
    pub crd: &'a ir::Crd,
    pub version: &'a ir::Version,
    pub fields: StructDef<'a>,
}

#[derive(Clone)]
pub struct StructDef<'a> {
    pub fields: Vec<FieldDef<'a>>,
    /// `x-kubernetes-preserve-unknown-fields` with properties: unknown fields are kept
    /// in a flattened map of this value type.
    pub additional_fields: bool,
    pub derives_default: bool,
}

#[derive(Clone)]
pub struct FieldDef<'a> {
    /// The Rust identifier, `r#type` for keywords.
    pub name: String,
    pub json: String,
    pub ty: Ty,
    pub presence: Presence,
    pub schema: &'a Schema,
    /// The doc comment: the property's description.
    pub doc: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// `T`: the property is required.
    Required,
    /// `Option<T>`: required but `nullable: true`, so `None` is `null`.
    RequiredNullable,
    /// `Option<T>`, skipped when `None`.
    Optional,
    /// `Option<Option<T>>`: `None` absent, `Some(None)` null.
    OptionalNullable,
}

pub struct EnumDef {
    /// `(variant name, JSON value)`.
    pub variants: Vec<(String, String)>,
}

/// A field's Rust type.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    String,
    I32,
    I64,
    F32,
    F64,
    Bool,
    IntOrString,
    /// Any JSON (unknown fields kept, no type).
    Value,
    /// A JSON object that keeps unknown fields.
    JsonMap,
    /// An object with no known fields (always `{}` after pruning).
    EmptyObject,
    ObjectMeta,
    Vec(Box<Ty>),
    Map(Box<Ty>),
    /// A nullable array item or map value.
    Option(Box<Ty>),
    Named(TypeId),
}

impl Ty {
    /// Whether the type implements `Default`.
    fn has_default(&self, types: &[TypeDef]) -> bool {
        match self {
            Ty::Named(id) => type_has_default(types, *id),
            _ => true,
        }
    }
}

fn type_has_default(types: &[TypeDef], id: TypeId) -> bool {
    match &types[id].body {
        TypeBody::Struct(s) => s.derives_default,
        TypeBody::Root(r) => r.fields.derives_default,
        TypeBody::Enum(_) => false,
        TypeBody::Alias(target) => type_has_default(types, *target),
    }
}

/// The kinds of one module: (group, version) and each kind's CRD and version.
type ModuleKinds<'a> = ((String, String), Vec<(&'a ir::Crd, &'a ir::Version)>);

/// Plans the types for `crds` (already checked).
pub fn plan(crds: &[ir::Crd]) -> Plan<'_> {
    // Group by (group, version); kinds sorted so that output is stable.
    let mut by_module: Vec<ModuleKinds<'_>> = Vec::new();
    for crd in crds {
        for v in &crd.versions {
            let key = (crd.group.clone(), v.name.clone());
            match by_module.iter_mut().find(|(k, _)| *k == key) {
                Some((_, kinds)) => kinds.push((crd, v)),
                None => by_module.push((key, vec![(crd, v)])),
            }
        }
    }
    by_module.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, kinds) in &mut by_module {
        kinds.sort_by(|a, b| a.0.names.kind.cmp(&b.0.names.kind));
    }
    // Modules are planned apart (names and shared types are per module).
    let modules = crate::parallel::map(&by_module, |((group, version), kinds)| {
        let mut planner = Planner::default();
        // Root names first, so that a kind never loses its name to a nested type.
        let roots: Vec<(TypeId, &ir::Crd, &ir::Version)> = kinds
            .iter()
            .map(|(crd, v)| {
                let name = planner.reserve(&names::kind_type_name(&crd.names.kind));
                let id = planner.push(TypeDef {
                    name,
                    schema: &v.schema,
                    path: crd.names.kind.clone(),
                    body: TypeBody::Alias(0), // replaced below
                });
                (id, *crd, *v)
            })
            .collect();
        for (id, crd, v) in roots {
            let fields = planner.root_fields(&names::kind_type_name(&crd.names.kind), &v.schema);
            planner.types[id].body = TypeBody::Root(Box::new(RootDef {
                crd,
                version: v,
                fields,
            }));
        }
        Module {
            group_mod: names::module_name(group),
            version_mod: names::module_name(version),
            group: group.clone(),
            version: version.clone(),
            types: planner.types,
        }
    });
    Plan { modules }
}

#[derive(Default)]
struct Planner<'a> {
    types: Vec<TypeDef<'a>>,
    taken: HashSet<String>,
    /// Structural identity → the type generated for it.
    canonical: HashMap<u32, TypeId>,
    fingerprints: Fingerprints,
}

impl<'a> Planner<'a> {
    fn reserve(&mut self, wanted: &str) -> String {
        let mut name = wanted.to_string();
        if names::is_reserved_type_name(&name) || super::emit::IMPORTED_NAMES.contains(&name.as_str()) {
            name.push_str("Type");
        }
        names::unique(name, &mut self.taken)
    }

    fn push(&mut self, def: TypeDef<'a>) -> TypeId {
        self.types.push(def);
        self.types.len() - 1
    }

    /// The root's fields: `metadata` (always `ObjectMeta`) and every top-level
    /// property except `apiVersion`, `kind` and `metadata`.
    fn root_fields(&mut self, kind: &str, schema: &'a Schema) -> StructDef<'a> {
        let mut s = self.struct_fields(kind, kind, schema, true);
        s.fields.insert(
            0,
            FieldDef {
                name: "metadata".into(),
                json: "metadata".into(),
                ty: Ty::ObjectMeta,
                presence: Presence::Required,
                schema,
                doc: Some("Standard object metadata.".into()),
            },
        );
        s
    }

    /// The fields of an object node.
    fn struct_fields(&mut self, type_name: &str, path: &str, schema: &'a Schema, is_root: bool) -> StructDef<'a> {
        let mut fields = Vec::new();
        let mut taken_fields = HashSet::new();
        if is_root {
            taken_fields.insert("metadata".to_string());
        }
        for (json, prop) in &schema.properties {
            if is_root && matches!(json.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            if schema.embedded_resource && json == "metadata" {
                continue;
            }
            let name = unique_field(names::field_name(json), &mut taken_fields);
            let child_path = format!("{path}.{json}");
            let ty = if schema.embedded_resource && (json == "apiVersion" || json == "kind") {
                Ty::String
            } else {
                self.ty_for(&format!("{type_name}{}", names::type_segment(json)), &child_path, prop)
            };
            let required = schema.required.iter().any(|r| r == json);
            let presence = match (required, prop.nullable) {
                (true, false) => Presence::Required,
                (true, true) => Presence::RequiredNullable,
                (false, false) => Presence::Optional,
                (false, true) => Presence::OptionalNullable,
            };
            fields.push(FieldDef {
                name,
                json: json.clone(),
                ty,
                presence,
                schema: prop,
                doc: prop.description.clone(),
            });
        }
        if schema.embedded_resource {
            // apiVersion, kind and metadata are kept by pruning even when not listed.
            let implicit = [
                ("apiVersion", Ty::String, "API version of the embedded object."),
                ("kind", Ty::String, "Kind of the embedded object."),
                ("metadata", Ty::ObjectMeta, "Metadata of the embedded object."),
            ];
            for (i, (json, ty, doc)) in implicit.into_iter().enumerate() {
                if fields.iter().any(|f| f.json == json) {
                    continue;
                }
                let name = unique_field(names::field_name(json), &mut taken_fields);
                let presence = if schema.required.iter().any(|r| r == json) {
                    Presence::Required
                } else {
                    Presence::Optional
                };
                let prop = schema.properties.get(json);
                fields.insert(
                    i,
                    FieldDef {
                        name,
                        json: json.into(),
                        ty,
                        presence,
                        schema: prop.unwrap_or(schema),
                        doc: prop.and_then(|p| p.description.clone()).or(Some(doc.into())),
                    },
                );
            }
        }
        let derives_default = fields
            .iter()
            .all(|f| f.presence != Presence::Required || f.ty.has_default(&self.types));
        StructDef {
            fields,
            additional_fields: schema.preserve_unknown_fields,
            derives_default,
        }
    }

    /// The Rust type of a node; `name` is the type name to use if it needs one.
    fn ty_for(&mut self, name: &str, path: &str, schema: &'a Schema) -> Ty {
        if schema.int_or_string {
            return Ty::IntOrString;
        }
        match schema.type_ {
            None => Ty::Value,
            Some(Type::Boolean) => Ty::Bool,
            Some(Type::Integer) => match schema.format.as_deref() {
                Some("int32") => Ty::I32,
                _ => Ty::I64,
            },
            Some(Type::Number) => match schema.format.as_deref() {
                Some("float") => Ty::F32,
                _ => Ty::F64,
            },
            Some(Type::String) => {
                if schema.enum_.iter().any(|v| v.is_string())
                    && schema.enum_.iter().all(|v| v.is_string() || v.is_null())
                {
                    self.named(name, path, schema, |_, _| TypeBody::Enum(enum_def(schema)))
                } else {
                    Ty::String
                }
            }
            Some(Type::Array) => match &schema.items {
                Some(items) => {
                    let inner = self.ty_for(name, &format!("{path}[*]"), items);
                    Ty::Vec(Box::new(nullable(inner, items)))
                }
                None => Ty::Vec(Box::new(Ty::Value)),
            },
            Some(Type::Object) => {
                if !schema.properties.is_empty() {
                    self.named(name, path, schema, |planner, type_name| {
                        TypeBody::Struct(planner.struct_fields(type_name, path, schema, false))
                    })
                } else if let Some(values) = schema.additional_properties_schema() {
                    let inner = self.ty_for(name, &format!("{path}[*]"), values);
                    Ty::Map(Box::new(nullable(inner, values)))
                } else if schema.preserve_unknown_fields || schema.embedded_resource {
                    Ty::JsonMap
                } else if matches!(schema.additional_properties, Some(ir::AdditionalProperties::Bool(true))) {
                    Ty::Map(Box::new(Ty::Value))
                } else {
                    Ty::EmptyObject
                }
            }
        }
    }

    /// A named type for `schema`: an alias if an identical node was planned before.
    fn named(
        &mut self,
        name: &str,
        path: &str,
        schema: &'a Schema,
        body: impl FnOnce(&mut Self, &str) -> TypeBody<'a>,
    ) -> Ty {
        let identity = self.fingerprints.of(schema, false);
        let type_name = self.reserve(name);
        let id = self.push(TypeDef {
            name: type_name.clone(),
            schema,
            path: path.to_string(),
            body: TypeBody::Alias(0),
        });
        self.types[id].body = match self.canonical.get(&identity) {
            Some(&target) => TypeBody::Alias(target),
            None => {
                self.canonical.insert(identity, id);
                body(self, &type_name)
            }
        };
        Ty::Named(id)
    }
}

fn nullable(ty: Ty, schema: &Schema) -> Ty {
    if schema.nullable { Ty::Option(Box::new(ty)) } else { ty }
}

fn unique_field(name: String, taken: &mut HashSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    names::numbered(name.trim_start_matches("r#"), "_", taken)
}

fn enum_def(schema: &Schema) -> EnumDef {
    let mut taken = HashSet::new();
    let variants =
        schema
            .enum_
            .iter()
            .filter_map(|v| v.as_str())
            .fold(Vec::<(String, String)>::new(), |mut acc, value| {
                if !acc.iter().any(|(_, v)| v == value) {
                    acc.push((names::unique(names::variant_name(value), &mut taken), value.to_string()));
                }
                acc
            });
    EnumDef { variants }
}

/// Structural identities of schema nodes: equal numbers for nodes that would
/// generate the same code. A node's identity covers all its keywords and its
/// children (with their descriptions, which become field docs), but not its own
/// description. Computed bottom-up with interning, so the cost is linear.
#[derive(Default)]
struct Fingerprints {
    interned: HashMap<String, u32>,
    memo: HashMap<*const Schema, (u32, u32)>,
}

impl Fingerprints {
    fn of(&mut self, s: &Schema, with_description: bool) -> u32 {
        let (without, with) = self.compute(s);
        if with_description { with } else { without }
    }

    fn intern(&mut self, key: String) -> u32 {
        let next = self.interned.len() as u32;
        *self.interned.entry(key).or_insert(next)
    }

    fn compute(&mut self, s: &Schema) -> (u32, u32) {
        if let Some(&ids) = self.memo.get(&(s as *const Schema)) {
            return ids;
        }
        use std::fmt::Write;
        let own = s.own_keywords();
        // Junctors hold only value validations; their Debug text is small. (Writing to
        // a `String` cannot fail.)
        let mut key = String::new();
        let _ = write!(key, "{own:?}|{:?}|{:?}|{:?}|{:?}", s.all_of, s.any_of, s.one_of, s.not);
        for (name, child) in &s.properties {
            let c = self.of(child, true);
            let _ = write!(key, "|p{}:{name}={c}", name.len());
        }
        if let Some(items) = &s.items {
            let c = self.of(items, true);
            let _ = write!(key, "|i={c}");
        }
        match &s.additional_properties {
            Some(ir::AdditionalProperties::Schema(a)) => {
                let c = self.of(a, true);
                let _ = write!(key, "|a={c}");
            }
            Some(ir::AdditionalProperties::Bool(b)) => {
                let _ = write!(key, "|ab={b}");
            }
            None => {}
        }
        let without = self.intern(key);
        let with = self.intern(format!("{without}|d={:?}", s.description));
        self.memo.insert(s as *const Schema, (without, with));
        (without, with)
    }
}
