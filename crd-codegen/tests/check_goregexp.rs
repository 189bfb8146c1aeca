//! Go `regexp.Compile` syntax check (`crd_codegen::check::goregexp`) against answers
//! recorded from Go 1.27's `regexp.Compile` for each pattern.
//!
//! `GO_REGEXP_ORACLE=<file>` additionally compares every line of a file of
//! `<Go-quoted pattern>\t<Ok | Go-quoted error>` lines (produced by a small Go program
//! calling `regexp.Compile`), e.g. thousands of random patterns.

use crd_codegen::check::goregexp::compile;

/// `(pattern, Go's error)` as printed by Go 1.27.
const CASES: &[(&str, Option<&str>)] = &[
    (r#"abc"#, None),
    (
        r#"a**"#,
        Some(r#"error parsing regexp: invalid nested repetition operator: `**`"#),
    ),
    (
        r#"a*?*"#,
        Some(r#"error parsing regexp: invalid nested repetition operator: `*?*`"#),
    ),
    (
        r#"a*??"#,
        Some(r#"error parsing regexp: invalid nested repetition operator: `*??`"#),
    ),
    (
        r#"a++"#,
        Some(r#"error parsing regexp: invalid nested repetition operator: `++`"#),
    ),
    (
        r#"a?*"#,
        Some(r#"error parsing regexp: invalid nested repetition operator: `?*`"#),
    ),
    (
        r#"a{2}{3}"#,
        Some(r#"error parsing regexp: invalid nested repetition operator: `{2}{3}`"#),
    ),
    (
        r#"a{2}*"#,
        Some(r#"error parsing regexp: invalid nested repetition operator: `{2}*`"#),
    ),
    (
        r#"a*{2}"#,
        Some(r#"error parsing regexp: invalid nested repetition operator: `*{2}`"#),
    ),
    (
        r#"a{1001}"#,
        Some(r#"error parsing regexp: invalid repeat count: `{1001}`"#),
    ),
    (r#"a{1000}"#, None),
    (
        r#"a{2,1}"#,
        Some(r#"error parsing regexp: invalid repeat count: `{2,1}`"#),
    ),
    (r#"a{,5}"#, None),
    (r#"a{2,}"#, None),
    (
        r#"a{100000000}"#,
        Some(r#"error parsing regexp: invalid repeat count: `{100000000}`"#),
    ),
    (
        r#"a{99999999}"#,
        Some(r#"error parsing regexp: invalid repeat count: `{99999999}`"#),
    ),
    (r#"a{01}"#, None),
    (
        r#"(a{10}){200}"#,
        Some(r#"error parsing regexp: invalid repeat count: `{200}`"#),
    ),
    (r#"(a{10}){100}"#, None),
    (
        r#"((a{2}){2}){251}"#,
        Some(r#"error parsing regexp: invalid repeat count: `{251}`"#),
    ),
    (
        r#"*"#,
        Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
    ),
    (
        r#"+a"#,
        Some(r#"error parsing regexp: missing argument to repetition operator: `+`"#),
    ),
    (
        r#"?"#,
        Some(r#"error parsing regexp: missing argument to repetition operator: `?`"#),
    ),
    (
        r#"(*)"#,
        Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
    ),
    (
        r#"(|*)"#,
        Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
    ),
    (
        r#"a|*"#,
        Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
    ),
    (r#"^*"#, None),
    (r#"$+"#, None),
    (r#"\b*"#, None),
    (r#"a(?i)*"#, None),
    (
        r#"(?i)*"#,
        Some(r#"error parsing regexp: missing argument to repetition operator: `*`"#),
    ),
    (r#"()"#, None),
    (r#"(?:)*"#, None),
    (r#"("#, Some(r#"error parsing regexp: missing closing ): `(`"#)),
    (r#")"#, Some(r#"error parsing regexp: unexpected ): `)`"#)),
    (r#"a)"#, Some(r#"error parsing regexp: unexpected ): `a)`"#)),
    (r#"(a"#, Some(r#"error parsing regexp: missing closing ): `(a`"#)),
    (r#"((a)"#, Some(r#"error parsing regexp: missing closing ): `((a)`"#)),
    (r#"a|b)"#, Some(r#"error parsing regexp: unexpected ): `a|b)`"#)),
    (r#"[a"#, Some(r#"error parsing regexp: missing closing ]: `[a`"#)),
    (r#"[]"#, Some(r#"error parsing regexp: missing closing ]: `[]`"#)),
    (r#"[]a]"#, None),
    (r#"[^]a]"#, None),
    (r#"[a-]"#, None),
    (r#"[-a]"#, None),
    (
        r#"[z-a]"#,
        Some(r#"error parsing regexp: invalid character class range: `z-a`"#),
    ),
    (
        r#"[a-\d]"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\d`"#),
    ),
    (r#"[\d-z]"#, None),
    (r#"[a-z"#, Some(r#"error parsing regexp: missing closing ]: `[a-z`"#)),
    (r#"[[:alpha:]]"#, None),
    (
        r#"[[:foo:]]"#,
        Some(r#"error parsing regexp: invalid character class range: `[:foo:]`"#),
    ),
    (r#"[[:^alpha:]]"#, None),
    (
        r#"[[:alpha:]"#,
        Some(r#"error parsing regexp: missing closing ]: `[[:alpha:]`"#),
    ),
    (r#"[[:alpha]"#, None),
    (r#"\pL"#, None),
    (r#"\p{L}"#, None),
    (r#"\p{Greek}"#, None),
    (r#"\p{greek}"#, None),
    (r#"\p{Old_Italic}"#, None),
    (r#"\p{olditalic}"#, None),
    (r#"\p{Letter}"#, None),
    (r#"\p{Any}"#, None),
    (r#"\p{^Greek}"#, None),
    (r#"\P{^Greek}"#, None),
    (
        r#"\p{Foo}"#,
        Some(r#"error parsing regexp: invalid character class range: `\p{Foo}`"#),
    ),
    (
        r#"\p{}"#,
        Some(r#"error parsing regexp: invalid character class range: `\p{}`"#),
    ),
    (
        r#"\p"#,
        Some(r#"error parsing regexp: invalid character class range: `\p`"#),
    ),
    (
        r#"\p{L"#,
        Some(r#"error parsing regexp: invalid character class range: `\p{L`"#),
    ),
    (
        r#"\pX"#,
        Some(r#"error parsing regexp: invalid character class range: `\pX`"#),
    ),
    (
        r#"\p{Alphabetic}"#,
        Some(r#"error parsing regexp: invalid character class range: `\p{Alphabetic}`"#),
    ),
    (r#"\p{ASCII}"#, None),
    (r#"\p{lc}"#, None),
    (r#"\p{LC}"#, None),
    (r#"\p{Cn}"#, None),
    (r#"\p{Signwriting}"#, None),
    (r#"\z"#, None),
    (r#"\Z"#, Some(r#"error parsing regexp: invalid escape sequence: `\Z`"#)),
    (r#"\A"#, None),
    (r#"\C"#, Some(r#"error parsing regexp: invalid escape sequence: `\C`"#)),
    (r#"\Q*+?\E*"#, None),
    (r#"\Qabc"#, None),
    (r#"\<"#, None),
    (r#"\>"#, None),
    (
        r#"\u0041"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\u`"#),
    ),
    (
        r#"\u{41}"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\u`"#),
    ),
    (r#"\x41"#, None),
    (
        r#"\x4"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\x4`"#),
    ),
    (r#"\x"#, Some(r#"error parsing regexp: invalid escape sequence: `\x`"#)),
    (
        r#"\x{}"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\x{}`"#),
    ),
    (r#"\x{41}"#, None),
    (
        r#"\x{110000}"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\x{110000`"#),
    ),
    (r#"\x{10FFFF}"#, None),
    (
        r#"\x{zz}"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\x{z`"#),
    ),
    (
        r#"\xg1"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\xg1`"#),
    ),
    (r#"\0"#, None),
    (r#"\01"#, None),
    (r#"\012"#, None),
    (r#"\0123"#, None),
    (r#"\1"#, Some(r#"error parsing regexp: invalid escape sequence: `\1`"#)),
    (r#"\12"#, None),
    (r#"\18"#, Some(r#"error parsing regexp: invalid escape sequence: `\1`"#)),
    (r#"\8"#, Some(r#"error parsing regexp: invalid escape sequence: `\8`"#)),
    (r#"\a\f\t\n\r\v"#, None),
    (r#"\b"#, None),
    (
        r#"[\b]"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\b`"#),
    ),
    (r#"\_"#, None),
    (r#"\-"#, None),
    (r#"\/"#, None),
    (r#"\%"#, None),
    (r#"\e"#, Some(r#"error parsing regexp: invalid escape sequence: `\e`"#)),
    (r#"\é"#, Some(r#"error parsing regexp: invalid escape sequence: `\é`"#)),
    (
        r#"abc\"#,
        Some(r#"error parsing regexp: trailing backslash at end of expression: ``"#),
    ),
    (r#"[a\]"#, Some(r#"error parsing regexp: missing closing ]: `[a\]`"#)),
    (r#"(?i)abc"#, None),
    (r#"(?im-s:abc)"#, None),
    (
        r#"(?-)"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?-)`"#),
    ),
    (
        r#"(?i-)"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?i-)`"#),
    ),
    (r#"(?-i)"#, None),
    (r#"(?)"#, None),
    (
        r#"(?x)abc"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?x`"#),
    ),
    (r#"(?P<name>a)"#, None),
    (r#"(?<name>a)"#, None),
    (
        r#"(?P<na-me>a)"#,
        Some(r#"error parsing regexp: invalid named capture: `(?P<na-me>`"#),
    ),
    (
        r#"(?P<>a)"#,
        Some(r#"error parsing regexp: invalid named capture: `(?P<>`"#),
    ),
    (
        r#"(?P<name"#,
        Some(r#"error parsing regexp: invalid named capture: `(?P<name`"#),
    ),
    (
        r#"(?<name"#,
        Some(r#"error parsing regexp: invalid named capture: `(?<name`"#),
    ),
    (
        r#"(?'name'a)"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?'`"#),
    ),
    (
        r#"(?=a)"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?=`"#),
    ),
    (
        r#"(?!a)"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?!`"#),
    ),
    (
        r#"(?<=a)"#,
        Some(r#"error parsing regexp: invalid named capture: `(?<=a)`"#),
    ),
    (
        r#"(?<!a)"#,
        Some(r#"error parsing regexp: invalid named capture: `(?<!a)`"#),
    ),
    (
        r#"(?#comment)"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?#`"#),
    ),
    (
        r#"(?P=name)"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?P`"#),
    ),
    (
        r#"(?P"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?P`"#),
    ),
    (
        r#"(?"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?`"#),
    ),
    (
        r#"(?i"#,
        Some(r#"error parsing regexp: invalid or unsupported Perl syntax: `(?i`"#),
    ),
    (r#"(?:a|b|c)"#, None),
    (r#"a|b|c|"#, None),
    (r#"|"#, None),
    (r#"||"#, None),
    (r#"x{2}{,3}"#, None),
    (r#"[[:word:]]"#, None),
    (r#"[\p{Greek}]"#, None),
    (r#"[\pN]"#, None),
    (r#"[\P{^L}]"#, None),
    (
        r#"[\Q]\E]"#,
        Some(r#"error parsing regexp: invalid escape sequence: `\Q`"#),
    ),
    (r#"[a-b-c]"#, None),
    (r#"[--z]"#, None),
    (r#"[%--]"#, None),
    (r#"[a&&b]"#, None),
    (r#"[[a]b]"#, None),
    (
        r#"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"#,
        None,
    ),
    (
        r#"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"#,
        None,
    ),
    (r#"^(\d+)(\.\d+)?$"#, None),
    (r#"\d{1,3}"#, None),
    (r#"(?s).*"#, None),
    (r#"a{,}"#, None),
    (r#"a{1,2,3}"#, None),
    (r#"a{-1}"#, None),
    (r#"\pZ{2}"#, None),
];

#[test]
fn matches_go_regexp_compile() {
    let mut failures = Vec::new();
    for (pattern, want) in CASES {
        let got = compile(pattern).err().map(|e| e.to_string());
        if got.as_deref() != *want {
            failures.push(format!("{pattern:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Reads a Go-quoted string (the subset `strconv.Quote` produces for our inputs).
fn unquote_go(s: &str) -> String {
    let inner = &s[1..s.len() - 1];
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('v') => out.push('\u{b}'),
            Some('x') => {
                let h: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&h, 16).unwrap_or(b'?')));
            }
            Some('u') => {
                let h: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&h, 16).unwrap_or(63)).unwrap_or('?'));
            }
            Some(c) => out.push(c),
            None => {}
        }
    }
    out
}

#[test]
fn matches_go_oracle_file_if_given() {
    let Ok(path) = std::env::var("GO_REGEXP_ORACLE") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines() {
        let Some((p, r)) = line.split_once('\t') else { continue };
        let pattern = unquote_go(p);
        let want = (r != "Ok").then(|| unquote_go(r));
        let got = compile(&pattern).err().map(|e| e.to_string());
        n += 1;
        if got != want {
            failures.push(format!("{pattern:?}: got {got:?}, want {want:?}"));
        }
    }
    eprintln!("{n} patterns compared");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Go's limits: nesting depth (1000) and program size (3,355,443 instructions), with
/// the answers Go 1.27 gave for these patterns.
#[test]
fn limits_match_go() {
    let too_large = |p: &str| Some(format!("error parsing regexp: expression too large: `{p}`"));
    let cases: Vec<(String, Option<String>)> = vec![
        (format!("{}a{}", "(".repeat(999), ")".repeat(999)), None),
        (format!("{}a{}", "(?:".repeat(1500), ")".repeat(1500)), None),
        ("(?:(?:a{10}){10}){10}".into(), None),
        (
            "(?:(?:a{10}){10}){11}".into(),
            Some("error parsing regexp: invalid repeat count: `{11}`".into()),
        ),
        (
            "(?:a{1000}){1000}".into(),
            Some("error parsing regexp: invalid repeat count: `{1000}`".into()),
        ),
        (format!("({}){{1000}}", "abcdefghij".repeat(300)), None),
        (format!("{}{{1000}}", "(x|y|z)".repeat(10)), None),
    ];
    for (p, want) in cases {
        assert_eq!(compile(&p).err().map(|e| e.to_string()), want, "{p}");
    }
    let deep = format!("{}a{}", "(".repeat(1001), ")".repeat(1001));
    assert_eq!(
        compile(&deep).err().map(|e| e.to_string()),
        Some(format!("error parsing regexp: expression nests too deeply: `{deep}`"))
    );
    for p in [
        "(a{1000}b{1000}c{1000}d{1000}){1000}".to_string(),
        format!("({}){{1000}}", "abcdefghij".repeat(400)),
        "a{1000}".repeat(3400),
    ] {
        assert_eq!(compile(&p).err().map(|e| e.to_string()), too_large(&p));
    }
}
