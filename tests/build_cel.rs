//! Part of `build.rs`: the CEL conformance cases (`../shared/cel-spec`) that need no
//! variables, declarations or container, compiled to Rust by the code generator, for
//! `tests/cel_codegen_conformance.rs`, which runs each against the interpreter.

use crd_codegen::cel::check::{Env, KUBERNETES_CONFORMANCE_FILES, Libraries, check};
use crd_codegen::cel::eval::Program;
use crd_codegen::cel::parse;
use crd_codegen::rust::cel::{Compiler, Repr, Types};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

/// Writes `cel_conformance.rs`: one function per case and the table `CASES` of
/// (file, test name, expression, function).
pub fn generate(spec: &Path, out: &Path) {
    let mut functions = String::new();
    let mut table = String::from(
        "pub static CASES: &[(&str, &str, &str, fn() -> rt::rules::Evaluated<rt::cel::Val<'static>, rt::cel::Error>)] = &[\n",
    );
    let views = HashMap::new();
    let types = Types {
        views: &views,
        structs: HashMap::new(),
        sees_derived: false,
    };
    let mut n = 0;
    for file in KUBERNETES_CONFORMANCE_FILES {
        let path = spec.join(format!("{file}.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for section in doc["sections"].as_array().into_iter().flatten() {
            for t in section["tests"].as_array().into_iter().flatten() {
                let Some(program) = binding_free_program(t) else {
                    continue;
                };
                let mut compiler = Compiler::new(&types, program.plan());
                let expr = compiler.expression(Repr::Val);
                n += 1;
                writeln!(
                    functions,
                    "fn case_{n}() -> rt::rules::Evaluated<rt::cel::Val<'static>, rt::cel::Error> {{\n\
                     let mut cost: u64 = 0;\nlet result = {expr};\nrt::compiled::finish(result, cost)\n}}"
                )
                .unwrap();
                let name = format!(
                    "{}/{}",
                    section["name"].as_str().unwrap_or(""),
                    t["name"].as_str().unwrap_or("")
                );
                let source = t["expr"].as_str().unwrap_or("");
                writeln!(table, "    ({file:?}, {name:?}, {source:?}, case_{n}),").unwrap();
            }
        }
    }
    table.push_str("];\n");
    std::fs::write(out.join("cel_conformance.rs"), functions + &table).unwrap();
}

/// The program of a test that runs without variables, declarations, container or
/// protobuf messages, in the Kubernetes environment, when it type-checks there.
fn binding_free_program(t: &Value) -> Option<Program> {
    let has = |k: &str| t.get(k).is_some_and(|v| !v.is_null());
    if has("bindings") || has("type_env") || has("container") || has("disable_check") || has("check_only") {
        return None;
    }
    let parsed = parse(t["expr"].as_str()?).ok()?;
    let mut env = Env::new(Libraries::kubernetes());
    env.set_cross_type_numeric_comparisons(true);
    let checked = check(&parsed, &env).ok()?;
    Program::new(&checked).ok()
}
