//! Field types whose schema comes from `schemars` (`#[derive(JsonSchema)]`, a
//! hand-written `JsonSchema`, another crate's types): their schema in the CRD is the
//! one kube-derive publishes, and their admission follows it (interpreted from it at
//! run time, with the same walks compiled types use). Checked with the API server's
//! messages and against the reference engine run on the kind's own CRD.

use crd_derive::{CrdSchema, CustomResource, KubeSchema};
use crd_runtime::prelude::*;
use crd_tests::differential::kind_agrees_with_the_engine;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};

/// A nested type written for kube-derive.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    /// Where to connect.
    #[schemars(length(min = 2, max = 20))]
    host: String,
    #[schemars(range(min = 1, max = 65535))]
    port: u16,
    #[serde(default = "default_scheme")]
    scheme: String,
    #[serde(default)]
    retries: u8,
    tags: Option<HashSet<String>>,
}

fn default_scheme() -> String {
    "https".into()
}

/// A type whose `JsonSchema` is written by hand.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Percent(String);

impl JsonSchema for Percent {
    fn schema_name() -> Cow<'static, str> {
        "Percent".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "pattern": "^[0-9]+%$", "maxLength": 4})
    }
}

/// A kind in controller-gen's spelling holding them.
#[derive(Clone, Debug, Serialize, Deserialize, CustomResource)]
#[crd(group = "schemars.example.com", version = "v1", kind = "Gateway", namespaced)]
#[serde(rename_all = "camelCase")]
pub struct GatewaySpec {
    primary: Endpoint,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    backups: Vec<Endpoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight: Option<Percent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    since: Option<jiff::Timestamp>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    routes: BTreeMap<String, Endpoint>,
}

fn gateway(spec: Value) -> Value {
    json!({"apiVersion": "schemars.example.com/v1", "kind": "Gateway",
        "metadata": {"name": "g", "namespace": "default"}, "spec": spec})
}

#[test]
fn the_crd_holds_the_schema_kube_derive_publishes() {
    let crd = serde_json::to_value(Gateway::crd()).unwrap();
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    assert_eq!(
        spec["properties"]["primary"],
        json!({
            "description": "A nested type written for kube-derive.",
            "type": "object",
            "properties": {
                "host": {"type": "string", "description": "Where to connect.", "minLength": 2, "maxLength": 20},
                "port": {"type": "integer", "format": "uint16", "minimum": 1.0, "maximum": 65535.0},
                "scheme": {"type": "string", "default": "https"},
                "retries": {"type": "integer", "format": "uint8", "minimum": 0.0, "maximum": 255.0, "default": 0},
                "tags": {"type": "array", "items": {"type": "string"}, "nullable": true},
            },
            "required": ["host", "port"],
        })
    );
    assert_eq!(
        spec["properties"]["weight"],
        json!({"type": "string", "pattern": "^[0-9]+%$", "maxLength": 4})
    );
    assert_eq!(
        spec["properties"]["since"],
        json!({"type": "string", "format": "date-time"})
    );
    assert_eq!(
        spec["properties"]["routes"]["additionalProperties"],
        spec["properties"]["primary"]
    );
}

#[test]
fn admission_follows_the_schemars_schema() {
    // Unknown fields pruned and defaults applied inside the schemars type.
    let admitted = Gateway::admit_value(
        gateway(json!({"primary": {"host": "example.com", "port": 443, "extra": true}})),
        "default",
    );
    assert!(admitted.errors.is_empty(), "{:?}", admitted.errors);
    assert_eq!(admitted.pruned, vec!["spec.primary.extra".to_string()]);
    assert_eq!(
        admitted.object["spec"]["primary"],
        json!({"host": "example.com", "port": 443, "scheme": "https", "retries": 0})
    );

    // Its bounds, patterns, required fields and types, in the API server's words.
    let refused = Gateway::admit_value(
        gateway(json!({
            "primary": {"host": "x", "port": 0},
            "backups": [{"port": "80"}],
            "weight": "50 percent",
            "routes": {"a": {"host": "ok.example", "port": 70000}},
        })),
        "default",
    );
    let messages: Vec<String> = refused.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        vec![
            "spec.backups[0].port: Invalid value: \"string\": spec.backups[0].port in body must be of type integer: \"string\"",
            "spec.backups[0].host: Required value",
            "spec.primary.host: Invalid value: \"x\": spec.primary.host in body should be at least 2 chars long",
            "spec.primary.port: Invalid value: 0: spec.primary.port in body should be greater than or equal to 1",
            "spec.routes.a.port: Invalid value: 70000: spec.routes.a.port in body should be less than or equal to 65535",
            // A string longer than its `maxLength` is refused before the rest of its
            // keywords are checked (the API server's `Too long` on declarative limits).
            "spec.weight: Too long: may not be more than 4 bytes",
        ],
        "{messages:#?}"
    );
}

#[test]
fn gateway_agrees_with_the_reference_engine() {
    kind_agrees_with_the_engine::<Gateway>(150);
}

/// The same types in a kind spelled for kube-derive, with rules of its own.
#[derive(Clone, Debug, Serialize, Deserialize, CustomResource, KubeSchema)]
#[kube(
    group = "schemars.example.com",
    version = "v1",
    kind = "Mirror",
    namespaced,
    status = "MirrorStatus"
)]
#[x_kube(validation = Rule::new("self.replicas <= 5").message("at most five"))]
#[serde(rename_all = "camelCase")]
pub struct MirrorSpec {
    #[x_kube(validation = "self >= 0")]
    replicas: i32,
    source: Endpoint,
    #[serde(default = "default_mode")]
    mode: Mode,
    nested: Option<Settings>,
}

fn default_mode() -> Mode {
    Mode::Pull
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub enum Mode {
    Push,
    Pull,
}

/// Compiled: it derives our schema, in kube-derive's conventions.
#[derive(Clone, Debug, Serialize, Deserialize, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    #[x_kube(validation = Rule::new("self != 'bad'").reason(Reason::FieldValueForbidden))]
    label: String,
    limit: Option<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct MirrorStatus {
    synced: bool,
}

fn mirror(spec: Value) -> Value {
    json!({"apiVersion": "schemars.example.com/v1", "kind": "Mirror",
        "metadata": {"name": "m", "namespace": "default"}, "spec": spec})
}

#[test]
fn a_kube_spelled_kind_admits_through_schemars_and_compiled_types() {
    let ok = Mirror::admit_value(
        mirror(json!({"replicas": 1, "source": {"host": "a.b", "port": 1}})),
        "default",
    );
    assert!(ok.errors.is_empty(), "{:?}", ok.errors);
    // `#[serde(default = "...")]`'s value is the schema's default, applied.
    assert_eq!(ok.object["spec"]["mode"], json!("Pull"));

    let refused = Mirror::admit_value(
        mirror(
            json!({"replicas": 1, "source": {"host": "a.b", "port": 1}, "mode": "Sideways",
            "nested": {"label": "ok", "limit": -1}}),
        ),
        "default",
    );
    let messages: Vec<String> = refused.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        vec![
            "spec.mode: Unsupported value: \"Sideways\": supported values: \"Push\", \"Pull\"",
            "spec.nested.limit: Invalid value: -1: spec.nested.limit in body should be greater than or equal to 0",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; \
             correct the existing errors to complete validation",
        ],
        "{messages:#?}"
    );

    // The rules, compiled: the type's, a field's and a nested `KubeSchema` type's.
    let refused = Mirror::admit_value(
        mirror(json!({"replicas": 9, "source": {"host": "a.b", "port": 1}, "nested": {"label": "bad"}})),
        "default",
    );
    let messages: Vec<String> = refused.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        // A node's rules run before its children's; a failure on an object omits its value.
        vec![
            "spec: Invalid value: at most five",
            "spec.nested.label: Forbidden: failed rule: self != 'bad'"
        ],
        "{messages:#?}"
    );
}

#[test]
fn mirror_agrees_with_the_reference_engine() {
    kind_agrees_with_the_engine::<Mirror>(150);
}

/// A `CrdSchema` type (controller-gen's conventions) holding a schemars type: the
/// schemars type's schema is still kube-derive's, its admission interpreted.
#[derive(Clone, Debug, Serialize, Deserialize, CrdSchema)]
pub struct Wrapper {
    inner: Endpoint,
    #[crd(maximum = 3)]
    count: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, CustomResource)]
#[crd(group = "schemars.example.com", version = "v1", kind = "Holder", namespaced)]
pub struct HolderSpec {
    wrappers: Vec<Wrapper>,
}

#[test]
fn a_derived_type_holding_a_schemars_type() {
    let refused = Holder::admit_value(
        json!({"apiVersion": "schemars.example.com/v1", "kind": "Holder",
            "metadata": {"name": "h", "namespace": "default"},
            "spec": {"wrappers": [{"inner": {"host": "h", "port": 1}, "count": 4}]}}),
        "default",
    );
    let messages: Vec<String> = refused.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        vec![
            "spec.wrappers[0].count: Invalid value: 4: spec.wrappers[0].count in body should be less than or equal to 3",
            "spec.wrappers[0].inner.host: Invalid value: \"h\": spec.wrappers[0].inner.host in body should be at least 2 chars long",
        ],
        "{messages:#?}"
    );
    kind_agrees_with_the_engine::<Holder>(100);
}
