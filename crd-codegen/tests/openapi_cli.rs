//! `crdgen openapi`: the published schemas as JSON, `--v2`, `--kind`, `--version`, and
//! the exit codes (0 printed, 1 invalid CRD, 2 unreadable input or unknown kind or
//! version).

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Command, Output};

const CRONTAB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/crds/crontab.yaml");

fn crdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crdgen")).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_out(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("crdgen-openapi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const TWO_VERSIONS: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    selectableFields:
    - jsonPath: .spec.color
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color: {type: string, default: red, nullable: true}
              port:
                x-kubernetes-int-or-string: true
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v1alpha1
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
";

#[test]
fn v3_by_default_with_every_served_version_and_the_lists() {
    let path = temp("widgets.yaml", TWO_VERSIONS);
    let doc = json_out(&crdgen(&["openapi", &path]));
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let names: Vec<&str> = schemas.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "com.example.v1.Widget",
            "com.example.v1.WidgetList",
            "com.example.v1beta1.Widget",
            "com.example.v1beta1.WidgetList",
        ]
    );
    let widget = &schemas["com.example.v1.Widget"];
    assert_eq!(
        widget["properties"]["spec"]["properties"]["color"],
        json!({"type": "string", "default": "red", "nullable": true})
    );
    assert_eq!(
        widget["properties"]["spec"]["properties"]["port"],
        json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]})
    );
    assert_eq!(
        widget["properties"]["metadata"]["allOf"][0]["$ref"],
        "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    assert_eq!(
        widget["x-kubernetes-selectable-fields"],
        json!([{"fieldPath": "spec.color"}])
    );
}

#[test]
fn v2_with_kind_and_version() {
    let path = temp("widgets-v2.yaml", TWO_VERSIONS);
    let doc = json_out(&crdgen(&[
        "openapi",
        &path,
        "--v2",
        "--kind",
        "Widget",
        "--version",
        "v1",
    ]));
    let defs = doc["definitions"].as_object().unwrap();
    assert_eq!(defs.len(), 2, "{doc}");
    let widget = &defs["com.example.v1.Widget"];
    assert_eq!(widget["properties"]["spec"]["properties"]["color"], json!({}));
    assert_eq!(
        widget["properties"]["spec"]["properties"]["port"],
        json!({"x-kubernetes-int-or-string": true})
    );
    assert_eq!(
        widget["properties"]["metadata"]["$ref"],
        "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    assert_eq!(
        defs["com.example.v1.WidgetList"]["properties"]["items"]["items"],
        json!({"$ref": "#/definitions/com.example.v1.Widget"})
    );
    // v1beta1 keeps unknown fields below spec only: spec loses its type in v2.
    let doc = json_out(&crdgen(&["openapi", &path, "--v2", "--version", "v1beta1"]));
    assert_eq!(
        doc["definitions"]["com.example.v1beta1.Widget"]["properties"]["spec"],
        json!({"x-kubernetes-preserve-unknown-fields": true})
    );
}

#[test]
fn the_seed_crontab() {
    let doc = json_out(&crdgen(&["openapi", CRONTAB, "--v2"]));
    let spec = &doc["definitions"]["com.example.stable.v1.CronTab"]["properties"]["spec"];
    // Defaults are not published in v2.
    assert_eq!(
        spec["properties"]["replicas"],
        json!({"type": "integer", "minimum": 1, "maximum": 10})
    );
    let doc = json_out(&crdgen(&["openapi", CRONTAB]));
    let spec = &doc["components"]["schemas"]["com.example.stable.v1.CronTab"]["properties"]["spec"];
    assert_eq!(spec["properties"]["replicas"]["default"], 1);
}

#[test]
fn unknown_kind_or_version_is_bad_input() {
    let path = temp("widgets-bad.yaml", TWO_VERSIONS);
    let o = crdgen(&["openapi", &path, "--kind", "Gadget"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no CustomResourceDefinition of kind \"Gadget\" (kinds: Widget)"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());

    let o = crdgen(&["openapi", &path, "--version", "v2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no version \"v2\""), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("widgets.example.com: v1, v1beta1, v1alpha1"),
        "{}",
        stderr(&o)
    );

    // A version that exists but is not served is not published.
    let o = crdgen(&["openapi", &path, "--version", "v1alpha1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("widgets-bad.yaml"), "{}", stderr(&o));
    assert!(stderr(&o).contains("\"v1alpha1\" is not served"), "{}", stderr(&o));
}

#[test]
fn invalid_crd_exits_1_unreadable_input_exits_2() {
    let invalid = temp(
        "invalid.yaml",
        &TWO_VERSIONS.replace("color: {type: string,", "color: {type: bug,"),
    );
    let o = crdgen(&["openapi", &invalid]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("invalid.yaml"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());

    let o = crdgen(&["openapi", "/nonexistent/crd.yaml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("/nonexistent/crd.yaml"), "{}", stderr(&o));

    let malformed = temp("malformed.yaml", "kind: [CustomResourceDefinition\n");
    let o = crdgen(&["openapi", &malformed]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));

    let not_a_crd = temp(
        "configmap.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
    );
    let o = crdgen(&["openapi", &not_a_crd]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no CustomResourceDefinition found"),
        "{}",
        stderr(&o)
    );
}
