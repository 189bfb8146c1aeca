//! Rust names for JSON names: fields, types, enum variants and modules.
//!
//! Kubernetes names are camelCase with acronyms (`podIPs`, `clusterIP`, `URLs`,
//! `IPv4`), so words are split with two extra rules beside the usual case changes:
//! an acronym keeps a plural `s` (`IPs`) and a `v` followed by a digit (`IPv4`).

/// Splits a name into words: at case changes, digits stay with the word before
/// them, any other character separates words.
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !c.is_ascii_alphanumeric() {
            flush(&mut cur, &mut words);
            i += 1;
            continue;
        }
        if c.is_ascii_uppercase() {
            // An uppercase run: an acronym, or one capital starting a word.
            let start = i;
            while i < chars.len() && chars[i].is_ascii_uppercase() {
                i += 1;
            }
            let run: String = chars[start..i].iter().collect();
            let next_lower = i < chars.len() && chars[i].is_ascii_lowercase();
            let prev_ends_word = cur
                .chars()
                .last()
                .is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
            if prev_ends_word || run.len() > 1 {
                flush(&mut cur, &mut words);
            }
            if run.len() > 1 && next_lower {
                let plural_s = chars[i] == 's' && chars.get(i + 1).is_none_or(|n| !n.is_ascii_lowercase());
                let version_v = chars[i] == 'v' && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
                if plural_s || version_v {
                    cur.push_str(&run);
                    cur.push(chars[i]);
                    i += 1;
                    continue;
                }
                // `HTTPRoute`: the last capital starts the next word.
                cur.push_str(&run[..run.len() - 1]);
                flush(&mut cur, &mut words);
                cur.push_str(&run[run.len() - 1..]);
            } else {
                cur.push_str(&run);
            }
            continue;
        }
        cur.push(c);
        i += 1;
    }
    flush(&mut cur, &mut words);
    words
}

fn flush(cur: &mut String, words: &mut Vec<String>) {
    if !cur.is_empty() {
        words.push(std::mem::take(cur));
    }
}

/// Non-ASCII characters become `u<hex>` words: Rust warns about uncommon or
/// confusable code points in identifiers.
fn ascii_only(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!(" u{:x} ", c as u32));
        }
    }
    out
}

pub fn snake_case(name: &str) -> String {
    words(&ascii_only(name))
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_")
}

pub fn pascal_case(name: &str) -> String {
    let mut out = String::new();
    for w in words(&ascii_only(name)) {
        if out.ends_with(|c: char| c.is_ascii_digit()) && w.starts_with(|c: char| c.is_ascii_digit()) {
            out.push('_');
        }
        let mut chars = w.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    out
}

/// Rust keywords (2024 edition, strict and reserved).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
    "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self",
    "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract",
    "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

pub fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

/// A struct field name for a JSON property: snake_case, keywords as raw identifiers
/// (`r#type`), a leading digit prefixed with `_`, nothing left turned into `field`.
pub fn field_name(json: &str) -> String {
    let mut s = snake_case(json);
    if s.is_empty() {
        s = "field".into();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if NOT_RAW.contains(&s.as_str()) {
        s.push('_');
    } else if is_keyword(&s) {
        s.insert_str(0, "r#");
    }
    s
}

/// A type name segment for a JSON property (`podIPs` → `PodIps`).
pub fn type_segment(json: &str) -> String {
    pascal_case(json)
}

/// Names in scope in generated modules (prelude and imports) that generated types
/// must not shadow.
const RESERVED_TYPE_NAMES: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Vec",
    "String",
    "Box",
    "Default",
    "Clone",
    "Copy",
    "Debug",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "ToString",
    "ToOwned",
    "Iterator",
    "IntoIterator",
    "Extend",
    "FromIterator",
    "Serialize",
    "Deserialize",
    "Self",
];

/// The root type's name for a kind: the kind itself (`HTTPRoute` stays `HTTPRoute`),
/// unless it is not a Rust identifier (the API server accepts `Hos-List`: its lower
/// case is a DNS label), then its words in PascalCase (`HosList`).
pub fn kind_type_name(kind: &str) -> String {
    let is_ident = kind.starts_with(|c: char| c.is_ascii_alphabetic())
        && kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if is_ident && !is_keyword(kind) {
        kind.to_string()
    } else {
        match pascal_case(kind) {
            name if name.starts_with(|c: char| c.is_ascii_alphabetic()) => name,
            name => format!("Kind{name}"),
        }
    }
}

pub fn is_reserved_type_name(s: &str) -> bool {
    RESERVED_TYPE_NAMES.contains(&s)
}

/// Symbols spelled out, for enum values made only of symbols (`!=`, `=~`).
fn spell_symbols(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        let word = match c {
            '=' => "Eq",
            '!' => "Not",
            '~' => "Tilde",
            '<' => "Lt",
            '>' => "Gt",
            '*' => "Star",
            '+' => "Plus",
            '-' => "Minus",
            '%' => "Percent",
            '&' => "And",
            '|' => "Or",
            '@' => "At",
            '#' => "Hash",
            '$' => "Dollar",
            '^' => "Caret",
            '?' => "Question",
            '.' => "Dot",
            '/' => "Slash",
            ':' => "Colon",
            ',' => "Comma",
            _ => "",
        };
        out.push_str(word);
        out.push(' ');
    }
    out
}

/// An enum variant name for a string value.
pub fn variant_name(value: &str) -> String {
    let mut s = pascal_case(value);
    if s.is_empty() {
        s = pascal_case(&spell_symbols(value));
    }
    if s.is_empty() {
        s = "Empty".into();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'V');
    }
    if is_keyword(&s) {
        s.push('_');
    }
    s
}

/// A module name for an API group (`cert-manager.io` → `cert_manager_io`) or version.
pub fn module_name(s: &str) -> String {
    // A keyword gets `_` rather than `r#`, so that the name also reads as a plain
    // word in paths and file names (a version named `do` is `do_`).
    let name = field_name(s);
    match name.strip_prefix("r#") {
        Some(keyword) => format!("{keyword}_"),
        None => name,
    }
}

/// Makes `name` unique among `taken` by appending 2, 3, ...
pub fn unique(name: String, taken: &mut std::collections::HashSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    let sep = if name.ends_with(|c: char| c.is_ascii_digit()) {
        "_"
    } else {
        ""
    };
    numbered(&name, sep, taken)
}

/// The first of `{base}{sep}2`, `{base}{sep}3`, ... not in `taken`, which it joins.
pub fn numbered(base: &str, sep: &str, taken: &mut std::collections::HashSet<String>) -> String {
    (2u64..)
        .map(|n| format!("{base}{sep}{n}"))
        .find(|candidate| taken.insert(candidate.clone()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kinds that are not identifiers name their types in PascalCase (found by
    /// fuzzing: kind `Hos-List` made an invalid identifier).
    #[test]
    fn kind_type_names() {
        for (kind, name) in [
            ("HTTPRoute", "HTTPRoute"),
            ("CronTab", "CronTab"),
            ("Hos-List", "HosList"),
            ("Self", "SelfType"),
            ("Type", "Type"),
        ] {
            let mut got = kind_type_name(kind);
            if is_reserved_type_name(&got) {
                got.push_str("Type");
            }
            assert_eq!(got, name, "{kind}");
        }
    }

    /// Module names (groups, versions) are never raw identifiers (found by fuzzing:
    /// a version named `do` made `pub mod do`).
    #[test]
    fn module_names() {
        for (json, module) in [
            ("v1", "v1"),
            ("do", "do_"),
            ("type", "type_"),
            ("self", "self_"),
            ("example.com", "example_com"),
        ] {
            assert_eq!(module_name(json), module, "{json}");
        }
    }

    #[test]
    fn kubernetes_names() {
        for (json, field, ty) in [
            ("podIP", "pod_ip", "PodIp"),
            ("podIPs", "pod_ips", "PodIps"),
            ("URLs", "urls", "Urls"),
            ("IPv4", "ipv4", "Ipv4"),
            ("HTTPRoute", "http_route", "HttpRoute"),
            ("kubeAPIServer", "kube_api_server", "KubeApiServer"),
            ("apiVersion", "api_version", "ApiVersion"),
            ("x-kubernetes-foo", "x_kubernetes_foo", "XKubernetesFoo"),
            ("SSL_CERT", "ssl_cert", "SslCert"),
            ("foo2Bar", "foo2_bar", "Foo2Bar"),
            ("v1beta1", "v1beta1", "V1beta1"),
            ("type", "r#type", "Type"),
            ("self", "self_", "Self"),
            ("3d", "_3d", "3d"),
            ("$ref", "r#ref", "Ref"),
            ("", "field", ""),
            ("ñ", "uf1", "Uf1"),
        ] {
            assert_eq!(field_name(json), field, "field for {json}");
            assert_eq!(type_segment(json), ty, "type for {json}");
        }
    }

    #[test]
    fn enum_variants() {
        for (value, variant) in [
            ("Always", "Always"),
            ("=", "Eq"),
            ("!=", "NotEq"),
            ("=~", "EqTilde"),
            ("", "Empty"),
            ("1.0", "V1_0"),
            ("TCP", "Tcp"),
            ("self", "Self_"),
        ] {
            assert_eq!(variant_name(value), variant, "{value}");
        }
    }

    #[test]
    fn unique_names() {
        let mut taken = Default::default();
        assert_eq!(unique("Foo".into(), &mut taken), "Foo");
        assert_eq!(unique("Foo".into(), &mut taken), "Foo2");
        assert_eq!(unique("V1".into(), &mut taken), "V1");
        assert_eq!(unique("V1".into(), &mut taken), "V1_2");
    }
}
