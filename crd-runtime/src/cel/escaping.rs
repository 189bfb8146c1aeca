//! Property-name escaping (apiserver `pkg/cel/escaping.go`, `Escape` and
//! `Unescape`): how schema property names become CEL field names and back.

/// CEL's reserved words (`celReservedSymbols`).
const RESERVED: [&str; 22] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
    "",
];

fn is_reserved(s: &str) -> bool {
    !s.is_empty() && RESERVED.contains(&s)
}

/// Kubernetes' `Escape`: the CEL field name of a property, `None` if the property
/// cannot be named in CEL (empty, leading digit, or a character outside
/// `[a-zA-Z0-9_./-]`). Reserved words become `__<word>__`; `__`, `.`, `-` and `/`
/// become `__underscores__`, `__dot__`, `__dash__` and `__slash__`.
pub fn escape(ident: &str) -> Option<String> {
    let first = *ident.as_bytes().first()?;
    if first.is_ascii_digit() {
        return None;
    }
    if is_reserved(ident) {
        return Some(format!("__{ident}__"));
    }
    let bytes = ident.as_bytes();
    let mut out = String::with_capacity(ident.len());
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'_' && bytes.get(i + 1) == Some(&b'_') {
            out.push_str("__underscores__");
            i += 2;
            continue;
        }
        match c {
            b'.' => out.push_str("__dot__"),
            b'-' => out.push_str("__dash__"),
            b'/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == b'_' => out.push(c as char),
            _ => return None,
        }
        i += 1;
    }
    Some(out)
}

/// Kubernetes' `Unescape`: replaces each `__<word>__` (the regular expression
/// `_{2}[^_]+_{2}`, leftmost matches) by what it stands for; `None` for an unknown
/// word, or a reserved word that is not the whole name.
pub fn unescape(escaped: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !escaped.contains("__") {
        return Some(std::borrow::Cow::Borrowed(escaped));
    }
    let b = escaped.as_bytes();
    let mut out = String::with_capacity(escaped.len());
    let mut i = 0;
    let mut copied = 0;
    while i + 1 < b.len() {
        if b[i] == b'_' && b[i + 1] == b'_' {
            let mut k = i + 2;
            while k < b.len() && b[k] != b'_' {
                k += 1;
            }
            if k > i + 2 && k + 1 < b.len() && b[k + 1] == b'_' {
                let word = &escaped[i + 2..k];
                let replacement = match word {
                    "underscores" => "__",
                    "dot" => ".",
                    "dash" => "-",
                    "slash" => "/",
                    w if is_reserved(w) => {
                        if k + 2 - i != escaped.len() {
                            return None;
                        }
                        w
                    }
                    _ => return None,
                };
                out.push_str(&escaped[copied..i]);
                out.push_str(replacement);
                i = k + 2;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&escaped[copied..]);
    Some(std::borrow::Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Cases from apiserver `pkg/cel/escaping_test.go`.
    #[test]
    fn escapes_like_kubernetes() {
        for (input, want) in [
            ("self", Some("self")),
            ("namespace", Some("__namespace__")),
            ("a__b", Some("a__underscores__b")),
            ("a___b", Some("a__underscores___b")),
            ("a.b-c/d", Some("a__dot__b__dash__c__slash__d")),
            ("_a", Some("_a")),
            ("1a", None),
            ("", None),
            ("a b", None),
            ("a:b", None),
            ("ünicode", None),
        ] {
            assert_eq!(escape(input).as_deref(), want, "{input}");
        }
    }

    #[test]
    fn unescapes_like_kubernetes() {
        for (input, want) in [
            ("self", Some("self")),
            ("__namespace__", Some("namespace")),
            ("a__underscores__b", Some("a__b")),
            ("a__underscores___b", Some("a___b")),
            ("a__dot__b__dash__c__slash__d", Some("a.b-c/d")),
            ("__if__x", None),
            ("a__unknown__b", None),
            ("a__b", Some("a__b")),
            ("__", Some("__")),
            ("____", Some("____")),
        ] {
            assert_eq!(unescape(input).as_deref(), want, "{input}");
        }
        for ident in ["a.b", "x-y/z", "a__b__c", "__", "in", "k8s.io/name"] {
            let e = escape(ident).unwrap();
            assert_eq!(unescape(&e).as_deref(), Some(ident), "{ident} via {e}");
        }
    }
}
