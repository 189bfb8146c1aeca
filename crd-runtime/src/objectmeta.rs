//! Object metadata of custom resources, as the API server decodes, coerces and
//! validates it, with Go's messages:
//!
//! - decoding: [`get_object_meta`] / [`set_object_meta`] (apiextensions-apiserver
//!   `pkg/apiserver/schema/objectmeta/coerce.go`, `GetObjectMetaWithOptions` and
//!   `SetObjectMeta`): `metadata` is read into a `metav1.ObjectMeta` the way Go's
//!   `encoding/json` reads it (unknown fields ignored, case-sensitive names, the
//!   first type error reported, or with `drop_malformed` each malformed field dropped)
//!   and written back the way `runtime.DefaultUnstructuredConverter` writes it
//!   (empty fields omitted, timestamps in UTC to the second);
//! - coercion of embedded resources: [`coerce_embedded_field`] (`coerce.go`,
//!   `coercer.coerce` for an `x-kubernetes-embedded-resource` object);
//! - validation: [`validate_object_meta`] and [`validate_object_meta_update`]
//!   (apimachinery `pkg/api/validation/objectmeta.go`,
//!   `ValidateObjectMetaAccessor` and `ValidateObjectMetaAccessorUpdate`),
//!   [`validate_embedded_resource`] (`objectmeta/validation.go`),
//!   [`validate_type_meta`] and the scale checks [`validate_scale_spec`] /
//!   [`validate_scale_status`] (`pkg/registry/customresource/validator.go`).
//!
//! `ValidateObjectMetaDeclaratively` adds the declarative validation of `ObjectMeta`,
//! whose rules are all at the alpha stage and therefore not enforced: the handwritten
//! validation ported here is exactly what the API server reports.

use crate::admission::ScalePaths;
use crate::errors::{ErrorList, ErrorType, FieldError, Path};
use crate::gofmt;
use crate::k8s_format;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------
// metav1.ObjectMeta
// ---------------------------------------------------------------------------------------

/// A `metav1.Time`: an instant, to the nanosecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Time {
    /// Seconds since the Unix epoch.
    pub secs: i64,
    pub nanos: u32,
}

/// Seconds from 0001-01-01T00:00:00Z (Go's zero `time.Time`) to the Unix epoch.
const ZERO_TIME_SECS: i64 = -62_135_596_800;

impl Time {
    /// Go's zero time, `0001-01-01T00:00:00Z`.
    pub const ZERO: Time = Time {
        secs: ZERO_TIME_SECS,
        nanos: 0,
    };

    pub fn is_zero(&self) -> bool {
        *self == Time::ZERO
    }

    /// `t.UTC().Format(time.RFC3339)`.
    pub fn to_rfc3339(&self) -> String {
        let days = self.secs.div_euclid(86_400);
        let sod = self.secs.rem_euclid(86_400);
        let (y, m, d) = crate::time::civil_from_days(days);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            sod / 3600,
            sod % 3600 / 60,
            sod % 60
        )
    }

    /// `metav1.Time`'s JSON form: `null` for the zero time, else the RFC 3339 string.
    pub fn to_value(&self) -> Value {
        if self.is_zero() {
            Value::Null
        } else {
            Value::String(self.to_rfc3339())
        }
    }

    /// Go's `time.Parse(time.RFC3339, s)`, with Go's error message.
    pub fn parse_rfc3339(s: &str) -> Result<Time, String> {
        parse_rfc3339(s)
    }
}

/// A `metav1.OwnerReference`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnerReference {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: String,
    pub controller: Option<bool>,
    pub block_owner_deletion: Option<bool>,
}

impl OwnerReference {
    /// `json.Marshal` of the Go struct (fields in declaration order).
    fn go_json(&self) -> String {
        let mut s = format!(
            "{{\"apiVersion\":{},\"kind\":{},\"name\":{},\"uid\":{}",
            json_str(&self.api_version),
            json_str(&self.kind),
            json_str(&self.name),
            json_str(&self.uid)
        );
        if let Some(c) = self.controller {
            s.push_str(&format!(",\"controller\":{c}"));
        }
        if let Some(b) = self.block_owner_deletion {
            s.push_str(&format!(",\"blockOwnerDeletion\":{b}"));
        }
        s.push('}');
        s
    }
}

fn json_str(s: &str) -> String {
    gofmt::json(&Value::String(s.to_string()))
}

/// A `metav1.ManagedFieldsEntry`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ManagedFieldsEntry {
    pub manager: String,
    pub operation: String,
    pub api_version: String,
    pub time: Option<Time>,
    pub fields_type: String,
    /// `fieldsV1`, any JSON.
    pub fields_v1: Option<Value>,
    pub subresource: String,
}

/// A `metav1.ObjectMeta` as Go holds it (empty strings and zero numbers for absent
/// fields).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectMeta {
    pub name: String,
    pub generate_name: String,
    pub namespace: String,
    pub self_link: String,
    pub uid: String,
    pub resource_version: String,
    pub generation: i64,
    /// `None` is the zero time.
    pub creation_timestamp: Option<Time>,
    /// A `*Time`: `Some(Time::ZERO)` is a non-nil pointer to the zero time.
    pub deletion_timestamp: Option<Time>,
    pub deletion_grace_period_seconds: Option<i64>,
    pub labels: BTreeMap<String, String>,
    pub annotations: BTreeMap<String, String>,
    pub owner_references: Vec<OwnerReference>,
    pub finalizers: Vec<String>,
    pub managed_fields: Vec<ManagedFieldsEntry>,
}

impl ObjectMeta {
    /// `runtime.DefaultUnstructuredConverter.ToUnstructured`: empty fields omitted,
    /// `creationTimestamp` always written (`null` when zero).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        let mut s = |k: &str, v: &str| {
            if !v.is_empty() {
                m.insert(k.to_string(), Value::String(v.to_string()));
            }
        };
        s("name", &self.name);
        s("generateName", &self.generate_name);
        s("namespace", &self.namespace);
        s("selfLink", &self.self_link);
        s("uid", &self.uid);
        s("resourceVersion", &self.resource_version);
        if self.generation != 0 {
            m.insert("generation".into(), Value::from(self.generation));
        }
        m.insert(
            "creationTimestamp".into(),
            self.creation_timestamp.unwrap_or(Time::ZERO).to_value(),
        );
        if let Some(t) = self.deletion_timestamp {
            m.insert("deletionTimestamp".into(), t.to_value());
        }
        if let Some(g) = self.deletion_grace_period_seconds {
            m.insert("deletionGracePeriodSeconds".into(), Value::from(g));
        }
        let string_map = |map: &BTreeMap<String, String>| {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect())
        };
        if !self.labels.is_empty() {
            m.insert("labels".into(), string_map(&self.labels));
        }
        if !self.annotations.is_empty() {
            m.insert("annotations".into(), string_map(&self.annotations));
        }
        if !self.owner_references.is_empty() {
            let refs = self
                .owner_references
                .iter()
                .map(|r| {
                    let mut o = Map::new();
                    o.insert("apiVersion".into(), Value::String(r.api_version.clone()));
                    o.insert("kind".into(), Value::String(r.kind.clone()));
                    o.insert("name".into(), Value::String(r.name.clone()));
                    o.insert("uid".into(), Value::String(r.uid.clone()));
                    if let Some(c) = r.controller {
                        o.insert("controller".into(), Value::Bool(c));
                    }
                    if let Some(b) = r.block_owner_deletion {
                        o.insert("blockOwnerDeletion".into(), Value::Bool(b));
                    }
                    Value::Object(o)
                })
                .collect();
            m.insert("ownerReferences".into(), Value::Array(refs));
        }
        if !self.finalizers.is_empty() {
            m.insert(
                "finalizers".into(),
                Value::Array(self.finalizers.iter().cloned().map(Value::String).collect()),
            );
        }
        if !self.managed_fields.is_empty() {
            let entries = self
                .managed_fields
                .iter()
                .map(|e| {
                    let mut o = Map::new();
                    let mut s = |k: &str, v: &str| {
                        if !v.is_empty() {
                            o.insert(k.to_string(), Value::String(v.to_string()));
                        }
                    };
                    s("manager", &e.manager);
                    s("operation", &e.operation);
                    s("apiVersion", &e.api_version);
                    s("fieldsType", &e.fields_type);
                    s("subresource", &e.subresource);
                    if let Some(t) = e.time {
                        o.insert("time".into(), t.to_value());
                    }
                    if let Some(f) = &e.fields_v1 {
                        o.insert("fieldsV1".into(), f.clone());
                    }
                    Value::Object(o)
                })
                .collect();
            m.insert("managedFields".into(), Value::Array(entries));
        }
        Value::Object(m)
    }
}

// ---------------------------------------------------------------------------------------
// Decoding with Go's encoding/json semantics
// ---------------------------------------------------------------------------------------

/// What `encoding/json` calls a JSON value in `UnmarshalTypeError`.
fn json_kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
    }
}

/// The decoder state: the first type error (Go keeps decoding after one), and the
/// error context (innermost struct, stack of struct field names).
struct Decoder {
    saved: Option<String>,
    strukt: &'static str,
    stack: Vec<&'static str>,
    /// Paths of the fields `ObjectMeta` does not have (`metadata.foo`,
    /// `metadata.ownerReferences[0].foo`), in the order met: what a strict decoder
    /// reports.
    unknown: Vec<String>,
}

/// An error that stops decoding at once (an `UnmarshalJSON` failure).
type Hard = String;

impl Decoder {
    fn new() -> Self {
        Decoder {
            saved: None,
            strukt: "",
            stack: Vec::new(),
            unknown: Vec::new(),
        }
    }

    /// `saveError(&UnmarshalTypeError{Value: what, Type: go_type})` with the context.
    fn type_error(&mut self, what: &str, go_type: &str) {
        if self.saved.is_some() {
            return;
        }
        self.saved = Some(if self.strukt.is_empty() && self.stack.is_empty() {
            format!("json: cannot unmarshal {what} into Go value of type {go_type}")
        } else {
            format!(
                "json: cannot unmarshal {what} into Go struct field {}.{} of type {go_type}",
                self.strukt,
                self.stack.join(".")
            )
        });
    }

    fn finish(self, hard: Result<(), Hard>) -> Result<(), String> {
        hard?;
        match self.saved {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Decodes the value of struct field `name` (of struct `strukt`) with `f`.
    fn field<F>(&mut self, strukt: &'static str, name: &'static str, f: F) -> Result<(), Hard>
    where
        F: FnOnce(&mut Decoder) -> Result<(), Hard>,
    {
        let (old_struct, depth) = (self.strukt, self.stack.len());
        self.stack.push(name);
        self.strukt = strukt;
        let r = f(self);
        self.stack.truncate(depth);
        self.strukt = old_struct;
        r
    }

    fn string(&mut self, v: &Value, into: &mut String, go_type: &str) {
        match v {
            Value::Null => {}
            Value::String(s) => *into = s.clone(),
            other => self.type_error(&json_kind(other), go_type),
        }
    }

    fn int64(&mut self, v: &Value) -> Option<i64> {
        match v {
            Value::Null => None,
            Value::Number(n) => {
                let text = gofmt::json(v);
                match n.as_i64() {
                    Some(i) => Some(i),
                    None => match text.parse::<i64>() {
                        Ok(i) => Some(i),
                        Err(_) => {
                            self.type_error(&format!("number {text}"), "int64");
                            None
                        }
                    },
                }
            }
            other => {
                self.type_error(&json_kind(other), "int64");
                None
            }
        }
    }

    fn bool_ptr(&mut self, v: &Value, into: &mut Option<bool>) {
        match v {
            Value::Null => *into = None,
            Value::Bool(b) => *into = Some(*b),
            other => self.type_error(&json_kind(other), "bool"),
        }
    }

    /// `metav1.Time.UnmarshalJSON` (a non-pointer `Time`: `null` is the zero time).
    fn time(&mut self, v: &Value) -> Result<Option<Time>, Hard> {
        match v {
            Value::Null => Ok(None),
            Value::String(s) => {
                let t = parse_rfc3339(s)?;
                Ok((!t.is_zero()).then_some(t))
            }
            other => Err(format!(
                "json: cannot unmarshal {} into Go value of type string",
                json_kind(other)
            )),
        }
    }

    /// A `*metav1.Time`: `null` is a nil pointer.
    fn time_ptr(&mut self, v: &Value) -> Result<Option<Time>, Hard> {
        match v {
            Value::Null => Ok(None),
            _ => Ok(Some(self.time(v)?.unwrap_or(Time::ZERO))),
        }
    }

    fn string_map(&mut self, v: &Value, into: &mut BTreeMap<String, String>) {
        match v {
            Value::Null => into.clear(),
            Value::Object(m) => {
                for (k, x) in m {
                    match x {
                        Value::Null => {
                            into.insert(k.clone(), String::new());
                        }
                        Value::String(s) => {
                            into.insert(k.clone(), s.clone());
                        }
                        other => self.type_error(&json_kind(other), "string"),
                    }
                }
            }
            other => self.type_error(&json_kind(other), "map[string]string"),
        }
    }

    fn string_slice(&mut self, v: &Value, into: &mut Vec<String>) {
        match v {
            Value::Null => into.clear(),
            Value::Array(a) => {
                let mut out = Vec::with_capacity(a.len());
                for x in a {
                    match x {
                        Value::Null => out.push(String::new()),
                        Value::String(s) => out.push(s.clone()),
                        other => {
                            self.type_error(&json_kind(other), "string");
                            out.push(String::new());
                        }
                    }
                }
                *into = out;
            }
            other => self.type_error(&json_kind(other), "[]string"),
        }
    }

    fn owner_references(&mut self, v: &Value, into: &mut Vec<OwnerReference>) -> Result<(), Hard> {
        match v {
            Value::Null => into.clear(),
            Value::Array(a) => {
                let mut out = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    let mut r = OwnerReference::default();
                    match x {
                        Value::Null => {}
                        Value::Object(m) => {
                            for (k, fv) in m {
                                const S: &str = "OwnerReference";
                                match k.as_str() {
                                    "apiVersion" => self.field(S, "apiVersion", |d| {
                                        d.string(fv, &mut r.api_version, "string");
                                        Ok(())
                                    })?,
                                    "kind" => self.field(S, "kind", |d| {
                                        d.string(fv, &mut r.kind, "string");
                                        Ok(())
                                    })?,
                                    "name" => self.field(S, "name", |d| {
                                        d.string(fv, &mut r.name, "string");
                                        Ok(())
                                    })?,
                                    "uid" => self.field(S, "uid", |d| {
                                        d.string(fv, &mut r.uid, "types.UID");
                                        Ok(())
                                    })?,
                                    "controller" => self.field(S, "controller", |d| {
                                        d.bool_ptr(fv, &mut r.controller);
                                        Ok(())
                                    })?,
                                    "blockOwnerDeletion" => self.field(S, "blockOwnerDeletion", |d| {
                                        d.bool_ptr(fv, &mut r.block_owner_deletion);
                                        Ok(())
                                    })?,
                                    _ => self.unknown.push(format!("metadata.ownerReferences[{i}].{k}")),
                                }
                            }
                        }
                        other => self.type_error(&json_kind(other), "v1.OwnerReference"),
                    }
                    out.push(r);
                }
                *into = out;
            }
            other => self.type_error(&json_kind(other), "[]v1.OwnerReference"),
        }
        Ok(())
    }

    fn managed_fields(&mut self, v: &Value, into: &mut Vec<ManagedFieldsEntry>) -> Result<(), Hard> {
        match v {
            Value::Null => into.clear(),
            Value::Array(a) => {
                let mut out = Vec::with_capacity(a.len());
                for (i, x) in a.iter().enumerate() {
                    let mut e = ManagedFieldsEntry::default();
                    match x {
                        Value::Null => {}
                        Value::Object(m) => {
                            for (k, fv) in m {
                                const S: &str = "ManagedFieldsEntry";
                                match k.as_str() {
                                    "manager" => self.field(S, "manager", |d| {
                                        d.string(fv, &mut e.manager, "string");
                                        Ok(())
                                    })?,
                                    "operation" => self.field(S, "operation", |d| {
                                        d.string(fv, &mut e.operation, "v1.ManagedFieldsOperationType");
                                        Ok(())
                                    })?,
                                    "apiVersion" => self.field(S, "apiVersion", |d| {
                                        d.string(fv, &mut e.api_version, "string");
                                        Ok(())
                                    })?,
                                    "time" => self.field(S, "time", |d| {
                                        e.time = d.time_ptr(fv)?;
                                        Ok(())
                                    })?,
                                    "fieldsType" => self.field(S, "fieldsType", |d| {
                                        d.string(fv, &mut e.fields_type, "string");
                                        Ok(())
                                    })?,
                                    "fieldsV1" => e.fields_v1 = (!fv.is_null()).then(|| fv.clone()),
                                    "subresource" => self.field(S, "subresource", |d| {
                                        d.string(fv, &mut e.subresource, "string");
                                        Ok(())
                                    })?,
                                    _ => self.unknown.push(format!("metadata.managedFields[{i}].{k}")),
                                }
                            }
                        }
                        other => self.type_error(&json_kind(other), "v1.ManagedFieldsEntry"),
                    }
                    out.push(e);
                }
                *into = out;
            }
            other => self.type_error(&json_kind(other), "[]v1.ManagedFieldsEntry"),
        }
        Ok(())
    }

    /// Decodes one `ObjectMeta` field into `meta`.
    fn meta_field(&mut self, meta: &mut ObjectMeta, k: &str, v: &Value) -> Result<(), Hard> {
        const S: &str = "ObjectMeta";
        macro_rules! string_field {
            ($name:literal, $field:ident, $ty:literal) => {
                self.field(S, $name, |d| {
                    d.string(v, &mut meta.$field, $ty);
                    Ok(())
                })
            };
        }
        match k {
            "name" => string_field!("name", name, "string"),
            "generateName" => string_field!("generateName", generate_name, "string"),
            "namespace" => string_field!("namespace", namespace, "string"),
            "selfLink" => string_field!("selfLink", self_link, "string"),
            "uid" => string_field!("uid", uid, "types.UID"),
            "resourceVersion" => string_field!("resourceVersion", resource_version, "string"),
            "generation" => self.field(S, "generation", |d| {
                if let Some(g) = d.int64(v) {
                    meta.generation = g;
                }
                Ok(())
            }),
            "creationTimestamp" => self.field(S, "creationTimestamp", |d| {
                meta.creation_timestamp = d.time(v)?;
                Ok(())
            }),
            "deletionTimestamp" => self.field(S, "deletionTimestamp", |d| {
                meta.deletion_timestamp = d.time_ptr(v)?;
                Ok(())
            }),
            "deletionGracePeriodSeconds" => self.field(S, "deletionGracePeriodSeconds", |d| {
                match v {
                    Value::Null => meta.deletion_grace_period_seconds = None,
                    _ => {
                        if let Some(g) = d.int64(v) {
                            meta.deletion_grace_period_seconds = Some(g);
                        }
                    }
                }
                Ok(())
            }),
            "labels" => self.field(S, "labels", |d| {
                d.string_map(v, &mut meta.labels);
                Ok(())
            }),
            "annotations" => self.field(S, "annotations", |d| {
                d.string_map(v, &mut meta.annotations);
                Ok(())
            }),
            "ownerReferences" => self.field(S, "ownerReferences", |d| {
                d.owner_references(v, &mut meta.owner_references)
            }),
            "finalizers" => self.field(S, "finalizers", |d| {
                d.string_slice(v, &mut meta.finalizers);
                Ok(())
            }),
            "managedFields" => self.field(S, "managedFields", |d| d.managed_fields(v, &mut meta.managed_fields)),
            _ => {
                self.unknown.push(format!("metadata.{k}"));
                Ok(())
            }
        }
    }
}

/// The fields of `metadata` that `ObjectMeta` does not have, as paths
/// (`metadata.foo`, `metadata.ownerReferences[0].foo`) in the order a strict decoder
/// meets them in the re-encoded JSON (keys sorted): what the API server reports as
/// unknown fields under `fieldValidation` Warn or Strict.
pub fn unknown_object_meta_fields(metadata: &Value) -> Vec<String> {
    let mut meta = ObjectMeta::default();
    let mut d = Decoder::new();
    if let Value::Object(m) = metadata {
        for (k, v) in m {
            if d.meta_field(&mut meta, k, v).is_err() {
                break;
            }
        }
    }
    d.unknown
}

/// `json.Unmarshal(json.Marshal(metadata), &metav1.ObjectMeta{})`: the decoded
/// metadata, or Go's error message.
pub fn decode_object_meta(metadata: &Value) -> Result<ObjectMeta, String> {
    let mut meta = ObjectMeta::default();
    let mut d = Decoder::new();
    let hard = match metadata {
        Value::Null => Ok(()),
        Value::Object(m) => (|| {
            for (k, v) in m {
                d.meta_field(&mut meta, k, v)?;
            }
            Ok(())
        })(),
        other => {
            d.type_error(&json_kind(other), "v1.ObjectMeta");
            Ok(())
        }
    };
    d.finish(hard)?;
    Ok(meta)
}

/// Go's `GetObjectMetaWithOptions` (without unknown-field paths): `Ok(None)` when
/// `obj` has no `metadata`. With `drop_malformed`, fields that do not decode are
/// dropped one by one; a `metadata` that is not an object is still an error.
pub fn get_object_meta(obj: &Map<String, Value>, drop_malformed: bool) -> Result<Option<ObjectMeta>, String> {
    let Some(metadata) = obj.get("metadata") else {
        return Ok(None);
    };
    let err = match decode_object_meta(metadata) {
        Ok(m) => return Ok(Some(m)),
        Err(e) => e,
    };
    if !drop_malformed {
        return Err(err);
    }
    let Value::Object(fields) = metadata else {
        return Err(format!(
            "invalid metadata: expected object, got {}",
            go_type_name(metadata)
        ));
    };
    let mut meta = ObjectMeta::default();
    for (k, v) in fields {
        let mut test = ObjectMeta::default();
        let mut d = Decoder::new();
        let hard = d.meta_field(&mut test, k, v);
        if d.finish(hard).is_ok() {
            let mut d = Decoder::new();
            let _ = d.meta_field(&mut meta, k, v);
        }
    }
    Ok(Some(meta))
}

/// Whether `metadata` is already what decoding it and [`set_object_meta`] would write
/// (without the zero `creationTimestamp`): only non-empty strings in the plain string
/// fields and non-empty string maps in `labels` and `annotations`.
pub fn round_trips(metadata: &Value) -> bool {
    MetaFields::plain(metadata).is_some()
}

/// Go's `SetObjectMeta`: writes `meta` back as `obj["metadata"]`.
pub fn set_object_meta(obj: &mut Map<String, Value>, meta: &ObjectMeta) {
    obj.insert("metadata".into(), meta.to_value());
}

// ---------------------------------------------------------------------------------------
// time.Parse(time.RFC3339, s)
// ---------------------------------------------------------------------------------------

fn parse_rfc3339(value: &str) -> Result<Time, String> {
    let (secs, nanos, _offset) = crate::time::go_time_parse(value, crate::time::GoLayout::Rfc3339)?;
    Ok(Time { secs, nanos })
}

// ---------------------------------------------------------------------------------------
// Go's %v and %T of unstructured values
// ---------------------------------------------------------------------------------------

/// `fmt.Sprintf("%v", v)` of an unstructured value.
pub fn go_print_v(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(_) => gofmt::bad_value(v),
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(go_print_v).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => format!(
            "map[{}]",
            m.iter()
                .map(|(k, v)| format!("{k}:{}", go_print_v(v)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

/// `fmt.Sprintf("%T", v)` of an unstructured value.
pub fn go_type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.as_i64().is_some() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

// ---------------------------------------------------------------------------------------
// Embedded resources: coercion and validation
// ---------------------------------------------------------------------------------------

/// How `objectmeta.Coerce` treats the fields of embedded resources, and what it found.
#[derive(Debug, Default)]
pub struct Coercion {
    /// The storage decoder's way: malformed fields are dropped. Without it (the
    /// request decoder) the first malformed field is an error, and unknown metadata
    /// fields are collected.
    pub drop_invalid: bool,
    /// The unknown fields of embedded resources' metadata
    /// (`spec.template.metadata.foo`), in the order met.
    pub unknown: Vec<String>,
}

impl Coercion {
    /// The request decoder's coercion (`drop_invalid` false) or the storage
    /// decoder's.
    pub fn new(drop_invalid: bool) -> Coercion {
        Coercion {
            drop_invalid,
            unknown: Vec::new(),
        }
    }
}

/// Go's `coercer.coerce` for key `key` of an `x-kubernetes-embedded-resource` object
/// `obj` at `path`: `apiVersion` and `kind` must be strings (when dropping invalid
/// fields they are removed instead), `metadata` is decoded and written back as
/// `ObjectMeta` (unknown fields dropped, and noted in `cx` by the request decoder, a
/// zero `creationTimestamp` removed). Other keys are untouched. The caller walks the
/// keys in order and recurses into the values itself.
pub fn coerce_embedded_field(
    path: &Path,
    obj: &mut Map<String, Value>,
    key: &str,
    cx: &mut Coercion,
) -> Result<(), FieldError> {
    let drop_invalid = cx.drop_invalid;
    match key {
        "apiVersion" | "kind" => {
            let Some(v) = obj.get(key) else {
                return Ok(());
            };
            if !v.is_string() {
                if drop_invalid {
                    obj.remove(key);
                } else {
                    return Err(FieldError::invalid(
                        path.field(key).to_field_string(),
                        v.clone(),
                        "must be a string",
                    ));
                }
            }
            Ok(())
        }
        "metadata" => {
            match get_object_meta(obj, drop_invalid) {
                Err(e) => {
                    if !drop_invalid {
                        let v = obj.get("metadata").cloned().unwrap_or(Value::Null);
                        return Err(FieldError::invalid(path.field("metadata").to_field_string(), v, e));
                    }
                }
                Ok(Some(meta)) => {
                    if !drop_invalid && let Some(metadata) = obj.get("metadata") {
                        let at = path.to_field_string();
                        cx.unknown.extend(
                            unknown_object_meta_fields(metadata)
                                .into_iter()
                                .map(|f| if at.is_empty() { f } else { format!("{at}.{f}") }),
                        );
                    }
                    set_object_meta(obj, &meta);
                    if meta.creation_timestamp.is_none()
                        && let Some(Value::Object(m)) = obj.get_mut("metadata")
                    {
                        m.remove("creationTimestamp");
                    }
                }
                Ok(None) => {}
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Go's `validateEmbeddedResource`: `apiVersion` and `kind` required strings, the
/// group-version parsable, the kind a DNS-1035 label in any case, and the metadata
/// valid (names as path segments, a namespace only checked when set).
pub fn validate_embedded_resource(path: &Path, obj: &Map<String, Value>) -> ErrorList {
    let mut errs = ErrorList::new();
    if !obj.contains_key("apiVersion") {
        errs.push(FieldError::required(path.field("apiVersion").to_field_string(), ""));
    }
    if !obj.contains_key("kind") {
        errs.push(FieldError::required(path.field("kind").to_field_string(), ""));
    }
    for (k, v) in obj {
        match k.as_str() {
            "apiVersion" => {
                let p = path.field("apiVersion").to_field_string();
                match v {
                    Value::String(s) if s.is_empty() => {
                        errs.push(FieldError::invalid(p, v.clone(), "must not be empty"))
                    }
                    Value::String(s) => {
                        if let Err(e) = parse_group_version(s) {
                            errs.push(FieldError::invalid(p, v.clone(), e));
                        }
                    }
                    _ => errs.push(FieldError::invalid(p, v.clone(), "must be a string")),
                }
            }
            "kind" => {
                let p = path.field("kind").to_field_string();
                match v {
                    Value::String(s) if s.is_empty() => {
                        errs.push(FieldError::invalid(p, v.clone(), "must not be empty"))
                    }
                    Value::String(s) => {
                        let e = k8s_format::is_dns1035_label(&s.to_lowercase());
                        if !e.is_empty() {
                            errs.push(FieldError::invalid(
                                p,
                                v.clone(),
                                format!("may have mixed case, but should otherwise match: {}", e.join(",")),
                            ));
                        }
                    }
                    _ => errs.push(FieldError::invalid(p, v.clone(), "must be a string")),
                }
            }
            "metadata" => {
                let p = path.field("metadata");
                match get_object_meta(obj, false) {
                    Err(e) => errs.push(FieldError::invalid(p.to_field_string(), v.clone(), e)),
                    Ok(meta) => {
                        let mut meta = meta.unwrap_or_default();
                        if meta.name.is_empty() {
                            meta.name = "fakename".into();
                        }
                        let requires_namespace = !meta.namespace.is_empty();
                        errs.extend(validate_object_meta(
                            &meta,
                            requires_namespace,
                            path_segment_name,
                            &p.to_field_string(),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    errs
}

/// `schema.ParseGroupVersion`.
pub fn parse_group_version(gv: &str) -> Result<(&str, &str), String> {
    if gv.is_empty() || gv == "/" {
        return Ok(("", ""));
    }
    match gv.split_once('/') {
        None => Ok(("", gv)),
        Some((group, version)) if !version.contains('/') => Ok((group, version)),
        Some(_) => Err(format!("unexpected GroupVersion string: {gv}")),
    }
}

// ---------------------------------------------------------------------------------------
// ObjectMeta validation (apimachinery pkg/api/validation/objectmeta.go)
// ---------------------------------------------------------------------------------------

/// A name validation function (`ValidateNameFunc`): the problems of `name`, which is a
/// `generateName` prefix when the flag is set.
pub type NameFn = fn(&str, bool) -> Vec<String>;

/// `NameIsDNSSubdomain`: the names of custom resources.
pub fn dns_subdomain_name(name: &str, prefix: bool) -> Vec<String> {
    k8s_format::name_is_dns_subdomain(name, prefix)
}

/// `validatePathSegment` (`content.IsPathSegmentName`/`IsPathSegmentPrefix`): the
/// names of embedded resources.
pub fn path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix {
        for illegal in [".", ".."] {
            if name == illegal {
                return vec![format!("may not be '{illegal}'")];
            }
        }
    }
    ["/", "%"]
        .iter()
        .filter(|c| name.contains(*c))
        .map(|c| format!("may not contain '{c}'"))
        .collect()
}

fn child(path: &str, name: &str) -> String {
    if path.is_empty() || path == "<nil>" {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// `ValidateObjectMetaAccessor` (and, for custom resources with the DNS-subdomain
/// name function, `ValidateObjectMeta` as the create strategy calls it).
pub fn validate_object_meta(meta: &ObjectMeta, requires_namespace: bool, name_fn: NameFn, path: &str) -> ErrorList {
    validate_meta_fields(&MetaFields::decoded(meta), requires_namespace, name_fn, path)
}

/// What the object-metadata validation reads, borrowed: from a decoded
/// [`ObjectMeta`], or straight from metadata that holds only non-empty strings and
/// string maps ([`round_trips`]; what almost every request sends), which is then
/// validated without decoding it.
pub struct MetaFields<'a> {
    name: &'a str,
    generate_name: &'a str,
    namespace: &'a str,
    generation: i64,
    labels: StringPairs<'a>,
    annotations: StringPairs<'a>,
    owner_references: &'a [OwnerReference],
    finalizers: &'a [String],
    managed_fields: &'a [ManagedFieldsEntry],
}

/// Labels or annotations, decoded or as JSON (every value a string).
#[derive(Clone, Copy)]
enum StringPairs<'a> {
    None,
    Decoded(&'a BTreeMap<String, String>),
    Json(&'a Map<String, Value>),
}

impl<'a> StringPairs<'a> {
    fn is_empty(self) -> bool {
        match self {
            StringPairs::None => true,
            StringPairs::Decoded(m) => m.is_empty(),
            StringPairs::Json(m) => m.is_empty(),
        }
    }

    /// `check` of the pairs, whichever form they are in.
    fn check(self, check: impl FnOnce(&mut dyn Iterator<Item = (&'a str, &'a str)>) -> ErrorList) -> ErrorList {
        match self {
            StringPairs::None => check(&mut std::iter::empty()),
            StringPairs::Decoded(m) => check(&mut pairs(m)),
            // Plain metadata's maps hold only strings (`round_trips`).
            StringPairs::Json(m) => check(&mut m.iter().map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))),
        }
    }
}

impl<'a> MetaFields<'a> {
    fn decoded(meta: &'a ObjectMeta) -> Self {
        MetaFields {
            name: &meta.name,
            generate_name: &meta.generate_name,
            namespace: &meta.namespace,
            generation: meta.generation,
            labels: StringPairs::Decoded(&meta.labels),
            annotations: StringPairs::Decoded(&meta.annotations),
            owner_references: &meta.owner_references,
            finalizers: &meta.finalizers,
            managed_fields: &meta.managed_fields,
        }
    }

    /// The fields of `metadata` when it [round-trips](round_trips) (which this decides):
    /// it then decodes to exactly these strings and maps, and everything else empty.
    /// One pass over the entries reads them (a lookup per field cost more than the pass).
    pub fn plain(metadata: &'a Value) -> Option<Self> {
        let Value::Object(m) = metadata else {
            return None;
        };
        let mut fields = MetaFields {
            name: "",
            generate_name: "",
            namespace: "",
            generation: 0,
            labels: StringPairs::None,
            annotations: StringPairs::None,
            owner_references: &[],
            finalizers: &[],
            managed_fields: &[],
        };
        for (k, v) in m {
            // Only non-empty strings in the plain string fields and non-empty string maps
            // in `labels` and `annotations` round-trip.
            match (k.as_str(), v) {
                (_, Value::String(s)) if s.is_empty() => return None,
                ("name", Value::String(s)) => fields.name = s,
                ("generateName", Value::String(s)) => fields.generate_name = s,
                ("namespace", Value::String(s)) => fields.namespace = s,
                ("selfLink" | "uid" | "resourceVersion", Value::String(_)) => {}
                ("labels" | "annotations", Value::Object(pairs))
                    if !pairs.is_empty() && pairs.values().all(Value::is_string) =>
                {
                    match k.as_str() {
                        "labels" => fields.labels = StringPairs::Json(pairs),
                        _ => fields.annotations = StringPairs::Json(pairs),
                    }
                }
                _ => return None,
            }
        }
        Some(fields)
    }
}

/// [`validate_object_meta`] of borrowed fields.
pub fn validate_meta_fields(meta: &MetaFields, requires_namespace: bool, name_fn: NameFn, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    if !meta.generate_name.is_empty() {
        for msg in name_fn(meta.generate_name, true) {
            errs.push(FieldError::invalid(
                child(path, "generateName"),
                Value::from(meta.generate_name),
                msg,
            ));
        }
    }
    if meta.name.is_empty() {
        errs.push(FieldError::required(
            child(path, "name"),
            "name or generateName is required",
        ));
    } else {
        for msg in name_fn(meta.name, false) {
            errs.push(FieldError::invalid(child(path, "name"), Value::from(meta.name), msg));
        }
    }
    errs.extend(validate_common(meta, requires_namespace, path));
    errs
}

/// `validateObjectMetaAccessorWithOptsCommon`.
fn validate_common(meta: &MetaFields, is_namespaced: bool, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    if is_namespaced {
        if meta.namespace.is_empty() {
            errs.push(FieldError::required(child(path, "namespace"), ""));
        } else {
            for msg in k8s_format::name_is_dns_label(meta.namespace, false) {
                errs.push(FieldError::invalid(
                    child(path, "namespace"),
                    Value::from(meta.namespace),
                    msg,
                ));
            }
        }
    } else if !meta.namespace.is_empty() {
        errs.push(FieldError::forbidden(
            child(path, "namespace"),
            "not allowed on this type",
        ));
    }
    // Paths are built only for the fields that are set: this runs on every request.
    errs.extend(validate_nonnegative(meta.generation, || child(path, "generation")));
    if !meta.labels.is_empty() {
        let path = child(path, "labels");
        errs.extend(meta.labels.check(|pairs| validate_labels(pairs, &path)));
    }
    if !meta.annotations.is_empty() {
        let path = child(path, "annotations");
        errs.extend(meta.annotations.check(|pairs| validate_annotations(pairs, &path)));
    }
    if !meta.owner_references.is_empty() {
        errs.extend(validate_owner_references(
            meta.owner_references,
            &child(path, "ownerReferences"),
        ));
    }
    if !meta.finalizers.is_empty() {
        errs.extend(validate_finalizers(meta.finalizers, &child(path, "finalizers")));
    }
    if !meta.managed_fields.is_empty() {
        errs.extend(validate_managed_fields(
            meta.managed_fields,
            &child(path, "managedFields"),
        ));
    }
    errs
}

fn validate_nonnegative(value: i64, path: impl FnOnce() -> String) -> ErrorList {
    if value < 0 {
        vec![FieldError::invalid(
            path(),
            Value::from(value),
            "must be greater than or equal to 0",
        )]
    } else {
        Vec::new()
    }
}

/// `v1validation.ValidateLabels` (keys in sorted order; Go's is random).
pub fn validate_labels<'a>(labels: impl IntoIterator<Item = (&'a str, &'a str)>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    for (k, v) in labels {
        for msg in k8s_format::is_qualified_name(k) {
            errs.push(FieldError::invalid(path, Value::from(k), msg));
        }
        for msg in k8s_format::is_valid_label_value(v) {
            errs.push(FieldError::invalid(path, Value::from(v), msg));
        }
    }
    errs
}

/// The entries of a map of strings, borrowed.
fn pairs(map: &BTreeMap<String, String>) -> impl Iterator<Item = (&str, &str)> {
    map.iter().map(|(k, v)| (k.as_str(), v.as_str()))
}

/// `TotalAnnotationSizeLimitB`.
pub const TOTAL_ANNOTATION_SIZE_LIMIT: i64 = 256 * 1024;

/// `ValidateAnnotations`.
pub fn validate_annotations<'a>(annotations: impl IntoIterator<Item = (&'a str, &'a str)>, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut total: i64 = 0;
    for (k, v) in annotations {
        for msg in k8s_format::is_qualified_name(&k.to_lowercase()) {
            errs.push(FieldError::invalid(path, Value::from(k), msg));
        }
        total += (k.len() + v.len()) as i64;
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        errs.push(FieldError::too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    errs
}

/// `ValidateOwnerReferences`.
pub fn validate_owner_references(refs: &[OwnerReference], path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut first_controller = String::new();
    for (i, r) in refs.iter().enumerate() {
        let p = index(path, i);
        let gv = parse_group_version(&r.api_version);
        if r.api_version.is_empty() {
            errs.push(FieldError::required(child(&p, "apiVersion"), "must not be empty"));
        } else if gv.as_ref().map_or(true, |(_, v)| v.is_empty()) {
            errs.push(FieldError::invalid(
                child(&p, "apiVersion"),
                Value::String(r.api_version.clone()),
                "must be <group>/<version> or <version>",
            ));
        }
        if r.kind.is_empty() {
            errs.push(FieldError::required(child(&p, "kind"), "must not be empty"));
        }
        if r.name.is_empty() {
            errs.push(FieldError::required(child(&p, "name"), "must not be empty"));
        }
        if r.uid.is_empty() {
            errs.push(FieldError::required(child(&p, "uid"), "must not be empty"));
        }
        let (group, version) = gv.unwrap_or(("", ""));
        if group.is_empty() && version == "v1" && r.kind == "Event" {
            // The bad value is the Go struct, printed as JSON in field order.
            errs.push(FieldError::new(
                ErrorType::Invalid,
                p.clone(),
                None,
                format!("{}: /v1, Kind=Event is disallowed from being an owner", r.go_json()),
            ));
        }
        if r.controller == Some(true) {
            let current = format!("{}/{}", r.kind, r.name);
            if !first_controller.is_empty() {
                let all: Vec<String> = refs.iter().map(OwnerReference::go_json).collect();
                errs.push(FieldError::new(
                    ErrorType::Invalid,
                    path,
                    None,
                    format!(
                        "[{}]: Only one reference can have Controller set to true. Found \"true\" in references for {first_controller} and {current}",
                        all.join(",")
                    ),
                ));
            } else {
                first_controller = current;
            }
        }
    }
    errs
}

/// `ValidateFinalizers`.
pub fn validate_finalizers(finalizers: &[String], path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    let (mut orphan, mut foreground) = (false, false);
    for f in finalizers {
        for msg in k8s_format::is_qualified_name(f) {
            errs.push(FieldError::invalid(path, Value::String(f.clone()), msg));
        }
        orphan |= f == "orphan";
        foreground |= f == "foregroundDeletion";
    }
    if orphan && foreground {
        errs.push(FieldError::invalid(
            path,
            Value::Array(finalizers.iter().cloned().map(Value::String).collect()),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// `v1validation.ValidateManagedFields`.
pub fn validate_managed_fields(entries: &[ManagedFieldsEntry], path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    for (i, e) in entries.iter().enumerate() {
        let p = index(path, i);
        match e.operation.as_str() {
            "" => errs.push(FieldError::required(child(&p, "operation"), "must not be empty")),
            "Apply" | "Update" => {}
            other => errs.push(FieldError::not_supported(
                child(&p, "operation"),
                Value::String(other.to_string()),
                &["Apply", "Update"],
            )),
        }
        if !e.fields_type.is_empty() && e.fields_type != "FieldsV1" {
            errs.push(FieldError::invalid(
                child(&p, "fieldsType"),
                Value::String(e.fields_type.clone()),
                "must be `FieldsV1`",
            ));
        }
        let manager_path = child(&p, "manager");
        if e.manager.len() > 128 {
            errs.push(FieldError::too_long(manager_path.clone(), 128));
        }
        for (pos, c) in e.manager.char_indices() {
            if !is_go_print(c) {
                errs.push(FieldError::invalid(
                    manager_path.clone(),
                    Value::String(e.manager.clone()),
                    format!("invalid character U+{:04X} (at position {pos})", c as u32),
                ));
            }
        }
        if e.subresource.len() > 256 {
            errs.push(FieldError::too_long(child(&p, "subresource"), 256));
        }
    }
    errs
}

/// An approximation of Go's `unicode.IsPrint`.
fn is_go_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    !(matches!(u, 0xE000..=0xF8FF | 0xF0000..=0x10FFFF | 0xFFF9..=0xFFFB | 0xFEFF | 0xAD)
        || (0x200B..=0x200F).contains(&u)
        || (0x2028..=0x202E).contains(&u)
        || (0x2060..=0x206F).contains(&u))
}

/// `ValidateObjectMetaAccessorUpdate`.
pub fn validate_object_meta_update(new: &ObjectMeta, old: &ObjectMeta, path: &str) -> ErrorList {
    let mut errs = ErrorList::new();
    if old.deletion_timestamp.is_some() {
        let old_set: std::collections::BTreeSet<&String> = old.finalizers.iter().collect();
        let extra: std::collections::BTreeSet<&String> =
            new.finalizers.iter().filter(|f| !old_set.contains(f)).collect();
        if !extra.is_empty() {
            let shown: Vec<String> = extra.iter().map(|s| gofmt::quote(s)).collect();
            errs.push(FieldError::forbidden(
                child(path, "finalizers"),
                format!(
                    "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                    shown.join(", ")
                ),
            ));
        }
    }
    if new.resource_version.is_empty() {
        errs.push(FieldError::invalid(
            child(path, "resourceVersion"),
            Value::String(String::new()),
            "must be specified for an update",
        ));
    }
    errs.extend(validate_nonnegative(new.generation, || child(path, "generation")));
    if new.generation < old.generation {
        errs.push(FieldError::invalid(
            child(path, "generation"),
            Value::from(new.generation),
            "must not be decremented",
        ));
    }
    let immutable = |errs: &mut ErrorList, name: &str, new_v: Value, old_v: Value| {
        if new_v != old_v {
            errs.push(FieldError::invalid(child(path, name), new_v, "field is immutable"));
        }
    };
    immutable(
        &mut errs,
        "name",
        Value::String(new.name.clone()),
        Value::String(old.name.clone()),
    );
    immutable(
        &mut errs,
        "namespace",
        Value::String(new.namespace.clone()),
        Value::String(old.namespace.clone()),
    );
    immutable(
        &mut errs,
        "uid",
        Value::String(new.uid.clone()),
        Value::String(old.uid.clone()),
    );
    let time_value = |t: Option<Time>| t.map_or(Value::Null, |t| t.to_value());
    if new.creation_timestamp != old.creation_timestamp {
        errs.push(FieldError::invalid(
            child(path, "creationTimestamp"),
            time_value(new.creation_timestamp),
            "field is immutable",
        ));
    }
    if new.deletion_timestamp != old.deletion_timestamp {
        errs.push(FieldError::invalid(
            child(path, "deletionTimestamp"),
            time_value(new.deletion_timestamp),
            "field is immutable",
        ));
    }
    let grace = |g: Option<i64>| g.map_or(Value::Null, Value::from);
    immutable(
        &mut errs,
        "deletionGracePeriodSeconds",
        grace(new.deletion_grace_period_seconds),
        grace(old.deletion_grace_period_seconds),
    );
    errs.extend(validate_labels(pairs(&new.labels), &child(path, "labels")));
    errs.extend(validate_annotations(
        pairs(&new.annotations),
        &child(path, "annotations"),
    ));
    errs.extend(validate_owner_references(
        &new.owner_references,
        &child(path, "ownerReferences"),
    ));
    errs.extend(validate_managed_fields(
        &new.managed_fields,
        &child(path, "managedFields"),
    ));
    errs
}

// ---------------------------------------------------------------------------------------
// Type meta and scale (pkg/registry/customresource/validator.go)
// ---------------------------------------------------------------------------------------

/// `customResourceValidator.ValidateTypeMeta`: `kind` and `apiVersion` must be the
/// resource's (a missing or non-string value counts as `""`).
pub fn validate_type_meta(obj: &Value, kind: &str, api_version: &str) -> ErrorList {
    let get = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or("");
    let mut errs = ErrorList::new();
    let k = get("kind");
    if k != kind {
        errs.push(FieldError::invalid(
            "kind",
            Value::String(k.to_string()),
            format!("must be {kind}"),
        ));
    }
    let av = get("apiVersion");
    if av != api_version {
        errs.push(FieldError::invalid(
            "apiVersion",
            Value::String(av.to_string()),
            format!("must be {api_version}"),
        ));
    }
    errs
}

/// `unstructured.NestedFieldNoCopy` along a scale path (`.spec.replicas`): the
/// value, whether found, or Go's accessor error. Walked without collecting the fields:
/// every create of a kind with a scale subresource reads three paths.
pub(crate) fn nested<'a>(obj: &'a Value, path: &str) -> Result<Option<&'a Value>, String> {
    let path = path.strip_prefix('.').unwrap_or(path);
    let mut val = obj;
    let mut start = 0;
    for f in path.split('.') {
        if val.is_null() {
            return Ok(None);
        }
        match val {
            Value::Object(m) => match m.get(f) {
                Some(v) => val = v,
                None => return Ok(None),
            },
            other => {
                return Err(accessor_error(
                    &path[..start + f.len()],
                    other,
                    "map[string]interface{}",
                ));
            }
        }
        start += f.len() + 1;
    }
    Ok(Some(val))
}

/// The fields of a scale path (`.spec.replicas` → `spec`, `replicas`).
pub(crate) fn scale_fields(path: &str) -> Vec<&str> {
    path.strip_prefix('.').unwrap_or(path).split('.').collect()
}

/// `unstructured.NestedInt64` at a scale path: `None` when missing.
pub(crate) fn nested_int64(obj: &Value, path: &str) -> Result<Option<i64>, String> {
    match nested(obj, path)? {
        None => Ok(None),
        Some(v) => v.as_i64().map(Some).ok_or_else(|| accessor_error(path, v, "int64")),
    }
}

/// `unstructured.NestedString` at a scale path: `None` when missing.
pub(crate) fn nested_string<'a>(obj: &'a Value, path: &str) -> Result<Option<&'a str>, String> {
    match nested(obj, path)? {
        None => Ok(None),
        Some(v) => v.as_str().map(Some).ok_or_else(|| accessor_error(path, v, "string")),
    }
}

/// A value of the wrong type at the scale path `path`, in apimachinery's words.
fn accessor_error(path: &str, v: &Value, expected: &str) -> String {
    format!(
        ".{} accessor error: {} is of the type {}, expected {expected}",
        path.strip_prefix('.').unwrap_or(path),
        go_print_v(v),
        go_type_name(v)
    )
}

fn validate_replicas(obj: &Value, path: &str) -> ErrorList {
    match nested_int64(obj, path).map(|r| r.unwrap_or(0)) {
        Err(e) => vec![FieldError::invalid(path, Value::from(0), e)],
        Ok(r) if r < 0 => vec![FieldError::invalid(
            path,
            Value::from(r),
            "should be a non-negative integer",
        )],
        Ok(r) if r > i64::from(i32::MAX) => vec![FieldError::invalid(
            path,
            Value::from(r),
            format!("should be less than or equal to {}", i32::MAX),
        )],
        Ok(_) => Vec::new(),
    }
}

/// `ValidateScaleSpec`: the spec replicas path, if present, holds an int32 ≥ 0.
pub fn validate_scale_spec(obj: &Value, scale: &ScalePaths) -> ErrorList {
    validate_replicas(obj, scale.spec_replicas)
}

/// `ValidateScaleStatus`: the status replicas likewise; the label selector, if
/// present, is a string.
pub fn validate_scale_status(obj: &Value, scale: &ScalePaths) -> ErrorList {
    let mut errs = validate_replicas(obj, scale.status_replicas);
    if let Some(sel) = scale.label_selector
        && let Err(e) = nested_string(obj, sel)
    {
        errs.push(FieldError::invalid(sel, Value::String(String::new()), e));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Plain metadata validated as it is finds what its decoded form does.
    #[test]
    fn plain_metadata_validates_as_its_decoded_form() {
        let long = "v".repeat(TOTAL_ANNOTATION_SIZE_LIMIT as usize);
        let cases = [
            json!({"name": "web", "namespace": "shop", "labels": {"app": "web"}}),
            json!({"name": "Web_1", "namespace": "Shop", "labels": {"-app": "a b"}}),
            json!({"generateName": "web-", "annotations": {"A/b/c": "x", "ok": "y"}}),
            json!({"generateName": "-Web", "uid": "u", "resourceVersion": "7", "selfLink": "/x"}),
            json!({"name": "a", "annotations": {"big": long}}),
            json!({"namespace": "shop"}),
        ];
        for metadata in &cases {
            let fields = MetaFields::plain(metadata).expect("round-trips");
            let decoded = decode_object_meta(metadata).expect("decodes");
            for namespaced in [true, false] {
                let plain = validate_meta_fields(&fields, namespaced, dns_subdomain_name, "metadata");
                let full = validate_object_meta(&decoded, namespaced, dns_subdomain_name, "metadata");
                assert_eq!(plain, full, "{metadata}");
            }
        }
        let found =
            |m: Value| validate_meta_fields(&MetaFields::plain(&m).unwrap(), true, dns_subdomain_name, "m").len();
        assert_eq!(found(cases[1].clone()), 4, "name, namespace, label key and value");
        // Anything beyond plain strings and string maps is decoded first.
        assert!(MetaFields::plain(&json!({"name": "a", "generation": 2})).is_none());
        assert!(MetaFields::plain(&json!({"name": "a", "labels": {"x": 1}})).is_none());
        assert!(MetaFields::plain(&json!({"name": ""})).is_none());
    }

    /// A name (or `generateName` prefix) that `NameIsDNSSubdomain` accepts is one
    /// `validatePathSegment` accepts: the create path relies on it to skip the
    /// registry's second metadata validation.
    #[test]
    fn dns_subdomain_names_are_path_segment_names() {
        let names = [
            "",
            ".",
            "..",
            "...",
            "a",
            "a.b",
            "a..b",
            ".a",
            "a.",
            "a/b",
            "/",
            "a%b",
            "%",
            "%2e",
            "-",
            "a-",
            "-a",
            "a_b",
            "A",
            "a b",
            "a:b",
            "ab",
            "0",
            "a-b.c-d",
            "xn--bcher-kva.example",
            "a\\b",
            "~",
            "é",
        ];
        for name in names {
            for prefix in [false, true] {
                if dns_subdomain_name(name, prefix).is_empty() {
                    assert_eq!(
                        path_segment_name(name, prefix),
                        Vec::<String>::new(),
                        "{name:?} prefix {prefix}"
                    );
                }
            }
        }
        // Both refuse what they share; the path-segment rule alone is weaker.
        assert!(!path_segment_name("a/b", false).is_empty() && !dns_subdomain_name("a/b", false).is_empty());
        assert!(path_segment_name("A_b", false).is_empty() && !dns_subdomain_name("A_b", false).is_empty());
    }

    /// Go's `ParseGroupVersion`: empty and `/` are the empty group version, no slash a
    /// version alone, one slash splits, more is an error.
    #[test]
    fn group_versions_parse_as_in_go() {
        type Parsed<'a> = Result<(&'a str, &'a str), String>;
        let cases: [(&str, Parsed); 8] = [
            ("", Ok(("", ""))),
            ("/", Ok(("", ""))),
            ("v1", Ok(("", "v1"))),
            ("apps/v1", Ok(("apps", "v1"))),
            ("/v1", Ok(("", "v1"))),
            ("apps/", Ok(("apps", ""))),
            ("a/b/c", Err("unexpected GroupVersion string: a/b/c".to_string())),
            ("//", Err("unexpected GroupVersion string: //".to_string())),
        ];
        for (gv, expected) in cases {
            assert_eq!(parse_group_version(gv), expected, "{gv:?}");
        }
    }

    /// `round_trips` is only a shortcut: where it says yes, decoding and setting the
    /// metadata back must give the same value (so a decoder may skip such metadata:
    /// it decodes).
    #[test]
    fn round_trips_only_where_set_object_meta_changes_nothing() {
        let re_encoded = |v: &Value| {
            let mut obj = Map::new();
            set_object_meta(&mut obj, &decode_object_meta(v).unwrap());
            let mut meta = obj.remove("metadata").unwrap();
            meta.as_object_mut().unwrap().remove("creationTimestamp");
            meta
        };
        let cases = [
            (
                json!({"name": "a", "namespace": "ns", "labels": {"app": "web", "x": ""}}),
                true,
            ),
            (
                json!({"generateName": "a-", "annotations": {"k": "v"}, "uid": "u", "resourceVersion": "1"}),
                true,
            ),
            (json!({"name": "a", "selfLink": "/x"}), true),
            (json!({"name": ""}), false),
            (json!({"name": "a", "labels": {}}), false),
            (json!({"name": "a", "labels": {"x": null}}), false),
            (json!({"name": "a", "generation": 1}), false),
            (json!({"name": "a", "unknown": "x"}), false),
            (
                json!({"name": "a", "creationTimestamp": "2024-01-01T00:00:00+01:00"}),
                false,
            ),
        ];
        for (v, expected) in cases {
            assert_eq!(round_trips(&v), expected, "{v}");
            if expected {
                assert_eq!(re_encoded(&v), v);
            }
        }
        // And a refused case does change on the way through.
        assert_ne!(
            re_encoded(&json!({"name": "a", "unknown": "x"})),
            json!({"name": "a", "unknown": "x"})
        );
    }

    #[test]
    fn decodes_like_go() {
        let m = decode_object_meta(&json!({"name": "a", "labels": {"x": null}, "unknown": 1})).unwrap();
        assert_eq!(m.name, "a");
        assert_eq!(m.labels.get("x").map(String::as_str), Some(""));
        assert_eq!(
            decode_object_meta(&json!({"labels": {"a": 1}})).unwrap_err(),
            "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"
        );
        assert_eq!(
            decode_object_meta(&json!({"generation": 1.5})).unwrap_err(),
            "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"
        );
        assert_eq!(
            decode_object_meta(&json!("x")).unwrap_err(),
            "json: cannot unmarshal string into Go value of type v1.ObjectMeta"
        );
        assert_eq!(
            decode_object_meta(&json!({"ownerReferences": [{"controller": "yes"}]})).unwrap_err(),
            "json: cannot unmarshal string into Go struct field OwnerReference.ownerReferences.controller of type bool"
        );
        assert_eq!(
            decode_object_meta(&json!({"creationTimestamp": "2020-13-01T00:00:00Z"})).unwrap_err(),
            "parsing time \"2020-13-01T00:00:00Z\": month out of range"
        );
        assert_eq!(
            decode_object_meta(&json!({"creationTimestamp": "x"})).unwrap_err(),
            "parsing time \"x\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"x\" as \"2006\""
        );
    }

    #[test]
    fn drops_malformed_fields() {
        let obj = json!({"metadata": {"name": "a", "labels": {"a": 1}, "generation": "x", "namespace": "ns"}});
        let m = get_object_meta(obj.as_object().unwrap(), true).unwrap().unwrap();
        assert_eq!(
            m.to_value(),
            json!({"name": "a", "namespace": "ns", "creationTimestamp": null})
        );
        assert!(get_object_meta(obj.as_object().unwrap(), false).is_err());
    }

    #[test]
    fn timestamps_round_trip_to_utc_seconds() {
        let m = decode_object_meta(&json!({"creationTimestamp": "2020-01-02T03:04:05.678+01:00"})).unwrap();
        assert_eq!(m.to_value()["creationTimestamp"], json!("2020-01-02T02:04:05Z"));
        assert_eq!(Time::ZERO.to_rfc3339(), "0001-01-01T00:00:00Z");
    }

    #[test]
    fn validates_metadata() {
        let meta = ObjectMeta {
            name: "Bad_Name".into(),
            labels: [("a b".to_string(), "ok".to_string())].into(),
            ..Default::default()
        };
        let errs: Vec<String> = validate_object_meta(&meta, true, dns_subdomain_name, "metadata")
            .iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            errs[0],
            "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        );
        assert_eq!(errs[1], "metadata.namespace: Required value");
        assert!(errs[2].starts_with("metadata.labels: Invalid value: \"a b\": name part must consist of"));
    }

    #[test]
    fn scale() {
        let s = ScalePaths {
            spec_replicas: ".spec.replicas",
            status_replicas: ".status.replicas",
            label_selector: Some(".status.selector"),
        };
        let obj = json!({"spec": {"replicas": 1.5}, "status": {"replicas": -1, "selector": 3}});
        let mut errs = validate_scale_spec(&obj, &s);
        errs.extend(validate_scale_status(&obj, &s));
        let errs: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errs,
            [
                ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64",
                ".status.replicas: Invalid value: -1: should be a non-negative integer",
                ".status.selector: Invalid value: \"\": .status.selector accessor error: 3 is of the type int64, expected string",
            ]
        );
    }
}
