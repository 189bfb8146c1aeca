//! JSON data as CEL values: Kubernetes' `UnstructuredToVal` (apiserver
//! `pkg/cel/common/valuesunstructured.go`).
//!
//! The conversion is lazy, as in Go: objects, maps and arrays are wrapped, and their
//! members are converted when they are read, so a value that does not fit the
//! schema is an error only when the expression reaches it.

use serde_json::Value as Json;

use super::error::{Error, Result};
use super::escaping::escape;
use super::list::{KeyNames, List, ListType};
use super::map::Map;
use super::schema::{CelSchema, SchemaRef};
use super::value::{Bytes, Str, Val};
use crate::time::{Duration, Timestamp};

/// The CEL value of JSON data with its schema (`UnstructuredToVal`).
/// `is_resource_root` adds `apiVersion`, `kind` and `metadata.name` /
/// `metadata.generateName` as the API server does for the root of a custom
/// resource (`WithTypeAndObjectMeta`); embedded resources get them anyway.
pub fn json_to_val<'a>(value: &'a Json, schema: &'a dyn CelSchema, is_resource_root: bool) -> Result<Val<'a>> {
    let schema = if is_resource_root {
        SchemaRef::resource_root(schema)
    } else {
        SchemaRef::new(schema)
    };
    to_val(value, schema)
}

/// `UnstructuredToVal` for a node.
pub(crate) fn to_val<'a>(value: &'a Json, schema: SchemaRef<'a>) -> Result<Val<'a>> {
    if value.is_null() {
        if schema.nullable() {
            return Ok(Val::Null);
        }
        return Err(Error::new("invalid data, got null for schema with nullable=false"));
    }
    if schema.int_or_string() {
        return match value {
            Json::String(s) => Ok(Val::str(s)),
            Json::Number(n) if n.as_i64().is_some() => Ok(Val::Int(n.as_i64().unwrap_or_default())),
            _ => Err(Error::new(
                "invalid data, expected XIntOrString value to be either a string or integer",
            )),
        };
    }
    match schema.schema_type() {
        "object" => {
            let Json::Object(m) = value else {
                return Err(Error::new(
                    "invalid data, expected a map for the provided schema with type=object",
                ));
            };
            let schema = if schema.embedded_resource() {
                SchemaRef::resource_root(schema.node())
            } else {
                schema
            };
            Ok(Val::Map(Map::json(m, schema)))
        }
        "array" => {
            let Json::Array(items) = value else {
                return Err(Error::new(
                    "invalid data, expected an array for the provided schema with type=array",
                ));
            };
            let Some(item_schema) = schema.items() else {
                return Err(Error::new("invalid array type, expected Items with a non-empty Schema"));
            };
            let list_type = match schema.list_type() {
                "" | "atomic" => ListType::Atomic,
                "set" => ListType::Set,
                "map" => ListType::Map(escaped_key_names(schema.list_map_keys())),
                other => {
                    return Err(Error::new(format!(
                        "invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got {other}"
                    )));
                }
            };
            Ok(Val::List(List::json(items, item_schema, list_type)))
        }
        "string" => {
            let Json::String(s) = value else {
                return Err(Error::new(format!(
                    "invalid data, expected string, got {}",
                    go_type_name(value)
                )));
            };
            string_val(s, schema.format())
        }
        "number" => match value {
            Json::Number(n) => Ok(Val::Double(number_as_f64(n))),
            _ => Err(Error::new(format!(
                "invalid data, expected float, got {}",
                go_type_name(value)
            ))),
        },
        "integer" => match value {
            Json::Number(n) if n.as_i64().is_some() => Ok(Val::Int(n.as_i64().unwrap_or_default())),
            _ => Err(Error::new(format!(
                "invalid data, expected int, got {}",
                go_type_name(value)
            ))),
        },
        "boolean" => match value {
            Json::Bool(b) => Ok(Val::Bool(*b)),
            _ => Err(Error::new(format!(
                "invalid data, expected bool, got {}",
                go_type_name(value)
            ))),
        },
        t => {
            if schema.preserve_unknown_fields() {
                return Ok(Val::Unknown(value));
            }
            Err(Error::new(format!(
                "invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got {t}"
            )))
        }
    }
}

/// Kubernetes' `escapeKeyProps`: names that cannot be escaped are kept as they are.
fn escaped_key_names<'a>(keys: Vec<&str>) -> KeyNames<'a> {
    KeyNames::Shared(
        keys.iter()
            .map(|k| escape(k).unwrap_or_else(|| k.to_string()))
            .collect(),
    )
}

/// A JSON number as Go's unstructured decoding holds it: integers as `int64`, the
/// rest (and integers out of the `int64` range) as `float64`.
fn number_as_f64(n: &serde_json::Number) -> f64 {
    match n.as_i64() {
        Some(i) => i as f64,
        None => n.as_f64().unwrap_or(f64::NAN),
    }
}

/// The Go type of decoded JSON (for `%T` in error messages).
fn go_type_name(v: &Json) -> &'static str {
    match v {
        Json::Null => "<nil>",
        Json::Bool(_) => "bool",
        Json::Number(n) if n.as_i64().is_some() => "int64",
        Json::Number(_) => "float64",
        Json::String(_) => "string",
        Json::Array(_) => "[]interface {}",
        Json::Object(_) => "map[string]interface {}",
    }
}

/// A string by its `format`: durations, dates, date-times and base64 bytes are
/// converted.
pub(crate) fn string_val<'a>(s: &'a str, format: &str) -> Result<Val<'a>> {
    match format {
        "duration" => strfmt_parse_duration(s)
            .map(|d| Val::Duration(Duration::from_nanos(d)))
            .map_err(|e| Error::new(format!("Invalid duration {s}: {e}"))),
        "date" => parse_date(s)
            .map(Val::Timestamp)
            .map_err(|e| Error::new(format!("Invalid date formatted string {s}: {e}"))),
        "date-time" => parse_date_time(s)
            .map(Val::Timestamp)
            .map_err(|e| Error::new(format!("Invalid date-time formatted string {s}: {e}"))),
        "byte" => base64_decode(s)
            .map(|b| Val::Bytes(Bytes::from(b)))
            .map_err(|e| Error::new(format!("Invalid byte formatted string {s}: {e}"))),
        _ => Ok(Val::String(Str::Borrowed(s))),
    }
}

/// kube-openapi strfmt `ParseDuration`: Go `time.ParseDuration`, else
/// `<digits> <unit word>` pairs added up (`3 days`, `1 wk 2h`).
pub(crate) fn strfmt_parse_duration(s: &str) -> std::result::Result<i64, String> {
    if let Ok(d) = crate::time::go_parse_duration(s) {
        return Ok(d);
    }
    const UNITS: [(&[&str], i64); 8] = [
        (&["ns", "nano"], 1),
        (&["us", "µs", "micro"], 1_000),
        (&["ms", "milli"], 1_000_000),
        (&["s", "sec"], 1_000_000_000),
        (&["m", "min"], 60_000_000_000),
        (&["h", "hr", "hour"], 3_600_000_000_000),
        (&["d", "day"], 86_400_000_000_000),
        (&["w", "wk", "week"], 604_800_000_000_000),
    ];
    let mut dur: i64 = 0;
    let mut ok = false;
    for (digits, unit) in duration_words(s) {
        // strconv.Atoi: out of range is an error for the whole string.
        let factor: i64 = digits.parse().map_err(|_| {
            format!(
                "strconv.Atoi: parsing {}: value out of range",
                crate::gofmt::quote(digits)
            )
        })?;
        let unit = unit.to_lowercase();
        for (variants, multiplier) in UNITS {
            let last = variants.len() - 1;
            for (i, v) in variants.iter().enumerate() {
                if (i == last && unit.starts_with(v)) || unit.eq_ignore_ascii_case(v) {
                    ok = true;
                    dur = dur.wrapping_add(factor.wrapping_mul(multiplier));
                }
            }
        }
    }
    if ok {
        Ok(dur)
    } else {
        Err(format!("unable to parse {s} as duration"))
    }
}

/// The matches of `(\d+)\s*([A-Za-zµ]+)`, leftmost first.
fn duration_words(s: &str) -> Vec<(&str, &str)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits_end = i;
        let mut j = i;
        while j < b.len() && matches!(b[j], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c') {
            j += 1;
        }
        let word_start = j;
        let rest = &s[j..];
        let word_len: usize = rest
            .chars()
            .take_while(|c| c.is_ascii_alphabetic() || *c == 'µ')
            .map(char::len_utf8)
            .sum();
        if word_len > 0 {
            out.push((&s[start..digits_end], &s[word_start..word_start + word_len]));
            i = word_start + word_len;
        }
    }
    out
}

/// Go `time.Parse("2006-01-02", s)`: midnight UTC.
fn parse_date(s: &str) -> std::result::Result<Timestamp, String> {
    let (secs, nanos, offset) = crate::time::go_time_parse(s, crate::time::GoLayout::Date)?;
    Timestamp::new(secs, nanos, offset)
}

/// kube-openapi strfmt `ParseDateTime`: `""` is the Unix epoch; otherwise Go's
/// `time.Parse` with five layouts in turn (RFC 3339 with exactly six, then three
/// fractional digits, `time.RFC3339`, `time.RFC3339Nano`, and ISO 8601 local time
/// without a zone, read as UTC), the first that parses giving the value, else the
/// last one's error. The first four take a subset of what `time.RFC3339` takes
/// (Go reads a fraction the layout does not show), with the same values, so two
/// parses decide.
fn parse_date_time(s: &str) -> std::result::Result<Timestamp, String> {
    use crate::time::{GoLayout, go_time_parse};
    if s.is_empty() {
        return Timestamp::new(0, 0, 0);
    }
    let (secs, nanos, offset) =
        go_time_parse(s, GoLayout::Rfc3339).or_else(|_| go_time_parse(s, GoLayout::LocalTime))?;
    Timestamp::new(secs, nanos, offset)
}

/// Go `base64.StdEncoding.Decode` (padding required; `\r` and `\n` skipped), with
/// Go's error text.
pub(crate) fn base64_decode(s: &str) -> std::result::Result<Vec<u8>, String> {
    fn val(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    }
    let input = s.as_bytes();
    let illegal = |i: usize| format!("illegal base64 data at input byte {i}");
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    let mut quantum = [0u32; 4];
    let mut n = 0;
    let mut i = 0;
    while i < input.len() {
        let c = input[i];
        if c == b'\r' || c == b'\n' {
            i += 1;
            continue;
        }
        if c == b'=' {
            // Padding: only at quantum positions 2 or 3, and the rest must be padding
            // (and newlines) to the end.
            if n < 2 {
                return Err(illegal(i));
            }
            let mut j = i + 1;
            if n == 2 {
                // A second `=` must follow (newlines aside).
                while j < input.len() && matches!(input[j], b'\r' | b'\n') {
                    j += 1;
                }
                if j == input.len() {
                    return Err(illegal(input.len()));
                }
                if input[j] != b'=' {
                    return Err(illegal(j - 1));
                }
                j += 1;
            }
            while j < input.len() && matches!(input[j], b'\r' | b'\n') {
                j += 1;
            }
            if j < input.len() {
                return Err(illegal(j));
            }
            let v = (quantum[0] << 18) | (quantum[1] << 12) | (quantum[2] << 6);
            out.push((v >> 16) as u8);
            if n == 3 {
                out.push((v >> 8) as u8);
            }
            return Ok(out);
        }
        let Some(v) = val(c) else {
            return Err(illegal(i));
        };
        quantum[n] = v;
        n += 1;
        if n == 4 {
            let v = (quantum[0] << 18) | (quantum[1] << 12) | (quantum[2] << 6) | quantum[3];
            out.extend_from_slice(&[(v >> 16) as u8, (v >> 8) as u8, v as u8]);
            n = 0;
        }
        i += 1;
    }
    if n != 0 {
        return Err(illegal(input.len() - n));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `date-time` strings read as kube-openapi's `ParseDateTime` reads them: RFC 3339
    /// or ISO 8601 local time (UTC), the error the last layout's, behind the API
    /// server's `Invalid date-time formatted string` (`valuesunstructured.go`).
    #[test]
    fn date_times_read_as_kube_openapi_reads_them() {
        let ts = |s: &str| match string_val(s, "date-time") {
            Ok(Val::Timestamp(t)) => (t.unix_seconds(), t.offset_seconds()),
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(ts("2024-01-01T10:00:00Z"), (1_704_103_200, 0));
        assert_eq!(ts("2024-01-01T10:00:00.123+02:00"), (1_704_096_000, 7_200));
        assert_eq!(ts("2024-01-01T10:00:00"), (1_704_103_200, 0));
        assert_eq!(ts(""), (0, 0));
        assert_eq!(
            string_val("ex", "date-time").unwrap_err().to_string(),
            "Invalid date-time formatted string ex: parsing time \"ex\" as \"2006-01-02T15:04:05\": cannot parse \"ex\" as \"2006\""
        );
        assert_eq!(
            string_val("2024-01-01", "date").map(|v| matches!(v, Val::Timestamp(_))),
            Ok(true)
        );
        assert_eq!(
            string_val("2024-01-01T00:00:00Z", "date").unwrap_err().to_string(),
            "Invalid date formatted string 2024-01-01T00:00:00Z: parsing time \"2024-01-01T00:00:00Z\": extra text: \"T00:00:00Z\""
        );
    }

    #[test]
    fn base64_like_go() {
        assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("aGVs\nbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("YQ==").unwrap(), b"a");
        assert_eq!(base64_decode("").unwrap(), b"");
        assert_eq!(base64_decode("YQ=").unwrap_err(), "illegal base64 data at input byte 3");
        assert_eq!(base64_decode("Y").unwrap_err(), "illegal base64 data at input byte 0");
        assert_eq!(
            base64_decode("YQ=x").unwrap_err(),
            "illegal base64 data at input byte 2"
        );
        assert_eq!(
            base64_decode("a*==").unwrap_err(),
            "illegal base64 data at input byte 1"
        );
    }

    #[test]
    fn strfmt_durations() {
        assert_eq!(strfmt_parse_duration("1h").unwrap(), 3_600_000_000_000);
        assert_eq!(strfmt_parse_duration("3 days").unwrap(), 3 * 86_400_000_000_000);
        assert_eq!(
            strfmt_parse_duration("1 wk 2 h").unwrap(),
            604_800_000_000_000 + 7_200_000_000_000
        );
        assert!(strfmt_parse_duration("x").is_err());
    }
}
