//! Pruning, dropping non-nullable nulls and defaulting through the reference engine:
//! the cases of apiextensions-apiserver `pruning/algorithm_test.go` (`TestPrune`),
//! `defaulting/algorithm_test.go` (`TestDefault`) and `defaulting/prunenulls_test.go`,
//! with the Go structural schemas written as JSON schemas.

mod engine_common;
use crd_codegen::engine::{default, prune};
use engine_common::*;
use serde_json::{Value, json};

fn prune_case(schema: Option<Value>, input: Value, is_root: bool, expected: Value, expected_pruned: &[&str]) {
    let (out, pruned) = prune_value(schema, input, is_root);
    assert_eq!(out, expected);
    assert_eq!(pruned, expected_pruned);
}

#[test]
fn prune_scalars_and_arrays() {
    prune_case(None, json!(null), false, json!(null), &[]);
    prune_case(Some(json!({})), json!(4), false, json!(4), &[]);
    prune_case(Some(json!({"items": {}})), json!([1, 2]), false, json!([1, 2]), &[]);
    prune_case(
        Some(json!({"items": {"properties": {"a": {}, "c": {}}}})),
        json!([{"a": 1}, {"b": 1}, {"a": 1, "b": 2, "c": 3}]),
        false,
        json!([{"a": 1}, {}, {"a": 1, "c": 3}]),
        &["[1].b", "[2].b"],
    );
    prune_case(
        None,
        json!([{"a": 1}, {"b": 1}, {"a": 1, "b": 2, "c": 3}]),
        false,
        json!([{}, {}, {}]),
        &["[0].a", "[1].b", "[2].a", "[2].b", "[2].c"],
    );
    prune_case(
        Some(json!({"properties": {
            "array": {"items": {"properties": {"a": {}, "c": {}}}},
            "specified": {"properties": {"a": {}, "c": {}}},
        }})),
        json!({"array": [{"a": 1}, {"b": 1}, {"a": 1, "b": 2, "c": 3}], "unspecified": {"a": 1}, "specified": {"a": 1, "b": 2, "c": 3}}),
        false,
        json!({"array": [{"a": 1}, {}, {"a": 1, "c": 3}], "specified": {"a": 1, "c": 3}}),
        &["array[1].b", "array[2].b", "specified.b", "unspecified"],
    );
}

#[test]
fn prune_nested_preserve_unknown_fields() {
    let schema = json!({
        "type": "object", "x-kubernetes-preserve-unknown-fields": true,
        "properties": {
            "alpha": {"type": "string"},
            "beta": {"type": "number"},
            "pruning": {"type": "object", "properties": {
                "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "pruning": {"type": "object"},
            }},
            "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {
                "preserving": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "preservingUnknownType": {"x-kubernetes-preserve-unknown-fields": true},
                "pruning": {"type": "object"},
            }},
            "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {
                "type": "object", "x-kubernetes-preserve-unknown-fields": true,
                "additionalProperties": {"type": "object", "properties": {"specified": {"type": "object"}}},
            },
            "preservingAdditionalPropertiesKeyPruneValues": {
                "type": "object",
                "additionalProperties": {"type": "object", "properties": {"specified": {"type": "object"}}},
            },
        }
    });
    let input = json!({
        "unspecified": "bar", "alpha": "abc", "beta": 42.0,
        "unspecifiedObject": {"unspecified": "bar"},
        "pruning": {
            "unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"},
            "pruning": {"unspecified": "bar"}, "apiVersion": "unknown",
            "preserving": {"unspecified": "bar"}
        },
        "preserving": {
            "unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"},
            "pruning": {"unspecified": "bar"}, "preserving": {"unspecified": "bar"},
            "preservingUnknownType": [{"foo": true}, {"bar": true}]
        },
        "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {
            "foo": {"specified": {"unspecified": "bar"}, "unspecified": "bar"}
        },
        "preservingAdditionalPropertiesKeyPruneValues": {
            "foo": {"specified": {"unspecified": "bar"}, "unspecified": "bar"}
        }
    });
    let expected = json!({
        "unspecified": "bar", "alpha": "abc", "beta": 42.0,
        "unspecifiedObject": {"unspecified": "bar"},
        "pruning": {"pruning": {}, "preserving": {"unspecified": "bar"}},
        "preserving": {
            "unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"},
            "pruning": {}, "preserving": {"unspecified": "bar"},
            "preservingUnknownType": [{"foo": true}, {"bar": true}]
        },
        "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {"foo": {"specified": {}}},
        "preservingAdditionalPropertiesKeyPruneValues": {"foo": {"specified": {}}}
    });
    prune_case(
        Some(schema),
        input,
        false,
        expected,
        &[
            "preserving.pruning.unspecified",
            "preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified",
            "preservingAdditionalPropertiesKeyPruneValues.foo.unspecified",
            "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified",
            "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified",
            "pruning.apiVersion",
            "pruning.pruning.unspecified",
            "pruning.unspecified",
            "pruning.unspecifiedObject",
        ],
    );
}

#[test]
fn prune_additional_properties() {
    prune_case(
        Some(json!({"properties": {"a": {}, "c": {"additionalProperties": {"type": "integer"}}}})),
        json!({"a": 1, "b": 1, "c": {"a": 1, "b": 2, "c": {"a": 1}}}),
        false,
        json!({"a": 1, "c": {"a": 1, "b": 2, "c": {}}}),
        &["b", "c.c.a"],
    );
    prune_case(
        Some(json!({"properties": {"a": {}, "c": {"additionalProperties": false}}})),
        json!({"a": 1, "b": 1, "c": {"a": 1, "b": 2, "c": {"a": 1, "apiVersion": "unknown"}}}),
        false,
        json!({"a": 1, "c": {"a": 1, "b": 2, "c": {}}}),
        &["b", "c.c.a", "c.c.apiVersion"],
    );
}

fn embedded_input(with_namespace: bool) -> Value {
    let meta = if with_namespace {
        json!({"name": "instance", "namespace": "myns", "labels": {"foo": "bar"}, "unspecified": "bar"})
    } else {
        json!({"name": "instance", "unspecified": "bar"})
    };
    let resource = |spec: Value| json!({"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", "metadata": meta.clone(), "spec": spec});
    let mut nested = resource(json!({"unspecified": "bar", "embedded": resource(json!({"unspecified": "bar"}))}));
    let _ = &mut nested;
    json!({
        "apiVersion": "foo/v1", "kind": "Foo", "metadata": meta.clone(), "unspecified": "bar",
        "pruned": resource(json!({"unspecified": "bar"})),
        "preserving": resource(json!({"unspecified": "bar"})),
        "nested": nested,
    })
}

fn embedded_expected(with_namespace: bool, root_kept: bool) -> Value {
    let meta = if with_namespace {
        json!({"name": "instance", "namespace": "myns", "labels": {"foo": "bar"}, "unspecified": "bar"})
    } else {
        json!({"name": "instance", "unspecified": "bar"})
    };
    let pruned = |spec: Value| json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": meta.clone(), "spec": spec});
    let mut out = json!({
        "pruned": pruned(json!({})),
        "preserving": {"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", "metadata": meta.clone(), "spec": {"unspecified": "bar"}},
        "nested": pruned(json!({"embedded": pruned(json!({}))})),
    });
    if root_kept {
        let m = out.as_object_mut().unwrap();
        m.insert("apiVersion".into(), json!("foo/v1"));
        m.insert("kind".into(), json!("Foo"));
        m.insert("metadata".into(), meta);
    }
    out
}

const EMBEDDED_PRUNED: [&str; 7] = [
    "nested.spec.embedded.spec.unspecified",
    "nested.spec.embedded.unspecified",
    "nested.spec.unspecified",
    "nested.unspecified",
    "pruned.spec.unspecified",
    "pruned.unspecified",
    "unspecified",
];

#[test]
fn prune_embedded_resources() {
    let schema = json!({"type": "object", "properties": {
        "pruned": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}},
        "preserving": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
        "nested": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
            "spec": {"type": "object", "properties": {
                "embedded": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}},
            }},
        }},
    }});
    // Not a resource root: the root's apiVersion, kind and metadata are pruned, but not
    // recorded.
    prune_case(
        Some(schema),
        embedded_input(false),
        false,
        embedded_expected(false, false),
        &EMBEDDED_PRUNED,
    );
}

#[test]
fn prune_embedded_resources_at_a_resource_root() {
    let schema = json!({"type": "object", "properties": {
        "metadata": {"type": "object"},
        "pruned": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
            "metadata": {"type": "object"}, "spec": {"type": "object"}}},
        "preserving": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
        "nested": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
            "spec": {"type": "object", "properties": {
                "embedded": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                    "metadata": {"type": "object"}, "spec": {"type": "object"}}},
            }},
        }},
    }});
    prune_case(
        Some(schema),
        embedded_input(true),
        true,
        embedded_expected(true, true),
        &EMBEDDED_PRUNED,
    );
}

#[test]
fn prune_records_root_meta_fields_only_below_the_root() {
    // Go: a meta field is not recorded at the root (even when pruned there).
    prune_case(
        Some(json!({"type": "object", "properties": {"spec": {"type": "object"}}})),
        json!({"kind": "X", "spec": {"kind": "Y"}}),
        false,
        json!({"spec": {}}),
        &["spec.kind"],
    );
}

// ---------------------------------------------------------------------------------------
// TestDefault
// ---------------------------------------------------------------------------------------

fn default_case(schema: Option<Value>, input: Value, expected: Value) {
    let mut v = input;
    match schema {
        Some(s) => v = default_value(s, v),
        None => default::default(&mut v, None),
    }
    assert_eq!(v, expected);
}

#[test]
fn defaults() {
    default_case(None, json!(null), json!(null));
    default_case(Some(json!({"default": "foo"})), json!(4), json!(4));
    default_case(Some(json!({"items": {"default": "foo"}})), json!([1, 2]), json!([1, 2]));
    default_case(
        Some(json!({"items": {"properties": {"a": {"default": "A"}, "b": {"default": "B"}, "c": {"default": "C"}}}})),
        json!([{"a": 1}, {"b": 1}, {"c": 1}]),
        json!([{"a": 1, "b": "B", "c": "C"}, {"a": "A", "b": 1, "c": "C"}, {"a": "A", "b": "B", "c": 1}]),
    );
    default_case(
        Some(json!({"properties": {
            "array": {"items": {"properties": {"a": {"default": "A"}, "b": {"default": "B"}}}},
            "object": {"properties": {"a": {"default": "N"}, "b": {"default": "O"}}},
            "additionalProperties": {"additionalProperties": {"properties": {"a": {"default": "alpha"}, "b": {"default": "beta"}}}},
            "foo": {"default": "bar"},
        }})),
        json!({"array": [{"a": 1}, {"b": 2}], "object": {"a": 1}, "additionalProperties": {"x": {"a": 1}, "y": {"b": 2}}}),
        json!({"array": [{"a": 1, "b": "B"}, {"a": "A", "b": 2}], "object": {"a": 1, "b": "O"}, "additionalProperties": {"x": {"a": 1, "b": "beta"}, "y": {"a": "alpha", "b": 2}}, "foo": "bar"}),
    );
    default_case(
        Some(json!({"items": {"properties": {"a": {"default": "A"}}}})),
        json!([{}, {"a": 1}, {"a": 0}, {"a": 0.0}, {"a": ""}, {"a": null}, {"a": []}, {"a": {}}]),
        json!([{"a": "A"}, {"a": 1}, {"a": 0}, {"a": 0.0}, {"a": ""}, {"a": "A"}, {"a": []}, {"a": {}}]),
    );
    default_case(
        Some(json!({"nullable": true, "items": {"properties": {"a": {"default": "A"}}}})),
        json!([null]),
        json!([null]),
    );
    default_case(Some(json!({"items": {"default": "A"}})), json!([null]), json!(["A"]));
    default_case(
        Some(json!({"properties": {"a": {"nullable": true, "default": "A"}}})),
        json!({"a": null}),
        json!({"a": null}),
    );
    default_case(
        Some(json!({"properties": {"a": {"default": "A"}}})),
        json!({"a": null}),
        json!({"a": "A"}),
    );
    default_case(
        Some(json!({"additionalProperties": {"nullable": true, "default": "A"}})),
        json!({"a": null}),
        json!({"a": null}),
    );
    default_case(
        Some(json!({"additionalProperties": {"default": "A"}})),
        json!({"a": null}),
        json!({"a": "A"}),
    );
    default_case(
        Some(json!({"additionalProperties": true})),
        json!({"a": null}),
        json!({"a": null}),
    );
}

#[test]
fn defaults_inside_inserted_defaults() {
    default_case(
        Some(
            json!({"properties": {"spec": {"type": "object", "default": {}, "properties": {
                "a": {"type": "string", "default": "A"},
                "list": {"type": "array", "default": [{}], "items": {"type": "object", "properties": {"b": {"default": 1}}}},
            }}}}),
        ),
        json!({}),
        json!({"spec": {"a": "A", "list": [{"b": 1}]}}),
    );
    // Defaults never create missing parents.
    default_case(
        Some(json!({"properties": {"spec": {"type": "object", "properties": {"a": {"default": "A"}}}}})),
        json!({}),
        json!({}),
    );
}

// ---------------------------------------------------------------------------------------
// TestPruneNonNullableNullsWithoutDefaults
// ---------------------------------------------------------------------------------------

#[test]
fn drop_non_nullable_nulls() {
    let mut v = json!(null);
    default::drop_nulls(&mut v, None);
    assert_eq!(v, json!(null));
    assert_eq!(drop_nulls_value(json!({"default": "foo"}), json!(4)), json!(4));
    let mut v = json!([1, null]);
    default::drop_nulls(&mut v, None);
    assert_eq!(v, json!([1, null]));
    assert_eq!(
        drop_nulls_value(
            json!({"items": {"properties": {
                "a": {"default": "A"},
                "b": {"nullable": true},
                "c": {"default": "C", "nullable": true},
                "d": {},
            }}}),
            json!([{"a": null}, {"b": null}, {"c": null}, {"d": null}, {"e": null}])
        ),
        json!([{"a": null}, {"b": null}, {"c": null}, {}, {"e": null}])
    );
    // additionalProperties schemas count; array elements are never removed.
    assert_eq!(
        drop_nulls_value(
            json!({"additionalProperties": {"items": {}}}),
            json!({"a": null, "b": [null]})
        ),
        json!({"b": [null]})
    );
}

#[test]
fn prune_nil_schema_at_resource_root() {
    let mut v = json!({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "n"}, "spec": {}});
    let mut pruned = Vec::new();
    prune::prune(&mut v, None, true, &mut pruned);
    assert_eq!(v, json!({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "n"}}));
    assert_eq!(pruned, ["spec"]);
}
