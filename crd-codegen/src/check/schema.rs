//! One version's `openAPIV3Schema` (§1.1 and §1.3 of SEMANTICS.md).
//!
//! Mirrors, in `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/`:
//! `validateCustomResourceDefinitionValidation` (the pipeline: status-subresource
//! root restrictions, root `nullable`, `NewStructural`, `ValidateStructural`,
//! default validation, the schema walk, the per-schema CEL cost total),
//! `ValidateCustomResourceDefinitionOpenAPISchema` (the walk, with schema errors
//! and CEL errors kept apart: all schema errors print before all CEL errors),
//! `specStandardValidatorV3` (per-node keyword checks, forbidden defaults inside
//! resource metadata, the `oldSelf`-uncorrelatable ancestor), `validateMapListKeysMapSet`,
//! and from `cel_validation.go` the cardinality and total-cost bookkeeping of
//! `CELSchemaContext`.
//!
//! The options are those of a create: defaults allowed, valid property types,
//! structural schemas, pruned defaults, atomic set items and the map-list key rules
//! all required.

use super::fieldpath_rule::valid_field_path;
use super::gojson;
use super::structural::{new_structural, validate_structural};
use super::{RuleCompileError, RuleCompiler, RuleSite, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT};
use crate::fieldpath::FieldPath;
use crate::model::{CustomResourceValidation, JsonSchemaProps, JsonSchemaPropsOrArray};
use crd_runtime::FieldError;
use serde_json::Value;
use std::cell::RefCell;

/// `openapiV3Types`, sorted as `sets.String.List()` prints them.
const OPENAPI_V3_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// `supportedValidationReason`, sorted.
const SUPPORTED_VALIDATION_REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// `allowedFieldsAtRootSchema` (Go field names).
const ALLOWED_FIELDS_AT_ROOT_SCHEMA: [&str; 22] = [
    "Description",
    "Type",
    "Format",
    "Title",
    "Maximum",
    "ExclusiveMaximum",
    "Minimum",
    "ExclusiveMinimum",
    "MaxLength",
    "MinLength",
    "Pattern",
    "MaxItems",
    "MinItems",
    "UniqueItems",
    "MultipleOf",
    "Required",
    "Items",
    "Properties",
    "ExternalDocs",
    "Example",
    "XPreserveUnknownFields",
    "XValidations",
];

/// Go's `validateCustomResourceDefinitionValidation`: `path` is `spec.validation`
/// or `spec.versions[i].schema`.
pub fn validate_custom_resource_definition_validation(
    validation: Option<&CustomResourceValidation>,
    status_enabled: bool,
    path: &FieldPath,
    stages: &dyn RuleCompiler,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(schema) = validation.and_then(|v| v.open_api_v3_schema.as_deref()) else {
        return errs;
    };
    let root_path = path.child("openAPIV3Schema");
    if status_enabled {
        errs.extend(validate_root_with_status(schema, path));
    }
    if schema.nullable {
        errs.push(FieldError::forbidden(
            path.child("openAPIV3Schema.nullable").to_string(),
            "nullable cannot be true at the root",
        ));
    }

    let total = RefCell::new(TotalCost::default());
    let mut cel_root = None;
    let mut init_errs = Vec::new();
    let structural = new_structural(schema);
    match &structural {
        Err(e) => init_errs.push(FieldError::invalid(root_path.to_string(), Value::from(""), e.clone())),
        Ok(ss) => {
            let structural_errs = validate_structural(&root_path, ss);
            if !structural_errs.is_empty() {
                errs.extend(structural_errs);
            } else {
                let default_errs = stages.validate_defaults(ss, &root_path);
                if !default_errs.is_empty() {
                    errs.extend(default_errs);
                } else {
                    cel_root = Some(CelContext {
                        max_cardinality: Some(1),
                        parent_schema: Some(schema),
                        total: &total,
                        is_root: true,
                    });
                }
            }
        }
    }
    let walker = Walker { stages };
    let out = walker.validate(Some(schema), &root_path, &Ssv::root(), true, cel_root.as_ref());
    errs.extend(out.schema_errors);
    errs.extend(out.cel_errors);
    if errs.is_empty() {
        // Conversion errors overlap with the schema errors: shown only if alone.
        errs.extend(init_errs);
    }
    if cel_root.is_some() {
        let total = total.borrow();
        if total.total > STATIC_ESTIMATED_CRD_COST_LIMIT {
            for (p, _) in &total.most_expensive {
                errs.push(FieldError::forbidden(p.to_string(), CONTRIBUTED_TO_TOTAL_COST));
            }
            errs.push(FieldError::forbidden(
                root_path.to_string(),
                cost_error_message(
                    "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                    total.total,
                    STATIC_ESTIMATED_CRD_COST_LIMIT,
                ),
            ));
        }
    }
    errs
}

/// The status-subresource restriction of the root: the first set field (in Go's
/// struct order) that is not `type: object` and not allowed is reported, and only
/// that one.
fn validate_root_with_status(schema: &JsonSchemaProps, path: &FieldPath) -> Vec<FieldError> {
    let s = schema;
    // Go's JSONSchemaProps fields in declaration order, with whether each is set
    // (non-zero).
    let fields: [(&str, bool); 44] = [
        ("ID", !s.id.is_empty()),
        ("Schema", !s.schema.is_empty()),
        ("Ref", s.ref_.is_some()),
        ("Description", !s.description.is_empty()),
        ("Type", !s.type_.is_empty()),
        ("Nullable", s.nullable),
        ("Format", !s.format.is_empty()),
        ("Title", !s.title.is_empty()),
        ("Default", s.default.is_some()),
        ("Maximum", s.maximum.is_some()),
        ("ExclusiveMaximum", s.exclusive_maximum),
        ("Minimum", s.minimum.is_some()),
        ("ExclusiveMinimum", s.exclusive_minimum),
        ("MaxLength", s.max_length.is_some()),
        ("MinLength", s.min_length.is_some()),
        ("Pattern", !s.pattern.is_empty()),
        ("MaxItems", s.max_items.is_some()),
        ("MinItems", s.min_items.is_some()),
        ("UniqueItems", s.unique_items),
        ("MultipleOf", s.multiple_of.is_some()),
        ("Enum", !s.enum_.is_empty()),
        ("MaxProperties", s.max_properties.is_some()),
        ("MinProperties", s.min_properties.is_some()),
        ("Required", !s.required.is_empty()),
        ("Items", s.items.is_some()),
        ("AllOf", !s.all_of.is_empty()),
        ("OneOf", !s.one_of.is_empty()),
        ("AnyOf", !s.any_of.is_empty()),
        ("Not", s.not.is_some()),
        ("Properties", !s.properties.is_empty()),
        ("AdditionalProperties", s.additional_properties.is_some()),
        ("PatternProperties", !s.pattern_properties.is_empty()),
        ("Dependencies", !s.dependencies.is_empty()),
        ("AdditionalItems", s.additional_items.is_some()),
        ("Definitions", !s.definitions.is_empty()),
        ("ExternalDocs", s.external_docs.is_some()),
        ("Example", s.example.is_some()),
        ("XPreserveUnknownFields", s.x_preserve_unknown_fields.is_some()),
        ("XEmbeddedResource", s.x_embedded_resource),
        ("XIntOrString", s.x_int_or_string),
        ("XListMapKeys", !s.x_list_map_keys.is_empty()),
        ("XListType", s.x_list_type.is_some()),
        ("XMapType", s.x_map_type.is_some()),
        ("XValidations", !s.x_validations.is_empty()),
    ];
    for (name, set) in fields {
        if !set {
            continue;
        }
        if name == "Type" {
            if s.type_ != "object" {
                return vec![FieldError::invalid(
                    path.child("openAPIV3Schema.type").to_string(),
                    Value::from(s.type_.as_str()),
                    r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
                )];
            }
            continue;
        }
        if !ALLOWED_FIELDS_AT_ROOT_SCHEMA.contains(&name) {
            return vec![gojson::invalid_rendered(
                &path.child("openAPIV3Schema"),
                gojson::schema_props(s),
                &format!(
                    "only [{}] fields are allowed at the root of the schema if the status subresource is enabled",
                    ALLOWED_FIELDS_AT_ROOT_SCHEMA.join(" ")
                ),
            )];
        }
    }
    Vec::new()
}

/// The error at each of the rules that contribute most to a schema's total cost
/// when it exceeds the limit.
const CONTRIBUTED_TO_TOTAL_COST: &str =
    "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema";

/// Whether `e` is one of the cost errors: a rule, messageExpression or schema whose
/// estimated cost exceeds its limit, or a rule contributing to such a total.
pub fn is_cost_error(e: &FieldError) -> bool {
    e.error_type == crd_runtime::ErrorType::Forbidden
        && (e.detail == CONTRIBUTED_TO_TOTAL_COST || e.detail.contains(" exceeds budget by factor of "))
}

/// Go's `getCostErrorMessage`.
pub(crate) fn cost_error_message(cost_name: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_string()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{cost_name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// Go's `TotalCost`: the sum of all expression costs, and the (at most four) largest
/// contributors of at least 1% of the limit.
#[derive(Default)]
struct TotalCost {
    total: u64,
    most_expensive: Vec<(FieldPath, u64)>,
}

impl TotalCost {
    fn observe(&mut self, path: FieldPath, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((path, cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(4);
    }
}

/// The cardinality part of Go's `CELSchemaContext`.
struct CelContext<'a> {
    /// `None` is unbounded.
    max_cardinality: Option<u64>,
    /// The schema of the node this context belongs to.
    parent_schema: Option<&'a JsonSchemaProps>,
    total: &'a RefCell<TotalCost>,
    is_root: bool,
}

impl<'a> CelContext<'a> {
    /// Go's `childContext` for a property, items or additionalProperties schema.
    fn child(&self, child: Option<&'a JsonSchemaProps>) -> CelContext<'a> {
        let max_cardinality = match (self.parent_schema, self.max_cardinality) {
            (Some(parent), Some(card)) => extract_max_elements(parent).map(|n| multiply_with_overflow_guard(card, n)),
            _ => None,
        };
        CelContext {
            max_cardinality,
            parent_schema: child,
            total: self.total,
            is_root: false,
        }
    }
}

/// Go's `extractMaxElements`: how many children a node can have (`None` unbounded).
fn extract_max_elements(s: &JsonSchemaProps) -> Option<u64> {
    match s.type_.as_str() {
        "object" if s.additional_properties.is_some() => s.max_properties.map(|n| n.max(0) as u64),
        "array" => s.max_items.map(|n| n.max(0) as u64),
        _ => Some(1),
    }
}

/// Go's `multiplyWithOverflowGuard`: the product, or `u64::MAX` on overflow.
fn multiply_with_overflow_guard(base: u64, cardinality: u64) -> u64 {
    base.saturating_mul(cardinality)
}

/// Go's `specStandardValidatorV3`, with the options of a create.
#[derive(Clone)]
struct Ssv {
    allow_defaults: bool,
    disallow_defaults_reason: String,
    inside_resource_meta: bool,
    /// The highest ancestor below which old and new values cannot be correlated.
    uncorrelatable_old_self_path: Option<FieldPath>,
}

impl Ssv {
    fn root() -> Self {
        Ssv {
            allow_defaults: true,
            disallow_defaults_reason: String::new(),
            inside_resource_meta: false,
            uncorrelatable_old_self_path: None,
        }
    }

    fn with_forbidden_defaults(&self, reason: &str) -> Self {
        Ssv {
            allow_defaults: false,
            disallow_defaults_reason: reason.to_string(),
            ..self.clone()
        }
    }

    fn with_inside_resource_meta(&self) -> Self {
        Ssv {
            inside_resource_meta: true,
            ..self.clone()
        }
    }

    fn with_forbid_old_self_validations(&self, path: &FieldPath) -> Self {
        if self.uncorrelatable_old_self_path.is_some() {
            return self.clone();
        }
        Ssv {
            uncorrelatable_old_self_path: Some(path.clone()),
            ..self.clone()
        }
    }

    /// Go's `specStandardValidatorV3.validate`: per-node keyword checks.
    fn validate(&self, s: &JsonSchemaProps, path: &FieldPath) -> Vec<FieldError> {
        let mut errs = Vec::new();
        if !s.type_.is_empty() && !OPENAPI_V3_TYPES.contains(&s.type_.as_str()) {
            errs.push(FieldError::not_supported(
                path.child("type").to_string(),
                Value::from(s.type_.as_str()),
                &OPENAPI_V3_TYPES,
            ));
        }
        if s.default.is_some() && !self.allow_defaults {
            let mut detail = "must not be set".to_string();
            if !self.disallow_defaults_reason.is_empty() {
                detail.push(' ');
                detail.push_str(&self.disallow_defaults_reason);
            }
            errs.push(FieldError::forbidden(path.child("default").to_string(), detail));
        }
        let forbidden =
            |name: &str| FieldError::forbidden(path.child(name).to_string(), format!("{name} is not supported"));
        if !s.id.is_empty() {
            errs.push(forbidden("id"));
        }
        if s.additional_items.is_some() {
            errs.push(forbidden("additionalItems"));
        }
        if !s.pattern_properties.is_empty() {
            errs.push(forbidden("patternProperties"));
        }
        if !s.definitions.is_empty() {
            errs.push(forbidden("definitions"));
        }
        if !s.dependencies.is_empty() {
            errs.push(forbidden("dependencies"));
        }
        if s.ref_.is_some() {
            errs.push(forbidden("$ref"));
        }
        if s.type_ == "null" {
            errs.push(FieldError::forbidden(
                path.child("type").to_string(),
                "type cannot be set to null, use nullable as an alternative",
            ));
        }
        if let Some(JsonSchemaPropsOrArray::Array(a)) = s.items.as_deref()
            && !a.is_empty()
        {
            errs.push(FieldError::forbidden(
                path.child("items").to_string(),
                "items must be a schema object and not an array",
            ));
        }
        if self.inside_resource_meta && s.x_embedded_resource {
            errs.push(FieldError::forbidden(
                path.child("x-kubernetes-embedded-resource").to_string(),
                "must not be used inside of resource meta",
            ));
        }
        errs
    }
}

#[derive(Default)]
struct SchemaErrors {
    schema_errors: Vec<FieldError>,
    cel_errors: Vec<FieldError>,
}

impl SchemaErrors {
    fn append(&mut self, other: SchemaErrors) {
        self.schema_errors.extend(other.schema_errors);
        self.cel_errors.extend(other.cel_errors);
    }
}

struct Walker<'a> {
    stages: &'a dyn RuleCompiler,
}

const META_FIELDS: [&str; 3] = ["metadata", "kind", "apiVersion"];

impl Walker<'_> {
    /// Go's `ValidateCustomResourceDefinitionOpenAPISchema`.
    fn validate(
        &self,
        schema: Option<&JsonSchemaProps>,
        path: &FieldPath,
        ssv: &Ssv,
        is_root: bool,
        cel: Option<&CelContext<'_>>,
    ) -> SchemaErrors {
        let mut out = SchemaErrors::default();
        let Some(schema) = schema else {
            return out;
        };
        out.schema_errors.extend(ssv.validate(schema, path));

        if schema.unique_items {
            out.schema_errors.push(FieldError::forbidden(
                path.child("uniqueItems").to_string(),
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            ));
        }

        // additionalProperties and properties are mutually exclusive (except
        // `additionalProperties: true`, which passes here).
        if let Some(ap) = &schema.additional_properties {
            if !schema.properties.is_empty() && (!ap.allows || ap.schema.is_some()) {
                out.schema_errors.push(FieldError::forbidden(
                    path.child("additionalProperties").to_string(),
                    "additionalProperties and properties are mutual exclusive",
                ));
            }
            let sub_ssv = if ssv.inside_resource_meta {
                ssv.with_forbidden_defaults("inside additionalProperties applying to object metadata")
            } else {
                ssv.clone()
            };
            let child_cel = cel.map(|c| c.child(ap.schema.as_ref()));
            out.append(self.validate(
                ap.schema.as_ref(),
                &path.child("additionalProperties"),
                &sub_ssv,
                false,
                child_cel.as_ref(),
            ));
        }

        for (property, prop_schema) in &schema.properties {
            let mut sub_ssv = ssv.clone();
            if !map_is_correlatable(schema.x_map_type.as_deref()) {
                sub_ssv = sub_ssv.with_forbid_old_self_validations(path);
            }
            if (is_root || schema.x_embedded_resource) && META_FIELDS.contains(&property.as_str()) {
                sub_ssv = sub_ssv.with_inside_resource_meta();
                if is_root {
                    sub_ssv = sub_ssv.with_forbidden_defaults(&format!("in top-level {property}"));
                }
            }
            let child_cel = cel.map(|c| c.child(Some(prop_schema)));
            out.append(self.validate(
                Some(prop_schema),
                &path.child("properties").key(property),
                &sub_ssv,
                false,
                child_cel.as_ref(),
            ));
        }

        out.append(self.validate(schema.not.as_deref(), &path.child("not"), ssv, false, None));
        for (i, s) in schema.all_of.iter().enumerate() {
            out.append(self.validate(Some(s), &path.child("allOf").index(i), ssv, false, None));
        }
        for (i, s) in schema.one_of.iter().enumerate() {
            out.append(self.validate(Some(s), &path.child("oneOf").index(i), ssv, false, None));
        }
        for (i, s) in schema.any_of.iter().enumerate() {
            out.append(self.validate(Some(s), &path.child("anyOf").index(i), ssv, false, None));
        }
        for (name, s) in &schema.definitions {
            out.append(self.validate(Some(s), &path.child("definitions").key(name), ssv, false, None));
        }

        if let Some(items) = schema.items.as_deref() {
            let sub_ssv = if schema.x_list_type.as_deref() != Some("map") {
                ssv.with_forbid_old_self_validations(path)
            } else {
                ssv.clone()
            };
            match items {
                JsonSchemaPropsOrArray::Schema(item) => {
                    let child_cel = cel.map(|c| c.child(Some(item)));
                    out.append(self.validate(Some(item), &path.child("items"), &sub_ssv, false, child_cel.as_ref()));
                }
                JsonSchemaPropsOrArray::Array(array) => {
                    for (i, item) in array.iter().enumerate() {
                        let child_cel = cel.map(|c| c.child(Some(item)));
                        out.append(self.validate(
                            Some(item),
                            &path.child("items").index(i),
                            &sub_ssv,
                            false,
                            child_cel.as_ref(),
                        ));
                    }
                }
            }
        }

        for (name, dep) in &schema.dependencies {
            // Only the schema form of a dependency is walked.
            if dep.is_object()
                && let Ok(dep_schema) = serde_json::from_value::<JsonSchemaProps>(dep.clone())
            {
                out.append(self.validate(
                    Some(&dep_schema),
                    &path.child("dependencies").key(name),
                    ssv,
                    false,
                    None,
                ));
            }
        }

        out.schema_errors.extend(validate_extensions(schema, path));
        out.schema_errors.extend(validate_map_list_keys_map_set(schema, path));
        if !schema.x_validations.is_empty() {
            out.schema_errors.extend(validate_rules_statically(schema, path));
            // CEL only when nothing is wrong at this level or below.
            if out.schema_errors.is_empty()
                && let Some(cel) = cel
            {
                out.cel_errors.extend(self.compile_rules(schema, path, ssv, cel));
            }
        }
        out
    }

    /// The CEL part of `ValidateCustomResourceDefinitionOpenAPISchema`.
    fn compile_rules(
        &self,
        schema: &JsonSchemaProps,
        path: &FieldPath,
        ssv: &Ssv,
        cel: &CelContext<'_>,
    ) -> Vec<FieldError> {
        let mut errs = Vec::new();
        let rules_path = path.child("x-kubernetes-validations");
        // The root converted, so every node below it converts too.
        let Ok(structural) = new_structural(schema) else {
            return errs;
        };
        let site = RuleSite {
            schema,
            structural: &structural,
            path,
            is_resource_root: cel.is_root || schema.x_embedded_resource,
            max_cardinality: cel.max_cardinality,
        };
        let results = match self.stages.compile_rules(&site) {
            Ok(r) => r,
            Err(detail) => {
                errs.push(FieldError::internal(rules_path.to_string(), detail));
                return errs;
            }
        };
        for (i, cr) in results.iter().enumerate() {
            let Some(rule) = schema.x_validations.get(i) else {
                break;
            };
            let rule_path = rules_path.index(i).child("rule");
            let expression_cost = match cel.max_cardinality {
                Some(card) => multiply_with_overflow_guard(cr.max_cost, card),
                None => multiply_with_overflow_guard(cr.max_cost, cr.max_cardinality),
            };
            if expression_cost > STATIC_ESTIMATED_COST_LIMIT {
                errs.push(FieldError::forbidden(
                    rule_path.to_string(),
                    cost_error_message("estimated rule cost", expression_cost, STATIC_ESTIMATED_COST_LIMIT),
                ));
            }
            cel.total.borrow_mut().observe(rule_path.clone(), expression_cost);
            match &cr.error {
                Some(RuleCompileError::Required(detail)) => {
                    errs.push(FieldError::required(rule_path.to_string(), detail.clone()));
                }
                Some(RuleCompileError::Invalid(detail)) => {
                    errs.push(gojson::invalid_rendered(&rule_path, rule.go_json(), detail));
                }
                None => {}
            }
            let message_expression_path = rules_path.index(i).child("messageExpression");
            if let Some(detail) = &cr.message_expression_error {
                errs.push(gojson::invalid_rendered(
                    &message_expression_path,
                    rule.go_json(),
                    detail,
                ));
            } else if cr.has_message_expression {
                if cr.message_expression_max_cost > STATIC_ESTIMATED_COST_LIMIT {
                    errs.push(FieldError::forbidden(
                        message_expression_path.to_string(),
                        cost_error_message(
                            "estimated messageExpression cost",
                            cr.message_expression_max_cost,
                            STATIC_ESTIMATED_COST_LIMIT,
                        ),
                    ));
                }
                cel.total
                    .borrow_mut()
                    .observe(message_expression_path, cr.message_expression_max_cost);
            }
            if cr.uses_old_self {
                if let Some(uncorrelatable) = &ssv.uncorrelatable_old_self_path {
                    errs.push(FieldError::invalid(
                        rule_path.to_string(),
                        Value::from(rule.rule.as_str()),
                        format!(
                            "oldSelf cannot be used on the uncorrelatable portion of the schema within {uncorrelatable}"
                        ),
                    ));
                }
            } else if let Some(optional_old_self) = rule.optional_old_self {
                errs.push(FieldError::invalid(
                    rules_path.index(i).child("optionalOldSelf").to_string(),
                    Value::Bool(optional_old_self),
                    "may not be set if oldSelf is not used in rule",
                ));
            }
        }
        errs
    }
}

/// `cel.MapIsCorrelatable`: unset, `granular` and `atomic` maps correlate old and new
/// values.
fn map_is_correlatable(map_type: Option<&str>) -> bool {
    matches!(map_type, None | Some("granular") | Some("atomic"))
}

/// The extension checks at the end of `ValidateCustomResourceDefinitionOpenAPISchema`:
/// `x-kubernetes-preserve-unknown-fields`, map type, list type, list-map keys.
fn validate_extensions(s: &JsonSchemaProps, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if s.x_preserve_unknown_fields == Some(false) {
        errs.push(FieldError::invalid(
            path.child("x-kubernetes-preserve-unknown-fields").to_string(),
            Value::Bool(false),
            "must be true or undefined",
        ));
    }
    let type_path = path.child("type").to_string();
    if let Some(map_type) = &s.x_map_type {
        let detail = "must be object if x-kubernetes-map-type is specified";
        if s.type_.is_empty() {
            errs.push(FieldError::required(type_path.clone(), detail));
        } else if s.type_ != "object" {
            errs.push(FieldError::invalid(
                type_path.clone(),
                Value::from(s.type_.as_str()),
                detail,
            ));
        }
        if map_type != "atomic" && map_type != "granular" {
            errs.push(FieldError::not_supported(
                path.child("x-kubernetes-map-type").to_string(),
                Value::from(map_type.as_str()),
                &["atomic", "granular"],
            ));
        }
    }
    let list_type = s.x_list_type.as_deref();
    let item = s.items.as_deref().and_then(JsonSchemaPropsOrArray::schema);
    if list_type.is_some() && s.type_ != "array" {
        let detail = "must be array if x-kubernetes-list-type is specified";
        if s.type_.is_empty() {
            errs.push(FieldError::required(type_path, detail));
        } else {
            errs.push(FieldError::invalid(type_path, Value::from(s.type_.as_str()), detail));
        }
    } else if list_type == Some("set")
        && let Some(is) = item
    {
        let detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
        let opt = |v: &Option<String>| v.as_deref().map_or(Value::Null, Value::from);
        match is.type_.as_str() {
            "array" if is.x_list_type.as_deref().is_some_and(|t| t != "atomic") => {
                errs.push(FieldError::invalid(
                    path.child("items").child("x-kubernetes-list-type").to_string(),
                    opt(&is.x_list_type),
                    detail,
                ));
            }
            // Go reports the items' list type as the bad value here (usually `null`).
            "object" if is.x_map_type.as_deref() != Some("atomic") => {
                errs.push(FieldError::invalid(
                    path.child("items").child("x-kubernetes-map-type").to_string(),
                    opt(&is.x_list_type),
                    detail,
                ));
            }
            _ => {}
        }
    }
    if let Some(lt) = list_type
        && lt != "atomic"
        && lt != "set"
        && lt != "map"
    {
        errs.push(FieldError::not_supported(
            path.child("x-kubernetes-list-type").to_string(),
            Value::from(lt),
            &["atomic", "set", "map"],
        ));
    }
    if !s.x_list_map_keys.is_empty() {
        let detail = "must be map if x-kubernetes-list-map-keys is non-empty";
        match list_type {
            None => errs.push(FieldError::required(
                path.child("x-kubernetes-list-type").to_string(),
                detail,
            )),
            Some(lt) if lt != "map" => errs.push(FieldError::invalid(
                path.child("x-kubernetes-list-type").to_string(),
                Value::from(lt),
                detail,
            )),
            _ => {}
        }
    }
    if list_type == Some("map") {
        if s.x_list_map_keys.is_empty() {
            errs.push(FieldError::required(
                path.child("x-kubernetes-list-map-keys").to_string(),
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        match s.items.as_deref() {
            None => errs.push(FieldError::required(
                path.child("items").to_string(),
                "must have a schema if x-kubernetes-list-type is map",
            )),
            Some(items @ JsonSchemaPropsOrArray::Array(_)) => errs.push(gojson::invalid_rendered(
                &path.child("items"),
                gojson::schema_or_array(items),
                "must only have a single schema if x-kubernetes-list-type is map",
            )),
            Some(JsonSchemaPropsOrArray::Schema(is)) => {
                if is.type_ != "object" {
                    errs.push(FieldError::invalid(
                        path.child("items").child("type").to_string(),
                        Value::from(is.type_.as_str()),
                        "must be object if parent array's x-kubernetes-list-type is map",
                    ));
                } else {
                    let keys_value = Value::from(s.x_list_map_keys.clone());
                    let mut seen = std::collections::HashSet::new();
                    for k in &s.x_list_map_keys {
                        match is.properties.get(k) {
                            Some(p) => {
                                if p.type_ == "array" || p.type_ == "object" {
                                    // Go reports the items' type as the bad value.
                                    errs.push(FieldError::invalid(
                                        path.child("items").child("properties").key(k).child("type").to_string(),
                                        Value::from(is.type_.as_str()),
                                        "must be a scalar type if parent array's x-kubernetes-list-type is map",
                                    ));
                                }
                            }
                            None => errs.push(FieldError::invalid(
                                path.child("x-kubernetes-list-map-keys").to_string(),
                                keys_value.clone(),
                                "entries must all be names of item properties",
                            )),
                        }
                        if !seen.insert(k) {
                            errs.push(FieldError::invalid(
                                path.child("x-kubernetes-list-map-keys").to_string(),
                                keys_value.clone(),
                                "must not contain duplicate entries",
                            ));
                        }
                    }
                }
            }
        }
    }
    errs
}

/// Go's `validateMapListKeysMapSet`: set/map list items not nullable; map keys
/// required or defaulted, and not nullable.
fn validate_map_list_keys_map_set(s: &JsonSchemaProps, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(is) = s.items.as_deref().and_then(JsonSchemaPropsOrArray::schema) else {
        return errs;
    };
    let Some(lt) = s.x_list_type.as_deref() else {
        return errs;
    };
    if lt != "set" && lt != "map" {
        return errs;
    }
    if is.nullable {
        errs.push(FieldError::forbidden(
            path.child("items").child("nullable").to_string(),
            format!("cannot be nullable when x-kubernetes-list-type is {lt}"),
        ));
    }
    if lt == "map" {
        for k in &s.x_list_map_keys {
            let Some(p) = is.properties.get(k) else {
                continue;
            };
            let key_path = path.child("items").child("properties").key(k);
            if !is.required.contains(k) && p.default.is_none() {
                errs.push(FieldError::required(
                    key_path.child("default").to_string(),
                    "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
                ));
            }
            if p.nullable {
                errs.push(FieldError::forbidden(
                    key_path.child("nullable").to_string(),
                    "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
                ));
            }
        }
    }
    errs
}

/// Go's `hasNewlines`: `[\n\r]+`.
fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// Go's `strings.TrimSpace` (Unicode white space).
fn trim_space(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace())
}

/// The static checks of `x-kubernetes-validations` entries.
fn validate_rules_statically(s: &JsonSchemaProps, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, rule) in s.x_validations.iter().enumerate() {
        let rule_path = path.child("x-kubernetes-validations").index(i);
        let trimmed_rule = trim_space(&rule.rule);
        let trimmed_msg = trim_space(&rule.message);
        let trimmed_msg_expr = trim_space(&rule.message_expression);
        if trimmed_rule.is_empty() {
            errs.push(FieldError::required(
                rule_path.child("rule").to_string(),
                "rule is not specified",
            ));
        } else if !rule.message.is_empty() && trimmed_msg.is_empty() {
            errs.push(FieldError::invalid(
                rule_path.child("message").to_string(),
                Value::from(rule.message.as_str()),
                "must be non-empty if specified",
            ));
        } else if has_newlines(trimmed_msg) {
            errs.push(FieldError::invalid(
                rule_path.child("message").to_string(),
                Value::from(rule.message.as_str()),
                "must not contain line breaks",
            ));
        } else if has_newlines(trimmed_rule) && trimmed_msg.is_empty() {
            errs.push(FieldError::required(
                rule_path.child("message").to_string(),
                "message must be specified if rule contains line breaks",
            ));
        }
        if !rule.message_expression.is_empty() && trimmed_msg_expr.is_empty() {
            errs.push(FieldError::required(
                rule_path.child("messageExpression").to_string(),
                "messageExpression must be non-empty if specified",
            ));
        }
        if let Some(reason) = &rule.reason
            && !SUPPORTED_VALIDATION_REASONS.contains(&reason.as_str())
        {
            errs.push(FieldError::not_supported(
                rule_path.child("reason").to_string(),
                Value::from(reason.as_str()),
                &SUPPORTED_VALIDATION_REASONS,
            ));
        }
        let field_path = rule_path.child("fieldPath").to_string();
        if !rule.field_path.is_empty() && trim_space(&rule.field_path).is_empty() {
            errs.push(FieldError::invalid(
                field_path.clone(),
                Value::from(rule.field_path.as_str()),
                "must be non-empty if specified",
            ));
        }
        if has_newlines(&rule.field_path) {
            errs.push(FieldError::invalid(
                field_path.clone(),
                Value::from(rule.field_path.as_str()),
                "must not contain line breaks",
            ));
        }
        if !rule.field_path.is_empty() && !path_valid(s, &rule.field_path) {
            errs.push(FieldError::invalid(
                field_path,
                Value::from(rule.field_path.as_str()),
                "must be a valid path",
            ));
        }
    }
    errs
}

/// Go's `pathValid`: a schema that does not convert counts as valid.
fn path_valid(s: &JsonSchemaProps, path: &str) -> bool {
    match new_structural(s) {
        Ok(ss) => valid_field_path(path, Some(&ss), true).is_ok(),
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_messages_format_like_go() {
        assert!(cost_error_message("x", 20_000_000, 10_000_000).contains("factor of 2.0x"));
        assert!(cost_error_message("x", 12_000_000, 10_000_000).contains("factor of 1.200000x"));
        assert!(cost_error_message("x", 2_000_000_000, 10_000_000).contains("factor of more than 100x"));
    }
}
