//! Go `regexp` semantics through `crd_runtime::regex`: for each construct whose
//! meaning differs between Go and the `regex` crate, the first match Go's
//! `FindStringIndex` gives. The expectations follow Go's documented semantics and
//! the source of `regexp/syntax` (`parse.go`, `perl_groups.go`) and `unicode`
//! (`SimpleFold`); no Go toolchain is involved.

use crd_runtime::goregex::{self, Regexp};
use crd_runtime::regex::{Pattern, compile, find_all, translate};

/// `(Go pattern, input, Go's first match as (byte offset, text))`.
type Case = (&'static str, &'static str, Option<(usize, &'static str)>);

const CASES: &[Case] = &[
    // Perl classes are ASCII; Go's \s is [\t\n\f\r ] (no \v), POSIX [:space:] has \v.
    (r"\d", "٣", None),
    (r"\d+", "x42", Some((1, "42"))),
    (r"\D", "٣", Some((0, "٣"))),
    (r"\s", "\u{b}", None),
    (r"\s", "\u{c}", Some((0, "\u{c}"))),
    (r"\s", "\u{a0}", None),
    (r"\s", "\u{2003}", None),
    (r"\s", "\u{85}", None),
    (r"[\s]", "\r", Some((0, "\r"))),
    (r"\S", "\u{b}", Some((0, "\u{b}"))),
    (r"[[:space:]]", "\u{b}", Some((0, "\u{b}"))),
    (r"\w+", "aé_b", Some((0, "a"))),
    (r"\w", "é", None),
    (r"\W", "é", Some((0, "é"))),
    (r"[^\w]", "é", Some((0, "é"))),
    (r"[\w-]+", "ß-a", Some((2, "-a"))),
    (r"[\W\d]", "é", Some((0, "é"))),
    // \b and \B: ASCII word characters only.
    (r"\bé", "é", None),
    (r"a\b", "aé", Some((0, "a"))),
    (r"\bx\b", "éxé", Some((2, "x"))),
    (r"\Bé", " é", Some((1, "é"))),
    (r"x\B", "xé", None),
    (r"\B", "ab", Some((1, ""))),
    // POSIX classes: ASCII.
    (r"[[:alpha:]]+", "éab", Some((2, "ab"))),
    (r"[[:upper:]]", "É", None),
    (r"[[:^alpha:]]", "é", Some((0, "é"))),
    (r"[[:word:]]+", "a_1-", Some((0, "a_1"))),
    (r"[[:punct:]]+", "a!-~", Some((1, "!-~"))),
    (r"[[:^ascii:]]", "aé", Some((1, "é"))),
    (r"[[:xdigit:]]+", "xBEEFg", Some((1, "BEEF"))),
    (r"[[:cntrl:]]", "a\u{7f}", Some((1, "\u{7f}"))),
    (r"[[:blank:]]", "\n\t", Some((1, "\t"))),
    // Case folding is Go's simple folding: K k U+212A (Kelvin), S s U+017F (long s).
    (r"(?i)k", "\u{212A}", Some((0, "\u{212A}"))),
    (r"(?i)\x{212A}", "k", Some((0, "k"))),
    (r"(?i)s", "ſ", Some((0, "ſ"))),
    (r"(?i)ſ", "S", Some((0, "S"))),
    (r"k", "\u{212A}", None),
    (r"(?i)\w", "\u{212A}", Some((0, "\u{212A}"))),
    (r"\w", "\u{212A}", None),
    (r"(?i)\W", "\u{212A}", None),
    (r"(?i)\W", "ſ", None),
    (r"\W", "\u{212A}", Some((0, "\u{212A}"))),
    (r"(?i)[\W\d]", "ſ", None),
    (r"(?i)[[:alpha:]]", "ſ", Some((0, "ſ"))),
    (r"(?i)[[:upper:]]+", "ab", Some((0, "ab"))),
    (r"(?i)[[:^upper:]]", "a", None),
    (r"(?i)[^k]", "\u{212A}", None),
    (r"(?i)[^k]", "K", None),
    (r"(?i)[a-z]+", "ABC", Some((0, "ABC"))),
    (r"(?i)σ", "ς", Some((0, "ς"))),
    (r"(?i)Σ+", "σςΣ", Some((0, "σςΣ"))),
    (r"(?i)i", "İ", None),
    (r"(?i)ı", "I", None),
    (r"(?i)ǅ", "ǆ", Some((0, "ǆ"))),
    (r"(?i)\p{Lu}", "a", Some((0, "a"))),
    (r"\p{Lu}", "a", None),
    (r"(?i)\p{ASCII}", "\u{212A}", Some((0, "\u{212A}"))),
    (r"(?i)\P{ASCII}", "\u{212A}", None),
    (r"\P{ASCII}", "\u{212A}", Some((0, "\u{212A}"))),
    (r"(?i)\P{Greek}", "µ", None),
    (r"(?i)abc", "xAbC", Some((1, "AbC"))),
    (r"(?i:a)b", "AB", None),
    (r"(?i:a)b", "Ab", Some((0, "Ab"))),
    (r"a(?i)b|c", "aB", Some((0, "aB"))),
    (r"a(?i)b|c", "C", Some((0, "C"))),
    (r"(?i)a(?-i)b", "Ab", Some((0, "Ab"))),
    (r"(?i)a(?-i)b", "AB", None),
    (r"(a(?i)b)c", "aBC", None),
    (r"(a(?i)b)c", "aBc", Some((0, "aBc"))),
    // Single-character alternatives merged into one class keep their own folding.
    (r"a|(?i:b)", "B", Some((0, "B"))),
    (r"a|(?i:b)", "A", None),
    (r"x|y|[0-9]|.", "\n", None),
    (r"x|(?s:.)", "\n", Some((0, "\n"))),
    // `.` and newlines.
    (r".", "\n", None),
    (r"(?s).", "\n", Some((0, "\n"))),
    (r".", "\r", Some((0, "\r"))),
    (r"[^a]", "\n", Some((0, "\n"))),
    (r"(?s:.)(?-s:.)", "\n\n", None),
    // `$` is the end of the text (no "before a final newline"), `^` the start.
    (r"a$", "a\n", None),
    (r"a$", "a", Some((0, "a"))),
    (r"(?m)a$", "a\nb", Some((0, "a"))),
    (r"(?m)^b", "a\nb", Some((2, "b"))),
    (r"^b", "a\nb", None),
    (r"(?m)^$", "a\n\nb", Some((2, ""))),
    (r"(?m)^", "a\n", Some((0, ""))),
    (r"(?m)(?-m)^b", "a\nb", None),
    (r"\Aa", "ba", None),
    (r"a\z", "a\n", None),
    (r"(?m)a\z", "a\nb", None),
    (r"(?m)\Ab", "a\nb", None),
    // \Q...\E.
    (r"\Q.*\E", "a.*b", Some((1, ".*"))),
    (r"\Qa.b", "axb", None),
    (r"\Qa.b", "a.b", Some((0, "a.b"))),
    (r"\Q*+?\E*", "*+??", Some((0, "*+??"))),
    (r"(?i)\Qab\E", "AB", Some((0, "AB"))),
    // Escapes.
    (r"\101", "A", Some((0, "A"))),
    (r"\0", "\0", Some((0, "\0"))),
    (r"\012", "\n", Some((0, "\n"))),
    (r"\0123", "\n3", Some((0, "\n3"))),
    (r"\x41\x{1F600}", "A😀", Some((0, "A😀"))),
    (
        r"\a\f\t\n\r\v",
        "\u{7}\u{c}\t\n\r\u{b}",
        Some((0, "\u{7}\u{c}\t\n\r\u{b}")),
    ),
    (r"[\x{D7FF}-\x{E000}]", "\u{E000}", Some((0, "\u{E000}"))),
    (r"\x{D800}|b", "b", Some((0, "b"))),
    (r"[\x{D800}-\x{DFFF}]", "\u{FFFD}", None),
    (r"[^\x00-\x{10FFFF}]", "a", None),
    (r"\_\-\/\%\#\&\~", "_-/%#&~", Some((0, "_-/%#&~"))),
    (r"[\-\]\\]+", r"a-]\", Some((1, r"-]\"))),
    (r"[]a]+", "a]", Some((0, "a]"))),
    (r"[^]a]", "]ab", Some((2, "b"))),
    (r"[a-]+", "-a", Some((0, "-a"))),
    (r"[a&&b]+", "&ab", Some((0, "&ab"))),
    (r"[[a]+", "[a", Some((0, "[a"))),
    (r"[a~~b]+", "~", Some((0, "~"))),
    (r"[--z]+", "-z", Some((0, "-z"))),
    (r"#", "#", Some((0, "#"))),
    (r"a b", "a b", Some((0, "a b"))),
    // Repetition: counts, `{` as a literal, non-greedy, (?U).
    (r"a{2,3}", "aaaa", Some((0, "aaa"))),
    (r"a{2,3}?", "aaaa", Some((0, "aa"))),
    (r"(?U)a{2,3}", "aaaa", Some((0, "aa"))),
    (r"(?U)a{2,3}?", "aaaa", Some((0, "aaa"))),
    (r"(?U)a+", "aaa", Some((0, "a"))),
    (r"(?U)a*?", "aaa", Some((0, "aaa"))),
    (r"(?U:a+)a+", "aaa", Some((0, "aaa"))),
    (r"a*?", "aaa", Some((0, ""))),
    (r"a+?", "aaa", Some((0, "a"))),
    (r"a??b", "ab", Some((0, "ab"))),
    (r"a{2,}", "aaaa", Some((0, "aaaa"))),
    (r"a{,3}", "a{,3}", Some((0, "a{,3}"))),
    (r"x{2}{,3}", "xx{,3}", Some((0, "xx{,3}"))),
    (r"a{1,2,3}", "a{1,2,3}", Some((0, "a{1,2,3}"))),
    (r"a{-1}", "a{-1}", Some((0, "a{-1}"))),
    (r"a{01}", "a{01}", Some((0, "a{01}"))),
    (r"a{", "a{", Some((0, "a{"))),
    (r"{}", "{}", Some((0, "{}"))),
    (r"a{0}", "a", Some((0, ""))),
    (r"(a){0}b", "ab", Some((1, "b"))),
    (r"(?:ab){2}", "abab", Some((0, "abab"))),
    (r"ab{2}", "abab", None),
    (r"(|a)*", "aa", Some((0, ""))),
    (r"(|a)+", "aa", Some((0, ""))),
    (r"(a|ab)(c|bcd)(d*)", "abcd", Some((0, "abcd"))),
    (r"^*a", "a", Some((0, "a"))),
    (r"$+", "ab", Some((2, ""))),
    (r"\b*x", "x", Some((0, "x"))),
    (r"a(?i)*", "aa", Some((0, "aa"))),
    (r"(?:)*x", "x", Some((0, "x"))),
    // Alternation is leftmost-first in both.
    (r"a|ab", "ab", Some((0, "a"))),
    (r"ab|a", "ab", Some((0, "ab"))),
    (r"|a", "a", Some((0, ""))),
    (r"a|", "b", Some((0, ""))),
    (r"(?:a|b)c|d", "bc", Some((0, "bc"))),
    // Groups and names, including names the regex crate would refuse.
    (r"(?P<n>a)(?<m>b)", "ab", Some((0, "ab"))),
    (r"(?P<1>x)", "x", Some((0, "x"))),
    (r"(?P<a>x)|(?P<a>y)", "y", Some((0, "y"))),
    (r"(?)a", "a", Some((0, "a"))),
    (r"()", "a", Some((0, ""))),
    // Unicode classes: Go's names, case-insensitive, with aliases.
    (r"\pL+", "1héllo1", Some((1, "héllo"))),
    (r"\p{Greek}+", "abγδ", Some((2, "γδ"))),
    (r"\p{greek}", "γ", Some((0, "γ"))),
    (r"\p{Old_Italic}", "\u{10300}", Some((0, "\u{10300}"))),
    (r"\p{olditalic}", "\u{10300}", Some((0, "\u{10300}"))),
    (r"\PL", "a1", Some((1, "1"))),
    (r"\p{^L}", "a1", Some((1, "1"))),
    (r"\P{^L}", "1a", Some((1, "a"))),
    (r"[^\P{L}]", "1a", Some((1, "a"))),
    (r"\p{Letter}", "x", Some((0, "x"))),
    (r"\p{Lc}", "ǅ", Some((0, "ǅ"))),
    (r"\p{Cased_Letter}", "ǅ", Some((0, "ǅ"))),
    (r"\p{Lt}", "ǅ", Some((0, "ǅ"))),
    (r"\p{Assigned}", "\u{378}", None),
    (r"\p{Cn}", "\u{378}", Some((0, "\u{378}"))),
    (r"\p{Unassigned}", "a", None),
    (r"\p{Any}", "\n", Some((0, "\n"))),
    (r"\P{Any}", "\n", None),
    (r"\p{ASCII}", "é", None),
    (r"\p{ascii}+", "ab", Some((0, "ab"))),
    (r"\pN", "½", Some((0, "½"))),
    (r"\p{Nd}", "½", None),
    (r"\p{digit}", "٣", Some((0, "٣"))),
    (r"\p{Decimal_Number}", "٣", Some((0, "٣"))),
    (r"\p{punct}", "¿", Some((0, "¿"))),
    (r"\p{cntrl}", "\u{85}", Some((0, "\u{85}"))),
    (r"[\p{Greek}\d]+", "xα1β", Some((1, "α1β"))),
    (r"\p{Han}", "中", Some((0, "中"))),
    (r"\pZ{2}", "a \u{3000}", Some((1, " \u{3000}"))),
    (r"\p{Zs}", "\u{a0}", Some((0, "\u{a0}"))),
    (r"\p{Sidetic}", "a", None),
    (r"\P{Sidetic}", "a", Some((0, "a"))),
];

fn first_match(pattern: &str, input: &str) -> Option<(usize, String)> {
    let re = compile(pattern).unwrap_or_else(|e| panic!("{pattern:?}: {e}"));
    re.find(input).map(|m| (m.start(), m.as_str().to_string()))
}

#[test]
fn matches_like_go() {
    let mut failures = Vec::new();
    for &(pattern, input, want) in CASES {
        let got = first_match(pattern, input);
        let want = want.map(|(i, s)| (i, s.to_string()));
        if got != want {
            failures.push(format!(
                "{pattern:?} on {input:?}: got {got:?}, want {want:?} (translated: {:?})",
                translate(pattern)
            ));
        }
        let re = compile(pattern).unwrap();
        assert_eq!(re.is_match(input), want.is_some(), "{pattern:?} on {input:?}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn capture_groups_keep_gos_numbering_and_names() {
    let p = r"(a)(?:b)(?P<x>c)((?<y>d)|e)(?P<1>f)(?P<x>g)";
    let tree = goregex::parse(p).unwrap();
    assert_eq!(tree.max_capture(), 6);
    assert_eq!(tree.capture_names(), ["", "", "x", "", "y", "1", "x"]);
    let re = compile(p).unwrap();
    assert_eq!(re.captures_len(), 7);
    let caps = re.captures("abcdfg").unwrap();
    let got: Vec<_> = (0..7).map(|i| caps.get(i).map(|m| m.as_str())).collect();
    assert_eq!(
        got,
        [
            Some("abcdfg"),
            Some("a"),
            Some("c"),
            Some("d"),
            Some("d"),
            Some("f"),
            Some("g")
        ]
    );
    assert_eq!(caps.name("x").map(|m| m.as_str()), Some("c"));
    assert_eq!(caps.name("y").map(|m| m.as_str()), Some("d"));
}

#[test]
fn tree_has_gos_ops_and_flags() {
    use Regexp::*;
    let lit = |c: char, fold: bool| Literal { rune: c as u32, fold };
    assert_eq!(
        goregex::parse(r"^a.$").unwrap(),
        Concat(vec![
            BeginText,
            lit('a', false),
            AnyCharNotNL,
            EndText { was_dollar: true }
        ])
    );
    assert_eq!(
        goregex::parse(r"(?ms)^.$\z").unwrap(),
        Concat(vec![BeginLine, AnyChar, EndLine, EndText { was_dollar: false }])
    );
    assert_eq!(
        goregex::parse(r"(?i)a(?-i:b)*?").unwrap(),
        Concat(vec![
            lit('a', true),
            Star {
                greedy: false,
                sub: Box::new(lit('b', false))
            }
        ])
    );
    assert_eq!(
        goregex::parse(r"(?U)x{2,}\b\B").unwrap(),
        Concat(vec![
            Repeat {
                min: 2,
                max: None,
                greedy: false,
                sub: Box::new(lit('x', false))
            },
            WordBoundary,
            NoWordBoundary
        ])
    );
    assert_eq!(
        goregex::parse(r"(?P<n>)|a").unwrap(),
        Alternate(vec![
            Capture {
                index: 1,
                name: Some("n".into()),
                sub: Box::new(EmptyMatch)
            },
            lit('a', false)
        ])
    );
    assert!(matches!(goregex::parse(r"[a-c]").unwrap(), CharClass(_)));
}

#[test]
fn errors_are_gos() {
    for (p, e) in [
        ("[a", "error parsing regexp: missing closing ]: `[a`"),
        ("a**", "error parsing regexp: invalid nested repetition operator: `**`"),
        (r"\8", "error parsing regexp: invalid escape sequence: `\\8`"),
        (
            "(?x)",
            "error parsing regexp: invalid or unsupported Perl syntax: `(?x`",
        ),
        (
            r"\p{Foo}",
            "error parsing regexp: invalid character class range: `\\p{Foo}`",
        ),
        ("a{1001}", "error parsing regexp: invalid repeat count: `{1001}`"),
        ("x)", "error parsing regexp: unexpected ): `x)`"),
    ] {
        assert_eq!(compile(p).unwrap_err(), e);
        assert_eq!(translate(p).unwrap_err().to_string(), e);
        assert_eq!(Pattern::from_string(p.to_string()).regex().unwrap_err(), e);
    }
}

/// Every pattern Go accepts in `crd-codegen/tests/check_goregexp.rs` compiles here.
#[test]
fn go_accepted_patterns_compile() {
    let patterns = [
        "abc",
        "a{1000}",
        "a{,5}",
        "a{2,}",
        "a{01}",
        "(a{10}){100}",
        "^*",
        "$+",
        r"\b*",
        "a(?i)*",
        "()",
        "(?:)*",
        "[]a]",
        "[^]a]",
        "[a-]",
        "[-a]",
        r"[\d-z]",
        "[[:alpha:]]",
        "[[:^alpha:]]",
        "[[:alpha]",
        r"\pL",
        r"\p{L}",
        r"\p{Greek}",
        r"\p{greek}",
        r"\p{Old_Italic}",
        r"\p{olditalic}",
        r"\p{Letter}",
        r"\p{Any}",
        r"\p{^Greek}",
        r"\P{^Greek}",
        r"\p{ASCII}",
        r"\p{lc}",
        r"\p{LC}",
        r"\p{Cn}",
        r"\p{Signwriting}",
        r"\z",
        r"\A",
        r"\Q*+?\E*",
        r"\Qabc",
        r"\<",
        r"\>",
        r"\x41",
        r"\x{41}",
        r"\x{10FFFF}",
        r"\0",
        r"\01",
        r"\012",
        r"\0123",
        r"\12",
        r"\a\f\t\n\r\v",
        r"\b",
        r"\_",
        r"\-",
        r"\/",
        r"\%",
        "(?i)abc",
        "(?im-s:abc)",
        "(?-i)",
        "(?)",
        "(?P<name>a)",
        "(?<name>a)",
        "(?:a|b|c)",
        "a|b|c|",
        "|",
        "||",
        "x{2}{,3}",
        "[[:word:]]",
        r"[\p{Greek}]",
        r"[\pN]",
        r"[\P{^L}]",
        "[a-b-c]",
        "[--z]",
        "[%--]",
        "[a&&b]",
        "[[a]b]",
        r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
        r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
        r"^(\d+)(\.\d+)?$",
        r"\d{1,3}",
        "(?s).*",
        "a{,}",
        "a{1,2,3}",
        "a{-1}",
        r"\pZ{2}",
        "(?:(?:a{10}){10}){10}",
    ];
    for p in patterns {
        goregex::check(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        compile(p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
    }
}

/// Every Unicode table name Go knows compiles (the regex crate knows the name).
#[test]
fn all_unicode_names_compile() {
    let mut names: Vec<String> = Vec::new();
    for n in [
        "Any", "Assigned", "ASCII", "LC", "Lc", "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu",
        "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk",
        "Sm", "So", "Z", "Zl", "Zp", "Zs",
    ] {
        names.push(n.to_string());
    }
    // Go 1.27's `unicode.Scripts` and `unicode.CategoryAliases` keys.
    for n in SCRIPTS_AND_ALIASES {
        names.push(n.to_string());
    }
    for n in &names {
        let p = format!(r"\p{{{n}}}");
        compile(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
    for n in ["Greek", "Lu", "Cs", "Sidetic", "Assigned", "ASCII", "Any", "Zs"] {
        for p in [format!(r"(?i)[^\P{{{n}}}x]"), format!(r"\P{{^{n}}}")] {
            compile(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
        }
    }
}

const SCRIPTS_AND_ALIASES: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Beria_Erfe",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Garay",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Gurung_Khema",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Kirat_Rai",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Ol_Onal",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "Sidetic",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Sunuwar",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Tai_Yo",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Todhri",
    "Tolong_Siki",
    "Toto",
    "Tulu_Tigalari",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
    "Cased_Letter",
    "Close_Punctuation",
    "Combining_Mark",
    "Connector_Punctuation",
    "Control",
    "Currency_Symbol",
    "Dash_Punctuation",
    "Decimal_Number",
    "Enclosing_Mark",
    "Final_Punctuation",
    "Format",
    "Initial_Punctuation",
    "Letter",
    "Letter_Number",
    "Line_Separator",
    "Lowercase_Letter",
    "Mark",
    "Math_Symbol",
    "Modifier_Letter",
    "Modifier_Symbol",
    "Nonspacing_Mark",
    "Number",
    "Open_Punctuation",
    "Other",
    "Other_Letter",
    "Other_Number",
    "Other_Punctuation",
    "Other_Symbol",
    "Paragraph_Separator",
    "Private_Use",
    "Punctuation",
    "Separator",
    "Space_Separator",
    "Spacing_Mark",
    "Surrogate",
    "Symbol",
    "Titlecase_Letter",
    "Unassigned",
    "Uppercase_Letter",
    "cntrl",
    "digit",
    "punct",
];

/// Go's nesting limit (1000 levels) compiles, also on a test thread's small stack.
#[test]
fn deep_nesting_compiles() {
    let deep = format!("{}a{}", "(".repeat(999), ")".repeat(999));
    let re = compile(&deep).unwrap();
    assert!(re.is_match("a"));
    let stars = format!("{}a{}", "(?:".repeat(500), ")*".repeat(500));
    assert!(compile(&stars).unwrap().is_match("aaa"));
    let alts = format!("{}a{}", "(b|".repeat(400), ")".repeat(400));
    assert_eq!(compile(&alts).unwrap().find("xa").map(|m| m.start()), Some(1));
}

#[test]
fn find_all_drops_empty_matches_after_a_match() {
    let re = compile("a*").unwrap();
    let got: Vec<_> = find_all(&re, "baaab", -1)
        .into_iter()
        .map(|r| (r.start, r.end))
        .collect();
    assert_eq!(got, [(0, 0), (1, 4), (5, 5)]);
}
