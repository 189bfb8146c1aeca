//! The API server's own tests of its CEL validator, through the reference engine's
//! rule walker (`crd_codegen::engine::rules::RuleValidator`) and default validation
//! (`crd_codegen::engine::defaults`).
//!
//! The tables of apiextensions-apiserver `pkg/apiserver/schema/cel/validation_test.go`
//! (`TestValidationExpressions`, `TestValidationExpressionsAtSchemaLevels`,
//! `TestCELValidationLimit`, `TestCELValidationContextCancellation`,
//! `TestCELMaxRecursionDepth`, `TestMessageExpression`, `TestReasonAndFldPath`,
//! `TestValidateFieldPath`, `TestRatcheting`, `TestOptionalOldSelf`,
//! `TestOptionalOldSelfCheckForNull`, `TestOptionalOldSelfIsOptionalType`) and of
//! `pkg/apiserver/schema/defaulting/validation_test.go`
//! (`TestDefaultValidationWithCostBudget`, `TestDefaultValidationWithOptionalOldSelf`)
//! were converted mechanically into the JSON files of `engine_rules_data/` by
//! `engine_rules_data/convert_go_tables.py` (which evaluates the Go table literals and
//! their helper functions; schemas become `JSONSchemaProps` JSON, objects JSON). Each
//! test below runs its table the way the Go test function does, with the same
//! expectations; the comments name the Go calls mirrored.
//!
//! Every case runs, except those in the explicit skip lists, which give their reason.
//! Counts are printed (`cargo test -- --nocapture`) and asserted.
//!
//! One conversion detail: `mustUnstructured` decodes YAML numbers as float64 (Go's
//! `encoding/json` into `interface{}`); the JSON keeps integers as integers, which is
//! how the API server holds integral numbers of a request (`TestRatcheting` prints them
//! the same either way).

mod engine_common;

use crd_codegen::check::fieldpath_rule::valid_field_path;
use crd_codegen::check::structural::new_structural;
use crd_codegen::engine::compile::{CNode, CompileOptions};
use crd_codegen::engine::defaults::{DefaultsOptions, validate_defaults_with};
use crd_codegen::engine::rules::RuleValidator;
use crd_codegen::fieldpath::FieldPath;
use crd_codegen::ir;
use crd_codegen::model::JsonSchemaProps;
use crd_runtime::errors::{ErrorType, FieldError, Path};
use crd_runtime::rules::{Budget, Findings, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET};
use engine_common::schema;
use serde_json::{Value, json};

fn table(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/engine_rules_data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// `withRule(s, rule)`: the schema with `rule` as its only rule.
fn with_rule(s: &Value, rule: &str) -> ir::Schema {
    let mut s = s.clone();
    s["x-kubernetes-validations"] = json!([{ "rule": rule }]);
    schema(s)
}

/// Sets `optionalOldSelf: true` on the root's rules (the loops of the
/// `TestOptionalOldSelf*` functions).
fn with_optional_old_self(s: &Value) -> Value {
    let mut s = s.clone();
    if let Some(rules) = s["x-kubernetes-validations"].as_array_mut() {
        for r in rules {
            r["optionalOldSelf"] = json!(true);
        }
    }
    s
}

fn old_of(case: &Value) -> Option<&Value> {
    case.get("oldObj").filter(|o| !o.is_null())
}

/// `celValidator.Validate(ctx, field.NewPath("root"), s, obj, oldObj, budget)`:
/// the findings and the remaining budget.
fn run(v: &RuleValidator, obj: &Value, old: Option<&Value>, budget: i64) -> (Findings, i64) {
    let root = Path::Root;
    let path = root.field("root");
    let mut b = Budget::new(budget);
    let mut out = Findings::default();
    v.validate(&path, obj, old, None, &mut b, &mut out);
    (out, b.remaining())
}

fn strings(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(|e| e.to_string()).collect()
}

/// The Go tests' matching: every error is `Invalid` and contains a distinct expected
/// text, and every expected text is matched.
fn match_each(errs: &[FieldError], expected: &[String]) -> Result<(), String> {
    let mut unmatched: Vec<&String> = expected.iter().collect();
    for e in errs {
        if e.error_type != ErrorType::Invalid {
            return Err(format!("expected only Invalid errors, got: {e}"));
        }
        let s = e.to_string();
        match unmatched.iter().position(|x| s.contains(x.as_str())) {
            Some(i) => {
                unmatched.remove(i);
            }
            None => return Err(format!("unexpected error {s:?}; still expected {unmatched:?}")),
        }
    }
    if !unmatched.is_empty() {
        return Err(format!("expected errors {unmatched:?}, got {:?}", strings(errs)));
    }
    Ok(())
}

fn str_list(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// Runs `check` on every item, collecting failures, and checks the skip list: every
/// skipped name must exist and be skipped for a stated reason.
struct Tally {
    what: &'static str,
    passed: usize,
    skipped: usize,
    failures: Vec<String>,
}

impl Tally {
    fn new(what: &'static str) -> Tally {
        Tally {
            what,
            passed: 0,
            skipped: 0,
            failures: Vec::new(),
        }
    }

    fn check(&mut self, name: &str, skips: &[(&str, &str)], result: Result<(), String>) {
        if skips.iter().any(|(s, _)| *s == name) {
            self.skipped += 1;
            if result.is_ok() {
                self.failures
                    .push(format!("{name}: passes, remove it from the skip list"));
            }
            return;
        }
        match result {
            Ok(()) => self.passed += 1,
            Err(e) => self.failures.push(format!("{name}: {e}")),
        }
    }

    fn finish(self, expected_total: usize) {
        println!(
            "{}: {} passed, {} skipped, {} failed",
            self.what,
            self.passed,
            self.skipped,
            self.failures.len()
        );
        assert!(
            self.failures.is_empty(),
            "{}: {} failures:\n{}",
            self.what,
            self.failures.len(),
            self.failures.join("\n")
        );
        assert_eq!(self.passed + self.skipped, expected_total, "{}", self.what);
    }
}

/// Rules of `TestValidationExpressions` the engine does not pass, with the reason.
const EXPRESSION_SKIPS: &[(&str, &str)] = &[];

/// `TestValidationExpressions`: each `valid` rule alone on the schema
/// (`validator(&s, &s, tt.isRoot, ...)`) gives no error (and costs `expectedCost`,
/// or nothing when `expectSkipped`); each `errors` rule
/// (`NewValidator(&s, true, ...)`) gives errors, all `Invalid` and containing the
/// expected text.
#[test]
fn validation_expressions() {
    let cases = table("validation_expressions");
    let mut tally = Tally::new("TestValidationExpressions rules");
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let budget = case["costBudget"]
            .as_i64()
            .filter(|b| *b != 0)
            .unwrap_or(RUNTIME_CEL_COST_BUDGET);
        let is_root = case["isRoot"].as_bool().unwrap_or(false);
        let old = old_of(case);
        for rule in str_list(&case["valid"]) {
            let v = RuleValidator::for_node(&with_rule(&case["schema"], &rule), is_root, PER_CALL_LIMIT);
            let (out, remaining) = run(&v, &case["obj"], old, budget);
            let result = if !out.errors.is_empty() {
                Err(format!("unexpected errors: {:?}", strings(&out.errors)))
            } else if let Some(cost) = case["expectedCost"].as_i64().filter(|c| *c != 0) {
                (remaining == budget - cost)
                    .then_some(())
                    .ok_or(format!("expected cost {cost}, got {}", budget - remaining))
            } else if case["expectSkipped"] == true {
                (remaining == budget).then_some(()).ok_or(format!(
                    "expected no cost for a skipped rule, got {}",
                    budget - remaining
                ))
            } else {
                Ok(())
            };
            tally.check(&format!("{name} / {rule}"), EXPRESSION_SKIPS, result);
        }
        if let Some(errors) = case["errors"].as_object() {
            for (rule, want) in errors {
                let want = want.as_str().unwrap();
                let v = RuleValidator::new(&with_rule(&case["schema"], rule), true, PER_CALL_LIMIT);
                let (out, _) = run(&v, &case["obj"], old, budget);
                let result = if out.errors.is_empty() {
                    Err("expected validation errors but got none".to_string())
                } else {
                    match out
                        .errors
                        .iter()
                        .find(|e| e.error_type != ErrorType::Invalid || !e.to_string().contains(want))
                    {
                        Some(e) => Err(format!("expected error to contain {want:?}, but got: {e}")),
                        None => Ok(()),
                    }
                };
                tally.check(&format!("{name} / {rule}"), EXPRESSION_SKIPS, result);
            }
        }
    }
    assert_eq!(cases.len(), 61);
    tally.finish(790);
}

/// `TestValidationExpressionsAtSchemaLevels`: `validator(s, s, true, ...)` with an
/// unlimited budget; each error matches one expected text.
#[test]
fn validation_expressions_at_schema_levels() {
    let cases = table("validation_expressions_at_schema_levels");
    let mut tally = Tally::new("TestValidationExpressionsAtSchemaLevels");
    for case in &cases {
        let v = RuleValidator::for_node(&schema(case["schema"].clone()), true, PER_CALL_LIMIT);
        let (out, _) = run(&v, &case["obj"], old_of(case), i64::MAX);
        let result = match_each(&out.errors, &str_list(&case["errors"]));
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(25);
}

/// `TestCELValidationLimit`: with a budget of 0 exactly one out-of-budget error;
/// with a per-call limit of 0 the call-cost error.
#[test]
fn cel_validation_limit() {
    let cases = table("cel_validation_limit");
    let mut tally = Tally::new("TestCELValidationLimit");
    for case in &cases {
        for rule in str_list(&case["valid"]) {
            let s = with_rule(&case["schema"], &rule);
            let v = RuleValidator::for_node(&s, false, PER_CALL_LIMIT);
            let (out, _) = run(&v, &case["obj"], None, 0);
            let budget_errors = strings(&out.errors);
            let mut result = if budget_errors.len() == 1
                && budget_errors[0].contains(
                    "validation failed due to running out of cost budget, no further validation rules will be run",
                ) {
                Ok(())
            } else {
                Err(format!("budget 0: {budget_errors:?}"))
            };
            let v = RuleValidator::new(&s, true, 0);
            let (out, _) = run(&v, &case["obj"], None, RUNTIME_CEL_COST_BUDGET);
            if !strings(&out.errors)
                .iter()
                .any(|e| e.contains("no further validation rules will be run due to call cost exceeds limit for rule"))
            {
                result = Err(format!("per-call limit 0: {:?}", strings(&out.errors)));
            }
            tally.check(&rule, &[], result);
        }
    }
    tally.finish(1);
}

/// `TestCELValidationContextCancellation`, first half: the rule passes with the
/// default budget. The second half cancels the request context during evaluation;
/// evaluation here is synchronous and bounded only by cost, so there is nothing to
/// cancel (skipped).
#[test]
fn cel_validation_context_cancellation() {
    let cases = table("cel_validation_context_cancellation");
    let mut tally = Tally::new("TestCELValidationContextCancellation (without cancellation)");
    for case in &cases {
        let v = RuleValidator::new(
            &with_rule(&case["schema"], case["rule"].as_str().unwrap()),
            true,
            PER_CALL_LIMIT,
        );
        let (out, _) = run(&v, &case["obj"], None, RUNTIME_CEL_COST_BUDGET);
        let result = if out.errors.is_empty() {
            Ok(())
        } else {
            Err(format!("unexpected errors {:?}", strings(&out.errors)))
        };
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(1);
}

/// `TestCELMaxRecursionDepth`: 249 nested comparisons pass, 250 do not compile.
///
/// Run on a thread with the stack of a main thread (8 MiB): planning 249 nested
/// comparisons overflows the 2 MiB stack of a test thread in debug builds.
#[test]
fn cel_max_recursion_depth() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(max_recursion_depth)
        .unwrap()
        .join()
        .unwrap();
}

fn max_recursion_depth() {
    let cases = table("cel_max_recursion_depth");
    let mut tally = Tally::new("TestCELMaxRecursionDepth");
    for case in &cases {
        for rule in str_list(&case["valid"]) {
            let v = RuleValidator::for_node(&with_rule(&case["schema"], &rule), false, PER_CALL_LIMIT);
            let (out, _) = run(&v, &case["obj"], None, RUNTIME_CEL_COST_BUDGET);
            let result = if out.errors.is_empty() {
                Ok(())
            } else {
                Err(format!("unexpected errors {:?}", strings(&out.errors)))
            };
            tally.check("valid", &[], result);
        }
        for (rule, want) in case["errors"].as_object().unwrap() {
            let v = RuleValidator::new(&with_rule(&case["schema"], rule), true, PER_CALL_LIMIT);
            let (out, _) = run(&v, &case["obj"], None, RUNTIME_CEL_COST_BUDGET);
            let want = want.as_str().unwrap();
            let errs = strings(&out.errors);
            let result = if !errs.is_empty() && errs.iter().all(|e| e.contains(want)) {
                Ok(())
            } else {
                Err(format!("expected errors containing {want:?}, got {errs:?}"))
            };
            tally.check("error", &[], result);
        }
    }
    tally.finish(2);
}

/// `TestMessageExpression`: rule `false` on `{str: "a string"}` with a message
/// and/or `messageExpression` (`NewValidator(&s, false, callLimit)`): exactly one
/// error containing the expected text, and the expected remaining budget. (Go also
/// checks what the API server logs for a failed `messageExpression`; nothing is logged
/// here, the texts are checked in `crd_runtime::rules`' unit tests.)
#[test]
fn message_expression() {
    let cases = table("message_expression");
    let mut tally = Tally::new("TestMessageExpression");
    for case in &cases {
        let mut rule = json!({"rule": "false", "messageExpression": case["messageExpression"]});
        if let Some(m) = case["message"].as_str().filter(|m| !m.is_empty()) {
            rule["message"] = json!(m);
        }
        let s = schema(json!({
            "type": "object",
            "properties": {"str": {"type": "string"}},
            "x-kubernetes-validations": [rule],
        }));
        let limit = case["perCallLimit"]
            .as_u64()
            .filter(|l| *l != 0)
            .unwrap_or(PER_CALL_LIMIT);
        let v = RuleValidator::new(&s, false, limit);
        let (out, remaining) = run(
            &v,
            &json!({"str": "a string"}),
            None,
            case["costBudget"].as_i64().unwrap(),
        );
        let errs = strings(&out.errors);
        let want = case["expectedValidationErr"].as_str().unwrap_or("");
        let want_remaining = case["expectedRemainingBudget"].as_i64().unwrap_or(0);
        let result = if errs.len() != 1 {
            Err(format!("expected 1 error, got {errs:?}"))
        } else if !errs[0].contains(want) {
            Err(format!("expected an error containing {want:?}, got {errs:?}"))
        } else if want_remaining != 0 && remaining != want_remaining {
            Err(format!("expected {want_remaining} cost left, got {remaining}"))
        } else {
            Ok(())
        };
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(12);
}

/// `TestReasonAndFldPath`: the errors' types and fields (as a multiset).
#[test]
fn reason_and_field_path() {
    let cases = table("reason_and_fld_path");
    let mut tally = Tally::new("TestReasonAndFldPath");
    for case in &cases {
        let v = RuleValidator::for_node(&schema(case["schema"].clone()), true, PER_CALL_LIMIT);
        let (out, _) = run(&v, &case["obj"], None, RUNTIME_CEL_COST_BUDGET);
        let type_name = |t: ErrorType| match t {
            ErrorType::Invalid => "Invalid",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::Required => "Required",
            ErrorType::Duplicate => "Duplicate",
            _ => "other",
        };
        let mut got: Vec<(String, String)> = out
            .errors
            .iter()
            .map(|e| (type_name(e.error_type).to_string(), e.field.clone()))
            .collect();
        let mut want: Vec<(String, String)> = case["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["type"].as_str().unwrap().into(), e["field"].as_str().unwrap().into()))
            .collect();
        got.sort();
        want.sort();
        let result = (got == want).then_some(()).ok_or(format!("got {got:?}, want {want:?}"));
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(4);
}

/// `TestValidateFieldPath`: `ValidFieldPath` on the table's schema, errors by text;
/// the normalized paths also through the engine, as the path of a failing rule with
/// that `fieldPath` (`root.<normalized>`).
#[test]
fn validate_field_path() {
    let cases = table("validate_field_path");
    let mut tally = Tally::new("TestValidateFieldPath");
    for case in &cases {
        let props: JsonSchemaProps = serde_json::from_value(case["schema"].clone()).unwrap();
        let structural = new_structural(&props).unwrap();
        let field_path = case["fieldPath"].as_str().unwrap();
        let err_detail = case["errDetail"].as_str().unwrap_or("");
        let found = valid_field_path(field_path, Some(&structural), true);
        let mut result = match (&found, err_detail) {
            (Ok(_), "") => Ok(()),
            (Ok(_), want) => Err(format!("expected an error containing {want:?}")),
            (Err(e), "") => Err(format!("unexpected error: {e}")),
            (Err(e), want) if e.contains(want) => Ok(()),
            (Err(e), want) => Err(format!("expected an error containing {want:?}, got {e}")),
        };
        if let (Ok((p, _)), Some(want)) = (&found, case["validFieldPath"].as_str()) {
            // Go compares `path.Child(validField.String())` with the expected path,
            // both below `field.NewPath("")` (printed `[]`).
            let got = format!("[].{p}");
            if got != want {
                result = Err(format!("expected {want}, got {got}"));
            }
            // Through the engine: a failing rule reports at `root.<normalized>`.
            let mut s = case["schema"].clone();
            s["x-kubernetes-validations"] = json!([{"rule": "false", "fieldPath": field_path}]);
            let v = RuleValidator::for_node(&schema(s), false, PER_CALL_LIMIT);
            let (out, _) = run(&v, &json!({}), None, RUNTIME_CEL_COST_BUDGET);
            let want_field = format!("root.{}", &want[3..]);
            if out.errors.len() != 1 || out.errors[0].field != want_field {
                result = Err(format!(
                    "engine: expected one error at {want_field}, got {:?}",
                    strings(&out.errors)
                ));
            }
        }
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(28);
}

/// `TestRatcheting`: `NewValidator(schema, false, ...)` with
/// `WithRatcheting(NewCorrelatedObject(new, old, schema))`: the number of errors and
/// warnings, each expected error contained in an error, each expected warning equal
/// to a warning.
#[test]
fn ratcheting() {
    let cases = table("ratcheting");
    let mut tally = Tally::new("TestRatcheting");
    for case in &cases {
        let s = schema(case["schema"].clone());
        let v = RuleValidator::new(&s, false, PER_CALL_LIMIT);
        let correlation = CNode::compile(&s, CompileOptions::REQUEST);
        let budget = case["runtimeCostBudget"]
            .as_i64()
            .filter(|b| *b != 0)
            .unwrap_or(RUNTIME_CEL_COST_BUDGET);
        let root = Path::Root;
        let path = root.field("root");
        let mut b = Budget::new(budget);
        let mut out = Findings::default();
        v.validate(
            &path,
            &case["newObj"],
            old_of(case),
            Some(&correlation),
            &mut b,
            &mut out,
        );
        let errors = str_list(&case["errors"]);
        let warnings = str_list(&case["warnings"]);
        let got = strings(&out.errors);
        let result = if got.len() != errors.len() {
            Err(format!("expected errors {errors:?}, got {got:?}"))
        } else if out.warnings.len() != warnings.len() {
            Err(format!("expected warnings {warnings:?}, got {:?}", out.warnings))
        } else if let Some(e) = errors.iter().find(|e| !got.iter().any(|g| g.contains(e.as_str()))) {
            Err(format!("expected error {e:?} not found in {got:?}"))
        } else if let Some(w) = warnings.iter().find(|w| !out.warnings.contains(w)) {
            Err(format!("expected warning {w:?} not found in {:?}", out.warnings))
        } else {
            Ok(())
        };
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(16);
}

/// `TestOptionalOldSelf`: every rule with `optionalOldSelf: true`,
/// `validator(s, s, true, ...)`, unlimited budget.
#[test]
fn optional_old_self() {
    let cases = table("optional_old_self");
    let mut tally = Tally::new("TestOptionalOldSelf");
    for case in &cases {
        let s = schema(with_optional_old_self(&case["schema"]));
        let v = RuleValidator::for_node(&s, true, PER_CALL_LIMIT);
        let (out, _) = run(&v, &case["obj"], old_of(case), i64::MAX);
        let result = match_each(&out.errors, &str_list(&case["errors"]));
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(11);
}

/// `TestOptionalOldSelfCheckForNull`: no errors with and without an old value.
#[test]
fn optional_old_self_check_for_null() {
    let cases = table("optional_old_self_check_for_null");
    let mut tally = Tally::new("TestOptionalOldSelfCheckForNull");
    for case in &cases {
        let s = schema(with_optional_old_self(&case["schema"]));
        let v = RuleValidator::for_node(&s, false, PER_CALL_LIMIT);
        let mut result = Ok(());
        for old in [None, old_of(case)] {
            let (out, _) = run(&v, &case["obj"], old, i64::MAX);
            if !out.errors.is_empty() {
                result = Err(format!("old {old:?}: unexpected errors {:?}", strings(&out.errors)));
            }
        }
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(10);
}

/// `TestOptionalOldSelfIsOptionalType`: `oldSelf` is optional: using it as the
/// value does not compile (old value = new value).
#[test]
fn optional_old_self_is_optional_type() {
    let cases = table("optional_old_self_is_optional_type");
    let mut tally = Tally::new("TestOptionalOldSelfIsOptionalType");
    for case in &cases {
        let s = schema(with_optional_old_self(&case["schema"]));
        let v = RuleValidator::for_node(&s, false, PER_CALL_LIMIT);
        let (out, _) = run(&v, &case["obj"], Some(&case["obj"]), i64::MAX);
        let result = match_each(&out.errors, &str_list(&case["errors"]));
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(5);
}

/// Go's `validate(ctx, field.NewPath("test"), ss, ss, f, false, false, budget)` of
/// the defaulting tests: the root not turned into an embedded resource, defaults not
/// required to be pruned.
fn default_errors(case: &Value, budget: i64) -> Vec<String> {
    let props: JsonSchemaProps = serde_json::from_value(case["input"]["openAPIV3Schema"].clone()).unwrap();
    let structural = new_structural(&props).unwrap();
    let options = DefaultsOptions {
        resource_root: false,
        require_pruned: false,
        budget,
    };
    strings(&validate_defaults_with(&structural, &FieldPath::new("test"), &options))
}

/// `TestDefaultValidationWithCostBudget`: a budget of 10 passes all rules on defaults;
/// 0 and 9 give exactly one out-of-budget error.
#[test]
fn default_validation_with_cost_budget() {
    let cases = table("default_validation_with_cost_budget");
    let mut tally = Tally::new("TestDefaultValidationWithCostBudget");
    const OUT: &str = "validation failed due to running out of cost budget, no further validation rules will be run";
    for case in &cases {
        let mut result = Ok(());
        let errs = default_errors(case, 10);
        if !errs.is_empty() {
            result = Err(format!("budget 10: unexpected errors {errs:?}"));
        }
        for budget in [0, 9] {
            let errs = default_errors(case, budget);
            if errs.iter().filter(|e| e.contains(OUT)).count() != 1 {
                result = Err(format!("budget {budget}: expected one budget error, got {errs:?}"));
            }
        }
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(1);
}

/// `TestDefaultValidationWithOptionalOldSelf`: the second pass without an old value
/// makes a rule that needs `oldSelf` fail on the default.
#[test]
fn default_validation_with_optional_old_self() {
    let cases = table("default_validation_with_optional_old_self");
    let mut tally = Tally::new("TestDefaultValidationWithOptionalOldSelf");
    for case in &cases {
        let errs = default_errors(case, 10);
        let want = str_list(&case["errors"]);
        let result = if let Some(e) = errs.iter().find(|e| !want.iter().any(|w| e.contains(w.as_str()))) {
            Err(format!("unexpected error {e}"))
        } else if let Some(w) = want.iter().find(|w| !errs.iter().any(|e| e.contains(w.as_str()))) {
            Err(format!("expected error {w}, got {errs:?}"))
        } else {
            Ok(())
        };
        tally.check(case["name"].as_str().unwrap(), &[], result);
    }
    tally.finish(2);
}
