//! What compiled CEL rules call: the steps of an evaluation that generated code does
//! not write out itself.
//!
//! crd-codegen compiles each rule's plan (see its `cel::eval` module, which
//! documents every step and what it costs) into Rust over the typed values of the
//! generated structs. Scalars, fields of structs and the common operators become
//! plain Rust; whatever works on dynamic values (lists, maps, optionals,
//! int-or-string, qualifiers computed at run time, function calls without a native
//! form) goes through [`Val`] and the functions here, which follow the interpreter
//! step for step so that both give the same values, errors and costs.
//!
//! The cost limit: cel-go stops an evaluation as soon as its running cost passes
//! the limit. A step's cost never depends on the cost so far and costs only grow, so
//! the limit is passed at some step exactly when the total of the whole evaluation
//! is above it: generated code adds costs as it goes, checks the total once per
//! comprehension iteration (so that a long loop stops early) and at the end
//! ([`finish`]).

use crate::cel::cost::{self, PER_CALL_LIMIT};
use crate::cel::ops::format_key;
use crate::cel::{CelSchema, Error, List, Map, Result, SchemaRef, Str, Val};
use crate::rules::Evaluated;
use serde_json::Value as Json;

/// The cost limit of one evaluation (Kubernetes' `PerCallLimit`).
pub const LIMIT: u64 = PER_CALL_LIMIT;

/// The outcome of an evaluation whose total cost is `cost`: the cost-limit error when
/// the total is above the limit.
pub fn finish<T>(result: Result<T>, cost: u64) -> Evaluated<T, Error> {
    if cost > LIMIT {
        return cancelled(cost);
    }
    Evaluated { result, cost }
}

/// An evaluation stopped by the cost limit.
pub fn cancelled<T>(cost: u64) -> Evaluated<T, Error> {
    Evaluated {
        result: Err(Error::cost_limit_exceeded()),
        cost,
    }
}

// ---------------------------------------------------------------------------
// Values to native values
// ---------------------------------------------------------------------------

/// A `bool` operand (`&&`, `||`, `!`, conditions): another value is
/// `no such overload`.
pub fn to_bool(v: Result<Val<'_>>) -> Result<bool> {
    match v? {
        Val::Bool(b) => Ok(b),
        _ => Err(Error::no_such_overload()),
    }
}

/// An `int` value.
pub fn to_int(v: Result<Val<'_>>) -> Result<i64> {
    match v? {
        Val::Int(i) => Ok(i),
        _ => Err(Error::no_such_overload()),
    }
}

/// A `uint` value.
pub fn to_uint(v: Result<Val<'_>>) -> Result<u64> {
    match v? {
        Val::Uint(u) => Ok(u),
        _ => Err(Error::no_such_overload()),
    }
}

/// A `double` value.
pub fn to_double(v: Result<Val<'_>>) -> Result<f64> {
    match v? {
        Val::Double(d) => Ok(d),
        _ => Err(Error::no_such_overload()),
    }
}

/// A `string` value.
pub fn to_str(v: Result<Val<'_>>) -> Result<Str<'_>> {
    match v? {
        Val::String(s) => Ok(s),
        _ => Err(Error::no_such_overload()),
    }
}

/// A present field, or `no such key: <name>`.
#[inline]
pub fn field<T>(v: Option<T>, name: &str) -> Result<T> {
    v.ok_or_else(|| Error::no_such_key(name))
}

// ---------------------------------------------------------------------------
// Attributes (cel-go `applyQualifiers`)
// ---------------------------------------------------------------------------

/// The resolution of an attribute's qualifiers on a dynamic value, one qualifier at a
/// time (their keys are evaluated in between): cel-go's `applyQualifiers`.
pub struct Resolver<'a> {
    state: Result<Val<'a>>,
    /// The attribute became optional (an optional root, `a.?b`, `a[?i]`).
    optional: bool,
    /// Resolution ended early: `state` is the result as it is.
    done: bool,
}

impl<'a> Resolver<'a> {
    /// Starts from the root's value: an error ends it, an empty optional is the
    /// result as it is, a full one is unwrapped and makes the attribute optional.
    pub fn new(root: Result<Val<'a>>) -> Resolver<'a> {
        match root {
            Err(e) => Resolver {
                state: Err(e),
                optional: false,
                done: true,
            },
            Ok(Val::Optional(None)) => Resolver {
                state: Ok(Val::Optional(None)),
                optional: true,
                done: true,
            },
            Ok(Val::Optional(Some(v))) => Resolver {
                state: Ok(*v),
                optional: true,
                done: false,
            },
            Ok(v) => Resolver {
                state: Ok(v),
                optional: false,
                done: false,
            },
        }
    }

    /// Whether resolution has ended (the next qualifiers' keys are not evaluated).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Applies one qualifier with its evaluated key (`optional` for `?.` / `[?]`,
    /// `test_only` for the field of `has()`), charging its cost.
    pub fn qualify(&mut self, key: Result<Val<'a>>, optional: bool, test_only: bool, cost: &mut u64) {
        if self.done {
            return;
        }
        let key = key.and_then(qualifier_key);
        self.optional = self.optional || optional;
        let Ok(obj) = &self.state else { return };
        if self.optional {
            // cel-go's `QualifyIfPresent`: charged only when present.
            match key.and_then(|k| qualify(obj, &k)) {
                Err(e) => self.end(Err(e)),
                Ok(None) => self.end(Ok(Val::Optional(None))),
                Ok(Some(v)) => {
                    *cost = cost.wrapping_add(1);
                    self.state = Ok(if test_only { Val::Bool(true) } else { v });
                }
            }
            return;
        }
        // cel-go's `Qualify`: charged whatever the outcome.
        *cost = cost.wrapping_add(1);
        let key = match key {
            Ok(k) => k,
            Err(e) => return self.end(Err(e)),
        };
        match qualify(obj, &key) {
            Err(e) => self.end(Err(e)),
            Ok(Some(_)) if test_only => self.state = Ok(Val::Bool(true)),
            Ok(None) if test_only => self.state = Ok(Val::Bool(false)),
            Ok(Some(v)) => self.state = Ok(v),
            Ok(None) => {
                let e = missing(obj, &key);
                self.end(Err(e));
            }
        }
    }

    fn end(&mut self, r: Result<Val<'a>>) {
        self.state = r;
        self.done = true;
    }

    /// The attribute's value (wrapped in `optional.of` when it became optional).
    pub fn finish(self) -> Result<Val<'a>> {
        match self.state {
            Ok(v) if self.optional && !self.done => Ok(Val::optional_of(v)),
            other => other,
        }
    }

    /// The value of a presence test: whether the member is present (for an
    /// optional attribute, whether it has a value).
    pub fn finish_test(self) -> Result<Val<'a>> {
        self.finish().map(|v| match v {
            Val::Optional(o) => Val::Bool(o.is_some()),
            other => other,
        })
    }
}

/// A computed qualifier key must be a `string`, `int`, `uint`, `bool` or `double`.
fn qualifier_key(k: Val<'_>) -> Result<Val<'_>> {
    match k {
        Val::String(_) | Val::Int(_) | Val::Uint(_) | Val::Bool(_) | Val::Double(_) => Ok(k),
        other => Err(Error::new(format!("invalid qualifier type: {}", go_type_name(&other)))),
    }
}

/// Qualifies a value by a key (cel-go `refQualify`): `Ok(None)` when the member is
/// absent.
pub fn qualify<'a>(obj: &Val<'a>, key: &Val<'_>) -> Result<Option<Val<'a>>> {
    match obj {
        Val::Map(m) => match m.find(key) {
            Some(v) => v.map(Some),
            None => Ok(None),
        },
        Val::List(l) => {
            let i = crate::cel::ops::index_value(key)?;
            if i >= 0 && (i as usize) < l.len() {
                if l.is_data() && !matches!(key, Val::Int(_)) {
                    return Err(Error::new(format!("unsupported index: {}", format_key(key))));
                }
                l.get(i as usize).map(Some)
            } else {
                Ok(None)
            }
        }
        _ => Ok(None),
    }
}

/// The error for a missing member (cel-go `missingKey` / `missingIndex`).
pub fn missing(obj: &Val<'_>, key: &Val<'_>) -> Error {
    match obj {
        Val::List(_) => Error::index_out_of_bounds(&format_key(key)),
        _ => Error::no_such_key(&format_key(key)),
    }
}

/// The Go type of a value as cel-go's messages name it.
pub fn go_type_name(v: &Val<'_>) -> &'static str {
    match v {
        Val::Null => "types.Null",
        Val::Bool(_) => "types.Bool",
        Val::Int(_) => "types.Int",
        Val::Uint(_) => "types.Uint",
        Val::Double(_) => "types.Double",
        Val::String(_) => "types.String",
        Val::Bytes(_) => "types.Bytes",
        Val::Duration(_) => "types.Duration",
        Val::Timestamp(_) => "types.Timestamp",
        Val::List(_) => "*types.baseList",
        Val::Map(_) => "*types.baseMap",
        Val::Optional(_) => "*types.Optional",
        Val::Type(_) => "*types.Type",
        Val::Quantity(..) => "cel.Quantity",
        Val::Url(_) => "cel.URL",
        Val::Ip(_) => "cel.IP",
        Val::Cidr(_) => "cel.CIDR",
        Val::Semver(_) => "cel.Semver",
        Val::Format(_) => "cel.Format",
        Val::Unknown(_) => "*common.unknownPreserved",
    }
}

// ---------------------------------------------------------------------------
// Operators
// ---------------------------------------------------------------------------

/// `&&` / `||` of two compiled `bool`s once the first did not decide: `stop` if
/// the second is `stop`, else the first error, else `!stop`.
#[inline]
pub fn logical_rest(a: Result<bool>, b: Result<bool>, stop: bool) -> Result<bool> {
    match (a, b) {
        (_, Ok(b)) if b == stop => Ok(stop),
        (Err(e), _) | (Ok(_), Err(e)) => Err(e),
        (Ok(_), Ok(_)) => Ok(!stop),
    }
}

/// A strict operator on two scalars of one type held natively (`bool`, `i64`, `u64`,
/// `f64`): `op` of their values, else the first error. Generic only in the operand
/// type, so the rules of a crate share one copy per type where a `match` per use made
/// each rule larger to compile. These helpers are `#[inline]` because generated code
/// calls them from another crate: without it they were not inlined and compiled rules
/// ran up to 29% slower.
#[inline]
pub fn scalars<T: Copy, R>(a: &Result<T>, b: &Result<T>, op: fn(T, T) -> Result<R>) -> Result<R> {
    match (a, b) {
        (Ok(a), Ok(b)) => op(*a, *b),
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    }
}

/// [`scalars`] for two strings: `op` of their texts.
#[inline]
pub fn strings(a: &Result<Str<'_>>, b: &Result<Str<'_>>, op: fn(&str, &str) -> bool) -> Result<bool> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok(op(a, b)),
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    }
}

/// The operators compiled rules pass to [`scalars`] and [`strings`] (integer
/// arithmetic, with its overflow errors, is `cel::ops::int`'s).
pub mod op {
    use crate::cel::Result;

    #[inline]
    pub fn eq<T: PartialEq>(a: T, b: T) -> Result<bool> {
        Ok(a == b)
    }
    #[inline]
    pub fn ne<T: PartialEq>(a: T, b: T) -> Result<bool> {
        Ok(a != b)
    }
    #[inline]
    pub fn lt<T: PartialOrd>(a: T, b: T) -> Result<bool> {
        Ok(a < b)
    }
    #[inline]
    pub fn le<T: PartialOrd>(a: T, b: T) -> Result<bool> {
        Ok(a <= b)
    }
    #[inline]
    pub fn gt<T: PartialOrd>(a: T, b: T) -> Result<bool> {
        Ok(a > b)
    }
    #[inline]
    pub fn ge<T: PartialOrd>(a: T, b: T) -> Result<bool> {
        Ok(a >= b)
    }
    #[inline]
    pub fn add_double(a: f64, b: f64) -> Result<f64> {
        Ok(a + b)
    }
    #[inline]
    pub fn sub_double(a: f64, b: f64) -> Result<f64> {
        Ok(a - b)
    }
    #[inline]
    pub fn mul_double(a: f64, b: f64) -> Result<f64> {
        Ok(a * b)
    }
    #[inline]
    pub fn div_double(a: f64, b: f64) -> Result<f64> {
        Ok(a / b)
    }
    #[inline]
    pub fn str_eq(a: &str, b: &str) -> bool {
        a == b
    }
    #[inline]
    pub fn str_ne(a: &str, b: &str) -> bool {
        a != b
    }
    #[inline]
    pub fn str_lt(a: &str, b: &str) -> bool {
        a < b
    }
    #[inline]
    pub fn str_le(a: &str, b: &str) -> bool {
        a <= b
    }
    #[inline]
    pub fn str_gt(a: &str, b: &str) -> bool {
        a > b
    }
    #[inline]
    pub fn str_ge(a: &str, b: &str) -> bool {
        a >= b
    }
    #[inline]
    pub fn contains(a: &str, b: &str) -> bool {
        a.contains(b)
    }
    #[inline]
    pub fn starts_with(a: &str, b: &str) -> bool {
        a.starts_with(b)
    }
    #[inline]
    pub fn ends_with(a: &str, b: &str) -> bool {
        a.ends_with(b)
    }
}

/// `x in <constant set>` (cel-go `evalSetMembership`): same type and value.
pub fn in_set(v: &Val<'_>, set: &[Val<'_>]) -> bool {
    set.iter().any(|m| match (m, v) {
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Uint(x), Val::Uint(y)) => x == y,
        (Val::Double(x), Val::Double(y)) => x == y,
        (Val::String(x), Val::String(y)) => **x == **y,
        _ => false,
    })
}

/// `x.or(y)` / `x.orValue(y)` when `x` has no value: `None` means `y` decides.
pub fn optional_or<'a>(x: Result<Val<'a>>, or_value: bool) -> Option<Result<Val<'a>>> {
    match x {
        Err(e) => Some(Err(e)),
        Ok(Val::Optional(Some(v))) => Some(Ok(if or_value { *v } else { Val::Optional(Some(v)) })),
        Ok(Val::Optional(None)) => None,
        Ok(_) => Some(Err(Error::no_such_overload())),
    }
}

/// A list literal's items, or the error that ends it (cel-go `evalList`): optional
/// items (`[?x]`) are left out when empty and must be optionals.
pub fn list_literal<'a>(items: Vec<(Result<Val<'a>>, bool)>) -> Result<Val<'a>> {
    let mut out = Vec::with_capacity(items.len());
    for (item, optional) in items {
        match item? {
            Val::Optional(Some(v)) if optional => out.push(*v),
            Val::Optional(None) if optional => {}
            other if optional => {
                return Err(Error::new(format!(
                    "cannot initialize optional list element from non-optional value {}",
                    crate::cel::format::go_value(&other)
                )));
            }
            v => out.push(v),
        }
    }
    Ok(Val::List(List::new(out)))
}

// ---------------------------------------------------------------------------
// Comprehensions
// ---------------------------------------------------------------------------

/// What a comprehension iterates over: a list's elements (or index and element), a
/// map's keys (or key and value).
pub enum Range<'a> {
    List(List<'a>),
    Map(Map<'a>, Vec<Val<'a>>),
}

impl<'a> Range<'a> {
    /// The range of a value (cel-go `evalFold`): lists and maps, else
    /// `got '<type>', expected iterable type` (or, for two variables,
    /// `unsupported comprehension range type: <type>`).
    pub fn new(v: Val<'a>, two_vars: bool) -> Result<Range<'a>> {
        match v {
            Val::List(l) => Ok(Range::List(l)),
            Val::Map(m) => {
                let keys = m.keys();
                Ok(Range::Map(m, keys))
            }
            other if two_vars => Err(Error::new(format!(
                "unsupported comprehension range type: {}",
                go_type_name(&other)
            ))),
            other => Err(Error::new(format!(
                "got '{}', expected iterable type",
                go_type_name(&other)
            ))),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Range::List(l) => l.len(),
            Range::Map(_, keys) => keys.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `i` for one variable: the element, or the key.
    pub fn one(&self, i: usize) -> Result<Val<'a>> {
        match self {
            Range::List(l) => l.get(i),
            Range::Map(_, keys) => Ok(keys[i].clone()),
        }
    }

    /// Entry `i` for two variables: index and element, or key and value.
    pub fn two(&self, i: usize) -> (Result<Val<'a>>, Result<Val<'a>>) {
        match self {
            Range::List(l) => (Ok(Val::Int(i as i64)), l.get(i)),
            Range::Map(m, keys) => {
                let k = keys[i].clone();
                let v = m.find(&k).unwrap_or_else(|| Err(Error::no_such_key(&format_key(&k))));
                (Ok(k), v)
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Values of typed data
// ---------------------------------------------------------------------------

/// A string field with a `format` CEL reads as another type (`duration`, `date`,
/// `date-time`, `byte`; Kubernetes' `UnstructuredToVal`): the converted value, or the
/// error a string that does not parse gives.
pub fn formatted<'a>(s: &'a str, format: &str) -> Result<Val<'a>> {
    crate::cel::unstructured::string_val(s, format)
}

// ---------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------

/// A call whose arguments are all evaluated (cel-go's strict calls): the first
/// argument error, else the function (`crate::cel::functions::dispatch`).
pub fn call<'a>(function: &str, overload: Option<&str>, args: &[Result<Val<'a>>]) -> Result<Val<'a>> {
    if let Some(e) = args.iter().find_map(|a| a.as_ref().err()) {
        return Err(e.clone());
    }
    with_values(args, |vals| crate::cel::functions::dispatch(function, overload, vals))
}

/// `size` of a list (overloads `size_list`, `list_size`); anything else goes
/// through [`call`] (and its errors).
pub fn list_size(v: Result<Val<'_>>, function: &str, overload: &str) -> Result<i64> {
    match v {
        Ok(Val::List(l)) => Ok(l.len() as i64),
        other => to_int(call(function, Some(overload), &[other])),
    }
}

/// [`list_size`] of a value held in a variable, without copying it.
#[inline]
pub fn list_size_ref(v: &Result<Val<'_>>, function: &str, overload: &str) -> Result<i64> {
    match v {
        Ok(Val::List(l)) => Ok(l.len() as i64),
        other => list_size(other.clone(), function, overload),
    }
}

/// What a call costs (`crate::cel::cost::call_cost`): argument errors count as
/// `null` (size 1).
pub fn call_cost<'a>(function: &str, overload: &str, args: &[Result<Val<'a>>], result: &Result<Val<'_>>) -> u64 {
    with_values(args, |vals| {
        crate::cel::cost::call_cost(function, overload, vals, result)
    })
}

/// [`call_cost`] of a call the checker left to dynamic dispatch because an argument
/// comes from a derived type, which rules see as `dyn` (the derive does not see that
/// type's schema): priced by the overload the arguments' run-time types select, as
/// the API server, which sees the whole schema, resolves it statically.
pub fn call_cost_resolved<'a>(function: &str, args: &[Result<Val<'a>>], result: &Result<Val<'_>>) -> u64 {
    let overload = crate::cel::functions::resolve_overload(function, args).unwrap_or("");
    call_cost(function, overload, args, result)
}

/// `f` of the arguments' values (an error as `null`); calls have few arguments, so
/// no allocation for them.
fn with_values<'a, R>(args: &[Result<Val<'a>>], f: impl FnOnce(&[Val<'a>]) -> R) -> R {
    let arg = |a: &Result<Val<'a>>| a.as_ref().map_or(Val::Null, Val::clone);
    match args {
        [] => f(&[]),
        [a] => f(&[arg(a)]),
        [a, b] => f(&[arg(a), arg(b)]),
        [a, b, c] => f(&[arg(a), arg(b), arg(c)]),
        _ => f(&args.iter().map(arg).collect::<Vec<_>>()),
    }
}

/// The cost of `==`, `!=` (and string ordering) on two strings, as [`call_cost`]
/// charges the `equals` overload: the traversal of the shorter one.
#[inline]
pub fn string_compare_cost(a: &Result<Str<'_>>, b: &Result<Str<'_>>) -> u64 {
    let min_size = match (a, b) {
        (Ok(a), Ok(b)) => {
            // Count the shorter string, then the other only as far as needed.
            let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
            let n = cost::code_points(short);
            if long.is_ascii() {
                n.min(long.len() as u64)
            } else {
                long.chars().take(n as usize).count() as u64
            }
        }
        _ => string_size(a).min(string_size(b)),
    };
    cost::string_traversal(min_size)
}

/// [`string_compare_cost`] when one side is a constant of `n` code points.
#[inline]
pub fn compare_cost_const(s: &Result<Str<'_>>, n: u64) -> u64 {
    let min_size = match s {
        // A string of at most `n` bytes has at most `n` code points.
        Ok(s) if s.len() as u64 <= n => cost::code_points(s),
        Ok(s) => s.chars().take(n as usize).count() as u64,
        Err(_) => n.min(1),
    };
    cost::string_traversal(min_size)
}

/// [`contains_cost`] when the substring is a constant of `n` code points.
#[inline]
pub fn contains_cost_const(s: &Result<Str<'_>>, n: u64) -> u64 {
    cost::string_contains(string_size(s), n)
}

/// The cost of `startsWith` / `endsWith`: the prefix or suffix decides (cel-go
/// v0.29.2), as [`call_cost`] does.
pub fn affix_cost(affix: &Result<Str<'_>>) -> u64 {
    cost::string_traversal(string_size(affix))
}

/// The cost of `contains` on strings, as [`call_cost`] does.
pub fn contains_cost(s: &Result<Str<'_>>, sub: &Result<Str<'_>>) -> u64 {
    cost::string_contains(string_size(s), string_size(sub))
}

/// The cost of `matches` with a constant pattern of `pattern_size` code points, as
/// [`call_cost`] does.
pub fn matches_cost(s: &Result<Str<'_>>, pattern_size: u64) -> u64 {
    cost::regex_match(string_size(s), pattern_size)
}

/// cel-go's `actualSize` of a string argument (an error counts as size 1).
#[inline]
fn string_size(s: &Result<Str<'_>>) -> u64 {
    s.as_ref().map_or(1, |s| cost::code_points(s))
}

/// Adds an item to a list literal being built: an error ends the literal, and an
/// optional item (`[?x]`) is left out when empty.
pub fn push_item<'a>(items: &mut Vec<Val<'a>>, item: Result<Val<'a>>, optional: bool) -> Result<()> {
    match item? {
        Val::Optional(Some(v)) if optional => items.push(*v),
        Val::Optional(None) if optional => {}
        other if optional => {
            return Err(Error::new(format!(
                "cannot initialize optional list element from non-optional value {}",
                crate::cel::format::go_value(&other)
            )));
        }
        v => items.push(v),
    }
    Ok(())
}

/// Adds an entry to a map literal being built (cel-go `evalMap`): an error ends the
/// literal; an optional entry (`?k: v`) is left out when `v` is empty.
pub fn push_entry<'a>(
    entries: &mut Vec<(Val<'a>, Val<'a>)>,
    key: Result<Val<'a>>,
    value: impl FnOnce() -> Result<Val<'a>>,
    optional: bool,
) -> Result<()> {
    let k = key?;
    let v = value()?;
    if !optional {
        entries.push((k, v));
        return Ok(());
    }
    match v {
        Val::Optional(Some(v)) => entries.push((k, *v)),
        Val::Optional(None) => entries.retain(|(pk, _)| !in_set(pk, std::slice::from_ref(&k))),
        other => {
            return Err(Error::new(format!(
                "cannot initialize optional entry '{}' from non-optional value {}",
                crate::cel::format::go_value(&k),
                crate::cel::format::go_value(&other)
            )));
        }
    }
    Ok(())
}

/// A map literal's value from its entries.
pub fn map_literal<'a>(entries: Vec<(Val<'a>, Val<'a>)>) -> Result<Val<'a>> {
    Map::from_entries(entries).map(Val::Map)
}

/// A constant map of the plan (valid keys).
pub fn const_map(entries: Vec<(Val<'static>, Val<'static>)>) -> Val<'static> {
    Map::from_entries(entries).map(Val::Map).unwrap_or(Val::Null)
}

/// A constant timestamp of the plan.
pub fn timestamp(secs: i64, nanos: u32, offset_secs: i32) -> Val<'static> {
    crate::time::Timestamp::new(secs, nanos, offset_secs).map_or(Val::Null, Val::Timestamp)
}

// ---------------------------------------------------------------------------
// Schemas and views of JSON data
// ---------------------------------------------------------------------------

/// A schema node written into generated code (as a `static`), for the values CEL
/// reads from JSON data through the runtime (`crate::cel::json_to_val`, Kubernetes'
/// `UnstructuredToVal`).
#[derive(Clone, Copy, Debug)]
pub struct StaticSchema {
    /// For a node of a field type whose schema is known only where the type is
    /// defined (or only at run time, see `crate::interpreted`): that schema, which
    /// gives everything but this node's own `nullable`.
    pub of_type: Option<fn() -> &'static StaticSchema>,
    /// `type` (`""` when unset).
    pub type_: &'static str,
    pub format: &'static str,
    pub nullable: bool,
    pub int_or_string: bool,
    pub preserve_unknown_fields: bool,
    pub embedded_resource: bool,
    /// A resource root (`WithTypeAndObjectMeta` applies to its value).
    pub resource_root: bool,
    /// `properties` by name, sorted; `None` when unset.
    pub properties: Option<&'static [(&'static str, &'static StaticSchema)]>,
    pub additional_properties: Option<&'static StaticSchema>,
    pub items: Option<&'static StaticSchema>,
    pub list_type: &'static str,
    pub list_map_keys: &'static [&'static str],
}

impl StaticSchema {
    /// A schema of type `type_` and nothing else.
    pub const fn typed(type_: &'static str) -> StaticSchema {
        StaticSchema {
            of_type: None,
            type_,
            format: "",
            nullable: false,
            int_or_string: false,
            preserve_unknown_fields: false,
            embedded_resource: false,
            resource_root: false,
            properties: None,
            additional_properties: None,
            items: None,
            list_type: "",
            list_map_keys: &[],
        }
    }
}

impl StaticSchema {
    /// The schema that gives this node's structure: the field type's, for a node
    /// that points at one ([`StaticSchema::of_type`](#structfield.of_type)), else the node itself.
    pub fn target(&self) -> &StaticSchema {
        let mut s = self;
        while let Some(f) = s.of_type {
            s = f();
        }
        s
    }
}

impl CelSchema for StaticSchema {
    fn schema_type(&self) -> &str {
        self.target().type_
    }
    fn format(&self) -> &str {
        self.target().format
    }
    fn nullable(&self) -> bool {
        self.nullable
    }
    fn int_or_string(&self) -> bool {
        self.target().int_or_string
    }
    fn preserve_unknown_fields(&self) -> bool {
        self.target().preserve_unknown_fields
    }
    fn embedded_resource(&self) -> bool {
        self.target().embedded_resource
    }
    fn has_properties(&self) -> bool {
        self.target().properties.is_some()
    }
    fn property(&self, name: &str) -> Option<&dyn CelSchema> {
        let props = self.target().properties?;
        let i = props.binary_search_by(|(k, _)| (*k).cmp(name)).ok()?;
        Some(props[i].1)
    }
    fn additional_properties(&self) -> Option<&dyn CelSchema> {
        self.target().additional_properties.map(|s| s as &dyn CelSchema)
    }
    fn items(&self) -> Option<&dyn CelSchema> {
        self.target().items.map(|s| s as &dyn CelSchema)
    }
    fn list_type(&self) -> &str {
        self.target().list_type
    }
    fn list_map_keys(&self) -> Vec<&str> {
        self.target().list_map_keys.to_vec()
    }
}

/// `{type: string}`: `apiVersion` and `kind` of a resource root.
pub static STRING: StaticSchema = StaticSchema::typed("string");

/// The `metadata` of a resource root as CEL sees it (`WithTypeAndObjectMeta`):
/// `name` and `generateName`.
pub static OBJECT_META: StaticSchema = StaticSchema {
    properties: Some(&[("generateName", &STRING), ("name", &STRING)]),
    ..StaticSchema::typed("object")
};

/// The CEL value of JSON data under a schema (Kubernetes' `UnstructuredToVal`; a
/// resource root's value sees `apiVersion`, `kind` and the metadata names).
pub fn json<'a>(value: &'a Json, schema: &'static StaticSchema) -> Result<Val<'a>> {
    crate::cel::json_to_val(value, schema, schema.target().resource_root)
}

/// The CEL value of a JSON object under a schema (a view's object).
pub fn object_val<'a>(m: &'a serde_json::Map<String, Json>, schema: &'static StaticSchema) -> Val<'a> {
    let schema = if schema.target().resource_root {
        SchemaRef::resource_root(schema)
    } else {
        SchemaRef::new(schema)
    };
    Val::Map(Map::json(m, schema))
}

/// Item `i` of a comprehension's range as the JSON object a view reads: straight
/// from the array when the range is a list of JSON data, else through its value.
#[inline]
pub fn object_item<'a>(range: &Range<'a>, i: usize) -> Result<&'a serde_json::Map<String, Json>> {
    if let Range::List(l) = range
        && let Some(Json::Object(m)) = l.json_item(i)
    {
        return Ok(m);
    }
    json_object(range.one(i))
}

/// A JSON array whose items are objects a generated view reads (a list property, or
/// a list node's `self`): its size, items and constant indexes are read straight from
/// the array; anything else works on its CEL value ([`Items::to_val`]).
#[derive(Clone, Copy)]
pub struct Items<'a> {
    json: &'a Json,
    items: &'a [Json],
    /// The array's schema.
    schema: &'static StaticSchema,
}

/// An `array` whose items a view reads.
#[inline]
pub fn items<'a>(v: &'a Json, schema: &'static StaticSchema) -> std::result::Result<Items<'a>, Bad<'a>> {
    match v {
        Json::Array(items) => Ok(Items { json: v, items, schema }),
        _ => Err(Bad { value: v, schema }),
    }
}

impl<'a> Items<'a> {
    /// The number of items (`size()`).
    #[inline]
    pub fn len(self) -> usize {
        self.items.len()
    }

    pub fn is_empty(self) -> bool {
        self.items.is_empty()
    }

    /// Item `i` (`i < len()`) as the JSON object a view reads; an item that is not
    /// an object is read as its value would be (the data error, or no view of it).
    #[inline]
    pub fn object(self, i: usize) -> Result<&'a serde_json::Map<String, Json>> {
        match &self.items[i] {
            Json::Object(m) => Ok(m),
            other => match self.schema.target().items {
                Some(s) => json_object(json(other, s)),
                None => Err(Error::no_such_overload()),
            },
        }
    }

    /// `self[i]` (cel-go's index qualifier on a list): item `i`, or `index out of
    /// bounds: <i>`.
    #[inline]
    pub fn index(self, i: i64) -> Result<&'a serde_json::Map<String, Json>> {
        match usize::try_from(i) {
            Ok(u) if u < self.items.len() => self.object(u),
            _ => Err(Error::index_out_of_bounds(&i.to_string())),
        }
    }

    /// The list as a CEL value.
    pub fn to_val(self) -> Result<Val<'a>> {
        json(self.json, self.schema)
    }
}

/// The JSON object behind a value read from JSON data (to view it as a struct).
pub fn json_object<'a>(v: Result<Val<'a>>) -> Result<&'a serde_json::Map<String, Json>> {
    match v? {
        Val::Map(m) => m.json_object().map(|(o, _)| o).ok_or_else(Error::no_such_overload),
        _ => Err(Error::no_such_overload()),
    }
}

/// Data that does not have its schema's type: reading it gives the error Kubernetes'
/// `UnstructuredToVal` gives (`invalid data, expected int, got string`, ...).
#[derive(Clone, Copy, Debug)]
pub struct Bad<'a> {
    pub value: &'a Json,
    pub schema: &'static StaticSchema,
}

impl Bad<'_> {
    /// The error reading the data gives. By value, so generated code passes the path
    /// `Bad::error` to `map_err` (one instantiation for all its readers of a type,
    /// where a closure per reader was one each).
    #[cold]
    pub fn error(self) -> Error {
        match json(self.value, self.schema) {
            Err(e) => e,
            // Only data without the schema's type is bad.
            Ok(_) => Error::no_such_overload(),
        }
    }
}

/// A property of a view: its JSON value, `None` when absent or `null` (a `null`
/// property looks absent to CEL). Views only find their properties; a rule reads one
/// with the reader of its schema's type ([`read`], [`present`]), so a view is a few
/// pointers and reading an object costs one pass over its keys.
pub type Prop<'a> = Option<&'a Json>;

/// How a view's property is read: [`int`], [`double`], [`boolean`], [`string`],
/// [`object`], [`items`] or [`raw`]. Data without the schema's type is bad.
pub type Reader<'a, T> = fn(&'a Json, &'static StaticSchema) -> std::result::Result<T, Bad<'a>>;

/// A property's JSON value (`None` when absent or `null`). Objects of a schema are
/// small: comparing lengths first (and the bytes of the name, a constant where
/// generated code calls this) beats the map's ordered search there.
#[inline]
pub fn prop<'a>(m: &'a serde_json::Map<String, Json>, key: &str) -> Option<&'a Json> {
    let v = if m.len() <= 8 {
        m.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    } else {
        m.get(key)
    };
    v.filter(|v| !v.is_null())
}

/// [`prop`] of an old object, when there is one: what generated walks correlate a
/// child with (a function, where a closure per call site was compiled once each).
#[inline]
pub fn old_prop<'a>(old: Option<&'a serde_json::Map<String, Json>>, key: &str) -> Option<&'a Json> {
    prop(old?, key)
}

/// An `integer` (Go reads JSON integers as `int64`; anything else is bad data).
#[inline]
pub fn int<'a>(v: &'a Json, schema: &'static StaticSchema) -> std::result::Result<i64, Bad<'a>> {
    v.as_i64().ok_or(Bad { value: v, schema })
}

/// A `number` (integers read as doubles).
#[inline]
pub fn double<'a>(v: &'a Json, schema: &'static StaticSchema) -> std::result::Result<f64, Bad<'a>> {
    match v {
        Json::Number(n) => Ok(n.as_i64().map_or_else(|| n.as_f64().unwrap_or(f64::NAN), |i| i as f64)),
        _ => Err(Bad { value: v, schema }),
    }
}

/// A `boolean`.
#[inline]
pub fn boolean<'a>(v: &'a Json, schema: &'static StaticSchema) -> std::result::Result<bool, Bad<'a>> {
    v.as_bool().ok_or(Bad { value: v, schema })
}

/// A `string`.
#[inline]
pub fn string<'a>(v: &'a Json, schema: &'static StaticSchema) -> std::result::Result<&'a str, Bad<'a>> {
    v.as_str().ok_or(Bad { value: v, schema })
}

/// An `object`.
#[inline]
pub fn object<'a>(
    v: &'a Json,
    schema: &'static StaticSchema,
) -> std::result::Result<&'a serde_json::Map<String, Json>, Bad<'a>> {
    v.as_object().ok_or(Bad { value: v, schema })
}

/// Any JSON value (for properties read through the runtime's JSON values).
#[inline]
pub fn raw<'a>(v: &'a Json, _schema: &'static StaticSchema) -> std::result::Result<&'a Json, Bad<'a>> {
    Ok(v)
}

/// A property read as a CEL value with `reader` (its schema is `schema`): absent (or
/// `null`) is `no such key: <name>`, bad data its `invalid data` error.
#[inline]
pub fn read<'a, T>(p: Prop<'a>, name: &str, reader: Reader<'a, T>, schema: &'static StaticSchema) -> Result<T> {
    match p {
        Some(x) => reader(x, schema).map_err(Bad::error),
        None => Err(Error::no_such_key(name)),
    }
}

/// Whether a property is present (and not `null`), for `has()`: a present value
/// that `reader` cannot read is that error, as Kubernetes' map lookup gives it.
#[inline]
pub fn present<'a, T>(p: Prop<'a>, reader: Reader<'a, T>, schema: &'static StaticSchema) -> Result<bool> {
    match p {
        Some(x) => reader(x, schema).map(|_| true).map_err(Bad::error),
        None => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The native costs of generated code agree with the general cost function.
    #[test]
    fn native_costs_agree_with_call_cost() {
        let long = "x".repeat(40);
        let strings = ["", "a", "abcdefghijk", "ééééééééééééé", "aéb", &long];
        fn val<'a>(s: &Result<Str<'a>>) -> Result<Val<'a>> {
            s.clone().map(Val::String)
        }
        let mut cases: Vec<Result<Str<'_>>> = strings.iter().map(|s| Ok(Str::Borrowed(s))).collect();
        cases.push(Err(Error::new("boom")));
        for a in &cases {
            for b in &cases {
                // With `b` a variable, and (when a string) a constant.
                let n = b.as_ref().ok().map(|b| b.chars().count() as u64);
                let general = call_cost("_==_", "equals", &[val(a), val(b)], &Ok(Val::Bool(true)));
                assert_eq!(string_compare_cost(a, b), general, "{a:?} == {b:?}");
                if let Some(n) = n {
                    assert_eq!(compare_cost_const(a, n), general, "{a:?} == const {b:?}");
                }
                let general = call_cost("contains", "contains_string", &[val(a), val(b)], &Ok(Val::Bool(true)));
                assert_eq!(contains_cost(a, b), general, "{a:?}.contains({b:?})");
                if let Some(n) = n {
                    assert_eq!(contains_cost_const(a, n), general, "{a:?}.contains(const {b:?})");
                }
                let general = call_cost(
                    "startsWith",
                    "starts_with_string",
                    &[val(a), val(b)],
                    &Ok(Val::Bool(true)),
                );
                assert_eq!(affix_cost(b), general, "{a:?}.startsWith({b:?})");
            }
            for pattern in ["^a$", "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"] {
                let general = call_cost(
                    "matches",
                    "matches_string",
                    &[val(a), Ok(Val::str(pattern))],
                    &Ok(Val::Bool(true)),
                );
                assert_eq!(
                    matches_cost(a, pattern.chars().count() as u64),
                    general,
                    "{a:?}.matches({pattern:?})"
                );
            }
        }
        let list = Val::list(vec![Val::Int(1), Val::Int(2)]);
        assert_eq!(list_size_ref(&Ok(list.clone()), "size", "list_size"), Ok(2));
        assert_eq!(list_size(Ok(list), "size", "list_size"), Ok(2));
        assert!(list_size(Ok(Val::Int(1)), "size", "list_size").is_err());
    }
}
