use crd_derive::{CrdSchema, CustomResource};
use serde::{Deserialize, Serialize};

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub enum Either<L, R> {
    Left(L),
    Right(R),
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Box")]
pub struct BoxSpec<T> {
    pub content: T,
}

/// Holds itself: no CRD schema can.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Chain<T> {
    pub value: T,
    pub next: Option<Box<Chain<T>>>,
}

/// Does not derive `CrdSchema`.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Pair<T> {
    pub a: T,
    pub b: T,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Linked {
    pub chain: Chain<String>,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Paired {
    pub pair: Pair<i32>,
}

fn main() {}
