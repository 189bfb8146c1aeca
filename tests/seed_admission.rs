//! The seed examples through the generated code: every `admit` line of
//! `expected.jsonl` gives exactly the API server's admitted object, pruned paths and
//! errors, the errors of the compiled CEL rules included.

use crd_runtime::schema::CustomResource;
use crd_tests::{read_documents, seed_examples_dir, seed_expectations};
use serde_json::Value;

mod crontab {
    crd_derive::crd_types!("../../shared/spec/examples/crontab-crd.yaml");
}
mod cel {
    crd_derive::crd_types!("../../shared/spec/examples/cel-crd.yaml");
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

fn object(request: &Value, key: &str) -> Option<Value> {
    let spec = request.get(key)?;
    let file = spec["seed_file"].as_str()?;
    let doc = read_documents(&seed_examples_dir().join(file)).remove(0);
    Some(patched(doc, &spec["patch"]))
}

#[test]
fn admit_lines_match_the_api_server() {
    let mut checked = 0;
    for line in seed_expectations() {
        let request = &line["request"];
        if request["op"] != "admit" {
            continue;
        }
        let new = object(request, "object").unwrap();
        let old = object(request, "oldObject");
        let admission = match (request["crd"]["seed_file"].as_str().unwrap(), old) {
            ("crontab-crd.yaml", None) => crontab::stable_example_com::v1::CronTab::admit_value(new, "default"),
            ("crontab-crd.yaml", Some(old)) => {
                crontab::stable_example_com::v1::CronTab::admit_update_value(new, old, "default")
            }
            ("cel-crd.yaml", None) => cel::stable_example_com::v1::CronTab::admit_value(new, "default"),
            ("cel-crd.yaml", Some(old)) => {
                cel::stable_example_com::v1::CronTab::admit_update_value(new, old, "default")
            }
            (other, _) => panic!("unexpected CRD {other}"),
        };
        let expected = &line["expected"];
        let seed = line["seed"].as_str().unwrap();
        assert_eq!(&admission.object, &expected["object"], "{seed}: admitted object");
        let pruned: Vec<&str> = expected["pruned"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(admission.pruned, pruned, "{seed}: pruned paths");
        let errors: Vec<String> = admission.errors.iter().map(|e| e.to_string()).collect();
        let want: Vec<&str> = expected["errors"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let got: Vec<&str> = errors.iter().map(String::as_str).collect();
        assert_eq!(got, want, "{seed}: errors");
        checked += 1;
    }
    assert_eq!(checked, 6);
}
