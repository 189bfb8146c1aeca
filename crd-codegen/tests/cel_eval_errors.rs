//! Evaluation errors and the cost limit: rules over JSON objects, checked for the
//! exact texts cel-go gives (the API server prints them) and the exact costs.

use crd_codegen::cel::check::compile::compile_ir_rules;
use crd_codegen::cel::eval::{Evaluation, OldSelf, PER_CALL_LIMIT, Program, evaluate};
use crd_codegen::ir;
use crd_codegen::model::JsonSchemaProps;
use crd_runtime::cel::Val;
use serde_json::{Value, json};

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "integer"}, "n": {"type": "integer", "nullable": true}}},
            "i": {"type": "integer"},
            "s": {"type": "string"},
            "l": {"type": "array", "items": {"type": "integer"}},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "ios": {"x-kubernetes-int-or-string": true},
            "ts": {"type": "string", "format": "date-time"}
        }
    })
}

fn object() -> Value {
    json!({
        "a": {"n": null},
        "i": 9223372036854775807i64,
        "s": "hello",
        "l": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        "m": {"x": "y"},
        "ios": "25%",
        "ts": "2024-01-02T03:04:05Z"
    })
}

fn ir_schema(rule: &str, optional_old_self: bool) -> ir::Schema {
    let mut s = schema();
    s["x-kubernetes-validations"] = json!([{ "rule": rule, "optionalOldSelf": optional_old_self }]);
    let props: JsonSchemaProps = serde_json::from_value(s).unwrap();
    crd_codegen::lower::lower_schema(&props)
}

fn program(rule: &str, s: &ir::Schema) -> Program {
    let compiled = compile_ir_rules(s, false).unwrap();
    let checked = compiled[0]
        .rule
        .as_ref()
        .unwrap_or_else(|| panic!("{rule}: {:?}", compiled[0].result.error));
    Program::new(checked).unwrap()
}

fn eval_with<'a>(rule: &str, s: &'a ir::Schema, obj: &'a Value, old: OldSelf<'a>, limit: u64) -> Evaluation<'a> {
    let p = program(rule, s);
    let v = crd_codegen::cel::eval::json_to_val(obj, s, false).unwrap();
    evaluate(&p, v, old, limit)
}

/// The error text of a rule on the object.
fn error(rule: &str) -> String {
    let s = ir_schema(rule, false);
    let obj = object();
    match eval_with(rule, &s, &obj, OldSelf::Unbound, PER_CALL_LIMIT).result {
        Ok(v) => panic!("{rule}: no error, {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn error_texts_are_cel_gos() {
    for (rule, want) in [
        ("self.a.b == 1", "no such key: b"),
        ("self.m.z == 'a'", "no such key: z"),
        ("self.m['z'] == 'a'", "no such key: z"),
        ("self.l[10] == 1", "index out of bounds: 10"),
        ("self.l[-1] == 1", "index out of bounds: -1"),
        ("self.i + 1 > 0", "integer overflow"),
        ("self.i * 2 > 0", "integer overflow"),
        ("-(self.i + 0) - 2 < 0", "integer overflow"),
        ("self.l[0] / (self.l[0] - 1) == 0", "division by zero"),
        ("self.l[0] % (self.l[0] - 1) == 0", "modulus by zero"),
        ("int(self.s) == 1", "type conversion error from 'string' to 'int'"),
        ("uint(-self.l[0]) == 1u", "unsigned integer overflow"),
        (
            "duration(self.s) > duration('1s')",
            "type conversion error from 'string' to 'google.protobuf.Duration'",
        ),
        ("self.s.substring(10) == ''", "index out of range: 10"),
        ("self.s.charAt(-1) == ''", "index out of range: -1"),
        ("self.l.slice(3, 11) == []", "cannot slice(3, 11), list is length 10"),
        ("self.l.filter(x, x > 100).max() == 0", "max called on empty list"),
        // A string int-or-string: `+` on a string with an int.
        ("self.ios + 1 == 2", "no such overload"),
        (
            "self.ts.getHours('Mars/Olympus') == 0",
            "unknown time zone Mars/Olympus",
        ),
        ("oldSelf == self", "no such attribute(s): oldSelf"),
        ("optional.none().value() == 1", "optional.none() dereference"),
        ("self.l.map(x, x + self.i).size() > 0", "integer overflow"),
    ] {
        assert_eq!(error(rule), want, "{rule}");
    }
    // An int-or-string holding an int, the receiver of a string function. cel-go
    // calls `contains`, `endsWith` and `startsWith` without the guard that names the
    // run-time types (`DisableTypeGuards`): the function's own check answers the bare
    // text. A guarded function names them.
    let mut obj = object();
    obj["ios"] = json!(25);
    for (rule, want) in [
        ("self.ios.startsWith('2')", "no such overload"),
        ("self.ios.endsWith('%')", "no such overload"),
        ("self.ios.contains('5')", "no such overload"),
        ("self.ios.lowerAscii() == '25'", "no such overload: lowerAscii(int)"),
    ] {
        let s = ir_schema(rule, false);
        let ev = eval_with(rule, &s, &obj, OldSelf::Unbound, PER_CALL_LIMIT);
        let err = ev.result.unwrap_err();
        assert_eq!(err.to_string(), want, "{rule}");
        assert!(err.is_no_such_overload());
    }
}

#[test]
fn errors_are_absorbed_like_cel_go() {
    let obj = object();
    for rule in [
        "self.a.b == 1 || true",
        "true || self.a.b == 1",
        "!(self.a.b == 1 && false)",
        "!(false && self.a.b == 1)",
        "self.l.exists(x, x / (x - 1) == 0 || x == 1)",
        "self.l.all(x, x == 1 ? true : x / (x - 1) >= 1)",
        "!has(self.a.b) && !has(self.a.n)",
        "!self.l.exists(x, x / 0 == 1 && false)",
        "self.a.?b.orValue(7) == 7",
        "!self.a.?n.hasValue()",
    ] {
        let s = ir_schema(rule, false);
        let ev = eval_with(rule, &s, &obj, OldSelf::Unbound, PER_CALL_LIMIT);
        assert!(matches!(ev.result, Ok(Val::Bool(true))), "{rule}: {:?}", ev.result);
    }
}

#[test]
fn old_self_bindings() {
    let obj = object();
    let mut old = object();
    old["s"] = json!("bye");
    let rule = "oldSelf.hasValue() ? oldSelf.value().s != self.s : self.s == 'hello'";
    let s = ir_schema(rule, true);
    let old_val = crd_codegen::cel::eval::json_to_val(&old, &s, false).unwrap();
    let ev = eval_with(rule, &s, &obj, OldSelf::Optional(Some(old_val)), PER_CALL_LIMIT);
    assert!(matches!(ev.result, Ok(Val::Bool(true))), "{:?}", ev.result);
    let ev = eval_with(rule, &s, &obj, OldSelf::Optional(None), PER_CALL_LIMIT);
    assert!(matches!(ev.result, Ok(Val::Bool(true))), "{:?}", ev.result);

    let rule = "oldSelf.s != self.s";
    let s = ir_schema(rule, false);
    let old_val = crd_codegen::cel::eval::json_to_val(&old, &s, false).unwrap();
    let ev = eval_with(rule, &s, &obj, OldSelf::Value(old_val), PER_CALL_LIMIT);
    assert!(matches!(ev.result, Ok(Val::Bool(true))), "{:?}", ev.result);
}

#[test]
fn cost_limit_stops_after_the_step_that_passes_it() {
    // `self.l.all(x, x > 0)`: the range costs 2 (`self` and `.l`); each loop
    // iteration 5 (`@result` and `@not_strictly_false` in the condition, `@result`,
    // `x` and `>` in the step); the result 1.
    let rule = "self.l.all(x, x > 0)";
    let s = ir_schema(rule, false);
    let obj = object();
    let full = eval_with(rule, &s, &obj, OldSelf::Unbound, PER_CALL_LIMIT);
    assert!(matches!(full.result, Ok(Val::Bool(true))));
    assert_eq!(full.cost, 2 + 5 * 10 + 1);
    // With limit 10, the second iteration's step passes it at `@result` (11).
    let ev = eval_with(rule, &s, &obj, OldSelf::Unbound, 10);
    let err = ev.result.unwrap_err();
    assert_eq!(err.to_string(), "operation cancelled: actual cost limit exceeded");
    assert!(err.is_cost_limit_exceeded());
    assert_eq!(ev.cost, 11);
    // A limit equal to the total cost is not exceeded.
    let ev = eval_with(rule, &s, &obj, OldSelf::Unbound, 53);
    assert!(matches!(ev.result, Ok(Val::Bool(true))));
    // Errors inside the loop do not hide the limit.
    let rule = "self.l.exists(x, x / 0 == 1)";
    let s = ir_schema(rule, false);
    let ev = eval_with(rule, &s, &obj, OldSelf::Unbound, 20);
    assert!(ev.result.unwrap_err().is_cost_limit_exceeded());
    assert!(ev.cost > 20);
}

#[test]
fn costs_of_steps() {
    let obj = object();
    for (rule, want) in [
        // constants cost nothing, a variable or field 1 each
        ("true", 0),
        ("self.s == 'hello'", 3),
        // has() costs its qualifiers only
        ("has(self.a)", 1),
        ("has(self.a.b) || true", 2),
        // list literals cost 10 unless constant; map literals 30
        // (`!=` against an empty list costs ceil(min(sizes) * 0.1) = 0)
        ("[self.i] != []", 12),
        ("{'a': self.s} != {}", 32),
        ("[1, 2] != []", 0),
        // in on a constant list: the set test is free; on data, the list size
        ("self.s in ['a', 'hello']", 2),
        ("2 in self.l", 12),
        // conditional: the condition and the chosen branch's qualifiers
        ("(true ? self.a : self.a) == self.a", 1 + 2 + 1),
        // string functions by size
        ("self.s.contains('ll')", 3),
        // matches: ceil((1 + 5) * 0.1) * ceil(6 * 0.25) = 1 * 2
        ("self.s.matches('^h.*o$')", 4),
        ("self.s + self.s == 'hellohello'", 2 + 2 + 1 + 1),
    ] {
        let s = ir_schema(rule, false);
        let ev = eval_with(rule, &s, &obj, OldSelf::Unbound, PER_CALL_LIMIT);
        assert!(matches!(ev.result, Ok(Val::Bool(true))), "{rule}: {:?}", ev.result);
        assert_eq!(ev.cost, want, "{rule}");
    }
}
