// kube-derive's spelling: mistakes kube-derive would pass on to the API server are
// found here, at the attribute.
use crd_derive::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

// A rule naming a field the type does not have.
#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Scaler", namespaced)]
#[x_kube(validation = Rule::new("self.mni <= self.max").message("min above max"))]
pub struct ScalerSpec {
    pub min: i32,
    pub max: i32,
}

// A rule written as something kube-derive would evaluate at run time.
fn rule() -> &'static str {
    "self > 0"
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Counter", validation = rule())]
pub struct CounterSpec {
    #[x_kube(merge_strategy = ListMerge::Sorted)]
    pub items: Vec<String>,
}

// A rule naming a field that a flattened type brings in.
#[derive(Serialize, Deserialize, Clone, Debug, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Common {
    pub max_concurrent: u32,
}

#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Pool", namespaced)]
#[x_kube(validation = "self.maxConcurrent > 0")]
pub struct PoolSpec {
    #[serde(flatten)]
    pub common: Common,
    pub image: String,
}

fn main() {}
