//! Bad values that are Go structs, printed as the API server prints them.
//!
//! A few CRD errors carry an internal `apiextensions` struct as the bad value (the
//! whole root schema, `spec.versions`, an `items` array). Go's `field.Error` prints
//! those with `json.Marshal`, and the internal types have no JSON tags: every field
//! appears, under its Go name, in declaration order (`{"ID":"","Schema":"",...}`),
//! nil pointers and slices as `null`, map keys sorted.
//!
//! `crd_runtime::FieldError` holds a bad value as a `serde_json::Value`, whose
//! objects print with sorted keys, so a struct cannot be represented. Such errors are
//! built by [`invalid_rendered`] with no bad value and the rendered value prefixed to
//! the detail: the message text is exactly Go's.

use crate::fieldpath::FieldPath;
use crate::model::*;
use crd_runtime::gofmt;
use crd_runtime::{ErrorType, FieldError};
use serde_json::Value;

/// `field.Invalid(path, <struct>, detail)` with the struct already rendered.
pub(crate) fn invalid_rendered(path: &FieldPath, rendered: String, detail: &str) -> FieldError {
    let text = if detail.is_empty() {
        rendered
    } else {
        format!("{rendered}: {detail}")
    };
    FieldError::new(ErrorType::Invalid, path.to_string(), None, text)
}

fn string(s: &str) -> String {
    gofmt::json(&Value::from(s))
}

fn opt_string(s: &Option<String>) -> String {
    s.as_deref().map_or_else(|| "null".into(), string)
}

fn opt_f64(f: Option<f64>) -> String {
    f.map_or_else(|| "null".into(), |f| gofmt::json(&Value::from(f)))
}

fn opt_i64(n: Option<i64>) -> String {
    n.map_or_else(|| "null".into(), |n| n.to_string())
}

fn opt_value(v: &Option<Value>) -> String {
    v.as_ref().map_or_else(|| "null".into(), gofmt::json)
}

fn strings(v: &[String]) -> String {
    if v.is_empty() {
        return "null".into();
    }
    gofmt::json(&Value::from(v.to_vec()))
}

fn list<T>(v: &[T], f: impl Fn(&T) -> String) -> String {
    if v.is_empty() {
        return "null".into();
    }
    format!("[{}]", v.iter().map(f).collect::<Vec<_>>().join(","))
}

/// A Go map: keys sorted.
fn map<'a, T: 'a>(entries: impl Iterator<Item = (&'a String, T)>, f: impl Fn(T) -> String) -> String {
    let mut entries: Vec<(&String, T)> = entries.collect();
    if entries.is_empty() {
        return "null".into();
    }
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let parts: Vec<String> = entries
        .into_iter()
        .map(|(k, v)| format!("{}:{}", string(k), f(v)))
        .collect();
    format!("{{{}}}", parts.join(","))
}

fn object(fields: &[(&str, String)]) -> String {
    let parts: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
    format!("{{{}}}", parts.join(","))
}

fn or_bool(v: &Option<Box<JsonSchemaPropsOrBool>>) -> String {
    match v {
        None => "null".into(),
        Some(b) => object(&[
            ("Allows", b.allows.to_string()),
            ("Schema", b.schema.as_ref().map_or_else(|| "null".into(), schema_props)),
        ]),
    }
}

/// `JSONSchemaPropsOrArray{Schema, JSONSchemas}`.
pub(crate) fn schema_or_array(items: &JsonSchemaPropsOrArray) -> String {
    let (schema, schemas) = match items {
        JsonSchemaPropsOrArray::Schema(s) => (schema_props(s), "null".into()),
        // An explicit array, even empty, is a non-nil slice.
        JsonSchemaPropsOrArray::Array(a) if a.is_empty() => ("null".into(), "[]".into()),
        JsonSchemaPropsOrArray::Array(a) => ("null".into(), list(a, schema_props)),
    };
    object(&[("Schema", schema), ("JSONSchemas", schemas)])
}

/// A `dependencies` entry (`JSONSchemaPropsOrStringArray{Schema, Property}`), from
/// the raw value the model keeps.
fn dependency(v: &Value) -> String {
    let (schema, property) = match v {
        Value::Array(items) => {
            let names: Vec<String> = items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect();
            ("null".into(), strings(&names))
        }
        other => match serde_json::from_value::<JsonSchemaProps>(other.clone()) {
            Ok(s) => (schema_props(&s), "null".into()),
            Err(_) => ("null".into(), "null".into()),
        },
    };
    object(&[("Schema", schema), ("Property", property)])
}

/// An internal `JSONSchemaProps`.
pub(crate) fn schema_props(s: &JsonSchemaProps) -> String {
    object(&[
        ("ID", string(&s.id)),
        ("Schema", string(&s.schema)),
        ("Ref", opt_string(&s.ref_)),
        ("Description", string(&s.description)),
        ("Type", string(&s.type_)),
        ("Nullable", s.nullable.to_string()),
        ("Format", string(&s.format)),
        ("Title", string(&s.title)),
        ("Default", opt_value(&s.default)),
        ("Maximum", opt_f64(s.maximum)),
        ("ExclusiveMaximum", s.exclusive_maximum.to_string()),
        ("Minimum", opt_f64(s.minimum)),
        ("ExclusiveMinimum", s.exclusive_minimum.to_string()),
        ("MaxLength", opt_i64(s.max_length)),
        ("MinLength", opt_i64(s.min_length)),
        ("Pattern", string(&s.pattern)),
        ("MaxItems", opt_i64(s.max_items)),
        ("MinItems", opt_i64(s.min_items)),
        ("UniqueItems", s.unique_items.to_string()),
        ("MultipleOf", opt_f64(s.multiple_of)),
        ("Enum", list(&s.enum_, gofmt::json)),
        ("MaxProperties", opt_i64(s.max_properties)),
        ("MinProperties", opt_i64(s.min_properties)),
        ("Required", strings(&s.required)),
        (
            "Items",
            s.items.as_deref().map_or_else(|| "null".into(), schema_or_array),
        ),
        ("AllOf", list(&s.all_of, schema_props)),
        ("OneOf", list(&s.one_of, schema_props)),
        ("AnyOf", list(&s.any_of, schema_props)),
        ("Not", s.not.as_deref().map_or_else(|| "null".into(), schema_props)),
        ("Properties", map(s.properties.iter(), schema_props)),
        ("AdditionalProperties", or_bool(&s.additional_properties)),
        ("PatternProperties", map(s.pattern_properties.iter(), schema_props)),
        ("Dependencies", map(s.dependencies.iter(), dependency)),
        ("AdditionalItems", or_bool(&s.additional_items)),
        ("Definitions", map(s.definitions.iter(), schema_props)),
        (
            "ExternalDocs",
            s.external_docs.as_ref().map_or_else(
                || "null".into(),
                |d| object(&[("Description", string(&d.description)), ("URL", string(&d.url))]),
            ),
        ),
        ("Example", opt_value(&s.example)),
        (
            "XPreserveUnknownFields",
            s.x_preserve_unknown_fields
                .map_or_else(|| "null".into(), |b| b.to_string()),
        ),
        ("XEmbeddedResource", s.x_embedded_resource.to_string()),
        ("XIntOrString", s.x_int_or_string.to_string()),
        ("XListMapKeys", strings(&s.x_list_map_keys)),
        ("XListType", opt_string(&s.x_list_type)),
        ("XMapType", opt_string(&s.x_map_type)),
        ("XValidations", list(&s.x_validations, ValidationRule::go_json)),
    ])
}

fn subresources(s: &Option<CustomResourceSubresources>) -> String {
    match s {
        None => "null".into(),
        Some(s) => object(&[
            ("Status", if s.status.is_some() { "{}".into() } else { "null".into() }),
            (
                "Scale",
                s.scale.as_ref().map_or_else(
                    || "null".into(),
                    |sc| {
                        object(&[
                            ("SpecReplicasPath", string(&sc.spec_replicas_path)),
                            ("StatusReplicasPath", string(&sc.status_replicas_path)),
                            ("LabelSelectorPath", opt_string(&sc.label_selector_path)),
                        ])
                    },
                ),
            ),
        ]),
    }
}

fn column(c: &CustomResourceColumnDefinition) -> String {
    object(&[
        ("Name", string(&c.name)),
        ("Type", string(&c.type_)),
        ("Format", string(&c.format)),
        ("Description", string(&c.description)),
        ("Priority", c.priority.to_string()),
        ("JSONPath", string(&c.json_path)),
    ])
}

/// An internal `[]CustomResourceDefinitionVersion`.
pub(crate) fn versions(vs: &[CustomResourceDefinitionVersion]) -> String {
    list(vs, |v| {
        object(&[
            ("Name", string(&v.name)),
            ("Served", v.served.to_string()),
            ("Storage", v.storage.to_string()),
            ("Deprecated", v.deprecated.to_string()),
            ("DeprecationWarning", opt_string(&v.deprecation_warning)),
            (
                "Schema",
                v.schema.as_ref().map_or_else(
                    || "null".into(),
                    |s| {
                        object(&[(
                            "OpenAPIV3Schema",
                            s.open_api_v3_schema
                                .as_deref()
                                .map_or_else(|| "null".into(), schema_props),
                        )])
                    },
                ),
            ),
            ("Subresources", subresources(&v.subresources)),
            ("AdditionalPrinterColumns", list(&v.additional_printer_columns, column)),
            (
                "SelectableFields",
                list(&v.selectable_fields, |f| object(&[("JSONPath", string(&f.json_path))])),
            ),
        ])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_schema_prints_every_go_field() {
        let s = JsonSchemaProps {
            type_: "object".into(),
            ..Default::default()
        };
        assert_eq!(
            schema_props(&s),
            r#"{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}"#
        );
    }
}
