//! Random patterns: the parser and translation never panic, everything Go's parser
//! accepts compiles, and on the syntax where Go and the `regex` crate agree the
//! translation matches exactly what the `regex` crate matches for the same text.

use crd_runtime::goregex;
use crd_runtime::regex::{compile, find_all};
use regex::Regex;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Pieces of Go syntax, valid and not, to glue together.
const TOKENS: &[&str] = &[
    "a",
    "b",
    "é",
    "K",
    "\u{212A}",
    "ſ",
    "0",
    " ",
    "\n",
    "(",
    ")",
    "(?:",
    "(?i)",
    "(?m)",
    "(?s)",
    "(?U)",
    "(?-i)",
    "(?i:",
    "(?P<n>",
    "(?<m>",
    "(?P<1>",
    "(?P<",
    "(?",
    "|",
    "*",
    "+",
    "?",
    "*?",
    "{2}",
    "{1,3}",
    "{,2}",
    "{2,}",
    "{1001}",
    "{0}",
    "[",
    "]",
    "[^",
    "-",
    "^",
    "$",
    "\\",
    "\\d",
    "\\D",
    "\\s",
    "\\W",
    "\\w",
    "\\b",
    "\\B",
    "\\pL",
    "\\p{Greek}",
    "\\P{L}",
    "\\p{^Lu}",
    "\\p{Foo}",
    "\\pX",
    "[:alpha:]",
    "[[:^digit:]]",
    "[:foo:]",
    ".",
    "\\Q",
    "\\E",
    "\\x{41}",
    "\\x{D800}",
    "\\x{110000}",
    "\\x4",
    "\\101",
    "\\8",
    "\\0",
    "{",
    "}",
    "\\z",
    "\\A",
    "\\C",
    "\\Z",
    "\\.",
    "\\-",
    "\\]",
    "&&",
    "~~",
    "--",
    "#",
];

const INPUTS: &[&str] = &[
    "",
    "a",
    "ab",
    "aab\nb",
    "é K\u{212A}ſs",
    "0a_b-c",
    "γδ x",
    "{2}",
    "AbC\n\n",
];

#[test]
fn random_patterns_never_panic_and_compile_when_go_accepts() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..4000 {
        let n = rng.below(10);
        let p: String = (0..n).map(|_| rng.pick(TOKENS)).collect();
        match goregex::parse(&p) {
            Ok(tree) => {
                accepted += 1;
                let _ = tree.capture_names();
                let re = compile(&p).unwrap_or_else(|e| panic!("{p:?}: Go accepts it but {e}"));
                for s in INPUTS {
                    let _ = re.find(s);
                    let _ = find_all(&re, s, -1);
                }
            }
            Err(e) => {
                rejected += 1;
                assert!(e.to_string().starts_with("error parsing regexp: "), "{p:?}: {e}");
                assert!(compile(&p).is_err());
            }
        }
    }
    assert!(
        accepted > 500 && rejected > 500,
        "accepted {accepted}, rejected {rejected}"
    );
}

#[test]
fn random_strings_never_panic() {
    let mut rng = Rng(42);
    let alphabet: Vec<char> = "()[]{}^$|*+?.\\-:,<>=!#&~PpQEiUmsxz0123456789abAKk é\u{212A}\n"
        .chars()
        .collect();
    for _ in 0..20000 {
        let n = rng.below(12);
        let p: String = (0..n).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        if goregex::parse(&p).is_ok() {
            compile(&p).unwrap_or_else(|e| panic!("{p:?}: Go accepts it but {e}"));
        }
    }
}

/// Syntax with one meaning in Go and in the `regex` crate: there the translation
/// must find the same matches and capture groups as the `regex` crate itself.
#[test]
fn translation_preserves_structure() {
    const SHARED: &[&str] = &[
        "a", "b", "c", ".", "[ab]", "[^a]", "[a-c]", "(?:", "(", ")", "|", "*", "+", "?", "*?", "+?", "??", "{2}",
        "{1,2}", "{0,}", "{0}", "^", "$", "\\n", "ab", "(?s)", "(?i)", "(?U)", "(?m)",
    ];
    const TEXTS: &[&str] = &[
        "", "a", "ab", "abc", "aabbcc", "ba\nab", "cab\n", "AbCa", "\n\na", "bbbaaac",
    ];
    let mut rng = Rng(7);
    let mut compared = 0;
    for _ in 0..6000 {
        let n = 1 + rng.below(9);
        let p: String = (0..n).map(|_| rng.pick(SHARED)).collect();
        let (Ok(ours), Ok(theirs)) = (compile(&p), Regex::new(&p)) else {
            continue;
        };
        compared += 1;
        for t in TEXTS {
            let (a, b) = (ours.captures(t), theirs.captures(t));
            let spans =
                |c: Option<regex::Captures>| c.map(|c| c.iter().map(|m| m.map(|m| m.range())).collect::<Vec<_>>());
            assert_eq!(
                spans(a),
                spans(b),
                "{p:?} on {t:?} (translated {:?})",
                goregex::translate(&p)
            );
            let all = |re: &Regex| re.find_iter(t).map(|m| m.range()).collect::<Vec<_>>();
            assert_eq!(all(&ours), all(&theirs), "{p:?} on {t:?}");
        }
    }
    assert!(compared > 1000, "compared {compared}");
}
