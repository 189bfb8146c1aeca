use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Plain {
    pub name: String,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    pub plain: Plain,
}

fn main() {}
