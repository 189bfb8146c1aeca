//! Exact type-checker errors and checked-expression shapes.
//!
//! The first cases are cel-go's own (`checker/checker_test.go`, those that need no
//! protobuf message), with cel-go's text; the others exercise the Kubernetes
//! environment (schema types, escaping, validators, the compile step).

use crd_codegen::cel::ast::ExprKind;
use crd_codegen::cel::check::compile::RuleEnvironment;
use crd_codegen::cel::check::decls::Expressions;
use crd_codegen::cel::check::{Env, Libraries, Reference, check, compile};
use crd_codegen::cel::parse;
use crd_codegen::cel::types::Type;
use crd_codegen::check::RuleCompileError;
use crd_codegen::check::structural::new_structural;
use crd_codegen::model::{JsonSchemaProps, ValidationRule};
use serde_json::json;

/// cel-go's checker test environment: the standard library, cross-type numeric
/// comparisons.
fn std_env() -> Env {
    let mut env = Env::new(Libraries::standard());
    env.set_cross_type_numeric_comparisons(true);
    env
}

fn check_error(expr: &str, env: &Env) -> String {
    match check(&parse(expr).unwrap(), env) {
        Ok(c) => panic!("{expr}: no error, type {}", c.output_type()),
        Err(e) => e.to_string(),
    }
}

/// Compares ignoring leading whitespace on lines (cel-go's `test.Compare`).
fn same(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.trim().lines().map(str::trim).collect::<Vec<_>>().join("\n");
    norm(a) == norm(b)
}

#[test]
fn cel_go_checker_errors() {
    let cases: &[(&str, &str)] = &[
        (
            "foo",
            "ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo\n | ^",
        ),
        (
            "1 + x",
            "ERROR: <input>:1:5: undeclared reference to 'x' (in container '')\n | 1 + x\n | ....^",
        ),
        (
            "[].map(x, [].map(y, x in y && y in x))",
            "ERROR: <input>:1:33: found no matching overload for '@in' applied to '(list(dyn), dyn)'\n | [].map(x, [].map(y, x in y && y in x))\n | ................................^",
        ),
        (
            "int{}",
            "ERROR: <input>:1:4: 'int' is not a message type\n | int{}\n | ...^",
        ),
        (
            "Msg{}",
            "ERROR: <input>:1:4: undeclared reference to 'Msg' (in container '')\n | Msg{}\n | ...^",
        ),
        (
            "fun()",
            "ERROR: <input>:1:4: undeclared reference to 'fun' (in container '')\n | fun()\n | ...^",
        ),
        (
            "'string'.fun()",
            "ERROR: <input>:1:13: undeclared reference to 'fun' (in container '')\n | 'string'.fun()\n | ............^",
        ),
        (
            "[].length",
            "ERROR: <input>:1:3: type 'list(_var0)' does not support field selection\n | [].length\n | ..^",
        ),
        (
            "undef()",
            "ERROR: <input>:1:6: undeclared reference to 'undef' (in container '')\n | undef()\n | .....^",
        ),
        (
            "true.all(x, x)",
            "ERROR: <input>:1:1: expression of type 'bool' cannot be range of a comprehension (must be list, map, or dynamic)\n | true.all(x, x)\n | ^",
        ),
    ];
    for (expr, want) in cases {
        let got = check_error(expr, &std_env());
        assert!(same(&got, want), "{expr}:\n{got}\nwant:\n{want}");
    }

    let mut no_cross = std_env();
    no_cross.set_cross_type_numeric_comparisons(false);
    let got = check_error(
        "1 <= 1.0 && 1u <= 1.0 && 1.0 <= 1 && 1.0 <= 1u && 1 <= 1u && 1u <= 1",
        &no_cross,
    );
    let heads: Vec<&str> = got.lines().filter(|l| l.starts_with("ERROR")).collect();
    assert_eq!(
        heads,
        [
            "ERROR: <input>:1:3: found no matching overload for '_<=_' applied to '(int, double)'",
            "ERROR: <input>:1:16: found no matching overload for '_<=_' applied to '(uint, double)'",
            "ERROR: <input>:1:30: found no matching overload for '_<=_' applied to '(double, int)'",
            "ERROR: <input>:1:42: found no matching overload for '_<=_' applied to '(double, uint)'",
            "ERROR: <input>:1:53: found no matching overload for '_<=_' applied to '(int, uint)'",
            "ERROR: <input>:1:65: found no matching overload for '_<=_' applied to '(uint, int)'",
        ]
    );

    let optional = Env::new(Libraries::kubernetes());
    for (expr, want) in [
        (
            "{?'key': 'hi'}",
            "ERROR: <input>:1:10: expected type 'optional_type(string)' but found 'string'\n | {?'key': 'hi'}\n | .........^",
        ),
        (
            "[?'value']",
            "ERROR: <input>:1:3: expected type 'optional_type(string)' but found 'string'\n | [?'value']\n | ..^",
        ),
    ] {
        assert_eq!(check_error(expr, &optional), want, "{expr}");
    }

    let mut not_a_message = std_env();
    not_a_message.add_variable("NotAMessage", Type::Wrapper(Box::new(Type::Int)));
    assert_eq!(
        check_error("NotAMessage{}", &not_a_message),
        "ERROR: <input>:1:12: undeclared reference to 'NotAMessage' (in container '')\n | NotAMessage{}\n | ...........^"
    );
}

/// The environment of the rules of a schema node (not a resource root).
fn rule_env(schema: serde_json::Value) -> RuleEnvironment {
    let props: JsonSchemaProps = serde_json::from_value(schema).unwrap();
    RuleEnvironment::new(&new_structural(&props).unwrap(), false, Expressions::Stored).unwrap()
}

fn rule(r: &str) -> ValidationRule {
    ValidationRule {
        rule: r.into(),
        ..Default::default()
    }
}

fn rule_error(env: &RuleEnvironment, r: &str) -> Option<String> {
    match env.compile(&rule(r)).result.error {
        Some(RuleCompileError::Invalid(d) | RuleCompileError::Required(d)) => Some(d),
        None => None,
    }
}

#[test]
fn kubernetes_rules() {
    let env = rule_env(json!({
        "type": "object",
        "properties": {
            "i": {"type": "integer"},
            "s": {"type": "string", "maxLength": 10},
            "foo-bar": {"type": "string"},
            "namespace": {"type": "string"},
            "1st": {"type": "string"},
            "ios": {"x-kubernetes-int-or-string": true},
            "d": {"type": "string", "format": "duration"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}
        }
    }));
    for ok in [
        "self.i > 0",
        "self.foo__dash__bar == 'x'",
        "self.namespace == 'x' && self.__namespace__ == 'x'",
        "self.ios == 1 || self.ios == 'a'",
        "self.d > duration('1s')",
        "type(self.d) == google.protobuf.Duration && type(self.d) == duration",
        "self.labels.all(k, self.labels[k].size() < 10) && has(self.labels.x)",
        "self.items.exists(i, i.name.startsWith('a'))",
        "self.items.all(i, v, i >= 0 && v.name != '')",
        "self.?labels.orValue({}).size() >= 0",
        "sets.contains(['a'], ['a']) && 'a'.indexOf('b') < 0 && [1].indexOf(1) == 0",
        "quantity('1').isLessThan(quantity('2')) && sign(quantity('1')) == 1",
        "ip('1.2.3.4').family() == 4 && cidr('1.0.0.0/8').containsIP('1.2.3.4')",
        "format.dns1123Label().validate(self.s).hasValue() || true",
        "'%s and %d'.format(['a', 1]) != ''",
        "[3, 1].sort() == [1, 3] && lists.range(3).size() == 3 && [1, 2].sortBy(x, -x)[0] == 2",
        "{'a': 1}.transformMap(k, v, v + 1)['a'] == 2",
        "url('https://a/b').getHost() == 'a' && semver('1.0.0').major() == 1",
    ] {
        assert_eq!(rule_error(&env, ok), None, "{ok}");
    }
    for (bad, want) in [
        (
            "self.nonExistingField > 0",
            "compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'\n | self.nonExistingField > 0\n | ....^",
        ),
        (
            "self.i == true",
            "compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, bool)'\n | self.i == true\n | .......^",
        ),
        (
            "has(self)",
            "compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^",
        ),
        (
            "self.items[0] == 1",
            "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(selfType0.items.@idx, int)'\n | self.items[0] == 1\n | ..............^",
        ),
        (
            "duration('1x') > duration('1s')",
            "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration('1s')\n | .........^",
        ),
        (
            "self.s.matches('[')",
            "compilation failed: ERROR: <input>:1:16: invalid matches argument\n | self.s.matches('[')\n | ...............^",
        ),
        (
            "[1, 'a'].size() > 0",
            "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() > 0\n | ....^",
        ),
        (
            "'%d'.format(['a']) != ''",
            "compilation failed: ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string\n | '%d'.format(['a']) != ''\n | .............^",
        ),
        (
            "'%s %s'.format(['a']) != ''",
            "compilation failed: ERROR: <input>:1:15: index 1 out of range\n | '%s %s'.format(['a']) != ''\n | ..............^",
        ),
        ("self.i", "cel expression must evaluate to a bool"),
        (
            "int('abc') > 0",
            "program instantiation failed: type conversion error from 'string' to 'int'",
        ),
        (
            "self.s.find('[') == ''",
            "program instantiation failed: error parsing regexp: missing closing ]: `[`",
        ),
    ] {
        assert_eq!(rule_error(&env, bad).as_deref(), Some(want), "{bad}");
    }

    let msg = ValidationRule {
        rule: "true".into(),
        message_expression: "1".into(),
        ..Default::default()
    };
    let c = env.compile(&msg).result;
    assert_eq!(
        c.message_expression_error.as_deref(),
        Some("messageExpression must evaluate to a string")
    );

    // Transition rules and optionalOldSelf.
    let c = env.compile(&rule("self.i >= oldSelf.i")).result;
    assert!(c.error.is_none() && c.uses_old_self);
    let optional = ValidationRule {
        rule: "oldSelf.hasValue() && self.i >= oldSelf.value().i".into(),
        optional_old_self: Some(true),
        ..Default::default()
    };
    let c = env.compile(&optional).result;
    assert!(c.error.is_none() && c.uses_old_self, "{:?}", c.error);
}

#[test]
fn resource_roots_expose_type_and_object_meta() {
    let props: JsonSchemaProps = serde_json::from_value(json!({"type": "object"})).unwrap();
    let s = new_structural(&props).unwrap();
    let root = RuleEnvironment::new(&s, true, Expressions::Stored).unwrap();
    for ok in [
        "self.apiVersion != '' && self.kind != ''",
        "self.metadata.name.size() < 254 && self.metadata.generateName != ''",
    ] {
        assert!(root.compile(&rule(ok)).result.error.is_none(), "{ok}");
    }
    assert_eq!(
        match root.compile(&rule("self.metadata.labels.size() > 0")).result.error {
            Some(RuleCompileError::Invalid(d)) => d,
            other => panic!("{other:?}"),
        },
        "compilation failed: ERROR: <input>:1:14: undefined field 'labels'\n | self.metadata.labels.size() > 0\n | .............^"
    );
    let not_root = RuleEnvironment::new(&s, false, Expressions::Stored).unwrap();
    assert!(not_root.compile(&rule("self.kind == 'x'")).result.error.is_some());
}

#[test]
fn checked_expressions_are_rewritten_and_annotated() {
    let env = Env::kubernetes();
    let c = compile("sets.contains([1], [1]) && optional.of(1).hasValue()", &env).unwrap();
    assert_eq!(*c.output_type(), Type::Bool);
    let ExprKind::Call(and) = &c.expr.kind else { panic!() };
    assert_eq!(c.overload_ids(c.expr.id), ["logical_and"]);
    let ExprKind::Call(sets) = &and.args[0].kind else {
        panic!()
    };
    assert_eq!(sets.function, "sets.contains");
    assert!(sets.target.is_none());
    assert_eq!(c.overload_ids(and.args[0].id), ["list_sets_contains_list"]);
    let ExprKind::Call(has_value) = &and.args[1].kind else {
        panic!()
    };
    let target = has_value.target.as_deref().unwrap();
    let ExprKind::Call(of) = &target.kind else { panic!() };
    assert_eq!((of.function.as_str(), of.target.is_none()), ("optional.of", true));
    assert_eq!(c.type_of(target.id), Some(&Type::optional(Type::Int)));

    // Dynamic arguments keep every overload that may apply.
    let mut env = Env::kubernetes();
    env.add_variable("x", Type::Dyn);
    let c = compile("x + 1 == 2", &env).unwrap();
    let ExprKind::Call(eq) = &c.expr.kind else { panic!() };
    assert_eq!(c.overload_ids(eq.args[0].id), ["add_int64"]);
    let c = compile("x.indexOf(x) >= 0", &env).unwrap();
    let ExprKind::Call(ge) = &c.expr.kind else { panic!() };
    assert_eq!(
        c.overload_ids(ge.args[0].id),
        ["string_index_of_string", "list_a_index_of_int"]
    );

    // Identifiers resolve to declarations; comprehension variables shadow.
    let mut env = Env::kubernetes();
    env.add_variable("y", Type::Int);
    let c = compile("[1].all(y, y > 0) && y > 0", &env).unwrap();
    assert!(
        c.references
            .values()
            .any(|r| matches!(r, Reference::Ident { name, .. } if name == "y"))
    );
    assert!(c.types.values().all(|t| !matches!(t, Type::TypeParam(_))));
}

#[test]
fn deeply_nested_rules_compile() {
    let env = rule_env(json!({"type": "object", "properties": {"i": {"type": "integer"}}}));
    // Close to cel-go's recursion limit of 250.
    let sum = vec!["self.i"; 249].join(" + ");
    let nested = format!("{}self.i{} > 0", "(".repeat(240), ")".repeat(240));
    let calls = format!("{}0{} == 0", "int(".repeat(240), ")".repeat(240));
    for r in [format!("{sum} > 0"), nested, calls] {
        assert_eq!(rule_error(&env, &r), None, "{r}");
    }
}

/// Type-checking is linear in the expression's size: each overload trial records
/// what it binds and undoes it on failure, where cel-go copies the whole mapping of
/// type variables (quadratic: a 600-byte chain of `optMap`s near the expansion limit
/// took seconds; found by the cel fuzz target). The chain below expands to about
/// 100,000 nodes; the bound is loose (a debug build, a busy machine) but the
/// quadratic checker took minutes.
#[test]
fn checking_a_large_expansion_is_linear() {
    let link = ".optMap(y, y + 1)";
    let source = format!("optional.of(1){}.hasValue()", link.repeat(13));
    let start = std::time::Instant::now();
    let env = Env::new(Libraries::kubernetes());
    let result = compile(&source, &env);
    let elapsed = start.elapsed();
    assert!(result.is_ok(), "{:?}", result.err().map(|e| e.to_string()));
    assert!(elapsed < std::time::Duration::from_secs(20), "{elapsed:?}");
}
