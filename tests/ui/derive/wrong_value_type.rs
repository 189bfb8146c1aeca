use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget", namespaced = "yes")]
pub struct WidgetSpec {
    #[crd(minimum = "one")]
    pub replicas: i32,
    #[crd(max_items = 2.5)]
    pub items: Vec<String>,
}

fn main() {}
