//! What a create or update request (of the main resource, or of its status
//! subresource: [`update_status`]) does to a custom resource, in the API server's
//! order: decode → prune → drop non-nullable nulls → coerce metadata → default →
//! validate (type meta, object meta, OpenAPI schema, scale, embedded resources,
//! list sets and maps, then CEL rules unless a blocking error came first).
//!
//! The per-schema steps are a [`ResourceSchema`]: generated root types implement it
//! with compiled code, and crd-codegen's reference engine implements it by
//! interpreting the schema. The order of the steps, and everything that does not
//! depend on the schema, is here, once, for both.
//!
//! Ported from apiextensions-apiserver `customresource_handler.go`
//! (`unstructuredSchemaCoercer.apply`: the request decoder with
//! `dropInvalidMetadata=false`, the storage decoder with `true`),
//! `pkg/registry/customresource/{strategy,validator}.go` and apiserver
//! `pkg/registry/rest/{create,update}.go` (`BeforeCreate`, `BeforeUpdate`,
//! `ValidateCreate`, `ValidateUpdate`).
//!
//! Deliberate differences from the API server:
//! - numbers are taken as the server decodes what `kubectl` sends (JSON re-encoded by
//!   Go): integral floats such as YAML's `1.0` become int64 ([`go_json_numbers`]);
//! - a zero `metadata.creationTimestamp` is omitted instead of written as `null` (the
//!   server sets the timestamp on create); no `uid`, `creationTimestamp` or
//!   `generation` is assigned on create, and an update increments `generation`
//!   only when the old object has one (none of these changes a validation outcome);
//! - `generateName` is completed with [`GENERATED_NAME_SUFFIX`] instead of five
//!   random characters;
//! - the old object of an update is read without `repairGeneration` (which sets a
//!   missing generation to 1), and in the request's namespace when it names none.

use crate::errors::{ErrorList, FieldError};
use crate::objectmeta::{self, ObjectMeta};
use crate::openapi::Res;
use crate::rules::Findings;
use serde_json::{Map, Value};

/// The `scale` subresource's paths (`.spec.replicas`, ...), as written in the CRD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScalePaths<'a> {
    pub spec_replicas: &'a str,
    pub status_replicas: &'a str,
    pub label_selector: Option<&'a str>,
}

/// The schema-dependent steps of admission for one kind and version.
pub trait ResourceSchema {
    /// `group/version`.
    fn api_version(&self) -> &str;
    fn kind(&self) -> &str;
    fn namespaced(&self) -> bool;
    fn scale(&self) -> Option<ScalePaths<'_>>;

    /// `pruning.PruneWithOptions(object, schema, isResourceRoot=true)`: removes unknown
    /// fields and appends their paths (`spec.items[1].b`) to `pruned`, unsorted.
    fn prune(&self, object: &mut Value, pruned: &mut Vec<String>);

    /// `defaulting.PruneNonNullableNullsWithoutDefaults`.
    fn drop_nulls(&self, object: &mut Value);

    /// `objectmeta.Coerce` below the root (isResourceRoot=false): the `apiVersion`,
    /// `kind` and `metadata` of embedded resources, keys in sorted order, each embedded
    /// object through [`crate::objectmeta::coerce_embedded_field`]. With
    /// `cx.drop_invalid` (the storage decoder) malformed fields are dropped; without
    /// (the request decoder) the first error is returned, which makes the API server
    /// reject the request before validation, and unknown metadata fields are noted.
    fn coerce_embedded(&self, object: &mut Value, cx: &mut objectmeta::Coercion) -> Result<(), FieldError>;

    /// `defaulting.Default`.
    fn default(&self, object: &mut Value);

    /// kube-openapi validation of the whole object. With `old` (an update) errors are
    /// ratcheted: a node whose value equals its correlated old value reports none.
    /// Returns whether it also found that [`ResourceSchema::validate_lists`] of the
    /// object has nothing to report (generated code's fast check covers both), so
    /// that the caller can skip that walk; `false` says nothing about the lists.
    fn validate(&self, object: &Value, old: Option<&Value>, res: &mut Res) -> bool;

    /// kube-openapi validation of `status` alone, at `status` and ratcheted against
    /// `old`'s (the status subresource's `statusSchemaValidator`): nothing when the
    /// object has no `status` or the schema does not declare it.
    fn validate_status(&self, object: &Value, old: Option<&Value>, res: &mut Res);

    /// `objectmeta.Validate` below the root (isResourceRoot=false): embedded resources.
    fn validate_embedded(&self, object: &Value, errs: &mut ErrorList);

    /// `listtype.ValidateListSetsAndMaps`.
    fn validate_lists(&self, object: &Value, errs: &mut ErrorList);

    /// `x-kubernetes-validations` rules; `old` on update. Runs only when no blocking
    /// error came before. Failures that ratcheting forgives (see
    /// [`crate::rules::report_failure`]) go to `warnings`, printed as errors.
    fn validate_rules(&self, _object: &Value, _old: Option<&Value>) -> Findings {
        Findings::default()
    }

    /// Whether any node of the structural spine (properties, items,
    /// additionalProperties) has `x-kubernetes-validations`. Without rules the API
    /// server has no CEL validator: neither the rules nor the "rules were not checked"
    /// error apply (`cel.NewValidator` returns nil).
    fn has_rules(&self) -> bool {
        false
    }

    /// Whether the version has the `status` subresource (then a create drops
    /// `status` and an update keeps the old one, as the CR strategy's
    /// `PrepareForCreate`/`PrepareForUpdate` do).
    fn status_subresource(&self) -> bool {
        false
    }
}

/// The outcome of admitting one object.
#[derive(Clone, Debug, PartialEq)]
pub struct Admission {
    /// The object after pruning, metadata coercion and defaulting.
    pub object: Value,
    /// Paths of the unknown fields pruning removed, sorted.
    pub pruned: Vec<String>,
    /// Every field the API server's strict decoder reports as unknown, in its order:
    /// the fields `metadata` does not have (`metadata.foo`), then the pruned paths,
    /// then the unknown fields of embedded resources' metadata (sorted).
    /// Under `fieldValidation` Warn (the default) each is a warning, under Strict the
    /// request fails ([`Admission::with_field_validation`]).
    pub unknown_fields: Vec<String>,
    /// The keys the request body repeats (`spec.ports[0].hostPort`), in document
    /// order: known only when the body was admitted as bytes ([`create_json`],
    /// [`update_json`]); reported before the unknown fields.
    pub duplicate_fields: Vec<String>,
    /// Every validation error, in the API server's order. Empty when admitted.
    pub errors: ErrorList,
    /// The warnings the API server returns with the response: rule failures that
    /// ratcheting turned into warnings (an update that leaves a failing value as it
    /// was), printed as errors.
    pub warnings: Vec<String>,
    /// The CEL cost the rules took, out of the per-object budget of 10,000,000
    /// (`crate::rules::RUNTIME_CEL_COST_BUDGET`).
    pub rules_cost: u64,
    /// Set when the API server rejects the request before validating it (HTTP 400 Bad
    /// Request, e.g. malformed `metadata`, a `kind` that is not a string, a namespace
    /// other than the request's), with the server's message; `errors` is then empty.
    pub bad_request: Option<String>,
}

/// The `fieldValidation` of a request (kubectl's `--validate`): what the API server
/// does with unknown fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FieldValidation {
    /// Drop them without a word.
    Ignore,
    /// Drop them, with a warning each (`unknown field "spec.foo"`): the default.
    #[default]
    Warn,
    /// Refuse the request (HTTP 400, `strict decoding error: unknown field ...`).
    Strict,
}

impl Admission {
    fn with_duplicates(mut self, duplicates: Vec<String>) -> Admission {
        self.duplicate_fields = duplicates;
        self
    }

    /// Whether the API server admits the object: no errors and no bad request.
    pub fn is_admitted(&self) -> bool {
        self.errors.is_empty() && self.bad_request.is_none()
    }

    /// Why the API server refused the request, as kubectl prints its answer (`None`
    /// when admitted): `Error from server (BadRequest): error when <verb> "<file>":
    /// <message>` for a bad request, else [`crate::InvalidObject`]'s `The <Kind>
    /// "<name>" is invalid:` and a line per error. `verb` is `creating` or `updating`,
    /// `file` what kubectl was given.
    pub fn refusal(&self, kind: &str, verb: &str, file: &str) -> Option<String> {
        if let Some(message) = &self.bad_request {
            return Some(format!(
                "Error from server (BadRequest): error when {verb} {file:?}: {message}"
            ));
        }
        if self.errors.is_empty() {
            return None;
        }
        let name = self.object["metadata"]["name"].as_str().unwrap_or("").to_string();
        let invalid = crate::InvalidObject {
            kind: kind.to_string(),
            name,
            errors: self.errors.clone(),
        };
        Some(invalid.to_string())
    }

    /// This admission under `fieldValidation` `mode`: with Warn, a warning per
    /// repeated key (`duplicate field "spec.replicas"`) and per unknown field
    /// (`unknown field "spec.foo"`) before the other warnings; with Strict, a request
    /// with either is refused before validation:
    /// `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error:
    /// unknown field "spec.foo", unknown field "spec.bar"`.
    pub fn with_field_validation(mut self, mode: FieldValidation) -> Admission {
        let problems: Vec<String> = (self.duplicate_fields.iter())
            .map(|f| format!("duplicate field {f:?}"))
            .chain(self.unknown_fields.iter().map(|f| format!("unknown field {f:?}")))
            .collect();
        match mode {
            FieldValidation::Ignore => {}
            FieldValidation::Warn => {
                let mut warnings = problems;
                warnings.append(&mut self.warnings);
                self.warnings = warnings;
            }
            FieldValidation::Strict if !problems.is_empty() && self.bad_request.is_none() => {
                let kind = self.object.get("kind").and_then(Value::as_str).unwrap_or("");
                let api_version = self.object.get("apiVersion").and_then(Value::as_str).unwrap_or("");
                let version = api_version.rsplit('/').next().unwrap_or("");
                let errors = problems;
                self.bad_request = Some(format!(
                    "{kind} in version {version:?} cannot be handled as a {kind}: strict decoding error: {}",
                    errors.join(", ")
                ));
                self.errors.clear();
                self.warnings.clear();
                self.rules_cost = 0;
            }
            FieldValidation::Strict => {}
        }
        self
    }

    fn rejected(object: Value, decoded: Decoded, message: String) -> Admission {
        Admission {
            object,
            unknown_fields: decoded.unknown_fields(),
            duplicate_fields: Vec::new(),
            pruned: decoded.pruned,
            errors: ErrorList::new(),
            warnings: Vec::new(),
            rules_cost: 0,
            bad_request: Some(message),
        }
    }
}

/// The message appended instead of running CEL rules after a blocking error.
pub const RULES_NOT_CHECKED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// The request was rejected because `metadata.namespace` differs from the request's.
pub const NAMESPACE_MISMATCH: &str =
    "the namespace of the provided object does not match the namespace sent on the request";

/// The five characters appended to `generateName` (the API server picks them at random
/// from `bcdfghjklmnpqrstvwxz2456789`; here they are fixed so results are
/// reproducible).
pub const GENERATED_NAME_SUFFIX: &str = "xxxxx";

/// Admits `object` as a create request in `namespace` (used for namespaced kinds
/// whose object names none, as `kubectl` sends the current namespace), in the API
/// server's order: decode (prune, drop non-nullable nulls, coerce metadata), default,
/// then the registry's `BeforeCreate` (namespace, generated name, `status` dropped
/// when the status subresource is on) and `ValidateCreate`.
pub fn create(schema: &dyn ResourceSchema, object: Value, namespace: &str) -> Admission {
    let mut object = object;
    let decoded = match decode_request(schema, &mut object, false) {
        Ok(d) => d,
        Err(message) => return Admission::rejected(object, Decoded::default(), message),
    };
    schema.default(&mut object);
    if let Err(message) = ensure_namespace(schema, &mut object, namespace) {
        return Admission::rejected(object, decoded, message);
    }
    if let Value::Object(m) = &mut object {
        generate_name(m);
        if schema.status_subresource() {
            m.remove("status");
        }
    }
    let findings = validate_create_findings(schema, &object);
    Admission {
        object,
        unknown_fields: decoded.unknown_fields(),
        duplicate_fields: Vec::new(),
        pruned: decoded.pruned,
        errors: findings.errors,
        warnings: findings.warnings,
        rules_cost: findings.cost,
        bad_request: None,
    }
}

/// Admits `object` as an update of `old` (which is decoded, pruned and defaulted the
/// way the API server reads a stored object, dropping malformed metadata, but not
/// validated): the registry's `BeforeUpdate` (namespace, generation, uid and
/// timestamps taken from `old`, the old `status` kept when the status subresource is
/// on) and `ValidateUpdate`, with OpenAPI errors ratcheted and list-type errors only
/// checked when `old` has none.
///
/// An object without a resource version (`""` or `"0"`) is refused before any of
/// that, with the one error the registry's store gives (custom resources allow no
/// unconditional update): `metadata.resourceVersion: Invalid value: 0: must be
/// specified for an update`.
pub fn update(schema: &dyn ResourceSchema, object: Value, old: Value, namespace: &str) -> Admission {
    update_with(schema, object, old, namespace, Strategy::Main)
}

/// Admits `object` as an update of `old` through the status subresource (`PUT
/// .../status`, the status strategy): the stored object is `old` with the request's
/// `status` (removed when the request has none) and `metadata.managedFields`;
/// everything else the request changes (spec, labels, annotations, finalizers) is
/// dropped, and `generation` stays. Validated as `ValidateStatusUpdate`: type and
/// object metadata, the `status` stanza against its schema (ratcheted), the scale
/// subresource's status paths, list sets and maps, then the rules of the whole object
/// (ratcheted: what the request did not change keeps its old verdict).
///
/// The decoding, the resource-version check and the old object's reading are
/// [`update`]'s.
pub fn update_status(schema: &dyn ResourceSchema, object: Value, old: Value, namespace: &str) -> Admission {
    update_with(schema, object, old, namespace, Strategy::Status)
}

/// [`create`] of a request body as the API server receives it: the JSON read (a
/// repeated key keeps its last value, as in Go) and its repeated keys kept in
/// [`Admission::duplicate_fields`] for [`Admission::with_field_validation`]. A body
/// that is not JSON is a bad request.
pub fn create_json(schema: &dyn ResourceSchema, body: &[u8], namespace: &str) -> Admission {
    match read_body(body) {
        Ok((object, duplicates)) => create(schema, object, namespace).with_duplicates(duplicates),
        Err(message) => Admission::rejected(Value::Null, Decoded::default(), message),
    }
}

/// [`update`] of a request body, as [`create_json`] reads it.
pub fn update_json(schema: &dyn ResourceSchema, body: &[u8], old: Value, namespace: &str) -> Admission {
    match read_body(body) {
        Ok((object, duplicates)) => update(schema, object, old, namespace).with_duplicates(duplicates),
        Err(message) => Admission::rejected(Value::Null, Decoded::default(), message),
    }
}

/// A JSON request body and the keys it repeats.
fn read_body(body: &[u8]) -> Result<(Value, Vec<String>), String> {
    let bad = |e: serde_json::Error| format!("the request body is not JSON: {e}");
    let duplicates = crate::strictjson::duplicate_fields(body).map_err(bad)?;
    let object = serde_json::from_slice(body).map_err(bad)?;
    Ok((object, duplicates))
}

/// Which registry strategy an update goes through.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strategy {
    /// The main resource (`customResourceStrategy`).
    Main,
    /// The status subresource (`statusStrategy`).
    Status,
}

fn update_with(
    schema: &dyn ResourceSchema,
    object: Value,
    old: Value,
    namespace: &str,
    strategy: Strategy,
) -> Admission {
    let mut object = object;
    let mut old = old;
    let decoded = match decode_request(schema, &mut object, false) {
        Ok(d) => d,
        Err(message) => return Admission::rejected(object, Decoded::default(), message),
    };
    schema.default(&mut object);
    if matches!(object["metadata"]["resourceVersion"].as_str().unwrap_or(""), "" | "0") {
        let error = FieldError::invalid(
            "metadata.resourceVersion",
            Value::from(0),
            "must be specified for an update",
        );
        return Admission {
            object,
            unknown_fields: decoded.unknown_fields(),
            duplicate_fields: Vec::new(),
            pruned: decoded.pruned,
            errors: vec![error],
            warnings: Vec::new(),
            rules_cost: 0,
            bad_request: None,
        };
    }
    if let Err(message) = decode_request(schema, &mut old, true) {
        return Admission::rejected(object, decoded, format!("the old object cannot be read: {message}"));
    }
    schema.default(&mut old);
    // The stored object lives in the request's namespace (an old object read from a
    // manifest may not say so).
    let _ = ensure_namespace(schema, &mut old, namespace);
    if let Err(message) = ensure_namespace(schema, &mut object, namespace) {
        return Admission::rejected(object, decoded, message);
    }
    before_update(schema, &mut object, &old, strategy);
    let findings = validate_update_with(schema, &object, &old, strategy);
    Admission {
        object,
        unknown_fields: decoded.unknown_fields(),
        duplicate_fields: Vec::new(),
        pruned: decoded.pruned,
        errors: findings.errors,
        warnings: findings.warnings,
        rules_cost: findings.cost,
        bad_request: None,
    }
}

/// What the API server's converter does to an object it has converted
/// (`schemaCoercingConverter`: `unstructuredSchemaCoercer.apply` without dropping
/// invalid metadata): prune with the version's schema, drop non-nullable nulls, coerce
/// embedded resources. Returns the pruned paths, sorted.
pub fn read_converted(schema: &dyn ResourceSchema, object: &mut Value) -> Result<Vec<String>, String> {
    decode_request(schema, object, false).map(|d| d.pruned)
}

/// What the request decoder dropped.
#[derive(Default)]
struct Decoded {
    /// The pruned paths, sorted.
    pruned: Vec<String>,
    /// The fields of `metadata` that `ObjectMeta` does not have.
    unknown_metadata: Vec<String>,
    /// The same of embedded resources' metadata, sorted.
    unknown_embedded: Vec<String>,
}

impl Decoded {
    /// What a strict decoder reports, in the API server's order.
    fn unknown_fields(&self) -> Vec<String> {
        if self.unknown_metadata.is_empty() && self.pruned.is_empty() && self.unknown_embedded.is_empty() {
            return Vec::new();
        }
        (self.unknown_metadata.iter())
            .chain(&self.pruned)
            .chain(&self.unknown_embedded)
            .cloned()
            .collect()
    }
}

/// The request decoder (`unstructuredSchemaCoercer.apply`): numbers as Go decodes
/// them, then prune, drop non-nullable nulls and coerce embedded resources, and
/// restore `kind`, `apiVersion` and the coerced `metadata`. Returns what it dropped, or
/// the Bad Request message.
fn decode_request(schema: &dyn ResourceSchema, object: &mut Value, read_path: bool) -> Result<Decoded, String> {
    go_json_numbers(object);
    let kind_name = schema.kind();
    let cannot_handle = |e: &str| {
        let version = schema.api_version().rsplit('/').next().unwrap_or("");
        format!("{kind_name} in version {version:?} cannot be handled as a {kind_name}: {e}")
    };
    let Value::Object(map) = object else {
        return Err(cannot_handle(&format!(
            "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
            json_kind(object)
        )));
    };
    // `kind` and `apiVersion` must be strings. The API server reads them here and sets
    // them back after pruning; pruning keeps them at the root, so they are left in place.
    let nested_string = |key: &str| -> Result<&str, String> {
        match map.get(key) {
            None => Ok(""),
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(format!(
                ".{key} accessor error: {} is of the type {}, expected string",
                objectmeta::go_print_v(other),
                objectmeta::go_type_name(other)
            )),
        }
    };
    let kind = nested_string("kind").map_err(|e| cannot_handle(&e))?;
    let api_version = nested_string("apiVersion").map_err(|e| cannot_handle(&e))?;
    // Metadata that re-encodes to itself needs no `SetObjectMeta` (the common case),
    // and has no unknown fields; it decodes, so it is not decoded here.
    let meta: Option<ObjectMeta> = if map.get("metadata").is_some_and(objectmeta::round_trips) {
        None
    } else {
        objectmeta::get_object_meta(map, read_path).map_err(|e| cannot_handle(&e))?
    };
    let unknown_metadata = match (&meta, map.get("metadata")) {
        (Some(_), Some(metadata)) => objectmeta::unknown_object_meta_fields(metadata),
        _ => Vec::new(),
    };
    // The usual request names this very version: then its group is the schema's.
    let same_group = api_version == schema.api_version() || {
        let (group, _) = objectmeta::parse_group_version(api_version).map_err(|e| cannot_handle(&e))?;
        let (schema_group, _) = objectmeta::parse_group_version(schema.api_version()).unwrap_or(("", ""));
        group == schema_group
    };
    let is_this_kind = same_group && kind == schema.kind();
    let mut pruned = Vec::new();
    let mut coercion = objectmeta::Coercion::new(read_path);
    if is_this_kind {
        schema.prune(object, &mut pruned);
        pruned.sort();
        schema.drop_nulls(object);
        // The storage decoder drops invalid metadata, the request decoder rejects it.
        schema
            .coerce_embedded(object, &mut coercion)
            .map_err(|e| cannot_handle(&e.to_string()))?;
    }
    let mut unknown_embedded = coercion.unknown;
    unknown_embedded.sort();
    if let (Value::Object(map), Some(meta)) = (object, meta) {
        objectmeta::set_object_meta(map, &meta);
        // `SetObjectMeta` writes a zero creation timestamp as null; the API server
        // then sets it on create, and it is omitted here.
        if meta.creation_timestamp.is_none()
            && let Some(Value::Object(m)) = map.get_mut("metadata")
        {
            m.remove("creationTimestamp");
        }
    }
    Ok(Decoded {
        pruned,
        unknown_metadata,
        unknown_embedded,
    })
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Numbers as the API server holds them after decoding the JSON `kubectl` sends:
/// integers that fit an int64 are int64 (including floats Go encodes as integers, such
/// as `1.0` from YAML), everything else is float64.
pub fn go_json_numbers(v: &mut Value) {
    match v {
        Value::Number(n) => {
            if n.as_i64().is_some() {
                return;
            }
            let f = n.as_f64().unwrap_or(0.0);
            // 2^63: the first float64 that does not fit an int64.
            const LIMIT: f64 = 9_223_372_036_854_775_808.0;
            if crate::openapi::is_integral(f) && (-LIMIT..LIMIT).contains(&f) {
                *v = Value::from(f as i64);
            } else if let Some(x) = serde_json::Number::from_f64(f) {
                *n = x;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(go_json_numbers),
        Value::Object(m) => m.values_mut().for_each(go_json_numbers),
        _ => {}
    }
}

fn metadata_mut(object: &mut Value) -> Option<&mut Map<String, Value>> {
    let Value::Object(m) = object else {
        return None;
    };
    // `entry` would allocate the key on every call, and it is rarely missing.
    if !m.contains_key("metadata") {
        m.insert("metadata".into(), Value::Object(Map::new()));
    }
    let meta = m.get_mut("metadata")?;
    if meta.is_null() {
        *meta = Value::Object(Map::new());
    }
    meta.as_object_mut()
}

/// `EnsureObjectNamespaceMatchesRequestNamespace(ExpectedNamespaceForScope(..))`.
fn ensure_namespace(schema: &dyn ResourceSchema, object: &mut Value, namespace: &str) -> Result<(), String> {
    let expected = if schema.namespaced() { namespace } else { "" };
    // The usual object has a metadata object: read and write it through one lookup.
    if let Value::Object(m) = object
        && let Some(Value::Object(meta)) = m.get_mut("metadata")
    {
        return set_namespace(meta, expected);
    }
    // Without one there is no namespace yet.
    if !expected.is_empty()
        && let Some(m) = metadata_mut(object)
    {
        m.insert("namespace".into(), Value::String(expected.to_string()));
    }
    Ok(())
}

/// [`ensure_namespace`] on the metadata object `meta`.
fn set_namespace(meta: &mut Map<String, Value>, expected: &str) -> Result<(), String> {
    let current = meta.get("namespace").and_then(Value::as_str).unwrap_or("");
    if current == expected {
        return Ok(());
    }
    if current.is_empty() {
        meta.insert("namespace".into(), Value::String(expected.to_string()));
        return Ok(());
    }
    if expected.is_empty() {
        meta.remove("namespace");
        return Ok(());
    }
    Err(NAMESPACE_MISMATCH.to_string())
}

/// The registry store's name generation (`names.SimpleNameGenerator`): a missing name
/// becomes `generateName` (cut to 58 bytes) plus five characters.
fn generate_name(object: &mut Map<String, Value>) {
    let Some(Value::Object(meta)) = object.get_mut("metadata") else {
        return;
    };
    let name_empty = meta.get("name").and_then(Value::as_str).unwrap_or("").is_empty();
    let base = meta.get("generateName").and_then(Value::as_str).unwrap_or("");
    if name_empty && !base.is_empty() {
        let mut cut = base.len().min(58);
        while !base.is_char_boundary(cut) {
            cut -= 1;
        }
        let name = format!("{}{GENERATED_NAME_SUFFIX}", &base[..cut]);
        meta.insert("name".into(), Value::String(name));
    }
}

/// `BeforeUpdate` with the strategy's `PrepareForUpdate`: `generation`, `uid` and
/// the timestamps from `old`; the main strategy keeps the old `status` when the status
/// subresource is on and increments `generation` when anything outside `metadata`
/// changed; the status strategy keeps all of `old` but the request's `status` and
/// `managedFields`.
///
/// (An old object without a `generation`, read from a manifest rather than the
/// store, leaves the new one without one: the store's `repairGeneration` is not
/// repeated.)
fn before_update(schema: &dyn ResourceSchema, object: &mut Value, old: &Value, strategy: Strategy) {
    let old_meta = old.get("metadata").and_then(|m| objectmeta::decode_object_meta(m).ok());
    let old_meta = old_meta.unwrap_or_default();
    if let Some(meta) = metadata_mut(object) {
        if old_meta.generation == 0 {
            meta.remove("generation");
        } else {
            meta.insert("generation".into(), Value::from(old_meta.generation));
        }
    }
    match strategy {
        Strategy::Main => {
            if schema.status_subresource()
                && let (Value::Object(new), Value::Object(old)) = (&mut *object, old)
            {
                match old.get("status") {
                    Some(s) => {
                        new.insert("status".into(), s.clone());
                    }
                    None => {
                        new.remove("status");
                    }
                }
            }
            if old_meta.generation > 0
                && changed_outside_metadata(object, old)
                && let Some(meta) = metadata_mut(object)
            {
                meta.insert("generation".into(), Value::from(old_meta.generation + 1));
            }
        }
        Strategy::Status => prepare_status_update(object, old),
    }
    if let Some(meta) = metadata_mut(object) {
        if meta.get("uid").and_then(Value::as_str).unwrap_or("").is_empty() && !old_meta.uid.is_empty() {
            meta.insert("uid".into(), Value::String(old_meta.uid.clone()));
        }
        if let Some(t) = old_meta.creation_timestamp {
            meta.insert("creationTimestamp".into(), t.to_value());
        }
        if let Some(t) = old_meta.deletion_timestamp.filter(|t| !t.is_zero()) {
            meta.insert("deletionTimestamp".into(), t.to_value());
        }
        if let Some(g) = old_meta.deletion_grace_period_seconds
            && meta.get("deletionGracePeriodSeconds").is_none_or(Value::is_null)
        {
            meta.insert("deletionGracePeriodSeconds".into(), Value::from(g));
        }
    }
}

/// Whether a top-level field other than `metadata` differs (`copyNonMetadata` and
/// `Semantic.DeepEqual`).
fn changed_outside_metadata(object: &Value, old: &Value) -> bool {
    let (Value::Object(new), Value::Object(old)) = (object, old) else {
        return object != old;
    };
    let outside = |m: &'_ Map<String, Value>| m.iter().filter(|(k, _)| *k != "metadata").count();
    outside(new) != outside(old)
        || new
            .iter()
            .filter(|(k, _)| *k != "metadata")
            .any(|(k, v)| old.get(k) != Some(v))
}

/// The status strategy's `PrepareForUpdate`: `old`, with the request's `status`
/// (none when it has none) and `metadata.managedFields`.
fn prepare_status_update(object: &mut Value, old: &Value) {
    let status = object.get_mut("status").map(Value::take);
    let managed_fields = object
        .get_mut("metadata")
        .and_then(|m| m.get_mut("managedFields"))
        .map(Value::take)
        .filter(|m| !m.is_null() && m.as_array().is_none_or(|a| !a.is_empty()));
    *object = old.clone();
    if let Value::Object(map) = object {
        match status {
            Some(status) => map.insert("status".into(), status),
            None => map.remove("status"),
        };
    }
    if let Some(meta) = metadata_mut(object) {
        match managed_fields {
            Some(m) => meta.insert("managedFields".into(), m),
            None => meta.remove("managedFields"),
        };
    }
}

/// The validator's `getObjectMeta`.
fn object_meta_of(object: &Value) -> Result<ObjectMeta, FieldError> {
    match object.get("metadata") {
        None | Some(Value::Null) => Ok(ObjectMeta::default()),
        Some(raw @ Value::Object(_)) => {
            objectmeta::decode_object_meta(raw).map_err(|e| FieldError::invalid("metadata", raw.clone(), e))
        }
        Some(raw) => Err(FieldError::invalid(
            "metadata",
            raw.clone(),
            format!(
                "expected map[string]interface{{}}, got {}",
                objectmeta::go_type_name(raw)
            ),
        )),
    }
}

fn scale_errors(schema: &dyn ResourceSchema, object: &Value, errs: &mut ErrorList) {
    if let Some(scale) = schema.scale() {
        errs.extend(objectmeta::validate_scale_spec(object, &scale));
        errs.extend(objectmeta::validate_scale_status(object, &scale));
    }
}

/// The validation steps of a create on an already decoded, pruned and defaulted
/// object (`rest.ValidateCreate`): the strategy's `Validate` (type meta, object meta,
/// schema, scale, embedded resources, list sets and maps, rules), then, only when it
/// found nothing, the generic object-meta validation.
pub fn validate_create(schema: &dyn ResourceSchema, object: &Value) -> ErrorList {
    validate_create_findings(schema, object).errors
}

/// [`validate_create`] with the warnings and the cost of the rules.
pub fn validate_create_findings(schema: &dyn ResourceSchema, object: &Value) -> Findings {
    let mut errs = ErrorList::new();
    let mut rules = Findings::default();
    let mut lists_valid = false;
    // customResourceValidator.Validate
    let type_errs = objectmeta::validate_type_meta(object, schema.kind(), schema.api_version());
    if !type_errs.is_empty() {
        errs.extend(type_errs);
    } else {
        let (namespaced, name_rule) = (schema.namespaced(), objectmeta::dns_subdomain_name);
        // Plain metadata is validated as it is; anything else is decoded first.
        match object.get("metadata").and_then(objectmeta::MetaFields::plain) {
            Some(fields) => errs.extend(objectmeta::validate_meta_fields(
                &fields, namespaced, name_rule, "metadata",
            )),
            None => match object_meta_of(object) {
                Err(e) => errs.push(e),
                Ok(meta) => errs.extend(objectmeta::validate_object_meta(
                    &meta, namespaced, name_rule, "metadata",
                )),
            },
        }
        let mut res = Res::default();
        lists_valid = schema.validate(object, None, &mut res);
        res.into_field_errors(&mut errs);
        scale_errors(schema, object, &mut errs);
    }
    schema.validate_embedded(object, &mut errs);
    if !lists_valid {
        schema.validate_lists(object, &mut errs);
    }
    if schema.has_rules() && !block_rules_if_invalid(&mut errs) {
        rules = schema.validate_rules(object, None);
        errs.append(&mut rules.errors);
    }
    // `rest.BeforeCreate` then validates the metadata again, with the path-segment
    // name rule, but only when the above found nothing: the metadata passed the same
    // checks with the DNS-subdomain name rule, which is stricter (a DNS subdomain has
    // no `/` or `%` and is never `.` or `..`; the test
    // `dns_subdomain_names_are_path_segment_names` says so), so that pass cannot find
    // anything and is not run.
    Findings { errors: errs, ..rules }
}

/// The validation steps of an update from `old`, both already decoded and defaulted
/// (`rest.ValidateUpdate`): the common object-meta checks, then the strategy's
/// `ValidateUpdate` (OpenAPI errors ratcheted, list-type errors only when `old` has
/// none, rules with `oldSelf`).
pub fn validate_update(schema: &dyn ResourceSchema, object: &Value, old: &Value) -> ErrorList {
    validate_update_findings(schema, object, old).errors
}

/// [`validate_update`] with the warnings and the cost of the rules.
pub fn validate_update_findings(schema: &dyn ResourceSchema, object: &Value, old: &Value) -> Findings {
    validate_update_with(schema, object, old, Strategy::Main)
}

/// The validation of an update by `strategy`: the common object-meta checks
/// (`validateCommonFields`), then the strategy's `ValidateUpdate`. The main strategy
/// validates the whole object (OpenAPI errors ratcheted, scale paths, embedded
/// resources); the status strategy's `ValidateStatusUpdate` only `status` (ratcheted
/// against the old `status`) and the scale status paths. Both then check list sets and
/// maps (only when `old` has no such error) and the rules of the whole object.
fn validate_update_with(schema: &dyn ResourceSchema, object: &Value, old: &Value, strategy: Strategy) -> Findings {
    let mut errs = ErrorList::new();
    let mut rules = Findings::default();
    let mut lists_valid = false;
    let new_meta = object_meta_of(object);
    let old_meta = object_meta_of(old);
    if let (Ok(new_meta), Ok(old_meta)) = (&new_meta, &old_meta) {
        errs.extend(objectmeta::validate_object_meta(
            new_meta,
            schema.namespaced(),
            objectmeta::path_segment_name,
            "metadata",
        ));
        errs.extend(objectmeta::validate_object_meta_update(new_meta, old_meta, "metadata"));
    }
    let type_errs = objectmeta::validate_type_meta(object, schema.kind(), schema.api_version());
    if !type_errs.is_empty() {
        errs.extend(type_errs);
    } else {
        match (new_meta, old_meta) {
            (Err(e), _) | (_, Err(e)) => errs.push(e),
            (Ok(new_meta), Ok(old_meta)) => {
                errs.extend(objectmeta::validate_object_meta_update(
                    &new_meta, &old_meta, "metadata",
                ));
            }
        }
        let mut res = Res::default();
        match strategy {
            Strategy::Main => {
                lists_valid = schema.validate(object, Some(old), &mut res);
                res.into_field_errors(&mut errs);
                scale_errors(schema, object, &mut errs);
            }
            Strategy::Status => {
                schema.validate_status(object, Some(old), &mut res);
                res.into_field_errors(&mut errs);
                if let Some(scale) = schema.scale() {
                    errs.extend(objectmeta::validate_scale_status(object, &scale));
                }
            }
        }
    }
    if strategy == Strategy::Main {
        schema.validate_embedded(object, &mut errs);
    }
    // The object's lists are checked only when the old object's have no errors; an
    // object whose lists have none needs neither walk.
    if !lists_valid {
        let mut old_list_errs = ErrorList::new();
        schema.validate_lists(old, &mut old_list_errs);
        if old_list_errs.is_empty() {
            schema.validate_lists(object, &mut errs);
        }
    }
    if schema.has_rules() && !block_rules_if_invalid(&mut errs) {
        rules = schema.validate_rules(object, Some(old));
        errs.append(&mut rules.errors);
    }
    Findings { errors: errs, ..rules }
}

/// Appends the "rules were not checked" error when `errs` holds a blocking error
/// (NotSupported, Required, TooLong, TooMany, TypeInvalid); returns whether it did.
pub fn block_rules_if_invalid(errs: &mut ErrorList) -> bool {
    if errs.iter().any(FieldError::is_blocking) {
        errs.push(FieldError::invalid("<nil>", Value::Null, RULES_NOT_CHECKED));
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_decode_like_go() {
        let mut v = json!({"a": 1.0, "b": 1.5, "c": [2.0e3, 1e300], "d": 18446744073709551615u64});
        go_json_numbers(&mut v);
        assert_eq!(v["a"], json!(1));
        assert!(v["a"].is_i64());
        assert_eq!(v["b"], json!(1.5));
        assert!(v["c"][0].is_i64());
        assert!(v["c"][1].is_f64());
        assert!(v["d"].is_f64());
    }
}
