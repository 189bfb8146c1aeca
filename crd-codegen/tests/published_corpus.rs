//! `crd_runtime::published` over every CRD of the corpus (`../shared/crds`), every
//! served version: v2 and v3 are produced without error, and hold what the API
//! server's rules promise.
//!
//! - v2: no `allOf`/`anyOf`/`oneOf`/`not`/`nullable`/`default` in any schema, no array
//!   type without `items`, nothing below a node that keeps unknown fields, and no
//!   property that v3 does not have;
//! - v3: the CRD's schema itself once what publishing adds is taken away (the root's
//!   `apiVersion`/`kind`/`metadata`, the extensions, embedded resources' fields, the
//!   int-or-string `anyOf`).

use crd_codegen::load::{Loaded, LoadedCrd, load};
use crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use crd_runtime::published::{self, OpenApi};
use serde_json::{Map, Value, json};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The corpus, loaded (and checked) once for both tests: `None` without it.
fn corpus() -> Option<&'static Loaded> {
    static LOADED: OnceLock<Option<Loaded>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/crds");
            p.is_dir().then(|| load(&[p]))
        })
        .as_ref()
}

/// The CRD as `Kind::crd()` returns it for the generated types.
fn k8s_crd(c: &LoadedCrd) -> CustomResourceDefinition {
    serde_json::from_value(crd_codegen::write::crd(&c.ir)).unwrap_or_else(|e| panic!("{}: {e}", c.ir.name))
}

const JUNCTORS: [&str; 4] = ["allOf", "anyOf", "oneOf", "not"];

/// Calls `f` on every schema node (properties, items, additionalProperties, junctors)
/// with its path.
fn walk(v: &Value, path: &str, f: &mut dyn FnMut(&Map<String, Value>, &str)) {
    let Value::Object(s) = v else { return };
    f(s, path);
    if let Some(Value::Object(props)) = s.get("properties") {
        for (k, p) in props {
            walk(p, &format!("{path}.{k}"), f);
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(c) = s.get(key) {
            walk(c, &format!("{path}[{key}]"), f);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = s.get(key) {
            for (i, c) in list.iter().enumerate() {
                walk(c, &format!("{path}[{key}][{i}]"), f);
            }
        }
    }
}

fn v2_invariants(v2: &Value, v3: &Value, at: &str) -> Vec<String> {
    let mut problems = Vec::new();
    walk(v2, "", &mut |s, path| {
        for key in JUNCTORS.iter().chain(&["nullable", "default"]) {
            if s.contains_key(*key) {
                problems.push(format!("{at}: v2 {path} has {key}"));
            }
        }
        if s.get("type") == Some(&json!("array")) && !s.contains_key("items") {
            problems.push(format!("{at}: v2 {path} is an array without items"));
        }
        if s.get("x-kubernetes-preserve-unknown-fields") == Some(&json!(true))
            && (s.contains_key("properties") || s.contains_key("items") || s.get("type") == Some(&json!("object")))
        {
            problems.push(format!("{at}: v2 {path} keeps unknown fields but has a structure"));
        }
    });
    // Every v2 property path is a v3 one.
    let mut v3_paths = Vec::new();
    walk(v3, "", &mut |_, path| v3_paths.push(path.to_string()));
    walk(v2, "", &mut |_, path| {
        if !v3_paths.iter().any(|p| p == path) {
            problems.push(format!("{at}: v2 has {path}, v3 does not"));
        }
    });
    problems
}

/// Numbers compared as float64 (the CRD may say `1.0` where the server writes `1`).
fn canon(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(a) => Value::Array(a.iter().map(canon).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), canon(v))).collect()),
        _ => v.clone(),
    }
}

/// Takes away what publishing adds to `published`, given the CRD's `original` node
/// at the same place, and what publishing replaces from both; an addition that is
/// missing is a problem.
fn strip(published: &mut Value, original: &mut Value, root: bool, problems: &mut Vec<String>) {
    let (Value::Object(p), Value::Object(o)) = (published, original) else {
        return;
    };
    let embedded = o.get("x-kubernetes-embedded-resource") == Some(&json!(true));
    if root || embedded {
        let props = p.get("properties").cloned().unwrap_or(Value::Null);
        let metadata_ref = json!([{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]);
        if props["metadata"]["allOf"] != metadata_ref
            || props["apiVersion"]["type"] != "string"
            || props["kind"]["type"] != "string"
        {
            problems.push("no metadata, apiVersion or kind added".into());
        }
    }
    if embedded {
        let required = p.get("required").cloned().unwrap_or(json!([]));
        if !["kind", "apiVersion"]
            .iter()
            .all(|k| required.as_array().is_some_and(|r| r.iter().any(|r| r == k)))
        {
            problems.push("an embedded resource does not require kind and apiVersion".into());
        }
    }
    if root || embedded {
        for s in [&mut *p, &mut *o] {
            if let Some(Value::Object(props)) = s.get_mut("properties") {
                for key in ["apiVersion", "kind", "metadata"] {
                    props.remove(key);
                }
                if props.is_empty() {
                    s.remove("properties");
                }
            }
        }
    }
    if embedded {
        for s in [&mut *p, &mut *o] {
            if let Some(Value::Array(required)) = s.get_mut("required") {
                required.retain(|r| r != "kind" && r != "apiVersion");
                if required.is_empty() {
                    s.remove("required");
                }
            }
        }
    }
    if root {
        p.remove("x-kubernetes-group-version-kind");
        p.remove("x-kubernetes-selectable-fields");
    }
    if o.get("x-kubernetes-int-or-string") == Some(&json!(true)) {
        let pattern = json!([{"type": "integer"}, {"type": "string"}]);
        let unfolded = p.get("anyOf") == Some(&pattern)
            || p.get("allOf").and_then(|a| a.get(0)) == Some(&json!({"anyOf": pattern}));
        if !unfolded {
            problems.push("an int-or-string is not unfolded".into());
        }
        if p.get("anyOf") == Some(&pattern) && o.get("anyOf") != Some(&pattern) {
            p.remove("anyOf");
        }
        let first = |s: &Map<String, Value>| s.get("allOf").and_then(|a| a.get(0)).cloned();
        if first(p) == Some(json!({"anyOf": pattern}))
            && first(o) != first(p)
            && let Some(Value::Array(all_of)) = p.get_mut("allOf")
        {
            all_of.remove(0);
            if all_of.is_empty() {
                p.remove("allOf");
            }
        }
    }
    if let (Some(Value::Object(pp)), Some(Value::Object(op))) = (p.get_mut("properties"), o.get_mut("properties")) {
        for (k, v) in pp.iter_mut() {
            if let Some(ov) = op.get_mut(k) {
                strip(v, ov, false, problems);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let (Some(pv), Some(ov)) = (p.get_mut(key), o.get_mut(key)) {
            strip(pv, ov, false, problems);
        }
    }
}

#[test]
fn every_corpus_crd_publishes_v2_and_v3() {
    let Some(loaded) = corpus() else {
        eprintln!("../shared/crds not found; skipping");
        return;
    };
    assert!(loaded.crds.len() > 250, "{} CRDs loaded", loaded.crds.len());
    let (mut versions, mut problems) = (0, Vec::new());
    for c in &loaded.crds {
        let crd = k8s_crd(c);
        for version in crd_runtime::versions::served_versions(&crd) {
            versions += 1;
            let at = format!("{} {version}", c.ir.name);
            let v2 = published::v2(&crd, &version).unwrap_or_else(|e| panic!("{at}: {e}"));
            let v3 = published::v3(&crd, &version).unwrap_or_else(|e| panic!("{at}: {e}"));
            for openapi in [OpenApi::V2, OpenApi::V3] {
                let defs = published::definitions(&crd, &version, openapi).unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!(defs.len(), 2, "{at}");
            }
            assert_eq!(v2.name, v3.name);
            assert_eq!(
                v3.schema["x-kubernetes-group-version-kind"],
                json!([{"group": c.ir.group, "kind": c.ir.names.kind, "version": version}]),
                "{at}"
            );
            problems.extend(v2_invariants(&v2.schema, &v3.schema, &at));

            // v3 is the CRD's schema plus what publishing adds.
            let original = crd_codegen::write::crd(&c.ir)["spec"]["versions"]
                .as_array()
                .and_then(|vs| vs.iter().find(|v| v["name"] == json!(version)))
                .map(|v| v["schema"]["openAPIV3Schema"].clone())
                .unwrap_or(Value::Null);
            let (mut published, mut original) = (canon(&v3.schema), canon(&original));
            let mut missing = Vec::new();
            strip(&mut published, &mut original, true, &mut missing);
            problems.extend(missing.into_iter().map(|m| format!("{at}: v3: {m}")));
            if published != original {
                problems.push(format!("{at}: v3 is not the CRD's schema plus the additions"));
            }
        }
    }
    assert!(versions > 300, "{versions} versions");
    eprintln!("{versions} versions published");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The v1 documents read straight into k8s-openapi's type (not through the IR)
/// publish the same schemas.
#[test]
fn corpus_documents_as_written_publish_the_same() {
    let Some(loaded) = corpus() else {
        eprintln!("../shared/crds not found; skipping");
        return;
    };
    let mut compared = 0;
    let mut different = Vec::new();
    // The documents as written (loading keeps only the CRD read from each), per file.
    let mut files: std::collections::HashMap<&std::path::Path, Vec<crd_codegen::source::Document>> =
        std::collections::HashMap::new();
    for c in &loaded.crds {
        let path = c.doc.file.path.as_path();
        let docs = files
            .entry(path)
            .or_insert_with(|| crd_codegen::source::read_file(path).unwrap());
        let value = &docs[c.doc.index].value;
        if value["apiVersion"] != json!("apiextensions.k8s.io/v1") {
            continue;
        }
        let raw: CustomResourceDefinition = match serde_json::from_value(value.clone()) {
            Ok(raw) => raw,
            Err(e) => panic!("{}: {e}", c.ir.name),
        };
        let via_ir = k8s_crd(c);
        for version in crd_runtime::versions::served_versions(&raw) {
            for openapi in [OpenApi::V2, OpenApi::V3] {
                let a = published::definitions(&raw, &version, openapi).unwrap();
                let b = published::definitions(&via_ir, &version, openapi).unwrap();
                compared += 1;
                if canon(&Value::Object(a)) != canon(&Value::Object(b)) {
                    different.push(format!("{} {version} {openapi:?}", c.ir.name));
                }
            }
        }
    }
    assert!(compared > 400, "{compared}");
    assert!(different.is_empty(), "{}", different.join("\n"));
}
