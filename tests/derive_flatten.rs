//! `#[serde(flatten)]` of derived structs: their fields (and rules) are the holder's,
//! as controller-gen flattens an embedded Go struct; admission sees them at the
//! holder's path, and agrees with the reference engine run on the derived CRD.

use crd_derive::{CrdSchema, CustomResource};
use crd_runtime::schema::CustomResource as _;
use crd_tests::differential::kind_agrees_with_the_engine;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// What every app spec in this operator has.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
#[crd(rule(rule = "self.minReplicas <= self.replicas", message = "replicas below minReplicas"))]
pub struct Scaling {
    /// How many copies run.
    #[crd(minimum = 0, default = 1)]
    #[serde(default)]
    pub replicas: i32,
    #[crd(minimum = 0)]
    #[serde(default)]
    pub min_replicas: i32,
    #[serde(flatten)]
    pub limits: Limits,
}

/// Flattened into `Scaling`, and so into the spec.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    #[crd(max_length = 8)]
    pub max_surge: String,
}

/// Optional extras: flattened under `Option`, so none of their fields is required.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Extras {
    pub note: String,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "derive.example.com", version = "v1", kind = "App", namespaced)]
#[serde(rename_all = "camelCase")]
pub struct AppSpec {
    pub image: String,
    #[serde(flatten)]
    pub scaling: Scaling,
    #[serde(flatten)]
    pub extras: Option<Extras>,
}

/// A nested type holding a flattened one (the `CrdSchema` derive's route).
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Tier {
    pub name: String,
    #[serde(flatten)]
    pub scaling: Scaling,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "derive.example.com", version = "v1", kind = "Tiered", namespaced)]
pub struct TieredSpec {
    pub tiers: Vec<Tier>,
}

fn spec_schema(crd: &Value) -> Value {
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"].clone()
}

fn app(spec: Value) -> Value {
    json!({"apiVersion": "derive.example.com/v1", "kind": "App",
           "metadata": {"name": "a", "namespace": "default"}, "spec": spec})
}

#[test]
fn flattened_fields_and_rules_are_the_holders() {
    let crd = serde_json::to_value(App::crd()).unwrap();
    let spec = spec_schema(&crd);
    assert_eq!(
        spec,
        json!({
            "type": "object",
            "properties": {
                "image": {"type": "string"},
                "maxSurge": {"type": "string", "maxLength": 8},
                "minReplicas": {"type": "integer", "format": "int32", "minimum": 0.0},
                "note": {"type": "string"},
                "replicas": {"type": "integer", "format": "int32", "minimum": 0.0, "default": 1,
                             "description": "How many copies run."},
            },
            "required": ["image", "maxSurge"],
            "x-kubernetes-validations": [
                {"rule": "self.minReplicas <= self.replicas", "message": "replicas below minReplicas"},
            ],
        })
    );
}

#[test]
fn admission_checks_flattened_fields_where_they_are() {
    let admitted = App::admit_value(
        app(json!({"image": "nginx", "maxSurge": "25%", "minReplicas": 2, "junk": 1})),
        "default",
    );
    let errors: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errors, ["spec: Invalid value: replicas below minReplicas"]);
    assert_eq!(admitted.pruned, ["spec.junk"]);
    // The default of a flattened field is applied in the holder.
    assert_eq!(admitted.object["spec"]["replicas"], 1);

    let admitted = App::admit_value(
        app(json!({"image": "nginx", "maxSurge": "much too much", "note": "hi"})),
        "default",
    );
    let errors: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    // (The spec's rule waits for a valid object, as the API server's do.)
    assert_eq!(
        errors,
        [
            "spec.maxSurge: Too long: may not be more than 8 bytes",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );

    let good = App::admit_value(
        app(json!({"image": "nginx", "maxSurge": "1", "minReplicas": 0, "note": "hi"})),
        "default",
    );
    assert!(good.errors.is_empty(), "{:?}", good.errors);
    let typed: App = serde_json::from_value(good.object).unwrap();
    assert_eq!(typed.spec.scaling.limits.max_surge, "1");
    assert_eq!(typed.spec.extras, Some(Extras { note: "hi".into() }));
}

#[test]
fn a_nested_type_flattens_too() {
    let crd = serde_json::to_value(Tiered::crd()).unwrap();
    let tier = &spec_schema(&crd)["properties"]["tiers"]["items"];
    let mut names: Vec<&String> = tier["properties"].as_object().unwrap().keys().collect();
    names.sort();
    assert_eq!(names, ["maxSurge", "minReplicas", "name", "replicas"]);
    assert_eq!(tier["required"], json!(["name", "maxSurge"]));
    let admitted = Tiered::admit_value(
        json!({"apiVersion": "derive.example.com/v1", "kind": "Tiered",
               "metadata": {"name": "t", "namespace": "default"},
               "spec": {"tiers": [{"name": "web", "replicas": 1, "minReplicas": 3, "maxSurge": "1"}]}}),
        "default",
    );
    let errors: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errors, ["spec.tiers[0]: Invalid value: replicas below minReplicas"]);
}

#[test]
fn flattened_kinds_agree_with_the_engine() {
    kind_agrees_with_the_engine::<App>(150);
    kind_agrees_with_the_engine::<Tiered>(150);
}

/// controller-gen's one-of groups on a flattened type apply to the holder.
#[derive(CrdSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[crd(exactly_one_of = ["image", "build"])]
pub struct Source {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "derive.example.com", version = "v1", kind = "Job", namespaced)]
pub struct JobSpec {
    pub name: String,
    #[serde(flatten)]
    pub source: Source,
}

#[test]
fn one_of_groups_of_a_flattened_type_apply_to_the_holder() {
    let job = |spec: Value| {
        json!({"apiVersion": "derive.example.com/v1", "kind": "Job",
               "metadata": {"name": "j", "namespace": "default"}, "spec": spec})
    };
    let errors: Vec<String> = Job::admit_value(job(json!({"name": "x", "image": "a", "build": "b"})), "default")
        .errors
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errors,
        ["spec: Invalid value: exactly one of the fields in [image build] must be set"]
    );
    assert!(
        Job::admit_value(job(json!({"name": "x", "build": "b"})), "default")
            .errors
            .is_empty()
    );
    kind_agrees_with_the_engine::<Job>(100);
}
