//! The `x-kubernetes-list-type` invariants of one array: no duplicate elements in a
//! `set`, no duplicate keys in a `map` (apiextensions-apiserver
//! `pkg/apiserver/schema/listtype/validation.go`, `validateListSet` and
//! `validateListMap`).
//!
//! The walk over the schema (`ValidateListSetsAndMaps`) belongs to whoever knows the
//! schema (generated code, the reference engine); for each array with a list type it
//! calls [`validate_list`] and then descends into the items.

use crate::errors::{ErrorList, FieldError, Path};
use crate::gofmt;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// `x-kubernetes-list-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListType {
    Atomic,
    Set,
    Map,
}

impl ListType {
    pub fn parse(s: &str) -> Option<ListType> {
        match s {
            "atomic" => Some(ListType::Atomic),
            "set" => Some(ListType::Set),
            "map" => Some(ListType::Map),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ListType::Atomic => "atomic",
            ListType::Set => "set",
            ListType::Map => "map",
        }
    }
}

/// The message for a non-object element of a map list.
pub const NOT_AN_OBJECT: &str = "must be an object for an array of list-type map";

/// Checks the elements of one array with list type `list_type` (`keys` are the
/// `x-kubernetes-list-map-keys`) at `path`, appending Go's errors to `errs`:
/// `Duplicate value` at the second occurrence of each repeated element (set) or key
/// (map), or `Invalid value: ...: must be an object for an array of list-type map` at
/// the first element of a map list that is neither an object nor null.
pub fn validate_list<K: AsRef<str>>(
    path: &Path,
    list_type: Option<ListType>,
    keys: &[K],
    items: &[Value],
    errs: &mut ErrorList,
) {
    match list_type {
        Some(ListType::Set) => {
            for i in non_unique(items.iter().map(SetKey::of)) {
                errs.push(FieldError::duplicate(path.index(i).to_field_string(), items[i].clone()));
            }
        }
        Some(ListType::Map) => validate_list_map(path, keys, items, errs),
        _ => {}
    }
}

/// Whether [`validate_list`] finds nothing, without building its errors: what the
/// fast validity check asks of a list of type `set` or `map`.
pub fn list_ok<K: AsRef<str>>(list_type: Option<ListType>, keys: &[K], items: &[Value]) -> bool {
    match list_type {
        Some(ListType::Set) => !repeats(items.iter().map(SetKey::of), items.len()),
        Some(ListType::Map) => {
            if !items.iter().all(|x| matches!(x, Value::Null | Value::Object(_))) {
                return false;
            }
            match keys {
                [key] => !repeats(items.iter().map(|x| map_key(x, key.as_ref())), items.len()),
                // Composite keys are compared as JSON, as their errors show them.
                _ => {
                    let mut errs = ErrorList::new();
                    validate_list_map(&Path::Root, keys, items, &mut errs);
                    errs.is_empty()
                }
            }
        }
        _ => true,
    }
}

/// Whether two of the `n` keys are equal. A short list's keys are compared on the
/// stack: this runs for every list of type `set` or `map` in every valid object.
fn repeats<'a>(keys: impl Iterator<Item = SetKey<'a>>, n: usize) -> bool {
    const SHORT: usize = 8;
    if n <= 1 {
        return false;
    }
    if n > SHORT {
        return !non_unique(keys).is_empty();
    }
    let mut seen: [SetKey<'a>; SHORT] = std::array::from_fn(|_| SetKey::Null);
    for (i, k) in keys.enumerate().take(SHORT) {
        if seen[..i].contains(&k) {
            return true;
        }
        seen[i] = k;
    }
    false
}

/// The key of a map list's element (`null` or an object) when the list has one key.
fn map_key<'a>(x: &'a Value, key: &str) -> SetKey<'a> {
    match x {
        Value::Object(m) => m.get(key).map_or(SetKey::Unspecified, SetKey::of),
        _ => SetKey::Unspecified,
    }
}

/// An element of a set (or a key of a map list) as Go's `validateListSet` tells them
/// apart: scalars by their Go value (an int64 differs from the float64 of the same
/// number), objects and arrays by their JSON encoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum SetKey<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(&'a str),
    Json(String),
    /// A map-list element without the key (`unspecifiedKeyValue{}`).
    Unspecified,
}

impl<'a> SetKey<'a> {
    fn of(v: &'a Value) -> SetKey<'a> {
        match v {
            Value::Null => SetKey::Null,
            Value::Bool(b) => SetKey::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => SetKey::Int(i),
                None => {
                    let f = n.as_f64().unwrap_or(0.0);
                    // Go compares float64 map keys with ==: -0 and +0 are one key.
                    SetKey::Float(if f == 0.0 { 0 } else { f.to_bits() })
                }
            },
            Value::String(s) => SetKey::Str(s),
            Value::Array(_) | Value::Object(_) => SetKey::Json(gofmt::json(v)),
        }
    }
}

/// The indices of the second occurrence of every repeated key, in order.
fn non_unique<'a>(keys: impl Iterator<Item = SetKey<'a>>) -> Vec<usize> {
    let keys: Vec<SetKey> = keys.collect();
    if keys.len() <= 1 {
        return Vec::new();
    }
    let mut seen: HashMap<&SetKey, u32> = HashMap::with_capacity(keys.len());
    let mut out = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let times = seen.entry(k).or_insert(0);
        *times += 1;
        if *times == 2 {
            out.push(i);
        }
    }
    out
}

fn validate_list_map<K: AsRef<str>>(path: &Path, keys: &[K], items: &[Value], errs: &mut ErrorList) {
    for (i, x) in items.iter().enumerate() {
        if !matches!(x, Value::Null | Value::Object(_)) {
            errs.push(FieldError::invalid(
                path.index(i).to_field_string(),
                x.clone(),
                NOT_AN_OBJECT,
            ));
            return;
        }
    }
    if items.len() <= 1 {
        return;
    }
    if let [key] = keys {
        let key = key.as_ref();
        for i in non_unique(items.iter().map(|x| map_key(x, key))) {
            let mut shown = Map::new();
            if let Some(v) = items[i].get(key) {
                shown.insert(key.to_string(), v.clone());
            }
            errs.push(FieldError::duplicate(
                path.index(i).to_field_string(),
                Value::Object(shown),
            ));
        }
        return;
    }
    let composite: Vec<Value> = items
        .iter()
        .map(|x| {
            let mut key = Map::new();
            if let Value::Object(m) = x {
                for k in keys {
                    if let Some(v) = m.get(k.as_ref()) {
                        key.insert(k.as_ref().to_string(), v.clone());
                    }
                }
            }
            Value::Object(key)
        })
        .collect();
    for i in non_unique(composite.iter().map(SetKey::of)) {
        errs.push(FieldError::duplicate(
            path.index(i).to_field_string(),
            composite[i].clone(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(list_type: ListType, keys: &[&str], items: Value) -> Vec<String> {
        let root = Path::Root;
        let p = root.field("list");
        let mut errs = Vec::new();
        validate_list(&p, Some(list_type), keys, items.as_array().unwrap(), &mut errs);
        errs.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn sets() {
        assert_eq!(
            run(ListType::Set, &[], json!([1, 2, 1, 1, "a", "a", {"b": 1}, {"b": 1}])),
            [
                "list[2]: Duplicate value: 1",
                "list[5]: Duplicate value: \"a\"",
                "list[7]: Duplicate value: {\"b\":1}"
            ]
        );
        // int64 1 and float64 1.5 differ; null and a missing key are both scalars.
        assert!(run(ListType::Set, &[], json!([1, 1.5, null])).is_empty());
        assert_eq!(
            run(ListType::Set, &[], json!([null, null])),
            ["list[1]: Duplicate value: null"]
        );
    }

    /// `list_ok` agrees with `validate_list` on every list of up to three elements
    /// drawn from values that differ in the ways Go tells apart (int64 and float64,
    /// missing and null keys, objects, non-objects in a map list), and on a long one.
    #[test]
    fn list_ok_agrees_with_validate_list() {
        let pool = json!([
            1, 1.5, "a", null, 5, [1], {"k": "a"}, {"k": "a", "v": 1}, {}, {"k": 1},
            {"k": 1.5}, {"k": null}, {"l": 1}, {"k": "a", "l": 1}, {"k": "a", "l": 1.5}
        ]);
        let pool = pool.as_array().unwrap();
        let (mut lists, mut layer) = (vec![vec![]], vec![vec![]]);
        for _ in 0..3 {
            layer = (layer.iter())
                .flat_map(|l: &Vec<Value>| {
                    pool.iter()
                        .map(move |v| [l.as_slice(), std::slice::from_ref(v)].concat())
                })
                .collect();
            lists.extend(layer.iter().cloned());
        }
        let long: Vec<Value> = (0..40).map(|i| json!({"k": i % 39})).collect();
        lists.push(long.clone());
        lists.push(long[..39].to_vec());
        let cases: [(ListType, &[&str]); 3] = [
            (ListType::Set, &[]),
            (ListType::Map, &["k"]),
            (ListType::Map, &["k", "l"]),
        ];
        let mut failing = 0;
        for list in &lists {
            for (list_type, keys) in cases {
                let mut errs = Vec::new();
                validate_list(&Path::Root, Some(list_type), keys, list, &mut errs);
                assert_eq!(
                    list_ok(Some(list_type), keys, list),
                    errs.is_empty(),
                    "{list_type:?} {keys:?} {list:?}: {errs:?}"
                );
                failing += usize::from(!errs.is_empty());
            }
        }
        assert!(failing > 1000, "the cases exercise failures too: {failing}");
    }

    #[test]
    fn maps() {
        assert_eq!(
            run(ListType::Map, &["k"], json!([{"k": "a"}, {"k": "a", "v": 1}, {}, null])),
            [
                "list[1]: Duplicate value: {\"k\":\"a\"}",
                "list[3]: Duplicate value: {}"
            ]
        );
        assert_eq!(
            run(
                ListType::Map,
                &["k", "l"],
                json!([{"k": "a", "l": 1}, {"k": "a", "l": 1}, {"k": "a"}])
            ),
            ["list[1]: Duplicate value: {\"k\":\"a\",\"l\":1}"]
        );
        assert_eq!(
            run(ListType::Map, &["k"], json!([{"k": "a"}, 5, "x"])),
            ["list[1]: Invalid value: 5: must be an object for an array of list-type map"]
        );
    }
}
