use crd_derive::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    #[crd(minimum = 1, maximum = 10, default = 0)]
    pub replicas: Option<i32>,
    #[crd(pattern = "^[a-z]+$", default = "Nginx")]
    pub image: Option<String>,
}

fn main() {}
