//! The hooks generated for webhook-converted kinds are exactly the fields whose
//! schemas differ between a spoke and the hub: for every `Webhook`-strategy CRD of
//! the corpus (tekton-pipeline's) and the fixtures, the `UNMAPPED` list of the
//! generated source is compared with a schema diff computed here, independently, from
//! the CRD's YAML.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// (from version, to version, JSON path) of every target field a hook fills.
type Unmapped = BTreeSet<(String, String, String)>;

/// Whether a value of schema `f` copies into schema `t`; the fields below that need a
/// hook are added to `out`.
fn copies(f: &Value, t: &Value, path: &str, out: &mut Vec<String>) -> bool {
    let has = |s: &Value, k: &str| s.get(k).is_some_and(|v| !v.is_null());
    let flag = |s: &Value, k: &str| s.get(k).and_then(Value::as_bool).unwrap_or(false);
    let props = |s: &Value| {
        s.get("properties")
            .and_then(Value::as_object)
            .filter(|p| !p.is_empty())
            .cloned()
    };
    let keeps_anything = |s: &Value| {
        flag(s, "x-kubernetes-preserve-unknown-fields")
            && props(s).is_none()
            && !has(s, "additionalProperties")
            && !has(s, "items")
    };
    if keeps_anything(t) {
        return true;
    }
    let shape = |s: &Value| {
        (
            s.get("type").cloned(),
            flag(s, "x-kubernetes-int-or-string"),
            flag(s, "x-kubernetes-preserve-unknown-fields") && props(s).is_none(),
            flag(s, "x-kubernetes-embedded-resource"),
        )
    };
    if shape(f) != shape(t) {
        return false;
    }
    match t.get("type").and_then(Value::as_str) {
        Some("object") if props(t).is_some() => match props(f) {
            None => false,
            Some(_) => {
                diff_properties(f, t, path, out);
                true
            }
        },
        Some("object") => match (f.get("additionalProperties"), t.get("additionalProperties")) {
            (Some(fa), Some(ta)) if fa.is_object() && ta.is_object() => copies(fa, ta, &format!("{path}[*]"), out),
            (_, Some(ta)) if ta.is_object() => false,
            _ => true,
        },
        Some("array") => match (f.get("items"), t.get("items")) {
            (Some(fi), Some(ti)) => copies(fi, ti, &format!("{path}[*]"), out),
            (None, None) => true,
            _ => false,
        },
        _ => true,
    }
}

fn diff_properties(f: &Value, t: &Value, path: &str, out: &mut Vec<String>) {
    let empty = serde_json::Map::new();
    let f_props = f.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    for (name, tp) in t.get("properties").and_then(Value::as_object).unwrap_or(&empty) {
        if path.is_empty() && matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        let child = if path.is_empty() {
            name.clone()
        } else {
            format!("{path}.{name}")
        };
        let ok = f_props.get(name).is_some_and(|fp| copies(fp, tp, &child, out));
        if !ok {
            out.push(child);
        }
    }
}

/// The diff of a CRD document: every spoke to the hub and back.
fn expected(crd: &Value) -> Unmapped {
    let versions = crd["spec"]["versions"].as_array().unwrap();
    let schema = |v: &Value| v["schema"]["openAPIV3Schema"].clone();
    let hub = versions.iter().find(|v| v["storage"] == true).unwrap();
    let mut out = Unmapped::new();
    for spoke in versions.iter().filter(|v| v["name"] != hub["name"]) {
        for (from, to) in [(spoke, hub), (hub, spoke)] {
            let mut paths = Vec::new();
            diff_properties(&schema(from), &schema(to), "", &mut paths);
            for p in paths {
                out.insert((
                    from["name"].as_str().unwrap().into(),
                    to["name"].as_str().unwrap().into(),
                    p,
                ));
            }
        }
    }
    out
}

/// The `UNMAPPED` list of the generated source of `crd`.
fn generated(path: &Path, kind: &str) -> Unmapped {
    let loaded = crd_codegen::load::load(&[path]);
    assert!(!loaded.has_errors(), "{} loads", path.display());
    let irs: Vec<_> = loaded.irs().into_iter().filter(|c| c.names.kind == kind).collect();
    let source = crd_codegen::rust::generate_source(&irs);
    let file = syn::parse_file(&source).unwrap();
    let mut out = Unmapped::new();
    let mut found = false;
    visit_items(&file.items, &mut |item| {
        if let syn::Item::Const(c) = item
            && c.ident == "UNMAPPED"
        {
            found = true;
            let syn::Expr::Reference(r) = &*c.expr else {
                panic!("UNMAPPED is a reference")
            };
            let syn::Expr::Array(a) = &*r.expr else {
                panic!("UNMAPPED is an array")
            };
            for e in &a.elems {
                let syn::Expr::Tuple(t) = e else { panic!("a tuple") };
                let s: Vec<String> = t
                    .elems
                    .iter()
                    .map(|e| match e {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(s), ..
                        }) => s.value(),
                        _ => panic!("a string"),
                    })
                    .collect();
                out.insert((s[0].clone(), s[1].clone(), s[2].clone()));
            }
        }
    });
    assert!(found, "{}: no UNMAPPED for {kind}", path.display());
    out
}

fn visit_items(items: &[syn::Item], f: &mut dyn FnMut(&syn::Item)) {
    for item in items {
        f(item);
        if let syn::Item::Mod(m) = item
            && let Some((_, inner)) = &m.content
        {
            visit_items(inner, f);
        }
    }
}

fn webhook_crds() -> Vec<(PathBuf, Value)> {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![
        here.join("tests/fixtures/webhook-conversion.yaml"),
        here.join("../examples/crds/crontab-conversion.yaml"),
    ];
    let corpus = here.join("../../shared/crds");
    if corpus.is_dir() {
        files.extend(crd_codegen::source::collect_files(&[corpus]).unwrap());
    } else {
        eprintln!("../shared/crds not found; only the fixtures");
    }
    let mut out = Vec::new();
    for f in files {
        for doc in crd_codegen::source::read_file(&f).unwrap() {
            if doc.value["kind"] == "CustomResourceDefinition"
                && doc.value["spec"]["conversion"]["strategy"] == "Webhook"
                && doc.value["spec"]["versions"].as_array().is_some_and(|v| v.len() > 1)
            {
                out.push((f.clone(), doc.value));
            }
        }
    }
    out
}

#[test]
fn hooks_are_exactly_the_fields_whose_schemas_differ() {
    let crds = webhook_crds();
    let mut checked = 0;
    let mut hooks = 0;
    for (path, crd) in &crds {
        let kind = crd["spec"]["names"]["kind"].as_str().unwrap();
        let want = expected(crd);
        let got = generated(path, kind);
        assert_eq!(
            got.difference(&want).collect::<Vec<_>>(),
            Vec::<&(String, String, String)>::new(),
            "{kind}: generated hooks for fields that copy"
        );
        assert_eq!(
            want.difference(&got).collect::<Vec<_>>(),
            Vec::<&(String, String, String)>::new(),
            "{kind}: fields that differ without a hook"
        );
        checked += 1;
        hooks += got.len();
    }
    eprintln!("{checked} webhook-converted CRDs, {hooks} hooks");
    assert!(checked >= 2);
}
