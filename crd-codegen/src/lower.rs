//! CRD model → IR, for CRDs that passed the admission checks.

use crate::ir;
use crate::model::{self, JsonSchemaProps};
use serde_json::Value;

pub fn lower_crd(crd: &model::CustomResourceDefinition) -> ir::Crd {
    let s = &crd.spec;
    let versions: Vec<ir::Version> = s
        .versions
        .iter()
        .enumerate()
        .map(|(i, v)| ir::Version {
            name: v.name.clone(),
            served: v.served,
            storage: v.storage,
            deprecated: v.deprecated,
            deprecation_warning: v.deprecation_warning.clone(),
            schema: crd.schema_of(i).map(lower_schema).unwrap_or_else(|| ir::Schema {
                type_: Some(ir::Type::Object),
                preserve_unknown_fields: true,
                ..Default::default()
            }),
            subresources: crd
                .subresources_of(i)
                .map(|sr| ir::Subresources {
                    status: sr.status.is_some(),
                    scale: sr.scale.as_ref().map(|sc| ir::Scale {
                        spec_replicas_path: sc.spec_replicas_path.clone(),
                        status_replicas_path: sc.status_replicas_path.clone(),
                        label_selector_path: sc.label_selector_path.clone(),
                    }),
                })
                .unwrap_or_default(),
            printer_columns: crd
                .printer_columns_of(i)
                .iter()
                .map(|c| ir::PrinterColumn {
                    name: c.name.clone(),
                    type_: c.type_.clone(),
                    format: c.format.clone(),
                    description: c.description.clone(),
                    priority: c.priority,
                    json_path: c.json_path.clone(),
                })
                .collect(),
            selectable_fields: crd
                .selectable_fields_of(i)
                .iter()
                .map(|f| f.json_path.clone())
                .collect(),
        })
        .collect();
    let conversion = match &s.conversion {
        Some(c) if c.strategy == "Webhook" => ir::Conversion::Webhook {
            review_versions: c.conversion_review_versions.clone(),
            client_config: c
                .webhook_client_config
                .as_ref()
                .and_then(|cc| serde_json::to_value(cc).ok())
                .unwrap_or(Value::Null),
        },
        _ => ir::Conversion::None,
    };
    ir::Crd {
        name: crd.name.clone(),
        group: s.group.clone(),
        names: ir::Names {
            plural: s.names.plural.clone(),
            singular: s.names.singular.clone(),
            kind: s.names.kind.clone(),
            list_kind: s.names.list_kind.clone(),
            short_names: s.names.short_names.clone(),
            categories: s.names.categories.clone(),
        },
        scope: if s.scope == "Cluster" {
            ir::Scope::Cluster
        } else {
            ir::Scope::Namespaced
        },
        all_versions: ir::VersionSummary::of(&versions),
        versions,
        conversion,
        annotations: crd.annotations.clone(),
        labels: Default::default(),
    }
}

/// Integral floats become integers, as they reach the API server: kubectl sends JSON
/// written by Go, which prints float64 `1` for YAML's `1.0`.
fn normalize_numbers(mut v: Value) -> Value {
    crd_runtime::admission::go_json_numbers(&mut v);
    v
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

pub fn lower_schema(s: &JsonSchemaProps) -> ir::Schema {
    ir::Schema {
        type_: ir::Type::parse(&s.type_),
        description: non_empty(&s.description),
        title: non_empty(&s.title),
        default: s.default.clone().map(normalize_numbers),
        nullable: s.nullable,
        format: non_empty(&s.format),
        enum_: s.enum_.iter().cloned().map(normalize_numbers).collect(),
        example: s.example.clone(),
        external_docs: s.external_docs.as_ref().and_then(|d| serde_json::to_value(d).ok()),
        pattern: non_empty(&s.pattern),
        maximum: s.maximum,
        exclusive_maximum: s.exclusive_maximum,
        minimum: s.minimum,
        exclusive_minimum: s.exclusive_minimum,
        multiple_of: s.multiple_of,
        max_length: s.max_length,
        min_length: s.min_length,
        max_items: s.max_items,
        min_items: s.min_items,
        unique_items: s.unique_items,
        max_properties: s.max_properties,
        min_properties: s.min_properties,
        required: s.required.clone(),
        items: s
            .items
            .as_ref()
            .and_then(|i| i.schema())
            .map(|i| Box::new(lower_schema(i))),
        properties: s.properties.iter().map(|(k, v)| (k.clone(), lower_schema(v))).collect(),
        additional_properties: s.additional_properties.as_ref().map(|ap| match &ap.schema {
            Some(schema) => ir::AdditionalProperties::Schema(Box::new(lower_schema(schema))),
            None => ir::AdditionalProperties::Bool(ap.allows),
        }),
        all_of: s.all_of.iter().map(lower_schema).collect(),
        any_of: s.any_of.iter().map(lower_schema).collect(),
        one_of: s.one_of.iter().map(lower_schema).collect(),
        not: s.not.as_ref().map(|n| Box::new(lower_schema(n))),
        preserve_unknown_fields: s.x_preserve_unknown_fields == Some(true),
        embedded_resource: s.x_embedded_resource,
        int_or_string: s.x_int_or_string,
        list_type: s.x_list_type.as_deref().and_then(ir::ListType::parse),
        list_map_keys: s.x_list_map_keys.clone(),
        map_type: s.x_map_type.as_deref().and_then(ir::MapType::parse),
        validations: s
            .x_validations
            .iter()
            .map(|r| ir::Rule {
                rule: r.rule.clone(),
                message: non_empty(&r.message),
                message_expression: non_empty(&r.message_expression),
                reason: r.reason.clone(),
                field_path: non_empty(&r.field_path),
                optional_old_self: r.optional_old_self == Some(true),
            })
            .collect(),
        rust_type: None,
    }
}

/// The inverse of [`lower_schema`]: the schema as the API server's `JSONSchemaProps`
/// (what the CEL compiler and the structural checks read). Lowering and raising keep
/// every keyword the IR has; `example` and `externalDocs` come back as written.
pub fn raise_schema(s: &ir::Schema) -> JsonSchemaProps {
    if s.rust_type.is_some() {
        return raise_schema(&s.dyn_stand_in());
    }
    let string = |o: &Option<String>| o.clone().unwrap_or_default();
    JsonSchemaProps {
        type_: s.type_.map(|t| t.as_str().to_string()).unwrap_or_default(),
        description: string(&s.description),
        title: string(&s.title),
        default: s.default.clone(),
        nullable: s.nullable,
        format: string(&s.format),
        enum_: s.enum_.clone(),
        example: s.example.clone(),
        external_docs: s.external_docs.clone().and_then(|d| serde_json::from_value(d).ok()),
        pattern: string(&s.pattern),
        maximum: s.maximum,
        exclusive_maximum: s.exclusive_maximum,
        minimum: s.minimum,
        exclusive_minimum: s.exclusive_minimum,
        multiple_of: s.multiple_of,
        max_length: s.max_length,
        min_length: s.min_length,
        max_items: s.max_items,
        min_items: s.min_items,
        unique_items: s.unique_items,
        max_properties: s.max_properties,
        min_properties: s.min_properties,
        required: s.required.clone(),
        items: s
            .items
            .as_deref()
            .map(|i| Box::new(model::JsonSchemaPropsOrArray::Schema(Box::new(raise_schema(i))))),
        properties: s.properties.iter().map(|(k, v)| (k.clone(), raise_schema(v))).collect(),
        additional_properties: s.additional_properties.as_ref().map(|ap| {
            Box::new(match ap {
                ir::AdditionalProperties::Schema(schema) => model::JsonSchemaPropsOrBool {
                    allows: true,
                    schema: Some(raise_schema(schema)),
                },
                ir::AdditionalProperties::Bool(allows) => model::JsonSchemaPropsOrBool {
                    allows: *allows,
                    schema: None,
                },
            })
        }),
        all_of: s.all_of.iter().map(raise_schema).collect(),
        any_of: s.any_of.iter().map(raise_schema).collect(),
        one_of: s.one_of.iter().map(raise_schema).collect(),
        not: s.not.as_deref().map(|n| Box::new(raise_schema(n))),
        x_preserve_unknown_fields: s.preserve_unknown_fields.then_some(true),
        x_embedded_resource: s.embedded_resource,
        x_int_or_string: s.int_or_string,
        x_list_type: s.list_type.map(|t| t.as_str().to_string()),
        x_list_map_keys: s.list_map_keys.clone(),
        x_map_type: s.map_type.map(|t| t.as_str().to_string()),
        x_validations: s
            .validations
            .iter()
            .map(|r| model::ValidationRule {
                rule: r.rule.clone(),
                message: string(&r.message),
                message_expression: string(&r.message_expression),
                reason: r.reason.clone(),
                field_path: string(&r.field_path),
                optional_old_self: r.optional_old_self.then_some(true),
            })
            .collect(),
        ..Default::default()
    }
}
