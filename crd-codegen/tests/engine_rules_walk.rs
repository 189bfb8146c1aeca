//! The rule walker's own choices and its place in admission, beside the API server's
//! tables (`engine_rules_go.rs`): keys in sorted order (Go: random), one budget shared
//! by all nodes in that order, warnings for ratcheted failures in the admission
//! result, and no rules without rules on the structural spine.
//!
//! Costs used below are cel-go's: an identifier costs 1 and `_==_` on integers 1, so
//! `self == 1` costs 2.

mod engine_common;

use crd_codegen::engine::rules::RuleValidator;
use crd_runtime::errors::Path;
use crd_runtime::rules::{Budget, Findings, PER_CALL_LIMIT};
use engine_common::{engine, schema};
use serde_json::{Value, json};

fn run(s: Value, obj: Value, budget: i64) -> (Vec<String>, i64) {
    let v = RuleValidator::new(&schema(s), false, PER_CALL_LIMIT);
    let root = Path::Root;
    let path = root.field("root");
    let mut b = Budget::new(budget);
    let mut out = Findings::default();
    v.validate(&path, &obj, None, None, &mut b, &mut out);
    (out.errors.iter().map(|e| e.to_string()).collect(), b.remaining())
}

#[test]
fn keys_are_visited_in_sorted_order() {
    let s = json!({"type": "object", "additionalProperties": {
        "type": "integer", "x-kubernetes-validations": [{"rule": "self == 1"}]}});
    let (errs, remaining) = run(s, json!({"b": 2, "a": 3, "c": 1}), 100);
    assert_eq!(
        errs,
        [
            "root[a]: Invalid value: 3: failed rule: self == 1",
            "root[b]: Invalid value: 2: failed rule: self == 1",
        ]
    );
    assert_eq!(remaining, 100 - 3 * 2);
}

#[test]
fn one_budget_for_all_nodes() {
    let int = json!({"type": "integer", "x-kubernetes-validations": [{"rule": "self == 1"}]});
    let s = json!({"type": "object", "properties": {"a": int, "b": int, "c": int}});
    let obj = json!({"c": 1, "b": 1, "a": 1});
    // Enough for `a`; `b`'s rule costs more than what is left.
    let (errs, remaining) = run(s.clone(), obj.clone(), 3);
    assert_eq!(
        errs,
        [
            r#"root.b: Invalid value: "integer": validation failed due to running out of cost budget, no further validation rules will be run"#
        ]
    );
    assert_eq!(remaining, -1);
    // Nothing left before `b`'s rules: the same error, before evaluating.
    let (errs, _) = run(s.clone(), obj.clone(), 2);
    assert_eq!(
        errs,
        [
            r#"root.b: Invalid value: "integer": validation failed due to running out of cost budget, no further validation rules will be run"#
        ]
    );
    let (errs, remaining) = run(s, obj, 6);
    assert!(errs.is_empty(), "{errs:?}");
    assert_eq!(remaining, 0);
}

#[test]
fn nulls_are_not_validated() {
    let s = json!({"type": "object", "properties": {"a": {
        "type": "integer", "nullable": true, "x-kubernetes-validations": [{"rule": "self == 1"}]}}});
    assert_eq!(run(s, json!({"a": null}), 100), (vec![], 100));
}

#[test]
fn rules_only_on_the_structural_spine() {
    // Rules inside junctors are not run by the API server's validator (and CRDs cannot
    // have them).
    let s = json!({"type": "object", "anyOf": [{"x-kubernetes-validations": [{"rule": "false"}]}]});
    assert!(RuleValidator::new(&schema(s), true, PER_CALL_LIMIT).is_empty());
}

/// On update, a failure of a value that did not change is a warning of the
/// admission; a changed value fails.
#[test]
fn ratcheted_failures_are_admission_warnings() {
    let e = engine(json!({"type": "object", "properties": {"spec": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "x-kubernetes-validations": [{"rule": "self.a < 5", "message": "a must be below 5"}],
    }}}));
    let v = e.version("v1").unwrap();
    let obj = |a: i64, b: i64| {
        json!({"apiVersion": "example.com/v1", "kind": "Foo",
            "metadata": {"name": "x", "resourceVersion": "1"}, "spec": {"a": a, "b": b}})
    };
    let same = v.update(obj(9, 1), obj(9, 1), "default");
    assert!(same.is_admitted(), "{:?}", same.errors);
    assert_eq!(same.warnings, ["spec: Invalid value: a must be below 5"]);
    let changed = v.update(obj(9, 2), obj(9, 1), "default");
    let errs: Vec<String> = changed.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errs, ["spec: Invalid value: a must be below 5"]);
    assert!(changed.warnings.is_empty());
    let created = v.create(obj(9, 1), "default");
    assert_eq!(created.errors.len(), 1);
    assert!(created.warnings.is_empty());
}
