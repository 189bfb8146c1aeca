//! The type checker against the CEL conformance suite (`shared/cel-spec`, cel-spec's
//! "simple" tests as JSON):
//!
//! - `type_deduction.json`: every test (47, 25 of them `check_only`) must check and
//!   deduce the expected type. The protobuf message `TestAllTypes` is declared with
//!   the fields these tests use.
//! - Every other test of the files for libraries Kubernetes has (standard library,
//!   macros, two-variable comprehensions, optionals, strings, network functions),
//!   except those that need protobuf messages or are marked `disable_check`: the
//!   expression must type-check, and its type must admit the expected value.

use crd_codegen::cel::check::{Env, Libraries, OverloadDecl, StructType, check};
use crd_codegen::cel::parse;
use crd_codegen::cel::types::{Kind, Type};
use serde_json::Value;
use std::path::PathBuf;

fn spec_dir() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/cel-spec"));
    p.is_dir().then_some(p)
}

/// A `cel.expr.Type` in proto3 JSON.
fn ty(v: &Value) -> Type {
    let o = v.as_object().unwrap();
    let (k, x) = o.iter().next().unwrap();
    match k.as_str() {
        "primitive" => primitive(x.as_str().unwrap()),
        "list_type" => Type::list(ty(&x["elem_type"])),
        "map_type" => Type::map(ty(&x["key_type"]), ty(&x["value_type"])),
        "message_type" => message(x.as_str().unwrap()),
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

fn message(name: &str) -> Type {
    match name {
        "google.protobuf.Duration" => Type::Duration,
        "google.protobuf.Timestamp" => Type::Timestamp,
        "google.protobuf.Any" => Type::Any,
        other => Type::object(other),
    }
}

const TEST_ALL_TYPES: &str = "cel.expr.conformance.proto3.TestAllTypes";
const NESTED_MESSAGE: &str = "cel.expr.conformance.proto3.TestAllTypes.NestedMessage";

/// The environment of a test: the libraries Kubernetes has, cel-go's conformance
/// settings, the test's declarations and container.
fn env_for(test: &Value) -> Env {
    let mut env = Env::new(Libraries::kubernetes());
    env.set_cross_type_numeric_comparisons(true);
    let fields = |fs: &[(&str, Type)]| StructType {
        fields: fs.iter().map(|(n, t)| (n.to_string(), t.clone())).collect(),
        nameable: true,
    };
    env.add_struct_type(
        TEST_ALL_TYPES,
        fields(&[
            ("single_int64", Type::Int),
            ("repeated_int64", Type::list(Type::Int)),
            ("map_bool_int64", Type::map(Type::Bool, Type::Int)),
            ("standalone_enum", Type::Int),
            ("repeated_nested_enum", Type::list(Type::Int)),
            ("map_int32_enum", Type::map(Type::Int, Type::Int)),
            ("repeated_nested_message", Type::list(Type::object(NESTED_MESSAGE))),
            ("single_int64_wrapper", Type::Wrapper(Box::new(Type::Int))),
            ("single_string_wrapper", Type::Wrapper(Box::new(Type::String))),
            ("single_duration", Type::Duration),
            ("single_timestamp", Type::Timestamp),
        ]),
    );
    env.add_struct_type(NESTED_MESSAGE, fields(&[("bb", Type::Int)]));
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

/// The type-deduction tests cel-go fails (its conformance `_TESTS_TO_SKIP`): the
/// checker deduces `int` for `[int, wrapper(int)]`, and `null` for a list of a
/// nullable type and `null`. Ported as they are, they fail here too.
const CEL_GO_FAILS: [&str; 5] = [
    "wrappers/wrapper_promotion_2",
    "legacy_nullable_types/null_assignable_to_message_parameter_candidate",
    "legacy_nullable_types/null_assignable_to_duration_parameter_candidate",
    "legacy_nullable_types/null_assignable_to_timestamp_parameter_candidate",
    "legacy_nullable_types/null_assignable_to_abstract_parameter_candidate",
];

#[test]
fn type_deduction() {
    let Some(dir) = spec_dir() else {
        eprintln!("shared/cel-spec not found; skipping");
        return;
    };
    let d: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("type_deduction.json")).unwrap()).unwrap();
    let (mut n, mut failures) = (0, Vec::new());
    for section in d["sections"].as_array().unwrap() {
        for t in section["tests"].as_array().unwrap() {
            n += 1;
            let name = format!("{}/{}", section["name"].as_str().unwrap(), t["name"].as_str().unwrap());
            let expr = t["expr"].as_str().unwrap();
            let want = ty(&t["typed_result"]["deduced_type"]);
            let parsed = parse(expr).unwrap();
            match check(&parsed, &env_for(t)) {
                Ok(c) => {
                    let got = c.output_type().to_string();
                    if (got == want.to_string()) == CEL_GO_FAILS.contains(&name.as_str()) {
                        failures.push(format!("{name}: {expr}: got {got}, want {want}"));
                    }
                }
                Err(e) => failures.push(format!("{name}: {expr}: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(n, 47);
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

/// Whether a value could have a type of this kind.
fn admits(t: &Type, value: &Value) -> bool {
    let (tag, _) = value.as_object().unwrap().iter().next().unwrap();
    let want = match tag.as_str() {
        "int64" => Kind::Int,
        "uint64" => Kind::Uint,
        "double" => Kind::Double,
        "string" => Kind::String,
        "bytes" => Kind::Bytes,
        "bool" => Kind::Bool,
        "null" => Kind::Null,
        "list" => Kind::List,
        "map" => Kind::Map,
        "type" => Kind::Type,
        _ => return true,
    };
    matches!(t.kind(), Kind::Dyn | Kind::Any) || t.kind() == want
}

#[test]
fn conformance_expressions_check() {
    let Some(dir) = spec_dir() else {
        eprintln!("shared/cel-spec not found; skipping");
        return;
    };
    let files = crd_codegen::cel::check::KUBERNETES_CONFORMANCE_FILES;
    // Tests that must fail to check here: `reverse` is in version 3 of the strings
    // library (Kubernetes has version 2), and `isIP(cidr(...))` is a compile error
    // test.
    let expected_failures: &[&str] = &[
        "string_ext/reverse/empty",
        "string_ext/reverse/single_character",
        "string_ext/reverse/multiple",
        "network_ext/ip_type/is_ip_cidr_compile_error",
    ];
    let (mut checked, mut skipped, mut failures) = (0, 0, Vec::new());
    for file in files {
        let d: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{file}.json"))).unwrap()).unwrap();
        for section in d["sections"].as_array().unwrap() {
            for t in section["tests"].as_array().unwrap() {
                let name = format!(
                    "{file}/{}/{}",
                    section["name"].as_str().unwrap(),
                    t["name"].as_str().unwrap()
                );
                if t.get("disable_check") == Some(&Value::Bool(true)) || needs_protobuf(t) {
                    skipped += 1;
                    continue;
                }
                let expr = t["expr"].as_str().unwrap();
                let Ok(parsed) = parse(expr) else {
                    failures.push(format!("{name}: {expr}: parse error"));
                    continue;
                };
                checked += 1;
                let result = check(&parsed, &env_for(t));
                let ok = match &result {
                    Ok(c) => t.get("value").is_none_or(|v| admits(c.output_type(), v)),
                    Err(_) => false,
                };
                if ok == expected_failures.contains(&name.as_str()) {
                    let detail = match result {
                        Ok(c) => format!("type {}", c.output_type()),
                        Err(e) => e.to_string(),
                    };
                    failures.push(format!("{name}: {expr}: {detail}"));
                }
            }
        }
    }
    eprintln!("{checked} checked, {skipped} skipped");
    assert_eq!((checked, skipped), (1369, 224));
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
