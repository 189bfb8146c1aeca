use crd_derive::{CrdSchema, CustomResource};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget", required_order("name", "replicas"))]
pub struct WidgetSpec {
    pub replicas: i32,
    #[crd(required_order("replicas"))]
    pub name: String,
    pub part: Part,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
#[crd(required_order("b", "a", "c"))]
pub struct Part {
    pub a: i32,
    pub b: i32,
}

fn main() {}
