//! What becomes of an `x-kubernetes-validations` rule once it has been evaluated:
//! the cost budget, the errors and warnings a result turns into, the
//! `messageExpression` rules and ratcheting. Shared by crd-codegen's reference engine
//! (which interprets rules) and generated code (which runs them compiled), so that
//! both report exactly what the API server reports.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`:
//! `validateExpressions` (the per-node budget check, the handling of an evaluation's
//! cost and error, the failure report), `evalMessageExpression`,
//! `ruleMessageOrDefault`, `ruleErrorString`, `fieldErrorForReason` and
//! `ratchetingOptions` ([`Ratchet`], over any [`Correlated`] view of apiserver's
//! `CorrelatedObject`); the limits come from apiserver `pkg/apis/cel/config.go`.
//!
//! How a node's rules are run (generated code and the engine do the same):
//!
//! ```text
//! if value is null: skip the node and everything below it
//! (a node whose rules could not be compiled: rules::node_compile_error, skip them)
//! if !rules::enter_node(&site, &mut budget, &mut out) { stop everything }
//! for each rule (with static RuleInfo `info`):
//!     (a rule that did not compile: rules::rule_compile_error, next rule)
//!     if !info.applies(old.is_some()) { continue }          // transition rules
//!     let evaluated = <evaluate the rule>;                   // result + cost
//!     match rules::rule_result(&info, &site, evaluated, &mut budget, &mut out) {
//!         Verdict::Passed | Verdict::Reported => {}
//!         Verdict::Failed => {
//!             let message = info.message_expression.map(|_| <evaluate it>);
//!             rules::report_failure(&info, &site, message, || ratchet.should_ratchet(), &mut budget, &mut out);
//!         }
//!     }
//!     if budget.is_exhausted() { stop everything }
//! then the allOf branches' rules (ratchet.all_of_branch()), then the children
//! (ratchet.key(k) / ratchet.index(i)), stopping when the budget is exhausted
//! ```
//!
//! Deliberate differences from Go: cel-go can fail to report a cost (`runtime cost
//! could not be calculated ...`, an internal error); an evaluator here always reports
//! one, so those messages do not exist. Warnings are returned in [`Findings`] instead
//! of being added to the request context.

// cel-go's error texts the API server tells apart by their prefix: the per-call cost
// limit, and no overload for the run-time types.
use crate::cel::error::{COST_LIMIT_EXCEEDED, NO_SUCH_OVERLOAD};
use crate::errors::{ErrorList, ErrorType, FieldError, Path};
use crate::gofmt;
use serde_json::Value;
use std::fmt::Display;

/// `PerCallLimit` (the cost limit of one evaluation of one expression) and
/// `RuntimeCELCostBudget` (the cost budget of all rules of one object, and of the
/// rules run on the default values of one CRD).
pub use crate::cel::cost::{PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET};
/// `MaxEvaluatedMessageExpressionSizeBytes`.
pub const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES: usize = 5 * 1024;

const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// A rule's `reason` (Go's `FieldValueErrorReason`): the type of its error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reason {
    /// `FieldValueInvalid`, also for an unset or unknown reason.
    #[default]
    Invalid,
    /// `FieldValueForbidden`.
    Forbidden,
    /// `FieldValueRequired`.
    Required,
    /// `FieldValueDuplicate`.
    Duplicate,
}

impl Reason {
    /// The reason named in a rule; unset or unknown names are `Invalid`, as in
    /// `fieldErrorForReason`.
    pub fn parse(reason: Option<&str>) -> Reason {
        match reason {
            Some("FieldValueForbidden") => Reason::Forbidden,
            Some("FieldValueRequired") => Reason::Required,
            Some("FieldValueDuplicate") => Reason::Duplicate,
            _ => Reason::Invalid,
        }
    }
}

/// What is known about a rule before it runs. All fields are plain data so that
/// generated code can write each rule's info as a `static`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleInfo<'a> {
    /// The rule's expression, as written.
    pub rule: &'a str,
    /// `message`, as written (`None` and `Some("")` both mean unset).
    pub message: Option<&'a str>,
    /// The `messageExpression` source, when there is one and it compiled (a
    /// `messageExpression` that does not compile is ignored at run time).
    pub message_expression: Option<&'a str>,
    pub reason: Reason,
    /// The `fieldPath` normalized as the API server does when it compiles the rule
    /// (`ValidFieldPath(...).String()`, e.g. `.a['b.c']` below a map → `a[b.c]`);
    /// `None` when unset or invalid.
    pub field_path: Option<&'a str>,
    /// Whether the rule refers to `oldSelf` (a transition rule).
    pub uses_old_self: bool,
    /// `optionalOldSelf: true`.
    pub optional_old_self: bool,
}

impl RuleInfo<'_> {
    /// Whether the rule runs: transition rules need a correlated old value, unless
    /// `optionalOldSelf` is set (then `oldSelf` is `optional.none()` without one).
    #[inline]
    pub fn applies(&self, has_old: bool) -> bool {
        !self.uses_old_self || has_old || self.optional_old_self
    }

    fn message(&self) -> Option<&str> {
        self.message.filter(|m| !m.is_empty())
    }

    /// Go's `ruleErrorString`: the trimmed message if set, else the trimmed rule.
    pub fn error_string(&self) -> &str {
        match self.message() {
            Some(m) => m.trim(),
            None => self.rule.trim(),
        }
    }

    /// Go's `ruleMessageOrDefault`: the trimmed message if set, else
    /// `failed rule: <trimmed rule>`.
    pub fn default_message(&self) -> String {
        match self.message() {
            Some(m) => m.trim().to_string(),
            None => format!("failed rule: {}", self.rule.trim()),
        }
    }
}

/// The cost budget left for the rules of one object (Go's `remainingBudget`). Once
/// it is negative (after a budget or cost-limit error) no further rule runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    remaining: i64,
}

impl Budget {
    /// A budget of `remaining` cost units.
    pub const fn new(remaining: i64) -> Budget {
        Budget { remaining }
    }

    /// [`RUNTIME_CEL_COST_BUDGET`], the budget of one object.
    pub const fn per_object() -> Budget {
        Budget::new(RUNTIME_CEL_COST_BUDGET)
    }

    pub fn remaining(self) -> i64 {
        self.remaining
    }

    /// What was charged to a per-object budget (its whole amount once exhausted).
    pub fn spent(self) -> u64 {
        (RUNTIME_CEL_COST_BUDGET - self.remaining.max(0)) as u64
    }

    /// Whether validation must stop (Go: `remainingBudget < 0`).
    #[inline]
    pub fn is_exhausted(self) -> bool {
        self.remaining < 0
    }

    fn exhaust(&mut self) {
        self.remaining = -1;
    }

    /// Takes `cost`, or returns `false` when it does not fit (Go: `*rtCost >
    /// math.MaxInt64 || int64(*rtCost) > remainingBudget`).
    #[inline]
    fn take(&mut self, cost: u64) -> bool {
        match i64::try_from(cost) {
            Ok(c) if c <= self.remaining => {
                self.remaining -= c;
                true
            }
            _ => false,
        }
    }
}

/// The errors and warnings of rules. Warnings are errors that ratcheting turned
/// into warnings, printed as errors (`root.foo: Invalid value: "baz": gotta be bar`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Findings {
    pub errors: ErrorList,
    pub warnings: Vec<String>,
    /// The cost of the rules' evaluations charged to the budget.
    pub cost: u64,
}

/// The node whose rules run: Go's `fldPath`, `sts.Type` and `obj`.
#[derive(Clone, Copy, Debug)]
pub struct NodeSite<'a> {
    /// The node's path (the root is `<nil>` for a custom resource).
    pub path: &'a Path<'a>,
    /// The node's schema `type` (`object`, `string`, ...; empty when unset). Printed
    /// as the bad value of evaluation errors.
    pub schema_type: &'a str,
    /// The node's value, printed as the bad value of failures (omitted for objects
    /// and arrays): JSON data, or a typed value of generated code.
    pub value: &'a dyn BadValue,
    /// Whether the node has a correlated old value (transition rules run only then).
    pub has_old: bool,
}

/// A value a failure can print: anything serializable (JSON data, the typed values of
/// generated code). Only converted when a failure is reported.
pub trait BadValue {
    fn to_json(&self) -> Value;
}

impl<T: serde::Serialize + ?Sized> BadValue for T {
    fn to_json(&self) -> Value {
        // Generated types and JSON always serialize.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl std::fmt::Debug for dyn BadValue + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

impl NodeSite<'_> {
    fn field(&self) -> String {
        self.path.to_field_string()
    }

    /// `field.Invalid(fldPath, sts.Type, detail)`.
    fn invalid(&self, detail: String) -> FieldError {
        FieldError::invalid(self.field(), Value::String(self.schema_type.to_string()), detail)
    }

    /// The path of a failure: the node's, or its `fieldPath` child.
    fn failure_field(&self, info: &RuleInfo<'_>) -> String {
        match info.field_path.filter(|p| !p.is_empty()) {
            // Go's `fldPath.Child(normalized)`: the normalized path is one path
            // element, joined with a dot (nothing at the root).
            Some(p) => self.path.field(p).to_field_string(),
            None => self.field(),
        }
    }

    /// The bad value of a failure: the value, omitted for objects and arrays.
    fn failure_value(&self) -> Option<Value> {
        match self.schema_type {
            "object" | "array" => None,
            _ => Some(self.value.to_json()),
        }
    }
}

/// The start of a node's rules (`validateExpressions` before its loop), for a node
/// with at least one rule and a non-null value: with no budget left, reports
/// `validation failed due to running out of cost budget, ...` at the node and
/// exhausts the budget. Returns whether the rules may run.
#[inline]
pub fn enter_node(site: &NodeSite<'_>, budget: &mut Budget, out: &mut Findings) -> bool {
    if budget.remaining <= 0 {
        out_of_budget(site, budget, out);
        return false;
    }
    true
}

/// A node whose rules could not be compiled at all (Go's `compilationErr`, e.g. no
/// CEL type for the node): `rule compiler initialization error: <detail>`.
pub fn node_compile_error(site: &NodeSite<'_>, detail: &str, out: &mut Findings) {
    out.errors
        .push(site.invalid(format!("rule compiler initialization error: {detail}")));
}

/// A rule that did not compile: `rule compile error: <detail>` (never ratcheted).
pub fn rule_compile_error(site: &NodeSite<'_>, detail: &str, out: &mut Findings) {
    out.errors.push(site.invalid(format!("rule compile error: {detail}")));
}

/// An evaluation: its result and the cost it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluated<T, E> {
    pub result: Result<T, E>,
    pub cost: u64,
}

/// What a rule's evaluation came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The rule holds.
    Passed,
    /// The rule does not hold: the caller reports it with [`report_failure`].
    Failed,
    /// An error was reported (or the budget ran out); nothing more to do for this
    /// rule.
    Reported,
}

/// Takes a rule's evaluation (`true` when the result is CEL's `true`; an error with
/// cel-go's text) and its cost: charges the cost to the budget and reports
/// evaluation errors, as `validateExpressions` does.
///
/// - cost above the remaining budget: `validation failed due to running out of cost
///   budget, ...`, budget exhausted;
/// - `no such overload...`: `'<err>': call arguments did not match a supported
///   operator, function or macro signature for rule: <rule>`;
/// - `operation cancelled: actual cost limit exceeded`: `'<err>': no further
///   validation rules will be run due to call cost exceeds limit for rule: <rule>`,
///   budget exhausted;
/// - any other error: `<err> evaluating rule: <rule>`.
///
/// `<rule>` is the rule's message if set, else the rule. Errors are never ratcheted.
#[inline]
pub fn rule_result<E: Display>(
    info: &RuleInfo<'_>,
    site: &NodeSite<'_>,
    evaluated: Evaluated<bool, E>,
    budget: &mut Budget,
    out: &mut Findings,
) -> Verdict {
    if !budget.take(evaluated.cost) {
        out_of_budget(site, budget, out);
        return Verdict::Reported;
    }
    match evaluated.result {
        Ok(true) => Verdict::Passed,
        Ok(false) => Verdict::Failed,
        Err(e) => {
            evaluation_error(info, site, &e.to_string(), budget, out);
            Verdict::Reported
        }
    }
}

/// `validation failed due to running out of cost budget, ...` at the node; the
/// budget is exhausted.
#[cold]
fn out_of_budget(site: &NodeSite<'_>, budget: &mut Budget, out: &mut Findings) {
    out.errors.push(site.invalid(OUT_OF_BUDGET.to_string()));
    budget.exhaust();
}

/// The report of a rule whose evaluation failed with error `e` (see [`rule_result`]).
#[cold]
fn evaluation_error(info: &RuleInfo<'_>, site: &NodeSite<'_>, e: &str, budget: &mut Budget, out: &mut Findings) {
    let rule = info.error_string();
    let detail = if e.starts_with(NO_SUCH_OVERLOAD) {
        format!(
            "'{e}': call arguments did not match a supported operator, function or macro signature for rule: {rule}"
        )
    } else if e.starts_with(COST_LIMIT_EXCEEDED) {
        budget.exhaust();
        format!("'{e}': no further validation rules will be run due to call cost exceeds limit for rule: {rule}")
    } else {
        format!("{e} evaluating rule: {rule}")
    };
    out.errors.push(site.invalid(detail));
}

/// What a `messageExpression` evaluation came to (Go's `evalMessageExpression`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageOutcome {
    /// The trimmed message.
    Message(String),
    /// Unusable: the failure falls back to the rule's message or the default. The
    /// text is what the API server logs.
    Fallback(String),
    /// Validation stops (out of budget, or the per-call limit): the error detail.
    Abort(String),
}

/// Go's `evalMessageExpression` on an evaluation (`Some(s)` for a string result,
/// `None` for any other value), charging its cost to `budget` unless it aborts
/// (which exhausts the budget).
pub fn message_expression_outcome<E: Display>(
    source: &str,
    evaluated: Evaluated<Option<String>, E>,
    budget: &mut Budget,
) -> MessageOutcome {
    let mut left = *budget;
    if !left.take(evaluated.cost) {
        budget.exhaust();
        return MessageOutcome::Abort(
            "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"
                .into(),
        );
    }
    let message = match evaluated.result {
        Err(e) => {
            let e = e.to_string();
            if e.starts_with(COST_LIMIT_EXCEEDED) {
                budget.exhaust();
                return MessageOutcome::Abort(format!(
                    "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                    gofmt::quote(source)
                ));
            }
            *budget = left;
            return MessageOutcome::Fallback(format!("messageExpression evaluation failed due to: {e}"));
        }
        Ok(m) => m,
    };
    *budget = left;
    let Some(message) = message else {
        return MessageOutcome::Fallback("messageExpression failed to convert to string".into());
    };
    let trimmed = message.trim();
    if trimmed.len() > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES {
        MessageOutcome::Fallback(format!(
            "messageExpression beyond allowable length of {MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES}"
        ))
    } else if trimmed.contains('\n') {
        MessageOutcome::Fallback("messageExpression should not contain line breaks".into())
    } else if trimmed.is_empty() {
        MessageOutcome::Fallback("messageExpression should evaluate to a non-empty string".into())
    } else {
        MessageOutcome::Message(trimmed.to_string())
    }
}

/// Reports a rule that evaluated to `false`, with the evaluation of its
/// `messageExpression` when it has one. The error goes to `out.errors`, or, when the
/// rule is not a transition rule and `ratchet()` says the node (or its nearest
/// correlatable ancestor) equals its old value, to `out.warnings` (Go's `addErr`).
///
/// The error: at the node, or its `fieldPath`; the detail is the message expression's
/// result, else the rule's message, else `failed rule: <rule>`; the type is the
/// rule's reason (`Invalid` with the value, omitted for objects and arrays;
/// `Forbidden`, `Required` without; `Duplicate` with the value and no detail). A
/// `messageExpression` that runs out of budget or over its per-call limit is
/// reported instead, and exhausts the budget.
pub fn report_failure<E: Display>(
    info: &RuleInfo<'_>,
    site: &NodeSite<'_>,
    message_expression: Option<Evaluated<Option<String>, E>>,
    ratchet: impl FnOnce() -> bool,
    budget: &mut Budget,
    out: &mut Findings,
) {
    let field = site.failure_field(info);
    let outcome = match (info.message_expression, message_expression) {
        (Some(source), Some(evaluated)) => Some(message_expression_outcome(source, evaluated, budget)),
        _ => None,
    };
    let error = match outcome {
        Some(MessageOutcome::Abort(detail)) => {
            FieldError::invalid(field, Value::String(site.schema_type.to_string()), detail)
        }
        Some(MessageOutcome::Message(detail)) => error_for_reason(info.reason, field, site.failure_value(), detail),
        Some(MessageOutcome::Fallback(_)) | None => {
            error_for_reason(info.reason, field, site.failure_value(), info.default_message())
        }
    };
    if !info.uses_old_self && ratchet() {
        out.warnings.push(error.to_string());
    } else {
        out.errors.push(error);
    }
}

/// A node of the new object correlated with the old object (Go's
/// `CorrelatedObject`), as [`Ratchet`] walks it. Implemented by whoever knows the
/// schema: the reference engine, generated code.
pub trait Correlated: Copy {
    /// The child at `key` (`CorrelatedObject.Key`): both values are objects holding
    /// the key and the schema knows it (a property or an `additionalProperties`
    /// schema); `None` otherwise.
    fn key(self, key: &str) -> Option<Self>;
    /// The item at `index` (`CorrelatedObject.Index`): only items of
    /// `x-kubernetes-list-type: map` lists correlate, with the old item of the same
    /// keys (see [`crate::ratchet::correlate_index`]).
    fn index(self, index: usize) -> Option<Self>;
    /// Whether the value equals its old value (`CachedDeepEqual`, see
    /// [`crate::ratchet::deep_equal`]).
    fn unchanged(self) -> bool;
}

/// Where the rule walk stands for ratcheting (Go's `ratchetingOptions`): the node's
/// correlation, or, once correlation has stopped (items of lists other than map
/// lists, keys the old object lacks, `allOf` branches), the last correlated
/// ancestor. A failing rule that is not a transition rule is ratcheted when
/// [`Ratchet::should_ratchet`] (pass it to [`report_failure`]).
#[derive(Clone, Copy, Debug)]
pub struct Ratchet<C> {
    current: Option<C>,
    nearest_parent: Option<C>,
}

impl<C: Correlated> Ratchet<C> {
    /// No ratcheting (a create, or validation without an old object).
    pub fn none() -> Ratchet<C> {
        Ratchet {
            current: None,
            nearest_parent: None,
        }
    }

    /// The root of an update (`WithRatcheting(NewCorrelatedObject(new, old, schema))`).
    pub fn root(root: C) -> Ratchet<C> {
        Ratchet {
            current: Some(root),
            nearest_parent: None,
        }
    }

    /// Go's `shouldRatchetError`: the node is unchanged, or, where correlation has
    /// stopped, its nearest correlated ancestor is.
    pub fn should_ratchet(self) -> bool {
        match (self.current, self.nearest_parent) {
            (Some(c), _) => c.unchanged(),
            (None, Some(p)) => p.unchanged(),
            (None, None) => false,
        }
    }

    /// The child at `key`. The root's `apiVersion` and `kind` never ratchet (old and
    /// new objects are converted to one version, so their change cannot be seen).
    pub fn key(self, key: &str) -> Ratchet<C> {
        let Some(current) = self.current else {
            return self;
        };
        if self.nearest_parent.is_none() && (key == "apiVersion" || key == "kind") {
            return Ratchet::none();
        }
        Ratchet {
            current: current.key(key),
            nearest_parent: Some(current),
        }
    }

    /// The item at `index`.
    pub fn index(self, index: usize) -> Ratchet<C> {
        let Some(current) = self.current else {
            return self;
        };
        Ratchet {
            current: current.index(index),
            nearest_parent: Some(current),
        }
    }

    /// For the rules of the node's `allOf` branches: never the node itself (OpenAPI
    /// ratcheting does not ratchet `allOf` either), but the node's nearest correlated
    /// ancestor.
    pub fn all_of_branch(self) -> Ratchet<C> {
        Ratchet {
            current: None,
            nearest_parent: self.nearest_parent,
        }
    }
}

/// Runs one rule of a node whose [`enter_node`] passed, as `validateExpressions`
/// does for each rule: skipped when it does not apply (a transition rule without an
/// old value), else evaluated, its result reported ([`rule_result`]) and, when it
/// does not hold, its `messageExpression` evaluated and the failure reported
/// ([`report_failure`]). Returns `false` once the budget is exhausted: no further
/// rule may run.
#[inline]
pub fn run_rule<E: Display>(
    info: &RuleInfo<'_>,
    site: &NodeSite<'_>,
    evaluate: impl FnOnce() -> Evaluated<bool, E>,
    message_expression: impl FnOnce() -> Option<Evaluated<Option<String>, E>>,
    ratchet: impl FnOnce() -> bool,
    budget: &mut Budget,
    out: &mut Findings,
) -> bool {
    if !info.applies(site.has_old) {
        return true;
    }
    let evaluated = evaluate();
    // Most rules hold within the budget: nothing to report, and the budget (taken,
    // so not below zero) is not exhausted.
    if matches!(evaluated.result, Ok(true)) && budget.take(evaluated.cost) {
        return true;
    }
    report_rule(info, site, evaluated, message_expression, ratchet, budget, out)
}

/// [`run_rule`] for a rule that does not hold, failed, or ran out of budget.
#[cold]
#[inline(never)]
fn report_rule<E: Display>(
    info: &RuleInfo<'_>,
    site: &NodeSite<'_>,
    evaluated: Evaluated<bool, E>,
    message_expression: impl FnOnce() -> Option<Evaluated<Option<String>, E>>,
    ratchet: impl FnOnce() -> bool,
    budget: &mut Budget,
    out: &mut Findings,
) -> bool {
    if rule_result(info, site, evaluated, budget, out) == Verdict::Failed {
        report_failure(info, site, message_expression(), ratchet, budget, out);
    }
    !budget.is_exhausted()
}

/// The budget is exhausted: validation stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop;

/// Whether the walk goes on (`?` stops it).
pub type Flow = Result<(), Stop>;

/// [`enter_node`] for generated code: `Err(Stop)` when the node's rules may not run.
#[inline]
pub fn enter(site: &NodeSite<'_>, budget: &mut Budget, out: &mut Findings) -> Flow {
    if enter_node(site, budget, out) {
        Ok(())
    } else {
        Err(Stop)
    }
}

/// [`run_rule`] for generated code: `Err(Stop)` once the budget is exhausted. The
/// callbacks are `dyn` and the ratchet is passed as it is: generic closures would
/// compile this function again for every rule of every user's crate.
pub fn check<E: Display>(
    info: &RuleInfo<'_>,
    site: &NodeSite<'_>,
    evaluate: &dyn Fn() -> Evaluated<bool, E>,
    message_expression: Option<&dyn Fn() -> Evaluated<Option<String>, E>>,
    ratchet: TypedRatchet<'_>,
    budget: &mut Budget,
    out: &mut Findings,
) -> Flow {
    let message = || message_expression.map(|m| m());
    if run_rule(info, site, evaluate, message, || ratchet.should_ratchet(), budget, out) {
        Ok(())
    } else {
        Err(Stop)
    }
}

/// Ratcheting in generated code: a correlated node is a closure telling whether it
/// equals its old value (computed only when a failure asks).
pub type TypedRatchet<'r> = Ratchet<Unchanged<'r>>;

/// For generated walks: walks child `value` (correlated with `old`) at `path` with
/// `walk`, its type's walk function; `equal` is the type's `CachedDeepEqual`, for
/// ratcheting below. One function here instead of the same lines in every walk.
#[allow(
    clippy::too_many_arguments,
    reason = "a walk function's parameters and the child's two functions"
)]
pub fn walk_child(
    value: &Value,
    old: Option<&Value>,
    path: &Path,
    ratchet: TypedRatchet<'_>,
    budget: &mut Budget,
    out: &mut Findings,
    equal: fn(&Value, &Value) -> bool,
    walk: WalkFn,
) -> Flow {
    walk(value, old, path, ratchet.child(value, old, equal), budget, out)
}

/// [`walk_child`] for property `key` of object `m` (`old` the old object), when it is
/// there and not `null`.
#[allow(
    clippy::too_many_arguments,
    reason = "a walk function's parameters and the child's two functions"
)]
pub fn walk_property(
    m: &serde_json::Map<String, Value>,
    old: Option<&serde_json::Map<String, Value>>,
    key: &str,
    path: &Path,
    ratchet: TypedRatchet<'_>,
    budget: &mut Budget,
    out: &mut Findings,
    equal: fn(&Value, &Value) -> bool,
    walk: WalkFn,
) -> Flow {
    let Some(x) = crate::compiled::prop(m, key) else {
        return Ok(());
    };
    let ox = crate::compiled::old_prop(old, key);
    walk_child(x, ox, &path.field(key), ratchet, budget, out, equal, walk)
}

/// Whether a typed node equals its correlated old value (`CachedDeepEqual`): `equal`
/// of the two, worked out when a rule asks.
#[derive(Clone, Copy)]
pub struct Unchanged<'r> {
    value: &'r Value,
    old: &'r Value,
    equal: fn(&Value, &Value) -> bool,
}

impl<'r> TypedRatchet<'r> {
    /// Into a child node `value` correlated with `old` (none: not correlated), which is
    /// unchanged when `equal(value, old)`: a function (the node's type's
    /// `ratchet_equal`, `leaf_equal`, or a closure capturing nothing), so generated
    /// walks compile no closure and no `Option` combinator per child.
    #[inline]
    pub fn child(self, value: &'r Value, old: Option<&'r Value>, equal: fn(&Value, &Value) -> bool) -> Self {
        self.descend(old.map(|old| Unchanged { value, old, equal }))
    }
}

impl Correlated for Unchanged<'_> {
    // Generated code correlates children itself and descends with
    // [`TypedRatchet::child`].
    fn key(self, _key: &str) -> Option<Self> {
        None
    }
    fn index(self, _index: usize) -> Option<Self> {
        None
    }
    fn unchanged(self) -> bool {
        (self.equal)(self.value, self.old)
    }
}

impl<C: Correlated> Ratchet<C> {
    /// The child whose correlation the caller found (`key` / `index` when the
    /// walker correlates children itself): `None` once correlation stops there.
    pub fn descend(self, child: Option<C>) -> Ratchet<C> {
        match self.current {
            None => self,
            Some(current) => Ratchet {
                current: child,
                nearest_parent: Some(current),
            },
        }
    }
}

/// A generated walk function: the rules at and below a node of one type (a root
/// type's is what its `CustomResource::validate_rules` runs).
pub type WalkFn = for<'a> fn(&'a Value, Option<&'a Value>, &Path, TypedRatchet<'_>, &mut Budget, &mut Findings) -> Flow;

/// The rules of a whole custom resource, compiled (what a generated root type's
/// `CustomResource::validate_rules` runs): the walk over the object with one budget;
/// `old` (an update) gives `oldSelf` and ratcheting (`ratchet_equal` is the root's
/// `CachedDeepEqual`).
pub fn validate_json(
    object: &Value,
    old: Option<&Value>,
    ratchet_equal: fn(&Value, &Value) -> bool,
    walk: WalkFn,
) -> Findings {
    let ratchet = match old {
        Some(old) => Ratchet::root(Unchanged {
            value: object,
            old,
            equal: ratchet_equal,
        }),
        None => Ratchet::none(),
    };
    let mut budget = Budget::per_object();
    let mut out = Findings::default();
    // Stopping early (the budget ran out) keeps the errors found so far.
    let _ = walk(object, old, &Path::Root, ratchet, &mut budget, &mut out);
    out.cost = budget.spent();
    out
}

/// kube-derive's `T::validate_cel(value, old)` (`#[x_kube(cel)]`): the rules at and
/// below a node of type `T` on `value` as the root, transition rules with `old`.
pub fn validate_cel<T: crate::schema::ObjectSchema>(
    value: &Value,
    old: Option<&Value>,
) -> Result<(), crate::errors::ValidationErrors> {
    let found = validate_json(value, old, T::ratchet_equal, T::walk_rules);
    crate::errors::ValidationErrors::result(found.errors)
}

/// kube-derive's `obj.validate_cel()` and `obj.validate_cel_update(old)` (`#[kube(cel)]`):
/// the object's rules, as a create or as an update from `old`.
pub fn validate_cel_object<T: crate::schema::CustomResource>(
    object: &T,
    old: Option<&T>,
) -> Result<(), crate::errors::ValidationErrors> {
    let value = serde_json::to_value(object).unwrap_or(Value::Null);
    let old = old.map(|o| serde_json::to_value(o).unwrap_or(Value::Null));
    let found = T::validate_rules(&value, old.as_ref());
    crate::errors::ValidationErrors::result(found.errors)
}

/// Go's `fieldErrorForReason` (`value` `None` is Go's omitted value).
fn error_for_reason(reason: Reason, field: String, value: Option<Value>, detail: String) -> FieldError {
    match reason {
        Reason::Invalid => FieldError::new(ErrorType::Invalid, field, value, detail),
        Reason::Forbidden => FieldError::forbidden(field, detail),
        Reason::Required => FieldError::required(field, detail),
        Reason::Duplicate => FieldError::new(ErrorType::Duplicate, field, value, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const RULE: RuleInfo<'static> = RuleInfo {
        rule: " self.replicas <= self.maxReplicas ",
        message: None,
        message_expression: None,
        reason: Reason::Invalid,
        field_path: None,
        uses_old_self: false,
        optional_old_self: false,
    };

    fn ok(b: bool, cost: u64) -> Evaluated<bool, String> {
        Evaluated { result: Ok(b), cost }
    }

    fn err(e: &str, cost: u64) -> Evaluated<bool, String> {
        Evaluated {
            result: Err(e.to_string()),
            cost,
        }
    }

    fn msg(m: Option<&str>, cost: u64) -> Evaluated<Option<String>, String> {
        Evaluated {
            result: Ok(m.map(String::from)),
            cost,
        }
    }

    fn strings(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(|e| e.to_string()).collect()
    }

    /// Runs one failing rule at `spec` (an object) and returns its findings.
    fn fail(info: &RuleInfo<'_>, message: Option<Evaluated<Option<String>, String>>, ratchet: bool) -> Findings {
        let root = Path::Root;
        let spec = root.field("spec");
        let value = json!({"replicas": 20});
        let site = NodeSite {
            path: &spec,
            schema_type: "object",
            value: &value,
            has_old: false,
        };
        let mut out = Findings::default();
        let mut budget = Budget::per_object();
        report_failure(info, &site, message, || ratchet, &mut budget, &mut out);
        out
    }

    #[test]
    fn failures_read_like_the_api_server() {
        // The seed's examples: without and with a message.
        assert_eq!(
            strings(&fail(&RULE, None, false).errors),
            ["spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"]
        );
        let with_message = RuleInfo {
            message: Some(" replicas should be smaller than or equal to maxReplicas. "),
            ..RULE
        };
        assert_eq!(
            strings(&fail(&with_message, None, false).errors),
            ["spec: Invalid value: replicas should be smaller than or equal to maxReplicas."]
        );
        // An empty message is no message.
        let empty = RuleInfo {
            message: Some(""),
            ..RULE
        };
        assert_eq!(
            strings(&fail(&empty, None, false).errors),
            ["spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"]
        );
    }

    #[test]
    fn scalars_print_their_value() {
        let root = Path::Root;
        let spec = root.field("spec");
        let level = spec.field("level");
        let value = json!("high");
        let site = NodeSite {
            path: &level,
            schema_type: "string",
            value: &value,
            has_old: false,
        };
        let info = RuleInfo {
            rule: "!(self == 'high' && oldSelf == 'low')",
            message: Some("cannot transition directly between 'low' and 'high'"),
            uses_old_self: true,
            ..RULE
        };
        let mut out = Findings::default();
        let mut budget = Budget::per_object();
        // A transition rule is never ratcheted.
        report_failure::<String>(&info, &site, None, || true, &mut budget, &mut out);
        assert_eq!(
            strings(&out.errors),
            ["spec.level: Invalid value: \"high\": cannot transition directly between 'low' and 'high'"]
        );
        assert!(out.warnings.is_empty());
    }

    #[test]
    fn reasons_and_field_paths() {
        let cases = [
            (
                Reason::Forbidden,
                Some("replicas"),
                "spec.replicas: Forbidden: failed rule: x",
            ),
            (Reason::Required, None, "spec: Required value: failed rule: x"),
            (Reason::Duplicate, Some("a[b.c]"), "spec.a[b.c]: Duplicate value"),
            (Reason::Invalid, Some(""), "spec: Invalid value: failed rule: x"),
        ];
        for (reason, field_path, want) in cases {
            let info = RuleInfo {
                rule: "x",
                reason,
                field_path,
                ..RULE
            };
            assert_eq!(strings(&fail(&info, None, false).errors), [want]);
        }
        assert_eq!(Reason::parse(Some("FieldValueDuplicate")), Reason::Duplicate);
        assert_eq!(Reason::parse(Some("Bogus")), Reason::Invalid);
        assert_eq!(Reason::parse(None), Reason::Invalid);
    }

    #[test]
    fn field_path_at_the_root() {
        let root = Path::Root;
        let value = json!({});
        let site = NodeSite {
            path: &root,
            schema_type: "object",
            value: &value,
            has_old: false,
        };
        let info = RuleInfo {
            rule: "x",
            field_path: Some("spec.x"),
            ..RULE
        };
        let mut out = Findings::default();
        report_failure::<String>(&info, &site, None, || false, &mut Budget::per_object(), &mut out);
        assert_eq!(strings(&out.errors), ["spec.x: Invalid value: failed rule: x"]);
    }

    #[test]
    fn ratcheted_failures_are_warnings() {
        let out = fail(&RULE, None, true);
        assert!(out.errors.is_empty());
        assert_eq!(
            out.warnings,
            ["spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"]
        );
    }

    #[test]
    fn evaluation_errors() {
        let root = Path::Root;
        let r = root.field("root");
        let value = json!(1);
        let site = NodeSite {
            path: &r,
            schema_type: "",
            value: &value,
            has_old: false,
        };
        let run = |e: Evaluated<bool, String>, budget: &mut Budget| {
            let mut out = Findings::default();
            let v = rule_result(&RULE, &site, e, budget, &mut out);
            (v, strings(&out.errors))
        };
        let mut budget = Budget::per_object();
        assert_eq!(run(ok(true, 5), &mut budget), (Verdict::Passed, vec![]));
        assert_eq!(budget.remaining(), RUNTIME_CEL_COST_BUDGET - 5);
        assert_eq!(run(ok(false, 5), &mut budget), (Verdict::Failed, vec![]));
        let (v, e) = run(err("no such overload", 1), &mut budget);
        assert_eq!(v, Verdict::Reported);
        assert_eq!(
            e,
            [
                "root: Invalid value: \"\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.replicas <= self.maxReplicas"
            ]
        );
        assert!(!budget.is_exhausted());
        let (_, e) = run(err("division by zero", 1), &mut budget);
        assert_eq!(
            e,
            ["root: Invalid value: \"\": division by zero evaluating rule: self.replicas <= self.maxReplicas"]
        );
        let (_, e) = run(err("operation cancelled: actual cost limit exceeded", 1), &mut budget);
        assert_eq!(
            e,
            [
                "root: Invalid value: \"\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.replicas <= self.maxReplicas"
            ]
        );
        assert!(budget.is_exhausted());
    }

    #[test]
    fn budget() {
        let root = Path::Root;
        let value = json!({});
        let site = NodeSite {
            path: &root,
            schema_type: "object",
            value: &value,
            has_old: false,
        };
        let mut out = Findings::default();
        // No budget left before a node's rules.
        let mut budget = Budget::new(0);
        assert!(!enter_node(&site, &mut budget, &mut out));
        assert!(budget.is_exhausted());
        assert_eq!(
            strings(&out.errors),
            [
                "<nil>: Invalid value: \"object\": validation failed due to running out of cost budget, no further validation rules will be run"
            ]
        );
        // A cost that does not fit: the same error, whatever the result.
        let mut out = Findings::default();
        let mut budget = Budget::new(10);
        assert!(enter_node(&site, &mut budget, &mut out));
        assert_eq!(
            rule_result(&RULE, &site, ok(true, 10), &mut budget, &mut out),
            Verdict::Passed
        );
        assert_eq!(budget.remaining(), 0);
        assert_eq!(
            rule_result(&RULE, &site, ok(true, 1), &mut budget, &mut out),
            Verdict::Reported
        );
        assert!(budget.is_exhausted());
        assert_eq!(out.errors.len(), 1);
        let mut huge = Budget::new(i64::MAX);
        assert!(!huge.take(u64::MAX));
    }

    #[test]
    fn message_expressions() {
        let info = RuleInfo {
            message: Some("message not messageExpression"),
            message_expression: Some("\"x\""),
            ..RULE
        };
        let detail = |m: Evaluated<Option<String>, String>| strings(&fail(&info, Some(m), false).errors).remove(0);
        assert_eq!(
            detail(msg(Some("  static string "), 2)),
            "spec: Invalid value: static string"
        );
        for bad in [Some(""), Some("   "), Some("a\nb"), None] {
            assert_eq!(
                detail(msg(bad, 2)),
                "spec: Invalid value: message not messageExpression"
            );
        }
        let long = "a".repeat(5121);
        assert_eq!(
            detail(msg(Some(&long), 2)),
            "spec: Invalid value: message not messageExpression"
        );
        // Fallback to the default without a message.
        let no_message = RuleInfo { message: None, ..info };
        assert_eq!(
            strings(&fail(&no_message, Some(msg(None, 1)), false).errors),
            ["spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"]
        );
        // The outcomes and the budget.
        let mut budget = Budget::new(50);
        let outcome = message_expression_outcome(
            "\"str1 \" + [\"a\"][4]",
            Evaluated {
                result: Err::<Option<String>, _>("index out of bounds: 4"),
                cost: 3,
            },
            &mut budget,
        );
        assert_eq!(
            outcome,
            MessageOutcome::Fallback("messageExpression evaluation failed due to: index out of bounds: 4".into())
        );
        assert_eq!(budget.remaining(), 47);
        let outcome = message_expression_outcome("x", msg(Some("a"), 48), &mut budget);
        assert!(
            matches!(outcome, MessageOutcome::Abort(ref m) if m.starts_with("messageExpression evaluation failed due to running out of cost budget"))
        );
        assert!(budget.is_exhausted());
        let mut budget = Budget::per_object();
        let outcome = message_expression_outcome(
            "\"a\" + \"b\"",
            Evaluated {
                result: Err::<Option<String>, _>("operation cancelled: actual cost limit exceeded"),
                cost: 2,
            },
            &mut budget,
        );
        assert_eq!(
            outcome,
            MessageOutcome::Abort(
                "no further validation rules will be run due to call cost exceeds limit for messageExpression: \"\\\"a\\\" + \\\"b\\\"\"".into()
            )
        );
        assert!(budget.is_exhausted());
    }

    #[test]
    fn aborted_message_expressions_are_reported_and_ratcheted() {
        let info = RuleInfo {
            message_expression: Some("\"x\""),
            ..RULE
        };
        let over = || Evaluated::<Option<String>, String> {
            result: Ok(Some("x".into())),
            cost: u64::MAX,
        };
        let out = fail(&info, Some(over()), false);
        assert_eq!(
            strings(&out.errors),
            [
                "spec: Invalid value: \"object\": messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"
            ]
        );
        let out = fail(&info, Some(over()), true);
        assert!(out.errors.is_empty());
        assert_eq!(out.warnings.len(), 1);
    }

    /// A correlation for the tests: a path of keys and indices below a root, with
    /// the paths that exist in both objects and those that are unchanged.
    #[derive(Clone, Copy, Debug)]
    struct Node {
        id: u32,
    }

    /// The tree: 1 = root (changed); 1 → "a" = 2 (unchanged), 1 → "b" = 3 (changed),
    /// 3 → [0] = 4 (unchanged); "c" and [1] do not correlate.
    impl Correlated for Node {
        fn key(self, key: &str) -> Option<Node> {
            match (self.id, key) {
                (1, "a") => Some(Node { id: 2 }),
                (1, "b") => Some(Node { id: 3 }),
                (1, "apiVersion") => Some(Node { id: 5 }),
                _ => None,
            }
        }
        fn index(self, index: usize) -> Option<Node> {
            (self.id == 3 && index == 0).then_some(Node { id: 4 })
        }
        fn unchanged(self) -> bool {
            matches!(self.id, 2 | 4 | 5)
        }
    }

    #[test]
    fn ratchet_follows_correlation() {
        let root = Ratchet::root(Node { id: 1 });
        assert!(!root.should_ratchet());
        assert!(root.key("a").should_ratchet());
        assert!(!root.key("b").should_ratchet());
        assert!(root.key("b").index(0).should_ratchet());
        // Below a point without correlation, the last correlated ancestor decides.
        assert!(!root.key("b").index(1).should_ratchet());
        assert!(root.key("a").key("x").key("y").should_ratchet());
        assert!(!root.key("c").should_ratchet());
        // The root's apiVersion never ratchets, whatever its correlation says.
        assert!(!root.key("apiVersion").should_ratchet());
        // allOf branches: the node's parent decides, not the node.
        assert!(!root.key("a").all_of_branch().should_ratchet());
        assert!(!root.key("b").index(0).all_of_branch().should_ratchet());
        assert!(root.key("a").key("x").all_of_branch().should_ratchet());
        assert!(!Ratchet::<Node>::none().key("a").should_ratchet());
    }

    #[test]
    fn transition_rules_need_an_old_value() {
        let transition = RuleInfo {
            uses_old_self: true,
            ..RULE
        };
        assert!(RULE.applies(false));
        assert!(!transition.applies(false));
        assert!(transition.applies(true));
        let optional = RuleInfo {
            optional_old_self: true,
            ..transition
        };
        assert!(optional.applies(false));
    }
}
