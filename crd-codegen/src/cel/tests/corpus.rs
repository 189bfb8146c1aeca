//! Whole-corpus tests: the cel-spec conformance expressions, every CEL rule of the
//! CRD corpus, and random inputs (no panics, printer round trips).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use yaml_rust2::{Yaml, YamlLoader};

use crate::cel::{ParseErrors, parse};

const CEL_SPEC_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/cel-spec");
const CRD_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/crds");

/// cel-spec tests (file, section, test) whose expression does not parse with the
/// Kubernetes macro set, and why.
///
/// No test of the suite expects a parse error (`parse.json` has no `eval_error`
/// test; the `eval_error` tests elsewhere fail at run time). But the `block_ext` tests
/// that use macros inside `cel.block(...)` name their iteration variables
/// `cel.iterVar(depth, n)`: cel-go's conformance runner registers a test-only macro
/// rewriting that call into an identifier. Without it (in Kubernetes, and in cel-go's
/// real environments) `exists(cel.iterVar(0, 0), …)` is rejected with
/// `argument must be a simple name`, and so it is here.
const CEL_SPEC_EXPECTED_FAILURES: &[(&str, &str, &str)] = &[
    ("block_ext", "basic", "multiple_macros_1"),
    ("block_ext", "basic", "multiple_macros_2"),
    ("block_ext", "basic", "multiple_macros_3"),
    ("block_ext", "basic", "nested_macros_1"),
    ("block_ext", "basic", "nested_macros_2"),
    ("block_ext", "basic", "adjacent_macros"),
    ("block_ext", "basic", "macro_shadowed_variable_1"),
    ("block_ext", "basic", "macro_shadowed_variable_2"),
];

#[test]
fn cel_spec_expressions_parse() {
    let dir = Path::new(CEL_SPEC_DIR);
    if !dir.is_dir() {
        println!("skipped: {} does not exist", dir.display());
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable cel-spec directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut total = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable cel-spec file");
        let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let file = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let mut parsed = 0;
        let mut expected_failures = 0;
        for section in json["sections"].as_array().into_iter().flatten() {
            for test in section["tests"].as_array().into_iter().flatten() {
                let (Some(name), Some(expr)) = (test["name"].as_str(), test["expr"].as_str()) else {
                    continue;
                };
                let section_name = section["name"].as_str().unwrap_or_default();
                let expected_to_fail = CEL_SPEC_EXPECTED_FAILURES
                    .iter()
                    .any(|(f, s, t)| *f == file && *s == section_name && *t == name);
                match (parse(expr), expected_to_fail) {
                    (Ok(_), false) => parsed += 1,
                    (Err(_), true) => expected_failures += 1,
                    (Ok(_), true) => failures.push(format!("{file}/{section_name}/{name}: parsed, expected an error")),
                    (Err(e), false) => failures.push(format!("{file}/{section_name}/{name}: {expr:?}\n{e}")),
                }
            }
        }
        total += parsed;
        println!("{file}: {parsed} parsed, {expected_failures} rejected as expected");
    }
    println!("cel-spec: {total} expressions parsed in {} files", files.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every `rule` and `messageExpression` under an `x-kubernetes-validations` list.
fn collect_rules(node: &Yaml, out: &mut Vec<String>) {
    match node {
        Yaml::Hash(hash) => {
            for (key, value) in hash {
                if key.as_str() == Some("x-kubernetes-validations")
                    && let Yaml::Array(items) = value
                {
                    for item in items {
                        for field in ["rule", "messageExpression"] {
                            if let Some(rule) = item[field].as_str() {
                                out.push(rule.to_string());
                            }
                        }
                    }
                }
                collect_rules(value, out);
            }
        }
        Yaml::Array(items) => items.iter().for_each(|i| collect_rules(i, out)),
        _ => {}
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

/// The CEL rules of the CRD corpus (empty when the corpus is absent), loaded once.
fn corpus_rules() -> &'static [String] {
    static RULES: OnceLock<Vec<String>> = OnceLock::new();
    RULES.get_or_init(load_corpus_rules)
}

fn load_corpus_rules() -> Vec<String> {
    let mut files = Vec::new();
    yaml_files(Path::new(CRD_DIR), &mut files);
    files.sort();
    let mut rules = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable CRD file");
        if !text.contains("x-kubernetes-validations") {
            continue;
        }
        let docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for doc in &docs {
            collect_rules(doc, &mut rules);
        }
    }
    rules
}

#[test]
fn crd_corpus_rules_parse() {
    if !Path::new(CRD_DIR).is_dir() {
        println!("skipped: {CRD_DIR} does not exist");
        return;
    }
    let rules = corpus_rules();
    let mut failures = Vec::new();
    for rule in rules {
        match parse(rule) {
            Ok(p) => {
                // The printer's output parses back to the same text.
                let printed = p.to_string();
                match parse(&printed) {
                    Ok(again) if again.to_string() == printed => {}
                    other => failures.push(format!("{rule:?} printed as {printed:?}: {other:?}")),
                }
            }
            Err(e) => failures.push(format!("{rule:?}\n{e}")),
        }
    }
    println!("CRD corpus: {} CEL rules parsed", rules.len() - failures.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        rules.len() >= 2483,
        "expected at least 2,483 rules in the corpus, found {}",
        rules.len()
    );
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Parses without panicking; checks that errors print and valid trees print back to
/// CEL that parses again.
fn check_total(src: &str) {
    match parse(src) {
        Ok(p) => {
            let printed = p.to_string();
            if let Err(e) = parse(&printed) {
                panic!("{src:?} printed as {printed:?}, which does not parse:\n{e}");
            }
        }
        Err(e) => {
            let e: ParseErrors = e;
            let text = e.to_string();
            assert!(text.starts_with("ERROR: <input>:"), "{src:?}: {text}");
            assert!(!e.is_empty());
        }
    }
}

#[test]
fn random_inputs_never_panic() {
    const TOKENS: &[&str] = &[
        "a",
        "b",
        "self",
        "1",
        "0x1F",
        "2u",
        "1.5",
        "1e3",
        "'s'",
        "\"d\"",
        "b'x'",
        "r'\\d'",
        "'''t'''",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ".",
        ".?",
        "[?",
        ",",
        ":",
        "?",
        "!",
        "-",
        "+",
        "*",
        "/",
        "%",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "&&",
        "||",
        " in ",
        "has(",
        ".all(",
        ".map(",
        ".exists_one(",
        ".transformMap(",
        ".optMap(",
        ".sortBy(",
        "true",
        "null",
        "`x-y`",
        "Msg{",
        "@",
        "\"\"\"",
        "'",
        "\\",
        "//c\n",
        " ",
        "\n",
        "\t",
        "😁",
        "é",
        "=",
        "&",
        "|",
        "#",
        "$",
        "var",
        "if",
        "__result__",
        "@result",
        "-9223372036854775808",
        "99999999999999999999",
        "1e999",
        "'\\ud800'",
        "'\\x4'",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..4000 {
        let len = rng.below(24);
        let src: String = (0..len).map(|_| TOKENS[rng.below(TOKENS.len())]).collect();
        check_total(&src);
    }
    // Random characters, including ones no token starts with.
    let chars: Vec<char> = "ab_019 .,:?![]{}()+-*/%<>=&|'\"`\\\nrRbBux\t#@😁é\u{0}\u{b}\u{feff}"
        .chars()
        .collect();
    for _ in 0..4000 {
        let len = rng.below(32);
        let src: String = (0..len).map(|_| chars[rng.below(chars.len())]).collect();
        check_total(&src);
    }
}

#[test]
fn truncated_and_mutated_rules_never_panic() {
    let fallback = [
        "self.all(x, has(x.name) && x.name.matches('^[a-z]+$'))".to_string(),
        "self.?spec.replicas.orValue(1) <= 10 ? true : oldSelf.size() == 0".to_string(),
    ];
    let rules = if corpus_rules().is_empty() {
        &fallback[..]
    } else {
        corpus_rules()
    };
    let mut rng = Rng(42);
    let mut count = 0;
    for rule in rules.iter().step_by(13) {
        // Every prefix.
        for (i, _) in rule.char_indices() {
            check_total(&rule[..i]);
            count += 1;
        }
        // A few single-character mutations.
        let chars: Vec<char> = rule.chars().collect();
        for _ in 0..5 {
            let mut mutated = chars.clone();
            let at = rng.below(mutated.len().max(1));
            match rng.below(3) {
                0 if !mutated.is_empty() => {
                    mutated.remove(at);
                }
                1 => mutated.insert(
                    at.min(mutated.len()),
                    "()[]{}.,'\"?:!-"[rng.below(14)..].chars().next().unwrap_or('.'),
                ),
                _ if !mutated.is_empty() => mutated[at] = ")]}'\"`.@ "[rng.below(9)..].chars().next().unwrap_or(' '),
                _ => {}
            }
            check_total(&mutated.into_iter().collect::<String>());
            count += 1;
        }
    }
    assert!(count > 0);
}
