//! Code written for kube-derive, unchanged but for its `use` line, on our derive: the
//! same CRD kube-derive writes, and the API server's admission compiled in (pruning,
//! defaults from `#[serde(default = "...")]`, schemars' constraints, CEL rules).
//!
//!     cargo run --example kube_derive_dropin

use crd_derive::{CustomResource, KubeSchema}; // was: use kube::{CustomResource, KubeSchema};
use crd_runtime::prelude::*;
use kube::CustomResourceExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// An autoscaler, as kube-derive users write it.
#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Autoscaler",
    namespaced,
    status = "AutoscalerStatus",
    shortname = "as",
    validation = "self.metadata.name != 'forbidden'"
)]
#[x_kube(validation = Rule::new("self.minReplicas <= self.maxReplicas").message("min above max"))]
#[serde(rename_all = "camelCase")]
pub struct AutoscalerSpec {
    #[serde(default = "one")]
    pub min_replicas: i32,
    pub max_replicas: i32,
    /// What to scale; a nested type deriving schemars' `JsonSchema`.
    pub target: Target,
}

fn one() -> i32 {
    1
}

#[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
pub struct Target {
    #[schemars(length(min = 1, max = 63))]
    pub name: String,
    pub kind: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, Default, JsonSchema)]
pub struct AutoscalerStatus {
    pub replicas: u32,
}

fn main() {
    println!("{}", crd_runtime::to_yaml(&Autoscaler::crd()));

    let request = json!({
        "apiVersion": "example.com/v1", "kind": "Autoscaler",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"maxReplicas": 5, "target": {"name": "web", "port": 80}},
    });
    let admitted = Autoscaler::admit_value(request, "default");
    assert!(admitted.errors.is_empty(), "{:?}", admitted.errors);
    println!("admitted, pruned {:?}: {}", admitted.pruned, admitted.object["spec"]);

    let bad = Autoscaler::new(
        "web",
        AutoscalerSpec {
            min_replicas: 9,
            max_replicas: 5,
            target: Target {
                name: String::new(),
                kind: None,
            },
        },
    );
    let refused = bad.validate().unwrap_err();
    println!("refused:\n{refused}");
    assert!(!refused.errors.is_empty());
}
