//! The per-type half of admission: what generated code implements per object type,
//! and the small helpers it calls where a step does not depend on the schema.
//!
//! Each generated object type implements [`ObjectSchema`]: its schema as static data
//! ([`ObjectSchema::shape`]), which [`crate::shape`] walks for the API server's
//! per-node algorithms (prune, drop nulls, default, validate, ratchet equality,
//! list-type validation), and the embedded-resource steps (coerce and validate
//! embedded metadata) as code where the schema has embedded resources. Root types
//! implement [`CustomResource`], which plugs them into the shared pipeline in
//! [`crate::admission`].

use crate::admission::{self, Admission, ResourceSchema, ScalePaths};
use crate::errors::{ErrorList, FieldError, InvalidObject, Path};
use crate::openapi::{GoValue, Res, go_deep_equal};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::marker::PhantomData;

/// The admission steps of one generated object type, over JSON values.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no CRD schema",
    label = "this field's type needs a schema",
    note = "add `#[derive(CrdSchema)]` to `{Self}` (from `crd_derive`), or use a type with a known schema",
    note = "k8s-openapi's core/v1 types (`Container`, `PodSpec`, ...) have one with crd-runtime's `core-v1` feature"
)]
pub trait ObjectSchema {
    /// The type's schema as static data, which the table-driven steps below walk.
    fn shape() -> &'static crate::shape::Shape;
    /// `prune` at a node of this type, dropping non-nullable nulls without defaults
    /// (`PruneNonNullableNullsWithoutDefaults`) in the same pass: both decide per key
    /// from the key's schema alone, so one pass gives what the API server's two give.
    fn prune(value: &mut Value, path: &Path, pruned: &mut Vec<String>) {
        crate::shape::prune(Self::shape(), value, path, pruned)
    }
    /// `objectmeta.Coerce` of embedded resources at or below a node of this type: with
    /// `drop_invalid`, malformed meta fields are dropped; without, the first error is
    /// returned (the request decoder's strict mode).
    fn coerce_embedded(
        _value: &mut Value,
        _path: &Path,
        _cx: &mut crate::objectmeta::Coercion,
    ) -> Result<(), FieldError> {
        Ok(())
    }
    /// `Default` at a node of this type.
    fn default_value(value: &mut Value) {
        crate::shape::default(Self::shape(), value)
    }
    /// OpenAPI validation of a node of this type; `old` is the correlated old value on
    /// update (ratcheting), `None` on create or when nothing correlates. Returns
    /// whether the value passed the fast check ([`ObjectSchema::is_valid`]): then
    /// nothing was found, and [`ObjectSchema::validate_lists`] finds nothing either.
    fn validate_value(value: &Value, old: Option<&Value>, path: &Path, res: &mut Res) -> bool {
        crate::shape::validate(Self::shape(), value, old, path, res)
    }
    /// Whether [`ObjectSchema::validate_value`] and [`ObjectSchema::validate_lists`]
    /// would find nothing (without ratcheting): a fast check for the common, valid
    /// case.
    fn is_valid(value: &Value) -> bool {
        crate::shape::is_valid(Self::shape(), value)
    }
    /// `CorrelatedObject.CachedDeepEqual` for a node of this type.
    fn ratchet_equal(value: &Value, old: &Value) -> bool {
        crate::shape::ratchet_equal(Self::shape(), value, old)
    }
    /// `objectmeta.Validate` at or below a node of this type.
    fn validate_embedded(_value: &Value, _path: &Path, _errs: &mut ErrorList) {}
    /// `listtype.ValidateListSetsAndMaps` below a node of this type.
    fn validate_lists(value: &Value, path: &Path, errs: &mut ErrorList) {
        crate::shape::validate_lists(Self::shape(), value, path, errs)
    }
    /// The `x-kubernetes-validations` rules at and below a node of this type (`value`
    /// not `null`). Derived types implement it; a generated module's walk functions
    /// call each other directly instead.
    fn walk_rules(
        _value: &Value,
        _old: Option<&Value>,
        _path: &Path,
        _ratchet: crate::rules::TypedRatchet<'_>,
        _budget: &mut crate::rules::Budget,
        _out: &mut crate::rules::Findings,
    ) -> crate::rules::Flow {
        Ok(())
    }
}

/// A generated root type: a kind and version with its schema compiled in.
pub trait CustomResource: ObjectSchema + k8s_openapi::Resource + Serialize + DeserializeOwned {
    const NAMESPACED: bool;
    const SCALE: Option<ScalePaths<'static>>;
    /// Whether the version has the `status` subresource.
    const STATUS: bool;
    /// Whether any schema node has `x-kubernetes-validations` rules.
    fn has_rules() -> bool {
        false
    }
    /// The version's `additionalPrinterColumns`, as written (see
    /// [`crate::table::served`] for what the API server serves when there are none).
    const PRINTER_COLUMNS: &'static [crate::table::PrinterColumn<'static>] = &[];

    /// OpenAPI validation of the object's `status` alone (at `status`, ratcheted
    /// against `old`'s), as the status subresource validates an update. Nothing for roots
    /// whose schema has no `status` property.
    fn validate_status(object: &Value, old: Option<&Value>, res: &mut Res) {
        crate::shape::validate_status(Self::shape(), object, old, res)
    }

    /// `x-kubernetes-validations` of the whole object (compiled CEL); `old` on update.
    /// Ratcheted failures go to `warnings` (see [`crate::rules`]).
    fn validate_rules(_object: &Value, _old: Option<&Value>) -> crate::rules::Findings {
        crate::rules::Findings::default()
    }

    /// The create pipeline on a JSON object (as the API server admits a request in
    /// `namespace`): the admitted object, the pruned paths and every error.
    fn admit_value(object: Value, namespace: &str) -> Admission {
        admission::create(&Compiled::<Self>::new(), object, namespace)
    }

    /// [`CustomResource::admit_value`] on a request body as the API server receives
    /// it: keys the JSON repeats are kept in `duplicate_fields`, for
    /// [`Admission::with_field_validation`] ([`admission::create_json`]).
    fn admit_json(body: &[u8], namespace: &str) -> Admission {
        admission::create_json(&Compiled::<Self>::new(), body, namespace)
    }

    /// The update pipeline against the stored `old` object.
    fn admit_update_value(object: Value, old: Value, namespace: &str) -> Admission {
        admission::update(&Compiled::<Self>::new(), object, old, namespace)
    }

    /// The update pipeline of the status subresource (`PUT .../status`) against the
    /// stored `old` object: only the request's `status` is kept, and only it is
    /// validated against its schema ([`admission::update_status`]).
    fn admit_status_update_value(object: Value, old: Value, namespace: &str) -> Admission {
        admission::update_status(&Compiled::<Self>::new(), object, old, namespace)
    }

    /// Validates this object as the API server would on create (type meta, metadata,
    /// schema, scale, embedded resources, list sets and maps, rules), without pruning
    /// or defaulting it first. A `null` where the schema does not allow one is dropped
    /// first, as the API server drops it when it reads the request: a derived type's
    /// `Option` field that is `None` serializes as `null` (unless the field skips it).
    ///
    /// A namespaced object without `metadata.namespace` is validated in the namespace
    /// `default`, as `kubectl` and `crdgen validate` send it (the API server takes the
    /// namespace from the request).
    fn validate(&self) -> Result<(), InvalidObject> {
        let object = request_value::<Self>(self);
        let errors = admission::validate_create(&Compiled::<Self>::new(), &object);
        into_result(self, errors)
    }

    /// [`CustomResource::validate`] for an update from `old`: transition rules run
    /// and unchanged invalid values are ratcheted.
    fn validate_update(&self, old: &Self) -> Result<(), InvalidObject> {
        let object = request_value::<Self>(self);
        let errors = admission::validate_update(&Compiled::<Self>::new(), &object, &request_value::<Self>(old));
        into_result(self, errors)
    }

    /// This object's row in `kubectl get` (its name, then the printer columns), with
    /// `date` columns as ages from now.
    fn printer_row(&self) -> Result<Vec<crate::table::Cell>, crate::table::ColumnError> {
        let columns = crate::table::served(Self::PRINTER_COLUMNS);
        crate::table::row(columns, &to_value(self), std::time::SystemTime::now())
    }

    /// `objects` as `kubectl get` prints them (`-o wide` with `wide`).
    fn print_table(objects: &[Self], wide: bool) -> Result<String, crate::table::ColumnError> {
        let values: Vec<Value> = objects.iter().map(to_value).collect();
        let columns = crate::table::served(Self::PRINTER_COLUMNS);
        crate::table::print(columns, &values, wide, std::time::SystemTime::now())
    }

    /// The object's `autoscaling/v1` Scale, as `GET .../scale` returns it; an error
    /// when the version has no scale subresource (404) or its fields do not read
    /// ([`crate::scale::get`]).
    fn scale(&self) -> Result<k8s_openapi::api::autoscaling::v1::Scale, crate::scale::ScaleError> {
        crate::scale::get(&scale_paths::<Self>()?, &to_value(self))
    }

    /// `kubectl scale --replicas=N`: the spec replicas set as the scale subresource
    /// sets them ([`crate::scale::update`]). The result still has to pass the update's
    /// validation (`validate_update` against the object before).
    fn scale_to(&self, replicas: i32) -> Result<Self, crate::scale::ScaleError> {
        let paths = scale_paths::<Self>()?;
        let object = to_value(self);
        let mut scale = crate::scale::current(&paths, &object)?;
        scale.spec = Some(k8s_openapi::api::autoscaling::v1::ScaleSpec {
            replicas: Some(replicas),
        });
        let updated = crate::scale::update(&paths, &object, &scale)?;
        serde_json::from_value(updated).map_err(|e| crate::scale::ScaleError {
            code: 422,
            message: format!("the scaled object does not fit its type: {e}"),
        })
    }

    /// Applies the schema's defaults, as the API server does when it decodes a request.
    fn apply_defaults(&mut self) {
        let mut object = to_value(self);
        Self::default_value(&mut object);
        if let Ok(defaulted) = serde_json::from_value(object) {
            *self = defaulted;
        }
    }
}

/// A generated kind, for dispatching on `apiVersion` and `kind` (every generated
/// source has a `RESOURCES` table of them).
#[derive(Clone, Copy)]
pub struct Resource {
    pub api_version: &'static str,
    pub kind: &'static str,
    /// [`CustomResource::admit_value`].
    pub admit: fn(Value, &str) -> Admission,
    /// [`CustomResource::admit_update_value`].
    pub admit_update: fn(Value, Value, &str) -> Admission,
    /// [`CustomResource::admit_status_update_value`].
    pub admit_status_update: fn(Value, Value, &str) -> Admission,
    /// [`ObjectSchema::is_valid`]: whether the version's OpenAPI schema finds nothing
    /// wrong with an object.
    pub is_valid: fn(&Value) -> bool,
    /// An object of any version of this kind converted to this version with the
    /// `None` strategy ([`crate::conversion::convert_value`]).
    pub convert: fn(Value) -> crate::conversion::Result<Value>,
    /// [`CustomResource::PRINTER_COLUMNS`].
    pub printer_columns: &'static [crate::table::PrinterColumn<'static>],
    /// [`CustomResource::SCALE`].
    pub scale: Option<ScalePaths<'static>>,
}

impl Resource {
    pub const fn of<T: CustomResource>() -> Resource {
        Resource {
            api_version: T::API_VERSION,
            kind: T::KIND,
            admit: T::admit_value,
            admit_update: T::admit_update_value,
            admit_status_update: T::admit_status_update_value,
            is_valid: T::is_valid,
            convert: |object| crate::conversion::convert_value(&Compiled::<T>::new(), object),
            printer_columns: T::PRINTER_COLUMNS,
            scale: T::SCALE,
        }
    }

    /// The entry for an object's `apiVersion` and `kind`.
    pub fn find<'a>(resources: &'a [Resource], api_version: &str, kind: &str) -> Option<&'a Resource> {
        resources
            .iter()
            .find(|r| r.api_version == api_version && r.kind == kind)
    }
}

impl std::fmt::Debug for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Resource({}, {})", self.api_version, self.kind)
    }
}

/// The object as the API server reads a request of it: in the namespace `default`
/// when it is namespaced and names none, without the `null`s its schema does not
/// allow.
fn request_value<T: CustomResource>(t: &T) -> Value {
    let mut object = to_value(t);
    // The API server's decoding prunes and drops those nulls in one step, as
    // `prune` does here. A typed value has no field its schema does not know (an
    // untyped one is kept as it is), so nothing else is dropped.
    T::prune(&mut object, &Path::Root, &mut Vec::new());
    if T::NAMESPACED
        && let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut)
        && meta
            .get("namespace")
            .is_none_or(|n| n.as_str().is_none_or(str::is_empty))
    {
        meta.insert("namespace".into(), Value::from("default"));
    }
    object
}

/// The kind's scale subresource paths; without the subresource, the API server's 404.
fn scale_paths<T: CustomResource>() -> Result<ScalePaths<'static>, crate::scale::ScaleError> {
    T::SCALE.ok_or_else(|| crate::scale::ScaleError {
        code: 404,
        message: "the server could not find the requested resource".into(),
    })
}

fn to_value<T: Serialize>(t: &T) -> Value {
    // Generated types serialize to JSON objects and never fail.
    serde_json::to_value(t).unwrap_or(Value::Null)
}

fn into_result<T: CustomResource>(t: &T, errors: ErrorList) -> Result<(), InvalidObject> {
    if errors.is_empty() {
        return Ok(());
    }
    let name = to_value(t)
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    Err(InvalidObject {
        kind: T::KIND.to_string(),
        name,
        errors,
    })
}

/// A generated root type as a [`ResourceSchema`] for the shared pipeline.
pub struct Compiled<T>(PhantomData<T>);

impl<T> Compiled<T> {
    pub const fn new() -> Self {
        Compiled(PhantomData)
    }
}

impl<T> Default for Compiled<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: CustomResource> ResourceSchema for Compiled<T> {
    fn api_version(&self) -> &str {
        T::API_VERSION
    }

    fn kind(&self) -> &str {
        T::KIND
    }

    fn namespaced(&self) -> bool {
        T::NAMESPACED
    }

    fn scale(&self) -> Option<ScalePaths<'_>> {
        T::SCALE
    }

    fn prune(&self, object: &mut Value, pruned: &mut Vec<String>) {
        T::prune(object, &Path::Root, pruned);
    }

    fn drop_nulls(&self, _object: &mut Value) {
        // Done by `prune` (see `ObjectSchema::prune`).
    }

    fn coerce_embedded(&self, object: &mut Value, cx: &mut crate::objectmeta::Coercion) -> Result<(), FieldError> {
        T::coerce_embedded(object, &Path::Root, cx)
    }

    fn has_rules(&self) -> bool {
        T::has_rules()
    }

    fn status_subresource(&self) -> bool {
        T::STATUS
    }

    fn default(&self, object: &mut Value) {
        T::default_value(object);
    }

    fn validate(&self, object: &Value, old: Option<&Value>, res: &mut Res) -> bool {
        T::validate_value(object, old, &Path::Root, res)
    }

    fn validate_status(&self, object: &Value, old: Option<&Value>, res: &mut Res) {
        T::validate_status(object, old, res);
    }

    fn validate_embedded(&self, object: &Value, errs: &mut ErrorList) {
        T::validate_embedded(object, &Path::Root, errs);
    }

    fn validate_lists(&self, object: &Value, errs: &mut ErrorList) {
        T::validate_lists(object, &Path::Root, errs);
    }

    fn validate_rules(&self, object: &Value, old: Option<&Value>) -> crate::rules::Findings {
        T::validate_rules(object, old)
    }
}

// ---- helpers of the per-type steps ----

/// Records a pruned field (`spec.items[1].b`; no leading dot at the root).
pub fn record_pruned(pruned: &mut Vec<String>, path: &Path, key: &str) {
    pruned.push(path.field(key).to_openapi_string());
}

/// `prune(x, nil)`: every key of every object below is unknown.
pub fn prune_all(value: &mut Value, path: &Path, pruned: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for key in map.keys() {
                record_pruned(pruned, path, key);
            }
            map.clear();
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                prune_all(item, &path.index(i), pruned);
            }
        }
        _ => {}
    }
}

/// `prune` of an array whose schema has no `items` (the node is not an array type).
pub fn prune_items_unknown(items: &mut [Value], path: &Path, pruned: &mut Vec<String>) {
    for (i, item) in items.iter_mut().enumerate() {
        prune_all(item, &path.index(i), pruned);
    }
}

/// `CachedDeepEqual` at a node without properties, `additionalProperties` or `items`:
/// scalars compare with Go's `DeepEqual`, arrays as a whole, objects are equal only
/// when both are empty (no key correlates).
#[inline]
pub fn leaf_equal(value: &Value, old: &Value) -> bool {
    match (GoValue::of(value), GoValue::of(old)) {
        (GoValue::Object(n), GoValue::Object(o)) => n.is_empty() && o.is_empty(),
        (GoValue::Object(_), _) | (_, GoValue::Object(_)) => false,
        _ => go_deep_equal(value, old),
    }
}

/// `CachedDeepEqual` of two objects whose keys `child` compares (it returns false for
/// keys the schema does not know); anything else compares as a leaf. (Compiled rules'
/// ratcheting of nodes written inline.)
#[inline]
pub fn fields_equal(value: &Value, old: &Value, child: &dyn Fn(&str, &Value, &Value) -> bool) -> bool {
    match (value, old) {
        (Value::Object(n), Value::Object(o)) => {
            n.len() == o.len()
                && n.iter()
                    .all(|(key, nv)| o.get(key).is_some_and(|ov| child(key, nv, ov)))
        }
        _ => leaf_equal(value, old),
    }
}

/// The correlated old value of an object's property or map key.
#[inline]
pub fn old_field<'a>(old: Option<&'a Value>, key: &str) -> Option<&'a Value> {
    old?.as_object()?.get(key)
}
