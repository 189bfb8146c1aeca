//! Support for types from `#[derive(CustomResource)]` and `#[derive(CrdSchema)]`:
//! the schema a type contributes to its CRD, composed through the field types' impls
//! (a derive sees only its own item, as serde's derives do).

use serde_json::Value;

/// A type with a CRD schema: its OpenAPI v3 node as the API server stores it.
///
/// Derived with `#[derive(CrdSchema)]` (nested types) or `#[derive(CustomResource)]`
/// (the spec type of a kind). The whole CRD is `Kind::crd()`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no CRD schema",
    label = "this field's type needs a schema",
    note = "add `#[derive(CrdSchema)]` to `{Self}` (from `crd_derive`), or use a type with a known schema",
    note = "k8s-openapi's core/v1 types (`Container`, `PodSpec`, ...) have one with crd-runtime's `core-v1` feature"
)]
pub trait CrdSchema {
    /// The schema node, with every nested type's schema in place.
    fn crd_schema() -> Value;
    /// The node as compiled CEL rules read values through it (types, formats, lists).
    const STATIC_SCHEMA: crate::compiled::StaticSchema;
    /// Whether the node or any below it has `x-kubernetes-validations` rules.
    const HAS_RULES: bool;
}

/// The key marking where a field type's schema goes (crd-codegen's `write::RUST_TYPE_KEY`).
const RUST_TYPE_KEY: &str = "x-crd-rust-type";

/// `json` (a schema written by the derive) with each `{"x-crd-rust-type": n, ...}`
/// replaced by `types[n]()` (`<T as CrdSchema>::crd_schema`), the field's own keywords (`description`, `default`,
/// `nullable`) laid over the type's.
pub fn splice(json: &str, types: &[fn() -> Value]) -> Value {
    // The text is the derive's own output, checked when the derive ran.
    let mut value: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    splice_value(&mut value, types);
    value
}

fn splice_value(value: &mut Value, types: &[fn() -> Value]) {
    match value {
        Value::Object(map) => {
            if let Some(n) = map.get(RUST_TYPE_KEY).and_then(Value::as_u64) {
                let mut schema = types.get(n as usize).map_or(Value::Null, |f| f());
                map.remove(RUST_TYPE_KEY);
                if let Value::Object(target) = &mut schema {
                    for (k, v) in std::mem::take(map) {
                        match (k.as_str(), target.get_mut(&k), v) {
                            // The field's rules come after the type's.
                            ("x-kubernetes-validations", Some(Value::Array(rules)), Value::Array(more)) => {
                                rules.extend(more)
                            }
                            (_, _, v) => {
                                target.insert(k, v);
                            }
                        }
                    }
                }
                *value = schema;
                return;
            }
            for (key, child) in map.iter_mut() {
                match key.as_str() {
                    // Defaults, enums and examples are data, not schemas.
                    "default" | "enum" | "example" => {}
                    // Property names may be anything, `default` included.
                    "properties" => {
                        if let Value::Object(props) = child {
                            props.values_mut().for_each(|p| splice_value(p, types));
                        }
                    }
                    _ => splice_value(child, types),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| splice_value(i, types)),
        _ => {}
    }
}

/// The `CustomResourceDefinition` written by the derive, with the field types'
/// schemas spliced in.
#[allow(
    clippy::expect_used,
    reason = "the derive wrote this CRD from checked IR; it always reads back"
)]
pub fn crd(
    json: &str,
    types: &[fn() -> Value],
) -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
    let value = splice(json, types);
    // The derive wrote this CRD from checked IR and every spliced schema is a derived
    // one; it always reads back.
    serde_json::from_value(value).expect("a derived CRD reads as a CustomResourceDefinition")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A property may be called `default` (gateway-api's `tls.frontend.default`): it is
    /// a schema, spliced, unlike the `default` keyword's data.
    #[test]
    fn splices_a_property_named_default() {
        fn inner() -> Value {
            json!({"type": "object"})
        }
        let json =
            r#"{"type":"object","properties":{"default":{"x-crd-rust-type":0}},"default":{"x-crd-rust-type":0}}"#;
        assert_eq!(
            splice(json, &[inner]),
            json!({"type": "object", "properties": {"default": {"type": "object"}}, "default": {"x-crd-rust-type": 0}})
        );
    }

    #[test]
    fn splices_types_under_field_keywords() {
        fn inner() -> Value {
            json!({"type": "object", "description": "the type", "properties": {"a": {"type": "string"}}})
        }
        let out = splice(
            r#"{"type":"object","properties":{"x":{"x-crd-rust-type":0,"description":"the field","nullable":true},"d":{"type":"object","default":{"x-crd-rust-type":0}}}}"#,
            &[inner],
        );
        assert_eq!(
            out,
            json!({"type": "object", "properties": {
                "x": {"type": "object", "description": "the field", "nullable": true, "properties": {"a": {"type": "string"}}},
                "d": {"type": "object", "default": {"x-crd-rust-type": 0}},
            }})
        );
    }
}

/// A version of a kind derived with `#[derive(CustomResource)]`: whether it is the
/// storage version, for [`merge_crds!`](crate::merge_crds!)'s compile-time check.
pub trait DerivedVersion {
    /// `#[crd(storage = ...)]`, `true` unless given.
    const STORAGE: bool;
}

/// How many of the versions are storage versions; not exactly one is a compile error
/// where [`merge_crds!`](crate::merge_crds!) is used (a panic in a constant).
#[allow(
    clippy::panic,
    reason = "only ever evaluated in a constant: the panic is a compile error, never a run-time one"
)]
pub const fn assert_one_storage_version(storage: &[bool]) {
    let mut count = 0;
    let mut i = 0;
    while i < storage.len() {
        if storage[i] {
            count += 1;
        }
        i += 1;
    }
    if count == 0 {
        panic!("no version is the storage version: exactly one must be (`#[crd(storage = false)]` on all the others)");
    }
    if count > 1 {
        panic!("more than one version is the storage version: mark all but one `#[crd(storage = false)]`");
    }
}

/// Why [`merge_crds()`] could not merge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No CRD was given.
    Empty,
    /// Two CRDs differ in what must be the same for one kind (`metadata.name`,
    /// `spec.group`, `spec.names`, `spec.scope`).
    Mismatch(&'static str),
    /// A version is given twice.
    DuplicateVersion(String),
    /// Not exactly one version is the storage version; the storage versions found.
    StorageVersions(Vec<String>),
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Empty => write!(f, "no CustomResourceDefinition to merge"),
            MergeError::Mismatch(what) => write!(f, "the CustomResourceDefinitions differ in {what}"),
            MergeError::DuplicateVersion(v) => write!(f, "version {v} is given twice"),
            MergeError::StorageVersions(found) => write!(
                f,
                "spec.versions: must have exactly one version marked as storage version (found: [{}])",
                found.join(", ")
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// One CRD with the versions of several CRDs of the same kind, as derived for each
/// version (`Kind::crd()` of each version's type): exactly one must be the storage
/// version (`#[crd(storage = false)]` on the others). Versions keep their order.
pub fn merge_crds(
    crds: Vec<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition>,
) -> Result<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition, MergeError> {
    let mut crds = crds.into_iter();
    let mut merged = crds.next().ok_or(MergeError::Empty)?;
    for crd in crds {
        if crd.metadata.name != merged.metadata.name {
            return Err(MergeError::Mismatch("metadata.name"));
        }
        if crd.spec.group != merged.spec.group {
            return Err(MergeError::Mismatch("spec.group"));
        }
        if crd.spec.names != merged.spec.names {
            return Err(MergeError::Mismatch("spec.names"));
        }
        if crd.spec.scope != merged.spec.scope {
            return Err(MergeError::Mismatch("spec.scope"));
        }
        for v in crd.spec.versions {
            if merged.spec.versions.iter().any(|m| m.name == v.name) {
                return Err(MergeError::DuplicateVersion(v.name));
            }
            merged.spec.versions.push(v);
        }
    }
    let storage: Vec<String> = merged
        .spec
        .versions
        .iter()
        .filter(|v| v.storage)
        .map(|v| v.name.clone())
        .collect();
    if storage.len() != 1 {
        return Err(MergeError::StorageVersions(storage));
    }
    Ok(merged)
}
