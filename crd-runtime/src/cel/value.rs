//! [`Val`]: a CEL value at run time (cel-go's `ref.Val` for the types the
//! Kubernetes environment has).
//!
//! Values borrow what they can: strings, bytes, lists and maps may point into JSON
//! data (with its schema) or into typed structs of generated code, so wrapping data
//! for CEL copies nothing. Values made during evaluation own their data behind an
//! `Arc`, so cloning a [`Val`] is always cheap.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use super::list::List;
use super::map::Map;
use crate::k8s_format::Format;
use crate::net::{Cidr, Ip};
use crate::quantity::Quantity;
use crate::semver::Semver;
use crate::time::{Duration, Timestamp};
use crate::url::Url;

/// A CEL value.
#[derive(Clone)]
pub enum Val<'a> {
    /// `null` (`null_type`).
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(Str<'a>),
    Bytes(Bytes<'a>),
    /// `google.protobuf.Duration`.
    Duration(Duration),
    /// `google.protobuf.Timestamp`.
    Timestamp(Timestamp),
    List(List<'a>),
    /// A map; schema objects are maps too (their run-time type is `map`, as in
    /// Kubernetes' `unstructuredMap`).
    Map(Map<'a>),
    /// `optional_type`: `optional.none()` or `optional.of(v)`.
    Optional(Option<Box<Val<'a>>>),
    /// A type value such as `int` or `google.protobuf.Timestamp` (the result of
    /// `type(x)`), by its run-time type name.
    Type(TypeVal),
    /// `kubernetes.Quantity`. The flag marks quantities made by `add` and `sub`,
    /// which Kubernetes returns by pointer: a quantity value compared with `==` to
    /// such a one answers `no such overload` (Kubernetes' `Quantity.Equal` only
    /// accepts a value).
    Quantity(Arc<Quantity>, bool),
    /// `kubernetes.URL`.
    Url(Arc<Url>),
    /// `net.IP`.
    Ip(Ip),
    /// `net.CIDR`.
    Cidr(Cidr),
    /// `kubernetes.Semver`.
    Semver(Arc<Semver>),
    /// `kubernetes.NamedFormat`.
    Format(Format),
    /// Data under `x-kubernetes-preserve-unknown-fields` without a type (Kubernetes'
    /// `unknownPreserved`): it supports equality only.
    Unknown(&'a serde_json::Value),
}

/// A string value: borrowed from the data, or shared.
#[derive(Clone)]
pub enum Str<'a> {
    Borrowed(&'a str),
    Shared(Arc<str>),
}

impl Deref for Str<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Str::Borrowed(s) => s,
            Str::Shared(s) => s,
        }
    }
}

impl PartialEq for Str<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Str<'_> {}

impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl From<String> for Str<'_> {
    fn from(s: String) -> Self {
        Str::Shared(s.into())
    }
}

impl<'a> From<&'a str> for Str<'a> {
    fn from(s: &'a str) -> Self {
        Str::Borrowed(s)
    }
}

/// A bytes value: borrowed from the data, or shared.
#[derive(Clone)]
pub enum Bytes<'a> {
    Borrowed(&'a [u8]),
    Shared(Arc<[u8]>),
}

impl Deref for Bytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(b) => b,
            Bytes::Shared(b) => b,
        }
    }
}

impl fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{:?}", crate::strings::go_quote_bytes(self))
    }
}

impl From<Vec<u8>> for Bytes<'_> {
    fn from(b: Vec<u8>) -> Self {
        Bytes::Shared(b.into())
    }
}

/// A type value: the run-time type name (cel-go compares type values by name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeVal(Cow<'static, str>);

impl TypeVal {
    /// The type named `name`.
    pub fn new(name: impl Into<Cow<'static, str>>) -> TypeVal {
        TypeVal(name.into())
    }

    /// The type name (`int`, `list`, `google.protobuf.Duration`, ...).
    pub fn name(&self) -> &str {
        &self.0
    }
}

/// Run-time type names (cel-go's `TypeName()` of each value type).
pub mod type_names {
    pub const NULL: &str = "null_type";
    pub const BOOL: &str = "bool";
    pub const INT: &str = "int";
    pub const UINT: &str = "uint";
    pub const DOUBLE: &str = "double";
    pub const STRING: &str = "string";
    pub const BYTES: &str = "bytes";
    pub const DURATION: &str = "google.protobuf.Duration";
    pub const TIMESTAMP: &str = "google.protobuf.Timestamp";
    pub const LIST: &str = "list";
    pub const MAP: &str = "map";
    pub const OPTIONAL: &str = "optional_type";
    pub const TYPE: &str = "type";
    pub const QUANTITY: &str = "kubernetes.Quantity";
    pub const URL: &str = "kubernetes.URL";
    pub const IP: &str = "net.IP";
    pub const CIDR: &str = "net.CIDR";
    pub const SEMVER: &str = "kubernetes.Semver";
    pub const FORMAT: &str = "kubernetes.NamedFormat";
    /// cel-go's `types.UnknownType`, the type Kubernetes gives preserved unknown data.
    pub const UNKNOWN: &str = "unknown";
}

impl<'a> Val<'a> {
    /// A string value that owns its text.
    pub fn string(s: impl Into<Arc<str>>) -> Val<'a> {
        Val::String(Str::Shared(s.into()))
    }

    /// A string value borrowing its text.
    pub fn str(s: &'a str) -> Val<'a> {
        Val::String(Str::Borrowed(s))
    }

    /// A bytes value that owns its data.
    pub fn bytes(b: impl Into<Arc<[u8]>>) -> Val<'a> {
        Val::Bytes(Bytes::Shared(b.into()))
    }

    /// A list of values (`x-kubernetes-list-type: atomic` semantics).
    pub fn list(items: Vec<Val<'a>>) -> Val<'a> {
        Val::List(List::new(items))
    }

    /// `optional.of(v)`.
    pub fn optional_of(v: Val<'a>) -> Val<'a> {
        Val::Optional(Some(Box::new(v)))
    }

    /// `optional.none()`.
    pub fn optional_none() -> Val<'a> {
        Val::Optional(None)
    }

    /// A type value.
    pub fn type_value(name: &'static str) -> Val<'a> {
        Val::Type(TypeVal::new(name))
    }

    /// The run-time type name (cel-go `Type().TypeName()`).
    pub fn type_name(&self) -> &str {
        use type_names as t;
        match self {
            Val::Null => t::NULL,
            Val::Bool(_) => t::BOOL,
            Val::Int(_) => t::INT,
            Val::Uint(_) => t::UINT,
            Val::Double(_) => t::DOUBLE,
            Val::String(_) => t::STRING,
            Val::Bytes(_) => t::BYTES,
            Val::Duration(_) => t::DURATION,
            Val::Timestamp(_) => t::TIMESTAMP,
            Val::List(_) => t::LIST,
            Val::Map(_) => t::MAP,
            Val::Optional(_) => t::OPTIONAL,
            Val::Type(_) => t::TYPE,
            Val::Quantity(..) => t::QUANTITY,
            Val::Url(_) => t::URL,
            Val::Ip(_) => t::IP,
            Val::Cidr(_) => t::CIDR,
            Val::Semver(_) => t::SEMVER,
            Val::Format(_) => t::FORMAT,
            Val::Unknown(_) => t::UNKNOWN,
        }
    }

    /// `type(x)`: the type value of this value.
    pub fn type_of(&self) -> TypeVal {
        TypeVal::new(Cow::Owned(self.type_name().to_string())).intern()
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Val::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if this is an `int`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The text, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::String(s) => Some(s),
            _ => None,
        }
    }

    /// The list, if this is one.
    pub fn as_list(&self) -> Option<&List<'a>> {
        match self {
            Val::List(l) => Some(l),
            _ => None,
        }
    }

    /// The map, if this is one.
    pub fn as_map(&self) -> Option<&Map<'a>> {
        match self {
            Val::Map(m) => Some(m),
            _ => None,
        }
    }

    /// Whether this is the zero value of its type (cel-go `traits.Zeroer`, for
    /// `optional.ofNonZeroValue`); values of types that are not `Zeroer`s are never
    /// zero: optionals, types, Kubernetes' values, and lists and maps of data
    /// (Kubernetes' `unstructuredList` / `unstructuredMap` are not `Zeroer`s).
    pub fn is_zero_value(&self) -> bool {
        match self {
            Val::Null => true,
            Val::Bool(b) => !b,
            Val::Int(i) => *i == 0,
            Val::Uint(u) => *u == 0,
            Val::Double(d) => *d == 0.0,
            Val::String(s) => s.is_empty(),
            Val::Bytes(b) => b.is_empty(),
            Val::Duration(d) => d.nanos() == 0,
            // Go's zero `time.Time` (cel-go `Timestamp.IsZeroValue` is `IsZero()`).
            Val::Timestamp(t) => t.unix_seconds() == -62_135_596_800 && t.subsec_nanos() == 0,
            Val::List(l) => !l.is_data() && l.is_empty(),
            Val::Map(m) => !m.is_data() && m.is_empty(),
            _ => false,
        }
    }
}

impl TypeVal {
    /// The same type with a `'static` name when it is a known one.
    fn intern(self) -> TypeVal {
        use type_names as t;
        const KNOWN: [&str; 20] = [
            t::NULL,
            t::BOOL,
            t::INT,
            t::UINT,
            t::DOUBLE,
            t::STRING,
            t::BYTES,
            t::DURATION,
            t::TIMESTAMP,
            t::LIST,
            t::MAP,
            t::OPTIONAL,
            t::TYPE,
            t::QUANTITY,
            t::URL,
            t::IP,
            t::CIDR,
            t::SEMVER,
            t::FORMAT,
            t::UNKNOWN,
        ];
        match KNOWN.iter().find(|k| **k == self.0) {
            Some(k) => TypeVal(Cow::Borrowed(k)),
            None => self,
        }
    }
}

impl fmt::Debug for Val<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Null => f.write_str("null"),
            Val::Bool(b) => write!(f, "{b}"),
            Val::Int(i) => write!(f, "{i}"),
            Val::Uint(u) => write!(f, "{u}u"),
            Val::Double(d) => write!(f, "{d:?}"),
            Val::String(s) => write!(f, "{s:?}"),
            Val::Bytes(b) => write!(f, "{b:?}"),
            Val::Duration(d) => write!(f, "duration({:?})", d.to_string()),
            Val::Timestamp(t) => write!(f, "timestamp({:?})", t.to_string()),
            Val::List(l) => {
                f.write_str("[")?;
                for (i, v) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match v {
                        Ok(v) => write!(f, "{v:?}")?,
                        Err(e) => write!(f, "<error: {e}>")?,
                    }
                }
                f.write_str("]")
            }
            Val::Map(m) => {
                f.write_str("{")?;
                for (i, k) in m.keys().into_iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k:?}: ")?;
                    match m.get(&k) {
                        Some(Ok(v)) => write!(f, "{v:?}")?,
                        Some(Err(e)) => write!(f, "<error: {e}>")?,
                        None => f.write_str("<absent>")?,
                    }
                }
                f.write_str("}")
            }
            Val::Optional(None) => f.write_str("optional.none()"),
            Val::Optional(Some(v)) => write!(f, "optional.of({v:?})"),
            Val::Type(t) => f.write_str(t.name()),
            Val::Quantity(q, _) => write!(f, "quantity({:?})", q.to_string()),
            Val::Url(u) => write!(f, "url({:?})", u.to_string()),
            Val::Ip(ip) => write!(f, "ip({:?})", ip.to_string()),
            Val::Cidr(c) => write!(f, "cidr({:?})", c.to_string()),
            Val::Semver(s) => write!(f, "semver({:?})", s.to_string()),
            Val::Format(fm) => write!(f, "format.{}()", fm.name()),
            Val::Unknown(v) => write!(f, "unknown({v})"),
        }
    }
}
