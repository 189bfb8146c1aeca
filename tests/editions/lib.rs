//! Generated code in user crates of older editions (this file is the library of
//! `crd-edition-2018` and `crd-edition-2021`): by both routes, build.rs + `include!`
//! and `crd_types!` (whose tokens take the caller's edition). CI compiles them with
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
}
