//! Regular expressions with Go's (RE2) semantics, compiled once.
//!
//! The API server matches `pattern` and CEL's `matches()` with Go's `regexp`. The
//! `regex` crate implements the same RE2 family with linear-time matching; the
//! differences that change results are the Perl classes (`\d`, `\w`, `\s`, `\b`),
//! which are ASCII-only in Go and Unicode-aware here: [`translate`] rewrites them to
//! their ASCII forms.

use regex::Regex;
use std::borrow::Cow;
use std::sync::OnceLock;

/// A pattern compiled on first use and kept. Usable in a `static`.
pub struct Pattern {
    source: Cow<'static, str>,
    compiled: OnceLock<Result<Regex, String>>,
}

impl Pattern {
    /// For generated code: `static P: Pattern = Pattern::new("^a+$");`.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source: Cow::Borrowed(source),
            compiled: OnceLock::new(),
        }
    }

    /// For patterns known only at run time (the reference engine, CEL literals).
    pub fn from_string(source: String) -> Self {
        Pattern {
            source: Cow::Owned(source),
            compiled: OnceLock::new(),
        }
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// The compiled expression, or the reason it does not compile.
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled
            .get_or_init(|| compile(&self.source))
            .as_ref()
            .map_err(|e| e.as_str())
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

/// Compiles a Go regular expression.
pub fn compile(source: &str) -> Result<Regex, String> {
    Regex::new(&translate(source)).map_err(|e| e.to_string())
}

/// Rewrites Go syntax whose meaning differs in the `regex` crate: Perl classes
/// outside and inside brackets become ASCII-only.
pub fn translate(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 8);
    let mut chars = source.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(n) = chars.next() else {
                    out.push('\\');
                    break;
                };
                match n {
                    'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                        let class = match n {
                            'd' => "0-9",
                            'w' => "0-9A-Za-z_",
                            's' => "\\t\\n\\f\\r ",
                            'D' => "^0-9",
                            'W' => "^0-9A-Za-z_",
                            _ => "^\\t\\n\\f\\r ",
                        };
                        if in_class {
                            // Inside brackets a negated class cannot be spliced in;
                            // keep it with Unicode turned off.
                            out.push_str(&format!("(?-u:\\{n})").replace("(?-u:", "").replace(')', ""));
                            if n.is_ascii_uppercase() {
                                out.truncate(out.len() - 2);
                                out.push_str(&format!("\\{n}"));
                            } else {
                                out.truncate(out.len() - 2);
                                out.push_str(class);
                            }
                        } else {
                            out.push('[');
                            out.push_str(class);
                            out.push(']');
                        }
                    }
                    'b' | 'B' if !in_class => out.push_str(&format!("(?-u:\\{n})")),
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A leading `]` or `^]` is literal.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            '[' if in_class && chars.peek() == Some(&':') => {
                // [:alpha:] inside a class
                out.push('[');
                for c in chars.by_ref() {
                    out.push(c);
                    if c == ']' {
                        break;
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_classes_are_ascii_like_go() {
        let p = Pattern::new(r"^\d+$");
        assert!(p.regex().unwrap().is_match("123"));
        assert!(!p.regex().unwrap().is_match("١٢٣"), "Arabic-Indic digits are not \\d in Go");
        let w = Pattern::new(r"^[\w-]+$");
        assert!(w.regex().unwrap().is_match("a_b-c"));
        assert!(!w.regex().unwrap().is_match("é"));
        let cron = Pattern::new(r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$");
        assert!(cron.regex().unwrap().is_match("5 0 * * *"));
        assert!(!cron.regex().unwrap().is_match("* * * *"));
    }
}
