//! Conventions both directions share: serde's renaming rules (JSON names of Rust
//! fields and variants), the default plural of a kind, and the `apiVersion`, `kind` and
//! `metadata` properties controller-gen writes in a root schema. The derive front end
//! applies them to Rust input; the Rust emitters undo them to write Rust that derives
//! back to the same CRD.

use crate::ir::{Schema, Type};

/// serde's `rename_all` for a field (`snake_case` Rust name); `None` for an unknown rule.
pub fn rename_field(name: &str, rule: Option<&str>) -> Option<String> {
    let words: Vec<&str> = name.split('_').collect();
    Some(match rule {
        None => name.to_string(),
        Some("lowercase") | Some("snake_case") => name.to_string(),
        Some("UPPERCASE") | Some("SCREAMING_SNAKE_CASE") => name.to_ascii_uppercase(),
        Some("camelCase") => {
            let mut s = String::new();
            for (i, w) in words.iter().enumerate() {
                if i == 0 {
                    s.push_str(w);
                } else {
                    s.push_str(&capitalize(w));
                }
            }
            s
        }
        Some("PascalCase") => words.iter().map(|w| capitalize(w)).collect(),
        Some("kebab-case") => name.replace('_', "-"),
        Some("SCREAMING-KEBAB-CASE") => name.replace('_', "-").to_ascii_uppercase(),
        Some(_) => return None,
    })
}

/// serde's `rename_all` for a variant (`PascalCase` Rust name).
pub fn rename_variant(name: &str, rule: Option<&str>) -> String {
    let snake = || {
        let mut s = String::new();
        for (i, c) in name.chars().enumerate() {
            if c.is_uppercase() && i > 0 {
                s.push('_');
            }
            s.push(c.to_ascii_lowercase());
        }
        s
    };
    match rule {
        Some("lowercase") => name.to_ascii_lowercase(),
        Some("UPPERCASE") => name.to_ascii_uppercase(),
        Some("camelCase") => {
            let mut c = name.chars();
            c.next()
                .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
                .unwrap_or_default()
        }
        Some("snake_case") => snake(),
        Some("SCREAMING_SNAKE_CASE") => snake().to_ascii_uppercase(),
        Some("kebab-case") => snake().replace('_', "-"),
        Some("SCREAMING-KEBAB-CASE") => snake().replace('_', "-").to_ascii_uppercase(),
        _ => name.to_string(),
    }
}

fn capitalize(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// What controller-gen writes for `apiVersion`, `kind` and `metadata` in a root schema.
pub fn type_meta() -> indexmap::IndexMap<String, Schema> {
    let string = |d: &str| Schema {
        type_: Some(Type::String),
        description: Some(d.into()),
        ..Default::default()
    };
    let mut props = indexmap::IndexMap::new();
    props.insert("apiVersion".into(), string(API_VERSION_DOC));
    props.insert("kind".into(), string(KIND_DOC));
    props.insert(
        "metadata".into(),
        Schema {
            type_: Some(Type::Object),
            ..Default::default()
        },
    );
    props
}

pub const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object.\n\
    Servers should convert recognized schemas to the latest internal value, and\n\
    may reject unrecognized values.\n\
    More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";

pub const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents.\n\
    Servers may infer this from the endpoint the client submits requests to.\n\
    Cannot be updated.\n\
    In CamelCase.\n\
    More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// kube-derive's and controller-gen's plural for the common English endings.
pub fn pluralize(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    if s.ends_with('s') || s.ends_with('x') || s.ends_with('z') || s.ends_with("ch") || s.ends_with("sh") {
        return format!("{s}es");
    }
    if let Some(stem) = s.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        return format!("{stem}ies");
    }
    format!("{s}s")
}
