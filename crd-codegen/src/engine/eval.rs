//! The rule walker's use of the CEL interpreter (`crate::cel::eval`): binding `self`
//! and `oldSelf` as the API server's activations do, and reading results as
//! `crd_runtime::rules` takes them.

use crate::cel::eval::interp::{Activation, Value as Bound};
use crate::cel::eval::{Evaluation, evaluate_with, json_to_val};
use crate::ir;
use crd_runtime::cel::{Error, Val};
use crd_runtime::rules::{Evaluated, RuleInfo};
use serde_json::Value;

pub use crate::cel::eval::Program;

/// `UnstructuredToVal(obj, schema)`: the value, or the error a variable bound to data
/// that does not fit its schema evaluates to (Go binds the error value the same way).
pub fn value<'a>(obj: &'a Value, schema: &'a ir::Schema, is_resource_root: bool) -> Bound<'a> {
    json_to_val(obj, schema, is_resource_root)
}

/// The activation of one rule (Go's `validationActivation`): `self`; `oldSelf` only
/// for transition rules, as the old value, or for `optionalOldSelf` rules as
/// `optional.of(old)` / `optional.none()`.
pub fn activation<'a>(
    info: &RuleInfo<'_>,
    self_: &Bound<'a>,
    old: Option<&Bound<'a>>,
    for_message: bool,
) -> Activation<'a> {
    let mut vars = vec![("self".to_string(), self_.clone())];
    if info.uses_old_self {
        // The API server evaluates a message expression with the plain activation,
        // even for an `optionalOldSelf` rule.
        let old_self = if info.optional_old_self && !for_message {
            match old {
                Some(Ok(v)) => Ok(Val::Optional(Some(Box::new(v.clone())))),
                Some(Err(e)) => Err(e.clone()),
                None => Ok(Val::Optional(None)),
            }
        } else {
            match old {
                Some(v) => v.clone(),
                // `applies` keeps transition rules without an old value from running.
                None => Err(Error::new("no such attribute(s): oldSelf")),
            }
        };
        vars.push(("oldSelf".to_string(), old_self));
    }
    Activation { vars }
}

/// Evaluates a program with the per-call cost limit.
pub fn run<'a>(program: &Program, activation: &Activation<'a>, cost_limit: u64) -> Evaluation<'a> {
    evaluate_with(program, activation, cost_limit)
}

/// A rule's evaluation: `true` only for CEL's `true` (Go: `evalResult == types.True`).
pub fn as_bool(e: Evaluation<'_>) -> Evaluated<bool, Error> {
    Evaluated {
        result: e.result.map(|v| matches!(v, Val::Bool(true))),
        cost: e.cost,
    }
}

/// A `messageExpression`'s evaluation: the string, `None` for any other value.
pub fn as_message(e: Evaluation<'_>) -> Evaluated<Option<String>, Error> {
    Evaluated {
        result: e.result.map(|v| match v {
            Val::String(s) => Some((*s).to_owned()),
            _ => None,
        }),
        cost: e.cost,
    }
}
