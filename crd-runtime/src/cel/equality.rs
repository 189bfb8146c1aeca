//! Equality and membership: cel-go's `types.Equal` and each value type's `Equal` and
//! `Contains`, with Kubernetes' list and map semantics for data
//! (apiserver `pkg/cel/common/valuesunstructured.go`, `valuesreflect.go`).
//!
//! cel-go's equality is heterogeneous: values of different types are simply not
//! equal, numbers compare across `int`, `uint` and `double`, and `NaN` equals
//! nothing. Kubernetes' value types (quantities, URLs, IPs, ...) instead report
//! `no such overload` against a value of another type, and so do JSON lists and
//! maps against a non-list or non-map. Those errors are values in cel-go, so
//! equality returns `Result<bool>`.

use std::collections::HashSet;

use serde_json::Value as Json;

use super::error::{Error, Result};
use super::list::{List, ListType, Repr as ListRepr};
use super::map::Map;
use super::value::Val;

/// cel-go `types.Equal(lhs, rhs)`: `null` equals only `null`, otherwise
/// `lhs.Equal(rhs)`.
pub fn equals(lhs: &Val<'_>, rhs: &Val<'_>) -> Result<bool> {
    match (lhs, rhs) {
        (Val::Null, r) => Ok(matches!(r, Val::Null)),
        (_, Val::Null) => Ok(false),
        _ => value_equal(lhs, rhs),
    }
}

/// `lhs.Equal(rhs)`: the equality method of the left value's type.
pub(crate) fn value_equal(lhs: &Val<'_>, rhs: &Val<'_>) -> Result<bool> {
    Ok(match (lhs, rhs) {
        (Val::Null, r) => matches!(r, Val::Null),
        (Val::Bool(a), Val::Bool(b)) => a == b,
        (Val::Int(_) | Val::Uint(_) | Val::Double(_), _) => numeric_equal(lhs, rhs),
        (Val::String(a), Val::String(b)) => **a == **b,
        (Val::Bytes(a), Val::Bytes(b)) => **a == **b,
        (Val::Duration(a), Val::Duration(b)) => a == b,
        (Val::Timestamp(a), Val::Timestamp(b)) => a == b,
        (Val::Type(a), Val::Type(b)) => a.name() == b.name(),
        (Val::Optional(a), Val::Optional(b)) => match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => return value_equal(a, b),
            _ => false,
        },
        (Val::List(a), _) => return list_equal(a, rhs),
        (Val::Map(a), _) => return map_equal(a, rhs),
        (Val::Quantity(a, _), Val::Quantity(b, false)) => a == b,
        (Val::Url(a), Val::Url(b)) => a == b,
        (Val::Ip(a), Val::Ip(b)) => a == b,
        (Val::Cidr(a), Val::Cidr(b)) => a == b,
        (Val::Semver(a), Val::Semver(b)) => a == b,
        (Val::Format(a), Val::Format(b)) => a == b,
        (Val::Quantity(..) | Val::Url(_) | Val::Ip(_) | Val::Cidr(_) | Val::Semver(_) | Val::Format(_), _) => {
            return Err(Error::no_such_overload());
        }
        (Val::Unknown(a), _) => unknown_equal(a, rhs),
        _ => false,
    })
}

/// Numbers compare by value across types (cel-go `compareIntDouble` & co., with
/// Go's conversions to `float64`).
fn numeric_equal(lhs: &Val<'_>, rhs: &Val<'_>) -> bool {
    use std::cmp::Ordering::Equal;
    match (lhs, rhs) {
        (Val::Double(a), _) if a.is_nan() => false,
        (_, Val::Double(b)) if b.is_nan() => false,
        _ => compare_numbers(lhs, rhs) == Some(Equal),
    }
}

/// cel-go's ordering of numbers across `int`, `uint` and `double` (`NaN` is not
/// ordered: `None`). `None` too when either value is not a number.
pub(crate) fn compare_numbers(lhs: &Val<'_>, rhs: &Val<'_>) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    fn double_int(d: f64, i: i64) -> Option<Ordering> {
        if d < -9223372036854775808.0 {
            return Some(Ordering::Less);
        }
        if d > 9223372036854775807.0 {
            return Some(Ordering::Greater);
        }
        d.partial_cmp(&(i as f64))
    }
    fn double_uint(d: f64, u: u64) -> Option<Ordering> {
        if d < 0.0 {
            return Some(Ordering::Less);
        }
        if d > 18446744073709551615.0 {
            return Some(Ordering::Greater);
        }
        d.partial_cmp(&(u as f64))
    }
    fn int_uint(i: i64, u: u64) -> Ordering {
        if i < 0 || u > i64::MAX as u64 {
            return Ordering::Less;
        }
        i.cmp(&(u as i64))
    }
    match (lhs, rhs) {
        (Val::Int(a), Val::Int(b)) => Some(a.cmp(b)),
        (Val::Uint(a), Val::Uint(b)) => Some(a.cmp(b)),
        (Val::Double(a), Val::Double(b)) => a.partial_cmp(b),
        (Val::Int(a), Val::Uint(b)) => Some(int_uint(*a, *b)),
        (Val::Uint(a), Val::Int(b)) => Some(int_uint(*b, *a).reverse()),
        (Val::Double(a), Val::Int(b)) => double_int(*a, *b),
        (Val::Int(a), Val::Double(b)) => double_int(*b, *a).map(Ordering::reverse),
        (Val::Double(a), Val::Uint(b)) => double_uint(*a, *b),
        (Val::Uint(a), Val::Double(b)) => double_uint(*b, *a).map(Ordering::reverse),
        _ => None,
    }
}

/// Kubernetes' `unknownPreserved.Equal`: `equality.Semantic.DeepEqual` of the JSON
/// data and the other value's Go value.
fn unknown_equal(a: &Json, rhs: &Val<'_>) -> bool {
    match rhs {
        Val::Unknown(b) => a == *b,
        Val::String(s) => a.as_str() == Some(&**s),
        Val::Bool(b) => a.as_bool() == Some(*b),
        Val::Int(i) => matches!(a, Json::Number(n) if n.as_i64() == Some(*i)),
        Val::Double(d) => matches!(a, Json::Number(n) if n.is_f64() && n.as_f64() == Some(*d)),
        Val::List(l) => l
            .json_items()
            .is_some_and(|(items, _)| a.as_array().is_some_and(|x| x == items)),
        Val::Map(m) => m.json_object().is_some_and(|(obj, _)| a.as_object() == Some(obj)),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------

/// The equality of the left list's implementation.
fn list_equal(a: &List<'_>, rhs: &Val<'_>) -> Result<bool> {
    let data = a.is_data();
    let Val::List(b) = rhs else {
        // cel-go's own lists are simply unequal to other values; Kubernetes' lists
        // report `no such overload`.
        return if data || !matches!(a.list_type, ListType::Atomic) {
            Err(Error::no_such_overload())
        } else {
            Ok(false)
        };
    };
    if a.len() != b.len() {
        return Ok(false);
    }
    match (&a.list_type, data) {
        (ListType::Atomic, true) => {
            // unstructuredList: the first element comparison that is not true.
            for i in 0..a.len() {
                let x = a.get(i);
                let y = b.get(i);
                match (x, y) {
                    (Ok(x), Ok(y)) => {
                        if !value_equal(&x, &y)? {
                            return Ok(false);
                        }
                    }
                    (Err(e), _) => return Err(e),
                    (Ok(x), Err(e)) => {
                        if !error_operand_equal(&x, e)? {
                            return Ok(false);
                        }
                    }
                }
            }
            Ok(true)
        }
        (ListType::Atomic, false) => {
            // baseList ignores element errors; concatList reports the first.
            let concat = matches!(a.repr, ListRepr::Concat(_));
            let mut first_err = None;
            for i in 0..a.len() {
                let eq = match (a.get(i), b.get(i)) {
                    (Ok(x), Ok(y)) => equals(&x, &y),
                    (Err(e), _) => Err(e),
                    (Ok(x), Err(e)) => match x {
                        Val::Null => Ok(false),
                        x => error_operand_equal(&x, e),
                    },
                };
                match eq {
                    Ok(false) => return Ok(false),
                    Ok(true) => {}
                    Err(e) => {
                        if first_err.is_none() {
                            first_err = Some(e);
                        }
                    }
                }
            }
            match first_err {
                Some(e) if concat => Err(e),
                _ => Ok(true),
            }
        }
        (ListType::Set, _) => set_list_equal(a, b),
        (ListType::Map(keys), _) => map_list_equal(a, b, &keys.names()),
    }
}

/// `x.Equal(err)` for an error operand: most types say false, Kubernetes' types
/// pass the error on.
fn error_operand_equal(x: &Val<'_>, e: Error) -> Result<bool> {
    match x {
        Val::Quantity(..) | Val::Url(_) | Val::Ip(_) | Val::Cidr(_) | Val::Semver(_) | Val::Format(_) => Err(e),
        Val::List(l) if l.is_data() || !matches!(l.list_type, ListType::Atomic) => Err(e),
        Val::Map(m) if m.is_data() => Err(e),
        _ => Ok(false),
    }
}

/// A Go map key made of a CEL value (Kubernetes' `setElementKey`, the raw Go
/// values of `refValMapKey` and `toMapKey`): values of different Go types never
/// match, `[]byte` and other non-comparable values are compared through their
/// `%#v` text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RawKey {
    /// Go `nil` (a missing key property).
    Nil,
    /// `structpb.NullValue` (CEL `null`).
    NullValue,
    Bool(bool),
    Int(i64),
    Uint(u64),
    /// A `float64`, by its bits (with `-0` as `+0`).
    Double(u64),
    String(String),
    Duration(i64),
    /// A `time.Time`: the instant and its zone offset.
    Timestamp(i64, u32, i32),
    /// The `%#v` text of a non-comparable value, or a value of another type.
    Other(String),
}

fn double_key(d: f64) -> RawKey {
    RawKey::Double(if d == 0.0 { 0 } else { d.to_bits() })
}

/// `setElementKey`: lists and maps are not allowed.
fn set_element_key(v: &Val<'_>) -> Result<RawKey> {
    match v {
        Val::List(_) | Val::Map(_) => Err(Error::new(
            "listSet operations are only supported on lists of scalar values",
        )),
        v => Ok(raw_key(v)),
    }
}

/// The Go value (`Value()`) of a scalar CEL value, as a map key.
pub(crate) fn raw_key(v: &Val<'_>) -> RawKey {
    match v {
        Val::Null => RawKey::NullValue,
        Val::Bool(b) => RawKey::Bool(*b),
        Val::Int(i) => RawKey::Int(*i),
        Val::Uint(u) => RawKey::Uint(*u),
        Val::Double(d) => double_key(*d),
        Val::String(s) => RawKey::String(s.to_string()),
        Val::Bytes(b) => RawKey::Other(go_bytes_literal(b)),
        Val::Duration(d) => RawKey::Duration(d.nanos()),
        Val::Timestamp(t) => RawKey::Timestamp(t.unix_seconds(), t.subsec_nanos(), t.offset_seconds()),
        Val::Unknown(j) => json_raw_key(j),
        other => RawKey::Other(format!("{other:?}")),
    }
}

/// The Go value of decoded JSON, as a map key.
pub(crate) fn json_raw_key(j: &Json) -> RawKey {
    match j {
        Json::Null => RawKey::Nil,
        Json::Bool(b) => RawKey::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => RawKey::Int(i),
            None => double_key(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => RawKey::String(s.clone()),
        other => RawKey::Other(other.to_string()),
    }
}

/// Go's `%#v` of a `[]byte`.
fn go_bytes_literal(b: &[u8]) -> String {
    let items: Vec<String> = b.iter().map(|x| format!("0x{x:x}")).collect();
    format!("[]byte{{{}}}", items.join(", "))
}

/// The set-list equality of `unstructuredSetList` / `refValSetList`: same size,
/// every element of the other list is an element of this one, and every element
/// of this one is seen.
fn set_list_equal(a: &List<'_>, b: &List<'_>) -> Result<bool> {
    let mut set = HashSet::new();
    for x in a.iter() {
        set.insert(set_element_key(&x?)?);
    }
    let mut seen = HashSet::new();
    for y in b.iter() {
        let k = set_element_key(&y?)?;
        if !set.contains(&k) {
            return Ok(false);
        }
        seen.insert(k);
    }
    Ok(seen.len() == set.len())
}

/// The key of a map-list element; `None` when it has none (Go's key would be an
/// error value, equal to nothing).
///
/// For JSON arrays Kubernetes (`unstructuredMapList.toMapKey`) reads the key
/// properties from the raw JSON object by their escaped names, and the other
/// list's elements must be JSON objects too; for other lists (`refValMapKey`) it
/// looks them up in the CEL value. A missing key property is Go's `nil`.
pub(crate) fn map_list_key(element: &Val<'_>, keys: &[&str], from_json: bool) -> Option<Vec<RawKey>> {
    let Val::Map(m) = element else {
        return if from_json {
            None
        } else {
            Some(keys.iter().map(|_| RawKey::Nil).collect())
        };
    };
    if from_json {
        if let Some((obj, _)) = m.json_object() {
            return Some(
                keys.iter()
                    .map(|k| obj.get(*k).map_or(RawKey::Nil, json_raw_key))
                    .collect(),
            );
        }
        m.object_view()?;
    }
    Some(
        keys.iter()
            .map(|k| match m.get_str(k) {
                Some(Ok(v)) => raw_key(&v),
                _ => RawKey::Nil,
            })
            .collect(),
    )
}

/// The map-list equality of `unstructuredMapList` / `refValMapList`: same size,
/// every element of the other list has a key of this one and equals its element,
/// and every key of this one is seen.
fn map_list_equal(a: &List<'_>, b: &List<'_>, keys: &[&str]) -> Result<bool> {
    let from_json = a.is_data();
    // Elements without a key are each their own entry, equal to nothing.
    let mut by_key: Vec<(Option<Vec<RawKey>>, Val<'_>)> = Vec::with_capacity(a.len());
    for x in a.iter() {
        let x = x?;
        let k = map_list_key(&x, keys, from_json);
        match by_key.iter_mut().find(|(key, _)| key.is_some() && *key == k) {
            Some(slot) => slot.1 = x,
            None => by_key.push((k, x)),
        }
    }
    let mut seen: Vec<Vec<RawKey>> = Vec::new();
    for y in b.iter() {
        let y = y?;
        let Some(k) = map_list_key(&y, keys, from_json) else {
            return Ok(false);
        };
        let Some((_, x)) = by_key.iter().find(|(key, _)| key.as_ref() == Some(&k)) else {
            return Ok(false);
        };
        if !value_equal(x, &y)? {
            return Ok(false);
        }
        if !seen.contains(&k) {
            seen.push(k);
        }
    }
    Ok(seen.len() == by_key.len())
}

/// `list.Contains(elem)` (the `in` operator on lists).
pub fn list_contains(list: &List<'_>, elem: &Val<'_>) -> Result<bool> {
    if list.is_data() {
        // unstructuredList.Contains: `item.Equal(elem)`, the first error reported
        // when nothing matches.
        let mut first_err = None;
        for item in list.iter() {
            let eq = match item {
                Ok(item) => value_equal(&item, elem),
                Err(e) => Err(e),
            };
            match eq {
                Ok(true) => return Ok(true),
                Ok(false) => {}
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        return match first_err {
            Some(e) => Err(e),
            None => Ok(false),
        };
    }
    if let ListRepr::Concat(parts) = &list.repr {
        let prev = list_contains(&parts.0, elem);
        if let Ok(true) = prev {
            return prev;
        }
        let next = list_contains(&parts.1, elem);
        if let Ok(true) = next {
            return next;
        }
        return match prev {
            Err(e) => Err(e),
            Ok(_) => next,
        };
    }
    // baseList.Contains: `elem.Equal(item)`, errors ignored.
    for item in list.iter() {
        if let Ok(item) = item
            && let Ok(true) = value_equal(elem, &item)
        {
            return Ok(true);
        }
    }
    Ok(false)
}

// ---------------------------------------------------------------------------
// Maps
// ---------------------------------------------------------------------------

fn map_equal(a: &Map<'_>, rhs: &Val<'_>) -> Result<bool> {
    let Val::Map(b) = rhs else {
        return if a.is_data() {
            Err(Error::no_such_overload())
        } else {
            Ok(false)
        };
    };
    if a.len() != b.len() {
        return Ok(false);
    }
    if !a.is_data() {
        // baseMap: every key found in the other map with an equal value; errors
        // are ignored.
        for k in a.keys() {
            let Some(x) = a.find(&k) else { continue };
            let Some(y) = b.find(&k) else {
                return Ok(false);
            };
            let eq = match (x, y) {
                (Ok(x), Ok(y)) => equals(&x, &y),
                (Err(e), _) => Err(e),
                (Ok(x), Err(e)) => match x {
                    Val::Null => Ok(false),
                    x => error_operand_equal(&x, e),
                },
            };
            if let Ok(false) = eq {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    // unstructuredMap.Equal: known keys compared as CEL values (absent and null
    // alike), unknown keys compared as JSON when the other object has them.
    if let Some((obj, schema)) = a.json_object() {
        for (key, raw) in obj {
            if super::map::prop_schema(schema, key).is_some() {
                let k = Val::str(key);
                let x = a.find(&k);
                let y = b.find(&k);
                match (x, y) {
                    (None, None) => continue,
                    (Some(_), None) | (None, Some(_)) => return Ok(false),
                    (Some(x), Some(y)) => {
                        let (x, y) = (x?, y);
                        let eq = match y {
                            Ok(y) => value_equal(&x, &y)?,
                            Err(e) => error_operand_equal(&x, e)?,
                        };
                        if !eq {
                            return Ok(false);
                        }
                    }
                }
            } else {
                let Some(other) = other_raw(b, key) else {
                    if b.json_object().is_none() && b.object_view().is_none() {
                        return Err(Error::no_such_overload());
                    }
                    continue;
                };
                if raw != other {
                    return Ok(false);
                }
            }
        }
        return Ok(true);
    }
    if let Some(o) = a.object_view() {
        for name in o.field_names() {
            let k = Val::str(name);
            match (a.find(&k), b.find(&k)) {
                (None, None) => continue,
                (Some(_), None) | (None, Some(_)) => return Ok(false),
                (Some(x), Some(y)) => {
                    let x = x?;
                    let eq = match y {
                        Ok(y) => value_equal(&x, &y)?,
                        Err(e) => error_operand_equal(&x, e)?,
                    };
                    if !eq {
                        return Ok(false);
                    }
                }
            }
        }
        if let Some(unknown) = o.unknown_fields() {
            for (key, raw) in unknown {
                if let Some(other) = other_raw(b, key)
                    && raw != other
                {
                    return Ok(false);
                }
            }
        }
        return Ok(true);
    }
    // A generated map (string keys, every key known).
    for k in a.keys() {
        let (Some(x), y) = (a.find(&k), b.find(&k)) else {
            continue;
        };
        let Some(y) = y else { return Ok(false) };
        let x = x?;
        let eq = match y {
            Ok(y) => value_equal(&x, &y)?,
            Err(e) => error_operand_equal(&x, e)?,
        };
        if !eq {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The raw JSON of an unknown field of the other object, if it has one.
fn other_raw<'b>(b: &Map<'b>, key: &str) -> Option<&'b Json> {
    if let Some((obj, _)) = b.json_object() {
        return obj.get(key);
    }
    b.object_view()
        .and_then(|o| o.unknown_fields())
        .and_then(|u| u.get(key))
}

/// `map.Contains(key)` (the `in` operator on maps).
pub fn map_contains(map: &Map<'_>, key: &Val<'_>) -> Result<bool> {
    match map.find(key) {
        None => Ok(false),
        Some(Ok(_)) => Ok(true),
        Some(Err(e)) => {
            if map.is_data() {
                Err(e)
            } else {
                Ok(true)
            }
        }
    }
}
