//! JSON data as CEL values (Kubernetes' `UnstructuredToVal`): the tables of
//! apiextensions-apiserver `pkg/apiserver/schema/cel/values_test.go`.
//!
//! - `TestEquality` (22 cases): map, multi-key map, set and atomic lists, objects and
//!   maps, compared both ways, and against the same data made by an expression
//!   (Go: `NativeToValue`).
//! - `TestLister` (3 cases): size, items, membership and `+` of map, set and atomic
//!   lists.
//! - `TestMapper` (2 cases, written out here: the Go table holds functions):
//!   size, lookup, keys and membership of objects and maps.
//!
//! `cel_eval_data/values.json` was converted from the Go tables by
//! `cel_eval_data/convert_values.py`.

use crd_codegen::ir;
use crd_codegen::model::JsonSchemaProps;
use crd_runtime::cel::ops::add;
use crd_runtime::cel::{List, Map, Val, equals, json_to_val};
use serde_json::{Value, json};

fn schema(v: &Value) -> ir::Schema {
    let props: JsonSchemaProps = serde_json::from_value(v.clone()).expect("schema JSON");
    crd_codegen::lower::lower_schema(&props)
}

/// The same data as a value an expression would make (no schema, no list type).
fn native(v: &Value) -> Val<'static> {
    match v {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Val::Int(i),
            None => Val::Double(n.as_f64().unwrap()),
        },
        Value::String(s) => Val::string(s.as_str()),
        Value::Array(a) => Val::List(List::new(a.iter().map(native).collect())),
        Value::Object(o) => {
            Val::Map(Map::from_entries(o.iter().map(|(k, v)| (Val::string(k.as_str()), native(v))).collect()).unwrap())
        }
    }
}

fn data() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cel_eval_data/values.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn equality() {
    let d = data();
    let cases = d["equality"].as_array().unwrap();
    assert_eq!(cases.len(), 22);
    let mut failures = Vec::new();
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let want = c["equal"].as_bool().unwrap();
        let (ls, rs) = (schema(&c["lhs"]["schema"]), schema(&c["rhs"]["schema"]));
        let lhs = json_to_val(&c["lhs"]["value"], &ls, false).unwrap();
        let rhs = json_to_val(&c["rhs"]["value"], &rs, false).unwrap();
        if equals(&lhs, &rhs) != Ok(want) || equals(&rhs, &lhs) != Ok(want) {
            failures.push(format!("{name}: not {want} both ways"));
        }
        // Against data an expression made. Go's `NativeToValue` of a JSON object keeps
        // the Go map, which map lists read their keys from; maps made by CEL
        // expressions have no such form, so map lists are left out here.
        if c["lhs"]["schema"]["x-kubernetes-list-type"] == json!("map") {
            continue;
        }
        let (ln, rn) = (native(&c["lhs"]["value"]), native(&c["rhs"]["value"]));
        if equals(&lhs, &rn) != Ok(want) || equals(&rhs, &ln) != Ok(want) {
            failures.push(format!("{name}: not {want} against expression values"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn lister() {
    let d = data();
    let cases = d["lister"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let s = schema(&c["schema"]);
        let item_schema = schema(&c["itemSchema"]);
        let items = c["unstructured"].as_array().unwrap();
        let v = json_to_val(&c["unstructured"], &s, false).unwrap();
        let Val::List(list) = &v else {
            panic!("{name}: not a list")
        };
        assert_eq!(list.len() as u64, c["size"].as_u64().unwrap(), "{name}: size");
        for (i, item) in items.iter().enumerate() {
            let want = json_to_val(item, &item_schema, false).unwrap();
            assert_eq!(equals(&list.get(i).unwrap(), &want), Ok(true), "{name}: item {i}");
            let next = list.iter().nth(i).unwrap().unwrap();
            assert_eq!(equals(&next, &want), Ok(true), "{name}: iterated item {i}");
            assert_eq!(
                crd_runtime::cel::equality::list_contains(list, &want),
                Ok(true),
                "{name}: contains {item}"
            );
        }
        for nc in c["notContains"].as_array().unwrap() {
            let ns = schema(&nc["schema"]);
            let x = json_to_val(&nc["value"], &ns, false).unwrap();
            assert_eq!(
                crd_runtime::cel::equality::list_contains(list, &x),
                Ok(false),
                "{name}: contains {}",
                nc["value"]
            );
        }
        let addition = json_to_val(&c["addition"], &s, false).unwrap();
        let added = add(&v, &addition).unwrap();
        let Val::List(added) = added else {
            panic!("{name}: + is not a list")
        };
        let expect = c["expectAdded"].as_array().unwrap();
        assert_eq!(added.len(), expect.len(), "{name}: size of the sum");
        for (i, e) in expect.iter().enumerate() {
            let want = json_to_val(e, &item_schema, false).unwrap();
            assert_eq!(equals(&want, &added.get(i).unwrap()), Ok(true), "{name}: sum item {i}");
        }
    }
}

/// `TestMapper`.
#[test]
fn mapper() {
    let string_schema = json!({"type": "string"});
    let cases = [
        (
            "object",
            json!({"field1": "a", "field2": "b"}),
            json!({"type": "object", "properties": {"field1": {"type": "string"}, "field2": {"type": "string"}}}),
            "field3",
        ),
        (
            "map",
            json!({"key1": "a", "key2": "b"}),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            "key3",
        ),
    ];
    let ss = schema(&string_schema);
    for (name, obj, sch, absent) in cases {
        let s = schema(&sch);
        let v = json_to_val(&obj, &s, false).unwrap();
        let Val::Map(m) = &v else { panic!("{name}: not a map") };
        assert_eq!(m.len(), 2, "{name}: size");
        let mut keys: Vec<String> = m.keys().iter().map(|k| k.as_str().unwrap().to_string()).collect();
        keys.sort();
        let mut want_keys: Vec<String> = obj.as_object().unwrap().keys().cloned().collect();
        want_keys.sort();
        assert_eq!(keys, want_keys, "{name}: keys");
        for (k, val) in obj.as_object().unwrap() {
            let got = m.get_str(k).unwrap().unwrap();
            assert_eq!(
                equals(&got, &json_to_val(val, &ss, false).unwrap()),
                Ok(true),
                "{name}: {k}"
            );
            let k_json = json!(k);
            let key = json_to_val(&k_json, &ss, false).unwrap();
            assert_eq!(
                crd_runtime::cel::equality::map_contains(m, &key),
                Ok(true),
                "{name}: contains {k}"
            );
        }
        let key = Val::str(absent);
        assert_eq!(
            crd_runtime::cel::equality::map_contains(m, &key),
            Ok(false),
            "{name}: contains {absent}"
        );
    }
}

/// The list types through expressions: `+` keeps the left list's order and
/// semantics, equality of set and map lists ignores order (SEMANTICS §4.4).
#[test]
fn set_and_map_lists_in_expressions() {
    use crd_codegen::cel::check::compile::compile_ir_rules;
    use crd_codegen::cel::eval::{OldSelf, PER_CALL_LIMIT, Program, evaluate};
    let sch = json!({
        "type": "object",
        "properties": {
            "s1": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "s2": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "ms": {"type": "array", "items": {
                "type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}}},
            "a": {"type": "array", "items": {"type": "string"}}
        }
    });
    let obj = json!({
        "s1": ["a", "b"], "s2": ["c", "b"],
        "ms": [
            [{"k": "x", "v": 1}, {"k": "y", "v": 2}],
            [{"k": "z", "v": 3}, {"k": "x", "v": 9}],
            [{"k": "y", "v": 2}, {"k": "z", "v": 3}, {"k": "x", "v": 9}]
        ],
        "a": ["b", "a"]
    });
    let rules = [
        // union keeps the left order and appends new elements in order
        "self.s1 + self.s2 == ['a', 'b', 'c']",
        "(self.s1 + self.s2)[2] == 'c' && (self.s2 + self.s1)[2] == 'a'",
        "self.s1 == ['b', 'a']",
        "self.s1 + ['a'] == ['a', 'b']",
        // merge: positions of the left kept, values replaced, new keys appended
        "self.ms[0] + self.ms[1] == self.ms[2]",
        "(self.ms[0] + self.ms[1])[0].v == 9 && (self.ms[0] + self.ms[1])[2].k == 'z'",
        "size(self.ms[0] + self.ms[1]) == 3 && self.ms[1] + self.ms[0] != self.ms[2]",
        // atomic lists keep order
        "self.a != ['a', 'b'] && self.a + self.a == ['b', 'a', 'b', 'a']",
        "['a'] + self.s1 == ['a', 'a', 'b']",
    ];
    let mut failures = Vec::new();
    for rule in rules {
        let mut s = sch.clone();
        s["x-kubernetes-validations"] = json!([{ "rule": rule }]);
        let s = schema(&s);
        let compiled = compile_ir_rules(&s, false).unwrap();
        let checked = compiled[0]
            .rule
            .as_ref()
            .unwrap_or_else(|| panic!("{rule}: {:?}", compiled[0].result));
        let p = Program::new(checked).unwrap();
        let v = json_to_val(&obj, &s, false).unwrap();
        let ev = evaluate(&p, v, OldSelf::Unbound, PER_CALL_LIMIT);
        if !matches!(ev.result, Ok(Val::Bool(true))) {
            failures.push(format!("{rule}: {:?}", ev.result));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
