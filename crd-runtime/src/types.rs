//! Value types that generated structs use.

use serde::de::{self, Deserializer, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A value of an `x-kubernetes-int-or-string: true` field.
///
/// Unlike `k8s_openapi`'s `IntOrString` (whose integer is an `i32`), the integer is an
/// `i64`: the API server accepts any integer in a custom resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntOrString {
    Int(i64),
    String(String),
}

impl Default for IntOrString {
    fn default() -> Self {
        IntOrString::Int(0)
    }
}

impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(i) => write!(f, "{i}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

impl From<i64> for IntOrString {
    fn from(i: i64) -> Self {
        IntOrString::Int(i)
    }
}

impl From<i32> for IntOrString {
    fn from(i: i32) -> Self {
        IntOrString::Int(i.into())
    }
}

impl From<&str> for IntOrString {
    fn from(s: &str) -> Self {
        IntOrString::String(s.to_string())
    }
}

impl From<String> for IntOrString {
    fn from(s: String) -> Self {
        IntOrString::String(s)
    }
}

impl From<k8s_openapi::apimachinery::pkg::util::intstr::IntOrString> for IntOrString {
    fn from(v: k8s_openapi::apimachinery::pkg::util::intstr::IntOrString) -> Self {
        match v {
            k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(i) => IntOrString::Int(i.into()),
            k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::String(s) => IntOrString::String(s),
        }
    }
}

impl Serialize for IntOrString {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            IntOrString::Int(i) => s.serialize_i64(*i),
            IntOrString::String(v) => s.serialize_str(v),
        }
    }
}

impl<'de> Deserialize<'de> for IntOrString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = IntOrString;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer or a string")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IntOrString, E> {
                Ok(IntOrString::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IntOrString, E> {
                i64::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::custom(format!("integer {v} is out of range")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<IntOrString, E> {
                // The API server accepts integral floats where an integer is expected.
                if v.fract() == 0.0 && v >= i64::MIN as f64 && v < i64::MAX as f64 {
                    Ok(IntOrString::Int(v as i64))
                } else {
                    Err(E::invalid_type(de::Unexpected::Float(v), &self))
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<IntOrString, E> {
                Ok(IntOrString::String(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<IntOrString, E> {
                Ok(IntOrString::String(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// An object whose schema names no properties: the API server prunes everything in
/// it, so it is always `{}`. Deserializing ignores whatever the input holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EmptyObject {}

impl Serialize for EmptyObject {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_map(Some(0))?.end()
    }
}

impl<'de> Deserialize<'de> for EmptyObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| EmptyObject {})
    }
}

/// `#[serde(with = "crd_runtime::nullable")]` for `Option<Option<T>>` fields of
/// `nullable: true` properties: `None` is absent, `Some(None)` is `null`.
/// Use with `default` and `skip_serializing_if = "Option::is_none"`.
pub mod nullable {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(v: &Option<Option<T>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(Some(v)) => v.serialize(s),
            _ => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(d).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Holder {
        #[serde(default, skip_serializing_if = "Option::is_none", with = "nullable")]
        n: Option<Option<String>>,
        #[serde(default)]
        e: EmptyObject,
        #[serde(skip_serializing_if = "Option::is_none")]
        i: Option<IntOrString>,
    }

    #[test]
    fn nullable_tells_absent_from_null() {
        let absent: Holder = serde_json::from_value(json!({})).unwrap();
        assert_eq!(absent.n, None);
        let null: Holder = serde_json::from_value(json!({"n": null})).unwrap();
        assert_eq!(null.n, Some(None));
        let set: Holder = serde_json::from_value(json!({"n": "x"})).unwrap();
        assert_eq!(set.n, Some(Some("x".into())));
        assert_eq!(serde_json::to_value(&absent).unwrap(), json!({"e": {}}));
        assert_eq!(serde_json::to_value(&null).unwrap(), json!({"n": null, "e": {}}));
    }

    #[test]
    fn int_or_string_and_empty_object() {
        let h: Holder = serde_json::from_value(json!({"e": {"x": 1}, "i": 5})).unwrap();
        assert_eq!(h.i, Some(IntOrString::Int(5)));
        assert_eq!(h.e, EmptyObject {});
        let h: Holder = serde_json::from_value(json!({"i": "50%"})).unwrap();
        assert_eq!(h.i, Some(IntOrString::String("50%".into())));
        assert!(serde_json::from_value::<Holder>(json!({"i": true})).is_err());
    }
}
