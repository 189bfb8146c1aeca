//! The seed pages' CronTab objects deserialize into the types `crd_types!` generates
//! from the seed CRDs and serialize back unchanged.

use crd_tests::{read_documents, seed_examples_dir, seed_expectations};
use serde_json::Value;

mod crontab {
    crd_derive::crd_types!("../../shared/spec/examples/crontab-crd.yaml");
}
mod cel {
    crd_derive::crd_types!("../../shared/spec/examples/cel-crd.yaml");
}

use cel::stable_example_com::v1::CronTab as CelCronTab;
use crontab::stable_example_com::v1::CronTab;

fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(object: &Value) {
    let typed: T =
        serde_json::from_value(object.clone()).unwrap_or_else(|e| panic!("does not deserialize: {e}\n{object:#}"));
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(&back, object, "round trip changed the object");
}

#[test]
fn admitted_seed_objects_round_trip() {
    // The objects as the API server admitted them (pruned and defaulted).
    let mut checked = 0;
    for line in seed_expectations() {
        if line["request"]["op"] != "admit" {
            continue;
        }
        let object = &line["expected"]["object"];
        match line["request"]["crd"]["seed_file"].as_str() {
            Some("crontab-crd.yaml") => round_trip::<CronTab>(object),
            Some("cel-crd.yaml") => round_trip::<CelCronTab>(object),
            other => panic!("unexpected CRD {other:?}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 6);
}

#[test]
fn seed_object_files_round_trip() {
    // As written in the seed pages; invalid.yaml is invalid only in its values.
    for file in ["invalid.yaml"] {
        for doc in read_documents(&seed_examples_dir().join(file)) {
            round_trip::<CronTab>(&doc);
        }
    }
    for file in ["cel-invalid.yaml", "cel-old.yaml", "cel-new.yaml"] {
        for doc in read_documents(&seed_examples_dir().join(file)) {
            round_trip::<CelCronTab>(&doc);
        }
    }
}

#[test]
fn typed_fields_tell_absent_from_null() {
    let object = serde_json::json!({
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "x"},
        "spec": {"nulls": {"bar": null}},
    });
    let typed: CronTab = serde_json::from_value(object).unwrap();
    let nulls = typed.spec.unwrap().nulls.unwrap();
    assert_eq!(nulls.bar, Some(None), "bar is nullable and explicitly null");
    assert_eq!(nulls.baz, None, "baz is absent");
}

#[test]
fn new_sets_name_and_spec_and_serializes_type_meta() {
    let spec = crontab::stable_example_com::v1::CronTabSpec {
        cron_spec: Some("* * * * */5".into()),
        image: Some("my-awesome-cron-image".into()),
        ..Default::default()
    };
    let ct = CronTab::new("my-new-cron-object", spec);
    assert_eq!(
        serde_json::to_value(&ct).unwrap(),
        serde_json::json!({
            "apiVersion": "stable.example.com/v1",
            "kind": "CronTab",
            "metadata": {"name": "my-new-cron-object"},
            "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image"},
        })
    );
    use crd_runtime::k8s_openapi::Resource;
    assert_eq!(CronTab::URL_PATH_SEGMENT, "crontabs");
    assert_eq!(CronTab::API_VERSION, "stable.example.com/v1");
}

/// A type generated from YAML gives back the CRD it came from (as the API server
/// stores it), so an operator can install the CRD it was built from.
#[test]
fn generated_roots_give_their_crd() {
    for (file, crd) in [
        ("crontab-crd.yaml", serde_json::to_value(CronTab::crd()).unwrap()),
        ("cel-crd.yaml", serde_json::to_value(CelCronTab::crd()).unwrap()),
    ] {
        let from_seed = crd_codegen::load::load(&[seed_examples_dir().join(file)]).irs();
        let from_type = crd_codegen::load::load_str(&crd.to_string(), "crd()").irs();
        assert_eq!(from_type, from_seed, "{file}");
        assert_eq!(crd["metadata"]["name"], "crontabs.stable.example.com");
    }
    assert_eq!(CronTab::CRD_NAME, "crontabs.stable.example.com");
}
