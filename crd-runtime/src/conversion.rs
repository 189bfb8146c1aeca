//! Converting a custom resource between the versions of its kind, and the bookkeeping
//! of stored versions.
//!
//! With the `None` strategy the API server converts by rewriting `apiVersion` and
//! then reading the object with the target version's schema, which prunes what that
//! schema does not know (`nop_converter.go`, then `schemaCoercingConverter` in
//! `customresource_handler.go`). [`convert_value`] does exactly that for any
//! [`ResourceSchema`] (a generated type's or the reference engine's) and, unlike the
//! API server, says what it dropped. Generated code implements [`Convert`] between
//! every two versions of a kind with that strategy.
//!
//! With the `Webhook` strategy, conversions go through the storage version (the hub):
//! generated code maps what the versions share and calls the user's hooks for the
//! rest (the `hub` module); derived types are built field by field ([`ConvertFrom`], with
//! [`derived`] for the root). [`crate::review`] answers the API server's
//! `ConversionReview` with either.

use crate::admission::{self, ResourceSchema};
use crate::schema::{Compiled, CustomResource};
use serde_json::Value;
use std::fmt;

/// A converted object and the paths of the fields the target version's schema does
/// not have (pruned, as the API server prunes them; sorted).
#[derive(Clone, Debug, PartialEq)]
pub struct Converted<T> {
    /// The object at the target version.
    pub object: T,
    /// Paths such as `spec.size` of the data the conversion dropped; empty when the
    /// conversion lost nothing.
    pub dropped: Vec<String>,
}

impl<T> Converted<T> {
    /// The object when nothing was dropped, else an error naming what was.
    pub fn lossless(self) -> std::result::Result<T, ConversionError> {
        if self.dropped.is_empty() {
            Ok(self.object)
        } else {
            Err(ConversionError::new(format!(
                "the conversion drops {}",
                self.dropped.join(", ")
            )))
        }
    }
}

/// What a conversion returns.
pub type Result<T> = std::result::Result<Converted<T>, ConversionError>;

/// Why an object could not be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionError {
    /// What went wrong, naming the object and the versions where known.
    pub message: String,
}

impl ConversionError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ConversionError {
            message: message.into(),
        }
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConversionError {}

/// Conversion of an object of one version of a kind to another version `To` of the
/// same kind, as the API server converts it for this CRD.
///
/// ```text
/// let converted: Converted<v1::CronTab> = old.convert()?;
/// assert!(converted.dropped.is_empty());
/// ```
pub trait Convert<To> {
    /// This object at `To`'s version, with what the conversion dropped.
    fn convert(&self) -> Result<To>;
}

/// The `None` strategy on a JSON object: `apiVersion` set to `target`'s, then the
/// object read with `target`'s schema (pruned, non-nullable nulls dropped, embedded
/// resources coerced, metadata restored). The object must be of `target`'s group and
/// kind.
pub fn convert_value(target: &dyn ResourceSchema, object: Value) -> Result<Value> {
    let mut object = object;
    if !object.is_object() {
        return Err(ConversionError::new("the object to convert is not a JSON object"));
    }
    of_kind(&object, target.api_version(), target.kind())?;
    let Value::Object(map) = &mut object else {
        return Err(ConversionError::new("the object to convert is not a JSON object"));
    };
    map.insert("apiVersion".into(), Value::from(target.api_version()));
    let dropped = admission::read_converted(target, &mut object).map_err(ConversionError::new)?;
    Ok(Converted { object, dropped })
}

/// An error unless `object` is of the group of `api_version` (`group/version`) and of
/// `kind`: a conversion is between the versions of one kind, and what it is given
/// of another is refused, not converted.
fn of_kind(object: &Value, api_version: &str, kind: &str) -> std::result::Result<(), ConversionError> {
    let s = |key| object.get(key).and_then(Value::as_str).unwrap_or("");
    let (object_api_version, object_kind) = (s("apiVersion"), s("kind"));
    let group = |api_version| crate::objectmeta::parse_group_version(api_version).map(|(g, _)| g);
    if object_kind != kind || group(object_api_version) != group(api_version) {
        return Err(ConversionError::new(format!(
            "cannot convert {object_api_version:?} {object_kind:?} to {api_version} {kind}: not the same group and kind"
        )));
    }
    Ok(())
}

/// [`convert_value`] into the generated type `To`: an object of any version of `To`'s
/// kind, converted with the `None` strategy. Fails when the object does not fit `To`
/// (a field whose type changed between the versions).
pub fn convert_value_to<To: CustomResource>(object: Value) -> Result<To> {
    let (from, name) = origin(&object);
    fit(convert_value(&Compiled::<To>::new(), object)?, &from, &name)
}

/// The `apiVersion` and `metadata.name` of an object about to be converted, for
/// [`fit`]'s message.
fn origin(object: &Value) -> (String, String) {
    let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    let name = object.get("metadata").and_then(|m| m.get("name"));
    (s(object.get("apiVersion")), s(name))
}

/// A converted object read into the generated type `To`: an error when it does not
/// fit (a field whose type changed between the versions).
fn fit<To: CustomResource>(converted: Converted<Value>, from: &str, name: &str) -> Result<To> {
    let object = serde_json::from_value(converted.object).map_err(|e| {
        ConversionError::new(format!(
            "{} {name:?} converted from {from} to {} does not fit its type: {e}",
            To::KIND,
            To::API_VERSION
        ))
    })?;
    Ok(Converted {
        object,
        dropped: converted.dropped,
    })
}

/// The `None` strategy between two generated versions of one kind (what generated
/// [`Convert`] impls call).
pub fn none<From: CustomResource, To: CustomResource>(from: &From) -> Result<To> {
    let object = serde_json::to_value(from).map_err(|e| ConversionError::new(e.to_string()))?;
    convert_value_to(object)
}

/// `status.storedVersions` after the API server writes a CRD whose storage version is
/// `storage` (`PrepareForUpdate`): the storage version is appended when it is not
/// there yet. Step 1 of the seed's "Upgrade existing objects to a new stored version".
pub fn stored_versions_after_write(stored: &[String], storage: &str) -> Vec<String> {
    let mut out = stored.to_vec();
    if !out.iter().any(|v| v == storage) {
        out.push(storage.to_string());
    }
    out
}

/// `status.storedVersions` once every object has been rewritten at the storage version
/// (step 3 of the procedure): only the storage version remains. The API server refuses
/// a list without it (`must have the storage version`).
pub fn stored_versions_after_migration(storage: &str) -> Vec<String> {
    vec![storage.to_string()]
}

/// Hub-and-spoke conversions (the `Webhook` strategy), as generated code builds them:
/// the storage version is the hub; a spoke converts to and from it by copying every
/// field whose schema is the same in both versions, and filling the others with the
/// user's hooks (a trait generated per kind, whose methods are exactly those fields).
///
/// What generated code calls; not an API.
#[doc(hidden)]
pub mod hub {
    use super::{ConversionError, Converted, Result};
    use crate::admission::ResourceSchema;
    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    /// Where a conversion departs from copying the source object: the listed
    /// properties of an object are mapped (the others are copied as they are, and
    /// pruned by the target's schema when it has no place for them).
    pub enum FieldMap {
        Object(&'static [(&'static str, FieldMap)]),
        /// Every item of an array.
        Items(&'static FieldMap),
        /// Every value of a map.
        Values(&'static FieldMap),
        /// The property is the `n`th hook's result, computed from the object that holds
        /// it in the source.
        Hook(usize),
    }

    /// A user hook, wrapped: the source parent object in, the property's JSON (or
    /// nothing, when the property is to stay unset) out.
    pub type Hook = fn(&Value) -> std::result::Result<Option<Value>, ConversionError>;

    /// One spoke: its schema, and its maps and hooks to and from the hub.
    pub struct Spoke<'a> {
        pub schema: &'a dyn ResourceSchema,
        pub to_hub: (&'a FieldMap, &'a [Hook]),
        pub from_hub: (&'a FieldMap, &'a [Hook]),
    }

    /// The source parent object as the hook's argument type.
    pub fn read<T: DeserializeOwned>(parent: &Value) -> std::result::Result<T, ConversionError> {
        T::deserialize(parent)
            .map_err(|e| ConversionError::new(format!("cannot read the object for a conversion hook: {e}")))
    }

    /// A hook's result for a property that is always written.
    pub fn required<T: Serialize>(value: T) -> std::result::Result<Option<Value>, ConversionError> {
        serde_json::to_value(value)
            .map(Some)
            .map_err(|e| ConversionError::new(e.to_string()))
    }

    /// A hook's result for an optional property: `None` leaves it unset.
    pub fn optional<T: Serialize>(value: Option<T>) -> std::result::Result<Option<Value>, ConversionError> {
        value.map(required).transpose().map(Option::flatten)
    }

    /// `value` with `map` applied. An object's hooks all read it as it came, before
    /// any of its properties is replaced.
    pub fn map_fields(value: Value, map: &FieldMap, hooks: &[Hook]) -> std::result::Result<Value, ConversionError> {
        Ok(match (map, value) {
            (FieldMap::Object(properties), Value::Object(object)) => {
                let mut computed = Vec::new();
                let source = Value::Object(object);
                for (name, map) in *properties {
                    if let FieldMap::Hook(n) = map {
                        let hook = hooks.get(*n).ok_or_else(|| ConversionError::new("no such hook"))?;
                        computed.push((*name, hook(&source)?));
                    }
                }
                let Value::Object(mut object) = source else {
                    return Ok(source);
                };
                for (name, value) in computed {
                    object.remove(name);
                    if let Some(value) = value {
                        object.insert(name.to_string(), value);
                    }
                }
                for (name, map) in *properties {
                    if matches!(map, FieldMap::Hook(_)) {
                        continue;
                    }
                    if let Some(child) = object.get_mut(*name) {
                        *child = map_fields(child.take(), map, hooks)?;
                    }
                }
                Value::Object(object)
            }
            (FieldMap::Items(map), Value::Array(items)) => Value::Array(
                items
                    .into_iter()
                    .map(|item| map_fields(item, map, hooks))
                    .collect::<std::result::Result<_, _>>()?,
            ),
            (FieldMap::Values(map), Value::Object(mut values)) => {
                for value in values.values_mut() {
                    *value = map_fields(value.take(), map, hooks)?;
                }
                Value::Object(values)
            }
            // `null` (a nullable node) or a value of another type: as it is.
            (_, value) => value,
        })
    }

    /// `object` at `target`'s version: `apiVersion` set, then pruned with its schema
    /// (the pruned paths returned, sorted). The API server reads the webhook's answer
    /// with the target's schema itself (metadata included), so this is all a webhook
    /// needs to do.
    fn retarget(target: &dyn ResourceSchema, mut object: Value) -> Result<Value> {
        if let Value::Object(map) = &mut object {
            // In place when present: no new key.
            match map.get_mut("apiVersion") {
                Some(v) => *v = Value::from(target.api_version()),
                None => {
                    map.insert("apiVersion".into(), Value::from(target.api_version()));
                }
            }
        }
        let mut dropped = Vec::new();
        target.prune(&mut object, &mut dropped);
        dropped.sort();
        target.drop_nulls(&mut object);
        Ok(Converted { object, dropped })
    }

    /// A typed conversion through a kind's generated `convert_value`.
    pub fn typed<To: crate::schema::CustomResource>(
        from: &impl Serialize,
        convert: impl FnOnce(Value, &str) -> Result<Value>,
    ) -> Result<To> {
        let object = serde_json::to_value(from).map_err(|e| ConversionError::new(e.to_string()))?;
        let (from, name) = super::origin(&object);
        super::fit(convert(object, To::API_VERSION)?, &from, &name)
    }

    /// Converts `object`, at any version of the kind, to `desired` through `hub`:
    /// spoke → hub → spoke, each step mapped and then pruned with the target's schema
    /// (the pruned paths are what the conversion dropped). An object of another group
    /// or kind is refused, one already at `desired` returned as it is.
    ///
    /// `metadata` is carried across as it is, and the hooks see the object without
    /// it: a webhook may change only labels and annotations, which no field map or
    /// hook writes, and reading the metadata into `ObjectMeta` for each root-level
    /// hook would cost more than the rest of the conversion.
    pub fn via_hub(mut object: Value, desired: &str, hub: &dyn ResourceSchema, spokes: &[Spoke<'_>]) -> Result<Value> {
        super::of_kind(&object, desired, hub.kind())?;
        let metadata = object.as_object_mut().and_then(|map| map.remove_entry("metadata"));
        let mut converted = via_hub_without_metadata(object, desired, hub, spokes)?;
        if let (Some((key, metadata)), Value::Object(map)) = (metadata, &mut converted.object) {
            map.insert(key, metadata);
        }
        Ok(converted)
    }

    fn via_hub_without_metadata(
        object: Value,
        desired: &str,
        hub: &dyn ResourceSchema,
        spokes: &[Spoke<'_>],
    ) -> Result<Value> {
        let from = object.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        if from == desired {
            return Ok(Converted {
                object,
                dropped: Vec::new(),
            });
        }
        let spoke = |api_version: &str| {
            spokes
                .iter()
                .find(|s| s.schema.api_version() == api_version)
                .ok_or_else(|| {
                    let mut known: Vec<&str> = spokes.iter().map(|s| s.schema.api_version()).collect();
                    known.push(hub.api_version());
                    ConversionError::new(format!(
                        "{api_version} is not a version of {} (versions: {})",
                        hub.kind(),
                        known.join(", ")
                    ))
                })
        };
        // The source spoke, or `None` at the hub.
        let source = if from == hub.api_version() {
            None
        } else {
            Some(spoke(from)?)
        };
        let mut dropped = Vec::new();
        let at_hub = if let Some(source) = source {
            let (map, hooks) = source.to_hub;
            let converted = retarget(hub, map_fields(object, map, hooks)?)?;
            dropped = converted.dropped;
            converted.object
        } else {
            object
        };
        if desired == hub.api_version() {
            return Ok(Converted {
                object: at_hub,
                dropped,
            });
        }
        let target = spoke(desired)?;
        let (map, hooks) = target.from_hub;
        let converted = retarget(target.schema, map_fields(at_hub, map, hooks)?)?;
        dropped.extend(converted.dropped);
        Ok(Converted {
            object: converted.object,
            dropped,
        })
    }
}

/// A value of one version built from the corresponding value of another, field by
/// field: what `#[crd(convert_from = "...")]` derives for a derived type, and what the
/// values it holds implement (the same scalar types, and `Option`, `Vec`, maps and
/// `Box` of convertible types). The compiler checks the mapping: a field the source
/// does not have, or whose type does not convert, is a compile error at that field.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be built from `{From}` field by field",
    label = "the versions' types differ here",
    note = "give the field `#[crd(convert(from = \"...\", with = \"a_function\"))]` (a function from the source struct to the field's value), or derive the nested type with `#[crd(convert_from = \"...\")]`"
)]
pub trait ConvertFrom<From>: Sized {
    /// The value built from `from`.
    fn convert_from(from: &From) -> Self;
}

/// Types that convert from themselves by cloning.
macro_rules! convert_by_clone {
    ($($ty:ty),* $(,)?) => {
        $(
            impl ConvertFrom<$ty> for $ty {
                fn convert_from(from: &$ty) -> Self {
                    from.clone()
                }
            }
        )*
    };
}

convert_by_clone!(
    String,
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    f32,
    f64,
    Value,
    crate::types::IntOrString,
    crate::types::EmptyObject,
    k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition,
    k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector,
    k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement,
    k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
    k8s_openapi::apimachinery::pkg::api::resource::Quantity,
    k8s_openapi::apimachinery::pkg::util::intstr::IntOrString,
);

impl<A, B: ConvertFrom<A>> ConvertFrom<Option<A>> for Option<B> {
    fn convert_from(from: &Option<A>) -> Self {
        from.as_ref().map(B::convert_from)
    }
}

impl<A, B: ConvertFrom<A>> ConvertFrom<Vec<A>> for Vec<B> {
    fn convert_from(from: &Vec<A>) -> Self {
        from.iter().map(B::convert_from).collect()
    }
}

impl<A, B: ConvertFrom<A>> ConvertFrom<Box<A>> for Box<B> {
    fn convert_from(from: &Box<A>) -> Self {
        Box::new(B::convert_from(from))
    }
}

impl<A, B: ConvertFrom<A>> ConvertFrom<std::collections::BTreeMap<String, A>>
    for std::collections::BTreeMap<String, B>
{
    fn convert_from(from: &std::collections::BTreeMap<String, A>) -> Self {
        from.iter().map(|(k, v)| (k.clone(), B::convert_from(v))).collect()
    }
}

impl<A, B: ConvertFrom<A>> ConvertFrom<std::collections::HashMap<String, A>> for std::collections::HashMap<String, B> {
    fn convert_from(from: &std::collections::HashMap<String, A>) -> Self {
        from.iter().map(|(k, v)| (k.clone(), B::convert_from(v))).collect()
    }
}

impl ConvertFrom<crate::JsonMap> for crate::JsonMap {
    fn convert_from(from: &crate::JsonMap) -> Self {
        from.clone()
    }
}

/// A derived root converted with `build` (the field-by-field mapping the derive
/// generates): the result, and what `from` holds that `To`'s schema has no place for
/// (the source's fields the target lacks, as pruning with `To`'s schema finds them;
/// the mapping's hooks read them first).
pub fn derived<From: CustomResource, To: CustomResource>(from: &From, build: impl FnOnce(&From) -> To) -> Result<To> {
    let mut source = serde_json::to_value(from).map_err(|e| ConversionError::new(e.to_string()))?;
    if let Value::Object(map) = &mut source {
        map.insert("apiVersion".into(), Value::from(To::API_VERSION));
    }
    let mut dropped = Vec::new();
    To::prune(&mut source, &crate::errors::Path::Root, &mut dropped);
    dropped.sort();
    Ok(Converted {
        object: build(from),
        dropped,
    })
}
