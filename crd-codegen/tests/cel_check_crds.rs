//! The CEL stage of the CRD checks end to end: the `checkcrd` answers of the real
//! API server for the CEL seed examples (`shared/spec/examples/expected.jsonl`:
//! three compilation errors, the cost budget, a valid CRD), through
//! `crd_codegen::load::load`; and every rule of the CRD corpus (`shared/crds`),
//! which real API servers accept: each compiles, within the cost limits, and every
//! corpus CRD still passes all checks.

use crd_codegen::cel::check::compile::{AdmissionStages, RuleEnvironment};
use crd_codegen::cel::check::decls::Expressions;
use crd_codegen::check::check_crd_with;
use crd_codegen::check::structural::new_structural;
use crd_codegen::check::{RuleCompileError, STATIC_ESTIMATED_COST_LIMIT};
use crd_codegen::convert::{Read, read_crd};
use crd_codegen::diagnostic::Severity;
use crd_codegen::model::{JsonSchemaProps, JsonSchemaPropsOrArray};
use crd_codegen::source::{collect_files, read_file};
use serde_json::Value;
use std::path::PathBuf;

fn shared() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared"));
    p.is_dir().then_some(p)
}

fn expected_errors(shared: &std::path::Path, file: &str) -> Vec<String> {
    let lines = std::fs::read_to_string(shared.join("spec/examples/expected.jsonl")).unwrap();
    for line in lines.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["seed"] == format!("checkcrd:{file}") {
            return v["expected"]["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap().to_string())
                .collect();
        }
    }
    panic!("{file} not in expected.jsonl");
}

#[test]
fn cel_seed_examples_load_with_the_api_servers_errors() {
    let Some(shared) = shared() else {
        eprintln!("shared/ not found; skipping");
        return;
    };
    let files = [
        "bad-rule-invalid-argument-to-has_-macro.yaml",
        "bad-rule-no-matching-overload.yaml",
        "bad-rule-undefined-field.yaml",
        "budget-crd.yaml",
        "cel-crd.yaml",
    ];
    for file in files {
        let loaded = crd_codegen::load::load(&[shared.join("spec/examples").join(file)]);
        let prefix = "CustomResourceDefinition \"crontabs.stable.example.com\" is invalid: ";
        let errors: Vec<String> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity >= Severity::Error)
            .map(|d| {
                d.message
                    .strip_prefix(prefix)
                    .unwrap_or_else(|| panic!("{file}: {}", d.message))
                    .to_string()
            })
            .collect();
        assert_eq!(errors, expected_errors(&shared, file), "{file}");
        assert_eq!(loaded.crds.len(), usize::from(errors.is_empty()), "{file}");
    }
}

/// The seed's cost example: `self.all(x, x.contains('a string'))` over an unbounded
/// list of unbounded strings is rejected (the test above holds the messages); with
/// `maxItems: 25` on the list and `maxLength: 10` on its strings, as the page
/// suggests, the same CRD is accepted and its rule compiles.
#[test]
fn the_cost_example_is_accepted_with_bounds() {
    let Some(shared) = shared() else {
        eprintln!("shared/ not found; skipping");
        return;
    };
    let text = std::fs::read_to_string(shared.join("spec/examples/budget-crd.yaml")).unwrap();
    let bounded = text.replace(
        "              type: array\n              items:\n                type: string\n",
        "              type: array\n              maxItems: 25\n              items:\n                type: string\n                maxLength: 10\n",
    );
    assert_ne!(bounded, text, "the list and its items are where the seed puts them");
    let dir = std::env::temp_dir().join(format!("crd-cost-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bounded.yaml");
    std::fs::write(&file, bounded).unwrap();
    let loaded = crd_codegen::load::load(&[&file]);
    let errors: Vec<&str> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::Error)
        .map(|d| d.message.as_str())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(loaded.crds.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every node with rules, with whether it is a resource root.
fn rule_nodes<'a>(s: &'a JsonSchemaProps, is_root: bool, out: &mut Vec<(&'a JsonSchemaProps, bool)>) {
    if !s.x_validations.is_empty() {
        out.push((s, is_root || s.x_embedded_resource));
    }
    for p in s.properties.values() {
        rule_nodes(p, false, out);
    }
    if let Some(ap) = &s.additional_properties
        && let Some(ap) = &ap.schema
    {
        rule_nodes(ap, false, out);
    }
    if let Some(JsonSchemaPropsOrArray::Schema(items)) = s.items.as_deref() {
        rule_nodes(items, false, out);
    }
}

#[test]
fn every_corpus_rule_compiles_within_the_cost_limits() {
    let Some(shared) = shared() else {
        eprintln!("shared/ not found; skipping");
        return;
    };
    let files = collect_files(&[shared.join("crds")]).unwrap();
    let (mut rules, mut crds, mut failures) = (0usize, 0usize, Vec::new());
    let start = std::time::Instant::now();
    for f in &files {
        for mut doc in read_file(f).unwrap() {
            let Ok(Read::Crd(crd, _)) = read_crd(&mut doc) else {
                continue;
            };
            crds += 1;
            let errs = check_crd_with(&crd, &AdmissionStages);
            for e in &errs {
                failures.push(format!("{}: {e}", f.display()));
            }
            let mut schemas = Vec::new();
            if let Some(v) = &crd.spec.validation {
                schemas.extend(v.open_api_v3_schema.as_deref());
            }
            for v in &crd.spec.versions {
                if let Some(s) = &v.schema {
                    schemas.extend(s.open_api_v3_schema.as_deref());
                }
            }
            for root in schemas {
                let mut nodes = Vec::new();
                rule_nodes(root, true, &mut nodes);
                for (node, is_root) in nodes {
                    let structural = new_structural(node).unwrap();
                    let env = RuleEnvironment::new(&structural, is_root, Expressions::New).unwrap();
                    for rule in &node.x_validations {
                        rules += 1;
                        let c = env.compile(rule).result;
                        if let Some(RuleCompileError::Invalid(d) | RuleCompileError::Required(d)) = &c.error {
                            failures.push(format!("{}: {:?}: {d}", f.display(), rule.rule));
                        }
                        if let Some(d) = &c.message_expression_error {
                            failures.push(format!("{}: {:?}: {d}", f.display(), rule.message_expression));
                        }
                        if c.max_cost > STATIC_ESTIMATED_COST_LIMIT {
                            failures.push(format!("{}: {:?}: cost {}", f.display(), rule.rule, c.max_cost));
                        }
                    }
                }
            }
        }
    }
    eprintln!("{crds} CRDs, {rules} rules in {:?}", start.elapsed());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 2483 rules counting every version's schema; identical version schemas are
    // hoisted into `spec.validation` and compiled once, as by the API server.
    assert_eq!(rules, 2024);
}
