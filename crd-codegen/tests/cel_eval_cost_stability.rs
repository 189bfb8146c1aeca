//! Kubernetes' `TestCelCostStability` (apiextensions-apiserver
//! `pkg/apiserver/schema/cel/celcoststability_test.go`): 41 schemas and objects,
//! 329 rules, each with the exact run-time cost the API server charges for it.
//!
//! The Go table was converted mechanically into `cel_eval_data/cost_stability.json`
//! by `cel_eval_data/convert_cost_stability.py` (schemas as `JSONSchemaProps`
//! JSON, objects as JSON). As in Go, the rule is the only rule of the root schema,
//! which is a resource root (`NewValidator(&s, true, PerCallLimit)`), and the
//! object is validated with the full budget: every rule must evaluate to `true`
//! at exactly the expected cost.

use crd_codegen::cel::check::compile::compile_ir_rules;
use crd_codegen::cel::eval::{OldSelf, PER_CALL_LIMIT, Program, evaluate, json_to_val};
use crd_codegen::ir;
use crd_codegen::model::JsonSchemaProps;
use crd_runtime::cel::Val;
use serde_json::{Value, json};

fn schema_with_rule(s: &Value, rule: &str) -> ir::Schema {
    let mut s = s.clone();
    s["x-kubernetes-validations"] = json!([{ "rule": rule }]);
    let props: JsonSchemaProps = serde_json::from_value(s).expect("schema JSON");
    crd_codegen::lower::lower_schema(&props)
}

/// The cost of a rule on an object, or why it did not evaluate to `true`.
fn run(schema: &Value, obj: &Value, rule: &str) -> Result<u64, String> {
    let s = schema_with_rule(schema, rule);
    let compiled = compile_ir_rules(&s, true)?;
    let c = compiled.first().ok_or("no rule")?;
    if let Some(e) = &c.result.error {
        return Err(format!("compile: {e:?}"));
    }
    let checked = c.rule.as_ref().ok_or("no checked rule")?;
    let program = Program::new(checked)?;
    let self_val = json_to_val(obj, &s, true).map_err(|e| e.to_string())?;
    let ev = evaluate(&program, self_val, OldSelf::Unbound, PER_CALL_LIMIT);
    match ev.result {
        Ok(Val::Bool(true)) => Ok(ev.cost),
        Ok(v) => Err(format!("result {v:?} (cost {})", ev.cost)),
        Err(e) => Err(format!("error {e} (cost {})", ev.cost)),
    }
}

#[test]
fn cel_cost_stability() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cel_eval_data/cost_stability.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut rules, mut failures) = (0, Vec::new());
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        for (rule, want) in case["expectCost"].as_object().unwrap() {
            rules += 1;
            let want = want.as_u64().unwrap();
            match run(&case["schema"], &case["obj"], rule) {
                Ok(cost) if cost == want => {}
                Ok(cost) => failures.push(format!("{name} / {rule}: cost {cost}, want {want}")),
                Err(e) => failures.push(format!("{name} / {rule}: {e}, want cost {want}")),
            }
        }
    }
    eprintln!("{} rules, {} failures", rules, failures.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((cases.len(), rules), (41, 329));
}
