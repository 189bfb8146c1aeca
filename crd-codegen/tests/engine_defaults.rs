//! Default values checked when a CRD is loaded (`ValidateDefaults`, §2.3 of
//! SEMANTICS.md), through `crate::load` with the engine's `DefaultsValidator`.

mod engine_common;
use engine_common::*;
use serde_json::{Value, json};

fn errors(schema: Value) -> Vec<String> {
    match load_crd(&crd_yaml(&schema, "Namespaced", json!({}))) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .into_iter()
            .map(|m| {
                m.trim_start_matches("CustomResourceDefinition \"foos.example.com\" is invalid: ")
                    .to_string()
            })
            .collect(),
    }
}

fn spec(props: Value) -> Value {
    json!({"type": "object", "properties": {"spec": props}})
}

const P: &str = "spec.validation.openAPIV3Schema.properties[spec]";

#[test]
fn valid_defaults_pass() {
    assert!(
        errors(spec(json!({"type": "object", "default": {"a": "x"}, "properties": {
            "a": {"type": "string", "default": "y", "pattern": "^[a-z]$"},
            "n": {"type": "integer", "maximum": 10, "default": 10},
            "list": {"type": "array", "items": {"type": "integer", "default": 1}, "default": [1, 2]},
            "ios": {"x-kubernetes-int-or-string": true, "default": "50%"},
        }})))
        .is_empty()
    );
}

#[test]
fn defaults_must_be_pruned() {
    assert_eq!(
        errors(spec(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"a": "x", "b": 1}})
        )),
        [format!(
            r#"{P}.default: Invalid value: {{"a":"x","b":1}}: must not have unknown fields"#
        )]
    );
}

#[test]
fn defaults_must_validate() {
    assert_eq!(
        errors(spec(
            json!({"type": "object", "properties": {"replicas": {"type": "integer", "maximum": 10, "default": 15}}})
        )),
        [format!(
            "{P}.properties[replicas].default: Invalid value: 15:  in body should be less than or equal to 10"
        )]
    );
    assert_eq!(
        errors(spec(
            json!({"type": "object", "properties": {"replicas": {"type": "integer", "default": "x"}}})
        )),
        [format!(
            r#"{P}.properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string""#
        )]
    );
    assert_eq!(
        errors(spec(
            json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 1}}, "default": {"n": 5}})
        )),
        [format!(
            "{P}.default.n: Invalid value: 5: n in body should be less than or equal to 1"
        )]
    );
    assert_eq!(
        errors(spec(
            json!({"type": "object", "properties": {"e": {"type": "string", "enum": ["a"], "default": "b"}}})
        )),
        [format!(
            r#"{P}.properties[e].default: Unsupported value: "b": supported values: "a""#
        )]
    );
    // Items are followed (additionalProperties are not: defaults are forbidden there).
    assert_eq!(
        errors(spec(
            json!({"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string", "maxLength": 1, "default": "ab"}}}})
        )),
        [format!(
            "{P}.properties[l].items.default: Too long: may not be more than 1 byte"
        )]
    );
}

#[test]
fn default_formats_are_not_stripped() {
    // The default validator is built from the structural schema: a string format the
    // request validator strips on an integer is kept (and ignored for numbers), and
    // the int-or-string extension does not set types.
    assert!(
        errors(spec(
            json!({"type": "object", "properties": {"ios": {"x-kubernetes-int-or-string": true, "default": true}}})
        ))
        .is_empty()
    );
}

#[test]
fn metadata_defaults_must_result_in_valid_metadata() {
    let schema = json!({"type": "object", "properties": {
        "metadata": {"type": "object", "properties": {"name": {"type": "string", "default": "a/b"}}},
    }});
    // (The schema check forbids defaults in the root's metadata anyway, after.)
    assert_eq!(
        errors(schema),
        [
            r#"spec.validation.openAPIV3Schema.properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'"#,
            "spec.validation.openAPIV3Schema.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata",
        ]
    );
    let embedded = spec(json!({"type": "object", "properties": {"template": {
        "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
        "properties": {"kind": {"type": "string", "default": "bad.Kind"}}
    }}}));
    assert_eq!(
        errors(embedded),
        [format!(
            r#"{P}.properties[template].properties[kind].default: Invalid value: "bad.Kind": must result in valid metadata: kind: Invalid value: "bad.Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#
        )]
    );
}

#[test]
fn embedded_resource_defaults_are_coerced_and_validated() {
    let schema = spec(json!({"type": "object", "properties": {"template": {
        "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
        "default": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x/y"}}
    }}}));
    assert_eq!(
        errors(schema),
        [format!(
            r#"{P}.properties[template].default.metadata.name: Invalid value: "x/y": may not contain '/'"#
        )]
    );
    let schema = spec(json!({"type": "object", "properties": {"template": {
        "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
        "default": {"apiVersion": 1, "kind": "Pod"}
    }}}));
    assert_eq!(
        errors(schema),
        [format!(
            r#"{P}.properties[template].default.apiVersion: Invalid value: 1: must be a string"#
        )]
    );
}

/// The rules of a node with a default, and of the nodes below it, run on the default
/// (with the default as its own old value, then without one).
#[test]
fn defaults_must_pass_rules() {
    assert_eq!(
        errors(spec(json!({"type": "object", "properties": {"value": {
            "type": "string", "maxLength": 64, "default": "kube-everything",
            "x-kubernetes-validations": [{"rule": "self.startsWith('x')"}],
        }}}))),
        [format!(
            r#"{P}.properties[value].default: Invalid value: "kube-everything": failed rule: self.startsWith('x')"#
        )]
    );
    assert_eq!(
        errors(spec(
            json!({"type": "object", "default": {"n": 5}, "properties": {"n": {
                "type": "integer", "x-kubernetes-validations": [{"rule": "self < 3", "message": "too big"}],
            }}})
        )),
        [format!("{P}.default.n: Invalid value: 5: too big")]
    );
    // A transition rule sees the default as its old value; with optionalOldSelf the
    // default must also pass as a create.
    assert!(
        errors(spec(json!({"type": "object", "properties": {"v": {
            "type": "integer", "default": 1,
            "x-kubernetes-validations": [{"rule": "self == oldSelf"}],
        }}})))
        .is_empty()
    );
    assert_eq!(
        errors(spec(json!({"type": "object", "properties": {"v": {
            "type": "integer", "default": 1,
            "x-kubernetes-validations": [{"rule": "oldSelf.hasValue()", "optionalOldSelf": true, "message": "needs an old value"}],
        }}}))),
        [format!(
            "{P}.properties[v].default: Invalid value: 1: needs an old value"
        )]
    );
    // Rules run only when the default passed the schema.
    assert_eq!(
        errors(spec(json!({"type": "object", "properties": {"v": {
            "type": "integer", "maximum": 0, "default": 1,
            "x-kubernetes-validations": [{"rule": "self < 0"}],
        }}}))),
        [format!(
            "{P}.properties[v].default: Invalid value: 1:  in body should be less than or equal to 0"
        )]
    );
}

#[test]
fn the_seed_crds_have_valid_defaults() {
    for f in ["crontab-crd.yaml", "cel-crd.yaml"] {
        let path = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/spec/examples")).join(f);
        let loaded = crd_codegen::load::load(&[path]);
        assert!(!loaded.has_errors(), "{f}: {:?}", loaded.diagnostics);
    }
}

#[test]
fn served_defaults_are_pruned_and_coerced() {
    // Valid (metadata is not pruned), but served with the metadata coerced.
    let schema = spec(json!({"type": "object", "properties": {"template": {
        "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
        "default": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x", "unknown": 1, "creationTimestamp": null}}
    }}}));
    let e = engine(schema);
    let a = e.version("v1").unwrap().create(
        json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "a"}, "spec": {}}),
        "default",
    );
    assert!(a.is_admitted(), "{:?}", a.errors);
    assert_eq!(
        a.object["spec"]["template"],
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}})
    );
}
