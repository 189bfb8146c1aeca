//! The CEL pipeline on arbitrary expressions against a fixed schema: parser, type
//! checker and cost estimator (the API server's CRD checks), then the interpreter on a
//! create and an update. The first byte says where the expression goes: the rule
//! (even) or, with a rule that fails, the `messageExpression` (odd).
#![no_main]

use crd_codegen::cel::check::compile::AdmissionStages;
use crd_codegen::engine::Engine;
use crd_codegen::model::{CustomResourceDefinition, ValidationRule};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::sync::LazyLock;

/// A spec with a field of every kind CEL sees differently: scalars, formats
/// (date-time, duration, byte, quantity strings), int-or-string, a list-map, a set, a
/// map, nested objects, preserved unknown fields and an embedded resource.
const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.fuzz.example.com}
spec:
  group: fuzz.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string, maxLength: 63}
              count: {type: integer, format: int32, minimum: 0, maximum: 1000}
              ratio: {type: number}
              enabled: {type: boolean}
              size: {type: string, maxLength: 32}
              when: {type: string, format: date-time}
              every: {type: string, format: duration}
              data: {type: string, format: byte, maxLength: 64}
              port: {x-kubernetes-int-or-string: true}
              tags: {type: array, maxItems: 8, x-kubernetes-list-type: set, items: {type: string, maxLength: 16}}
              labels: {type: object, maxProperties: 8, additionalProperties: {type: string, maxLength: 32}}
              entries:
                type: array
                maxItems: 8
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [key]
                items:
                  type: object
                  required: [key]
                  properties:
                    key: {type: string, maxLength: 16}
                    value: {type: integer}
              nested:
                type: object
                properties:
                  inner: {type: object, properties: {leaf: {type: string, maxLength: 16}}}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              ready: {type: boolean}
"#;

static BASE: LazyLock<CustomResourceDefinition> = LazyLock::new(|| {
    let loaded = crd_codegen::load::load_str(CRD, "fuzz-cel.yaml");
    assert!(!loaded.has_errors(), "the CEL fuzz CRD does not load");
    loaded.crds.into_iter().next().expect("one CRD").model
});

fn object(name: &str, count: i64, tags: Value) -> Value {
    json!({
        "apiVersion": "fuzz.example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "w", "namespace": "default", "resourceVersion": "1"},
        "spec": {
            "name": name, "count": count, "ratio": 0.5, "enabled": true, "size": "1500m",
            "when": "2024-01-02T03:04:05Z", "every": "1h30m", "data": "aGVsbG8=", "port": "http",
            "tags": tags, "labels": {"app": "web", "tier": "front"},
            "entries": [{"key": "a", "value": 1}, {"key": "b", "value": -2}],
            "nested": {"inner": {"leaf": "x"}},
            "free": {"any": [1, "two", {"three": 3.0}]},
            "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}},
        },
        "status": {"ready": false},
    })
}

fuzz_target!(|data: &[u8]| {
    let [flag, expression @ ..] = data else {
        return;
    };
    let Ok(expression) = std::str::from_utf8(expression) else {
        return;
    };
    let mut crd = BASE.clone();
    let rule = if flag % 2 == 0 {
        ValidationRule {
            rule: expression.to_string(),
            ..Default::default()
        }
    } else {
        ValidationRule {
            rule: "self.count > 1000".to_string(),
            message_expression: expression.to_string(),
            ..Default::default()
        }
    };
    // One version: the model holds its schema hoisted, as the API server does.
    let spec = (crd.spec.validation.as_mut())
        .and_then(|s| s.open_api_v3_schema.as_mut())
        .and_then(|s| s.properties.get_mut("spec"))
        .expect("the CRD has a spec schema");
    spec.x_validations = vec![rule];
    let errors = crd_codegen::check::check_crd_with(&crd, &AdmissionStages);
    if !errors.is_empty() {
        for e in &errors {
            let _ = e.to_string();
        }
        return;
    }
    let engine = Engine::new(&crd_codegen::lower::lower_crd(&crd));
    let schema = engine.version("v1").expect("v1");
    let new = object("web", 3, json!(["a", "b"]));
    let old = object("old", 7, json!(["b"]));
    for admission in [
        schema.create(new.clone(), "default"),
        schema.update(new.clone(), old.clone(), "default"),
        schema.update(old, new, "default"),
    ] {
        for error in &admission.errors {
            let _ = error.to_string();
        }
    }
});
