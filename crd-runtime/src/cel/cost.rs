//! Run-time cost of CEL evaluation, as the Kubernetes API server counts it.
//!
//! cel-go's cost tracker (`interpreter/runtimecost.go`) adds, for every evaluation
//! step it observes: 1 per variable or field selection ([`SELECT_AND_IDENT_COST`]),
//! nothing for constants, 10 / 30 / 40 to create a list / map / message
//! ([`LIST_CREATE_COST`], [`MAP_CREATE_COST`], [`STRUCT_CREATE_COST`]), and for a
//! function call the [`call_cost`] of its overload. The evaluator (the plan's
//! documentation in `crd-codegen` says which step costs what) adds these up and
//! stops with [`Error::cost_limit_exceeded`](super::Error::cost_limit_exceeded) as
//! soon as the running total exceeds the limit.
//!
//! [`call_cost`] asks, in cel-go's order: the overload cost trackers the libraries
//! register (cel-go `ext.Lists` version 3 and `ext.Sets`), Kubernetes'
//! `library.CostEstimator.CallCost` (apiserver `pkg/cel/library/cost.go`), and
//! cel-go's defaults (`CostTracker.costCall`).
//!
//! The version followed is cel-go v0.29.2 (what Kubernetes pins), which prices
//! `startsWith` / `endsWith` by their argument and the global `matches(s, re)` like
//! `s.matches(re)`.

use super::error::Result;
use super::value::Val;

/// `common.SelectAndIdentCost`.
pub const SELECT_AND_IDENT_COST: u64 = 1;
/// `common.ListCreateBaseCost`.
pub const LIST_CREATE_COST: u64 = 10;
/// `common.MapCreateBaseCost`.
pub const MAP_CREATE_COST: u64 = 30;
/// `common.StructCreateBaseCost`.
pub const STRUCT_CREATE_COST: u64 = 40;
/// `common.StringTraversalCostFactor`.
pub const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
/// `common.RegexStringLengthCostFactor`.
pub const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;
/// Kubernetes' `PerCallLimit`: the cost limit of one expression evaluation.
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// Kubernetes' `RuntimeCELCostBudget`: the budget of all rules of one object.
pub const RUNTIME_CEL_COST_BUDGET: i64 = 10_000_000;

/// cel-go's `actualSize` (`runtimecost.go`): the size of strings (code points),
/// bytes, lists and maps (for schema objects, the keys of the JSON object); an
/// optional's value's size; 1 for anything else.
pub fn actual_size(v: &Val<'_>) -> u64 {
    match v {
        Val::Optional(Some(inner)) => actual_size(inner),
        _ => sizer_size(v).unwrap_or(1),
    }
}

/// Kubernetes' `actualSize` (`library/cost.go`): like [`actual_size`] but optionals
/// are not looked into.
pub fn k8s_actual_size(v: &Val<'_>) -> u64 {
    sizer_size(v).unwrap_or(1)
}

/// The `Size()` of values that have one (cel-go `traits.Sizer`).
fn sizer_size(v: &Val<'_>) -> Option<u64> {
    Some(match v {
        Val::String(s) => code_points(s),
        Val::Bytes(b) => b.len() as u64,
        Val::List(l) => l.len() as u64,
        Val::Map(m) => m.len() as u64,
        _ => return None,
    })
}

/// The size of a call's result (an error has size 1).
fn result_size(result: &Result<Val<'_>>, k8s: bool) -> u64 {
    match result {
        Ok(v) if k8s => k8s_actual_size(v),
        Ok(v) => actual_size(v),
        Err(_) => 1,
    }
}

/// Go's `uint64(math.Ceil(x))` for the non-negative costs here (negative and NaN
/// give 0, too large saturates). Written out because `f64::ceil` is a libm call on
/// baseline x86-64, and every string operation pays it.
fn ceil(x: f64) -> u64 {
    let t = x as u64;
    if (t as f64) < x { t.saturating_add(1) } else { t }
}

/// The number of code points of `s` (CEL's string size).
pub fn code_points(s: &str) -> u64 {
    if s.is_ascii() {
        s.len() as u64
    } else {
        s.chars().count() as u64
    }
}

/// Traversing a string of `size` code points: `ceil(size * StringTraversalCostFactor)`.
pub fn string_traversal(size: u64) -> u64 {
    ceil(size as f64 * STRING_TRAVERSAL_COST_FACTOR)
}

/// Matching a string of `str_size` code points against a pattern of `pattern_size`
/// (`matches`, `find`, `findAll`, formats): the string's traversal (one more than its
/// size) times the pattern's `RegexStringLengthCostFactor`.
pub fn regex_match(str_size: u64, pattern_size: u64) -> u64 {
    let str_cost = ceil((1.0 + str_size as f64) * STRING_TRAVERSAL_COST_FACTOR);
    let regex_cost = ceil(pattern_size as f64 * REGEX_STRING_LENGTH_COST_FACTOR);
    str_cost.wrapping_mul(regex_cost)
}

/// `contains` on strings: the traversals of both multiplied.
pub fn string_contains(size: u64, sub_size: u64) -> u64 {
    string_traversal(size).wrapping_mul(string_traversal(sub_size))
}

/// Kubernetes' `traversalCost`: a tenth of the bytes of strings and bytes (rounded
/// down), the sum over list items and over map keys and values, 1 for anything
/// else.
pub fn traversal_cost(v: &Val<'_>) -> u64 {
    match v {
        Val::String(s) => (s.len() as f64 * STRING_TRAVERSAL_COST_FACTOR) as u64,
        Val::Bytes(b) => (b.len() as f64 * STRING_TRAVERSAL_COST_FACTOR) as u64,
        Val::List(l) => l
            .iter()
            .map(|x| x.map_or(1, |x| traversal_cost(&x)))
            .fold(0u64, u64::wrapping_add),
        Val::Map(m) => {
            let mut cost = 0u64;
            for k in &m.keys() {
                let v = match m.find(k) {
                    Some(Ok(v)) => traversal_cost(&v),
                    // Go's `Get` gives an error value (cost 1) for absent keys, `null`
                    // properties and the nil keys of unknown fields.
                    _ => 1,
                };
                cost = cost.wrapping_add(traversal_cost(k)).wrapping_add(v);
            }
            cost
        }
        _ => 1,
    }
}

/// Go's `safeAdd` of `ext/costs.go` (saturating).
fn safe_add(xs: &[u64]) -> u64 {
    xs.iter().fold(0u64, |a, &b| a.saturating_add(b))
}

/// cel-go `ext` `trackAllocatingListCall` (a negative factor counts as 1).
fn allocating_list_call(cost_factor: f64, size: u64) -> u64 {
    let cost_factor = if cost_factor < 0.0 { 1.0 } else { cost_factor };
    safe_add(&[(size as f64 * cost_factor) as u64, 1, LIST_CREATE_COST])
}

/// cel-go `ext` `trackListSelfCompare`: O(n²) over the list.
fn list_self_compare(list: &Val<'_>) -> u64 {
    let sz = k8s_actual_size(list);
    let mut factor = 2.0;
    if sz == 0 {
        return allocating_list_call(factor, 0);
    }
    if let Val::List(l) = list
        && let Ok(first) = l.get(0)
        && matches!(first, Val::String(_) | Val::Bytes(_))
    {
        factor += STRING_TRAVERSAL_COST_FACTOR;
    }
    allocating_list_call(factor, sz.saturating_mul(sz))
}

/// The overload cost trackers of the libraries (`OverloadCostTracker` options of
/// cel-go `ext.Lists` version 3 and `ext.Sets`).
fn overload_tracker(overload_id: &str, args: &[Val<'_>], result: &Result<Val<'_>>) -> Option<u64> {
    let a0 = args.first();
    let a1 = args.get(1);
    Some(match overload_id {
        "list_slice" | "lists_range" | "list_reverse" => allocating_list_call(1.0, result_size(result, true)),
        "list_flatten" | "list_flatten_int" => {
            let depth = match a1 {
                Some(Val::Int(d)) => *d as f64,
                _ => 1.0,
            };
            allocating_list_call(depth, a0.map_or(1, k8s_actual_size))
        }
        "list_distinct" => list_self_compare(a0?),
        _ if overload_id.ends_with("_sort") && overload_id.starts_with("list_") => list_self_compare(a0?),
        _ if overload_id.ends_with("_sortByAssociatedKeys") => list_self_compare(a1?),
        "list_sets_contains_list" | "list_sets_intersects_list" | "list_sets_equivalent_list" => {
            let factor = if overload_id == "list_sets_equivalent_list" {
                2.0
            } else {
                1.0
            };
            let product = k8s_actual_size(a0?).wrapping_mul(k8s_actual_size(a1?));
            safe_add(&[1, (product as f64 * factor) as u64])
        }
        _ => return None,
    })
}

/// Kubernetes' `library.CostEstimator.CallCost`, by function name.
fn kubernetes_call_cost(function: &str, overload_id: &str, args: &[Val<'_>], result: &Result<Val<'_>>) -> Option<u64> {
    let size = |i: usize| args.get(i).map_or(1, k8s_actual_size);
    let n = args.len();
    Some(match function {
        "check" => 350_000,
        "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name" | "allowed"
        | "reason" | "error" | "errored" => 1,
        "fieldSelector" | "labelSelector" if n >= 2 => {
            let len = size(1);
            let parse = ceil(len as f64 * STRING_TRAVERSAL_COST_FACTOR);
            let requirements = ceil(len as f64 * 0.5);
            let requirement_cost = ceil(requirements as f64 * (LIST_CREATE_COST + STRUCT_CREATE_COST) as f64);
            LIST_CREATE_COST + parse + requirement_cost
        }
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
            args.first().map_or(0, traversal_cost)
        }
        "url" | "lowerAscii" | "upperAscii" | "substring" | "trim" | "jsonpatch.escapeKey" if n >= 1 => {
            ceil(size(0) as f64 * STRING_TRAVERSAL_COST_FACTOR)
        }
        "replace" | "split" if n >= 1 => ceil(size(0) as f64 * 2.0 * STRING_TRAVERSAL_COST_FACTOR),
        "join" if n >= 1 => ceil(result_size(result, true) as f64 * 2.0 * STRING_TRAVERSAL_COST_FACTOR),
        "find" | "findAll" if n >= 2 => regex_match(size(0), size(1)),
        "cidr" | "isIP" | "isCIDR" if n >= 1 => ceil(size(0) as f64 * STRING_TRAVERSAL_COST_FACTOR),
        "ip" if n >= 1 => {
            if overload_id == "cidr_ip" {
                1
            } else {
                ceil(size(0) as f64 * STRING_TRAVERSAL_COST_FACTOR)
            }
        }
        "ip.isCanonical" if n >= 1 => ceil(size(0) as f64 * 2.0 * STRING_TRAVERSAL_COST_FACTOR),
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => 1,
        "containsIP" if n >= 2 => {
            let cidr = size(0);
            let mut cost = ceil((cidr + cidr) as f64 * STRING_TRAVERSAL_COST_FACTOR);
            if overload_id == "cidr_contains_ip_string" {
                cost += ceil(size(1) as f64 * STRING_TRAVERSAL_COST_FACTOR);
            }
            cost
        }
        "containsCIDR" if n >= 2 => {
            let cidr = size(0);
            let mut cost = ceil((cidr + cidr) as f64 * STRING_TRAVERSAL_COST_FACTOR);
            cost += ceil(cidr as f64 * STRING_TRAVERSAL_COST_FACTOR) + 1;
            if overload_id == "cidr_contains_cidr_string" {
                cost += ceil(size(1) as f64 * STRING_TRAVERSAL_COST_FACTOR);
            }
            cost
        }
        "quantity" | "isQuantity" | "semver" | "isSemver" if n >= 1 => {
            ceil(size(0) as f64 * STRING_TRAVERSAL_COST_FACTOR)
        }
        "validate" if n >= 2 => {
            let Val::Format(f) = &args[0] else { return None };
            regex_match(size(1), f.max_regex_size() as u64)
        }
        "format.named" => 1,
        "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan" | "isLessThan" | "compareTo"
        | "add" | "sub" | "major" | "minor" | "patch" => 1,
        "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath" | "getQuery" => 1,
        "_==_" if n == 2 => match &args[0] {
            Val::Quantity(..) | Val::Ip(_) | Val::Cidr(_) | Val::Format(_) | Val::Url(_) | Val::Semver(_) => 1,
            _ => return None,
        },
        _ => return None,
    })
}

/// cel-go's default call costs (`CostTracker.costCall`), by overload id.
fn default_call_cost(overload_id: &str, args: &[Val<'_>]) -> u64 {
    let size = |i: usize| args.get(i).map_or(1, actual_size);
    match overload_id {
        // The prefix or suffix decides (cel-go v0.29.2, as the estimate).
        "starts_with_string" | "ends_with_string" => ceil(size(1) as f64 * STRING_TRAVERSAL_COST_FACTOR),
        "string_to_bytes" | "bytes_to_string" | "strings_quote" | "string_format" => {
            ceil(size(0) as f64 * STRING_TRAVERSAL_COST_FACTOR)
        }
        "in_list" => size(1),
        "less_string"
        | "greater_string"
        | "less_equals_string"
        | "greater_equals_string"
        | "less_bytes"
        | "greater_bytes"
        | "less_equals_bytes"
        | "greater_equals_bytes"
        | "equals"
        | "not_equals" => string_traversal(size(0).min(size(1))),
        "add_string" | "add_bytes" => ceil(size(0).wrapping_add(size(1)) as f64 * STRING_TRAVERSAL_COST_FACTOR),
        "matches" | "matches_string" => regex_match(size(0), size(1)),
        "contains_string" => string_contains(size(0), size(1)),
        _ => 1,
    }
}

/// The cost of one function call, as the API server charges it: `function` is the
/// called function's name, `overload_id` the overload the checker resolved (`""`
/// when it resolved several and the call dispatches at run time: cel-go then
/// passes no overload id), `args` the evaluated arguments (receiver first) and
/// `result` the call's value or error.
///
/// `==` and `!=` are calls of `equals` / `not_equals`.
pub fn call_cost(function: &str, overload_id: &str, args: &[Val<'_>], result: &Result<Val<'_>>) -> u64 {
    if let Some(c) = overload_tracker(overload_id, args, result) {
        return c;
    }
    if let Some(c) = kubernetes_call_cost(function, overload_id, args, result) {
        return c;
    }
    default_call_cost(overload_id, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_is_go_ceil_for_costs() {
        let mut xs = vec![
            0.0,
            -0.0,
            -0.5,
            0.1,
            0.5,
            1.0,
            2.5,
            3.0000000000000004,
            f64::NAN,
            f64::INFINITY,
            1e300,
        ];
        xs.extend((0..10_000u64).map(|n| n as f64 * STRING_TRAVERSAL_COST_FACTOR));
        xs.extend((0..64).map(|e| 2f64.powi(e) + 0.5));
        for x in xs {
            assert_eq!(ceil(x), x.ceil() as u64, "{x}");
        }
        assert_eq!(code_points("héllo"), 5);
        assert_eq!(code_points("hello"), 5);
    }

    #[test]
    fn string_costs_round_like_go() {
        let s = |n: usize| Val::string("a".repeat(n));
        // startsWith is priced by the prefix (cel-go v0.29.2).
        assert_eq!(
            call_cost("startsWith", "starts_with_string", &[s(1), s(31)], &Ok(Val::Bool(true))),
            4
        );
        assert_eq!(
            call_cost(
                "startsWith",
                "starts_with_string",
                &[s(30), s(10)],
                &Ok(Val::Bool(true))
            ),
            1
        );
        assert_eq!(call_cost("strings.quote", "strings_quote", &[s(31)], &Ok(s(33))), 4);
        assert_eq!(call_cost("_==_", "equals", &[s(12), s(12)], &Ok(Val::Bool(true))), 2);
        assert_eq!(
            call_cost("_==_", "equals", &[Val::Int(1), Val::Int(1)], &Ok(Val::Bool(true))),
            1
        );
        assert_eq!(
            call_cost(
                "matches",
                "matches_string",
                &[s(12), Val::str("^[^0-9]*$")],
                &Ok(Val::Bool(true))
            ),
            2 * 3
        );
        // The global `matches(s, re)` overload costs the same (cel-go v0.29.2).
        assert_eq!(
            call_cost("matches", "matches", &[s(12), Val::str("^a$")], &Ok(Val::Bool(true))),
            2
        );
        // Dynamic dispatch passes no overload id.
        assert_eq!(call_cost("_+_", "", &[s(100), s(100)], &Ok(s(200))), 1);
        assert_eq!(call_cost("_+_", "add_string", &[s(100), s(100)], &Ok(s(200))), 20);
    }

    #[test]
    fn traversal_costs_truncate() {
        assert_eq!(traversal_cost(&Val::str("abcdefghijklmnopqrs")), 1);
        let l = Val::list(vec![Val::Int(1), Val::Int(2), Val::str("aaaaaaaaaaaaaaaaaaaa")]);
        assert_eq!(traversal_cost(&l), 4);
        assert_eq!(
            call_cost(
                "indexOf",
                "list_a_index_of_int",
                &[l.clone(), Val::Int(2)],
                &Ok(Val::Int(1))
            ),
            4
        );
    }

    #[test]
    fn sets_and_lists_trackers() {
        let l = |n: i64| Val::list((0..n).map(Val::Int).collect());
        assert_eq!(
            call_cost(
                "sets.contains",
                "list_sets_contains_list",
                &[l(3), l(2)],
                &Ok(Val::Bool(true))
            ),
            7
        );
        assert_eq!(
            call_cost(
                "sets.equivalent",
                "list_sets_equivalent_list",
                &[l(3), l(2)],
                &Ok(Val::Bool(true))
            ),
            13
        );
        assert_eq!(call_cost("reverse", "list_reverse", &[l(4)], &Ok(l(4))), 15);
        assert_eq!(call_cost("sort", "list_int_sort", &[l(3)], &Ok(l(3))), 29);
    }
}
