//! CEL types of schema nodes, as Kubernetes derives them (`k8s.io/apiserver`
//! `pkg/cel/common/schemas.go` `SchemaDeclType`, `pkg/cel/types.go` `DeclType`,
//! apiextensions `pkg/apiserver/schema/cel/model/schemas.go`
//! `WithTypeAndObjectMeta`, `pkg/cel/escaping.go` `Escape`).
//!
//! A [`DeclType`] carries, besides its CEL [`Type`], the two numbers the cost
//! estimator works with: the maximum size of values of the type
//! ([`DeclType::max_elements`]: characters of a string, bytes, items of a list,
//! entries of a map) and the minimum size of its JSON serialization
//! ([`DeclType::min_serialized_size`], for the cardinality of unbounded lists and
//! maps).
//!
//! | schema | CEL type | max elements |
//! |---|---|---|
//! | `x-kubernetes-int-or-string` | `dyn` | `maxLength*4`, else 3 MiB − 2 |
//! | `type: object` with `additionalProperties` schema | `map(string, V)` | `maxProperties`, else (3 MiB − 2) / (min size of V + 6) |
//! | `type: object` | object with the escapable properties as fields | |
//! | `type: array` | `list(T)` | `maxItems`, else (3 MiB − 2) / (min size of T + 1) |
//! | `type: string`, `format: byte` | `bytes` | `maxLength`, else 3 MiB − 2 |
//! | `format: duration` | `duration` | 32 |
//! | `format: date` / `date-time` | `timestamp` | 12 / 32 |
//! | `type: string` | `string` | `maxLength*4`, else longest enum value, else 3 MiB − 2 |
//! | `boolean`, `number`, `integer` | `bool`, `double`, `int` | |
//!
//! Nodes without a type (other than int-or-string) have no CEL type: as properties
//! they are not visible to CEL, as items or map values they hide their list or map.
//! At resource roots (the schema root and `x-kubernetes-embedded-resource` objects),
//! `apiVersion`, `kind` (strings) and `metadata` with just `name` and
//! `generateName` (strings of at most 253 and 252 characters) replace what the
//! schema declares, unless it declares exactly those as strings.

use std::collections::BTreeMap;
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::Value;

use super::env::{RESERVED_SYMBOLS, StructType};
use crate::cel::types::Type;
use crate::check::structural::{Generic, Structural, ValueValidation};

/// `MaxRequestSizeBytes` (3 MiB).
pub const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;
/// `MaxDurationSizeJSON`.
pub const MAX_DURATION_SIZE_JSON: i64 = 32;
/// `MaxDatetimeSizeJSON`.
pub const MAX_DATETIME_SIZE_JSON: i64 = 32;
/// `MinDurationSizeJSON`.
pub const MIN_DURATION_SIZE_JSON: i64 = 3;
/// `JSONDateSize`.
pub const JSON_DATE_SIZE: i64 = 12;
/// `MinDatetimeSizeJSON`.
pub const MIN_DATETIME_SIZE_JSON: i64 = 21;
/// `MinStringSize`.
pub const MIN_STRING_SIZE: i64 = 2;
/// `MinBoolSize`.
pub const MIN_BOOL_SIZE: i64 = 4;
/// `MinNumberSize`.
pub const MIN_NUMBER_SIZE: i64 = 1;
/// The default `maxLength` of `metadata.name` (`DNS1123SubdomainMaxLength`).
const NAME_MAX_LENGTH: i64 = 253;

/// The CEL type of a schema node, with its size limits (Go's `DeclType`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeclType {
    /// `object` until named (see [`DeclType::assign_type_name`]), then the object
    /// type name; `list`, `map`, or the scalar name (`string`, `int`, `dyn`, ...).
    pub name: String,
    pub kind: DeclKind,
    /// The CEL type (object types are `Type::Struct(name)`).
    pub cel_type: Type,
    /// Maximum size of a value (characters, bytes, items, entries); 0 when unknown
    /// or not applicable.
    pub max_elements: i64,
    /// Minimum size of the JSON serialization of a value.
    pub min_serialized_size: i64,
}

/// The shape of a [`DeclType`].
#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    /// A scalar (or `dyn`).
    Simple,
    List {
        elem: Arc<DeclType>,
    },
    Map {
        key: Arc<DeclType>,
        elem: Arc<DeclType>,
    },
    /// An object; fields by escaped property name.
    Object {
        fields: BTreeMap<String, DeclField>,
    },
}

/// A field of an object type (Go's `DeclField`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeclField {
    /// The escaped property name.
    pub name: String,
    pub ty: Arc<DeclType>,
    pub required: bool,
    pub enum_values: Vec<Value>,
    pub default: Option<Value>,
}

impl DeclType {
    fn simple(name: &str, cel_type: Type, min_size: i64) -> DeclType {
        DeclType {
            name: name.to_string(),
            kind: DeclKind::Simple,
            cel_type,
            max_elements: 0,
            min_serialized_size: min_size,
        }
    }

    fn new_list(elem: Arc<DeclType>, max_items: i64) -> DeclType {
        DeclType {
            name: "list".into(),
            cel_type: Type::list(elem.cel_type.clone()),
            kind: DeclKind::List { elem },
            max_elements: max_items,
            min_serialized_size: 2,
        }
    }

    fn new_map(key: Arc<DeclType>, elem: Arc<DeclType>, max_properties: i64) -> DeclType {
        DeclType {
            name: "map".into(),
            cel_type: Type::map(key.cel_type.clone(), elem.cel_type.clone()),
            kind: DeclKind::Map { key, elem },
            max_elements: max_properties,
            min_serialized_size: 2,
        }
    }

    /// The element type of a list or the value type of a map.
    pub fn elem(&self) -> Option<&Arc<DeclType>> {
        match &self.kind {
            DeclKind::List { elem } | DeclKind::Map { elem, .. } => Some(elem),
            _ => None,
        }
    }

    /// The key type of a map.
    pub fn key(&self) -> Option<&Arc<DeclType>> {
        match &self.kind {
            DeclKind::Map { key, .. } => Some(key),
            _ => None,
        }
    }

    /// The fields of an object.
    pub fn fields(&self) -> Option<&BTreeMap<String, DeclField>> {
        match &self.kind {
            DeclKind::Object { fields } => Some(fields),
            _ => None,
        }
    }

    /// Go's `MaybeAssignTypeName`: names the unnamed object types of this type
    /// (`name`, `name.field`, `name.@idx` for list items, `name.@elem` for map
    /// values), so that the checker can tell them apart.
    pub fn assign_type_name(self: &Arc<DeclType>, name: &str) -> Arc<DeclType> {
        match &self.kind {
            DeclKind::Object { fields } => {
                let mut updated = self.name == "object";
                let name = if self.name != "object" {
                    self.name.clone()
                } else {
                    name.to_string()
                };
                let mut new_fields = BTreeMap::new();
                for (fname, f) in fields {
                    let t = f.ty.assign_type_name(&format!("{name}.{fname}"));
                    if !Arc::ptr_eq(&t, &f.ty) {
                        updated = true;
                    }
                    new_fields.insert(fname.clone(), DeclField { ty: t, ..f.clone() });
                }
                if !updated {
                    return self.clone();
                }
                Arc::new(DeclType {
                    name: name.clone(),
                    kind: DeclKind::Object { fields: new_fields },
                    cel_type: Type::Struct(name),
                    max_elements: self.max_elements,
                    min_serialized_size: self.min_serialized_size,
                })
            }
            DeclKind::Map { key, elem } => {
                let e = elem.assign_type_name(&format!("{name}.@elem"));
                if Arc::ptr_eq(&e, elem) {
                    return self.clone();
                }
                Arc::new(DeclType::new_map(key.clone(), e, self.max_elements))
            }
            DeclKind::List { elem } => {
                let e = elem.assign_type_name(&format!("{name}.@idx"));
                if Arc::ptr_eq(&e, elem) {
                    return self.clone();
                }
                Arc::new(DeclType::new_list(e, self.max_elements))
            }
            DeclKind::Simple => self.clone(),
        }
    }

    /// The object types of this type by name, with their fields' CEL types, for
    /// the checker (Go's `FieldTypeMap` as the `DeclTypeProvider` uses it).
    pub fn struct_types(&self) -> Vec<(String, StructType)> {
        let mut out = Vec::new();
        self.collect_struct_types(&mut out);
        out
    }

    fn collect_struct_types(&self, out: &mut Vec<(String, StructType)>) {
        match &self.kind {
            DeclKind::Object { fields } => {
                out.push((
                    self.name.clone(),
                    StructType {
                        fields: fields.iter().map(|(n, f)| (n.clone(), f.ty.cel_type.clone())).collect(),
                        nameable: false,
                    },
                ));
                for f in fields.values() {
                    f.ty.collect_struct_types(out);
                }
            }
            DeclKind::List { elem } | DeclKind::Map { elem, .. } => elem.collect_struct_types(out),
            DeclKind::Simple => {}
        }
    }
}

/// Go's `SchemaDeclType`: the CEL type of a structural schema node, `None` if the
/// node is not visible to CEL. `is_resource_root` for the schema root and
/// `x-kubernetes-embedded-resource` nodes.
pub fn schema_decl_type(s: &Structural, is_resource_root: bool) -> Option<Arc<DeclType>> {
    let vv = &s.value_validation;
    if s.extensions.x_int_or_string {
        let mut dyn_type = DeclType::simple("dyn", Type::Dyn, 1);
        dyn_type.max_elements = match vv.max_length {
            Some(n) => n.max(0) * 4,
            None => MAX_REQUEST_SIZE_BYTES - 2,
        };
        return Some(Arc::new(dyn_type));
    }
    let with_meta;
    let s = if is_resource_root {
        with_meta = with_type_and_object_meta(s);
        &with_meta
    } else {
        s
    };
    let vv = &s.value_validation;
    match s.generic.type_.as_str() {
        "array" => {
            let items = s.items.as_deref()?;
            let item_type = schema_decl_type(items, items.extensions.x_embedded_resource)?;
            let max_items = match vv.max_items {
                Some(n) => n.max(0),
                None => (MAX_REQUEST_SIZE_BYTES - 2) / (item_type.min_serialized_size + 1),
            };
            Some(Arc::new(DeclType::new_list(item_type, max_items)))
        }
        "object" => {
            if let Some(ap) = &s.additional_properties
                && let Some(ap_schema) = ap.structural.as_deref()
            {
                let props_type = schema_decl_type(ap_schema, ap_schema.extensions.x_embedded_resource)?;
                let max_properties = match vv.max_properties {
                    Some(n) => n.max(0),
                    None => (MAX_REQUEST_SIZE_BYTES - 2) / (props_type.min_serialized_size + 6),
                };
                let key = Arc::new(DeclType::simple("string", Type::String, MIN_STRING_SIZE));
                return Some(Arc::new(DeclType::new_map(key, props_type, max_properties)));
            }
            let mut fields = BTreeMap::new();
            let mut min_serialized_size = 2i64;
            for (name, prop) in &s.properties {
                let Some(field_type) = schema_decl_type(prop, prop.extensions.x_embedded_resource) else {
                    continue;
                };
                let required = vv.required.iter().any(|r| r == name);
                if let Some(escaped) = escape(name) {
                    fields.insert(
                        escaped.clone(),
                        DeclField {
                            name: escaped,
                            ty: field_type.clone(),
                            required,
                            enum_values: prop.value_validation.enum_.clone(),
                            default: prop.generic.default.clone(),
                        },
                    );
                }
                if required && prop.generic.default.is_none() {
                    min_serialized_size += name.len() as i64 + field_type.min_serialized_size + 4;
                }
            }
            Some(Arc::new(DeclType {
                name: "object".into(),
                kind: DeclKind::Object { fields },
                cel_type: Type::object("object"),
                max_elements: 0,
                min_serialized_size,
            }))
        }
        "string" => {
            let string_max = MAX_REQUEST_SIZE_BYTES - 2;
            let t = match vv.format.as_str() {
                "byte" => {
                    let mut t = DeclType::simple("bytes", Type::Bytes, MIN_STRING_SIZE);
                    t.max_elements = vv.max_length.map_or(string_max, |n| n.max(0));
                    t
                }
                "duration" => {
                    let mut t = DeclType::simple("duration", Type::Duration, MIN_DURATION_SIZE_JSON);
                    t.max_elements = MAX_DURATION_SIZE_JSON;
                    t
                }
                "date" => {
                    let mut t = DeclType::simple("timestamp", Type::Timestamp, JSON_DATE_SIZE);
                    t.max_elements = JSON_DATE_SIZE;
                    t
                }
                "date-time" => {
                    let mut t = DeclType::simple("timestamp", Type::Timestamp, MIN_DATETIME_SIZE_JSON);
                    t.max_elements = MAX_DATETIME_SIZE_JSON;
                    t
                }
                _ => {
                    let mut t = DeclType::simple("string", Type::String, MIN_STRING_SIZE);
                    t.max_elements = match vv.max_length {
                        Some(n) => n.max(0) * 4,
                        None if !vv.enum_.is_empty() => vv
                            .enum_
                            .iter()
                            .filter_map(|v| v.as_str().map(|s| s.len() as i64))
                            .max()
                            .unwrap_or(0),
                        None => string_max,
                    };
                    t
                }
            };
            Some(Arc::new(t))
        }
        "boolean" => Some(Arc::new(DeclType::simple("bool", Type::Bool, MIN_BOOL_SIZE))),
        "number" => Some(Arc::new(DeclType::simple("double", Type::Double, MIN_NUMBER_SIZE))),
        "integer" => Some(Arc::new(DeclType::simple("int", Type::Int, MIN_NUMBER_SIZE))),
        _ => None,
    }
}

/// apiextensions' `WithTypeAndObjectMeta`: `kind`, `apiVersion`, `metadata.name` and
/// `metadata.generateName` as strings, unless the schema declares them so.
pub fn with_type_and_object_meta(s: &Structural) -> Structural {
    let is = |p: Option<&Structural>, t: &str| p.is_some_and(|p| p.generic.type_ == t);
    let metadata = s.properties.get("metadata");
    if !s.properties.is_empty()
        && is(s.properties.get("kind"), "string")
        && is(s.properties.get("apiVersion"), "string")
        && is(metadata, "object")
        && metadata.is_some_and(|m| {
            !m.properties.is_empty()
                && is(m.properties.get("name"), "string")
                && is(m.properties.get("generateName"), "string")
        })
    {
        return s.clone();
    }
    let string_type = || Structural {
        generic: Generic {
            type_: "string".into(),
            ..Default::default()
        },
        ..Default::default()
    };
    let capped = |existing: Option<&Structural>, max: i64| {
        let max = match existing.and_then(|e| e.value_validation.max_length) {
            Some(m) if m < max => m,
            _ => max,
        };
        Structural {
            generic: Generic {
                type_: "string".into(),
                ..Default::default()
            },
            value_validation: ValueValidation {
                max_length: Some(max),
                ..Default::default()
            },
            ..Default::default()
        }
    };
    let meta_props = metadata.map(|m| &m.properties);
    let mut props: IndexMap<String, Structural> = s.properties.clone();
    props.insert("kind".into(), string_type());
    props.insert("apiVersion".into(), string_type());
    let mut meta = IndexMap::new();
    meta.insert(
        "name".to_string(),
        capped(meta_props.and_then(|p| p.get("name")), NAME_MAX_LENGTH),
    );
    meta.insert(
        "generateName".to_string(),
        capped(meta_props.and_then(|p| p.get("generateName")), NAME_MAX_LENGTH - 1),
    );
    props.insert(
        "metadata".into(),
        Structural {
            generic: Generic {
                type_: "object".into(),
                ..Default::default()
            },
            properties: meta,
            ..Default::default()
        },
    );
    Structural {
        items: None,
        properties: props,
        additional_properties: s.additional_properties.clone(),
        generic: s.generic.clone(),
        extensions: s.extensions.clone(),
        validation_extensions: s.validation_extensions.clone(),
        value_validation: s.value_validation.clone(),
    }
}

/// Kubernetes' `Escape`: the CEL field name of a property, `None` if the property
/// cannot be named in CEL (empty, leading digit, or a character outside
/// `[a-zA-Z0-9_./-]`). Reserved words become `__<word>__`; `__`, `.`, `-` and `/`
/// become `__underscores__`, `__dot__`, `__dash__` and `__slash__`.
pub fn escape(ident: &str) -> Option<String> {
    let first = ident.as_bytes().first()?;
    if first.is_ascii_digit() {
        return None;
    }
    if RESERVED_SYMBOLS.contains(&ident) {
        return Some(format!("__{ident}__"));
    }
    let mut out = String::with_capacity(ident.len());
    let bytes = ident.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'_' && bytes.get(i + 1) == Some(&b'_') {
            out.push_str("__underscores__");
            i += 2;
            continue;
        }
        match c {
            b'.' => out.push_str("__dot__"),
            b'-' => out.push_str("__dash__"),
            b'/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == b'_' => out.push(c as char),
            _ => return None,
        }
        i += 1;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_kubernetes() {
        for (input, want) in [
            ("self", Some("self")),
            ("namespace", Some("__namespace__")),
            ("a__b", Some("a__underscores__b")),
            ("a___b", Some("a__underscores___b")),
            ("a.b-c/d", Some("a__dot__b__dash__c__slash__d")),
            ("_a", Some("_a")),
            ("1a", None),
            ("", None),
            ("a b", None),
            ("a:b", None),
            ("ünicode", None),
        ] {
            assert_eq!(escape(input).as_deref(), want, "{input}");
        }
    }
}
