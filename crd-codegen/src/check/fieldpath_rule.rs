//! The JSON-path syntax of `x-kubernetes-validations[*].fieldPath` and of
//! `selectableFields[*].jsonPath` (§4.3 of SEMANTICS.md).
//!
//! Mirrors `ValidFieldPath` in `k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go`:
//! a path is a sequence of `.name` and `['quoted name']` steps that must resolve
//! through `properties` (or, when a node has no properties but has
//! `additionalProperties`, through the map's values). Numeric list indices are not
//! accepted. Quirks kept from Go:
//!
//! - The tokenizer splits on `.`, `[` and `]`; a token starting with `'` runs to the
//!   next `'` not preceded by a backslash (so `'a\\'` does not end at its last quote)
//!   or to the end of the input.
//! - After `.`, the next token is taken as the name whatever it is (`..a` names the
//!   field `.`).
//! - A step through `additionalProperties` yields a key step (`[name]`) in the
//!   returned path; one through `properties` a field step.
//!
//! Deliberate difference: where Go dereferences a nil schema (a path continuing below
//! `additionalProperties: true`, or a selectable field on a schema that could not be
//! converted) and the API server's request panics, this returns
//! `does not refer to a valid field`.

use super::structural::Structural;
use crate::fieldpath::FieldPath;

/// The tokens of Go's `bufio.Scanner` split function.
fn tokens(path: &str) -> Vec<&str> {
    let b = path.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < b.len() {
        let data = &b[start..];
        let mut len = data.len();
        if data[0] == b'\'' {
            for i in 1..data.len() {
                if data[i] == b'\'' && data[i - 1] != b'\\' {
                    len = i + 1;
                    break;
                }
            }
        } else if matches!(data[0], b'.' | b'[' | b']') {
            len = 1;
        } else if let Some(i) = data.iter().position(|c| matches!(c, b'.' | b'[' | b']')) {
            len = i;
        }
        out.push(&path[start..start + len]);
        start += len;
    }
    out
}

/// Go's `unescapeSingleQuote`: `\a \b \f \n \r \t \v \' \\`; any other escape is an
/// error (the last one found is reported, as Go's `ReplaceAllStringFunc` keeps going).
fn unescape_single_quote(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut err = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        // Go's `\\.` does not match a backslash followed by a newline (`.` excludes
        // `\n`), nor a trailing backslash: those stay as they are.
        match chars.clone().next() {
            None => out.push('\\'),
            Some('\n') => out.push('\\'),
            Some(d) => {
                chars.next();
                match d {
                    'a' => out.push('\u{7}'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'v' => out.push('\u{b}'),
                    '\'' => out.push('\''),
                    '\\' => out.push('\\'),
                    _ => err = Some(format!("invalid escape char \\{d}")),
                }
            }
        }
    }
    match err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Go's `ValidFieldPath(jsonPath, schema, WithFieldPathAllowArrayNotation(allow))`:
/// the path as a field path (relative, printed like Go's, e.g. `spec.labels[app]`)
/// and the schema it points to (`None` below `additionalProperties: true`), or the
/// error text.
pub fn valid_field_path<'a>(
    json_path: &str,
    schema: Option<&'a Structural>,
    allow_array_notation: bool,
) -> Result<(FieldPath, Option<&'a Structural>), String> {
    const INVALID: &str = "does not refer to a valid field";
    let mut path = FieldPath::root();
    let mut schema = schema;
    let toks = tokens(json_path);
    let mut i = 0;
    // Resolves one step below the current schema.
    let step = |path: &mut FieldPath, schema: &mut Option<&'a Structural>, name: &str| -> Result<(), String> {
        let s = schema.ok_or_else(|| INVALID.to_string())?;
        if !s.properties.is_empty() {
            *path = path.child(name);
            *schema = Some(s.properties.get(name).ok_or_else(|| INVALID.to_string())?);
        } else if let Some(ap) = &s.additional_properties {
            *path = path.key(name);
            *schema = ap.structural.as_deref();
        } else {
            return Err(INVALID.into());
        }
        Ok(())
    };
    while i < toks.len() {
        let tok = toks[i];
        i += 1;
        match tok {
            "[" => {
                if !allow_array_notation {
                    return Err("array notation is not allowed".into());
                }
                let Some(&tok) = toks.get(i) else {
                    return Err("unexpected end of JSON path".into());
                };
                i += 1;
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {tok}"));
                }
                let name = unescape_single_quote(&tok[1..tok.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                step(&mut path, &mut schema, &name)?;
                let Some(&tok) = toks.get(i) else {
                    return Err("unexpected end of JSON path".into());
                };
                i += 1;
                if tok != "]" {
                    return Err(format!("expected ] but got {tok}"));
                }
            }
            "." => {
                let Some(&tok) = toks.get(i) else {
                    return Err("unexpected end of JSON path".into());
                };
                i += 1;
                step(&mut path, &mut schema, tok)?;
            }
            _ => return Err(format!("expected [ or . but got: {tok}")),
        }
    }
    Ok((path, schema))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_follows_go_scanner() {
        assert_eq!(tokens(".a.b"), vec![".", "a", ".", "b"]);
        assert_eq!(tokens("['a.b'].c"), vec!["[", "'a.b'", "]", ".", "c"]);
        assert_eq!(tokens(r"['a\'b']"), vec!["[", r"'a\'b'", "]"]);
        assert_eq!(tokens("['abc"), vec!["[", "'abc"]);
        assert_eq!(tokens("a"), vec!["a"]);
        assert_eq!(tokens(""), Vec::<&str>::new());
    }

    #[test]
    fn unescapes_like_go() {
        assert_eq!(unescape_single_quote(r"a\'b\\c\n").unwrap(), "a'b\\c\n");
        assert_eq!(unescape_single_quote(r"\x").unwrap_err(), r"invalid escape char \x");
    }
}
