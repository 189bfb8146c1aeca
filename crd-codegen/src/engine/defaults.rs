//! Validation of `default` values when a CRD is created (apiextensions-apiserver
//! `pkg/apiserver/schema/defaulting/validation.go`, `ValidateDefaults` with
//! `isResourceRoot` and `requirePrunedDefaults`), plugged into `crate::check` as
//! [`DefaultsValidator`].
//!
//! For every node with a default, following `items` and `properties` (not
//! `additionalProperties`): outside of resource metadata the default must be pruned
//! (`must not have unknown fields`), its embedded resources must coerce and validate,
//! and it must validate against the node's schema as `Structural.ToKubeOpenAPI`
//! gives it (formats not stripped, `x-kubernetes-int-or-string` without types);
//! inside the `metadata`, `apiVersion` or `kind` of a resource it is placed into a
//! surrounding object whose metadata must coerce and validate (`must result in valid
//! metadata: ...`) before the default itself is validated.
//!
//! Then the rules of the node and of the nodes below it run on the default (Go's
//! `cel.NewValidator(s, isResourceRoot, PerCallLimit)` at that node), with the default
//! as its own old value, and, when that finds nothing, again without an old value
//! (so that rules with `optionalOldSelf` see a create); the passes share one budget
//! ([`RUNTIME_CEL_COST_BUDGET`](crd_runtime::rules::RUNTIME_CEL_COST_BUDGET) for all
//! defaults of the schema), the second pass's cost counting only when it is the
//! higher. Once the budget is exhausted the walk stops. Properties are walked in
//! sorted order (Go: random), which decides which rule runs out of budget first.

use super::compile::{CNode, CompileOptions};
use super::rules::RuleValidator;
use super::{meta, prune, validate};
use crate::check::structural::{NestedValueValidation, Structural, ValueValidation};
use crate::check::{RuleCompilation, RuleCompiler, RuleSite};
use crate::fieldpath::FieldPath;
use crate::ir;
use crate::model::ValidationRule;
use crd_runtime::errors::{ErrorList, FieldError, Path};
use crd_runtime::objectmeta::Coercion;
use crd_runtime::openapi::go_deep_equal;
use crd_runtime::rules::{Budget, Findings, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET};
use serde_json::{Map, Value};

/// The `RuleCompiler` stage that validates default values (and compiles no rules).
pub struct DefaultsValidator;

impl RuleCompiler for DefaultsValidator {
    fn compile_rules(&self, _site: &RuleSite<'_>) -> Result<Vec<RuleCompilation>, String> {
        Ok(Vec::new())
    }

    fn validate_defaults(&self, root: &Structural, path: &FieldPath) -> Vec<FieldError> {
        validate_defaults(root, path)
    }
}

/// Go's `ValidateDefaults(ctx, path, root, isResourceRoot=true, requirePrunedDefaults=true)`.
/// `path` is the schema root (`...openAPIV3Schema`).
pub fn validate_defaults(root: &Structural, path: &FieldPath) -> Vec<FieldError> {
    validate_defaults_with(
        root,
        path,
        &DefaultsOptions {
            resource_root: true,
            require_pruned: true,
            budget: RUNTIME_CEL_COST_BUDGET,
        },
    )
}

/// The parameters of Go's `ValidateDefaults` and of its recursive `validate`.
#[derive(Clone, Copy, Debug)]
pub struct DefaultsOptions {
    /// `isResourceRoot`: the root is validated as an embedded resource (what
    /// `ValidateDefaults` does; Go's tests call `validate` without it).
    pub resource_root: bool,
    /// `requirePrunedDefaults`: defaults with unknown fields are errors.
    pub require_pruned: bool,
    /// The cost budget of the rules run on defaults.
    pub budget: i64,
}

/// Validates the defaults of `root` with the given options.
pub fn validate_defaults_with(root: &Structural, path: &FieldPath, options: &DefaultsOptions) -> Vec<FieldError> {
    // The walk below only acts at defaults; most schemas have none, and compiling the
    // schema for it is not free.
    if !has_default(root) {
        return Vec::new();
    }
    let mut ir_root = structural_to_ir(root);
    ir_root.embedded_resource |= options.resource_root;
    let node = CNode::compile(&ir_root, CompileOptions::DEFAULTS);
    let mut walk = DefaultsWalk {
        errs: Vec::new(),
        budget: Budget::new(options.budget),
        require_pruned: options.require_pruned,
    };
    let root_site = Site {
        node: &node,
        schema: &ir_root,
    };
    walk.walk(root_site, path, root_site, &mut Vec::new(), false);
    walk.errs
}

/// Whether a node the walk visits (items and properties, not `additionalProperties`,
/// where defaults are forbidden) has a default.
fn has_default(s: &Structural) -> bool {
    s.generic.default.is_some() || s.items.as_deref().is_some_and(has_default) || s.properties.values().any(has_default)
}

/// A schema node: compiled, and as IR (for its rules).
#[derive(Clone, Copy)]
struct Site<'a> {
    node: &'a CNode,
    schema: &'a ir::Schema,
}

struct DefaultsWalk {
    errs: ErrorList,
    budget: Budget,
    require_pruned: bool,
}

/// A step of Go's `SurroundingObjectFunc`.
#[derive(Clone)]
enum Step {
    Child(String),
    Index,
}

/// `f(x)` for `f = NewRootObjectFunc().WithTypeMeta(validation/v1, Validation)`
/// followed by `steps`.
fn surround(x: Value, steps: &[Step]) -> Value {
    let mut v = x;
    for step in steps.iter().rev() {
        v = match step {
            Step::Child(k) => {
                let mut m = Map::new();
                m.insert(k.clone(), v);
                Value::Object(m)
            }
            Step::Index => Value::Array(vec![v]),
        };
    }
    if let Value::Object(m) = &mut v {
        m.entry("kind").or_insert_with(|| Value::String("Validation".into()));
        m.entry("apiVersion")
            .or_insert_with(|| Value::String("validation/v1".into()));
    }
    v
}

/// Puts an error found at the root of a default below `base` (Go passes
/// `pth.Child("default")` as the root path).
fn under(base: &str, mut e: FieldError) -> FieldError {
    e.field = if e.field == "<nil>" {
        base.to_string()
    } else if e.field.starts_with('[') {
        format!("{base}{}", e.field)
    } else {
        format!("{base}.{}", e.field)
    };
    e
}

/// `ErrorList.ToAggregate().Error()`: one message, or `[a, b]` without repeats.
fn aggregate(errs: &ErrorList) -> String {
    let mut seen: Vec<String> = Vec::new();
    for e in errs {
        let m = e.to_string();
        if !seen.contains(&m) {
            seen.push(m);
        }
    }
    if seen.len() == 1 {
        seen.remove(0)
    } else {
        format!("[{}]", seen.join(", "))
    }
}

/// The kube-openapi errors of `value` against `s`, below `base`; whether there were
/// none.
fn openapi_errors(s: &CNode, value: &Value, base: &str, errs: &mut ErrorList) -> bool {
    let res = validate::validate(s, value, None, &Path::Root);
    let mut found = ErrorList::new();
    res.into_field_errors(&mut found);
    let valid = found.is_empty();
    errs.extend(found.into_iter().map(|e| under(base, e)));
    valid
}

impl DefaultsWalk {
    fn walk(&mut self, s: Site<'_>, pth: &FieldPath, root: Site<'_>, steps: &mut Vec<Step>, inside_meta: bool) {
        if self.budget.is_exhausted() {
            return;
        }
        if s.node.embedded_resource {
            // An embedded resource is a new resource root with a fresh surrounding object.
            self.walk_node(s, pth, s, &mut Vec::new(), false);
        } else {
            self.walk_node(s, pth, root, steps, inside_meta);
        }
    }

    fn walk_node(&mut self, s: Site<'_>, pth: &FieldPath, root: Site<'_>, steps: &mut Vec<Step>, inside_meta: bool) {
        if let Some(d) = &s.node.default {
            let base = pth.child("default").to_string();
            let valid = if inside_meta {
                self.default_in_meta(s.node, d, &base, root.node, steps)
            } else {
                self.default_outside_meta(s.node, d, &base)
            };
            // Go runs the rules only when everything else found nothing.
            if valid {
                let is_resource_root = std::ptr::eq(s.node, root.node);
                self.rules(s.schema, d, &base, is_resource_root);
                if self.budget.is_exhausted() {
                    return;
                }
            }
        }
        // additionalProperties are not followed: defaults are forbidden there.
        if let (Some(items), Some(items_ir)) = (s.node.items.as_deref(), s.schema.items.as_deref()) {
            steps.push(Step::Index);
            let child = Site {
                node: items,
                schema: items_ir,
            };
            self.walk(child, &pth.child("items"), root, steps, inside_meta);
            steps.pop();
            if self.budget.is_exhausted() {
                return;
            }
        }
        for (k, sub) in &s.node.properties {
            let Some(sub_ir) = s.schema.properties.get(k) else {
                continue;
            };
            let sub_inside =
                inside_meta || (s.node.embedded_resource && matches!(k.as_str(), "metadata" | "apiVersion" | "kind"));
            steps.push(Step::Child(k.clone()));
            let child = Site {
                node: sub,
                schema: sub_ir,
            };
            self.walk(child, &pth.child("properties").key(k), root, steps, sub_inside);
            steps.pop();
            if self.budget.is_exhausted() {
                return;
            }
        }
    }

    /// A default inside the metadata (or apiVersion, kind) of a resource: whether it
    /// passed the metadata and schema checks.
    fn default_in_meta(&mut self, s: &CNode, d: &Value, base: &str, root: &CNode, steps: &[Step]) -> bool {
        let mut obj = surround(d.clone(), steps);
        if let Err(e) = meta::coerce(&mut obj, Some(root), true, &mut Coercion::new(false), &Path::Root) {
            self.errs.push(FieldError::invalid(
                base,
                d.clone(),
                format!("must result in valid metadata: {e}"),
            ));
            return false;
        }
        let mut meta_errs = ErrorList::new();
        meta::validate(&obj, Some(root), true, &Path::Root, &mut meta_errs);
        if !meta_errs.is_empty() {
            self.errs.push(FieldError::invalid(
                base,
                d.clone(),
                format!("must result in valid metadata: {}", aggregate(&meta_errs)),
            ));
            return false;
        }
        openapi_errors(s, d, base, &mut self.errs)
    }

    /// A default outside of resource metadata: whether its embedded resources and its
    /// schema checks passed (an unpruned default is reported but does not stop them).
    fn default_outside_meta(&mut self, s: &CNode, d: &Value, base: &str) -> bool {
        if self.require_pruned {
            let mut pruned = d.clone();
            prune::prune(&mut pruned, Some(s), s.embedded_resource, &mut Vec::new());
            if !go_deep_equal(&pruned, d) {
                self.errs
                    .push(FieldError::invalid(base, d.clone(), "must not have unknown fields"));
            }
        }
        let mut coerced = d.clone();
        if let Err(e) = meta::coerce(
            &mut coerced,
            Some(s),
            s.embedded_resource,
            &mut Coercion::new(false),
            &Path::Root,
        ) {
            self.errs.push(under(base, e));
            return false;
        }
        let mut meta_errs = ErrorList::new();
        meta::validate(&coerced, Some(s), s.embedded_resource, &Path::Root, &mut meta_errs);
        if !meta_errs.is_empty() {
            self.errs.extend(meta_errs.into_iter().map(|e| under(base, e)));
            return false;
        }
        openapi_errors(s, &coerced, base, &mut self.errs)
    }

    /// The rules at and below the node, on its default: with the default as old value,
    /// then (when that passed) without one; the higher cost counts.
    fn rules(&mut self, schema: &ir::Schema, d: &Value, base: &str, is_resource_root: bool) {
        let validator = RuleValidator::new(schema, is_resource_root, PER_CALL_LIMIT);
        if validator.is_empty() {
            return;
        }
        let root = Path::Root;
        let path = root.field(base);
        let mut findings = Findings::default();
        let mut with_old = self.budget;
        validator.validate(&path, d, Some(d), None, &mut with_old, &mut findings);
        let mut remaining = with_old;
        if findings.errors.is_empty() {
            let mut without_old = self.budget;
            validator.validate(&path, d, None, None, &mut without_old, &mut findings);
            if without_old.remaining() < remaining.remaining() {
                remaining = without_old;
            }
        }
        self.errs.extend(findings.errors);
        self.budget = remaining;
    }
}

// ---------------------------------------------------------------------------------------
// Structural → IR
// ---------------------------------------------------------------------------------------

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

fn list_type(s: &Option<String>) -> Option<ir::ListType> {
    match s.as_deref() {
        Some("atomic") => Some(ir::ListType::Atomic),
        Some("set") => Some(ir::ListType::Set),
        Some("map") => Some(ir::ListType::Map),
        _ => None,
    }
}

fn value_validation(v: &ValueValidation, out: &mut ir::Schema) {
    out.format = non_empty(&v.format);
    out.maximum = v.maximum;
    out.exclusive_maximum = v.exclusive_maximum;
    out.minimum = v.minimum;
    out.exclusive_minimum = v.exclusive_minimum;
    out.max_length = v.max_length;
    out.min_length = v.min_length;
    out.pattern = non_empty(&v.pattern);
    out.max_items = v.max_items;
    out.min_items = v.min_items;
    out.unique_items = v.unique_items;
    out.multiple_of = v.multiple_of;
    out.enum_ = v.enum_.clone();
    out.max_properties = v.max_properties;
    out.min_properties = v.min_properties;
    out.required = v.required.clone();
    out.all_of = v.all_of.iter().map(nested_to_ir).collect();
    out.any_of = v.any_of.iter().map(nested_to_ir).collect();
    out.one_of = v.one_of.iter().map(nested_to_ir).collect();
    out.not = v.not.as_deref().map(|n| Box::new(nested_to_ir(n)));
}

/// `NestedValueValidation.toKubeOpenAPI`: value validations, `items` and `properties`
/// (not `additionalProperties`), and the generics a junctor may carry (the types of
/// the int-or-string pattern).
fn nested_to_ir(n: &NestedValueValidation) -> ir::Schema {
    let mut out = ir::Schema {
        type_: ir::Type::parse(&n.forbidden_generics.type_),
        nullable: n.forbidden_generics.nullable,
        default: n.forbidden_generics.default.clone(),
        int_or_string: n.forbidden_extensions.x_int_or_string,
        ..Default::default()
    };
    value_validation(&n.value_validation, &mut out);
    out.validations = rules_to_ir(&n.validation_extensions.x_validations);
    out.items = n.items.as_deref().map(|i| Box::new(nested_to_ir(i)));
    out.properties = n.properties.iter().map(|(k, v)| (k.clone(), nested_to_ir(v))).collect();
    out
}

/// `x-kubernetes-validations` as IR rules.
fn rules_to_ir(rules: &[ValidationRule]) -> Vec<ir::Rule> {
    rules
        .iter()
        .map(|r| ir::Rule {
            rule: r.rule.clone(),
            message: non_empty(&r.message),
            message_expression: non_empty(&r.message_expression),
            reason: r.reason.clone(),
            field_path: non_empty(&r.field_path),
            optional_old_self: r.optional_old_self == Some(true),
        })
        .collect()
}

/// A structural schema as IR (what `ToKubeOpenAPI` keeps, and the rules).
pub fn structural_to_ir(s: &Structural) -> ir::Schema {
    let mut out = ir::Schema {
        type_: ir::Type::parse(&s.generic.type_),
        default: s.generic.default.clone(),
        nullable: s.generic.nullable,
        preserve_unknown_fields: s.extensions.x_preserve_unknown_fields,
        embedded_resource: s.extensions.x_embedded_resource,
        int_or_string: s.extensions.x_int_or_string,
        list_type: list_type(&s.extensions.x_list_type),
        list_map_keys: s.extensions.x_list_map_keys.clone(),
        ..Default::default()
    };
    value_validation(&s.value_validation, &mut out);
    out.validations = rules_to_ir(&s.validation_extensions.x_validations);
    out.items = s.items.as_deref().map(|i| Box::new(structural_to_ir(i)));
    out.properties = s
        .properties
        .iter()
        .map(|(k, v)| (k.clone(), structural_to_ir(v)))
        .collect();
    out.additional_properties = s.additional_properties.as_deref().map(|a| match &a.structural {
        Some(st) => ir::AdditionalProperties::Schema(Box::new(structural_to_ir(st))),
        None => ir::AdditionalProperties::Bool(a.bool),
    });
    out
}

// ---------------------------------------------------------------------------------------
// PruneDefaults (defaulting/prune.go)
// ---------------------------------------------------------------------------------------

/// The way from the root to a node, for [`prune_defaults`].
#[derive(Clone)]
enum NodeStep {
    Property(String),
    Additional,
    Items,
}

/// Go's `PruneDefaults`, run when a CRD is served: every default is placed into its
/// surrounding object, which is coerced (dropping malformed metadata) and pruned with
/// the root schema as a resource root; what is left at the default's place becomes the
/// default (nothing left removes it). For defaults that passed [`validate_defaults`]
/// only the metadata of embedded resources can change (unknown fields dropped,
/// timestamps normalised).
#[allow(
    clippy::expect_used,
    clippy::unreachable,
    reason = "the path was collected from this very tree just above"
)]
pub fn prune_defaults(root: &mut CNode) {
    let mut changes = Vec::new();
    collect_pruned_defaults(root, root, &mut Vec::new(), &mut Vec::new(), &mut changes);
    for (path, new_default) in changes {
        let mut node = &mut *root;
        for step in &path {
            node = match step {
                NodeStep::Property(k) => node.properties.get_mut(k).expect("collected path"),
                NodeStep::Additional => match &mut node.additional {
                    Some(super::compile::Additional::Schema(s)) => s,
                    _ => unreachable!("collected path"),
                },
                NodeStep::Items => node.items.as_deref_mut().expect("collected path"),
            };
        }
        node.default = new_default;
    }
}

/// `f(x)` for `f = NewRootObjectFunc()` followed by `steps`, if the result is an object.
fn surround_plain(x: Value, steps: &[Step]) -> Option<Value> {
    let mut v = x;
    for step in steps.iter().rev() {
        v = match step {
            Step::Child(k) => {
                let mut m = Map::new();
                m.insert(k.clone(), v);
                Value::Object(m)
            }
            Step::Index => Value::Array(vec![v]),
        };
    }
    v.is_object().then_some(v)
}

/// The accessor of a surrounding object: the value at `steps`, if still there.
fn access(obj: &Value, steps: &[Step]) -> Option<Value> {
    let mut cur = obj;
    for step in steps {
        cur = match (step, cur) {
            (Step::Child(k), Value::Object(m)) => m.get(k)?,
            (Step::Index, Value::Array(a)) => a.first()?,
            _ => return None,
        };
    }
    Some(cur.clone())
}

fn collect_pruned_defaults(
    s: &CNode,
    root: &CNode,
    steps: &mut Vec<Step>,
    path: &mut Vec<NodeStep>,
    out: &mut Vec<(Vec<NodeStep>, Option<Value>)>,
) {
    if let Some(d) = &s.default
        && let Some(mut obj) = surround_plain(d.clone(), steps)
    {
        let _ = meta::coerce(&mut obj, Some(root), true, &mut Coercion::new(true), &Path::Root);
        prune::prune(&mut obj, Some(root), true, &mut Vec::new());
        let pruned = access(&obj, steps);
        if pruned.as_ref() != Some(d) {
            out.push((path.clone(), pruned));
        }
    }
    if let Some(a) = s.additional_schema() {
        steps.push(Step::Child("*".into()));
        path.push(NodeStep::Additional);
        collect_pruned_defaults(a, root, steps, path, out);
        path.pop();
        steps.pop();
    }
    if let Some(items) = s.items.as_deref() {
        steps.push(Step::Index);
        path.push(NodeStep::Items);
        collect_pruned_defaults(items, root, steps, path, out);
        path.pop();
        steps.pop();
    }
    for (k, sub) in &s.properties {
        steps.push(Step::Child(k.clone()));
        path.push(NodeStep::Property(k.clone()));
        collect_pruned_defaults(sub, root, steps, path, out);
        path.pop();
        steps.pop();
    }
}
