//! kube-derive's spelling, attribute by attribute and convention by convention: what
//! the CRD says (beside `kube_parity.rs`, which holds it to kube-derive's own output),
//! what the root type is and does, and the admission compiled from it.

use crd_derive::{CustomResource, KubeSchema, Resource};
use crd_runtime::prelude::*;
use kube::CustomResourceExt;
use kube::core::object::{HasSpec, HasStatus};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn schema_of(crd: impl Serialize) -> Value {
    let crd = serde_json::to_value(crd).unwrap();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

fn one() -> i32 {
    1
}

/// The example README gives.
#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Scaler", namespaced)]
#[x_kube(validation = Rule::new("self.min <= self.max").message("min above max"))]
pub struct ScalerSpec {
    #[serde(default = "one")]
    pub min: i32,
    pub max: i32,
}

#[test]
fn the_readme_example() {
    let scaler = Scaler::new("s", ScalerSpec { min: 5, max: 2 });
    let err = scaler.validate().unwrap_err();
    assert_eq!(
        err.to_string(),
        "The Scaler \"s\" is invalid:\n* spec: Invalid value: min above max"
    );
    let admitted = Scaler::admit_value(
        json!({"apiVersion": "example.com/v1", "kind": "Scaler", "metadata": {"name": "s"}, "spec": {"max": 3}}),
        "default",
    );
    assert!(admitted.errors.is_empty(), "{:?}", admitted.errors);
    assert_eq!(admitted.object["spec"], json!({"min": 1, "max": 3}));
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct Limits {
    pub max: u32,
}

/// Kube-derive's conventions, each in a field.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
#[kube(
    group = "conventions.example.com",
    version = "v1",
    kind = "Convention",
    status = "ConventionStatus"
)]
#[serde(rename_all = "camelCase")]
pub struct ConventionSpec {
    zeta: String,
    alpha: String,
    /// An `Option` is nullable.
    maybe: Option<String>,
    #[serde(default = "one")]
    from_function: i32,
    #[serde(default)]
    from_default: Limits,
    small: u8,
    count: usize,
    ratio: f64,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct ConventionStatus {
    ready: bool,
}

#[test]
fn kube_derives_conventions_in_the_schema() {
    let root = schema_of(Convention::crd());
    assert_eq!(root["title"], json!("Convention"));
    assert_eq!(
        root["description"],
        json!("Auto-generated derived type for ConventionSpec via `CustomResource`")
    );
    assert_eq!(root["properties"]["status"]["nullable"], json!(true));
    let spec = &root["properties"]["spec"];
    // `required`, sorted; defaults and `Option`s not required.
    assert_eq!(spec["required"], json!(["alpha", "count", "ratio", "small", "zeta"]));
    assert_eq!(
        spec["properties"]["maybe"],
        json!({"type": "string", "nullable": true, "description": "An `Option` is nullable."})
    );
    assert_eq!(spec["properties"]["fromFunction"]["default"], json!(1));
    assert_eq!(spec["properties"]["fromDefault"]["default"], json!({"max": 0}));
    assert_eq!(
        spec["properties"]["small"],
        json!({"type": "integer", "format": "uint8", "minimum": 0.0, "maximum": 255.0})
    );
    assert_eq!(
        spec["properties"]["count"],
        json!({"type": "integer", "format": "uint", "minimum": 0.0})
    );
    assert_eq!(
        spec["properties"]["ratio"],
        json!({"type": "number", "format": "double"})
    );
    // What the API server fills in is left to it.
    let crd = serde_json::to_value(Convention::crd()).unwrap();
    assert_eq!(crd["spec"]["names"].get("listKind"), None);
    assert_eq!(crd["spec"].get("conversion"), None);
}

#[test]
fn defaults_from_functions_are_applied_and_bounds_checked() {
    let object = json!({"apiVersion": "conventions.example.com/v1", "kind": "Convention", "metadata": {"name": "c"},
        "spec": {"zeta": "z", "alpha": "a", "small": 300, "count": 1, "ratio": 0.5}});
    let admitted = Convention::admit_value(object, "");
    let messages: Vec<String> = admitted.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        vec!["spec.small: Invalid value: 300: spec.small in body should be less than or equal to 255"]
    );
    assert_eq!(admitted.object["spec"]["fromFunction"], json!(1));
    assert_eq!(admitted.object["spec"]["fromDefault"], json!({"max": 0}));
}

/// The root as kube-derive makes it: `root`, `derive`, `attr`, annotations and
/// labels on new objects, `HasSpec`, `HasStatus`, `Default` written by hand.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "root.example.com",
    version = "v1",
    kind = "Widget",
    root = "WidgetObject",
    derive = "PartialEq",
    derive = "Default",
    attr = "allow(clippy::large_enum_variant)",
    status = "WidgetStatus",
    annotation("root.example.com/owner", "team-a"),
    label("app", "widget"),
    deprecated = "use v2",
    shortname = "wd"
)]
pub struct WidgetSpec {
    size: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WidgetStatus {
    ok: bool,
}

#[test]
fn the_root_type_is_kube_derives() {
    let mut w = WidgetObject::new("w", WidgetSpec { size: 3 });
    assert_eq!(
        w.metadata.annotations.as_ref().unwrap()["root.example.com/owner"],
        "team-a"
    );
    assert_eq!(w.metadata.labels.as_ref().unwrap()["app"], "widget");
    assert_eq!(w.spec().size, 3);
    w.spec_mut().size = 4;
    *w.status_mut() = Some(WidgetStatus { ok: true });
    assert_eq!(w.status(), Some(&WidgetStatus { ok: true }));
    assert_eq!(
        WidgetObject::default(),
        WidgetObject {
            metadata: Default::default(),
            spec: WidgetSpec { size: 0 },
            status: None
        }
    );
    let crd = serde_json::to_value(WidgetObject::crd()).unwrap();
    assert_eq!(crd["spec"]["versions"][0]["deprecationWarning"], json!("use v2"));
    assert_eq!(crd["metadata"]["labels"], json!({"app": "widget"}));
    assert_eq!(<WidgetObject as kube::CustomResourceExt>::shortnames(), &["wd"]);
    let wire = serde_json::to_value(&w).unwrap();
    assert_eq!(wire["apiVersion"], json!("root.example.com/v1"));
    assert_eq!(wire["kind"], json!("Widget"));
}

/// A spec that is an enum (kube-derive's externally tagged form).
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
#[kube(group = "enums.example.com", version = "v1", kind = "Choice")]
#[serde(rename_all = "camelCase")]
pub enum ChoiceSpec {
    Image { reference: String },
    Script(String),
}

#[test]
fn an_enum_spec_admits_exactly_one_variant() {
    let object = |spec: Value| json!({"apiVersion": "enums.example.com/v1", "kind": "Choice", "metadata": {"name": "c"}, "spec": spec});
    assert!(
        Choice::admit_value(object(json!({"script": "run"})), "")
            .errors
            .is_empty()
    );
    let both = Choice::admit_value(object(json!({"script": "run", "image": {"reference": "r"}})), "");
    let messages: Vec<String> = both.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        // As kube-openapi reports a failed `oneOf`.
        vec![
            "<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). Found 2 valid alternatives"
        ]
    );
    let c = Choice::new("c", ChoiceSpec::Script("run".into()));
    assert_eq!(serde_json::to_value(&c).unwrap()["spec"], json!({"script": "run"}));
}

/// `no_spec`: the struct's fields at the root, the struct still the root's `spec`.
#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "flat.example.com",
    version = "v1",
    kind = "Bucket",
    namespaced,
    no_spec,
    status = "BucketStatus",
    derive = "PartialEq"
)]
pub struct BucketFields {
    #[x_kube(validation = Rule::new("self.size() >= 3").message("too short"))]
    region: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BucketStatus {
    used: u64,
}

#[test]
fn no_spec_holds_the_fields_at_the_root() {
    let mut b = Bucket::new("b", BucketFields { region: "eu".into() });
    b.status = Some(BucketStatus { used: 1 });
    let wire = serde_json::to_value(&b).unwrap();
    assert_eq!(wire["region"], json!("eu"));
    assert_eq!(wire["status"], json!({"used": 1}));
    assert_eq!(serde_json::from_value::<Bucket>(wire.clone()).unwrap(), b);
    let admitted = Bucket::admit_value(wire, "default");
    let messages: Vec<String> = admitted.errors.iter().map(ToString::to_string).collect();
    assert_eq!(messages, vec!["region: Invalid value: \"eu\": too short"]);
}

/// `validate_cel` where kube-derive generates it: on the root with `#[kube(cel)]`, and
/// on a type with `#[x_kube(cel)]`; our compiled rules behind them.
#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "cel.example.com",
    version = "v1",
    kind = "Ranged",
    cel,
    validation = "self.spec.low <= self.spec.high"
)]
#[x_kube(cel, validation = "self.low >= 0")]
pub struct RangedSpec {
    low: i32,
    high: i32,
    #[x_kube(validation = Rule::new("self == oldSelf").message("is immutable"))]
    name: String,
}

#[test]
fn validate_cel_runs_the_compiled_rules() {
    let ok = Ranged::new(
        "r",
        RangedSpec {
            low: 1,
            high: 2,
            name: "a".into(),
        },
    );
    assert!(ok.validate_cel().is_ok());
    let bad = Ranged::new(
        "r",
        RangedSpec {
            low: 3,
            high: 2,
            name: "a".into(),
        },
    );
    let errs = bad.validate_cel().unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(
        errs.to_string(),
        "<nil>: Invalid value: failed rule: self.spec.low <= self.spec.high"
    );
    let renamed = Ranged::new(
        "r",
        RangedSpec {
            low: 1,
            high: 2,
            name: "b".into(),
        },
    );
    assert!(renamed.validate_cel().is_ok());
    assert_eq!(
        renamed.validate_cel_update(&ok).unwrap_err().to_string(),
        "spec.name: Invalid value: \"b\": is immutable"
    );
    let errs = RangedSpec::validate_cel(&json!({"low": -1, "high": 0, "name": "x"}), None).unwrap_err();
    assert_eq!(errs.to_string(), "<nil>: Invalid value: failed rule: self.low >= 0");
}

/// `#[derive(Resource)]`: a typed view of another kind's data.
#[derive(Resource, Default)]
#[resource(inherit = "k8s_openapi::api::core::v1::ConfigMap")]
pub struct TypedMap {
    metadata: crd_runtime::ObjectMeta,
}

#[test]
fn resource_inherits_the_kind() {
    use kube::Resource as _;
    assert_eq!(TypedMap::kind(&()), "ConfigMap");
    assert_eq!(TypedMap::api_version(&()), "v1");
    assert_eq!(TypedMap::plural(&()), "configmaps");
    assert_eq!(TypedMap::default().meta().name, None);
}

// A `#[crd(...)]` kind's emitted CRD test is an inner item in a function body, which
// the test harness cannot run (rustc warns).
#[test]
#[allow(unnameable_test_items)]
fn derives_inside_a_function_body() {
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
    #[kube(group = "local.example.com", version = "v1", kind = "Local")]
    struct LocalSpec {
        inner: LocalInner,
    }

    #[derive(Serialize, Deserialize, Clone, Debug, KubeSchema)]
    #[x_kube(validation = "self.n > 0")]
    struct LocalInner {
        n: i32,
    }

    #[derive(crd_derive::CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(group = "local.example.com", version = "v1", kind = "Plain")]
    struct PlainSpec {
        #[crd(maximum = 3)]
        n: i32,
    }

    let refused = Local::admit_value(
        json!({"apiVersion": "local.example.com/v1", "kind": "Local", "metadata": {"name": "l"}, "spec": {"inner": {"n": 0}}}),
        "",
    );
    assert_eq!(refused.errors.len(), 1, "{:?}", refused.errors);
    let refused = Plain::admit_value(
        json!({"apiVersion": "local.example.com/v1", "kind": "Plain", "metadata": {"name": "p"}, "spec": {"n": 4}}),
        "",
    );
    assert_eq!(refused.errors.len(), 1, "{:?}", refused.errors);
}

/// Generated items are documented: a crate denying missing docs compiles.
mod documented {
    #![deny(missing_docs)]
    use super::*;

    /// A documented spec.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
    #[kube(
        group = "docs.example.com",
        version = "v1",
        kind = "Documented",
        status = "DocumentedStatus"
    )]
    pub struct DocumentedSpec {
        /// A field.
        pub a: i32,
    }

    /// A documented status.
    #[derive(Serialize, Deserialize, Clone, Debug, JsonSchema)]
    pub struct DocumentedStatus {
        /// A field.
        pub b: bool,
    }
}

#[test]
fn a_crate_denying_missing_docs_compiles() {
    assert_eq!(documented::Documented::CRD_NAME, "documenteds.docs.example.com");
}

/// Rules of a flattened type deriving `KubeSchema` (on the type and on its fields)
/// are the holder's: published where kube-derive puts them, and run on admission.
#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "flat.example.com", version = "v1", kind = "Flat")]
pub struct FlatSpec {
    pub name: String,
    #[serde(flatten)]
    pub limits: FlatLimits,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[x_kube(validation = Rule::new("self.low <= self.high").message("low above high"))]
pub struct FlatLimits {
    pub low: i32,
    #[x_kube(validation = Rule::new("self < 100").message("high too high"))]
    pub high: i32,
}

#[test]
fn a_flattened_types_rules_run_on_the_holder() {
    let object = |low: i32, high: i32| {
        json!({"apiVersion": "flat.example.com/v1", "kind": "Flat", "metadata": {"name": "f"},
               "spec": {"name": "n", "low": low, "high": high}})
    };
    let schema = schema_of(Flat::crd());
    assert_eq!(
        schema["properties"]["spec"]["x-kubernetes-validations"],
        json!([{"rule": "self.low <= self.high", "message": "low above high"}])
    );
    let ok = Flat::admit_value(object(1, 2), "default");
    assert!(ok.errors.is_empty(), "{:?}", ok.errors);
    let messages = |a: crd_runtime::Admission| a.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    assert_eq!(
        messages(Flat::admit_value(object(5, 2), "default")),
        ["spec: Invalid value: low above high"]
    );
    assert_eq!(
        messages(Flat::admit_value(object(1, 200), "default")),
        ["spec.high: Invalid value: 200: high too high"]
    );
    let limits = FlatLimits { low: 1, high: 200 };
    let flat = Flat::new(
        "f",
        FlatSpec {
            name: "n".into(),
            limits,
        },
    );
    assert_eq!(
        flat.validate().unwrap_err().to_string(),
        "The Flat \"f\" is invalid:\n* spec.high: Invalid value: 200: high too high"
    );
}

/// Beside the holder's own rules, the first flattened type's run too, before them as
/// in the CRD's list (a flattened type's field rules also come before the holder's own
/// here, where the API server runs the node's list first); a second flattened type's own rules are not in the CRD (schemars keeps the
/// first's), so its objects are refused rather than checked against them.
#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "flat.example.com", version = "v1", kind = "Gate")]
#[x_kube(validation = Rule::new("self.width > 0").message("no width"))]
pub struct GateSpec {
    pub width: i32,
    #[serde(flatten)]
    pub lock: GateLock,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[x_kube(validation = Rule::new("self.code != ''").message("no code"))]
pub struct GateLock {
    pub code: String,
}

#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "flat.example.com", version = "v1", kind = "Vault")]
pub struct VaultSpec {
    #[serde(flatten)]
    pub lock: GateLock,
    #[serde(flatten)]
    pub limits: FlatLimits,
}

#[test]
fn flattened_rules_beside_the_holders_and_after_another() {
    let messages = |a: crd_runtime::Admission| a.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    let gate = |width: i32, code: &str| {
        json!({"apiVersion": "flat.example.com/v1", "kind": "Gate", "metadata": {"name": "g"},
               "spec": {"width": width, "code": code}})
    };
    assert_eq!(messages(Gate::admit_value(gate(1, "x"), "")), Vec::<String>::new());
    assert_eq!(
        messages(Gate::admit_value(gate(0, ""), "")),
        ["spec: Invalid value: no code", "spec: Invalid value: no width"]
    );
    let rules = &schema_of(Vault::crd())["properties"]["spec"]["x-kubernetes-validations"];
    assert_eq!(rules, &json!([{"rule": "self.code != ''", "message": "no code"}]));
    let vault = json!({"apiVersion": "flat.example.com/v1", "kind": "Vault", "metadata": {"name": "v"},
                       "spec": {"code": "x", "low": 1, "high": 2}});
    let refused = messages(Vault::admit_value(vault, ""));
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0].starts_with("spec: Invalid value: \"object\": rule compiler initialization error: ")
            && refused[0].contains("`FlatLimits` is flattened after another type with rules"),
        "{refused:?}"
    );
}
