use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

// Printer columns are checked with the CRD, as the API server checks them; each error
// points at its column.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    printcolumn(name = "Size", type = "integer", json_path = ".spec.size"),
    printcolumn(name = "Age", type = "time", json_path = ".metadata.creationTimestamp"),
    printcolumn(name = "Name", type = "string", format = "uuid4", json_path = ".spec.name")
)]
pub struct WidgetSpec {
    pub size: i64,
    pub name: String,
}

fn main() {}
