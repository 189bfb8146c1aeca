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

/// The reference engine of the hand-written CRD `tests/fixtures/<fixture>` (which must
/// load without errors).
pub fn fixture_engine(fixture: &str) -> crd_codegen::engine::Engine {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(fixture);
    let loaded = crd_codegen::load::load(&[&path]);
    assert!(!loaded.has_errors(), "{fixture} loads: {:?}", loaded.diagnostics);
    crd_codegen::engine::Engine::new(&loaded.crds[0].ir)
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

/// Applies `patch` (`{"metadata.resourceVersion": "1"}`) to an object.
fn patched(mut object: Value, patch: &Value) -> Value {
    if let Some(p) = patch.as_object() {
        for (path, value) in p {
            let mut node = &mut object;
            let segs: Vec<&str> = path.split('.').collect();
            for seg in &segs[..segs.len() - 1] {
                node = node
                    .as_object_mut()
                    .unwrap()
                    .entry(seg.to_string())
                    .or_insert(Value::Object(Default::default()));
            }
            node[segs[segs.len() - 1]] = value.clone();
        }
    }
    object
}

/// The object a seed request names (`object` or `oldObject`), patched.
fn request_object(request: &Value, key: &str) -> Option<Value> {
    let spec = request.get(key)?;
    let file = spec["seed_file"].as_str()?;
    let doc = read_documents(&seed_examples_dir().join(file)).remove(0);
    Some(patched(doc, &spec["patch"]))
}

/// Runs every `admit` line of `expected.jsonl` for the CRD in `crd_file` through
/// `admit(object, old_object)` and asserts the API server's admitted object, pruned
/// paths and errors. Returns how many lines were checked.
pub fn assert_seed_admissions(
    crd_file: &str,
    admit: impl Fn(Value, Option<Value>) -> crd_runtime::admission::Admission,
) -> usize {
    let mut checked = 0;
    for line in seed_expectations() {
        let request = &line["request"];
        if request["op"] != "admit" || request["crd"]["seed_file"] != crd_file {
            continue;
        }
        let admission = admit(
            request_object(request, "object").unwrap(),
            request_object(request, "oldObject"),
        );
        let expected = &line["expected"];
        let seed = line["seed"].as_str().unwrap();
        assert_eq!(&admission.object, &expected["object"], "{seed}: admitted object");
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        };
        assert_eq!(admission.pruned, strings(&expected["pruned"]), "{seed}: pruned paths");
        let errors: Vec<String> = admission.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(errors, strings(&expected["errors"]), "{seed}: errors");
        checked += 1;
    }
    checked
}

pub mod bench_objects;
pub mod differential;
pub mod objects;
