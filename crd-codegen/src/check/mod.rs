//! CRD admission checks: what the API server's CRD validation rejects, offline.
//!
//! [`check_crd`] mirrors `ValidateCustomResourceDefinition` of
//! `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go`
//! as it runs when a CRD is created (the registry first sets
//! `status.storedVersions` to the first storage version, as `PrepareForCreate`
//! does): every error, in the API server's order, with its paths and messages.
//!
//! - [`crd`]: CRD-level fields (`metadata.name`, group, scope, names, versions,
//!   printer columns, subresources, selectable fields, conversion,
//!   `preserveUnknownFields`, stored versions).
//! - [`schema`]: one version's `openAPIV3Schema` (§1.1 and §1.3 of SEMANTICS.md:
//!   `validateCustomResourceDefinitionValidation`,
//!   `ValidateCustomResourceDefinitionOpenAPISchema`, `specStandardValidatorV3`).
//! - [`structural`]: structural schemas (§1.2: `NewStructural`,
//!   `ValidateStructural`, completeness).
//! - [`fieldpath_rule`]: the `fieldPath` / selectable-field JSON-path syntax.
//! - [`goregexp`]: Go's regular-expression syntax, for `pattern`.
//! - [`ignored`]: not the API server's: the keywords it accepts and ignores, which the
//!   loader reports as warnings.
//!
//! CEL compilation, its cost estimate and the validation of `default` values are
//! later stages; [`check_crd_with`] takes them as a [`RuleCompiler`] and calls it
//! exactly where the API server runs them (see the trait). [`check_crd`] runs without
//! them.
//!
//! Deliberate differences from the API server (each explained where it is
//! implemented):
//! - Go iterates `properties`, `definitions` and `dependencies` maps in random
//!   order, so the API server's order of the errors found while walking a schema
//!   (and which conversion error `NewStructural` reports first) varies between
//!   requests; here it is document order. The structural-schema errors are sorted
//!   by their text, as in Go, so their order is deterministic.
//! - The model keeps the name and annotations of the object metadata: `metadata`
//!   checks other than the name (namespace, labels, annotation syntax) are not made;
//!   the API-approval annotation required for `*.k8s.io` / `*.kubernetes.io` groups
//!   (`validateAPIApproval`) is.
//! - The conversion webhook's `caBundle` must be base64 (the JSON decoder's check,
//!   made when the model is read), but its certificates are not parsed (neither does
//!   the API server on create: `allowInvalidCABundle` is true until the CRD is
//!   established). The
//!   webhook URL is read with a reduced `net/url.Parse` (see `webhook.rs`).
//! - Building the kube-openapi validator (`error building validator`) cannot fail
//!   for a schema that passed the other checks and is not attempted.
//! - Where the API server dereferences a nil schema and its request panics
//!   (selectable fields below `additionalProperties: true` or on a schema that does
//!   not convert), an ordinary `is an invalid path: does not refer to a valid field`
//!   error is reported.
//! - `pattern` is checked by a port of Go's regexp parser ([`goregexp`]), exact for
//!   syntax errors; Go's size limits are approximated and Unicode class names are
//!   Go 1.27's.
//! - `unicode.IsPrint` (deprecation warnings) uses the `regex` crate's Unicode
//!   tables, which may lag Go's Unicode version for newly assigned characters.
//! - Bad values that are Go structs (the root schema, `spec.versions`, an `items`
//!   array, a rule) print exactly like Go's, but are carried in the error's detail
//!   rather than in `bad_value` (see `gojson`).
//! - The update-only rules (immutable names, ratcheting of previously accepted
//!   schemas, stored versions removed from `spec.versions`) do not apply: this is a
//!   create.

pub mod crd;
pub mod fieldpath_rule;
pub(crate) mod gojson;
pub mod goregexp;
pub mod ignored;
pub mod schema;
pub mod structural;
mod webhook;

use crate::fieldpath::FieldPath;
use crate::model::{CustomResourceDefinition, JsonSchemaProps};
pub use crd::API_APPROVED;
use crd_runtime::FieldError;
pub use structural::Structural;

/// `StaticEstimatedCostLimit`: the largest estimated cost of one expression
/// (× the cardinality of its node).
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;
/// `StaticEstimatedCRDCostLimit`: the largest total estimated cost of all rules of
/// one version's schema.
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;
/// `MaxSelectableFields`.
pub const MAX_SELECTABLE_FIELDS: usize = 8;

/// All errors the API server reports when this CRD is created.
pub fn check_crd(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    check_crd_with(crd, &NoLaterStages)
}

/// [`check_crd`] with the later stages (CEL compilation and cost, default values)
/// plugged in.
pub fn check_crd_with(crd: &CustomResourceDefinition, stages: &dyn RuleCompiler) -> Vec<FieldError> {
    crd::validate_custom_resource_definition(crd, stages)
}

/// A node carrying `x-kubernetes-validations`, handed to [`RuleCompiler::compile_rules`].
pub struct RuleSite<'a> {
    /// The node, as written.
    pub schema: &'a JsonSchemaProps,
    /// Its structural form (the type information CEL declarations are built from).
    pub structural: &'a Structural,
    /// Its path, e.g. `spec.validation.openAPIV3Schema.properties[spec]`; rule `i`
    /// is reported at `<path>.x-kubernetes-validations[i].rule`.
    pub path: &'a FieldPath,
    /// Whether `apiVersion`, `kind` and `metadata.name`/`generateName` are declared
    /// for `self` (the schema root, or an `x-kubernetes-embedded-resource` node).
    pub is_resource_root: bool,
    /// The maximum number of times the node can occur in one object (the product of
    /// `maxItems` / `maxProperties` of the enclosing lists and maps), `None` when
    /// unbounded (then [`RuleCompilation::max_cardinality`] is used for the cost).
    pub max_cardinality: Option<u64>,
}

/// An error from compiling a rule (Go's `apiservercel.Error`).
#[derive(Clone, Debug, PartialEq)]
pub enum RuleCompileError {
    /// Reported as `Required value: <detail>` at `.rule`.
    Required(String),
    /// Reported as `Invalid value: <the rule>: <detail>` at `.rule`, e.g.
    /// `compilation failed: ERROR: <input>:1:5: ...`.
    Invalid(String),
}

/// The result of compiling one rule (Go's `cel.CompilationResult`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleCompilation {
    pub error: Option<RuleCompileError>,
    /// Estimated cost of one evaluation.
    pub max_cost: u64,
    /// The cardinality the compiler estimated, used when the site's is unbounded.
    pub max_cardinality: u64,
    /// Whether the rule has a `messageExpression` that compiled.
    pub has_message_expression: bool,
    /// `messageExpression` compilation error detail, reported as `Invalid value:
    /// <the rule>: <detail>` at `.messageExpression`.
    pub message_expression_error: Option<String>,
    pub message_expression_max_cost: u64,
    /// Whether the rule refers to `oldSelf`.
    pub uses_old_self: bool,
}

/// The later stages of CRD validation, called where the API server runs them.
///
/// Both methods default to reporting nothing.
pub trait RuleCompiler {
    /// Compiles the rules of one node: one result per rule, in order (fewer results
    /// check fewer rules; an empty list checks nothing). `Err(detail)` is reported as
    /// an internal error at `<path>.x-kubernetes-validations`.
    ///
    /// Called as `ValidateCustomResourceDefinitionOpenAPISchema` does: only for nodes
    /// on the structural spine (not inside junctors), only when the whole schema is
    /// structural and its defaults are valid, and only when no schema error was found
    /// at this node or below it. The static checks of the rules (empty rule, message,
    /// reason, fieldPath) are done before, by this module. From the results this
    /// module reports compilation errors, per-expression cost errors, the `oldSelf`
    /// correlation and `optionalOldSelf` errors, and adds the costs to the per-schema
    /// total, which is checked against [`STATIC_ESTIMATED_CRD_COST_LIMIT`] after the
    /// whole schema was walked.
    fn compile_rules(&self, site: &RuleSite<'_>) -> Result<Vec<RuleCompilation>, String> {
        let _ = site;
        Ok(Vec::new())
    }

    /// Validates the `default` values of a schema (Go's
    /// `structuraldefaulting.ValidateDefaults(ctx, path, schema, true, true)`, §2.3 of
    /// SEMANTICS.md). `path` is the schema root (`...openAPIV3Schema`).
    ///
    /// Called only when `ValidateStructural` found no error; when it reports errors,
    /// the rules are not compiled.
    fn validate_defaults(&self, root: &Structural, path: &FieldPath) -> Vec<FieldError> {
        let _ = (root, path);
        Vec::new()
    }
}

/// The stages not implemented here: reports nothing.
pub struct NoLaterStages;

impl RuleCompiler for NoLaterStages {}
