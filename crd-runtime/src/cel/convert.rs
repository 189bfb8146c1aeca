//! Type conversions: `int()`, `uint()`, `double()`, `string()`, `bytes()`,
//! `bool()`, `duration()`, `timestamp()`, `type()` (cel-go's `ConvertToType` of
//! each value type, `common/types/*.go`, with Go's `strconv` parsing).

use super::error::{Error, INTEGER_OVERFLOW, Result, UNSIGNED_INTEGER_OVERFLOW};
use super::value::{TypeVal, Val, type_names};
use crate::time::{Duration, Timestamp};

/// Go `doubleToInt64Checked`.
pub fn double_to_int(d: f64) -> Result<i64> {
    if d.is_nan() || d.is_infinite() || d <= -9223372036854775808.0 || d >= 9223372036854775808.0 {
        return Err(Error::new(INTEGER_OVERFLOW));
    }
    Ok(d as i64)
}

/// Go `doubleToUint64Checked`.
pub fn double_to_uint(d: f64) -> Result<u64> {
    if d.is_nan() || !(0.0..18446744073709551616.0).contains(&d) {
        return Err(Error::new(UNSIGNED_INTEGER_OVERFLOW));
    }
    Ok(d as u64)
}

/// `uint(<int>)`.
pub fn int_to_uint(i: i64) -> Result<u64> {
    u64::try_from(i).map_err(|_| Error::new(UNSIGNED_INTEGER_OVERFLOW))
}

/// `int(<uint>)`.
pub fn uint_to_int(u: u64) -> Result<i64> {
    i64::try_from(u).map_err(|_| Error::new(INTEGER_OVERFLOW))
}

/// `int(<string>)`: Go `strconv.ParseInt(s, 10, 64)`.
pub fn string_to_int(s: &str) -> Result<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::conversion(type_names::STRING, type_names::INT));
    }
    s.parse()
        .map_err(|_| Error::conversion(type_names::STRING, type_names::INT))
}

/// `uint(<string>)`: Go `strconv.ParseUint(s, 10, 64)`.
pub fn string_to_uint(s: &str) -> Result<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::conversion(type_names::STRING, type_names::UINT));
    }
    s.parse()
        .map_err(|_| Error::conversion(type_names::STRING, type_names::UINT))
}

/// `double(<string>)`: Go `strconv.ParseFloat(s, 64)`: decimal and hexadecimal
/// (`0x1.8p1`) notation, `inf`, `infinity`, `nan` in any case, an optional sign;
/// values out of range are errors.
pub fn string_to_double(s: &str) -> Result<f64> {
    go_parse_float(s).ok_or_else(|| Error::conversion(type_names::STRING, type_names::DOUBLE))
}

fn go_parse_float(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let v = match lower.as_str() {
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        _ if lower.starts_with("0x") => parse_hex_float(&lower[2..])?,
        _ => {
            let b = body.as_bytes();
            let ok = !b.is_empty()
                && b.iter()
                    .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
                && b.iter().any(u8::is_ascii_digit);
            if !ok {
                return None;
            }
            let v: f64 = body.parse().ok()?;
            if v.is_infinite() {
                return None;
            }
            v
        }
    };
    Some(if neg { -v } else { v })
}

/// The mantissa and binary exponent of a Go hexadecimal float (`1.8p1`, after
/// `0x`); the exponent is required.
fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once('p')?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in int.chars() {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        value += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    let v = value * 2f64.powi(exp);
    (!v.is_infinite()).then_some(v)
}

/// `bool(<string>)`: Go `strconv.ParseBool`.
pub fn string_to_bool(s: &str) -> Result<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        _ => Err(Error::conversion(type_names::STRING, type_names::BOOL)),
    }
}

/// `string(<bytes>)`: the bytes must be UTF-8.
pub fn bytes_to_string(b: &[u8]) -> Result<String> {
    String::from_utf8(b.to_vec()).map_err(|_| Error::new("invalid UTF-8 in bytes, cannot convert to string"))
}

/// `string(<double>)`: Go `%g`.
pub fn double_to_string(d: f64) -> String {
    crate::gofmt::float_v(d)
}

/// `duration(<string>)`.
pub fn string_to_duration(s: &str) -> Result<Duration> {
    Ok(crate::time::duration(s)?)
}

/// `timestamp(<string>)`.
pub fn string_to_timestamp(s: &str) -> Result<Timestamp> {
    Ok(crate::time::timestamp(s)?)
}

/// `timestamp(<int>)`.
pub fn int_to_timestamp(secs: i64) -> Result<Timestamp> {
    Ok(crate::time::timestamp_from_unix(secs)?)
}

/// `type(x)` (cel-go `ConvertToType(TypeType)`): the value's type; data kept by
/// `x-kubernetes-preserve-unknown-fields` refuses (Kubernetes' `unknownPreserved`).
pub fn type_of(v: &Val<'_>) -> Result<TypeVal> {
    if let Val::Unknown(_) = v {
        return Err(Error::new(
            "type conversion to 'type' not supported for values preserved by x-kubernetes-preserve-unknown-fields",
        ));
    }
    Ok(v.type_of())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parsing() {
        assert_eq!(string_to_int("-12").unwrap(), -12);
        assert_eq!(string_to_int("+7").unwrap(), 7);
        assert!(string_to_int("1.0").is_err());
        assert!(string_to_int("9223372036854775808").is_err());
        assert!(string_to_uint("-1").is_err());
        assert_eq!(string_to_double("1e3").unwrap(), 1000.0);
        assert_eq!(string_to_double("-Infinity").unwrap(), f64::NEG_INFINITY);
        assert!(string_to_double("NaN").unwrap().is_nan());
        assert_eq!(string_to_double("0x1.8p1").unwrap(), 3.0);
        assert!(string_to_double("1e400").is_err());
        assert!(string_to_double("abc").is_err());
        assert_eq!(
            string_to_double("x").unwrap_err().to_string(),
            "type conversion error from 'string' to 'double'"
        );
        assert_eq!(
            double_to_int(-9223372036854775808.0).unwrap_err().to_string(),
            "integer overflow"
        );
        assert_eq!(
            double_to_uint(-1.0).unwrap_err().to_string(),
            "unsigned integer overflow"
        );
        assert!(string_to_bool("True").unwrap());
        assert!(string_to_bool("yes").is_err());
    }
}
