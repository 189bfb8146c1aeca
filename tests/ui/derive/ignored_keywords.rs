// `ignored(...)` holds keywords of another type than the field's, which the API server
// accepts and ignores; one that applies to the field, or on a field without a single
// type, is a mistake.
use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    #[crd(ignored(pattern = "^a", max_items = 3))]
    pub tags: Vec<String>,
    #[crd(ignored(minimum = 1))]
    pub size: crd_runtime::IntOrString,
    #[crd(ignored(min_length = "x"))]
    pub count: i32,
}

fn main() {}
