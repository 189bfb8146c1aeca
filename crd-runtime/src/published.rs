//! A kind's schema as the API server publishes it: in the OpenAPI v3 document
//! (`/openapi/v3/apis/<group>/<version>`, lossless) and in the OpenAPI v2 document
//! (`/openapi/v2`, a lossy conversion that `kubectl` before 1.13 could read).
//!
//! ```
//! use crd_runtime::published::{self, OpenApi};
//! # use crd_runtime::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
//! # let crd: CustomResourceDefinition = serde_json::from_value(serde_json::json!({
//! #     "metadata": {"name": "crontabs.stable.example.com"},
//! #     "spec": {"group": "stable.example.com", "scope": "Namespaced",
//! #         "names": {"plural": "crontabs", "kind": "CronTab"},
//! #         "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
//! #             "type": "object",
//! #             "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer", "default": 1}}}}}}}]}
//! # })).unwrap();
//! // `crd` is what a generated or derived root type returns: `let crd = CronTab::crd();`
//! let v3 = published::v3(&crd, "v1")?;
//! assert_eq!(v3.name, "com.example.stable.v1.CronTab");
//! assert_eq!(v3.schema["properties"]["spec"]["properties"]["replicas"]["default"], 1);
//!
//! // OpenAPI v2 drops every `default` (and junctors, `nullable`, ...).
//! let v2 = published::v2(&crd, "v1")?;
//! assert!(v2.schema["properties"]["spec"]["properties"]["replicas"].get("default").is_none());
//!
//! // Both models (the kind and its list) as the document's `definitions` lay them out.
//! let document = published::document(OpenApi::V2, published::definitions(&crd, "v1", OpenApi::V2)?);
//! assert!(document["definitions"]["com.example.stable.v1.CronTabList"].is_object());
//! # Ok::<(), published::PublishError>(())
//! ```
//!
//! What each part follows (apiextensions-apiserver, unless named):
//!
//! - [`model`]: `pkg/controller/openapi/builder/builder.go` (`generateBuilder`,
//!   `buildKubeNative`, `addEmbeddedProperties`, `buildSelectableFields`,
//!   `gvkToModelName`); the model's name is the reversed group, the version and the kind.
//! - the schema's round trip through Go types (`normalize` here):
//!   `pkg/apiserver/schema/convert.go` (`NewStructural`) and `kubeopenapi.go`
//!   (`ToKubeOpenAPI`), which drop empty and false fields and a schema with fields
//!   the API server does not support (then the kind is published as `{"type":"object"}`);
//! - int-or-string: `pkg/apiserver/schema/unfold.go` (`Unfold`);
//! - v2: `pkg/controller/openapi/v2/conversion.go` (`ToStructuralOpenAPIV2`), then
//!   kube-openapi `pkg/handler/default_pruning.go` (`PruneDefaults`, as
//!   `pkg/controller/openapi/controller.go` runs it on the v2 document only);
//! - v3 references with siblings: kube-openapi `pkg/builder3/util/util.go` (`WrapRefs`);
//! - [`list_model`]: `builder.go` (`buildListSchema`).
//!
//! The CRD is taken as the API server holds it: accepted, so its schemas are
//! structural (`crdgen check` tells). Like the API server, a version whose schema has
//! unsupported fields (`$ref`, `id`, `definitions`, an `items` array, ...) or an unknown
//! `type` is published as `{"type":"object"}`; the structural checks themselves are not
//! repeated here. Whether the CRD is `Established` (the server publishes only those)
//! is not known offline and not checked.
//!
//! `ObjectMeta` and `ListMeta` are referenced by name ([`OBJECT_META_MODEL`],
//! [`LIST_META_MODEL`]), as in the server's documents; their definitions are
//! Kubernetes' own and are not repeated here.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde_json::{Map, Value, json};
use std::fmt;

/// The model name of `metav1.ObjectMeta`, which `metadata` refers to.
pub const OBJECT_META_MODEL: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
/// The model name of `metav1.ListMeta`, which a list's `metadata` refers to.
pub const LIST_META_MODEL: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

// Descriptions the server copies from Kubernetes' own types: `PartialObjectMetadata`'s
// and `PartialObjectMetadataList`'s `metadata`, and `TypeMeta`'s fields.
const METADATA_DESCRIPTION: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_METADATA_DESCRIPTION: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
// `addEmbeddedProperties` words an embedded resource's type fields its own way.
const EMBEDDED_API_VERSION_DESCRIPTION: &str = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const EMBEDDED_KIND_DESCRIPTION: &str = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The `type`s a schema may name (`openapiV3Types` in the CRD validation).
const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// Which OpenAPI document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpenApi {
    /// The v2 (Swagger) document: models under `definitions`, lossy.
    V2,
    /// The v3 document: models under `components.schemas`, the CRD's schema as written.
    V3,
}

impl OpenApi {
    /// Where the document's models are, as a `$ref` prefix.
    pub fn ref_prefix(self) -> &'static str {
        match self {
            OpenApi::V2 => "#/definitions/",
            OpenApi::V3 => "#/components/schemas/",
        }
    }
}

/// One published model: its name (`io.k8s.bar.v1.Foo`) and its schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The model name: the group reversed, the version, the kind ([`model_name`]).
    pub name: String,
    /// The schema, as the document holds it.
    pub schema: Value,
}

/// Why a version has no published schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PublishError {
    /// The CRD has no version of this name.
    NoSuchVersion {
        /// The CRD's name.
        crd: String,
        /// The version asked for.
        version: String,
        /// The CRD's versions.
        versions: Vec<String>,
    },
    /// The version exists but is not served, so the server publishes nothing for it.
    NotServed {
        /// The CRD's name.
        crd: String,
        /// The version asked for.
        version: String,
    },
}

impl fmt::Display for PublishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PublishError::NoSuchVersion { crd, version, versions } => write!(
                f,
                "CustomResourceDefinition {crd:?} has no version {version:?} (versions: {})",
                versions.join(", ")
            ),
            PublishError::NotServed { crd, version } => write!(
                f,
                "CustomResourceDefinition {crd:?}: version {version:?} is not served, so it is not published"
            ),
        }
    }
}

impl std::error::Error for PublishError {}

/// The model name of a kind: `gvkToModelName`, the group's labels reversed
/// (`bar.k8s.io`, `v1`, `Foo` → `io.k8s.bar.v1.Foo`).
pub fn model_name(group: &str, version: &str, kind: &str) -> String {
    let reversed: Vec<&str> = group.split('.').rev().collect();
    format!("{}.{version}.{kind}", reversed.join("."))
}

/// The kind's OpenAPI v3 model for `version`: [`model`] with [`OpenApi::V3`].
pub fn v3(crd: &CustomResourceDefinition, version: &str) -> Result<Model, PublishError> {
    model(crd, version, OpenApi::V3)
}

/// The kind's OpenAPI v2 model for `version`: [`model`] with [`OpenApi::V2`].
pub fn v2(crd: &CustomResourceDefinition, version: &str) -> Result<Model, PublishError> {
    model(crd, version, OpenApi::V2)
}

/// The kind's model for a served `version`: the version's schema (int-or-string
/// unfolded; converted for v2) with the root's `apiVersion`, `kind` and `metadata`, the
/// same for every embedded resource, `x-kubernetes-group-version-kind` and
/// `x-kubernetes-selectable-fields`.
pub fn model(crd: &CustomResourceDefinition, version: &str, openapi: OpenApi) -> Result<Model, PublishError> {
    let c = Crd::new(crd, version)?;
    let v2 = openapi == OpenApi::V2;
    let structural = c
        .version
        .get("schema")
        .and_then(|s| s.get("openAPIV3Schema"))
        .and_then(|s| normalize(s, false));
    let mut schema = match structural {
        None => json!({"type": "object"}),
        // kubectl would reject unknown fields next to the properties added below.
        Some(s) if v2 && (is_true(&s, "x-kubernetes-preserve-unknown-fields") || c.preserve_unknown_fields) => {
            json!({"type": "object"})
        }
        Some(mut s) => {
            unfold(&mut s);
            if v2 {
                to_v2(&mut s);
            }
            set_property(
                &mut s,
                "metadata",
                reference(OBJECT_META_MODEL, METADATA_DESCRIPTION, openapi),
            );
            set_property(&mut s, "apiVersion", string_property(API_VERSION_DESCRIPTION));
            set_property(&mut s, "kind", string_property(KIND_DESCRIPTION));
            add_embedded(&mut s, openapi);
            Value::Object(s)
        }
    };
    c.add_extensions(&mut schema, &c.kind);
    if v2 {
        prune_defaults(&mut schema);
    }
    Ok(Model {
        name: model_name(&c.group, version, &c.kind),
        schema,
    })
}

/// The list kind's model for a served `version` (`buildListSchema`): `items` refers
/// to the kind's model, `metadata` to `ListMeta`.
pub fn list_model(crd: &CustomResourceDefinition, version: &str, openapi: OpenApi) -> Result<Model, PublishError> {
    let c = Crd::new(crd, version)?;
    let item = format!("{}{}", openapi.ref_prefix(), model_name(&c.group, version, &c.kind));
    let mut schema = json!({
        "description": format!("{} is a list of {}", c.list_kind, c.kind),
        "type": "object",
        "required": ["items"],
        "properties": {
            "apiVersion": string_property(API_VERSION_DESCRIPTION),
            "kind": string_property(KIND_DESCRIPTION),
            "metadata": reference(LIST_META_MODEL, LIST_METADATA_DESCRIPTION, openapi),
            "items": {
                "description": format!("List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md", c.plural),
                "type": "array",
                "items": {"$ref": item},
            },
        },
    });
    c.add_extensions(&mut schema, &c.list_kind);
    Ok(Model {
        name: model_name(&c.group, version, &c.list_kind),
        schema,
    })
}

/// The kind's and the list kind's models for a served `version`, by name, as the
/// document's `definitions` (v2) or `components.schemas` (v3) hold them.
pub fn definitions(
    crd: &CustomResourceDefinition,
    version: &str,
    openapi: OpenApi,
) -> Result<Map<String, Value>, PublishError> {
    let mut out = Map::new();
    for m in [model(crd, version, openapi)?, list_model(crd, version, openapi)?] {
        out.insert(m.name, m.schema);
    }
    Ok(out)
}

/// `definitions` placed where the document keeps its models, so that the `$ref`s
/// resolve: `{"definitions": …}` (v2) or `{"components": {"schemas": …}}` (v3).
pub fn document(openapi: OpenApi, definitions: Map<String, Value>) -> Value {
    match openapi {
        OpenApi::V2 => json!({ "definitions": definitions }),
        OpenApi::V3 => json!({ "components": { "schemas": definitions } }),
    }
}

/// What the builder reads from the CRD, for one version. The CRD is read as JSON so
/// that fields newer than the k8s-openapi version in use (selectable fields) are seen.
struct Crd {
    group: String,
    kind: String,
    list_kind: String,
    plural: String,
    preserve_unknown_fields: bool,
    /// The version's name.
    name: String,
    /// The version, as JSON.
    version: Value,
}

impl Crd {
    fn new(crd: &CustomResourceDefinition, version: &str) -> Result<Crd, PublishError> {
        let name = crd.metadata.name.clone().unwrap_or_default();
        let Some(v) = crd.spec.versions.iter().find(|v| v.name == version) else {
            return Err(PublishError::NoSuchVersion {
                crd: name,
                version: version.to_string(),
                versions: crd.spec.versions.iter().map(|v| v.name.clone()).collect(),
            });
        };
        if !v.served {
            return Err(PublishError::NotServed {
                crd: name,
                version: version.to_string(),
            });
        }
        let names = &crd.spec.names;
        Ok(Crd {
            group: crd.spec.group.clone(),
            kind: names.kind.clone(),
            // The API server defaults an unset listKind to the kind + "List".
            list_kind: names.list_kind.clone().unwrap_or_else(|| format!("{}List", names.kind)),
            plural: names.plural.clone(),
            preserve_unknown_fields: crd.spec.preserve_unknown_fields == Some(true),
            name: version.to_string(),
            version: serde_json::to_value(v).unwrap_or(Value::Null),
        })
    }

    /// `x-kubernetes-group-version-kind` and, when the version has any,
    /// `x-kubernetes-selectable-fields` (the CustomResourceFieldSelectors gate is on by
    /// default since 1.32) on a model's root.
    fn add_extensions(&self, schema: &mut Value, kind: &str) {
        let Value::Object(map) = schema else { return };
        map.insert(
            "x-kubernetes-group-version-kind".into(),
            json!([{"group": self.group, "kind": kind, "version": self.name}]),
        );
        let fields: Vec<Value> = self
            .version
            .get("selectableFields")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|f| {
                let path = f.get("jsonPath").and_then(Value::as_str).unwrap_or("");
                json!({"fieldPath": path.strip_prefix('.').unwrap_or(path)})
            })
            .collect();
        if !fields.is_empty() {
            map.insert("x-kubernetes-selectable-fields".into(), Value::Array(fields));
        }
    }
}

/// `{"type":"string"}` with a description (`TypeMeta`'s fields).
fn string_property(description: &str) -> Value {
    json!({"description": description, "type": "string"})
}

/// A reference to a Kubernetes model with a description. v3 forbids siblings of
/// `$ref`, so there the reference goes in an `allOf` (`WrapRefs`).
fn reference(model: &str, description: &str, openapi: OpenApi) -> Value {
    let target = format!("{}{model}", openapi.ref_prefix());
    match openapi {
        OpenApi::V2 => json!({"$ref": target, "description": description}),
        OpenApi::V3 => json!({"allOf": [{"$ref": target}], "description": description}),
    }
}

fn is_true(m: &Map<String, Value>, key: &str) -> bool {
    m.get(key) == Some(&Value::Bool(true))
}

/// Sets `properties[key]`, creating `properties` when absent (`SetProperty`).
fn set_property(s: &mut Map<String, Value>, key: &str, value: Value) {
    let props = s.entry("properties").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(props) = props {
        props.insert(key.into(), value);
    } else {
        *props = json!({ key: value });
    }
}

/// A schema node as the API server has it after reading it into its structural type
/// and writing it out again (`NewStructural`, then `ToKubeOpenAPI`): only the fields it
/// knows, without empty strings, empty lists and `false` flags, numbers as Go writes
/// them. `nested` is a node under `allOf`/`anyOf`/`oneOf`/`not`, whose
/// `additionalProperties` is not written back. `None` when the server would not use
/// the schema at all: a field it does not support, an `items` list, an unknown type,
/// `x-kubernetes-preserve-unknown-fields: false`.
fn normalize(node: &Value, nested: bool) -> Option<Map<String, Value>> {
    let Value::Object(s) = node else { return None };
    for key in ["id", "$schema", "$ref"] {
        if s.get(key).is_some_and(|v| v.as_str() != Some("")) {
            return None;
        }
    }
    for key in ["patternProperties", "dependencies", "definitions"] {
        if s.get(key).is_some_and(|v| v.as_object().is_none_or(|m| !m.is_empty())) {
            return None;
        }
    }
    if s.get("additionalItems").is_some_and(|v| !v.is_null()) {
        return None;
    }
    if s.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        return None;
    }

    let mut out = Map::new();
    let string = |key: &str| s.get(key).and_then(Value::as_str).filter(|v| !v.is_empty());
    let flag = |key: &str| s.get(key) == Some(&Value::Bool(true));

    // Generic.
    if let Some(t) = string("type") {
        if !TYPES.contains(&t) {
            return None;
        }
        out.insert("type".into(), json!(t));
    }
    for key in ["description", "title"] {
        if let Some(v) = string(key) {
            out.insert(key.into(), json!(v));
        }
    }
    for key in ["default", "example"] {
        if let Some(v) = s.get(key).filter(|v| !v.is_null()) {
            out.insert(key.into(), go_numbers(v));
        }
    }
    if flag("nullable") {
        out.insert("nullable".into(), json!(true));
    }
    if let Some(docs) = s.get("externalDocs").and_then(Value::as_object) {
        let mut d = Map::new();
        for key in ["description", "url"] {
            if let Some(v) = docs.get(key).and_then(Value::as_str).filter(|v| !v.is_empty()) {
                d.insert(key.into(), json!(v));
            }
        }
        out.insert("externalDocs".into(), Value::Object(d));
    }

    // Extensions.
    for key in [
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource",
        "x-kubernetes-int-or-string",
    ] {
        if flag(key) {
            out.insert(key.into(), json!(true));
        }
    }
    if let Some(keys) = s.get("x-kubernetes-list-map-keys").filter(|v| !is_empty_list(v)) {
        out.insert("x-kubernetes-list-map-keys".into(), keys.clone());
    }
    for key in ["x-kubernetes-list-type", "x-kubernetes-map-type"] {
        if let Some(v) = s.get(key).filter(|v| v.is_string()) {
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(Value::Array(rules)) = s.get("x-kubernetes-validations")
        && !rules.is_empty()
    {
        out.insert(
            "x-kubernetes-validations".into(),
            Value::Array(rules.iter().map(rule).collect()),
        );
    }

    // Value validation.
    for key in ["format", "pattern"] {
        if let Some(v) = string(key) {
            out.insert(key.into(), json!(v));
        }
    }
    for key in ["maximum", "minimum", "multipleOf"] {
        if let Some(v) = s.get(key).filter(|v| v.is_number()) {
            out.insert(key.into(), go_numbers(v));
        }
    }
    for key in [
        "maxLength",
        "minLength",
        "maxItems",
        "minItems",
        "maxProperties",
        "minProperties",
    ] {
        if let Some(v) = s.get(key).filter(|v| v.is_number()) {
            out.insert(key.into(), v.clone());
        }
    }
    for key in ["exclusiveMaximum", "exclusiveMinimum", "uniqueItems"] {
        if flag(key) {
            out.insert(key.into(), json!(true));
        }
    }
    if let Some(Value::Array(values)) = s.get("enum")
        && !values.is_empty()
    {
        out.insert("enum".into(), Value::Array(values.iter().map(go_numbers).collect()));
    }
    if let Some(required) = s.get("required").filter(|v| !is_empty_list(v)) {
        out.insert("required".into(), required.clone());
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = s.get(key)
            && !list.is_empty()
        {
            let list: Option<Vec<Value>> = list.iter().map(|x| normalize(x, true).map(Value::Object)).collect();
            out.insert(key.into(), Value::Array(list?));
        }
    }
    if let Some(not) = s.get("not").filter(|v| !v.is_null()) {
        out.insert("not".into(), Value::Object(normalize(not, true)?));
    }

    // Structure.
    match s.get("items") {
        None | Some(Value::Null) => {}
        Some(items @ Value::Object(_)) => {
            out.insert("items".into(), Value::Object(normalize(items, nested)?));
        }
        // A list of schemas is not supported.
        Some(_) => return None,
    }
    if let Some(Value::Object(props)) = s.get("properties")
        && !props.is_empty()
    {
        let mut p = Map::new();
        for (k, v) in props {
            p.insert(k.clone(), Value::Object(normalize(v, nested)?));
        }
        out.insert("properties".into(), Value::Object(p));
    }
    // `NestedValueValidation` reads `additionalProperties` but never writes it back.
    if !nested {
        match s.get("additionalProperties") {
            Some(Value::Bool(b)) => {
                out.insert("additionalProperties".into(), json!(b));
            }
            Some(a @ Value::Object(_)) => {
                out.insert("additionalProperties".into(), Value::Object(normalize(a, false)?));
            }
            _ => {}
        }
    } else if let Some(a @ Value::Object(_)) = s.get("additionalProperties") {
        // Read (so an unsupported field in it still counts), not written back.
        normalize(a, true)?;
    }
    Some(out)
}

fn is_empty_list(v: &Value) -> bool {
    v.as_array().is_none_or(Vec::is_empty)
}

/// An `x-kubernetes-validations` rule as Go writes `ValidationRule`: empty strings
/// left out, except `rule`; `reason` and `optionalOldSelf` (pointers) kept when set.
fn rule(r: &Value) -> Value {
    let Value::Object(r) = r else { return r.clone() };
    let mut out = Map::new();
    out.insert("rule".into(), r.get("rule").cloned().unwrap_or(json!("")));
    for key in ["message", "messageExpression", "fieldPath"] {
        if let Some(v) = r.get(key).filter(|v| v.as_str() != Some("")) {
            out.insert(key.into(), v.clone());
        }
    }
    for key in ["reason", "optionalOldSelf"] {
        if let Some(v) = r.get(key).filter(|v| !v.is_null()) {
            out.insert(key.into(), v.clone());
        }
    }
    Value::Object(out)
}

/// Numbers as the API server writes them back: values are decoded into int64 when
/// integral and float64 otherwise, and Go writes a float64 without a fraction as an
/// integer (`1.0` → `1`).
fn go_numbers(v: &Value) -> Value {
    let mut v = v.clone();
    crate::admission::go_json_numbers(&mut v);
    v
}

/// `[{"type":"integer"},{"type":"string"}]`, the `anyOf` of an int-or-string.
fn int_or_string_any_of() -> Value {
    json!([{"type": "integer"}, {"type": "string"}])
}

/// `Unfold`: every `x-kubernetes-int-or-string` node outside junctors gets
/// `anyOf: [integer, string]`, or, when it has an `anyOf` of its own, an `allOf`
/// whose first entry is that `anyOf`; nodes already written so are left alone.
fn unfold(s: &mut Map<String, Value>) {
    if is_true(s, "x-kubernetes-int-or-string") {
        let pattern = int_or_string_any_of();
        let has_any_of = s.get("anyOf") == Some(&pattern);
        let has_all_of = s
            .get("allOf")
            .and_then(|a| a.get(0))
            .and_then(|first| first.get("anyOf"))
            == Some(&pattern);
        if !has_any_of && !has_all_of {
            if s.contains_key("anyOf") {
                let mut all_of = vec![json!({"anyOf": pattern})];
                if let Some(Value::Array(rest)) = s.remove("allOf") {
                    all_of.extend(rest);
                }
                s.insert("allOf".into(), Value::Array(all_of));
            } else {
                s.insert("anyOf".into(), pattern);
            }
        }
    }
    for_each_child(s, unfold);
}

/// Calls `f` on a node's structural children: `properties`, `items`,
/// `additionalProperties` (the walk of the API server's `Visitor`, without junctors).
fn for_each_child(s: &mut Map<String, Value>, mut f: impl FnMut(&mut Map<String, Value>)) {
    if let Some(Value::Object(items)) = s.get_mut("items") {
        f(items);
    }
    if let Some(Value::Object(props)) = s.get_mut("properties") {
        for v in props.values_mut() {
            if let Value::Object(v) = v {
                f(v);
            }
        }
    }
    if let Some(Value::Object(a)) = s.get_mut("additionalProperties") {
        f(a);
    }
}

/// `ToStructuralOpenAPIV2`, a node before its children. kubectl's v2 validation
/// knows neither junctors nor `nullable`, and rejects unknown fields under
/// `properties` and values of an array without `items`; each step keeps it from
/// rejecting objects the server accepts.
fn to_v2(s: &mut Map<String, Value>) {
    for key in ["allOf", "oneOf", "anyOf", "not"] {
        s.remove(key);
    }
    if is_true(s, "nullable") {
        for key in ["type", "nullable", "items", "properties"] {
            s.remove(key);
        }
    }
    let preserve = is_true(s, "x-kubernetes-preserve-unknown-fields");
    if preserve {
        s.remove("items");
        s.remove("properties");
    }
    let type_ = s.get("type").and_then(Value::as_str).map(str::to_owned);
    if type_.as_deref() == Some("array") && !s.contains_key("items") {
        s.remove("type");
    }
    if preserve && type_.as_deref() == Some("object") {
        s.remove("type");
    }
    // A nullable field may be null, which v2 cannot say: it is not required.
    let nullable: Vec<String> = match s.get("properties") {
        Some(Value::Object(props)) => props
            .iter()
            .filter(|(_, v)| v.get("nullable") == Some(&Value::Bool(true)))
            .map(|(k, _)| k.clone())
            .collect(),
        _ => Vec::new(),
    };
    if let Some(Value::Array(required)) = s.get_mut("required") {
        required.retain(|r| r.as_str().is_none_or(|r| !nullable.iter().any(|n| n == r)));
        if required.is_empty() {
            s.remove("required");
        }
    }
    if s.get("additionalProperties").and_then(|a| a.get("nullable")) == Some(&Value::Bool(true)) {
        s.remove("required");
    }
    for_each_child(s, to_v2);
}

/// `addEmbeddedProperties`, children before the node: an embedded resource gets
/// `apiVersion`, `kind` and `metadata` and requires `kind` and `apiVersion`, except in
/// v2 when it keeps unknown fields (kubectl would then reject every other field).
fn add_embedded(s: &mut Map<String, Value>, openapi: OpenApi) {
    for_each_child(s, |child| add_embedded(child, openapi));
    if openapi == OpenApi::V2 && is_true(s, "x-kubernetes-preserve-unknown-fields") {
        return;
    }
    if !is_true(s, "x-kubernetes-embedded-resource") {
        return;
    }
    set_property(s, "apiVersion", string_property(EMBEDDED_API_VERSION_DESCRIPTION));
    set_property(s, "kind", string_property(EMBEDDED_KIND_DESCRIPTION));
    set_property(
        s,
        "metadata",
        reference(OBJECT_META_MODEL, METADATA_DESCRIPTION, openapi),
    );
    let required = s.entry("required").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(required) = required {
        for key in ["kind", "apiVersion"] {
            if !required.iter().any(|r| r == key) {
                required.push(json!(key));
            }
        }
    }
}

/// `PruneDefaults`: every schema's `default` removed, at any depth (only in schema
/// positions: an `enum` or `example` value keeps its fields).
fn prune_defaults(v: &mut Value) {
    let Value::Object(s) = v else { return };
    s.remove("default");
    for key in ["items", "not", "additionalProperties", "additionalItems"] {
        if let Some(child) = s.get_mut(key) {
            prune_defaults(child);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = s.get_mut(key) {
            list.iter_mut().for_each(prune_defaults);
        }
    }
    for key in ["properties", "patternProperties", "definitions"] {
        if let Some(Value::Object(map)) = s.get_mut(key) {
            map.values_mut().for_each(prune_defaults);
        }
    }
}
