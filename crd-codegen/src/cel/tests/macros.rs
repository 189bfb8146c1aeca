//! Macro expansion and macro-call records.

use super::{err, ok, sexpr, tree};
use crate::cel::ast::{ExprKind, MacroKind};
use crate::cel::{MacroSet, ParserOptions, parse_with};

#[test]
fn has() {
    assert_eq!(tree("has(a.b)"), "has(a.b)");
    assert_eq!(tree("has(a.b.c)"), "has(a.b.c)");
    let p = ok("has(a.b)");
    let call = p.macro_call(p.expr.id).expect("macro call recorded");
    assert_eq!(call.kind, MacroKind::Has);
    assert_eq!(call.function, "has");
    assert!(call.target.is_none());
    assert_eq!(call.args.iter().map(sexpr).collect::<Vec<_>>(), ["a.b"]);
    // `has` with another arity is an ordinary call.
    assert_eq!(tree("has(a, b)"), "has(a, b)");
}

#[test]
fn quantifiers() {
    assert_eq!(
        tree("l.all(x, x > 0)"),
        "fold(x in l; @result = true; @not_strictly_false(@result); _&&_(@result, _>_(x, 0)); @result)"
    );
    assert_eq!(
        tree("l.exists(x, p)"),
        "fold(x in l; @result = false; @not_strictly_false(!_(@result)); _||_(@result, p); @result)"
    );
    assert_eq!(
        tree("l.exists_one(x, p)"),
        "fold(x in l; @result = 0; true; _?_:_(p, _+_(@result, 1), @result); _==_(@result, 1))"
    );
    // cel-go's environment has no two-argument `existsOne` macro: an ordinary call.
    assert_eq!(tree("l.existsOne(x, p)"), "l.existsOne(x, p)");
    let camel = ParserOptions {
        macros: MacroSet {
            exists_one_camel_case: true,
            ..MacroSet::default()
        },
        ..ParserOptions::default()
    };
    let p = parse_with("l.existsOne(x, p)", &camel).unwrap();
    assert_eq!(p.macro_call(p.expr.id).unwrap().kind, MacroKind::ExistsOne);
}

#[test]
fn map_and_filter() {
    assert_eq!(
        tree("l.map(x, x * 2)"),
        "fold(x in l; @result = []; true; _+_(@result, [_*_(x, 2)]); @result)"
    );
    assert_eq!(
        tree("l.map(x, x > 0, x * 2)"),
        "fold(x in l; @result = []; true; _?_:_(_>_(x, 0), _+_(@result, [_*_(x, 2)]), @result); @result)"
    );
    assert_eq!(
        tree("l.filter(x, x > 0)"),
        "fold(x in l; @result = []; true; _?_:_(_>_(x, 0), _+_(@result, [x]), @result); @result)"
    );
}

#[test]
fn two_variable_comprehensions() {
    assert_eq!(
        tree("m.all(k, v, v > k)"),
        "fold(k, v in m; @result = true; @not_strictly_false(@result); _&&_(@result, _>_(v, k)); @result)"
    );
    assert_eq!(
        tree("m.exists(k, v, v)"),
        "fold(k, v in m; @result = false; @not_strictly_false(!_(@result)); _||_(@result, v); @result)"
    );
    for f in ["existsOne", "exists_one"] {
        assert_eq!(
            tree(&format!("m.{f}(k, v, v)")),
            "fold(k, v in m; @result = 0; true; _?_:_(v, _+_(@result, 1), @result); _==_(@result, 1))"
        );
    }
    assert_eq!(
        tree("l.transformList(i, v, v + i)"),
        "fold(i, v in l; @result = []; true; _+_(@result, [_+_(v, i)]); @result)"
    );
    assert_eq!(
        tree("l.transformList(i, v, i > 0, v)"),
        "fold(i, v in l; @result = []; true; _?_:_(_>_(i, 0), _+_(@result, [v]), @result); @result)"
    );
    assert_eq!(
        tree("m.transformMap(k, v, v + 1)"),
        "fold(k, v in m; @result = {}; true; cel.@mapInsert(@result, k, _+_(v, 1)); @result)"
    );
    assert_eq!(
        tree("m.transformMap(k, v, v > 0, v)"),
        "fold(k, v in m; @result = {}; true; _?_:_(_>_(v, 0), cel.@mapInsert(@result, k, v), @result); @result)"
    );
    assert_eq!(
        tree("m.transformMapEntry(k, v, {v: k})"),
        "fold(k, v in m; @result = {}; true; cel.@mapInsert(@result, {v: k}); @result)"
    );
    assert_eq!(
        tree("m.transformMapEntry(k, v, true, {v: k})"),
        "fold(k, v in m; @result = {}; true; _?_:_(true, cel.@mapInsert(@result, {v: k}), @result); @result)"
    );
    let p = ok("m.transformMapEntry(k, v, true, {v: k})");
    assert_eq!(
        p.macro_call(p.expr.id).unwrap().kind,
        MacroKind::TransformMapEntryFilter
    );
}

#[test]
fn optional_macros() {
    assert_eq!(
        tree("o.optMap(v, v + 1)"),
        "_?_:_(o.hasValue(), optional.of(fold(#unused in []; v = o.value(); false; v; _+_(v, 1))), optional.none())"
    );
    assert_eq!(
        tree("o.optFlatMap(v, v.?f)"),
        "_?_:_(o.hasValue(), fold(#unused in []; v = o.value(); false; v; _?._(v, \"f\")), optional.none())"
    );
    // The target is copied with fresh ids.
    let p = ok("a.b.optMap(v, v)");
    let mut ids = Vec::new();
    p.expr.walk(&mut |e| ids.push(e.id));
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n);
}

#[test]
fn sort_by() {
    assert_eq!(
        tree("l.sortBy(e, -e)"),
        "fold(#unused in []; @__sortBy_input__ = l; false; @__sortBy_input__; \
         @__sortBy_input__.@sortByAssociatedKeys(fold(e in @__sortBy_input__; @result = []; true; \
         _+_(@result, [-_(e)]); @result)))"
    );
    let without = ParserOptions {
        macros: MacroSet {
            sort_by: false,
            ..MacroSet::default()
        },
        ..ParserOptions::default()
    };
    assert_eq!(
        sexpr(&parse_with("l.sortBy(e, -e)", &without).unwrap().expr),
        "l.sortBy(e, -_(e))"
    );
}

#[test]
fn macro_calls_are_recorded_for_printing() {
    let p = ok("x.all(y, y.exists(z, z > 0))");
    assert_eq!(p.macro_calls.len(), 2);
    let outer = p.macro_call(p.expr.id).unwrap();
    assert_eq!(outer.kind, MacroKind::All);
    assert_eq!(sexpr(outer.target.as_ref().unwrap()), "x");
    // The nested macro appears expanded, and has its own record.
    let inner = &outer.args[1];
    assert!(matches!(inner.kind, ExprKind::Comprehension(_)));
    assert_eq!(p.macro_call(inner.id).unwrap().kind, MacroKind::Exists);
    assert_eq!(p.to_string(), "x.all(y, y.exists(z, z > 0))");
    assert!(p.macro_calls.values().all(|m| m.function != "has"));
}

#[test]
fn macro_argument_errors() {
    assert_eq!(
        err("has(self)"),
        "ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^"
    );
    assert_eq!(
        err("has(a[0])"),
        "ERROR: <input>:1:6: invalid argument to has() macro\n | has(a[0])\n | .....^"
    );
    assert_eq!(
        err("l.all(1, true)"),
        "ERROR: <input>:1:7: argument must be a simple name\n | l.all(1, true)\n | ......^"
    );
    assert_eq!(
        err("l.map(a.b, a)"),
        "ERROR: <input>:1:8: argument is not an identifier\n | l.map(a.b, a)\n | .......^"
    );
    assert_eq!(
        err("l.filter(__result__, true)"),
        "ERROR: <input>:1:10: iteration variable overwrites accumulator variable\n | l.filter(__result__, true)\n | .........^"
    );
    assert_eq!(
        err("m.all(k, k, true)"),
        "ERROR: <input>:1:10: duplicate variable name: k\n | m.all(k, k, true)\n | .........^"
    );
    assert_eq!(
        err("m.transformMap(k, 1, true)"),
        "ERROR: <input>:1:19: argument must be a simple name\n | m.transformMap(k, 1, true)\n | ..................^"
    );
    assert_eq!(
        err("o.optMap(a.b, 1)"),
        "ERROR: <input>:1:11: optMap() variable name must be a simple identifier\n | o.optMap(a.b, 1)\n | ..........^"
    );
    assert_eq!(
        err("o.optFlatMap(1, 1)"),
        "ERROR: <input>:1:14: optFlatMap() variable name must be a simple identifier\n | o.optFlatMap(1, 1)\n | .............^"
    );
    assert_eq!(
        err("1.sortBy(e, e)"),
        "ERROR: <input>:1:1: sortBy can only be applied to a list, identifier, comprehension, call or select expression\n | 1.sortBy(e, e)\n | ^"
    );
}

/// A chain of `optMap`s doubles the tree at each link (the target is copied); past
/// `MAX_EXPANDED_NODES` the parse fails rather than taking minutes and gigabytes
/// (found by the cel fuzz target).
#[test]
fn expansion_is_bounded() {
    let link = ".optMap(y, y + 1)";
    // Twelve links expand to some thousands of nodes: fine.
    assert!(crate::cel::parse(&format!("optional.of(1){}", link.repeat(12))).is_ok());
    let e = err(&format!("optional.of(1){}", link.repeat(40)));
    assert!(
        e.contains("expression too large: more than 100000 nodes after macro expansion"),
        "{e}"
    );
}
