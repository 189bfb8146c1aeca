use crd_derive::{CrdSchema, CustomResource};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    version = "v1",
    kind = "Widget",
)]
pub struct WidgetSpec {
    pub name: String,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", shortname = "p")]
pub struct Part {
    pub name: String,
}

fn main() {}
