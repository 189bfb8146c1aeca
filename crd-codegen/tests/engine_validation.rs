//! OpenAPI validation through the reference engine: the cases of apiextensions-apiserver
//! `pkg/apiserver/validation/validation_test.go` (`TestValidateCustomResource`, without
//! the CEL rules, compared as sets as the Go test does) and a table per keyword and
//! message of kube-openapi (§2.4 of SEMANTICS.md), with exact order.

mod engine_common;
use engine_common::*;
use serde_json::{Value, json};

fn field(s: Value) -> Value {
    json!({"type": "object", "properties": {"field": s}})
}

/// Asserts the errors of each object as a set, like the Go test.
fn check_set(schema: &Value, ok: &[Value], failing: &[(Value, &[&str])]) {
    for o in ok {
        assert_eq!(validate_errors(schema.clone(), o.clone()), Vec::<String>::new(), "{o}");
    }
    for (o, want) in failing {
        let got = sorted(validate_errors(schema.clone(), o.clone()));
        let want = sorted(want.iter().map(|s| s.to_string()).collect());
        assert_eq!(got, want, "{o}");
    }
}

#[test]
fn not_nullable() {
    check_set(
        &field(json!({"type": "object", "nullable": false})),
        &[json!({}), json!({"field": {}})],
        &[
            (
                json!({"field": "foo"}),
                &[r#"field: Invalid value: "string": field in body must be of type object: "string""#],
            ),
            (
                json!({"field": 42}),
                &[r#"field: Invalid value: "integer": field in body must be of type object: "integer""#],
            ),
            (
                json!({"field": true}),
                &[r#"field: Invalid value: "boolean": field in body must be of type object: "boolean""#],
            ),
            (
                json!({"field": 1.2}),
                &[r#"field: Invalid value: "number": field in body must be of type object: "number""#],
            ),
            (
                json!({"field": []}),
                &[r#"field: Invalid value: "array": field in body must be of type object: "array""#],
            ),
            (
                json!({"field": null}),
                &[r#"field: Invalid value: "null": field in body must be of type object: "null""#],
            ),
        ],
    );
}

#[test]
fn nullable() {
    check_set(
        &field(json!({"type": "object", "nullable": true})),
        &[json!({}), json!({"field": {}}), json!({"field": null})],
        &[
            (
                json!({"field": "foo"}),
                &[r#"field: Invalid value: "string": field in body must be of type object: "string""#],
            ),
            (
                json!({"field": []}),
                &[r#"field: Invalid value: "array": field in body must be of type object: "array""#],
            ),
        ],
    );
    check_set(
        &field(json!({"nullable": true})),
        &[
            json!({}),
            json!({"field": {}}),
            json!({"field": null}),
            json!({"field": "foo"}),
            json!({"field": 42}),
            json!({"field": true}),
            json!({"field": 1.2}),
            json!({"field": []}),
        ],
        &[],
    );
}

#[test]
fn int_or_string() {
    check_set(
        &field(json!({"x-kubernetes-int-or-string": true})),
        &[json!({}), json!({"field": 42}), json!({"field": "foo"})],
        &[
            (
                json!({"field": null}),
                &[r#"field: Invalid value: "null": field in body must be of type integer,string: "null""#],
            ),
            (
                json!({"field": true}),
                &[r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#],
            ),
            (
                json!({"field": 1.2}),
                &[r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#],
            ),
            (
                json!({"field": {}}),
                &[r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#],
            ),
            (
                json!({"field": []}),
                &[r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#],
            ),
        ],
    );
    check_set(
        &field(json!({"nullable": true, "x-kubernetes-int-or-string": true})),
        &[
            json!({}),
            json!({"field": 42}),
            json!({"field": "foo"}),
            json!({"field": null}),
        ],
        &[(
            json!({"field": true}),
            &[r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#],
        )],
    );
}

#[test]
fn int_or_string_with_any_of() {
    let schema = field(json!({
        "nullable": true, "x-kubernetes-int-or-string": true,
        "anyOf": [{"type": "integer"}, {"type": "string"}]
    }));
    check_set(
        &schema,
        &[
            json!({}),
            json!({"field": null}),
            json!({"field": 42}),
            json!({"field": "foo"}),
        ],
        &[
            (
                json!({"field": true}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                    r#"field: Invalid value: "boolean": field in body must be of type integer: "boolean""#,
                ],
            ),
            (
                json!({"field": 1.2}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                    r#"field: Invalid value: "number": field in body must be of type integer: "number""#,
                    r#"<nil>: Invalid value: "": Checked value must be of type integer (default format) in field"#,
                ],
            ),
            (
                json!({"field": {}}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#,
                    r#"field: Invalid value: "object": field in body must be of type integer: "object""#,
                ],
            ),
        ],
    );
    // The exact order: type, then the junctors (composite message, best branch), then
    // the number validator.
    assert_eq!(
        validate_errors(schema, json!({"field": 1.2})),
        [
            r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
            r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
            r#"field: Invalid value: "number": field in body must be of type integer: "number""#,
            r#"<nil>: Invalid value: "": Checked value must be of type integer (default format) in field"#,
        ]
    );
}

#[test]
fn int_or_string_with_all_of() {
    check_set(
        &field(json!({
            "nullable": true, "x-kubernetes-int-or-string": true,
            "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]
        })),
        &[
            json!({}),
            json!({"field": null}),
            json!({"field": 42}),
            json!({"field": "foo"}),
        ],
        &[
            (
                json!({"field": true}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                    r#"field: Invalid value: "boolean": field in body must be of type integer: "boolean""#,
                ],
            ),
            (
                json!({"field": 1.2}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                    r#"field: Invalid value: "number": field in body must be of type integer: "number""#,
                    r#"<nil>: Invalid value: "": Checked value must be of type integer (default format) in field"#,
                ],
            ),
            (
                json!({"field": []}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                    r#"field: Invalid value: "array": field in body must be of type integer: "array""#,
                ],
            ),
        ],
    );
}

#[test]
fn invalid_regex() {
    check_set(
        &field(json!({"type": "string", "pattern": "+"})),
        &[],
        &[(
            json!({"field": "foo"}),
            &[
                "field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
            ],
        )],
    );
}

#[test]
fn required_fields() {
    check_set(
        &json!({"type": "object", "required": ["field"], "properties": {
            "field": {"type": "object", "required": ["nested"], "properties": {"nested": {}}}
        }}),
        &[],
        &[
            (json!({"test": "a"}), &["field: Required value"]),
            (json!({"field": {}}), &["field.nested: Required value"]),
        ],
    );
}

#[test]
fn enums() {
    check_set(
        &field(
            json!({"type": "object", "required": ["nestedint", "nestedstring"], "properties": {
                "nestedint": {"type": "integer", "enum": [1, 2]},
                "nestedstring": {"type": "string", "enum": ["a", "b"]},
            }}),
        ),
        &[],
        &[
            (
                json!({"field": {}}),
                &["field.nestedint: Required value", "field.nestedstring: Required value"],
            ),
            (
                json!({"field": {"nestedint": "x", "nestedstring": true}}),
                &[
                    r#"field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string""#,
                    r#"field.nestedint: Unsupported value: "x": supported values: "1", "2""#,
                    r#"field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean""#,
                    r#"field.nestedstring: Unsupported value: true: supported values: "a", "b""#,
                ],
            ),
        ],
    );
}

#[test]
fn sizes() {
    let s = json!({"type": "object", "properties": {
        "fieldX": {"type": "object", "maxProperties": 2},
        "fieldY": {"type": "array", "maxItems": 2},
        "fieldZ": {"type": "string", "maxLength": 2},
    }});
    check_set(
        &s,
        &[],
        &[
            (
                json!({"fieldX": {"a": true, "b": true, "c": true}}),
                &["fieldX: Too many: 3: must have at most 2 items"],
            ),
            (
                json!({"fieldY": ["a", "b", "c"]}),
                &["fieldY: Too many: 3: must have at most 2 items"],
            ),
            (
                json!({"fieldZ": "abc"}),
                &["fieldZ: Too long: may not be more than 2 bytes"],
            ),
        ],
    );
}

#[test]
fn kubernetes_name_formats() {
    check_set(
        &json!({"type": "object", "properties": {
            "long": {"type": "string", "format": "k8s-long-name"},
            "short": {"type": "string", "format": "k8s-short-name"},
        }}),
        &[json!({"long": "a.b", "short": "a-b"})],
        &[
            (
                json!({"long": "a.-"}),
                &[r#"long: Invalid value: "a.-": long in body must be of type k8s-long-name: "a.-""#],
            ),
            (
                json!({"short": "a-"}),
                &[r#"short: Invalid value: "a-": short in body must be of type k8s-short-name: "a-""#],
            ),
        ],
    );
}

#[test]
fn numeric_formats() {
    let s = json!({"type": "object", "properties": {
        "intThirtyTwo": {"type": "integer", "format": "int32"},
        "intSixtyFour": {"type": "integer", "format": "int64"},
        "floatThreeTwo": {"type": "number", "format": "float"},
        "floatSixFour": {"type": "number", "format": "double"},
    }});
    check_set(
        &s,
        &[
            json!({"intThirtyTwo": i32::MIN, "intSixtyFour": i64::MIN, "floatThreeTwo": -(f32::MAX as f64), "floatSixFour": -f64::MAX}),
            json!({"intThirtyTwo": 0, "intSixtyFour": 0, "floatThreeTwo": 0.0, "floatSixFour": 0.0}),
            json!({"intThirtyTwo": i32::MAX, "intSixtyFour": i64::MAX, "floatThreeTwo": f32::MAX as f64, "floatSixFour": f64::MAX}),
        ],
        &[
            (
                json!({"intThirtyTwo": i32::MAX as i64 + 1}),
                &[
                    r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo"#,
                ],
            ),
            (
                json!({"intThirtyTwo": i32::MIN as i64 - 1}),
                &[
                    r#"<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo"#,
                ],
            ),
            (
                json!({"intSixtyFour": i64::MAX as f64 * 1.1}),
                &[
                    r#"intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64""#,
                    r#"<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour"#,
                ],
            ),
            (
                json!({"intSixtyFour": i64::MIN as f64 * 1.1}),
                &[
                    r#"intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64""#,
                    r#"<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour"#,
                ],
            ),
            (
                json!({"floatThreeTwo": f32::MAX as f64 * 1.1}),
                &[
                    r#"<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo"#,
                ],
            ),
            (
                json!({"floatThreeTwo": -(f32::MAX as f64) * 1.1}),
                &[
                    r#"<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo"#,
                ],
            ),
        ],
    );
}

/// The non-CEL part of the Go cases with rules: objects valid against the schema.
#[test]
fn schemas_with_rules_validate_values() {
    let s = field(
        json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k1", "k2"],
        "items": {"type": "object", "properties": {
            "k1": {"type": "string"}, "k2": {"type": "string"},
            "v1": {"type": "number", "x-kubernetes-validations": [{"rule": "self >= oldSelf"}]}}}}),
    );
    assert!(validate_errors(s, json!({"field": [{"k1": "a", "k2": "b", "v1": 1.2}]})).is_empty());
}

// ---------------------------------------------------------------------------------------
// One table per keyword (exact strings and order)
// ---------------------------------------------------------------------------------------

fn spec_x(s: Value) -> Value {
    json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {"x": s}}}})
}

fn x_errors(s: Value, v: Value) -> Vec<String> {
    validate_errors(spec_x(s), json!({"spec": {"x": v}}))
}

#[test]
fn keyword_type() {
    let cases: &[(Value, Value, &[&str])] = &[
        (json!({"type": "integer"}), json!(1), &[]),
        (json!({"type": "integer"}), json!(1.0), &[]),
        // The number validator range-checks the value against the type too.
        (
            json!({"type": "integer"}),
            json!(1.5),
            &[
                r#"spec.x: Invalid value: "number": spec.x in body must be of type integer: "number""#,
                r#"<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.x"#,
            ],
        ),
        (json!({"type": "number"}), json!(1), &[]),
        (
            json!({"type": "string"}),
            json!(1),
            &[r#"spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer""#],
        ),
        (
            json!({"type": "boolean"}),
            json!("true"),
            &[r#"spec.x: Invalid value: "string": spec.x in body must be of type boolean: "string""#],
        ),
        (
            json!({"type": "array", "items": {"type": "string"}}),
            json!({}),
            &[r#"spec.x: Invalid value: "object": spec.x in body must be of type array: "object""#],
        ),
        (json!({"type": "string", "nullable": true}), json!(null), &[]),
        (
            json!({"type": "string"}),
            json!(null),
            &[r#"spec.x: Invalid value: "null": spec.x in body must be of type string: "null""#],
        ),
        (json!({}), json!(null), &[]),
        // An integer format on a float that is not a JSON integer.
        (
            json!({"type": "integer", "format": "int64"}),
            json!(1.5),
            &[
                r#"spec.x: Invalid value: "float64": spec.x in body must be of type int64: "float64""#,
                r#"<nil>: Invalid value: "": Checked value must be of type integer with format int64 in spec.x"#,
            ],
        ),
    ];
    for (s, v, want) in cases {
        assert_eq!(x_errors(s.clone(), v.clone()), *want, "{s} {v}");
    }
}

#[test]
fn keyword_enum() {
    let cases: &[(Value, Value, &[&str])] = &[
        (json!({"type": "string", "enum": ["a", "b"]}), json!("a"), &[]),
        (
            json!({"type": "string", "enum": ["a", "b"]}),
            json!("c"),
            &[r#"spec.x: Unsupported value: "c": supported values: "a", "b""#],
        ),
        (
            json!({"enum": [1, 2.5, true, {"a": 1}, [1], null]}),
            json!("x"),
            &[r#"spec.x: Unsupported value: "x": supported values: "1", "2.5", "true", "{\"a\":1}", "[1]", "null""#],
        ),
        (json!({"enum": [{"a": 1}]}), json!({"a": 1}), &[]),
        (json!({"enum": [[1, "x"]]}), json!([1, "x"]), &[]),
        // Go converts the value to the enum value's type: 2.7 → int64 2, 65 → "A".
        (json!({"enum": [2]}), json!(2.7), &[]),
        (json!({"enum": ["A"]}), json!(65), &[]),
        (
            json!({"enum": [1.5]}),
            json!(1),
            &[r#"spec.x: Unsupported value: 1: supported values: "1.5""#],
        ),
        (
            json!({"enum": ["a"]}),
            json!(true),
            &[r#"spec.x: Unsupported value: true: supported values: "a""#],
        ),
        (
            json!({"enum": ["a"], "nullable": true}),
            json!(null),
            &[r#"spec.x: Unsupported value: null: supported values: "a""#],
        ),
    ];
    for (s, v, want) in cases {
        assert_eq!(x_errors(s.clone(), v.clone()), *want, "{s} {v}");
    }
}

#[test]
fn keyword_string() {
    let cases: &[(Value, Value, &[&str])] = &[
        (json!({"type": "string", "pattern": "^[a-z]+$"}), json!("abc"), &[]),
        (
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            json!("ab1"),
            &[r#"spec.x: Invalid value: "ab1": spec.x in body should match '^[a-z]+$'"#],
        ),
        // \d is ASCII in Go.
        (
            json!({"type": "string", "pattern": "^\\d$"}),
            json!("٣"),
            &[r#"spec.x: Invalid value: "٣": spec.x in body should match '^\d$'"#],
        ),
        // Lengths count characters, not bytes.
        (json!({"type": "string", "maxLength": 2}), json!("éé"), &[]),
        (
            json!({"type": "string", "maxLength": 1}),
            json!("ab"),
            &["spec.x: Too long: may not be more than 1 byte"],
        ),
        (
            json!({"type": "string", "minLength": 3}),
            json!("éé"),
            &[r#"spec.x: Invalid value: "éé": spec.x in body should be at least 3 chars long"#],
        ),
        // Only the first failing string check is reported.
        (
            json!({"type": "string", "minLength": 3, "pattern": "^z"}),
            json!("a"),
            &[r#"spec.x: Invalid value: "a": spec.x in body should be at least 3 chars long"#],
        ),
    ];
    for (s, v, want) in cases {
        assert_eq!(x_errors(s.clone(), v.clone()), *want, "{s} {v}");
    }
}

#[test]
fn keyword_formats() {
    let valid: &[(&str, &str)] = &[
        ("bsonobjectid", "507f1f77bcf86cd799439011"),
        ("uri", "http://example.com/a"),
        ("email", "a@example.com"),
        ("hostname", "example.com"),
        ("ipv4", "10.0.0.1"),
        ("ipv6", "::1"),
        ("cidr", "10.0.0.0/8"),
        ("mac", "01:23:45:67:89:ab"),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000"),
        ("uuid3", "a987fbc9-4bed-3078-af07-9141ba07c9f3"),
        ("uuid4", "a987fbc9-4bed-4078-8f07-9141ba07c9f3"),
        ("uuid5", "a987fbc9-4bed-5078-af07-9141ba07c9f3"),
        ("isbn", "0321751043"),
        ("isbn10", "0321751043"),
        ("isbn13", "978-0321751041"),
        ("creditcard", "4111111111111111"),
        ("ssn", "123-45-6789"),
        ("hexcolor", "#fff"),
        ("rgbcolor", "rgb(1,2,3)"),
        ("byte", "aGVsbG8="),
        ("password", "anything"),
        ("date", "2020-01-31"),
        ("duration", "1h30m"),
        ("date-time", "2020-01-31T10:00:00Z"),
        ("datetime", "2020-01-31T10:00:00Z"),
    ];
    for (f, v) in valid {
        assert!(
            x_errors(json!({"type": "string", "format": f}), json!(v)).is_empty(),
            "{f} {v}"
        );
        let bad = x_errors(json!({"type": "string", "format": f}), json!("%% not valid %%"));
        if *f != "password" {
            assert_eq!(
                bad,
                [format!(
                    r#"spec.x: Invalid value: "%% not valid %%": spec.x in body must be of type {f}: "%% not valid %%""#
                )],
                "{f}"
            );
        }
    }
    // Unsupported formats are stripped: nothing is checked.
    assert!(x_errors(json!({"type": "string", "format": "int32"}), json!("x")).is_empty());
    assert!(x_errors(json!({"type": "string", "format": "made-up"}), json!("x")).is_empty());
    // A string format on an integer is stripped too.
    assert!(x_errors(json!({"type": "integer", "format": "date"}), json!(1)).is_empty());
    // int-or-string keeps string formats.
    assert_eq!(
        x_errors(
            json!({"x-kubernetes-int-or-string": true, "format": "date"}),
            json!("x")
        ),
        [r#"spec.x: Invalid value: "x": spec.x in body must be of type date: "x""#]
    );
}

#[test]
fn keyword_numbers() {
    let cases: &[(Value, Value, &[&str])] = &[
        (
            json!({"type": "integer", "minimum": 1, "maximum": 10}),
            json!(15),
            &["spec.x: Invalid value: 15: spec.x in body should be less than or equal to 10"],
        ),
        (
            json!({"type": "integer", "minimum": 1, "maximum": 10}),
            json!(0),
            &["spec.x: Invalid value: 0: spec.x in body should be greater than or equal to 1"],
        ),
        (
            json!({"type": "integer", "maximum": 10, "exclusiveMaximum": true}),
            json!(10),
            &["spec.x: Invalid value: 10: spec.x in body should be less than 10"],
        ),
        (
            json!({"type": "integer", "minimum": 1, "exclusiveMinimum": true}),
            json!(1),
            &["spec.x: Invalid value: 1: spec.x in body should be greater than 1"],
        ),
        (
            json!({"type": "number", "maximum": 1.5}),
            json!(1.75),
            &["spec.x: Invalid value: 1.75: spec.x in body should be less than or equal to 1.5"],
        ),
        (
            json!({"type": "number", "minimum": 1000000}),
            json!(0.5),
            &["spec.x: Invalid value: 0.5: spec.x in body should be greater than or equal to 1e+06"],
        ),
        (
            json!({"type": "integer", "multipleOf": 3}),
            json!(7),
            &["spec.x: Invalid value: 7: spec.x in body should be a multiple of 3"],
        ),
        (json!({"type": "integer", "multipleOf": 3}), json!(9), &[]),
        (json!({"type": "number", "multipleOf": 0.1}), json!(0.3), &[]),
        (
            json!({"type": "number", "multipleOf": 0.5}),
            json!(0.7),
            &["spec.x: Invalid value: 0.7: spec.x in body should be a multiple of 0.5"],
        ),
        // multipleOf, minimum and maximum are merged in that order.
        (
            json!({"type": "integer", "multipleOf": 2, "minimum": 10, "maximum": 0}),
            json!(5),
            &[
                "spec.x: Invalid value: 5: spec.x in body should be a multiple of 2",
                "spec.x: Invalid value: 5: spec.x in body should be greater than or equal to 10",
                "spec.x: Invalid value: 5: spec.x in body should be less than or equal to 0",
            ],
        ),
        // A bound outside the format's range: reported, then checked as float64 (and
        // the value printed as a float64).
        (
            json!({"type": "integer", "format": "int32", "maximum": 3000000000.0}),
            json!(5),
            &[
                r#"<nil>: Invalid value: "": Maximum boundary value must be of type integer with format int32 in spec.x"#,
            ],
        ),
        (
            json!({"type": "integer", "format": "int32", "minimum": 3000000000.0}),
            json!(1000000),
            &[
                r#"<nil>: Invalid value: "": Minimum boundary value must be of type integer with format int32 in spec.x"#,
                "spec.x: Invalid value: 1e+06: spec.x in body should be greater than or equal to 3e+09",
            ],
        ),
        // multipleOf ≤ 0 passes CRD validation; the value is the factor (as int64 for
        // integer data: int64(0.5) is 0).
        (
            json!({"type": "integer", "multipleOf": 0.5}),
            json!(3),
            &[r#"<nil>: Invalid value: "": MultipleOf value must be of type integer (default format) in spec.x"#],
        ),
        (
            json!({"multipleOf": 0.5}),
            json!(3),
            &["spec.x: Invalid value: 0: factor MultipleOf declared for spec.x must be positive: 0"],
        ),
        (
            json!({"type": "number", "multipleOf": -1.5}),
            json!(3.5),
            &["spec.x: Invalid value: -1.5: factor MultipleOf declared for spec.x must be positive: -1.5"],
        ),
    ];
    for (s, v, want) in cases {
        assert_eq!(x_errors(s.clone(), v.clone()), *want, "{s} {v}");
    }
}

#[test]
fn keyword_arrays() {
    let cases: &[(Value, Value, &[&str])] = &[
        (
            json!({"type": "array", "items": {"type": "integer"}, "minItems": 2}),
            json!([1]),
            &["spec.x: Invalid value: 1: spec.x in body should have at least 2 items"],
        ),
        (
            json!({"type": "array", "items": {"type": "integer"}, "maxItems": 1}),
            json!([1, 2]),
            &["spec.x: Too many: 2: must have at most 1 item"],
        ),
        (
            json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true}),
            json!([1, 2, 1]),
            &[r#"spec.x: Invalid value: "": spec.x in body shouldn't contain duplicates"#],
        ),
        // int64 1 and float64 1.5 differ; Go's DeepEqual.
        (
            json!({"type": "array", "items": {}, "uniqueItems": true}),
            json!([1, 1.5]),
            &[],
        ),
        // Items are validated before the sizes.
        (
            json!({"type": "array", "items": {"type": "integer"}, "maxItems": 1}),
            json!(["a", "b"]),
            &[
                r#"spec.x[0]: Invalid value: "string": spec.x[0] in body must be of type integer: "string""#,
                r#"spec.x[1]: Invalid value: "string": spec.x[1] in body must be of type integer: "string""#,
                "spec.x: Too many: 2: must have at most 1 item",
            ],
        ),
    ];
    for (s, v, want) in cases {
        assert_eq!(x_errors(s.clone(), v.clone()), *want, "{s} {v}");
    }
}

#[test]
fn keyword_objects() {
    let cases: &[(Value, Value, &[&str])] = &[
        (
            json!({"type": "object", "minProperties": 2}),
            json!({"a": 1}),
            &["spec.x: Invalid value: 1: spec.x in body should have at least 2 properties"],
        ),
        (
            json!({"type": "object", "maxProperties": 1}),
            json!({"a": 1, "b": 2}),
            &["spec.x: Too many: 2: must have at most 1 item"],
        ),
        (
            json!({"type": "object", "required": ["b", "a"]}),
            json!({}),
            &["spec.x.b: Required value", "spec.x.a: Required value"],
        ),
        (
            json!({"type": "object", "additionalProperties": false}),
            json!({"b": 1, "a": 2}),
            &[
                r#"spec.x: Invalid value: "a": spec.x.a in body is a forbidden property"#,
                r#"spec.x: Invalid value: "b": spec.x.b in body is a forbidden property"#,
            ],
        ),
        (
            json!({"type": "object", "additionalProperties": {"type": "integer"}}),
            json!({"b": "x", "a": 1}),
            &[r#"spec.x.b: Invalid value: "string": spec.x.b in body must be of type integer: "string""#],
        ),
        // additionalProperties keys (sorted), then properties (sorted), then required.
        (
            json!({"type": "object", "required": ["z"], "additionalProperties": {"type": "integer"}}),
            json!({"b": "x", "a": "y"}),
            &[
                r#"spec.x.a: Invalid value: "string": spec.x.a in body must be of type integer: "string""#,
                r#"spec.x.b: Invalid value: "string": spec.x.b in body must be of type integer: "string""#,
                "spec.x.z: Required value",
            ],
        ),
    ];
    for (s, v, want) in cases {
        assert_eq!(x_errors(s.clone(), v.clone()), *want, "{s} {v}");
    }
    // additionalProperties at the root put a dot before the key (kube-openapi's path).
    assert_eq!(
        validate_errors(
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"a": 1})
        ),
        [r#"a: Invalid value: "integer": .a in body must be of type string: "integer""#]
    );
    assert_eq!(
        validate_errors(json!({"type": "object", "required": ["a"]}), json!({})),
        ["a: Required value"]
    );
}

#[test]
fn keyword_junctors() {
    let cases: &[(Value, Value, &[&str])] = &[
        // anyOf: the composite error and the errors of the branch with most matches.
        (
            json!({"anyOf": [{"type": "string", "maxLength": 1}, {"type": "integer"}]}),
            json!("abc"),
            &[
                r#"<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)"#,
                "spec.x: Too long: may not be more than 1 byte",
            ],
        ),
        (
            json!({"oneOf": [{"type": "string"}, {"minLength": 1}]}),
            json!("abc"),
            &[
                r#"<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives"#,
            ],
        ),
        (
            json!({"oneOf": [{"type": "integer"}, {"type": "boolean"}]}),
            json!("abc"),
            &[
                r#"<nil>: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found none valid"#,
                r#"spec.x: Invalid value: "string": spec.x in body must be of type integer: "string""#,
            ],
        ),
        (
            json!({"allOf": [{"minLength": 5}, {"pattern": "^a"}]}),
            json!("bcd"),
            &[
                r#"spec.x: Invalid value: "bcd": spec.x in body should be at least 5 chars long"#,
                r#"spec.x: Invalid value: "bcd": spec.x in body should match '^a'"#,
                r#"<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated"#,
            ],
        ),
        (
            json!({"allOf": [{"minLength": 5}, {"pattern": "^b"}]}),
            json!("bcd"),
            &[
                r#"spec.x: Invalid value: "bcd": spec.x in body should be at least 5 chars long"#,
                r#"<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf)"#,
            ],
        ),
        (
            json!({"not": {"type": "string"}}),
            json!("abc"),
            &[r#"<nil>: Invalid value: "": "spec.x" must not validate the schema (not)"#],
        ),
        (json!({"not": {"type": "string"}}), json!(1), &[]),
        // Properties inside branches are validated too.
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "anyOf": [{"properties": {"a": {"maxLength": 1}}}, {"required": ["b"]}]}),
            json!({"a": "xyz"}),
            &[
                r#"<nil>: Invalid value: "": "spec.x" must validate at least one schema (anyOf)"#,
                "spec.x.a: Too long: may not be more than 1 byte",
            ],
        ),
    ];
    for (s, v, want) in cases {
        assert_eq!(x_errors(s.clone(), v.clone()), *want, "{s} {v}");
    }
}

#[test]
fn messages_are_deduplicated_per_node() {
    // Two branches report the same message: kube-openapi keeps one.
    assert_eq!(
        x_errors(json!({"allOf": [{"type": "string"}, {"type": "string"}]}), json!(1)),
        [
            r#"spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer""#,
            r#"<nil>: Invalid value: "": "spec.x" must validate all the schemas (allOf). None validated"#,
        ]
    );
}
