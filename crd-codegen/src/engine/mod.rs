//! The reference engine: the API server's treatment of a custom resource, interpreted
//! from the IR over `serde_json::Value`.
//!
//! [`Engine::new`] compiles every version's schema once ([`compile`]); a
//! [`VersionSchema`] implements `crd_runtime::admission::ResourceSchema`, so
//! `crd_runtime::admission::create`/`update` run the API server's pipeline with it:
//! pruning ([`prune`]), dropping non-nullable nulls and defaulting ([`default`]),
//! embedded-resource coercion and validation ([`meta`]), OpenAPI validation with
//! ratcheting ([`validate`]) and the list-type invariants ([`lists`]). The generated
//! code implements the same trait; the two must agree on every input.
//!
//! [`rules`] evaluates the `x-kubernetes-validations` rules (compiled once by
//! [`Engine::new`]) after the other checks, as the API server's CEL validator does,
//! with `oldSelf` and ratcheting on update.
//!
//! [`defaults`] validates the `default`s of a schema at CRD creation
//! (`ValidateDefaults`, rules included), for `crate::check`, and prunes them as the
//! API server does when it serves a CRD (`PruneDefaults`, applied by
//! [`Engine::new`]).

pub mod compile;
pub mod default;
pub mod defaults;
mod eval;
pub mod lists;
pub mod meta;
pub mod prune;
pub mod rules;
pub mod validate;

use crate::ir;
use compile::{CNode, CompileOptions};
use crd_runtime::admission::{self, Admission, ResourceSchema, ScalePaths};
use crd_runtime::errors::{ErrorList, FieldError, Path};
use crd_runtime::objectmeta;
use crd_runtime::openapi::Res;
use crd_runtime::rules::{Budget, Findings, PER_CALL_LIMIT};
use rules::RuleValidator;
use serde_json::Value;

pub use defaults::{DefaultsValidator, validate_defaults};

/// All versions of one CRD, compiled.
pub struct Engine {
    pub group: String,
    pub names: ir::Names,
    pub scope: ir::Scope,
    versions: Vec<VersionSchema>,
}

/// One version of a CRD: what admission needs from its schema.
pub struct VersionSchema {
    api_version: String,
    kind: String,
    version: String,
    namespaced: bool,
    scale: Option<ir::Scale>,
    status: bool,
    printer_columns: Vec<ir::PrinterColumn>,
    root: CNode,
    rules: RuleValidator,
}

impl Engine {
    /// Compiles every version of `crd`.
    pub fn new(crd: &ir::Crd) -> Engine {
        let versions = crd
            .versions
            .iter()
            .map(|v| VersionSchema {
                api_version: format!("{}/{}", crd.group, v.name),
                kind: crd.names.kind.clone(),
                version: v.name.clone(),
                namespaced: crd.scope == ir::Scope::Namespaced,
                scale: v.subresources.scale.clone(),
                status: v.subresources.status,
                printer_columns: v.printer_columns.clone(),
                root: {
                    let mut root = CNode::compile(&v.schema, CompileOptions::REQUEST);
                    defaults::prune_defaults(&mut root);
                    root
                },
                // The API server's CEL validator (`cel.NewValidator(schema, true,
                // PerCallLimit)`), compiled once.
                rules: RuleValidator::new(&v.schema, true, PER_CALL_LIMIT),
            })
            .collect();
        Engine {
            group: crd.group.clone(),
            names: crd.names.clone(),
            scope: crd.scope,
            versions,
        }
    }

    /// The version named `name` (`v1`, not `group/v1`).
    pub fn version(&self, name: &str) -> Option<&VersionSchema> {
        self.versions.iter().find(|v| v.version == name)
    }

    /// The version an object's `apiVersion` names, when it is this CRD's group.
    pub fn for_api_version(&self, api_version: &str) -> Option<&VersionSchema> {
        self.versions.iter().find(|v| v.api_version == api_version)
    }

    pub fn versions(&self) -> &[VersionSchema] {
        &self.versions
    }
}

impl VersionSchema {
    /// The version's name (`v1`).
    pub fn name(&self) -> &str {
        &self.version
    }

    /// The compiled root schema.
    pub fn root(&self) -> &CNode {
        &self.root
    }

    /// The compiled `x-kubernetes-validations` rules.
    pub fn rules(&self) -> &RuleValidator {
        &self.rules
    }

    /// The version's `additionalPrinterColumns`, as written.
    pub fn printer_columns(&self) -> Vec<crd_runtime::table::PrinterColumn<'_>> {
        self.printer_columns.iter().map(ir::PrinterColumn::as_runtime).collect()
    }

    /// `admission::create` with this schema.
    pub fn create(&self, object: Value, namespace: &str) -> Admission {
        admission::create(self, object, namespace)
    }

    /// `admission::update` with this schema.
    pub fn update(&self, object: Value, old: Value, namespace: &str) -> Admission {
        admission::update(self, object, old, namespace)
    }

    /// `admission::update_status` with this schema.
    pub fn update_status(&self, object: Value, old: Value, namespace: &str) -> Admission {
        admission::update_status(self, object, old, namespace)
    }
}

impl ResourceSchema for VersionSchema {
    fn api_version(&self) -> &str {
        &self.api_version
    }

    fn kind(&self) -> &str {
        &self.kind
    }

    fn namespaced(&self) -> bool {
        self.namespaced
    }

    fn scale(&self) -> Option<ScalePaths<'_>> {
        self.scale.as_ref().map(|s| ScalePaths {
            spec_replicas: &s.spec_replicas_path,
            status_replicas: &s.status_replicas_path,
            label_selector: s.label_selector_path.as_deref(),
        })
    }

    fn prune(&self, object: &mut Value, pruned: &mut Vec<String>) {
        prune::prune(object, Some(&self.root), true, pruned);
    }

    fn drop_nulls(&self, object: &mut Value) {
        default::drop_nulls(object, Some(&self.root));
    }

    fn coerce_embedded(&self, object: &mut Value, cx: &mut objectmeta::Coercion) -> Result<(), FieldError> {
        meta::coerce(object, Some(&self.root), false, cx, &Path::Root)
    }

    fn default(&self, object: &mut Value) {
        default::default(object, Some(&self.root));
    }

    fn validate(&self, object: &Value, old: Option<&Value>, res: &mut Res) -> bool {
        res.merge(validate::validate(&self.root, object, old, &Path::Root));
        // The reference engine always walks the lists too.
        false
    }

    fn validate_status(&self, object: &Value, old: Option<&Value>, res: &mut Res) {
        if let (Some(status), Some(schema)) = (object.get("status"), self.root.properties.get("status")) {
            let old = old.and_then(|o| o.get("status"));
            res.merge(validate::validate(
                schema,
                status,
                old,
                &Path::Field(&Path::Root, "status"),
            ));
        }
    }

    fn validate_embedded(&self, object: &Value, errs: &mut ErrorList) {
        meta::validate(object, Some(&self.root), false, &Path::Root, errs);
    }

    fn validate_lists(&self, object: &Value, errs: &mut ErrorList) {
        if let Value::Object(m) = object {
            lists::validate_object(&Path::Root, &self.root, m, errs);
        }
    }

    fn validate_rules(&self, object: &Value, old: Option<&Value>) -> Findings {
        // One budget for all rules of the object; on update the walk ratchets
        // (`WithRatcheting(NewCorrelatedObject(new, old, schema))`).
        let mut findings = Findings::default();
        let mut budget = Budget::per_object();
        self.rules
            .validate(&Path::Root, object, old, Some(&self.root), &mut budget, &mut findings);
        findings.cost = budget.spent();
        findings
    }

    fn has_rules(&self) -> bool {
        !self.rules.is_empty()
    }

    fn status_subresource(&self) -> bool {
        self.status
    }
}
