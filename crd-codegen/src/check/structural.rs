//! Structural schemas (§1.2 of SEMANTICS.md): the API server's `Structural` type,
//! its construction from a `JSONSchemaProps` with the conversion errors, and the
//! structural invariants and completeness rules.
//!
//! Mirrors `k8s.io/apiextensions-apiserver/pkg/apiserver/schema`: `structural.go`
//! (the types), `convert.go` (`NewStructural`), `validation.go`
//! (`ValidateStructural`) and `complete.go` (`validateStructuralCompleteness`).
//!
//! Where Go iterates a map (`properties`), this port iterates in document order.
//! `ValidateStructural` sorts its errors by their text, so the order never shows;
//! `NewStructural` stops at the first conversion error, so with several unsupported
//! keywords in different properties the one reported may differ from the API server's
//! (whose choice is random).

use super::goregexp;
use crate::fieldpath::FieldPath;
use crate::model::{ExternalDocumentation, JsonSchemaProps, JsonSchemaPropsOrArray, ValidationRule};
use crd_runtime::FieldError;
use indexmap::IndexMap;
use serde_json::Value;

/// Go's `schema.Structural`: a schema node with the structural spine (`items`,
/// `properties`, `additionalProperties`) separated from value validations, which may
/// contain junctors (`allOf`, `anyOf`, `oneOf`, `not`) of [`NestedValueValidation`]s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Structural {
    pub items: Option<Box<Structural>>,
    /// Empty means Go's nil map.
    pub properties: IndexMap<String, Structural>,
    pub additional_properties: Option<Box<StructuralOrBool>>,
    pub generic: Generic,
    pub extensions: Extensions,
    pub validation_extensions: ValidationExtensions,
    /// Go's `*ValueValidation`, which `NewStructural` always sets.
    pub value_validation: ValueValidation,
}

/// `additionalProperties`: a schema, or `true`/`false`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StructuralOrBool {
    pub structural: Option<Box<Structural>>,
    pub bool: bool,
}

/// Go's `schema.Generic`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Generic {
    pub description: String,
    pub type_: String,
    pub title: String,
    pub default: Option<Value>,
    pub nullable: bool,
    pub external_docs: Option<ExternalDocumentation>,
    pub example: Option<Value>,
}

/// Go's `schema.Extensions`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extensions {
    pub x_preserve_unknown_fields: bool,
    pub x_embedded_resource: bool,
    pub x_int_or_string: bool,
    pub x_list_map_keys: Vec<String>,
    pub x_list_type: Option<String>,
    pub x_map_type: Option<String>,
}

/// Go's `schema.ValidationExtensions`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValidationExtensions {
    pub x_validations: Vec<ValidationRule>,
}

/// Go's `schema.ValueValidation`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueValidation {
    pub format: String,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub pattern: String,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub multiple_of: Option<f64>,
    pub enum_: Vec<Value>,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Vec<String>,
    pub all_of: Vec<NestedValueValidation>,
    pub one_of: Vec<NestedValueValidation>,
    pub any_of: Vec<NestedValueValidation>,
    pub not: Option<Box<NestedValueValidation>>,
}

/// Go's `schema.NestedValueValidation`: a junctor branch. Generic and extension
/// keywords are kept as "forbidden" so that the invariants can report them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NestedValueValidation {
    pub value_validation: ValueValidation,
    pub validation_extensions: ValidationExtensions,
    pub items: Option<Box<NestedValueValidation>>,
    pub properties: IndexMap<String, NestedValueValidation>,
    pub additional_properties: Option<Box<NestedValueValidation>>,
    pub forbidden_generics: Generic,
    pub forbidden_extensions: Extensions,
}

// ---------------------------------------------------------------------------
// NewStructural (convert.go)
// ---------------------------------------------------------------------------

const ITEMS_ARRAY: &str = "OpenAPIV3Schema 'items' must be a schema, but is an array";

/// Go's `NewStructural`: the structural form of a schema, or the first conversion
/// error (`OpenAPIV3Schema 'items' must be a schema, but is an array`,
/// `OpenAPIV3Schema '<keyword>' is not supported`, ...).
///
/// The order of the checks is Go's: the node's unsupported keywords, then its `not`,
/// `allOf`, `anyOf`, `oneOf` branches (recursively), then
/// `x-kubernetes-preserve-unknown-fields: false`, then `items`, `properties`,
/// `additionalProperties`.
pub fn new_structural(s: &JsonSchemaProps) -> Result<Structural, String> {
    validate_unsupported_fields(s)?;
    let value_validation = new_value_validation(s)?;
    let generic = new_generics(s);
    let extensions = new_extensions(s)?;
    let mut ss = Structural {
        items: None,
        properties: IndexMap::new(),
        additional_properties: None,
        generic,
        extensions,
        validation_extensions: ValidationExtensions {
            x_validations: s.x_validations.clone(),
        },
        value_validation,
    };
    match s.items.as_deref() {
        Some(JsonSchemaPropsOrArray::Schema(item)) => ss.items = Some(Box::new(new_structural(item)?)),
        // `items: []` converts to no items at all.
        Some(JsonSchemaPropsOrArray::Array(a)) if !a.is_empty() => return Err(ITEMS_ARRAY.into()),
        _ => {}
    }
    for (k, v) in &s.properties {
        ss.properties.insert(k.clone(), new_structural(v)?);
    }
    if let Some(ap) = &s.additional_properties {
        ss.additional_properties = Some(Box::new(match &ap.schema {
            Some(schema) => StructuralOrBool {
                structural: Some(Box::new(new_structural(schema)?)),
                bool: true,
            },
            None => StructuralOrBool {
                structural: None,
                bool: ap.allows,
            },
        }));
    }
    Ok(ss)
}

fn new_generics(s: &JsonSchemaProps) -> Generic {
    Generic {
        description: s.description.clone(),
        type_: s.type_.clone(),
        title: s.title.clone(),
        default: s.default.clone(),
        nullable: s.nullable,
        external_docs: s.external_docs.clone(),
        example: s.example.clone(),
    }
}

fn new_value_validation(s: &JsonSchemaProps) -> Result<ValueValidation, String> {
    let not = match &s.not {
        Some(n) => Some(Box::new(new_nested_value_validation(n)?)),
        None => None,
    };
    let mut v = ValueValidation {
        format: s.format.clone(),
        maximum: s.maximum,
        exclusive_maximum: s.exclusive_maximum,
        minimum: s.minimum,
        exclusive_minimum: s.exclusive_minimum,
        max_length: s.max_length,
        min_length: s.min_length,
        pattern: s.pattern.clone(),
        max_items: s.max_items,
        min_items: s.min_items,
        unique_items: s.unique_items,
        multiple_of: s.multiple_of,
        enum_: s.enum_.clone(),
        max_properties: s.max_properties,
        min_properties: s.min_properties,
        required: s.required.clone(),
        not,
        ..Default::default()
    };
    for x in &s.all_of {
        v.all_of.push(new_nested_value_validation(x)?);
    }
    for x in &s.any_of {
        v.any_of.push(new_nested_value_validation(x)?);
    }
    for x in &s.one_of {
        v.one_of.push(new_nested_value_validation(x)?);
    }
    Ok(v)
}

fn new_nested_value_validation(s: &JsonSchemaProps) -> Result<NestedValueValidation, String> {
    validate_unsupported_fields(s)?;
    let value_validation = new_value_validation(s)?;
    let forbidden_generics = new_generics(s);
    let forbidden_extensions = new_extensions(s)?;
    let mut v = NestedValueValidation {
        value_validation,
        validation_extensions: ValidationExtensions {
            x_validations: s.x_validations.clone(),
        },
        items: None,
        properties: IndexMap::new(),
        additional_properties: None,
        forbidden_generics,
        forbidden_extensions,
    };
    match s.items.as_deref() {
        Some(JsonSchemaPropsOrArray::Schema(item)) => v.items = Some(Box::new(new_nested_value_validation(item)?)),
        Some(JsonSchemaPropsOrArray::Array(a)) if !a.is_empty() => return Err(ITEMS_ARRAY.into()),
        _ => {}
    }
    for (k, x) in &s.properties {
        v.properties.insert(k.clone(), new_nested_value_validation(x)?);
    }
    if let Some(ap) = &s.additional_properties {
        if let Some(schema) = &ap.schema {
            v.additional_properties = Some(Box::new(new_nested_value_validation(schema)?));
        } else if ap.allows {
            v.additional_properties = Some(Box::default());
        }
    }
    Ok(v)
}

fn new_extensions(s: &JsonSchemaProps) -> Result<Extensions, String> {
    if s.x_preserve_unknown_fields == Some(false) {
        return Err("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined".into());
    }
    Ok(Extensions {
        x_preserve_unknown_fields: s.x_preserve_unknown_fields == Some(true),
        x_embedded_resource: s.x_embedded_resource,
        x_int_or_string: s.x_int_or_string,
        x_list_map_keys: s.x_list_map_keys.clone(),
        x_list_type: s.x_list_type.clone(),
        x_map_type: s.x_map_type.clone(),
    })
}

/// Go's `validateUnsupportedFields`. `$schema` is the Go field `Schema`, hence
/// `'schema'`. An empty `$ref: ""` passes here (Go checks `len(*s.Ref) > 0`), while
/// the schema check reports it.
fn validate_unsupported_fields(s: &JsonSchemaProps) -> Result<(), String> {
    let unsupported = |name: &str| Err(format!("OpenAPIV3Schema '{name}' is not supported"));
    if !s.id.is_empty() {
        return unsupported("id");
    }
    if !s.schema.is_empty() {
        return unsupported("schema");
    }
    if s.ref_.as_deref().is_some_and(|r| !r.is_empty()) {
        return unsupported("$ref");
    }
    if !s.pattern_properties.is_empty() {
        return unsupported("patternProperties");
    }
    if !s.dependencies.is_empty() {
        return unsupported("dependencies");
    }
    if s.additional_items.is_some() {
        return unsupported("additionalItems");
    }
    if !s.definitions.is_empty() {
        return unsupported("definitions");
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// ValidateStructural (validation.go + complete.go)
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

/// Go's `ValidationOptions`; CRDs use all `false`.
#[derive(Clone, Copy, Default)]
struct Options {
    allow_nested_additional_properties: bool,
    allow_nested_x_validations: bool,
    allow_validation_properties_with_additional_properties: bool,
}

/// Go's `ValidateStructural`: the invariants and the completeness of `s` at `path`,
/// sorted by their text like the API server sorts them.
pub fn validate_structural(path: &FieldPath, s: &Structural) -> Vec<FieldError> {
    let opts = Options::default();
    let mut errs = validate_structural_invariants(s, Level::Root, path, opts);
    errs.extend(validate_structural_completeness(s, path, opts));
    errs.sort_by_cached_key(|e| e.to_string());
    errs
}

fn validate_structural_invariants(s: &Structural, lvl: Level, path: &FieldPath, opts: Options) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if s.generic.type_ == "array" && s.items.is_none() {
        errs.push(FieldError::required(
            path.child("items").to_string(),
            "must be specified",
        ));
    }
    if let Some(items) = &s.items {
        errs.extend(validate_structural_invariants(
            items,
            Level::Item,
            &path.child("items"),
            opts,
        ));
    }
    for (k, v) in &s.properties {
        errs.extend(validate_structural_invariants(
            v,
            Level::Field,
            &path.child("properties").key(k),
            opts,
        ));
    }
    if let Some(ap) = &s.additional_properties {
        if lvl == Level::Root {
            errs.push(FieldError::forbidden(
                path.child("additionalProperties").to_string(),
                "must not be used at the root",
            ));
        }
        if let Some(st) = &ap.structural {
            errs.extend(validate_structural_invariants(
                st,
                Level::Field,
                &path.child("additionalProperties"),
                opts,
            ));
        }
    }
    errs.extend(validate_extensions(&s.extensions, path));

    let skip_any_of = is_int_or_string_any_of_pattern(&s.value_validation);
    let skip_first_all_of_any_of = is_int_or_string_all_of_pattern(&s.value_validation);
    errs.extend(validate_value_validation(
        &s.value_validation,
        skip_any_of,
        skip_first_all_of_any_of,
        lvl,
        path,
        opts,
    ));

    let check_metadata = lvl == Level::Root || s.extensions.x_embedded_resource;
    let type_ = s.generic.type_.as_str();
    if s.extensions.x_embedded_resource && type_ != "object" {
        let detail = "must be object if x-kubernetes-embedded-resource is true";
        if type_.is_empty() {
            errs.push(FieldError::required(path.child("type").to_string(), detail));
        } else {
            errs.push(FieldError::invalid(
                path.child("type").to_string(),
                Value::from(type_),
                detail,
            ));
        }
    } else if type_.is_empty() && !s.extensions.x_int_or_string && !s.extensions.x_preserve_unknown_fields {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(path.child("type").to_string(), detail));
    }
    if s.extensions.x_embedded_resource && s.additional_properties.is_some() {
        errs.push(FieldError::forbidden(
            path.child("additionalProperties").to_string(),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !type_.is_empty() && type_ != "object" {
        errs.push(FieldError::invalid(
            path.child("type").to_string(),
            Value::from(type_),
            "must be object at the root",
        ));
    }
    for meta in ["kind", "apiVersion"] {
        if let Some(p) = s.properties.get(meta)
            && check_metadata
            && p.generic.type_ != "string"
        {
            errs.push(FieldError::invalid(
                path.child("properties").key(meta).child("type").to_string(),
                Value::from(p.generic.type_.as_str()),
                "must be string",
            ));
        }
    }
    if let Some(metadata) = s.properties.get("metadata") {
        errs.extend(validate_structural_metadata_invariants(
            metadata,
            check_metadata,
            lvl,
            &path.child("properties").key("metadata"),
        ));
    }
    if s.extensions.x_embedded_resource && !s.extensions.x_preserve_unknown_fields && s.properties.is_empty() {
        errs.push(FieldError::required(
            path.child("properties").to_string(),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
    errs
}

/// Go's `validateStructuralMetadataInvariants`. At the root, `metadata` may only be
/// `type: object` (and a `default`, checked elsewhere) with at most the properties
/// `name` and `generateName`, whatever their schemas.
fn validate_structural_metadata_invariants(
    s: &Structural,
    check_metadata: bool,
    lvl: Level,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if check_metadata && s.generic.type_ != "object" {
        errs.push(FieldError::invalid(
            path.child("type").to_string(),
            Value::from(s.generic.type_.as_str()),
            "must be object",
        ));
    }
    if lvl == Level::Root {
        let mut s = s.clone();
        let found_name = s.properties.contains_key("name");
        let found_generate_name = s.properties.contains_key("generateName");
        if (found_name && found_generate_name && s.properties.len() == 2)
            || ((found_name || found_generate_name) && s.properties.len() == 1)
        {
            s.properties.clear();
        }
        s.generic.type_.clear();
        s.generic.default = None;
        if s != Structural::default() {
            errs.push(FieldError::forbidden(
                path.to_string(),
                "must not specify anything other than name and generateName, but metadata is implicitly specified",
            ));
        }
    }
    errs
}

/// `anyOf: [{type: integer}, {type: string}]`, nothing else in either branch.
fn int_or_string_any_of() -> [NestedValueValidation; 2] {
    let branch = |t: &str| NestedValueValidation {
        forbidden_generics: Generic {
            type_: t.to_string(),
            ..Default::default()
        },
        ..Default::default()
    };
    [branch("integer"), branch("string")]
}

/// Go's `isIntOrStringAnyOfPattern`. Note that it applies to any node, whether or not
/// it has `x-kubernetes-int-or-string: true`.
fn is_int_or_string_any_of_pattern(v: &ValueValidation) -> bool {
    v.any_of.len() == 2 && v.any_of[..] == int_or_string_any_of()[..]
}

/// Go's `isIntOrStringAllOfPattern`: `allOf[0].anyOf` is the int-or-string pattern
/// (further `allOf` entries allowed); again for any node.
fn is_int_or_string_all_of_pattern(v: &ValueValidation) -> bool {
    v.all_of.first().is_some_and(|first| {
        first.value_validation.any_of.len() == 2 && first.value_validation.any_of[..] == int_or_string_any_of()[..]
    })
}

fn validate_extensions(x: &Extensions, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if x.x_int_or_string && x.x_preserve_unknown_fields {
        errs.push(FieldError::invalid(
            path.child("x-kubernetes-preserve-unknown-fields").to_string(),
            Value::Bool(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if x.x_int_or_string && x.x_embedded_resource {
        errs.push(FieldError::invalid(
            path.child("x-kubernetes-embedded-resource").to_string(),
            Value::Bool(true),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    errs
}

fn validate_value_validation(
    v: &ValueValidation,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    lvl: Level,
    path: &FieldPath,
    opts: Options,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let opts_without_cel = Options {
        allow_nested_x_validations: false,
        ..opts
    };
    if !skip_any_of {
        for (i, x) in v.any_of.iter().enumerate() {
            errs.extend(validate_nested_value_validation(
                x,
                false,
                false,
                lvl,
                &path.child("anyOf").index(i),
                opts_without_cel,
            ));
        }
    }
    for (i, x) in v.all_of.iter().enumerate() {
        let skip = skip_first_all_of_any_of && i == 0;
        errs.extend(validate_nested_value_validation(
            x,
            skip,
            false,
            lvl,
            &path.child("allOf").index(i),
            opts,
        ));
    }
    for (i, x) in v.one_of.iter().enumerate() {
        errs.extend(validate_nested_value_validation(
            x,
            false,
            false,
            lvl,
            &path.child("oneOf").index(i),
            opts_without_cel,
        ));
    }
    if let Some(not) = &v.not {
        errs.extend(validate_nested_value_validation(
            not,
            false,
            false,
            lvl,
            &path.child("not"),
            opts_without_cel,
        ));
    }
    if !v.pattern.is_empty()
        && let Err(e) = goregexp::compile(&v.pattern)
    {
        errs.push(FieldError::invalid(
            path.child("pattern").to_string(),
            Value::from(v.pattern.as_str()),
            format!("must be a valid regular expression, but isn't: {e}"),
        ));
    }
    errs
}

fn validate_nested_value_validation(
    v: &NestedValueValidation,
    skip_any_of: bool,
    skip_all_of_any_of: bool,
    lvl: Level,
    path: &FieldPath,
    opts: Options,
) -> Vec<FieldError> {
    let mut errs = validate_value_validation(&v.value_validation, skip_any_of, skip_all_of_any_of, lvl, path, opts);
    if let Some(items) = &v.items {
        errs.extend(validate_nested_value_validation(
            items,
            false,
            false,
            lvl,
            &path.child("items"),
            opts,
        ));
    }
    for (k, fld) in &v.properties {
        errs.extend(validate_nested_value_validation(
            fld,
            false,
            false,
            Level::Field,
            &path.child("properties").key(k),
            opts,
        ));
    }
    let forbidden = |name: &str, detail: &str| FieldError::forbidden(path.child(name).to_string(), detail);
    let g = &v.forbidden_generics;
    let x = &v.forbidden_extensions;
    if !g.type_.is_empty() {
        errs.push(forbidden("type", "must be empty to be structural"));
    }
    if v.additional_properties.is_some() && !opts.allow_nested_additional_properties {
        errs.push(forbidden("additionalProperties", "must be undefined to be structural"));
    } else if let Some(ap) = &v.additional_properties {
        errs.extend(validate_nested_value_validation(
            ap,
            false,
            false,
            lvl,
            &path.child("additionalProperties"),
            opts,
        ));
    }
    if g.default.is_some() {
        errs.push(forbidden("default", "must be undefined to be structural"));
    }
    if !g.title.is_empty() {
        errs.push(forbidden("title", "must be empty to be structural"));
    }
    if !g.description.is_empty() {
        errs.push(forbidden("description", "must be empty to be structural"));
    }
    if g.nullable {
        errs.push(forbidden("nullable", "must be false to be structural"));
    }
    if x.x_preserve_unknown_fields {
        errs.push(forbidden(
            "x-kubernetes-preserve-unknown-fields",
            "must be false to be structural",
        ));
    }
    if x.x_embedded_resource {
        errs.push(forbidden(
            "x-kubernetes-embedded-resource",
            "must be false to be structural",
        ));
    }
    if x.x_int_or_string {
        errs.push(forbidden(
            "x-kubernetes-int-or-string",
            "must be false to be structural",
        ));
    }
    if !x.x_list_map_keys.is_empty() {
        errs.push(forbidden(
            "x-kubernetes-list-map-keys",
            "must be empty to be structural",
        ));
    }
    if x.x_list_type.is_some() {
        errs.push(forbidden(
            "x-kubernetes-list-type",
            "must be undefined to be structural",
        ));
    }
    if x.x_map_type.is_some() {
        errs.push(forbidden("x-kubernetes-map-type", "must be undefined to be structural"));
    }
    if !v.validation_extensions.x_validations.is_empty() && !opts.allow_nested_x_validations {
        errs.push(forbidden("x-kubernetes-validations", "must be empty to be structural"));
    }
    if v.properties.contains_key("metadata") {
        errs.push(FieldError::forbidden(
            path.child("properties").key("metadata").to_string(),
            "must not be specified in a nested context",
        ));
    }
    errs
}

/// Go's `validateStructuralCompleteness`: only the root's own junctors are compared
/// with the spine (the junctors of nested nodes are not: the implementation reaches
/// less far than the documented rule).
fn validate_structural_completeness(s: &Structural, path: &FieldPath, opts: Options) -> Vec<FieldError> {
    validate_value_validation_completeness(&s.value_validation, Some(s), path, path, opts)
}

fn because(s_path: &FieldPath, v_path: &FieldPath) -> FieldError {
    FieldError::required(s_path.to_string(), format!("because it is defined in {v_path}"))
}

fn validate_value_validation_completeness(
    v: &ValueValidation,
    s: Option<&Structural>,
    s_path: &FieldPath,
    v_path: &FieldPath,
    opts: Options,
) -> Vec<FieldError> {
    let Some(s) = s else {
        return vec![because(s_path, v_path)];
    };
    let mut errs = Vec::new();
    if let Some(not) = &v.not {
        errs.extend(validate_nested_value_validation_completeness(
            not,
            Some(s),
            s_path,
            &v_path.child("not"),
            opts,
        ));
    }
    for (i, x) in v.all_of.iter().enumerate() {
        errs.extend(validate_nested_value_validation_completeness(
            x,
            Some(s),
            s_path,
            &v_path.child("allOf").index(i),
            opts,
        ));
    }
    for (i, x) in v.any_of.iter().enumerate() {
        errs.extend(validate_nested_value_validation_completeness(
            x,
            Some(s),
            s_path,
            &v_path.child("anyOf").index(i),
            opts,
        ));
    }
    for (i, x) in v.one_of.iter().enumerate() {
        errs.extend(validate_nested_value_validation_completeness(
            x,
            Some(s),
            s_path,
            &v_path.child("oneOf").index(i),
            opts,
        ));
    }
    errs
}

fn validate_nested_value_validation_completeness(
    v: &NestedValueValidation,
    s: Option<&Structural>,
    s_path: &FieldPath,
    v_path: &FieldPath,
    opts: Options,
) -> Vec<FieldError> {
    let Some(s) = s else {
        return vec![because(s_path, v_path)];
    };
    let mut errs = validate_value_validation_completeness(&v.value_validation, Some(s), s_path, v_path, opts);
    if let Some(items) = &v.items {
        errs.extend(validate_nested_value_validation_completeness(
            items,
            s.items.as_deref(),
            &s_path.child("items"),
            &v_path.child("items"),
            opts,
        ));
    }
    let s_additional = s.additional_properties.as_ref().and_then(|ap| ap.structural.as_deref());
    for (k, v_fld) in &v.properties {
        match s.properties.get(k) {
            None => {
                if s_additional.is_none() || !opts.allow_validation_properties_with_additional_properties {
                    errs.push(because(
                        &s_path.child("properties").key(k),
                        &v_path.child("properties").key(k),
                    ));
                } else {
                    errs.extend(validate_nested_value_validation_completeness(
                        v_fld,
                        s_additional,
                        &s_path.child("additionalProperties"),
                        &v_path.child("properties").key(k),
                        opts,
                    ));
                }
            }
            Some(s_fld) => errs.extend(validate_nested_value_validation_completeness(
                v_fld,
                Some(s_fld),
                &s_path.child("properties").key(k),
                &v_path.child("properties").key(k),
                opts,
            )),
        }
    }
    if let Some(ap) = &v.additional_properties
        && opts.allow_nested_additional_properties
    {
        errs.extend(validate_nested_value_validation_completeness(
            ap,
            s_additional,
            &s_path.child("additionalProperties"),
            &v_path.child("additionalProperties"),
            opts,
        ));
    }
    errs
}
