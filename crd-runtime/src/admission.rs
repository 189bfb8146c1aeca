//! What a create or update request does to a custom resource, in the API server's
//! order: decode → prune → drop non-nullable nulls → coerce metadata → default →
//! validate (type meta, object meta, OpenAPI schema, scale, embedded resources,
//! list sets and maps, then CEL rules unless a blocking error came first).
//!
//! The per-schema steps are a [`ResourceSchema`]: generated root types implement it
//! with compiled code, and crd-codegen's reference engine implements it by
//! interpreting the schema. The order of the steps, and everything that does not
//! depend on the schema, is here, once, for both.

use crate::errors::{ErrorList, FieldError};
use crate::openapi::Res;
use serde_json::Value;

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

    /// `objectmeta.Coerce` below the root (isResourceRoot=false, dropping invalid
    /// fields): the `apiVersion`, `kind` and `metadata` of embedded resources.
    fn coerce_embedded(&self, object: &mut Value);

    /// `defaulting.Default`.
    fn default(&self, object: &mut Value);

    /// kube-openapi validation of the whole object. With `old` (an update) errors are
    /// ratcheted: a node whose value equals its correlated old value reports none.
    fn validate(&self, object: &Value, old: Option<&Value>, res: &mut Res);

    /// `objectmeta.Validate` below the root (isResourceRoot=false): embedded resources.
    fn validate_embedded(&self, object: &Value, errs: &mut ErrorList);

    /// `listtype.ValidateListSetsAndMaps`.
    fn validate_lists(&self, object: &Value, errs: &mut ErrorList);

    /// `x-kubernetes-validations` rules; `old` on update. Runs only when no blocking
    /// error came before.
    fn validate_rules(&self, _object: &Value, _old: Option<&Value>, _errs: &mut ErrorList) {}
}

/// The outcome of admitting one object.
#[derive(Clone, Debug, PartialEq)]
pub struct Admission {
    /// The object after pruning, metadata coercion and defaulting.
    pub object: Value,
    /// Paths of the unknown fields pruning removed, sorted.
    pub pruned: Vec<String>,
    /// Every validation error, in the API server's order. Empty when admitted.
    pub errors: ErrorList,
}

impl Admission {
    pub fn is_admitted(&self) -> bool {
        self.errors.is_empty()
    }
}

/// The message appended instead of running CEL rules after a blocking error.
pub const RULES_NOT_CHECKED: &str =
    "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// Admits `object` as a create request in `namespace` (used for namespaced kinds
/// whose object names none, as `kubectl` sends the current namespace).
pub fn create(schema: &dyn ResourceSchema, object: Value, namespace: &str) -> Admission {
    let _ = (schema, object, namespace);
    todo!("crd-runtime admission pipeline")
}

/// Admits `object` as an update of `old` (which is decoded, pruned and defaulted the
/// way the API server reads a stored object, but not validated).
pub fn update(schema: &dyn ResourceSchema, object: Value, old: Value, namespace: &str) -> Admission {
    let _ = (schema, object, old, namespace);
    todo!("crd-runtime admission pipeline")
}

/// The validation steps of a create on an already decoded, pruned and defaulted
/// object (used by typed `validate()` methods): type meta, object meta, schema,
/// scale, embedded resources, list sets and maps, rules.
pub fn validate_create(schema: &dyn ResourceSchema, object: &Value) -> ErrorList {
    let _ = (schema, object);
    todo!("crd-runtime admission pipeline")
}

/// The validation steps of an update from `old` (both already decoded and defaulted).
pub fn validate_update(schema: &dyn ResourceSchema, object: &Value, old: &Value) -> ErrorList {
    let _ = (schema, object, old);
    todo!("crd-runtime admission pipeline")
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
