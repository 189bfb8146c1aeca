//! `sort()` / `sortBy()` order elements with equal keys as cel-go does: Go's `sort.Slice` is not stable, and
//! `crd_runtime::cel::gosort` repeats its algorithm.
//!
//! `cel_eval_data/gosort.json` holds, for lists of keys with many ties (random, sorted, reversed, organ pipe,
//! sawtooth, all equal; 5 to 257 elements), the permutation Go's `sort.Slice` produces. It was made by
//! `cel_eval_data/gosort_gen.go` (`go run gosort_gen.go > gosort.json`).

use crd_codegen::cel::check::compile::compile_ir_rules;
use crd_codegen::cel::eval::{OldSelf, PER_CALL_LIMIT, Program, evaluate, json_to_val};
use crd_codegen::model::JsonSchemaProps;
use crd_runtime::cel::Val;
use crd_runtime::cel::gosort::sort_slice;
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize)]
struct Case {
    name: String,
    keys: Vec<i64>,
    perm: Vec<usize>,
}

fn cases() -> Vec<Case> {
    serde_json::from_str(include_str!("cel_eval_data/gosort.json")).expect("gosort.json")
}

#[test]
fn sort_slice_matches_go() {
    let cases = cases();
    assert_eq!(cases.len(), 72);
    for c in cases {
        let mut perm: Vec<usize> = (0..c.keys.len()).collect();
        sort_slice(&mut perm, |&i, &j| c.keys[i] < c.keys[j]);
        assert_eq!(perm, c.perm, "{}", c.name);
    }
}

/// `sortBy` in a rule: the indexes of the items in the order the sort leaves them.
#[test]
fn sort_by_orders_ties_like_cel_go() {
    for c in cases() {
        let want = c.perm.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
        let rule = format!("self.items.sortBy(e, e.k).map(e, e.i) == [{want}]");
        let schema = json!({
            "type": "object",
            "properties": {"items": {"type": "array", "maxItems": 300, "items": {
                "type": "object",
                "properties": {"k": {"type": "integer"}, "i": {"type": "integer"}}
            }}},
            "x-kubernetes-validations": [{"rule": rule}]
        });
        let props: JsonSchemaProps = serde_json::from_value(schema).unwrap();
        let s = crd_codegen::lower::lower_schema(&props);
        let compiled = compile_ir_rules(&s, false).unwrap();
        let checked = compiled[0]
            .rule
            .as_ref()
            .unwrap_or_else(|| panic!("{rule}: {:?}", compiled[0].result.error));
        let program = Program::new(checked).unwrap();
        let items: Vec<_> = c
            .keys
            .iter()
            .enumerate()
            .map(|(i, k)| json!({"k": k, "i": i}))
            .collect();
        let object = json!({ "items": items });
        let v = json_to_val(&object, &s, false).unwrap();
        let got = evaluate(&program, v, OldSelf::Unbound, PER_CALL_LIMIT).result;
        assert!(matches!(got, Ok(Val::Bool(true))), "{}: {got:?}", c.name);
    }
}
