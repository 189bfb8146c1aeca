use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget", colour = "red")]
pub struct WidgetSpec {
    #[crd(max_lenght = 10)]
    pub name: String,
}

fn main() {}
