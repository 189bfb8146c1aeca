use crd_derive::CrdSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Does not derive `CrdSchema`: it cannot be flattened into a derived type.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Plain {
    pub a: String,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Holder {
    #[serde(flatten)]
    pub plain: Plain,
}

/// A flattened map holds unknown fields, which the type must keep.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Open {
    pub name: String,
    #[serde(flatten)]
    pub rest: BTreeMap<String, serde_json::Value>,
}

fn main() {}
