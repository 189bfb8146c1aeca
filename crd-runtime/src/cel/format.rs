//! Printing CEL values: Go's `%v` of cel-go values (for the error messages that
//! include a value) and the arguments of `<string>.format(<list>)`.

use crate::strings::FormatArg;

use super::value::Val;

/// Go's `fmt.Sprintf("%v", v)` of a cel-go value: numbers and booleans plainly,
/// strings raw, lists `[a, b]`, maps `{k: v}`, durations and timestamps with Go's
/// `String()`, optionals `optional(v)`.
pub fn go_value(v: &Val<'_>) -> String {
    match v {
        Val::Null => "NULL_VALUE".into(),
        Val::Bool(b) => b.to_string(),
        Val::Int(i) => i.to_string(),
        Val::Uint(u) => u.to_string(),
        Val::Double(d) => crate::gofmt::float_v(*d),
        Val::String(s) => s.to_string(),
        Val::Bytes(b) => {
            let items: Vec<String> = b.iter().map(u8::to_string).collect();
            format!("[{}]", items.join(" "))
        }
        Val::Duration(d) => go_duration_string(d.nanos()),
        Val::Timestamp(t) => t.to_string(),
        Val::List(l) => {
            let items: Vec<String> = l
                .iter()
                .map(|x| x.map(|x| go_value(&x)).unwrap_or_else(|e| e.to_string()))
                .collect();
            format!("[{}]", items.join(", "))
        }
        Val::Map(m) => {
            let items: Vec<String> = m
                .keys()
                .iter()
                .map(|k| {
                    let v = match m.find(k) {
                        Some(Ok(v)) => go_value(&v),
                        Some(Err(e)) => e.to_string(),
                        None => String::new(),
                    };
                    format!("{}: {v}", go_value(k))
                })
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        Val::Optional(None) => "optional.none()".into(),
        Val::Optional(Some(v)) => format!("optional({})", go_value(v)),
        Val::Type(t) => t.name().to_string(),
        Val::Quantity(q, _) => q.to_string(),
        Val::Url(u) => u.to_string(),
        Val::Ip(ip) => ip.to_string(),
        Val::Cidr(c) => c.to_string(),
        Val::Semver(s) => s.to_string(),
        Val::Format(f) => f.name().to_string(),
        Val::Unknown(j) => j.to_string(),
    }
}

/// Go `time.Duration.String()`: `1h2m3.5s`, `1.5ms`, `0s`.
pub fn go_duration_string(nanos: i64) -> String {
    if nanos == 0 {
        return "0s".into();
    }
    let neg = nanos < 0;
    let u = nanos.unsigned_abs();
    let mut out = String::new();
    if u < 1_000_000_000 {
        // Sub-second: ns, µs or ms with a fraction.
        let (unit, scale) = if u < 1_000 {
            ("ns", 1)
        } else if u < 1_000_000 {
            ("µs", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        out.push_str(&fraction(u, scale));
        out.push_str(unit);
    } else {
        let h = u / 3_600_000_000_000;
        let rem = u % 3_600_000_000_000;
        let m = rem / 60_000_000_000;
        let s = rem % 60_000_000_000;
        if h > 0 {
            out.push_str(&format!("{h}h{m}m"));
        } else if m > 0 {
            out.push_str(&format!("{m}m"));
        }
        out.push_str(&fraction(s, 1_000_000_000));
        out.push('s');
    }
    if neg {
        out.insert(0, '-');
    }
    out
}

fn fraction(v: u64, scale: u64) -> String {
    let int = v / scale;
    let frac = v % scale;
    if frac == 0 {
        return int.to_string();
    }
    let width = scale.to_string().len() - 1;
    let f = format!("{frac:0width$}");
    format!("{int}.{}", f.trim_end_matches('0'))
}

/// A value as an argument of `<string>.format(<list>)`.
pub fn format_arg(v: &Val<'_>) -> FormatArg {
    match v {
        Val::Null => FormatArg::Null,
        Val::Bool(b) => FormatArg::Bool(*b),
        Val::Int(i) => FormatArg::Int(*i),
        Val::Uint(u) => FormatArg::Uint(*u),
        Val::Double(d) => FormatArg::Double(*d),
        Val::String(s) => FormatArg::String(s.to_string()),
        Val::Bytes(b) => FormatArg::Bytes(b.to_vec()),
        Val::Duration(d) => FormatArg::Duration(*d),
        Val::Timestamp(t) => FormatArg::Timestamp(*t),
        Val::List(l) => FormatArg::List(
            l.iter()
                .map(|x| {
                    x.map(|x| format_arg(&x))
                        .unwrap_or(FormatArg::Unsupported("error".into()))
                })
                .collect(),
        ),
        Val::Map(m) => FormatArg::Map(
            m.keys()
                .iter()
                .map(|k| {
                    let v = match m.find(k) {
                        Some(Ok(v)) => format_arg(&v),
                        _ => FormatArg::Unsupported("error".into()),
                    };
                    (format_arg(k), v)
                })
                .collect(),
        ),
        Val::Type(t) => FormatArg::Type(t.name().to_string()),
        other => FormatArg::Unsupported(other.type_name().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_like_go() {
        for (n, want) in [
            (0, "0s"),
            (1, "1ns"),
            (1_500, "1.5µs"),
            (1_500_000, "1.5ms"),
            (1_000_000_000, "1s"),
            (90_000_000_000, "1m30s"),
            (3_600_000_000_000, "1h0m0s"),
            (3_723_500_000_000, "1h2m3.5s"),
            (-1_500_000_000, "-1.5s"),
        ] {
            assert_eq!(go_duration_string(n), want, "{n}");
        }
    }
}
