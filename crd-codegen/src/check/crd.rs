//! CRD-level checks: mirrors `ValidateCustomResourceDefinition`,
//! `validateCustomResourceDefinitionSpec`, `validateCustomResourceDefinitionVersion`,
//! `validateDeprecationWarning`, `ValidateCustomResourceDefinitionNames`,
//! `ValidateCustomResourceColumnDefinition`, `ValidateCustomResourceSelectableFields`,
//! `ValidateCustomResourceDefinitionSubresources`, `validateSimpleJSONPath`,
//! `validateCustomResourceConversion`, `validateConversionReviewVersions`,
//! `ValidateCustomResourceDefinitionStoredVersions` and `validatePreserveUnknownFields`
//! of `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go`,
//! with the options of a create.
//!
//! Paths are the internal type's: printer columns report `JSONPath`, the conversion
//! webhook `spec.conversion.webhookClientConfig`, whatever the document's version.

use super::fieldpath_rule::valid_field_path;
use super::gojson;
use super::schema::validate_custom_resource_definition_validation;
use super::structural::{Structural, new_structural};
use super::webhook;
use super::{MAX_SELECTABLE_FIELDS, RuleCompiler};
use crate::fieldpath::{FieldPath, Seg};
use crate::model::*;
use crd_runtime::FieldError;
use crd_runtime::gofmt;
use crd_runtime::k8s_format::{is_dns1035_label, is_dns1123_subdomain, name_is_dns_subdomain};
use serde_json::Value;
use std::collections::HashSet;

/// `printerColumnDatatypes`, sorted.
const PRINTER_COLUMN_TYPES: &str = "boolean,date,integer,number,string";
/// `customResourceColumnDefinitionFormats`, sorted.
const PRINTER_COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

fn spec_path() -> FieldPath {
    FieldPath::new("spec")
}

/// Go's `ValidateCustomResourceDefinition` for a create.
pub(crate) fn validate_custom_resource_definition(
    crd: &CustomResourceDefinition,
    stages: &dyn RuleCompiler,
) -> Vec<FieldError> {
    let mut errs = validate_object_meta(crd);
    errs.extend(validate_spec(&crd.spec, stages));
    // `status.acceptedNames` is empty on create: nothing to check.
    let stored = match &crd.stored_versions {
        None => stored_versions_on_create(&crd.spec),
        Some(stored) => stored_versions_on_update(stored, &crd.spec),
    };
    errs.extend(validate_stored_versions(&stored, &crd.spec.versions));
    errs.extend(validate_api_approval(crd));
    errs.extend(validate_preserve_unknown_fields(&crd.spec));
    errs
}

/// The name part of `ValidateObjectMeta` with the CRD's name function.
fn validate_object_meta(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let path = FieldPath::new("metadata").child("name").to_string();
    if crd.name.is_empty() {
        return vec![FieldError::required(path, "name or generateName is required")];
    }
    let mut msgs = name_is_dns_subdomain(&crd.name, false);
    if crd.name != format!("{}.{}", crd.spec.names.plural, crd.spec.group) {
        msgs.push(r#"must be spec.names.plural+"."+spec.group"#.to_string());
    }
    msgs.into_iter()
        .map(|m| FieldError::invalid(path.clone(), Value::from(crd.name.as_str()), m))
        .collect()
}

/// The annotation approving an API in a protected group.
pub const API_APPROVED: &str = "api-approved.kubernetes.io";

/// `validateAPIApproval` on a create: a CRD of a protected community group
/// (`k8s.io`, `kubernetes.io` and their subdomains, `IsProtectedCommunityGroup`)
/// needs the approval annotation: a URL (with scheme and host), or a reason
/// starting with `unapproved` (`GetAPIApprovalState`).
fn validate_api_approval(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let group = crd.spec.group.as_str();
    let protected = ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|g| group == *g || group.strip_suffix(g).is_some_and(|p| p.ends_with('.')));
    if !protected {
        return Vec::new();
    }
    let path = FieldPath::new("metadata")
        .child("annotations")
        .key(API_APPROVED)
        .to_string();
    let value = crd.annotations.get(API_APPROVED).map_or("", String::as_str);
    let approved_url = || {
        crd_runtime::url::parse_request_uri(value).is_ok_and(|u| !u.get_scheme().is_empty() && !u.get_host().is_empty())
    };
    if value.is_empty() {
        let reason = format!(
            "protected groups must have approval annotation {API_APPROVED:?}, see https://github.com/kubernetes/enhancements/pull/1111"
        );
        vec![FieldError::required(path, reason)]
    } else if value.starts_with("unapproved") || approved_url() {
        Vec::new()
    } else {
        let reason = format!(
            "protected groups must have approval annotation {API_APPROVED:?} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"
        );
        vec![FieldError::invalid(path, Value::from(value), reason)]
    }
}

/// `PrepareForCreate`: the stored versions start as the first storage version.
fn stored_versions_on_create(spec: &CustomResourceDefinitionSpec) -> Vec<String> {
    spec.versions
        .iter()
        .find(|v| v.storage)
        .map(|v| vec![v.name.clone()])
        .unwrap_or_default()
}

/// `PrepareForUpdate` of a CRD whose stored object has `stored`: the (first) storage
/// version is appended when it is not there yet.
fn stored_versions_on_update(stored: &[String], spec: &CustomResourceDefinitionSpec) -> Vec<String> {
    match spec.versions.iter().find(|v| v.storage) {
        Some(storage) => crd_runtime::conversion::stored_versions_after_write(stored, &storage.name),
        None => stored.to_vec(),
    }
}

/// Go's `ValidateCustomResourceDefinitionStoredVersions`.
fn validate_stored_versions(stored: &[String], versions: &[CustomResourceDefinitionVersion]) -> Vec<FieldError> {
    let path = FieldPath::new("status").child("storedVersions");
    // A nil slice marshals as `null`.
    let stored_value = if stored.is_empty() {
        Value::Null
    } else {
        Value::from(stored.to_vec())
    };
    if stored.is_empty() {
        return vec![FieldError::invalid(
            path.to_string(),
            stored_value,
            "must have at least one stored version",
        )];
    }
    let mut errs = Vec::new();
    let mut remaining: Vec<(usize, &String)> = stored.iter().enumerate().collect();
    for v in versions {
        let found = stored.contains(&v.name);
        if v.storage && !found {
            errs.push(FieldError::invalid(
                path.to_string(),
                stored_value.clone(),
                format!("must have the storage version {}", v.name),
            ));
        }
        remaining.retain(|(_, s)| **s != v.name);
    }
    for (i, v) in remaining {
        errs.push(FieldError::invalid(
            path.index(i).to_string(),
            Value::from(v.as_str()),
            format!(
                "missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"
            ),
        ));
    }
    errs
}

/// Go's `validatePreserveUnknownFields` (create).
fn validate_preserve_unknown_fields(spec: &CustomResourceDefinitionSpec) -> Vec<FieldError> {
    if spec.preserve_unknown_fields == Some(true) {
        return vec![FieldError::invalid(
            spec_path().child("preserveUnknownFields").to_string(),
            Value::Bool(true),
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        )];
    }
    Vec::new()
}

/// `spec.PreserveUnknownFields == nil || *spec.PreserveUnknownFields`. The model
/// reads an unset value as `false` (see `convert.rs`), like the v1 API.
fn preserve_unknown_fields(spec: &CustomResourceDefinitionSpec) -> bool {
    spec.preserve_unknown_fields == Some(true)
}

/// Go's `validateEnumStrings` with `required = true`.
fn validate_enum_string(path: &FieldPath, value: &str, accepted: &[&str]) -> Vec<FieldError> {
    if value.is_empty() {
        return vec![FieldError::required(path.to_string(), "")];
    }
    if accepted.contains(&value) {
        return Vec::new();
    }
    vec![FieldError::not_supported(
        path.to_string(),
        Value::from(value),
        accepted,
    )]
}

/// Go's `validateCustomResourceDefinitionSpec`.
fn validate_spec(spec: &CustomResourceDefinitionSpec, stages: &dyn RuleCompiler) -> Vec<FieldError> {
    let path = spec_path();
    let mut errs = Vec::new();

    let group_path = path.child("group").to_string();
    if spec.group.is_empty() {
        errs.push(FieldError::required(group_path, ""));
    } else {
        let e = is_dns1123_subdomain(&spec.group);
        if !e.is_empty() {
            errs.push(FieldError::invalid(
                group_path,
                Value::from(spec.group.as_str()),
                e.join(","),
            ));
        } else if spec.group.split('.').count() < 2 {
            errs.push(FieldError::invalid(
                group_path,
                Value::from(spec.group.as_str()),
                "should be a domain with at least one dot",
            ));
        }
    }

    errs.extend(validate_enum_string(
        &path.child("scope"),
        &spec.scope,
        &["Cluster", "Namespaced"],
    ));

    // requireOpenAPISchema: every version needs a schema when there is no top-level one.
    let top_schema = spec.validation.as_ref().and_then(|v| v.open_api_v3_schema.as_deref());
    if top_schema.is_none() {
        for (i, v) in spec.versions.iter().enumerate() {
            if v.schema
                .as_ref()
                .and_then(|s| s.open_api_v3_schema.as_deref())
                .is_none()
            {
                errs.push(FieldError::required(
                    path.child("versions")
                        .index(i)
                        .child("schema")
                        .child("openAPIV3Schema")
                        .to_string(),
                    "",
                ));
            }
        }
    }

    if spec_has_schema_with(spec, &|s| s.default.is_some()) && preserve_unknown_fields(spec) {
        errs.push(FieldError::invalid(
            path.child("preserveUnknownFields").to_string(),
            Value::Bool(true),
            "must be false in order to use defaults in the schema",
        ));
    }

    let mut storage_count = 0;
    let mut seen = HashSet::new();
    let mut unique_names = true;
    for (i, version) in spec.versions.iter().enumerate() {
        if version.storage {
            storage_count += 1;
        }
        if !seen.insert(version.name.as_str()) {
            unique_names = false;
        }
        let version_path = path.child("versions").index(i);
        let e = is_dns1035_label(&version.name);
        if !e.is_empty() {
            errs.push(FieldError::invalid(
                version_path.child("name").to_string(),
                Value::from(version.name.as_str()),
                e.join(","),
            ));
        }
        let status_enabled = subresources_for_version(spec, &version.name).is_some_and(|s| s.status.is_some());
        errs.extend(validate_version(version, &version_path, status_enabled, stages));
    }

    if spec.validation.is_some() && spec.versions.iter().any(|v| v.schema.is_some()) {
        errs.push(FieldError::forbidden(
            path.child("validation").to_string(),
            "top-level and per-version schemas are mutually exclusive",
        ));
    }
    if spec.subresources.is_some() && has_per_version_subresources(&spec.versions) {
        errs.push(FieldError::forbidden(
            path.child("subresources").to_string(),
            "top-level and per-version subresources are mutually exclusive",
        ));
    }
    if !spec.additional_printer_columns.is_empty()
        && spec.versions.iter().any(|v| !v.additional_printer_columns.is_empty())
    {
        errs.push(FieldError::forbidden(
            path.child("additionalPrinterColumns").to_string(),
            "top-level and per-version additionalPrinterColumns are mutually exclusive",
        ));
    }

    // Go prints an empty list as `[]`, an absent (nil) one as `null`. Rendered only for
    // an error: it holds every version's schema.
    let versions_json = || {
        if spec.versions.is_empty() && !spec.versions_absent {
            "[]".to_string()
        } else {
            gojson::versions(&spec.versions)
        }
    };
    let versions_invalid = |detail: &str| gojson::invalid_rendered(&path.child("versions"), versions_json(), detail);
    let identical =
        |set: &dyn Fn(&CustomResourceDefinitionVersion) -> bool,
         eq: &dyn Fn(&CustomResourceDefinitionVersion, &CustomResourceDefinitionVersion) -> bool| {
            spec.versions
                .first()
                .is_some_and(|first| spec.versions.iter().all(|v| set(v) && eq(v, first)))
        };
    if identical(&|v| v.schema.is_some(), &|a, b| a.schema == b.schema) {
        errs.push(versions_invalid(
            "per-version schemas may not all be set to identical values (top-level validation should be used instead)",
        ));
    }
    if identical(&|v| v.subresources.is_some(), &|a, b| a.subresources == b.subresources) {
        errs.push(versions_invalid(
            "per-version subresources may not all be set to identical values (top-level subresources should be used instead)",
        ));
    }
    if identical(&|v| !v.additional_printer_columns.is_empty(), &|a, b| {
        a.additional_printer_columns == b.additional_printer_columns
    }) {
        errs.push(versions_invalid(
            "per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)",
        ));
    }
    if !unique_names {
        errs.push(versions_invalid("must contain unique version names"));
    }
    if storage_count != 1 {
        errs.push(versions_invalid(
            "must have exactly one version marked as storage version",
        ));
    }
    if !spec.version.is_empty() {
        let version_path = path.child("version").to_string();
        let e = is_dns1035_label(&spec.version);
        if !e.is_empty() {
            errs.push(FieldError::invalid(
                version_path.clone(),
                Value::from(spec.version.as_str()),
                e.join(","),
            ));
        }
        if spec.versions.first().is_some_and(|v| v.name != spec.version) {
            errs.push(FieldError::invalid(
                version_path,
                Value::from(spec.version.as_str()),
                "must match the first version in spec.versions",
            ));
        }
    }

    let names_path = path.child("names");
    for (value, name) in [
        (&spec.names.plural, "plural"),
        (&spec.names.singular, "singular"),
        (&spec.names.kind, "kind"),
        (&spec.names.list_kind, "listKind"),
    ] {
        if value.is_empty() {
            errs.push(FieldError::required(names_path.child(name).to_string(), ""));
        }
    }
    errs.extend(validate_names(&spec.names, &names_path));

    let any_status = spec.subresources.as_ref().is_some_and(|s| s.status.is_some())
        || spec
            .versions
            .iter()
            .any(|v| v.subresources.as_ref().is_some_and(|s| s.status.is_some()));
    errs.extend(validate_custom_resource_definition_validation(
        spec.validation.as_ref(),
        any_status,
        &path.child("validation"),
        stages,
    ));
    errs.extend(validate_subresources(
        spec.subresources.as_ref(),
        &path.child("subresources"),
    ));
    for (i, col) in spec.additional_printer_columns.iter().enumerate() {
        errs.extend(validate_column(col, &path.child("additionalPrinterColumns").index(i)));
    }
    if !spec.selectable_fields.is_empty() {
        let fields_path = path.child("selectableFields");
        match &spec.validation {
            None => errs.push(FieldError::invalid(
                fields_path.to_string(),
                Value::from(""),
                "may only be set when validations.schema is included",
            )),
            Some(v) => {
                let structural = structural_for_selectable_fields(v.open_api_v3_schema.as_deref(), &path, &mut errs);
                errs.extend(validate_selectable_fields(
                    &spec.selectable_fields,
                    structural.as_ref(),
                    &fields_path,
                ));
            }
        }
    }

    if let Some(conversion) = &spec.conversion
        && conversion.strategy != "None"
        && preserve_unknown_fields(spec)
    {
        errs.push(FieldError::invalid(
            path.child("conversion").child("strategy").to_string(),
            Value::from(conversion.strategy.as_str()),
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    errs.extend(validate_conversion(spec.conversion.as_ref(), &path.child("conversion")));
    errs
}

/// `NewStructural` for the selectable fields; its error is reported at
/// `<path>.schema.openAPIV3Schema` (as Go does, also for the top-level schema).
fn structural_for_selectable_fields(
    schema: Option<&JsonSchemaProps>,
    path: &FieldPath,
    errs: &mut Vec<FieldError>,
) -> Option<Structural> {
    match schema.map(new_structural) {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            errs.push(FieldError::invalid(
                path.child("schema.openAPIV3Schema").to_string(),
                Value::from(""),
                e,
            ));
            None
        }
    }
}

/// Go's `getSubresourcesForVersion`.
fn subresources_for_version<'a>(
    spec: &'a CustomResourceDefinitionSpec,
    name: &str,
) -> Option<&'a CustomResourceSubresources> {
    if !has_per_version_subresources(&spec.versions) {
        return spec.subresources.as_ref();
    }
    spec.versions
        .iter()
        .find(|v| v.name == name)
        .and_then(|v| v.subresources.as_ref())
}

fn has_per_version_subresources(versions: &[CustomResourceDefinitionVersion]) -> bool {
    versions.iter().any(|v| v.subresources.is_some())
}

/// Go's `validateCustomResourceDefinitionVersion`.
fn validate_version(
    version: &CustomResourceDefinitionVersion,
    path: &FieldPath,
    status_enabled: bool,
    stages: &dyn RuleCompiler,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for e in validate_deprecation_warning(version.deprecated, version.deprecation_warning.as_deref()) {
        // The bad value is a `*string`: printed as JSON.
        let rendered = version
            .deprecation_warning
            .as_deref()
            .map_or_else(|| "null".to_string(), |w| gofmt::json(&Value::from(w)));
        errs.push(gojson::invalid_rendered(
            &path.child("deprecationWarning"),
            rendered,
            &e,
        ));
    }
    errs.extend(validate_custom_resource_definition_validation(
        version.schema.as_ref(),
        status_enabled,
        &path.child("schema"),
        stages,
    ));
    errs.extend(validate_subresources(
        version.subresources.as_ref(),
        &path.child("subresources"),
    ));
    for (i, col) in version.additional_printer_columns.iter().enumerate() {
        errs.extend(validate_column(col, &path.child("additionalPrinterColumns").index(i)));
    }
    if !version.selectable_fields.is_empty() {
        let fields_path = path.child("selectableFields");
        match version.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_deref()) {
            // Go's message says "is not included" where it means "is included".
            None => errs.push(FieldError::invalid(
                fields_path.to_string(),
                Value::from(""),
                "may only be set when `version.schema.openAPIV3Schema` is not included",
            )),
            Some(schema) => {
                let structural = structural_for_selectable_fields(Some(schema), path, &mut errs);
                errs.extend(validate_selectable_fields(
                    &version.selectable_fields,
                    structural.as_ref(),
                    &fields_path,
                ));
            }
        }
    }
    errs
}

/// Go's `unicode.IsPrint`: Latin-1 printable characters (not U+00AD), elsewhere the
/// categories L, M, N, P and S.
fn is_print(c: char) -> bool {
    let r = c as u32;
    if r <= 0xff {
        return (0x20..=0x7e).contains(&r) || ((0xa1..=0xff).contains(&r) && r != 0xad);
    }
    static PRINT: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^[\p{L}\p{M}\p{N}\p{P}\p{S}]$").ok());
    let mut buf = [0u8; 4];
    PRINT.as_ref().is_some_and(|re| re.is_match(c.encode_utf8(&mut buf)))
}

/// Go's `validateDeprecationWarning`. Indices are byte offsets, as Go's `range`
/// over a string yields. (A control character is never printable, so Go's "control
/// character found" message cannot occur.)
fn validate_deprecation_warning(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    let Some(w) = warning else {
        return Vec::new();
    };
    if !deprecated {
        return vec!["can only be set for deprecated versions".into()];
    }
    let mut errs = Vec::new();
    if w.len() > 256 {
        errs.push("must be <= 256 characters long".into());
    }
    if w.is_empty() {
        errs.push("must not be an empty string".into());
    }
    if let Some((i, _)) = w.char_indices().find(|(_, c)| !is_print(*c)) {
        errs.push(format!(
            "must only contain printable UTF-8 characters; non-printable character found at index {i}"
        ));
    }
    errs
}

/// Go's `ValidateCustomResourceDefinitionNames`.
fn validate_names(names: &CustomResourceDefinitionNames, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let invalid = |name: &str, value: &str, detail: String| {
        FieldError::invalid(path.child(name).to_string(), Value::from(value), detail)
    };
    for (value, name) in [(&names.plural, "plural"), (&names.singular, "singular")] {
        let e = is_dns1035_label(value);
        if !value.is_empty() && !e.is_empty() {
            errs.push(invalid(name, value, e.join(",")));
        }
    }
    for (value, name) in [(&names.kind, "kind"), (&names.list_kind, "listKind")] {
        let e = is_dns1035_label(&value.to_lowercase());
        if !value.is_empty() && !e.is_empty() {
            errs.push(invalid(
                name,
                value,
                format!("may have mixed case, but should otherwise match: {}", e.join(",")),
            ));
        }
    }
    for (i, short) in names.short_names.iter().enumerate() {
        let e = is_dns1035_label(short);
        if !e.is_empty() {
            errs.push(FieldError::invalid(
                path.child("shortNames").index(i).to_string(),
                Value::from(short.as_str()),
                e.join(","),
            ));
        }
    }
    if !names.kind.is_empty() && names.kind == names.list_kind {
        errs.push(invalid(
            "listKind",
            &names.list_kind,
            "kind and listKind may not be the same".into(),
        ));
    }
    for (i, category) in names.categories.iter().enumerate() {
        let e = is_dns1035_label(category);
        if !e.is_empty() {
            errs.push(FieldError::invalid(
                path.child("categories").index(i).to_string(),
                Value::from(category.as_str()),
                e.join(","),
            ));
        }
    }
    errs
}

/// Go's `ValidateCustomResourceColumnDefinition`.
fn validate_column(col: &CustomResourceColumnDefinition, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if col.name.is_empty() {
        errs.push(FieldError::required(path.child("name").to_string(), ""));
    }
    let types_detail = format!("must be one of {PRINTER_COLUMN_TYPES}");
    if col.type_.is_empty() {
        errs.push(FieldError::required(path.child("type").to_string(), types_detail));
    } else if !PRINTER_COLUMN_TYPES.split(',').any(|t| t == col.type_) {
        errs.push(FieldError::invalid(
            path.child("type").to_string(),
            Value::from(col.type_.as_str()),
            types_detail,
        ));
    }
    if !col.format.is_empty() && !PRINTER_COLUMN_FORMATS.split(',').any(|f| f == col.format) {
        errs.push(FieldError::invalid(
            path.child("format").to_string(),
            Value::from(col.format.as_str()),
            format!("must be one of {PRINTER_COLUMN_FORMATS}"),
        ));
    }
    if col.json_path.is_empty() {
        errs.push(FieldError::required(path.child("JSONPath").to_string(), ""));
    } else {
        errs.extend(validate_simple_json_path(&col.json_path, &path.child("JSONPath")));
    }
    errs
}

/// Go's `validateSimpleJSONPath`. (Its "must be a json path in the dot notation"
/// branch cannot be reached: splitting a string always yields an element.)
fn validate_simple_json_path(s: &str, path: &FieldPath) -> Vec<FieldError> {
    if s.is_empty() {
        return vec![FieldError::invalid(
            path.to_string(),
            Value::from(s),
            "must not be empty",
        )];
    }
    if !s.starts_with('.') {
        return vec![FieldError::invalid(
            path.to_string(),
            Value::from(s),
            "must be a simple json path starting with .",
        )];
    }
    Vec::new()
}

/// Go's `ValidateCustomResourceDefinitionSubresources`.
fn validate_subresources(subresources: Option<&CustomResourceSubresources>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(scale) = subresources.and_then(|s| s.scale.as_ref()) else {
        return errs;
    };
    for (value, name, prefix, detail) in [
        (
            &scale.spec_replicas_path,
            "scale.specReplicasPath",
            ".spec.",
            "should be a json path under .spec",
        ),
        (
            &scale.status_replicas_path,
            "scale.statusReplicasPath",
            ".status.",
            "should be a json path under .status",
        ),
    ] {
        let p = path.child(name);
        if value.is_empty() {
            errs.push(FieldError::required(p.to_string(), ""));
            continue;
        }
        let e = validate_simple_json_path(value, &p);
        if !e.is_empty() {
            errs.extend(e);
        } else if !value.starts_with(prefix) {
            errs.push(FieldError::invalid(p.to_string(), Value::from(value.as_str()), detail));
        }
    }
    if let Some(selector) = scale.label_selector_path.as_deref()
        && !selector.is_empty()
    {
        let p = path.child("scale.labelSelectorPath");
        let e = validate_simple_json_path(selector, &p);
        if !e.is_empty() {
            errs.extend(e);
        } else if !selector.starts_with(".spec.") && !selector.starts_with(".status.") {
            // The bad value is a `*string`: printed as JSON.
            errs.push(gojson::invalid_rendered(
                &p,
                gofmt::json(&Value::from(selector)),
                "should be a json path under either .spec or .status",
            ));
        }
    }
    errs
}

/// Go's `ValidateCustomResourceSelectableFields` (create: never more than 8 allowed).
fn validate_selectable_fields(
    fields: &[SelectableField],
    schema: Option<&Structural>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut unique = HashSet::new();
    for (i, f) in fields.iter().enumerate() {
        let p = path.index(i).child("jsonPath");
        let value = || Value::from(f.json_path.as_str());
        if f.json_path.is_empty() {
            errs.push(FieldError::required(p.to_string(), ""));
            continue;
        }
        let (field_path, found) = match valid_field_path(&f.json_path, schema, false) {
            Ok(r) => r,
            Err(e) => {
                errs.push(FieldError::invalid(
                    p.to_string(),
                    value(),
                    format!("is an invalid path: {e}"),
                ));
                continue;
            }
        };
        if field_path.segments().first() == Some(&&Seg::Field("metadata".into())) {
            errs.push(FieldError::invalid(
                p.to_string(),
                value(),
                "must not point to fields in metadata",
            ));
        }
        if !found.is_some_and(|s| matches!(s.generic.type_.as_str(), "string" | "boolean" | "integer")) {
            errs.push(FieldError::invalid(
                p.to_string(),
                value(),
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        if !unique.insert(field_path.to_string()) {
            errs.push(FieldError::duplicate(p.to_string(), value()));
        }
    }
    if unique.len() > MAX_SELECTABLE_FIELDS {
        errs.push(FieldError::too_many(
            path.to_string(),
            unique.len() as i64,
            MAX_SELECTABLE_FIELDS as i64,
        ));
    }
    errs
}

/// Go's `validateCustomResourceConversion` (a create requires a recognized review
/// version).
fn validate_conversion(conversion: Option<&CustomResourceConversion>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(c) = conversion else {
        return errs;
    };
    errs.extend(validate_enum_string(
        &path.child("strategy"),
        &c.strategy,
        &["None", "Webhook"],
    ));
    let config_path = path.child("webhookClientConfig");
    if c.strategy == "Webhook" {
        match &c.webhook_client_config {
            None => errs.push(FieldError::required(
                config_path.to_string(),
                "required when strategy is set to Webhook",
            )),
            Some(cc) => match (&cc.url, &cc.service) {
                (Some(url), None) => errs.extend(webhook::validate_webhook_url(&config_path.child("url"), url)),
                // The API server passes the service's name where
                // `ValidateWebhookService` takes the namespace, and the namespace where
                // it takes the name (kubernetes/kubernetes#141353): a missing namespace
                // is reported as `service.name: Required value`, a missing name as
                // `service.namespace`. We print what the API server prints.
                (None, Some(svc)) => errs.extend(webhook::validate_webhook_service(
                    &config_path.child("service"),
                    &svc.name,
                    &svc.namespace,
                    svc.path.as_deref(),
                    svc.port,
                )),
                _ => errs.push(FieldError::required(
                    config_path.to_string(),
                    "exactly one of url or service is required",
                )),
            },
        }
        errs.extend(validate_conversion_review_versions(
            &c.conversion_review_versions,
            &path.child("conversionReviewVersions"),
        ));
    } else {
        if c.webhook_client_config.is_some() {
            errs.push(FieldError::forbidden(
                config_path.to_string(),
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !c.conversion_review_versions.is_empty() {
            errs.push(FieldError::forbidden(
                path.child("conversionReviewVersions").to_string(),
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
    errs
}

/// Go's `validateConversionReviewVersions` with `requireRecognizedVersion = true`.
fn validate_conversion_review_versions(versions: &[String], path: &FieldPath) -> Vec<FieldError> {
    if versions.is_empty() {
        return vec![FieldError::required(path.to_string(), "")];
    }
    let mut errs = Vec::new();
    let mut seen = HashSet::new();
    let mut has_accepted = false;
    for (i, v) in versions.iter().enumerate() {
        let p = path.index(i).to_string();
        if !seen.insert(v.as_str()) {
            errs.push(FieldError::invalid(p, Value::from(v.as_str()), "duplicate version"));
            continue;
        }
        for e in is_dns1035_label(v) {
            errs.push(FieldError::invalid(p.clone(), Value::from(v.as_str()), e));
        }
        if v == "v1" || v == "v1beta1" {
            has_accepted = true;
        }
    }
    if !has_accepted {
        errs.push(FieldError::invalid(
            path.to_string(),
            Value::from(versions.to_vec()),
            "must include at least one of v1, v1beta1",
        ));
    }
    errs
}

/// Go's `HasSchemaWith`: whether the top-level or any per-version schema has a node
/// (anywhere, junctors included) satisfying `pred`.
fn spec_has_schema_with(spec: &CustomResourceDefinitionSpec, pred: &dyn Fn(&JsonSchemaProps) -> bool) -> bool {
    let schemas = spec
        .validation
        .iter()
        .chain(spec.versions.iter().filter_map(|v| v.schema.as_ref()))
        .filter_map(|v| v.open_api_v3_schema.as_deref());
    for s in schemas {
        if schema_has(s, pred) {
            return true;
        }
    }
    false
}

/// Go's `SchemaHas`.
pub(crate) fn schema_has(s: &JsonSchemaProps, pred: &dyn Fn(&JsonSchemaProps) -> bool) -> bool {
    if pred(s) {
        return true;
    }
    if let Some(items) = s.items.as_deref() {
        match items {
            JsonSchemaPropsOrArray::Schema(i) => {
                if schema_has(i, pred) {
                    return true;
                }
            }
            JsonSchemaPropsOrArray::Array(a) => {
                if a.iter().any(|i| schema_has(i, pred)) {
                    return true;
                }
            }
        }
    }
    if s.all_of
        .iter()
        .chain(&s.any_of)
        .chain(&s.one_of)
        .any(|x| schema_has(x, pred))
    {
        return true;
    }
    if s.not.as_deref().is_some_and(|n| schema_has(n, pred)) {
        return true;
    }
    if s.properties.values().any(|p| schema_has(p, pred)) {
        return true;
    }
    if s.additional_properties
        .as_deref()
        .and_then(|a| a.schema.as_ref())
        .is_some_and(|a| schema_has(a, pred))
    {
        return true;
    }
    if s.pattern_properties.values().any(|p| schema_has(p, pred)) {
        return true;
    }
    if s.additional_items
        .as_deref()
        .and_then(|a| a.schema.as_ref())
        .is_some_and(|a| schema_has(a, pred))
    {
        return true;
    }
    if s.definitions.values().any(|p| schema_has(p, pred)) {
        return true;
    }
    s.dependencies.values().any(|d| {
        d.is_object() && serde_json::from_value::<JsonSchemaProps>(d.clone()).is_ok_and(|ds| schema_has(&ds, pred))
    })
}
