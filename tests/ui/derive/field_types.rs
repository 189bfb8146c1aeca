use crd_derive::{CrdSchema, CustomResource};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    pub started: std::net::Ipv4Addr,
    pub by_port: BTreeMap<u16, String>,
    pub pair: (String, String),
    #[crd(min_properties = 1)]
    pub part: Part,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Part {
    pub name: String,
}

fn main() {}
