//! Reading a CRD document (`apiextensions.k8s.io/v1` or `v1beta1`) into the internal
//! model, the way the API server decodes, defaults and converts it.
//!
//! - v1 defaults: `names.singular = lower(kind)`, `names.listKind = kind + "List"`,
//!   `conversion = {strategy: None}`.
//! - v1beta1 is converted up: `spec.version` becomes the single version when
//!   `versions` is empty, top-level `validation`/`subresources`/
//!   `additionalPrinterColumns`/`selectableFields` apply to every version, printer
//!   columns read `JSONPath`, the conversion webhook fields move, `scope` defaults to
//!   `Namespaced`.
//! - Then, like the v1 → internal conversion, per-version fields that are identical in
//!   every version are hoisted to the top level, so that error paths read
//!   `spec.validation.openAPIV3Schema...` exactly as the API server prints them.
//!
//! One deliberate difference: v1beta1 defaulted `spec.preserveUnknownFields` to `true`
//! (no pruning at all). A CRD with that setting cannot be created through the v1 API,
//! and the schema is what users of generated types want honoured, so an unset value
//! is read as `false`. An explicit `true` is kept and rejected by the checks as the
//! API server rejects it.

use crate::diagnostic::Diagnostic;
use crate::fieldpath::FieldPath;
use crate::model::*;
use crate::source::Document;
use serde::Deserialize;
use serde_json::Value;

pub const V1: &str = "apiextensions.k8s.io/v1";
pub const V1BETA1: &str = "apiextensions.k8s.io/v1beta1";

/// What a document turned out to be.
pub enum Read {
    /// The CRD, and warnings (unknown fields) to show.
    Crd(Box<CustomResourceDefinition>, Vec<Diagnostic>),
    /// Not a CustomResourceDefinition: `(apiVersion, kind)`, for the skip note.
    Other(String, String),
}

/// Reads one document. Errors are decode errors (wrong types, unknown fields), each
/// naming its path; a document with errors yields no CRD. A CRD's value is taken from
/// the document (the document keeps its file and position, for messages): the
/// corpus's documents are hundreds of megabytes as values, and a copy of each was
/// most of what loading allocated.
pub fn read_crd(doc: &mut Document) -> Result<Read, Vec<Diagnostic>> {
    let api_version = doc.value.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    let kind = doc.value.get("kind").and_then(Value::as_str).unwrap_or_default();
    if kind != "CustomResourceDefinition" || !(api_version == V1 || api_version == V1BETA1) {
        return Ok(Read::Other(api_version.to_string(), kind.to_string()));
    }
    // Owned: the value is taken from the document below.
    let api_version = api_version.to_string();
    let beta = api_version == V1BETA1;
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut unknown = Vec::new();
    let mut value = std::mem::take(&mut doc.value);
    drop_nulls(&mut value, Context::Object);
    let ext: Result<ExternalCrd, _> = {
        let mut on_unknown = |path: serde_ignored::Path| unknown.push(ignored_path(&path));
        let de = serde_ignored::Deserializer::new(&value, &mut on_unknown);
        serde_path_to_error::deserialize(de)
    };
    for path in unknown {
        if !IGNORED.iter().any(|p| path.to_string().starts_with(p)) {
            // The API server's default field validation only warns about these.
            let mut d = Diagnostic::at_path(
                &doc.file,
                doc.index,
                &path.to_string(),
                format!("unknown field {}", crd_runtime::gofmt::quote(&path.to_string())),
            );
            d.severity = crate::diagnostic::Severity::Warning;
            warnings.push(d);
        }
    }
    let ext = match ext {
        Ok(ext) => ext,
        Err(e) => {
            let path = error_path(e.path());
            let message = format!("{path}: Invalid value: {}", e.inner());
            errors.push(Diagnostic::at_path(&doc.file, doc.index, &path.to_string(), message));
            return Err(errors);
        }
    };
    if !beta {
        for (set, name) in [
            (ext.spec.version.is_some(), "version"),
            (ext.spec.validation.is_some(), "validation"),
            (ext.spec.subresources.is_some(), "subresources"),
            (
                ext.spec.additional_printer_columns.is_some(),
                "additionalPrinterColumns",
            ),
            (ext.spec.selectable_fields.is_some(), "selectableFields"),
        ] {
            if set {
                let path = FieldPath::new("spec").child(name).to_string();
                let message = format!(
                    "unknown field {}: {name} is a v1beta1 field; in {V1} it is set per version",
                    crd_runtime::gofmt::quote(&path)
                );
                errors.push(Diagnostic::at_path(&doc.file, doc.index, &path, message));
            }
        }
    }
    if !errors.is_empty() {
        errors.extend(warnings);
        return Err(errors);
    }
    let crd = to_internal(&api_version, ext, &doc.file, doc.index)?;
    Ok(Read::Crd(Box::new(crd), warnings))
}

/// Where a JSON value sits in a CRD document.
#[derive(Clone, Copy)]
enum Context {
    /// Part of the CRD object outside schemas.
    Object,
    /// A schema node: keys are keywords.
    Schema,
    /// `properties` and the like: keys are names, values are schemas.
    SchemaMap,
}

/// Go's decoder treats a JSON `null` as "leave the field at its zero value"; serde
/// would reject `null` where a list or string is expected. Nulls are removed from
/// the CRD's own fields, but never inside `default`, `enum` or `example` data.
fn drop_nulls(v: &mut Value, ctx: Context) {
    match v {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            for (k, child) in map.iter_mut() {
                match ctx {
                    Context::SchemaMap => drop_nulls(child, Context::Schema),
                    Context::Schema => match k.as_str() {
                        "default" | "enum" | "example" => {}
                        "properties" | "patternProperties" | "definitions" | "dependencies" => {
                            drop_nulls(child, Context::SchemaMap)
                        }
                        "items" | "not" | "additionalProperties" | "additionalItems" | "allOf" | "anyOf" | "oneOf" => {
                            drop_nulls(child, Context::Schema)
                        }
                        _ => drop_nulls(child, Context::Object),
                    },
                    Context::Object => {
                        let next = if k == "openAPIV3Schema" {
                            Context::Schema
                        } else {
                            Context::Object
                        };
                        drop_nulls(child, next);
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                drop_nulls(item, ctx);
            }
        }
        _ => {}
    }
}

/// Paths whose contents we do not read: object metadata and status.
const IGNORED: &[&str] = &["metadata.", "status"];

fn ignored_path(path: &serde_ignored::Path) -> FieldPath {
    fn walk(p: &serde_ignored::Path, out: &mut Vec<PathStep>) {
        use serde_ignored::Path as P;
        match p {
            P::Root => {}
            P::Seq { parent, index } => {
                walk(parent, out);
                out.push(PathStep::Index(*index));
            }
            P::Map { parent, key } => {
                walk(parent, out);
                out.push(PathStep::Key(key.clone()));
            }
            P::Some { parent } | P::NewtypeStruct { parent } | P::NewtypeVariant { parent } => walk(parent, out),
        }
    }
    let mut steps = Vec::new();
    walk(path, &mut steps);
    to_field_path(&steps)
}

fn error_path(path: &serde_path_to_error::Path) -> FieldPath {
    let steps: Vec<PathStep> = path
        .iter()
        .filter_map(|s| match s {
            serde_path_to_error::Segment::Seq { index } => Some(PathStep::Index(*index)),
            serde_path_to_error::Segment::Map { key } => Some(PathStep::Key(key.clone())),
            _ => None,
        })
        .collect();
    to_field_path(&steps)
}

enum PathStep {
    Index(usize),
    Key(String),
}

/// Map keys under the schema maps print in brackets, like the API server's paths.
fn to_field_path(steps: &[PathStep]) -> FieldPath {
    let mut p = FieldPath::root();
    let mut prev_is_map_field = false;
    for step in steps {
        match step {
            PathStep::Index(i) => {
                p = p.index(*i);
                prev_is_map_field = false;
            }
            PathStep::Key(k) if prev_is_map_field => {
                p = p.key(k);
                prev_is_map_field = false;
            }
            PathStep::Key(k) => {
                p = p.child(k);
                prev_is_map_field = matches!(
                    k.as_str(),
                    "properties" | "patternProperties" | "definitions" | "dependencies"
                );
            }
        }
    }
    p
}

// ---- the external (serialised) forms ----

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExternalCrd {
    #[allow(dead_code)]
    api_version: String,
    #[allow(dead_code)]
    kind: String,
    #[serde(default)]
    metadata: ExternalMeta,
    #[serde(default)]
    spec: ExternalSpec,
    #[serde(default)]
    status: Option<ExternalStatus>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ExternalStatus {
    stored_versions: Option<Vec<String>>,
}

#[derive(Deserialize, Default)]
struct ExternalMeta {
    #[serde(default)]
    name: String,
    #[serde(default)]
    annotations: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ExternalSpec {
    group: String,
    names: CustomResourceDefinitionNames,
    scope: String,
    versions: Option<Vec<ExternalVersion>>,
    conversion: Option<ExternalConversion>,
    preserve_unknown_fields: Option<bool>,
    // v1beta1 only
    version: Option<String>,
    validation: Option<CustomResourceValidation>,
    subresources: Option<CustomResourceSubresources>,
    additional_printer_columns: Option<Vec<ExternalColumn>>,
    selectable_fields: Option<Vec<SelectableField>>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ExternalVersion {
    name: String,
    served: bool,
    storage: bool,
    deprecated: bool,
    deprecation_warning: Option<String>,
    schema: Option<CustomResourceValidation>,
    subresources: Option<CustomResourceSubresources>,
    additional_printer_columns: Option<Vec<ExternalColumn>>,
    selectable_fields: Option<Vec<SelectableField>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ExternalColumn {
    name: String,
    #[serde(rename = "type")]
    type_: String,
    format: String,
    description: String,
    priority: i32,
    #[serde(rename = "jsonPath")]
    json_path: Option<String>,
    /// The v1beta1 spelling.
    #[serde(rename = "JSONPath")]
    json_path_beta: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ExternalConversion {
    strategy: String,
    /// v1
    webhook: Option<ExternalWebhook>,
    /// v1beta1
    webhook_client_config: Option<WebhookClientConfig>,
    conversion_review_versions: Option<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ExternalWebhook {
    client_config: Option<WebhookClientConfig>,
    conversion_review_versions: Vec<String>,
}

fn column(c: ExternalColumn) -> CustomResourceColumnDefinition {
    CustomResourceColumnDefinition {
        name: c.name,
        type_: c.type_,
        format: c.format,
        description: c.description,
        priority: c.priority,
        json_path: c.json_path.or(c.json_path_beta).unwrap_or_default(),
    }
}

fn to_internal(
    api_version: &str,
    ext: ExternalCrd,
    file: &crate::source::SourceFile,
    doc: usize,
) -> Result<CustomResourceDefinition, Vec<Diagnostic>> {
    let beta = api_version == V1BETA1;
    let s = ext.spec;
    let mut names = s.names;
    if names.singular.is_empty() {
        names.singular = names.kind.to_lowercase();
    }
    if names.list_kind.is_empty() && !names.kind.is_empty() {
        names.list_kind = format!("{}List", names.kind);
    }
    let mut scope = s.scope;
    if beta && scope.is_empty() {
        scope = "Namespaced".into();
    }

    let versions_absent = s.versions.is_none();
    let mut versions: Vec<CustomResourceDefinitionVersion> = s
        .versions
        .unwrap_or_default()
        .into_iter()
        .map(|v| CustomResourceDefinitionVersion {
            name: v.name,
            served: v.served,
            storage: v.storage,
            deprecated: v.deprecated,
            deprecation_warning: v.deprecation_warning,
            schema: v.schema,
            subresources: v.subresources,
            additional_printer_columns: v
                .additional_printer_columns
                .unwrap_or_default()
                .into_iter()
                .map(column)
                .collect(),
            selectable_fields: v.selectable_fields.unwrap_or_default(),
        })
        .collect();

    let mut errors = Vec::new();
    let mut beta_top = None;
    if beta {
        if versions.is_empty()
            && let Some(name) = &s.version
        {
            versions.push(CustomResourceDefinitionVersion {
                name: name.clone(),
                served: true,
                storage: true,
                ..Default::default()
            });
        }
        // Top-level fields apply to every version; setting both forms is an error in
        // v1beta1 validation, reported with the API server's words.
        let top_columns: Option<Vec<CustomResourceColumnDefinition>> = s
            .additional_printer_columns
            .map(|cs| cs.into_iter().map(column).collect());
        let spec_path = FieldPath::new("spec");
        let mut exclusive = |top_set: bool, per_version_set: bool, field: &str, what: &str| {
            if top_set && per_version_set {
                let path = spec_path.child(field).to_string();
                let message = format!("{path}: Forbidden: top-level and per-version {what} are mutually exclusive");
                errors.push(Diagnostic::at_path(file, doc, &path, message));
            }
        };
        exclusive(
            s.validation.is_some(),
            versions.iter().any(|v| v.schema.is_some()),
            "validation",
            "schemas",
        );
        exclusive(
            s.subresources.is_some(),
            versions.iter().any(|v| v.subresources.is_some()),
            "subresources",
            "subresources",
        );
        exclusive(
            top_columns.as_ref().is_some_and(|c| !c.is_empty()),
            versions.iter().any(|v| !v.additional_printer_columns.is_empty()),
            "additionalPrinterColumns",
            "additionalPrinterColumns",
        );
        // The v1beta1 → internal conversion keeps top-level and per-version fields
        // as written (per-version ones all identical are an error of their own).
        beta_top = Some((
            s.validation.clone(),
            s.subresources.clone(),
            top_columns,
            s.selectable_fields.clone(),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    let conversion = Some(match s.conversion {
        None => CustomResourceConversion {
            strategy: "None".into(),
            ..Default::default()
        },
        Some(c) => {
            let (config, review) = match c.webhook {
                Some(w) => (w.client_config, w.conversion_review_versions),
                None => (
                    c.webhook_client_config,
                    c.conversion_review_versions.clone().unwrap_or_default(),
                ),
            };
            let mut review = review;
            if beta && c.strategy == "Webhook" && review.is_empty() {
                review = vec!["v1beta1".into()];
            }
            CustomResourceConversion {
                strategy: c.strategy,
                webhook_client_config: config,
                conversion_review_versions: review,
            }
        }
    });

    let mut spec = CustomResourceDefinitionSpec {
        group: s.group,
        version: s.version.clone().unwrap_or_default(),
        names,
        scope,
        validation: None,
        subresources: None,
        versions_absent: versions_absent && versions.is_empty(),
        versions,
        additional_printer_columns: Vec::new(),
        selectable_fields: Vec::new(),
        conversion,
        // v1beta1 defaults it to true, which the API server then refuses.
        preserve_unknown_fields: s.preserve_unknown_fields.or(beta.then_some(true)).filter(|&p| p),
    };
    match beta_top {
        Some((validation, subresources, columns, selectable)) => {
            spec.validation = validation;
            spec.subresources = subresources;
            spec.additional_printer_columns = columns.unwrap_or_default();
            spec.selectable_fields = selectable.unwrap_or_default();
            if spec.version.is_empty()
                && let Some(first) = spec.versions.first()
            {
                spec.version = first.name.clone();
            }
        }
        None => hoist_identical_version_fields(&mut spec),
    }
    Ok(CustomResourceDefinition {
        api_version: api_version.to_string(),
        name: ext.metadata.name,
        annotations: ext.metadata.annotations,
        spec,
        stored_versions: ext.status.and_then(|s| s.stored_versions),
    })
}

/// The v1 → internal conversion: per-version fields equal in all versions move to
/// the top level (`Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_...`).
fn hoist_identical_version_fields(spec: &mut CustomResourceDefinitionSpec) {
    let Some(first) = spec.versions.first() else {
        return;
    };
    // v1 has no `spec.version`; the conversion sets it to the first version. A
    // v1beta1 document keeps its own (defaulted to the first version when unset).
    if spec.version.is_empty() {
        spec.version = first.name.clone();
    }
    let same_schema = spec.versions.iter().all(|v| v.schema == first.schema);
    let same_subresources = spec.versions.iter().all(|v| v.subresources == first.subresources);
    let same_columns = spec
        .versions
        .iter()
        .all(|v| v.additional_printer_columns == first.additional_printer_columns);
    let same_selectable = spec
        .versions
        .iter()
        .all(|v| v.selectable_fields == first.selectable_fields);
    let first = first.clone();
    if same_schema {
        spec.validation = first.schema;
    }
    if same_subresources {
        spec.subresources = first.subresources;
    }
    if same_columns {
        spec.additional_printer_columns = first.additional_printer_columns;
    }
    if same_selectable {
        spec.selectable_fields = first.selectable_fields;
    }
    for v in &mut spec.versions {
        if same_schema {
            v.schema = None;
        }
        if same_subresources {
            v.subresources = None;
        }
        if same_columns {
            v.additional_printer_columns.clear();
        }
        if same_selectable {
            v.selectable_fields.clear();
        }
    }
}

impl CustomResourceDefinition {
    /// The schema that applies to version `i` (per-version or hoisted).
    pub fn schema_of(&self, i: usize) -> Option<&JsonSchemaProps> {
        let v = self.spec.versions.get(i)?;
        v.schema
            .as_ref()
            .or(self.spec.validation.as_ref())
            .and_then(|s| s.open_api_v3_schema.as_deref())
    }

    /// The API-server path of version `i`'s schema root.
    pub fn schema_path(&self, i: usize) -> FieldPath {
        if self.spec.validation.is_some() {
            FieldPath::new("spec").child("validation").child("openAPIV3Schema")
        } else {
            FieldPath::new("spec")
                .child("versions")
                .index(i)
                .child("schema")
                .child("openAPIV3Schema")
        }
    }

    pub fn subresources_of(&self, i: usize) -> Option<&CustomResourceSubresources> {
        let v = self.spec.versions.get(i)?;
        v.subresources.as_ref().or(self.spec.subresources.as_ref())
    }

    pub fn printer_columns_of(&self, i: usize) -> &[CustomResourceColumnDefinition] {
        match self.spec.versions.get(i) {
            Some(v) if !v.additional_printer_columns.is_empty() => &v.additional_printer_columns,
            _ => &self.spec.additional_printer_columns,
        }
    }

    pub fn selectable_fields_of(&self, i: usize) -> &[SelectableField] {
        match self.spec.versions.get(i) {
            Some(v) if !v.selectable_fields.is_empty() => &v.selectable_fields,
            _ => &self.spec.selectable_fields,
        }
    }
}
