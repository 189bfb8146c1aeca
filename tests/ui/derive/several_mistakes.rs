// Mistakes of every kind in one type, all reported by one build: arguments that do not
// parse (a wrong value type, a misspelt keyword), a keyword on the wrong type in the
// same attribute as a value that does not parse, a field type without a schema, a
// CRD attribute the CRD cannot have, and rules that do not compile (the API server's
// checks run with the fields that have mistakes left open).
use crd_derive::{CrdSchema, CustomResource};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "my-widget",
    rule(rule = "self.replicas <= self.maxReplicas")
)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    #[crd(max_items = 2.5, pattern = "^a")]
    pub items: Vec<String>,
    #[crd(minimum = "one")]
    pub replicas: i32,
    #[crd(max_lenght = 10)]
    pub name: String,
    pub pair: (String, String),
    #[crd(rule(rule = "self == true"))]
    pub label: String,
    #[crd(ignored(max_length = 3))]
    pub code: String,
    pub part: Part,
}

// The type's own arguments that do not parse, and its fields' mistakes.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
#[crd(min_properties = "two", colour = "red")]
pub struct Part {
    #[crd(min_length = 1, min_length = 2)]
    pub name: String,
    #[crd(ignored(pattern = "^a"))]
    pub count: Option<Option<Option<i32>>>,
}

// With a flattened struct the derive expands twice (the second time with the
// definition handed over); each of its own mistakes is still reported once.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Holder {
    #[serde(flatten)]
    pub part: Part,
    #[crd(max_items = "many")]
    pub size: Vec<i32>,
    #[crd(min_items = 1)]
    pub title: String,
}

fn main() {}
