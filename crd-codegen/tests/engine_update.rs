//! Updates through the reference engine: OpenAPI ratcheting (apiextensions-apiserver
//! `pkg/apiserver/validation/ratcheting_test.go` and the correlation rules of
//! `CorrelatedObject`), and the admission pipeline's update rules (object meta,
//! list-type ratcheting, namespaces, bad requests).

mod engine_common;
use engine_common::*;
use serde_json::{Value, json};

fn medium() -> Value {
    json!({"type": "number", "minimum": 50, "maximum": 10000})
}

fn object_schema() -> Value {
    json!({"type": "object", "properties": {
        "zero": {"type": "number", "minimum": 0, "maximum": 0},
        "small": {"type": "number", "maximum": 50},
        "medium": medium(),
        "large": {"type": "number", "minimum": 10000},
    }})
}

fn valid_update(schema: Value, new: Value, old: Value) -> bool {
    validate_update_errors(schema, new, old).is_empty()
}

#[test]
fn scalar_ratcheting() {
    assert!(valid_update(medium(), json!(1), json!(1)));
    assert!(!valid_update(medium(), json!(1), json!(2)));
}

#[test]
fn object_scalar_fields_ratcheting() {
    assert!(valid_update(
        object_schema(),
        json!({"small": 500}),
        json!({"small": 500})
    ));
    assert!(valid_update(
        object_schema(),
        json!({"small": 501}),
        json!({"small": 501, "medium": 500})
    ));
    assert!(!valid_update(
        object_schema(),
        json!({"small": 500}),
        json!({"small": 501})
    ));
}

#[test]
fn object_object_fields_ratcheting() {
    let s = json!({"type": "object", "properties": {"nested": object_schema()}});
    assert!(valid_update(
        s.clone(),
        json!({"nested": {"small": 500}}),
        json!({"nested": {"small": 500}})
    ));
    assert!(valid_update(
        s.clone(),
        json!({"nested": {"small": 501}}),
        json!({"nested": {"small": 501, "medium": 500}})
    ));
    assert!(!valid_update(
        s,
        json!({"nested": {"small": 500}}),
        json!({"nested": {"small": 501}})
    ));
}

#[test]
fn numeric_format_ratcheting() {
    let s = json!({"type": "object", "properties": {
        "intThirtyTwo": {"type": "integer", "format": "int32"},
        "unrelated": {"type": "string"},
    }});
    let big = i32::MAX as i64 + 1;
    assert!(valid_update(
        s.clone(),
        json!({"intThirtyTwo": big}),
        json!({"intThirtyTwo": big})
    ));
    assert!(valid_update(
        s.clone(),
        json!({"intThirtyTwo": big, "unrelated": "changed"}),
        json!({"intThirtyTwo": big, "unrelated": "original"})
    ));
    assert!(!valid_update(
        s,
        json!({"intThirtyTwo": big + 1}),
        json!({"intThirtyTwo": big})
    ));
}

#[test]
fn ratcheting_reports_the_changed_fields_only() {
    let s = object_schema();
    assert_eq!(
        validate_update_errors(s, json!({"small": 500, "large": 1}), json!({"small": 500, "large": 2})),
        ["large: Invalid value: 1: large in body should be greater than or equal to 10000"]
    );
}

#[test]
fn int64_and_float64_are_not_equal() {
    // Go's DeepEqual: an int64 never equals a float64 of the same number.
    assert!(!valid_update(medium(), json!(1), json!(1.0)));
}

#[test]
fn map_lists_correlate_by_key() {
    let s = json!({"type": "object", "properties": {"list": {
        "type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
        "items": {"type": "object", "properties": {"name": {"type": "string"}, "value": {"type": "integer", "maximum": 5}}}
    }}});
    // Reordered, unchanged invalid element: ratcheted.
    assert!(valid_update(
        s.clone(),
        json!({"list": [{"name": "b", "value": 1}, {"name": "a", "value": 10}]}),
        json!({"list": [{"name": "a", "value": 10}, {"name": "b", "value": 1}]})
    ));
    // A new element with an invalid value: reported.
    assert_eq!(
        validate_update_errors(
            s.clone(),
            json!({"list": [{"name": "a", "value": 10}, {"name": "c", "value": 10}]}),
            json!({"list": [{"name": "a", "value": 10}]})
        ),
        ["list[1].value: Invalid value: 10: list[1].value in body should be less than or equal to 5"]
    );
}

#[test]
fn atomic_lists_compare_as_a_whole() {
    let s = json!({"type": "object", "properties": {"list": {
        "type": "array", "items": {"type": "integer", "maximum": 5}
    }}});
    assert!(valid_update(
        s.clone(),
        json!({"list": [10, 1]}),
        json!({"list": [10, 1]})
    ));
    // Elements do not correlate: changing another element reports the invalid one.
    assert_eq!(
        validate_update_errors(s.clone(), json!({"list": [10, 2]}), json!({"list": [10, 1]})),
        ["list[0]: Invalid value: 10: list[0] in body should be less than or equal to 5"]
    );
    // Sets are not correlatable either.
    let set = json!({"type": "object", "properties": {"list": {
        "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer", "maximum": 5}
    }}});
    assert!(!valid_update(set, json!({"list": [10, 2]}), json!({"list": [10, 1]})));
}

#[test]
fn map_keys_correlate() {
    let s = json!({"type": "object", "properties": {"m": {
        "type": "object", "additionalProperties": {"type": "string", "maxLength": 1}
    }}});
    assert!(valid_update(
        s.clone(),
        json!({"m": {"a": "long", "b": "x"}}),
        json!({"m": {"a": "long"}})
    ));
    assert_eq!(
        validate_update_errors(
            s,
            json!({"m": {"a": "long", "b": "longer"}}),
            json!({"m": {"a": "long"}})
        ),
        ["m.b: Too long: may not be more than 1 byte"]
    );
}

#[test]
fn unknown_fields_never_compare_equal() {
    // An object with fields the schema does not know is never "unchanged": its own
    // errors (here maxProperties) are not ratcheted.
    let s = json!({"type": "object", "properties": {"o": {
        "type": "object", "maxProperties": 1, "x-kubernetes-preserve-unknown-fields": true
    }}});
    assert_eq!(
        validate_update_errors(s, json!({"o": {"a": 1, "b": 2}}), json!({"o": {"a": 1, "b": 2}})),
        ["o: Too many: 2: must have at most 1 item"]
    );
}

#[test]
fn junctor_errors_ratchet_with_their_node() {
    let s = json!({"type": "object", "properties": {"x": {"type": "string", "anyOf": [{"maxLength": 1}, {"pattern": "^a"}]}}});
    assert!(valid_update(s.clone(), json!({"x": "bcd"}), json!({"x": "bcd"})));
    assert_eq!(
        validate_update_errors(s, json!({"x": "bcde"}), json!({"x": "bcd"})),
        [
            r#"<nil>: Invalid value: "": "x" must validate at least one schema (anyOf)"#,
            "x: Too long: may not be more than 1 byte",
        ]
    );
}

#[test]
fn root_type_meta_never_ratchets() {
    let s = json!({"type": "object", "properties": {"kind": {"type": "string", "maxLength": 1}, "spec": {"type": "string", "maxLength": 1}}});
    // An unknown key makes the root unequal to the old one; `spec` ratchets, `kind`
    // does not.
    assert_eq!(
        validate_update_errors(
            s.clone(),
            json!({"kind": "Foo", "spec": "xx", "x": 1}),
            json!({"kind": "Foo", "spec": "xx", "x": 1})
        ),
        ["kind: Too long: may not be more than 1 byte"]
    );
    // A root equal to the old root ratchets everything below it.
    assert!(
        validate_update_errors(
            s,
            json!({"kind": "Foo", "spec": "xx"}),
            json!({"kind": "Foo", "spec": "xx"})
        )
        .is_empty()
    );
}

// ---------------------------------------------------------------------------------------
// The admission pipeline on update
// ---------------------------------------------------------------------------------------

fn foo(spec: Value, meta: Value) -> Value {
    let mut m = json!({"name": "a", "resourceVersion": "1"});
    if let (Value::Object(m), Value::Object(extra)) = (&mut m, meta) {
        m.extend(extra);
    }
    json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": m, "spec": spec})
}

fn spec_schema(spec: Value) -> Value {
    json!({"type": "object", "properties": {"spec": spec}})
}

/// The store refuses an update without a resource version before validating it
/// (`registry/generic/registry/store.go`: its parsed resource version is 0 and custom
/// resources allow no unconditional update); with one, the name is immutable (checked
/// by the registry's `BeforeUpdate` and by the custom resource validator, so twice).
#[test]
fn update_requires_a_resource_version_and_keeps_names() {
    let e = engine(spec_schema(json!({"type": "object"})));
    let v = e.version("v1").unwrap();
    for version in [None, Some("0")] {
        let mut new = foo(json!({}), json!({"name": "b"}));
        match version {
            None => new["metadata"].as_object_mut().unwrap().remove("resourceVersion"),
            Some(rv) => new["metadata"]
                .as_object_mut()
                .unwrap()
                .insert("resourceVersion".into(), rv.into()),
        };
        let a = v.update(new, foo(json!({}), json!({})), "default");
        assert_eq!(
            strings(&a.errors),
            ["metadata.resourceVersion: Invalid value: 0: must be specified for an update"],
            "{version:?}"
        );
    }
    let a = v.update(
        foo(json!({}), json!({"name": "b"})),
        foo(json!({}), json!({})),
        "default",
    );
    assert_eq!(
        strings(&a.errors),
        [
            r#"metadata.name: Invalid value: "b": field is immutable"#,
            r#"metadata.name: Invalid value: "b": field is immutable"#,
        ]
    );
}

#[test]
fn update_takes_system_fields_from_the_old_object() {
    let e = engine(spec_schema(json!({"type": "object"})));
    let v = e.version("v1").unwrap();
    let old = foo(
        json!({}),
        json!({"uid": "u1", "generation": 4, "creationTimestamp": "2020-01-01T00:00:00Z"}),
    );
    let a = v.update(foo(json!({"x": 1}), json!({})), old, "default");
    assert!(a.is_admitted(), "{:?}", a.errors);
    assert_eq!(
        a.object["metadata"],
        json!({"name": "a", "namespace": "default", "resourceVersion": "1", "uid": "u1", "generation": 4, "creationTimestamp": "2020-01-01T00:00:00Z"})
    );
    assert_eq!(a.object["spec"], json!({}), "pruned");
    assert_eq!(a.pruned, ["spec.x"]);
}

#[test]
fn update_ratchets_openapi_errors() {
    let e = engine(spec_schema(
        json!({"type": "object", "properties": {"replicas": {"type": "integer", "maximum": 3}, "image": {"type": "string"}}}),
    ));
    let v = e.version("v1").unwrap();
    let old = foo(json!({"replicas": 5, "image": "a"}), json!({}));
    assert!(
        v.update(
            foo(json!({"replicas": 5, "image": "b"}), json!({})),
            old.clone(),
            "default"
        )
        .is_admitted()
    );
    let a = v.update(foo(json!({"replicas": 6, "image": "b"}), json!({})), old, "default");
    assert_eq!(
        strings(&a.errors),
        ["spec.replicas: Invalid value: 6: spec.replicas in body should be less than or equal to 3"]
    );
}

#[test]
fn list_type_errors_are_skipped_when_the_old_object_has_some() {
    let e = engine(spec_schema(json!({"type": "object", "properties": {"s": {
        "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}
    }}})));
    let v = e.version("v1").unwrap();
    let dup = foo(json!({"s": ["a", "a"]}), json!({}));
    assert!(
        v.update(foo(json!({"s": ["b", "b"]}), json!({})), dup.clone(), "default")
            .is_admitted()
    );
    let a = v.update(
        foo(json!({"s": ["b", "b"]}), json!({})),
        foo(json!({"s": ["a"]}), json!({})),
        "default",
    );
    assert_eq!(strings(&a.errors), [r#"spec.s[1]: Duplicate value: "b""#]);
    let c = v.create(dup, "default");
    assert_eq!(strings(&c.errors), [r#"spec.s[1]: Duplicate value: "a""#]);
}

#[test]
fn create_rejects_malformed_requests() {
    let e = engine(spec_schema(json!({"type": "object", "properties": {"e": {
        "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true
    }}})));
    let v = e.version("v1").unwrap();
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a", "labels": {"x": 1}}}),
        "default",
    );
    assert_eq!(
        a.bad_request.as_deref(),
        Some(
            r#"Foo in version "v1" cannot be handled as a Foo: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"#
        )
    );
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a"}, "spec": {"e": {"kind": 1}}}),
        "default",
    );
    assert_eq!(
        a.bad_request.as_deref(),
        Some(r#"Foo in version "v1" cannot be handled as a Foo: spec.e.kind: Invalid value: 1: must be a string"#)
    );
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a", "namespace": "other"}}),
        "default",
    );
    assert_eq!(
        a.bad_request.as_deref(),
        Some("the namespace of the provided object does not match the namespace sent on the request")
    );
    // The read path drops malformed metadata of the old object.
    let old = json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a", "labels": {"x": 1}, "resourceVersion": "1"}});
    assert!(v.update(foo(json!({}), json!({})), old, "default").is_admitted());
}

#[test]
fn create_validates_metadata_and_type_meta() {
    let e = engine(spec_schema(
        json!({"type": "object", "required": ["r"], "properties": {"r": {"type": "integer"}}}),
    ));
    let v = e.version("v1").unwrap();
    let a = v.create(json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "A_b", "labels": {"a": "b c"}}, "spec": {}}), "default");
    let errs = strings(&a.errors);
    assert!(
        errs[0].starts_with(r#"metadata.name: Invalid value: "A_b": a lowercase RFC 1123 subdomain"#),
        "{errs:?}"
    );
    assert!(
        errs[1].starts_with(r#"metadata.labels: Invalid value: "b c": a valid label must be an empty string"#),
        "{errs:?}"
    );
    assert_eq!(errs[2], "spec.r: Required value");
    assert_eq!(
        errs.len(),
        3,
        "no rules, so no 'rules were not checked' error: {errs:?}"
    );
    // A wrong kind stops the validator (object meta, schema, scale) but not the rest.
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Bar", "metadata": {"name": "a"}}),
        "default",
    );
    assert_eq!(strings(&a.errors), [r#"kind: Invalid value: "Bar": must be Foo"#]);
    // generateName: the name is generated before validation.
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"generateName": "x-"}, "spec": {"r": 1}}),
        "default",
    );
    assert!(a.is_admitted(), "{:?}", a.errors);
    assert_eq!(a.object["metadata"]["name"], json!("x-xxxxx"));
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "spec": {"r": 1}}),
        "default",
    );
    assert_eq!(
        strings(&a.errors),
        ["metadata.name: Required value: name or generateName is required"]
    );
}

#[test]
fn cluster_scoped_objects_lose_their_namespace() {
    let schema = spec_schema(json!({"type": "object"}));
    let crd = load_crd(&crd_yaml(&schema, "Cluster", json!({}))).unwrap();
    let e = crd_codegen::engine::Engine::new(&crd);
    let a = e.version("v1").unwrap().create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a", "namespace": "x"}}),
        "default",
    );
    assert!(a.is_admitted());
    assert_eq!(a.object["metadata"], json!({"name": "a"}));
}

#[test]
fn scale_and_status_subresources() {
    let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
        "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
    }});
    let crd = load_crd(&crd_yaml(&schema, "Namespaced", json!({"subresources": {
        "status": {},
        "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"}
    }})))
    .unwrap();
    let e = crd_codegen::engine::Engine::new(&crd);
    let v = e.version("v1").unwrap();
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a"}, "spec": {"replicas": -1}, "status": {"replicas": "x"}}),
        "default",
    );
    // The status is dropped on create; the spec replicas are checked.
    assert_eq!(a.object.get("status"), None);
    assert_eq!(
        strings(&a.errors),
        [".spec.replicas: Invalid value: -1: should be a non-negative integer"]
    );
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a"}, "spec": {"replicas": 3000000000i64}}),
        "default",
    );
    assert_eq!(
        strings(&a.errors),
        [".spec.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647"]
    );
    let a = v.create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a"}, "spec": {"replicas": "2"}}),
        "default",
    );
    assert_eq!(
        strings(&a.errors),
        [r#".spec.replicas: Invalid value: 0: .spec.replicas accessor error: 2 is of the type string, expected int64"#]
    );
    // On update the old status is kept.
    let old = json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a", "resourceVersion": "1"}, "status": {"replicas": 2}});
    let a = v.update(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a", "resourceVersion": "1"}, "status": {"replicas": 5}}),
        old,
        "default",
    );
    assert!(a.is_admitted(), "{:?}", a.errors);
    assert_eq!(a.object["status"], json!({"replicas": 2}));
}
