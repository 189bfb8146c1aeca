//! The seed pages' validation-rule examples (`shared/spec/003_*.txt`, "Validation
//! rules"), each in a CRD admitted through the reference engine: the "Validation Rules
//! Examples" table, the table of rules by the type they are scoped to, the escaping
//! examples and the transition-rule examples, each rule with an object that passes it
//! and one that fails it, with the API server's exact error
//! (`<path>: Invalid value: [<value>: ]failed rule: <rule>`; the value is omitted for
//! objects and arrays).
//!
//! Two rules of the seed's table do not compile as printed and are corrected here:
//! `!('MY_KEY' in self.map1) || self['MY_KEY'].matches(...)` indexes the object instead
//! of `map1` (written `self.map1['MY_KEY']`), and the `envars` rule lacks its last
//! closing parenthesis. Lists and strings get `maxItems`/`maxLength` so that the
//! rules' estimated costs stay within the CRD limits; the `envars` rule exceeds them
//! anyway and runs on the rule validator outside a CRD.

mod engine_common;

use crd_codegen::engine::Engine;
use crd_codegen::engine::rules::RuleValidator;
use crd_runtime::errors::Path;
use crd_runtime::rules::{Budget, Findings, PER_CALL_LIMIT};
use engine_common::{crd_yaml, load_crd};
use serde_json::{Value, json};

/// The CRD `foos.example.com` (kind `Foo`, v1) with `spec` as given and, optionally,
/// rules and extra properties at the root.
fn engine(spec: Value, root_rules: Value, root_props: Value) -> Engine {
    let mut props = json!({"spec": spec});
    if let (Value::Object(p), Value::Object(extra)) = (&mut props, root_props) {
        p.extend(extra);
    }
    let mut schema = json!({"type": "object", "properties": props});
    if !root_rules.is_null() {
        schema["x-kubernetes-validations"] = root_rules;
    }
    let crd = load_crd(&crd_yaml(&schema, "Namespaced", json!({}))).unwrap_or_else(|e| panic!("{schema}: {e:?}"));
    Engine::new(&crd)
}

fn object(fields: Value) -> Value {
    let mut o = json!({"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "my-foo"}});
    if let (Value::Object(o), Value::Object(f)) = (&mut o, fields) {
        o.extend(f);
    }
    o
}

fn create_errors(e: &Engine, obj: Value) -> Vec<String> {
    let a = e.version("v1").unwrap().create(obj, "default");
    assert_eq!(a.bad_request, None);
    a.errors.iter().map(|e| e.to_string()).collect()
}

fn update_errors(e: &Engine, obj: Value, old: Value) -> Vec<String> {
    let a = e.version("v1").unwrap().update(obj, old, "default");
    assert_eq!(a.bad_request, None);
    a.errors.iter().map(|e| e.to_string()).collect()
}

fn spec_with_rule(rule: &str, properties: Value) -> Value {
    json!({"type": "object", "x-kubernetes-validations": [{"rule": rule}], "properties": properties})
}

fn string(max: i64) -> Value {
    json!({"type": "string", "maxLength": max})
}

/// One rule on `spec`: the passing spec is admitted, the failing one gets exactly
/// `spec: Invalid value: failed rule: <rule>`.
fn check_spec_rule(rule: &str, properties: Value, pass: Value, fail: Value) {
    let e = engine(spec_with_rule(rule, properties), Value::Null, json!({}));
    assert_eq!(
        create_errors(&e, object(json!({"spec": pass}))),
        Vec::<String>::new(),
        "{rule}"
    );
    assert_eq!(
        create_errors(&e, object(json!({"spec": fail}))),
        [format!("spec: Invalid value: failed rule: {rule}")],
        "{rule}"
    );
}

/// [`check_spec_rule`] without a CRD: the rule validator of the root schema
/// (`NewValidator(schema, true, PerCallLimit)`) on the object.
fn check_rule_outside_crd(rule: &str, properties: Value, pass: Value, fail: Value) {
    let root =
        engine_common::schema(json!({"type": "object", "properties": {"spec": spec_with_rule(rule, properties)}}));
    let v = RuleValidator::new(&root, true, PER_CALL_LIMIT);
    let run = |spec: Value| {
        let mut out = Findings::default();
        let obj = object(json!({ "spec": spec }));
        v.validate(&Path::Root, &obj, None, None, &mut Budget::per_object(), &mut out);
        out.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(run(pass), Vec::<String>::new(), "{rule}");
    assert_eq!(
        run(fail),
        [format!("spec: Invalid value: failed rule: {rule}")],
        "{rule}"
    );
}

#[test]
fn validation_rules_examples_table() {
    let int = json!({"type": "integer"});
    check_spec_rule(
        "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
        json!({"minReplicas": int, "replicas": int, "maxReplicas": int}),
        json!({"minReplicas": 1, "replicas": 2, "maxReplicas": 3}),
        json!({"minReplicas": 0, "replicas": 20, "maxReplicas": 10}),
    );
    check_spec_rule(
        "'Available' in self.stateCounts",
        json!({"stateCounts": {"type": "object", "maxProperties": 10, "additionalProperties": int}}),
        json!({"stateCounts": {"Available": 1}}),
        json!({"stateCounts": {"Pending": 1}}),
    );
    let list = json!({"type": "array", "maxItems": 10, "items": string(10)});
    check_spec_rule(
        "(size(self.list1) == 0) != (size(self.list2) == 0)",
        json!({"list1": list, "list2": list}),
        json!({"list1": ["a"], "list2": []}),
        json!({"list1": ["a"], "list2": ["b"]}),
    );
    check_spec_rule(
        "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')",
        json!({"map1": {"type": "object", "maxProperties": 10, "additionalProperties": string(64)}}),
        json!({"map1": {"MY_KEY": "abc", "OTHER": "1"}}),
        json!({"map1": {"MY_KEY": "a1"}}),
    );
    let envars = json!({
        "type": "array", "maxItems": 10,
        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
        "items": {"type": "object", "required": ["name"], "properties": {"name": string(64), "value": string(64)}},
    });
    // The CRD checks reject this rule on its estimated cost whatever the limits (the
    // size of the strings `filter` returns is unknown to the estimator), so it is run
    // on the rule validator directly.
    check_rule_outside_crd(
        "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
        json!({"envars": envars}),
        json!({"envars": [{"name": "MY_ENV", "value": "abc"}, {"name": "OTHER", "value": "1"}]}),
        json!({"envars": [{"name": "MY_ENV", "value": "a1"}]}),
    );
    let date_time = json!({"type": "string", "format": "date-time"});
    check_spec_rule(
        "has(self.expired) && self.created + self.ttl < self.expired",
        json!({"created": date_time, "ttl": {"type": "string", "format": "duration"}, "expired": date_time}),
        json!({"created": "2023-01-01T00:00:00Z", "ttl": "1h", "expired": "2023-01-01T02:00:00Z"}),
        json!({"created": "2023-01-01T00:00:00Z", "ttl": "1h", "expired": "2023-01-01T00:30:00Z"}),
    );
    check_spec_rule(
        "self.health.startsWith('ok')",
        json!({"health": string(64)}),
        json!({"health": "ok: all good"}),
        json!({"health": "degraded"}),
    );
    let widgets = json!({
        "type": "array", "maxItems": 10,
        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"],
        "items": {"type": "object", "required": ["key"], "properties": {"key": string(10), "foo": int}},
    });
    check_spec_rule(
        "self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
        json!({"widgets": widgets}),
        json!({"widgets": [{"key": "y", "foo": 20}, {"key": "x", "foo": 5}]}),
        json!({"widgets": [{"key": "x", "foo": 10}]}),
    );
    let set = json!({"type": "array", "maxItems": 10, "x-kubernetes-list-type": "set", "items": string(10)});
    check_spec_rule(
        "self.set1.all(e, !(e in self.set2))",
        json!({"set1": set, "set2": set}),
        json!({"set1": ["a", "b"], "set2": ["c"]}),
        json!({"set1": ["a", "b"], "set2": ["b"]}),
    );
    check_spec_rule(
        "size(self.names) == size(self.details) && self.names.all(n, n in self.details)",
        json!({"names": set, "details": {"type": "object", "maxProperties": 10, "additionalProperties": string(10)}}),
        json!({"names": ["a", "b"], "details": {"a": "x", "b": "y"}}),
        json!({"names": ["a", "b"], "details": {"a": "x", "c": "y"}}),
    );
    let clusters = json!({
        "type": "array", "maxItems": 10,
        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
        "items": {"type": "object", "required": ["name"], "properties": {"name": string(10)}},
    });
    check_spec_rule(
        "size(self.clusters.filter(c, c.name == self.primary)) == 1",
        json!({"clusters": clusters, "primary": string(10)}),
        json!({"clusters": [{"name": "a"}, {"name": "b"}], "primary": "b"}),
        json!({"clusters": [{"name": "a"}], "primary": "b"}),
    );
}

/// `type(self) == string ? self == '100%' : self == 1000` on an int-or-string field:
/// the value is printed (the node has no object or array type).
#[test]
fn int_or_string_rule() {
    let rule = "type(self) == string ? self == '100%' : self == 1000";
    let spec = json!({"type": "object", "properties": {
        "value": {"x-kubernetes-int-or-string": true, "x-kubernetes-validations": [{"rule": rule}]},
    }});
    let e = engine(spec, Value::Null, json!({}));
    for ok in [json!("100%"), json!(1000)] {
        assert_eq!(
            create_errors(&e, object(json!({"spec": {"value": ok}}))),
            Vec::<String>::new()
        );
    }
    assert_eq!(
        create_errors(&e, object(json!({"spec": {"value": "50%"}}))),
        [format!("spec.value: Invalid value: \"50%\": failed rule: {rule}")]
    );
    assert_eq!(
        create_errors(&e, object(json!({"spec": {"value": 10}}))),
        [format!("spec.value: Invalid value: 10: failed rule: {rule}")]
    );
}

/// `self.metadata.name.startsWith(self.prefix)` at the root, where `metadata.name` is
/// always visible: the error is at the root (`<nil>`).
#[test]
fn root_rule_sees_metadata_name() {
    let rule = "self.metadata.name.startsWith(self.prefix)";
    let e = engine(
        json!({"type": "object"}),
        json!([{"rule": rule}]),
        json!({"prefix": string(10)}),
    );
    assert_eq!(
        create_errors(&e, object(json!({"prefix": "my-"}))),
        Vec::<String>::new()
    );
    assert_eq!(
        create_errors(&e, object(json!({"prefix": "your-"}))),
        [format!("<nil>: Invalid value: failed rule: {rule}")]
    );
}

/// The examples of rules by the type they are scoped to.
#[test]
fn rules_by_scope() {
    // root object
    let rule = "self.status.actual <= self.spec.maxDesired";
    let e = engine(
        json!({"type": "object", "properties": {"maxDesired": {"type": "integer"}}}),
        json!([{"rule": rule}]),
        json!({"status": {"type": "object", "properties": {"actual": {"type": "integer"}}}}),
    );
    let obj = |actual: i64| object(json!({"spec": {"maxDesired": 3}, "status": {"actual": actual}}));
    assert_eq!(create_errors(&e, obj(3)), Vec::<String>::new());
    assert_eq!(
        create_errors(&e, obj(4)),
        [format!("<nil>: Invalid value: failed rule: {rule}")]
    );
    // map of objects
    check_spec_rule(
        "self.components['Widget'].priority < 10",
        json!({"components": {"type": "object", "maxProperties": 10, "additionalProperties": {
            "type": "object", "properties": {"priority": {"type": "integer"}}}}}),
        json!({"components": {"Widget": {"priority": 1}}}),
        json!({"components": {"Widget": {"priority": 10}}}),
    );
    // list of integers
    check_spec_rule(
        "self.values.all(value, value >= 0 && value < 100)",
        json!({"values": {"type": "array", "maxItems": 10, "items": {"type": "integer"}}}),
        json!({"values": [0, 99]}),
        json!({"values": [0, 100]}),
    );
    // string
    let rule = "self.startsWith('kube')";
    let spec = json!({"type": "object", "properties": {
        "name": {"type": "string", "maxLength": 64, "x-kubernetes-validations": [{"rule": rule}]},
    }});
    let e = engine(spec, Value::Null, json!({}));
    assert_eq!(
        create_errors(&e, object(json!({"spec": {"name": "kube-a"}}))),
        Vec::<String>::new()
    );
    assert_eq!(
        create_errors(&e, object(json!({"spec": {"name": "a"}}))),
        [format!("spec.name: Invalid value: \"a\": failed rule: {rule}")]
    );
}

/// The escaping examples: reserved words, `-` and `__` in property names.
#[test]
fn escaped_property_names() {
    let int = json!({"type": "integer"});
    for (prop, rule) in [
        ("namespace", "self.__namespace__ > 0"),
        ("x-prop", "self.x__dash__prop > 0"),
        ("redact__d", "self.redact__underscores__d > 0"),
    ] {
        check_spec_rule(rule, json!({ prop: int }), json!({ prop: 1 }), json!({ prop: 0 }));
    }
}

/// The seed's transition rule (`cel-crd.yaml`): never on create; on update from
/// `low` to `high` (and back) rejected with its message, the value printed.
#[test]
fn transition_rules_run_on_update_only() {
    let rule = "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')";
    let message = "cannot transition directly between 'low' and 'high'";
    let spec = json!({"type": "object", "properties": {"level": {
        "type": "string", "enum": ["low", "medium", "high"],
        "x-kubernetes-validations": [{"rule": rule, "message": message}],
    }}});
    let e = engine(spec, Value::Null, json!({}));
    let obj =
        |level: &str| object(json!({"metadata": {"name": "my-foo", "resourceVersion": "1"}, "spec": {"level": level}}));
    assert_eq!(create_errors(&e, obj("high")), Vec::<String>::new());
    assert_eq!(
        update_errors(&e, obj("high"), obj("low")),
        [format!("spec.level: Invalid value: \"high\": {message}")]
    );
    assert_eq!(
        update_errors(&e, obj("low"), obj("high")),
        [format!("spec.level: Invalid value: \"low\": {message}")]
    );
    assert_eq!(update_errors(&e, obj("medium"), obj("low")), Vec::<String>::new());
    assert_eq!(update_errors(&e, obj("high"), obj("medium")), Vec::<String>::new());
    // Setting the field on update: no old value, the rule does not run.
    let unset = object(json!({"metadata": {"name": "my-foo", "resourceVersion": "1"}, "spec": {}}));
    assert_eq!(update_errors(&e, obj("high"), unset), Vec::<String>::new());
}

/// The seed's table of transition-rule examples, each with an update that passes and
/// one that fails.
#[test]
fn transition_rule_examples() {
    let meta = json!({"name": "my-foo", "resourceVersion": "1"});
    let with = |rule: &str, field: Value| {
        let mut f = field;
        f["x-kubernetes-validations"] = json!([{"rule": rule}]);
        json!({"type": "object", "properties": {"f": f}})
    };
    let obj = |spec: Value| object(json!({"metadata": meta, "spec": spec}));
    let s10 = string(10);
    let cases: Vec<(&str, Value, Value, Value, Value, &str)> = vec![
        // (rule, field schema, old, passing new, failing new, failing value as printed)
        (
            "self.foo == oldSelf.foo",
            json!({"type": "object", "properties": {"foo": s10, "bar": s10}}),
            json!({"foo": "a"}),
            json!({"foo": "a", "bar": "b"}),
            json!({"foo": "b"}),
            "",
        ),
        (
            "oldSelf != 'bar' || self == 'bar'",
            s10.clone(),
            json!("bar"),
            json!("bar"),
            json!("baz"),
            "\"baz\": ",
        ),
        (
            "!has(oldSelf.field) || has(self.field)",
            json!({"type": "object", "properties": {"field": s10, "other": s10}}),
            json!({"field": "a"}),
            json!({"field": "b"}),
            json!({"other": "b"}),
            "",
        ),
        (
            "self.all(element, element in oldSelf)",
            json!({"type": "array", "maxItems": 10, "items": s10}),
            json!(["a", "b"]),
            json!(["b"]),
            json!(["a", "c"]),
            "",
        ),
        (
            "oldSelf != 'X' || self in ['A', 'B']",
            s10.clone(),
            json!("X"),
            json!("A"),
            json!("Y"),
            "\"Y\": ",
        ),
        (
            "self >= oldSelf",
            json!({"type": "integer"}),
            json!(5),
            json!(6),
            json!(4),
            "4: ",
        ),
    ];
    for (rule, field, old, pass, fail, value) in cases {
        let e = engine(with(rule, field), Value::Null, json!({}));
        let old = obj(json!({ "f": old }));
        assert_eq!(
            update_errors(&e, obj(json!({ "f": pass })), old.clone()),
            Vec::<String>::new(),
            "{rule}"
        );
        assert_eq!(
            update_errors(&e, obj(json!({ "f": fail })), old),
            [format!("spec.f: Invalid value: {value}failed rule: {rule}")],
            "{rule}"
        );
    }
}

/// The seed's minReplicas/replicas/maxReplicas rules, one with and one without
/// `message`: each failure reported with its message or the default, the object value
/// omitted.
#[test]
fn replicas_rules_with_and_without_message() {
    let int = json!({"type": "integer"});
    let spec = json!({
        "type": "object",
        "x-kubernetes-validations": [
            {"rule": "self.minReplicas <= self.replicas", "message": "replicas should be greater than or equal to minReplicas."},
            {"rule": "self.replicas <= self.maxReplicas"},
        ],
        "properties": {"minReplicas": int, "replicas": int, "maxReplicas": int},
        "required": ["minReplicas", "replicas", "maxReplicas"],
    });
    let e = engine(spec, Value::Null, json!({}));
    let obj =
        |min: i64, r: i64, max: i64| object(json!({"spec": {"minReplicas": min, "replicas": r, "maxReplicas": max}}));
    assert_eq!(create_errors(&e, obj(1, 2, 3)), Vec::<String>::new());
    assert_eq!(
        create_errors(&e, obj(0, 20, 10)),
        ["spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"]
    );
    assert_eq!(
        create_errors(&e, obj(5, 2, 10)),
        ["spec: Invalid value: replicas should be greater than or equal to minReplicas."]
    );
    assert_eq!(
        create_errors(&e, obj(30, 20, 10)),
        [
            "spec: Invalid value: replicas should be greater than or equal to minReplicas.",
            "spec: Invalid value: failed rule: self.replicas <= self.maxReplicas",
        ]
    );
    // A blocking error (the required maxReplicas missing) keeps the rules from running.
    let missing = object(json!({"spec": {"minReplicas": 0, "replicas": 20}}));
    assert_eq!(
        create_errors(&e, missing),
        [
            "spec.maxReplicas: Required value",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
}
