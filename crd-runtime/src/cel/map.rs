//! CEL maps: values made during evaluation, JSON objects read through their schema
//! (Kubernetes' `unstructuredMap`, for both schema objects and
//! `additionalProperties` maps), and typed objects and maps of generated code
//! ([`ObjectView`], [`MapView`]).
//!
//! Schema objects are maps at run time, as in Kubernetes: their fields are looked
//! up by CEL (escaped) name, and a property that is `null` (only possible for
//! `nullable` ones) looks absent. Their size counts every property present in the
//! JSON, `null` ones included.

use std::any::Any;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value as Json;

use super::error::{Error, Result};
use super::escaping::{escape, unescape};
use super::schema::SchemaRef;
use super::unstructured;
use super::value::{Str, Val};

/// A schema object of generated code (a generated struct), seen as a CEL value.
pub trait ObjectView: Sync {
    /// The value of a property by its CEL name (escaped, see
    /// [`escape`](super::escaping::escape)); `None` when the property is absent or
    /// `null`.
    fn field(&self, name: &str) -> Option<Val<'_>>;
    /// The number of properties the object has in JSON, `null` ones and unknown
    /// fields kept by `x-kubernetes-preserve-unknown-fields` included (Kubernetes
    /// counts the keys of the JSON object).
    fn size(&self) -> usize;
    /// The CEL names of the properties present (`null` ones included), in
    /// iteration order.
    fn field_names(&self) -> Vec<&str>;
    /// Fields the schema does not declare, kept by
    /// `x-kubernetes-preserve-unknown-fields`: they are compared as JSON.
    fn unknown_fields(&self) -> Option<&crate::JsonMap> {
        None
    }
    /// The struct itself, to downcast in generated code.
    fn as_any(&self) -> &dyn Any;
}

/// A map with string keys of generated code (`additionalProperties`).
pub trait MapView: Sync {
    fn len(&self) -> usize;
    /// The value under a key (`null` values of nullable map values are `Val::Null`).
    fn get(&self, key: &str) -> Option<Val<'_>>;
    /// The keys in iteration order.
    fn keys(&self) -> Vec<&str>;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A CEL map.
#[derive(Clone)]
pub struct Map<'a> {
    pub(crate) repr: Repr<'a>,
}

#[derive(Clone)]
pub(crate) enum Repr<'a> {
    /// Entries made by the evaluation (cel-go `baseMap`), ordered by key.
    Vals(Arc<BTreeMap<Key<'a>, Val<'a>>>),
    /// A JSON object with its schema.
    Json(&'a serde_json::Map<String, Json>, SchemaRef<'a>),
    /// A generated struct.
    Object(&'a dyn ObjectView),
    /// A generated map.
    View(&'a dyn MapView),
}

/// A key of a map made by the evaluation.
#[derive(Clone, Debug)]
pub(crate) enum Key<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(Str<'a>),
}

impl<'a> Key<'a> {
    /// The key for a value; `unsupported key type` for values that cannot be keys.
    pub(crate) fn from_val(v: &Val<'a>) -> Result<Key<'a>> {
        Ok(match v {
            Val::Null => Key::Null,
            Val::Bool(b) => Key::Bool(*b),
            Val::Int(i) => Key::Int(*i),
            Val::Uint(u) => Key::Uint(*u),
            Val::Double(d) => Key::Double(*d),
            Val::String(s) => Key::String(s.clone()),
            _ => return Err(Error::new("unsupported key type")),
        })
    }

    pub(crate) fn to_val(&self) -> Val<'a> {
        match self {
            Key::Null => Val::Null,
            Key::Bool(b) => Val::Bool(*b),
            Key::Int(i) => Val::Int(*i),
            Key::Uint(u) => Val::Uint(*u),
            Key::Double(d) => Val::Double(*d),
            Key::String(s) => Val::String(s.clone()),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Key::Null => 0,
            Key::Bool(_) => 1,
            Key::Int(_) => 2,
            Key::Uint(_) => 3,
            Key::Double(_) => 4,
            Key::String(_) => 5,
        }
    }
}

impl Ord for Key<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Key::Bool(a), Key::Bool(b)) => a.cmp(b),
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            (Key::Uint(a), Key::Uint(b)) => a.cmp(b),
            (Key::Double(a), Key::Double(b)) => a.total_cmp(b),
            (Key::String(a), Key::String(b)) => (**a).cmp(&**b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for Key<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Key<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key<'_> {}

/// Go's `doubleToInt64Lossless`.
pub(crate) fn double_to_int_lossless(d: f64) -> Option<i64> {
    if d.is_nan() || d <= -9223372036854775808.0 || d >= 9223372036854775808.0 {
        return None;
    }
    let i = d as i64;
    (i as f64 == d).then_some(i)
}

/// Go's `doubleToUint64Lossless`.
pub(crate) fn double_to_uint_lossless(d: f64) -> Option<u64> {
    if d.is_nan() || !(0.0..18446744073709551616.0).contains(&d) {
        return None;
    }
    let u = d as u64;
    (u as f64 == d).then_some(u)
}

impl<'a> Map<'a> {
    /// A map of evaluation values (an error when a key cannot be a map key; later
    /// entries replace earlier ones with the same key, as in cel-go).
    pub fn from_entries(entries: Vec<(Val<'a>, Val<'a>)>) -> Result<Map<'a>> {
        let mut m = BTreeMap::new();
        for (k, v) in entries {
            m.insert(Key::from_val(&k)?, v);
        }
        Ok(Map {
            repr: Repr::Vals(Arc::new(m)),
        })
    }

    /// An empty map.
    pub fn empty() -> Map<'a> {
        Map {
            repr: Repr::Vals(Arc::new(BTreeMap::new())),
        }
    }

    /// A generated struct.
    pub fn object(view: &'a dyn ObjectView) -> Map<'a> {
        Map {
            repr: Repr::Object(view),
        }
    }

    /// A generated map.
    pub fn view(view: &'a dyn MapView) -> Map<'a> {
        Map { repr: Repr::View(view) }
    }

    pub fn json(obj: &'a serde_json::Map<String, Json>, schema: SchemaRef<'a>) -> Map<'a> {
        Map {
            repr: Repr::Json(obj, schema),
        }
    }

    pub(crate) fn from_keyed(entries: BTreeMap<Key<'a>, Val<'a>>) -> Map<'a> {
        Map {
            repr: Repr::Vals(Arc::new(entries)),
        }
    }

    /// `cel.@mapInsert` on a comprehension's accumulator (cel-go's mutable map):
    /// adds the entry, in place when nothing else holds the map; `insert failed:
    /// key <k> already exists` when the key is present.
    pub fn insert(&mut self, k: &Val<'a>, v: Val<'a>) -> Result<()> {
        if self.find(k).is_some() {
            return Err(Error::new(format!(
                "insert failed: key {} already exists",
                super::format::go_value(k)
            )));
        }
        let key = Key::from_val(k)?;
        if let Repr::Vals(entries) = &mut self.repr {
            Arc::make_mut(entries).insert(key, v);
            return Ok(());
        }
        let mut entries = BTreeMap::new();
        for key in self.keys() {
            if let Some(val) = self.find(&key) {
                entries.insert(Key::from_val(&key)?, val?);
            }
        }
        entries.insert(key, v);
        *self = Map::from_keyed(entries);
        Ok(())
    }

    /// The number of entries (for schema objects: the keys of the JSON object).
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Vals(m) => m.len(),
            Repr::Json(obj, _) => obj.len(),
            Repr::Object(o) => o.size(),
            Repr::View(v) => v.len(),
        }
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether this is a schema object (fields by escaped name, `null` looks
    /// absent) rather than a map.
    pub fn is_object(&self) -> bool {
        match &self.repr {
            Repr::Json(_, schema) => schema.has_properties(),
            Repr::Object(_) => true,
            _ => false,
        }
    }

    /// Whether this is data of the object (JSON or generated struct/map) rather
    /// than a value the expression made.
    pub fn is_data(&self) -> bool {
        !matches!(self.repr, Repr::Vals(_))
    }

    /// cel-go `Mapper.Find`: `None` when the key is absent; `Some(Err)` when the
    /// key has the wrong type for the map, or the value cannot be read.
    pub fn find(&self, key: &Val<'_>) -> Option<Result<Val<'a>>> {
        match &self.repr {
            Repr::Vals(m) => find_keyed(m, key).map(Ok),
            Repr::Json(obj, schema) => {
                let Val::String(k) = key else {
                    return Some(Err(maybe_no_such_overload(key)));
                };
                find_json(obj, *schema, k)
            }
            Repr::Object(o) => {
                let Val::String(k) = key else {
                    return Some(Err(maybe_no_such_overload(key)));
                };
                o.field(k).map(Ok)
            }
            Repr::View(v) => {
                let Val::String(k) = key else {
                    return Some(Err(maybe_no_such_overload(key)));
                };
                v.get(k).map(Ok)
            }
        }
    }

    /// cel-go `Mapper.Get` with Kubernetes' `no such key: <key>`.
    pub fn get(&self, key: &Val<'_>) -> Option<Result<Val<'a>>> {
        self.find(key)
    }

    /// The value under a string key (a field of an object by its CEL name).
    pub fn get_str(&self, key: &str) -> Option<Result<Val<'a>>> {
        match &self.repr {
            Repr::Json(obj, schema) => find_json(obj, *schema, key),
            Repr::Object(o) => o.field(key).map(Ok),
            Repr::View(v) => v.get(key).map(Ok),
            Repr::Vals(m) => find_keyed(m, &Val::str(key)).map(Ok),
        }
    }

    /// The keys, in iteration order (Go iterates maps in random order; here keys
    /// are sorted for values the evaluation made and JSON objects, and in field
    /// order for generated structs). Object keys are CEL names.
    ///
    /// A JSON object's keys that its schema does not know (kept by
    /// `x-kubernetes-preserve-unknown-fields`) come last, each as `null`: Kubernetes'
    /// `unstructuredMap` iterator yields a nil key for each of them.
    pub fn keys(&self) -> Vec<Val<'a>> {
        match &self.repr {
            Repr::Vals(m) => m.keys().map(Key::to_val).collect(),
            Repr::Json(obj, schema) => {
                let is_object = schema.has_properties();
                let mut keys = Vec::with_capacity(obj.len());
                let mut unknown = 0;
                for k in obj.keys() {
                    if prop_schema(*schema, k).is_none() {
                        unknown += 1;
                        continue;
                    }
                    if is_object && let Some(e) = escape(k) {
                        keys.push(Val::string(e));
                    } else {
                        keys.push(Val::str(k));
                    }
                }
                keys.extend(std::iter::repeat_n(Val::Null, unknown));
                keys
            }
            Repr::Object(o) => o.field_names().into_iter().map(Val::string).collect(),
            Repr::View(v) => v.keys().into_iter().map(Val::str).collect(),
        }
    }

    /// The JSON object and schema, for a JSON object.
    pub fn json_object(&self) -> Option<(&'a serde_json::Map<String, Json>, SchemaRef<'a>)> {
        match &self.repr {
            Repr::Json(obj, schema) => Some((obj, *schema)),
            _ => None,
        }
    }

    /// The struct of generated code behind an object map.
    pub fn object_view(&self) -> Option<&'a dyn ObjectView> {
        match &self.repr {
            Repr::Object(o) => Some(*o),
            _ => None,
        }
    }
}

/// cel-go's lookup in a `baseMap` with heterogeneous numeric keys: an exact match,
/// else a double that is an exact integer finds an `int` or `uint` key, and an int
/// finds a uint key and back.
fn find_keyed<'a>(m: &BTreeMap<Key<'a>, Val<'a>>, key: &Val<'_>) -> Option<Val<'a>> {
    let exact = match key {
        Val::Null => Key::Null,
        Val::Bool(b) => Key::Bool(*b),
        Val::Int(i) => Key::Int(*i),
        Val::Uint(u) => Key::Uint(*u),
        Val::Double(d) => Key::Double(*d),
        Val::String(s) => Key::String(Str::Shared(Arc::from(&**s))),
        _ => return None,
    };
    if let Some(v) = m.get(&exact) {
        return Some(v.clone());
    }
    let alternatives: Vec<Key<'_>> = match key {
        Val::Double(d) => {
            let mut a = Vec::new();
            if let Some(i) = double_to_int_lossless(*d) {
                a.push(Key::Int(i));
            }
            if let Some(u) = double_to_uint_lossless(*d) {
                a.push(Key::Uint(u));
            }
            a
        }
        Val::Int(i) => u64::try_from(*i).map(Key::Uint).into_iter().collect(),
        Val::Uint(u) => i64::try_from(*u).map(Key::Int).into_iter().collect(),
        _ => Vec::new(),
    };
    alternatives.iter().find_map(|k| m.get(k).cloned())
}

/// `MaybeNoSuchOverloadErr(key)`.
fn maybe_no_such_overload(_key: &Val<'_>) -> Error {
    Error::no_such_overload()
}

/// The schema of a key of a JSON object (Kubernetes' `propSchema`): the property's
/// schema for objects, the `additionalProperties` schema for maps, none otherwise.
pub(crate) fn prop_schema<'a>(schema: SchemaRef<'a>, key: &str) -> Option<SchemaRef<'a>> {
    if schema.embedded_resource() || schema.has_properties() {
        return schema.property(key);
    }
    schema.additional_properties()
}

/// `unstructuredMap.Find` for a string key.
fn find_json<'a>(obj: &'a serde_json::Map<String, Json>, schema: SchemaRef<'a>, key: &str) -> Option<Result<Val<'a>>> {
    let is_object = schema.has_properties();
    let unescaped;
    let k = if is_object {
        unescaped = unescape(key)?;
        &*unescaped
    } else {
        key
    };
    let v = obj.get(k)?;
    if is_object && v.is_null() {
        return None;
    }
    let ps = prop_schema(schema, k)?;
    Some(unstructured::to_val(v, ps))
}
