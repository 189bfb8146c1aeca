//! `x-kubernetes-validations` rules: the API server's CEL validator
//! (apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`), interpreted.
//!
//! [`RuleValidator::new`] mirrors `NewValidator`/`validator`: it walks the schema once
//! and compiles the rules of every node ([`compile_ir_rules`], the node's own type as
//! `self`, with `apiVersion`, `kind` and the metadata names at resource roots and
//! embedded resources), building a tree that parallels the structural spine and holds
//! only the nodes with rules at or below them: `items`, the `properties` that have a
//! CEL type (an escapable property also needs its parent to have one),
//! `additionalProperties`, and the `allOf` branches (whose rules are compiled against
//! the node's schema, as Go compiles them).
//!
//! [`RuleValidator::validate`] mirrors `Validator.validate`: at each non-null value,
//! the node's rules (`validateExpressions`), then the `allOf` branches' rules, then the
//! children (`validateMap`: `additionalProperties`, then `properties`; `validateArray`:
//! `items`). The outcome of each evaluation (cost, errors, messages, reasons, field
//! paths, ratcheting) is decided by `crd_runtime::rules`, which generated code shares.
//!
//! `oldSelf`: a property or map value correlates with the old object's value of the
//! same key (every map type is correlatable, `MapIsCorrelatable`); a list item only in
//! a `x-kubernetes-list-type: map` list, with the old item of the same keys
//! (`makeMapList`); an old `null` is no old value. Transition rules run only with a
//! correlated old value, unless `optionalOldSelf` is set.
//!
//! Ratcheting (`ratchetingOptions`, on update): beside `oldSelf`, the walk follows the
//! old object with `CorrelatedObject` semantics (`crd_runtime::ratchet`: keys the
//! schema knows, map-list items by key; the root's `apiVersion` and `kind` never
//! correlate). A failing rule that is not a transition rule becomes a warning when its
//! node equals its correlated old value, or, below a point where correlation stops
//! (items of other lists, `allOf` branches), when the nearest correlated ancestor does.
//!
//! Deliberate differences from Go:
//! - Go iterates an object's keys in random order; here they are visited sorted, so
//!   the errors' order and which rule runs out of budget first are deterministic.
//! - The type of `self` comes from the node itself; Go takes it from the parent's type
//!   when the parent has one. They differ only for `metadata` below resource roots and
//!   embedded resources (see `crate::cel::check::compile`).
//! - A rule set whose node has no CEL type reports Go's `failed to convert to declType
//!   for CEL validation rules` whatever the detail of the compiler's error.
//! - A rule the interpreter cannot plan is reported like a rule that does not compile
//!   (`rule compile error: program instantiation failed: ...`); a `messageExpression`
//!   it cannot plan is ignored, like one that does not compile.

use std::collections::BTreeMap;

use crate::cel::check::compile::{CompiledRule, compile_ir_rules};
use crate::cel::check::decltype::escape;
use crate::check::RuleCompileError;
use crate::check::fieldpath_rule::valid_field_path;
use crate::check::structural::new_structural;
use crate::ir;
use crate::lower::raise_schema;
use crd_runtime::errors::Path;
use crd_runtime::ratchet::{self, MapList};
use crd_runtime::rules::{self, Budget, Correlated, Findings, NodeSite, Ratchet, Reason, RuleInfo};
use serde_json::Value;

use super::compile::CNode;
use super::eval::{self, Program};

/// Go's error when a node with rules has no CEL type.
const NO_DECL_TYPE: &str = "failed to convert to declType for CEL validation rules";

/// The compiled rules of a schema (Go's `cel.Validator`); empty when the schema has no
/// rules.
pub struct RuleValidator {
    root: Option<RuleNode>,
    per_call_limit: u64,
}

/// One node of the validator tree.
pub(crate) struct RuleNode {
    /// What the node's rules need: the schema they run against and the compiled rules.
    pub(crate) own: Option<NodeRules>,
    /// The node's type (`sts.Type`), printed as the bad value of evaluation errors.
    pub(crate) schema_type: &'static str,
    /// The list-map keys when the node is a `x-kubernetes-list-type: map` array (old
    /// items correlate by them).
    pub(crate) map_keys: Option<Vec<String>>,
    pub(crate) items: Option<Box<RuleNode>>,
    /// By name, sorted.
    pub(crate) properties: BTreeMap<String, RuleNode>,
    pub(crate) additional: Option<Box<RuleNode>>,
    pub(crate) all_of: Vec<RuleNode>,
}

/// The rules of one node, compiled when first read: a walk reads only the nodes it
/// reaches (the generated code's walk of a struct stops at the structs below it, which
/// have walks of their own; a default value reaches only its own nodes), and compiling
/// every rule of a subtree for each tree that contains it made generation quadratic in
/// the depth of the rules.
pub(crate) struct NodeRules {
    /// The node's schema, to read `self` and `oldSelf`.
    pub(crate) schema: ir::Schema,
    pub(crate) is_resource_root: bool,
    /// The rules to compile when they are not the node's own (an `allOf` branch's,
    /// compiled against the node's schema).
    branch_rules: Option<Vec<ir::Rule>>,
    /// Whether the node has a CEL type (`declType` is non-nil).
    has_type: bool,
    compiled: std::sync::OnceLock<Result<Vec<NodeRule>, String>>,
}

impl NodeRules {
    fn new(validation: &ir::Schema, node: &ir::Schema, is_resource_root: bool, has_type: bool) -> NodeRules {
        NodeRules {
            schema: node.clone(),
            is_resource_root,
            branch_rules: (!std::ptr::eq(validation, node)).then(|| validation.validations.clone()),
            has_type,
            compiled: std::sync::OnceLock::new(),
        }
    }

    /// The compiled rules, or the node-level compilation error (Go's
    /// `compilationErr`).
    pub(crate) fn rules(&self) -> &Result<Vec<NodeRule>, String> {
        self.compiled.get_or_init(|| {
            if !self.has_type {
                return Err(NO_DECL_TYPE.to_string());
            }
            match &self.branch_rules {
                None => compile_node(&self.schema, self.is_resource_root),
                Some(rules) => compile_node(
                    &ir::Schema {
                        validations: rules.clone(),
                        ..self.schema.clone()
                    },
                    self.is_resource_root,
                ),
            }
        })
    }
}

/// One rule, compiled.
pub(crate) struct NodeRule {
    pub(crate) rule: String,
    pub(crate) message: Option<String>,
    pub(crate) reason: Reason,
    pub(crate) field_path: Option<String>,
    pub(crate) optional_old_self: bool,
    pub(crate) compiled: Compiled,
}

pub(crate) enum Compiled {
    /// A rule of white space only: never runs.
    Empty,
    /// The rule did not compile (`rule compile error: <detail>`).
    Error(String),
    Program(Box<RuleProgram>),
}

/// A rule ready to run.
pub(crate) struct RuleProgram {
    pub(crate) program: Program,
    pub(crate) uses_old_self: bool,
    /// The `messageExpression` (source and program), when it compiled.
    pub(crate) message: Option<(String, Program)>,
}

impl NodeRule {
    pub(crate) fn info(&self) -> RuleInfo<'_> {
        let (uses_old_self, message_expression) = match &self.compiled {
            Compiled::Program(p) => (p.uses_old_self, p.message.as_ref().map(|(s, _)| s.as_str())),
            _ => (false, None),
        };
        RuleInfo {
            rule: &self.rule,
            message: self.message.as_deref(),
            message_expression,
            reason: self.reason,
            field_path: self.field_path.as_deref(),
            uses_old_self,
            optional_old_self: self.optional_old_self,
        }
    }
}

/// Whether Kubernetes' `SchemaDeclType` gives the node a CEL type: scalars and
/// int-or-string do; arrays when their items do; objects unless their
/// `additionalProperties` schema has none; untyped nodes do not.
pub(crate) fn has_cel_type(s: &ir::Schema) -> bool {
    // A derived type's node is typed by its stand-in (`dyn`, as int-or-string is).
    if s.int_or_string || s.rust_type.is_some() {
        return true;
    }
    match s.type_ {
        Some(ir::Type::Array) => s.items.as_deref().is_some_and(has_cel_type),
        Some(ir::Type::Object) => s.additional_properties_schema().is_none_or(has_cel_type),
        Some(_) => true,
        None => false,
    }
}

/// Whether the node or one below it on the structural spine has rules (Go's
/// `hasXValidations`, which `NewValidator` checks first).
fn has_rules(s: &ir::Schema) -> bool {
    !s.validations.is_empty()
        || s.items.as_deref().is_some_and(has_rules)
        || s.additional_properties_schema().is_some_and(has_rules)
        || s.properties.values().any(has_rules)
}

impl RuleValidator {
    /// Go's `NewValidator(s, isResourceRoot, perCallLimit)`: no validator when the
    /// schema has no rules on its structural spine.
    pub fn new(schema: &ir::Schema, is_resource_root: bool, per_call_limit: u64) -> RuleValidator {
        if !has_rules(schema) {
            return RuleValidator {
                root: None,
                per_call_limit,
            };
        }
        RuleValidator::for_node(schema, is_resource_root, per_call_limit)
    }

    /// Go's `validator(s, s, isResourceRoot, SchemaDeclType(s, isResourceRoot), ...)`
    /// (what the API server's tests build): also looks into `allOf` when the spine
    /// has no rules.
    pub fn for_node(schema: &ir::Schema, is_resource_root: bool, per_call_limit: u64) -> RuleValidator {
        RuleValidator {
            root: build(schema, schema, is_resource_root, has_cel_type(schema)),
            per_call_limit,
        }
    }

    /// Whether there is anything to validate (Go: a non-nil validator).
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The compilation errors of all rules, in walk order (a valid CRD has none).
    pub fn compile_errors(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(root) = &self.root {
            root.collect_errors(&mut out);
        }
        out
    }

    /// Go's `Validator.Validate(ctx, path, _, obj, oldObj, budget, opts)`: the rules of
    /// `obj` at `path`, with `old` as `oldSelf` (an update), and with `ratchet_schema`
    /// (the root schema, compiled) to ratchet failures on unchanged values
    /// (`WithRatcheting(NewCorrelatedObject(obj, old, schema))`).
    pub fn validate(
        &self,
        path: &Path,
        obj: &Value,
        old: Option<&Value>,
        ratchet_schema: Option<&CNode>,
        budget: &mut Budget,
        out: &mut Findings,
    ) {
        let Some(root) = &self.root else {
            return;
        };
        let corr = match (old, ratchet_schema) {
            (Some(old), Some(schema)) => Ratchet::root(Corr { new: obj, old, schema }),
            _ => Ratchet::none(),
        };
        let walk = Walk {
            per_call_limit: self.per_call_limit,
        };
        walk.node(root, path, obj, old, corr, budget, out);
    }
}

// ---------------------------------------------------------------------------------------
// Building the tree (Go's `validator`)
// ---------------------------------------------------------------------------------------

/// Go's `validator(validationSchema, nodeSchema, isResourceRoot, declType)`: the rules
/// come from `validation`, the types from `node` (the same node, except for `allOf`
/// branches); `has_type` tells whether `declType` is non-nil.
pub(crate) fn build(
    validation: &ir::Schema,
    node: &ir::Schema,
    is_resource_root: bool,
    has_type: bool,
) -> Option<RuleNode> {
    if node.rust_type.is_some() {
        // Derive direction: a derived type's node. The field's own rules run here (on
        // its `dyn` stand-in); the type's run in the type's own walk.
        let own = (!validation.validations.is_empty()).then(|| NodeRules::new(validation, node, false, true));
        return Some(RuleNode {
            own,
            schema_type: "",
            map_keys: None,
            items: None,
            properties: BTreeMap::new(),
            additional: None,
            all_of: Vec::new(),
        });
    }
    let own =
        (!validation.validations.is_empty()).then(|| NodeRules::new(validation, node, is_resource_root, has_type));
    let items = match (validation.items.as_deref(), node.items.as_deref()) {
        // `declType.ElemType`: the items' type of a list type.
        (Some(v), Some(n)) => build(
            v,
            n,
            n.embedded_resource,
            has_type && node.type_ == Some(ir::Type::Array),
        ),
        _ => None,
    };
    let mut properties = BTreeMap::new();
    for (k, v) in &validation.properties {
        // Only properties on the structural spine carry rules.
        let Some(n) = node.properties.get(k) else {
            continue;
        };
        // The property's type comes from the parent's fields when its name can be
        // written in CEL (missing when the parent or the property has no type), from
        // the property itself otherwise.
        if n.rust_type.is_none() && (!has_cel_type(n) || (escape(k).is_some() && !has_type)) {
            continue;
        }
        if let Some(p) = build(v, n, n.embedded_resource, true) {
            properties.insert(k.clone(), p);
        }
    }
    let additional = match (
        validation.additional_properties_schema(),
        node.additional_properties_schema(),
    ) {
        (Some(v), Some(n)) => build(v, n, n.embedded_resource, has_type),
        _ => None,
    };
    let all_of: Vec<RuleNode> = validation
        .all_of
        .iter()
        .filter_map(|branch| build(branch, node, is_resource_root, has_type))
        .collect();
    if own.is_none() && items.is_none() && properties.is_empty() && additional.is_none() && all_of.is_empty() {
        return None;
    }
    Some(RuleNode {
        own,
        schema_type: node.type_.map(ir::Type::as_str).unwrap_or(""),
        map_keys: (node.type_ == Some(ir::Type::Array)
            && node.list_type == Some(ir::ListType::Map)
            && !node.list_map_keys.is_empty())
        .then(|| node.list_map_keys.clone()),
        items: items.map(Box::new),
        properties,
        additional: additional.map(Box::new),
        all_of,
    })
}

/// Compiles the rules of `schema` (Go's `Compile`; for an `allOf` branch, on a copy of
/// the node schema carrying the branch's rules).
fn compile_node(schema: &ir::Schema, is_resource_root: bool) -> Result<Vec<NodeRule>, String> {
    let compiled = compile_ir_rules(schema, is_resource_root).map_err(|_| NO_DECL_TYPE.to_string())?;
    // `ValidFieldPath` needs the structural form; built only when a rule has a path.
    let structural = if schema.validations.iter().any(|r| r.field_path.is_some()) {
        new_structural(&raise_schema(schema)).ok()
    } else {
        None
    };
    Ok(schema
        .validations
        .iter()
        .zip(compiled)
        .map(|(rule, c)| compile_rule(rule, c, structural.as_ref()))
        .collect())
}

fn compile_rule(rule: &ir::Rule, c: CompiledRule, structural: Option<&crate::check::Structural>) -> NodeRule {
    let mut field_path = None;
    let compiled = match (&c.result.error, c.rule) {
        (Some(RuleCompileError::Invalid(d) | RuleCompileError::Required(d)), _) => Compiled::Error(d.clone()),
        (None, None) => Compiled::Empty,
        (None, Some(checked)) => match Program::new(&checked) {
            Err(e) => Compiled::Error(format!("program instantiation failed: {e}")),
            Ok(program) => {
                // Go normalizes the field path last, so not when the message
                // expression failed to compile.
                if c.result.message_expression_error.is_none() {
                    field_path = rule
                        .field_path
                        .as_deref()
                        .and_then(|p| valid_field_path(p, structural, true).ok())
                        .map(|(p, _)| p.to_string());
                }
                let message = match (&rule.message_expression, c.message_expression) {
                    (Some(source), Some(checked)) => Program::new(&checked).ok().map(|p| (source.clone(), p)),
                    _ => None,
                };
                Compiled::Program(Box::new(RuleProgram {
                    program,
                    uses_old_self: c.result.uses_old_self,
                    message,
                }))
            }
        },
    };
    NodeRule {
        rule: rule.rule.clone(),
        message: rule.message.clone(),
        reason: Reason::parse(rule.reason.as_deref()),
        field_path,
        optional_old_self: rule.optional_old_self,
        compiled,
    }
}

impl RuleNode {
    fn collect_errors(&self, out: &mut Vec<String>) {
        if let Some(own) = &self.own {
            match own.rules() {
                Err(e) => out.push(e.clone()),
                Ok(rules) => out.extend(rules.iter().filter_map(|r| match &r.compiled {
                    Compiled::Error(e) => Some(e.clone()),
                    _ => None,
                })),
            }
        }
        for child in self.items.iter().chain(self.additional.iter()) {
            child.collect_errors(out);
        }
        for child in self.properties.values().chain(self.all_of.iter()) {
            child.collect_errors(out);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Ratcheting: `CorrelatedObject` over the compiled schema, for `crd_runtime::rules::Ratchet`
// ---------------------------------------------------------------------------------------

/// A node correlated with its old value (Go's `CorrelatedObject`).
#[derive(Clone, Copy)]
struct Corr<'a> {
    new: &'a Value,
    old: &'a Value,
    schema: &'a CNode,
}

impl Correlated for Corr<'_> {
    fn key(self, key: &str) -> Option<Self> {
        let schema = self.schema.field(key)?;
        let (Value::Object(n), Value::Object(o)) = (self.new, self.old) else {
            return None;
        };
        Some(Corr {
            new: n.get(key)?,
            old: o.get(key)?,
            schema,
        })
    }

    fn index(self, i: usize) -> Option<Self> {
        let Value::Array(items) = self.new else {
            return None;
        };
        let old = ratchet::correlate_index(self.schema, items, self.old, i)?;
        Some(Corr {
            new: items.get(i)?,
            old,
            schema: self.schema.items.as_deref()?,
        })
    }

    fn unchanged(self) -> bool {
        ratchet::deep_equal(self.new, self.old, self.schema)
    }
}

// ---------------------------------------------------------------------------------------
// The walk (Go's `validate`, `validateExpressions`, `validateMap`, `validateArray`)
// ---------------------------------------------------------------------------------------

struct Walk {
    per_call_limit: u64,
}

impl Walk {
    #[allow(clippy::too_many_arguments)]
    fn node(
        &self,
        n: &RuleNode,
        path: &Path,
        obj: &Value,
        old: Option<&Value>,
        corr: Ratchet<Corr>,
        budget: &mut Budget,
        out: &mut Findings,
    ) {
        // Rules see only non-null values; a rule checking for null belongs on the
        // parent.
        if obj.is_null() {
            return;
        }
        let old = old.filter(|o| !o.is_null());
        if let Some(own) = &n.own {
            self.expressions(n, own, path, obj, old, corr, budget, out);
            if budget.is_exhausted() {
                return;
            }
        }
        for branch in &n.all_of {
            self.node(branch, path, obj, old, corr.all_of_branch(), budget, out);
            if budget.is_exhausted() {
                return;
            }
        }
        match obj {
            Value::Array(items) => self.array(n, path, items, old, corr, budget, out),
            Value::Object(map) => self.map(n, path, map, old, corr, budget, out),
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn map(
        &self,
        n: &RuleNode,
        path: &Path,
        map: &serde_json::Map<String, Value>,
        old: Option<&Value>,
        corr: Ratchet<Corr>,
        budget: &mut Budget,
        out: &mut Findings,
    ) {
        let old_map = old.and_then(Value::as_object);
        let mut keys: Vec<&String> = map.keys().collect();
        keys.sort();
        if let Some(additional) = &n.additional {
            for k in &keys {
                let old_v = old_map.and_then(|o| o.get(k.as_str()));
                self.node(additional, &path.key(k), &map[*k], old_v, corr.key(k), budget, out);
                if budget.is_exhausted() {
                    return;
                }
            }
        }
        for k in &keys {
            if let Some(p) = n.properties.get(k.as_str()) {
                let old_v = old_map.and_then(|o| o.get(k.as_str()));
                self.node(p, &path.field(k), &map[*k], old_v, corr.key(k), budget, out);
                if budget.is_exhausted() {
                    return;
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn array(
        &self,
        n: &RuleNode,
        path: &Path,
        items: &[Value],
        old: Option<&Value>,
        corr: Ratchet<Corr>,
        budget: &mut Budget,
        out: &mut Findings,
    ) {
        let Some(item_node) = &n.items else {
            return;
        };
        // Only the items of map lists correlate with old items.
        let old_items = match (&n.map_keys, old) {
            (Some(keys), Some(Value::Array(o))) => {
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                Some(MapList::with_keys(&keys, o))
            }
            _ => None,
        };
        for (i, item) in items.iter().enumerate() {
            let old_item = old_items.as_ref().and_then(|l| l.get(item));
            self.node(item_node, &path.index(i), item, old_item, corr.index(i), budget, out);
            if budget.is_exhausted() {
                return;
            }
        }
    }

    /// `validateExpressions`: the node's own rules.
    #[allow(clippy::too_many_arguments)]
    fn expressions(
        &self,
        n: &RuleNode,
        own: &NodeRules,
        path: &Path,
        obj: &Value,
        old: Option<&Value>,
        corr: Ratchet<Corr>,
        budget: &mut Budget,
        out: &mut Findings,
    ) {
        let site = NodeSite {
            path,
            schema_type: n.schema_type,
            value: obj,
            has_old: old.is_some(),
        };
        let node_rules = match own.rules() {
            Err(e) => {
                rules::node_compile_error(&site, e, out);
                return;
            }
            Ok(r) => r,
        };
        if node_rules.is_empty() || !rules::enter_node(&site, budget, out) {
            return;
        }
        let self_val = eval::value(obj, &own.schema, own.is_resource_root);
        let old_val = old.map(|o| eval::value(o, &own.schema, own.is_resource_root));
        for rule in node_rules {
            let compiled = match &rule.compiled {
                Compiled::Empty => continue,
                Compiled::Error(e) => {
                    rules::rule_compile_error(&site, e, out);
                    continue;
                }
                Compiled::Program(p) => p,
            };
            let info = rule.info();
            let activation = eval::activation(&info, &self_val, old_val.as_ref(), false);
            let go_on = rules::run_rule(
                &info,
                &site,
                || eval::as_bool(eval::run(&compiled.program, &activation, self.per_call_limit)),
                || {
                    let (_, p) = compiled.message.as_ref()?;
                    let activation = eval::activation(&info, &self_val, old_val.as_ref(), true);
                    Some(eval::as_message(eval::run(p, &activation, self.per_call_limit)))
                },
                || corr.should_ratchet(),
                budget,
                out,
            );
            if !go_on {
                return;
            }
        }
    }
}
