use crd_derive::CrdSchema;
use serde::{Deserialize, Serialize};

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Tree {
    pub name: String,
    pub children: Vec<Tree>,
}

fn main() {}
