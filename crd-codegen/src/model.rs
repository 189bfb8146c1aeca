//! The CRD as the API server sees it: a Rust mirror of the internal
//! `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions` types.
//!
//! Both `apiextensions.k8s.io/v1` and `v1beta1` documents are read into these types
//! (see [`crate::convert`]); the CRD admission checks ([`crate::check`]) run on them,
//! so their error paths are the API server's (`spec.validation.openAPIV3Schema...`
//! when every version has the same schema, `spec.versions[i].schema...` otherwise).
//! Field types follow Go: plain values where Go has plain values (an absent string is
//! `""`), `Option` where Go has pointers.

use indexmap::IndexMap;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CustomResourceDefinition {
    /// `apiextensions.k8s.io/v1` or `apiextensions.k8s.io/v1beta1`, as written.
    pub api_version: String,
    pub name: String,
    /// `metadata.annotations` (the API approval of protected groups reads one).
    pub annotations: std::collections::BTreeMap<String, String>,
    pub spec: CustomResourceDefinitionSpec,
    /// `status.storedVersions`, when the document has them (a CRD read back from a
    /// cluster): the CRD is then checked as an update of the stored one.
    pub stored_versions: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CustomResourceDefinitionSpec {
    pub group: String,
    /// First version's name (kept for the v1beta1 form).
    pub version: String,
    pub names: CustomResourceDefinitionNames,
    pub scope: String,
    /// Set when every version has the same schema (the API server hoists it).
    pub validation: Option<CustomResourceValidation>,
    pub subresources: Option<CustomResourceSubresources>,
    pub versions: Vec<CustomResourceDefinitionVersion>,
    /// `versions` was absent (Go's nil slice, printed `null`; an empty list prints `[]`).
    pub versions_absent: bool,
    pub additional_printer_columns: Vec<CustomResourceColumnDefinition>,
    pub selectable_fields: Vec<SelectableField>,
    pub conversion: Option<CustomResourceConversion>,
    pub preserve_unknown_fields: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CustomResourceDefinitionNames {
    pub plural: String,
    pub singular: String,
    pub short_names: Vec<String>,
    pub kind: String,
    pub list_kind: String,
    pub categories: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CustomResourceDefinitionVersion {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    pub deprecated: bool,
    pub deprecation_warning: Option<String>,
    pub schema: Option<CustomResourceValidation>,
    pub subresources: Option<CustomResourceSubresources>,
    pub additional_printer_columns: Vec<CustomResourceColumnDefinition>,
    pub selectable_fields: Vec<SelectableField>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CustomResourceValidation {
    #[serde(rename = "openAPIV3Schema")]
    pub open_api_v3_schema: Option<Box<JsonSchemaProps>>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CustomResourceSubresources {
    pub status: Option<CustomResourceSubresourceStatus>,
    pub scale: Option<CustomResourceSubresourceScale>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct CustomResourceSubresourceStatus {}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CustomResourceSubresourceScale {
    pub spec_replicas_path: String,
    pub status_replicas_path: String,
    pub label_selector_path: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceColumnDefinition {
    pub name: String,
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub format: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(skip_serializing_if = "is_zero")]
    pub priority: i32,
    pub json_path: String,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SelectableField {
    pub json_path: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CustomResourceConversion {
    pub strategy: String,
    pub webhook_client_config: Option<WebhookClientConfig>,
    pub conversion_review_versions: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebhookClientConfig {
    pub url: Option<String>,
    pub service: Option<ServiceReference>,
    /// The PEM bundle, base64-encoded on the wire; it must decode (the API server's
    /// JSON decoder refuses the request otherwise).
    #[serde(rename = "caBundle", deserialize_with = "base64_string")]
    pub ca_bundle: Option<String>,
}

/// A `[]byte` field of a Go API object: a base64 string, refused with Go's message
/// when it does not decode.
fn base64_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let s = String::deserialize(d)?;
    match go_base64_error(s.as_bytes()) {
        None => Ok(Some(s)),
        Some(at) => Err(de::Error::custom(format!("illegal base64 data at input byte {at}"))),
    }
}

/// Where Go's `base64.StdEncoding.DecodeString` fails on `src` (its
/// `CorruptInputError` offset), or `None` when it decodes. Padding is required, `\r`
/// and `\n` are skipped anywhere, and nothing may follow the padding.
pub fn go_base64_error(src: &[u8]) -> Option<usize> {
    let is_alphabet = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    let is_newline = |c: u8| c == b'\r' || c == b'\n';
    let mut si = 0;
    loop {
        // One quantum of four characters.
        let mut j = 0;
        while j < 4 {
            let Some(&c) = src.get(si) else {
                return if j == 0 { None } else { Some(si - j) };
            };
            si += 1;
            if is_alphabet(c) {
                j += 1;
                continue;
            }
            if is_newline(c) {
                continue;
            }
            if c != b'=' {
                return Some(si - 1);
            }
            // Padding: `xx==` or `xxx=`, then the end (newlines aside).
            match j {
                0 | 1 => return Some(si - 1),
                2 => {
                    while src.get(si).copied().is_some_and(is_newline) {
                        si += 1;
                    }
                    match src.get(si) {
                        None => return Some(src.len()),
                        Some(b'=') => si += 1,
                        Some(_) => return Some(si - 1),
                    }
                }
                _ => {}
            }
            while src.get(si).copied().is_some_and(is_newline) {
                si += 1;
            }
            return if si < src.len() { Some(si) } else { None };
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceReference {
    pub namespace: String,
    pub name: String,
    pub path: Option<String>,
    pub port: Option<i32>,
}

/// One node of an OpenAPI v3 schema (Go's `apiextensions.JSONSchemaProps`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct JsonSchemaProps {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub id: String,
    #[serde(rename = "$schema", skip_serializing_if = "String::is_empty")]
    pub schema: String,
    #[serde(rename = "$ref", skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    pub type_: String,
    #[serde(skip_serializing_if = "is_false")]
    pub nullable: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub format: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// `default: null` is the same as no default (Go's JSON pointer is nil).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<f64>,
    #[serde(rename = "exclusiveMaximum", skip_serializing_if = "is_false")]
    pub exclusive_maximum: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<f64>,
    #[serde(rename = "exclusiveMinimum", skip_serializing_if = "is_false")]
    pub exclusive_minimum: bool,
    #[serde(rename = "maxLength", skip_serializing_if = "Option::is_none")]
    pub max_length: Option<i64>,
    #[serde(rename = "minLength", skip_serializing_if = "Option::is_none")]
    pub min_length: Option<i64>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub pattern: String,
    #[serde(rename = "maxItems", skip_serializing_if = "Option::is_none")]
    pub max_items: Option<i64>,
    #[serde(rename = "minItems", skip_serializing_if = "Option::is_none")]
    pub min_items: Option<i64>,
    #[serde(rename = "uniqueItems", skip_serializing_if = "is_false")]
    pub unique_items: bool,
    #[serde(rename = "multipleOf", skip_serializing_if = "Option::is_none")]
    pub multiple_of: Option<f64>,
    /// Enum values; a `null` entry is kept (Go keeps it as a JSON null).
    #[serde(
        rename = "enum",
        deserialize_with = "values_keeping_null",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub enum_: Vec<Value>,
    #[serde(rename = "maxProperties", skip_serializing_if = "Option::is_none")]
    pub max_properties: Option<i64>,
    #[serde(rename = "minProperties", skip_serializing_if = "Option::is_none")]
    pub min_properties: Option<i64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<JsonSchemaPropsOrArray>>,
    #[serde(rename = "allOf", skip_serializing_if = "Vec::is_empty")]
    pub all_of: Vec<JsonSchemaProps>,
    #[serde(rename = "oneOf", skip_serializing_if = "Vec::is_empty")]
    pub one_of: Vec<JsonSchemaProps>,
    #[serde(rename = "anyOf", skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<JsonSchemaProps>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not: Option<Box<JsonSchemaProps>>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub properties: IndexMap<String, JsonSchemaProps>,
    #[serde(rename = "additionalProperties", skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<Box<JsonSchemaPropsOrBool>>,
    #[serde(rename = "patternProperties", skip_serializing_if = "IndexMap::is_empty")]
    pub pattern_properties: IndexMap<String, JsonSchemaProps>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub dependencies: IndexMap<String, Value>,
    #[serde(rename = "additionalItems", skip_serializing_if = "Option::is_none")]
    pub additional_items: Option<Box<JsonSchemaPropsOrBool>>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub definitions: IndexMap<String, JsonSchemaProps>,
    #[serde(rename = "externalDocs", skip_serializing_if = "Option::is_none")]
    pub external_docs: Option<ExternalDocumentation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<Value>,
    #[serde(
        rename = "x-kubernetes-preserve-unknown-fields",
        skip_serializing_if = "Option::is_none"
    )]
    pub x_preserve_unknown_fields: Option<bool>,
    #[serde(rename = "x-kubernetes-embedded-resource", skip_serializing_if = "is_false")]
    pub x_embedded_resource: bool,
    #[serde(rename = "x-kubernetes-int-or-string", skip_serializing_if = "is_false")]
    pub x_int_or_string: bool,
    #[serde(rename = "x-kubernetes-list-map-keys", skip_serializing_if = "Vec::is_empty")]
    pub x_list_map_keys: Vec<String>,
    #[serde(rename = "x-kubernetes-list-type", skip_serializing_if = "Option::is_none")]
    pub x_list_type: Option<String>,
    #[serde(rename = "x-kubernetes-map-type", skip_serializing_if = "Option::is_none")]
    pub x_map_type: Option<String>,
    #[serde(rename = "x-kubernetes-validations", skip_serializing_if = "Vec::is_empty")]
    pub x_validations: Vec<ValidationRule>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// `enum` keeps `null` entries; serde's `Vec<Value>` would too, but `enum: null` must
/// mean "no enum" like Go's nil slice.
fn values_keeping_null<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Value>, D::Error> {
    Ok(Option::<Vec<Value>>::deserialize(d)?.unwrap_or_default())
}

/// `items`: a schema, or (not structural, rejected by the checks) an array of schemas.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum JsonSchemaPropsOrArray {
    Schema(Box<JsonSchemaProps>),
    Array(Vec<JsonSchemaProps>),
}

impl<'de> Deserialize<'de> for JsonSchemaPropsOrArray {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor rather than `#[serde(untagged)]`, so that errors inside a schema keep
        // their path and the subtree is not buffered.
        struct OrArray;
        impl<'de> de::Visitor<'de> for OrArray {
            type Value = JsonSchemaPropsOrArray;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a schema object or an array of schemas")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                JsonSchemaProps::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|s| JsonSchemaPropsOrArray::Schema(Box::new(s)))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                Vec::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(JsonSchemaPropsOrArray::Array)
            }
        }
        d.deserialize_any(OrArray)
    }
}

impl JsonSchemaPropsOrArray {
    pub fn schema(&self) -> Option<&JsonSchemaProps> {
        match self {
            JsonSchemaPropsOrArray::Schema(s) => Some(s),
            JsonSchemaPropsOrArray::Array(_) => None,
        }
    }
}

/// `additionalProperties` / `additionalItems`: `true`, `false` or a schema.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonSchemaPropsOrBool {
    pub allows: bool,
    pub schema: Option<JsonSchemaProps>,
}

impl<'de> Deserialize<'de> for JsonSchemaPropsOrBool {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct OrBool;
        impl<'de> de::Visitor<'de> for OrBool {
            type Value = JsonSchemaPropsOrBool;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a boolean or a schema object")
            }
            fn visit_bool<E: de::Error>(self, allows: bool) -> Result<Self::Value, E> {
                Ok(JsonSchemaPropsOrBool { allows, schema: None })
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let schema = JsonSchemaProps::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(JsonSchemaPropsOrBool {
                    allows: true,
                    schema: Some(schema),
                })
            }
        }
        d.deserialize_any(OrBool)
    }
}

impl Serialize for JsonSchemaPropsOrBool {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.schema {
            Some(schema) => schema.serialize(s),
            None => s.serialize_bool(self.allows),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct ExternalDocumentation {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub url: String,
}

/// One `x-kubernetes-validations` entry.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ValidationRule {
    pub rule: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message_expression: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field_path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional_old_self: Option<bool>,
}

impl ValidationRule {
    /// The rule as the API server prints it as a bad value: Go's `json.Marshal` of the
    /// internal struct, whose fields have no JSON tags.
    pub fn go_json(&self) -> String {
        let v = serde_json::json!({
            "Rule": self.rule,
            "Message": self.message,
            "MessageExpression": self.message_expression,
            "Reason": self.reason,
            "FieldPath": self.field_path,
            "OptionalOldSelf": self.optional_old_self,
        });
        // Go keeps struct field order; serialise in that order rather than sorted.
        let order = [
            "Rule",
            "Message",
            "MessageExpression",
            "Reason",
            "FieldPath",
            "OptionalOldSelf",
        ];
        let parts: Vec<String> = order
            .iter()
            .map(|k| format!("\"{k}\":{}", crd_runtime::gofmt::json(&v[k])))
            .collect();
        format!("{{{}}}", parts.join(","))
    }
}

#[cfg(test)]
mod base64_tests {
    use super::go_base64_error;

    /// Offsets as Go's `base64.StdEncoding.DecodeString` reports them.
    #[test]
    fn decodes_as_go_does() {
        for (input, want) in [
            ("", None),
            ("YQ==", None),
            ("YWI=", None),
            ("YWJj", None),
            ("YWJj\r\nYQ==\n", None),
            ("YQ\n=\n=", None),
            ("YQ", Some(0)),
            ("YWJjY", Some(4)),
            ("YQ=", Some(3)),
            ("Y===", Some(1)),
            ("=", Some(0)),
            ("YQ=x", Some(2)),
            ("YQ==YQ==", Some(4)),
            ("YWI=\nx", Some(5)),
            ("Y!Q=", Some(1)),
            ("-_8=", Some(0)),
        ] {
            assert_eq!(go_base64_error(input.as_bytes()), want, "{input:?}");
        }
    }
}
