//! Generic derived structs: a generic type has no schema of its own; each use with
//! arguments (`Range<i32>`) derives the instance's schema where it is used, as if it
//! were written out. Checked: the schemas, admission, and agreement with the
//! reference engine run on the derived CRD.

use crd_derive::{CrdSchema, CustomResource};
use crd_runtime::k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use crd_runtime::schema::CustomResource as _;
use crd_tests::differential::kind_agrees_with_the_engine;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A closed range.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[crd(rule(rule = "self.min <= self.max", message = "min above max"))]
pub struct Range<T> {
    pub min: T,
    pub max: T,
}

/// A named value.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Named<V> {
    #[crd(max_length = 10)]
    pub name: String,
    pub value: V,
    pub also_known_as: Option<Vec<String>>,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Port {
    #[crd(minimum = 1, maximum = 65535)]
    pub number: i32,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "derive.example.com", version = "v1", kind = "Service", namespaced)]
pub struct ServiceSpec {
    pub replicas: Range<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<Named<Quantity>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, Named<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<Named<Port>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<Named<Range<i64>>>,
}

fn crd() -> Value {
    serde_json::to_value(Service::crd()).unwrap()
}

fn service(spec: Value) -> Value {
    json!({"apiVersion": "derive.example.com/v1", "kind": "Service",
           "metadata": {"name": "s", "namespace": "default"}, "spec": spec})
}

#[test]
fn each_instance_has_its_arguments_schema() {
    let crd = crd();
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    let range_rule = json!([{"rule": "self.min <= self.max", "message": "min above max"}]);
    assert_eq!(
        spec["replicas"],
        json!({
            "description": "A closed range.",
            "type": "object",
            "properties": {
                "max": {"type": "integer", "format": "int32"},
                "min": {"type": "integer", "format": "int32"},
            },
            "required": ["min", "max"],
            "x-kubernetes-validations": range_rule,
        })
    );
    let size = &spec["sizes"]["items"];
    assert_eq!(size["required"], json!(["name", "value"]));
    assert_eq!(size["properties"]["name"], json!({"type": "string", "maxLength": 10}));
    assert_eq!(size["properties"]["value"]["x-kubernetes-int-or-string"], true);
    assert_eq!(
        size["properties"]["alsoKnownAs"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    assert_eq!(
        spec["labels"]["additionalProperties"]["properties"]["value"],
        json!({"type": "string"})
    );
    // A derived argument keeps its own schema.
    assert_eq!(
        spec["port"]["properties"]["value"]["properties"]["number"],
        json!({"type": "integer", "format": "int32", "minimum": 1.0, "maximum": 65535.0})
    );
    let window = &spec["window"]["properties"]["value"];
    assert_eq!(window["properties"]["min"], json!({"type": "integer"}));
    assert_eq!(window["x-kubernetes-validations"], range_rule);
}

#[test]
fn instances_are_admitted_with_their_arguments_checks() {
    let admitted = Service::admit_value(
        service(json!({
            "replicas": {"min": 3, "max": 2},
            "sizes": [{"name": "a-long-long-name", "value": "lots"}],
            "port": {"name": "http", "value": {"number": 0}},
        })),
        "default",
    );
    let errors: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "spec.port.value.number: Invalid value: 0: spec.port.value.number in body should be greater than or equal to 1",
            "spec.sizes[0].name: Too long: may not be more than 10 bytes",
            "spec.sizes[0].value: Invalid value: \"lots\": spec.sizes[0].value in body should match '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$'",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
    let admitted = Service::admit_value(
        service(json!({"replicas": {"min": 3, "max": 2}, "window": {"name": "w", "value": {"min": 9, "max": 1}}})),
        "default",
    );
    let errors: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "spec.replicas: Invalid value: min above max",
            "spec.window.value: Invalid value: min above max"
        ]
    );
    let good = Service::admit_value(service(json!({"replicas": {"min": 1, "max": 2}, "junk": 0})), "default");
    assert!(good.errors.is_empty(), "{:?}", good.errors);
    assert_eq!(good.pruned, ["spec.junk"]);
    let typed: Service = serde_json::from_value(good.object).unwrap();
    assert_eq!(typed.spec.replicas, Range { min: 1, max: 2 });
}

#[test]
fn service_agrees_with_the_engine() {
    kind_agrees_with_the_engine::<Service>(150);
}
