use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    rule(rule = "self.replicas <= self.maxReplicas")
)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    pub replicas: i32,
    #[crd(rule(rule = "self == true"))]
    pub name: String,
}

fn main() {}
