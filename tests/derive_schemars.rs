//! Field types whose schema comes from `schemars` (`#[derive(JsonSchema)]`, a
//! hand-written `JsonSchema`, another crate's types): their schema in the CRD as
//! kube-derive publishes it, their admission interpreted from it.

use crd_derive::CustomResource;
use crd_runtime::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Nested {
    a: i32,
    #[schemars(length(min = 2))]
    b: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, CustomResource)]
#[crd(group = "x.example.com", version = "v1", kind = "Holder", namespaced)]
struct HolderSpec {
    nested: Nested,
    opt: Option<Nested>,
}

#[test]
fn schemars_field_types_have_their_schema_and_admission() {
    let crd = serde_json::to_value(Holder::crd()).unwrap();
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    assert_eq!(
        spec["properties"]["nested"],
        json!({"type": "object", "properties": {"a": {"type": "integer", "format": "int32"}, "b": {"type": "string", "minLength": 2}}, "required": ["a", "b"]})
    );
    let ok = json!({"apiVersion": "x.example.com/v1", "kind": "Holder", "metadata": {"name": "h", "namespace": "d"},
        "spec": {"nested": {"a": 1, "b": "xx", "extra": 1}}});
    let admitted = Holder::admit_value(ok, "d");
    assert!(admitted.errors.is_empty(), "{:?}", admitted.errors);
    assert_eq!(admitted.pruned, vec!["spec.nested.extra".to_string()]);
    let bad = json!({"apiVersion": "x.example.com/v1", "kind": "Holder", "metadata": {"name": "h", "namespace": "d"},
        "spec": {"nested": {"a": 1, "b": "x"}, "opt": {"a": "no"}}});
    let admitted = Holder::admit_value(bad, "d");
    let messages: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(messages, vec![""], "{messages:#?}");
}
