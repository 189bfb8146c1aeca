//! The extension point for the later stages (`check_crd_with` + `RuleCompiler`):
//! where rule compilation and default validation are called, what they are told,
//! and how their results become the API server's errors (compilation errors with
//! the rule as bad value, per-expression and per-schema cost limits, `oldSelf`
//! correlation, `optionalOldSelf`).
//!
//! A scripted compiler stands in for CEL: with the results the real compiler gives,
//! the CEL cases of `expected.jsonl` (`bad-rule-*`, `budget-crd.yaml`) come out
//! exactly as the API server printed them. Cases ported from
//! `TestValidateCustomResourceDefinitionValidation` ("forbid transition rule on
//! element of list of type atomic", "... of type set", "allow transition rule on
//! element of list of type map", "forbid transition rule on element of map of
//! unrecognized type", "forbid setting optionalOldSelf to true if oldSelf is not
//! used", "skip CEL expression validation when OpenAPIv3 schema is an invalid
//! structural schema", "forbid validation rules where cost total exceeds total
//! limit", the cardinality cases).

use crd_codegen::check::{
    RuleCompilation, RuleCompileError, RuleCompiler, RuleSite, Structural, check_crd, check_crd_with,
};
use crd_codegen::convert::{Read, read_crd};
use crd_codegen::fieldpath::FieldPath;
use crd_codegen::model::CustomResourceDefinition;
use crd_codegen::source::{parse_text, read_file};
use crd_runtime::FieldError;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// What a compiler call was told: `(path, is_resource_root, max_cardinality, rule count)`.
type Call = (String, bool, Option<u64>, usize);

/// A compiler scripted by rule text; records every call.
#[derive(Default)]
struct Scripted {
    results: Vec<(&'static str, RuleCompilation)>,
    default_errors: Vec<FieldError>,
    calls: RefCell<Vec<Call>>,
    defaults_calls: RefCell<Vec<String>>,
}

impl RuleCompiler for Scripted {
    fn compile_rules(&self, site: &RuleSite<'_>) -> Result<Vec<RuleCompilation>, String> {
        self.calls.borrow_mut().push((
            site.path.to_string(),
            site.is_resource_root,
            site.max_cardinality,
            site.schema.x_validations.len(),
        ));
        Ok(site
            .schema
            .x_validations
            .iter()
            .map(|r| {
                self.results
                    .iter()
                    .find(|(rule, _)| *rule == r.rule)
                    .map(|(_, c)| c.clone())
                    .unwrap_or_default()
            })
            .collect())
    }

    fn validate_defaults(&self, _root: &Structural, path: &FieldPath) -> Vec<FieldError> {
        self.defaults_calls.borrow_mut().push(path.to_string());
        self.default_errors.clone()
    }
}

fn examples() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/spec/examples"));
    p.is_dir().then_some(p)
}

fn read_example(path: &Path) -> CustomResourceDefinition {
    match read_crd(&mut read_file(path).unwrap()[0]) {
        Ok(Read::Crd(crd, _)) => *crd,
        _ => panic!("{}", path.display()),
    }
}

fn read(doc: &Value) -> CustomResourceDefinition {
    let mut docs = parse_text(Path::new("case.json"), serde_json::to_string(doc).unwrap()).unwrap();
    match read_crd(&mut docs[0]) {
        Ok(Read::Crd(crd, _)) => *crd,
        _ => panic!("not a CRD"),
    }
}

fn with_schema(schema: Value) -> CustomResourceDefinition {
    read(&json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]
        }
    }))
}

fn strings(errs: Vec<FieldError>) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

fn invalid(detail: &str) -> RuleCompilation {
    RuleCompilation {
        error: Some(RuleCompileError::Invalid(detail.into())),
        ..Default::default()
    }
}

fn expected_errors(file: &str) -> Vec<String> {
    let dir = examples().unwrap();
    let lines = std::fs::read_to_string(dir.join("expected.jsonl")).unwrap();
    for line in lines.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["seed"] == format!("checkcrd:{file}") {
            return v["expected"]["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap().to_string())
                .collect();
        }
    }
    panic!("{file} not in expected.jsonl");
}

#[test]
fn cel_examples_with_the_real_compilers_answers() {
    let Some(dir) = examples() else {
        eprintln!("shared/spec/examples not found; skipping");
        return;
    };
    let cases: Vec<(&str, Scripted)> = vec![
        (
            "bad-rule-invalid-argument-to-has_-macro.yaml",
            Scripted {
                results: vec![(
                    "has(self)",
                    invalid(
                        "compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^",
                    ),
                )],
                ..Default::default()
            },
        ),
        (
            "bad-rule-no-matching-overload.yaml",
            Scripted {
                results: vec![(
                    "self == true",
                    invalid(
                        "compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^",
                    ),
                )],
                ..Default::default()
            },
        ),
        (
            "bad-rule-undefined-field.yaml",
            Scripted {
                results: vec![(
                    "self.nonExistingField > 0",
                    invalid(
                        "compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'\n | self.nonExistingField > 0\n | ....^",
                    ),
                )],
                ..Default::default()
            },
        ),
        (
            "budget-crd.yaml",
            Scripted {
                results: vec![(
                    "self.all(x, x.contains('a string'))",
                    RuleCompilation {
                        max_cost: 20_000_000_000,
                        ..Default::default()
                    },
                )],
                ..Default::default()
            },
        ),
    ];
    for (file, compiler) in cases {
        let crd = read_example(&dir.join(file));
        assert_eq!(
            strings(check_crd_with(&crd, &compiler)),
            expected_errors(file),
            "{file}"
        );
        assert!(check_crd(&crd).is_empty(), "{file}");
        assert_eq!(compiler.defaults_calls.borrow().len(), 1);
    }
}

#[test]
fn sites_carry_cardinality_and_resource_roots() {
    let crd = with_schema(json!({
        "type": "object",
        "x-kubernetes-validations": [{"rule": "root"}],
        "properties": {
            "list": {"type": "array", "maxItems": 5, "items": {
                "type": "array", "maxItems": 10, "items": {"type": "string", "x-kubernetes-validations": [{"rule": "a"}]}
            }},
            "unbounded": {"type": "array", "items": {"type": "object", "x-kubernetes-validations": [{"rule": "b"}]}},
            "map": {"type": "object", "maxProperties": 3, "additionalProperties": {
                "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
                "x-kubernetes-validations": [{"rule": "c"}, {"rule": "d"}]
            }}
        }
    }));
    let compiler = Scripted::default();
    assert!(strings(check_crd_with(&crd, &compiler)).is_empty());
    let p = "spec.validation.openAPIV3Schema";
    assert_eq!(
        *compiler.calls.borrow(),
        vec![
            (format!("{p}.properties[list].items.items"), false, Some(50), 1),
            (format!("{p}.properties[map].additionalProperties"), true, Some(3), 2),
            (format!("{p}.properties[unbounded].items"), false, None, 1),
            (p.to_string(), true, Some(1), 1),
        ]
    );
}

#[test]
fn compilation_results_become_errors() {
    let rule = |r: &str| json!([{"rule": r}]);
    let crd = with_schema(json!({
        "type": "object",
        "properties": {
            // Items of an atomic list: old and new elements cannot be correlated.
            "atomic": {"type": "array", "items": {"type": "string", "x-kubernetes-validations": rule("oldSelf")}},
            "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string", "x-kubernetes-validations": rule("oldSelf")}},
            "maplist": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}}, "x-kubernetes-validations": rule("oldSelf")}},
            "future": {"type": "object", "x-kubernetes-map-type": "future", "properties": {
                "v": {"type": "string", "x-kubernetes-validations": rule("oldSelf")}
            }},
            "granular": {"type": "object", "x-kubernetes-map-type": "granular", "properties": {
                "inner": {"type": "array", "items": {"type": "object", "x-kubernetes-validations": rule("oldSelf")}}
            }},
            "optional": {"type": "string", "x-kubernetes-validations": [{"rule": "self == 'x'", "optionalOldSelf": true}]},
            "required": {"type": "string", "x-kubernetes-validations": [{"rule": "required", "messageExpression": "'m'"}]},
            "expensive": {"type": "string", "x-kubernetes-validations": [{"rule": "costly", "messageExpression": "costlyMessage"}]}
        }
    }));
    let compiler = Scripted {
        results: vec![
            (
                "oldSelf",
                RuleCompilation {
                    uses_old_self: true,
                    ..Default::default()
                },
            ),
            (
                "required",
                RuleCompilation {
                    error: Some(RuleCompileError::Required("rule is required".into())),
                    message_expression_error: Some("messageExpression compilation failed: boom".into()),
                    ..Default::default()
                },
            ),
            (
                "costly",
                RuleCompilation {
                    max_cost: 15_000_000,
                    has_message_expression: true,
                    message_expression_max_cost: 12_000_000,
                    ..Default::default()
                },
            ),
        ],
        ..Default::default()
    };
    let p = "spec.validation.openAPIV3Schema.properties";
    assert_eq!(
        strings(check_crd_with(&crd, &compiler)),
        vec![
            // All schema errors come before all CEL errors.
            format!(
                "{p}[future].x-kubernetes-map-type: Unsupported value: \"future\": supported values: \"atomic\", \"granular\""
            ),
            format!(
                "{p}[atomic].items.x-kubernetes-validations[0].rule: Invalid value: \"oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within {p}[atomic]"
            ),
            format!(
                "{p}[expensive].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.5x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
            ),
            format!(
                "{p}[expensive].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of 1.200000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
            ),
            format!(
                "{p}[future].properties[v].x-kubernetes-validations[0].rule: Invalid value: \"oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within {p}[future]"
            ),
            format!(
                "{p}[granular].properties[inner].items.x-kubernetes-validations[0].rule: Invalid value: \"oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within {p}[granular].properties[inner]"
            ),
            format!(
                "{p}[optional].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule"
            ),
            format!("{p}[required].x-kubernetes-validations[0].rule: Required value: rule is required"),
            format!(
                "{p}[required].x-kubernetes-validations[0].messageExpression: Invalid value: {{\"Rule\":\"required\",\"Message\":\"\",\"MessageExpression\":\"'m'\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: messageExpression compilation failed: boom"
            ),
            format!(
                "{p}[set].items.x-kubernetes-validations[0].rule: Invalid value: \"oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within {p}[set]"
            ),
        ]
    );
}

#[test]
fn total_cost_names_the_four_most_expensive_rules() {
    let props: serde_json::Map<String, Value> = (1..=6)
        .map(|i| {
            (
                format!("f{i}"),
                json!({"type": "string", "x-kubernetes-validations": [{"rule": format!("r{i}")}]}),
            )
        })
        .collect();
    let crd = with_schema(json!({"type": "object", "properties": props}));
    let cost = |c: u64| RuleCompilation {
        max_cost: c,
        ..Default::default()
    };
    let compiler = Scripted {
        results: vec![
            ("r1", cost(9_000_000)),
            ("r2", cost(9_500_000)),
            ("r3", cost(9_900_000)),
            ("r4", cost(900_000)),
            ("r5", cost(9_800_000)),
            ("r6", cost(9_700_000)),
        ],
        ..Default::default()
    };
    // Each rule is under the per-expression limit; the total is not:
    // 9.0 + 9.5 + 9.9 + 0.9 + 9.8 + 9.7 = 48.8 M ... below 100 M, so scale by cardinality:
    // put the fields in a list of at most 3 elements.
    let list = with_schema(json!({"type": "object", "properties": {
        "l": {"type": "array", "maxItems": 3, "items": {"type": "object", "properties": props}}
    }}));
    assert!(strings(check_crd_with(&crd, &compiler)).is_empty());
    let p = "spec.validation.openAPIV3Schema.properties[l].items.properties";
    let limit = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert_eq!(
        strings(check_crd_with(&list, &compiler)),
        vec![
            format!(
                "{p}[f1].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 2.7x {limit}"
            ),
            format!(
                "{p}[f2].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 2.9x {limit}"
            ),
            format!(
                "{p}[f3].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 3.0x {limit}"
            ),
            format!(
                "{p}[f5].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 2.9x {limit}"
            ),
            format!(
                "{p}[f6].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 2.9x {limit}"
            ),
            format!(
                "{p}[f3].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
            ),
            format!(
                "{p}[f5].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
            ),
            format!(
                "{p}[f6].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
            ),
            format!(
                "{p}[f2].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
            ),
            format!(
                "spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.464000x {limit}"
            ),
        ]
    );
}

#[test]
fn later_stages_are_skipped_after_errors() {
    // "skip CEL expression validation when OpenAPIv3 schema is an invalid structural schema"
    let not_structural = with_schema(json!({"type": "object", "properties": {
        "a": {"x-kubernetes-validations": [{"rule": "bad"}]}
    }}));
    let compiler = Scripted {
        results: vec![("bad", invalid("compilation failed"))],
        ..Default::default()
    };
    assert_eq!(
        strings(check_crd_with(&not_structural, &compiler)),
        vec![
            "spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields"
        ]
    );
    assert!(compiler.calls.borrow().is_empty());
    assert!(compiler.defaults_calls.borrow().is_empty());

    // A schema error at or below a node skips that node's rules only.
    let local = with_schema(json!({"type": "object", "properties": {
        "a": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "x-kubernetes-validations": [{"rule": "bad"}]},
        "b": {"type": "string", "x-kubernetes-validations": [{"rule": "bad"}]}
    }}));
    let compiler = Scripted {
        results: vec![("bad", invalid("compilation failed"))],
        ..Default::default()
    };
    let p = "spec.validation.openAPIV3Schema.properties";
    let rule =
        r#"{"Rule":"bad","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}"#;
    assert_eq!(
        strings(check_crd_with(&local, &compiler)),
        vec![
            format!(
                "{p}[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"
            ),
            format!("{p}[b].x-kubernetes-validations[0].rule: Invalid value: {rule}: compilation failed"),
        ]
    );

    // Default errors stop before CEL.
    let defaults = with_schema(json!({"type": "object", "properties": {
        "b": {"type": "string", "default": 1, "x-kubernetes-validations": [{"rule": "bad"}]}
    }}));
    let compiler = Scripted {
        results: vec![("bad", invalid("compilation failed"))],
        default_errors: vec![FieldError::invalid(
            "spec.validation.openAPIV3Schema.properties[b].default",
            json!(1),
            "properties[b].default in body must be of type string: \"integer\"",
        )],
        ..Default::default()
    };
    assert_eq!(
        strings(check_crd_with(&defaults, &compiler)),
        vec![format!(
            "{p}[b].default: Invalid value: 1: properties[b].default in body must be of type string: \"integer\""
        )]
    );
    assert!(compiler.calls.borrow().is_empty());
    assert_eq!(
        *compiler.defaults_calls.borrow(),
        vec!["spec.validation.openAPIV3Schema".to_string()]
    );
}
