//! Error texts, compared with what cel-go (and so the Kubernetes API server) prints.

use super::err;
use crate::cel::{ParserOptions, parse, parse_with};

const EXPR_START: &str =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

#[test]
fn has_on_a_variable() {
    // The exact text of a real API server.
    assert_eq!(
        err("has(self)"),
        "ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^"
    );
}

#[test]
fn selection_at_end_of_input() {
    assert_eq!(
        err("self."),
        "ERROR: <input>:1:6: Syntax error: no viable alternative at input '.'\n | self.\n | .....^"
    );
    assert_eq!(
        err("self.a.\n"),
        "ERROR: <input>:2:1: Syntax error: no viable alternative at input '.\\n'\n | \n | ^"
    );
    // The operand parsed before the error is still checked, as in cel-go.
    assert_eq!(
        err("has(self.)"),
        "ERROR: <input>:1:5: invalid argument to has() macro\n | has(self.)\n | ....^\n\
         ERROR: <input>:1:10: Syntax error: no viable alternative at input '.)'\n | has(self.)\n | .........^"
    );
    assert_eq!(
        err("a.?"),
        "ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {IDENTIFIER, ESC_IDENTIFIER}\n | a.?\n | ...^\n\
         ERROR: <input>:1:4: unsupported ident kind\n | a.?\n | ...^"
    );
}

#[test]
fn unterminated_strings() {
    assert_eq!(
        err("self.name == \"abc"),
        format!(
            "ERROR: <input>:1:14: Syntax error: token recognition error at: '\"abc'\n | self.name == \"abc\n | .............^\n\
             ERROR: <input>:1:18: Syntax error: mismatched input '<EOF>' expecting {EXPR_START}\n | self.name == \"abc\n | .................^"
        )
    );
    // A line break ends a single-quoted string; the break itself is swallowed.
    assert_eq!(
        err("'a\nb'"),
        "ERROR: <input>:1:1: Syntax error: token recognition error at: ''a\\n'\n | 'a\n | ^\n\
         ERROR: <input>:2:2: Syntax error: token recognition error at: '''\n | b'\n | .^"
    );
}

#[test]
fn reserved_words() {
    assert_eq!(err("var"), "ERROR: <input>:1:1: reserved identifier: var\n | var\n | ^");
    assert_eq!(
        err("1 + if(2)"),
        "ERROR: <input>:1:5: reserved identifier: if\n | 1 + if(2)\n | ....^"
    );
    assert_eq!(
        err(".while"),
        "ERROR: <input>:1:1: reserved identifier: while\n | .while\n | ^"
    );
    assert_eq!(
        err("self.true == 1"),
        "ERROR: <input>:1:6: Syntax error: mismatched input 'true' expecting IDENTIFIER\n | self.true == 1\n | .....^"
    );
    assert_eq!(
        err("in"),
        format!(
            "ERROR: <input>:1:1: Syntax error: mismatched input 'in' expecting {EXPR_START}\n | in\n | ^\n\
             ERROR: <input>:1:3: Syntax error: mismatched input '<EOF>' expecting {EXPR_START}\n | in\n | ..^"
        )
    );
    // Semantic errors at the same position follow in visiting order.
    assert_eq!(
        err("[1, 2, 3].map(var, var * var)"),
        "ERROR: <input>:1:15: reserved identifier: var\n | [1, 2, 3].map(var, var * var)\n | ..............^\n\
         ERROR: <input>:1:15: argument is not an identifier\n | [1, 2, 3].map(var, var * var)\n | ..............^\n\
         ERROR: <input>:1:20: reserved identifier: var\n | [1, 2, 3].map(var, var * var)\n | ...................^\n\
         ERROR: <input>:1:26: reserved identifier: var\n | [1, 2, 3].map(var, var * var)\n | .........................^"
    );
}

#[test]
fn antlr_style_syntax_errors() {
    assert_eq!(
        err("f(a"),
        "ERROR: <input>:1:4: Syntax error: missing ')' at '<EOF>'\n | f(a\n | ...^"
    );
    assert_eq!(
        err("'asdf'.contains('x'"),
        "ERROR: <input>:1:20: Syntax error: missing ')' at '<EOF>'\n | 'asdf'.contains('x'\n | ...................^"
    );
    assert_eq!(
        err("a b"),
        "ERROR: <input>:1:3: Syntax error: extraneous input 'b' expecting <EOF>\n | a b\n | ..^"
    );
    assert_eq!(
        err("a b c"),
        "ERROR: <input>:1:3: Syntax error: mismatched input 'b' expecting <EOF>\n | a b c\n | ..^"
    );
    assert_eq!(
        err("1 + +"),
        format!(
            "ERROR: <input>:1:5: Syntax error: mismatched input '+' expecting {EXPR_START}\n | 1 + +\n | ....^\n\
             ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting {EXPR_START}\n | 1 + +\n | .....^"
        )
    );
    assert_eq!(
        err("{a}"),
        "ERROR: <input>:1:3: Syntax error: mismatched input '}' expecting ':'\n | {a}\n | ..^"
    );
    assert_eq!(
        err("[1, 2"),
        "ERROR: <input>:1:6: Syntax error: mismatched input '<EOF>' expecting {']', ','}\n | [1, 2\n | .....^"
    );
    assert_eq!(
        err("request.user = 'test'"),
        "ERROR: <input>:1:14: Syntax error: token recognition error at: '= '\n | request.user = 'test'\n | .............^\n\
         ERROR: <input>:1:16: Syntax error: extraneous input ''test'' expecting <EOF>\n | request.user = 'test'\n | ...............^"
    );
    assert_eq!(
        err("self.objs[0][0].k! == '1'"),
        "ERROR: <input>:1:18: Syntax error: mismatched input '!' expecting <EOF>\n | self.objs[0][0].k! == '1'\n | .................^"
    );
    assert_eq!(
        err("a && || b"),
        format!(
            "ERROR: <input>:1:6: Syntax error: extraneous input '||' expecting {EXPR_START}\n | a && || b\n | .....^"
        )
    );
    assert_eq!(
        err("--"),
        format!(
            "ERROR: <input>:1:3: Syntax error: no viable alternative at input '-'\n | --\n | ..^\n\
             ERROR: <input>:1:3: Syntax error: mismatched input '<EOF>' expecting {EXPR_START}\n | --\n | ..^"
        )
    );
}

#[test]
fn positions_count_lines_code_points_tabs_and_wide_characters() {
    assert_eq!(
        err("a &&\n  b +"),
        format!(
            "ERROR: <input>:2:6: Syntax error: mismatched input '<EOF>' expecting {EXPR_START}\n |   b +\n | .....^"
        )
    );
    assert!(
        err("a\t@").starts_with("ERROR: <input>:1:3: Syntax error: token recognition error at: '@'\n | a @\n | ..^")
    );
    assert!(
        err("'😁' + @ 1").starts_with(
            "ERROR: <input>:1:7: Syntax error: token recognition error at: '@'\n | '😁' + @ 1\n | .．....^"
        )
    );
    assert!(
        err("a + 😁")
            .starts_with("ERROR: <input>:1:5: Syntax error: token recognition error at: '😁'\n | a + 😁\n | ....＾")
    );
}

#[test]
fn invalid_literals() {
    assert_eq!(
        err("9223372036854775808"),
        "ERROR: <input>:1:1: invalid int literal\n | 9223372036854775808\n | ^"
    );
    assert_eq!(
        err("-0x8000000000000001"),
        "ERROR: <input>:1:1: invalid int literal\n | -0x8000000000000001\n | ^"
    );
    assert_eq!(
        err("18446744073709551616u"),
        "ERROR: <input>:1:1: invalid uint literal\n | 18446744073709551616u\n | ^"
    );
    assert_eq!(
        err("x == 1e400"),
        "ERROR: <input>:1:6: invalid double literal\n | x == 1e400\n | .....^"
    );
    assert_eq!(
        err(r"'\ud800'"),
        "ERROR: <input>:1:1: invalid unicode code point\n | '\\ud800'\n | ^"
    );
    assert_eq!(
        err(r"b'\u0041'"),
        "ERROR: <input>:1:1: unable to unescape string\n | b'\\u0041'\n | ^"
    );
    assert!(err(r"'\q'").starts_with("ERROR: <input>:1:1: Syntax error: token recognition error at: ''\\q'"));
}

#[test]
fn size_limit() {
    let opts = ParserOptions {
        expression_size_code_point_limit: 5,
        ..ParserOptions::default()
    };
    assert_eq!(
        parse_with("123456", &opts).unwrap_err().to_string(),
        "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 6, limit 5"
    );
    assert!(
        parse_with("'éé'", &opts).is_ok(),
        "the limit counts code points, not bytes"
    );
    let big = format!("'{}'", "a".repeat(100_000));
    assert_eq!(
        parse(&big).unwrap_err().to_string(),
        "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100002, limit 100000"
    );
}

#[test]
fn recursion_limits() {
    let opts = ParserOptions {
        max_recursion_depth: 5,
        ..ParserOptions::default()
    };
    let check = |src: &str| parse_with(src, &opts).map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(check("((((1))))"), Ok(()));
    assert_eq!(
        check("(((((1)))))"),
        Err("ERROR: <input>:-1:0: expression recursion limit exceeded: 5".into())
    );
    assert_eq!(check("a.b.c.d.e.f"), Ok(()));
    assert_eq!(
        check("a.b.c.d.e.f.g"),
        Err("ERROR: <input>:-1:0: max recursion depth exceeded".into())
    );
    assert_eq!(
        check("1 + 2 + 3 + 4 + 5 + 6 + 7"),
        Err("ERROR: <input>:-1:0: max recursion depth exceeded".into())
    );
    assert_eq!(check("a && b && c && d && e && f && g && h"), Ok(()));
    // Kubernetes' default limit is cel-go's: 250.
    let nested = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    assert!(parse(&nested(249)).is_ok());
    assert_eq!(
        parse(&nested(250)).unwrap_err().to_string(),
        "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"
    );
    let chain = |n: usize| format!("a{}", ".b".repeat(n));
    assert!(parse(&chain(250)).is_ok());
    assert_eq!(
        parse(&chain(251)).unwrap_err().to_string(),
        "ERROR: <input>:-1:0: max recursion depth exceeded"
    );
    // Very long chains are rejected without building deep trees.
    assert!(parse(&chain(40_000)).is_err());
    assert!(parse(&format!("1{}", "+1".repeat(40_000))).is_err());
}

#[test]
fn error_reporting_limit() {
    let opts = ParserOptions {
        error_reporting_limit: 2,
        ..ParserOptions::default()
    };
    let text = parse_with("'3# < 10\" '& tru ^^", &opts).unwrap_err().to_string();
    assert_eq!(
        text,
        "ERROR: <input>:1:12: Syntax error: token recognition error at: '& '\n | '3# < 10\" '& tru ^^\n | ...........^\n\
         ERROR: <input>:1:18: Syntax error: token recognition error at: '^'\n | '3# < 10\" '& tru ^^\n | .................^\n\
         ERROR: <input>:1:19: Syntax error: More than 2 syntax errors\n | '3# < 10\" '& tru ^^\n | ..................^"
    );
    // Many errors: at most 100 syntax errors are reported.
    let text = parse(&"@".repeat(300)).unwrap_err().to_string();
    assert_eq!(text.matches("ERROR:").count(), 100);
    assert!(text.ends_with("1 more errors were truncated"));
}

#[test]
fn errors_keep_their_positions() {
    let e = parse("a +\n  ").unwrap_err();
    let first = &e.errors()[0];
    assert_eq!((first.location.line, first.location.column), (2, 2));
    assert_eq!(first.offset, Some(6));
    assert!(first.message.starts_with("Syntax error: mismatched input '<EOF>'"));
    assert_eq!(e.len(), 1);
}
