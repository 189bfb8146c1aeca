//! Every reviewed snapshot of generated code compiles (CI runs clippy with warnings
//! denied over this crate), and its types behave as the snapshot promises.

macro_rules! snapshot {
    ($module:ident, $file:literal) => {
        #[allow(dead_code)]
        mod $module {
            include!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../crd-codegen/tests/snapshots/",
                $file
            ));
        }
    };
}

snapshot!(maps, "maps.rs");
snapshot!(int_or_string, "int-or-string.rs");
snapshot!(preserve_unknown, "preserve-unknown.rs");
snapshot!(enums, "enum.rs");
snapshot!(nullable, "nullable.rs");
snapshot!(embedded, "embedded.rs");
snapshot!(v1beta1, "v1beta1.rs");
snapshot!(multi_version, "multi-version.rs");
snapshot!(webhook_conversion, "webhook-conversion.rs");

use serde_json::{Value, json};

fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(object: Value) -> T {
    let typed: T = serde_json::from_value(object.clone()).unwrap_or_else(|e| panic!("{e}: {object}"));
    assert_eq!(serde_json::to_value(&typed).unwrap(), object);
    typed
}

#[test]
fn maps_and_empty_objects() {
    let c: maps::maps_example_com::v1::ConfigSet = round_trip(json!({
        "apiVersion": "maps.example.com/v1", "kind": "ConfigSet", "metadata": {"name": "a"},
        "spec": {
            "labels": {"app": "x"}, "limits": {"cpu": 2},
            "endpoints": {"main": {"url": "http://x", "weight": 1}},
            "routes": {"r": ["a", "b"]}, "anything": {"k": [1, {"z": null}]}, "empty": {},
        },
    }));
    assert_eq!(c.spec.unwrap().endpoints.unwrap()["main"].url, "http://x");
}

#[test]
fn int_or_string_values() {
    use crd_runtime::IntOrString;
    let r: int_or_string::intstr_example_com::v1::Rollout = round_trip(json!({
        "apiVersion": "intstr.example.com/v1", "kind": "Rollout", "metadata": {},
        "spec": {"maxSurge": "25%", "maxUnavailable": 1, "memory": "1Gi", "ports": [80, "http"]},
    }));
    let spec = r.spec.unwrap();
    assert_eq!(spec.max_surge, IntOrString::String("25%".into()));
    assert_eq!(spec.max_unavailable, Some(IntOrString::Int(1)));
}

#[test]
fn preserved_unknown_fields_are_kept() {
    let p: preserve_unknown::preserve_example_com::v1::Pipeline = round_trip(json!({
        "apiVersion": "preserve.example.com/v1", "kind": "Pipeline", "metadata": {},
        "spec": {
            "params": [1, "two", {"three": 3}],
            "config": {"a": {"b": true}},
            "template": {"name": "t", "steps": [{"run": "echo"}], "retries": 3, "extra": {"x": 1}},
        },
    }));
    let template = p.spec.unwrap().template.unwrap();
    assert_eq!(template.additional_fields["retries"], json!(3));
}

#[test]
fn enums_use_their_json_values() {
    use enums::enums_example_com::v1::{Matcher, MatcherSpecOperator};
    let m: Matcher = round_trip(json!({
        "apiVersion": "enums.example.com/v1", "kind": "Matcher", "metadata": {},
        "spec": {"operator": "=~", "policy": "Never", "protocol": "tcp", "mode": null, "level": 2},
    }));
    let spec = m.spec.unwrap();
    assert_eq!(spec.operator, MatcherSpecOperator::EqTilde);
    assert_eq!(spec.mode, Some(None));
    assert!(serde_json::from_value::<Matcher>(json!({"spec": {"operator": "<>"}})).is_err());
}

#[test]
fn nullable_fields() {
    let s: nullable::nullable_example_com::v1::Setting = round_trip(json!({
        "apiVersion": "nullable.example.com/v1", "kind": "Setting", "metadata": {},
        "spec": {"owner": null, "note": null, "tags": ["a", null], "overrides": {"x": null, "y": {"value": "v"}}},
    }));
    let spec = s.spec.unwrap();
    assert_eq!(spec.owner, None);
    assert_eq!(spec.note, Some(None));
    assert_eq!(spec.count, None);
    assert_eq!(spec.tags, Some(vec![Some("a".to_string()), None]));
}

#[test]
fn embedded_resources_keep_type_meta() {
    let w: embedded::embedded_example_com::v1::Wrapper = round_trip(json!({
        "apiVersion": "embedded.example.com/v1", "kind": "Wrapper", "metadata": {},
        "spec": {
            "template": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k": "v"}},
            "raw": {"apiVersion": "v1", "kind": "Secret", "type": "Opaque"},
        },
    }));
    let t = w.spec.unwrap().template.unwrap();
    assert_eq!(t.kind.as_deref(), Some("ConfigMap"));
    assert_eq!(t.metadata.unwrap().name.as_deref(), Some("c"));
}

#[test]
fn v1beta1_and_multi_version() {
    let _: v1beta1::legacy_example_com::v1alpha1::Backup = round_trip(json!({
        "apiVersion": "legacy.example.com/v1alpha1", "kind": "Backup", "metadata": {},
        "spec": {"schedule": "@daily", "ttl": "24h"}, "status": {"phase": "Done"},
    }));
    let _: multi_version::versions_example_com::v1alpha1::Widget = round_trip(json!({
        "apiVersion": "versions.example.com/v1alpha1", "kind": "Widget", "metadata": {}, "spec": {"size": "big"},
    }));
    let w: multi_version::versions_example_com::v1::Widget = round_trip(json!({
        "apiVersion": "versions.example.com/v1", "kind": "Widget", "metadata": {},
        "spec": {"size": {"width": 2, "height": 3}}, "status": {"ready": true},
    }));
    assert_eq!(w.spec.unwrap().size.width, Some(2));
}
