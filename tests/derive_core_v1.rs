//! Derived types holding k8s-openapi's core/v1 types (crd-runtime's `core-v1`
//! feature): the CRD carries their schemas, inlined and structural, and admission
//! checks them as the reference engine does on that CRD.

use crd_derive::CustomResource;
use crd_runtime::k8s_openapi::api::core::v1::{ObjectReference, PodTemplateSpec, ResourceRequirements, Toleration};
use crd_runtime::k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use crd_runtime::schema::CustomResource as _;
use crd_tests::differential::kind_agrees_with_the_engine;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A batch of pods, as operators' specs often are: a pod template and scheduling bits.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "derive.example.com",
    version = "v1",
    kind = "Batch",
    namespaced,
    rule(
        rule = "self.template.spec.containers.all(c, c.name != 'init')",
        message = "`init` is reserved"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct BatchSpec {
    pub template: PodTemplateSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerations: Option<Vec<Toleration>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourceRequirements>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<ObjectReference>,
}

fn crd() -> Value {
    serde_json::to_value(Batch::crd()).unwrap()
}

fn spec_schema(crd: &Value) -> &Value {
    &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
}

/// `schema` with every `$ref` replaced by its definition, and the definitions the
/// derive maps by name (as controller-gen does) replaced by what it gives them: an
/// embedded `ObjectMeta` as controller-gen's `generateEmbeddedObjectMeta`, quantities
/// and int-or-strings as controller-gen's, and `LabelSelector` as crd-runtime's mirror of controller-gen's
/// (whose descriptions keep the Go comments' line breaks; tested on its own in
/// `derive_differential.rs`).
fn inlined(schema: &Value, definitions: &serde_json::Map<String, Value>) -> Value {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                let name = r.trim_start_matches("#/$defs/");
                let mut target = match name {
                    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" => json!({
                        "type": "object",
                        "properties": {
                            "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
                            "finalizers": {"type": "array", "items": {"type": "string"}},
                            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                            "name": {"type": "string"},
                            "namespace": {"type": "string"},
                        },
                    }),
                    "io.k8s.apimachinery.pkg.util.intstr.IntOrString" => json!({
                        "anyOf": [{"type": "integer"}, {"type": "string"}],
                        "x-kubernetes-int-or-string": true,
                    }),
                    "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector" => {
                        <LabelSelector as crd_runtime::__private::CrdSchema>::crd_schema()
                    }
                    "io.k8s.apimachinery.pkg.api.resource.Quantity" => json!({
                        "anyOf": [{"type": "integer"}, {"type": "string"}],
                        "pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
                        "x-kubernetes-int-or-string": true,
                    }),
                    _ => inlined(&definitions[name], definitions),
                };
                // The referring property's description wins over the type's.
                if let Some(d) = map.get("description") {
                    target["description"] = d.clone();
                }
                return target;
            }
            map.iter().map(|(k, v)| (k.clone(), inlined(v, definitions))).collect()
        }
        Value::Array(items) => items.iter().map(|v| inlined(v, definitions)).collect(),
        other => other.clone(),
    }
}

/// A description as a doc comment keeps it: trailing spaces of a line are dropped.
fn without_trailing_spaces(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(s) if key == "description" => {
                        *s = s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
                    }
                    _ => without_trailing_spaces(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(without_trailing_spaces),
        _ => {}
    }
}

/// Equal, or a panic naming the first path where they differ.
fn assert_same(actual: &Value, expected: &Value, path: &str) {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(e.keys()).collect();
            for key in keys {
                match (a.get(key), e.get(key)) {
                    (Some(x), Some(y)) => assert_same(x, y, &format!("{path}.{key}")),
                    (x, y) => panic!("{path}.{key}: {x:?} != {y:?}"),
                }
            }
        }
        _ => assert_eq!(actual, expected, "at {path}"),
    }
}

#[test]
fn the_crd_holds_k8s_openapis_schemas_inlined() {
    let mut generator = schemars::SchemaGenerator::default();
    let template = generator.subschema_for::<PodTemplateSpec>();
    let tolerations = generator.subschema_for::<Toleration>();
    let definitions = generator.take_definitions(true);
    let crd = crd();
    let spec = spec_schema(&crd);

    let mut expected = inlined(&serde_json::to_value(template).unwrap(), &definitions);
    without_trailing_spaces(&mut expected);
    assert_same(&spec["properties"]["template"], &expected, "template");

    let mut expected = inlined(&serde_json::to_value(tolerations).unwrap(), &definitions);
    without_trailing_spaces(&mut expected);
    assert_eq!(
        spec["properties"]["tolerations"],
        json!({"type": "array", "items": expected})
    );

    // Spot checks of the inlined form, against k8s-openapi's Rust types.
    let container = &spec["properties"]["template"]["properties"]["spec"]["properties"]["containers"];
    assert_eq!(container["type"], "array");
    assert_eq!(container["items"]["required"], json!(["name"]));
    let limits = &container["items"]["properties"]["resources"]["properties"]["limits"];
    assert_eq!(limits["additionalProperties"]["x-kubernetes-int-or-string"], true);
    let port = &container["items"]["properties"]["ports"]["items"]["properties"]["containerPort"];
    assert_eq!(port["format"], "int32");
}

#[test]
fn batch_agrees_with_the_engine() {
    kind_agrees_with_the_engine::<Batch>(40);
}

#[test]
fn pod_templates_are_checked_pruned_and_their_rules_run() {
    let object = json!({
        "apiVersion": "derive.example.com/v1",
        "kind": "Batch",
        "metadata": {"name": "b", "namespace": "default"},
        "spec": {
            "template": {
                "metadata": {"labels": {"app": "batch"}},
                "spec": {
                    "containers": [
                        {"name": "init", "image": "busybox", "junk": true,
                         "ports": [{"containerPort": "80"}],
                         "resources": {"limits": {"cpu": "lots", "memory": "1Gi"}}},
                        {"image": "nginx"},
                    ],
                    "restartPolicy": "Never",
                },
            },
            "tolerations": [{"key": "k", "operator": "Exists", "tolerationSeconds": 1.5}],
        },
    });
    let admitted = Batch::admit_value(object, "default");
    let errors: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        [
            "spec.template.spec.containers[0].ports[0].containerPort: Invalid value: \"string\": spec.template.spec.containers[0].ports[0].containerPort in body must be of type integer: \"string\"",
            "spec.template.spec.containers[0].resources.limits.cpu: Invalid value: \"lots\": spec.template.spec.containers[0].resources.limits.cpu in body should match '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$'",
            "spec.template.spec.containers[1].name: Required value",
            // kube-openapi checks an int64's type by its format, then its range.
            "spec.tolerations[0].tolerationSeconds: Invalid value: \"float64\": spec.tolerations[0].tolerationSeconds in body must be of type int64: \"float64\"",
            "<nil>: Invalid value: \"\": Checked value must be of type integer with format int64 in spec.tolerations[0].tolerationSeconds",
            // The spec's rule would fail too, but rules do not run on invalid objects.
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
    // The template's labels stay (embedded metadata keeps them); unknown fields go.
    assert_eq!(admitted.pruned, ["spec.template.spec.containers[0].junk"]);
    assert_eq!(
        admitted.object["spec"]["template"]["metadata"]["labels"],
        json!({"app": "batch"})
    );

    let good = json!({
        "apiVersion": "derive.example.com/v1",
        "kind": "Batch",
        "metadata": {"name": "b", "namespace": "default"},
        "spec": {"template": {"spec": {"containers": [{"name": "init", "image": "busybox"}]}}},
    });
    let admitted = Batch::admit_value(good, "default");
    let errors: Vec<String> = admitted.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errors, ["spec: Invalid value: `init` is reserved"]);
}
