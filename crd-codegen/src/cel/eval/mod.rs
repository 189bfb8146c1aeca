//! Evaluation of checked CEL expressions, exactly as the Kubernetes API server
//! evaluates `x-kubernetes-validations` rules: values, errors and run-time cost.
//!
//! # API
//!
//! ```text
//! Program::new(&checked) -> Result<Program, String>   plan a checked expression
//! evaluate(&program, self, old_self, cost_limit)    -> Evaluation { result, cost }
//! json_to_val(&json, &ir_schema, is_resource_root)  -> Result<Val, Error>
//! evaluate_with(&program, &activation, cost_limit)  -> Evaluation (any variables)
//! interp::Activation { vars: Vec<(name, Result<Val, Error>)> }
//! ```
//!
//! - [`Program::new`] plans a [`CheckedExpr`] ([`plan::Plan`]); its error is what
//!   cel-go reports when it cannot create the program (the API server's
//!   `program instantiation failed: ...`).
//! - [`evaluate`] binds `self` and `oldSelf` ([`OldSelf`]: unbound for rules
//!   that do not use it, a value on update, an optional for `optionalOldSelf`
//!   rules) and evaluates with a cost limit (the API server uses
//!   [`PER_CALL_LIMIT`], 1,000,000). [`Evaluation::result`] is the value or the
//!   error (cel-go's texts; [`Error::is_cost_limit_exceeded`] when the limit was
//!   passed), [`Evaluation::cost`] the actual cost, also when the evaluation
//!   failed or was cancelled (what the API server subtracts from its budget).
//! - [`json_to_val`] is Kubernetes' `UnstructuredToVal` over an IR schema (with
//!   `WithTypeAndObjectMeta` at resource roots).
//! - [`evaluate_with`] takes the variables as an [`interp::Activation`]: names
//!   bound to values or to errors (Go binds the error value of data that does not
//!   fit its schema the same way; reading such a variable is that error).
//!
//! A [`Program`] is `Send + Sync` and can be evaluated any number of times,
//! concurrently.
//!
//! # For the code generator
//!
//! [`Program::plan`] gives the [`plan::Plan`]: every [`plan::NodeKind`] says what
//! to evaluate, in which order, which errors come out and what to add to the
//! cost. The run-time pieces generated code calls are in `crd_runtime::cel`:
//! `functions::dispatch` / `functions::call_overload` (or the typed functions of
//! the leaf modules for statically resolved overloads), `equals`, `ops` (the
//! operators), `cost::call_cost` and the constants of `cost`, `Error` for the
//! texts. Generated structs implement `crd_runtime::cel::ObjectView` and lists
//! and maps of typed data are wrapped without copying (`List::view`,
//! `ToVal`), so they behave as the JSON the API server sees.
//!
//! Values are `crd_runtime::cel::Val`, the function library and the cost
//! functions are in `crd_runtime::cel`.
//!
//! # How a plan evaluates
//!
//! The [`plan::Plan`] is the expression as cel-go's planner sees it; its node
//! kinds ([`plan::NodeKind`]) document each step. The general rules:
//!
//! - **Order**: operands left to right (the receiver of `a.f(b)` first), each
//!   completely before the next; `&&`, `||`, `?:`, `or`/`orValue` and
//!   comprehension loops short-circuit (cel-go's default, non-exhaustive
//!   evaluation).
//! - **Errors are values**: a failing step gives an error that the enclosing
//!   step passes on, except where a step absorbs it: `false && error` is
//!   `false`, `true || error` is `true`, comprehension loop conditions go on
//!   unless they are exactly `false`, and `@not_strictly_false` (the loop
//!   condition of `all` / `exists`) turns errors into `true`.
//! - **Cost**: every step adds its own cost (see each node kind) after its
//!   operands added theirs: constants 0; variables and field selections 1 each
//!   (`self.a.b` costs 3: 1 for the attribute, 1 per qualifier); a presence test
//!   `has(self.a)` only its qualifiers (1); list / map literals 10 / 30 (0 when
//!   the planner folded them into constants); calls their
//!   `crd_runtime::cel::cost::call_cost`. After each addition the total is
//!   compared with the limit and the evaluation stops as soon as it is greater:
//!   the result is then the cost-limit error and the cost the total so far.
//!
//! # Deliberate differences from cel-go
//!
//! - cel-go finds the arguments of a call on a stack of observed values; in
//!   rare expressions it finds stale entries and prices a call differently. The
//!   interpreter prices every call with its actual arguments (and, as cel-go,
//!   not at all when a variadic call stopped at an error argument).
//! - Go iterates maps in random order; here maps iterate in key order (JSON
//!   objects and maps the expression made) or field order (generated structs).
//!   Costs of short-circuiting loops over maps can differ from one Go run to
//!   the next; here they are the same each time.

pub mod interp;
pub mod plan;
mod schema;

use crd_runtime::cel::{Error, Val};

use crate::cel::check::CheckedExpr;
use interp::{Activation, Interpreter};
use plan::Plan;

/// Kubernetes' `PerCallLimit`: the cost limit of one rule evaluation.
pub const PER_CALL_LIMIT: u64 = crd_runtime::cel::cost::PER_CALL_LIMIT;

/// A planned expression, ready to evaluate.
#[derive(Clone, Debug)]
pub struct Program {
    plan: Plan,
}

impl Program {
    /// Plans a checked expression (see [`plan::Plan::new`]).
    pub fn new(checked: &CheckedExpr) -> Result<Program, String> {
        Ok(Program {
            plan: Plan::new(checked)?,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }
}

/// How `oldSelf` is bound.
pub enum OldSelf<'a> {
    /// Not bound (create, or a rule that does not use `oldSelf`): reading it is
    /// `no such attribute(s): oldSelf`.
    Unbound,
    /// The old value (update).
    Value(Val<'a>),
    /// For rules with `optionalOldSelf: true`: `optional.of(old)` on update,
    /// `optional.none()` otherwise.
    Optional(Option<Val<'a>>),
}

/// The outcome of an evaluation.
pub struct Evaluation<'a> {
    /// The value, or the evaluation error.
    pub result: Result<Val<'a>, Error>,
    /// The actual cost (also when the evaluation failed or was cancelled).
    pub cost: u64,
}

/// Evaluates a program with `self`, `oldSelf` and a cost limit.
pub fn evaluate<'a>(program: &Program, self_: Val<'a>, old_self: OldSelf<'a>, cost_limit: u64) -> Evaluation<'a> {
    let mut vars = vec![("self".to_string(), Ok(self_))];
    match old_self {
        OldSelf::Unbound => {}
        OldSelf::Value(v) => vars.push(("oldSelf".to_string(), Ok(v))),
        OldSelf::Optional(o) => vars.push(("oldSelf".to_string(), Ok(Val::Optional(o.map(Box::new))))),
    }
    evaluate_with(program, &Activation { vars }, cost_limit)
}

/// Evaluates a program with any variables.
pub fn evaluate_with<'a>(program: &Program, activation: &Activation<'a>, cost_limit: u64) -> Evaluation<'a> {
    let mut it = Interpreter::new(activation, cost_limit);
    let result = match it.eval(&program.plan.root) {
        Ok(v) => v,
        Err(interp::Cancelled) => Err(Error::cost_limit_exceeded()),
    };
    Evaluation { result, cost: it.cost }
}

/// The CEL value of JSON data under an IR schema node (Kubernetes'
/// `UnstructuredToVal`); `is_resource_root` for the schema root (embedded
/// resources are handled below it).
pub fn json_to_val<'a>(
    value: &'a serde_json::Value,
    schema: &'a crate::ir::Schema,
    is_resource_root: bool,
) -> Result<Val<'a>, Error> {
    crd_runtime::cel::json_to_val(value, schema, is_resource_root)
}

#[cfg(test)]
mod tests {
    #[test]
    fn programs_can_be_shared() {
        fn shared<T: Send + Sync>() {}
        shared::<super::Program>();
    }
}
