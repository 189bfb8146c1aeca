use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    #[crd(pattern = "^[0-9]+$")]
    pub replicas: i32,
    #[crd(min_items = 1)]
    pub name: String,
    #[crd(items(maximum = 3))]
    pub tags: Vec<String>,
}

fn main() {}
