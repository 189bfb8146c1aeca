//! Validation ratcheting on update, case by case against the Kubernetes page on CRD
//! validation (`../shared/spec/003_*.txt`, "Validation ratcheting") and the current
//! upstream code: apiextensions-apiserver `pkg/apiserver/validation/ratcheting.go`
//! (OpenAPI errors of a node are dropped when the node equals its correlated old
//! value), apiserver `pkg/cel/common/equality.go` (`CorrelatedObject`: what
//! correlates, what is equal), `pkg/apiserver/schema/cel/validation.go` (rules:
//! `shouldRatchetError`, ratcheted failures become warnings) and
//! `pkg/registry/customresource/strategy.go` (`ValidateUpdate`: list-type errors only
//! when the old object has none).
//!
//! Every case is an update (an old and a new object of a hand-written CRD under
//! `fixtures/ratchet-*-crd.yaml`) run through both the generated code
//! (`admit_update_value`) and the reference engine; both must give the expected
//! errors and warnings, written here from the page and the code, not from either
//! implementation. Most cases also create the stored object, to show that it is
//! invalid on its own.

use crd_codegen::engine::Engine;
use crd_runtime::admission::Admission;
use crd_runtime::schema::CustomResource;
use serde_json::{Value, json};

mod gauges {
    crd_derive::crd_types!("fixtures/ratchet-values-crd.yaml");
}
mod switches {
    crd_derive::crd_types!("fixtures/ratchet-quantors-crd.yaml");
}
mod pools {
    crd_derive::crd_types!("fixtures/ratchet-lists-crd.yaml");
}
mod gates {
    crd_derive::crd_types!("fixtures/ratchet-rules-crd.yaml");
}

use gates::test_example_com::v1::Gate;
use gauges::test_example_com::v1::Gauge;
use pools::test_example_com::v1::Pool;
use switches::test_example_com::v1::Switch;

/// What the API server answers: the field errors (empty when admitted) and the
/// warnings returned with the response.
#[derive(Debug, PartialEq)]
struct Outcome {
    errors: Vec<String>,
    warnings: Vec<String>,
}

fn admitted() -> Outcome {
    Outcome {
        errors: Vec::new(),
        warnings: Vec::new(),
    }
}

fn rejected(errors: &[&str]) -> Outcome {
    Outcome {
        errors: errors.iter().map(|e| e.to_string()).collect(),
        warnings: Vec::new(),
    }
}

fn warned(warnings: &[&str]) -> Outcome {
    Outcome {
        errors: Vec::new(),
        warnings: warnings.iter().map(|e| e.to_string()).collect(),
    }
}

/// The fixture of each kind.
fn fixture<T: CustomResource>() -> &'static str {
    match T::KIND {
        "Gauge" => "ratchet-values-crd.yaml",
        "Switch" => "ratchet-quantors-crd.yaml",
        "Pool" => "ratchet-lists-crd.yaml",
        "Gate" => "ratchet-rules-crd.yaml",
        other => panic!("no fixture for {other}"),
    }
}

/// An object of kind `T` with this `spec`, as stored (a resource version, which an
/// update needs).
fn object<T: CustomResource>(spec: Value) -> Value {
    json!({
        "apiVersion": "test.example.com/v1",
        "kind": T::KIND,
        "metadata": {"name": "x", "namespace": "default", "resourceVersion": "1"},
        "spec": spec,
    })
}

fn engine<T: CustomResource>() -> Engine {
    crd_tests::fixture_engine(fixture::<T>())
}

fn outcome(admission: &Admission) -> Outcome {
    assert_eq!(admission.bad_request, None);
    Outcome {
        errors: admission.errors.iter().map(|e| e.to_string()).collect(),
        warnings: admission.warnings.clone(),
    }
}

/// Updates the object with spec `old` to spec `new` with the generated code and with
/// the reference engine, and asserts that each gives `expected`, and that they give
/// the same admission (object, pruned paths, errors, warnings, cost).
#[track_caller]
fn assert_update<T: CustomResource>(new: Value, old: Value, expected: Outcome) {
    assert_update_objects::<T>(object::<T>(new), object::<T>(old), expected);
}

/// [`assert_update`] of whole objects.
#[track_caller]
fn assert_update_objects<T: CustomResource>(new: Value, old: Value, expected: Outcome) {
    let generated = T::admit_update_value(new.clone(), old.clone(), "default");
    let engine = engine::<T>();
    let interpreted = engine
        .version("v1")
        .unwrap()
        .update(new.clone(), old.clone(), "default");
    let case = format!("update of {old}\nto {new}");
    assert_eq!(outcome(&generated), expected, "generated code, {case}");
    assert_eq!(outcome(&interpreted), expected, "reference engine, {case}");
    assert_eq!(generated, interpreted, "generated code and engine, {case}");
}

/// Creates the object with spec `spec` both ways and asserts `expected`.
#[track_caller]
fn assert_create<T: CustomResource>(spec: Value, expected: Outcome) {
    let object = object::<T>(spec);
    let generated = T::admit_value(object.clone(), "default");
    let interpreted = engine::<T>().version("v1").unwrap().create(object.clone(), "default");
    assert_eq!(outcome(&generated), expected, "generated code, create of {object}");
    assert_eq!(outcome(&interpreted), expected, "reference engine, create of {object}");
    assert_eq!(generated, interpreted, "generated code and engine, create of {object}");
}

// ---------------------------------------------------------------------------------
// The rule: "any invalid part of the resource that remains invalid must have already
// been wrong" (page). Upstream: ratchetingValueValidator.Validate turns a node's
// errors into (unreported) warnings when CachedDeepEqual(node) holds.
// ---------------------------------------------------------------------------------

/// An invalid value left as it was is kept while another field changes; changing it
/// to another invalid value is refused, and so is making a valid value invalid.
#[test]
fn an_unchanged_invalid_value_is_kept() {
    let message = "spec.count: Invalid value: 20: spec.count in body should be less than or equal to 10";
    assert_create::<Gauge>(json!({"count": 20}), rejected(&[message]));
    assert_update::<Gauge>(
        json!({"count": 20, "note": "b"}),
        json!({"count": 20, "note": "a"}),
        admitted(),
    );
    assert_update::<Gauge>(
        json!({"count": 21, "note": "a"}),
        json!({"count": 20, "note": "a"}),
        rejected(&["spec.count: Invalid value: 21: spec.count in body should be less than or equal to 10"]),
    );
    assert_update::<Gauge>(json!({"count": 20}), json!({"count": 5}), rejected(&[message]));
    // Removing the field and adding it back is a change: no old value to compare with.
    assert_update::<Gauge>(json!({"count": 20}), json!({}), rejected(&[message]));
}

/// What ratchets: every value validation of a node (kube-openapi's type, format,
/// string, number, slice and common validators), each shown once kept and once
/// changed to another invalid value.
#[test]
fn value_validations_ratchet() {
    // (field, stored invalid value, another invalid value, its error)
    let cases: &[(&str, Value, Value, &str)] = &[
        (
            "count",
            json!(0),
            json!(-1),
            "spec.count: Invalid value: -1: spec.count in body should be greater than or equal to 1",
        ),
        (
            "step",
            json!(7),
            json!(8),
            "spec.step: Invalid value: 8: spec.step in body should be a multiple of 5",
        ),
        (
            "ratio",
            json!(1.5),
            json!(2.5),
            "spec.ratio: Invalid value: 2.5: spec.ratio in body should be less than 1",
        ),
        (
            "port",
            json!(2147483648u64),
            json!(2147483649u64),
            // Not a `Validation` error: printed at no path, with no value.
            "<nil>: Invalid value: \"\": Checked value must be of type integer with format int32 in spec.port",
        ),
        (
            "mode",
            json!("medium"),
            json!("quick"),
            "spec.mode: Unsupported value: \"quick\": supported values: \"fast\", \"slow\"",
        ),
        (
            "name",
            json!("a"),
            json!("b"),
            "spec.name: Invalid value: \"b\": spec.name in body should be at least 2 chars long",
        ),
        (
            "name",
            json!("abcdef"),
            json!("abcdefg"),
            "spec.name: Too long: may not be more than 5 bytes",
        ),
        (
            "name",
            json!("AB"),
            json!("CD"),
            "spec.name: Invalid value: \"CD\": spec.name in body should match '^[a-z]+$'",
        ),
        (
            "when",
            json!("yesterday"),
            json!("tomorrow"),
            "spec.when: Invalid value: \"tomorrow\": spec.when in body must be of type date-time: \"tomorrow\"",
        ),
        (
            "size",
            json!(5),
            json!(6),
            "spec.size: Invalid value: \"integer\": spec.size in body must be of type string: \"integer\"",
        ),
        (
            "tags",
            json!(["a", "b", "c"]),
            json!(["a", "b", "d"]),
            "spec.tags: Too many: 3: must have at most 2 items",
        ),
        (
            "labels",
            json!({"a": "1", "b": "2", "c": "3"}),
            json!({"a": "1", "b": "2", "d": "3"}),
            "spec.labels: Too many: 3: must have at most 2 items",
        ),
    ];
    for (field, stored, changed, error) in cases {
        let spec = |value: &Value, note: &str| {
            let mut spec = json!({"note": note});
            spec[*field] = value.clone();
            spec
        };
        assert_update::<Gauge>(spec(stored, "b"), spec(stored, "a"), admitted());
        assert_update::<Gauge>(spec(changed, "a"), spec(stored, "a"), rejected(&[error]));
    }
    // `minItems`: no other invalid value; an empty list is kept.
    assert_create::<Gauge>(
        json!({"tags": []}),
        rejected(&["spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items"]),
    );
    assert_update::<Gauge>(
        json!({"tags": [], "note": "b"}),
        json!({"tags": [], "note": "a"}),
        admitted(),
    );
    // A string too long is not also checked against the pattern (kube-openapi's
    // string validator stops at the first failure).
    assert_create::<Gauge>(
        json!({"name": "ABCDEFG"}),
        rejected(&["spec.name: Too long: may not be more than 5 bytes"]),
    );
}

// ---------------------------------------------------------------------------------
// Correlation: which old value a new value is compared with (CorrelatedObject.Key
// and .Index).
// ---------------------------------------------------------------------------------

/// Map keys correlate: a value kept under its key is ratcheted while other keys of
/// the map change; the same invalid value moved to another key is not.
#[test]
fn map_values_correlate_by_key() {
    let stored = json!({"labels": {"a": "long", "b": "x"}});
    assert_create::<Gauge>(
        stored.clone(),
        rejected(&["spec.labels.a: Too long: may not be more than 3 bytes"]),
    );
    assert_update::<Gauge>(json!({"labels": {"a": "long", "b": "y"}}), stored.clone(), admitted());
    assert_update::<Gauge>(
        json!({"labels": {"a": "x", "b": "long"}}),
        stored,
        rejected(&["spec.labels.b: Too long: may not be more than 3 bytes"]),
    );
}

/// Items of a `x-kubernetes-list-type: map` list correlate by their keys, wherever
/// they move: an invalid field of an item is kept when the list is reordered, grows,
/// or the item's other fields change; the same item under another key is new.
#[test]
fn map_list_items_correlate_by_keys() {
    let error =
        "spec.ports[0].number: Invalid value: 200: spec.ports[0].number in body should be less than or equal to 100";
    let stored = json!({"ports": [{"name": "a", "number": 200}, {"name": "b", "number": 1}]});
    assert_create::<Gauge>(stored.clone(), rejected(&[error]));
    assert_update::<Gauge>(
        json!({"ports": [{"name": "b", "number": 1}, {"name": "c", "number": 2}, {"name": "a", "number": 200}]}),
        stored.clone(),
        admitted(),
    );
    assert_update::<Gauge>(
        json!({"ports": [{"name": "a", "number": 200, "protocol": "TCP"}]}),
        stored.clone(),
        admitted(),
    );
    assert_update::<Gauge>(
        json!({"ports": [{"name": "c", "number": 200}, {"name": "b", "number": 1}]}),
        stored,
        rejected(&[
            "spec.ports[0].number: Invalid value: 200: spec.ports[0].number in body should be less than or equal to 100",
        ]),
    );
}

/// Items of an atomic list (no list type) do not correlate, not even by index: an
/// unchanged invalid item is kept only while the whole list is unchanged.
#[test]
fn atomic_list_items_do_not_correlate() {
    let stored = json!({"tags": ["long"], "note": "a"});
    let error = "spec.tags[0]: Too long: may not be more than 3 bytes";
    assert_create::<Gauge>(stored.clone(), rejected(&[error]));
    assert_update::<Gauge>(json!({"tags": ["long"], "note": "b"}), stored.clone(), admitted());
    assert_update::<Gauge>(json!({"tags": ["long", "ok"], "note": "a"}), stored, rejected(&[error]));
}

/// Nothing below an uncorrelatable list item ratchets on its own: changing one field
/// of an item of an atomic list reports its unchanged sibling, and so does changing
/// another item.
#[test]
fn fields_under_uncorrelatable_items_are_not_ratcheted() {
    let stored = json!({"backends": [{"host": "long", "weight": 1}, {"host": "b", "weight": 1}]});
    let error = "spec.backends[0].host: Too long: may not be more than 3 bytes";
    assert_update::<Gauge>(
        json!({"backends": [{"host": "long", "weight": 1}, {"host": "b", "weight": 1}], "note": "b"}),
        stored.clone(),
        admitted(),
    );
    assert_update::<Gauge>(
        json!({"backends": [{"host": "long", "weight": 2}, {"host": "b", "weight": 1}]}),
        stored.clone(),
        rejected(&[error]),
    );
    assert_update::<Gauge>(
        json!({"backends": [{"host": "long", "weight": 1}, {"host": "b", "weight": 2}]}),
        stored,
        rejected(&[error]),
    );
}

// ---------------------------------------------------------------------------------
// The page's exceptions.
// ---------------------------------------------------------------------------------

/// Quantors, `allOf`: the branch's subschema is validated without ratcheting
/// (kube-openapi builds the branch validators with no options, so the ratcheting
/// validator is not used below them): a value in it that is left as it was fails when
/// the object holding the `allOf` changed. Only an unchanged object keeps its errors,
/// as any node's. Compare `value_validations_ratchet`, where the same `maxLength`
/// outside a quantor is kept while a sibling changes.
#[test]
fn quantor_all_of_does_not_ratchet() {
    let stored = json!({"all": {"a": "long", "b": "1"}, "note": "a"});
    let errors = [
        "spec.all.a: Too long: may not be more than 3 bytes",
        "<nil>: Invalid value: \"\": \"spec.all\" must validate all the schemas (allOf). None validated",
    ];
    assert_create::<Switch>(stored.clone(), rejected(&errors));
    assert_update::<Switch>(
        json!({"all": {"a": "long", "b": "2"}, "note": "a"}),
        stored.clone(),
        rejected(&errors),
    );
    assert_update::<Switch>(json!({"all": {"a": "long", "b": "1"}, "note": "b"}), stored, admitted());
}

/// Quantors, `oneOf`: two branches hold; a change of the object (not of what the
/// branches look at) reports it.
#[test]
fn quantor_one_of_does_not_ratchet() {
    let stored = json!({"one": {"a": "1", "b": "1"}, "note": "a"});
    let errors = [
        "<nil>: Invalid value: \"\": \"spec.one\" must validate one and only one schema (oneOf). Found 2 valid alternatives",
    ];
    assert_create::<Switch>(stored.clone(), rejected(&errors));
    assert_update::<Switch>(
        json!({"one": {"a": "1", "b": "1", "c": "1"}, "note": "a"}),
        stored.clone(),
        rejected(&errors),
    );
    assert_update::<Switch>(json!({"one": {"a": "1", "b": "1"}, "note": "b"}), stored, admitted());
}

/// Quantors, `anyOf`: no branch holds for an `a` left as it was.
#[test]
fn quantor_any_of_does_not_ratchet() {
    let stored = json!({"any": {"a": "yy", "b": "1"}, "note": "a"});
    let errors = [
        "<nil>: Invalid value: \"\": \"spec.any\" must validate at least one schema (anyOf)",
        "spec.any.a: Invalid value: \"yy\": spec.any.a in body should match '^x'",
    ];
    assert_create::<Switch>(stored.clone(), rejected(&errors));
    assert_update::<Switch>(
        json!({"any": {"a": "yy", "b": "2"}, "note": "a"}),
        stored.clone(),
        rejected(&errors),
    );
    assert_update::<Switch>(json!({"any": {"a": "yy", "b": "1"}, "note": "b"}), stored, admitted());
}

/// Quantors, `not`: the branch holds for an `a` left as it was.
#[test]
fn quantor_not_does_not_ratchet() {
    let stored = json!({"none": {"a": "bad", "b": "1"}, "note": "a"});
    let errors = ["<nil>: Invalid value: \"\": \"spec.none\" must not validate the schema (not)"];
    assert_create::<Switch>(stored.clone(), rejected(&errors));
    assert_update::<Switch>(
        json!({"none": {"a": "bad", "b": "2"}, "note": "a"}),
        stored.clone(),
        rejected(&errors),
    );
    assert_update::<Switch>(json!({"none": {"a": "bad", "b": "1"}, "note": "b"}), stored, admitted());
}

/// `required`: a missing required field is an error of the object that should hold
/// it, so it is reported as soon as that object changes at all (a field added to
/// `required` after objects were stored); only an object left entirely as it was
/// keeps it.
#[test]
fn required_is_not_ratcheted() {
    let stored = json!({"owner": {"team": "a"}, "note": "a"});
    let error = "spec.owner.id: Required value";
    assert_create::<Gauge>(stored.clone(), rejected(&[error]));
    assert_update::<Gauge>(
        json!({"owner": {"team": "b"}, "note": "a"}),
        stored.clone(),
        rejected(&[error]),
    );
    assert_update::<Gauge>(json!({"owner": {"team": "a"}, "note": "b"}), stored, admitted());
}

/// `properties`: a value is compared with the old value under the same property name
/// only. The same invalid value under another name (a property renamed in the
/// schema, or the value moved) is new and validated; kept under its name it is
/// ratcheted.
#[test]
fn properties_correlate_by_name_only() {
    let stored = json!({"limits": {"cpu": "1000m"}});
    assert_update::<Gauge>(
        json!({"limits": {"memory": "1000m"}}),
        stored.clone(),
        rejected(&["spec.limits.memory: Too long: may not be more than 3 bytes"]),
    );
    assert_update::<Gauge>(json!({"limits": {"cpu": "1000m", "memory": "1"}}), stored, admitted());
}

/// `properties`: a field whose name the schema does not know (kept by
/// `x-kubernetes-preserve-unknown-fields`) never correlates, so the object holding it
/// never equals its old value and its own errors (here `minProperties`) are not
/// ratcheted even when nothing changed in it; its known, unchanged `id` still is.
#[test]
fn unknown_property_names_are_not_ratcheted() {
    let stored = json!({"open": {"id": "long", "extra": "1"}, "note": "a"});
    let min = "spec.open: Invalid value: 2: spec.open in body should have at least 3 properties";
    assert_create::<Gauge>(
        stored.clone(),
        rejected(&[min, "spec.open.id: Too long: may not be more than 3 bytes"]),
    );
    assert_update::<Gauge>(
        json!({"open": {"id": "long", "extra": "1"}, "note": "b"}),
        stored,
        rejected(&[min]),
    );
}

/// `additionalProperties`: without a schema (`true`, or a schema removed), map values
/// do not correlate, so the map never equals its old value: its `maxProperties` error
/// is reported on every update, even one that leaves the map as it was. With a
/// schema (`labels`) the same error is ratcheted.
#[test]
fn additional_properties_without_a_schema_are_not_ratcheted() {
    let error = "spec.anything: Too many: 2: must have at most 1 item";
    let stored = json!({"anything": {"x": "1", "y": "2"}, "note": "a"});
    assert_create::<Gauge>(stored.clone(), rejected(&[error]));
    assert_update::<Gauge>(
        json!({"anything": {"x": "1", "y": "2"}, "note": "b"}),
        stored,
        rejected(&[error]),
    );
    assert_update::<Gauge>(
        json!({"labels": {"a": "1", "b": "2", "c": "3"}, "note": "b"}),
        json!({"labels": {"a": "1", "b": "2", "c": "3"}, "note": "a"}),
        admitted(),
    );
}

/// `x-kubernetes-list-type: set`: duplicates added to a list without any are
/// refused. The page says a set's duplicates are never ratcheted; the current API
/// server (customResourceStrategy.ValidateUpdate) checks list sets and maps of the new
/// object only when the old object has no such error, anywhere: an update of an
/// object already holding duplicates is admitted, whatever list the new duplicates
/// are in.
#[test]
fn list_type_set_uniqueness() {
    assert_update::<Pool>(
        json!({"zones": ["a", "b", "a"]}),
        json!({"zones": ["a", "b"]}),
        rejected(&["spec.zones[2]: Duplicate value: \"a\""]),
    );
    let stored = json!({"zones": ["a", "a"], "note": "a"});
    assert_create::<Pool>(stored.clone(), rejected(&["spec.zones[1]: Duplicate value: \"a\""]));
    assert_update::<Pool>(json!({"zones": ["a", "a"], "note": "b"}), stored.clone(), admitted());
    assert_update::<Pool>(
        json!({"zones": ["a", "a", "b", "b"], "regions": ["x", "x"]}),
        stored,
        admitted(),
    );
}

/// Items of a `set` list do not correlate either: an invalid item left as it was is
/// reported once the list changes.
#[test]
fn list_type_set_items_do_not_correlate() {
    assert_update::<Pool>(
        json!({"zones": ["long", "ok"]}),
        json!({"zones": ["long"]}),
        rejected(&["spec.zones[0]: Too long: may not be more than 3 bytes"]),
    );
    assert_update::<Pool>(
        json!({"zones": ["long"], "note": "b"}),
        json!({"zones": ["long"]}),
        admitted(),
    );
}

/// `x-kubernetes-list-map-keys`: two items with the same keys are refused when the
/// old object has none; as for sets, an old object holding such duplicates (map keys
/// changed after it was stored) turns the check off.
#[test]
fn list_map_keys_uniqueness() {
    assert_update::<Pool>(
        json!({"members": [{"name": "a", "role": "x"}, {"name": "a", "role": "y"}]}),
        json!({"members": [{"name": "a", "role": "x"}]}),
        rejected(&["spec.members[1]: Duplicate value: {\"name\":\"a\"}"]),
    );
    let stored = json!({"members": [{"name": "a", "role": "x"}, {"name": "a", "role": "y"}]});
    assert_create::<Pool>(
        stored.clone(),
        rejected(&["spec.members[1]: Duplicate value: {\"name\":\"a\"}"]),
    );
    assert_update::<Pool>(
        json!({"members": [{"name": "a", "role": "x"}, {"name": "a", "role": "z"}], "note": "b"}),
        stored,
        admitted(),
    );
}

/// `x-kubernetes-validations`: a failing rule that is not a transition rule is
/// ratcheted where its value is unchanged (the page's 1.28 note is outdated; the
/// current validator's `shouldRatchetError`), and the API server returns the failure
/// as a warning; a changed value fails.
#[test]
fn rules_ratchet_with_a_warning() {
    let message = "spec.name: Invalid value: \"abc\": name must start with k8s";
    let stored = json!({"name": "abc", "note": "a"});
    assert_create::<Gate>(stored.clone(), rejected(&[message]));
    assert_update::<Gate>(json!({"name": "abc", "note": "b"}), stored.clone(), warned(&[message]));
    assert_update::<Gate>(
        json!({"name": "abd", "note": "a"}),
        stored,
        rejected(&["spec.name: Invalid value: \"abd\": name must start with k8s"]),
    );
}

/// `x-kubernetes-validations`: transition rules (using `oldSelf`) are never ratcheted:
/// the value left as it was fails again.
#[test]
fn transition_rules_do_not_ratchet() {
    let stored = json!({"stage": "legacy", "note": "a"});
    assert_update::<Gate>(
        json!({"stage": "legacy", "note": "b"}),
        stored.clone(),
        rejected(&["spec.stage: Invalid value: \"legacy\": legacy must move to current"]),
    );
    assert_update::<Gate>(json!({"stage": "current", "note": "b"}), stored, admitted());
}

/// `x-kubernetes-validations` below an uncorrelatable list item: the rule is
/// ratcheted by the nearest correlatable ancestor, the list, which must be unchanged
/// as a whole.
#[test]
fn rules_under_atomic_lists_ratchet_with_the_list() {
    let message = "spec.hosts[0].host: Invalid value: \"long\": failed rule: self.size() <= 3";
    let stored = json!({"hosts": [{"host": "long", "weight": 1}], "note": "a"});
    assert_update::<Gate>(
        json!({"hosts": [{"host": "long", "weight": 1}], "note": "b"}),
        stored.clone(),
        warned(&[message]),
    );
    assert_update::<Gate>(
        json!({"hosts": [{"host": "long", "weight": 2}], "note": "a"}),
        stored,
        rejected(&[message]),
    );
}

/// `x-kubernetes-validations` in a `map` list: items correlate by key, so a failing
/// field of a moved and otherwise changed item is ratcheted; the same item under
/// another key is not.
#[test]
fn rules_in_map_lists_ratchet_by_keys() {
    let stored = json!({"routes": [{"path": "/a", "target": "nowhere"}]});
    assert_update::<Gate>(
        json!({"routes": [{"path": "/b", "target": "x"}, {"path": "/a", "target": "nowhere", "weight": 1}]}),
        stored.clone(),
        warned(&["spec.routes[1].target: Invalid value: \"nowhere\": target must go somewhere"]),
    );
    assert_update::<Gate>(
        json!({"routes": [{"path": "/c", "target": "nowhere"}]}),
        stored,
        rejected(&["spec.routes[0].target: Invalid value: \"nowhere\": target must go somewhere"]),
    );
}

/// Ratcheting is per node, down from the root, and the root never equals its old
/// value: `apiVersion`, `kind` and `metadata` are not properties of the schema, and
/// `CorrelatedObject.Key` correlates no key without a schema. So an error of the root
/// itself (here its `required`) is reported on every update, even one that changes
/// nothing.
#[test]
fn the_root_never_ratchets() {
    let stored = json!({
        "apiVersion": "test.example.com/v1", "kind": "Gauge",
        "metadata": {"name": "x", "namespace": "default", "resourceVersion": "1"},
    });
    assert_update_objects::<Gauge>(stored.clone(), stored, rejected(&["spec: Required value"]));
}

/// Object-level rules ratchet as any other: a rule of `spec` left failing is a
/// warning on an update that changes only the labels, or nothing. A rule of the root
/// is not ratcheted, the root never being unchanged (see `the_root_never_ratchets`).
#[test]
fn object_rules_ratchet_but_root_rules_do_not() {
    let gate = |note: &str, label: &str| {
        json!({
            "apiVersion": "test.example.com/v1", "kind": "Gate",
            "metadata": {"name": "x", "namespace": "default", "resourceVersion": "1", "labels": {"l": label}},
            "spec": {"note": note},
        })
    };
    let spec_rule = "spec: Invalid value: note must not be spec";
    assert_update_objects::<Gate>(gate("spec", "b"), gate("spec", "a"), warned(&[spec_rule]));
    assert_update_objects::<Gate>(gate("spec", "a"), gate("spec", "a"), warned(&[spec_rule]));
    assert_update_objects::<Gate>(gate("spec", "a"), gate("x", "a"), rejected(&[spec_rule]));
    assert_update_objects::<Gate>(
        gate("root", "a"),
        gate("root", "a"),
        rejected(&["<nil>: Invalid value: note must not be root"]),
    );
}

/// A ratcheted OpenAPI error is no error: an `enum` value left as it was does not
/// keep the rules from running (a `NotSupported` error does, with the "rules were not
/// checked" error), so the failing rule of `name` is still found (and ratcheted).
#[test]
fn ratcheted_errors_do_not_block_rules() {
    let stored = json!({"level": "mid", "name": "abc", "note": "a"});
    assert_update::<Gate>(
        json!({"level": "mid", "name": "abc", "note": "b"}),
        stored.clone(),
        warned(&["spec.name: Invalid value: \"abc\": name must start with k8s"]),
    );
    assert_update::<Gate>(
        json!({"level": "mid2", "name": "abc", "note": "a"}),
        stored,
        rejected(&[
            "spec.level: Unsupported value: \"mid2\": supported values: \"low\", \"high\"",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]),
    );
}

/// A `map` list holding two items with the same keys (keys changed after the object
/// was stored): every new item correlates with the first old item of its keys
/// (`MapList.Get`), so the second item is compared with the first, and its invalid
/// `role` is reported although the list is unchanged. (The duplicate itself is not,
/// the old object having list errors.)
#[test]
fn duplicate_map_keys_correlate_with_the_first_item() {
    let stored = json!({"members": [{"name": "a", "role": "x"}, {"name": "a", "role": "long"}], "note": "a"});
    assert_create::<Pool>(
        stored.clone(),
        rejected(&[
            "spec.members[1].role: Too long: may not be more than 3 bytes",
            "spec.members[1]: Duplicate value: {\"name\":\"a\"}",
        ]),
    );
    assert_update::<Pool>(
        json!({"members": [{"name": "a", "role": "x"}, {"name": "a", "role": "long"}], "note": "b"}),
        stored,
        rejected(&["spec.members[1].role: Too long: may not be more than 3 bytes"]),
    );
}

/// A rule whose evaluation fails (here a division by zero) is an error of the rule,
/// not a failure of the value: the API server appends it directly, never through
/// the ratcheting check, so it is reported for a value left as it was. The same rule
/// evaluating to false on another unchanged value is ratcheted.
#[test]
fn rule_evaluation_errors_are_not_ratcheted() {
    assert_update::<Gate>(
        json!({"divisor": 0, "note": "b"}),
        json!({"divisor": 0, "note": "a"}),
        rejected(&["spec.divisor: Invalid value: \"integer\": division by zero evaluating rule: 100 / self > 1"]),
    );
    assert_update::<Gate>(
        json!({"divisor": 100, "note": "b"}),
        json!({"divisor": 100, "note": "a"}),
        warned(&["spec.divisor: Invalid value: 100: failed rule: 100 / self > 1"]),
    );
}

/// A transition rule with `optionalOldSelf` runs on create (no old value) and is a
/// transition rule all the same: not ratcheted on an update that leaves its value as
/// it was.
#[test]
fn optional_old_self_rules_do_not_ratchet() {
    assert_create::<Gate>(json!({"once": "v"}), admitted());
    assert_update::<Gate>(
        json!({"once": "v", "note": "b"}),
        json!({"once": "v", "note": "a"}),
        rejected(&["spec.once: Invalid value: \"v\": once can only be set at creation"]),
    );
}

/// Rules on items of a `set` list: the items do not correlate, the list does; a
/// failing item is ratcheted while the whole list is unchanged.
#[test]
fn rules_under_set_lists_ratchet_with_the_list() {
    let message = "spec.zones[0]: Invalid value: \"moon\": failed rule: self != 'moon'";
    let stored = json!({"zones": ["moon"], "note": "a"});
    assert_update::<Gate>(
        json!({"zones": ["moon"], "note": "b"}),
        stored.clone(),
        warned(&[message]),
    );
    assert_update::<Gate>(
        json!({"zones": ["moon", "sun"], "note": "a"}),
        stored,
        rejected(&[message]),
    );
}

/// Rules on map values: values correlate by key (the rule's path names the key in
/// brackets, as CEL errors do).
#[test]
fn rules_on_map_values_correlate_by_key() {
    let stored = json!({"quotas": {"a": 20, "b": 1}});
    assert_update::<Gate>(
        json!({"quotas": {"a": 20, "b": 2}}),
        stored.clone(),
        warned(&["spec.quotas[a]: Invalid value: 20: failed rule: self <= 10"]),
    );
    assert_update::<Gate>(
        json!({"quotas": {"a": 1, "b": 20}}),
        stored,
        rejected(&["spec.quotas[b]: Invalid value: 20: failed rule: self <= 10"]),
    );
}

/// A rule of an object holding a field the schema does not know
/// (`x-kubernetes-preserve-unknown-fields`) is not ratcheted: the object never equals
/// its old value. Without the unknown field it is.
#[test]
fn rules_of_objects_with_unknown_fields_are_not_ratcheted() {
    let message = "spec.extra: Invalid value: extra.id must not be bad";
    assert_update::<Gate>(
        json!({"extra": {"id": "bad"}, "note": "b"}),
        json!({"extra": {"id": "bad"}, "note": "a"}),
        warned(&[message]),
    );
    assert_update::<Gate>(
        json!({"extra": {"id": "bad", "more": 1}, "note": "b"}),
        json!({"extra": {"id": "bad", "more": 1}, "note": "a"}),
        rejected(&[message]),
    );
}

/// An embedded resource (`x-kubernetes-embedded-resource`) keeps its `apiVersion`,
/// `kind` and `metadata`, which are not properties of its schema: like unknown
/// fields, they keep the object from ever equalling its old value, so its own errors
/// are not ratcheted; its declared `spec` still correlates.
#[test]
fn embedded_resources_never_equal_their_old_value() {
    let template = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"image": "long"}});
    let min = "spec.template: Invalid value: 4: spec.template in body should have at least 5 properties";
    assert_create::<Gauge>(
        json!({"template": template}),
        rejected(&[min, "spec.template.spec.image: Too long: may not be more than 3 bytes"]),
    );
    assert_update::<Gauge>(
        json!({"template": template, "note": "b"}),
        json!({"template": template, "note": "a"}),
        rejected(&[min]),
    );
}
