//! What generated `Deserialize` and `Serialize` impls call.
//!
//! serde's derive writes, for every struct, a field-name enum with its own visitor and
//! `Deserialize` impl, a `visit_seq` (structs read from arrays, which no Kubernetes
//! object is) and a `visit_map`; for every enum the same again. Generated code lands
//! in the user's crate and is type- and borrow-checked there on every clean build, and
//! these impls were its largest part (issue 10). Here the parts that do not depend on
//! the type are written once: the visitor ([`deserialize_struct`] over [`FromMap`]), the
//! reading of a key into a field's position ([`Fields::next_field`]), duplicate and
//! missing fields, and a string enum's variants ([`unit_variant`]). What is left in
//! generated code is one `from_map` per struct: a slot per field and a `match` on the
//! field's position. Writing is a map entry per field through [`Entries`], which keeps
//! the first error, so that a field costs one call and no `?`.
//!
//! Behaviour is serde's derive's for what JSON and YAML hold: the same errors
//! (`missing field`, `duplicate field`, `unknown variant`, with serde's own messages),
//! unknown fields ignored (or kept, for `x-kubernetes-preserve-unknown-fields`), a
//! missing `Option` field `None`. What is dropped: a struct read from a sequence of
//! its fields in order, a form no Kubernetes object has.

use serde::de::{self, DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

/// A generated struct, read from a map by [`deserialize_struct`].
pub trait FromMap<'de>: Sized {
    /// The type's name, for "expected struct ..." in errors.
    const NAME: &'static str;
    /// The JSON names of its fields; a key's position here is what
    /// [`Fields::next_field`] returns.
    const FIELDS: &'static [&'static str];

    fn from_map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// The body of a generated struct's `Deserialize::deserialize`.
pub fn deserialize_struct<'de, T: FromMap<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_struct(T::NAME, T::FIELDS, StructVisitor(PhantomData))
}

struct StructVisitor<T>(PhantomData<T>);

impl<'de, T: FromMap<'de>> Visitor<'de> for StructVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "struct {}", T::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::from_map(map)
    }
}

/// A map being read into a struct's fields: the keys as positions in the field list.
pub struct Fields<A> {
    map: A,
    names: &'static [&'static str],
    /// The position of the last key read (`names.len()` for another key).
    at: usize,
    /// Whether keys not in `names` are kept (read into `other`) rather than skipped.
    keep_other: bool,
    other: Option<String>,
}

impl<'de, A: MapAccess<'de>> Fields<A> {
    /// `map`, whose keys are looked up in `names` (the struct's `FIELDS`).
    pub fn new(map: A, names: &'static [&'static str]) -> Self {
        Fields {
            map,
            names,
            at: 0,
            keep_other: false,
            other: None,
        }
    }

    /// [`Fields::new`] for a struct that keeps unknown fields ([`Fields::other`]).
    pub fn keeping_others(map: A, names: &'static [&'static str]) -> Self {
        Fields {
            keep_other: true,
            ..Fields::new(map, names)
        }
    }

    /// The next key's position in the field list (the list's length for a key not in
    /// it), or `None` at the end of the map.
    pub fn next_field(&mut self) -> Result<Option<usize>, A::Error> {
        let seed = KeySeed {
            names: self.names,
            keep_other: self.keep_other,
        };
        Ok(match self.map.next_key_seed(seed)? {
            None => None,
            Some(Key::Field(i)) => {
                self.at = i;
                Some(i)
            }
            Some(Key::Other(name)) => {
                self.at = self.names.len();
                self.other = name;
                Some(self.names.len())
            }
        })
    }

    /// Reads the value of the field just read into `slot`; a field given twice is an
    /// error, as with serde's derive.
    pub fn value<T: de::Deserialize<'de>>(&mut self, slot: &mut Option<T>) -> Result<(), A::Error> {
        if slot.is_some() {
            let name = self.names.get(self.at).copied().unwrap_or("");
            return Err(A::Error::duplicate_field(name));
        }
        *slot = Some(self.map.next_value()?);
        Ok(())
    }

    /// Skips the value of a key that is not a field.
    pub fn skip(&mut self) -> Result<(), A::Error> {
        self.map.next_value::<IgnoredAny>().map(|_| ())
    }

    /// Reads the value of a key that is not a field into `others` (the flattened map
    /// of a struct that keeps unknown fields; the last of a repeated key wins).
    pub fn other<T: de::Deserialize<'de>>(&mut self, others: &mut BTreeMap<String, T>) -> Result<(), A::Error> {
        let value = self.map.next_value()?;
        others.insert(self.other.take().unwrap_or_default(), value);
        Ok(())
    }

    /// The value of a required field, or serde's `missing field` error.
    pub fn required<T>(&self, slot: Option<T>, name: &'static str) -> Result<T, A::Error> {
        slot.ok_or_else(|| A::Error::missing_field(name))
    }
}

/// The value of an optional field (`Option<T>`) from its slot: `None` when absent.
/// A function rather than `Option::flatten`, so that generated code need not write
/// the slot's type.
#[inline]
pub fn optional<T>(slot: Option<Option<T>>) -> Option<T> {
    slot.flatten()
}

/// The value of a field that is its type's default when absent (`metadata`).
#[inline]
pub fn or_default<T: Default>(slot: Option<T>) -> T {
    slot.unwrap_or_default()
}

enum Key {
    Field(usize),
    /// A key not in the field list, kept when asked for.
    Other(Option<String>),
}

struct KeySeed {
    names: &'static [&'static str],
    keep_other: bool,
}

impl KeySeed {
    fn key(&self, name: &str) -> Key {
        match self.names.iter().position(|n| *n == name) {
            Some(i) => Key::Field(i),
            None => Key::Other(self.keep_other.then(|| name.to_owned())),
        }
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
        Ok(self.key(name))
    }

    fn visit_bytes<E: de::Error>(self, name: &[u8]) -> Result<Key, E> {
        Ok(match std::str::from_utf8(name) {
            Ok(name) => self.key(name),
            Err(_) => Key::Other(self.keep_other.then(|| String::from_utf8_lossy(name).into_owned())),
        })
    }

    /// A field by its position, as serde's derive reads identifiers from formats that
    /// write them as numbers.
    fn visit_u64<E: de::Error>(self, i: u64) -> Result<Key, E> {
        Ok(match usize::try_from(i) {
            Ok(i) if i < self.names.len() => Key::Field(i),
            _ => Key::Other(self.keep_other.then(|| i.to_string())),
        })
    }
}

/// The body of a generated string enum's `Deserialize::deserialize`: the variant whose
/// JSON value (in `names`) is the string read, `values` holding the variants in the
/// same order; serde's `unknown variant` error for another string.
pub fn unit_variant<'de, T: Copy, D: Deserializer<'de>>(
    deserializer: D,
    name: &'static str,
    names: &'static [&'static str],
    values: &'static [T],
) -> Result<T, D::Error> {
    deserializer.deserialize_enum(name, names, VariantVisitor { name, names, values })
}

struct VariantVisitor<T: 'static> {
    name: &'static str,
    names: &'static [&'static str],
    values: &'static [T],
}

impl<'de, T: Copy> Visitor<'de> for VariantVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "enum {}", self.name)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<T, A::Error> {
        let (value, variant) = data.variant_seed(self)?;
        de::VariantAccess::unit_variant(variant)?;
        Ok(value)
    }
}

/// The variant's name, read as serde's derive reads it.
impl<'de, T: Copy> DeserializeSeed<'de> for VariantVisitor<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_identifier(VariantName(self))
    }
}

struct VariantName<T: 'static>(VariantVisitor<T>);

impl<T: Copy> VariantName<T> {
    fn get(&self, i: usize) -> Option<T> {
        self.0.values.get(i).copied()
    }
}

impl<'de, T: Copy> Visitor<'de> for VariantName<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<T, E> {
        let i = self.0.names.iter().position(|n| *n == value);
        i.and_then(|i| self.get(i))
            .ok_or_else(|| E::unknown_variant(value, self.0.names))
    }

    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> Result<T, E> {
        match std::str::from_utf8(value) {
            Ok(value) => self.visit_str(value),
            Err(_) => Err(E::unknown_variant(&String::from_utf8_lossy(value), self.0.names)),
        }
    }

    fn visit_u64<E: de::Error>(self, i: u64) -> Result<T, E> {
        let n = self.0.values.len();
        usize::try_from(i).ok().and_then(|i| self.get(i)).ok_or_else(|| {
            E::invalid_value(
                de::Unexpected::Unsigned(i),
                &format!("variant index 0 <= i < {n}").as_str(),
            )
        })
    }
}

/// A generated type being written as a map (its `Serialize::serialize`): an entry
/// per field, without a `?` per field. The first error stops the writing and is what
/// [`Entries::end`] returns.
pub struct Entries<M: SerializeMap> {
    map: Result<M, M::Error>,
}

impl<M: SerializeMap> Entries<M> {
    /// Starts the map.
    pub fn new<S: Serializer<SerializeMap = M, Error = M::Error>>(serializer: S) -> Self {
        Entries {
            map: serializer.serialize_map(None),
        }
    }

    /// An entry.
    pub fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        if let Ok(map) = &mut self.map
            && let Err(e) = map.serialize_entry(key, value)
        {
            self.map = Err(e);
        }
    }

    /// An entry when the field is set (an optional field; a nullable one's `Some(None)`
    /// is written as `null`).
    pub fn optional<T: Serialize>(&mut self, key: &str, value: &Option<T>) {
        if let Some(value) = value {
            self.entry(key, value);
        }
    }

    /// The entries of a map of fields kept beside the known ones (none named `skip`:
    /// a root type's `apiVersion` and `kind`, written first).
    pub fn others<T: Serialize>(&mut self, others: &BTreeMap<String, T>, skip: &[&str]) {
        for (key, value) in others {
            if !skip.contains(&key.as_str()) {
                self.entry(key, value);
            }
        }
    }

    /// Ends the map: the serializer's result, or the first error.
    pub fn end(self) -> Result<M::Ok, M::Error> {
        self.map?.end()
    }
}

#[cfg(test)]
mod tests {
    //! Held to serde's derive: the same type written both ways reads the same inputs to
    //! the same values and the same errors.
    use super::*;
    use serde::Deserialize;
    use serde_json::{Value, json};

    #[derive(Debug, PartialEq, Deserialize, serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Derived {
        api_version: String,
        #[serde(default)]
        meta: Vec<u8>,
        replicas: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none", with = "crate::nullable")]
        note: Option<Option<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        mode: Option<DerivedMode>,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Deserialize, serde::Serialize)]
    enum DerivedMode {
        #[serde(rename = "fast")]
        Fast,
        #[serde(rename = "slow")]
        Slow,
        #[serde(rename = "off")]
        Off,
    }

    #[derive(Debug, PartialEq)]
    struct Ours {
        api_version: String,
        meta: Vec<u8>,
        replicas: Option<i64>,
        note: Option<Option<String>>,
        mode: Option<OursMode>,
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum OursMode {
        Fast,
        Slow,
        Off,
    }

    impl OursMode {
        fn as_str(self) -> &'static str {
            match self {
                OursMode::Fast => "fast",
                OursMode::Slow => "slow",
                OursMode::Off => "off",
            }
        }
    }

    impl Serialize for OursMode {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.as_str())
        }
    }

    // What the code generator writes for `Ours`.
    impl Serialize for Ours {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut map = Entries::new(serializer);
            map.entry("apiVersion", &self.api_version);
            map.entry("meta", &self.meta);
            map.entry("replicas", &self.replicas);
            map.optional("note", &self.note);
            map.optional("mode", &self.mode);
            map.end()
        }
    }

    impl<'de> Deserialize<'de> for OursMode {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            unit_variant(
                d,
                "DerivedMode",
                &["fast", "slow", "off"],
                &[OursMode::Fast, OursMode::Slow, OursMode::Off],
            )
        }
    }

    // What the code generator writes for `Ours`.
    impl<'de> FromMap<'de> for Ours {
        const NAME: &'static str = "Derived";
        const FIELDS: &'static [&'static str] = &["apiVersion", "meta", "replicas", "note", "mode"];

        fn from_map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
            let mut map = Fields::new(map, Self::FIELDS);
            let mut api_version: Option<String> = None;
            let mut meta: Option<Vec<u8>> = None;
            let mut replicas: Option<Option<i64>> = None;
            let mut note: Option<Option<String>> = None;
            let mut mode: Option<Option<OursMode>> = None;
            while let Some(i) = map.next_field()? {
                let read = match i {
                    0 => map.value(&mut api_version),
                    1 => map.value(&mut meta),
                    2 => map.value(&mut replicas),
                    3 => map.value(&mut note),
                    4 => map.value(&mut mode),
                    _ => map.skip(),
                };
                read?;
            }
            Ok(Ours {
                api_version: map.required(api_version, "apiVersion")?,
                meta: meta.unwrap_or_default(),
                replicas: replicas.flatten(),
                note,
                mode: mode.flatten(),
            })
        }
    }

    impl<'de> Deserialize<'de> for Ours {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_struct(d)
        }
    }

    fn same(input: &str) {
        let derived = serde_json::from_str::<Derived>(input);
        let ours = serde_json::from_str::<Ours>(input);
        match (derived, ours) {
            (Ok(d), Ok(o)) => {
                assert_eq!(d.api_version, o.api_version, "{input}");
                assert_eq!(d.meta, o.meta, "{input}");
                assert_eq!(d.replicas, o.replicas, "{input}");
                assert_eq!(d.note, o.note, "{input}");
                assert_eq!(d.mode.map(|m| m as u8), o.mode.map(|m| m as u8), "{input}");
                // And written back the same.
                let written = serde_json::to_string(&o).unwrap();
                assert_eq!(serde_json::to_string(&d).unwrap(), written, "{input}");
                assert_eq!(serde_json::from_str::<Ours>(&written).unwrap(), o, "{input}");
            }
            (Err(d), Err(o)) => assert_eq!(d.to_string(), o.to_string(), "{input}"),
            (d, o) => panic!("{input}: derive {d:?}, ours {o:?}"),
        }
        // The same from a `Value` (keys as owned strings) and from YAML.
        let value: Value = serde_json::from_str(input).unwrap_or(Value::Null);
        let derived = Derived::deserialize(&value).map_err(|e| e.to_string());
        let ours = Ours::deserialize(&value).map_err(|e| e.to_string());
        assert_eq!(derived.is_ok(), ours.is_ok(), "{input}");
        if let (Err(d), Err(o)) = (derived, ours) {
            assert_eq!(d, o, "{input}");
        }
    }

    #[test]
    fn reads_what_the_derive_reads() {
        for input in [
            r#"{"apiVersion": "v1"}"#,
            r#"{"apiVersion": "v1", "meta": [1, 2], "replicas": 3, "note": "x", "mode": "slow"}"#,
            r#"{"apiVersion": "v1", "replicas": null, "note": null, "mode": null}"#,
            r#"{"apiVersion": "v1", "unknown": {"deep": [1, {"x": null}]}, "more": 1}"#,
            r#"{"replicas": 3}"#,
            r#"{"apiVersion": "v1", "apiVersion": "v2"}"#,
            r#"{"apiVersion": "v1", "note": null, "note": "x"}"#,
            r#"{"apiVersion": 5}"#,
            r#"{"apiVersion": "v1", "mode": "medium"}"#,
            r#"{"apiVersion": "v1", "mode": 1}"#,
            r#"{"apiVersion": "v1", "mode": {"fast": null}}"#,
            r#"{"apiVersion": "v1", "mode": {"fast": 1}}"#,
            r#"{"apiVersion": "v1", "mode": ["fast"]}"#,
            r#"{"apiVersion": "v1", "replicas": "3"}"#,
            r#""not an object""#,
            r#"null"#,
            r#"{"apiVersion": "v1", "meta": null}"#,
            r#"{"apiVersion": "v1""#,
        ] {
            same(input);
        }
    }

    #[derive(Debug, PartialEq)]
    struct Open {
        name: Option<String>,
        others: BTreeMap<String, Value>,
    }

    impl<'de> FromMap<'de> for Open {
        const NAME: &'static str = "Open";
        const FIELDS: &'static [&'static str] = &["name"];

        fn from_map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
            let mut map = Fields::keeping_others(map, Self::FIELDS);
            let mut name: Option<Option<String>> = None;
            let mut others = BTreeMap::new();
            while let Some(i) = map.next_field()? {
                let read = match i {
                    0 => map.value(&mut name),
                    _ => map.other(&mut others),
                };
                read?;
            }
            Ok(Open {
                name: name.flatten(),
                others,
            })
        }
    }

    impl<'de> Deserialize<'de> for Open {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            deserialize_struct(d)
        }
    }

    #[test]
    fn keeps_unknown_fields_when_asked() {
        let open: Open = serde_json::from_str(r#"{"name": "a", "x": 1, "y": {"z": null}, "x": 2}"#).unwrap();
        assert_eq!(open.name.as_deref(), Some("a"));
        assert_eq!(
            Value::Object(open.others.into_iter().collect()),
            json!({"x": 2, "y": {"z": null}})
        );
    }
}
