//! Helpers shared by the `engine_*` tests: schemas from JSON, the engine's steps on
//! one schema, CRDs around a schema.
#![allow(dead_code)]

use crd_codegen::engine::compile::{CNode, CompileOptions};
use crd_codegen::engine::{Engine, default, lists, meta, prune, validate};
use crd_codegen::ir;
use crd_codegen::model::JsonSchemaProps;
use crd_runtime::errors::{ErrorList, Path};
use serde_json::{Value, json};

/// An IR schema from its JSON (`JSONSchemaProps`) form.
pub fn schema(v: Value) -> ir::Schema {
    let props: JsonSchemaProps = serde_json::from_value(v).expect("schema JSON");
    crd_codegen::lower::lower_schema(&props)
}

pub fn compile(v: Value) -> CNode {
    CNode::compile(&schema(v), CompileOptions::REQUEST)
}

/// kube-openapi validation of `value` as the API server reports it.
pub fn validate_errors(schema_json: Value, value: Value) -> Vec<String> {
    let c = compile(schema_json);
    let res = validate::validate(&c, &value, None, &Path::Root);
    let mut errs = ErrorList::new();
    res.into_field_errors(&mut errs);
    errs.iter().map(|e| e.to_string()).collect()
}

/// Ratcheting validation of an update from `old` to `value`.
pub fn validate_update_errors(schema_json: Value, value: Value, old: Value) -> Vec<String> {
    let c = compile(schema_json);
    let res = validate::validate(&c, &value, Some(&old), &Path::Root);
    let mut errs = ErrorList::new();
    res.into_field_errors(&mut errs);
    errs.iter().map(|e| e.to_string()).collect()
}

/// `PruneWithOptions`: the pruned object and the sorted pruned paths.
pub fn prune_value(schema_json: Option<Value>, mut value: Value, is_resource_root: bool) -> (Value, Vec<String>) {
    let c = schema_json.map(compile);
    let mut pruned = Vec::new();
    prune::prune(&mut value, c.as_ref(), is_resource_root, &mut pruned);
    pruned.sort();
    (value, pruned)
}

pub fn default_value(schema_json: Value, mut value: Value) -> Value {
    let c = compile(schema_json);
    default::default(&mut value, Some(&c));
    value
}

pub fn drop_nulls_value(schema_json: Value, mut value: Value) -> Value {
    let c = compile(schema_json);
    default::drop_nulls(&mut value, Some(&c));
    value
}

pub fn list_errors(schema_json: Value, value: Value) -> Vec<String> {
    let c = compile(schema_json);
    let mut errs = ErrorList::new();
    if let Value::Object(m) = &value {
        lists::validate_object(&Path::Root, &c, m, &mut errs);
    }
    errs.iter().map(|e| e.to_string()).collect()
}

pub fn embedded_errors(schema_json: Value, value: Value, is_resource_root: bool) -> Vec<String> {
    let c = compile(schema_json);
    let mut errs = ErrorList::new();
    meta::validate(&value, Some(&c), is_resource_root, &Path::Root, &mut errs);
    errs.iter().map(|e| e.to_string()).collect()
}

/// A namespaced CRD `foos.example.com`, kind `Foo`, version `v1`, with `schema` as
/// its `openAPIV3Schema` (and `extra` merged into the version, e.g. subresources).
pub fn crd_yaml(schema: &Value, scope: &str, version_extra: Value) -> Value {
    let mut version = json!({
        "name": "v1",
        "served": true,
        "storage": true,
        "schema": {"openAPIV3Schema": schema},
    });
    if let (Value::Object(v), Value::Object(extra)) = (&mut version, version_extra) {
        v.extend(extra);
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {
            "group": "example.com",
            "scope": scope,
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": [version],
        },
    })
}

/// Loads a CRD document through the normal path (checks included): the IR, or the
/// check errors.
pub fn load_crd(crd: &Value) -> Result<ir::Crd, Vec<String>> {
    let text = serde_json::to_string(crd).unwrap();
    let docs = crd_codegen::source::parse_text(std::path::Path::new("crd.json"), text).unwrap();
    let mut loaded = crd_codegen::load::Loaded::default();
    crd_codegen::load::load_documents(docs, &mut loaded);
    if loaded.has_errors() {
        return Err(loaded.diagnostics.iter().map(|d| d.message.clone()).collect());
    }
    Ok(loaded.crds.remove(0).ir)
}

/// The engine of a valid CRD around `schema` (namespaced, version v1).
pub fn engine(schema: Value) -> Engine {
    let crd = load_crd(&crd_yaml(&schema, "Namespaced", json!({}))).expect("valid CRD");
    Engine::new(&crd)
}

pub fn strings(errs: &ErrorList) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}
