//! Helpers shared by the workspace-level tests.

use serde_json::Value;
use std::path::PathBuf;

/// `../shared` beside the repository (the seed examples, the corpus, cel-spec).
pub fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

/// The seed examples with the real API server's answers.
pub fn seed_examples_dir() -> PathBuf {
    shared_dir().join("spec/examples")
}

/// Reads every document of a YAML or JSON file.
pub fn read_documents(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    crd_codegen::yaml::parse_documents(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of `expected.jsonl`: the API server's answers for the seed examples.
pub fn seed_expectations() -> Vec<Value> {
    let path = seed_examples_dir().join("expected.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
pub mod objects;
