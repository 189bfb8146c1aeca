//! Several versions of a kind (issue 13), on the versioning seed page's examples:
//! version priority and deprecation warnings in generated code, `None`-strategy
//! conversions between generated types (lossless, dropping fields, not fitting), the
//! seed's storage-version sequence, and the `ConversionReview` handler checked by the
//! API server's own checks of a webhook's response.

use crd_runtime::conversion::{self, ConversionError, convert_value_to};
use crd_runtime::review::{self, ConversionRequest};
use crd_runtime::schema::Resource;
use crd_runtime::{Convert, Converted, Value};
use serde_json::json;

mod crontab {
    crd_derive::crd_types!("fixtures/versioned-crontab-crd.yaml");
}
mod widget {
    crd_derive::crd_types!("../crd-codegen/tests/fixtures/multi-version.yaml");
}

use crontab::example_com::{v1, v1beta1, v2};

fn crontab_spec_v1beta1() -> v1beta1::CronTabSpec {
    v1beta1::CronTabSpec {
        cron_spec: Some("* * * * */5".into()),
        image: Some("my-awesome-cron-image".into()),
        replicas: Some(1),
    }
}

/// The object without `apiVersion`, to compare versions of one object.
fn without_api_version(object: &impl serde::Serialize) -> Value {
    let mut v = serde_json::to_value(object).unwrap();
    v.as_object_mut().unwrap().remove("apiVersion");
    v
}

#[test]
fn generated_kinds_list_their_versions_by_priority() {
    // The seed: "the version sort order is v1, followed by v1beta1" (v2 added here).
    assert_eq!(v1beta1::CronTab::SERVED_VERSIONS, ["v2", "v1", "v1beta1"]);
    assert_eq!(v2::CronTab::SERVED_VERSIONS, v1beta1::CronTab::SERVED_VERSIONS);
    assert_eq!(v1::CronTab::STORAGE_VERSION, "v1beta1");
    // A deprecated version without a warning gets the API server's default text,
    // naming the best served version above it; one with a warning keeps it.
    assert_eq!(
        v1beta1::CronTab::DEPRECATION_WARNING,
        Some("example.com/v1beta1 CronTab is deprecated; use example.com/v2 CronTab")
    );
    assert_eq!(v1::CronTab::DEPRECATION_WARNING, None);
    assert_eq!(
        widget::versions_example_com::v1alpha1::Widget::DEPRECATION_WARNING,
        Some("versions.example.com/v1alpha1 Widget is deprecated; use v1")
    );
}

#[test]
fn none_strategy_converts_the_seed_crontab_both_ways_losslessly() {
    let stored = v1beta1::CronTab::new("my-new-cron-object", crontab_spec_v1beta1());
    let Converted {
        object: served,
        dropped,
    } = stored.convert().unwrap();
    let served: v1::CronTab = served;
    assert!(dropped.is_empty());
    assert_eq!(serde_json::to_value(&served).unwrap()["apiVersion"], "example.com/v1");
    assert_eq!(without_api_version(&served), without_api_version(&stored));

    let back: v1beta1::CronTab = served.convert().unwrap().lossless().unwrap();
    assert_eq!(back, stored);
}

#[test]
fn a_conversion_reports_what_the_target_schema_drops() {
    let mut newer = v2::CronTab::new(
        "tz",
        v2::CronTabSpec {
            cron_spec: Some("0 3 * * *".into()),
            image: None,
            replicas: None,
            time_zone: Some("Europe/Paris".into()),
        },
    );
    newer.metadata.labels = Some([("app".to_string(), "cron".to_string())].into());
    let converted: Converted<v1::CronTab> = newer.convert().unwrap();
    assert_eq!(converted.dropped, ["spec.timeZone"]);
    assert_eq!(
        converted.object.spec.as_ref().unwrap().cron_spec.as_deref(),
        Some("0 3 * * *")
    );
    assert_eq!(converted.object.metadata, newer.metadata);
    let lossless: Result<v1::CronTab, ConversionError> = converted.lossless();
    assert_eq!(lossless.unwrap_err().to_string(), "the conversion drops spec.timeZone");

    // Converting up loses nothing: the new field is simply unset.
    let old = v1::CronTab::new("tz", Default::default());
    let up: Converted<v2::CronTab> = old.convert().unwrap();
    assert!(up.dropped.is_empty());
    assert_eq!(up.object.spec, Some(Default::default()));
}

#[test]
fn a_value_that_does_not_fit_the_target_type_is_an_error() {
    use widget::versions_example_com::{v1 as w1, v1alpha1 as w1alpha1};
    let old = w1alpha1::Widget::new(
        "w",
        w1alpha1::WidgetSpec {
            size: Some("10".into()),
        },
    );
    let err = Convert::<w1::Widget>::convert(&old).unwrap_err();
    assert!(
        err.message
            .starts_with("Widget \"w\" converted from versions.example.com/v1alpha1 to versions.example.com/v1 does not fit its type: "),
        "{err}"
    );
    // The other way the target schema prunes the object's fields and the status.
    let new = w1::Widget {
        status: Some(w1::WidgetStatus { ready: Some(true) }),
        ..w1::Widget::new(
            "w",
            w1::WidgetSpec {
                size: w1::WidgetSpecSize {
                    width: Some(2),
                    height: Some(3),
                },
            },
        )
    };
    let value = serde_json::to_value(&new).unwrap();
    let engine_side =
        conversion::convert_value(&crd_runtime::schema::Compiled::<w1alpha1::Widget>::new(), value.clone()).unwrap();
    assert_eq!(engine_side.dropped, ["spec.size.height", "spec.size.width", "status"]);
    assert_eq!(engine_side.object["spec"], json!({"size": {}}));
    assert!(convert_value_to::<w1alpha1::Widget>(value).is_err());
}

/// The seed's hypothetical series of events ("Writing, reading, and updating
/// versioned CustomResourceDefinition objects") and its storage upgrade procedure,
/// with a store that keeps each object at the version it was written in.
#[test]
fn the_seed_storage_version_sequence() {
    use std::collections::BTreeMap;
    let mut store: BTreeMap<&str, Value> = BTreeMap::new();
    let write = |store: &mut BTreeMap<&str, Value>, name, object: Value, storage: &str| {
        let resource = find(&format!("example.com/{storage}"));
        store.insert(name, (resource.convert)(object).unwrap().object);
    };
    let read = |store: &BTreeMap<&str, Value>, name, version: &str| {
        let resource = find(&format!("example.com/{version}"));
        (resource.convert)(store[name].clone()).unwrap().object
    };
    let persisted_at = |store: &BTreeMap<&str, Value>, name| store[name]["apiVersion"].clone();

    // 1. The storage version is v1beta1. An object created is persisted at v1beta1.
    let mut storage = "v1beta1";
    let mut stored_versions = vec![storage.to_string()];
    let first = serde_json::to_value(v1beta1::CronTab::new("first", crontab_spec_v1beta1())).unwrap();
    write(&mut store, "first", first, storage);
    assert_eq!(persisted_at(&store, "first"), "example.com/v1beta1");

    // 2. v1 is made the storage version: storedVersions is now v1beta1, v1.
    storage = "v1";
    stored_versions = conversion::stored_versions_after_write(&stored_versions, storage);
    assert_eq!(stored_versions, ["v1beta1", "v1"]);

    // 3. Read at v1beta1, then at v1: identical except for apiVersion.
    let at_v1beta1 = read(&store, "first", "v1beta1");
    let at_v1 = read(&store, "first", "v1");
    assert_eq!(at_v1beta1["apiVersion"], "example.com/v1beta1");
    assert_eq!(at_v1["apiVersion"], "example.com/v1");
    assert_eq!(without_api_version(&at_v1beta1), without_api_version(&at_v1));
    assert_eq!(
        persisted_at(&store, "first"),
        "example.com/v1beta1",
        "reading converts nothing"
    );

    // 4. A new object is persisted at v1: one object at each version.
    let second = serde_json::to_value(v1beta1::CronTab::new("second", crontab_spec_v1beta1())).unwrap();
    write(&mut store, "second", second, storage);
    assert_eq!(persisted_at(&store, "second"), "example.com/v1");

    // 5. Updating the first object rewrites it at v1 ("the only way objects change
    //    from one version to another"): the upgrade procedure's step 2.
    let mut first = read(&store, "first", "v1beta1");
    first["spec"]["replicas"] = json!(2);
    write(&mut store, "first", first, storage);
    assert_eq!(persisted_at(&store, "first"), "example.com/v1");
    assert!(store.values().all(|o| o["apiVersion"] == "example.com/v1"));

    // The procedure's step 3: v1beta1 removed from storedVersions.
    assert_eq!(conversion::stored_versions_after_migration(storage), ["v1"]);
}

fn find(api_version: &str) -> &'static Resource {
    Resource::find(crontab::RESOURCES, api_version, "CronTab").unwrap()
}

// ---- ConversionReview ----------------------------------------------------------

fn crontab_value(name: &str, api_version: &str, replicas: i64) -> Value {
    json!({
        "apiVersion": api_version,
        "kind": "CronTab",
        "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"), "resourceVersion": "7", "labels": {"app": "cron"}},
        "spec": {"cronSpec": "* * * * */5", "replicas": replicas},
    })
}

fn review_body(review_version: &str, desired: &str, objects: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "apiVersion": review_version,
        "kind": "ConversionReview",
        "request": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "desiredAPIVersion": desired, "objects": objects},
    }))
    .unwrap()
}

/// Converts with the generated kinds: the desired version's `Resource::convert`.
fn generated(object: Value, desired: &str) -> conversion::Result<Value> {
    let resource = Resource::find(crontab::RESOURCES, desired, "CronTab")
        .ok_or_else(|| ConversionError::new(format!("{desired} is not a version of CronTab")))?;
    (resource.convert)(object)
}

/// `generated`, then `edit` on the converted object.
fn generated_then(edit: impl Fn(&mut Value)) -> impl FnMut(Value, &str) -> conversion::Result<Value> {
    move |object, desired| {
        let mut converted = generated(object, desired)?;
        edit(&mut converted.object);
        Ok(converted)
    }
}

/// Handles `body` and checks the response as the API server would.
fn exchange(
    body: &[u8],
    convert: impl FnMut(Value, &str) -> conversion::Result<Value>,
) -> (Value, Result<Vec<Value>, String>) {
    let request = review::read_request(body).unwrap();
    let response = review::handle(body, convert).unwrap();
    let accepted = review::accept_response(&request, &response);
    (response, accepted)
}

#[test]
fn a_review_converts_every_object_in_order_and_echoes_the_uid() {
    let objects: Vec<Value> = (0..3)
        .map(|i| crontab_value(&format!("c{i}"), "example.com/v1beta1", i))
        .collect();
    let body = review_body("apiextensions.k8s.io/v1", "example.com/v1", objects.clone());
    let (response, accepted) = exchange(&body, generated);
    assert_eq!(response["apiVersion"], "apiextensions.k8s.io/v1");
    assert_eq!(response["kind"], "ConversionReview");
    assert_eq!(response["response"]["uid"], "705ab4f5-6393-11e8-b7cc-42010a800002");
    assert_eq!(response["response"]["result"], json!({"status": "Success"}));
    let converted = accepted.unwrap();
    assert_eq!(converted.len(), 3);
    for (i, (c, original)) in converted.iter().zip(&objects).enumerate() {
        assert_eq!(c["apiVersion"], "example.com/v1");
        assert_eq!(c["metadata"], original["metadata"], "object {i}");
        assert_eq!(c["spec"]["replicas"], i);
    }
}

#[test]
fn a_v1beta1_review_gets_a_v1beta1_response() {
    let body = review_body(
        "apiextensions.k8s.io/v1beta1",
        "example.com/v1beta1",
        vec![crontab_value("a", "example.com/v1", 1)],
    );
    let (response, accepted) = exchange(&body, generated);
    assert_eq!(response["apiVersion"], "apiextensions.k8s.io/v1beta1");
    assert_eq!(accepted.unwrap()[0]["apiVersion"], "example.com/v1beta1");
}

#[test]
fn a_failing_object_fails_the_review_naming_it() {
    let objects = vec![
        crontab_value("good", "example.com/v2", 1),
        crontab_value("bad", "example.com/v2", -1),
        crontab_value("never-reached", "example.com/v2", 1),
    ];
    let body = review_body("apiextensions.k8s.io/v1", "example.com/v1", objects);
    let mut seen = Vec::new();
    let (response, accepted) = exchange(&body, |object, desired| {
        seen.push(object["metadata"]["name"].as_str().unwrap().to_string());
        if object["spec"]["replicas"] == -1 {
            return Err(ConversionError::new("replicas must not be negative"));
        }
        generated(object, desired)
    });
    assert_eq!(seen, ["good", "bad"]);
    let message = "converting objects[1] (default/bad, apiVersion example.com/v2): replicas must not be negative";
    assert_eq!(
        response["response"]["result"],
        json!({"status": "Failure", "message": message})
    );
    assert_eq!(
        accepted.unwrap_err(),
        format!("conversion webhook for example.com/v2, Kind=CronTabList failed: {message}")
    );
}

/// Of a conversion's metadata the API server keeps labels and annotations and
/// refuses a changed name or uid; the handler runs its checks, so a conversion that
/// breaks them fails the review naming the object instead of sending a response the
/// API server refuses.
#[test]
fn a_conversion_may_change_only_labels_and_annotations() {
    let body = review_body(
        "apiextensions.k8s.io/v1",
        "example.com/v1",
        vec![crontab_value("a", "example.com/v1beta1", 1)],
    );
    let (response, accepted) = exchange(
        &body,
        generated_then(|o| {
            let meta = &mut o["metadata"];
            meta["finalizers"] = json!(["example.com/f"]);
            meta["labels"] = json!({"app": "cron", "converted": "yes"});
            meta["annotations"] = json!({"example.com/from": "v1beta1"});
        }),
    );
    let accepted = &accepted.unwrap()[0];
    assert_eq!(response["response"]["result"], json!({"status": "Success"}));
    assert_eq!(accepted["metadata"]["name"], "a");
    assert_eq!(accepted["metadata"]["uid"], "uid-a");
    // The API server keeps its own copy of everything but labels and annotations.
    assert_eq!(accepted["metadata"].get("finalizers"), None);
    assert_eq!(
        accepted["metadata"]["labels"],
        json!({"app": "cron", "converted": "yes"})
    );
    assert_eq!(
        accepted["metadata"]["annotations"],
        json!({"example.com/from": "v1beta1"})
    );

    let failure = |edit: fn(&mut Value)| {
        let (response, accepted) = exchange(&body, generated_then(edit));
        assert!(accepted.is_err(), "the API server accepted {response}");
        assert_eq!(response["response"]["convertedObjects"], json!([]));
        response["response"]["result"]["message"].as_str().unwrap().to_string()
    };
    let prefix = "converting objects[0] (default/a, apiVersion example.com/v1beta1): ";
    for (edit, message) in [
        (
            (|o: &mut Value| o["metadata"]["name"] = json!("renamed")) as fn(&mut Value),
            "must have the same name: a != renamed",
        ),
        (
            |o| o["metadata"]["uid"] = json!("other"),
            "must have the same UID: uid-a != other",
        ),
        (
            |o| o["kind"] = json!("Other"),
            "must have the same kind: CronTab != Other",
        ),
        // The identity is checked first, as the API server does.
        (|o| o["metadata"] = json!("x"), "must have the same name: a != "),
        (
            |o| o["metadata"]["labels"] = json!({"app": 3}),
            "metadata.labels[app] must be a string, but is int64 in converted object",
        ),
        (
            |o| o["metadata"]["labels"] = json!({"-bad-": "x"}),
            "metadata.labels: Invalid value: \"-bad-\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ),
    ] {
        assert_eq!(failure(edit), format!("{prefix}{message}"));
    }
}

#[test]
fn malformed_reviews_are_refused() {
    for (body, message) in [
        (&b"{"[..], "the body is not a JSON ConversionReview: EOF while parsing an object at line 1 column 1"),
        (
            br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}"#,
            "expected a ConversionReview of apiextensions.k8s.io/v1 or apiextensions.k8s.io/v1beta1, got apiVersion \"admission.k8s.io/v1\" kind \"AdmissionReview\"",
        ),
        (
            br#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}"#,
            "the ConversionReview has no request",
        ),
        (
            br#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u"}}"#,
            "the ConversionReview request needs a uid and a desiredAPIVersion",
        ),
        (
            br#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"a/v1","objects":{}}}"#,
            "request.objects is not a list",
        ),
    ] {
        assert_eq!(review::handle(body, generated).unwrap_err().message, message);
    }
    // An object that is not an object fails the review, naming it.
    let body = review_body("apiextensions.k8s.io/v1", "example.com/v1", vec![json!(7)]);
    let response = review::handle(&body, generated).unwrap();
    assert_eq!(
        response["response"]["result"]["message"],
        "converting objects[0] (, apiVersion ): not a JSON object"
    );
    // An object already at the desired version is returned as it is, but checked as a
    // converted one: without metadata the API server would refuse the response, so the
    // review fails (found by the conversion_review fuzz target).
    let body = review_body(
        "apiextensions.k8s.io/v1",
        "example.com/v1",
        vec![json!({"apiVersion": "example.com/v1", "kind": "CronTab", "spec": {}})],
    );
    let response = review::handle(&body, generated).unwrap();
    assert_eq!(
        response["response"]["result"]["message"],
        "converting objects[0] (, apiVersion example.com/v1): missing metadata in converted object"
    );
}

/// The API server's checks of a webhook's response, each with its message
/// (`webhook_converter.go`), on responses a broken webhook could send.
#[test]
fn the_api_server_refuses_broken_responses() {
    let object = crontab_value("a", "example.com/v1beta1", 1);
    let request = ConversionRequest {
        review_version: "apiextensions.k8s.io/v1".into(),
        uid: "u1".into(),
        desired_api_version: "example.com/v1".into(),
        objects: vec![object.clone()],
    };
    let mut good_object = object.clone();
    good_object["apiVersion"] = json!("example.com/v1");
    let response =
        |body: Value| json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "response": body});
    let ok = |objects: Vec<Value>| {
        response(json!({"uid": "u1", "convertedObjects": objects, "result": {"status": "Success"}}))
    };
    let gvk = "conversion webhook for example.com/v1beta1, Kind=CronTab";
    let changed = |pointer: &str, value: Value| {
        let mut o = good_object.clone();
        *o.pointer_mut(pointer).unwrap() = value;
        ok(vec![o])
    };
    let cases: Vec<(Value, String)> = vec![
        (
            json!({"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "ConversionReview"}),
            format!(
                "{gvk} failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview"
            ),
        ),
        (
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview"}),
            format!("{gvk} failed: no response provided"),
        ),
        (
            response(json!({"uid": "u2", "result": {"status": "Success"}})),
            format!("{gvk} failed: expected response.uid=\"u1\", got \"u2\""),
        ),
        (
            response(json!({"uid": "u1", "result": {"status": "Failure"}})),
            format!("{gvk} failed: response.result.status was 'Failure', not 'Success'"),
        ),
        (ok(vec![]), format!("{gvk} returned 0 objects, expected 1")),
        (
            ok(vec![object.clone()]),
            format!(
                "{gvk} returned invalid object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v1beta1)"
            ),
        ),
        (
            changed("/kind", json!("Other")),
            format!("{gvk} returned invalid object at index 0: invalid kind (expected CronTab, received Other)"),
        ),
        (
            changed("/metadata/name", json!("b")),
            format!("{gvk} returned invalid object: must have the same name: a != b"),
        ),
        (
            changed("/metadata/uid", json!("x")),
            format!("{gvk} returned invalid object: must have the same UID: uid-a != x"),
        ),
    ];
    for (response, expected) in cases {
        assert_eq!(review::accept_response(&request, &response).unwrap_err(), expected);
    }
    // Other metadata changed by the webhook is ignored: the original is restored.
    let accepted = review::accept_response(&request, &changed("/metadata/resourceVersion", json!("8"))).unwrap();
    assert_eq!(accepted[0]["metadata"]["resourceVersion"], "7");
}

// ---- Hub and spoke (the Webhook strategy) ---------------------------------------
//
// The seed's webhook example is `examples/webhook_server.rs`, tested on loopback in
// `examples/tests/conversion_webhook.rs`; a missing hook is `ui/derive/conversion_hook_missing.rs`.

mod backend {
    crd_derive::crd_types!("../crd-codegen/tests/fixtures/webhook-conversion.yaml");
}

/// Nested fields, list items and a map: what copies is copied, the containers' `port`
/// (a string in v1, an integer in v2) goes through its hook per item.
#[test]
fn hooks_convert_nested_fields_and_list_items() {
    use backend::hub_example_com::{backend_conversion as conversion, v1, v2};
    struct Ports;
    impl conversion::Hooks for Ports {
        fn v2_spec_containers_port_from_v1(from: &v1::BackendSpecContainers) -> Option<i64> {
            from.port.as_deref()?.parse().ok()
        }
        fn v2_spec_host_from_v1(from: &v1::BackendSpec) -> Option<String> {
            Some(from.host_port.as_deref()?.split(':').next()?.to_string())
        }
        fn v2_spec_port_from_v1(from: &v1::BackendSpec) -> Option<i32> {
            from.host_port.as_deref()?.split(':').nth(1)?.parse().ok()
        }
        fn v1_spec_containers_port_from_v2(from: &v2::BackendSpecContainers) -> Option<String> {
            from.port.map(|p| p.to_string())
        }
        fn v1_spec_host_port_from_v2(from: &v2::BackendSpec) -> Option<String> {
            Some(format!("{}:{}", from.host.as_deref()?, from.port?))
        }
    }
    let spoke = v1::Backend::new(
        "b",
        v1::BackendSpec {
            host_port: Some("db:5432".into()),
            replicas: Some(3),
            labels: Some([("tier".to_string(), "data".to_string())].into()),
            containers: Some(vec![
                v1::BackendSpecContainers {
                    name: "a".into(),
                    port: Some("80".into()),
                },
                v1::BackendSpecContainers {
                    name: "b".into(),
                    port: None,
                },
            ]),
        },
    );
    let hub: v2::Backend = conversion::convert::<Ports, _>(&spoke).unwrap().object;
    let spec = hub.spec.as_ref().unwrap();
    assert_eq!(
        (spec.host.as_deref(), spec.port, spec.replicas),
        (Some("db"), Some(5432), Some(3))
    );
    assert_eq!(spec.labels, spoke.spec.as_ref().unwrap().labels);
    let ports: Vec<_> = spec
        .containers
        .iter()
        .flatten()
        .map(|c| (c.name.as_str(), c.port))
        .collect();
    assert_eq!(ports, [("a", Some(80)), ("b", None)]);
    let back = conversion::convert::<Ports, v1::Backend>(&hub).unwrap();
    assert_eq!(back.object, spoke);
    // An unknown version is an error naming the known ones.
    let err =
        conversion::convert_value::<Ports>(serde_json::to_value(&spoke).unwrap(), "hub.example.com/v3").unwrap_err();
    assert_eq!(
        err.message,
        "hub.example.com/v3 is not a version of Backend (versions: hub.example.com/v1, hub.example.com/v2)"
    );
}
