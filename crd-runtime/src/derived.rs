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
    fn has_rules() -> bool;
}

/// The key marking where a field type's schema goes (crd-codegen's `write::RUST_TYPE_KEY`).
const RUST_TYPE_KEY: &str = "x-crd-rust-type";

/// The key marking a default known only at run time (crd-codegen's
/// `write::RUST_DEFAULT_KEY`).
const RUST_DEFAULT_KEY: &str = "x-crd-rust-default";

/// The key listing the field types flattened into a node (crd-codegen's
/// `write::RUST_FLATTEN_KEY`).
const RUST_FLATTEN_KEY: &str = "x-crd-rust-flatten";

/// Merges a flattened type's schema into the node holding it, as schemars flattens:
/// its properties and required ones join the node's (`required` stays sorted, as
/// schemars keeps it), and every other keyword the node lacks is the type's (its
/// junctors, rules, description); what the node has stays.
fn merge_flattened(node: &mut serde_json::Map<String, Value>, flat: Value) {
    let Value::Object(flat) = flat else { return };
    for (key, value) in flat {
        match (key.as_str(), node.get_mut(&key), value) {
            ("properties" | "patternProperties", Some(Value::Object(props)), Value::Object(more)) => props.extend(more),
            ("required", Some(Value::Array(required)), Value::Array(more)) => {
                required.extend(more);
                required.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                required.dedup();
            }
            ("allOf", Some(Value::Array(all)), Value::Array(more)) => all.extend(more),
            (_, None, value) => {
                node.insert(key, value);
            }
            _ => {}
        }
    }
}

/// For each type flattened into a node (their `crd_schema`s, in order), whether its
/// own rules (not its fields') are in the CRD: schemars gives the node the first
/// flattened type's rules and drops the others'. `true` for a
/// type without any.
pub fn flattened_rules_published(types: &[fn() -> Value]) -> Vec<bool> {
    let mut taken = false;
    types
        .iter()
        .map(|schema| {
            let has_rules = schema()
                .get("x-kubernetes-validations")
                .and_then(Value::as_array)
                .is_some_and(|rules| !rules.is_empty());
            let published = !has_rules || !taken;
            taken |= has_rules;
            published
        })
        .collect()
}

/// The rules of a type flattened into a node, run where that node's own run (what the
/// holder's compiled walk cannot see: the type's schema joins the holder's at run time).
/// When the type's own rules are not in the CRD (`unpublished` names the type then, see
/// [`flattened_rules_published`]), an object is refused rather than checked against
/// rules the API server would not run.
pub fn walk_flattened<T: crate::schema::ObjectSchema>(
    unpublished: Option<&str>,
    value: &Value,
    old: Option<&Value>,
    path: &crate::Path,
    ratchet: crate::rules::TypedRatchet<'_>,
    budget: &mut crate::rules::Budget,
    out: &mut crate::rules::Findings,
) -> crate::rules::Flow {
    if let Some(type_name) = unpublished {
        out.errors.push(crate::FieldError::invalid(
            path.to_field_string(),
            Value::String("object".into()),
            format!(
                "rule compiler initialization error: `{type_name}` is flattened after another type with rules, \
                 and the CRD keeps only the first one's (as schemars flattens); move its rules to the holder"
            ),
        ));
        return Ok(());
    }
    T::walk_rules(value, old, path, ratchet, budget, out)
}

/// `json` (a schema written by the derive) with each `{"x-crd-rust-type": n, ...}`
/// replaced by `types[n]()` (`<T as CrdSchema>::crd_schema`), the field's own keywords (`description`, `default`,
/// `nullable`) laid over the type's.
pub fn splice(json: &str, types: &[fn() -> Value]) -> Value {
    splice_with_defaults(json, types, &[])
}

/// [`splice`], and each `"default": {"x-crd-rust-default": n}` replaced by
/// `defaults[n]()` (no default where that is `null`).
pub fn splice_with_defaults(json: &str, types: &[fn() -> Value], defaults: &[fn() -> Value]) -> Value {
    splice_published(json, types, defaults, &[])
}

/// [`splice_with_defaults`], where `published[n]()`, when not `null`, is the whole node
/// of field type `n` as kube-derive writes the property (its `description` and
/// `nullable` included): the field's other keywords are laid over it.
pub fn splice_published(
    json: &str,
    types: &[fn() -> Value],
    defaults: &[fn() -> Value],
    published: &[fn() -> Value],
) -> Value {
    // The text is the derive's own output, checked when the derive ran.
    let mut value: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    let tables = Tables {
        types,
        defaults,
        published,
    };
    splice_value(&mut value, &tables);
    value
}

/// What [`splice_published`] fills in.
struct Tables<'a> {
    types: &'a [fn() -> Value],
    defaults: &'a [fn() -> Value],
    published: &'a [fn() -> Value],
}

fn splice_value(value: &mut Value, tables: &Tables<'_>) {
    let Tables { types, defaults, .. } = tables;
    match value {
        Value::Object(map) => {
            if let Some(marker) = map
                .get("default")
                .and_then(|d| d.get(RUST_DEFAULT_KEY))
                .and_then(Value::as_u64)
            {
                match defaults.get(marker as usize).map_or(Value::Null, |f| f()) {
                    Value::Null => map.remove("default"),
                    d => map.insert("default".into(), d),
                };
            }
            if let Some(Value::Array(flattened)) = map.remove(RUST_FLATTEN_KEY) {
                // kube-derive adds the holder's own rules after schemars has flattened
                // (which gives the node the first flattened type's rules).
                let own_rules = map.remove("x-kubernetes-validations");
                for n in flattened.iter().filter_map(Value::as_u64) {
                    let flat = types.get(n as usize).map_or(Value::Null, |f| f());
                    merge_flattened(map, flat);
                }
                match (map.get_mut("x-kubernetes-validations"), own_rules) {
                    (Some(Value::Array(rules)), Some(Value::Array(own))) => rules.extend(own),
                    (_, Some(own)) => {
                        map.insert("x-kubernetes-validations".into(), own);
                    }
                    (_, None) => {}
                }
            }
            if let Some(n) = map.get(RUST_TYPE_KEY).and_then(Value::as_u64) {
                let n = n as usize;
                let published = tables.published.get(n).map_or(Value::Null, |f| f());
                let is_published = !published.is_null();
                let mut schema = if is_published {
                    published
                } else {
                    types.get(n).map_or(Value::Null, |f| f())
                };
                map.remove(RUST_TYPE_KEY);
                if is_published {
                    map.remove("description");
                    map.remove("nullable");
                }
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
                            props.values_mut().for_each(|p| splice_value(p, tables));
                        }
                    }
                    _ => splice_value(child, tables),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| splice_value(i, tables)),
        _ => {}
    }
}

/// The schema of a CRD's (only) version.
pub fn root_schema(
    crd: &k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
) -> Value {
    let schema = crd
        .spec
        .versions
        .first()
        .and_then(|v| v.schema.as_ref()?.open_api_v3_schema.as_ref());
    schema.and_then(|s| serde_json::to_value(s).ok()).unwrap_or(Value::Null)
}

/// [`root_schema`] as a resource type's schema where it is not the root (kube-derive's
/// root types derive `JsonSchema`; only a root schema has a title).
pub fn root_schema_untitled(
    crd: &k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
) -> Value {
    let mut schema = root_schema(crd);
    if let Value::Object(map) = &mut schema {
        map.remove("title");
    }
    schema
}

/// Sets the schema of a CRD's (only) version: a root schema the derive did not write
/// (kube-derive's `schema = "manual"`), or `null` for none (`"disabled"`).
pub fn set_root_schema(crd: &mut Value, schema: Value) {
    if let Some(v) = crd.pointer_mut("/spec/versions/0") {
        v["schema"] = serde_json::json!({ "openAPIV3Schema": schema });
    }
}

/// [`crd`] of a CRD already spliced ([`splice_with_defaults`]).
#[allow(
    clippy::expect_used,
    reason = "the derive wrote this CRD from checked IR; it always reads back"
)]
pub fn crd_from_value(
    value: Value,
) -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
    serde_json::from_value(value).expect("a derived CRD reads as a CustomResourceDefinition")
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
