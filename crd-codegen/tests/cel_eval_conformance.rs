//! The interpreter against the CEL conformance suite (`shared/cel-spec`, cel-spec's
//! "simple" tests as JSON): every test of the files for libraries Kubernetes has is
//! parsed, checked in the Kubernetes environment (with the test's declarations and
//! container), planned and evaluated with the test's bindings, and the result is
//! compared with the expected value or error.
//!
//! Skipped, and counted per reason: tests that need protobuf messages (Kubernetes
//! exposes objects as schema-typed maps), tests that run without type checking
//! (Kubernetes always checks), check-only tests, and the tests whose expectation is
//! not what the Kubernetes environment gives (listed in [`NOT_KUBERNETES`] with the
//! reason). Every other test must pass.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crd_codegen::cel::check::{Env, Libraries, OverloadDecl, check};
use crd_codegen::cel::eval::interp::Activation;
use crd_codegen::cel::eval::{Program, evaluate_with};
use crd_codegen::cel::parse;
use crd_codegen::cel::types::Type;
use crd_runtime::cel::{List, Map, Val};
use serde_json::Value;

fn spec_dir() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/cel-spec"));
    p.is_dir().then_some(p)
}

/// Tests whose expectation differs from what the Kubernetes environment (cel-go
/// with Kubernetes' library versions) gives, with the reason.
const NOT_KUBERNETES: &[(&str, &str)] = &[
    // cel-go's own conformance run skips these (conformance/BUILD.bazel).
    (
        "fields/qualified_identifier_resolution/map_key_float",
        "cel-go known failure",
    ),
    (
        "fields/qualified_identifier_resolution/map_key_null",
        "cel-go known failure",
    ),
    (
        "fields/qualified_identifier_resolution/map_value_repeat_key",
        "cel-go known failure",
    ),
    (
        "fields/qualified_identifier_resolution/map_value_repeat_key_heterogeneous",
        "cel-go known failure",
    ),
    (
        "timestamps/duration_converters/get_milliseconds",
        "cel-go known failure",
    ),
    ("optionals/optionals/map_optional_select_has", "cel-go known failure"),
    ("string_ext/value_errors/indexof_out_of_range", "cel-go known failure"),
    (
        "string_ext/value_errors/lastindexof_out_of_range",
        "cel-go known failure",
    ),
    // `reverse` is ext.Strings version 3; Kubernetes has version 2.
    ("string_ext/reverse/*", "ext.Strings v3 (Kubernetes: v2)"),
    // The version-2 formatter differs from the latest one the file is written for.
    (
        "string_ext/format/scientific notation formatting clause",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/scientific notation formatting clause in a string variable",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/default precision for scientific notation",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/dyntype support for scientific notation",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/NaN support for scientific notation",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/positive infinity support for scientific notation",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/negative infinity support for scientific notation",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/default precision for fixed-point clause with int",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/default precision for fixed-point clause with uint",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/default precision for scientific notation with int",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/default precision for scientific notation with uint",
        "ext.Strings v2 format",
    ),
    ("string_ext/format/NaN support for decimal", "ext.Strings v2 format"),
    (
        "string_ext/format/positive infinity support for decimal",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/negative infinity support for decimal",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/positive infinity support for fixed-point",
        "ext.Strings v2 format",
    ),
    (
        "string_ext/format/negative infinity support for fixed-point",
        "ext.Strings v2 format",
    ),
    ("string_ext/format/list support for string", "ext.Strings v2 format"),
    ("string_ext/format/map support for string", "ext.Strings v2 format"),
    ("string_ext/format/map support (all key types)", "ext.Strings v2 format"),
    (
        "string_ext/format/dyntype NaN/infinity support",
        "ext.Strings v2 format",
    ),
    ("string_ext/format/dyntype support for lists", "ext.Strings v2 format"),
    ("string_ext/format/dyntype support for maps", "ext.Strings v2 format"),
    // Kubernetes' IP library refuses IPv4-mapped IPv6 addresses.
    (
        "network_ext/ipv4/ipv4_equals_ipv6",
        "Kubernetes ip() refuses IPv4-mapped IPv6",
    ),
    (
        "network_ext/ipv4/ipv4_not_equals_ipv6",
        "Kubernetes ip() refuses IPv4-mapped IPv6",
    ),
    // cel-go's conformance run enables `EnableErrorOnBadPresenceTest`; Kubernetes
    // does not, so a field test on a value that is not a map is absent, not an error.
    (
        "optionals/optionals/map_null_entry_no_such_key",
        "EnableErrorOnBadPresenceTest",
    ),
    (
        "optionals/optionals/map_present_key_invalid_field",
        "EnableErrorOnBadPresenceTest",
    ),
    // The JSON conversion decoded the textproto escape `\?` of the expected bytes as
    // a backslash and `?`; the expressions give `?` (as in cel-go).
    (
        "parse/bytes_literals/triple_single_quoted_unescaped_punctuation",
        "test data: `\\?` decoded as two bytes",
    ),
    (
        "parse/bytes_literals/triple_double_quoted_unescaped_punctuation",
        "test data: `\\?` decoded as two bytes",
    ),
    // Kubernetes plans with `OptOptimize`: `dyn(b'')` is folded into a constant key,
    // which cel-go refuses when it creates the program (`invalid qualifier type:
    // types.Bytes`), so these expressions never evaluate.
    (
        "fields/map_fields/map_bad_key_type_or_true",
        "OptOptimize: program creation fails",
    ),
    (
        "fields/map_fields/map_bad_key_type_and_false",
        "OptOptimize: program creation fails",
    ),
    // A compile error test (the checker's job, see cel_check_conformance).
    ("network_ext/ip_type/is_ip_cidr_compile_error", "type-check error test"),
];

fn not_kubernetes(name: &str) -> Option<&'static str> {
    NOT_KUBERNETES.iter().find_map(|(pat, reason)| {
        let hit = match pat.strip_suffix("/*") {
            Some(prefix) => name.starts_with(&format!("{prefix}/")),
            None => name == *pat,
        };
        hit.then_some(*reason)
    })
}

/// Whether a test needs protobuf messages (the README's heuristic).
fn needs_protobuf(t: &Value) -> bool {
    let text = t.to_string();
    [
        "TestAllTypes",
        "cel.expr.conformance",
        "google.protobuf",
        "proto2.",
        "proto3.",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// A `cel.expr.Type` in proto3 JSON.
fn ty(v: &Value) -> Type {
    let o = v.as_object().unwrap();
    let (k, x) = o.iter().next().unwrap();
    match k.as_str() {
        "primitive" => primitive(x.as_str().unwrap()),
        "list_type" => Type::list(ty(&x["elem_type"])),
        "map_type" => Type::map(ty(&x["key_type"]), ty(&x["value_type"])),
        "message_type" => match x.as_str().unwrap() {
            "google.protobuf.Duration" => Type::Duration,
            "google.protobuf.Timestamp" => Type::Timestamp,
            "google.protobuf.Any" => Type::Any,
            other => Type::object(other),
        },
        "well_known" => match x.as_str().unwrap() {
            "ANY" => Type::Any,
            "DURATION" => Type::Duration,
            "TIMESTAMP" => Type::Timestamp,
            other => panic!("well-known {other}"),
        },
        "wrapper" => Type::Wrapper(Box::new(primitive(x.as_str().unwrap()))),
        "type_param" => Type::param(x.as_str().unwrap()),
        "abstract_type" => {
            let name = x["name"].as_str().unwrap();
            let params: Vec<Type> = x
                .get("parameter_types")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(ty).collect())
                .unwrap_or_default();
            if name == "optional_type" {
                Type::optional(params.into_iter().next().unwrap())
            } else {
                Type::Opaque(name.to_string(), params)
            }
        }
        "type" => Type::type_of(ty(x)),
        "dyn" => Type::Dyn,
        "error" => Type::Error,
        "null" => Type::Null,
        other => panic!("type {other}"),
    }
}

fn primitive(p: &str) -> Type {
    match p {
        "BOOL" => Type::Bool,
        "INT64" => Type::Int,
        "UINT64" => Type::Uint,
        "DOUBLE" => Type::Double,
        "STRING" => Type::String,
        "BYTES" => Type::Bytes,
        other => panic!("primitive {other}"),
    }
}

/// The environment of a test: Kubernetes' libraries and settings, the test's
/// declarations and container.
fn env_for(test: &Value) -> Env {
    let mut env = Env::new(Libraries::kubernetes());
    env.set_cross_type_numeric_comparisons(true);
    if let Some(c) = test.get("container").and_then(Value::as_str) {
        env.set_container(c);
    }
    for decl in test.get("type_env").and_then(Value::as_array).into_iter().flatten() {
        let name = decl["name"].as_str().unwrap();
        if let Some(ident) = decl.get("ident") {
            env.add_variable(name, ty(&ident["type"]));
        } else {
            let overloads = decl["function"]["overloads"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| {
                    let id = o["overload_id"].as_str().unwrap();
                    let params: Vec<Type> = o["params"].as_array().unwrap().iter().map(ty).collect();
                    let result = ty(&o["result_type"]);
                    if o.get("is_instance_function") == Some(&Value::Bool(true)) {
                        OverloadDecl::member(id, params, result)
                    } else {
                        OverloadDecl::global(id, params, result)
                    }
                })
                .collect();
            env.add_function(name, overloads);
        }
    }
    env
}

/// A `cel.expr.Value` (the README's VALUE encoding) as a CEL value.
fn value(v: &Value) -> Option<Val<'static>> {
    let o = v.as_object()?;
    let (tag, x) = o.iter().next()?;
    Some(match tag.as_str() {
        "null" => Val::Null,
        "bool" => Val::Bool(x.as_bool()?),
        "int64" => Val::Int(x.as_str()?.parse().ok()?),
        "uint64" => Val::Uint(x.as_str()?.parse().ok()?),
        "double" => Val::Double(match x {
            Value::String(s) => match s.as_str() {
                "NaN" => f64::NAN,
                "Infinity" => f64::INFINITY,
                "-Infinity" => f64::NEG_INFINITY,
                _ => return None,
            },
            n => n.as_f64()?,
        }),
        "string" => Val::string(x.as_str()?),
        "bytes" => Val::bytes(base64(x.as_str()?)?),
        "list" => Val::List(List::new(x.as_array()?.iter().map(value).collect::<Option<_>>()?)),
        "map" => {
            let mut entries = Vec::new();
            for e in x.as_array()? {
                entries.push((value(&e["key"])?, value(&e["value"])?));
            }
            Val::Map(Map::from_entries(entries).ok()?)
        }
        "type" => Val::Type(crd_runtime::cel::TypeVal::new(x.as_str()?.to_string())),
        "object" => {
            let t = x["@type"].as_str()?;
            match t.trim_start_matches("type.googleapis.com/") {
                "google.protobuf.Duration" => Val::Duration(crd_runtime::time::duration(x["value"].as_str()?).ok()?),
                "google.protobuf.Timestamp" => Val::Timestamp(crd_runtime::time::timestamp(x["value"].as_str()?).ok()?),
                _ => return None,
            }
        }
        _ => return None,
    })
}

fn base64(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let b: Vec<u8> = s.bytes().filter(|c| *c != b'=').collect();
    let mut out = Vec::new();
    for chunk in b.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= val(*c)? << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    Some(out)
}

/// CEL value equality for test expectations: same types, maps without order,
/// NaN equal to NaN.
fn same(a: &Val<'_>, b: &Val<'_>) -> bool {
    match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Uint(x), Val::Uint(y)) => x == y,
        // The JSON doubles may be 1 ULP off (see the cel-spec README).
        (Val::Double(x), Val::Double(y)) => {
            x == y || (x.is_nan() && y.is_nan()) || x.to_bits().abs_diff(y.to_bits()) <= 1
        }
        (Val::String(x), Val::String(y)) => **x == **y,
        (Val::Bytes(x), Val::Bytes(y)) => **x == **y,
        (Val::Duration(x), Val::Duration(y)) => x == y,
        (Val::Timestamp(x), Val::Timestamp(y)) => x == y,
        (Val::Type(x), Val::Type(y)) => x.name() == y.name(),
        (Val::List(x), Val::List(y)) => {
            x.len() == y.len()
                && x.iter().zip(y.iter()).all(|(p, q)| match (p, q) {
                    (Ok(p), Ok(q)) => same(&p, &q),
                    _ => false,
                })
        }
        (Val::Map(x), Val::Map(y)) => {
            x.len() == y.len()
                && x.keys().iter().all(|k| {
                    let Some(Ok(xv)) = x.find(k) else { return false };
                    y.keys().iter().any(|k2| {
                        same(k, k2)
                            && match y.find(k2) {
                                Some(Ok(yv)) => same(&xv, &yv),
                                _ => false,
                            }
                    })
                })
        }
        (Val::Optional(x), Val::Optional(y)) => match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => same(x, y),
            _ => false,
        },
        (Val::Ip(x), Val::Ip(y)) => x == y,
        (Val::Cidr(x), Val::Cidr(y)) => x == y,
        _ => false,
    }
}

#[derive(Default)]
struct Counts {
    pass: usize,
    skip: BTreeMap<&'static str, usize>,
    fail: Vec<String>,
}

fn run_file(dir: &std::path::Path, file: &str, counts: &mut Counts) {
    let d: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{file}.json"))).unwrap()).unwrap();
    for section in d["sections"].as_array().unwrap() {
        for t in section["tests"].as_array().unwrap() {
            let name = format!(
                "{file}/{}/{}",
                section["name"].as_str().unwrap(),
                t["name"].as_str().unwrap()
            );
            let skip = if let Some(reason) = not_kubernetes(&name) {
                Some(reason)
            } else if needs_protobuf(t) {
                Some("protobuf messages")
            } else if t.get("disable_check") == Some(&Value::Bool(true)) && !type_checks(t) {
                Some("does not type-check (a test without checking)")
            } else if t.get("check_only") == Some(&Value::Bool(true)) {
                Some("check only")
            } else {
                None
            };
            if let Some(reason) = skip {
                *counts.skip.entry(reason).or_default() += 1;
                continue;
            }
            match run_test(t) {
                Ok(()) => counts.pass += 1,
                Err(e) => counts
                    .fail
                    .push(format!("{name}: {}: {e}", t["expr"].as_str().unwrap())),
            }
        }
    }
}

/// Whether a test's expression type-checks (tests marked `disable_check` are run
/// when it does: Kubernetes always checks).
fn type_checks(t: &Value) -> bool {
    parse(t["expr"].as_str().unwrap()).is_ok_and(|p| check(&p, &env_for(t)).is_ok())
}

fn run_test(t: &Value) -> Result<(), String> {
    let expr = t["expr"].as_str().unwrap();
    let parsed = parse(expr).map_err(|e| format!("parse: {e}"))?;
    let checked = check(&parsed, &env_for(t)).map_err(|e| format!("check: {e}"))?;
    let program = Program::new(&checked);
    let mut vars = Vec::new();
    if let Some(b) = t.get("bindings").and_then(Value::as_object) {
        for (k, v) in b {
            let v = value(v.get("value").unwrap_or(v)).ok_or_else(|| format!("unsupported binding {v}"))?;
            vars.push((k.clone(), Ok(v)));
        }
    }
    let result = match &program {
        Ok(p) => evaluate_with(p, &Activation { vars }, u64::MAX).result,
        Err(e) => Err(crd_runtime::cel::Error::new(e.clone())),
    };
    if let Some(want) = t.get("eval_error") {
        return match result {
            Err(e) => {
                if std::env::var("SHOW_MESSAGES").is_ok() {
                    eprintln!("MSG {} | want {want} | got {e}", t["expr"]);
                }
                Ok(())
            }
            Ok(v) => Err(format!("expected an error, got {v:?}")),
        };
    }
    let want = match t.get("value") {
        Some(v) => value(v).ok_or_else(|| format!("unsupported expected value {v}"))?,
        None => Val::Bool(true),
    };
    match result {
        Ok(got) if same(&want, &got) => Ok(()),
        Ok(got) => Err(format!("got {got:?}, want {want:?}")),
        Err(e) => Err(format!("error {e}, want {want:?}")),
    }
}

#[test]
fn conformance() {
    let Some(dir) = spec_dir() else {
        eprintln!("shared/cel-spec not found; skipping");
        return;
    };
    let files = crd_codegen::cel::check::KUBERNETES_CONFORMANCE_FILES;
    let mut failures = Vec::new();
    for file in files {
        let mut c = Counts::default();
        run_file(&dir, file, &mut c);
        eprintln!(
            "{file}: {} passed, {} skipped {:?}, {} failed",
            c.pass,
            c.skip.values().sum::<usize>(),
            c.skip,
            c.fail.len()
        );
        failures.extend(c.fail);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
