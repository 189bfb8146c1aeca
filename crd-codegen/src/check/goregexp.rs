//! Go's `regexp.Compile` syntax check (RE2 as implemented by Go's `regexp/syntax`),
//! for the structural-schema rule `pattern: must be a valid regular expression, but
//! isn't: <err>`.
//!
//! The parser is the runtime's ([`crd_runtime::goregex`], a port of Go's
//! `regexp/syntax/parse.go` with the `Perl` flags that `regexp.Compile` uses), so
//! the check here and the matching in generated code agree on every pattern. Errors
//! are Go's: ``error parsing regexp: <code>: `<offending text>` ``.
//!
//! Known approximations (only pathological patterns can tell): Go's size limit
//! (`expression too large`, 3,355,443 instructions) is computed without Go's
//! factoring of common alternation prefixes (so a huge alternation may be reported
//! as too large where Go factors it below the limit), and checked when repetitions,
//! groups and the whole expression are built rather than at every push; the limit on
//! the total number of runes in character classes (32M) is not checked. Unicode
//! class names are Go 1.27's tables (Unicode 17.0.0).

pub use crd_runtime::goregex::GoRegexpError;

/// `regexp.Compile(expr)`'s error, if any.
pub fn compile(expr: &str) -> Result<(), GoRegexpError> {
    crd_runtime::goregex::check(expr)
}

#[cfg(test)]
mod tests {
    //! Every regular expression of the CRD corpus (`shared/crds`): the `pattern`s of
    //! the schemas and the string literals given to CEL's `matches`, `find` and
    //! `findAll` in `x-kubernetes-validations` rules. The API server accepts these
    //! CRDs, so Go accepts each pattern; here each must parse, translate and compile.

    use super::compile;
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};
    use yaml_rust2::{Yaml, YamlLoader};

    fn corpus() -> Option<PathBuf> {
        let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/crds"));
        p.is_dir().then_some(p)
    }

    fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                yaml_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                out.push(p);
            }
        }
    }

    /// `pattern` values below `openAPIV3Schema`, and all CEL rules.
    fn collect(y: &Yaml, in_schema: bool, patterns: &mut BTreeSet<String>, rules: &mut BTreeSet<String>) {
        match y {
            Yaml::Hash(h) => {
                for (k, v) in h {
                    let key = k.as_str().unwrap_or_default();
                    match (key, v) {
                        ("pattern", Yaml::String(p)) if in_schema => {
                            patterns.insert(p.clone());
                        }
                        ("rule", Yaml::String(r)) => {
                            rules.insert(r.clone());
                        }
                        _ => collect(v, in_schema || key == "openAPIV3Schema", patterns, rules),
                    }
                }
            }
            Yaml::Array(a) => a.iter().for_each(|v| collect(v, in_schema, patterns, rules)),
            _ => {}
        }
    }

    /// The string literals right after `matches(`, `find(` and `findAll(` in a CEL
    /// rule, decoded; `None` for a call whose argument is not a literal.
    fn cel_regex_literals(rule: &str) -> Vec<Option<String>> {
        let mut out = Vec::new();
        for call in ["matches(", "find(", "findAll("] {
            for (i, _) in rule.match_indices(call) {
                if rule[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                out.push(cel_string(rule[i + call.len()..].trim_start()));
            }
        }
        out
    }

    /// A CEL string literal at the start of `s` (`'..'`, `".."`, triple quotes,
    /// `r` prefix).
    fn cel_string(s: &str) -> Option<String> {
        let (raw, s) = match s.strip_prefix(['r', 'R']) {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let quote = ["'''", "\"\"\"", "'", "\""].into_iter().find(|q| s.starts_with(q))?;
        let body = &s[quote.len()..];
        let mut out = String::new();
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            if body[i..].starts_with(quote) {
                return Some(out);
            }
            if c != '\\' || raw {
                out.push(c);
                continue;
            }
            let (_, e) = chars.next()?;
            out.push(match e {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                'a' => '\u{7}',
                'b' => '\u{8}',
                'f' => '\u{c}',
                'v' => '\u{b}',
                '\\' | '\'' | '"' | '`' | '?' => e,
                _ => return None,
            });
        }
        None
    }

    #[test]
    fn corpus_regular_expressions_parse_translate_and_compile() {
        let Some(dir) = corpus() else {
            eprintln!("shared/crds not found; skipping");
            return;
        };
        let mut files = Vec::new();
        yaml_files(&dir, &mut files);
        let (mut patterns, mut rules) = (BTreeSet::new(), BTreeSet::new());
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let Ok(docs) = YamlLoader::load_from_str(&text) else {
                continue;
            };
            for d in &docs {
                collect(d, false, &mut patterns, &mut rules);
            }
        }
        let (mut cel, mut skipped) = (BTreeSet::new(), 0);
        for r in &rules {
            for lit in cel_regex_literals(r) {
                match lit {
                    Some(p) => {
                        cel.insert(p);
                    }
                    None => skipped += 1,
                }
            }
        }
        eprintln!(
            "{} files: {} distinct schema patterns, {} distinct CEL regex literals ({skipped} calls without one)",
            files.len(),
            patterns.len(),
            cel.len()
        );
        assert!(patterns.len() > 100 && !cel.is_empty());
        let mut failures = Vec::new();
        for p in patterns.iter().chain(&cel) {
            if let Err(e) = compile(p) {
                failures.push(format!("{p:?}: Go check: {e}"));
                continue;
            }
            match crd_runtime::regex::compile(p) {
                Ok(re) => {
                    let _ = re.is_match("");
                }
                Err(e) => failures.push(format!("{p:?}: {e}")),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn cel_literals_are_decoded() {
        assert_eq!(
            cel_regex_literals(r#"self.matches('^a\\.b$') && x.find("c") == '' && y.matches(z)"#),
            [Some(r"^a\.b$".to_string()), None, Some("c".to_string())]
        );
        assert_eq!(
            cel_regex_literals(r#"v.matches(r"""^(?:[-A-Za-z0-9'()]|[%][0-9a-fA-F]{2})+$""")"#),
            [Some(r"^(?:[-A-Za-z0-9'()]|[%][0-9a-fA-F]{2})+$".to_string())]
        );
    }
}
