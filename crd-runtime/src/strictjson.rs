//! What the API server's strict JSON decoding (sigs.k8s.io/json, under
//! `fieldValidation` Warn or Strict) reports of a request body that a plain read
//! hides: the keys an object holds twice. `serde_json` keeps the last value of a
//! repeated key, as Go's decoder does, so the repetition is only visible in the bytes.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// The fields `body` repeats, as paths in document order (`metadata.name`,
/// `spec.ports[0].hostPort`): each repetition once more. An error when `body` is not
/// JSON.
pub fn duplicate_fields(body: &[u8]) -> Result<Vec<String>, serde_json::Error> {
    let mut found = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(body);
    Walk {
        path: String::new(),
        found: &mut found,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok(found)
}

/// One value at `path`, walked for repeated keys.
struct Walk<'a> {
    path: String,
    found: &'a mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if !seen.insert(key) {
                self.found.push(path.clone());
            }
            map.next_value_seed(Walk {
                path,
                found: self.found,
            })?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while seq
            .next_element_seed(Walk {
                path: format!("{}[{i}]", self.path),
                found: self.found,
            })?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_in_document_order() {
        let body = br#"{"metadata": {"name": "a", "name": "b"},
            "spec": {"knownField1": 1, "ports": [{"hostPort": 1, "hostPort": 2}], "knownField1": 2,
                     "x": {"a": [1, {"b": 1, "b": 1, "b": 1}]}}}"#;
        assert_eq!(
            duplicate_fields(body).unwrap(),
            [
                "metadata.name",
                "spec.ports[0].hostPort",
                "spec.knownField1",
                "spec.x.a[1].b",
                "spec.x.a[1].b"
            ]
        );
        assert_eq!(
            duplicate_fields(br#"{"a": [{"b": 1}, {"b": 2}]}"#).unwrap(),
            Vec::<String>::new()
        );
        assert!(duplicate_fields(b"{").is_err());
        assert!(duplicate_fields(b"{} x").is_err());
    }
}
