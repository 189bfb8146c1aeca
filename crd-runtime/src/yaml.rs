//! YAML out: [`to_string`] writes JSON values as `kubectl get -o yaml` lays them out,
//! quoting a string exactly when a YAML reader using go-yaml v2's rules (what
//! `kubectl` and the API server read YAML with) would read something else;
//! [`resolve_plain`] is those rules. `crd-codegen` reads YAML with the same rules.

use serde_json::{Map, Number, Value};

/// The value of a plain (unquoted) scalar under go-yaml v2's rules.
pub fn resolve_plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Value::Bool(true);
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Value::Bool(false);
        }
        _ => {}
    }
    let first = text.as_bytes()[0];
    if !(first.is_ascii_digit() || first == b'-' || first == b'+' || first == b'.') {
        return Value::String(text.to_string());
    }
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    if let Some(i) = parse_go_int(&plain) {
        return Value::Number(i);
    }
    if is_yaml_float(&plain)
        && let Ok(f) = plain.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(text.to_string())
}

/// `strconv.ParseInt(s, 0, 64)`, then `ParseUint`: optional sign, `0x`/`0o`/`0b`
/// prefixes, a leading `0` meaning octal.
fn parse_go_int(s: &str) -> Option<Number> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = if let Some(rest) = lower.strip_prefix("0x") {
        (16, rest)
    } else if let Some(rest) = lower.strip_prefix("0o") {
        (8, rest)
    } else if let Some(rest) = lower.strip_prefix("0b") {
        (2, rest)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u128::from_str_radix(body, radix).ok()?;
    if negative {
        let v = i128::try_from(magnitude).ok()?.checked_neg()?;
        i64::try_from(v).ok().map(Number::from)
    } else if let Ok(v) = i64::try_from(magnitude) {
        Some(Number::from(v))
    } else {
        u64::try_from(magnitude).ok().map(Number::from)
    }
}

/// go-yaml's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Writes a JSON value as block-style YAML the way `kubectl get -o yaml` lays it out:
/// two-space indentation, sequences flush with their key, strings quoted only when a
/// YAML reader would otherwise read something else.
pub fn to_string(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => write_map(&mut out, m, 0),
        Value::Array(a) if !a.is_empty() => write_seq(&mut out, a, 0),
        scalar => {
            out.push_str(&scalar_text(scalar));
            out.push('\n');
        }
    }
    out
}

fn write_map(out: &mut String, m: &Map<String, Value>, indent: usize) {
    for (k, v) in m {
        push_indent(out, indent);
        out.push_str(&string_text(k));
        out.push(':');
        write_child(out, v, indent, true);
    }
}

fn write_seq(out: &mut String, a: &[Value], indent: usize) {
    for v in a {
        push_indent(out, indent);
        out.push('-');
        match v {
            Value::Object(m) if !m.is_empty() => {
                // The first key goes on the dash line.
                let mut first = true;
                for (k, child) in m {
                    if first {
                        out.push(' ');
                        first = false;
                    } else {
                        push_indent(out, indent + 2);
                    }
                    out.push_str(&string_text(k));
                    out.push(':');
                    write_child(out, child, indent + 2, true);
                }
            }
            _ => write_child(out, v, indent, false),
        }
    }
}

/// Writes what follows `key:` or `-`.
fn write_child(out: &mut String, v: &Value, indent: usize, after_key: bool) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            write_map(out, m, indent + 2);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            // Sequences under a key are not indented further (go-yaml style).
            write_seq(out, a, if after_key { indent } else { indent + 2 });
        }
        scalar => {
            out.push(' ');
            out.push_str(&scalar_text(scalar));
            out.push('\n');
        }
    }
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string_text(s),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

/// A string as a plain scalar when that reads back as the same string under both
/// YAML 1.1 and 1.2 rules, else double-quoted with JSON escapes.
fn string_text(s: &str) -> String {
    if is_plain_safe(s) {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

fn is_plain_safe(s: &str) -> bool {
    if s.is_empty() || s.trim() != s {
        return false;
    }
    if !matches!(resolve_plain(s), Value::String(_)) {
        return false;
    }
    let first = s.chars().next().unwrap_or(' ');
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) || first.is_ascii_digit() || first == '.' || first == '+' {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return false;
    }
    // Timestamps and other YAML 1.1 forms some readers resolve.
    if s.chars().any(|c| c.is_control() || c == '\u{feff}') {
        return false;
    }
    true
}
