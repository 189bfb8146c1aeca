//! List functions: `+` on `set` and `map` lists (apiserver
//! `pkg/cel/common/valuesreflect.go` `addToSetList`, `addToMapList`), cel-go's
//! `ext.Lists` version 3 (`ext/lists.go`: `slice`, `flatten`, `sort`, `sortBy`,
//! `lists.range`, `reverse`, `distinct`), Kubernetes' Lists library
//! (apiserver `pkg/cel/library/lists.go`: `isSorted`, `sum`, `min`, `max`,
//! `indexOf`, `lastIndexOf`, `includes`), cel-go's `ext.Sets` (`ext/sets.go`) and
//! the list functions of the optional library (`first`, `last`,
//! `optional.unwrap`).

use std::cmp::Ordering;

use super::equality::{RawKey, list_contains, map_list_key, raw_key, value_equal};
use super::error::{Error, Result};
use super::gosort;
use super::list::{KeyNames, List, ListType};
use super::ops::{add, compare};
use super::value::Val;

/// The largest list `lists.range` builds (cel-go v0.29.2 `defaultMaxRangeSize`).
pub const MAX_RANGE: i64 = 1_000_000;

/// `X + Y` on `set` lists: `X` in order, then the elements of `Y` not in it
/// (Kubernetes `addToSetList`; elements must be scalars).
pub fn add_to_set_list<'a>(mut elements: Vec<Val<'a>>, other: &List<'a>) -> Result<List<'a>> {
    let mut set = std::collections::HashSet::new();
    for e in &elements {
        set.insert(set_key(e)?);
    }
    for v in other.iter() {
        let v = v?;
        if set.insert(set_key(&v)?) {
            elements.push(v);
        }
    }
    Ok(List::with_type(elements, ListType::Set))
}

fn set_key(v: &Val<'_>) -> Result<RawKey> {
    match v {
        Val::List(_) | Val::Map(_) => Err(Error::new(
            "listSet operations are only supported on lists of scalar values",
        )),
        v => Ok(raw_key(v)),
    }
}

/// `X + Y` on `map` lists: elements of `Y` replace the elements of `X` with the same
/// key in place, the others are appended (Kubernetes `addToMapList`).
pub fn add_to_map_list<'a>(mut elements: Vec<Val<'a>>, other: &List<'a>, keys: KeyNames<'a>) -> Result<List<'a>> {
    let names = keys.names();
    let mut positions: Vec<(Vec<RawKey>, usize)> = Vec::with_capacity(elements.len());
    for (i, e) in elements.iter().enumerate() {
        let k = map_list_key(e, &names, false).unwrap_or_default();
        match positions.iter_mut().find(|(key, _)| *key == k) {
            Some(slot) => slot.1 = i,
            None => positions.push((k, i)),
        }
    }
    for v in other.iter() {
        let v = v?;
        let k = map_list_key(&v, &names, false).unwrap_or_default();
        match positions.iter().find(|(key, _)| *key == k) {
            Some((_, i)) => elements[*i] = v,
            None => elements.push(v),
        }
    }
    drop(names);
    Ok(List::with_type(elements, ListType::Map(keys)))
}

// ---------------------------------------------------------------------------
// ext.Lists
// ---------------------------------------------------------------------------

/// `list.slice(start, end)`.
pub fn slice<'a>(list: &List<'a>, start: i64, end: i64) -> Result<Val<'a>> {
    let len = list.len() as i64;
    if start < 0 || end < 0 {
        return Err(Error::new(format!(
            "cannot slice({start}, {end}), negative indexes not supported"
        )));
    }
    if start > end {
        return Err(Error::new(format!(
            "cannot slice({start}, {end}), start index must be less than or equal to end index"
        )));
    }
    if len < end {
        return Err(Error::new(format!(
            "cannot slice({start}, {end}), list is length {len}"
        )));
    }
    let items = (start..end).map(|i| list.get(i as usize)).collect::<Result<Vec<_>>>()?;
    Ok(Val::list(items))
}

/// `list.flatten()` / `list.flatten(depth)`.
pub fn flatten<'a>(list: &List<'a>, depth: i64) -> Result<Val<'a>> {
    fn go<'a>(list: &List<'a>, depth: i64, out: &mut Vec<Val<'a>>) -> Result<()> {
        if depth < 0 {
            return Err(Error::new("level must be non-negative"));
        }
        for v in list.iter() {
            match v? {
                Val::List(inner) if depth != 0 => go(&inner, depth - 1, out)?,
                v => out.push(v),
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    go(list, depth, &mut out)?;
    Ok(Val::list(out))
}

/// `list.sort()`.
pub fn sort<'a>(list: &List<'a>) -> Result<Val<'a>> {
    sort_by_associated_keys(list, list)
}

/// `list.@sortByAssociatedKeys(keys)` (the `sortBy` macro): the list ordered by the
/// keys, which must be comparable values of one type.
///
/// Go sorts with `sort.Slice`, which is not stable beyond 12 elements; [`gosort`]
/// repeats Go's algorithm so that elements with equal keys come out in Go's order.
/// As in Go, "less" is "compares as -1": keys that cannot be ordered (NaN) are never
/// less than anything.
pub fn sort_by_associated_keys<'a>(list: &List<'a>, keys: &List<'_>) -> Result<Val<'a>> {
    let (n, m) = (list.len(), keys.len());
    if n != m {
        return Err(Error::new(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {n} and {m} elements respectively"
        )));
    }
    if n == 0 {
        return Ok(Val::List(list.clone()));
    }
    let keys = keys.to_vec()?;
    let first_type = keys[0].type_name().to_string();
    if !is_comparer(&keys[0]) {
        return Err(Error::new("list elements must be comparable"));
    }
    if keys.iter().any(|k| k.type_name() != first_type) {
        return Err(Error::new("list elements must have the same type"));
    }
    let mut order: Vec<usize> = (0..n).collect();
    gosort::sort_slice(&mut order, |&i, &j| {
        matches!(compare(&keys[i], &keys[j]), Ok(Ordering::Less))
    });
    let items = order.into_iter().map(|i| list.get(i)).collect::<Result<Vec<_>>>()?;
    Ok(Val::list(items))
}

fn is_comparer(v: &Val<'_>) -> bool {
    matches!(
        v,
        Val::Int(_)
            | Val::Uint(_)
            | Val::Double(_)
            | Val::Bool(_)
            | Val::String(_)
            | Val::Bytes(_)
            | Val::Duration(_)
            | Val::Timestamp(_)
    )
}

/// `lists.range(n)`: `[0, 1, ..., n-1]`; `n` must be in `0..=1000000`.
pub fn range<'a>(n: i64) -> Result<Val<'a>> {
    if n < 0 {
        return Err(Error::new(format!("lists.range: size must be non-negative, got {n}")));
    }
    if n > MAX_RANGE {
        return Err(Error::new(format!(
            "lists.range: size {n} exceeds maximum allowed ({MAX_RANGE})"
        )));
    }
    Ok(Val::list((0..n).map(Val::Int).collect()))
}

/// `list.reverse()`.
pub fn reverse<'a>(list: &List<'a>) -> Result<Val<'a>> {
    let mut items = list.to_vec()?;
    items.reverse();
    Ok(Val::list(items))
}

/// `list.distinct()`: the first of each group of equal elements, in order.
pub fn distinct<'a>(list: &List<'a>) -> Result<Val<'a>> {
    if list.is_empty() {
        return Ok(Val::List(list.clone()));
    }
    let mut unique: Vec<Val<'a>> = Vec::new();
    for v in list.iter() {
        let v = v?;
        let mut seen = false;
        for u in &unique {
            if let Ok(true) = value_equal(&v, u) {
                seen = true;
                break;
            }
        }
        if !seen {
            unique.push(v);
        }
    }
    Ok(Val::list(unique))
}

// ---------------------------------------------------------------------------
// Kubernetes Lists
// ---------------------------------------------------------------------------

/// `list.isSorted()`: no element is greater than the next (comparison errors, as
/// for `NaN`, are ignored like in Go).
pub fn is_sorted(list: &List<'_>) -> Result<bool> {
    let mut prev: Option<Val<'_>> = None;
    for v in list.iter() {
        let v = v?;
        if !is_comparer(&v) {
            return Err(Error::no_such_overload());
        }
        if let Some(p) = &prev
            && let Ok(Ordering::Greater) = compare(p, &v)
        {
            return Ok(false);
        }
        prev = Some(v);
    }
    Ok(true)
}

/// `list.sum()`, starting from the zero of the element type (`zero`).
pub fn sum<'a>(list: &List<'a>, zero: Val<'a>) -> Result<Val<'a>> {
    let mut acc = zero;
    for v in list.iter() {
        acc = add(&acc, &v?)?;
    }
    Ok(acc)
}

/// `list.min()`: `min called on empty list` for an empty list.
pub fn min<'a>(list: &List<'a>) -> Result<Val<'a>> {
    extreme(list, "min", Ordering::Greater)
}

/// `list.max()`: `max called on empty list` for an empty list.
pub fn max<'a>(list: &List<'a>) -> Result<Val<'a>> {
    extreme(list, "max", Ordering::Less)
}

fn extreme<'a>(list: &List<'a>, name: &str, replace_when: Ordering) -> Result<Val<'a>> {
    let mut result: Option<Val<'a>> = None;
    for v in list.iter() {
        let v = v?;
        if !is_comparer(&v) {
            return Err(Error::no_such_overload());
        }
        match &result {
            None => result = Some(v),
            Some(r) => {
                if let Ok(o) = compare(r, &v)
                    && o == replace_when
                {
                    result = Some(v);
                }
            }
        }
    }
    result.ok_or_else(|| Error::new(format!("{name} called on empty list")))
}

/// `list.indexOf(x)`: the first index whose element equals `x`, or -1.
pub fn index_of(list: &List<'_>, item: &Val<'_>) -> Result<i64> {
    for i in 0..list.len() {
        if let Ok(true) = value_equal(&list.get(i)?, item) {
            return Ok(i as i64);
        }
    }
    Ok(-1)
}

/// `list.lastIndexOf(x)`: the last index whose element equals `x`, or -1.
pub fn last_index_of(list: &List<'_>, item: &Val<'_>) -> Result<i64> {
    for i in (0..list.len()).rev() {
        if let Ok(true) = value_equal(&list.get(i)?, item) {
            return Ok(i as i64);
        }
    }
    Ok(-1)
}

/// `target.includes(x)`: for a list, whether an element equals `x`; for any other
/// value, whether it equals `x`.
pub fn includes(target: &Val<'_>, arg: &Val<'_>) -> Result<bool> {
    if let Val::List(l) = target {
        for v in l.iter() {
            if let Ok(true) = value_equal(&v?, arg) {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    Ok(matches!(value_equal(target, arg), Ok(true)))
}

// ---------------------------------------------------------------------------
// ext.Sets
// ---------------------------------------------------------------------------

/// `sets.contains(list, sublist)`: every element of `sublist` is in `list`.
pub fn sets_contains(list: &List<'_>, sublist: &List<'_>) -> Result<bool> {
    for v in sublist.iter() {
        if !list_contains(list, &v?)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `sets.equivalent(a, b)`: each contains the other.
pub fn sets_equivalent(a: &List<'_>, b: &List<'_>) -> Result<bool> {
    Ok(sets_contains(a, b)? && sets_contains(b, a)?)
}

/// `sets.intersects(a, b)`: some element of `a` is in `b` (errors of the
/// membership tests count as no).
pub fn sets_intersects(a: &List<'_>, b: &List<'_>) -> Result<bool> {
    for v in a.iter() {
        if let Ok(true) = list_contains(b, &v?) {
            return Ok(true);
        }
    }
    Ok(false)
}

// ---------------------------------------------------------------------------
// Optional library
// ---------------------------------------------------------------------------

/// `list.first()`.
pub fn first<'a>(list: &List<'a>) -> Result<Val<'a>> {
    if list.is_empty() {
        return Ok(Val::optional_none());
    }
    Ok(Val::optional_of(list.get(0)?))
}

/// `list.last()`.
pub fn last<'a>(list: &List<'a>) -> Result<Val<'a>> {
    if list.is_empty() {
        return Ok(Val::optional_none());
    }
    Ok(Val::optional_of(list.get(list.len() - 1)?))
}

/// `optional.unwrap(list)` / `list.unwrapOpt()`: the values of the optionals that
/// have one.
pub fn unwrap_optionals<'a>(list: &List<'a>) -> Result<Val<'a>> {
    let mut out = Vec::new();
    for v in list.iter() {
        match v? {
            Val::Optional(Some(v)) => out.push(*v),
            Val::Optional(None) => {}
            other => {
                return Err(Error::new(format!(
                    "value {} is not optional",
                    super::format::go_value(&other)
                )));
            }
        }
    }
    Ok(Val::list(out))
}
