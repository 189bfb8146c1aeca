//! The seed examples with the real API server's answers
//! (`shared/spec/examples/expected.jsonl`): every `admit` request through the
//! reference engine — the admitted object, the pruned paths and the error strings,
//! CEL-rule errors included (transition rules only on update), and no warnings.

use crd_codegen::engine::Engine;
use crd_codegen::ir;
use serde_json::Value;
use std::path::PathBuf;

fn examples() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/spec/examples"))
}

fn load_crd(file: &str) -> ir::Crd {
    let loaded = crd_codegen::load::load(&[examples().join(file)]);
    assert!(!loaded.has_errors(), "{file}: {:?}", loaded.diagnostics);
    loaded.crds.into_iter().next().expect("one CRD").ir
}

fn load_object(spec: &Value) -> Value {
    let file = spec["seed_file"].as_str().unwrap();
    let text = std::fs::read_to_string(examples().join(file)).unwrap();
    let mut v = crd_codegen::yaml::parse_documents(&text).unwrap().remove(0);
    if let Some(patch) = spec.get("patch").and_then(Value::as_object) {
        for (path, value) in patch {
            let mut cur = &mut v;
            let parts: Vec<&str> = path.split('.').collect();
            for p in &parts[..parts.len() - 1] {
                cur = cur
                    .as_object_mut()
                    .unwrap()
                    .entry(p.to_string())
                    .or_insert(Value::Object(Default::default()));
            }
            cur.as_object_mut()
                .unwrap()
                .insert(parts[parts.len() - 1].to_string(), value.clone());
        }
    }
    v
}

#[test]
fn admit_lines_match_the_api_server() {
    let text = std::fs::read_to_string(examples().join("expected.jsonl")).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line).unwrap();
        let req = &entry["request"];
        if req["op"] != "admit" {
            continue;
        }
        let seed = entry["seed"].as_str().unwrap();
        let crd = load_crd(req["crd"]["seed_file"].as_str().unwrap());
        let engine = Engine::new(&crd);
        let version = engine.version(req["version"].as_str().unwrap()).unwrap();
        let object = load_object(&req["object"]);
        let admission = match req.get("oldObject") {
            Some(old) => version.update(object, load_object(old), "default"),
            None => version.create(object, "default"),
        };
        let expected = &entry["expected"];
        assert_eq!(admission.bad_request, None, "{seed}");
        assert_eq!(admission.object, expected["object"], "{seed}: object");
        let pruned: Vec<String> = serde_json::from_value(expected["pruned"].clone()).unwrap();
        assert_eq!(admission.pruned, pruned, "{seed}: pruned");
        let want: Vec<String> = expected["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap().to_string())
            .collect();
        let got: Vec<String> = admission.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(got, want, "{seed}: errors");
        assert_eq!(admission.warnings, Vec::<String>::new(), "{seed}: warnings");
        checked += 1;
    }
    assert_eq!(checked, 6);
}
