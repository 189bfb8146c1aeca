//! Old/new correlation for updates (apiserver `pkg/cel/common/equality.go`,
//! `CorrelatedObject`, and `maplist.go`).
//!
//! On an update the API server walks the new object and, where it can, the old value
//! at the same place: a property or map key correlates with the same key of the old
//! object; an array element correlates only in a `x-kubernetes-list-type: map` list,
//! with the old element of the same keys. A node whose value equals its correlated old
//! value ([`deep_equal`], Go's `CachedDeepEqual`) has its OpenAPI errors ratcheted
//! (dropped), and transition rules see `oldSelf` only where a correlation exists.

use crate::listtype::ListType;
use crate::openapi::go_deep_equal;
use serde_json::Value;
use std::collections::HashMap;

/// What correlation needs from a schema node (Go's `common.Schema`, as far as
/// `CorrelatedObject` uses it).
pub trait CorrelationSchema {
    type Key: AsRef<str>;

    /// The schema of property `name`, else the `additionalProperties` schema (`None` for
    /// an unknown name, or `additionalProperties: true|false`).
    fn field_schema(&self, name: &str) -> Option<&Self>;

    /// The `items` schema.
    fn items_schema(&self) -> Option<&Self>;

    /// `x-kubernetes-list-type`.
    fn list_type(&self) -> Option<ListType>;

    /// `x-kubernetes-list-map-keys`.
    fn list_map_keys(&self) -> &[Self::Key];

    /// Whether the node's `type` is `array`.
    fn is_array(&self) -> bool;
}

/// The old value correlated with property (or map key) `key` of `new`: present only
/// when both values are objects holding `key`. (The caller also checks that the
/// schema knows the key, see [`CorrelationSchema::field_schema`].)
pub fn correlate_key<'a>(new: &Value, old: &'a Value, key: &str) -> Option<&'a Value> {
    match (new, old) {
        (Value::Object(n), Value::Object(o)) if n.contains_key(key) => o.get(key),
        _ => None,
    }
}

/// A lookup by key over the old elements of a `x-kubernetes-list-type: map` list
/// (Go's `MakeMapList`): the first element with a given key wins.
pub struct MapList<'a> {
    keys: Vec<String>,
    keyed: HashMap<ElementKey<'a>, &'a Value>,
}

/// A composite key as Go builds it: one key's scalar value (bool, int64, float64 and
/// string are distinct), or for several keys a string of `%t`/`%d`/`%f`/`%q` parts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ElementKey<'a> {
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(&'a str),
    Composite(String),
}

impl<'a> MapList<'a> {
    /// The map list over `old` items. Empty (finding nothing) unless the schema is an
    /// array with list type `map` and at least one key.
    pub fn new<S: CorrelationSchema + ?Sized>(schema: &S, old: &'a [Value]) -> MapList<'a> {
        let keys: Vec<String> = schema.list_map_keys().iter().map(|k| k.as_ref().to_string()).collect();
        let mut list = MapList {
            keys,
            keyed: HashMap::new(),
        };
        if !schema.is_array() || schema.list_type() != Some(ListType::Map) || list.keys.is_empty() || old.is_empty() {
            list.keys.clear();
            return list;
        }
        for item in old {
            if let Some(k) = list.key_of(item) {
                list.keyed.entry(k).or_insert(item);
            }
        }
        list
    }

    /// The map list over `old` items of a `x-kubernetes-list-type: map` list with
    /// these keys (for generated code, which knows the list type statically).
    pub fn with_keys(keys: &[&str], old: &'a [Value]) -> MapList<'a> {
        let mut list = MapList {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            keyed: HashMap::new(),
        };
        for item in old {
            if let Some(k) = list.key_of(item) {
                list.keyed.entry(k).or_insert(item);
            }
        }
        list
    }

    fn key_of<'v>(&self, item: &'v Value) -> Option<ElementKey<'v>> {
        let Value::Object(m) = item else {
            return None;
        };
        if let [key] = self.keys.as_slice() {
            return match m.get(key)? {
                Value::Bool(b) => Some(ElementKey::Bool(*b)),
                Value::Number(n) => Some(match n.as_i64() {
                    Some(i) => ElementKey::Int(i),
                    None => {
                        let f = n.as_f64().unwrap_or(0.0);
                        ElementKey::Float(if f == 0.0 { 0 } else { f.to_bits() })
                    }
                }),
                Value::String(s) => Some(ElementKey::Str(s)),
                _ => None,
            };
        }
        if self.keys.is_empty() {
            return None;
        }
        let mut out = String::new();
        for key in &self.keys {
            out.push('\0');
            match m.get(key)? {
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Number(n) => match n.as_i64() {
                    Some(i) => out.push_str(&i.to_string()),
                    None => out.push_str(&format!("{:.6}", n.as_f64().unwrap_or(0.0))),
                },
                Value::String(s) => out.push_str(&crate::gofmt::quote(s)),
                _ => return None,
            }
        }
        Some(ElementKey::Composite(out))
    }

    /// The old element with the keys of `element` (Go's `MapList.Get`).
    pub fn get(&self, element: &Value) -> Option<&'a Value> {
        let key = self.key_of(element)?;
        self.keyed.get(&key).copied()
    }
}

/// For generated code: the old element correlated with `new[index]` of a map list
/// with these keys, `old` being the correlated old list (if any).
pub fn map_list_old<'a>(new: &[Value], old: Option<&'a Value>, index: usize, keys: &[&str]) -> Option<&'a Value> {
    let Some(Value::Array(old)) = old else {
        return None;
    };
    MapList::with_keys(keys, old).get(new.get(index)?)
}

/// The old element correlated with `new[index]` (Go's
/// `correlateOldValueForChildAtNewIndex`): only for `x-kubernetes-list-type: map`
/// lists, by keys; `None` for every other list type.
pub fn correlate_index<'a, S: CorrelationSchema + ?Sized>(
    schema: &S,
    new: &[Value],
    old: &'a Value,
    index: usize,
) -> Option<&'a Value> {
    let Value::Array(old) = old else {
        return None;
    };
    if index >= new.len() || schema.list_type() != Some(ListType::Map) {
        return None;
    }
    MapList::new(schema, old).get(&new[index])
}

/// Go's `CorrelatedObject.CachedDeepEqual` for `new` correlated with `old` under
/// `schema`: like `reflect.DeepEqual` (an int64 never equals a float64), except that
/// object keys the schema does not know make objects unequal, and map lists compare
/// element by element through their keys. Other arrays are compared as a whole.
pub fn deep_equal<S: CorrelationSchema + ?Sized>(new: &Value, old: &Value, schema: &S) -> bool {
    match (new, old) {
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Array(n), Value::Array(o)) => {
            if n.len() != o.len() {
                return false;
            }
            if schema.list_type() != Some(ListType::Map) {
                // Elements do not correlate: the array is one unit.
                return go_deep_equal(new, old);
            }
            let list = MapList::new(schema, o);
            let Some(items) = schema.items_schema() else {
                return n.is_empty();
            };
            n.iter().all(|e| list.get(e).is_some_and(|oe| deep_equal(e, oe, items)))
        }
        (Value::Object(n), Value::Object(o)) => {
            n.len() == o.len()
                && n.iter().all(|(k, v)| match (o.get(k), schema.field_schema(k)) {
                    (Some(ov), Some(s)) => deep_equal(v, ov, s),
                    _ => false,
                })
        }
        (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => false,
        _ => go_deep_equal(new, old),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A schema for the tests: properties by name, or a map of anything.
    #[derive(Default)]
    struct S {
        props: Vec<(&'static str, S)>,
        additional: Option<Box<S>>,
        items: Option<Box<S>>,
        list: Option<ListType>,
        keys: Vec<&'static str>,
        array: bool,
    }

    impl CorrelationSchema for S {
        type Key = &'static str;
        fn field_schema(&self, name: &str) -> Option<&S> {
            self.props
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, s)| s)
                .or(self.additional.as_deref())
        }
        fn items_schema(&self) -> Option<&S> {
            self.items.as_deref()
        }
        fn list_type(&self) -> Option<ListType> {
            self.list
        }
        fn list_map_keys(&self) -> &[&'static str] {
            &self.keys
        }
        fn is_array(&self) -> bool {
            self.array
        }
    }

    #[test]
    fn objects_need_known_keys() {
        let s = S {
            props: vec![("a", S::default())],
            ..Default::default()
        };
        assert!(deep_equal(&json!({"a": 1}), &json!({"a": 1}), &s));
        assert!(!deep_equal(&json!({"a": 1}), &json!({"a": 1.0}), &s));
        assert!(
            !deep_equal(&json!({"b": 1}), &json!({"b": 1}), &s),
            "unknown keys do not correlate"
        );
    }

    #[test]
    fn map_lists_correlate_by_key() {
        let s = S {
            items: Some(Box::new(S {
                props: vec![("k", S::default()), ("v", S::default())],
                ..Default::default()
            })),
            list: Some(ListType::Map),
            keys: vec!["k"],
            array: true,
            ..Default::default()
        };
        let new = json!([{"k": "a", "v": 1}, {"k": "b", "v": 2}]);
        let old = json!([{"k": "b", "v": 2}, {"k": "a", "v": 1}]);
        assert!(deep_equal(&new, &old, &s), "order does not matter");
        assert_eq!(
            correlate_index(&s, new.as_array().unwrap(), &old, 1),
            Some(&json!({"k": "b", "v": 2}))
        );
        let atomic = S { list: None, ..s };
        assert!(!deep_equal(&new, &old, &atomic));
        assert_eq!(correlate_index(&atomic, new.as_array().unwrap(), &old, 1), None);
    }
}
