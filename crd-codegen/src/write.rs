//! IR → JSON: a CRD and its schemas as the API server stores them (`apiextensions.k8s.io/v1`),
//! keys in the order `kubectl get crd -o yaml` prints them.
//!
//! The derive direction writes its CRDs with this, so what `crd()` returns is exactly
//! the IR the admission code was generated from.

use crate::ir::{AdditionalProperties, Conversion, Crd, Rule, Schema, Scope, Version};
use serde_json::{Map, Value, json};

/// The key that marks a foreign type's place in a derived schema ([`Schema::rust_type`]);
/// `crd_runtime::__private::splice` replaces it by the type's schema.
pub const RUST_TYPE_KEY: &str = "x-crd-rust-type";

/// The key that marks a default known only at run time ([`crate::derive`]'s
/// `Lowered::runtime_defaults`); `crd_runtime::__private::splice` puts the value in.
pub const RUST_DEFAULT_KEY: &str = "x-crd-rust-default";

/// The key that lists the foreign types flattened into a derived node (kube-derive's
/// `#[serde(flatten)]` of a `JsonSchema` type); `crd_runtime::__private::splice` merges
/// their properties in.
pub const RUST_FLATTEN_KEY: &str = "x-crd-rust-flatten";

/// The whole `CustomResourceDefinition` object.
pub fn crd(c: &Crd) -> Value {
    let mut metadata = Map::new();
    metadata.insert("name".into(), json!(c.name));
    if !c.annotations.is_empty() {
        metadata.insert("annotations".into(), json!(c.annotations));
    }
    if !c.labels.is_empty() {
        metadata.insert("labels".into(), json!(c.labels));
    }
    let mut names = Map::new();
    names.insert("plural".into(), json!(c.names.plural));
    names.insert("singular".into(), json!(c.names.singular));
    names.insert("kind".into(), json!(c.names.kind));
    names.insert("listKind".into(), json!(c.names.list_kind));
    if !c.names.short_names.is_empty() {
        names.insert("shortNames".into(), json!(c.names.short_names));
    }
    if !c.names.categories.is_empty() {
        names.insert("categories".into(), json!(c.names.categories));
    }
    let mut spec = Map::new();
    spec.insert("group".into(), json!(c.group));
    spec.insert("names".into(), Value::Object(names));
    let scope = match c.scope {
        Scope::Namespaced => "Namespaced",
        Scope::Cluster => "Cluster",
    };
    spec.insert("scope".into(), json!(scope));
    spec.insert(
        "versions".into(),
        Value::Array(c.versions.iter().map(version).collect()),
    );
    spec.insert(
        "conversion".into(),
        match &c.conversion {
            Conversion::None => json!({"strategy": "None"}),
            Conversion::Webhook {
                review_versions,
                client_config,
            } => json!({
                "strategy": "Webhook",
                "webhook": {"clientConfig": client_config, "conversionReviewVersions": review_versions},
            }),
        },
    );
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": metadata,
        "spec": spec,
    })
}

fn version(v: &Version) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(v.name));
    m.insert("served".into(), json!(v.served));
    m.insert("storage".into(), json!(v.storage));
    if v.deprecated {
        m.insert("deprecated".into(), json!(true));
    }
    if let Some(w) = &v.deprecation_warning {
        m.insert("deprecationWarning".into(), json!(w));
    }
    m.insert("schema".into(), json!({ "openAPIV3Schema": schema(&v.schema) }));
    let sr = &v.subresources;
    if sr.status || sr.scale.is_some() {
        let mut s = Map::new();
        if sr.status {
            s.insert("status".into(), json!({}));
        }
        if let Some(scale) = &sr.scale {
            let mut sc = Map::new();
            sc.insert("specReplicasPath".into(), json!(scale.spec_replicas_path));
            sc.insert("statusReplicasPath".into(), json!(scale.status_replicas_path));
            if let Some(l) = &scale.label_selector_path {
                sc.insert("labelSelectorPath".into(), json!(l));
            }
            s.insert("scale".into(), Value::Object(sc));
        }
        m.insert("subresources".into(), Value::Object(s));
    }
    if !v.printer_columns.is_empty() {
        let columns = v
            .printer_columns
            .iter()
            .map(|c| {
                let mut col = Map::new();
                col.insert("name".into(), json!(c.name));
                col.insert("type".into(), json!(c.type_));
                if !c.format.is_empty() {
                    col.insert("format".into(), json!(c.format));
                }
                if !c.description.is_empty() {
                    col.insert("description".into(), json!(c.description));
                }
                if c.priority != 0 {
                    col.insert("priority".into(), json!(c.priority));
                }
                col.insert("jsonPath".into(), json!(c.json_path));
                Value::Object(col)
            })
            .collect();
        m.insert("additionalPrinterColumns".into(), Value::Array(columns));
    }
    if !v.selectable_fields.is_empty() {
        let fields = v.selectable_fields.iter().map(|p| json!({ "jsonPath": p })).collect();
        m.insert("selectableFields".into(), Value::Array(fields));
    }
    Value::Object(m)
}

/// One schema node and everything below it.
pub fn schema(s: &Schema) -> Value {
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    if let Some(n) = s.rust_type {
        put(RUST_TYPE_KEY, json!(n));
    }
    if let Some(t) = s.type_ {
        put("type", json!(t.as_str()));
    }
    if let Some(d) = &s.description {
        put("description", json!(d));
    }
    if let Some(t) = &s.title {
        put("title", json!(t));
    }
    if let Some(f) = &s.format {
        put("format", json!(f));
    }
    if let Some(d) = &s.default {
        put("default", d.clone());
    }
    if s.nullable {
        put("nullable", json!(true));
    }
    if !s.enum_.is_empty() {
        put("enum", Value::Array(s.enum_.clone()));
    }
    if let Some(e) = &s.example {
        put("example", e.clone());
    }
    if let Some(e) = &s.external_docs {
        put("externalDocs", e.clone());
    }
    if let Some(p) = &s.pattern {
        put("pattern", json!(p));
    }
    if let Some(n) = s.maximum {
        put("maximum", number(n));
    }
    if s.exclusive_maximum {
        put("exclusiveMaximum", json!(true));
    }
    if let Some(n) = s.minimum {
        put("minimum", number(n));
    }
    if s.exclusive_minimum {
        put("exclusiveMinimum", json!(true));
    }
    if let Some(n) = s.multiple_of {
        put("multipleOf", number(n));
    }
    for (k, v) in [
        ("maxLength", s.max_length),
        ("minLength", s.min_length),
        ("maxItems", s.max_items),
        ("minItems", s.min_items),
        ("maxProperties", s.max_properties),
        ("minProperties", s.min_properties),
    ] {
        if let Some(v) = v {
            put(k, json!(v));
        }
    }
    if s.unique_items {
        put("uniqueItems", json!(true));
    }
    if !s.required.is_empty() {
        put("required", json!(s.required));
    }
    if let Some(items) = &s.items {
        put("items", schema(items));
    }
    if !s.properties.is_empty() {
        let props = s.properties.iter().map(|(k, v)| (k.clone(), schema(v))).collect();
        put("properties", Value::Object(props));
    }
    match &s.additional_properties {
        Some(AdditionalProperties::Bool(b)) => put("additionalProperties", json!(b)),
        Some(AdditionalProperties::Schema(a)) => put("additionalProperties", schema(a)),
        None => {}
    }
    for (k, list) in [("allOf", &s.all_of), ("anyOf", &s.any_of), ("oneOf", &s.one_of)] {
        if !list.is_empty() {
            put(k, Value::Array(list.iter().map(schema).collect()));
        }
    }
    if let Some(n) = &s.not {
        put("not", schema(n));
    }
    if s.preserve_unknown_fields {
        put("x-kubernetes-preserve-unknown-fields", json!(true));
    }
    if s.embedded_resource {
        put("x-kubernetes-embedded-resource", json!(true));
    }
    if s.int_or_string {
        put("x-kubernetes-int-or-string", json!(true));
    }
    if let Some(t) = s.list_type {
        put("x-kubernetes-list-type", json!(t.as_str()));
    }
    if !s.list_map_keys.is_empty() {
        put("x-kubernetes-list-map-keys", json!(s.list_map_keys));
    }
    if let Some(t) = s.map_type {
        put("x-kubernetes-map-type", json!(t.as_str()));
    }
    if !s.validations.is_empty() {
        put(
            "x-kubernetes-validations",
            Value::Array(s.validations.iter().map(rule).collect()),
        );
    }
    Value::Object(m)
}

fn rule(r: &Rule) -> Value {
    let mut m = Map::new();
    m.insert("rule".into(), json!(r.rule));
    for (k, v) in [
        ("message", &r.message),
        ("messageExpression", &r.message_expression),
        ("reason", &r.reason),
        ("fieldPath", &r.field_path),
    ] {
        if let Some(v) = v {
            m.insert(k.into(), json!(v));
        }
    }
    if r.optional_old_self {
        m.insert("optionalOldSelf".into(), json!(true));
    }
    Value::Object(m)
}

/// Integral values as integers, as Go writes a float64 `1`.
pub(crate) fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load;

    /// Writing a loaded CRD and loading the result again gives the same IR.
    #[test]
    fn written_crds_load_back_equal() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let loaded = load::load(&[&dir]);
        assert!(!loaded.has_errors());
        let irs = loaded.irs();
        assert!(irs.len() >= 5);
        for ir in irs {
            let text = serde_json::to_string(&crd(&ir)).unwrap();
            let again = load::load_str(&text, "written.json");
            assert!(!again.has_errors(), "{}: {:?}", ir.name, again.diagnostics);
            assert_eq!(again.irs(), vec![ir.clone()], "{}", ir.name);
        }
    }
}
