//! Derived types against the reference engine run on their own `crd()`: random valid
//! and one-fault objects, created and updated, must be admitted identically (object,
//! pruned paths, errors, warnings). The kinds here use most of the derive's
//! vocabulary: nested types, lists and maps of them, list types, enums, int-or-string,
//! quantities, nullable fields, defaults, preserved unknown fields, k8s-openapi's
//! `Condition` and `LabelSelector`, and rules on types and fields (one-of,
//! immutability, `oldSelf`).

use crd_codegen::engine::Engine;
use crd_derive::{CrdSchema, CustomResource};
use crd_runtime::IntOrString;
use crd_runtime::k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use crd_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector};
use crd_runtime::schema::CustomResource as _;
use crd_tests::differential::kind_agrees_with_the_engine;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A workload, with most of what a spec can say.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "derive.example.com",
    version = "v1",
    kind = "Workload",
    namespaced,
    status = "WorkloadStatus",
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
    exactly_one_of = ["image", "build"],
    rule(rule = "self.minReplicas <= self.replicas", message = "replicas must not be below minReplicas")
)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSpec {
    /// How many copies run.
    #[crd(minimum = 0, maximum = 100, default = 1)]
    #[serde(default)]
    pub replicas: i32,
    #[crd(minimum = 0)]
    #[serde(default)]
    pub min_replicas: i64,
    /// The workload's name; fixed once created.
    #[crd(max_length = 20, pattern = "^[a-z][a-z0-9-]*$", immutable)]
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build: Option<Build>,
    #[crd(max_items = 4, list_type = "map", list_map_keys = ["name"])]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ports: Option<Vec<Port>>,
    #[crd(list_type = "set", max_items = 5, items(max_length = 8))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    #[crd(max_properties = 3)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<BTreeMap<String, Quantity>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<IntOrString>,
    #[crd(default = "Fast")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<Option<String>>,
    #[crd(format = "duration")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<String>,
    /// Anything; kept as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<Value>,
    /// k8s-openapi's type, with the schema controller-gen gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
#[crd(rule(rule = "!has(self.args) || size(self.args) <= 3", message = "at most three args"))]
pub struct Build {
    #[crd(min_length = 1)]
    pub context: String,
    #[crd(max_items = 10)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Port {
    #[crd(max_length = 15)]
    pub name: String,
    #[crd(minimum = 1, maximum = 65535)]
    pub port: i32,
    #[crd(default = "TCP")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol>,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
pub enum Protocol {
    #[serde(rename = "TCP")]
    Tcp,
    #[serde(rename = "UDP")]
    Udp,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug)]
#[crd(rule(
    rule = "!(self == 'Fast' && oldSelf == 'Careful')",
    message = "cannot go from Careful to Fast"
))]
pub enum Mode {
    Fast,
    Careful,
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct WorkloadStatus {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    #[crd(embedded_resource, preserve_unknown_fields)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_applied: Option<Value>,
    #[crd(list_type = "map", list_map_keys = ["type"], max_items = 8)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<Condition>>,
}

fn ir_of<T: crd_runtime::schema::CustomResource>(crd: &Value) -> crd_codegen::ir::Crd {
    let loaded = crd_codegen::load::load_str(&serde_json::to_string(crd).unwrap(), T::KIND);
    assert!(!loaded.has_errors(), "{}: {:?}", T::KIND, loaded.diagnostics);
    loaded.irs().remove(0)
}

#[test]
fn workload_agrees_with_the_engine() {
    kind_agrees_with_the_engine::<Workload>(150);
}

#[test]
fn workload_rules_report_like_the_api_server() {
    let base = json!({
        "apiVersion": "derive.example.com/v1",
        "kind": "Workload",
        "metadata": {"name": "w", "namespace": "default", "resourceVersion": "1"},
        "spec": {"name": "web", "image": "nginx", "minReplicas": 3, "replicas": 2,
                 "mode": "Careful", "build": {"context": "", "args": ["a", "b", "c", "d"]}},
    });
    let created = Workload::admit_value(base.clone(), "default");
    let errors: Vec<String> = created.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "spec.build.context: Invalid value: \"\": spec.build.context in body should be at least 1 chars long",
            // The spec's rules in the CRD's order: `rule`s first, then the one-of.
            "spec: Invalid value: replicas must not be below minReplicas",
            "spec: Invalid value: exactly one of the fields in [image build] must be set",
            "spec.build: Invalid value: at most three args",
        ]
    );
    let mut renamed = base.clone();
    renamed["spec"]["name"] = json!("api");
    renamed["spec"]["mode"] = json!("Fast");
    let updated = Workload::admit_update_value(renamed, base, "default");
    let errors: Vec<String> = updated.errors.iter().map(|e| e.to_string()).collect();
    assert!(
        errors.contains(&"spec.name: Invalid value: \"api\": field is immutable".to_string()),
        "{errors:#?}"
    );
    assert!(
        errors.contains(&"spec.mode: Invalid value: \"Fast\": cannot go from Careful to Fast".to_string()),
        "{errors:#?}"
    );
}

/// A kind without the status subresource (whose status a create would drop), holding
/// k8s-openapi's `Condition` list in its spec.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "derive.example.com", version = "v1", kind = "Report", namespaced)]
pub struct ReportSpec {
    #[crd(list_type = "map", list_map_keys = ["type"], max_items = 8)]
    pub conditions: Vec<Condition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
}

#[test]
fn report_agrees_with_the_engine() {
    kind_agrees_with_the_engine::<Report>(150);
}

#[test]
fn conditions_are_checked_as_controller_gen_declares_them() {
    let object = json!({
        "apiVersion": "derive.example.com/v1",
        "kind": "Report",
        "metadata": {"name": "r", "namespace": "default"},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}, "junk": 1},
            "conditions": [{"type": "Ready", "status": "Maybe", "reason": "", "message": "",
                            "lastTransitionTime": "2026-11-26T00:00:00Z"}],
        },
    });
    let admitted = Report::admit_value(object, "default");
    let errors: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    // (A string's checks stop at its first failure, as kube-openapi's do.)
    assert_eq!(
        errors,
        [
            "spec.conditions[0].reason: Invalid value: \"\": spec.conditions[0].reason in body should be at least 1 chars long",
            "spec.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"True\", \"False\", \"Unknown\"",
        ]
    );
    assert_eq!(admitted.pruned, ["spec.selector.junk"]);
}

/// Where a release comes from: serde's default (external) tagging.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// A git repository.
    Git {
        url: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        branch: Option<String>,
    },
    Http(HttpSource),
}

#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct HttpSource {
    #[crd(pattern = "^https?://")]
    pub url: String,
}

/// How a release rolls out: internally tagged.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "type")]
pub enum Strategy {
    Recreate,
    #[serde(rename_all = "camelCase")]
    RollingUpdate {
        max_surge: i32,
        #[crd(minimum = 0)]
        #[serde(skip_serializing_if = "Option::is_none")]
        max_unavailable: Option<i32>,
    },
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "derive.example.com", version = "v1", kind = "Release", namespaced)]
pub struct ReleaseSpec {
    pub source: Source,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
}

#[test]
fn release_agrees_with_the_engine() {
    kind_agrees_with_the_engine::<Release>(150);
}

#[test]
fn data_enums_are_one_of_their_variants() {
    let release = |spec: Value| {
        json!({"apiVersion": "derive.example.com/v1", "kind": "Release",
               "metadata": {"name": "r", "namespace": "default"}, "spec": spec})
    };
    let good = release(json!({
        "source": {"git": {"url": "https://example.com/x.git"}},
        "strategy": {"type": "RollingUpdate", "maxSurge": 1},
    }));
    let admitted = Release::admit_value(good, "default");
    assert!(admitted.errors.is_empty(), "{:?}", admitted.errors);
    let typed: Release = serde_json::from_value(admitted.object).unwrap();
    assert_eq!(
        typed.spec.source,
        Source::Git {
            url: "https://example.com/x.git".into(),
            branch: None
        }
    );
    assert_eq!(
        typed.spec.strategy,
        Some(Strategy::RollingUpdate {
            max_surge: 1,
            max_unavailable: None
        })
    );

    // (kube-openapi words a failed `oneOf` this way, path in the message.)
    let errors = |spec: Value| -> Vec<String> {
        Release::admit_value(release(spec), "default")
            .errors
            .iter()
            .map(|e| e.to_string())
            .collect()
    };
    assert_eq!(
        errors(json!({"source": {"git": {"url": "a"}, "http": {"url": "https://b"}}})),
        [
            "<nil>: Invalid value: \"\": \"spec.source\" must validate one and only one schema (oneOf). Found 2 valid alternatives"
        ]
    );
    assert_eq!(
        errors(json!({"source": {"http": {"url": "https://b"}}, "strategy": {"type": "RollingUpdate"}})),
        // (and reports the errors of the branch it found closest: here `Recreate`'s).
        [
            "<nil>: Invalid value: \"\": \"spec.strategy\" must validate one and only one schema (oneOf). Found none valid",
            "spec.strategy.type: Unsupported value: \"RollingUpdate\": supported values: \"Recreate\"",
        ]
    );
    assert_eq!(
        errors(json!({"source": {"http": {"url": "https://b"}}, "strategy": {"type": "Canary"}})),
        [
            "<nil>: Invalid value: \"\": \"spec.strategy\" must validate one and only one schema (oneOf). Found none valid",
            "spec.strategy.type: Unsupported value: \"Canary\": supported values: \"Recreate\"",
            "spec.strategy.type: Unsupported value: \"Canary\": supported values: \"Recreate\", \"RollingUpdate\"",
        ]
    );
}

/// Rules on a list of derived types, and rules of a derived type held in a list inside
/// another derived type (gateway-api's `targetRefs` and `subjectAltNames`): the derived
/// code runs them, as the engine does. (They were skipped: a list of derived types had
/// no CEL type, so its rules and items were left out of the walk.)
#[derive(Clone, Debug, Serialize, Deserialize, CustomResource)]
#[crd(group = "derive.example.com", version = "v1", kind = "Policy", namespaced)]
pub struct PolicySpec {
    #[crd(rule(rule = "self.all(p, p.name != 'bad')", message = "no bad"))]
    pub refs: Vec<PolicyRef>,
    pub validation: PolicyValidation,
}

#[derive(Clone, Debug, Serialize, Deserialize, CrdSchema)]
pub struct PolicyRef {
    pub name: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, CrdSchema)]
#[serde(rename_all = "camelCase")]
pub struct PolicyValidation {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alt_names: Option<Vec<PolicyAltName>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, CrdSchema)]
#[crd(rule(rule = "self.kind != 'x'", message = "no x"))]
pub struct PolicyAltName {
    pub kind: String,
}

#[test]
fn rules_on_and_in_lists_of_derived_types_run() {
    let object = json!({
        "apiVersion": "derive.example.com/v1", "kind": "Policy", "metadata": {"name": "p", "namespace": "default"},
        "spec": {"refs": [{"name": "bad"}, {"name": "ok"}], "validation": {"altNames": [{"kind": "x"}]}},
    });
    let admission = Policy::admit_value(object, "default");
    let errors: Vec<String> = admission.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "spec.refs: Invalid value: no bad",
            "spec.validation.altNames[0]: Invalid value: no x"
        ]
    );
    kind_agrees_with_the_engine::<Policy>(100);
}

/// `root_rule` rules run even when no field type has rules of its own (the root's
/// `HAS_RULES` counts its own rules).
#[derive(Clone, Debug, Serialize, Deserialize, CustomResource)]
#[crd(
    group = "derive.example.com",
    version = "v1",
    kind = "Named",
    namespaced,
    root_rule(
        rule = "self.metadata.name.startsWith(self.spec.prefix)",
        message = "name must start with the prefix"
    )
)]
pub struct NamedSpec {
    pub prefix: String,
}

#[test]
fn root_rules_run() {
    let object = |name: &str| {
        json!({
            "apiVersion": "derive.example.com/v1", "kind": "Named",
            "metadata": {"name": name, "namespace": "default"}, "spec": {"prefix": "web-"},
        })
    };
    let errors = |name: &str| -> Vec<String> {
        Named::admit_value(object(name), "default")
            .errors
            .iter()
            .map(|e| e.to_string())
            .collect()
    };
    assert!(errors("web-1").is_empty());
    assert_eq!(
        errors("db-1"),
        ["<nil>: Invalid value: name must start with the prefix"]
    );
    kind_agrees_with_the_engine::<Named>(50);
}

/// `int_or_string` on a field keeps the field's other keywords (it used to reset the
/// node, dropping a `pattern` given with it).
#[derive(Clone, Debug, Serialize, Deserialize, CustomResource)]
#[crd(group = "derive.example.com", version = "v1", kind = "Target", namespaced)]
pub struct TargetSpec {
    #[crd(int_or_string, pattern = "^[a-z]+$", max_length = 8)]
    pub target: String,
}

#[test]
fn int_or_string_keeps_the_other_keywords() {
    let crd = serde_json::to_value(Target::crd()).unwrap();
    assert_eq!(
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["target"],
        json!({
            "x-kubernetes-int-or-string": true,
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "pattern": "^[a-z]+$",
            "maxLength": 8,
        })
    );
    kind_agrees_with_the_engine::<Target>(50);
}

/// A rule sees a derived type as `dyn`, so the checker leaves `in`, `+` and `<` on
/// its fields to dynamic dispatch, which cel-go prices at 1; the API server sees the
/// whole schema and prices the overload (`in` a list by the list's size, `+` and `<`
/// of strings by their length). The derived code prices them as the API server does.
#[derive(Clone, Debug, Serialize, Deserialize, CustomResource)]
#[crd(
    group = "derive.example.com",
    version = "v1",
    kind = "Gate",
    namespaced,
    root_rule(rule = "!('blocked' in self.spec.names)", message = "blocked"),
    root_rule(rule = "self.spec.first + self.spec.last != 'xy'", message = "xy"),
    root_rule(rule = "self.spec.first < self.spec.last || true", message = "order")
)]
pub struct GateSpec {
    pub names: Vec<String>,
    pub first: String,
    pub last: String,
}

#[test]
fn calls_on_derived_fields_cost_what_the_api_server_charges() {
    let crd = serde_json::to_value(Gate::crd()).unwrap();
    let ir = ir_of::<Gate>(&crd);
    let engine = Engine::new(&ir);
    let version = engine.version("v1").unwrap();
    let object = |names: Vec<String>, first: &str| {
        json!({
            "apiVersion": "derive.example.com/v1", "kind": "Gate",
            "metadata": {"name": "g", "namespace": "default"},
            "spec": {"names": names, "first": first, "last": "z".repeat(40)},
        })
    };
    let mut costs = Vec::new();
    for (n, first) in [(0, ""), (2, "a"), (40, &*"a".repeat(100))] {
        let o = object((0..n).map(|i| format!("n{i}")).collect(), first);
        let derived = Gate::admit_value(o.clone(), "default");
        assert_eq!(derived, version.create(o, "default"));
        costs.push(derived.rules_cost);
    }
    // The list's size and the strings' lengths show in the cost.
    assert!(costs[0] < costs[1] && costs[1] < costs[2], "{costs:?}");
    kind_agrees_with_the_engine::<Gate>(50);
}
