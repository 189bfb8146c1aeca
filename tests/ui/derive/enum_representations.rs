use crd_derive::CrdSchema;
use serde::{Deserialize, Serialize};

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(untagged)]
pub enum Untagged {
    Nothing,
    Something { value: String },
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Name(String),
    Sized { size: i64 },
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub enum Mixed {
    Nothing,
    Something { value: String },
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "kind")]
pub enum Clashing {
    A { size: i64 },
    B { size: String },
}

fn main() {}
