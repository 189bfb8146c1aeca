//! The operators of cel-go's standard library (`common/stdlib/standard.go`).
//!
//! cel-go binds each operator once for all its overloads ("singleton" bindings):
//! the left operand's type decides through its traits (`Adder`, `Comparer`, ...),
//! whatever overload the checker picked. An operand without the trait gives
//! `no such overload: <operator>` (cel-go's `evalBinary`), except strings,
//! durations and timestamps, which answer `no such overload` (their `Receive`);
//! a right operand of the wrong type gives `no such overload` (the trait method's
//! `MaybeNoSuchOverloadErr`). The functions here are these bindings: they take
//! any values and never panic.

use std::cmp::Ordering;
use std::sync::Arc;

use super::equality::compare_numbers;
use super::error::{DIVISION_BY_ZERO, Error, INTEGER_OVERFLOW, MODULUS_BY_ZERO, Result, UNSIGNED_INTEGER_OVERFLOW};
use super::list::{List, ListType, Repr};
use super::lists::{add_to_map_list, add_to_set_list};
use super::value::Val;

/// The error when the left operand lacks the operator's trait (cel-go
/// `evalBinary`/`evalUnary`: receiver types answer through `Receive`).
pub(crate) fn missing_trait(function: &str, lhs: &Val<'_>) -> Error {
    match lhs {
        Val::String(_) | Val::Duration(_) | Val::Timestamp(_) => Error::no_such_overload(),
        _ => Error::new(format!("no such overload: {function}")),
    }
}

fn int_overflow() -> Error {
    Error::new(INTEGER_OVERFLOW)
}

fn uint_overflow() -> Error {
    Error::new(UNSIGNED_INTEGER_OVERFLOW)
}

/// Integer arithmetic with CEL's errors, for the interpreter's operators below and
/// for compiled rules, which call them on native integers.
pub mod int {
    use super::{DIVISION_BY_ZERO, Error, MODULUS_BY_ZERO, Result, int_overflow, uint_overflow};

    pub fn add(a: i64, b: i64) -> Result<i64> {
        a.checked_add(b).ok_or_else(int_overflow)
    }
    pub fn sub(a: i64, b: i64) -> Result<i64> {
        a.checked_sub(b).ok_or_else(int_overflow)
    }
    pub fn mul(a: i64, b: i64) -> Result<i64> {
        a.checked_mul(b).ok_or_else(int_overflow)
    }
    /// `division by zero`; `integer overflow` for `-9223372036854775808 / -1`.
    pub fn div(a: i64, b: i64) -> Result<i64> {
        if b == 0 {
            return Err(Error::new(DIVISION_BY_ZERO));
        }
        a.checked_div(b).ok_or_else(int_overflow)
    }
    pub fn rem(a: i64, b: i64) -> Result<i64> {
        if b == 0 {
            return Err(Error::new(MODULUS_BY_ZERO));
        }
        a.checked_rem(b).ok_or_else(int_overflow)
    }
    pub fn neg(a: i64) -> Result<i64> {
        a.checked_neg().ok_or_else(int_overflow)
    }
    pub fn uadd(a: u64, b: u64) -> Result<u64> {
        a.checked_add(b).ok_or_else(uint_overflow)
    }
    pub fn usub(a: u64, b: u64) -> Result<u64> {
        a.checked_sub(b).ok_or_else(uint_overflow)
    }
    pub fn umul(a: u64, b: u64) -> Result<u64> {
        a.checked_mul(b).ok_or_else(uint_overflow)
    }
    pub fn udiv(a: u64, b: u64) -> Result<u64> {
        if b == 0 {
            return Err(Error::new(DIVISION_BY_ZERO));
        }
        Ok(a / b)
    }
    pub fn urem(a: u64, b: u64) -> Result<u64> {
        if b == 0 {
            return Err(Error::new(MODULUS_BY_ZERO));
        }
        Ok(a % b)
    }
}

/// `_+_`: numbers of one type, strings, bytes, lists (`x-kubernetes-list-type`
/// aware), durations and timestamps.
pub fn add<'a>(lhs: &Val<'a>, rhs: &Val<'a>) -> Result<Val<'a>> {
    Ok(match (lhs, rhs) {
        (Val::Int(a), Val::Int(b)) => Val::Int(int::add(*a, *b)?),
        (Val::Uint(a), Val::Uint(b)) => Val::Uint(int::uadd(*a, *b)?),
        (Val::Double(a), Val::Double(b)) => Val::Double(a + b),
        (Val::String(a), Val::String(b)) => {
            let mut s = String::with_capacity(a.len() + b.len());
            s.push_str(a);
            s.push_str(b);
            Val::string(s)
        }
        (Val::Bytes(a), Val::Bytes(b)) => {
            let mut v = Vec::with_capacity(a.len() + b.len());
            v.extend_from_slice(a);
            v.extend_from_slice(b);
            Val::bytes(v)
        }
        (Val::List(a), Val::List(b)) => Val::List(add_lists(a, b)?),
        (Val::Duration(a), Val::Duration(b)) => Val::Duration(a.checked_add(b)?),
        (Val::Duration(a), Val::Timestamp(b)) => Val::Timestamp(a.add_timestamp(b)?),
        (Val::Timestamp(a), Val::Duration(b)) => Val::Timestamp(a.add_duration(b)?),
        (Val::Int(_) | Val::Uint(_) | Val::Double(_) | Val::String(_) | Val::Bytes(_) | Val::List(_), _)
        | (Val::Duration(_) | Val::Timestamp(_), _) => return Err(Error::no_such_overload()),
        _ => return Err(missing_trait("_+_", lhs)),
    })
}

/// `list + list` by the left list's kind: atomic lists concatenate (cel-go keeps a
/// view of both, Kubernetes' data lists copy), `set` lists make a union and `map`
/// lists merge by key (Kubernetes' `addToSetList` / `addToMapList`).
pub fn add_lists<'a>(a: &List<'a>, b: &List<'a>) -> Result<List<'a>> {
    match &a.list_type {
        ListType::Set => add_to_set_list(a.to_vec()?, b),
        ListType::Map(keys) => add_to_map_list(a.to_vec()?, b, keys.clone()),
        ListType::Atomic if a.is_data() => {
            let mut items = a.to_vec()?;
            items.extend(b.to_vec()?);
            Ok(List::new(items))
        }
        ListType::Atomic => Ok(List::concat(a.clone(), b.clone())),
    }
}

/// `accu + list` on a comprehension's accumulator (cel-go's mutable list): the
/// items are appended to the accumulator, in place when nothing else holds it; the
/// result is an atomic list of plain values (cel-go's `baseList` semantics).
pub fn append<'a>(a: &mut List<'a>, b: &List<'a>) -> Result<()> {
    let extra = b.to_vec()?;
    if let (ListType::Atomic, Repr::Vals(items)) = (&a.list_type, &mut a.repr) {
        Arc::make_mut(items).extend(extra);
        return Ok(());
    }
    let mut items = a.to_vec()?;
    items.extend(extra);
    *a = List::new(items);
    Ok(())
}

/// `_-_`: numbers of one type, durations, timestamps (`timestamp - duration`,
/// `timestamp - timestamp`).
pub fn subtract<'a>(lhs: &Val<'a>, rhs: &Val<'a>) -> Result<Val<'a>> {
    Ok(match (lhs, rhs) {
        (Val::Int(a), Val::Int(b)) => Val::Int(int::sub(*a, *b)?),
        (Val::Uint(a), Val::Uint(b)) => Val::Uint(int::usub(*a, *b)?),
        (Val::Double(a), Val::Double(b)) => Val::Double(a - b),
        (Val::Duration(a), Val::Duration(b)) => Val::Duration(a.checked_sub(b)?),
        (Val::Timestamp(a), Val::Duration(b)) => Val::Timestamp(a.sub_duration(b)?),
        (Val::Timestamp(a), Val::Timestamp(b)) => Val::Duration(a.sub_timestamp(b)?),
        (Val::Int(_) | Val::Uint(_) | Val::Double(_) | Val::Duration(_) | Val::Timestamp(_), _) => {
            return Err(Error::no_such_overload());
        }
        _ => return Err(missing_trait("_-_", lhs)),
    })
}

/// `_*_`: numbers of one type.
pub fn multiply<'a>(lhs: &Val<'a>, rhs: &Val<'a>) -> Result<Val<'a>> {
    Ok(match (lhs, rhs) {
        (Val::Int(a), Val::Int(b)) => Val::Int(int::mul(*a, *b)?),
        (Val::Uint(a), Val::Uint(b)) => Val::Uint(int::umul(*a, *b)?),
        (Val::Double(a), Val::Double(b)) => Val::Double(a * b),
        (Val::Int(_) | Val::Uint(_) | Val::Double(_), _) => return Err(Error::no_such_overload()),
        _ => return Err(missing_trait("_*_", lhs)),
    })
}

/// `_/_`: `division by zero` for integers, `integer overflow` for
/// `-9223372036854775808 / -1`.
pub fn divide<'a>(lhs: &Val<'a>, rhs: &Val<'a>) -> Result<Val<'a>> {
    Ok(match (lhs, rhs) {
        (Val::Int(a), Val::Int(b)) => Val::Int(int::div(*a, *b)?),
        (Val::Uint(a), Val::Uint(b)) => Val::Uint(int::udiv(*a, *b)?),
        (Val::Double(a), Val::Double(b)) => Val::Double(a / b),
        (Val::Int(_) | Val::Uint(_) | Val::Double(_), _) => return Err(Error::no_such_overload()),
        _ => return Err(missing_trait("_/_", lhs)),
    })
}

/// `_%_`: integers only (`modulus by zero`).
pub fn modulo<'a>(lhs: &Val<'a>, rhs: &Val<'a>) -> Result<Val<'a>> {
    Ok(match (lhs, rhs) {
        (Val::Int(a), Val::Int(b)) => Val::Int(int::rem(*a, *b)?),
        (Val::Uint(a), Val::Uint(b)) => Val::Uint(int::urem(*a, *b)?),
        (Val::Int(_) | Val::Uint(_), _) => return Err(Error::no_such_overload()),
        _ => return Err(missing_trait("_%_", lhs)),
    })
}

/// `-_`: ints (`integer overflow` for the minimum), doubles and durations; booleans
/// are refused although they can be negated.
pub fn negate<'a>(v: &Val<'a>) -> Result<Val<'a>> {
    Ok(match v {
        Val::Int(i) => Val::Int(int::neg(*i)?),
        Val::Double(d) => Val::Double(-d),
        Val::Duration(d) => Val::Duration(d.checked_neg()?),
        Val::Bool(_) => return Err(Error::no_such_overload()),
        _ => return Err(missing_trait("-_", v)),
    })
}

/// `!_`.
pub fn logical_not<'a>(v: &Val<'a>) -> Result<Val<'a>> {
    match v {
        Val::Bool(b) => Ok(Val::Bool(!b)),
        _ => Err(Error::no_such_overload()),
    }
}

/// `@not_strictly_false`: the loop condition of `all` and `exists`; `false` only
/// for `false` (errors count as true).
pub fn not_strictly_false<'a>(v: &Result<Val<'a>>) -> Val<'a> {
    match v {
        Ok(Val::Bool(b)) => Val::Bool(*b),
        _ => Val::Bool(true),
    }
}

/// cel-go's `Comparer.Compare`: bools, strings, bytes, durations, timestamps with
/// their own type; numbers across types (`NaN values cannot be ordered`).
pub fn compare(lhs: &Val<'_>, rhs: &Val<'_>) -> Result<Ordering> {
    match (lhs, rhs) {
        (Val::Int(_) | Val::Uint(_) | Val::Double(_), _) => {
            // A NaN operand (a number compared with a number) cannot be ordered.
            let nan = |v: &Val<'_>| matches!(v, Val::Double(d) if d.is_nan());
            if nan(lhs) || (nan(rhs) && matches!(lhs, Val::Int(_) | Val::Uint(_) | Val::Double(_))) {
                return Err(Error::new("NaN values cannot be ordered"));
            }
            compare_numbers(lhs, rhs).ok_or_else(Error::no_such_overload)
        }
        (Val::Bool(a), Val::Bool(b)) => Ok(a.cmp(b)),
        (Val::String(a), Val::String(b)) => Ok((**a).cmp(&**b)),
        (Val::Bytes(a), Val::Bytes(b)) => Ok((**a).cmp(&**b)),
        (Val::Duration(a), Val::Duration(b)) => Ok(a.cmp(b)),
        (Val::Timestamp(a), Val::Timestamp(b)) => Ok(a.cmp(b)),
        (Val::Bool(_) | Val::String(_) | Val::Bytes(_) | Val::Duration(_) | Val::Timestamp(_), _) => {
            Err(Error::no_such_overload())
        }
        _ => Err(Error::no_such_overload()),
    }
}

/// A comparison operator: `no such overload: <op>` when the left operand cannot be
/// ordered.
fn relation(op: &str, lhs: &Val<'_>, rhs: &Val<'_>, test: fn(Ordering) -> bool) -> Result<bool> {
    if !matches!(
        lhs,
        Val::Int(_)
            | Val::Uint(_)
            | Val::Double(_)
            | Val::Bool(_)
            | Val::String(_)
            | Val::Bytes(_)
            | Val::Duration(_)
            | Val::Timestamp(_)
    ) {
        return Err(missing_trait(op, lhs));
    }
    compare(lhs, rhs).map(test)
}

/// `_<_`.
pub fn less(lhs: &Val<'_>, rhs: &Val<'_>) -> Result<bool> {
    relation("_<_", lhs, rhs, Ordering::is_lt)
}

/// `_<=_`.
pub fn less_equals(lhs: &Val<'_>, rhs: &Val<'_>) -> Result<bool> {
    relation("_<=_", lhs, rhs, Ordering::is_le)
}

/// `_>_`.
pub fn greater(lhs: &Val<'_>, rhs: &Val<'_>) -> Result<bool> {
    relation("_>_", lhs, rhs, Ordering::is_gt)
}

/// `_>=_`.
pub fn greater_equals(lhs: &Val<'_>, rhs: &Val<'_>) -> Result<bool> {
    relation("_>=_", lhs, rhs, Ordering::is_ge)
}

/// `size(x)` / `x.size()`: code points of a string, bytes, list items, map
/// entries (for schema objects: the JSON keys).
pub fn size(v: &Val<'_>) -> Result<i64> {
    Ok(match v {
        Val::String(s) => s.chars().count() as i64,
        Val::Bytes(b) => b.len() as i64,
        Val::List(l) => l.len() as i64,
        Val::Map(m) => m.len() as i64,
        _ => return Err(missing_trait("size", v)),
    })
}

/// `elem in container` (cel-go `inAggregate`).
pub fn in_aggregate(elem: &Val<'_>, container: &Val<'_>) -> Result<bool> {
    match container {
        Val::List(l) => super::equality::list_contains(l, elem),
        Val::Map(m) => super::equality::map_contains(m, elem),
        _ => Err(Error::no_such_overload()),
    }
}

/// `x[i]` on a list or map as a function (cel-go `Indexer.Get`); the interpreter
/// indexes through attributes instead (see `index_list` / `index_map` there).
pub fn index<'a>(container: &Val<'a>, key: &Val<'_>) -> Result<Val<'a>> {
    match container {
        Val::List(l) => {
            let i = index_value(key)?;
            if i < 0 || i as usize >= l.len() {
                return Err(Error::new(format!(
                    "index '{i}' out of range in list size '{}'",
                    l.len()
                )));
            }
            l.get(i as usize)
        }
        Val::Map(m) => match m.find(key) {
            Some(v) => v,
            None => Err(Error::no_such_key(&format_key(key))),
        },
        _ => Err(missing_trait("_[_]", container)),
    }
}

/// cel-go `IndexOrError`: an int, or a double or uint that is an exact int.
pub fn index_value(idx: &Val<'_>) -> Result<i64> {
    match idx {
        Val::Int(i) => Ok(*i),
        Val::Double(d) => super::map::double_to_int_lossless(*d)
            .ok_or_else(|| Error::new(format!("unsupported index value {} in list", crate::gofmt::float_v(*d)))),
        Val::Uint(u) => i64::try_from(*u).map_err(|_| Error::new(format!("unsupported index value {u} in list"))),
        other => Err(Error::new(format!(
            "unsupported index type '{}' in list",
            other.type_name()
        ))),
    }
}

/// A value printed with Go's `%v` as cel-go prints keys and indices in messages.
pub fn format_key(v: &Val<'_>) -> String {
    match v {
        Val::Null => "null".into(),
        Val::Bool(b) => b.to_string(),
        Val::Int(i) => i.to_string(),
        Val::Uint(u) => u.to_string(),
        Val::Double(d) => crate::gofmt::float_v(*d),
        Val::String(s) => s.to_string(),
        other => super::format::go_value(other),
    }
}
