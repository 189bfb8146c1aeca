//! List types, embedded resources and object metadata through the reference engine:
//! cases of apiextensions-apiserver `listtype/validation_test.go`,
//! `objectmeta/{algorithm,coerce,validation}_test.go`, with the exact messages.

mod engine_common;
use crd_codegen::engine::meta;
use crd_runtime::errors::Path;
use crd_runtime::objectmeta;
use engine_common::*;
use serde_json::{Value, json};

fn set(items: Value) -> Value {
    let mut s = json!({"type": "array", "x-kubernetes-list-type": "set"});
    if !items.is_null() {
        s["items"] = items;
    }
    s
}

#[test]
fn list_sets() {
    let obj = |v: Value| json!({"array": v});
    let schema = |a: Value| json!({"type": "object", "properties": {"array": a}});
    // No list type, no items: nothing.
    assert!(
        list_errors(
            json!({"type": "object", "properties": {"array": {"type": "array"}}}),
            obj(json!(["a", "b", "a"]))
        )
        .is_empty()
    );
    assert!(list_errors(schema(set(Value::Null)), obj(json!(["a"]))).is_empty());
    assert_eq!(
        list_errors(schema(set(Value::Null)), obj(json!(["a", "a"]))),
        [r#"array[1]: Duplicate value: "a""#]
    );
    assert!(list_errors(schema(set(Value::Null)), obj(json!(["a", "b"]))).is_empty());
    assert_eq!(
        list_errors(schema(set(Value::Null)), obj(json!(["a", "a", "b", "c", "d", "c"]))),
        [r#"array[1]: Duplicate value: "a""#, r#"array[5]: Duplicate value: "c""#]
    );
    assert!(
        list_errors(
            schema(json!({"type": "array", "items": {"type": "string"}})),
            obj(json!(["a", "b", "a"]))
        )
        .is_empty()
    );
    assert_eq!(
        list_errors(schema(set(json!({"type": "string"}))), obj(json!(["a", "b", "a"]))),
        [r#"array[2]: Duplicate value: "a""#]
    );
    // Under additionalProperties the key is in brackets.
    assert_eq!(
        list_errors(
            json!({"type": "object", "additionalProperties": set(json!({"type": "string"}))}),
            obj(json!(["a", "b", "a"]))
        ),
        [r#"[array][2]: Duplicate value: "a""#]
    );
    assert_eq!(
        list_errors(
            schema(json!({"type": "array", "items": set(json!({"type": "string"}))})),
            obj(json!([["a", "b", "a"], ["b", "b", "a"]]))
        ),
        [
            r#"array[0][2]: Duplicate value: "a""#,
            r#"array[1][1]: Duplicate value: "b""#
        ]
    );
    assert_eq!(
        list_errors(
            schema(set(set(Value::Null))),
            obj(json!(["a", "b", "a", ["b", "b", "a"]]))
        ),
        [
            r#"array[2]: Duplicate value: "a""#,
            r#"array[3][1]: Duplicate value: "b""#
        ]
    );
}

#[test]
fn list_sets_of_compound_values() {
    let props = [
        (
            "strings",
            json!(["a", "b", "a"]),
            vec![r#"strings[2]: Duplicate value: "a""#],
        ),
        ("integers", json!([1, 2, 1]), vec!["integers[2]: Duplicate value: 1"]),
        (
            "booleans",
            json!([false, true, true]),
            vec!["booleans[2]: Duplicate value: true"],
        ),
        (
            "float64",
            json!([1.5, 2.5, 2.5]),
            vec!["float64[2]: Duplicate value: 2.5"],
        ),
        ("nil", json!(["a", null, null]), vec!["nil[2]: Duplicate value: null"]),
        (
            "empty maps",
            json!([{"a": "b"}, {}, {}]),
            vec!["empty maps[2]: Duplicate value: {}"],
        ),
        (
            "map values",
            json!([{"a": "b"}, {"a": "c"}, {"a": "b"}]),
            vec![r#"map values[2]: Duplicate value: {"a":"b"}"#],
        ),
        ("nil values", json!([{"a": null}, {"b": "c", "a": null}]), vec![]),
        (
            "array",
            json!([[], ["a"], ["b"], ["a"]]),
            vec![r#"array[3]: Duplicate value: ["a"]"#],
        ),
        (
            "nil array",
            json!([[], [null], [null, null], [null], ["a"]]),
            vec!["nil array[3]: Duplicate value: [null]"],
        ),
        (
            "multiple duplicates",
            json!([{"a": "b"}, {"a": "c"}, {"a": "b"}, {"a": "c"}, {"a": "c"}]),
            vec![
                r#"multiple duplicates[2]: Duplicate value: {"a":"b"}"#,
                r#"multiple duplicates[3]: Duplicate value: {"a":"c"}"#,
            ],
        ),
    ];
    for (name, value, want) in props {
        let schema = json!({"type": "object", "properties": {name: set(json!({}))}});
        assert_eq!(list_errors(schema, json!({name: value})), want, "{name}");
    }
}

#[test]
fn list_maps() {
    let schema = |keys: Value| {
        json!({"type": "object", "properties": {"array": {
            "type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": keys,
            "items": {"type": "object", "properties": {"k": {"type": "string"}, "k2": {"type": "integer"}, "v": {}}}
        }}})
    };
    assert!(list_errors(schema(json!(["k"])), json!({"array": [{"k": "a"}, {"k": "b"}]})).is_empty());
    assert_eq!(
        list_errors(
            schema(json!(["k"])),
            json!({"array": [{"k": "a", "v": 1}, {"k": "b"}, {"k": "a", "v": 2}]})
        ),
        [r#"array[2]: Duplicate value: {"k":"a"}"#]
    );
    // Missing keys are "unspecified" and collide with each other; null elements too.
    assert_eq!(
        list_errors(
            schema(json!(["k"])),
            json!({"array": [{"v": 1}, null, {"k": null}, {"k": null}]})
        ),
        [
            "array[1]: Duplicate value: {}",
            r#"array[3]: Duplicate value: {"k":null}"#
        ]
    );
    assert_eq!(
        list_errors(
            schema(json!(["k", "k2"])),
            json!({"array": [{"k": "a", "k2": 1}, {"k": "a", "k2": 2}, {"k": "a", "k2": 1}, {"k2": 1}, {"k2": 1}]})
        ),
        [
            r#"array[2]: Duplicate value: {"k":"a","k2":1}"#,
            r#"array[4]: Duplicate value: {"k2":1}"#
        ]
    );
    assert_eq!(
        list_errors(schema(json!(["k"])), json!({"array": [{"k": "a"}, "x", 5]})),
        [r#"array[1]: Invalid value: "x": must be an object for an array of list-type map"#]
    );
}

// ---------------------------------------------------------------------------------------
// objectmeta: Validate / validateEmbeddedResource
// ---------------------------------------------------------------------------------------

fn embedded(obj: Value) -> Vec<String> {
    embedded_errors(json!({"x-kubernetes-embedded-resource": true}), obj, false)
}

#[test]
fn validate_embedded_resource() {
    assert_eq!(
        embedded(json!({})),
        ["apiVersion: Required value", "kind: Required value"]
    );
    assert!(embedded(json!({"apiVersion": "foo/v1", "kind": "Foo"})).is_empty());
    assert_eq!(
        embedded(json!({"apiVersion": "foo/v1", "kind": "foo.bar-com"})),
        [
            r#"kind: Invalid value: "foo.bar-com": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#
        ]
    );
    assert!(
        embedded(json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"namespace": "kube-system"}})).is_empty()
    );
    assert!(embedded(json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "foo"}})).is_empty());
    let errs = embedded(json!({"apiVersion": "foo/v1", "kind": "Foo", "metadata": {
        "name": "..", "namespace": "$$$", "labels": {"#": "#"}, "annotations": {"#": "#"}
    }}));
    assert_eq!(errs.len(), 5, "{errs:?}");
    assert_eq!(errs[0], r#"metadata.name: Invalid value: "..": may not be '..'"#);
    assert!(
        errs[1].starts_with(r#"metadata.namespace: Invalid value: "$$$": a lowercase RFC 1123 label must consist of"#)
    );
    assert!(
        errs[2]
            .starts_with(r##"metadata.labels: Invalid value: "#": name part must consist of alphanumeric characters"##)
    );
    assert!(
        errs[3].starts_with(
            r##"metadata.labels: Invalid value: "#": a valid label must be an empty string or consist of"##
        )
    );
    assert!(errs[4].starts_with(r##"metadata.annotations: Invalid value: "#": name part must consist of"##));
    assert_eq!(
        embedded(json!({"apiVersion": 5, "kind": "", "metadata": "x"})),
        [
            "apiVersion: Invalid value: 5: must be a string",
            r#"kind: Invalid value: "": must not be empty"#,
            r#"metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta"#,
        ]
    );
    assert_eq!(
        embedded(json!({"apiVersion": "a/b/c", "kind": "K"})),
        [r#"apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c"#]
    );
}

#[test]
fn validate_walks_to_embedded_resources() {
    let schema = json!({"properties": {
        "embedded": {"x-kubernetes-embedded-resource": true},
        "nested": {"x-kubernetes-embedded-resource": true, "properties": {"embedded": {"x-kubernetes-embedded-resource": true}}},
        "items": {"items": {"x-kubernetes-embedded-resource": true}},
        "additionalProperties": {"additionalProperties": {"x-kubernetes-embedded-resource": true}},
    }});
    assert!(embedded_errors(schema.clone(), json!({}), false).is_empty());
    assert_eq!(
        embedded_errors(schema.clone(), json!({}), true),
        ["apiVersion: Required value", "kind: Required value"]
    );
    assert_eq!(
        embedded_errors(schema.clone(), json!({"embedded": {}}), false),
        ["embedded.apiVersion: Required value", "embedded.kind: Required value"]
    );
    assert_eq!(
        embedded_errors(schema.clone(), json!({"nested": {"embedded": {}}}), false),
        [
            "nested.apiVersion: Required value",
            "nested.kind: Required value",
            "nested.embedded.apiVersion: Required value",
            "nested.embedded.kind: Required value",
        ]
    );
    assert_eq!(
        embedded_errors(schema.clone(), json!({"items": [{}]}), false),
        ["items[0].apiVersion: Required value", "items[0].kind: Required value"]
    );
    assert_eq!(
        embedded_errors(schema, json!({"additionalProperties": {"foo": {}}}), false),
        [
            "additionalProperties[foo].apiVersion: Required value",
            "additionalProperties[foo].kind: Required value"
        ]
    );
}

// ---------------------------------------------------------------------------------------
// objectmeta: Coerce / GetObjectMeta
// ---------------------------------------------------------------------------------------

fn coerce_case(schema: Value, mut input: Value, include_root: bool, drop: bool) -> Result<Value, String> {
    let c = compile(schema);
    meta::coerce(
        &mut input,
        Some(&c),
        include_root,
        &mut crd_runtime::objectmeta::Coercion::new(drop),
        &Path::Root,
    )
    .map_err(|e| e.to_string())?;
    Ok(input)
}

fn resource(spec: Value, meta: Value) -> Value {
    json!({"apiVersion": "foo/v1", "kind": "Foo", "unspecified": "bar", "metadata": meta, "spec": spec})
}

#[test]
fn coerce_embedded_metadata() {
    let schema = json!({"type": "object", "properties": {
        "pruned": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}},
        "preserving": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
        "nested": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
            "spec": {"type": "object", "properties": {
                "embedded": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}}}}}},
    }});
    let unknown = json!({"name": "instance", "unspecified": "bar"});
    let clean = json!({"name": "instance"});
    let input = json!({
        "apiVersion": "foo/v1", "kind": "Foo", "metadata": unknown, "unspecified": "bar",
        "pruned": resource(json!({"unspecified": "bar"}), unknown.clone()),
        "preserving": resource(json!({"unspecified": "bar"}), unknown.clone()),
        "nested": resource(json!({"unspecified": "bar", "embedded": resource(json!({"unspecified": "bar"}), unknown.clone())}), unknown.clone()),
    });
    let expected = |root_meta: Value| {
        json!({
            "apiVersion": "foo/v1", "kind": "Foo", "metadata": root_meta, "unspecified": "bar",
            "pruned": resource(json!({"unspecified": "bar"}), clean.clone()),
            "preserving": resource(json!({"unspecified": "bar"}), clean.clone()),
            "nested": resource(json!({"unspecified": "bar", "embedded": resource(json!({"unspecified": "bar"}), clean.clone())}), clean.clone()),
        })
    };
    assert_eq!(
        coerce_case(schema.clone(), input.clone(), false, false),
        Ok(expected(unknown.clone()))
    );
    assert_eq!(coerce_case(schema, input, true, false), Ok(expected(clean.clone())));
}

#[test]
fn coerce_reports_or_drops_malformed_fields() {
    let schema = json!({"type": "object", "properties": {"e": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}});
    let input = json!({"e": {"apiVersion": 1, "kind": "K", "metadata": {"name": "n", "labels": {"a": 1}}}});
    assert_eq!(
        coerce_case(schema.clone(), input.clone(), false, false),
        Err("e.apiVersion: Invalid value: 1: must be a string".into())
    );
    assert_eq!(
        coerce_case(schema.clone(), json!({"e": {"kind": "K", "metadata": {"labels": {"a": 1}}}}), false, false),
        Err(r#"e.metadata: Invalid value: {"labels":{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"#.into())
    );
    assert_eq!(
        coerce_case(schema, input, false, true),
        Ok(json!({"e": {"kind": "K", "metadata": {"name": "n"}}}))
    );
}

#[test]
fn get_object_meta_with_options() {
    let unknown_and_malformed = json!({"metadata": {
        "name": "my-meta", "unknownField": "foo", "generateName": null, "generation": null,
        "labels": {"foo": "bar"}, "annotations": 11
    }});
    let m = unknown_and_malformed.as_object().unwrap();
    assert_eq!(
        objectmeta::get_object_meta(m, false).unwrap_err(),
        "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
    );
    let meta = objectmeta::get_object_meta(m, true).unwrap().unwrap();
    assert_eq!(
        meta.to_value(),
        json!({"name": "my-meta", "labels": {"foo": "bar"}, "creationTimestamp": null})
    );
    assert_eq!(objectmeta::get_object_meta(&serde_json::Map::new(), true), Ok(None));
}

/// `TestMalformedObjectMetaFields`, deterministic: each top-level field of a complete
/// ObjectMeta replaced by each spurious value either decodes, or is dropped alone.
#[test]
fn malformed_object_meta_fields_are_dropped_one_by_one() {
    let good = json!({
        "name": "n", "generateName": "g", "namespace": "ns", "selfLink": "/x", "uid": "u",
        "resourceVersion": "1", "generation": 3, "creationTimestamp": "2020-01-01T00:00:00Z",
        "deletionTimestamp": "2020-01-02T00:00:00Z", "deletionGracePeriodSeconds": 30,
        "labels": {"a": "b"}, "annotations": {"c": "d"},
        "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": "u", "controller": true}],
        "finalizers": ["f"],
        "managedFields": [{"manager": "m", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:a": {}}}],
    });
    let spurious = [
        json!(null),
        json!(1),
        json!(1.5),
        json!(true),
        json!("a"),
        json!(["a", "b"]),
        json!({"a": "1", "b": "2"}),
        json!([1, 2]),
        json!([1.5, 2.5]),
        json!({"a": "1", "b": null}),
        json!({"a": "1", "b": ["nested"]}),
        json!(["a", 1, 1.5, true, ["nested"]]),
    ];
    let full = objectmeta::decode_object_meta(&good).unwrap();
    for field in good.as_object().unwrap().keys() {
        for v in &spurious {
            let mut bad = good.clone();
            bad[field] = v.clone();
            let obj = json!({"metadata": bad});
            let got = objectmeta::get_object_meta(obj.as_object().unwrap(), true)
                .unwrap()
                .unwrap();
            let expected = match objectmeta::decode_object_meta(&bad) {
                Ok(m) => m,
                Err(_) => {
                    let mut truncated = good.clone();
                    truncated.as_object_mut().unwrap().remove(field);
                    objectmeta::decode_object_meta(&truncated).unwrap()
                }
            };
            assert_eq!(got, expected, "{field} = {v}");
        }
    }
    // Round trip of a well-formed ObjectMeta.
    let back = full.to_value();
    assert_eq!(objectmeta::decode_object_meta(&back).unwrap(), full);
    assert_eq!(
        back["ownerReferences"],
        json!([{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": "u", "controller": true}])
    );
}
