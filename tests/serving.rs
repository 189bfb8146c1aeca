//! What the API server serves beside admission, through the typed helpers of
//! generated and derived kinds: printer columns as `kubectl get` prints them and the
//! scale subresource (the seed's `kubectl scale --replicas=5`).

use crd_derive::CustomResource;
use crd_runtime::prelude::*;
use crd_runtime::table::Cell;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The seed's printer-column CronTab with the status and scale subresources.
mod generated {
    crd_derive::crd_types!("fixtures/printer-columns.yaml");
}

/// The same kind written as a derive.
mod derived {
    use super::*;

    // clippy's `duplicated_attributes` reads `type = "string"` twice in one `#[crd]`
    // as a duplicated attribute (a false positive for helper attributes).
    #[allow(clippy::duplicated_attributes)]
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(
        group = "stable.example.com",
        version = "v1",
        kind = "CronTab",
        namespaced,
        status = "CronTabStatus",
        scale(
            spec_replicas_path = ".spec.replicas",
            status_replicas_path = ".status.replicas",
            label_selector_path = ".status.labelSelector"
        ),
        printcolumn(name = "Spec", type = "string", json_path = ".spec.cronSpec"),
        printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
        printcolumn(name = "Image", type = "string", json_path = ".spec.image", priority = 1),
        printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp")
    )]
    #[serde(rename_all = "camelCase")]
    pub struct CronTabSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cron_spec: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub image: Option<String>,
        #[crd(default = 1)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub replicas: Option<i64>,
    }

    #[derive(crd_derive::CrdSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct CronTabStatus {
        #[crd(minimum = 0)]
        #[serde(skip_serializing_if = "Option::is_none")]
        pub replicas: Option<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub label_selector: Option<String>,
    }
}

/// The seed's object, created ten days ago: its age prints as `10d` however many
/// seconds the test takes (the table is printed at the current time).
fn seed_object() -> serde_json::Value {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let created = crd_runtime::time::timestamp_from_unix(now as i64 - 10 * 86_400)
        .unwrap()
        .to_string();
    json!({
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object", "namespace": "default", "resourceVersion": "1", "creationTimestamp": created},
        "spec": {"cronSpec": "* * * * *", "image": "my-awesome-cron-image", "replicas": 1},
        "status": {"replicas": 1, "labelSelector": "app=cron"},
    })
}

fn check_kind<T: CustomResource + std::fmt::Debug>() {
    let object: T = serde_json::from_value(seed_object()).unwrap();
    assert_eq!(T::PRINTER_COLUMNS.len(), 4);
    assert_eq!(
        T::print_table(std::slice::from_ref(&object), false).unwrap(),
        "NAME                 SPEC        REPLICAS   AGE\nmy-new-cron-object   * * * * *   1          10d\n"
    );
    assert_eq!(
        T::print_table(std::slice::from_ref(&object), true).unwrap(),
        "NAME                 SPEC        REPLICAS   IMAGE                   AGE\n\
         my-new-cron-object   * * * * *   1          my-awesome-cron-image   10d\n"
    );
    assert_eq!(
        object.printer_row().unwrap(),
        [
            Cell::String("my-new-cron-object".into()),
            Cell::String("* * * * *".into()),
            Cell::Integer(1),
            Cell::String("my-awesome-cron-image".into()),
            Cell::String("10d".into()),
        ]
    );

    // `kubectl scale --replicas=5`: the Scale reads the paths, the update writes
    // `.spec.replicas` and passes the update's validation.
    let scale = object.scale().unwrap();
    assert_eq!(scale.spec.unwrap().replicas, Some(1));
    let status = scale.status.unwrap();
    assert_eq!((status.replicas, status.selector.as_deref()), (1, Some("app=cron")));
    assert_eq!(scale.metadata.name.as_deref(), Some("my-new-cron-object"));
    let scaled = object.scale_to(5).unwrap();
    assert_eq!(serde_json::to_value(&scaled).unwrap()["spec"]["replicas"], 5);
    scaled.validate_update(&object).unwrap();
    // A negative count is refused by the update's validation, with the scale path.
    let negative = object.scale_to(-1).unwrap();
    let errors = negative.validate_update(&object).unwrap_err().errors;
    assert_eq!(
        errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [".spec.replicas: Invalid value: -1: should be a non-negative integer"]
    );
}

#[test]
fn a_generated_kind_prints_its_columns_and_scales() {
    check_kind::<generated::stable_example_com::v1::CronTab>();
}

#[test]
fn a_derived_kind_prints_its_columns_and_scales() {
    check_kind::<derived::CronTab>();
}

/// Without printer columns the API server serves AGE; without the scale subresource
/// there is nothing to scale.
#[test]
fn defaults_without_columns_or_scale() {
    mod plain {
        crd_derive::crd_types!("../../shared/spec/examples/crontab-crd.yaml");
    }
    use plain::stable_example_com::v1::CronTab;
    let mut object = seed_object();
    object["status"] = json!(null);
    object.as_object_mut().unwrap().remove("status");
    let object: CronTab = serde_json::from_value(object).unwrap();
    assert_eq!(CronTab::PRINTER_COLUMNS.len(), 0);
    assert_eq!(
        CronTab::print_table(std::slice::from_ref(&object), false).unwrap(),
        "NAME                 AGE\nmy-new-cron-object   10d\n"
    );
    let error = object.scale().unwrap_err();
    assert_eq!(
        (error.code, error.message.as_str()),
        (404, "the server could not find the requested resource")
    );
}

/// Field validation on the typed route: the same unknown fields, and the same three
/// outcomes, for a generated and a derived kind.
#[test]
fn unknown_fields_under_each_field_validation() {
    fn check<T: CustomResource>() {
        let mut object = seed_object();
        object["metadata"]["unknownMeta"] = json!(1);
        object["spec"]["someRandomField"] = json!(42);
        let admission = T::admit_value(object, "default");
        assert!(admission.is_admitted());
        assert_eq!(
            admission.unknown_fields,
            ["metadata.unknownMeta", "spec.someRandomField"]
        );
        let warn = admission.clone().with_field_validation(FieldValidation::Warn);
        assert_eq!(
            warn.warnings,
            [
                "unknown field \"metadata.unknownMeta\"",
                "unknown field \"spec.someRandomField\""
            ]
        );
        let strict = admission.clone().with_field_validation(FieldValidation::Strict);
        assert_eq!(
            strict.bad_request.as_deref(),
            Some(
                "CronTab in version \"v1\" cannot be handled as a CronTab: strict decoding error: unknown field \"metadata.unknownMeta\", unknown field \"spec.someRandomField\""
            )
        );
        assert!(!strict.is_admitted());
        let ignore = admission.clone().with_field_validation(FieldValidation::Ignore);
        assert_eq!(ignore, admission);
        assert!(ignore.warnings.is_empty());
    }
    check::<generated::stable_example_com::v1::CronTab>();
    check::<derived::CronTab>();
}

const RULES_NOT_CHECKED: &str = "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// The status subresource and the main resource's update, on a kind with both.
mod status {
    crd_derive::crd_types!("fixtures/status-crd.yaml");
}

fn stored(generation: i64, spec: serde_json::Value, status: serde_json::Value) -> serde_json::Value {
    json!({
        "apiVersion": "status.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "c", "namespace": "default", "resourceVersion": "7", "generation": generation,
            "uid": "uid-c", "labels": {"app": "cron"}},
        "spec": spec,
        "status": status,
    })
}

/// `PUT .../status` keeps the stored object but for `status` (and managedFields): the
/// request's spec, labels and finalizers are dropped, and `generation` stays.
#[test]
fn a_status_update_changes_only_the_status() {
    use status::status_example_com::v1::CronTab;
    let old = stored(
        3,
        json!({"cronSpec": "* * * * *", "replicas": 2}),
        json!({"replicas": 1}),
    );
    let mut new = old.clone();
    new["spec"]["replicas"] = json!(5);
    new["metadata"]["labels"] = json!({"app": "other"});
    new["metadata"]["finalizers"] = json!(["example.com/f"]);
    new["status"] = json!({"replicas": 2, "phase": "Running"});
    let a = CronTab::admit_status_update_value(new, old.clone(), "default");
    assert!(a.is_admitted(), "{:?}", a.errors);
    let mut expected = old.clone();
    expected["status"] = json!({"replicas": 2, "phase": "Running"});
    assert_eq!(a.object, expected);

    // A request without `status` removes it.
    let mut new = old.clone();
    new.as_object_mut().unwrap().remove("status");
    let a = CronTab::admit_status_update_value(new, old, "default");
    assert_eq!(a.object.get("status"), None);
}

/// Only `status` is validated against the schema, ratcheted against the old status;
/// the whole object's rules run (the status rule here).
#[test]
fn a_status_update_validates_the_status_alone() {
    use status::status_example_com::v1::CronTab;
    // Stored before the schema required a spec and bounded its replicas.
    let old = json!({
        "apiVersion": "status.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "c", "namespace": "default", "resourceVersion": "7"},
        "status": {"replicas": 1},
    });
    let mut new = old.clone();
    new["status"] = json!({"replicas": 3});
    let a = CronTab::admit_status_update_value(new.clone(), old.clone(), "default");
    assert!(a.is_admitted(), "{:?}", a.errors);
    // The main resource's update of the same object fails on the root's `required`
    // (the root never ratchets).
    let a = CronTab::admit_update_value(new, old.clone(), "default");
    let errors: Vec<String> = a.errors.iter().map(ToString::to_string).collect();
    assert_eq!(errors, ["spec: Required value", RULES_NOT_CHECKED]);

    let bad = |status: serde_json::Value| {
        let mut new = old.clone();
        new["status"] = status;
        let a = CronTab::admit_status_update_value(new, old.clone(), "default");
        a.errors.iter().map(ToString::to_string).collect::<Vec<_>>()
    };
    assert_eq!(
        bad(json!({"replicas": -1, "phase": "Gone"})),
        // Schema errors in the API server's order, then the scale path's (raw).
        [
            "status.phase: Unsupported value: \"Gone\": supported values: \"Pending\", \"Running\"",
            "status.replicas: Invalid value: -1: status.replicas in body should be greater than or equal to 0",
            ".status.replicas: Invalid value: -1: should be a non-negative integer",
            RULES_NOT_CHECKED,
        ]
    );
    assert_eq!(
        bad(json!({"replicas": 101})),
        // An object's value is omitted, as in the seed's `spec: Invalid value: failed rule: ...`.
        ["status: Invalid value: at most 100 replicas"]
    );
}

/// The main resource's update: `generation` goes up when anything outside
/// `metadata` changes, and a request cannot change `status` (the subresource owns it).
#[test]
fn a_main_update_bumps_the_generation_and_keeps_the_status() {
    use status::status_example_com::v1::CronTab;
    let old = stored(
        3,
        json!({"cronSpec": "* * * * *", "replicas": 2}),
        json!({"replicas": 1}),
    );
    let generation = |new: serde_json::Value| {
        let a = CronTab::admit_update_value(new, old.clone(), "default");
        assert!(a.is_admitted(), "{:?}", a.errors);
        (a.object["metadata"]["generation"].clone(), a.object["status"].clone())
    };
    let mut spec = old.clone();
    spec["spec"]["replicas"] = json!(4);
    assert_eq!(generation(spec), (json!(4), json!({"replicas": 1})));
    let mut labels = old.clone();
    labels["metadata"]["labels"] = json!({"app": "x"});
    assert_eq!(generation(labels), (json!(3), json!({"replicas": 1})));
    let mut status = old.clone();
    status["status"] = json!({"replicas": 9});
    assert_eq!(generation(status), (json!(3), json!({"replicas": 1})));
}

/// A derived kind's status update validates its status type the same way.
#[test]
fn a_derived_status_update_validates_the_status_type() {
    let old = seed_object();
    let mut new = old.clone();
    new["status"]["replicas"] = json!(-2);
    new["spec"]["replicas"] = json!(7);
    let a = derived::CronTab::admit_status_update_value(new, old.clone(), "default");
    let errors: Vec<String> = a.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "status.replicas: Invalid value: -2: status.replicas in body should be greater than or equal to 0",
            ".status.replicas: Invalid value: -2: should be a non-negative integer",
        ]
    );
    // The request's spec change is dropped.
    assert_eq!(a.object["spec"]["replicas"], 1);
}

/// A request body with repeated keys: `duplicate field` before `unknown field`, as
/// the API server's strict decoding reports them (its integration test's order).
#[test]
fn duplicate_fields_of_a_request_body() {
    use generated::stable_example_com::v1::CronTab;
    let body = br#"{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "a", "name": "my-new-cron-object", "unknownMeta": 1},
        "spec": {"unknownDupe": 1, "replicas": 1, "unknownDupe": 2, "replicas": 2, "image": "i"}}"#;
    let admission = CronTab::admit_json(body, "default");
    assert!(admission.is_admitted(), "{:?}", admission.errors);
    assert_eq!(admission.object["metadata"]["name"], "my-new-cron-object");
    assert_eq!(admission.object["spec"]["replicas"], 2);
    assert_eq!(
        admission.duplicate_fields,
        ["metadata.name", "spec.unknownDupe", "spec.replicas"]
    );
    let strict = admission.clone().with_field_validation(FieldValidation::Strict);
    assert_eq!(
        strict.bad_request.as_deref(),
        Some(
            "CronTab in version \"v1\" cannot be handled as a CronTab: strict decoding error: duplicate field \"metadata.name\", duplicate field \"spec.unknownDupe\", duplicate field \"spec.replicas\", unknown field \"metadata.unknownMeta\", unknown field \"spec.unknownDupe\""
        )
    );
    let warn = admission.with_field_validation(FieldValidation::Warn);
    assert_eq!(warn.warnings.len(), 5);
    assert_eq!(warn.warnings[0], "duplicate field \"metadata.name\"");

    let not_json = CronTab::admit_json(b"{\"apiVersion\": ", "default");
    assert!(
        not_json
            .bad_request
            .unwrap()
            .starts_with("the request body is not JSON: ")
    );
}
