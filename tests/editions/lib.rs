//! Generated code in user crates of older editions (this file is the library of
//! `crd-edition-2018` and `crd-edition-2021`): by the three routes, build.rs +
//! `include!`, `crd_types!` and `#[derive(CustomResource)]` (whose tokens take the
//! caller's edition). CI compiles them with
//! clippy and warnings denied; the tests check that they behave as in edition 2024.

#![deny(warnings)]

/// From build.rs: the corpus' gateway-api HTTPRoute v1.
pub mod gateway {
    include!(concat!(env!("OUT_DIR"), "/gateway.rs"));
}

/// From build.rs: the hand-written CEL test CRDs (`tests/fixtures`).
pub mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}

/// From `crd_types!`: one small CRD per schema feature (the snapshot fixtures).
pub mod features {
    crd_derive::crd_types!("../../../crd-codegen/tests/fixtures");
}

/// From `crd_types!`: the seed page's CronTab with CEL rules.
pub mod seed {
    crd_derive::crd_types!("../../../../shared/spec/examples/cel-crd.yaml");
}

/// From `#[derive(CustomResource)]`: nested types, an enum, rules on a type and on a
/// field, defaults, nullable fields, maps and list maps.
pub mod derived {
    use crd_derive::{CrdSchema, CustomResource};
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeMap;

    /// A pipeline of steps.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(
        group = "editions.example.com",
        version = "v1",
        kind = "Pipeline",
        namespaced,
        status = "PipelineStatus",
        at_least_one_of = ["steps", "template"],
        rule(rule = "!has(self.steps) || self.steps.all(s, s.retries <= self.maxRetries)", message = "too many retries")
    )]
    #[serde(rename_all = "camelCase")]
    pub struct PipelineSpec {
        #[crd(max_items = 8, list_type = "map", list_map_keys = ["name"])]
        pub steps: Option<Vec<Step>>,
        pub template: Option<String>,
        #[crd(minimum = 0, default = 3)]
        pub max_retries: Option<i64>,
        #[crd(max_properties = 4)]
        pub env: Option<BTreeMap<String, String>>,
        pub note: Option<Option<String>>,
        #[crd(immutable)]
        pub mode: Option<Mode>,
        #[serde(flatten)]
        pub owner: Option<Owner>,
        pub window: Option<Bounds<i64>>,
    }

    /// A generic struct: each use derives its instance's schema.
    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Bounds<T> {
        pub min: T,
        pub max: T,
    }

    /// Who runs the pipeline, flattened into its spec.
    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Owner {
        #[crd(max_length = 30)]
        pub team: String,
    }

    /// One step.
    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Step {
        #[crd(max_length = 20)]
        pub name: String,
        #[crd(default = 0)]
        pub retries: Option<i64>,
    }

    /// How steps run.
    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
    pub enum Mode {
        Serial,
        Parallel,
    }

    /// What the controller saw.
    #[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, Default)]
    pub struct PipelineStatus {
        pub done: Option<bool>,
    }
}

#[cfg(test)]
mod tests {
    use crd_runtime::schema::CustomResource;
    use serde_json::json;

    fn errors<T: CustomResource>(object: serde_json::Value) -> Vec<String> {
        T::admit_value(object, "default")
            .errors
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn seed_rules_report_as_the_api_server_does() {
        use crate::seed::stable_example_com::v1::CronTab;
        let object = json!({
            "apiVersion": "stable.example.com/v1", "kind": "CronTab",
            "metadata": {"name": "my-new-cron-object"},
            "spec": {"minReplicas": 0, "replicas": 20, "maxReplicas": 10},
        });
        assert_eq!(
            errors::<CronTab>(object),
            // The real API server's answer (shared/spec/examples/expected.jsonl).
            ["spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"]
        );
    }

    #[test]
    fn httproute_rules_and_schema_checks_run() {
        use crate::gateway::gateway_networking_k8s_io::v1::HTTPRoute;
        let route = |parent_refs: serde_json::Value| {
            json!({
                "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
                "metadata": {"name": "r"},
                "spec": {"parentRefs": parent_refs, "hostnames": ["example.com"]},
            })
        };
        assert_eq!(
            errors::<HTTPRoute>(route(json!([{"name": "gw"}]))),
            Vec::<String>::new()
        );
        assert_eq!(
            errors::<HTTPRoute>(route(json!([{"name": "gw"}, {"name": "gw", "sectionName": "a"}]))),
            ["spec.parentRefs: Invalid value: sectionName must be specified when parentRefs includes 2 or more references to the same parent"]
        );
        assert_eq!(
            errors::<HTTPRoute>(route(json!([{"name": ""}]))),
            ["spec.parentRefs[0].name: Invalid value: \"\": spec.parentRefs[0].name in body should be at least 1 chars long"]
        );
    }

    #[test]
    fn defaults_and_pruning_apply() {
        use crate::features::enums_example_com::v1::Matcher;
        let admission = Matcher::admit_value(
            json!({"apiVersion": "enums.example.com/v1", "kind": "Matcher", "metadata": {"name": "m"},
                   "spec": {"operator": "=~", "bogus": 1}}),
            "",
        );
        assert!(admission.errors.is_empty(), "{:?}", admission.errors);
        assert_eq!(admission.pruned, ["spec.bogus"]);
        assert_eq!(
            admission.object["spec"],
            json!({"operator": "=~", "policy": "IfNotPresent"})
        );
    }

    #[test]
    fn derived_types_admit_as_the_api_server_does() {
        use crate::derived::Pipeline;
        let object = json!({
            "apiVersion": "editions.example.com/v1", "kind": "Pipeline",
            "metadata": {"name": "p"},
            "spec": {"steps": [{"name": "build", "retries": 5}], "mode": "Serial"},
        });
        assert_eq!(errors::<Pipeline>(object), ["spec: Invalid value: too many retries"]);
        let object = json!({
            "apiVersion": "editions.example.com/v1", "kind": "Pipeline",
            "metadata": {"name": "p"}, "spec": {},
        });
        assert_eq!(
            errors::<Pipeline>(object),
            ["spec: Invalid value: at least one of the fields in [steps template] must be set"]
        );
        // A generic struct's instance is checked with its argument's schema.
        let object = json!({
            "apiVersion": "editions.example.com/v1", "kind": "Pipeline",
            "metadata": {"name": "p"}, "spec": {"template": "t", "window": {"min": 1, "max": "2"}},
        });
        assert_eq!(
            errors::<Pipeline>(object),
            [
                "spec.window.max: Invalid value: \"string\": spec.window.max in body must be of type integer: \"string\"",
                "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            ]
        );
        // A flattened struct's fields are the spec's.
        let object = json!({
            "apiVersion": "editions.example.com/v1", "kind": "Pipeline",
            "metadata": {"name": "p"}, "spec": {"template": "t", "team": "a team with a far too long name"},
        });
        assert_eq!(
            errors::<Pipeline>(object),
            [
                "spec.team: Too long: may not be more than 30 bytes",
                "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            ]
        );
    }
}
