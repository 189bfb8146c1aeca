//! Not one of the API server's checks: value keywords on a node of a type they do not
//! apply to (a `pattern` on an array, [`ValueKeyword`]). The API server accepts them
//! and never applies them, so such a keyword almost always means a check that does not
//! happen. The loader reports each as a warning.
//!
//! Only the structural spine is walked (`properties`, `items`, `additionalProperties`):
//! the API server refuses a `type` inside `allOf`, `anyOf`, `oneOf` and `not`.

use crate::fieldpath::FieldPath;
use crate::ir::{Type, ValueKeyword};
use crate::model::{CustomResourceDefinition, CustomResourceValidation, JsonSchemaProps};
use std::fmt;

/// A keyword the API server ignores.
#[derive(Clone, Debug, PartialEq)]
pub struct Ignored {
    /// The keyword's path, e.g.
    /// `spec.validation.openAPIV3Schema.properties[spec].properties[tags].pattern`.
    pub path: String,
    pub keyword: ValueKeyword,
    /// The node's type.
    pub type_: Type,
}

impl fmt::Display for Ignored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the API server ignores {} on a node of type {} (it applies to {})",
            self.path,
            self.keyword.crd_name(),
            self.type_.as_str(),
            self.keyword.types()
        )
    }
}

/// Every keyword of the CRD's schemas that the API server ignores, in schema order.
pub fn ignored_keywords(crd: &CustomResourceDefinition) -> Vec<Ignored> {
    let mut out = Vec::new();
    let spec = FieldPath::new("spec");
    let mut schema = |v: Option<&CustomResourceValidation>, path: FieldPath| {
        if let Some(s) = v.and_then(|v| v.open_api_v3_schema.as_deref()) {
            walk(s, &path.child("openAPIV3Schema"), &mut out);
        }
    };
    schema(crd.spec.validation.as_ref(), spec.child("validation"));
    for (i, v) in crd.spec.versions.iter().enumerate() {
        schema(v.schema.as_ref(), spec.child("versions").index(i).child("schema"));
    }
    out
}

fn walk(s: &JsonSchemaProps, path: &FieldPath, out: &mut Vec<Ignored>) {
    if let Some(t) = Type::parse(&s.type_) {
        for k in ValueKeyword::ALL {
            if !k.applies_to(t) && is_set(k, s) {
                out.push(Ignored {
                    path: path.child(k.crd_name()).to_string(),
                    keyword: k,
                    type_: t,
                });
            }
        }
    }
    for (name, p) in &s.properties {
        walk(p, &path.child("properties").key(name), out);
    }
    if let Some(items) = s.items.as_deref().and_then(|i| i.schema()) {
        walk(items, &path.child("items"), out);
    }
    if let Some(values) = s.additional_properties.as_deref().and_then(|a| a.schema.as_ref()) {
        walk(values, &path.child("additionalProperties"), out);
    }
}

fn is_set(k: ValueKeyword, s: &JsonSchemaProps) -> bool {
    match k {
        ValueKeyword::Minimum => s.minimum.is_some(),
        ValueKeyword::Maximum => s.maximum.is_some(),
        ValueKeyword::ExclusiveMinimum => s.exclusive_minimum,
        ValueKeyword::ExclusiveMaximum => s.exclusive_maximum,
        ValueKeyword::MultipleOf => s.multiple_of.is_some(),
        ValueKeyword::MinLength => s.min_length.is_some(),
        ValueKeyword::MaxLength => s.max_length.is_some(),
        ValueKeyword::Pattern => !s.pattern.is_empty(),
        ValueKeyword::MinItems => s.min_items.is_some(),
        ValueKeyword::MaxItems => s.max_items.is_some(),
        ValueKeyword::MinProperties => s.min_properties.is_some(),
        ValueKeyword::MaxProperties => s.max_properties.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::{Read, read_crd};

    fn ignored(yaml: &str) -> Vec<String> {
        let mut docs = crate::source::parse_text(std::path::Path::new("t.yaml"), yaml.to_string()).unwrap();
        let Ok(Read::Crd(model, _)) = read_crd(&mut docs[0]) else {
            panic!("a CRD")
        };
        ignored_keywords(&model).iter().map(|i| i.to_string()).collect()
    }

    const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            maxItems: 3
            properties:
              tags:
                type: array
                maxItems: 3
                pattern: "^a"
                items: {type: integer, maxLength: 2, exclusiveMinimum: true, minimum: 1}
              labels:
                type: object
                additionalProperties: {type: string, maxLength: 5, minProperties: 1}
              any:
                x-kubernetes-int-or-string: true
                pattern: "^a"
                maximum: 3
              either:
                type: string
                anyOf: [{minItems: 1}]
"#;

    #[test]
    fn names_each_ignored_keyword_by_path_and_type() {
        // (The model holds properties sorted by name; a node without a type, such as
        // int-or-string, checks each value by its kind, so nothing there is ignored.)
        assert_eq!(
            ignored(CRD),
            [
                "spec.validation.openAPIV3Schema.properties[spec].maxItems: the API server ignores maxItems on a node of type object (it applies to arrays)",
                "spec.validation.openAPIV3Schema.properties[spec].properties[labels].additionalProperties.minProperties: the API server ignores minProperties on a node of type string (it applies to objects and maps)",
                "spec.validation.openAPIV3Schema.properties[spec].properties[tags].pattern: the API server ignores pattern on a node of type array (it applies to strings)",
                "spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.maxLength: the API server ignores maxLength on a node of type integer (it applies to strings)",
            ]
        );
    }

    #[test]
    fn per_version_schemas_have_their_paths() {
        let two = CRD.replace("    storage: true\n", "    storage: true\n    deprecated: true\n")
            + "  - name: v2\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n        minLength: 1\n";
        assert_eq!(
            ignored(&two).last().map(String::as_str),
            Some(
                "spec.versions[1].schema.openAPIV3Schema.minLength: the API server ignores minLength on a node of type object (it applies to strings)"
            )
        );
    }
}
