//! How a derived type reaches the schema and admission of its field types.
//!
//! A derive sees the fields' types by name only. A field type may derive our schema
//! ([`CrdSchema`]: its admission compiled, as the derive wrote it) or only `schemars`'
//! `JsonSchema` (a nested type written for kube-derive, a type of another crate):
//! then its schema is known only at run time, and its admission interprets that
//! schema ([`crate::interpreted`]). For each field type the derive writes a small
//! adapter type whose `CrdSchema` and `ObjectSchema` impls call one of the two, chosen
//! where the field type is named: `(&Probe::<T>::NEW).shape()` finds [`Compiled`]'s
//! method when `T: CrdSchema` (it takes `Probe<T>` by reference, the first receiver
//! tried), else [`Interpreted`]'s (it takes `&Probe<T>` by reference, tried next).
//! Rust has no specialization; method resolution gives the same choice for a named
//! type.

use crate::compiled::StaticSchema;
use crate::derived::CrdSchema;
use crate::errors::{ErrorList, FieldError, Path};
use crate::objectmeta::Coercion;
use crate::rules::{Budget, Findings, Flow, TypedRatchet};
use crate::schema::ObjectSchema;
use crate::shape::Shape;
use serde_json::Value;
use std::marker::PhantomData;

/// Stands for the field type `T` in method calls that choose its implementation:
/// `(&Probe::<T>::NEW).method()` is `T`'s own `CrdSchema` when it has one, else its
/// `JsonSchema` interpreted (controller-gen's conventions: crd-runtime's own schemas
/// of k8s-openapi types are controller-gen's).
pub struct Probe<T: ?Sized>(PhantomData<fn() -> T>);

impl<T: ?Sized> Probe<T> {
    pub const NEW: Probe<T> = Probe(PhantomData);
}

/// [`Probe`] in kube-derive's conventions: `(&&KubeProbe::<T>::NEW).method()` is a
/// type's own `CrdSchema` when it derives it in those conventions ([`KubeConvention`]),
/// else its `JsonSchema` (what kube-derive uses, k8s-openapi's types included), else
/// its `CrdSchema`.
pub struct KubeProbe<T: ?Sized>(PhantomData<fn() -> T>);

impl<T: ?Sized> KubeProbe<T> {
    pub const NEW: KubeProbe<T> = KubeProbe(PhantomData);
}

/// A derived type whose schema follows kube-derive's conventions (`#[derive(KubeSchema)]`,
/// a `#[kube(...)]` spec): its own impls are the ones kube-derive's users expect.
pub trait KubeConvention {}

/// A type whose schema is its own `JsonSchema`'s though it derives ours: in kube-derive's
/// conventions, an enum no structural schema holds (kube-derive's `crd()` panics on it,
/// and so does ours, with its message).
pub struct OwnJsonSchema<T: ?Sized>(PhantomData<fn() -> T>);

impl<T: ?Sized> OwnJsonSchema<T> {
    pub const NEW: OwnJsonSchema<T> = OwnJsonSchema(PhantomData);
}

/// Stands for a field's whole type (its `Option` included) in kube-derive's
/// conventions: `(&Publish::<T>::NEW).published(doc, optional)` is the node schemars
/// and kube-derive write for the property when `T` has a `JsonSchema`, else `null`
/// (the node is then the field type's schema with the field's keywords laid over it).
pub struct Publish<T: ?Sized>(PhantomData<fn() -> T>);

impl<T: ?Sized> Publish<T> {
    pub const NEW: Publish<T> = Publish(PhantomData);
}

/// See [`Publish`].
pub trait Published {
    fn published(&self, doc: Option<&str>, optional: bool) -> Value;
}

/// See [`Publish`].
pub trait Unpublished {
    fn published(&self, doc: Option<&str>, optional: bool) -> Value;
}

impl<T: ?Sized> Unpublished for &Publish<T> {
    fn published(&self, _doc: Option<&str>, _optional: bool) -> Value {
        Value::Null
    }
}

#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema + ?Sized> Published for Publish<T> {
    fn published(&self, doc: Option<&str>, optional: bool) -> Value {
        crate::from_schemars::property_for::<T>(doc, optional)
    }
}

/// A field whose schema schemars writes (it carries `#[schemars]`, `#[validate]` or
/// `#[garde]` attributes): `S` is a one-field struct deriving `JsonSchema` holding it,
/// the field's schema its property's.
pub struct Shadow<S: ?Sized>(PhantomData<fn() -> S>);

impl<S: ?Sized> Shadow<S> {
    pub const NEW: Shadow<S> = Shadow(PhantomData);
}

/// What a derived type asks of a field type: the methods of `CrdSchema` and
/// `ObjectSchema` a derived type's own impls call, as function pointers.
pub struct FieldImpls {
    pub crd_schema: fn() -> Value,
    pub static_schema: fn() -> &'static StaticSchema,
    pub has_rules: fn() -> bool,
    pub shape: fn() -> &'static Shape,
    pub coerce_embedded: fn(&mut Value, &Path, &mut Coercion) -> Result<(), FieldError>,
    pub validate_embedded: fn(&Value, &Path, &mut ErrorList),
    pub walk_rules:
        for<'a> fn(&'a Value, Option<&'a Value>, &Path, TypedRatchet<'_>, &mut Budget, &mut Findings) -> Flow,
}

/// A field type's impls, when it has its own (see the module documentation).
pub trait Compiled {
    fn impls(&self) -> &'static FieldImpls;
}

/// A field type's impls interpreted from its schemars schema.
pub trait Interpreted {
    fn impls(&self) -> &'static FieldImpls;
}

fn static_schema_of<T: CrdSchema>() -> &'static StaticSchema {
    const { &T::STATIC_SCHEMA }
}

/// `Compiled` for a receiver whose type is `T`'s own impls.
macro_rules! compiled {
    ($receiver:ty, $($bounds:tt)*) => {
        impl<T: $($bounds)*> Compiled for $receiver {
            fn impls(&self) -> &'static FieldImpls {
                const {
                    &FieldImpls {
                        crd_schema: T::crd_schema,
                        static_schema: static_schema_of::<T>,
                        has_rules: <T as CrdSchema>::has_rules,
                        shape: T::shape,
                        coerce_embedded: T::coerce_embedded,
                        validate_embedded: T::validate_embedded,
                        walk_rules: T::walk_rules,
                    }
                }
            }
        }
    };
}

compiled!(Probe<T>, CrdSchema + ObjectSchema);
compiled!(&KubeProbe<T>, CrdSchema + ObjectSchema + KubeConvention);
compiled!(KubeProbe<T>, CrdSchema + ObjectSchema);

#[cfg(feature = "schemars")]
mod interpreted {
    use super::*;
    use crate::interpreted::Interpreted as Built;
    use std::any::TypeId;
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};

    /// The built schema of `T` (with `shadow`, of its one property), once per type.
    fn built<T: schemars::JsonSchema + ?Sized + 'static>(shadow: bool) -> &'static Built {
        static BUILT: OnceLock<Mutex<HashMap<TypeId, &'static Built>>> = OnceLock::new();
        let map = BUILT.get_or_init(Default::default);
        let id = TypeId::of::<T>();
        if let Some(built) = map.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
            return built;
        }
        // Built without the lock: a schema may hold derived types whose own schema
        // names other interpreted ones.
        let mut schema = crate::from_schemars::schema_for::<T>();
        if shadow {
            schema = schema
                .get("properties")
                .and_then(Value::as_object)
                .and_then(|p| p.values().next().cloned())
                .unwrap_or(Value::Null);
        }
        let built: &'static Built = Box::leak(Box::new(Built::build(schema)));
        map.lock().unwrap_or_else(|e| e.into_inner()).entry(id).or_insert(built)
    }

    /// The impls of a type whose schema is built from `T`'s schemars schema (with
    /// `$shadow`, from its one property; `$crd_schema` gives its schema in a CRD).
    macro_rules! interpreted {
        ($receiver:ty, $shadow:expr) => {
            interpreted!($receiver, $shadow, || built::<T>($shadow).schema.clone());
        };
        ($receiver:ty, $shadow:expr, $crd_schema:expr) => {
            impl<T: schemars::JsonSchema + ?Sized + 'static> super::Interpreted for $receiver {
                fn impls(&self) -> &'static FieldImpls {
                    const {
                        &FieldImpls {
                            crd_schema: $crd_schema,
                            static_schema: || built::<T>($shadow).static_schema,
                            has_rules: || !built::<T>($shadow).rules_at.is_empty(),
                            shape: || built::<T>($shadow).shape,
                            coerce_embedded: |value, path, cx| coerce_embedded(built::<T>($shadow), value, path, cx),
                            validate_embedded: |value, path, errs| {
                                validate_embedded(built::<T>($shadow), value, path, errs)
                            },
                            walk_rules: |_, _, path, _, _, out| {
                                unsupported_rules(built::<T>($shadow), std::any::type_name::<T>(), path, out);
                                Ok(())
                            },
                        }
                    }
                }
            }
        };
    }

    interpreted!(&Probe<T>, false);
    interpreted!(&&KubeProbe<T>, false);
    interpreted!(Shadow<T>, true);
    interpreted!(OwnJsonSchema<T>, false, crate::from_schemars::crd_schema_for::<T>);

    fn coerce_embedded(built: &Built, value: &mut Value, path: &Path, cx: &mut Coercion) -> Result<(), FieldError> {
        if built.has_embedded {
            crate::interpreted::coerce_embedded(built.shape, value, path, cx)?;
        }
        Ok(())
    }

    fn validate_embedded(built: &Built, value: &Value, path: &Path, errs: &mut ErrorList) {
        if built.has_embedded {
            crate::interpreted::validate_embedded(built.shape, value, path, errs);
        }
    }

    /// Rules are compiled from what a derive sees; a schema built at run time has none
    /// to run. Refused rather than skipped.
    fn unsupported_rules(built: &Built, type_name: &str, path: &Path, out: &mut Findings) {
        if let Some(at) = built.rules_at.first() {
            out.errors.push(FieldError::invalid(
                path.to_field_string(),
                Value::String(built.static_schema.type_.to_string()),
                format!(
                    "rule compiler initialization error: the rules at `{}` come from `{type_name}`'s `JsonSchema`, \
                     which is not compiled: derive `KubeSchema` or `CrdSchema` for it",
                    if at.is_empty() { "." } else { at },
                ),
            ));
        }
    }
}
