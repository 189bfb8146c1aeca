//! Go's ways of printing values, so that messages read exactly like the API server's.
//!
//! The API server formats bad values with `fmt`'s `%v` (numbers, booleans), `%q`
//! (strings) and `encoding/json` (everything else). Rust's own formatting differs in
//! small ways (exponent notation, escapes, HTML-safe JSON), so these functions
//! reproduce the Go behaviour.

use serde_json::Value;
use std::fmt::Write;

/// `fmt.Sprintf("%v", f)` for a float64, i.e. `strconv.FormatFloat(f, 'g', -1, 64)`:
/// the shortest round-trip digits, in `%e` form when the decimal exponent is below -4
/// or at least 6 (Go fixes the precision at 6 for this decision when printing the
/// shortest digits), so 1000000 prints as `1e+06`.
pub fn float_v(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf".into() } else { "-Inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let (negative, digits, x) = shortest_digits(f);
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if !(-4..6).contains(&x) {
        // %e with the shortest digits.
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if x < 0 { '-' } else { '+' });
        let _ = write!(out, "{:02}", x.abs());
    } else {
        push_fixed(&mut out, &digits, x);
    }
    out
}

/// Writes digits `d1 d2 ...` with the decimal point after the first digit moved to
/// exponent `x`, as plain decimal notation.
fn push_fixed(out: &mut String, digits: &str, x: i32) {
    let point = x + 1; // number of digits before the decimal point
    if point <= 0 {
        out.push_str("0.");
        for _ in 0..(-point) {
            out.push('0');
        }
        out.push_str(digits);
    } else if point as usize >= digits.len() {
        out.push_str(digits);
        for _ in 0..(point as usize - digits.len()) {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    }
}

/// Shortest round-trip decimal digits of `f` (without sign or point) and the decimal
/// exponent of the first digit.
fn shortest_digits(f: f64) -> (bool, String, i32) {
    // Rust's `{:e}` prints the shortest round-trip digits, e.g. `1.2345e6`.
    let s = format!("{:e}", f.abs());
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    (f.is_sign_negative(), digits, exp)
}

/// `encoding/json`'s float formatting: `'f'` notation, or `'e'` when the exponent is
/// < -6 or >= 21, with `e-07` cleaned up to `e-7`.
fn json_float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let (negative, digits, x) = shortest_digits(f);
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    let abs = f.abs();
    if !(1e-6..1e21).contains(&abs) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if x < 0 { '-' } else { '+' });
        let _ = write!(out, "{}", x.abs());
        // Go writes e-07 as e-7 but keeps two digits for positive exponents: e+21.
        if (0..10).contains(&x) {
            let len = out.len();
            out.insert(len - 1, '0');
        }
    } else {
        push_fixed(&mut out, &digits, x);
    }
    out
}

/// `fmt.Sprintf("%q", s)` (`strconv.Quote`): double-quoted with Go escapes; printable
/// Unicode is kept as is.
pub fn quote(s: &str) -> String {
    quote_bytes(s.as_bytes())
}

/// [`quote`] for bytes that may not be UTF-8 (Go strings are bytes): each invalid
/// byte prints as `\xNN`.
pub fn quote_bytes(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len() + 2);
    out.push('"');
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_escaped(&mut out, c);
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out.push('"');
    out
}

/// Go `strconv.IsPrint`: Latin-1 printable except U+00AD; elsewhere the Unicode
/// categories L, M, N, P and S.
fn is_print(c: char) -> bool {
    let r = c as u32;
    if r <= 0xff {
        return (0x20..=0x7e).contains(&r) || ((0xa1..=0xff).contains(&r) && r != 0xad);
    }
    static PRINT: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^[\p{L}\p{M}\p{N}\p{P}\p{S}]$").ok());
    let mut buf = [0u8; 4];
    PRINT.as_ref().is_some_and(|re| re.is_match(c.encode_utf8(&mut buf)))
}

/// One character of `strconv.Quote`'s output.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '"' | '\\' => {
            out.push('\\');
            out.push(c);
        }
        c if is_print(c) => out.push(c),
        '\x07' => out.push_str("\\a"),
        '\x08' => out.push_str("\\b"),
        '\x0c' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\x0b' => out.push_str("\\v"),
        c if (c as u32) < 0x20 || c == '\x7f' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if (c as u32) < 0x10000 => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\U{:08x}", c as u32);
        }
    }
}

/// `json.Marshal(v)` as Go writes it: compact, map keys sorted, `<`, `>` and `&`
/// escaped as `\u003c`, `\u003e`, `\u0026`, U+2028/U+2029 escaped, floats in Go's form.
pub fn json(v: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, v);
    out
}

fn write_json(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number_json(n)),
        Value::String(s) => write_json_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(out, k);
                out.push(':');
                write_json(out, &map[k]);
            }
            out.push('}');
        }
    }
}

fn number_json(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else {
        // Go decodes integers beyond int64 and all non-integers as float64.
        json_float(n.as_f64().unwrap_or(0.0))
    }
}

fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Prints a JSON value the way the API server prints a bad value of that type:
/// `%v` for numbers and booleans (Go sees int64 or float64), `%q` for strings,
/// `json.Marshal` for null, arrays and objects.
pub fn bad_value(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => float_v(n.as_f64().unwrap_or(0.0)),
        },
        Value::String(s) => quote(s),
        other => json(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floats_print_like_go_percent_v() {
        // Expected strings are what Go's fmt.Sprintf("%v", float64(x)) prints.
        for (f, want) in [
            (10.0, "10"),
            (1.5, "1.5"),
            (100000000.0, "1e+08"),
            (1234567.0, "1.234567e+06"),
            (123456.0, "123456"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5, "-2.5"),
            (1e21, "1e+21"),
            (1000000.0, "1e+06"),
            (999999.0, "999999"),
            (0.1, "0.1"),
        ] {
            assert_eq!(float_v(f), want, "{f}");
        }
    }

    #[test]
    fn floats_marshal_like_go_json() {
        for (f, want) in [
            (10.0, "10"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.5e-10, "1.5e-10"),
        ] {
            assert_eq!(json_float(f), want, "{f}");
        }
    }

    #[test]
    fn json_escapes_html_and_sorts_keys() {
        let v = json!({"b": "x > 0 && y < 1", "a": [1, 2.5, null, true]});
        assert_eq!(
            json(&v),
            r#"{"a":[1,2.5,null,true],"b":"x \u003e 0 \u0026\u0026 y \u003c 1"}"#
        );
    }

    #[test]
    fn quote_escapes_like_strconv_quote() {
        assert_eq!(quote("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(quote("\u{1}"), r#""\x01""#);
        assert_eq!(quote("héllo ✓"), "\"héllo ✓\"");
    }
}
