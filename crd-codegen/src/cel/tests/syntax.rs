//! Grammar, precedence, literals, node ids and locations, optional syntax, printer.

use super::{ok, tree};
use crate::cel::ast::{ExprKind, Literal, Span};
use crate::cel::debug::{Adornment, debug_string};
use crate::cel::errors::Location;
use crate::cel::{ParserOptions, parse, parse_with};

#[test]
fn operator_precedence() {
    assert_eq!(
        tree("a || b && c == d + e * -f.g[h]"),
        "_||_(a, _&&_(b, _==_(c, _+_(d, _*_(e, -_(_[_](f.g, h)))))))"
    );
    assert_eq!(tree("a ? b || c : d ? e : f"), "_?_:_(a, _||_(b, c), _?_:_(d, e, f))");
    assert_eq!(tree("a - b - c"), "_-_(_-_(a, b), c)");
    assert_eq!(tree("a / b * c % d"), "_%_(_*_(_/_(a, b), c), d)");
    assert_eq!(tree("a + b * c - d"), "_-_(_+_(a, _*_(b, c)), d)");
    assert_eq!(tree("a < b == c >= d"), "_>=_(_==_(_<_(a, b), c), d)");
    assert_eq!(tree("a in b != c <= d > e"), "_>_(_<=_(_!=_(@in(a, b), c), d), e)");
    assert_eq!(tree("!a && -b < c"), "_&&_(!_(a), _<_(-_(b), c))");
    assert_eq!(tree("(a || b) && c"), "_&&_(_||_(a, b), c)");
    assert_eq!(tree("a.b.c(d)[e].f"), "_[_](a.b.c(d), e).f");
}

#[test]
fn logical_chains_are_balanced_like_cel_go() {
    assert_eq!(tree("a && b && c && d"), "_&&_(_&&_(a, b), _&&_(c, d))");
    assert_eq!(tree("a || b || c"), "_||_(_||_(a, b), c)");
    assert_eq!(tree("a || b || c || d || e"), "_||_(_||_(_||_(a, b), c), _||_(d, e))");
}

#[test]
fn unary_operators_and_negative_literals() {
    assert_eq!(tree("!a"), "!_(a)");
    assert_eq!(tree("!!a"), "a");
    assert_eq!(tree("!!!a"), "!_(a)");
    assert_eq!(tree("-a"), "-_(a)");
    assert_eq!(tree("--a"), "a");
    assert_eq!(tree("-1"), "-1");
    assert_eq!(tree("- 1"), "-1");
    assert_eq!(tree("-(1)"), "-_(1)");
    assert_eq!(tree("--1"), "1");
    assert_eq!(tree("---1"), "-_(1)");
    assert_eq!(tree("-1u"), "-_(1u)");
    assert_eq!(tree("-1.5"), "-1.5d");
    assert_eq!(tree("-0x10"), "-16");
    assert_eq!(tree("4--4"), "_-_(4, -4)");
    assert_eq!(tree("a-1"), "_-_(a, 1)");
    assert_eq!(tree("-a.b"), "-_(a.b)");
    assert_eq!(tree("-1.abs()"), "-1.abs()");
}

#[test]
fn numeric_literals() {
    assert_eq!(tree("0"), "0");
    assert_eq!(tree("0xFF"), "255");
    assert_eq!(tree("9223372036854775807"), "9223372036854775807");
    assert_eq!(tree("-9223372036854775808"), "-9223372036854775808");
    assert_eq!(tree("-0x8000000000000000"), "-9223372036854775808");
    assert_eq!(tree("18446744073709551615u"), "18446744073709551615u");
    assert_eq!(tree("0xFFFFFFFFFFFFFFFFU"), "18446744073709551615u");
    assert_eq!(tree("1.5"), "1.5d");
    assert_eq!(tree(".5"), "0.5d");
    assert_eq!(tree("1e3"), "1000d");
    assert_eq!(tree("2.5E-3"), "0.0025d");
    assert_eq!(tree("1e-400"), "0d");
    assert_eq!(tree("1.7976931348623157e308"), "1.7976931348623157e+308d");
}

#[test]
fn string_and_bytes_literals() {
    let lit = |src: &str| match ok(src).expr.kind {
        ExprKind::Literal(l) => l,
        other => panic!("{src}: {other:?}"),
    };
    assert_eq!(lit(r#""a\tb""#), Literal::String("a\tb".into()));
    assert_eq!(
        lit(r"'\a\b\f\n\r\t\v\\\'\`\?'"),
        Literal::String("\u{7}\u{8}\u{c}\n\r\t\u{b}\\'`?".into())
    );
    assert_eq!(lit(r#""\"""#), Literal::String("\"".into()));
    assert_eq!(lit(r"'\101\x41\X41\u0041\U00000041'"), Literal::String("AAAAA".into()));
    assert_eq!(lit(r"'\303\277'"), Literal::String("Ã¿".into()));
    assert_eq!(lit(r"'\u00ff'"), Literal::String("ÿ".into()));
    assert_eq!(lit(r"'\U0001F600'"), Literal::String("😀".into()));
    assert_eq!(lit("'''a\n'b'\n'''"), Literal::String("a\n'b'\n".into()));
    assert_eq!(lit(r#""""x"y\"""""#), Literal::String("x\"y\"".into()));
    assert_eq!(lit(r#"r"\d+\.""#), Literal::String(r"\d+\.".into()));
    assert_eq!(lit(r"R'''\n'''"), Literal::String(r"\n".into()));
    assert_eq!(lit("\"\"\"a\r\nb\rc\"\"\""), Literal::String("a\nb\nc".into()));
    assert_eq!(lit("'ü😀'"), Literal::String("ü😀".into()));
    assert_eq!(lit(r"b'\xff\377\000'"), Literal::Bytes(vec![0xff, 0xff, 0]));
    assert_eq!(lit(r"B'ÿ'"), Literal::Bytes("ÿ".as_bytes().to_vec()));
    assert_eq!(lit(r#"br"\x""#), Literal::Bytes(br"\x".to_vec()));
    assert_eq!(lit(r"b'''a'''"), Literal::Bytes(b"a".to_vec()));
    assert_eq!(lit("true"), Literal::Bool(true));
    assert_eq!(lit("false"), Literal::Bool(false));
    assert_eq!(lit("null"), Literal::Null);
}

#[test]
fn identifiers_selections_and_messages() {
    assert_eq!(tree(".a.b"), ".a.b");
    assert_eq!(tree(".f(x)"), ".f(x)");
    assert_eq!(tree("a.b.c"), "a.b.c");
    // Reserved words are fine as field and method names.
    assert_eq!(tree("a.as.if(b)"), "a.as.if(b)");
    assert_eq!(tree("a.`b-c`.`d.e/f g`"), "a.b-c.d.e/f g");
    assert_eq!(tree("pkg.Msg{a: 1, as: 2,}"), "pkg.Msg{a: 1, as: 2}");
    assert_eq!(tree(".pkg.Msg{}"), ".pkg.Msg{}");
    assert_eq!(tree("Msg{`in`: 1}.x"), "Msg{in: 1}.x");
    assert_eq!(tree("if{}"), "if{}");
    assert_eq!(tree("[1, 2,]"), "[1, 2]");
    assert_eq!(tree("{'a': 1, 2: [],}"), "{\"a\": 1, 2: []}");
    assert_eq!(tree("[]"), "[]");
    assert_eq!(tree("{}"), "{}");
    assert_eq!(tree("f()"), "f()");
    assert_eq!(tree("a.f()"), "a.f()");
    assert_eq!(tree(" // comment\n a // more"), "a");
}

#[test]
fn comments_and_whitespace() {
    assert_eq!(tree("a // x\n+ // y\n b"), "_+_(a, b)");
    assert_eq!(tree("\t\r\n\u{c}a\u{c}"), "a");
}

#[test]
fn optional_syntax() {
    assert_eq!(tree("a.?b"), "_?._(a, \"b\")");
    assert_eq!(tree("a.?b.c"), "_?._(a, \"b\").c");
    assert_eq!(tree("a[?0]"), "_[?_](a, 0)");
    assert_eq!(tree("[?a, b, ?c]"), "[?a, b, ?c]");
    assert_eq!(tree("{?'k': v, 'l': w}"), "{?\"k\": v, \"l\": w}");
    assert_eq!(tree("Msg{?f: v, g: w}"), "Msg{?f: v, g: w}");
    assert_eq!(tree("a.?`b-c`"), "_?._(a, \"b-c\")");
}

#[test]
fn ids_follow_cel_go() {
    let p = ok("a.b(5)");
    assert_eq!(
        debug_string(&p, Adornment::KindAndId)
            .split_whitespace()
            .collect::<String>(),
        "a^#1:*expr.Expr_IdentExpr#.b(5^#3:*expr.Constant_Int64Value#)^#2:*expr.Expr_CallExpr#"
    );
    let p = ok("{k: v}");
    assert_eq!(
        debug_string(&p, Adornment::KindAndId)
            .split_whitespace()
            .collect::<String>(),
        "{k^#3:*expr.Expr_IdentExpr#:v^#4:*expr.Expr_IdentExpr#^#2:*expr.Expr_CreateStruct_Entry#}^#1:*expr.Expr_StructExpr#"
    );
    let p = ok("a || b");
    assert_eq!(
        debug_string(&p, Adornment::KindAndId)
            .split_whitespace()
            .collect::<String>(),
        "_||_(a^#1:*expr.Expr_IdentExpr#,b^#2:*expr.Expr_IdentExpr#)^#3:*expr.Expr_CallExpr#"
    );
    let p = ok("a.?b");
    assert_eq!(
        debug_string(&p, Adornment::KindAndId)
            .split_whitespace()
            .collect::<String>(),
        "_?._(a^#1:*expr.Expr_IdentExpr#,\"b\"^#2:*expr.Constant_StringValue#)^#3:*expr.Expr_CallExpr#"
    );
    // Every id is unique and below `next_id`.
    let p = ok("x.all(y, y.exists(z, z > [1, {2: Msg{f: 3}}][0])) && has(x.y) ? x.map(a, a) : []");
    let mut ids = Vec::new();
    p.expr.walk(&mut |e| ids.push(e.id));
    let count = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), count);
    assert!(ids.iter().all(|&id| id >= 1 && id < p.next_id));
}

#[test]
fn spans_are_the_tokens_cel_go_reports() {
    let src = "a.b + f(x)[0] == 'é' ? -1 : m.c";
    let p = ok(src);
    let text = |s: Span| &src[s.start..s.end];
    let ExprKind::Call(cond) = &p.expr.kind else { panic!() };
    assert_eq!(text(p.expr.span), "?");
    let ExprKind::Call(eq) = &cond.args[0].kind else {
        panic!()
    };
    assert_eq!(text(cond.args[0].span), "==");
    assert_eq!(text(eq.args[1].span), "'é'");
    let ExprKind::Call(add) = &eq.args[0].kind else {
        panic!()
    };
    assert_eq!(text(eq.args[0].span), "+");
    assert_eq!(text(add.args[0].span), ".");
    assert_eq!(text(add.args[1].span), "[");
    let ExprKind::Call(index) = &add.args[1].kind else {
        panic!()
    };
    assert_eq!(text(index.args[0].span), "(");
    assert_eq!(text(cond.args[1].span), "-1");
    assert_eq!(p.location(cond.args[2].span), Location { line: 1, column: 29 });
    // Macro expansions are located at the call.
    let p = ok("has(m.f)");
    assert_eq!(p.expr.span, Span::at(3));
}

#[test]
fn printer_round_trips() {
    for src in [
        "a + b * c - (d - e)",
        "(a || b) && !c",
        "a ? b : (c ? d : e)",
        "(a ? b : c).d",
        "-(1 + 2)",
        "x.all(y, y > 0) && has(x.f) || x.exists_one(z, z == 'a')",
        "m.map(k, v > 0, k).filter(k, k != \"\")",
        "m.transformMap(k, v, v + 1) == {\"a\": 2}",
        "o.?f.optMap(v, v.size()).orValue(0)",
        "[?a, b[?0]].sortBy(e, -e)",
        "a.`b-c` + Msg{?f: 1, `in`: 2}.x",
        "b\"\\377a\" == bytes(\"\\xff\")",
        "1.5 + 1e+07 + 2u + -3",
    ] {
        let first = ok(src);
        let printed = first.to_string();
        let second = ok(&printed);
        assert_eq!(second.to_string(), printed, "{src}");
        assert_eq!(
            super::sexpr(&second.expr),
            super::sexpr(&first.expr),
            "{src} -> {printed}"
        );
    }
    assert_eq!(ok("a+b-c").to_string(), "a + b - c");
    assert_eq!(
        ok("[1, 2, 3].exists(x, x > 0)").to_string(),
        "[1, 2, 3].exists(x, x > 0)"
    );
    assert_eq!(ok("has(a.b)").to_string(), "has(a.b)");
    assert_eq!(ok(r#"b'aaa"bbb'"#).to_string(), r#"b"\141\141\141\042\142\142\142""#);
    assert_eq!(ok("0.00001").to_string(), "1e-05");
    assert_eq!(ok("2.0").to_string(), "2.0");
}

#[test]
fn options_can_disable_syntax() {
    let no_optional = ParserOptions {
        enable_optional_syntax: false,
        ..ParserOptions::default()
    };
    let text = parse_with("a.?b", &no_optional).unwrap_err().to_string();
    assert_eq!(text, "ERROR: <input>:1:2: unsupported syntax '.?'\n | a.?b\n | .^");
    let no_escape = ParserOptions {
        enable_ident_escape_syntax: false,
        ..ParserOptions::default()
    };
    let text = parse_with("a.`b`", &no_escape).unwrap_err().to_string();
    assert_eq!(text, "ERROR: <input>:1:3: unsupported syntax: '`'\n | a.`b`\n | ..^");
    assert!(parse("a.?b").is_ok());
}
