//! Function declarations: every overload of the libraries of the Kubernetes CEL
//! environment, with cel-go's overload ids, in cel-go's order.
//!
//! Sources: cel-go `common/stdlib/standard.go` (standard library), `cel/library.go`
//! (optional types), `ext/strings.go`, `ext/sets.go`, `ext/lists.go`,
//! `ext/comprehensions.go`; Kubernetes `k8s.io/apiserver/pkg/cel/library`
//! (`urls.go`, `regex.go`, `lists.go`, `authz.go`, `quantity.go`, `ip.go`, `cidr.go`,
//! `format.go`, `semverlib.go`) and `pkg/cel/environment/base.go` (which libraries,
//! which versions, in which order).
//!
//! The order matters: functions declared by several libraries (`indexOf`, `string`,
//! `ip`, `isGreaterThan`, `_[_]`, ...) get their overloads merged in the order the
//! libraries are added, and the checker tries overloads in that order (the first
//! match decides the result type; all matches are recorded in the reference).

use std::collections::HashMap;

use crate::cel::types::Type;

/// One overload of a function (cel-go's `decls.OverloadDecl`).
#[derive(Clone, Debug, PartialEq)]
pub struct OverloadDecl {
    /// cel-go's overload id, e.g. `add_int64`, `string_index_of_string`.
    pub id: String,
    /// Receiver-style (`target.f(args)`): the first of `args` is the receiver.
    pub member: bool,
    pub args: Vec<Type>,
    pub result: Type,
    /// Names of the type parameters used in the signature (result first, then
    /// arguments, in order of appearance).
    pub type_params: Vec<String>,
}

impl OverloadDecl {
    /// A global overload `f(args) -> result`.
    pub fn global(id: &str, args: Vec<Type>, result: Type) -> OverloadDecl {
        OverloadDecl::new(id, false, args, result)
    }

    /// A receiver-style overload `args[0].f(args[1..]) -> result`.
    pub fn member(id: &str, args: Vec<Type>, result: Type) -> OverloadDecl {
        OverloadDecl::new(id, true, args, result)
    }

    fn new(id: &str, member: bool, args: Vec<Type>, result: Type) -> OverloadDecl {
        let mut type_params = Vec::new();
        collect_params(&result, &mut type_params);
        for a in &args {
            collect_params(a, &mut type_params);
        }
        OverloadDecl {
            id: id.to_string(),
            member,
            args,
            result,
            type_params,
        }
    }
}

fn collect_params(t: &Type, out: &mut Vec<String>) {
    if let Type::TypeParam(n) = t {
        if !out.contains(n) {
            out.push(n.clone());
        }
        return;
    }
    for p in t.params() {
        collect_params(p, out);
    }
}

/// A function and its overloads (cel-go's `decls.FunctionDecl`).
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    pub name: String,
    pub overloads: Vec<OverloadDecl>,
}

/// Function declarations by name.
#[derive(Clone, Debug, Default)]
pub struct FunctionSet {
    functions: HashMap<String, FunctionDecl>,
}

impl FunctionSet {
    /// The declaration of a function.
    pub fn get(&self, name: &str) -> Option<&FunctionDecl> {
        self.functions.get(name)
    }

    /// All declarations (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = &FunctionDecl> {
        self.functions.values()
    }

    /// Adds overloads to a function, after the ones it has (cel-go's `Merge`): an
    /// overload whose id is already declared is kept as it was.
    pub fn add(&mut self, name: &str, overloads: Vec<OverloadDecl>) {
        let f = self.functions.entry(name.to_string()).or_insert_with(|| FunctionDecl {
            name: name.to_string(),
            overloads: Vec::new(),
        });
        for o in overloads {
            if !f.overloads.iter().any(|e| e.id == o.id) {
                f.overloads.push(o);
            }
        }
    }
}

/// The files of cel-spec's conformance tests (`simple` tests, `../shared/cel-spec`)
/// for the features [`Libraries::kubernetes`] has; the conformance tests of the
/// checker, the interpreter and the code generator run these.
pub const KUBERNETES_CONFORMANCE_FILES: &[&str] = &[
    "basic",
    "comparisons",
    "conversions",
    "fields",
    "fp_math",
    "integer_math",
    "lists",
    "logic",
    "macros",
    "macros2",
    "namespace",
    "optionals",
    "parse",
    "plumbing",
    "string",
    "string_ext",
    "timestamps",
    "network_ext",
];

/// The Kubernetes release whose API server the checks follow.
pub const KUBERNETES_VERSION: (u32, u32) = (1, 37);

/// Its compatibility version (`DefaultCompatibilityVersion`, one minor release
/// back): the libraries rules new in a CRD may use.
pub const COMPATIBILITY_VERSION: (u32, u32) = (KUBERNETES_VERSION.0, KUBERNETES_VERSION.1 - 1);

/// The API server's two CEL environments (`environment.EnvSet`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expressions {
    /// `StoredExpressions`: every library not removed, for rules a CRD already
    /// holds (and for running them on objects).
    Stored,
    /// `NewExpressions`: the libraries of [`COMPATIBILITY_VERSION`], for rules a CRD
    /// create or update adds or changes.
    New,
}

/// Which libraries an environment has, and their versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Libraries {
    /// cel-go's `OptionalTypes()` (all versions: `first`, `last`, `optional.unwrap`,
    /// `unwrapOpt`, `optFlatMap`).
    pub optional: bool,
    /// `ext.Strings(StringsVersion(n))`.
    pub strings: Option<u32>,
    /// `ext.Sets()`.
    pub sets: bool,
    /// `ext.Lists(ListsVersion(n))`.
    pub lists: Option<u32>,
    /// `ext.TwoVarComprehensions()` (its `cel.@mapInsert` helper).
    pub two_var_comprehensions: bool,
    /// Kubernetes `library.Lists(ListsVersion(n))`.
    pub k8s_lists: Option<u32>,
    /// The other Kubernetes libraries: URLs, Regex, Authz, Quantity, IP, CIDR,
    /// Format, AuthzSelectors, Semver (version 1).
    pub k8s: bool,
}

impl Libraries {
    /// The libraries of the Kubernetes `StoredExpressions` environment (every
    /// library in `base.go` that has not been removed): ext.Strings v2, ext.Sets,
    /// ext.Lists v3, two-variable comprehensions, optionals, Kubernetes Lists v1 and
    /// all other Kubernetes libraries.
    pub fn kubernetes() -> Libraries {
        Libraries {
            optional: true,
            strings: Some(2),
            sets: true,
            lists: Some(3),
            two_var_comprehensions: true,
            k8s_lists: Some(1),
            k8s: true,
        }
    }

    /// The libraries of an environment of the API server.
    pub fn of(expressions: Expressions) -> Libraries {
        match expressions {
            Expressions::Stored => Libraries::kubernetes(),
            // Kubernetes Lists v1 (`includes`) came in 1.37.
            Expressions::New => Libraries {
                k8s_lists: Some(if COMPATIBILITY_VERSION >= (1, 37) { 1 } else { 0 }),
                ..Libraries::kubernetes()
            },
        }
    }

    /// cel-go's standard library only.
    pub fn standard() -> Libraries {
        Libraries {
            optional: false,
            strings: None,
            sets: false,
            lists: None,
            two_var_comprehensions: false,
            k8s_lists: None,
            k8s: false,
        }
    }

    /// The declarations of these libraries, in the order Kubernetes adds them.
    pub fn functions(&self) -> FunctionSet {
        let mut set = FunctionSet::default();
        standard(&mut set);
        if self.k8s {
            k8s_urls(&mut set);
            k8s_regex(&mut set);
            k8s_authz(&mut set);
        }
        if self.optional {
            optional(&mut set);
        }
        if self.k8s {
            k8s_quantity(&mut set);
        }
        if let Some(v) = self.strings {
            ext_strings(&mut set, v);
        }
        if self.sets {
            ext_sets(&mut set);
        }
        if self.k8s {
            k8s_ip(&mut set);
            k8s_cidr(&mut set);
            k8s_format(&mut set);
            k8s_authz_selectors(&mut set);
        }
        if self.two_var_comprehensions {
            two_var_comprehensions(&mut set);
        }
        if self.k8s {
            k8s_semver(&mut set);
        }
        if let Some(v) = self.lists {
            ext_lists(&mut set, v);
        }
        if let Some(v) = self.k8s_lists {
            k8s_lists(&mut set, v);
        }
        set
    }
}

use OverloadDecl as O;

fn a() -> Type {
    Type::param("A")
}
fn b() -> Type {
    Type::param("B")
}
fn list(t: Type) -> Type {
    Type::list(t)
}
fn map(k: Type, v: Type) -> Type {
    Type::map(k, v)
}
fn opt(t: Type) -> Type {
    Type::optional(t)
}

/// cel-go's standard library (`stdlib.Functions()`, without the disabled
/// deprecated spellings `__not_strictly_false__`, `_in_` and `in`).
fn standard(set: &mut FunctionSet) {
    use Type::{Bool, Bytes, Double, Duration, Int, String as Str, Timestamp, Uint};
    set.add("_?_:_", vec![O::global("conditional", vec![Bool, a(), a()], a())]);
    set.add("_&&_", vec![O::global("logical_and", vec![Bool, Bool], Bool)]);
    set.add("_||_", vec![O::global("logical_or", vec![Bool, Bool], Bool)]);
    set.add("!_", vec![O::global("logical_not", vec![Bool], Bool)]);
    set.add(
        "@not_strictly_false",
        vec![O::global("not_strictly_false", vec![Bool], Bool)],
    );
    set.add("_==_", vec![O::global("equals", vec![a(), a()], Bool)]);
    set.add("_!=_", vec![O::global("not_equals", vec![a(), a()], Bool)]);
    set.add(
        "_+_",
        vec![
            O::global("add_bytes", vec![Bytes, Bytes], Bytes),
            O::global("add_double", vec![Double, Double], Double),
            O::global("add_duration_duration", vec![Duration, Duration], Duration),
            O::global("add_duration_timestamp", vec![Duration, Timestamp], Timestamp),
            O::global("add_timestamp_duration", vec![Timestamp, Duration], Timestamp),
            O::global("add_int64", vec![Int, Int], Int),
            O::global("add_list", vec![list(a()), list(a())], list(a())),
            O::global("add_string", vec![Str, Str], Str),
            O::global("add_uint64", vec![Uint, Uint], Uint),
        ],
    );
    set.add(
        "_/_",
        vec![
            O::global("divide_double", vec![Double, Double], Double),
            O::global("divide_int64", vec![Int, Int], Int),
            O::global("divide_uint64", vec![Uint, Uint], Uint),
        ],
    );
    set.add(
        "_%_",
        vec![
            O::global("modulo_int64", vec![Int, Int], Int),
            O::global("modulo_uint64", vec![Uint, Uint], Uint),
        ],
    );
    set.add(
        "_*_",
        vec![
            O::global("multiply_double", vec![Double, Double], Double),
            O::global("multiply_int64", vec![Int, Int], Int),
            O::global("multiply_uint64", vec![Uint, Uint], Uint),
        ],
    );
    set.add(
        "-_",
        vec![
            O::global("negate_double", vec![Double], Double),
            O::global("negate_int64", vec![Int], Int),
        ],
    );
    set.add(
        "_-_",
        vec![
            O::global("subtract_double", vec![Double, Double], Double),
            O::global("subtract_duration_duration", vec![Duration, Duration], Duration),
            O::global("subtract_int64", vec![Int, Int], Int),
            O::global("subtract_timestamp_duration", vec![Timestamp, Duration], Timestamp),
            O::global("subtract_timestamp_timestamp", vec![Timestamp, Timestamp], Duration),
            O::global("subtract_uint64", vec![Uint, Uint], Uint),
        ],
    );
    for (op, prefix) in [
        ("_<_", "less"),
        ("_<=_", "less_equals"),
        ("_>_", "greater"),
        ("_>=_", "greater_equals"),
    ] {
        let o = |suffix: &str, l: Type, r: Type| O::global(&format!("{prefix}_{suffix}"), vec![l, r], Bool);
        set.add(
            op,
            vec![
                o("bool", Bool, Bool),
                o("int64", Int, Int),
                o("int64_double", Int, Double),
                o("int64_uint64", Int, Uint),
                o("uint64", Uint, Uint),
                o("uint64_double", Uint, Double),
                o("uint64_int64", Uint, Int),
                o("double", Double, Double),
                o("double_int64", Double, Int),
                o("double_uint64", Double, Uint),
                o("string", Str, Str),
                o("bytes", Bytes, Bytes),
                o("timestamp", Timestamp, Timestamp),
                o("duration", Duration, Duration),
            ],
        );
    }
    set.add(
        "_[_]",
        vec![
            O::global("index_list", vec![list(a()), Int], a()),
            O::global("index_map", vec![map(a(), b()), a()], b()),
        ],
    );
    set.add(
        "@in",
        vec![
            O::global("in_list", vec![a(), list(a())], Bool),
            O::global("in_map", vec![a(), map(a(), b())], Bool),
        ],
    );
    set.add(
        "size",
        vec![
            O::global("size_bytes", vec![Bytes], Int),
            O::member("bytes_size", vec![Bytes], Int),
            O::global("size_list", vec![list(a())], Int),
            O::member("list_size", vec![list(a())], Int),
            O::global("size_map", vec![map(a(), b())], Int),
            O::member("map_size", vec![map(a(), b())], Int),
            O::global("size_string", vec![Str], Int),
            O::member("string_size", vec![Str], Int),
        ],
    );
    set.add("type", vec![O::global("type", vec![a()], Type::type_of(a()))]);
    set.add(
        "bool",
        vec![
            O::global("bool_to_bool", vec![Bool], Bool),
            O::global("string_to_bool", vec![Str], Bool),
        ],
    );
    set.add(
        "bytes",
        vec![
            O::global("bytes_to_bytes", vec![Bytes], Bytes),
            O::global("string_to_bytes", vec![Str], Bytes),
        ],
    );
    set.add(
        "double",
        vec![
            O::global("double_to_double", vec![Double], Double),
            O::global("int64_to_double", vec![Int], Double),
            O::global("string_to_double", vec![Str], Double),
            O::global("uint64_to_double", vec![Uint], Double),
        ],
    );
    set.add(
        "duration",
        vec![
            O::global("duration_to_duration", vec![Duration], Duration),
            O::global("string_to_duration", vec![Str], Duration),
        ],
    );
    set.add("dyn", vec![O::global("to_dyn", vec![a()], Type::Dyn)]);
    set.add(
        "int",
        vec![
            O::global("int64_to_int64", vec![Int], Int),
            O::global("double_to_int64", vec![Double], Int),
            O::global("duration_to_int64", vec![Duration], Int),
            O::global("string_to_int64", vec![Str], Int),
            O::global("timestamp_to_int64", vec![Timestamp], Int),
            O::global("uint64_to_int64", vec![Uint], Int),
        ],
    );
    set.add(
        "string",
        vec![
            O::global("string_to_string", vec![Str], Str),
            O::global("bool_to_string", vec![Bool], Str),
            O::global("bytes_to_string", vec![Bytes], Str),
            O::global("double_to_string", vec![Double], Str),
            O::global("duration_to_string", vec![Duration], Str),
            O::global("int64_to_string", vec![Int], Str),
            O::global("timestamp_to_string", vec![Timestamp], Str),
            O::global("uint64_to_string", vec![Uint], Str),
        ],
    );
    set.add(
        "timestamp",
        vec![
            O::global("timestamp_to_timestamp", vec![Timestamp], Timestamp),
            O::global("int64_to_timestamp", vec![Int], Timestamp),
            O::global("string_to_timestamp", vec![Str], Timestamp),
        ],
    );
    set.add(
        "uint",
        vec![
            O::global("uint64_to_uint64", vec![Uint], Uint),
            O::global("double_to_uint64", vec![Double], Uint),
            O::global("int64_to_uint64", vec![Int], Uint),
            O::global("string_to_uint64", vec![Str], Uint),
        ],
    );
    set.add("contains", vec![O::member("contains_string", vec![Str, Str], Bool)]);
    set.add("endsWith", vec![O::member("ends_with_string", vec![Str, Str], Bool)]);
    set.add(
        "startsWith",
        vec![O::member("starts_with_string", vec![Str, Str], Bool)],
    );
    set.add(
        "matches",
        vec![
            O::global("matches", vec![Str, Str], Bool),
            O::member("matches_string", vec![Str, Str], Bool),
        ],
    );
    let ts = |name: &str, id: &str, tz_id: &str, duration_id: Option<&str>, set: &mut FunctionSet| {
        let mut overloads = vec![
            O::member(id, vec![Timestamp], Int),
            O::member(tz_id, vec![Timestamp, Str], Int),
        ];
        if let Some(d) = duration_id {
            overloads.push(O::member(d, vec![Duration], Int));
        }
        set.add(name, overloads);
    };
    ts(
        "getFullYear",
        "timestamp_to_year",
        "timestamp_to_year_with_tz",
        None,
        set,
    );
    ts(
        "getMonth",
        "timestamp_to_month",
        "timestamp_to_month_with_tz",
        None,
        set,
    );
    ts(
        "getDayOfYear",
        "timestamp_to_day_of_year",
        "timestamp_to_day_of_year_with_tz",
        None,
        set,
    );
    ts(
        "getDayOfMonth",
        "timestamp_to_day_of_month",
        "timestamp_to_day_of_month_with_tz",
        None,
        set,
    );
    ts(
        "getDate",
        "timestamp_to_day_of_month_1_based",
        "timestamp_to_day_of_month_1_based_with_tz",
        None,
        set,
    );
    ts(
        "getDayOfWeek",
        "timestamp_to_day_of_week",
        "timestamp_to_day_of_week_with_tz",
        None,
        set,
    );
    ts(
        "getHours",
        "timestamp_to_hours",
        "timestamp_to_hours_with_tz",
        Some("duration_to_hours"),
        set,
    );
    ts(
        "getMinutes",
        "timestamp_to_minutes",
        "timestamp_to_minutes_with_tz",
        Some("duration_to_minutes"),
        set,
    );
    ts(
        "getSeconds",
        "timestamp_to_seconds",
        "timestamp_to_seconds_tz",
        Some("duration_to_seconds"),
        set,
    );
    ts(
        "getMilliseconds",
        "timestamp_to_milliseconds",
        "timestamp_to_milliseconds_with_tz",
        Some("duration_to_milliseconds"),
        set,
    );
}

/// cel-go's `OptionalTypes()` (latest version).
fn optional(set: &mut FunctionSet) {
    let k = || Type::param("K");
    let v = || Type::param("V");
    set.add("optional.of", vec![O::global("optional_of", vec![v()], opt(v()))]);
    set.add(
        "optional.ofNonZeroValue",
        vec![O::global("optional_ofNonZeroValue", vec![v()], opt(v()))],
    );
    set.add("optional.none", vec![O::global("optional_none", vec![], opt(v()))]);
    set.add("value", vec![O::member("optional_value", vec![opt(v())], v())]);
    set.add(
        "hasValue",
        vec![O::member("optional_hasValue", vec![opt(v())], Type::Bool)],
    );
    set.add(
        "or",
        vec![O::member("optional_or_optional", vec![opt(v()), opt(v())], opt(v()))],
    );
    set.add(
        "orValue",
        vec![O::member("optional_orValue_value", vec![opt(v()), v()], v())],
    );
    set.add(
        "_?._",
        vec![O::global(
            "select_optional_field",
            vec![Type::Dyn, Type::String],
            opt(v()),
        )],
    );
    set.add(
        "_[?_]",
        vec![
            O::global("list_optindex_optional_int", vec![list(v()), Type::Int], opt(v())),
            O::global(
                "optional_list_optindex_optional_int",
                vec![opt(list(v())), Type::Int],
                opt(v()),
            ),
            O::global("map_optindex_optional_value", vec![map(k(), v()), k()], opt(v())),
            O::global(
                "optional_map_optindex_optional_value",
                vec![opt(map(k(), v())), k()],
                opt(v()),
            ),
        ],
    );
    set.add(
        "_[_]",
        vec![
            O::global("optional_list_index_int", vec![opt(list(v())), Type::Int], opt(v())),
            O::global("optional_map_index_value", vec![opt(map(k(), v())), k()], opt(v())),
        ],
    );
    set.add("last", vec![O::member("list_last", vec![list(v())], opt(v()))]);
    set.add("first", vec![O::member("list_first", vec![list(v())], opt(v()))]);
    set.add(
        "optional.unwrap",
        vec![O::global("optional_unwrap", vec![list(opt(v()))], list(v()))],
    );
    set.add(
        "unwrapOpt",
        vec![O::member("optional_unwrapOpt", vec![list(opt(v()))], list(v()))],
    );
}

/// cel-go `ext.Strings(StringsVersion(version))`.
fn ext_strings(set: &mut FunctionSet, version: u32) {
    use Type::{Int, String as Str};
    set.add("charAt", vec![O::member("string_char_at_int", vec![Str, Int], Str)]);
    set.add(
        "indexOf",
        vec![
            O::member("string_index_of_string", vec![Str, Str], Int),
            O::member("string_index_of_string_int", vec![Str, Str, Int], Int),
        ],
    );
    set.add(
        "lastIndexOf",
        vec![
            O::member("string_last_index_of_string", vec![Str, Str], Int),
            O::member("string_last_index_of_string_int", vec![Str, Str, Int], Int),
        ],
    );
    set.add("lowerAscii", vec![O::member("string_lower_ascii", vec![Str], Str)]);
    set.add(
        "replace",
        vec![
            O::member("string_replace_string_string", vec![Str, Str, Str], Str),
            O::member("string_replace_string_string_int", vec![Str, Str, Str, Int], Str),
        ],
    );
    set.add(
        "split",
        vec![
            O::member("string_split_string", vec![Str, Str], list(Str)),
            O::member("string_split_string_int", vec![Str, Str, Int], list(Str)),
        ],
    );
    set.add(
        "substring",
        vec![
            O::member("string_substring_int", vec![Str, Int], Str),
            O::member("string_substring_int_int", vec![Str, Int, Int], Str),
        ],
    );
    set.add("trim", vec![O::member("string_trim", vec![Str], Str)]);
    set.add("upperAscii", vec![O::member("string_upper_ascii", vec![Str], Str)]);
    if version >= 1 {
        set.add(
            "format",
            vec![O::member("string_format", vec![Str, list(Type::Dyn)], Str)],
        );
        set.add("strings.quote", vec![O::global("strings_quote", vec![Str], Str)]);
    }
    if version >= 2 {
        set.add(
            "join",
            vec![
                O::member("list_join", vec![list(Str)], Str),
                O::member("list_join_string", vec![list(Str), Str], Str),
            ],
        );
    }
    if version >= 3 {
        set.add("reverse", vec![O::member("string_reverse", vec![Str], Str)]);
    }
}

/// cel-go `ext.Sets()`.
fn ext_sets(set: &mut FunctionSet) {
    let l = || list(Type::param("T"));
    for (name, id) in [
        ("sets.contains", "list_sets_contains_list"),
        ("sets.equivalent", "list_sets_equivalent_list"),
        ("sets.intersects", "list_sets_intersects_list"),
    ] {
        set.add(name, vec![O::global(id, vec![l(), l()], Type::Bool)]);
    }
}

/// The element types `sort` and `@sortByAssociatedKeys` accept (cel-go
/// `ext/lists.go` `comparableTypes`), with their names.
pub(crate) fn comparable_types() -> [Type; 8] {
    [
        Type::Int,
        Type::Uint,
        Type::Double,
        Type::Bool,
        Type::Duration,
        Type::Timestamp,
        Type::String,
        Type::Bytes,
    ]
}

/// cel-go `ext.Lists(ListsVersion(version))`.
fn ext_lists(set: &mut FunctionSet, version: u32) {
    let t = || Type::param("T");
    set.add(
        "slice",
        vec![O::member(
            "list_slice",
            vec![list(t()), Type::Int, Type::Int],
            list(t()),
        )],
    );
    if version >= 1 {
        set.add(
            "flatten",
            vec![
                O::member("list_flatten", vec![list(list(t()))], list(t())),
                O::member("list_flatten_int", vec![list(Type::Dyn), Type::Int], list(Type::Dyn)),
            ],
        );
    }
    if version >= 2 {
        set.add(
            "sort",
            comparable_types()
                .into_iter()
                .map(|c| O::member(&format!("list_{}_sort", c.type_name()), vec![list(c.clone())], list(c)))
                .collect(),
        );
        set.add(
            "@sortByAssociatedKeys",
            comparable_types()
                .into_iter()
                .map(|u| {
                    O::member(
                        &format!("list_{}_sortByAssociatedKeys", u.type_name()),
                        vec![list(t()), list(u)],
                        list(t()),
                    )
                })
                .collect(),
        );
        set.add(
            "lists.range",
            vec![O::global("lists_range", vec![Type::Int], list(Type::Int))],
        );
        set.add("reverse", vec![O::member("list_reverse", vec![list(t())], list(t()))]);
        set.add("distinct", vec![O::member("list_distinct", vec![list(t())], list(t()))]);
    }
}

/// cel-go `ext.TwoVarComprehensions()`: the map insertion helper of the
/// `transformMap` / `transformMapEntry` macros.
fn two_var_comprehensions(set: &mut FunctionSet) {
    let (k, v) = (Type::param("K"), Type::param("V"));
    let m = map(k.clone(), v.clone());
    set.add(
        "cel.@mapInsert",
        vec![
            O::global("@mapInsert_map_key_value", vec![m.clone(), k, v], m.clone()),
            O::global("@mapInsert_map_map", vec![m.clone(), m.clone()], m),
        ],
    );
}

/// The Kubernetes object types of the libraries.
pub mod k8s_types {
    use crate::cel::types::Type;

    pub fn quantity() -> Type {
        Type::object("kubernetes.Quantity")
    }
    pub fn url() -> Type {
        Type::object("kubernetes.URL")
    }
    pub fn semver() -> Type {
        Type::object("kubernetes.Semver")
    }
    pub fn format() -> Type {
        Type::object("kubernetes.NamedFormat")
    }
    pub fn ip() -> Type {
        Type::opaque("net.IP")
    }
    pub fn cidr() -> Type {
        Type::opaque("net.CIDR")
    }
    pub fn authorizer() -> Type {
        Type::object("kubernetes.authorization.Authorizer")
    }
    pub fn path_check() -> Type {
        Type::object("kubernetes.authorization.PathCheck")
    }
    pub fn group_check() -> Type {
        Type::object("kubernetes.authorization.GroupCheck")
    }
    pub fn resource_check() -> Type {
        Type::object("kubernetes.authorization.ResourceCheck")
    }
    pub fn decision() -> Type {
        Type::object("kubernetes.authorization.Decision")
    }
}

use k8s_types as kt;

fn k8s_urls(set: &mut FunctionSet) {
    use Type::{Bool, String as Str};
    set.add("url", vec![O::global("string_to_url", vec![Str], kt::url())]);
    for (name, id) in [
        ("getScheme", "url_get_scheme"),
        ("getHost", "url_get_host"),
        ("getHostname", "url_get_hostname"),
        ("getPort", "url_get_port"),
        ("getEscapedPath", "url_get_escaped_path"),
    ] {
        set.add(name, vec![O::member(id, vec![kt::url()], Str)]);
    }
    set.add(
        "getQuery",
        vec![O::member("url_get_query", vec![kt::url()], map(Str, list(Str)))],
    );
    set.add("isURL", vec![O::global("is_url_string", vec![Str], Bool)]);
}

fn k8s_regex(set: &mut FunctionSet) {
    use Type::{Int, String as Str};
    set.add("find", vec![O::member("string_find_string", vec![Str, Str], Str)]);
    set.add(
        "findAll",
        vec![
            O::member("string_find_all_string", vec![Str, Str], list(Str)),
            O::member("string_find_all_string_int", vec![Str, Str, Int], list(Str)),
        ],
    );
}

fn k8s_authz(set: &mut FunctionSet) {
    use Type::{Bool, String as Str};
    set.add(
        "path",
        vec![O::member(
            "authorizer_path",
            vec![kt::authorizer(), Str],
            kt::path_check(),
        )],
    );
    set.add(
        "group",
        vec![O::member(
            "authorizer_group",
            vec![kt::authorizer(), Str],
            kt::group_check(),
        )],
    );
    set.add(
        "serviceAccount",
        vec![O::member(
            "authorizer_serviceaccount",
            vec![kt::authorizer(), Str, Str],
            kt::authorizer(),
        )],
    );
    set.add(
        "resource",
        vec![O::member(
            "groupcheck_resource",
            vec![kt::group_check(), Str],
            kt::resource_check(),
        )],
    );
    for (name, id) in [
        ("subresource", "resourcecheck_subresource"),
        ("namespace", "resourcecheck_namespace"),
        ("name", "resourcecheck_name"),
    ] {
        set.add(
            name,
            vec![O::member(id, vec![kt::resource_check(), Str], kt::resource_check())],
        );
    }
    set.add(
        "check",
        vec![
            O::member("pathcheck_check", vec![kt::path_check(), Str], kt::decision()),
            O::member("resourcecheck_check", vec![kt::resource_check(), Str], kt::decision()),
        ],
    );
    set.add(
        "errored",
        vec![O::member("decision_errored", vec![kt::decision()], Bool)],
    );
    set.add("error", vec![O::member("decision_error", vec![kt::decision()], Str)]);
    set.add(
        "allowed",
        vec![O::member("decision_allowed", vec![kt::decision()], Bool)],
    );
    set.add("reason", vec![O::member("decision_reason", vec![kt::decision()], Str)]);
}

fn k8s_authz_selectors(set: &mut FunctionSet) {
    set.add(
        "fieldSelector",
        vec![O::member(
            "authorizer_fieldselector",
            vec![kt::resource_check(), Type::String],
            kt::resource_check(),
        )],
    );
    set.add(
        "labelSelector",
        vec![O::member(
            "authorizer_labelselector",
            vec![kt::resource_check(), Type::String],
            kt::resource_check(),
        )],
    );
}

fn k8s_quantity(set: &mut FunctionSet) {
    use Type::{Bool, Double, Int, String as Str};
    let q = kt::quantity;
    set.add("quantity", vec![O::global("string_to_quantity", vec![Str], q())]);
    set.add("isQuantity", vec![O::global("is_quantity_string", vec![Str], Bool)]);
    // Declared global (not receiver-style) by Kubernetes: `sign(quantity("1"))`.
    set.add("sign", vec![O::global("quantity_sign", vec![q()], Int)]);
    set.add(
        "isGreaterThan",
        vec![O::member("quantity_is_greater_than", vec![q(), q()], Bool)],
    );
    set.add(
        "isLessThan",
        vec![O::member("quantity_is_less_than", vec![q(), q()], Bool)],
    );
    set.add("compareTo", vec![O::member("quantity_compare_to", vec![q(), q()], Int)]);
    set.add(
        "asApproximateFloat",
        vec![O::member("quantity_get_float", vec![q()], Double)],
    );
    set.add("asInteger", vec![O::member("quantity_get_int", vec![q()], Int)]);
    set.add("isInteger", vec![O::member("quantity_is_integer", vec![q()], Bool)]);
    set.add(
        "add",
        vec![
            O::member("quantity_add", vec![q(), q()], q()),
            O::member("quantity_add_int", vec![q(), Int], q()),
        ],
    );
    set.add(
        "sub",
        vec![
            O::member("quantity_sub", vec![q(), q()], q()),
            O::member("quantity_sub_int", vec![q(), Int], q()),
        ],
    );
}

fn k8s_ip(set: &mut FunctionSet) {
    use Type::{Bool, Int, String as Str};
    set.add("ip", vec![O::global("string_to_ip", vec![Str], kt::ip())]);
    set.add("family", vec![O::member("ip_family", vec![kt::ip()], Int)]);
    set.add("ip.isCanonical", vec![O::global("ip_is_canonical", vec![Str], Bool)]);
    for (name, id) in [
        ("isUnspecified", "ip_is_unspecified"),
        ("isLoopback", "ip_is_loopback"),
        ("isLinkLocalMulticast", "ip_is_link_local_multicast"),
        ("isLinkLocalUnicast", "ip_is_link_local_unicast"),
        ("isGlobalUnicast", "ip_is_global_unicast"),
    ] {
        set.add(name, vec![O::member(id, vec![kt::ip()], Bool)]);
    }
    set.add("isIP", vec![O::global("is_ip", vec![Str], Bool)]);
    set.add("string", vec![O::global("ip_to_string", vec![kt::ip()], Str)]);
}

fn k8s_cidr(set: &mut FunctionSet) {
    use Type::{Bool, Int, String as Str};
    set.add("cidr", vec![O::global("string_to_cidr", vec![Str], kt::cidr())]);
    set.add(
        "containsIP",
        vec![
            O::member("cidr_contains_ip_string", vec![kt::cidr(), Str], Bool),
            O::member("cidr_contains_ip_ip", vec![kt::cidr(), kt::ip()], Bool),
        ],
    );
    set.add(
        "containsCIDR",
        vec![
            O::member("cidr_contains_cidr_string", vec![kt::cidr(), Str], Bool),
            O::member("cidr_contains_cidr", vec![kt::cidr(), kt::cidr()], Bool),
        ],
    );
    set.add("ip", vec![O::member("cidr_ip", vec![kt::cidr()], kt::ip())]);
    set.add(
        "prefixLength",
        vec![O::member("cidr_prefix_length", vec![kt::cidr()], Int)],
    );
    set.add("masked", vec![O::member("cidr_masked", vec![kt::cidr()], kt::cidr())]);
    set.add("isCIDR", vec![O::global("is_cidr", vec![Str], Bool)]);
    set.add("string", vec![O::global("cidr_to_string", vec![kt::cidr()], Str)]);
}

/// The named formats of the Kubernetes Format library (`format.<name>()`).
pub const K8S_FORMAT_NAMES: [&str; 13] = [
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

fn k8s_format(set: &mut FunctionSet) {
    set.add(
        "validate",
        vec![O::member(
            "format-validate",
            vec![kt::format(), Type::String],
            opt(list(Type::String)),
        )],
    );
    set.add(
        "format.named",
        vec![O::global("format-named", vec![Type::String], opt(kt::format()))],
    );
    for name in K8S_FORMAT_NAMES {
        let full = format!("format.{name}");
        set.add(&full, vec![O::global(&full, vec![], kt::format())]);
    }
}

fn k8s_semver(set: &mut FunctionSet) {
    use Type::{Bool, Int, String as Str};
    let s = kt::semver;
    set.add(
        "semver",
        vec![
            O::global("string_to_semver", vec![Str], s()),
            O::global("string_bool_to_semver", vec![Str, Bool], s()),
        ],
    );
    set.add(
        "isSemver",
        vec![
            O::global("is_semver_string", vec![Str], Bool),
            O::global("is_semver_string_bool", vec![Str, Bool], Bool),
        ],
    );
    set.add(
        "isGreaterThan",
        vec![O::member("semver_is_greater_than", vec![s(), s()], Bool)],
    );
    set.add(
        "isLessThan",
        vec![O::member("semver_is_less_than", vec![s(), s()], Bool)],
    );
    set.add("compareTo", vec![O::member("semver_compare_to", vec![s(), s()], Int)]);
    set.add("major", vec![O::member("semver_major", vec![s()], Int)]);
    set.add("minor", vec![O::member("semver_minor", vec![s()], Int)]);
    set.add("patch", vec![O::member("semver_patch", vec![s()], Int)]);
}

/// Kubernetes `library.Lists(ListsVersion(version))`.
fn k8s_lists(set: &mut FunctionSet, version: u32) {
    let comparable = comparable_types();
    set.add(
        "isSorted",
        comparable
            .iter()
            .map(|t| {
                O::member(
                    &format!("list_{}_is_sorted_bool", t.type_name_short()),
                    vec![list(t.clone())],
                    Type::Bool,
                )
            })
            .collect(),
    );
    set.add(
        "sum",
        [Type::Int, Type::Uint, Type::Double, Type::Duration]
            .iter()
            .map(|t| {
                let n = t.type_name_short();
                O::member(&format!("list_{n}_sum_{n}"), vec![list(t.clone())], t.clone())
            })
            .collect(),
    );
    for f in ["max", "min"] {
        set.add(
            f,
            comparable
                .iter()
                .map(|t| {
                    let n = t.type_name_short();
                    O::member(&format!("list_{n}_{f}_{n}"), vec![list(t.clone())], t.clone())
                })
                .collect(),
        );
    }
    set.add(
        "indexOf",
        vec![O::member("list_a_index_of_int", vec![list(a()), a()], Type::Int)],
    );
    set.add(
        "lastIndexOf",
        vec![O::member("list_a_last_index_of_int", vec![list(a()), a()], Type::Int)],
    );
    if version >= 1 {
        set.add(
            "includes",
            vec![O::member(
                "list_includes_dyn_dyn",
                vec![Type::Dyn, Type::Dyn],
                Type::Bool,
            )],
        );
    }
}

impl Type {
    /// The short names Kubernetes uses in overload ids (`duration`, `timestamp`).
    fn type_name_short(&self) -> &str {
        match self {
            Type::Duration => "duration",
            Type::Timestamp => "timestamp",
            other => other.type_name(),
        }
    }
}
