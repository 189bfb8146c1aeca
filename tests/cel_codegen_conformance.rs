//! The CEL conformance cases (`../shared/cel-spec`) through the code generator: every
//! case that runs without variables, declarations or container (compiled to Rust by
//! `build.rs`) must give the interpreter's result (value, or error message) at the
//! interpreter's cost. The interpreter itself is held to the cases' expected values by
//! crd-codegen's `cel_eval_conformance` test.

use crd_codegen::cel::check::{Env, Libraries, check};
use crd_codegen::cel::eval::interp::Activation;
use crd_codegen::cel::eval::{Program, evaluate_with};
use crd_codegen::cel::parse;
use std::collections::BTreeMap;

#[allow(unused_mut, unused_variables, unused_parens, clippy::all)]
mod cases {
    use ::crd_runtime as rt;
    include!(concat!(env!("OUT_DIR"), "/cel_conformance.rs"));
}

fn interpret(expr: &str) -> crd_runtime::rules::Evaluated<String, String> {
    let parsed = parse(expr).expect("parses (it did at build time)");
    let mut env = Env::new(Libraries::kubernetes());
    env.set_cross_type_numeric_comparisons(true);
    let checked = check(&parsed, &env).expect("checks (it did at build time)");
    let program = Program::new(&checked).expect("plans (it did at build time)");
    let e = evaluate_with(
        &program,
        &Activation { vars: Vec::new() },
        crd_runtime::cel::cost::PER_CALL_LIMIT,
    );
    crd_runtime::rules::Evaluated {
        result: e.result.map(|v| format!("{v:?}")).map_err(|e| e.to_string()),
        cost: e.cost,
    }
}

#[test]
fn compiled_cases_agree_with_the_interpreter() {
    if cases::CASES.is_empty() {
        eprintln!("shared/cel-spec not found; nothing compiled");
        return;
    }
    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (file, name, expr, case) in cases::CASES {
        let compiled = case();
        let compiled = crd_runtime::rules::Evaluated {
            result: compiled.result.map(|v| format!("{v:?}")).map_err(|e| e.to_string()),
            cost: compiled.cost,
        };
        let interpreted = interpret(expr);
        if compiled.result == interpreted.result && compiled.cost == interpreted.cost {
            *per_file.entry(file).or_default() += 1;
        } else {
            failures.push(format!(
                "{file}/{name}: {expr}\n  compiled:    {:?} (cost {})\n  interpreted: {:?} (cost {})",
                compiled.result, compiled.cost, interpreted.result, interpreted.cost
            ));
        }
    }
    for (file, n) in &per_file {
        eprintln!("{file}: {n} compiled cases agree");
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
