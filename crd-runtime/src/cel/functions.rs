//! Calling CEL functions by name and overload id, as cel-go dispatches them.
//!
//! - [`dispatch`] is what cel-go's planner and `decls.FunctionDecl.Bindings` do for
//!   a call: operators and a few other functions have one binding for all their
//!   overloads ([`is_singleton`]); an overload the checker resolved alone runs
//!   behind a guard that checks the run-time argument types (`no such overload:
//!   f(int, string)` otherwise); a call the checker could not resolve to one
//!   overload (a `dyn` argument) tries every overload of the function in
//!   declaration order.
//! - [`call_overload`] runs one overload by id, without the guard.
//!
//! Generated code whose overloads are known statically calls the typed functions
//! of the leaf modules directly (`crate::strings::index_of`, `Quantity::add`,
//! ...) or [`call_overload`].

use std::collections::BTreeMap;
use std::sync::Arc;

use super::convert;
use super::equality::equals;
use super::error::{Error, Result};
use super::format::format_arg;
use super::list::List;
use super::lists;
use super::map::{Key, Map};
use super::ops;
use super::overloads::{overload, overloads_of};
use super::value::{Val, type_names};
use crate::k8s_format::Format;
use crate::quantity::{Quantity, QuantityFormat};
use crate::semver::Semver;
use crate::time::Timestamp;

/// Whether cel-go binds the function once for all overloads (by the operand's
/// traits, no argument guard): the standard operators, `size`, `type`, `dyn`,
/// `matches`, and `sort` / `@sortByAssociatedKeys` of the lists extension.
pub fn is_singleton(function: &str) -> bool {
    matches!(
        function,
        "_?_:_"
            | "_&&_"
            | "_||_"
            | "!_"
            | "_==_"
            | "_!=_"
            | "_+_"
            | "_/_"
            | "_%_"
            | "_*_"
            | "-_"
            | "_-_"
            | "_<_"
            | "_<=_"
            | "_>_"
            | "_>=_"
            | "_[_]"
            | "@in"
            | "size"
            | "type"
            | "dyn"
            | "matches"
            | "sort"
            | "@sortByAssociatedKeys"
    )
}

/// Whether the overload's arguments are not checked before the call (cel-go
/// `decls.DisableTypeGuards`: the standard library's `contains`, `endsWith` and
/// `startsWith`, the lists extension's `flatten`). Such a function checks its
/// arguments itself, and a wrong one (a `dyn` receiver that holds an int) answers
/// the bare `no such overload`, not the signature form of the guard.
fn guards_disabled(function: &str) -> bool {
    matches!(function, "contains" | "endsWith" | "startsWith" | "flatten")
}

/// A call of `function` with evaluated arguments (the receiver first), as cel-go
/// runs it: `overload` is the overload id when the checker resolved exactly one,
/// `None` for dynamic dispatch.
pub fn dispatch<'a>(function: &str, overload_id: Option<&str>, args: &[Val<'a>]) -> Result<Val<'a>> {
    if is_singleton(function) {
        return call_singleton(function, args);
    }
    if let Some(id) = overload_id {
        if guards_disabled(function) || matches_signature(id, args) {
            return call_overload(id, args);
        }
        return Err(no_such_overload(function, args));
    }
    for o in overloads_of(function) {
        if guards_disabled(function) || matches_args(o.args, args) {
            return call_overload(o.id, args);
        }
    }
    Err(no_such_overload(function, args))
}

/// The overload of `function` that the arguments' run-time types select (an error
/// argument fits any parameter): what the checker resolves from their static types
/// when it knows them.
pub fn resolve_overload(function: &str, args: &[Result<Val<'_>>]) -> Option<&'static str> {
    overloads_of(function)
        .find(|o| {
            o.args.len() == args.len()
                && o.args.iter().zip(args).all(|(p, a)| match a {
                    Ok(v) => matches_pattern(p, v),
                    Err(_) => true,
                })
        })
        .map(|o| o.id)
}

/// `no such overload: f(<argument types>)`.
pub fn no_such_overload(function: &str, args: &[Val<'_>]) -> Error {
    let types: Vec<&str> = args.iter().map(Val::type_name).collect();
    Error::no_such_overload_for(function, &types)
}

/// Whether the arguments fit the overload's run-time signature.
pub fn matches_signature(id: &str, args: &[Val<'_>]) -> bool {
    overload(id).is_some_and(|o| matches_args(o.args, args))
}

fn matches_args(patterns: &[&str], args: &[Val<'_>]) -> bool {
    patterns.len() == args.len() && patterns.iter().zip(args).all(|(p, a)| matches_pattern(p, a))
}

/// cel-go `Type.IsAssignableRuntimeType`: the type name must agree; for lists and
/// maps the first element (and key) is checked too.
fn matches_pattern(pattern: &str, v: &Val<'_>) -> bool {
    if pattern == "*" {
        return true;
    }
    if let Some(inner) = pattern.strip_prefix("list(").and_then(|p| p.strip_suffix(')')) {
        let Val::List(l) = v else { return false };
        return match l.get(0) {
            _ if l.is_empty() => true,
            Ok(first) => matches_pattern(inner, &first),
            Err(_) => inner == "*",
        };
    }
    if let Some(inner) = pattern.strip_prefix("map(").and_then(|p| p.strip_suffix(')')) {
        let Val::Map(m) = v else { return false };
        let Some((kp, vp)) = split_map_pattern(inner) else {
            return false;
        };
        let Some(k) = m.keys().into_iter().next() else {
            return true;
        };
        let value_ok = match m.find(&k) {
            Some(Ok(x)) => matches_pattern(vp, &x),
            _ => vp == "*",
        };
        return matches_pattern(kp, &k) && value_ok;
    }
    v.type_name() == pattern
}

fn split_map_pattern(inner: &str) -> Option<(&str, &str)> {
    let mut depth = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => return Some((&inner[..i], &inner[i + 1..])),
            _ => {}
        }
    }
    None
}

/// The bindings of the singleton functions (see [`is_singleton`]).
pub fn call_singleton<'a>(function: &str, args: &[Val<'a>]) -> Result<Val<'a>> {
    let b = |r: Result<bool>| r.map(Val::Bool);
    match (function, args) {
        ("_+_", [a, c]) => ops::add(a, c),
        ("_-_", [a, c]) => ops::subtract(a, c),
        ("_*_", [a, c]) => ops::multiply(a, c),
        ("_/_", [a, c]) => ops::divide(a, c),
        ("_%_", [a, c]) => ops::modulo(a, c),
        ("-_", [a]) => ops::negate(a),
        ("!_", [a]) => ops::logical_not(a),
        ("_<_", [a, c]) => b(ops::less(a, c)),
        ("_<=_", [a, c]) => b(ops::less_equals(a, c)),
        ("_>_", [a, c]) => b(ops::greater(a, c)),
        ("_>=_", [a, c]) => b(ops::greater_equals(a, c)),
        ("_==_", [a, c]) => b(equals(a, c)),
        ("_!=_", [a, c]) => b(equals(a, c).map(|e| !e)),
        ("_[_]", [a, c]) => ops::index(a, c),
        ("@in", [a, c]) => b(ops::in_aggregate(a, c)),
        ("size", [a]) => ops::size(a).map(Val::Int),
        ("type", [a]) => convert::type_of(a).map(Val::Type),
        ("dyn", [a]) => Ok(a.clone()),
        ("matches", [s, re]) => match s {
            Val::String(s) => b(matches(s, re)),
            other => Err(ops::missing_trait("matches", other)),
        },
        ("sort", [Val::List(l)]) => lists::sort(l),
        ("@sortByAssociatedKeys", [Val::List(l), Val::List(keys)]) => lists::sort_by_associated_keys(l, keys),
        ("sort" | "@sortByAssociatedKeys", [first, ..]) => Err(ops::missing_trait(function, first)),
        _ => Err(Error::no_such_overload()),
    }
}

/// `<string>.matches(<regex>)` (cel-go `String.Match`: Go `regexp.MatchString`).
pub fn matches(s: &str, re: &Val<'_>) -> Result<bool> {
    let Val::String(re) = re else {
        return Err(Error::no_such_overload());
    };
    let re = crate::regex::cached(re).map_err(Error::new)?;
    Ok(re.is_match(s))
}

// ---------------------------------------------------------------------------
// Argument access
// ---------------------------------------------------------------------------

fn bad<T>() -> Result<T> {
    Err(Error::no_such_overload())
}

fn string<'b>(v: &'b Val<'_>) -> Result<&'b str> {
    match v {
        Val::String(s) => Ok(s),
        _ => bad(),
    }
}

fn int(v: &Val<'_>) -> Result<i64> {
    match v {
        Val::Int(i) => Ok(*i),
        _ => bad(),
    }
}

fn list<'b, 'a>(v: &'b Val<'a>) -> Result<&'b List<'a>> {
    match v {
        Val::List(l) => Ok(l),
        _ => bad(),
    }
}

fn quantity<'b>(v: &'b Val<'_>) -> Result<&'b Quantity> {
    match v {
        Val::Quantity(q, _) => Ok(q),
        _ => bad(),
    }
}

fn semver<'b>(v: &'b Val<'_>) -> Result<&'b Semver> {
    match v {
        Val::Semver(s) => Ok(s),
        _ => bad(),
    }
}

fn timestamp(v: &Val<'_>) -> Result<Timestamp> {
    match v {
        Val::Timestamp(t) => Ok(*t),
        _ => bad(),
    }
}

fn string_list<'a>(items: Vec<String>) -> Val<'a> {
    Val::list(items.into_iter().map(Val::string).collect())
}

/// Runs one overload by id with evaluated arguments (the receiver first). The
/// caller has checked the argument types (see [`dispatch`]); arguments of other
/// types give `no such overload`. Unknown ids give `no such overload` too.
pub fn call_overload<'a>(id: &str, args: &[Val<'a>]) -> Result<Val<'a>> {
    if let Some(o) = overload(id)
        && is_singleton(o.function)
    {
        return call_singleton(o.function, args);
    }
    let a0 = args.first().unwrap_or(&Val::Null);
    let a1 = args.get(1).unwrap_or(&Val::Null);
    let a2 = args.get(2).unwrap_or(&Val::Null);
    Ok(match id {
        // -- standard library ------------------------------------------------
        "not_strictly_false" => ops::not_strictly_false(&Ok(a0.clone())),
        "bool_to_bool"
        | "bytes_to_bytes"
        | "double_to_double"
        | "duration_to_duration"
        | "int64_to_int64"
        | "string_to_string"
        | "timestamp_to_timestamp"
        | "uint64_to_uint64" => a0.clone(),
        "string_to_bool" => Val::Bool(convert::string_to_bool(string(a0)?)?),
        "string_to_bytes" => Val::bytes(string(a0)?.as_bytes()),
        "int64_to_double" => Val::Double(int(a0)? as f64),
        "uint64_to_double" => match a0 {
            Val::Uint(u) => Val::Double(*u as f64),
            _ => return bad(),
        },
        "string_to_double" => Val::Double(convert::string_to_double(string(a0)?)?),
        "string_to_duration" => Val::Duration(convert::string_to_duration(string(a0)?)?),
        "double_to_int64" => match a0 {
            Val::Double(d) => Val::Int(convert::double_to_int(*d)?),
            _ => return bad(),
        },
        "duration_to_int64" => match a0 {
            Val::Duration(d) => Val::Int(d.nanos()),
            _ => return bad(),
        },
        "string_to_int64" => Val::Int(convert::string_to_int(string(a0)?)?),
        "timestamp_to_int64" => Val::Int(timestamp(a0)?.unix_seconds()),
        "uint64_to_int64" => match a0 {
            Val::Uint(u) => Val::Int(convert::uint_to_int(*u)?),
            _ => return bad(),
        },
        "bool_to_string" => match a0 {
            Val::Bool(b) => Val::string(b.to_string()),
            _ => return bad(),
        },
        "bytes_to_string" => match a0 {
            Val::Bytes(b) => Val::string(convert::bytes_to_string(b)?),
            _ => return bad(),
        },
        "double_to_string" => match a0 {
            Val::Double(d) => Val::string(convert::double_to_string(*d)),
            _ => return bad(),
        },
        "duration_to_string" => match a0 {
            Val::Duration(d) => Val::string(d.to_string()),
            _ => return bad(),
        },
        "int64_to_string" => Val::string(int(a0)?.to_string()),
        "timestamp_to_string" => Val::string(timestamp(a0)?.to_string()),
        "uint64_to_string" => match a0 {
            Val::Uint(u) => Val::string(u.to_string()),
            _ => return bad(),
        },
        "int64_to_timestamp" => Val::Timestamp(convert::int_to_timestamp(int(a0)?)?),
        "string_to_timestamp" => Val::Timestamp(convert::string_to_timestamp(string(a0)?)?),
        "double_to_uint64" => match a0 {
            Val::Double(d) => Val::Uint(convert::double_to_uint(*d)?),
            _ => return bad(),
        },
        "int64_to_uint64" => Val::Uint(convert::int_to_uint(int(a0)?)?),
        "string_to_uint64" => Val::Uint(convert::string_to_uint(string(a0)?)?),
        "contains_string" => Val::Bool(string(a0)?.contains(string(a1)?)),
        "ends_with_string" => Val::Bool(string(a0)?.ends_with(string(a1)?)),
        "starts_with_string" => Val::Bool(string(a0)?.starts_with(string(a1)?)),
        "timestamp_to_year"
        | "timestamp_to_month"
        | "timestamp_to_day_of_year"
        | "timestamp_to_day_of_month"
        | "timestamp_to_day_of_month_1_based"
        | "timestamp_to_day_of_week"
        | "timestamp_to_hours"
        | "timestamp_to_minutes"
        | "timestamp_to_seconds"
        | "timestamp_to_milliseconds" => Val::Int(timestamp_accessor(id, &timestamp(a0)?, None)?),
        "timestamp_to_year_with_tz"
        | "timestamp_to_month_with_tz"
        | "timestamp_to_day_of_year_with_tz"
        | "timestamp_to_day_of_month_with_tz"
        | "timestamp_to_day_of_month_1_based_with_tz"
        | "timestamp_to_day_of_week_with_tz"
        | "timestamp_to_hours_with_tz"
        | "timestamp_to_minutes_with_tz"
        | "timestamp_to_seconds_tz"
        | "timestamp_to_milliseconds_with_tz" => Val::Int(timestamp_accessor(id, &timestamp(a0)?, Some(string(a1)?))?),
        "duration_to_hours" | "duration_to_minutes" | "duration_to_seconds" | "duration_to_milliseconds" => {
            let Val::Duration(d) = a0 else { return bad() };
            Val::Int(match id {
                "duration_to_hours" => d.get_hours(),
                "duration_to_minutes" => d.get_minutes(),
                "duration_to_seconds" => d.get_seconds(),
                _ => d.get_milliseconds(),
            })
        }

        // -- optional library --------------------------------------------------
        "optional_of" => Val::optional_of(a0.clone()),
        "optional_ofNonZeroValue" => {
            if a0.is_zero_value() {
                Val::optional_none()
            } else {
                Val::optional_of(a0.clone())
            }
        }
        "optional_none" => Val::optional_none(),
        "optional_value" => match a0 {
            Val::Optional(Some(v)) => (**v).clone(),
            Val::Optional(None) => return Err(Error::new("optional.none() dereference")),
            _ => return bad(),
        },
        "optional_hasValue" => match a0 {
            Val::Optional(o) => Val::Bool(o.is_some()),
            _ => return bad(),
        },
        "optional_or_optional" => match a0 {
            Val::Optional(Some(_)) => a0.clone(),
            Val::Optional(None) => a1.clone(),
            _ => return bad(),
        },
        "optional_orValue_value" => match a0 {
            Val::Optional(Some(v)) => (**v).clone(),
            Val::Optional(None) => a1.clone(),
            _ => return bad(),
        },
        "list_first" => lists::first(list(a0)?)?,
        "list_last" => lists::last(list(a0)?)?,
        "optional_unwrap" | "optional_unwrapOpt" => lists::unwrap_optionals(list(a0)?)?,

        // -- ext.Strings v2 ----------------------------------------------------
        "string_char_at_int" => Val::string(crate::strings::char_at(string(a0)?, int(a1)?)?),
        "string_index_of_string" => Val::Int(crate::strings::index_of(string(a0)?, string(a1)?)),
        "string_index_of_string_int" => Val::Int(crate::strings::index_of_offset(string(a0)?, string(a1)?, int(a2)?)?),
        "string_last_index_of_string" => Val::Int(crate::strings::last_index_of(string(a0)?, string(a1)?)),
        "string_last_index_of_string_int" => Val::Int(crate::strings::last_index_of_offset(
            string(a0)?,
            string(a1)?,
            int(a2)?,
        )?),
        "string_lower_ascii" => Val::string(crate::strings::lower_ascii(string(a0)?)),
        "string_upper_ascii" => Val::string(crate::strings::upper_ascii(string(a0)?)),
        "string_replace_string_string" => Val::string(crate::strings::replace(string(a0)?, string(a1)?, string(a2)?)),
        "string_replace_string_string_int" => {
            let n = int(args.get(3).unwrap_or(&Val::Null))?;
            Val::string(crate::strings::replace_n(string(a0)?, string(a1)?, string(a2)?, n))
        }
        "string_split_string" => string_list(crate::strings::split(string(a0)?, string(a1)?)),
        "string_split_string_int" => string_list(crate::strings::split_n(string(a0)?, string(a1)?, int(a2)?)),
        "string_substring_int" => Val::string(crate::strings::substring(string(a0)?, int(a1)?)?),
        "string_substring_int_int" => Val::string(crate::strings::substring_range(string(a0)?, int(a1)?, int(a2)?)?),
        "string_trim" => Val::string(crate::strings::trim(string(a0)?)),
        "string_format" => {
            let fmt_args: Vec<_> = list(a1)?
                .iter()
                .map(|v| v.map(|v| format_arg(&v)))
                .collect::<Result<_>>()?;
            Val::string(crate::strings::format(string(a0)?, &fmt_args)?)
        }
        "strings_quote" => Val::string(crate::strings::quote(string(a0)?)),
        "list_join" | "list_join_string" => {
            let items = list(a0)?
                .iter()
                .map(|v| match v? {
                    Val::String(s) => Ok(s.to_string()),
                    other => Err(Error::new(format!(
                        "type conversion error from '{}' to 'string'",
                        other.type_name()
                    ))),
                })
                .collect::<Result<Vec<_>>>()?;
            if id == "list_join" {
                Val::string(crate::strings::join(&items))
            } else {
                Val::string(crate::strings::join_sep(&items, string(a1)?))
            }
        }

        // -- ext.Sets ------------------------------------------------------------
        "list_sets_contains_list" => Val::Bool(lists::sets_contains(list(a0)?, list(a1)?)?),
        "list_sets_equivalent_list" => Val::Bool(lists::sets_equivalent(list(a0)?, list(a1)?)?),
        "list_sets_intersects_list" => Val::Bool(lists::sets_intersects(list(a0)?, list(a1)?)?),

        // -- ext.Lists v3 --------------------------------------------------------
        "list_slice" => lists::slice(list(a0)?, int(a1)?, int(a2)?)?,
        "list_flatten" => match a0 {
            Val::List(l) => lists::flatten(l, 1)?,
            other => {
                return Err(Error::new(format!("no such overload: {}.flatten()", other.type_name())));
            }
        },
        "list_flatten_int" => match (a0, a1) {
            (Val::List(l), Val::Int(d)) => lists::flatten(l, *d)?,
            (x, y) => {
                return Err(Error::new(format!(
                    "no such overload: {}.flatten({})",
                    x.type_name(),
                    y.type_name()
                )));
            }
        },
        "lists_range" => lists::range(int(a0)?)?,
        "list_reverse" => lists::reverse(list(a0)?)?,
        "list_distinct" => lists::distinct(list(a0)?)?,

        // -- two-variable comprehensions ---------------------------------------
        "@mapInsert_map_key_value" => match a0 {
            Val::Map(m) => Val::Map(map_insert(m, a1, a2)?),
            _ => return bad(),
        },
        "@mapInsert_map_map" => match (a0, a1) {
            (Val::Map(m), Val::Map(u)) => {
                let mut m = m.clone();
                for k in u.keys() {
                    let v = match u.find(&k) {
                        Some(v) => v?,
                        None => continue,
                    };
                    m.insert(&k, v)?;
                }
                Val::Map(m)
            }
            _ => return bad(),
        },

        // -- Kubernetes URLs -------------------------------------------------------
        "string_to_url" => Val::Url(Arc::new(crate::url::url(string(a0)?)?)),
        "is_url_string" => Val::Bool(crate::url::is_url(string(a0)?)),
        "url_get_scheme" | "url_get_host" | "url_get_hostname" | "url_get_port" | "url_get_escaped_path" => {
            let Val::Url(u) = a0 else { return bad() };
            Val::string(match id {
                "url_get_scheme" => u.get_scheme(),
                "url_get_host" => u.get_host(),
                "url_get_hostname" => u.get_hostname(),
                "url_get_port" => u.get_port(),
                _ => u.get_escaped_path(),
            })
        }
        "url_get_query" => {
            let Val::Url(u) = a0 else { return bad() };
            let mut m = BTreeMap::new();
            for (k, vs) in u.get_query() {
                m.insert(Key::String(k.into()), string_list(vs));
            }
            Val::Map(Map::from_keyed(m))
        }

        // -- Kubernetes regex ------------------------------------------------------
        "string_find_string" => Val::string(find(string(a0)?, string(a1)?)?),
        "string_find_all_string" => string_list(find_all(string(a0)?, string(a1)?, -1)?),
        "string_find_all_string_int" => string_list(find_all(string(a0)?, string(a1)?, int(a2)?)?),

        // -- Kubernetes quantity ---------------------------------------------------
        "string_to_quantity" => Val::Quantity(Arc::new(Quantity::parse(string(a0)?)?), false),
        "is_quantity_string" => Val::Bool(crate::quantity::is_quantity(string(a0)?)),
        "quantity_sign" => Val::Int(quantity(a0)?.sign()),
        "quantity_is_greater_than" => Val::Bool(quantity(a0)?.is_greater_than(quantity(a1)?)),
        "quantity_is_less_than" => Val::Bool(quantity(a0)?.is_less_than(quantity(a1)?)),
        "quantity_compare_to" => Val::Int(quantity(a0)?.compare_to(quantity(a1)?)),
        "quantity_get_float" => Val::Double(quantity(a0)?.as_approximate_float()),
        "quantity_get_int" => Val::Int(quantity(a0)?.as_integer()?),
        "quantity_is_integer" => Val::Bool(quantity(a0)?.is_integer()),
        "quantity_add" => Val::Quantity(Arc::new(quantity(a0)?.add(quantity(a1)?)), true),
        "quantity_add_int" => Val::Quantity(Arc::new(quantity(a0)?.add_int(int(a1)?)), true),
        "quantity_sub" => Val::Quantity(Arc::new(quantity(a0)?.sub(quantity(a1)?)), true),
        "quantity_sub_int" => Val::Quantity(Arc::new(quantity(a0)?.sub_int(int(a1)?)), true),

        // -- Kubernetes IP and CIDR ------------------------------------------------
        "string_to_ip" => Val::Ip(crate::net::ip(string(a0)?)?),
        "is_ip" => Val::Bool(crate::net::is_ip(string(a0)?)),
        "ip_is_canonical" => Val::Bool(crate::net::ip_is_canonical(string(a0)?)?),
        "ip_to_string" => match a0 {
            Val::Ip(ip) => Val::string(ip.to_string()),
            _ => return bad(),
        },
        "ip_family"
        | "ip_is_unspecified"
        | "ip_is_loopback"
        | "ip_is_link_local_multicast"
        | "ip_is_link_local_unicast"
        | "ip_is_global_unicast" => {
            let Val::Ip(ip) = a0 else { return bad() };
            match id {
                "ip_family" => Val::Int(ip.family()),
                "ip_is_unspecified" => Val::Bool(ip.is_unspecified()),
                "ip_is_loopback" => Val::Bool(ip.is_loopback()),
                "ip_is_link_local_multicast" => Val::Bool(ip.is_link_local_multicast()),
                "ip_is_link_local_unicast" => Val::Bool(ip.is_link_local_unicast()),
                _ => Val::Bool(ip.is_global_unicast()),
            }
        }
        "string_to_cidr" => Val::Cidr(crate::net::cidr(string(a0)?)?),
        "is_cidr" => Val::Bool(crate::net::is_cidr(string(a0)?)),
        "cidr_to_string" | "cidr_ip" | "cidr_prefix_length" | "cidr_masked" => {
            let Val::Cidr(c) = a0 else { return bad() };
            match id {
                "cidr_to_string" => Val::string(c.to_string()),
                "cidr_ip" => Val::Ip(c.ip()),
                "cidr_prefix_length" => Val::Int(c.prefix_length()),
                _ => Val::Cidr(c.masked()),
            }
        }
        "cidr_contains_ip_string" | "cidr_contains_ip_ip" | "cidr_contains_cidr_string" | "cidr_contains_cidr" => {
            let Val::Cidr(c) = a0 else { return bad() };
            Val::Bool(match (id, a1) {
                ("cidr_contains_ip_string", Val::String(s)) => c.contains_ip_str(s)?,
                ("cidr_contains_ip_ip", Val::Ip(ip)) => c.contains_ip(ip),
                ("cidr_contains_cidr_string", Val::String(s)) => c.contains_cidr_str(s)?,
                ("cidr_contains_cidr", Val::Cidr(o)) => c.contains_cidr(o),
                _ => return bad(),
            })
        }

        // -- Kubernetes format -----------------------------------------------------
        "format-named" => match crate::k8s_format::named(string(a0)?) {
            Some(f) => Val::optional_of(Val::Format(f)),
            None => Val::optional_none(),
        },
        "format-validate" => {
            let Val::Format(f) = a0 else { return bad() };
            match f.validate(string(a1)?) {
                None => Val::optional_none(),
                Some(errors) => Val::optional_of(string_list(errors)),
            }
        }
        _ if id.starts_with("format.") => match crate::k8s_format::named(&id["format.".len()..]) {
            Some(f) => Val::Format(f),
            None => return bad(),
        },

        // -- Kubernetes semver -----------------------------------------------------
        "string_to_semver" => Val::Semver(Arc::new(Semver::parse(string(a0)?)?)),
        "string_bool_to_semver" => match a1 {
            Val::Bool(n) => Val::Semver(Arc::new(Semver::parse_with(string(a0)?, *n)?)),
            _ => return bad(),
        },
        "is_semver_string" => Val::Bool(crate::semver::is_semver(string(a0)?, false)),
        "is_semver_string_bool" => match a1 {
            Val::Bool(n) => Val::Bool(crate::semver::is_semver(string(a0)?, *n)),
            _ => return bad(),
        },
        "semver_is_greater_than" => Val::Bool(semver(a0)?.is_greater_than(semver(a1)?)),
        "semver_is_less_than" => Val::Bool(semver(a0)?.is_less_than(semver(a1)?)),
        "semver_compare_to" => Val::Int(semver(a0)?.compare_to(semver(a1)?)),
        "semver_major" => Val::Int(semver(a0)?.major()),
        "semver_minor" => Val::Int(semver(a0)?.minor()),
        "semver_patch" => Val::Int(semver(a0)?.patch()),

        // -- Kubernetes lists --------------------------------------------------------
        "list_a_index_of_int" => Val::Int(lists::index_of(list(a0)?, a1)?),
        "list_a_last_index_of_int" => Val::Int(lists::last_index_of(list(a0)?, a1)?),
        "list_includes_dyn_dyn" => Val::Bool(lists::includes(a0, a1)?),
        _ if id.ends_with("_is_sorted_bool") => Val::Bool(lists::is_sorted(list(a0)?)?),
        _ if id.starts_with("list_") && id.contains("_sum_") => {
            let zero = match &id["list_".len()..id.find("_sum_").unwrap_or(5)] {
                "int" => Val::Int(0),
                "uint" => Val::Uint(0),
                "double" => Val::Double(0.0),
                "duration" => Val::Duration(crate::time::Duration::from_nanos(0)),
                _ => return bad(),
            };
            lists::sum(list(a0)?, zero)?
        }
        _ if id.starts_with("list_") && id.contains("_max_") => lists::max(list(a0)?)?,
        _ if id.starts_with("list_") && id.contains("_min_") => lists::min(list(a0)?)?,

        // The authorization library's values never exist for CRD rules (there is no
        // `authorizer` variable), and unknown ids have no implementation.
        _ => return bad(),
    })
}

/// The timestamp accessors by overload id, in UTC or the given time zone.
fn timestamp_accessor(id: &str, t: &Timestamp, tz: Option<&str>) -> Result<i64> {
    let base = id.trim_end_matches("_with_tz").trim_end_matches("_tz");
    Ok(match base {
        "timestamp_to_year" => t.get_full_year(tz)?,
        "timestamp_to_month" => t.get_month(tz)?,
        "timestamp_to_day_of_year" => t.get_day_of_year(tz)?,
        "timestamp_to_day_of_month" => t.get_day_of_month(tz)?,
        "timestamp_to_day_of_month_1_based" => t.get_date(tz)?,
        "timestamp_to_day_of_week" => t.get_day_of_week(tz)?,
        "timestamp_to_hours" => t.get_hours(tz)?,
        "timestamp_to_minutes" => t.get_minutes(tz)?,
        "timestamp_to_seconds" => t.get_seconds(tz)?,
        "timestamp_to_milliseconds" => t.get_milliseconds(tz)?,
        _ => return bad(),
    })
}

/// `cel.@mapInsert(map, key, value)` (cel-go `InsertMapKeyValue`): a copy with the
/// entry added; `insert failed: key <k> already exists` when the key is present.
pub fn map_insert<'a>(m: &Map<'a>, k: &Val<'a>, v: &Val<'a>) -> Result<Map<'a>> {
    let mut m = m.clone();
    m.insert(k, v.clone())?;
    Ok(m)
}

/// `<string>.find(<regex>)` (Kubernetes `find`): the first match, or `""`.
pub fn find(s: &str, re: &str) -> Result<String> {
    let re = crate::regex::cached(re).map_err(|e| Error::new(format!("Illegal regex: {e}")))?;
    Ok(re.find(s).map(|m| m.as_str().to_string()).unwrap_or_default())
}

/// `<string>.findAll(<regex>[, n])` (Kubernetes `findAll`): the first `n` matches
/// (all when `n < 0`), with Go's rules for empty matches.
pub fn find_all(s: &str, re: &str, n: i64) -> Result<Vec<String>> {
    let re = crate::regex::cached(re).map_err(|e| Error::new(format!("Illegal regex: {e}")))?;
    Ok(crate::regex::find_all(&re, s, n)
        .into_iter()
        .map(|r| s[r].to_string())
        .collect())
}

/// The type names of the comparable element types of `sort` & co.
pub const COMPARABLE_TYPES: [&str; 8] = [
    type_names::INT,
    type_names::UINT,
    type_names::DOUBLE,
    type_names::BOOL,
    type_names::DURATION,
    type_names::TIMESTAMP,
    type_names::STRING,
    type_names::BYTES,
];

/// The zero-argument `format.<name>()` functions.
pub fn named_format(name: &str) -> Option<Format> {
    crate::k8s_format::named(name)
}

/// `quantity(int)` as `add(int)` builds it (`resource.NewQuantity(i, DecimalExponent)`).
pub fn quantity_from_int(i: i64) -> Quantity {
    Quantity::from_i64(i, QuantityFormat::DecimalExponent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::overloads::OVERLOADS;

    /// A value that fits an argument pattern, for function `f`.
    fn sample(pattern: &str, f: &str) -> Val<'static> {
        if let Some(inner) = pattern.strip_prefix("list(").and_then(|p| p.strip_suffix(')')) {
            return Val::list(vec![sample(inner, f)]);
        }
        if pattern.starts_with("map(") {
            return Val::Map(Map::from_entries(vec![(Val::str("k"), Val::str("v"))]).unwrap());
        }
        match pattern {
            "*" | "int" => Val::Int(1),
            "uint" => Val::Uint(1),
            "double" => Val::Double(1.5),
            "bool" => Val::Bool(true),
            "bytes" => Val::bytes(&b"ab"[..]),
            "string" => Val::str(match f {
                "url" | "isURL" => "https://example.com/a?b=c",
                "ip" | "isIP" | "ip.isCanonical" | "containsIP" => "10.0.0.1",
                "cidr" | "isCIDR" | "containsCIDR" => "10.0.0.0/8",
                "quantity" | "isQuantity" => "1Gi",
                "semver" | "isSemver" => "1.2.3",
                "duration" => "1s",
                "timestamp" => "2024-01-01T00:00:00Z",
                "format" => "%s",
                "getHours" | "getMinutes" | "getSeconds" | "getMilliseconds" | "getFullYear" | "getMonth"
                | "getDate" | "getDayOfMonth" | "getDayOfWeek" | "getDayOfYear" => "UTC",
                "format.named" => "dns1123Label",
                _ => "a",
            }),
            "google.protobuf.Duration" => Val::Duration(crate::time::Duration::from_nanos(1)),
            "google.protobuf.Timestamp" => Val::Timestamp(crate::time::timestamp("2024-01-01T00:00:00Z").unwrap()),
            "optional_type" => Val::optional_of(Val::Int(1)),
            "kubernetes.Quantity" => Val::Quantity(Arc::new(Quantity::parse("1").unwrap()), false),
            "kubernetes.URL" => Val::Url(Arc::new(crate::url::url("https://a/b").unwrap())),
            "kubernetes.Semver" => Val::Semver(Arc::new(Semver::parse("1.0.0").unwrap())),
            "kubernetes.NamedFormat" => Val::Format(crate::k8s_format::named("uuid").unwrap()),
            "net.IP" => Val::Ip(crate::net::ip("10.0.0.1").unwrap()),
            "net.CIDR" => Val::Cidr(crate::net::cidr("10.0.0.0/8").unwrap()),
            other => panic!("no sample for {other}"),
        }
    }

    /// Every declared overload has an implementation: called with arguments of its
    /// signature, none answers the `no such overload` of a missing one. (Operators
    /// the planner turns into other steps, and the authorization library, whose
    /// values never exist for CRD rules, are left out.)
    #[test]
    fn every_overload_is_implemented() {
        let planned = ["_?_:_", "_&&_", "_||_", "_[?_]", "_?._", "or", "orValue"];
        let mut missing = Vec::new();
        for o in OVERLOADS {
            if planned.contains(&o.function) || o.args.iter().any(|a| a.starts_with("kubernetes.authorization")) {
                continue;
            }
            if o.id.starts_with("optional_list_") || o.id.starts_with("optional_map_") {
                continue;
            }
            let mut args: Vec<Val<'static>> = o.args.iter().map(|p| sample(p, o.function)).collect();
            if o.id == "list_slice" {
                args[1] = Val::Int(0);
            }
            if o.id.ends_with("_sortByAssociatedKeys") {
                args[0] = Val::list(vec![Val::Int(1)]);
            }
            if o.id == "@mapInsert_map_key_value" {
                args[1] = Val::str("other");
            }
            if o.id == "@mapInsert_map_map" {
                args[1] = Val::Map(Map::empty());
            }
            assert!(matches_signature(o.id, &args), "{}: samples do not fit", o.id);
            match dispatch(o.function, Some(o.id), &args) {
                Err(e) if e.message() == "no such overload" => missing.push(format!("{} ({})", o.id, o.function)),
                _ => {}
            }
        }
        assert!(missing.is_empty(), "not implemented: {missing:?}");
    }

    #[test]
    fn dynamic_dispatch_checks_runtime_types() {
        // One overload resolved: checked before the call, the guard naming the
        // run-time types.
        assert_eq!(
            dispatch("charAt", Some("string_char_at_int"), &[Val::Int(1), Val::Int(0)])
                .unwrap_err()
                .to_string(),
            "no such overload: charAt(int, int)"
        );
        // Without a guard (cel-go's `DisableTypeGuards`), the function's own check:
        // the bare text.
        for function in ["contains", "endsWith", "startsWith"] {
            let id = overloads_of(function).next().unwrap().id;
            for args in [[Val::Int(1), Val::str("a")], [Val::str("a"), Val::Int(1)]] {
                assert_eq!(
                    dispatch(function, Some(id), &args).unwrap_err().to_string(),
                    "no such overload",
                    "{function}"
                );
                assert_eq!(
                    dispatch(function, None, &args).unwrap_err().to_string(),
                    "no such overload",
                    "{function}"
                );
            }
        }
        // Several: the first that fits.
        let l = Val::list(vec![Val::str("a"), Val::str("b")]);
        assert!(matches!(
            dispatch("indexOf", None, &[l, Val::str("b")]),
            Ok(Val::Int(1))
        ));
        assert!(matches!(
            dispatch("indexOf", None, &[Val::str("abc"), Val::str("c")]),
            Ok(Val::Int(2))
        ));
        assert_eq!(
            dispatch("size", None, &[Val::Int(1)]).unwrap_err().to_string(),
            "no such overload: size"
        );
        // Operators go by the left operand.
        assert_eq!(
            dispatch("_+_", None, &[Val::str("a"), Val::Int(1)])
                .unwrap_err()
                .to_string(),
            "no such overload"
        );
        assert_eq!(
            dispatch("_+_", None, &[Val::Bool(true), Val::Int(1)])
                .unwrap_err()
                .to_string(),
            "no such overload: _+_"
        );
    }
}
